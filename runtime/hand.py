"""Hand analysis over count vectors: winning shapes, decompositions, waits
and shanten.

Number suits are analysed one at a time and cached by their 9 counts, so
a win check costs four dictionary look-ups once the cache is warm.

A *set* is a pair of ints `(kind, tile)`: kind CHOW (tile is the lowest
tile) or PUNG. A standard decomposition is `(pair_tile, sets)`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from .tiles import NUM_PLAYABLE

TYPE_CHECKING = False  # `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Final

# Final: compiled code reads these as constants, not by a look-up in the module
CHOW: "Final" = 0
PUNG: "Final" = 1

ORPHANS: "Final[tuple[int, ...]]" = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_GROUPS: "Final[tuple[tuple[int, int, bool], ...]]" = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


# ---------------------------------------------------------------- per suit


@lru_cache(maxsize=None)
def _suit_sets(key: tuple[int, ...], chows: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to split one suit's counts into sets only (ranks 0-based)."""
    i = next((r for r, c in enumerate(key) if c), -1)
    if i < 0:
        return ((),)
    out = []
    counts = list(key)
    if counts[i] >= 3:
        counts[i] = counts[i] - 3
        for rest in _suit_sets(tuple(counts), chows):
            out.append(((PUNG, i),) + rest)
        counts[i] = counts[i] + 3
    if chows and i + 2 < len(key) and counts[i + 1] and counts[i + 2]:
        counts[i] = counts[i] - 1
        counts[i + 1] = counts[i + 1] - 1
        counts[i + 2] = counts[i + 2] - 1
        for rest in _suit_sets(tuple(counts), chows):
            out.append(((CHOW, i),) + rest)
    return tuple(out)


@lru_cache(maxsize=None)
def _suit_pair_sets(key: tuple[int, ...], chows: bool) -> tuple[tuple[int, tuple], ...]:
    """Every way to split one suit into a pair and sets: (pair_rank, sets)."""
    out = []
    counts = list(key)
    for r, c in enumerate(key):
        if c >= 2:
            counts[r] = counts[r] - 2
            for sets in _suit_sets(tuple(counts), chows):
                out.append((r, sets))
            counts[r] = counts[r] + 2
    return tuple(out)


_OK: dict = {}


def _suit_ok(key: tuple[int, ...], chows: bool, with_pair: bool) -> bool:
    """Whether one suit splits into sets (and one pair when asked)."""
    k = (key, chows, with_pair)
    ok = _OK.get(k)
    if ok is None:
        if with_pair:
            ok = any(c >= 2 and _sets_only(key, chows, r) for r, c in enumerate(key))
        else:
            ok = _sets_only(key, chows, -1)
        _OK[k] = ok
    return ok


def _sets_only(key: tuple[int, ...], chows: bool, pair: int) -> bool:
    """Whether one suit, less a pair at rank `pair` (-1: none), splits into
    sets. Rank by rank from the lowest: three chows from one rank are three
    pungs, so the chows a rank starts are its count modulo 3 (the
    decomposition `_suit_sets` enumerates exists exactly then)."""
    counts = list(key)
    if pair >= 0:
        counts[pair] = counts[pair] - 2
    size = len(counts)
    for i in range(size):
        chows_here = counts[i] % 3
        if chows_here:
            if not chows or i + 2 >= size or counts[i + 1] < chows_here or counts[i + 2] < chows_here:
                return False
            counts[i + 1] = counts[i + 1] - chows_here
            counts[i + 2] = counts[i + 2] - chows_here
    return True


# ---------------------------------------------------------------- standard shape


def is_standard_win(counts: list[int]) -> bool:
    """Sets and exactly one pair, using every tile of `counts` (kinds 0-33)."""
    pair_groups = 0
    for lo, hi, chows in _GROUPS:
        key = tuple(counts[lo:hi])
        rem = sum(key) % 3
        if rem == 1:
            return False
        if rem == 2:
            pair_groups += 1
            if pair_groups > 1 or not _suit_ok(key, chows, True):
                return False
        elif not _suit_ok(key, chows, False):
            return False
    return pair_groups == 1


