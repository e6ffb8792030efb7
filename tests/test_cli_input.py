"""Bad input to `mjc` is answered with a message and exit 2 (or, for
`score`, an error line), never a traceback (shared/spec/cli.md)."""

from __future__ import annotations

import json
import socket

import pytest

from mjc.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("raw, message", [
    (b'{"concealed":"\xff"}\n', "line 1: not UTF-8 text"),
    (b"[" * 1000 + b"]" * 1000 + b"\n", "line 1: not JSON this tool reads: nested too deeply"),
    (b'{"flowers": ' + b"9" * 5000 + b"}\n", "line 1: not JSON this tool reads: a number with too many digits"),
])
def test_score_answers_unreadable_lines_with_an_error_line(capsys, tmp_path, raw, message):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(raw + b'{"concealed":"123m456p789s1z1z2z2z","win_tile":"2z"}\n')
    code, out, err = run(capsys, "score", "mcr", str(path))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [l for l in err.splitlines() if not l.startswith("mjc: ")] == [] and len(lines) == 2
    assert lines[0] == {"ok": False, "error": lines[0]["error"]} and lines[0]["error"].startswith(message)
    assert lines[1]["ok"] is True  # the next line is still scored


@pytest.mark.parametrize("text, message", [
    ("variant: kunming\nseed: 7\nactions:\n  - 7 hu\n", "s.yaml:4: no seat 7 at a 4-player table"),
    ("variant: kunming\nseed: 7\nactions:\n  - 1 fly 3m\n", "s.yaml:4: 'fly' is not a verb of kunming; its verbs: discard, hu, kong, pass, pong, take"),
    ("variant: kunming\nseed: 7\noptions: [1, 2]\n", "s.yaml:3: options maps option ids to values"),
    ("variant: kunming\nseed: 7\nexpect: {fans: 5}\n", "s.yaml:3: expect.fans is a mapping of seats"),
    ("variant: kunming\nseed: 7\nexpect: [1]\n", "s.yaml:3: expect maps result keys to their expected values"),
    ("variant: kunming\nseed: 7\ndealer: true\n", "s.yaml:3: dealer must be a seat 0..3"),
    ("variant: kunming\nseed: 7\nactions: abc\n", "s.yaml:3: actions is a list of 'SEAT VERB [ARGUMENT]'"),
    ("variant: kunming\nhands: {0: 5}\nwall: 1m\n", "s.yaml:2: tiles are text such as 123m5p or a list, not 5"),
    ("variant: chaozhou\noptions: {gui_pai: fan_gui}\nseed: 7\nindicator: 3m\n", "s.yaml:4: with a seed the indicator is turned"),
    ("variant: chaozhou\noptions: {mai_ma: '1'}\nseed: 7\nhorses: {x: 1m}\n", "s.yaml:4: no seat x at a 4-player table"),
    ("variant: kunming\nseed: 7\ndescription: " + "[" * 2000 + "]" * 2000 + "\n", "s.yaml:3:113: nested more than 100 levels deep"),
])
def test_scenario_mistakes_are_named_before_play(capsys, tmp_path, text, message):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "scenario", str(path))
    assert code == 2 and message in err and "Traceback" not in err


def test_build_without_variants_is_bad_input(capsys, tmp_path):
    code, _, err = run(capsys, "build", "--variants", str(tmp_path / "none"), "--out", str(tmp_path / "out"))
    assert code == 2 and "no variant files in" in err


def test_serve_refuses_a_file_that_is_not_a_database(capsys, tmp_path):
    db = tmp_path / "garbage.sqlite3"
    db.write_text("garbage", encoding="utf-8")
    code, _, err = run(capsys, "serve", "--db", str(db), "--port", "1")
    assert code == 2 and "not a usable SQLite database" in err


def test_serve_refuses_a_port_in_use(capsys, tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        code, _, err = run(capsys, "serve", "--db", str(tmp_path / "t.sqlite3"), "--port", str(port))
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in err


def test_simulate_json_counts_fans_by_name(capsys):
    code, out, _ = run(capsys, "simulate", "kunming", "--games", "40", "--seed", "7", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["fans"] and set(stats["fans"]) <= {"平胡", "小七对", "龙七对", "碰碰胡", "清一色", "杠上花", "杠上炮", "抢杠胡", "十老头", "七风"}
    assert sum(stats["fans"].values()) == sum(stats["fan_ids"].values())
