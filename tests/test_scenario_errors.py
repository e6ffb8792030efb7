"""Scenarios whose script breaks a rule stop with exit 2 and say why, at
the line of the action (tests/scenario_errors/, written from the rules
alone; the scenario format has no key for an expected error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjc.cli import main

ROOT = Path(__file__).parent / "scenario_errors"
EXPECTED = {
    "sc05_exchange_two_suits.yaml": ":20: seat 1 cannot exchange 1m2m5p: the 3 tiles passed must all be of one suit",
    "sc07_non_void_discard_refused.yaml": "seat 2 cannot discard 5p: must first discard 1s 9s (定缺的花色",
    "sc08_concealed_kong_of_void_suit.yaml": "may not kong 5m: 定缺的花色",
    "sc09_self_draw_holding_void_tile.yaml": "seat 2 cannot hu",
    "sc14_kong_in_the_turn_of_the_pung.yaml": "seat 1 cannot kong 5p: has no kong of 5p to make now",
    "sl61_locked_kong_changing_waits.yaml": "has won and keeps his hand: this kong would change the waiting tiles",
}


def test_every_file_is_listed():
    assert sorted(p.name for p in ROOT.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_broken_script_stops_with_its_reason(name, capsys):
    assert main(["scenario", str(ROOT / name)]) == 2
    err = capsys.readouterr().err
    assert EXPECTED[name] in err and "Traceback" not in err
