"""Knitted shapes: a knitted straight is 147 of one suit, 258 of
another and 369 of the third. Two winning shapes use it:

- honours and knitted tiles: fourteen different tiles, the number
  tiles all from one knitted straight, the rest honours;
- a knitted straight with one more set and a pair.
"""

from __future__ import annotations

from itertools import permutations
from typing import Callable

from . import hand as hm
from .tiles import NUM_PLAYABLE

# The six knitted straights: which suit holds 147, 258 and 369, and the nine tiles.
_ORDERS = tuple(permutations(range(3)))
STRAIGHTS = tuple(
    tuple(sorted(suit * 9 + r for i, suit in enumerate(order) for r in (i, i + 3, i + 6))) for order in _ORDERS
)
_STRAIGHT_SETS = tuple(frozenset(s) for s in STRAIGHTS)


def _has_knit_row(c: list[int], b: int) -> bool:
    """The suit starting at index b holds 147, 258 or 369."""
    return bool((c[b] and c[b + 3] and c[b + 6]) or (c[b + 1] and c[b + 4] and c[b + 7]) or (c[b + 2] and c[b + 5] and c[b + 8]))


def _missing(counts: list[int]) -> list[int]:
    """For each straight, how many of its nine tiles the counts lack."""
    lack = [[(not counts[b + c]) + (not counts[b + c + 3]) + (not counts[b + c + 6]) for c in range(3)] for b in (0, 9, 18)]
    return [lack[order[0]][0] + lack[order[1]][1] + lack[order[2]][2] for order in _ORDERS]


def honours_and_knitted(counts: list[int]) -> bool:
    """Fourteen different tiles: number tiles of one knitted straight, honours."""
    total = 0
    for t in range(NUM_PLAYABLE):  # one pass, small ints (sum and max add and compare boxed ones)
        c = counts[t]
        if c > 1:
            return False
        total += c
    if total != 14:
        return False
    present = _present(counts)
    return any(not present & ~mask for mask in _STRAIGHT_MASKS)


def full_straight(counts: list[int]) -> bool:
    """The tiles hold a whole knitted straight."""
    return all(_has_knit_row(counts, b) for b in (0, 9, 18)) and 0 in _missing(counts)


def decompositions(counts: list[int], split: Callable = hm.standard_decompositions) -> list[tuple[tuple, int, tuple]]:
    """Every (straight, pair_tile, sets) reading of concealed `counts` as a
    knitted straight plus standard sets and a pair (`split`: the splitter
    of the rest, any equal to `hand.standard_decompositions`)."""
    if not all(_has_knit_row(counts, b) for b in (0, 9, 18)):
        return []
    out = []
    for s, lack in zip(STRAIGHTS, _missing(counts)):
        if lack:
            continue
        rest = list(counts)
        for t in s:
            rest[t] = rest[t] - 1
        for pair, sets in split(rest):
            out.append((s, pair, sets))
    return out


def is_complete(counts: list[int], melds: int) -> bool:
    """A knitted-straight hand (at most one meld beside the straight)."""
    return melds <= 1 and sum(counts[:NUM_PLAYABLE]) == 14 - 3 * melds and bool(decompositions(counts))


def _near(counts: list[int], need: int) -> bool:
    """Some straight lacks at most `need` of its tiles."""
    return min(_missing(counts)) <= need


def waits(counts: list[int], melds: int, honours_knitted: bool, straight_hands: bool) -> list[int]:
    """Kinds completing either knitted shape from 13 - 3 * melds tiles."""
    hand = counts[:NUM_PLAYABLE]
    if sum(map(bool, hand[:27])) < 6:  # too few number kinds for either shape
        return []
    try_hk = honours_knitted and not melds and max(hand) <= 1
    if try_hk:
        numbers = frozenset(t for t in range(27) if hand[t])
        try_hk = any(numbers <= s for s in _STRAIGHT_SETS)
    try_straight = straight_hands and _near(counts, 1)
    if not (try_hk or try_straight):
        return []
    out = []
    grown = list(counts)
    for t in range(NUM_PLAYABLE):
        grown[t] = grown[t] + 1
        if (try_hk and honours_and_knitted(grown)) or (try_straight and is_complete(grown, melds)):
            out.append(t)
        grown[t] = grown[t] - 1
    return out


def waits_by_straight(counts: list[int], melds: int, honours_knitted: bool, straight_hands: bool) -> list[int]:
    """`waits`, with the knitted-straight hands worked out once per straight
    instead of once per candidate tile: a straight held whole waits on
    what completes the tiles beside it; a straight lacking one tile waits
    on that tile when the tiles beside it already form sets and a pair."""
    hand = counts[:NUM_PLAYABLE]
    present = _present(hand)
    if present.bit_count() < 6:
        return []
    # both hands need a straight holding every number tile held, or held but for one tile
    if not any(not present & ~mask or (mask & ~present).bit_count() <= 1 for mask in _STRAIGHT_MASKS):
        return []
    found: set[int] = set()
    if honours_knitted and not melds and max(hand) <= 1 and sum(hand) == 13:
        numbers = [t for t in range(27) if hand[t]]
        for s in _STRAIGHT_SETS:
            if all(t in s for t in numbers):
                # thirteen different tiles of one straight and the honours: the fourteenth is any other of them
                found.update(t for t in range(NUM_PLAYABLE) if not hand[t] and (t >= 27 or t in s))
    if straight_hands and melds <= 1 and sum(hand) == 13 - 3 * melds:
        for straight, mask in zip(STRAIGHTS, _STRAIGHT_MASKS):
            if (mask & ~present).bit_count() > 1:
                continue
            rest = list(hand)
            gap = -1
            for t in straight:
                if rest[t]:
                    rest[t] = rest[t] - 1
                else:
                    gap = t
            if gap >= 0:
                if hm.is_standard_win(rest):
                    found.add(gap)
            else:
                found.update(hm.standard_waits(rest, fifth_copy=True))
    return sorted(found)


_STRAIGHT_MASKS = tuple(sum(1 << t for t in s) for s in STRAIGHTS)


def _present(hand: list[int]) -> int:
    """The number kinds held, as a 27-bit mask. A plain loop: faster than
    per-suit rows looked up by their bytes, compiled (0.28 against 0.88 µs)
    and pure (1.31 against 1.38 µs)."""
    mask = 0
    for t in range(27):
        if hand[t]:
            mask |= 1 << t
    return mask