def standard_decompositions(counts: list[int]) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Every (pair_tile, sets) split of `counts`; empty when none."""
    per_group = []
    for lo, hi, chows in _GROUPS:
        key = tuple(counts[lo:hi])
        rem = sum(key) % 3
        if rem == 1:
            return []
        if rem == 2:
            options = [(lo + r, tuple((k, lo + t) for k, t in sets)) for r, sets in _suit_pair_sets(key, chows)]
        else:
            options = [(-1, tuple((k, lo + t) for k, t in sets)) for sets in _suit_sets(key, chows)]
        if not options:
            return []
        per_group.append(options)
    out = []
    for combo in product(*per_group):
        pairs = [p for p, _ in combo if p >= 0]
        if len(pairs) != 1:
            continue
        out.append((pairs[0], tuple(s for _, sets in combo for s in sets)))
    return out


def standard_waits(counts: list[int], fifth_copy: bool = False) -> list[int]:
    """Kinds that complete a standard shape from 3k+1 concealed tiles
    (`fifth_copy`: also a kind the tiles already hold four of).

    Only the group (suit or honours) that receives the winning tile can
    change; every other group must already split into sets, one of them
    with the pair unless the receiving group takes it. Each group is read
    as one int, three bits a rank (`_code`); whether it splits is read rank
    by rank from that int, and the completing ranks, cached by it, are only
    worked out for a group whose others split.
    """
    if len(counts) < NUM_PLAYABLE:
        return _standard_waits_any(counts, fifth_copy)
    c0, r0 = _code(counts, 0, 9)
    c1, r1 = _code(counts, 9, 18)
    c2, r2 = _code(counts, 18, 27)
    c3, r3 = _code(counts, 27, 34)
    if c0 < 0 or c1 < 0 or c2 < 0 or c3 < 0:
        return _standard_waits_any(counts, fifth_copy)
    # whether each group splits as it stands (sets, and the pair when it has two over)
    k0 = _splits(c0, r0, True)
    k1 = _splits(c1, r1, True)
    k2 = _splits(c2, r2, True)
    k3 = _splits(c3, r3, False)
    if k0 + k1 + k2 + k3 < 3:
        return []  # two groups that do not split: no tile mends both
    out: list[int] = []
    if r0 and k1 and k2 and k3 and (r1 == 2) + (r2 == 2) + (r3 == 2) == (0 if r0 == 1 else 1):
        _add_ranks(out, 0, c0, r0 == 1, True, fifth_copy)
    if r1 and k0 and k2 and k3 and (r0 == 2) + (r2 == 2) + (r3 == 2) == (0 if r1 == 1 else 1):
        _add_ranks(out, 9, c1, r1 == 1, True, fifth_copy)
    if r2 and k0 and k1 and k3 and (r0 == 2) + (r1 == 2) + (r3 == 2) == (0 if r2 == 1 else 1):
        _add_ranks(out, 18, c2, r2 == 1, True, fifth_copy)
    if r3 and k0 and k1 and k2 and (r0 == 2) + (r1 == 2) + (r2 == 2) == (0 if r3 == 1 else 1):
        _add_ranks(out, 27, c3, r3 == 1, False, fifth_copy)
    return out


def _code(counts: list[int], lo: int, hi: int) -> tuple[int, int]:
    """One group's counts as an int, rank r in bits 3r to 3r+2, and its tile
    count modulo 3; (-1, 0) when a count is outside 0..6 (a fifth copy
    added to a count must still fit three bits)."""
    code = 0
    total = 0
    shift = 0
    for t in range(lo, hi):
        c = counts[t]
        if c:
            if c < 0 or c > 6:
                return -1, 0
            code |= c << shift
            total += c
        shift += 3
    return code, total % 3


def _splits(code: int, rem: int, chows: bool) -> bool:
    """Whether a group splits into sets, with one pair when `rem` is 2."""
    if rem == 0:
        return _sets_ok(code, chows)
    if rem == 2:
        return _pair_ok(code, chows)
    return False


# The ranks completing a group, cached by its code, chows and `fifth_copy`
# (_RANKS[2 * chows + fifth_copy]). Whether a group splits is worked out
# directly, never cached: most groups a wait search reads are new, and a
# cache of them only grew (and missed) with every fresh hand.
_RANKS: "Final[tuple[dict[int, tuple[int, ...]], ...]]" = ({}, {}, {}, {})


def _sets_ok(code: int, chows: bool) -> bool:
    """The group (as `_code` reads it) splits into sets only. Rank by rank
    from the lowest: what the chows begun one and two ranks lower leave of
    a rank's count starts that count modulo 3 chows (three chows from one
    rank are three pungs), and no count may go negative."""
    if not chows:
        while code:
            c = code & 7
            if c != 0 and c != 3 and c != 6:
                return False
            code >>= 3
        return True
    one_back = two_back = 0
    while code or one_back or two_back:
        c = (code & 7) - one_back - two_back
        if c < 0:
            return False
        two_back = one_back
        one_back = c % 3
        code >>= 3
    return True


def _pair_ok(code: int, chows: bool) -> bool:
    """The group splits into one pair and sets. Every set's ranks sum to 0
    modulo 3, so with chows the pair's rank r has 2r equal to the whole
    group's rank sum modulo 3: one rank in three is tried."""
    step = 1
    r = 0
    if chows:
        weighted = 0
        rest = code
        while rest:
            weighted += r * (rest & 7)
            rest >>= 3
            r += 1
        r = (2 * weighted) % 3
        step = 3
    while r < 9:
        if (code >> (3 * r)) & 7 >= 2 and _sets_ok(code - (2 << (3 * r)), chows):
            return True
        r += step
    return False


