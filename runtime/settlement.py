"""Who pays whom: wins, kongs, the rules of an exhausted wall (ready
checks, refunds), payments moved to a winner, and the next dealer."""

from __future__ import annotations


from . import analysis, restrictions
from .claims import hypothetical
from .facts import KongFacts, SeatFacts, SettleFacts
from .scoring import evaluate
from .tiles import NAMES

HOUSE = -1  # the payee of a table fee (台费): no seat


class Payment:
    def __init__(self, payer: int, payee: int, amount: int, reason: str, kong: int = -1) -> None:
        self.payer = payer
        self.payee = payee  # a seat, or HOUSE
        self.amount = amount
        self.reason = reason
        self.kong = kong  # the index in game.kongs of the kong it pays for

    # immutable: a copy is the object itself
    def __copy__(self) -> "Payment":
        return self

    def __deepcopy__(self, memo: dict) -> "Payment":
        return self

    # compared and hashed by value, as the dataclass it was (not one for
    # import time, runtime/ruleset.py)
    def _key(self) -> tuple:
        return (self.payer, self.payee, self.amount, self.reason, self.kong)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Payment):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Payment(payer={self.payer!r}, payee={self.payee!r}, amount={self.amount!r}, "
                f"reason={self.reason!r}, kong={self.kong!r})")

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee if self.payee >= 0 else None, "amount": self.amount,
                "reason": self.reason}


class HandResult:
    def __init__(
        self,
        end: str,
        winners: list,
        discarder: int,
        self_drawn: bool,
        payments: list,
        deltas: list,
        next_dealer: int,
        win_tile: int = -1,
        robbing_kong: bool = False,
        valuations: dict | None = None,
        horses: list | None = None,
        wilds: tuple = (),
        indicator: int = -1,
        wins: list | None = None,
        exhausted: bool = False,
    ) -> None:
        self.end = end  # win or draw
        self.winners = winners
        self.discarder = discarder
        self.self_drawn = self_drawn
        self.payments = payments
        self.deltas = deltas
        self.next_dealer = next_dealer
        self.win_tile = win_tile
        self.robbing_kong = robbing_kong
        self.valuations: dict = {} if valuations is None else valuations  # seat -> Valuation
        self.horses: list = [] if horses is None else horses  # {tile, kind, owner, seat, mark}
        self.wilds = wilds  # the wild kinds in force this hand
        self.indicator = indicator  # the turned tile that chose them
        self.wins = wins  # WinRecord of each win, where wins do not end the hand
        self.exhausted = exhausted  # the wall ran out

    def __deepcopy__(self, memo: dict) -> "HandResult":
        from .copying import deepcopy_fields

        return deepcopy_fields(self, memo)

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
        if self.wins is not None:
            out["wins"] = [w.to_json() for w in self.wins]
            out["exhausted"] = self.exhausted
        return out


class WinRecord:
    """One win of a hand whose wins do not end it, settled when it happened."""

    def __init__(
        self,
        winners: list,
        discarder: int,
        self_drawn: bool,
        tile: int,
        robbing_kong: bool,
        valuations: dict,
        payments: list,
    ) -> None:
        self.winners = winners
        self.discarder = discarder
        self.self_drawn = self_drawn  # as settled
        self.tile = tile
        self.robbing_kong = robbing_kong
        self.valuations = valuations  # seat -> Valuation
        self.payments = payments  # what this win paid (moves included)

    def __deepcopy__(self, memo: dict) -> "WinRecord":
        from .copying import deepcopy_fields

        return deepcopy_fields(self, memo)

    def to_json(self) -> dict:
        return {
            "winners": list(self.winners),
            "discarder": self.discarder if self.discarder >= 0 else None,
            "self_drawn": self.self_drawn,
            "win_tile": NAMES[self.tile],
            **({"robbing_kong": True} if self.robbing_kong else {}),
            "fans": {str(s): v.fan_json() for s, v in sorted(self.valuations.items())},
            "totals": {str(s): v.total for s, v in sorted(self.valuations.items())},
            "payments": [p.to_json() for p in self.payments],
        }


def seat_deltas(n: int, payments: list[Payment]) -> list[int]:
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
    """Every other seat still in the hand that did not win."""
    return [s for s in game.order_in(seat) if s != seat and s not in winners]


def _liable(game, valuation, source: int) -> int:
    """The seat that pays every payer's share of this win, or -1."""
    for rule in game.table.liable:
        if rule.when(valuation.facts, valuation.result, game.table.o):
            seat = source if rule.who == "discarder" else game.kong_fed_by if rule.who == "kong_feeder" else -1
            if seat >= 0:
                return seat
    return -1


