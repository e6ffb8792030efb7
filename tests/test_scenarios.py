"""Every scenario under tests/scenarios/ plays to its `expect`."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjc.scenario import run_file

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path):
    text = path.read_text(encoding="utf-8")
    assert "expect:" in text, f"{path} has no expect"
    outcome = run_file(str(path))
    assert outcome.differences == [], "\n".join(outcome.differences)


def test_every_ket_scenario_names_rule_ids():
    for path in (ROOT / "yunnan_ka_er_tiao").glob("*.yaml"):
        assert "KET-" in path.read_text(encoding="utf-8"), f"{path.name} names no rule ID"


def test_at_least_thirty_ket_scenarios():
    assert len(list((ROOT / "yunnan_ka_er_tiao").glob("*.yaml"))) >= 30


@pytest.mark.parametrize("folder, prefix, least", [
    ("sichuan_xuezhan", "SC-", 40), ("sichuan_xueliu", "SC-", 15),
])
def test_rules_scenarios_name_their_rule_ids(folder, prefix, least):
    files = list((ROOT / folder).glob("*.yaml"))
    assert len(files) >= least
    for path in files:
        assert prefix in path.read_text(encoding="utf-8"), f"{path.name} names no rule ID"
