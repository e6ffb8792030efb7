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


def candidates(table, counts: list) -> list[int]:
    """Kinds that could complete a hand: held kinds and their suit
    neighbours within two (a chow needs no more), or every kind when a
    shape such as thirteen orphans wins on unrelated tiles."""
    if table.ruleset.winning.thirteen_orphans:
        return [t for t in table.tile_kinds if t < NUM_PLAYABLE]
    near = set()
    for t in range(NUM_PLAYABLE):
        if counts[t]:
            if t < 27:
                base = t - t % 9
                near.update(range(max(base, t - 2), min(base + 9, t + 3)))
            else:
                near.add(t)
    return [t for t in table.tile_kinds if t in near]


def waits(table, counts: list, melds: list) -> list[int]:
    """Tile kinds that would complete the hand, skipping kinds the seat
    already holds all copies of (melds included)."""
    copies = table.ruleset.copies
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    out = []
    for t in candidates(table, counts):
        if held[t] >= copies:
            continue
        counts[t] += 1
        if is_complete(table, counts, melds):
            out.append(t)
        counts[t] -= 1
    return out


def may_be_ready(table, counts: list, melds: list) -> bool:
    """False when the 13 tiles (or the best 13 of 14) are surely not ready:
    a cheap test before computing waits."""
    return shanten(table, counts, melds) <= 0


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
