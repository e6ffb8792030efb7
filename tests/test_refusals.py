"""Every refusal at play time says why, with the variant's own reason
where its rules refuse (issue 15: winning.why_not, only the next player
may chow)."""

from __future__ import annotations

import pytest

from runtime.game import IllegalAction

from support import act, game, variant

RULES = variant("""
claims: {chow: true}
winning:
  allowed: win.self_drawn or total >= 2
  why_not: {zh: 点炮须两分, en: a discard win needs 2 points}
""")
# seat 1 waits on 5p/8p, seat 2 holds 4p6p (a chow of 5p, but not its turn)
HANDS = {0: "5p 1s 1s 1s 2s 2s 2s 3s 3s 3s 9s 9s 9s 8s", 1: "6p 7p 1p 1p 1p 2p 2p 2p 4s 4s 4s 5s 5s",
         2: "4p 6p 7s 7s 7s 8s 8s 8s 6s 6s 6s 3p 3p", 3: "9p 9p 9p 4s 5s 6s 7s 2p 3p 5s 6s 7s 1p"}
WALL = "4p 4p 3p 3s 5s 6s 8p 8p 8p 9p 9p 7p 7p 6p 6p 5p 5p 4s 7s 8s 2s 6s 9s 1p 3p 3p 8s 2p"


def _game():
    return game(RULES, HANDS, WALL)


def _refusal(g, seat, text):
    with pytest.raises(IllegalAction) as info:
        act(g, f"{seat} {text}")
    return info.value.reason


def test_a_win_refused_by_the_variants_condition_says_its_reason():
    g = _game()
    act(g, "0 discard 5p")
    assert _refusal(g, 1, "hu") == "5p completes the hand, but this win is not allowed: 点炮须两分 (a discard win needs 2 points)"


def test_a_chow_out_of_turn_says_only_the_next_player_may():
    g = _game()
    act(g, "0 discard 5p")
    assert _refusal(g, 2, "chow 4p6p") == "only the next player, seat 1, may chow seat 0's discard"


def test_a_tile_that_does_not_complete_the_hand():
    g = _game()
    act(g, "0 discard 8s")
    assert "8s does not complete a winning hand" in _refusal(g, 1, "hu")
