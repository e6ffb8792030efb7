"""Hand analysis with wild tiles (jokers) that stand for any tile.

The wild tiles a hand holds are taken out of its counts and passed as a
number of jokers. For each suit, the fewest jokers that complete it into
sets (and, if asked, one pair) is cached by the suit's counts, so a win
check with jokers costs little more than one without: four look-ups and a
choice of which group holds the pair.

`completions` lists the concrete hands the jokers can make, for valuing a
win with each wild counted as the tile that scores best.
"""

from __future__ import annotations

from itertools import product

from .hand import _GROUPS, ORPHANS
from .tiles import NUM_PLAYABLE

INF = 99
_NEED: dict = {}


def _first_sets(key: tuple, chows: bool, pair: bool):
    """Ways to place the lowest held tile of a suit: in a pung, the pair or
    a chow, with some held tiles and jokers for the rest. Yields (ranks the
    jokers stand for, remaining counts, pair still to make)."""
    i = next(r for r, c in enumerate(key) if c)
    counts = list(key)
    c = counts[i]
    for size, is_pair in ((3, False), (2, True)):
        if is_pair and not pair:
            continue
        for used in range(1, min(c, size) + 1):
            counts[i] -= used
            yield [i] * (size - used), tuple(counts), pair and not is_pair
            counts[i] += used
    if chows:
        n = len(key)
        counts[i] -= 1
        for lo in (i - 2, i - 1, i):
            if lo < 0 or lo + 2 >= n:
                continue
            ranks = (lo, lo + 1, lo + 2)
            higher = [r for r in ranks if r > i]
            for mask in range(1 << len(higher)):
                taken = [r for b, r in enumerate(higher) if mask >> b & 1]
                if any(not counts[r] for r in taken):
                    continue
                for r in taken:
                    counts[r] -= 1
                yield [r for r in ranks if r != i and r not in taken], tuple(counts), pair
                for r in taken:
                    counts[r] += 1
        counts[i] += 1


def _need(key: tuple, chows: bool, pair: bool) -> int:
    """Fewest jokers that turn one suit's tiles into sets (plus one pair)."""
    k = (key, chows, pair)
    cached = _NEED.get(k)
    if cached is None:
        if not any(key):
            cached = 2 if pair else 0
        else:
            cached = min(
                (len(fill) + _need(rest, chows, still) for fill, rest, still in _first_sets(key, chows, pair)),
                default=INF,
            )
        _NEED[k] = cached
    return cached


def standard_complete(counts: list, jokers: int) -> bool:
    """Counts (wilds removed) plus `jokers` make sets and one pair."""
    if (sum(counts[:NUM_PLAYABLE]) + jokers) % 3 != 2:
        return False
    needs = []
    for lo, hi, chows in _GROUPS:
        key = tuple(counts[lo:hi])
        needs.append((_need(key, chows, False), key, chows))
    total = sum(n for n, _, _ in needs)
    if total + 2 <= jokers:
        return _within_four(counts, jokers)  # the pair made of jokers alone
    if any(total - n + _need(key, chows, True) <= jokers for n, key, chows in needs):
        return _within_four(counts, jokers)
    return False


def _within_four(counts: list, jokers: int) -> bool:
    """The fewest-jokers count ignores that no kind has a fifth copy; where
    the jokers could make one, some split must keep every kind within four."""
    if not jokers or max(counts[:NUM_PLAYABLE]) + jokers <= 4:
        return True
    groups = [(chows, tuple(counts[lo:hi])) for lo, hi, chows in _GROUPS]
    return any(
        _leaves_sets(_sums((_capped_sizes(key, chows, g == pair_group, jokers) for g, (chows, key) in enumerate(groups)), jokers), jokers)
        for pair_group in range(len(groups))
    )


def _sums(size_sets, jokers: int) -> frozenset:
    """The joker counts, at most `jokers`, that groups with these possible
    counts can take together."""
    sums = {0}
    for sizes in size_sets:
        sums = {a + b for a in sums for b in sizes if a + b <= jokers}
    return frozenset(sums)


def _leaves_sets(used, jokers: int) -> bool:
    """Some count of jokers used leaves the rest to make sets of their own
    (of kinds not held)."""
    return any((jokers - u) % 3 == 0 for u in used if u <= jokers)


