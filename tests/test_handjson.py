"""Hand JSON (shared/spec/notation.md) as `mjc score` reads it: wilds, tile
errors that name the bad text and its field, and type checks that answer
with an error rather than an exception."""

from __future__ import annotations

import json

import pytest

from mjc.cli import main
from mjc.handjson import score_hand
from runtime.registry import load

KET = {"concealed": ["1s", "3s", "4p", "5p", "6p", "7p", "8p", "9p", "9p", "9p", "5s", "5s", "5s"], "win_tile": "2s", "self_drawn": True}
# 潮州: pungs 111m 999p 555s, pair 22z, and 5z 3z + 3z a pung of West with White wild
CZ = {"concealed": "111m999p555s22z5z3z", "win_tile": "3z"}


def score(variant: str, hand: dict) -> dict:
    return score_hand(hand, load(variant), {})


def summary(result: dict) -> tuple:
    assert result["ok"], result
    return result["total"], [(f["id"], f["value"], f["count"]) for f in result["fans"]]


def test_wilds_set_the_wild_kinds_like_the_option_that_makes_them():
    by_option = summary(score("chaozhou", {**CZ, "options": {"gui_pai": "bai_ban"}}))
    assert by_option[0] > 0
    assert summary(score("chaozhou", {**CZ, "wilds": ["5z"]})) == by_option
    assert summary(score("chaozhou", {**CZ, "options": {"gui_pai": "bai_ban"}, "wilds": ["5z"]})) == by_option
    assert summary(score("chaozhou", {**CZ, "options": {"gui_pai": "hong_zhong"}, "wilds": "5z"})) == by_option
    # the hand's wilds replace the options' ones: with Red wild, White is itself
    assert not score("chaozhou", {**CZ, "options": {"gui_pai": "hong_zhong"}})["ok"]
    assert not score("chaozhou", {**CZ, "options": {"gui_pai": "bai_ban"}, "wilds": []})["ok"]
    assert not score("chaozhou", CZ)["ok"]  # no wilds given: the options (无鬼) decide


def test_wilds_of_a_turned_indicator():
    # 翻鬼: the indicator 2m made 3m wild; 12m + a wild 3m, 11z + the other
    hand = {"concealed": "3m456p789s11z22z12m", "win_tile": "3m", "self_drawn": True, "options": {"gui_pai": "fan_gui"}}
    assert summary(score("chaozhou", {**hand, "wilds": ["3m"]}))[0] > 0
    assert not score("chaozhou", hand)["ok"]  # no indicator turned: no wild


@pytest.mark.parametrize(
    "wilds, error",
    [
        (["8f"], "wilds: 8f is a flower, which is never wild"),
        (["9q"], "wilds[0]: bad tile text '9q': unknown suit 'q' (m, p, s, z or f)"),
        (5, "wilds: tiles are a string such as 123m or a list"),
    ],
)
def test_bad_wilds(wilds, error):
    assert score("chaozhou", {**CZ, "wilds": wilds})["error"].startswith(error)


def test_wilds_of_a_removed_tile():
    out = score("chaozhou", {**CZ, "wilds": ["6z"], "options": {"wu_zi": True}})
    assert out == {"ok": False, "error": "wilds: 6z is not a tile of chaozhou"}


def test_wilds_in_a_variant_without_wild_tiles():
    assert score("yunnan_ka_er_tiao", {**KET, "wilds": ["5z"]}) == {"ok": False, "error": "yunnan_ka_er_tiao has no wild tiles"}
    assert score("yunnan_ka_er_tiao", {**KET, "wilds": []})["ok"]


