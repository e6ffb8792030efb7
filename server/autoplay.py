"""托管: the move made for a seat whose player let the time run out.

Draw-discard (摸什么打什么), as a table's own automatic play does: a forced
move is made, an opening choice (an exchange, a declaration) is made as the
greedy bot makes it (the suit held fewest; an exchange keeps pairs where
it can), a claim or a ready declaration is passed, and at a turn the tile just drawn is discarded (after a claim, when nothing was drawn, the last
tile the rules allow). Where the variant says so (`autoplay.wins`), every
win the rules allow is taken first.
"""

from __future__ import annotations

from runtime.actions import Action
from runtime.bots import GreedyBot

PASS = Action("pass")
_GREEDY = GreedyBot(0)


def auto_action(game, seat: int) -> Action:
    forced = game.forced_action(seat)
    if forced is not None:
        return forced
    if game.automatic_action(seat) is not None:
        # an exchange or declaration: chosen as the greedy bot does (the suit
        # held fewest, keeping pairs where another choice exists), which is
        # deterministic, so a replayed table makes the same choice
        return _GREEDY.choose(game, seat)
    legal = game.legal_actions(seat)
    if game.table.autoplay_wins:
        win = next((a for a in legal if a.verb == "hu"), None)
        if win is not None:
            return win
    if PASS in legal:
        return PASS
    if game.phase == "turn":
        drawn = game.seats[seat].drawn
        if drawn >= 0 and Action("discard", drawn) in legal:
            return Action("discard", drawn)
        discards = [a for a in legal if a.verb == "discard"]
        if discards:
            return discards[-1]
    return legal[0]
