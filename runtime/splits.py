"""Standard splits (sets and one pair) from per-suit tables.

Each group (a number suit, the honours) is read as one int (`hand._code`)
and checked rank by rank; a group that splits is looked up in a table
filled on first sight, whose entries already carry the group's tile
offset, so a hand's splits are the product of four looked-up rows. The
table is keyed by one group's counts, never by a whole hand.
Equal to `hand.standard_decompositions`, in the same order.
"""

from __future__ import annotations

from itertools import product

from .hand import _GROUPS, _code, _splits, _suit_pair_sets, _suit_sets, standard_decompositions
from .tiles import NUM_PLAYABLE

TYPE_CHECKING = False  # `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Final

Split = tuple[int, tuple[tuple[int, int], ...]]

# one table per group (three suits, the honours), keyed by the group's code
# (`hand._code`); only groups that split are ever entered, so each table
# holds a few thousand rows at most however many hands are scored
_ROWS: "Final[tuple[dict[int, tuple[Split, ...]], ...]]" = ({}, {}, {}, {})


def _row(key: tuple[int, ...], lo: int, chows: bool) -> tuple[Split, ...]:
    """One group's splits, tile indices absolute; pair -1 when it has none;
    empty when the group cannot split."""
    rem = sum(key) % 3
    if rem == 1:
        return ()
    if rem == 2:
        return tuple((lo + r, tuple((k, lo + t) for k, t in sets)) for r, sets in _suit_pair_sets(key, chows))
    return tuple((-1, tuple((k, lo + t) for k, t in sets)) for sets in _suit_sets(key, chows))


def standard_splits(counts: list[int]) -> list[Split]:
    """Every (pair_tile, sets) split of `counts`; empty when none."""
    if len(counts) < NUM_PLAYABLE:
        return standard_decompositions(counts)
    rows: list[tuple[Split, ...]] = []
    single = True
    pair_groups = 0
    for g in range(4):
        lo, hi, chows = _GROUPS[g]
        code, rem = _code(counts, lo, hi)
        if code < 0:
            return standard_decompositions(counts)  # a count no hand holds: the reference search
        if rem == 2:
            pair_groups += 1
            if pair_groups > 1:
                return []
        elif rem == 1:
            return []
        known = _ROWS[g]
        found = known.get(code)
        if found is None:
            if not _splits(code, rem, chows):
                return []  # a group that does not split, read with no search (and not kept)
            found = known[code] = _row(tuple(counts[lo:hi]), lo, chows)
        single = single and len(found) == 1
        rows.append(found)
    if not pair_groups:
        return []
    if single:  # the common case: one way per group
        pair = -1
        sets: tuple[tuple[int, int], ...] = ()
        for (p, group_sets), in rows:
            if p >= 0:
                if pair >= 0:
                    return []
                pair = p
            sets += group_sets
        return [(pair, sets)] if pair >= 0 else []
    out: list[Split] = []
    for combo in product(*rows):
        pairs = [p for p, _ in combo if p >= 0]
        if len(pairs) != 1:
            continue
        out.append((pairs[0], tuple(s for _, group_sets in combo for s in group_sets)))
    return out
