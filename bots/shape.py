"""Fast shape arithmetic for the strong bot: shanten per *plan*.

A plan is a target the hand may aim at: a set of tile groups (the number
suits m, p, s and the honours z) that every tile of the finished hand
belongs to, and a shape (four sets and a pair, four pungs and a pair,
seven pairs, thirteen orphans). A plan's shanten is the hand's distance
from ready when the tiles outside its groups are thrown away, which is
exactly what shanten measures when those tiles must be replaced.

Standard shanten is computed per group from `runtime.hand`'s per-suit
tables (the most complete and partial sets reachable for each number of
sets and pairs) and combined group by group; every table and every
combination is cached, so that a hand differing from the last by one tile
costs a few dictionary look-ups. The results agree with
`runtime.analysis.shanten` on the whole tile set (a test checks it).
"""

from __future__ import annotations

from typing import NamedTuple

from runtime import hand as hm

GROUPS = ((0, 9), (9, 18), (18, 27), (27, 34))  # m, p, s, z
GROUP_NAMES = "mpsz"
STD, PUNGS, PAIRS, ORPHANS = "standard", "pungs", "pairs", "orphans"
_ORPHAN_SET = frozenset(hm.ORPHANS)


def group_of(tile: int) -> int:
    return 3 if tile >= 27 else tile // 9


class Plan(NamedTuple):
    groups: tuple  # group indices, sorted
    shape: str

    def label(self) -> str:
        return "".join(GROUP_NAMES[g] for g in self.groups) + ":" + self.shape

    def holds(self, tile: int) -> bool:
        return group_of(tile) in self.groups


_CAP = hm._CAP  # sets counted per table, as runtime.hand's per-suit tables count them
_WIDTH = _CAP + 1
_EMPTY = hm._EMPTY_TABLE
# Tables are interned: each distinct table gets a small int id, so that
# combinations and finals are cached under pairs of ints.
_IDS: dict = {_EMPTY: 0}
_BY_ID: list = [_EMPTY]
_KEY_IDS: dict = {}
_COMBINED: dict = {}
_FINAL: dict = {}
_IMPROVING: dict = {}


def _intern(table: tuple) -> int:
    i = _IDS.get(table)
    if i is None:
        i = _IDS[table] = len(_BY_ID)
        _BY_ID.append(table)
    return i


def _table_id(key: tuple, chows: bool) -> int:
    k = (key, chows)
    i = _KEY_IDS.get(k)
    if i is None:
        i = _KEY_IDS[k] = _intern(hm._suit_table(key, chows)) if any(key) else 0
    return i


def _combine(ia: int, ib: int) -> int:
    """The table of two groups together: for each (pairs, sets) the most
    partial sets, a second pair counting as a partial set."""
    k = (ia, ib)
    out = _COMBINED.get(k)
    if out is not None:
        return out
    a, b = _BY_ID[ia], _BY_ID[ib]
    best = [-1] * (2 * _WIDTH)
    for i, ta in enumerate(a):
        if ta < 0:
            continue
        pa, ma = divmod(i, _WIDTH)
        for j, tb in enumerate(b):
            if tb < 0:
                continue
            pb, mb = divmod(j, _WIDTH)
            p, t = pa + pb, ta + tb
            if p > 1:
                p, t = 1, t + 1
            idx = p * _WIDTH + min(ma + mb, _CAP)
            if t > _CAP:
                t = _CAP
            if t > best[idx]:
                best[idx] = t
    out = _COMBINED[k] = _intern(tuple(best))
    return out


def _final(ident: int, need: int) -> int:
    k = (ident, need)
    v = _FINAL.get(k)
    if v is not None:
        return v
    best = 8
    for i, t in enumerate(_BY_ID[ident]):
        if t < 0:
            continue
        p, m = divmod(i, _WIDTH)
        if m > need:
            m = need
        x = 2 * (need - m) - min(t, need - m) - p
        if x < best:
            best = x
    _FINAL[k] = best
    return best


def keys_of(counts) -> list:
    return [tuple(counts[lo:hi]) for lo, hi in GROUPS]


def standard(keys, groups, melds: int, chows: bool = True, sets: int = 4) -> int:
    """Standard (or pungs-only) shanten of the groups' tiles, for a hand of
    `sets` sets and a pair."""
    acc = 0
    for g in groups:
        t = _table_id(keys[g], chows and g < 3)
        if t:
            acc = _combine(acc, t) if acc else t
    return _final(acc, sets - melds)


def pairs(keys, groups, quads_as_two: bool) -> int:
    npairs = kinds = 0
    for g in groups:
        for c in keys[g]:
            if c:
                kinds += 1
                npairs += (c // 2) if quads_as_two else (c >= 2)
    if quads_as_two:
        return 6 - min(npairs, 7)
    return 6 - npairs + max(0, 7 - kinds)


def orphans(counts) -> int:
    kinds = pair = 0
    for t in hm.ORPHANS:
        c = counts[t]
        if c:
            kinds += 1
            if c >= 2:
                pair = 1
    return 13 - kinds - pair


def plan_shanten(plan: Plan, keys, counts, melds: int, quads_as_two: bool, sets: int = 4) -> int:
    if plan.shape == STD:
        return standard(keys, plan.groups, melds, sets=sets)
    if plan.shape == PUNGS:
        return standard(keys, plan.groups, melds, chows=False, sets=sets)
    if plan.shape == PAIRS:
        return pairs(keys, plan.groups, quads_as_two)
    return orphans(counts)


def plan_tiles(plan: Plan, kinds) -> tuple:
    """The tile kinds a plan may use, among the table's kinds."""
    if plan.shape == ORPHANS:
        return tuple(t for t in kinds if t in _ORPHAN_SET)
    return tuple(t for t in kinds if group_of(t) in plan.groups)


def useful_draws(plan: Plan, counts, tiles) -> list:
    """Tiles of the plan that could lower its shanten: those next to a held
    tile of the same suit (within two ranks) or held themselves; any of the
    plan's tiles for seven pairs and thirteen orphans."""
    if plan.shape in (PAIRS, ORPHANS):
        return list(tiles)
    out = []
    chows = plan.shape == STD
    for t in tiles:
        if counts[t]:
            out.append(t)
        elif chows and t < 27:
            r = t % 9
            base = t - r
            if any(counts[base + x] for x in range(max(0, r - 2), min(9, r + 3)) if x != r):
                out.append(t)
    return out


def improving(plan: Plan, keys, melds: int, s: int, copies: int, sets: int = 4) -> list:
    """The tiles whose draw lowers a standard or pungs plan's shanten below
    `s`: each group's table is replaced in turn by its table with one more
    tile, against the other groups' combined table."""
    ck = (plan, tuple(keys), melds, s, copies, sets)
    hit = _IMPROVING.get(ck)
    if hit is not None:
        return hit
    if len(_IMPROVING) > 300_000:
        _IMPROVING.clear()
    chows = plan.shape == STD
    need = sets - melds
    groups = plan.groups
    ids = [_table_id(keys[g], chows and g < 3) for g in groups]
    out = []
    for i, g in enumerate(groups):
        acc = 0
        for j, t in enumerate(ids):
            if j != i and t:
                acc = _combine(acc, t) if acc else t
        key = keys[g]
        base = GROUPS[g][0]
        ch = chows and g < 3
        for r, c in enumerate(key):
            if c >= copies:
                continue
            t = _table_id(key[:r] + (c + 1,) + key[r + 1 :], ch)
            if _final(_combine(acc, t) if acc else t, need) < s:
                out.append(base + r)
    _IMPROVING[ck] = out
    return out
