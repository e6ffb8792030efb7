"""The greedy bot's opening choices (SC-05, SC-06) and its play in a
void-suit variant: it passes the tiles of the suit it holds fewest of,
keeping its pairs where another choice exists, declares as void the suit
it holds fewest of, and sheds that suit first."""

from __future__ import annotations

from runtime.actions import Action
from runtime.bots import GreedyBot
from runtime.game import Game
from runtime.registry import load
from runtime.tiles import NAMES, parse_tiles

HANDS = {
    0: "111234567899m 5p 5s",  # dealer: 14
    1: "12345678m 44p 78p 9s",  # fewest: bamboo (1), then dots (4: a pair of 4p)
    2: "11223344p 5566s 7s",
    3: "1234567s 22m 58m 89p",
}


def _game(options=None):
    table = load("sichuan_xuezhan").configure(options or {})
    hands = [parse_tiles(HANDS[s]) for s in range(4)]
    used = [t for h in hands for t in h]
    rest = list(table.wall_tiles())
    for t in used:
        rest.remove(t)
    return Game(table, hands, rest, exchange_direction="next")


def test_the_exchange_keeps_a_pair_when_another_choice_exists():
    g = _game()
    bot = GreedyBot(0)
    # seat 1 holds one bamboo, so three of his four dots go: 4p7p8p, not both 4p
    choice = bot.choose(g, 1)
    assert choice.verb == "exchange"
    tiles = [NAMES[t] for t in choice.extra]
    assert all(t.endswith("p") for t in tiles) and tiles.count("4p") <= 1
    # seat 2: bamboo (5) is the fewest suit with three; 7s and one of each pair rather than both 5s
    tiles = [NAMES[t] for t in bot.choose(g, 2).extra]
    assert all(t.endswith("s") for t in tiles) and "7s" in tiles


def test_the_void_is_the_suit_held_fewest():
    g = _game({"huan_san_zhang": False})
    bot = GreedyBot(0)
    assert bot.choose(g, 1) == Action("void", -1, ("s",))
    assert bot.choose(g, 3) == Action("void", -1, ("p",))  # 89p: two dots, against three characters


def test_the_void_suit_is_shed_first():
    g = _game({"huan_san_zhang": False})
    bot = GreedyBot(0)
    for seat in range(4):
        g.apply(seat, bot.choose(g, seat))
    void = g.seats[0].choices["void"]
    assert void in ("p", "s")  # one tile of each: either is the fewest
    assert bot.choose(g, 0) == Action("discard", parse_tiles("5" + void)[0])
