"""`mjc score` gives the game's answer (issue 15, item 7): the same win
checks as play, each refusal with its reason."""

from __future__ import annotations

import pytest

from mjc.handjson import score_hand
from runtime.registry import load

WILDS = "5z5z5z5z 1m4m7m 2p5p8p 3s6s9m"  # four White wilds and no shape


def score(variant: str, **hand) -> dict:
    return score_hand(hand, load(variant), {})


def test_four_wilds_win_as_in_play():
    got = score("chaozhou", concealed=WILDS, win_tile="9s", self_drawn=True,
                options={"gui_pai": "bai_ban", "si_gui_hu_pai": True})
    assert got["ok"] and got["total"] > 0
    # without 四鬼胡牌, or on a discard, the same tiles do not win
    assert not score("chaozhou", concealed=WILDS, win_tile="9s", self_drawn=True, options={"gui_pai": "bai_ban"})["ok"]
    assert not score("chaozhou", concealed=WILDS, win_tile="9s", options={"gui_pai": "bai_ban", "si_gui_hu_pai": True})["ok"]


def test_tiles_the_options_removed():
    got = score("chaozhou", concealed="123m456m789m1p", melds=[{"type": "pung", "tiles": "666z"}], win_tile="1p",
                options={"wu_zi": True})
    assert got == {"ok": False, "error": "6z is not in play at this table: its options remove it (wu_zi=true)"}
    assert score("chaozhou", concealed="123m456m789m1p", melds=[{"type": "pung", "tiles": "666z"}], win_tile="1p")["ok"]


@pytest.mark.parametrize("variant, meld, why", [
    ("kunming", {"type": "chow", "tiles": "123s"}, "melds[0]: a chow cannot be made at this table of kunming (no chow is claimed)"),
    ("yunnan_ka_er_tiao", {"type": "chow", "tiles": "123s"}, "melds[0]: a chow cannot be made at this table of yunnan_ka_er_tiao"),
])
def test_melds_the_variant_cannot_make(variant, meld, why):
    concealed = "123p456p789p1p" if variant == "yunnan_ka_er_tiao" else "123m456m789m1p"
    got = score(variant, concealed=concealed, melds=[meld], win_tile="1p")
    assert not got["ok"] and got["error"].startswith(why)


@pytest.mark.parametrize("flags, self_drawn, why", [
    ({"robbing_kong": True}, True, "robbing_kong is a win on another player's tile, so it is not self_drawn"),
    ({"after_kong_discard": True}, True, "after_kong_discard is a win on a discard"),
    ({"robbing_kong": True, "last_tile": True}, False, "last_tile (海底) is the wall's last tile, not a robbed kong"),
    ({"first_draw": True}, False, "first_draw is a self-drawn win"),
    ({"kong_chain": 2}, True, "kong_chain counts kongs before a kong_replacement win"),
])
def test_contradictory_flags(flags, self_drawn, why):
    got = score("kunming", concealed="123m456m789m123s1p", win_tile="1p", self_drawn=self_drawn, flags=flags)
    assert got["ok"] is False and got["error"].startswith("contradictory flags: " + why)


def test_flags_the_table_does_not_have():
    got = score("kunming", concealed="123m456m789m123s1p", win_tile="1p", flags={"declared_ready": True})
    assert got == {"ok": False, "error": "declared_ready: kunming has no ready declaration at this table"}
    got = score("yunnan_ka_er_tiao", concealed="123p456p789p123s1p", win_tile="1p", flags={"robbing_kong": True},
                options={"qiang_gang": False})
    assert got == {"ok": False, "error": "robbing_kong: a kong cannot be robbed at this table of yunnan_ka_er_tiao"}