def _add_ranks(out: list[int], lo: int, code: int, pair_here: bool, chows: bool, fifth_copy: bool) -> None:
    """The kinds completing a group when it receives the winning tile."""
    for r in _ranks(code, pair_here, chows, fifth_copy):
        out.append(lo + r)


def _ranks(code: int, pair_here: bool, chows: bool, fifth_copy: bool) -> tuple[int, ...]:
    """The ranks completing a group (as `_code` reads it) when it receives
    the winning tile; `pair_here`: the group takes the pair then."""
    known = _RANKS[2 * chows + fifth_copy]
    ranks = known.get(code)
    if ranks is None:
        found = []
        for r in range(9 if chows else 7):
            if (code >> (3 * r)) & 7 >= 4 and not fifth_copy:
                continue
            grown = code + (1 << (3 * r))
            if _pair_ok(grown, chows) if pair_here else _sets_ok(grown, chows):
                found.append(r)
        ranks = known[code] = tuple(found)
    return ranks


def ready_after_discard(counts: list[int]) -> bool:
    """Whether some discard from these 3k+2 tiles leaves a hand that
    `standard_waits` finds waits for: False only when none does (a quick
    test; True also when unsure: a flower among the tiles, counts outside
    0..6)."""
    if len(counts) < NUM_PLAYABLE:
        return True
    for t in range(NUM_PLAYABLE, len(counts)):
        if counts[t]:
            return True
    codes = [0, 0, 0, 0]
    rems = [0, 0, 0, 0]
    for g in range(4):
        lo = 9 * g
        code, rem = _code(counts, lo, lo + 9 if g < 3 else NUM_PLAYABLE)
        if code < 0:
            return True
        codes[g] = code
        rems[g] = rem
    splits = [_splits(codes[g], rems[g], g < 3) for g in range(4)]
    for a in range(4):
        code = codes[a]
        if not code or sum(1 for g in range(4) if g != a and not splits[g]) > 1:
            continue  # nothing to discard here, or two other groups that no tile mends
        rem = (rems[a] + 2) % 3
        for x in range(9 if a < 3 else 7):
            if (code >> (3 * x)) & 7:
                codes[a] = code - (1 << (3 * x))
                rems_a, splits_a = rems[a], splits[a]
                rems[a] = rem
                splits[a] = _splits(codes[a], rem, a < 3)
                found = _waits_exist(codes, rems, splits)
                codes[a], rems[a], splits[a] = code, rems_a, splits_a
                if found:
                    return True
    return False


