"""What wins are worth at a table, read from its compiled ruleset only.

- `Profile` (one per table configuration, cached): the plans the tile set
  allows, and for each plan a sample of winning hands of that plan valued
  by the variant's own fan table (`runtime.scoring.evaluate`), by
  discard and by self-draw, concealed and with a set laid down. A plan's
  sample says how often such a hand may win at all (minimums such as 8
  fans, a 0-fan hand only by self-draw) and what it scores, so the bot aims
  at the fans the variant rewards without naming any of them.
- `Money` (one per decision): a hand total turned into points with the
  variant's payment formula, for this seat against the others as they
  stand (stakes bought, declarations).
- `exact_ready`: the waits of a ready hand, each valued exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

from runtime import analysis
from runtime.melds import CHOW, PUNG, Meld
from runtime.scoring import WinContext, evaluate

from . import shape as sh

SAMPLES = 24
RATE_SAMPLES = 150
_PROFILES: dict = {}
_EVALS: dict = {}
_AMOUNTS: dict = {}
_WINS: dict = {}


def table_key(table) -> tuple:
    rs = table.ruleset
    return (rs.name, rs.source_sha256, table.players, tuple(sorted(table.option_values.items())),
            tuple(sorted(table.wilds)))


def profile(table) -> "Profile":
    key = table_key(table)
    p = _PROFILES.get(key)
    if p is None:
        if len(_PROFILES) > 64:
            _PROFILES.clear()
        p = _PROFILES[key] = Profile(table)
    return p


class PlanValue:
    """Sampled valuations of one plan: per hand (ron total, ron allowed,
    self-draw total, self-draw allowed)."""

    __slots__ = ("samples", "ron_rate", "tsumo_rate", "ron_totals", "tsumo_totals", "n")

    def __init__(self, samples: list):
        self.samples = samples
        self.n = n = max(1, len(samples))
        self.ron_rate = sum(1 for s in samples if s[1]) / n
        self.tsumo_rate = sum(1 for s in samples if s[3]) / n
        # allowed wins' totals and how many samples had each
        self.ron_totals = tuple(Counter(s[0] for s in samples if s[1]).items())
        self.tsumo_totals = tuple(Counter(s[2] for s in samples if s[3]).items())


class Profile:
    def __init__(self, table):
        self.table = table
        rs = table.ruleset
        self.kinds = tuple(t for t in table.tile_kinds if t < 34)
        self.kind_set = frozenset(self.kinds)
        self.copies = rs.copies
        self.wilds = frozenset(table.wilds)
        win = rs.winning
        self.quads_as_two = win.quads_as_two_pairs
        self.sets = getattr(table, "sets", 4)  # sets and a pair in a winning hand
        self.hand_tiles = 3 * self.sets + 1
        present = sorted({sh.group_of(t) for t in self.kinds})
        self.groups = tuple(present)
        number_groups = [g for g in present if g < 3]
        subsets = {tuple(present)}
        for g in number_groups:
            subsets.add((g,))
            if 3 in present:
                subsets.add((g, 3))
        if len(present) >= 3:
            for i, a in enumerate(present):
                for b in present[i + 1 :]:
                    subsets.add((a, b))
        if 3 in present:
            subsets.add((3,))
        plans = []
        for groups in sorted(subsets, key=lambda g: (-len(g), g)):
            if win.standard:
                if groups != (3,):
                    plans.append(sh.Plan(groups, sh.STD))
                plans.append(sh.Plan(groups, sh.PUNGS))
            if win.seven_pairs and sum(1 for t in self.kinds if sh.group_of(t) in groups) >= 7:
                plans.append(sh.Plan(groups, sh.PAIRS))
        if win.thirteen_orphans and all(t in self.kind_set for t in (0, 8, 9, 17, 18, 26, 27, 33)):
            plans.append(sh.Plan(tuple(present), sh.ORPHANS))
        self.plans = tuple(plans)
        self.full_plans = tuple(p for p in plans if p.groups == self.groups)
        self.tiles = {p: sh.plan_tiles(p, self.kinds) for p in plans}
        self._values: dict = {}
        self._rates: dict = {}
        self._starts: dict = {}
        self._pace = None

    def value(self, plan: sh.Plan, opened: bool) -> PlanValue:
        key = (plan, opened)
        v = self._values.get(key)
        if v is None:
            v = self._values[key] = PlanValue(self._sample(plan, opened))
        return v

    def rates(self, plan: sh.Plan) -> tuple:
        """Typical chance per draw of moving one step closer with this
        plan, by shanten (index 0: ready, the chance of drawing a winning
        tile), measured once on random hands of the plan's tiles."""
        r = self._rates.get(plan)
        if r is None:
            r = self._rates[plan] = self._measure_rates(plan)
        return r

    def _measure_rates(self, plan: sh.Plan) -> tuple:
        rng = random.Random(f"rates/{plan.label()}")
        tiles = [t for t in self.tiles[plan] if t not in self.wilds]
        inside = [t for t in tiles for _ in range(self.copies)]
        outside = [t for t in self.kinds if t not in tiles and t not in self.wilds for _ in range(self.copies)]
        size = self.hand_tiles
        unseen0 = max(1, len(self.kinds) * self.copies - size)
        sums = [0.0] * 9
        seen = [0] * 9
        if len(inside) >= size:
            for i in range(RATE_SAMPLES):
                # hands as play meets them: some of their tiles outside the plan, dead weight
                k = size - min(len(outside), i % 6)
                counts = [0] * 42
                for t in rng.sample(inside, k) + rng.sample(outside, size - k):
                    counts[t] += 1
                keys = sh.keys_of(counts)
                s = sh.plan_shanten(plan, keys, counts, 0, self.quads_as_two, self.sets)
                if s < 0 or s > 8:
                    continue
                u = 0
                for t in sh.useful_draws(plan, counts, tiles):
                    if counts[t] >= self.copies:
                        continue
                    counts[t] += 1
                    if sh.plan_shanten(plan, sh.keys_of(counts), counts, 0, self.quads_as_two, self.sets) < s:
                        u += self.copies - counts[t] + 1
                    counts[t] -= 1
                sums[s] += u
                seen[s] += 1
        self._starts[plan] = seen
        out = [sums[j] / seen[j] / unseen0 if seen[j] >= 3 else None for j in range(9)]
        known = [j for j in range(9) if out[j] is not None]
        for j in range(9):
            if out[j] is None:
                near = min(known, key=lambda x: abs(x - j)) if known else None
                # a step from further away has more ways to be made
                out[j] = 0.05 * (j + 1) if near is None else out[near] * (j + 1) / (near + 1)
        return tuple(min(0.9, x) for x in out)

    def ready_chance(self, discards: int, claimed: int) -> float:
        """How often a hand of this tile set is ready after `discards`
        draws with `claimed` sets made from discards (each a step taken),
        from the typical rates of the first plan (all groups, the standard
        shape) and the shanten of random starting hands."""
        if self._pace is None:
            self._pace = self._measure_pace()
        row = self._pace[min(claimed, 3)]
        return row[min(discards, len(row) - 1)]

    def _measure_pace(self) -> list:
        if not self.plans:
            return [[0.0] * 41 for _ in range(4)]
        plan = self.plans[0]
        rates = self.rates(plan)
        starts = self._starts.get(plan) or [0] * 9
        total = sum(starts) or 1
        out = []
        for claimed in range(4):
            dist = [0.0] * 9
            for s, c in enumerate(starts):
                dist[max(0, s - claimed)] += c / total
            row = []
            for _ in range(41):
                row.append(dist[0])
                new = [0.0] * 9
                new[0] = dist[0]
                for j in range(1, 9):
                    step = dist[j] * rates[j]
                    new[j - 1] += step
                    new[j] += dist[j] - step
                dist = new
            out.append(row)
        return out

    def ron_share(self) -> float:
        """How often a ready hand of the first plan may win on a discard."""
        if not self.plans or not self.table.hu_on_discard:
            return 0.0
        return max(0.1, self.value(self.plans[0], False).ron_rate)

    def _sample(self, plan: sh.Plan, opened: bool) -> list:
        rng = random.Random(f"{plan.label()}/{opened}")
        # where a ready hand may be declared at any discard, the bot's wins are declared ones
        declared = self.table.declare == "any_turn"
        out = []
        tries = 0
        while len(out) < SAMPLES and tries < SAMPLES * 6:
            tries += 1
            hand = self._random_hand(rng, plan, opened)
            if hand is None:
                continue
            counts, melds, win = hand
            row = []
            for self_drawn in (False, True):
                v = evaluate(self.table, WinContext(concealed=counts, melds=melds, win_tile=win, self_drawn=self_drawn,
                                                    players=self.table.players, seat_wind=28, declared_ready=declared))
                row += [v.total, v.win_allowed] if v is not None else [0, False]
            out.append(tuple(row))
        return out

    def _random_hand(self, rng, plan: sh.Plan, opened: bool):
        copies = self.copies
        tiles = [t for t in self.tiles[plan] if t not in self.wilds]
        if not tiles:
            return None
        counts = [0] * 42
        melds = []
        sets = []
        if plan.shape == sh.PAIRS:
            if len(tiles) < 7:
                return None
            for t in rng.sample(tiles, 7):
                counts[t] += 2
        elif plan.shape == sh.ORPHANS:
            for t in tiles:
                counts[t] += 1
            counts[rng.choice(tiles)] += 1
        else:
            weights = [0.5 if t >= 27 else 1.0 for t in tiles]
            for _ in range(self.sets):
                for _attempt in range(20):
                    t = rng.choices(tiles, weights)[0]
                    chow = (plan.shape == sh.STD and t < 27 and t % 9 <= 6 and rng.random() < 0.6
                            and all(x in self.kind_set and x not in self.wilds for x in (t + 1, t + 2)))
                    need = (t, t + 1, t + 2) if chow else (t, t, t)
                    if all(counts[x] + need.count(x) <= copies for x in set(need)):
                        for x in need:
                            counts[x] += 1
                        sets.append((CHOW if chow else PUNG, t))
                        break
                else:
                    return None
            pairs = [t for t in tiles if counts[t] + 2 <= copies]
            if not pairs:
                return None
            counts[rng.choice(pairs)] += 2
            if opened and sets:
                kind, t = sets[0]
                for x in ((t, t + 1, t + 2) if kind == CHOW else (t, t, t)):
                    counts[x] -= 1
                melds.append(Meld(kind, t, "", 1, t))
        held = [t for t in range(34) if counts[t]]
        win = rng.choice(held)
        counts[win] -= 1
        return counts, melds, win