@pytest.mark.parametrize(
    "change, error",
    [
        ({"concealed": KET["concealed"][:-1] + ["10p"]}, "concealed[12]: bad tile text '10p': p tiles run 1..9"),
        ({"concealed": "13s456789p999p55s10p"}, "concealed: bad tile text '10p' in '13s456789p999p55s10p': p tiles run 1..9"),
        ({"concealed": "13s456789px999p555s"}, "concealed: bad tile text 'x' in '13s456789px999p555s'"),
        ({"concealed": ["x"]}, "concealed[0]: bad tile text 'x': expected MPSZ"),
        ({"concealed": "1s 3s 0m"}, "concealed: bad tile text '0m': m tiles run 1..9"),
        ({"win_tile": "10p"}, "win_tile: bad tile text '10p': p tiles run 1..9"),
        ({"win_tile": "8z"}, "win_tile: bad tile text '8z': z tiles run 1..7"),
        ({"win_tile": "2s3s"}, "win_tile: bad tile text '2s3s': expected exactly one tile"),
        ({"win_tile": 5}, "win_tile: a tile is a string such as 5p, not 5"),
        ({"seat_wind": "x"}, "seat_wind: bad tile text 'x'"),
        ({"round_wind": "10z"}, "round_wind: bad tile text '10z'"),
        ({"seat_wind": "5z"}, "seat_wind: a wind is 1z, 2z, 3z or 4z, not 5z"),
        ({"round_wind": "1m"}, "round_wind: a wind is 1z, 2z, 3z or 4z, not 1m"),
        ({"melds": [{"type": "pung", "tiles": ["5m", "5m", "10m"]}]}, "melds[0].tiles[2]: bad tile text '10m'"),
    ],
)
def test_bad_tiles_name_the_text_and_the_field(change, error):
    out = score("yunnan_ka_er_tiao", {**KET, **change})
    assert out["ok"] is False and out["error"].startswith(error), out


HUGE = 10**5000


@pytest.mark.parametrize(
    "change, error",
    [
        ({"melds": 5}, "melds is a list of melds (objects with type and tiles), not 5"),
        ({"melds": True}, "melds is a list of melds"),
        ({"melds": {"type": "pung"}}, "melds is a list of melds"),
        ({"melds": [3]}, "melds[0]: a meld is an object with type and tiles, not 3"),
        ({"melds": [{"type": ["pung"], "tiles": "555m"}]}, "melds[0]: type is chow, pung or kong, not ['pung']"),
        ({"melds": [{"type": "kong", "kind": ["added"], "tiles": "5555m"}]}, "melds[0]: kind is a string such as direct, added or concealed, not ['added']"),
        ({"melds": [{"type": "kong", "kind": 5, "tiles": "5555m"}]}, "melds[0]: kind is a string"),
        ({"melds": [{"type": "kong", "exposed": "no", "tiles": "5555m"}]}, "melds[0].exposed is true or false, not 'no'"),
        ({"melds": [{"type": "pung", "exposed": 1, "tiles": "555m"}]}, "melds[0].exposed is true or false, not 1"),
        ({"melds": [{"type": "pung", "tiles": 555}]}, "melds[0].tiles: tiles are a string such as 123m or a list"),
        ({"concealed": None}, "concealed: tiles are a string such as 123m or a list"),
        ({"concealed": {"1m": 1}}, "concealed: tiles are a string such as 123m or a list"),
        ({"concealed": KET["concealed"][:-1] + [5]}, "concealed[12]: a tile is a string such as 5p, not 5"),
        ({"flags": []}, "flags is an object of true/false values, not []"),
        ({"flags": 1}, "flags is an object of true/false values, not 1"),
        ({"flags": {"last_tile": "yes"}}, "flags.last_tile is true or false, not 'yes'"),
        ({"flags": {"first_turn": 1}}, "flags.first_turn is true or false, not 1"),
        ({"flags": {"kong_replacement": True, "kong_chain": -1}}, "flags.kong_chain is a count, 0 to 4, not -1"),
        ({"flags": {"kong_chain": "2"}}, "flags.kong_chain is a count, 0 to 4, not '2'"),
        ({"flags": {"kong_chain": True}}, "flags.kong_chain is a count, 0 to 4, not True"),
        ({"flags": {"doublings": 1.0}}, "flags.doublings is a count, 0 to 144, not 1.0"),
        ({"flags": {"doublings": HUGE}}, "flags.doublings is a count, 0 to 144, not a number with too many digits"),
        ({"flowers": ["1m"]}, "flowers: 1m is not a flower (1f to 8f)"),
        ({"flowers": "1f5z"}, "flowers: 5z is not a flower (1f to 8f)"),
        ({"flowers": "1f1f"}, "flowers: 1f is given twice"),
        ({"flowers": -1}, "flowers is a count, 0 to 8, not -1"),
        ({"flowers": 9}, "flowers is a count, 0 to 8, not 9"),
        ({"flowers": HUGE}, "flowers is a count, 0 to 8, not a number with too many digits"),
        ({"flowers": True}, "flowers is a list of flower tiles such as [\"1f\", \"5f\"] or their number, not True"),
        ({"flowers": 1.5}, "flowers is a list of flower tiles"),
        ({"flowers": {}}, "flowers is a list of flower tiles"),
        ({"self_drawn": "yes"}, "self_drawn is true or false, not 'yes'"),
        ({"self_drawn": 1}, "self_drawn is true or false, not 1"),
        ({"options": []}, "options is an object of table options, not []"),
        ({"options": "qiang_gang"}, "options is an object of table options, not 'qiang_gang'"),
        ({"options": {"qiang_gang": HUGE}}, "options: a number with too many digits"),
        ({"melds": [{"type": HUGE}]}, "melds[0]: type is chow, pung or kong, not a number with too many digits"),
        ({"win_tile": [HUGE]}, "win_tile: a tile is a string such as 5p, not a list holding a number with too many digits"),
    ],
)
def test_bad_types_are_errors_not_exceptions(change, error):
    out = score("yunnan_ka_er_tiao", {**KET, **change})
    assert out["ok"] is False and out["error"].startswith(error), out


