"""二人麻将 (136 tiles): the refusals a scenario cannot show as a result
(a win not offered), on the compiled variant."""

from __future__ import annotations

import pytest

from runtime.actions import Action
from runtime.game import Game, IllegalAction
from runtime.registry import load
from runtime.tiles import parse_tiles
from support import act, pass_others, verbs


def table(**options):
    return load("erren_136").configure(options)


def deal(hands: dict, wall: str, **options) -> Game:
    t = table(**options)
    return Game(t, [parse_tiles(hands[s]) for s in range(2)], parse_tiles(wall), 0)


# the dealer's first discard is 5m, which completes seat 1's dealt hand
HANDS = {0: "5m 234p 678p 345s 22s 3z 5m", 1: "123m 456p 789s 11z 46m"}
WALL = "2z 6z " + " ".join(["9m"] * 3 + ["9p"] * 3 + ["1s"] * 3 + ["6z"] * 2 + ["7z"] * 4)  # 12 kept back at the end


def test_no_win_before_declaring_ready():
    g = deal(HANDS, WALL)
    act(g, "1 pass")  # declines to declare at the opening
    act(g, "0 discard 5m")
    assert verbs(g, 1) == {"chow 3m4m", "chow 4m6m", "pass"}  # no hu
    with pytest.raises(IllegalAction, match="5m completes the hand, but this win is not allowed: 须先报听"):
        g.apply(1, Action("hu"))


def test_without_bao_ting_no_declaration_is_needed_or_offered():
    g = deal(HANDS, WALL, bao_ting=False)
    assert g.phase == "turn"  # nobody is asked to declare
    act(g, "0 discard 5m")
    assert "hu" in verbs(g, 1)
    assert not any(v.startswith("ready") for v in verbs(g, 0) | verbs(g, 1))


def test_a_declared_player_may_win():
    g = deal(HANDS, WALL)
    act(g, "1 ready")
    act(g, "0 discard 5m")
    assert "hu" in verbs(g, 1)


def test_hand_holding_one_with_a_chow_may_not_win():
    # seat 1: pungs of 1m 2p 3s, a chow 456m, and a single 2z
    hands = {0: "1m 2p 3s 6m 22z 456s 789s 77m", 1: "11m 22p 33s 45m 2z 9m 9p 7z 1z"}
    g = deal(hands, "7m 3z 3z 3z 2z " + " ".join(["8s"] * 4 + ["8p"] * 4 + ["8m"] * 4), bao_ting=False)
    for step in ("0 discard 1m", "1 pong", "1 discard 9m", "0 discard 2p", "1 pong", "1 discard 9p",
                 "0 discard 3s", "1 pong", "1 discard 7z", "0 discard 6m", "1 chow 4m5m", "1 discard 1z"):
        act(g, step)
        if step.startswith("1 discard"):
            pass_others(g)
    act(g, "0 discard 2z")
    assert g.current == 1 and g.phase == "turn"  # no claim was offered on 2z
    assert "hu" not in verbs(g, 1)  # nor the self-drawn 2z
    v = g.valuation(1, g.seats[1].drawn, True)
    assert v is not None and not v.win_allowed and "手把一" in v.why


def test_the_last_twelve_tiles_are_never_drawn_and_no_kong_needs_them():
    t = table(bao_ting=False)
    # the dealer holds three 1z and draws the fourth as the last drawable tile
    g = Game(t, [parse_tiles("111z 234m 567m 88p 9s 3s 1s"), parse_tiles("123p 456p 789p 2s 5s 8s 3z")],
             parse_tiles("4z 1z " + " ".join(["9m"] * 3 + ["6p"] * 3 + ["7s"] * 3 + ["6z"] * 3)), 0)
    act(g, "0 discard 1s")
    pass_others(g)
    act(g, "1 discard 4z")
    pass_others(g)
    assert g.current == 0 and g.drawable() == 0 and g.back - g.front == 12
    assert g.seats[0].counts[parse_tiles("1z")[0]] == 4
    assert not any(v.startswith("kong") for v in verbs(g, 0))  # its replacement would be a kept tile
    act(g, "0 discard 1z")
    pass_others(g)
    assert g.over and g.result.end == "draw" and g.back - g.front == 12


def test_the_last_drawable_tile_is_the_last_tile():
    from pathlib import Path

    from mjc.scenario import Runner

    path = Path(__file__).parent / "scenarios" / "erren_136" / "er13_last_drawable_tile_wins.yaml"
    runner = Runner(str(path))
    runner.run()
    g = runner.game
    assert g.back - g.front == 12 and g.drawable() == 0
    assert g.result.valuations[1].facts.last_tile
