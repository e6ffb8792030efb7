"""Shape questions about one seat's tiles under a variant's winning shapes:
does it win, what does it wait on, how far is it from ready."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import hand as hm
from . import jokers as jk
from . import knitted as kn
from . import scoring_form
from .tiles import NUM_PLAYABLE

if TYPE_CHECKING:  # typed for the compiled build: native attribute access on the hot paths
    from .game import SeatState
    from .ruleset import Table


def split_wilds(counts: list, wilds) -> tuple[list, int]:
    """Counts without the wild tiles, and how many wild tiles there were."""
    plain = list(counts)
    n = 0
    for t in wilds:
        n += plain[t]
        plain[t] = 0
    return plain, n


def _complete_with_jokers(table: Table, counts: list, melds: list) -> bool:
    win = table.ruleset.winning
    plain, jokers = split_wilds(counts, table.wilds)
    if win.standard and jk.standard_complete(plain, jokers):
        return True
    if not melds:
        if win.seven_pairs and jk.seven_pairs_complete(plain, jokers, win.quads_as_two_pairs):
            return True
        if win.thirteen_orphans and jk.thirteen_orphans_complete(plain, jokers):
            return True
    return False


def is_complete(table: Table, counts: list, melds: list) -> bool:
    """`counts` (winning tile included) with `melds` form a winning shape."""
    if table.wilds:
        return _complete_with_jokers(table, counts, melds)
    win = table.ruleset.winning
    if win.standard and hm.is_standard_win(counts):
        return True
    if not melds:
        if win.seven_pairs and hm.is_seven_pairs(counts, win.quads_as_two_pairs):
            return True
        if win.thirteen_orphans and hm.is_thirteen_orphans(counts):
            return True
        if win.honours_and_knitted and kn.honours_and_knitted(counts):
            return True
    return bool(win.knitted_straight and kn.is_complete(counts, len(melds)))


def shape_waits(table: Table, counts: list, melds: list, fifth_copy: bool = False, enough: int = 0) -> set[int]:
    """Tile kinds that complete the hand's shape (no wilds); `fifth_copy`:
    by shape alone, even a kind the hand already holds four of; `enough`:
    stop looking once that many are found (0: find them all)."""
    win = table.ruleset.winning
    found = set(hm.standard_waits(counts, fifth_copy)) if win.standard else set()
    if enough and len(found) >= enough:
        return found
    if not melds:
        if win.seven_pairs:
            found.update(hm.seven_pairs_waits(counts, win.quads_as_two_pairs))
        if win.thirteen_orphans:
            found.update(hm.thirteen_orphans_waits(counts))
        if enough and len(found) >= enough:
            return found
    if win.honours_and_knitted or win.knitted_straight:
        found.update(scoring_form.knitted_waits()(counts, len(melds), win.honours_and_knitted, win.knitted_straight))
    return found


def waits(table: Table, counts: list, melds: list) -> list[int]:
    """Tile kinds that would complete the hand, skipping kinds the seat
    already holds all copies of (melds included)."""
    if table.wilds:
        return _waits_with_jokers(table, counts, melds)
    found = shape_waits(table, counts, melds)
    if not found:
        return []
    copies = table.ruleset.copies
    held = _held(counts, melds)
    kinds = table.kind_set
    return sorted(t for t in found if held[t] < copies and t in kinds)


def _held(counts: list, melds: list) -> list[int]:
    """The concealed counts with the melds' tiles added."""
    held: list[int] = list(counts)
    for m in melds:
        m.add_to(held)
    return held


