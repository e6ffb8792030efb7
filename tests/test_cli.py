"""The `mjc` command as users meet it: exit codes, messages, outputs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjc.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "tests" / "scenarios" / "yunnan_ka_er_tiao" / "ket40_closed_two_bamboo_discard.yaml"


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_list(capsys):
    import re

    code, out, _ = run(capsys, "list")
    assert code == 0
    rows = [re.split(r"\s{2,}", line) for line in out.splitlines()]
    assert rows[0] == ["variant", "中文", "English", "players", "tiles", "from"]
    assert ["yunnan_ka_er_tiao", "云南卡二条", "Yunnan Ka Er Tiao", "4/3/2", "72"] in [r[:5] for r in rows]
    assert ["kunming", "昆明麻将", "Kunming Mahjong", "4", "136"] in [r[:5] for r in rows]


def test_validate_and_build_check_in_the_project(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run(capsys, "validate")
    assert code == 0 and "variants/yunnan_ka_er_tiao.yaml: ok" in out
    code, out, _ = run(capsys, "build", "--check")
    assert code == 0 and "up to date" in out


def test_build_check_names_changed_missing_and_stale_files(capsys, tmp_path):
    variants, out_dir = tmp_path / "variants", tmp_path / "generated"
    variants.mkdir()
    out_dir.mkdir()
    source = (ROOT / "variants" / "yunnan_ka_er_tiao.yaml").read_text(encoding="utf-8")
    (variants / "a.yaml").write_text(source, encoding="utf-8")
    (variants / "b.yaml").write_text(source, encoding="utf-8")
    (out_dir / "a.py").write_text("# old\n", encoding="utf-8")
    (out_dir / "gone.py").write_text("# no variant\n", encoding="utf-8")
    code, _, err = run(capsys, "build", "--check", "--variants", str(variants), "--out", str(out_dir))
    assert code == 1
    assert f"changed: {(out_dir / 'a.py').as_posix()}" in err
    assert f"missing: {(out_dir / 'b.py').as_posix()}" in err
    assert f"stale: {(out_dir / 'gone.py').as_posix()}" in err
    code, out, _ = run(capsys, "build", "--variants", str(variants), "--out", str(out_dir))
    assert code == 0 and not (out_dir / "gone.py").exists()
    assert run(capsys, "build", "--check", "--variants", str(variants), "--out", str(out_dir))[0] == 0


def test_play_prints_a_whole_match(capsys):
    code, out, _ = run(capsys, "play", "yunnan_ka_er_tiao", "--hands", "3", "--seed", "7", "--players", "3")
    assert code == 0
    assert out.count("\nHand ") == 3
    assert "Final scores: seat 0" in out


def test_play_json_is_json_lines_and_scores_add_up(capsys):
    code, out, _ = run(capsys, "play", "yunnan_ka_er_tiao", "--hands", "2", "--json")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["type"] == "match" and lines[-1]["type"] == "match_result"
    results = [x for x in lines if x["type"] == "hand_result"]
    assert len(results) == 2
    assert [sum(x) for x in zip(*(r["deltas"] for r in results))] == lines[-1]["scores"]


def test_play_same_seed_same_match(capsys):
    a = run(capsys, "play", "yunnan_ka_er_tiao", "--hands", "2", "--seed", "x")[1]
    b = run(capsys, "play", "yunnan_ka_er_tiao", "--hands", "2", "--seed", "x")[1]
    assert a == b


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "nowhere"], "unknown variant 'nowhere'; known variants: "),
        (["play", "yunnan_ka_er_tiao", "--players", "5"], "is played by 4, 3, 2 players, not 5"),
        (["play", "yunnan_ka_er_tiao", "--option", "guo_hu=maybe"], "option guo_hu takes true or false, not 'maybe'"),
        (["play", "yunnan_ka_er_tiao", "--option", "rounds=5"], "option rounds has no value 5; expected one of: 4, 8, 12"),
        (["play", "yunnan_ka_er_tiao", "--option", "nope=1"], "has no option 'nope'"),
        (["play", "yunnan_ka_er_tiao", "--option", "guo_hu"], "--option takes KEY=VALUE"),
        (["docs", "nowhere"], "unknown variant"),
        (["simulate", "yunnan_ka_er_tiao", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, args, message):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_scenario_result_and_exit_codes(capsys, tmp_path):
    code, out, _ = run(capsys, "scenario", str(SCENARIO))
    assert code == 0
    result = json.loads(out)
    assert result["deltas"] == [-4, 4, 0, 0] and result["winners"] == [1]
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(SCENARIO.read_text(encoding="utf-8").replace("deltas: [-4, 4, 0, 0]", "deltas: [-6, 6, 0, 0]"), encoding="utf-8")
    code, out, err = run(capsys, "scenario", str(wrong))
    assert code == 1
    assert "deltas: expected [-6, 6, 0, 0], got [-4, 4, 0, 0]" in err


def test_scenario_illegal_action_names_line_seat_verb_and_reason(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SCENARIO.read_text(encoding="utf-8").replace("  - 0 discard 9s\n", "  - 0 discard 9p\n"), encoding="utf-8")
    code, _, err = run(capsys, "scenario", str(bad))
    assert code == 2
    line = next(i for i, text in enumerate(bad.read_text(encoding="utf-8").splitlines(), 1) if "0 discard 9p" in text)
    assert f"bad.yaml:{line}: seat 0 cannot discard 9p: holds no 9p" in err


DECLARED_KONG = """variant: yunnan_ka_er_tiao
hands:
  0: 2p 4p 3p 5s 4s 2s 6s 3p 5p 3s 7p 5s 1p 3s
  1: 1s 1s 1s 2s 3s 4p 5p 6p 7p 8p 9p 9p 9p
  2: 4s 5s 9p 2p 3p 1p 9s 6s 2s 2p 1p 6p 2s
  3: 6s 7p 1p 4s 9s 7s 7s 8p 8p 3p 9s 5p 8p