def _public_seat(st) -> SimpleNamespace:
    """What payment formulas read of a seat, all of it public."""
    return SimpleNamespace(declared=st.declared, bought=st.bought, doublings=st.doublings,
                           choices=dict(getattr(st, "choices", {}) or {}))


class Money:
    """Points a win of a given total brings this seat now, by discard
    (from one discarder, or from every loser where losers all pay) and by
    self-draw, using the variant's payment formula with the table's
    public facts (stakes bought, declarations, the dealer)."""

    def __init__(self, table, game, seat: int):
        self.table = table
        self.seat = seat
        self.n = game.n
        s = table.ruleset.settlement
        self.formula = s.amount
        # the seats that pay: those still in the hand (a winner who left pays no more)
        self.others = [x for x in range(game.n) if x != seat and not getattr(game.seats[x], "out", False)] or [
            x for x in range(game.n) if x != seat]
        self.shim = SimpleNamespace(
            dealer=game.dealer, n=game.n, streak=getattr(game, "streak", 0),
            seats=[_public_seat(st) for st in game.seats],
            horse_hits=lambda s: 0,
        )
        self._key = None

    def declaring(self, seat: int, declared: bool = True) -> "Money":
        """The same table with one seat's declaration changed."""
        other = Money.__new__(Money)
        other.__dict__.update(self.__dict__)
        seats = list(self.shim.seats)
        st = seats[seat]
        seats[seat] = SimpleNamespace(**{**st.__dict__, "declared": declared})
        other.shim = SimpleNamespace(**{**self.shim.__dict__, "seats": seats})
        other._key = None
        return other

    def key(self) -> tuple:
        """What the payments depend on: the table, and every seat's public state."""
        if self._key is None:
            sh_ = self.shim
            self._key = (table_key(self.table), sh_.dealer, sh_.n, sh_.streak,
                         tuple((x.declared, x.bought, x.doublings, tuple(sorted(x.choices.items()))) for x in sh_.seats))
        return self._key

    def amount(self, payer: int, payee: int, total: int, discarder: int, self_drawn: bool) -> int:
        if self.formula is None:
            return total
        key = (self.key(), payer, payee, total, discarder, self_drawn)
        v = _AMOUNTS.get(key)
        if v is not None:
            return v
        from runtime.facts import SettleFacts

        try:
            facts = SettleFacts(self.shim, payer, payee, total, discarder, self_drawn)
            v = int(self.formula(facts, self.table.o))
        except Exception:  # a formula reading a fact this estimate does not fill in
            v = total
        if len(_AMOUNTS) > 200_000:
            _AMOUNTS.clear()
        _AMOUNTS[key] = v
        return v

    def win(self, total: int, self_drawn: bool) -> float:
        """Expected points for this seat winning `total`."""
        key = (self.key(), tuple(self.others), self.seat, total, self_drawn)
        v = _WINS.get(key)
        if v is not None:
            return v
        me = self.seat
        if self_drawn or self.table.discard_payers == "others":
            if self_drawn:
                v = sum(self.amount(p, me, total, -1, True) for p in self.others)
            else:
                # any one of the others discards; every loser pays
                v = sum(
                    sum(self.amount(p, me, total, d, False) for p in self.others) for d in self.others
                ) / len(self.others)
        else:
            v = sum(self.amount(d, me, total, d, False) for d in self.others) / len(self.others)
        if len(_WINS) > 200_000:
            _WINS.clear()
        _WINS[key] = v
        return v

    def loss(self, winner: int, total: int, self_drawn: bool = False) -> float:
        """What this seat pays when it discards a winning tile worth `total`
        to `winner` (or, `self_drawn`, when the winner draws it)."""
        me = self.seat
        return self.amount(me, winner, total, -1 if self_drawn else me, self_drawn)


