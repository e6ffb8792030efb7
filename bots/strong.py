"""The strong bot: every decision scored as expected points.

For each candidate (a discard, a claim, a kong, a declaration, a face-up
tile to take) the bot values the hand it would keep:

    offence  = max over plans of  P(win with the plan) * points of such a win
               + P(ready when the wall runs out) * the exhausted-wall check
    score    = offence - the expected cost of the tile it gives away

- plans (`shape.py`): groups of tiles to keep and a shape; their shanten
  and effective tiles (ukeire, counted over the copies this seat has not
  seen) give the chance of finishing in the rounds left, racing the
  others (`_race`);
- points (`value.py`): a ready hand's waits valued exactly by the
  variant's fan table, whether each may win at all (minimums, self-draw
  only) and the payment formula; a hand further away by the sampled value
  of its plan, so the bot aims at what the variant rewards;
- cost (`defence.py`): which seats may be ready and how likely the tile
  is among their winning tiles, times what dealing in would cost.

Declarations follow from the same numbers: a ready declaration when the
declared hand is worth more than the free one (less what a locked hand
risks), 加倍 / passing a win when the later win is worth clearly more
than the one on offer, the highest stake. Start-phase verbs it does not
know are answered as the greedy bot answers them.

It keeps no state between decisions (the server makes a new bot for each
one): everything is recomputed from what the seat sees, and the caches
it uses hold pure functions of the ruleset.
"""

from __future__ import annotations

import math

from runtime import analysis
from runtime.actions import Action
from runtime.bots import GreedyBot, _edge, _isolation
from runtime.melds import CHOW, CONCEALED, DIRECT, KONG, PUNG, SPECIAL, Meld

from . import shape as sh
from .defence import Danger
from .knowledge import Knowledge
from .value import Money, exact_ready, profile

PASS_WIN = 1e9  # pass a win on a discard only when the hand kept is worth this many times more
LATER = 0.6  # typical rates of the later steps, discounted: a hand reached in a hurry is seldom typical
STEP_BACK = 1.5
DOUBLE_SURE = 0.75  # 加倍 only when the hand kept wins at least this often
DOUBLE_GAIN = 1.3
# 加倍 stakes the win so far on one more: past a few, an error in the win
# chance (a model) costs more than the doubling brings, and one runaway hand
# (×4096 was seen) outweighs thousands of others
MAX_DOUBLINGS = 3
EXCHANGE_LOOK = 6  # exchange choices of a suit whose effective tiles are counted
MAX_EXCHANGES = 400  # more exchange choices than this: the greedy bot's choice
TOP_PLANS = 3  # plans whose effective tiles are counted, per hand valued
STEP_DOWN = 0.8
ALPHA = 0.5  # chance, relative to a draw, that an opponent's discard is a given unseen tile
_RACES: dict = {}
_PLAN_MONEY: dict = {}


def _race(s: int, q: float, later: tuple, lam: float, hazards: tuple) -> tuple[float, float]:
    """(P(win), P(ready when the wall runs out)) for a hand `s` steps from
    ready that takes its next step with chance `q` a round, each later
    step j (steps left) with chance `later[j]`, and once ready wins with
    chance `lam` a round, while in round r someone else ends the hand with
    chance `hazards[r]` (one entry per round left)."""
    key = (s, round(q, 3), later, round(lam, 3), hazards)
    hit = _RACES.get(key)
    if hit is not None:
        return hit
    if len(_RACES) > 200_000:
        _RACES.clear()
    rate = [0.0] + [later[j] for j in range(1, s)] + [q] if s else [0.0]
    dist = [0.0] * (s + 1)
    dist[s] = 1.0
    won = 0.0
    for hazard in hazards:
        w = dist[0] * lam
        won += w
        new = [0.0] * (s + 1)
        new[0] = dist[0] - w
        for i in range(1, s + 1):
            step = dist[i] * rate[i]
            new[i - 1] += step
            new[i] += dist[i] - step
        alive = 1.0 - hazard
        dist = [x * alive for x in new]
    hit = _RACES[key] = (won, dist[0])
    return hit


