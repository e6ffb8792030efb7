"""Bots: a random legal player and a greedy one.

The greedy bot wins whenever it may (it never defers a win to double:
加倍 is left to players and to the random bot), declares ready when it
can, passes on in an exchange the tiles of the suit it holds fewest of
(keeping its pairs and runs where it can), declares as void the suit it
holds fewest of, lays down a special set or makes a kong when that keeps its hand as
close to ready, claims a pung or kong when that brings its hand closer to
ready, and otherwise
discards the tile that leaves the fewest tiles to go (shanten). Ties are
broken, when ready, by how many live tiles the hand would wait on; before,
by shedding the most isolated tile, outer ranks first.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import analysis
from .actions import Action

if TYPE_CHECKING:
    from typing import Any

    from .game import Game


class RandomBot:
    name = "random"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        return choice(self.rng, game.legal_actions(seat))


def choice(rng: random.Random, options: list) -> Any:
    """`rng.choice(options)`, the same draw (random.Random.choice: the
    index from `getrandbits` of the length's bit length, drawn again while
    too large), without its two Python-level calls."""
    n = len(options)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return options[r]


class GreedyBot:
    name = "greedy"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, game, seat: int) -> Action:
        acts = game.legal_actions(seat)
        verbs = {a.verb for a in acts}
        if "hu" in verbs:
            return Action("hu")
        st = game.seats[seat]
        table = game.table
        if game.phase == "start":
            return self._opening(game, seat, acts, verbs)
        if game.phase == "claim":
            return self._claim(game, seat, acts)
        if game.phase == "replace":
            return self._take(table, st, acts)
        readies = [a for a in acts if a.verb == "ready"]
        if readies:
            return min(readies, key=lambda a: (-self._outs(table, st, a.tile), a.tile))
        kongs = [a for a in acts if a.verb == "kong"]
        for k in kongs:
            if k.extra and self._special_keeps_shape(table, st, k.extra):
                return k
            if not k.extra and self._kong_keeps_shape(table, st, k.tile):
                return k
        discards = [a for a in acts if a.verb == "discard"]
        if len(discards) == 1:
            return discards[0]
        return self._best_discard(table, st, discards)

    def _opening(self, game, seat, acts, verbs):
        if "ready" in verbs:
            return Action("ready")
        if "exchange" in verbs:
            return self._exchange(game.table, game.seats[seat], acts)
        choices = [a for a in acts if a.extra and isinstance(a.extra[0], str)]
        if choices:
            counts = game.seats[seat].counts
            suited = [a for a in choices if a.extra[0] in "mps"]
            if suited and len(suited) == len(choices):
                # the suit held fewest; on a tie, the one whose tiles hold fewest pairs and runs
                return min(choices, key=lambda a: (_suit_tiles(counts, a.extra[0]), _structure(counts, a.extra[0]), a.extra[0]))
            return choices[0]
        return Action("pass") if Action("pass") in acts else acts[0]

    def _exchange(self, table, st, acts):
        """The tiles of the suit held fewest that break the fewest pairs
        and runs, then those that leave the hand closest to ready."""
        counts = st.counts

        def key(a):
            suits = {t // 9 for t in a.extra}
            held = sum(_suit_tiles(counts, "mpsz"[s]) for s in suits)
            after = list(counts)
            for t in a.extra:
                after[t] -= 1
            broken = sum(1 for t in set(a.extra) if counts[t] >= 2 and after[t] < 2)
            return (held, broken, sum(_isolation(after, t) for t in a.extra), a.extra)

        return min(acts, key=key)

    def _take(self, table, st, takes):
        """The face-up tile that leaves the hand closest to ready."""

        def after(a):
            st.counts[a.tile] += 1
            best = min(
                analysis.shanten(table, st.counts[:t] + [st.counts[t] - 1] + st.counts[t + 1 :], st.melds)
                for t in table.tile_kinds
                if st.counts[t]
            )
            st.counts[a.tile] -= 1
            return best, a.tile

        return min(takes, key=after)

    def _best_discard(self, table, st, discards):
        counts = st.counts
        scored = []
        for a in discards:
            counts[a.tile] -= 1
            scored.append((analysis.shanten(table, counts, st.melds), a))
            counts[a.tile] += 1
        best = min(sh for sh, _ in scored)
        tied = [a for sh, a in scored if sh == best]
        if len(tied) == 1:
            return tied[0]
        if best > 0:
            # not ready yet: shed the loneliest tile, outer ranks first
            return min(tied, key=lambda a: (_isolation(counts, a.tile), -_edge(a.tile), a.tile))
        return min(tied, key=lambda a: (-self._outs(table, st, a.tile), _isolation(counts, a.tile), a.tile))

    def _outs(self, table, st, discard: int) -> int:
        """Copies not in hand of the tiles the hand waits on after
        discarding `discard`."""
        counts = st.counts
        counts[discard] -= 1
        n = sum(table.ruleset.copies - counts[t] for t in analysis.waits(table, counts, st.melds))
        counts[discard] += 1
        return n

    def _kong_keeps_shape(self, table, st, tile: int) -> bool:
        counts = list(st.counts)
        before = analysis.shanten(table, counts, st.melds)
        counts[tile] = 0
        from .melds import KONG, Meld

        after = analysis.shanten(table, counts, st.melds + [Meld(KONG, tile, "concealed")])
        return after <= before

    def _special_keeps_shape(self, table, st, group) -> bool:
        from .melds import SPECIAL, Meld

        counts = list(st.counts)
        before = analysis.shanten(table, counts, st.melds)
        for t in group:
            counts[t] -= 1
        meld = Meld(SPECIAL, group[0], "", -1, -1, tuple(group))
        return analysis.shanten(table, counts, st.melds + [meld]) <= before

    def _claim(self, game, seat, acts):
        st = game.seats[seat]
        table = game.table
        tile = game.window.tile
        base = analysis.shanten(table, st.counts, st.melds)
        from .melds import KONG, PUNG, Meld

        for a in acts:
            if a.verb == "kong":
                counts = list(st.counts)
                counts[tile] = 0
                if analysis.shanten(table, counts, st.melds + [Meld(KONG, tile, "direct")]) <= base:
                    return a
        for a in acts:
            if a.verb == "pong":
                counts = list(st.counts)
                counts[tile] -= 2
                # after a pung one tile is discarded: the best 13 of the rest
                if analysis.shanten(table, counts, st.melds + [Meld(PUNG, tile)]) < base:
                    return a
        return Action("pass") if Action("pass") in acts else acts[0]


def _suit_tiles(counts, suit: str) -> int:
    base = "mpsz".index(suit) * 9
    return sum(counts[base : base + (7 if suit == "z" else 9)])


def _structure(counts, suit: str) -> int:
    """Pairs and neighbouring tiles within one suit: what dropping it loses."""
    base = "mpsz".index(suit) * 9
    ranks = counts[base : base + 9]
    return sum(1 for c in ranks if c >= 2) + sum(1 for a, b in zip(ranks, ranks[1:]) if a and b)


def _edge(tile: int) -> int:
    """How far a number tile sits from the middle of its suit (honours 5)."""
    return 5 if tile >= 27 else abs(tile % 9 - 4)


def _isolation(counts, tile: int) -> int:
    """Lower is more isolated: neighbours held within two in the suit."""
    if tile >= 27:
        return counts[tile]
    base = tile - tile % 9
    return sum(counts[t] for t in range(max(base, tile - 2), min(base + 9, tile + 3)) if t != tile)


def _strong(seed=0):
    from bots.strong import StrongBot  # the strong bot lives in its own package, beside runtime/

    return StrongBot(seed)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "strong": _strong}


def make_bot(kind: str, seed=0):
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; expected one of: {', '.join(BOTS)}")
    return BOTS[kind](seed)
