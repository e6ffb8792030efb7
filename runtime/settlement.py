"""Who pays whom at the end of a hand: wins, ready checks at an exhausted
wall, and the next dealer."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import analysis
from .claims import hypothetical
from .facts import KongFacts, SeatFacts, SettleFacts
from .scoring import evaluate
from .tiles import NAMES

HOUSE = -1  # the payee of a table fee (台费): no seat


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int  # a seat, or HOUSE
    amount: int
    reason: str

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee if self.payee >= 0 else None, "amount": self.amount,
                "reason": self.reason}


@dataclass
class HandResult:
    end: str  # win or draw
    winners: list
    discarder: int
    self_drawn: bool
    payments: list
    deltas: list
    next_dealer: int
    win_tile: int = -1
    robbing_kong: bool = False
    valuations: dict = field(default_factory=dict)  # seat -> Valuation
    horses: list = field(default_factory=list)  # {tile, kind, owner, seat, mark}
    wilds: tuple = ()  # the wild kinds in force this hand
    indicator: int = -1  # the turned tile that chose them

    def fans_json(self) -> dict:
        return {str(s): v.fan_json() for s, v in sorted(self.valuations.items())}

    def to_json(self) -> dict:
        out = {
            "end": self.end,
            "winners": list(self.winners),
            "discarder": self.discarder if self.discarder >= 0 else None,
            "self_drawn": self.self_drawn,
            "fans": self.fans_json(),
            "totals": {str(s): v.total for s, v in sorted(self.valuations.items())},
            "deltas": list(self.deltas),
            "payments": [p.to_json() for p in self.payments],
            "next_dealer": self.next_dealer,
        }
        if self.win_tile >= 0:
            out["win_tile"] = NAMES[self.win_tile]
        if self.robbing_kong:
            out["robbing_kong"] = True
        if self.horses:
            out["horses"] = [dict(h) for h in self.horses]
        if self.wilds:
            out["wilds"] = [NAMES[t] for t in self.wilds]
        if self.indicator >= 0:
            out["indicator"] = NAMES[self.indicator]
        return out


def _deltas(n: int, payments: list[Payment]) -> list[int]:
    deltas = [0] * n
    for p in payments:
        deltas[p.payer] -= p.amount
        if p.payee >= 0:
            deltas[p.payee] += p.amount
    return deltas


def table_fees(game) -> list[Payment]:
    """台费: every seat pays the house the table's fee, win or draw."""
    fee = game.table.table_fee
    return [Payment(s, HOUSE, fee, "table_fee") for s in range(game.n)] if fee else []


def _others(game, seat: int, winners) -> list[int]:
    return [s for s in game._order_from(seat)[1:] if s not in winners]


def _liable(game, valuation, source: int) -> int:
    """The seat that pays every payer's share of this win, or -1."""
    for rule in game.table.liable:
        if rule.when(valuation.facts, valuation.result, game.table.o):
            seat = source if rule.who == "discarder" else game.kong_fed_by if rule.who == "kong_feeder" else -1
            if seat >= 0:
                return seat
    return -1


@dataclass(frozen=True)
class Share:
    """One payer's share of one winner's win, and who actually pays it."""

    payer: int  # whose share it is
    paid_by: int  # the payer, or the seat liable for every share
    winner: int
    amount: int
    reason: str


def _settled_as_self_draw(table, v, self_drawn: bool, robbing: bool) -> bool:
    """A win paid as a self-draw: drawn, or a robbed kong or a discard win
    the variant counts as one (`claims.rob_kong.counts_as`,
    `settlement.win.self_draw_when`)."""
    if self_drawn or (robbing and table.rob_counts_as == "self_draw"):
        return True
    return v.facts is not None and table.self_draw_when is not None and bool(table.self_draw_when(v.facts, v.result, table.o))


