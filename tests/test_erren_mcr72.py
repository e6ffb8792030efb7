"""二人麻将 (72 tiles): what a scenario result cannot show (a win refused,
what a seat sees), on the compiled variant."""

from __future__ import annotations

import pytest

from runtime.actions import Action
from runtime.game import Game, IllegalAction
from runtime.registry import load
from runtime.tiles import parse_tiles
from support import act, pass_others, verbs

REST = "3z 6m 4z 1m 1m 2m 2m 3m 3m 3m"


def deal(hands: dict, wall: str, **options) -> Game:
    t = load("erren_mcr72").configure(options)
    return Game(t, [parse_tiles(hands[s]) for s in range(2)], parse_tiles(wall), 0)


# seat 1 replaces 1f and 2f by 9m and 6z (the end of the wall), pungs 2z and
# waits on 7m/8m/9m; on 8m its hand is worth 7 pattern fan and 2 flowers
MIN_HANDS = {0: "8m 9m 11z 33z 44z 5z 77z 1m 5m 2z", 1: "22z 234777889m 1f 2f"}
MIN_WALL = REST + " 6z 9m"


def test_flowers_do_not_count_toward_the_minimum():
    g = deal(MIN_HANDS, MIN_WALL)
    act(g, "0 discard 2z")
    act(g, "1 pong")
    act(g, "1 discard 6z")
    pass_others(g)
    act(g, "0 discard 8m")
    assert "hu" not in verbs(g, 1) and "pong 8m" in verbs(g, 1)
    with pytest.raises(IllegalAction, match="8m completes the hand, but this win is not allowed: 不够起和番数"):
        g.apply(1, Action("hu"))
    v = g.valuation(1, parse_tiles("8m")[0], False, 0)
    assert v.total == 9 and not v.win_allowed  # 7 pattern fan + 2 flowers


def test_the_minimum_is_an_option():
    g = deal(MIN_HANDS, MIN_WALL, min_fan=7)
    act(g, "0 discard 2z")
    act(g, "1 pong")
    act(g, "1 discard 6z")
    pass_others(g)
    act(g, "0 discard 8m")
    assert {"hu", "double"} <= verbs(g, 1)


def test_a_declared_player_sees_the_opponents_tiles_and_draws_by_itself():
    g = deal({0: "223344m 1234z 77z 6z 9m", 1: "123m 456m 789m 555z 6z"}, "7z 1m 6z " + REST)
    act(g, "1 ready")
    assert sorted(g.view(1)["opponent_hands"]["0"]) == sorted(
        "2m 2m 3m 3m 4m 4m 1z 2z 3z 4z 7z 7z 6z 9m".split())
    assert "opponent_hands" not in g.view(0)
    act(g, "0 discard 9m")
    assert g.legal_actions(1) == [Action("discard", parse_tiles("7z")[0])]  # no win, no kong, no choice
    act(g, "1 discard 7z")
    pass_others(g)
    act(g, "0 discard 1m")
    pass_others(g)
    assert verbs(g, 1) == {"hu", "double", "discard 6z"}
