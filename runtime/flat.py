"""Valuing one reading of a hand with the fan table's fast form.

The compiler lays each fan table out flat (`FlatFans` in the generated
module): fans at bit positions in exclusion order, 不计 lists as masks.
Hits are a mask; counts other than one and the sets a fan used sit in
small dicts keyed by position. The result is the same list of
(FanSpec, value, count) that `scoring.value_arrangement` gives from the
readable form, in the same order.
"""

from __future__ import annotations

from .hand_facts import SET_CHOW, Arrangement, HandFacts
from .ruleset import LOW_WORD, WORD, FanSpec, FlatFans, Table

TYPE_CHECKING = False  # `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Callable


def ignore_mask(table: Table, flat: FlatFans, ignore: frozenset) -> int:
    """The positions of the fan ids a caller asked to leave out."""
    mask = 0
    index = table.fan_plan.index
    for fid in ignore:
        i = index.get(fid)
        if i is not None:
            mask |= 1 << flat.position[i]
    return mask


def value_flat(
    table: Table, flat: FlatFans, find: Callable, h: HandFacts, d: Arrangement, ignore: int, hand_bits: int,
    hand_many: dict[int, int],
) -> list[tuple[FanSpec, int, int]]:
    """The fans counted for one reading: [(FanSpec, value, count)];
    `find` is the ruleset's `flat_fans_of_arrangement`."""
    many: dict[int, int] = dict(hand_many) if hand_many else {}
    bits: int = hand_bits | find(h, d, table.o, many)
    used: dict[int, tuple[int, ...]] = {}
    if d.sets:
        bits = _set_hits(table, flat, h, d, bits, many, used)
    bits &= ~ignore
    if flat.listed:
        counted, kept_low, kept_high = _listed(table, flat, bits, many, used)
    else:
        counted, kept_low, kept_high = _transitive(table, flat, bits, many)
    if flat.alone and (kept_low & flat.alone_low or kept_high & flat.alone_high) and (
        kept_low & flat.other_low or kept_high & flat.other_high
    ):
        # a fan counted alone goes when any fan but a bonus is counted too
        counted = [c for c in counted if not c[0].alone]
    return counted


def _set_hits(
    table: Table, flat: FlatFans, h: HandFacts, d: Arrangement, bits: int, many: dict[int, int], used: dict[int, tuple[int, ...]]
) -> int:
    """Add fans over groups of sets and fans counted per set. A set is held
    as one int, its key tile times 8 plus its position among the sets, so
    that sorting by tile is a sort of small ints."""
    plan = table.fan_plan
    position = flat.position
    chows: list[int] = []
    pungs: list[int] = []
    pos = 0
    for k, t in d.sets:
        if k == SET_CHOW:
            chows.append(t * 8 + pos)
        else:
            pungs.append(t * 8 + pos)
        pos += 1
    chow_kind = plan.chow_kind
    for kind, engine in plan.set_engines:
        keyed = chows if kind == chow_kind else pungs
        if len(keyed) < 2:
            continue
        keyed.sort()
        for i, group in engine.count(tuple([x >> 3 for x in keyed])):  # typed: unpacked natively
            p = position[i]
            b = 1 << p
            sets = tuple([keyed[g] & 7 for g in group])
            if bits & b:
                many[p] = many.get(p, 1) + 1
                used[p] = used.get(p, ()) + sets
            else:
                bits |= b
                used[p] = sets
    for i, kind, tiles_of in plan.each:
        keyed = chows if kind == chow_kind else pungs
        if not keyed:
            continue
        tiles = tiles_of(h, d, table.o)
        on = tuple([x & 7 for x in keyed if x >> 3 in tiles])
        if on:
            p = position[i]
            bits |= 1 << p
            many[p] = len(on)
            used[p] = on
    return bits


def _transitive(
    table: Table, flat: FlatFans, bits: int, many: dict[int, int]
) -> tuple[list[tuple[FanSpec, int, int]], int, int]:
    """A hit fan excludes its exclusions whether or not it is itself
    counted; positions are fan indices here, so low bits come first. With
    the mask of the positions counted, in two words."""
    excluded = 0
    rest = bits
    excludes = flat.excludes
    while rest:
        low = rest & -rest
        excluded |= excludes[low.bit_length() - 1]
        rest ^= low
    out: list[tuple[FanSpec, int, int]] = []
    kept = rest = bits & ~excluded
    order = flat.order
    fans, values = table.fans, table.fan_values
    while rest:
        low = rest & -rest
        p = low.bit_length() - 1
        i = order[p]
        out.append((fans[i], values[i], many.get(p, 1)))
        rest ^= low
    return out, kept & LOW_WORD, kept >> WORD


def _listed(
    table: Table, flat: FlatFans, bits: int, many: dict[int, int], used: dict[int, tuple[int, ...]]
) -> tuple[list[tuple[FanSpec, int, int]], int, int]:
    """Only counted fans exclude, and exactly what they list (不计): whole
    fans, n counts of a fan, or a per-set fan on their own sets. Walking
    positions upwards settles every excluder before the fans it excludes.
    With the mask of the positions counted, in two words."""
    less: dict[int, int] = {}
    on_sets: dict[int, set[int]] = {}
    ex_low, ex_high = flat.excludes_low, flat.excludes_high
    # the mask in two words: positions below WORD, and the rest
    rest_low, rest_high = bits & LOW_WORD, bits >> WORD
    found: list[int] = []  # fan index << 16 | position: sorted by fan index as small ints
    kept_low = kept_high = 0  # the positions counted, in two words
    order = flat.order
    while rest_low or rest_high:  # the lowest hit left is counted; what it excludes is never visited
        if rest_low:
            low = rest_low & -rest_low
            rest_low ^= low
            p = low.bit_length() - 1
            partial = low & flat.partial_low
            kept_low |= low
        else:
            low = rest_high & -rest_high
            rest_high ^= low
            p = low.bit_length() - 1 + WORD
            partial = low & flat.partial_high
            kept_high |= low
        found.append(order[p] << 16 | p)
        rest_low &= ~ex_low[p]
        rest_high &= ~ex_high[p]
        if not partial:
            continue
        for q, n in flat.excludes_times[p]:
            less[q] = less.get(q, 0) + n
        sets_mask = flat.excludes_sets[p]
        while sets_mask:
            b = sets_mask & -sets_mask
            sets_mask ^= b
            on_sets.setdefault(b.bit_length() - 1, set()).update(used.get(p, ()))
    found.sort()
    fans, values = table.fans, table.fan_values
    out: list[tuple[FanSpec, int, int]] = []
    if not (less or on_sets):
        for x in found:
            i = x >> 16
            out.append((fans[i], values[i], many.get(x & 0xFFFF, 1) if many else 1))
        return out, kept_low, kept_high
    for x in found:
        i, p = x >> 16, x & 0xFFFF
        n = many.get(p, 1)
        blocked = on_sets.get(p)
        if blocked is not None:
            n = sum(1 for pos in used.get(p, ()) if pos not in blocked)
        n -= less.get(p, 0)
        if n > 0:
            out.append((fans[i], values[i], n))
        elif p < WORD:
            kept_low &= ~(1 << p)
        else:
            kept_high &= ~(1 << (p - WORD))
    return out, kept_low, kept_high
