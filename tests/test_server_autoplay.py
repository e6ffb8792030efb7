"""托管 (server/autoplay.py): draw-discard, and wins only where the variant
says so (`autoplay.wins`: CZ-45, MCR72-23)."""

from __future__ import annotations

from runtime.registry import load
from server.autoplay import auto_action
from support import game

WINNING_DEALER = "123m 456m 789m 11p 23s 4s"
FAR = "19m 19p 19s 1234z 25m 3p"


def test_autoplay_takes_a_win_where_the_variant_says_so():
    g = game(load("chaozhou"), {0: WINNING_DEALER, 1: FAR, 2: FAR, 3: FAR})
    assert g.table.autoplay_wins
    assert auto_action(g, 0).verb == "hu"


def test_autoplay_discards_the_drawn_tile_where_it_does_not():
    far = "119p 119s 258p 3467s"
    g = game(load("yunnan_ka_er_tiao"), {0: "123p 456p 789p 11s 23s 4s", 1: far, 2: far, 3: far})
    assert not g.table.autoplay_wins
    assert any(a.verb == "hu" for a in g.legal_actions(0))
    assert auto_action(g, 0).verb == "discard"