class Evaluator:
    """The numbers one decision is made with."""

    def __init__(self, game, seat: int):
        table = game.table
        self.game = game
        self.table = table
        self.seat = seat
        self.prof = profile(table)
        self.k = k = Knowledge(game, seat)
        self.money = Money(table, game, seat)
        self.n = game.n
        self.rounds = max(0, math.ceil(k.wall / (len(k.opponents) + 1)))
        self.U = k.unseen_total
        self.typical = self._typical_total()
        self.danger = Danger(k, table, self.prof, self.money, self.typical, self.rounds)
        # round by round, the chance someone else ends the hand (where a win
        # ends it; elsewhere the hand goes on, the others leaving or locked)
        self.hazards = self.danger.hazards(self.rounds, 1.0 if table.after_win == "end" else 0.25)
        self.ron_weight = ALPHA * (game.n - 1) if table.hu_on_discard else 0.0
        self.boost = 1.0 + 0.15 * (game.n - 1) if (table.pong or table.chow) else 1.0
        # a pair's third tile may also be claimed from any other seat's discard
        self.claim_pong = ALPHA * (game.n - 1) if table.pong else 0.0
        self.check = self._check_gain()
        # a ready hand not declared now may still declare at a later discard
        self.later_declare = table.declare == "any_turn" and not k.declared
        # a declaration now would be an opening one (天听-like fans read it)
        st = game.seats[seat]
        self.opening_now = k.opening_ready if k.declared else (
            game.phase == "start" or (seat == game.dealer and game.turn_kind == "deal" and not st.has_discarded))
        self._evs: dict = {}

    # ------------------------------------------------------------ table-level numbers

    def _typical_total(self) -> int:
        plans = self.prof.plans
        if not plans:
            return 1
        v = self.prof.value(plans[0], False)
        totals = sorted(s[0] for s in v.samples if s[1]) or sorted(s[2] for s in v.samples if s[3])
        return totals[len(totals) // 2] if totals else 1

    def _check_gain(self) -> float:
        """What being ready is worth when the wall runs out: the exhausted
        wall's payment rules that read whether a seat is ready, valued at a
        typical total (received from about half the others, or not paid)."""
        from runtime.facts import SettleFacts

        gain = 0.0
        other = self.k.opponents[0].seat if self.k.opponents else self.seat
        for rule in getattr(self.table, "wall_rules", ()):
            if rule.kind != "pay" or rule.amount is None:
                continue
            if "ready" not in (rule.collects_source + rule.pays_source):
                continue
            try:
                amount = rule.amount(SettleFacts(self.money.shim, other, self.seat, self.typical), self.table.o)
            except Exception:  # an amount reading a fact this estimate does not fill in
                amount = self.typical
            gain += float(amount) * len(self.k.opponents) * 0.5
        return gain

    def plan_money(self, plan, opened: bool) -> tuple[float, float]:
        """(win-rate factor, points of a win) for a plan's sampled hands."""
        key = (plan, opened, self.money.key(), tuple(self.money.others), self.seat, self.ron_weight)
        hit = _PLAN_MONEY.get(key)
        if hit is not None:
            return hit
        v = self.prof.value(plan, opened)
        money = self.money
        wr = self.ron_weight
        n = v.n
        at = v.tsumo_rate
        ar = v.ron_rate if wr else 0.0
        mt = sum(money.win(t, True) * c for t, c in v.tsumo_totals) / n
        mr = sum(money.win(t, False) * c for t, c in v.ron_totals) / n if wr else 0.0
        factor = at + wr * ar
        points = (mt + wr * mr) / factor if factor > 0 else 0.0
        if len(_PLAN_MONEY) > 100_000:
            _PLAN_MONEY.clear()
        hit = _PLAN_MONEY[key] = (factor, points)
        return hit

    # ------------------------------------------------------------ hands

    def hand_ev(self, counts, melds, declared: bool | None = None, money=None) -> tuple[float, float]:
        """(expected points, P(win)) of keeping a waiting hand's worth: `counts`
        concealed and `melds` laid down. A ready hand's waits are valued
        as declared when it is (or `declared` says so); a hand further
        away by its plans, whose sampled wins are declared ones where the
        variant lets a hand declare at any discard (it will, once ready)."""
        if declared is None:
            declared = self.k.declared
        key = (tuple(counts[:34]), tuple(melds), declared, money is not None)
        hit = self._evs.get(key)
        if hit is not None:
            return hit
        hit = self._evs[key] = self._hand_ev(counts, melds, declared, money or self.money)
        return hit

    def _hand_ev(self, counts, melds, declared, money) -> tuple[float, float]:
        prof = self.prof
        plain, jokers = self._plain(counts)
        keys = sh.keys_of(plain)
        nm = len(melds)
        opened = any(m.claimed_from_other for m in melds)
        meld_groups = {sh.group_of(t) for m in melds for t in m.tiles}
        open_shape = any(m.type not in (PUNG, KONG) for m in melds)
        found = []
        for plan in prof.plans:
            if plan.shape in (sh.PAIRS, sh.ORPHANS):
                if melds:
                    continue
            elif not meld_groups.issubset(plan.groups) or (plan.shape == sh.PUNGS and open_shape):
                continue
            s = sh.plan_shanten(plan, keys, plain, nm, prof.quads_as_two, prof.sets)
            if jokers:
                s = max(0, s - jokers)
            found.append((s, plan))
        if not found:
            return 0.0, 0.0
        s_min = min(s for s, _ in found)
        best_ev, best_p = 0.0, 0.0
        exact = None
        if s_min <= 0:
            exact = self._ready_ev(counts, melds, declared, money)
            best_ev, best_p = exact
        # the plans worth a closer look: near the best shanten, ranked by
        # what their typical hand would bring; the effective tiles are
        # counted for the best few only
        ranked = []
        for s, plan in found:
            if s > s_min + 1 or s > 6:
                continue
            factor, points = self.plan_money(plan, opened)
            if points <= 0 or factor <= 0:
                continue
            if s <= 0 and exact is not None and exact[0] > 0:
                continue
            rates = prof.rates(plan)
            lam = min(0.9, rates[0] * factor)
            step = max(s, 1)
            pre = _race(step, rates[step], self._later(rates, step), lam, self.hazards)[0] * points
            ranked.append((pre, s, plan, rates, lam, points))
        ranked.sort(key=lambda r: -r[0])
        U = self.U
        for pre, s, plan, rates, lam, points in ranked[:TOP_PLANS]:
            if s <= 0:
                s = 1  # ready, but on waits that do not pay: the waits must change
                q = rates[1]
            else:
                u, claimable = self._ukeire(plan, keys, plain, s, jokers, nm)
                if u <= 0:
                    continue
                q = min(0.9, (u + claimable) / U)
            pw, pend = _race(s, q, self._later(rates, s), lam, self.hazards)
            ev = pw * points + pend * self.check
            if ev > best_ev:
                best_ev, best_p = ev, pw
        return best_ev, best_p

    def _plain(self, counts) -> tuple[list, int]:
        """The counts shape is read from: wilds taken out (each saves a
        step), and the kinds this seat's declarations make dead weight
        (they must go, so they count as tiles to replace)."""
        wilds, banned = self.prof.wilds, self.k.banned
        if not wilds and not banned:
            return counts, 0
        plain = list(counts)
        jokers = 0
        for w in wilds:
            jokers += plain[w]
            plain[w] = 0
        for t in banned:
            plain[t] = 0
        return plain, jokers

    def _later(self, rates, s: int) -> tuple:
        return tuple(min(0.9, r * self.boost * LATER) for r in rates[: s + 1]) if s > 1 else ()

    def _ukeire(self, plan, keys, plain, s: int, jokers: int, nm: int) -> tuple[int, float]:
        """(unseen copies of the tiles that take the plan a step closer,
        the same tiles' extra chance of being claimed from a discard)."""
        k, prof = self.k, self.prof
        unseen = k.unseen
        kinds = prof.kind_set - k.banned if k.banned else prof.kind_set
        if plan.shape in (sh.STD, sh.PUNGS):
            tiles = [t for t in sh.improving(plan, keys, nm, s + jokers, prof.copies, prof.sets) if t in kinds]
        else:
            tiles = []
            quads = prof.quads_as_two
            for t in prof.tiles[plan]:
                if not unseen[t] or plain[t] >= prof.copies or t in k.banned:
                    continue
                plain[t] += 1
                if plan.shape == sh.ORPHANS:
                    s2 = sh.orphans(plain)
                else:
                    g = sh.group_of(t)
                    grown = list(keys)
                    grown[g] = tuple(plain[sh.GROUPS[g][0] : sh.GROUPS[g][1]])
                    s2 = sh.pairs(grown, plan.groups, quads)
                plain[t] -= 1
                if s2 - jokers < s:
                    tiles.append(t)
        total = 0
        claim = 0.0
        pong = self.claim_pong if plan.shape in (sh.STD, sh.PUNGS) else 0.0
        for t in tiles:
            if t in prof.wilds:
                continue
            total += unseen[t]
            if pong and plain[t] >= 2:
                claim += pong * unseen[t]
        for w in prof.wilds:
            total += unseen[w]
        return total, claim

    def _ready_ev(self, counts, melds, declared, money) -> tuple[float, float]:
        shape = analysis.waits(self.table, counts, melds)
        free = self._waits_ev(counts, melds, declared, money, self.hazards, self.opening_now, shape)
        if declared or not self.later_declare:
            return free
        # it may declare at its next discard: its wins are declared ones, a
        # round later, and it bears what declaring costs; or it stays free
        # (a declaration that only locks the hand is worth nothing)
        later = self._waits_ev(counts, melds, True, money.declaring(self.seat), self.hazards[1:], False, shape)
        later = (later[0] - self.declaring_cost(counts, later[1]), later[1])
        return max(free, later)

    def _waits_ev(self, counts, melds, declared, money, hazards, opening: bool, shape: list) -> tuple[float, float]:
        waits = exact_ready(self.table, self.k, counts, melds, declared, money, opening, shape)
        U = self.U
        wr = self.ron_weight
        lam = points = 0.0
        for _, unseen, ron, tsumo in waits:
            if not unseen:
                continue
            f = unseen / U
            lam += f * ((1.0 if tsumo > 0 else 0.0) + (wr if ron > 0 else 0.0))
            points += f * (tsumo + wr * ron)
        ready = bool(waits)
        if lam <= 0:
            return (self.check * _race(0, 0.0, (), 0.0, hazards)[1] if ready else 0.0), 0.0
        pw, pend = _race(0, 0.0, (), min(0.9, lam), hazards)
        return pw * points / lam + pend * self.check, pw

    # ------------------------------------------------------------ choices

    def discard_scores(self, counts, melds, tiles) -> list:
        """[(score, tile)] for discarding each of `tiles` from a hand on turn.
        A discard that leaves the hand further from ready than the best one
        must pay for it: its offence counts only when it is worth clearly
        more (STEP_BACK times), as a plan of higher value can be."""
        shantens = []
        for t in tiles:
            counts[t] -= 1
            shantens.append(self.shanten(counts, melds))
            counts[t] += 1
        low = min(shantens)
        out = []
        for t, s in zip(tiles, shantens):
            ev = 0.0
            if s <= low + 1:  # two steps back is never worth it: offence nil, the tile kept for defence
                counts[t] -= 1
                ev = self.hand_ev(counts, melds)[0]
                counts[t] += 1
            out.append([ev, t])
        best_low = max((o[0] for o, s in zip(out, shantens) if s == low), default=0.0)
        for o, s in zip(out, shantens):
            if s > low and o[0] < STEP_BACK * best_low:
                o[0] = min(o[0], best_low) * STEP_DOWN
        return [(ev - self.danger.cost(t), t) for ev, t in out]

    def efficiency(self, counts, melds) -> tuple[int, int]:
        """(shanten, effective tiles) over the plan of every group and the
        standard shape."""
        plain, jokers = self._plain(counts)
        keys = sh.keys_of(plain)
        plan = self.prof.full_plans[0]
        s = max(0, sh.plan_shanten(plan, keys, plain, len(melds), self.prof.quads_as_two, self.prof.sets) - jokers)
        return s, (self._ukeire(plan, keys, plain, s, jokers, len(melds))[0] if s > 0 else 0)

    def shanten(self, counts, melds) -> int:
        """The hand's shanten over the plans of every group (the shapes
        `runtime.analysis.shanten` knows), wilds each saving a step."""
        prof = self.prof
        counts, jokers = self._plain(counts)
        keys = sh.keys_of(counts)
        best = 8
        for plan in prof.full_plans:
            if plan.shape == sh.PUNGS or (melds and plan.shape in (sh.PAIRS, sh.ORPHANS)):
                continue
            best = min(best, sh.plan_shanten(plan, keys, counts, len(melds), prof.quads_as_two, prof.sets))
        return max(0, best - jokers) if jokers else best

    def best_discard(self, counts, melds) -> float:
        tiles = [t for t in self.prof.kinds if counts[t]]
        if not tiles:
            return self.hand_ev(counts, melds)[0]
        return max(s for s, _ in self.discard_scores(counts, melds, tiles))

    def kong_money(self, kind: str, tile: int) -> float:
        rule = self.table.kong_pay.get(kind)
        if not rule:
            return 0.0
        who, amount = rule
        if callable(amount):
            from runtime.facts import KongFacts

            try:
                amount = amount(KongFacts(self.game, self.seat, kind, tile), self.table.o)
            except Exception:
                amount = 1
        payers = 1 if who == "discarder" else self.n - 1
        value = float(amount) * payers
        if self.table.kong_timing == "owner_wins":
            value *= 0.3
        return value

    def safest_cost(self, counts) -> float:
        costs = [self.danger.cost(t) for t in self.prof.kinds if counts[t]]
        return min(costs) if costs else 0.0

    def declaring_cost(self, counts, p_win: float) -> float:
        """What a declaration costs beyond the declared hand's value: the
        lock, and paying more when the declared hand loses."""
        return self.lock_penalty(counts) + self.declared_risk(p_win)

    def declared_risk(self, p_win: float) -> float:
        """Paying more when a declared hand loses, by the payment formula."""
        if not self.k.opponents:
            return 0.0
        other = self.k.opponents[0].seat
        before = self.money.loss(other, self.typical)
        after = self.money.declaring(self.seat).loss(other, self.typical)
        return max(0.0, after - before) * 0.4 * (1.0 - p_win)

    def lock_penalty(self, counts) -> float:
        """What a locked hand gives up: it must discard every tile it draws,
        safe or not, for the rounds left (for one round, where it could
        still declare at its next discard instead)."""
        k = self.k
        if not self.danger.threats or not self.table.ready_locks:
            return 0.0
        mean = sum(self.danger.cost(t) * k.unseen[t] for t in self.prof.kinds) / self.U
        rounds = 1 if self.later_declare else self.rounds
        return rounds * max(0.0, mean - self.safest_cost(counts)) * 0.5


def _doubles(later: float, p_win: float, now: float, doublings: int) -> bool:
    """加倍 forgoes a sure win for one worth double later: only when that
    later win is likely and clearly worth more, a few times a hand."""
    return doublings < MAX_DOUBLINGS and p_win >= DOUBLE_SURE and 2.0 * later > DOUBLE_GAIN * now


class StrongBot:
    name = "strong"

    def __init__(self, seed=0):
        self.seed = seed
        self._greedy = GreedyBot(seed)

    def choose(self, game, seat: int) -> Action:
        acts = game.legal_actions(seat)
        if len(acts) == 1:
            return acts[0]
        if game.phase == "start":
            return self._start(game, seat, acts)
        ev = Evaluator(game, seat)
        if game.phase == "claim":
            return self._claim(game, seat, acts, ev)
        if game.phase == "replace":
            return self._take(game, seat, acts, ev)
        return self._turn(game, seat, acts, ev)

    # ------------------------------------------------------------ start

    def _start(self, game, seat, acts) -> Action:
        verbs = {a.verb for a in acts}
        if verbs <= {"buy", "pass"}:
            buys = [a for a in acts if a.verb == "buy"]
            return max(buys, key=lambda a: a.extra[0]) if buys else acts[0]
        if verbs <= {"ready", "pass"}:
            ev = Evaluator(game, seat)
            st = game.seats[seat]
            counts = list(st.counts)
            free, _ = ev.hand_ev(counts, st.melds)
            money = ev.money.declaring(seat)
            declared, p = ev.hand_ev(counts, st.melds, declared=True, money=money)
            declared -= ev.declaring_cost(counts, p)
            return Action("ready") if declared >= free and Action("ready") in acts else Action("pass")
        if "exchange" in verbs and len(acts) <= MAX_EXCHANGES:
            return self._exchange(game, seat, acts)
        choices = [a for a in acts if a.choice is not None]
        if choices and len(choices) == len(acts):
            picked = self._declaration(game, seat, choices)
            if picked is not None:
                return picked
        return self._greedy.choose(game, seat)

    def _exchange(self, game, seat, acts) -> Action:
        """The tiles to pass on: for each suit offered, the set whose loss
        leaves the hand closest to ready with the most effective tiles; of
        those, the one leaving the hand closest with the coming
        declaration's restrictions at their best (a void suit to come)."""
        ev = Evaluator(game, seat)
        st = game.seats[seat]
        counts = list(st.counts)
        bans = self._later_bans(game, seat) or [frozenset()]
        by_group: dict = {}
        for a in acts:
            by_group.setdefault(tuple(sorted({sh.group_of(t) for t in a.extra})), []).append(a)

        def without(a):
            c = list(counts)
            for t in a.extra:
                c[t] -= 1
            return c

        best = None
        for group in sorted(by_group):
            # shanten first (cheap), effective tiles for the closest few
            ranked = sorted(by_group[group], key=lambda a: (ev.shanten(without(a), st.melds),
                                                            tuple(-_isolation(counts, t) for t in a.extra)))
            low = ev.shanten(without(ranked[0]), st.melds)
            near = [a for a in ranked[:EXCHANGE_LOOK] if ev.shanten(without(a), st.melds) == low]
            top = max(near, key=lambda a: ev.efficiency(without(a), st.melds)[1])
            c = without(top)
            score = max(self._closeness(ev, c, st.melds, dead) for dead in bans)
            if best is None or score > best[0]:
                best = (score, top)
        return best[1]

    @staticmethod
    def _closeness(ev: Evaluator, counts, melds, dead: frozenset) -> tuple:
        """(-shanten, effective tiles) with `dead` kinds as dead weight."""
        ev.k.banned = dead
        s, u = ev.efficiency(counts, melds)
        return (-s, u)

    @staticmethod
    def _valued_with(ev: Evaluator, counts, melds, dead: frozenset) -> float:
        """The hand's worth with `dead` kinds as dead weight."""
        ev.k.banned = dead
        ev._evs.clear()
        return ev.best_discard(counts, melds) if sum(counts) % 3 == 2 else ev.hand_ev(counts, melds)[0]

    def _later_bans(self, game, seat) -> list:
        """For the next declaration of the opening, the kinds each of its
        choices would make dead weight."""
        from runtime.opening import current

        steps = game.table.opening
        now = current(game)
        later = steps[steps.index(now) + 1 :] if now in steps else ()
        for step in later:
            if step.kind == "declare":
                values = game.table.suits if step.choices_are_suits else step.choices
                return [b for _, b in self._bans(game, seat, [Action(step.id, -1, (v,)) for v in values])]
        return []

    @staticmethod
    def _bans(game, seat, choices) -> list:
        """[(choice, kinds its restrictions make dead weight)]."""
        from runtime.facts import SeatFacts
        from runtime.restrictions import TileFacts

        rules = getattr(game.table, "restrictions", ())
        st = game.seats[seat]
        kinds = [TileFacts(t) for t in game.table.tile_kinds]
        out = []
        for a in choices:
            facts = SeatFacts(game, seat)
            facts.choices = {**st.choices, a.verb: a.choice}
            named = set()
            for rule in rules:
                if rule.no_win or rule.discard_first:
                    named |= {t.kind for t in kinds if rule.tiles(t, facts, game.table.o)}
            out.append((a, frozenset(named)))
        return out

    def _declaration(self, game, seat, choices) -> Action | None:
        """A declaration that restricts the seat's tiles (a void suit): the
        choice leaving the hand worth the most once its restricted tiles
        are dead weight. None when no choice restricts anything (then the
        greedy bot's choice)."""
        bans = self._bans(game, seat, choices)
        if len({b for _, b in bans}) <= 1:
            return None
        ev = Evaluator(game, seat)
        st = game.seats[seat]
        counts = list(st.counts)
        best = None
        for a, dead in bans:
            value = self._valued_with(ev, counts, st.melds, dead)
            s, u = ev.efficiency(counts, st.melds)  # on equal worth, the closer hand
            key = (round(value, 6), -s, u, -sum(counts[t] for t in dead))
            if best is None or key > best[0]:
                best = (key, a)
        return best[1]

    # ------------------------------------------------------------ turn

    def _turn(self, game, seat, acts, ev: Evaluator) -> Action:
        st = game.seats[seat]
        if any(a.verb == "hu" for a in acts):
            return self._self_draw(game, seat, acts, ev, list(st.counts), list(st.melds))
        options = self.turn_options(game, seat, acts, ev)
        if not options:
            return self._greedy.choose(game, seat)
        return max(options, key=lambda o: (round(o[0], 9), o[1]))[2]

    def turn_options(self, game, seat, acts, ev: Evaluator) -> list:
        """[(score, tie-break, action)] for every turn action but a win."""
        st = game.seats[seat]
        counts = list(st.counts)
        melds = list(st.melds)
        options = []
        discards = [a for a in acts if a.verb == "discard"]
        if discards:
            for score, t in ev.discard_scores(counts, melds, [a.tile for a in discards]):
                options.append((score, self._order(counts, t), Action("discard", t)))
        for a in acts:
            if a.verb == "ready":
                counts[a.tile] -= 1
                money = ev.money.declaring(seat)
                v, p = ev.hand_ev(counts, melds, declared=True, money=money)
                v -= ev.declaring_cost(counts, p) + 1e-6  # on a tie, the hand stays free
                counts[a.tile] += 1
                options.append((v - ev.danger.cost(a.tile), self._order(counts, a.tile), a))
            elif a.verb == "kong":
                options.append((self._kong_turn(ev, st, counts, melds, a), (9, 0, 0), a))
        return options

    @staticmethod
    def _order(counts, t: int) -> tuple:
        """Tie-break among equal scores: the loneliest tile, outer ranks first."""
        return (-_isolation(counts, t), _edge(t), -t)

    def _kong_turn(self, ev: Evaluator, st, counts, melds, a) -> float:
        c = list(counts)
        if a.extra:  # a special set laid down
            for t in a.extra:
                c[t] -= 1
            spec = ev.table.special_by_group.get(a.extra)
            meld = Meld(SPECIAL, a.extra[0], spec.id if spec else "", -1, -1, tuple(a.extra))
            new = melds + [meld]
            money = ev.kong_money(meld.kind, a.extra[0])
            if len(a.extra) == 3:
                return ev.best_discard(c, new) + money
            return ev.hand_ev(c, new)[0] + money
        t = a.tile
        pung = next((i for i, m in enumerate(melds) if m.type == PUNG and m.tile == t), None)
        if pung is not None:
            c[t] -= 1
            new = list(melds)
            m = melds[pung]
            new[pung] = Meld(KONG, t, "added", m.source, m.claimed)
            rob = ev.danger.cost(t) if "added" in ev.table.rob_kinds else 0.0
            return ev.hand_ev(c, new)[0] + ev.kong_money("added", t) - rob
        c[t] -= 4
        return ev.hand_ev(c, melds + [Meld(KONG, t, CONCEALED)])[0] + ev.kong_money(CONCEALED, t)

    def _self_draw(self, game, seat, acts, ev: Evaluator, counts, melds) -> Action:
        from runtime.claims import can_self_draw

        hu = Action("hu")
        double = Action("double")
        if double not in acts:
            return hu
        v = can_self_draw(game, seat)
        now = ev.money.win(v.total, True) if v is not None else 0.0
        st = game.seats[seat]
        c = list(counts)
        c[st.drawn] -= 1
        later, p = ev.hand_ev(c, melds)
        # doubling multiplies the later win; the hand keeps its waits
        return double if _doubles(later, p, now, ev.k.doublings) else hu

    # ------------------------------------------------------------ claims

    def _claim(self, game, seat, acts, ev: Evaluator) -> Action:
        st = game.seats[seat]
        w = game.window
        tile = w.tile
        counts = list(st.counts)
        melds = list(st.melds)
        verbs = {a.verb for a in acts}
        pass_ = Action("pass")
        keep, p_keep = ev.hand_ev(counts, melds)
        if "hu" in verbs:
            if pass_ not in acts and "double" not in verbs:
                return Action("hu")
            v = w.valuations.get(seat)
            now = ev.money.win(v.total, False) if v is not None else 0.0
            if "double" in verbs and _doubles(keep, p_keep, now, ev.k.doublings):
                return Action("double")
            if pass_ in acts and keep > PASS_WIN * now + 1e-9 and now > 0:
                return pass_
            return Action("hu")
        stay = keep - ev.safest_cost(counts)
        best, choice = stay, pass_
        for a in acts:
            c = list(counts)
            if a.verb == "pong":
                c[tile] -= 2
                score = ev.best_discard(c, melds + [Meld(PUNG, tile, "", w.source, tile)])
            elif a.verb == "chow":
                for t in a.extra:
                    c[t] -= 1
                low = min(a.extra + (tile,))
                score = ev.best_discard(c, melds + [Meld(CHOW, low, "", w.source, tile)])
            elif a.verb == "kong":
                c[tile] -= 3
                score = ev.hand_ev(c, melds + [Meld(KONG, tile, DIRECT, w.source, tile)])[0]
                score += ev.kong_money(DIRECT, tile)
            else:
                continue
            if score > best * 1.02 + 1e-6:
                best, choice = score, a
        return choice if choice in acts else acts[-1]

    # ------------------------------------------------------------ face-up replacement

    def _take(self, game, seat, acts, ev: Evaluator) -> Action:
        st = game.seats[seat]
        best = None
        for a in acts:
            counts = list(st.counts)
            counts[a.tile] += 1
            score = ev.best_discard(counts, list(st.melds))
            if best is None or score > best[0] + 1e-9:
                best = (score, a)
        return best[1]


__all__ = ["StrongBot", "Evaluator"]