wall: 1s 6s 4p 9s 7s 3s 8s 4s 2p 7s 4p 8s 5p 5s 6p 7p 6p 8s 8s
actions:
  - 1 ready
  - 0 discard 2p
  - 1 kong 1s
"""


def test_a_refused_kong_of_a_declared_player_says_why(capsys, tmp_path):
    """KET-22: 111s23s waits on 1s 4s too; konging the fourth 1s changes the
    waits, so the locked turn discards it and the script's kong is refused."""
    bad = tmp_path / "kong.yaml"
    bad.write_text(DECLARED_KONG, encoding="utf-8")
    code, _, err = run(capsys, "scenario", str(bad))
    assert code == 2
    assert "kong.yaml:11: seat 1 cannot kong 1s: declared ready: this kong would change the waiting tiles" in err

def test_scenario_tile_count_error(capsys, tmp_path):
    bad = tmp_path / "count.yaml"
    bad.write_text(SCENARIO.read_text(encoding="utf-8").replace("wall: 8s 8s 9p", "wall: 8s 9p"), encoding="utf-8")
    code, _, err = run(capsys, "scenario", str(bad))
    assert code == 2
    assert "hands and wall hold 71 tiles, the variant's set has 72: missing 1 (8s)" in err


def test_scenario_verbose_prints_events(capsys):
    code, _, err = run(capsys, "scenario", "--verbose", str(SCENARIO))
    assert code == 0 and "discard: seat=0 tile=2s" in err


def test_scenario_verbose_prints_the_events_before_an_error(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SCENARIO.read_text(encoding="utf-8").replace("  - 0 discard 9s\n", "  - 0 discard 9p\n"), encoding="utf-8")
    code, _, err = run(capsys, "scenario", "--verbose", str(bad))
    assert code == 2 and "deal: dealer=0" in err and "cannot discard 9p" in err


def test_score_reads_hand_json_lines(capsys, tmp_path, monkeypatch):
    hands = tmp_path / "hands.jsonl"
    good = {"concealed": ["1s", "3s", "4p", "5p", "6p", "7p", "8p", "9p", "9p", "9p", "5s", "5s", "5s"], "win_tile": "2s", "self_drawn": True}
    short = dict(good, concealed=good["concealed"][:-1])
    hands.write_text("\n".join([json.dumps(good), json.dumps(short), "{oops"]) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "score", "yunnan_ka_er_tiao", str(hands))
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["ok"] and lines[0]["total"] == 3 and lines[0]["unit"] == "multiplier"
    assert {f["name"] for f in lines[0]["fans"]} == {"平胡", "自摸", "卡二条"}
    assert lines[1] == {"ok": False, "error": "not a winning hand: 12 tiles after melds, expected 13 before the winning tile"}
    assert lines[2]["ok"] is False and lines[2]["error"].startswith("line 3: not JSON")


def test_docs_rulebook(capsys):
    code, out, _ = run(capsys, "docs", "yunnan_ka_er_tiao")
    assert code == 0
    assert out.startswith("# 云南卡二条 (Yunnan Ka Er Tiao)")
    for text in ("| `qiang_gang` | 可抢杠 |", "| closed_two_bamboo | 卡二条 |", "## Verbs", "**ready** (报叫)"):
        assert text in out


@pytest.mark.parametrize("variant", __import__("runtime.registry", fromlist=["names"]).names())
def test_docs_for_every_variant(capsys, variant):
    code, out, err = run(capsys, "docs", variant)
    assert code == 0 and out.startswith("# ") and "## Fan table" in out and "## Verbs" in out


def test_simulate_json(capsys):
    code, out, _ = run(capsys, "simulate", "yunnan_ka_er_tiao", "--games", "20", "--json")
    assert code == 0
    stats = json.loads(out)
    assert stats["games"] == 20 and stats["wins"] + stats["draws"] == 20
    assert stats["decisions"] > 0 and stats["seconds"] > 0
    assert sum(stats["fans"].values()) >= stats["wins"]


def test_simulate_with_workers_gives_the_same_counts(capsys):
    one = json.loads(run(capsys, "simulate", "yunnan_ka_er_tiao", "--games", "16", "--json")[1])
    two = json.loads(run(capsys, "simulate", "yunnan_ka_er_tiao", "--games", "16", "--json", "--workers", "2")[1])
    for key in ("games", "decisions", "wins", "self_draws", "draws", "fans"):
        assert one[key] == two[key]


def test_the_console_script_runs_as_a_module(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "mjc", "list"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and "yunnan_ka_er_tiao" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "mjc", "frobnicate"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