def standard_waits(counts: list, jokers: int, candidates) -> list[int]:
    """Kinds among `candidates` that complete the hand (wilds removed) with
    `jokers`. Each group's joker needs are computed once; a candidate
    changes only its own group, which may hold the pair, or another group
    does, or two jokers make it."""
    if (sum(counts[:NUM_PLAYABLE]) + jokers + 1) % 3 != 2:
        return []
    groups = []
    for lo, hi, chows in _GROUPS:
        key = tuple(counts[lo:hi])
        groups.append((lo, hi, chows, key, _need(key, chows, False), _need(key, chows, True)))
    total = sum(g[4] for g in groups)
    # the cheapest extra cost of putting the pair in some group other than i
    pair_elsewhere = [min((h[5] - h[4] for j, h in enumerate(groups) if j != i), default=INF) for i in range(len(groups))]
    # adding one tile lowers a group's need by one joker at most: groups
    # that cannot reach `jokers` even so are skipped whole
    hopeless = [total - 1 + min(2, g[5] - g[4], pair_elsewhere[i]) > jokers for i, g in enumerate(groups)]
    out = []
    need = _NEED
    # four of a kind may stop a joker only where some group's joker counts
    # change when kept within four (cached per group)
    binds = [
        max(g[3]) + 1 + jokers > 4 and (_cap_binds(g[3], g[2], False, jokers) or _cap_binds(g[3], g[2], True, jokers))
        for g in groups
    ] if max(counts[:NUM_PLAYABLE]) + 1 + jokers > 4 else None
    capped = None
    for t in candidates:
        i = t // 9 if t < 27 else 3
        if hopeless[i]:
            continue
        lo, _, chows, key, sets_only, _ = groups[i]
        r = t - lo
        grown = key[:r] + (key[r] + 1,) + key[r + 1 :]
        sets = need.get((grown, chows, False))
        if sets is None:
            sets = _need(grown, chows, False)
        rest = total - sets_only
        fits = rest + sets + min(2, pair_elsewhere[i]) <= jokers
        if not fits:
            paired = need.get((grown, chows, True))
            if paired is None:
                paired = _need(grown, chows, True)
            fits = rest + paired <= jokers
        if fits and binds is not None and (
            any(b for g, b in enumerate(binds) if g != i)
            or _cap_binds(grown, chows, False, jokers) or _cap_binds(grown, chows, True, jokers)
        ):
            capped = capped or _CappedWaits(groups, jokers)
            fits = capped.fits(i, grown)
        if fits:
            out.append(t)
    return out


class _CappedWaits:
    """`_within_four` for the candidates of one wait search: the joker
    counts the other groups can take (within four of a kind) are summed
    once per group, so a candidate only adds its own group's."""

    def __init__(self, groups, jokers: int):
        self.jokers = jokers
        self.chows = [g[2] for g in groups]
        plain = [_capped_sizes(g[3], g[2], False, jokers) for g in groups]
        paired = [_capped_sizes(g[3], g[2], True, jokers) for g in groups]
        n = len(groups)
        # for a candidate in group i: sums over the other groups, the pair
        # in none of them, or in one of them
        self.no_pair = [_sums((plain[g] for g in range(n) if g != i), jokers) for i in range(n)]
        self.pair = [
            frozenset().union(*(_sums((paired[g] if g == p else plain[g] for g in range(n) if g != i), jokers) for p in range(n) if p != i))
            for i in range(n)
        ]

    def fits(self, i: int, grown: tuple) -> bool:
        j, chows = self.jokers, self.chows[i]
        return _leaves_sets(_sums((self.no_pair[i], _capped_sizes(grown, chows, True, j)), j), j) or _leaves_sets(
            _sums((self.pair[i], _capped_sizes(grown, chows, False, j)), j), j
        )


_CAPPED: dict = {}


def _capped_sizes(key: tuple, chows: bool, pair: bool, jokers: int) -> frozenset:
    """How many jokers can complete one suit with no rank past four copies
    (cached by the suit's counts, like the fewest-jokers count)."""
    return _capped(key, chows, pair, jokers)[0]


def _cap_binds(key: tuple, chows: bool, pair: bool, jokers: int) -> bool:
    """Whether keeping to four copies rules out some number of jokers here."""
    return _capped(key, chows, pair, jokers)[1]


