"""A hand whose wins do not end it (`hand_end.winners`): winners leave and
the others play on, or winners stay in, locked, and may win again. Each win is settled when it happens, among the
seats still in; the hand ends when too few seats are left in or the wall
is exhausted, and its result lists every win in order."""

from __future__ import annotations

from . import settlement
from .scoring import Valuation
from .tiles import NAMES


def win_settled(game, winners, tile, self_drawn: bool, source: int, robbing: bool, valuations) -> None:
    """After a win: settle it, take the winners out or lock them, then
    play on from the seat the variant names, or end the hand."""
    table = game.table
    game.wins.append(settlement.settle_win_now(game, winners, tile, self_drawn, source, robbing, valuations))
    for w in winners:
        st = game.seats[w]
        st.wins += 1
        if self_drawn:
            st.counts[tile] -= 1  # the winning tile is laid beside the hand (or set aside to win again)
            st.won_tiles.append(tile)
            st.drawn = -1
        if table.after_win == "leave":
            st.out = True
            game.any_out = True
            hand = [NAMES[t] for t in range(len(st.counts)) for _ in range(st.counts[t])]
            game._event("leave", seat=w, hand=hand, tile=NAMES[tile])  # his hand is laid face up
            continue
        if st.wins == 1:
            game.bind(w, table.locked_forbids, table.locked_kong, True)
    game.window = None
    game.after_kong_discard = False
    if table.after_win == "leave" and sum(not st.out for st in game.seats) <= table.until_in:
        game.result = result(game, exhausted=False)
        game._end()
        return
    after = winners[-1] if table.resume == "after_last_winner" or source < 0 else source
    game._draw(game.next_in(after))


def result(game, exhausted: bool):
    """The hand's result: every win in order, the payments made during
    the hand, and, at an exhausted wall, its rules among the seats that
    have not won."""
    payments = list(game.payments)
    if exhausted:
        payments.extend(settlement.wall_payments(game, payments))
    winners: list = []
    for w in game.wins:
        winners.extend(s for s in w.winners if s not in winners)
    payments.extend(settlement.kong_payments_at_end(game, winners or None))
    payments.extend(settlement.table_fees(game))
    first = game.wins[0] if game.wins else None
    return settlement.HandResult(
        end="win" if first else "draw",
        winners=winners,
        discarder=first.discarder if first else -1,
        self_drawn=first.self_drawn if first else False,
        payments=payments,
        deltas=settlement.seat_deltas(game.n, payments),
        next_dealer=settlement.next_dealer(game, first.winners, first.discarder) if first else settlement.next_dealer(game, [], -1),
        win_tile=first.tile if first else -1,
        robbing_kong=first.robbing_kong if first else False,
        valuations=_summed(game.wins),
        wilds=tuple(sorted(game.table.wilds)),
        indicator=game.indicator,
        wins=list(game.wins),
        exhausted=exhausted,
    )


def _summed(wins) -> dict:
    """Each winner's fans and totals summed over his wins."""
    out: dict = {}
    for w in wins:
        for seat, v in w.valuations.items():
            if seat not in out:
                out[seat] = Valuation(list(v.fans), v.total, v.arrangement, facts=v.facts, result=v.result)
                continue
            merged = out[seat]
            fans = {f.id: [f, value, count] for f, value, count in merged.fans}
            for f, value, count in v.fans:
                if f.id in fans:
                    fans[f.id][2] += count
                else:
                    fans[f.id] = [f, value, count]
            merged.fans = [tuple(x) for x in fans.values()]
            merged.total += v.total
    return out
