"""Standard splits (sets and one pair) from per-suit tables.

Each group (a number suit, the honours) is looked up by its count vector
in a table filled on first sight; its entries already carry the group's
tile offset, so a hand's splits are the product of four looked-up rows.
The table is keyed by one group's counts, never by a whole hand.
Equal to `hand.standard_decompositions`, in the same order.
"""

from __future__ import annotations

from itertools import product

from .hand import _GROUPS, _suit_pair_sets, _suit_sets
from .tiles import NUM_PLAYABLE

Split = tuple[int, tuple[tuple[int, int], ...]]

_ROWS: dict[tuple[bytes, int], tuple[Split, ...]] = {}


def _row(key: bytes, lo: int, chows: bool) -> tuple[Split, ...]:
    """One group's splits, tile indices absolute; pair -1 when it has none;
    empty when the group cannot split."""
    counts = tuple(key)
    rem = sum(counts) % 3
    if rem == 1:
        return ()
    if rem == 2:
        return tuple((lo + r, tuple((k, lo + t) for k, t in sets)) for r, sets in _suit_pair_sets(counts, chows))
    return tuple((-1, tuple((k, lo + t) for k, t in sets)) for sets in _suit_sets(counts, chows))


def standard_splits(counts: list[int]) -> list[Split]:
    """Every (pair_tile, sets) split of `counts`; empty when none."""
    row = bytes(counts[:NUM_PLAYABLE])
    rows: list[tuple[Split, ...]] = []
    single = True
    for lo, hi, chows in _GROUPS:
        key = row[lo:hi]
        found = _ROWS.get((key, lo))
        if found is None:
            found = _ROWS[key, lo] = _row(key, lo, chows)
        if not found:
            return []
        single = single and len(found) == 1
        rows.append(found)
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