class Share:
    """One payer's share of one winner's win, and who actually pays it."""

    def __init__(self, payer: int, paid_by: int, winner: int, amount: int, reason: str) -> None:
        self.payer = payer  # whose share it is
        self.paid_by = paid_by  # the payer, or the seat liable for every share
        self.winner = winner
        self.amount = amount
        self.reason = reason

    # immutable: a copy is the object itself
    def __copy__(self) -> "Share":
        return self

    def __deepcopy__(self, memo: dict) -> "Share":
        return self

    # compared and hashed by value, as the dataclass it was (not one for
    # import time, runtime/ruleset.py)
    def _key(self) -> tuple:
        return (self.payer, self.paid_by, self.winner, self.amount, self.reason)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Share):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Share(payer={self.payer!r}, paid_by={self.paid_by!r}, winner={self.winner!r}, "
                f"amount={self.amount!r}, reason={self.reason!r})")


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
    shares: list = []
    for w in winners:
        v = valuations[w]
        as_self_draw = as_self_draws[w]
        liable = _liable(game, v, source) if v.facts is not None else -1
        if liable >= 0:
            # one player pays everyone's share, the other winners' too, each
            # reckoned as its payer's, whoever would pay a discard win
            payers = [s for s in game.order_in(w) if s != w]
        elif as_self_draw or table.discard_payers == "others":
            payers = _others(game, w, winners)
        else:
            payers = [source]
        kong_replacement = bool(v.facts and v.facts.kong_replacement)
        for p in payers:
            facts = SettleFacts(game, p, w, v.total, source, as_self_draw, robbing, kong_replacement, len(winners),
                                v.result.counts if v.result is not None else None)
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
    """The hand's result when its first win ends it."""
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
        deltas=seat_deltas(game.n, payments),
        next_dealer=next_dealer(game, winners, source),
        win_tile=tile,
        robbing_kong=robbing,
        valuations=dict(valuations),
        horses=horse_marks(game, winners, shares),
        wilds=tuple(sorted(game.table.wilds)),
        indicator=game.indicator,
    )


def settle_win_now(game, winners, tile, self_drawn, source, robbing, valuations) -> WinRecord:
    """A win that does not end the hand, settled at once among the seats
    still in: its payments join the hand's and are announced."""
    as_self_draws = {w: _settled_as_self_draw(game.table, valuations[w], self_drawn, robbing) for w in winners}
    shares = win_shares(game, winners, source, robbing, as_self_draws, valuations)
    lines = _paid(shares) + horse_payments(game, shares) + _moved(game, winners, source, valuations)
    for p in lines:
        game.payments.append(p)
        game._event("payment", **p.to_json())
    return WinRecord(list(winners), source, all(as_self_draws.values()), tile, robbing, dict(valuations), lines)


def _moved(game, winners, source: int, valuations) -> list[Payment]:
    """Payments made earlier that pass to a winner now: what
    the discarder's latest kong collected and still holds goes to the
    first winner, in turn order after the discarder, for whom the rule holds."""
    if source < 0 or not game.table.payment_moves:
        return []
    out = []
    for rule in game.table.payment_moves:
        kong = max((i for i, k in enumerate(game.kongs) if k[0] == source), default=-1)
        if kong < 0:
            continue
        to = next((w for w in winners if valuations[w].facts is not None
                   and rule.when(valuations[w].facts, valuations[w].result, game.table.o)), -1)
        if to < 0:
            continue
        held = [i for i, p in enumerate(game.payments)
                if p.kong == kong and p.payee == source and i not in game.moved]
        amount = sum(game.payments[i].amount for i in held)
        if amount:
            game.moved.update(held)
            out.append(Payment(source, to, amount, rule.reason))
    return out


def best_wait_value(game, seat: int, ignore=frozenset()) -> int | None:
    """A seat's best discard-win value over its waits (None: not ready)."""
    st = game.seats[seat]
    if not seat_can_win(game, seat):
        return None
    best = None
    for w in analysis.seat_waits(game.table, st):
        v = evaluate(game.table, hypothetical(game, seat, st.counts, st.melds, w), ignore=ignore)
        if v is not None and (best is None or v.total > best):
            best = v.total
    return best


def seat_can_win(game, seat: int) -> bool:
    """The seat's hand waits on a tile it could win with: its shape waits,
    and no restriction of its declarations stops it winning (SeatFacts.ready)."""
    st = game.seats[seat]
    return bool(analysis.seat_waits(game.table, st)) and not restrictions.blocks_win(st, st.counts, st.melds)


