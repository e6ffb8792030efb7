"""How dangerous a discard is: which other seats may be ready, and how
likely a tile is to be among a ready seat's winning tiles.

The reasoning is generic over the variant's suits and copies:

- a seat that declared ready is ready; another is judged by how far the
  hand has gone (its discards) and the sets it has laid down;
- a tile a seat let pass since its hand last changed (it could have won
  on it and did not) is safe against it, and against a locked hand (a
  locked declaration, a winner who plays on) every tile discarded since
  it was locked is; a kind its declarations forbid it to win holding
  (a void suit) never wins for it;
- what dealing in costs is the payment less what the seat would pay
  anyway if that hand drew its winning tile in the rounds left (little is
  saved by folding against one opponent who will draw his tile anyway);
- a tile that seat discarded itself is safer (its hand did not keep it);
- the ways a tile can complete a hand are counted from the tiles still
  unseen: a number tile completes a two-sided, closed or edge wait only if
  the other two tiles of that wait can still be held (no-chance when all
  their copies are in sight), a pair or single wait only if a copy of the
  tile itself can still be held; an honour only the latter;
- suji generalised: a two-sided wait that would also win on a tile the
  seat has discarded is less likely to be held.
"""

from __future__ import annotations

SEQ_WEIGHT = 1.0
PAIR_WEIGHT = 0.6
SCALE = 0.045  # turns a sum of wait patterns into a probability
ALPHA = 0.5  # chance, relative to a draw, that another seat discards a given unseen tile


def ready_probability(opponent, prof) -> float:
    """From the pace of the tile set (`Profile.ready_chance`): how often a
    hand that has discarded this often, with these sets claimed, is ready."""
    if opponent.declared or opponent.locked:
        return 1.0
    if opponent.hand_size <= 1:
        return 0.95  # every set laid down: waiting on a single tile
    p = min(0.95, prof.ready_chance(len(opponent.discards), opponent.claimed_melds))
    # still shedding tiles it cannot win holding: seldom ready yet
    return p * 0.2 if opponent.shedding else p


def _avail(k, t: int) -> int:
    """Copies of `t` that another seat may still hold."""
    return k.unseen[t] if 0 <= t < 34 else 0


def _factor(n: int) -> float:
    return 0.0 if n <= 0 else 0.6 if n == 1 else 1.0


def win_chance(k, opponent, t: int) -> float:
    """Chance that `t` is among the opponent's winning tiles, if he is ready."""
    if t in opponent.no_win:
        return 0.0  # a kind it cannot win holding cannot be its winning tile
    if t in opponent.passed:
        return 0.0 if opponent.locked else 0.03
    w = 0.0
    if t < 27:
        r = t % 9
        base = t - r
        discarded = opponent.discard_set
        # two tiles below or above, or one on each side
        if r + 2 <= 8:
            f = _factor(_avail(k, base + r + 1)) * _factor(_avail(k, base + r + 2))
            if f and r + 3 <= 8 and (base + r + 3) in discarded:
                f *= 0.4
            w += SEQ_WEIGHT * f
        if r - 2 >= 0:
            f = _factor(_avail(k, base + r - 1)) * _factor(_avail(k, base + r - 2))
            if f and r - 3 >= 0 and (base + r - 3) in discarded:
                f *= 0.4
            w += SEQ_WEIGHT * f
        if 1 <= r <= 7:
            w += 0.7 * SEQ_WEIGHT * _factor(_avail(k, base + r - 1)) * _factor(_avail(k, base + r + 1))
    # a pair waiting to become a pung, or a single waiting for its pair;
    # the copy discarded now is in sight, so at least one more must remain
    still = _avail(k, t)
    if still > 0:
        w += PAIR_WEIGHT * (1.0 if still >= 2 else 0.5)
    p = min(0.35, SCALE * w)
    if t in opponent.discard_set:
        p *= 0.35
    return p


class Danger:
    """Expected points lost by discarding each tile, for one decision."""

    def __init__(self, k, table, prof, money, typical_total: int, rounds: int):
        self.k = k
        self.table = table
        self.prof = prof
        self.threats = []
        self._cache: dict = {}
        self.ready = {o.seat: ready_probability(o, prof) for o in k.opponents}
        # a ready hand may not be allowed to win on a discard (a minimum, self-draw only)
        share = prof.ron_share()
        drawn = prof.rates(prof.plans[0])[0] if prof.plans else 0.0  # a ready hand's chance to draw a winner
        for o in k.opponents:
            p = self.ready[o.seat] * share
            if p <= 0.005:
                continue
            total = typical_total + (1 if o.declared else 0)
            # what folding saves: the discard's cost, less what the seat pays
            # anyway when the ready hand draws its tile before the wall runs out
            anyway = (1.0 - (1.0 - drawn) ** rounds) * money.loss(o.seat, total, self_drawn=True)
            loss = money.loss(o.seat, total)
            self.threats.append((o, p, max(0.1 * loss, loss - anyway)))

    def cost(self, t: int) -> float:
        if not self.threats:
            return 0.0
        c = self._cache.get(t)
        if c is None:
            c = self._cache[t] = sum(p * win_chance(self.k, o, t) * loss for o, p, loss in self.threats)
        return c

    def hazards(self, rounds: int, scale: float = 1.0) -> tuple:
        """For each round left, the chance that someone else wins in it:
        each other seat's chance of being ready by then (by the pace of
        the tile set, from its discards and claims so far) times a ready
        hand's chance a round of drawing or being given its tile."""
        k, prof = self.k, self.prof
        drawn = prof.rates(prof.plans[0])[0] if prof.plans else 0.0
        # given its tile by any seat but itself, this seat included: defence
        # avoids only the tiles it knows to be dangerous
        rate = drawn * (1 + ALPHA * (k.n - 1) * prof.ron_share())
        out = []
        for r in range(rounds):
            ready = 0.0
            for o in k.opponents:
                if o.declared or o.locked or o.hand_size <= 1:
                    ready += 1.0
                else:
                    p = prof.ready_chance(len(o.discards) + r, o.claimed_melds)
                    ready += p * (0.2 if o.shedding and r < 2 else 1.0)
            out.append(round(min(0.5, ready * rate * scale), 3))
        return tuple(out)