def _waits_exist(codes: list[int], rems: list[int], splits: list[bool]) -> bool:
    """`standard_waits` is not empty for the groups read so (`_code`)."""
    for g in range(4):
        rem = rems[g]
        if not rem:
            continue
        pairs = 0
        ok = True
        for h in range(4):
            if h != g:
                if not splits[h]:
                    ok = False
                    break
                pairs += rems[h] == 2
        if ok and pairs == (0 if rem == 1 else 1) and _ranks(codes[g], rem == 1, g < 3, False):
            return True
    return False


def _standard_waits_any(counts: list[int], fifth_copy: bool) -> list[int]:
    """`standard_waits` for counts outside 0..6, group by group on tuples."""
    states = []
    for lo, hi, chows in _GROUPS:
        key = tuple(counts[lo:hi])
        rem = sum(key) % 3
        states.append((rem, rem != 1 and (not any(key) or _suit_ok(key, chows, rem == 2))))
    out: list = []
    for gi, (rem, _) in enumerate(states):
        if rem == 0:
            continue
        other_pairs = 0
        for gj, (other_rem, other_ok) in enumerate(states):
            if gj != gi:
                if not other_ok:
                    break
                other_pairs += other_rem == 2
        else:
            if other_pairs == (0 if rem == 1 else 1):
                lo, _, chows = _GROUPS[gi]
                grown = list(counts[lo : _GROUPS[gi][1]])
                for r in range(len(grown)):
                    if grown[r] >= 4 and not fifth_copy:
                        continue
                    grown[r] = grown[r] + 1
                    if _suit_ok(tuple(grown), chows, rem == 1):
                        out.append(lo + r)
                    grown[r] = grown[r] - 1
    return out


# ---------------------------------------------------------------- other shapes


def is_seven_pairs(counts: list[int], quads_as_two_pairs: bool = True) -> bool:
    pairs = quads = total = 0
    for t in range(NUM_PLAYABLE):  # one pass (list.count and sum compare and add boxed ints)
        c = counts[t]
        total += c
        if c == 2:
            pairs += 1
        elif c == 4:
            quads += 1
    if quads_as_two_pairs:
        pairs += 2 * quads
    return pairs == 7 and total == 14


def seven_pairs_waits(counts: list[int], quads_as_two_pairs: bool = True) -> list[int]:
    """The kind completing seven pairs from 13 concealed tiles, if any."""
    singles = quads = total = 0
    odd: list[int] = []
    for t in range(NUM_PLAYABLE):
        c = counts[t]
        total += c
        if c % 2:
            odd.append(t)
            singles += c == 1 or c == 3
        elif c == 4:
            quads += 1
    if singles != 1 or total != 13:
        return []
    if not quads_as_two_pairs and (quads or counts[odd[0]] == 3):
        return []
    return odd


_SIMPLES = tuple(t for t in range(27) if t not in ORPHANS)


def thirteen_orphans_waits(counts: list[int]) -> list[int]:
    if any(counts[t] for t in _SIMPLES) or sum(counts[:NUM_PLAYABLE]) != 13:
        return []
    held = [t for t in ORPHANS if counts[t]]
    if len(held) == 13:
        return list(ORPHANS)
    if len(held) == 12 and all(counts[t] <= 2 for t in ORPHANS):
        return [t for t in ORPHANS if not counts[t]]
    return []


def is_thirteen_orphans(counts: list[int]) -> bool:
    total = 0
    for t in range(NUM_PLAYABLE):
        total += counts[t]
    if total != 14:
        return False
    if any(counts[t] == 0 for t in ORPHANS):
        return False
    return all(counts[t] == 0 for t in range(NUM_PLAYABLE) if t not in ORPHANS)


# ---------------------------------------------------------------- shanten


_TABLES: dict = {}
_CAP = 5  # sets counted per suit: enough for five-set hands
_WIDTH = _CAP + 1
_EMPTY_TABLE = (0,) + (-1,) * (2 * _WIDTH - 1)


