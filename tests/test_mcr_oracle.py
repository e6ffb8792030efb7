"""The 500 Chinese Official hands of shared/data/mcr_oracle_dev.jsonl (copied
to tests/data/ so that a checkout tests on its own), each
scored by the compiled `mcr` module: every fan (name, value, count, in
table order) and the total equal what PyMahjongGB 1.4.0 gives, after the
three spellings of its own that notation.md lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjc.handjson import score_hand
from runtime.registry import load

DEV = Path(__file__).resolve().parent / "data" / "mcr_oracle_dev.jsonl"
THEIR_NAMES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}


def _records() -> list[dict]:
    if not DEV.exists():
        return []
    return [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]


RECORDS = _records()
_CACHE: dict = {}


def test_the_dev_set_is_there():
    assert len(RECORDS) == 500, f"expected 500 hands in {DEV}"


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_dev_hand(record):
    got = score_hand(record["hand"], load("mcr"), _CACHE)
    expect = record["expect"]
    assert got["ok"], got
    assert [(f["name"], f["value"], f["count"]) for f in got["fans"]] == [
        (THEIR_NAMES.get(f["name"], f["name"]), f["value"], f["count"]) for f in expect["fans"]
    ]
    assert got["total"] == expect["total"]
    assert got.get("win_allowed", True) == expect["meets_8_fan_minimum"]
