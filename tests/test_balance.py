"""`mjc balance`: the report's files, counts that agree with `mjc simulate`
for the same seeds, progress in logs, refusals without a traceback, and
(with Ray installed) a local two-worker Ray instance agreeing with local
processes."""

from __future__ import annotations

import csv
import json

import pytest

from mjc.cli import main
from mjc.simulate import run_local
from runtime.registry import load

pytest.importorskip("matplotlib")

PNGS = ("fans", "win_values", "win_rates", "draw_rate", "lengths", "flows", "scores")


def _csv(path):
    out: dict = {}
    with open(path, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out.setdefault(row["setting"], {})[(row["metric"], row["key"])] = int(row["count"])
    return out


def test_a_report_comparing_two_settings(tmp_path, capsys):
    out = tmp_path / "report"
    code = main(["balance", "yunnan_ka_er_tiao", "--hands", "24", "--compare", "qiang_gang=true",
                 "qiang_gang=false multiple_winners=false", "--out", str(out), "--bot", "greedy", "--workers", "1",
                 "--seed", "t"])
    assert code == 0
    for name in ("report.html", "counts.json", "counts.csv") + tuple(f"{p}.png" for p in PNGS):
        assert (out / name).stat().st_size > 0, name
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == len(PNGS), "the plots are embedded"
    assert "qiang_gang=false multiple_winners=false" in html
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("balance: ")]
    assert lines[-1] == "balance: 100% (48/48 hands)" and len(lines) <= 10  # a quiet line per 10 %
    assert "balance: 50% (24/48 hands)" in lines

    counts = _csv(out / "counts.csv")
    for label, options in (("qiang_gang=true", {"qiang_gang": "true"}),
                           ("qiang_gang=false multiple_winners=false", {"qiang_gang": "false", "multiple_winners": "false"})):
        opts = [x for k, v in options.items() for x in ("--option", f"{k}={v}")]
        assert main(["simulate", "yunnan_ka_er_tiao", "--games", "24", "--seed", "t", "--json"] + opts) == 0
        sim = json.loads(capsys.readouterr().out)
        mine = counts[label]
        for key in ("games", "decisions", "wins", "self_draws", "draws"):
            assert mine[(key, "")] == sim[key], key
        assert {k: v for (m, k), v in mine.items() if m == "fans"} == sim["fan_ids"]
        assert mine[("winners", "")] == sim["multiple_winner_hands"]
        assert sum(v for (m, _), v in mine.items() if m == "seat_wins") >= sim["wins"]


def test_the_sichuan_flow_and_the_strong_bot(tmp_path):
    out = tmp_path / "sc"
    assert main(["balance", "sichuan_xuezhan", "--hands", "6", "--out", str(out), "--workers", "1"]) == 0
    data = json.loads((out / "counts.json").read_text(encoding="utf-8"))
    assert data["bot"] == "strong" and data["settings"][0]["counts"]["games"] == 6


@pytest.mark.parametrize("argv, message", [
    (["--compare", "no_such_option=1"], "no option 'no_such_option'"),
    (["--compare", "qiang_gang"], "KEY=VALUE"),
    (["--hands", "0"], "--hands must be at least 1"),
    (["--compare", "rounds=4", "rounds=4"], "the same setting twice"),
])
def test_bad_input_is_refused_with_a_message(tmp_path, capsys, argv, message):
    base = ["balance", "yunnan_ka_er_tiao", "--hands", "2", "--out", str(tmp_path / "x")]
    if "--hands" in argv:
        base = ["balance", "yunnan_ka_er_tiao", "--out", str(tmp_path / "x")]
    assert main(base + argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_simulate_counts_do_not_depend_on_how_hands_are_split():
    table = load("yunnan_ka_er_tiao").configure()
    one = run_local(table, 30, "split", "random", workers=1)
    two = run_local(table, 30, "split", "random", workers=2)
    assert one.to_json() == two.to_json()


def test_ray_and_local_runs_agree():
    ray = pytest.importorskip("ray")
    from mjc.balance import run_ray

    table = load("chuxiong_yuxi").configure()
    local = run_local(table, 40, "ray-ci", "greedy", workers=1)
    try:
        remote = run_ray(table, 40, "ray-ci", "greedy", workers=2)
        assert int(ray.cluster_resources().get("CPU", 0)) == 2
    finally:
        ray.shutdown()
    assert remote.to_json() == local.to_json()
