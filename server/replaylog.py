"""A finished hand again, from the server's log: every frame for the replay
viewer, and a scenario file that `mjc scenario` plays to the same result.

Only a hand that is over is given out: by then its seed is revealed, so its
whole deal (and, with the public moves, every hand) is known anyway.
"""

from __future__ import annotations

import yaml

from runtime.game import deal
from runtime.tiles import NAMES

from .moves import parse_move
from .present import enrich
from .public import public_view


class ReplayUnavailable(LookupError):
    def __init__(self, message: str, status: int = 404):
        super().__init__(message)
        self.status = status


def _finished_hand(live, index: int):
    state = live.state
    if not 0 <= index < len(state.match.results):
        played = len(state.match.results)
        raise ReplayUnavailable(f"hand {index + 1} of table {live.id} has not finished "
                                f"({played} hand{'s' if played != 1 else ''} finished so far)", 404 if index >= state.hand + 1 else 409)
    return state, state.proofs[index]["seed"], state.deals[index], state.log[index]


def _frame(game, action=None, events=()) -> dict:
    view = enrich(public_view(game), game)
    hands = {str(s): [NAMES[t] for t in st.tiles()] for s, st in enumerate(game.seats)}
    out = {"view": view, "hands": hands, "events": list(events)}
    if action is not None:
        out["action"] = action
    return out


def hand_replay(live, index: int) -> dict:
    """Every step of a finished hand with everything shown: the deal, then
    per move the move, its events and the table after it."""
    state, seed, how, moves = _finished_hand(live, index)
    game = deal(state.table, seed, how["dealer"], round_wind=how["round_wind"], hand_number=index, streak=how["streak"])
    frames = [_frame(game, None, game.events)]
    for seat, text, by in moves:
        seen = len(game.events)
        game.apply(seat, parse_move(game, seat, text))
        frames.append(_frame(game, {"seat": seat, "action": text, "by": by}, game.events[seen:]))
    rs = state.table.ruleset
    return {
        "table": live.id, "hand": index, "variant": rs.name, "title": {"zh": rs.title.zh, "en": rs.title.en},
        "unit": {"zh": rs.scoring.unit_name.zh, "en": rs.scoring.unit_name.en},
        "players": state.n, "options": dict(state.table.option_values), "proof": dict(state.proofs[index]),
        "seats": live.seats_json(), "result": game.result.to_json() if game.result else None, "frames": frames,
    }


def hand_scenario(live, index: int) -> str:
    """The hand as a scenario file (shared/spec/scenario.md): dealt from its
    revealed seed, every logged move in order, the result as `expect`."""
    state, seed, how, moves = _finished_hand(live, index)
    result = state.match.results[index]
    rs = state.table.ruleset
    doc = {
        "description": f"table {live.id}, hand {index + 1}, as played on the server (mjc scenario FILE replays it)",
        "variant": rs.name,
        "players": state.n,
        "options": dict(state.table.option_values),
        "dealer": how["dealer"],
        "seed": seed,
    }
    if how["streak"]:
        doc["streak"] = how["streak"]
    if how["round_wind"] != 27:
        doc["round_wind"] = NAMES[how["round_wind"]]
    doc["actions"] = [f"{seat} {text}" for seat, text, _ in moves]
    doc["expect"] = {"end": result.end, "winners": list(result.winners), "deltas": list(result.deltas)}
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=120)
