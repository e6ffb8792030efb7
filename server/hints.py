"""听牌提示: the waiting tiles of a seat's hand, for that seat only.

Computed with `runtime.analysis.waits` from the seat's own tiles (so it
tells nothing the seat does not hold), when its view is sent to its socket:
- `waits`: the tiles that complete a hand of 3k+1 concealed tiles;
- `discards`: at a turn, for each tile it may discard, the tiles it would
  then wait on (only discards that leave a ready hand).
"""

from __future__ import annotations

from runtime import analysis
from runtime.tiles import INDEX, NAMES, NUM_KINDS


def _counts(tiles) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[INDEX[t]] += 1
    return counts


class Hints:
    """Per seat, the last answer, kept while the seat's tiles stay the same."""

    def __init__(self):
        self._cache: dict = {}

    def of(self, game, seat: int, view: dict) -> dict | None:
        hand = view.get("hand")
        if not hand:
            return None
        discards = sorted({a.split()[1] for a in view.get("legal_actions", ()) if a.startswith(("discard ", "ready "))})
        key = (game.hand_number, seat, tuple(hand), tuple(discards))
        if key in self._cache:
            return self._cache[key]
        counts = _counts(hand)
        melds = game.seats[seat].melds
        out = {}
        if len(hand) % 3 == 1:
            waits = analysis.waits(game.table, counts, melds)
            if waits:
                out["waits"] = [NAMES[t] for t in waits]
        elif discards:
            after = {}
            for tile in discards:
                counts[INDEX[tile]] -= 1
                waits = analysis.waits(game.table, counts, melds)
                counts[INDEX[tile]] += 1
                if waits:
                    after[tile] = [NAMES[t] for t in waits]
            if after:
                out["discards"] = after
        if len(self._cache) > 64:
            self._cache.clear()
        self._cache[key] = out or None
        return self._cache[key]