def _capped(key: tuple, chows: bool, pair: bool, jokers: int) -> tuple:
    k = (key, chows, pair, jokers)
    found = _CAPPED.get(k)
    if found is None:
        fills = _suit_fills(key, chows, pair, jokers)
        sizes = frozenset(len(f) for f in fills if all(key[r] + f.count(r) <= 4 for r in set(f)))
        found = _CAPPED[k] = (sizes, sizes != frozenset(len(f) for f in fills))
    return found




def seven_pairs_complete(counts: list, jokers: int, quads_as_two_pairs: bool = True) -> bool:
    hand = counts[:NUM_PLAYABLE]
    if sum(hand) + jokers != 14:
        return False
    odd = sum(1 for c in hand if c % 2)
    if not quads_as_two_pairs:
        # without quads, every kind holds at most two: jokers pair singles
        # or make pairs of kinds not held
        return not any(c > 2 for c in hand) and odd <= jokers
    return odd <= jokers


def thirteen_orphans_complete(counts: list, jokers: int) -> bool:
    hand = counts[:NUM_PLAYABLE]
    if sum(hand) + jokers != 14 or any(hand[t] for t in range(NUM_PLAYABLE) if t not in ORPHANS):
        return False
    if any(hand[t] > 2 for t in ORPHANS) or sum(1 for t in ORPHANS if hand[t] == 2) > 1:
        return False
    return sum(1 for t in ORPHANS if not hand[t]) <= jokers


# ---------------------------------------------------------------- completions


def _suit_fills(key: tuple, chows: bool, pair: bool, jokers: int) -> set:
    """Every way jokers complete one suit: the ranks they stand for."""
    out: set = set()

    def walk(key, added, left, pair_left):
        if not any(key):
            if pair_left and left >= 2:
                # the suit's pair made of jokers: any rank of the suit
                for r in range(len(key)):
                    out.add(tuple(sorted(added + [r, r])))
            elif not pair_left:
                out.add(tuple(sorted(added)))
            return
        for fill, rest, still in _first_sets(key, chows, pair_left):
            if len(fill) <= left:
                walk(rest, added + fill, left - len(fill), still)

    walk(key, [], jokers, pair)
    return out


def _joker_sets(n_sets: int, kinds) -> list:
    """Tiles added by `n_sets` sets made of jokers only, of any kind."""
    options = []
    for t in kinds:
        options.append((t, t, t))
        if t < 27 and t % 9 <= 6 and t + 1 in kinds and t + 2 in kinds:
            options.append((t, t + 1, t + 2))
    return sorted({tuple(sorted(sum(combo, ()))) for combo in product(options, repeat=n_sets)})


def completions(counts: list, jokers: int, kinds) -> list[list]:
    """Every concrete standard hand the jokers can make: count vectors with
    each joker replaced by a tile of `kinds`, no kind above four copies."""
    kinds = sorted(kinds)
    kind_set = frozenset(kinds)
    groups = [(lo, chows, tuple(counts[lo:hi])) for lo, hi, chows in _GROUPS]
    results: set = set()
    for pair_group in range(len(groups)):
        options = []
        for g, (lo, chows, key) in enumerate(groups):
            fills = _suit_fills(key, chows, g == pair_group, jokers)
            options.append([tuple(lo + r for r in fill) for fill in fills])
        for combo in product(*options):
            added = [t for fill in combo for t in fill]
            left = jokers - len(added)
            if left < 0 or left % 3:
                continue
            for extra in _joker_sets(left // 3, kinds):
                tiles = added + list(extra)
                if any(t not in kind_set for t in tiles):
                    continue
                full = list(counts[:NUM_PLAYABLE])
                for t in tiles:
                    full[t] += 1
                if max(full) <= 4:
                    results.add(tuple(full))
    return [list(r) for r in sorted(results)]


def seven_pairs_completions(counts: list, jokers: int, kinds, quads_as_two_pairs: bool = True) -> list[list]:
    """Concrete seven-pairs hands: jokers pair the singles, the rest make
    pairs of any kind."""
    hand = list(counts[:NUM_PLAYABLE])
    singles = [t for t, c in enumerate(hand) if c % 2]
    left = jokers - len(singles)
    if left < 0 or left % 2:
        return []
    base = list(hand)
    for t in singles:
        base[t] += 1
    out = set()
    for extra in product(sorted(kinds), repeat=left // 2):
        full = list(base)
        for t in extra:
            full[t] += 2
        if max(full) <= (4 if quads_as_two_pairs else 2):
            out.add(tuple(full))
    return [list(r) for r in sorted(out)]