def wall_payments(game, payments: list) -> list[Payment]:
    """The exhausted wall's rules in order, among the seats that have not
    won this hand; `payments` are those made so far (for refunds)."""
    o = game.table.o
    taking = [s for s in range(game.n) if not game.seats[s].wins]
    out: list = []
    for rule in game.table.wall_rules:
        if rule.kind == "refund":
            out.extend(_refunds(game, rule, taking, payments + out))
            continue
        facts = {s: SeatFacts(game, s) for s in taking}
        collectors = [s for s in taking if rule.collects(facts[s], o)]
        payers = [s for s in taking if s not in collectors and (rule.pays is None or rule.pays(facts[s], o))]
        ignore = frozenset(rule.ignore_fans)
        for c in collectors:
            value = best_wait_value(game, c, ignore) if payers else None
            for p in payers:
                amount = rule.amount(SettleFacts(game, p, c, value or 0), o)
                if amount:
                    out.append(Payment(p, c, amount, rule.id))
    return out


def _refunds(game, rule, taking, payments) -> list[Payment]:
    """Every taking seat for which `by` holds returns the payments of the
    rule's reason it received and still holds (not moved on) to the
    taking seats that paid them."""
    o = game.table.o
    out = []
    for s in taking:
        if not rule.by(SeatFacts(game, s), o):
            continue
        for i, p in enumerate(payments):
            if p.reason == rule.refund and p.payee == s and p.payer in taking and i not in game.moved:
                out.append(Payment(s, p.payer, p.amount, rule.id))
    return out


def settle_draw(game) -> HandResult:
    payments = list(game.payments)
    payments.extend(wall_payments(game, payments))
    payments.extend(kong_payments_at_end(game, None))
    payments.extend(table_fees(game))
    return HandResult(
        end="draw",
        winners=[],
        discarder=-1,
        self_drawn=False,
        payments=payments,
        deltas=seat_deltas(game.n, payments),
        next_dealer=next_dealer(game, [], -1),
        horses=horse_marks(game, None, []),
        exhausted=True,
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


def _kong_lines(game, index: int) -> list[Payment]:
    """What kong `index` of game.kongs (or a special set: its kind is the
    set's id) is paid, by the seats still in; an amount may depend on the
    kong's tile (`kong.tile`)."""
    owner, kind, feeder, tile = game.kongs[index]
    rule = game.table.kong_pay.get(kind)
    if rule is None or not rule[1]:
        return []
    who, amount = rule
    if callable(amount):
        amount = amount(KongFacts(game, owner, kind, tile), game.table.o)
        if not amount:
            return []
    payers = [feeder] if who == "discarder" and feeder >= 0 else [
        s for s in range(game.n) if s != owner and not game.seats[s].out]
    return [Payment(p, owner, amount, game.table.kong_reason, index) for p in payers]


def kong_payments_now(game) -> list[Payment]:
    """Kong payments made as soon as the latest kong stands."""
    if game.table.kong_timing != "immediate":
        return []
    return _kong_lines(game, len(game.kongs) - 1)


def kong_payments_at_end(game, winners) -> list[Payment]:
    """Kong payments settled with the hand: `winners` None at a draw."""
    timing = game.table.kong_timing
    if timing == "at_end" and (winners is not None or game.table.kongs_paid_at_draw):
        return [p for i in range(len(game.kongs)) for p in _kong_lines(game, i)]
    if timing == "owner_wins" and winners:
        return [p for i, k in enumerate(game.kongs) if k[0] in winners for p in _kong_lines(game, i)]
    return []


def next_dealer(game, winners: list, discarder: int) -> int:
    """Who deals next after a hand won by `winners` on `discarder`'s tile
    (no winners: a draw): the first of the variant's rotation rules that
    fits the hand."""
    n, dealer = game.n, game.dealer
    nxt = dealer
    for after, deals in game.table.ruleset.dealer.next:
        if _fits(after, winners, dealer):
            nxt = _deals(deals, winners, discarder, dealer, n)
            break
    if winners and nxt == dealer and not game.table.dealer_may_repeat:
        nxt = (dealer + 1) % n
    return nxt


def _fits(after: str, winners: list, dealer: int) -> bool:
    return (after == "any" or (after == "draw" and not winners) or (after == "win" and bool(winners))
            or (after == "several_winners" and len(winners) > 1) or (after == "dealer_wins" and dealer in winners))


def _deals(deals: str, winners: list, discarder: int, dealer: int, n: int) -> int:
    if deals == "next":
        return (dealer + 1) % n
    if deals == "winner" and winners:
        return winners[0]
    if deals == "discarder":
        return discarder if discarder >= 0 else winners[0] if winners else dealer
    if deals == "discarder_next":
        return (discarder + 1) % n if discarder >= 0 else (dealer + 1) % n
    return dealer
