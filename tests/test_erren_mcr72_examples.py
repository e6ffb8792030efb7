"""The fan table's printed examples of 二人麻将 (72 tiles), scored by the
compiled `erren_mcr72`: each shows its fan (MCR72-32 … MCR72-80), and the
five faulty ones of MCR72-A02 do not, while their corrected forms do."""

from __future__ import annotations

import pytest

from mjc.handjson import score_hand
from runtime.registry import load
from runtime.tiles import NAMES, parse_tiles

_CACHE: dict = {}


def _hand(text: str, melds: str = "", win: str | None = None) -> dict:
    """Concealed tiles in MPSZ, the last one the winning tile (won on a
    discard); `melds`: sets laid down, e.g. "kong 1111z, chow 123m" (where
    the example would otherwise read better as another shape)."""
    tiles = [NAMES[t] for t in parse_tiles(text)]
    win_tile = win or tiles[-1]
    tiles.remove(win_tile)
    laid = []
    for meld in filter(None, (m.strip() for m in melds.split(","))):
        kind, group = meld.split()
        laid.append({"type": kind, "tiles": [NAMES[t] for t in parse_tiles(group)], "exposed": True})
    return {"concealed": tiles, "melds": laid, "win_tile": win_tile, "self_drawn": False}


def _fans(hand: dict) -> list[str]:
    result = score_hand(hand, load("erren_mcr72"), _CACHE)
    assert result["ok"], result
    return [f["name"] for f in result["fans"]]


# (rule, fan, the example as printed in MPSZ, the part of it laid down)
PRINTED = [
    ("MCR72-32", "大四喜", "111z 333z 222z 444z 11m", ""),
    ("MCR72-33", "大三元", "777z 666z 555z 234m 11z", ""),
    ("MCR72-34", "九莲宝灯", "1112345678999m 5m", ""),  # the truncated example, the standard pattern supplied
    ("MCR72-35", "四杠", "22m", "kong 1111z, kong 1111m, kong 3333z, kong 5555m"),
    ("MCR72-36", "连七对", "11223344556677m", ""),
    ("MCR72-39", "字一色", "111z 777z 333z 555z 44z", ""),
    ("MCR72-41", "一色双龙会", "123m 123m 789m 789m 55m", ""),
    ("MCR72-42", "一色四同顺", "123m 123m 123m 123m 11z", ""),
    ("MCR72-43", "一色四节高", "111m 222m 333m 444m 11z", ""),
    ("MCR72-44", "一色四步高", "123m 345m 567m 789m 11z", ""),
    ("MCR72-45", "三杠", "345m 44z", "kong 7777z, kong 1111m, kong 1111z"),
    ("MCR72-46", "混幺九", "111m 999m 111z 555z 44z", ""),
    ("MCR72-47", "七对", "11m 33m 99m 77z 55z 11z 44z", ""),
    ("MCR72-48", "清一色", "111m 456m 777m 999m 88m", ""),
    ("MCR72-49", "一色三同顺", "111m 567m 11z", "chow 567m, chow 567m"),
    ("MCR72-50", "一色三节高", "123m 555m 666m 777m 11z", ""),
    ("MCR72-51", "清龙", "123m 456m 789m 789m 55m", ""),
    ("MCR72-52", "一色三步高", "123m 345m 567m 777z 55z", ""),
    ("MCR72-54", "大于五", "678m 678m 789m 789m 66m", ""),
    ("MCR72-55", "小于五", "123m 123m 234m 234m 11m", ""),
    ("MCR72-61", "碰碰和", "333m 333z 444z 11z", "pung 111m"),
    ("MCR72-65", "双箭刻", "777z 555z 123m 456m 11z", ""),
    ("MCR72-66", "全带幺", "123m 789m 789m 44z", "chow 123m"),
    ("MCR72-70", "箭刻", "333m 456m 567m 777z 55z", ""),
    ("MCR72-72", "平和", "123m 345m 345m 789m 88m", ""),
    ("MCR72-73", "四归一", "123m 222m 789m 777z 11z", ""),
    ("MCR72-77", "一般高", "234m 234m 777z 111z 55z", ""),
    ("MCR72-78", "连六", "345m 678m 111z 44z", "kong 1111m"),  # the stray 1111万 as a kong
    ("MCR72-79", "老少副", "123m 789m 777z 111z 55z", ""),
    ("MCR72-80", "幺九刻", "111m 234m 567m 888m 11z", ""),
]


@pytest.mark.parametrize("rule, fan, text, melds", PRINTED, ids=[f"{r}-{f}" for r, f, _, _ in PRINTED])
def test_a_printed_example_shows_its_fan(rule, fan, text, melds):
    assert fan in _fans(_hand(text, melds))


# MCR72-A02: (rule, fan, printed, what the printed example scores instead, corrected)
FAULTY = [
    ("MCR72-38", "小三元", "777z 666z 123m 567m 44z", "双箭刻", "777z 666z 123m 567m 55z"),
    ("MCR72-56", "三风刻", "123m 111z 333z 444z 22z", "小四喜", "123m 111z 333z 444z 55z"),
    ("MCR72-62", "混一色", "123m 234m 555m 777m 99m", "清一色", "123m 234m 555m 777m 11z"),
    ("MCR72-76", "断幺", "222m 345m 555m 789m 77m", None, "222m 345m 555m 678m 77m"),
]


@pytest.mark.parametrize("rule, fan, printed, instead, corrected", FAULTY, ids=[f"{r}-{f}" for r, f, *_ in FAULTY])
def test_a_faulty_example_lacks_its_fan_and_the_correction_has_it(rule, fan, printed, instead, corrected):
    as_printed = _fans(_hand(printed))
    assert fan not in as_printed
    if instead:
        assert instead in as_printed
    assert fan in _fans(_hand(corrected))


def test_the_printed_little_four_winds_holds_five_norths_and_the_correction_scores():
    """MCR72-37 / MCR72-A02: `111z 333z 444z 123m 44z` has five 北; with the
    pair the fourth wind (22z) it is 小四喜."""
    result = score_hand(_hand("111z 333z 444z 123m 44z"), load("erren_mcr72"), _CACHE)
    assert not result["ok"] and "5 copies" in result["error"]
    assert "小四喜" in _fans(_hand("111z 333z 444z 123m 22z"))