def _waits_with_jokers(table: Table, counts: list, melds: list) -> list[int]:
    held = _held(counts, melds)
    copies = table.ruleset.copies
    candidates = [t for t in table.tile_kinds if t < NUM_PLAYABLE and held[t] < copies]
    win = table.ruleset.winning
    plain, jokers = split_wilds(counts, table.wilds)
    # drawing a wild adds a joker; drawing another tile adds that tile
    found = set()
    if win.standard:
        others = [t for t in candidates if t not in table.wilds]
        if jokers:
            found.update(jk.standard_waits(plain, jokers, others))
        else:
            found.update(t for t in hm.standard_waits(plain) if t in others)
        if any(t in table.wilds for t in candidates) and jk.standard_complete(plain, jokers + 1):
            found.update(t for t in candidates if t in table.wilds)
    if not melds and win.seven_pairs:
        found.update(_seven_pair_waits(table, plain, jokers, candidates))
    if not melds and win.thirteen_orphans and not any(plain[t] for t in range(NUM_PLAYABLE) if t not in hm.ORPHANS):
        for t in candidates:
            grown = list(plain)
            extra = jokers
            if t in table.wilds:
                extra += 1
            else:
                grown[t] = grown[t] + 1
            if jk.thirteen_orphans_complete(grown, extra):
                found.add(t)
    return sorted(found)


def _seven_pair_waits(table: Table, plain: list, jokers: int, candidates) -> list[int]:
    """Seven pairs need a joker for every kind held an odd number of times."""
    quads = table.ruleset.winning.quads_as_two_pairs
    if sum(plain[:NUM_PLAYABLE]) + jokers != 13:
        return []
    odd = sum(1 for c in plain[:NUM_PLAYABLE] if c % 2)
    out = []
    for t in candidates:
        if t in table.wilds:
            ok = odd <= jokers + 1
        else:
            ok = (odd - 1 if plain[t] % 2 else odd + 1) <= jokers and (quads or plain[t] < 2)
        if ok and (quads or max(plain[:NUM_PLAYABLE]) <= 2):
            out.append(t)
    return out


def may_be_ready(table: Table, counts: list, melds: list) -> bool:
    """False only when no discard from these 3k+2 tiles leaves a hand with
    `waits`: a quick test (one pass over the groups) before the search of
    each discard's waits. Always True with wild tiles or knitted shapes."""
    win = table.ruleset.winning
    if table.wilds or win.honours_and_knitted or win.knitted_straight:
        return True
    if win.standard and hm.ready_after_discard(counts):
        return True
    if melds or not (win.seven_pairs or win.thirteen_orphans):
        return False
    odd = 0  # kinds held an odd number of times: seven pairs leave one after the discard
    simples = 0  # tiles that are not terminals or honours: thirteen orphans leave none
    for t in range(NUM_PLAYABLE):
        c = counts[t]
        if c:
            if c < 0 or c > 4:
                return True
            odd += c & 1
            if t < 27 and 0 < t % 9 < 8:
                simples += c
    return (win.seven_pairs and odd <= 2) or (win.thirteen_orphans and simples <= 1)


def seat_waits(table: Table, st: SeatState) -> frozenset:
    """`waits` of a seat's 13 concealed tiles, cached until they change."""
    if st.waits_key != st.counts:
        st.waits_key = list(st.counts)
        st.waits = frozenset(waits(table, st.counts, st.melds))
    return st.waits


def shanten(table: Table, counts: list, melds: list) -> int:
    """Tiles away from ready: -1 complete, 0 ready. With wild tiles, an
    estimate for bots: each wild saves one tile (exact at -1)."""
    if table.wilds:
        plain, jokers = split_wilds(counts, table.wilds)
        if sum(counts[:NUM_PLAYABLE]) % 3 == 2 and _complete_with_jokers(table, counts, melds):
            return -1
        return max(0, _shanten_plain(table, plain, melds) - jokers)
    return _shanten_plain(table, counts, melds)


def _shanten_plain(table: Table, counts: list, melds: list) -> int:
    win = table.ruleset.winning
    best = hm.standard_shanten(counts, len(melds), table.sets) if win.standard else 2 * table.sets
    if not melds:
        if win.seven_pairs:
            best = min(best, hm.seven_pairs_shanten(counts, win.quads_as_two_pairs))
        if win.thirteen_orphans:
            best = min(best, hm.thirteen_orphans_shanten(counts))
    return best