def win_shares(game, winners, source, robbing, as_self_draws: dict, valuations) -> list[Share]:
    """What each payer owes each winner; `as_self_draws`: winner -> paid as a self-draw."""
    table = game.table
    spec = table.ruleset.settlement
    shares = []
    for w in winners:
        v = valuations[w]
        as_self_draw = as_self_draws[w]
        liable = _liable(game, v, source) if v.facts is not None else -1
        if liable >= 0:
            # one player pays everyone's share, the other winners' too, each
            # reckoned as its payer's, whoever would pay a discard win
            payers = list(game._order_from(w)[1:])
        elif as_self_draw or table.discard_payers == "others":
            payers = _others(game, w, winners)
        else:
            payers = [source]
        kong_replacement = bool(v.facts and v.facts.kong_replacement)
        for p in payers:
            facts = SettleFacts(game, p, w, v.total, source, as_self_draw, robbing, kong_replacement, len(winners))
            lines = [("win", spec.amount(facts, table.o) if spec.amount else v.total)]
            lines += [(reason, rule(facts, table.o)) for reason, rule, _ in table.extras]
            shares.extend(Share(p, liable if liable >= 0 else p, w, amount, reason) for reason, amount in lines if amount)
    return shares


def _paid(shares) -> list[Payment]:
    """Shares added up per paying seat, winner and reason, in order."""
    owed: dict = {}
    for sh in shares:
        key = (sh.paid_by, sh.winner, sh.reason)
        owed[key] = owed.get(key, 0) + sh.amount
    return [Payment(p, w, amount, reason) for (p, w, reason), amount in owed.items()]


def settle_win(game, winners, tile, self_drawn, source, robbing, valuations) -> HandResult:
    as_self_draws = {w: _settled_as_self_draw(game.table, valuations[w], self_drawn, robbing) for w in winners}
    shares = win_shares(game, winners, source, robbing, as_self_draws, valuations)
    payments = list(game.payments) + _paid(shares)
    payments.extend(horse_payments(game, shares))
    payments.extend(kong_payments_at_end(game, winners))
    payments.extend(table_fees(game))
    return HandResult(
        end="win",
        winners=list(winners),
        discarder=source,
        # as the rules count it: a robbed kong settled as a self-draw is one too
        self_drawn=all(as_self_draws.values()),
        payments=payments,
        deltas=_deltas(game.n, payments),
        next_dealer=next_dealer(game, winners, source),
        win_tile=tile,
        robbing_kong=robbing,
        valuations=dict(valuations),
        horses=horse_marks(game, winners, shares),
        wilds=tuple(sorted(game.table.wilds)),
        indicator=game.indicator,
    )


def ready_values(game) -> dict[int, int | None]:
    """Each seat's best discard-win value over its waits (None: not ready)."""
    rc = game.table.ready_check
    out = {}
    for seat, st in enumerate(game.seats):
        waits = analysis.seat_waits(game.table, st)
        best = None
        for w in waits:
            v = evaluate(game.table, hypothetical(game, seat, st.counts, st.melds, w), ignore=frozenset(rc.ignore_fans))
            if v is not None and (best is None or v.total > best):
                best = v.total
        out[seat] = best
    return out


def settle_draw(game) -> HandResult:
    payments = list(game.payments)
    rc = game.table.ready_check
    if rc is not None:
        values = ready_values(game)
        o = game.table.o
        collectors = [s for s in range(game.n) if rc.collects(SeatFacts(game, s), o)]
        for c in collectors:
            for p in range(game.n):
                if p in collectors:
                    continue
                amount = rc.amount(SettleFacts(game, p, c, values[c] or 0), o)
                if amount:
                    payments.append(Payment(p, c, amount, rc.reason))
    payments.extend(kong_payments_at_end(game, None))
    payments.extend(table_fees(game))
    return HandResult(
        end="draw",
        winners=[],
        discarder=-1,
        self_drawn=False,
        payments=payments,
        deltas=_deltas(game.n, payments),
        next_dealer=next_dealer(game, [], -1),
        horses=horse_marks(game, None, []),
        wilds=tuple(sorted(game.table.wilds)),
        indicator=game.indicator,
    )


# ------------------------------------------------------------ horses


