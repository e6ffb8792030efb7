"""The benchmark tool runs (a plumbing check on tiny slices; no figure is
judged): the rows, the JSON report, the pure build under MJC_PURE=1, and
the compiled column beside it when `runtime.build_info()` says a compiled
build runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks import run

REPO = Path(__file__).resolve().parents[1]


def _bench(*args, env=None):
    out = subprocess.run([sys.executable, "-m", "benchmarks.run", *args], cwd=str(REPO), capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_says_compiled_reads_the_build_info_contract():
    assert run._says_compiled({"build": "compiled", "compiler": "mypyc"})
    assert run._says_compiled("compiled (mypyc 1.13)")
    assert not run._says_compiled({"build": "pure"})
    assert not run._says_compiled("pure Python (MJC_PURE=1)")
    # the compiled build's own words (branch issue14-compiled)
    assert run._says_compiled("compiled (mypyc 1.13.0)")
    assert not run._says_compiled("pure Python (the compiled modules did not load)")
    assert not run._says_compiled("pure Python (built without mypyc: no C compiler)")


def test_fresh_hands_differ_from_slice_to_slice_and_agree_between_sides():
    a, b = run._mcr_hands("mcr_json/slice-0", 0), run._mcr_hands("mcr_json/slice-1", 0)
    assert a == run._mcr_hands("mcr_json/slice-0", 0)
    assert a != b and len(a) == run.BATCH
    assert run.random_winning_hands(5, "x/0") != run.random_winning_hands(5, "x/1")


def test_a_short_score_run_reports_every_row_as_json():
    report = json.loads(_bench("--seconds", "0.05", "--only", "score", "--json"))
    assert set(report["rows"]) == {"mcr_json", "mcr_calc", "ket_score"}
    assert report["machine"]["python"] and report["machine"]["cores"]
    assert report["builds"]["pure"]["build"] == "pure"
    for row in report["rows"].values():
        assert row["pure"]["count"] > 0 and row["pure"]["per_s"] > 0
    if report["rows"]["mcr_json"]["peer"].get("per_s"):
        assert 0 < report["rows"]["mcr_json"]["pure"]["ratio"]
    if not report["compiled"]["present"]:
        assert report["compiled"]["why"]
        assert "compiled" not in report["builds"]


def test_the_compiled_column_appears_when_a_compiled_build_runs(tmp_path, capsys):
    """A stand-in for the compiled build: `runtime.build_info()` says
    compiled unless MJC_PURE=1, as the compiled build's contract has it."""
    (tmp_path / "sitecustomize.py").write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "import runtime\n"
        "runtime.build_info = (lambda: {'build': 'pure'}) if os.environ.get('MJC_PURE') == '1' "
        "else (lambda: {'build': 'compiled', 'compiler': 'stand-in'})\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    env.pop("MJC_PURE", None)
    report = json.loads(_bench("--seconds", "0.05", "--only", "score", "--json", env=env))
    run.print_table(report)
    text = capsys.readouterr().out
    assert "| ours, pure | ours, compiled | peer | ratio, pure | ratio, compiled | goal |" in text
    assert "compiled column absent" not in text
    assert report["compiled"]["present"]
    assert report["builds"]["compiled"]["info"]["compiler"] == "stand-in"
    assert report["builds"]["pure"]["info"] == {"build": "pure"}
    assert report["rows"]["mcr_calc"]["compiled"]["count"] > 0
