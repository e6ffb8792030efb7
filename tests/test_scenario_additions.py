"""Scenario files a designer writes by hand (issue 15, item 2): a wall
ending in `...`, `round_wind`, `expect.not_offered`, a `hu` kept for a
later discard, errors that say where an action was taken and what the
seat could do, and `mjc scenario --explain`."""

from __future__ import annotations

import json
import textwrap
from collections import Counter

import pytest

from mjc.cli import main
from mjc.scenario import Runner, ScenarioError
from runtime.shuffle import shuffled
from runtime.tiles import parse_tiles

HEAD = """
variant: yunnan_ka_er_tiao
hands:
  0: 1p1p 2p2p 3p3p 7s7s 8s8s 9s9s 5p 6p
  1: 1s1s1s 2s2s2s 3s3s3s 4s4s 5s5s
  2: 4p4p 5p5p 6p6p 7p7p 8p 9p 6s6s 7s
  3: 1p 2p 3p 4p 5p 7p 8p 6s 7s 8s 9s 6s 3p
"""


def scenario(tmp_path, body: str, name: str = "s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(HEAD) + textwrap.dedent(body), encoding="utf-8")
    return path


def run(capsys, *args):
    code = main(["scenario", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


LATE_HU = """
wall: 9p 9p 9p 4s ...
actions:
  - 0 discard 6p
  - 1 hu
expect:
  winners: [1]
  discarder: 0
"""


def test_a_wall_ending_in_dots_is_completed_from_the_seed(tmp_path):
    runner = Runner(str(scenario(tmp_path, LATE_HU + "seed: 7\n")))
    wall = runner.game.wall
    assert wall[:4] == parse_tiles("9p 9p 9p 4s")
    hands = [t for h in runner.data["hands"].values() for t in parse_tiles(h)]
    rest = Counter(runner.table.wall_tiles()) - Counter(hands) - Counter(parse_tiles("9p 9p 9p 4s"))
    assert wall[4:] == shuffled(sorted(rest.elements()), 7)
    default = Runner(str(scenario(tmp_path, LATE_HU, "t.yaml"))).game.wall
    assert default[4:] == shuffled(sorted(rest.elements()), 0) != wall[4:]


def test_a_hu_meant_for_a_discard_waits_through_turns_without_a_self_draw(tmp_path, capsys):
    # seat 1 draws 9p first (no win): its `hu` waits for seat 0's 4s
    code, out, err = run(capsys, scenario(tmp_path, LATE_HU))
    result = json.loads(out)
    assert code == 0 and result["winners"] == [1] and result["win_tile"] == "4s"


def test_round_wind(tmp_path):
    assert Runner(str(scenario(tmp_path, LATE_HU + "round_wind: 3z\n"))).game.round_wind == 29
    assert Runner(str(scenario(tmp_path, LATE_HU, "t.yaml"))).game.round_wind == 27
    with pytest.raises(ScenarioError, match=r"s2.yaml:\d+: round_wind is one wind, 1z \(East\) to 4z \(North\)"):
        Runner(str(scenario(tmp_path, LATE_HU + "round_wind: 5z\n", "s2.yaml")))


def test_not_offered(tmp_path, capsys):
    body = LATE_HU + "  not_offered:\n    - {after: \"0 discard 6p\", offer: \"3 pong\"}\n"
    assert run(capsys, scenario(tmp_path, body))[0] == 0
    body = LATE_HU + "  not_offered:\n    - {after: 1, offer: \"2 pong 6p\"}\n"
    code, out, err = run(capsys, scenario(tmp_path, body, "t.yaml"))
    assert code == 1
    assert "not_offered (line 17): '2 pong 6p' was offered: pong 6p" in err
    code, _, err = run(capsys, scenario(tmp_path, LATE_HU + "  not_offered: [{after: 9, offer: 2 pong}]\n", "u.yaml"))
    assert code == 2 and "after names an action of the script" in err


def test_an_illegal_action_names_its_line_the_point_and_what_the_seat_could_do(tmp_path, capsys):
    code, _, err = run(capsys, scenario(tmp_path, "wall: 9p 9p 9p 4s ...\nactions:\n  - 0 discard 8p\n"))
    assert code == 2
    assert err.splitlines()[-1] == (
        f"{tmp_path}/s.yaml:10: seat 0 cannot discard 8p: holds no 8p; taken at seat 0's turn (having drawn 6p); "
        "seat 0 could: discard 1p, discard 2p, discard 3p, discard 5p, discard 6p, discard 7s, discard 8s, discard 9s, "
        "ready 5p, ready 6p"
    )


def test_explain_prints_the_steps_without_the_events(tmp_path, capsys):
    code, out, err = run(capsys, "--explain", scenario(tmp_path, LATE_HU))
    assert code == 0
    lines = err.splitlines()
    assert "line 11: '0 discard 6p' taken at seat 0's turn (having drawn 6p)" in lines
    assert "  seat 1 discards 9p, the tile it drew, not named (at seat 1's turn (having drawn 9p))" in lines
    assert lines[-1] == "line 12: '1 hu' taken in the claim window on seat 0's discard of 4s"
    assert not any(line.startswith(("draw:", "discard:")) for line in lines)  # no event lines
