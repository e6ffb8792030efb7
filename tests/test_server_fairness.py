"""Fair deals: the hash published at a hand's start matches the seed
revealed at its end, `mjc verify-deal` recomputes the deal, and a revealed
hand seed does not give away the next hand's."""

from __future__ import annotations

import json

import pytest

from mjc.cli import main
from runtime.bots import make_bot
from runtime.registry import load, names
from server.fairness import commitment, verify
from server.tablestate import TableState


def played_state(variant: str, hands: int = 2, options=None) -> TableState:
    table = load(variant).configure(options or {})
    state = TableState(table, "secret match seed", hands=hands)
    bots = [make_bot("random", s) for s in range(table.players)]
    while not state.over:
        state.start_hand()
        while state.in_hand:
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].choose(state.game, seat), "bot")
    return state


def record(state: TableState, hand: int, seat: int) -> dict:
    """What a client saved: the hand_end proof, the table, and its own deal."""
    t = state.table
    end = next(m for m in state.streams[seat] if m["type"] == "hand_end" and m["hand"] == hand)
    deal = next(m for m in state.streams[seat] if m["type"] == "event" and m["hand"] == hand and m["event"]["type"] == "deal")
    return {**end["proof"], "variant": t.ruleset.name, "variant_sha256": t.ruleset.source_sha256, "players": t.players,
            "options": t.option_values, "seat": seat, "dealt": deal["event"]["hand"]}


@pytest.mark.parametrize("variant", names())
def test_every_hand_verifies(variant):
    state = played_state(variant)
    for hand in range(2):
        start = next(m for m in state.streams[0] if m["type"] == "hand_start" and m["hand"] == hand)
        assert "seed" not in start
        rec = record(state, hand, seat=hand % state.n)
        assert commitment(rec["seed"]) == start["seed_sha256"] == rec["seed_sha256"]
        out = verify(rec)
        assert out["ok"], out["problems"]
        assert out["hands"][rec["seat"]] == rec["dealt"]


def test_hand_seeds_do_not_reveal_each_other():
    state = played_state("kunming")
    seeds = [p["seed"] for p in state.proofs]
    assert len(set(seeds)) == 2 and all(len(s) == 64 for s in seeds)
    assert state.match.seed not in json.dumps(state.streams)


def test_verify_deal_cli(tmp_path, capsys):
    state = played_state("chaozhou", hands=1, options={"gui_pai": "fan_gui", "mai_ma": "2"})
    rec = record(state, 0, seat=1)
    good = tmp_path / "deal.json"
    good.write_text(json.dumps(rec))
    assert main(["verify-deal", str(good)]) == 0
    out = capsys.readouterr().out
    assert "ok: the seed matches" in out and "wild indicator" in out and "horses" in out

    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({**rec, "dealt": list(reversed(rec["dealt"]))[1:] + ["1z"]}))
    assert main(["verify-deal", str(forged)]) == 1
    assert "MISMATCH: seat 1 was dealt" in capsys.readouterr().out

    other_seed = tmp_path / "seed.json"
    other_seed.write_text(json.dumps({**rec, "seed": "0" * 64}))
    assert main(["verify-deal", str(other_seed), "--json"]) == 1
    assert "published" in json.loads(capsys.readouterr().out)["problems"][0]

    bad = tmp_path / "bad.json"
    bad.write_text('{"variant": "nope"}')
    assert main(["verify-deal", str(bad)]) == 2
    assert "needs 'seed'" in capsys.readouterr().err