def horse_payments(game, shares) -> list[Payment]:
    """Bought horses repeat the shares of the seat they point at: a horse on
    a winner collects every share of that win but its owner's own; a horse
    on a payer makes its owner pay the winner that payer's share. What a
    horse pays or collects per share is the variant's `amount` (the share
    itself unless it says otherwise)."""
    horses = game.table.ruleset.horses
    if not game.horses or horses is None:
        return []
    mirrored = [sh for sh in shares if sh.reason == horses.mirror]
    out = []  # a line for each horse and share, to show which horse paid
    for owner, tiles in sorted(game.horses.items()):
        for tile in tiles:
            seat = game.horse_seat(tile)
            for sh in mirrored:
                if seat == sh.winner and sh.payer != owner:
                    payer, payee = sh.paid_by, owner
                elif seat == sh.payer and owner != sh.winner:
                    payer, payee = owner, sh.winner
                else:
                    continue
                amount = _horse_amount(game, horses, payer, payee, sh)
                if amount:
                    out.append(Payment(payer, payee, amount, horses.reason))
    return out


def _horse_amount(game, horses, payer: int, payee: int, share) -> int:
    if horses.amount is None:
        return share.amount
    facts = SettleFacts(game, payer, payee, 0)
    facts.share = share.amount
    return horses.amount(facts, game.table.o)


def horse_marks(game, winners, shares) -> list[dict]:
    """Every horse turned over, marked won (it points at a winner), lost (at
    a loser of the win) or none; at an exhausted wall bought horses are all
    lost and reward horses are not turned."""
    out = []
    losers = {sh.payer for sh in shares if sh.reason == "win" and sh.payer not in (winners or ())}
    for owner, tiles in sorted(game.horses.items()):
        for tile in tiles:
            seat = game.horse_seat(tile)
            mark = "lost" if winners is None else "won" if seat in winners else "lost" if seat in losers else "none"
            out.append({"tile": NAMES[tile], "kind": "bought", "owner": owner, "seat": seat, "mark": mark})
    if winners:
        for tile in game.reward_tiles():
            seat = game.horse_seat(tile)
            out.append({"tile": NAMES[tile], "kind": "reward", "owner": None, "seat": seat,
                        "mark": "won" if seat in winners else "none"})
    return out


# ------------------------------------------------------------ kongs


def _kong_lines(game, owner: int, kind: str, feeder: int, tile: int = -1) -> list[Payment]:
    """What a kong (or a special set: `kind` is its id) is paid; an amount
    may depend on the kong's tile (`kong.tile`)."""
    rule = game.table.kong_pay.get(kind)
    if rule is None or not rule[1]:
        return []
    who, amount = rule
    if callable(amount):
        amount = amount(KongFacts(game, owner, kind, tile), game.table.o)
        if not amount:
            return []
    payers = [feeder] if who == "discarder" and feeder >= 0 else [s for s in range(game.n) if s != owner]
    return [Payment(p, owner, amount, game.table.kong_reason) for p in payers]


def kong_payments_now(game, owner: int, kind: str, feeder: int, tile: int = -1) -> list[Payment]:
    """Kong payments made as soon as the kong stands."""
    if game.table.kong_timing != "immediate":
        return []
    return _kong_lines(game, owner, kind, feeder, tile)


def kong_payments_at_end(game, winners) -> list[Payment]:
    """Kong payments settled with the hand: `winners` None at a draw."""
    timing = game.table.kong_timing
    if timing == "at_end" and (winners is not None or game.table.kongs_paid_at_draw):
        return [p for owner, kind, feeder, tile in game.kongs for p in _kong_lines(game, owner, kind, feeder, tile)]
    if timing == "owner_wins" and winners:
        return [p for owner, kind, feeder, tile in game.kongs if owner in winners
                for p in _kong_lines(game, owner, kind, feeder, tile)]
    return []


def next_dealer(game, winners: list, discarder: int) -> int:
    spec = game.table.ruleset.dealer
    n, dealer = game.n, game.dealer
    if not winners:
        nxt = dealer if spec.after_draw == "stay" else (dealer + 1) % n
    elif len(winners) == 1:
        nxt = winners[0] if spec.after_win == "winner" else (dealer + 1) % n
    else:
        rule = spec.after_multiple_winners
        if rule == "discarder":
            nxt = discarder
        elif rule == "discarder_next":
            nxt = (discarder + 1) % n
        else:
            nxt = winners[0]
    if winners and nxt == dealer and not game.table.dealer_may_repeat:
        nxt = (dealer + 1) % n
    return nxt
