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


def test_autoplay_makes_opening_choices_sensibly():
    """托管 at the opening (SC-05, SC-06): an exchange of the suit held
    fewest that keeps a pair where another choice exists, then the void
    suit held fewest."""
    from runtime.game import Game
    from runtime.tiles import NAMES, parse_tiles

    table = load("sichuan_xuezhan").configure()
    hands = ["111234567899m 5p 5s", "12345678m 44p 78p 9s", "11223344p 5566s 7s", "1234567s 22m 58m 89p"]
    tiles = [parse_tiles(h) for h in hands]
    rest = list(table.wall_tiles())
    for t in (t for h in tiles for t in h):
        rest.remove(t)
    g = Game(table, tiles, rest, exchange_direction="next")
    choice = auto_action(g, 1)
    assert choice.verb == "exchange" and sorted(NAMES[t] for t in choice.extra) == ["4p", "7p", "8p"]
    for seat in range(4):
        g.apply(seat, auto_action(g, seat))
    assert g.start_stage == "void" and auto_action(g, 0).verb == "void"