def evaluate_cached(table, ctx: WinContext):
    key = (
        table_key(table), tuple(ctx.concealed[:34]), tuple(ctx.melds), ctx.win_tile, ctx.self_drawn, ctx.is_dealer,
        ctx.declared_ready, ctx.seat_wind, ctx.round_wind, ctx.flowers, ctx.doublings, ctx.declared_at_opening,
    )
    hit = _EVALS.get(key)
    if hit is not None:
        return hit
    if len(_EVALS) > 100_000:
        _EVALS.clear()
    v = evaluate(table, ctx)
    hit = _EVALS[key] = (v.total, bool(v.win_allowed)) if v is not None else (0, False)
    return hit


def exact_ready(table, k, counts, melds, declared: bool, money: Money, at_opening: bool = False,
                waits: list | None = None):
    """[(wait, unseen copies, ron points or 0, self-draw points or 0)] for
    a ready hand (counts) with melds (declared at the opening: `at_opening`;
    `waits`: the hand's waits, where the caller has them)."""
    out = []
    for w in analysis.waits(table, counts, melds) if waits is None else waits:
        base = dict(
            concealed=counts, melds=melds, win_tile=w, is_dealer=k.seat == k.dealer, declared_ready=declared,
            seat_wind=27 + (k.seat - k.dealer) % k.n, round_wind=k.round_wind, flowers=k.flowers, players=k.n,
            doublings=k.doublings, declared_at_opening=declared and at_opening,
        )
        tr, ar = evaluate_cached(table, WinContext(self_drawn=False, **base))
        tt, at = evaluate_cached(table, WinContext(self_drawn=True, **base))
        ron = money.win(tr, False) if ar and table.hu_on_discard else 0.0
        tsumo = money.win(tt, True) if at else 0.0
        out.append((w, k.unseen[w], ron, tsumo))
    return out
