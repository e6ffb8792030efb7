"""Fans over groups of sets (组合番), and the principles that combine them.

A set pattern names how many chows or pungs (kongs included) it takes and
how they relate: same or different suits, ranks that go up by a constant
step, fixed ranks, or distinct tiles from a group. Which groups of an
arrangement's sets are counted is the principle the variant chooses:

- `account_once` (套算一次, with 不得相同): the largest matching group is
  counted first (four sets, else the first three in order); each set left
  over then combines once, with its best fan over a pair; with no group of
  three or more, fans over pairs are counted but n sets that combine make
  at most n - 1 of them, and identical fans are dropped first when there
  are too many.
- `each_group`: every matching group counts, whatever sets it shares.

Sets are given as their key tiles (a chow's lowest tile, a pung's tile),
sorted; results name the positions of the sets each counted fan used.
"""

from __future__ import annotations

from itertools import combinations

CHOW, PUNG = "chow", "pung"


class SetPattern:
    def __init__(
        self,
        kind: str,
        size: int,
        suits: str = "",
        steps: tuple = (),
        ranks: tuple = (),
        tiles: tuple | None = None,
    ) -> None:
        self.kind = kind  # chow or pung
        self.size = size  # 2 to 4 sets
        self.suits = suits  # same, different, or "" for any
        self.steps = steps  # sorted ranks go up by one of these steps
        self.ranks = ranks  # the sorted ranks (a chow's lowest number)
        self.tiles = tiles  # distinct tiles among these

    def __copy__(self) -> "SetPattern":  # immutable: a copy is itself (copy.deepcopy of a compiled game)
        return self

    def __deepcopy__(self, memo: dict) -> "SetPattern":
        return self

    def matches(self, tiles: tuple[int, ...]) -> bool:
        n = len(tiles)
        if self.tiles is not None:
            return len(set(tiles)) == n and all(t in self.tiles for t in tiles)
        if tiles[n - 1] >= 27:  # sorted: an honour is last
            return False
        if self.suits:
            seen = 0  # the suits as bits
            kinds = 0
            for t in tiles:
                bit = 1 << (t // 9)
                if not seen & bit:
                    seen |= bit
                    kinds += 1
            if kinds != (1 if self.suits == "same" else n):
                return False
        ranks: list[int] = [t % 9 + 1 for t in tiles]
        ranks.sort()
        if self.ranks and tuple(ranks) != self.ranks:
            return False
        if self.steps:
            step = ranks[1] - ranks[0]
            if step not in self.steps:
                return False
            for i in range(2, n):
                if ranks[i] - ranks[i - 1] != step:
                    return False
        return True


class SetFans:
    """A variant's set patterns for one kind of set, with their principle.

    `patterns` is [(fan index, SetPattern)] in the fan table's order, which
    is also the order of preference among fans over the same number of sets.
    """

    def __init__(self, patterns, principle: str = "account_once"):
        self.principle = principle
        self.by_size: dict[int, list[tuple[int, SetPattern]]] = {}
        for index, p in patterns:
            self.by_size.setdefault(p.size, []).append((index, p))
        self.rank = {index: i for i, (index, _) in enumerate(patterns)}
        self._cache: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}
        # by group of set tiles: a new hand's sets are mostly groups seen before
        self._first: dict[tuple[int, ...], int] = {}

    def first(self, tiles: tuple[int, ...]) -> int:
        """The first fan whose pattern the group matches, or -1."""
        found = self._first.get(tiles)
        if found is None:
            found = -1
            for index, p in self.by_size.get(len(tiles), ()):
                if p.matches(tiles):
                    found = index
                    break
            self._first[tiles] = found
        return found

    def count(self, tiles: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """((fan index, positions), ...) counted for these sorted set tiles
        (typed: a compiled caller unpacks them natively)."""
        found = self._cache.get(tiles)
        if found is None:
            if self.principle == "each_group":
                found = self._each_group(tiles)
            else:
                found = self._account_once(tiles)
            self._cache[tiles] = found
        return found

    def _each_group(self, tiles: tuple) -> tuple:
        out = []
        for size in sorted(self.by_size, reverse=True):
            for group in combinations(range(len(tiles)), size):
                index = self.first(tuple(tiles[i] for i in group))
                if index >= 0:
                    out.append((index, group))
        return tuple(out)

    def _account_once(self, tiles: tuple) -> tuple:
        n = len(tiles)
        for size in range(n, 2, -1):
            for group in combinations(range(n), size):
                index = self.first(tuple(tiles[i] for i in group))
                if index >= 0:
                    return ((index, group),) + self._leftovers(tiles, group)
        pairs = []
        for i, j in combinations(range(n), 2):
            index = self.first((tiles[i], tiles[j]))
            if index >= 0:
                pairs.append((index, (i, j)))
        return tuple(self._trim(pairs))

    def _leftovers(self, tiles: tuple, group: tuple) -> tuple:
        """Each set outside the group combines once, with its best pair fan."""
        out = []
        for j in range(len(tiles)):
            if j in group:
                continue
            best = None
            for i in group:
                a, b = sorted((i, j))
                index = self.first((tiles[a], tiles[b]))
                if index >= 0 and (best is None or self.rank[index] < self.rank[best[0]]):
                    best = (index, (a, b))
            if best is not None:
                out.append(best)
        return tuple(out)

    def _trim(self, pairs: list) -> list:
        """At most (sets that combine) - 1 pair fans; identical ones go first,
        the least preferred fan first."""
        related = {i for _, ij in pairs for i in ij}
        limit = len(related) - 1
        if len(pairs) <= limit:
            return pairs
        order = sorted({index for index, _ in pairs}, key=lambda index: self.rank[index], reverse=True)
        kept = list(pairs)
        for keep_at_most in (1, 0):
            for index in order:
                while len(kept) > limit and sum(1 for k, _ in kept if k == index) > keep_at_most:
                    last = max(i for i, (k, _) in enumerate(kept) if k == index)
                    del kept[last]
        return kept
