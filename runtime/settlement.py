"""Who pays whom at the end of a hand: wins, ready checks at an exhausted
wall, and the next dealer."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import analysis
from .claims import hypothetical
from .scoring import evaluate
from .tiles import NAMES


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    amount: int
    reason: str

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason}


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
        return out


class SettleFacts:
    """The `s` of payment formulas: one payer paying one receiver."""

    __slots__ = (
        "total", "payer_is_discarder", "payer_is_dealer", "payer_declared", "winner_is_dealer",
        "winner_declared", "self_drawn", "robbing_kong", "kong_replacement", "winners", "players",
    )

    def __init__(self, game, payer: int, payee: int, total: int, discarder: int = -1, self_drawn=False,
                 robbing=False, kong_replacement=False, winners=1):
        self.total = total
        self.payer_is_discarder = payer == discarder
        self.payer_is_dealer = payer == game.dealer
        self.payer_declared = game.seats[payer].declared
        self.winner_is_dealer = payee == game.dealer
        self.winner_declared = game.seats[payee].declared
        self.self_drawn = self_drawn
        self.robbing_kong = robbing
        self.kong_replacement = kong_replacement
        self.winners = winners
        self.players = game.n


class SeatFacts:
    """The `s` of ready-check conditions: one seat at an exhausted wall."""

    __slots__ = ("ready", "declared", "is_dealer", "players")

    def __init__(self, game, seat: int, ready: bool):
        self.ready = ready
        self.declared = game.seats[seat].declared
        self.is_dealer = seat == game.dealer
        self.players = game.n


def _deltas(n: int, payments: list[Payment]) -> list[int]:
    deltas = [0] * n
    for p in payments:
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    return deltas


def settle_win(game, winners, tile, self_drawn, source, robbing, valuations) -> HandResult:
    rs = game.table.ruleset
    spec = rs.settlement
    counts_as_self_draw = self_drawn or (robbing and game.table.rob_counts_as == "self_draw")
    payments = []
    for w in winners:
        v = valuations[w]
        if counts_as_self_draw:
            payers = [s for s in game._order_from(w)[1:] if s not in winners]
        elif game.table.discard_payers == "discarder":
            payers = [source]
        else:
            payers = [s for s in game._order_from(w)[1:] if s not in winners]
        kong_replacement = bool(v.facts and v.facts.kong_replacement)
        for p in payers:
            facts = SettleFacts(game, p, w, v.total, source, counts_as_self_draw, robbing, kong_replacement, len(winners))
            amount = spec.amount(facts, game.table.o) if spec.amount else v.total
            if amount:
                payments.append(Payment(p, w, amount, "win"))
    return HandResult(
        end="win",
        winners=list(winners),
        discarder=source,
        self_drawn=self_drawn,
        payments=payments,
        deltas=_deltas(game.n, payments),
        next_dealer=next_dealer(game, winners, source),
        win_tile=tile,
        robbing_kong=robbing,
        valuations=dict(valuations),
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
    payments = []
    rc = game.table.ready_check
    if rc is not None:
        values = ready_values(game)
        o = game.table.o
        collectors = [s for s in range(game.n) if rc.collects(SeatFacts(game, s, values[s] is not None), o)]
        for c in collectors:
            for p in range(game.n):
                if p in collectors:
                    continue
                amount = rc.amount(SettleFacts(game, p, c, values[c] or 0), o)
                if amount:
                    payments.append(Payment(p, c, amount, rc.reason))
    return HandResult(
        end="draw",
        winners=[],
        discarder=-1,
        self_drawn=False,
        payments=payments,
        deltas=_deltas(game.n, payments),
        next_dealer=next_dealer(game, [], -1),
    )


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
