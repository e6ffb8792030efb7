"""`mjc score taiwan_16` on 17-tile hands (five sets and a pair): every 台
row hand JSON can express (tests/data/taiwan_16_score.jsonl, written from
the rules file alone: TW-30 … TW-57)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mjc.handjson import score_hand
from runtime.registry import load

LINES = [json.loads(line) for line in (Path(__file__).parent / "data" / "taiwan_16_score.jsonl").read_text("utf-8").splitlines()
         if line.strip()]


def _names(fans) -> Counter:
    out = Counter()
    for f in fans:
        if isinstance(f, str):
            out[f] += 1
        else:
            out[f.get("name")] += f.get("count", 1)
    return out


def test_every_tai_row_is_covered():
    assert len(LINES) >= 35
    rows = {line["id"][:4] for line in LINES}
    assert {f"tw{n}" for n in range(30, 58)} <= rows


@pytest.mark.parametrize("line", LINES, ids=[line["id"] for line in LINES])
def test_a_seventeen_tile_hand_scores_its_tai(line):
    result = score_hand(line["hand"], load("taiwan_16"), {})
    assert result["ok"], result
    got = Counter()
    for f in result["fans"]:
        got[f["name"]] += f["count"]
    assert got == _names(line["expect"]["fans"]) and result["total"] == line["expect"]["total"]
    assert result["unit"] == "fan"
