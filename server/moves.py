"""Moves as players send them and as the log keeps them.

A player names a move the way the views list it (`chow 5m6m`, `pong 3s`,
`discard 7p`) or as an object (`{"verb": "chow", "tiles": ["5m", "6m"]}`).
Some of these leave out what the situation says: a chow names the two tiles
taken from the hand, not the discard on offer. `resolve` turns such a move
into the one legal action it means, so the text a view lists is always
accepted, and `canonical` writes an action back as that same text; the log
stores the canonical text and replay resolves it again against the same
(deterministic) game, so every logged move replays.
"""

from __future__ import annotations

from runtime.actions import Action, action_from_json


def resolve(game, seat: int, action: Action) -> Action:
    """The legal action `action` stands for at this point of `game`, or
    `action` itself when it names none (the caller then refuses it)."""
    legal = game.legal_actions(seat)
    if action in legal:
        return action
    if action.tile < 0 and game.window is not None and action.verb in ("chow", "pong", "kong"):
        # a claim that leaves out the tile on offer
        same = [a for a in legal if a.verb == action.verb and a.extra == action.extra]
        if len(same) == 1:
            return same[0]
    return action


def parse_move(game, seat: int, data) -> Action:
    """A move as text or JSON, resolved; raises runtime.actions.ActionError."""
    return resolve(game, seat, action_from_json(data))


def canonical(action: Action) -> str:
    """The text a view lists for this action, which `parse_move` reads back."""
    return str(action)