def test_good_counts_and_flowers_still_score():
    for change in ({"flowers": 3}, {"flowers": "1f2f"}, {"flowers": []}, {"flowers": None}, {"melds": None}, {"flags": None},
                   {"flags": {"kong_replacement": False, "kong_chain": 0, "doublings": 0}}, {"options": None}):
        assert score("yunnan_ka_er_tiao", {**KET, **change})["ok"], change


def test_score_gives_one_line_per_hand_line(capsys, tmp_path):
    lines = [
        {**KET, "options": {"gui_pai": "bai_ban"}},
        {**KET, "wilds": ["5z"]},
        {**KET, "melds": 5},
        {**KET, "flowers": -2},
        {**KET, "concealed": "13s456789p999p55s10p"},
        {**KET, "flags": {"doublings": 1.5}},
        KET,
    ]
    hands = tmp_path / "hands.jsonl"
    hands.write_text("\n".join(json.dumps(x) for x in lines) + "\n" + "1" * 5000 + "\n", encoding="utf-8")
    code = main(["score", "yunnan_ka_er_tiao", str(hands)])
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert code == 0 and len(out) == len(lines) + 1
    assert [r["ok"] for r in out] == [False] * 6 + [True, False]
    assert "gui_pai" in out[0]["error"]
    assert out[1]["error"] == "yunnan_ka_er_tiao has no wild tiles"
    assert out[2]["error"].startswith("melds is a list of melds")
    assert out[3]["error"] == "flowers is a count, 0 to 8, not -2"
    assert "'10p'" in out[4]["error"]
    assert out[5]["error"] == "flags.doublings is a count, 0 to 144, not 1.5"
    assert "line 8" in out[7]["error"] and "too many digits" in out[7]["error"]


def test_chaozhou_wilds_through_the_command(capsys, tmp_path):
    hands = tmp_path / "hands.jsonl"
    hands.write_text(json.dumps({**CZ, "options": {"gui_pai": "bai_ban"}, "wilds": ["5z"]}) + "\n"
                     + json.dumps({**CZ, "options": {"gui_pai": "bai_ban"}}) + "\n", encoding="utf-8")
    assert main(["score", "chaozhou", str(hands)]) == 0
    first, second = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert first["ok"] and first == second
