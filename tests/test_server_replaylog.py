"""A finished hand from the server's log: the replay frames end in the
hand's result, show every tile, and the scenario download plays to the
same result under `mjc scenario` — for every variant."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
import yaml

from mjc.scenario import run_file
from runtime.bots import make_bot
from runtime.registry import names
from server.replaylog import ReplayUnavailable, hand_replay, hand_scenario
from server.tablestate import TableState
from test_server_hidden import random_table


def played(variant: str, hands: int = 6):
    rng = random.Random(f"replaylog/{variant}")
    table = random_table(variant, rng)
    state = TableState(table, f"replaylog/{variant}", hands=hands)
    bots = [make_bot(rng.choice(["random", "greedy"]), rng.random()) for _ in range(table.players)]
    while not state.over:
        state.start_hand()
        while state.in_hand:
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].choose(state.game, seat), "bot")
    seats = [{"seat": s, "kind": "bot", "name": "bot"} for s in range(table.players)]
    return SimpleNamespace(id="t-" + variant, state=state, seats_json=lambda: seats)


@pytest.mark.parametrize("variant", names())
def test_replay_and_scenario_of_every_hand(variant, tmp_path):
    live = played(variant)
    for index in (0, 1, live.state.match.hands - 1):  # the last one in a later round where winds move
        result = live.state.match.results[index].to_json()
        rp = hand_replay(live, index)
        assert rp["result"] == result
        assert len(rp["frames"]) == len(live.state.log[index]) + 1
        last = rp["frames"][-1]
        assert set(last["hands"]) == {str(s) for s in range(live.state.n)}
        doc = yaml.safe_load(hand_scenario(live, index))
        path = tmp_path / f"{variant}-{index}.yaml"
        path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
        out = run_file(str(path))
        assert not out.differences, out.differences
        assert out.result["deltas"] == result["deltas"] and out.result["winners"] == result["winners"]


def test_unfinished_hands_are_not_given_out():
    live = played("kunming", hands=1)
    with pytest.raises(ReplayUnavailable):
        hand_replay(live, 1)
