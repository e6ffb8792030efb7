"""Shape questions about one seat's tiles under a variant's winning shapes:
does it win, what does it wait on, how far is it from ready."""

from __future__ import annotations

from . import hand as hm
from .tiles import NUM_PLAYABLE


def is_complete(table, counts: list, melds: list) -> bool:
    """`counts` (winning tile included) with `melds` form a winning shape."""
    win = table.ruleset.winning
    if win.standard and hm.is_standard_win(counts):
        return True
    if not melds:
        if win.seven_pairs and hm.is_seven_pairs(counts, win.quads_as_two_pairs):
            return True
        if win.thirteen_orphans and hm.is_thirteen_orphans(counts):
            return True
    return False


def waits(table, counts: list, melds: list) -> list[int]:
    """Tile kinds that would complete the hand, skipping kinds the seat
    already holds all copies of (melds included)."""
    win = table.ruleset.winning
    found = set(hm.standard_waits(counts)) if win.standard else set()
    if not melds:
        if win.seven_pairs:
            found.update(hm.seven_pairs_waits(counts, win.quads_as_two_pairs))
        if win.thirteen_orphans:
            found.update(hm.thirteen_orphans_waits(counts))
    if not found:
        return []
    copies = table.ruleset.copies
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    kinds = table.kind_set
    return sorted(t for t in found if held[t] < copies and t in kinds)


def seat_waits(table, st) -> frozenset:
    """`waits` of a seat's 13 concealed tiles, cached until they change."""
    if st.waits_key != st.counts:
        st.waits_key = list(st.counts)
        st.waits = frozenset(waits(table, st.counts, st.melds))
    return st.waits


def shanten(table, counts: list, melds: list) -> int:
    """Tiles away from ready: -1 complete, 0 ready."""
    win = table.ruleset.winning
    best = hm.standard_shanten(counts, len(melds)) if win.standard else 8
    if not melds:
        if win.seven_pairs:
            best = min(best, hm.seven_pairs_shanten(counts, win.quads_as_two_pairs))
        if win.thirteen_orphans:
            best = min(best, hm.thirteen_orphans_shanten(counts))
    return best