def _suit_table(key: tuple[int, ...], chows: bool) -> tuple[int, ...]:
    """For one suit: the most partial sets reachable with `m` sets and `p`
    head pairs, as a flat tuple indexed p * 6 + m (m and counts capped at
    5; -1 where unreachable)."""
    k = (key, chows)
    table = _TABLES.get(k)
    if table is not None:
        return table
    i = next((r for r, c in enumerate(key) if c), -1)
    if i < 0:
        _TABLES[k] = _EMPTY_TABLE
        return _EMPTY_TABLE
    best = [-1] * (2 * _WIDTH)
    counts = list(key)

    def take(removals, dm, dt, dp):
        for r in removals:
            counts[r] = counts[r] - 1
        sub = _suit_table(tuple(counts), chows)
        for r in removals:
            counts[r] = counts[r] + 1
        for index, t in enumerate(sub):
            if t < 0:
                continue
            p = index // _WIDTH + dp
            if p > 1:
                continue
            j = p * _WIDTH + min(index % _WIDTH + dm, _CAP)
            t = min(t + dt, _CAP)
            if t > best[j]:
                best[j] = t

    c = counts[i]
    if c >= 3:
        take((i, i, i), 1, 0, 0)
    if c >= 2:
        take((i, i), 0, 1, 0)
        take((i, i), 0, 0, 1)
    if chows:
        n = len(key)
        if i + 2 < n and counts[i + 1] and counts[i + 2]:
            take((i, i + 1, i + 2), 1, 0, 0)
        if i + 1 < n and counts[i + 1]:
            take((i, i + 1), 0, 1, 0)
        if i + 2 < n and counts[i + 2]:
            take((i, i + 2), 0, 1, 0)
    take((i,), 0, 0, 0)
    table = _TABLES[k] = tuple(best)
    return table


_SHANTEN_CACHE: dict = {}


def standard_shanten(counts: list[int], melds: int = 0, sets: int = 4) -> int:
    """Tiles away from a standard win of `sets` sets and a pair: -1 is
    complete, 0 is ready."""
    key = (tuple(counts[:NUM_PLAYABLE]), melds, sets)
    value = _SHANTEN_CACHE.get(key)
    if value is None:
        if len(_SHANTEN_CACHE) > 200_000:
            _SHANTEN_CACHE.clear()
        value = _SHANTEN_CACHE[key] = _standard_shanten(counts, melds, sets)
    return value


def _standard_shanten(counts: list[int], melds: int, sets: int = 4) -> int:
    need = sets - melds
    states = {(0, 0): 0}  # (head pairs, sets) -> most partial sets
    for lo, hi, chows in _GROUPS:
        key = tuple(counts[lo:hi])
        if not any(key):
            continue
        table = _suit_table(key, chows)
        merged: dict = {}
        for (p, m), t in states.items():
            for index, dt in enumerate(table):
                if dt < 0:
                    continue
                np_, nt = p + index // _WIDTH, t + dt
                if np_ > 1:
                    np_, nt = 1, nt + 1  # a second head counts as a partial set
                state = (np_, min(m + index % _WIDTH, need))
                nt = min(nt, need)
                if merged.get(state, -1) < nt:
                    merged[state] = nt
        states = merged
    best = 2 * sets
    for (p, m), t in states.items():
        value = 2 * (need - m) - min(t, need - m) - p
        if value < best:
            best = value
    return best


def seven_pairs_shanten(counts: list[int], quads_as_two_pairs: bool = True) -> int:
    if quads_as_two_pairs:
        pairs = sum(c // 2 for c in counts[:NUM_PLAYABLE])
        return 6 - min(pairs, 7)
    pairs = sum(1 for c in counts[:NUM_PLAYABLE] if c >= 2)
    kinds = sum(1 for c in counts[:NUM_PLAYABLE] if c)
    return 6 - pairs + max(0, 7 - kinds)


def thirteen_orphans_shanten(counts: list[int]) -> int:
    kinds = sum(1 for t in ORPHANS if counts[t])
    pair = any(counts[t] >= 2 for t in ORPHANS)
    return 13 - kinds - (1 if pair else 0)

