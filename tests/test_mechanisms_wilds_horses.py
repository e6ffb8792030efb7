"""Wild tiles, horses, follow-the-dealer rounds, streaks and option-chosen
combining, each on small inline variants."""

from __future__ import annotations

import pytest

from runtime.actions import Action
from runtime.game import Game, wild_after
from runtime.match import Match
from runtime.tiles import INDEX, parse_tiles
from support import act, game, pass_others, variant, verbs

BASE = """
title: {zh: 测试, en: Test}
players: {allowed: [4, 3, 2], default: 4}
tiles: {suits: [m, p, s], honours: 1234567z}
"""

OTHER = "19m 19p 19s 1234z 25m 3p"  # far from ready
OTHER2 = "28m 28p 28s 567z 369m 4p"

# ---------------------------------------------------------------- the indicator

INDICATOR = """
title: {zh: 测试, en: Test}
players: {allowed: [4, 3, 2], default: 4}
options:
  no_dragons: {zh: 无字, type: bool, default: false}
tiles:
  suits: [m, p, s]
  honours: 1234567z
  remove: [{tiles: 567z, when: options.no_dragons}]
wilds:
  indicator: {when: true, honour_order: 1234765z}
scoring:
  unit: points
  fans:
    base: {zh: 鸡胡, value: 2, alone: true}
    all_pungs: {zh: 碰碰胡, value: 4, when: shape.standard and sets.chows == 0}
"""


@pytest.mark.parametrize(
    "indicator, wild, options",
    [("9m", "1m", {}), ("3p", "4p", {}), ("5z", "1z", {}), ("4z", "7z", {}), ("7z", "6z", {}), ("4z", "1z", {"no_dragons": True})],
)
def test_the_wild_follows_the_indicator(indicator, wild, options):
    rs = variant(base=INDICATOR)
    table = rs.configure(options)
    assert wild_after(table, INDEX[indicator]) == INDEX[wild]


def test_the_indicator_is_turned_out_of_play():
    rs = variant(base=INDICATOR)
    g = game(rs, {0: "123m 456m 789m 11p 23s 4s", 1: OTHER, 2: OTHER, 3: OTHER2}, wall="5s 6s 9m")
    assert g.indicator == INDEX["9m"] and g.table.wilds == {INDEX["1m"]}
    assert g.wall == parse_tiles("5s 6s") and g.view(1)["wilds"] == ["1m"] and g.view(1)["indicator"] == "9m"
    assert next(e for e in g.events if e["type"] == "deal")["wilds"] == ["1m"]


def test_an_explicit_indicator_and_json():
    import json

    rs = variant(base=INDICATOR)
    table = rs.configure()
    g = Game(table, [parse_tiles(h) for h in ("123m 456m 789m 11p 23s 4s", OTHER, OTHER, OTHER2)], parse_tiles("5s 6s"), 0, indicator=INDEX["5z"])
    assert g.table.wilds == {INDEX["1z"]} and g.wall == parse_tiles("5s 6s")
    restored = Game.from_json(json.loads(json.dumps(g.to_json())), table)
    assert restored.table.wilds == g.table.wilds and restored.to_json() == g.to_json()


# ---------------------------------------------------------------- wilds in a win

FIXED = BASE + """
options:
  double: {zh: 无鬼加倍, type: bool, default: true}
  four: {zh: 四鬼胡牌, type: bool, default: true}
wilds:
  fixed: [{tiles: 5z, when: true}]
  win_with: {count: 4, when: options.four}
scoring:
  unit: points
  final: "total * (2 if options.double and hand.wilds == 0 else 1)"
  fans:
    base: {zh: 鸡胡, value: 2, alone: true}
    all_pungs: {zh: 碰碰胡, value: 4, when: shape.standard and sets.chows == 0}
    one_suit: {zh: 混一色, value: 4, when: hand.number_suits == 1 and hand.honours > 0}
"""


def test_a_wild_counts_as_the_tile_that_scores_best():
    rs = variant(base=FIXED)
    # 111m 22m 333p 444s 99s and a wild White: all pungs, whichever pair stays
    g = game(rs, {0: "111m 22m 333p 444s 99s 5z", 1: OTHER, 2: OTHER, 3: OTHER2})
    assert "hu" in verbs(g, 0)
    act(g, "0 hu")
    v = g.result.valuations[0]
    assert [f.id for f, _, _ in v.fans] == ["all_pungs"] and v.total == 4  # not doubled: a wild is held


def test_no_wild_doubles():
    rs = variant(base=FIXED)
    g = game(rs, {0: "111m 222m 333p 444s 99s", 1: OTHER, 2: OTHER, 3: OTHER2})
    act(g, "0 hu")
    assert g.result.valuations[0].total == 8
    g = game(rs, {0: "111m 222m 333p 444s 99s", 1: OTHER, 2: OTHER, 3: OTHER2}, options={"double": False})
    act(g, "0 hu")
    assert g.result.valuations[0].total == 4


def test_wilds_wait_on_anything_they_can_complete():
    rs = variant(base=FIXED)
    g = game(rs, {0: "123m 456m 789m 11p 5z 9s 1s", 1: OTHER, 2: OTHER, 3: OTHER2}, wall="2s")
    act(g, "0 discard 1s")
    pass_others(g)
    # 123m 456m 789m 11p 9s and a wild: the wild and 9s make a set with 7s,
    # 8s or 9s; or 111p, the wild pairing 9s; or a second wild
    from runtime import analysis

    waits = analysis.waits(g.table, g.seats[0].counts, g.seats[0].melds)
    assert waits == [INDEX[t] for t in ("1p", "7s", "8s", "9s", "5z")]


def test_four_wilds_win_whatever_the_shape():
    rs = variant(base=FIXED)
    hand = "5555z 19m 19p 19s 1z 2z 3z 4z"  # no shape at all
    g = game(rs, {0: hand, 1: OTHER, 2: OTHER, 3: OTHER2})
    assert "hu" in verbs(g, 0)
    act(g, "0 hu")
    assert [f.id for f, _, _ in g.result.valuations[0].fans] == ["base"]
    g = game(rs, {0: hand, 1: OTHER, 2: OTHER, 3: OTHER2}, options={"four": False})
    assert "hu" not in verbs(g, 0)


# ---------------------------------------------------------------- horses

HORSES = BASE + """
options:
  each: {zh: 买马, type: int, values: [0, 1], default: 1}
  dealer: {zh: 罚马, type: int, values: [0, 2], default: 0}
  reward: {zh: 奖马, type: int, values: [0, 2], default: 0}
horses:
  seats:
    "4": [159m159p159s17z, 26m26p26s26z, 37m37p37s35z, 48m48p48s4z]
    "3": [147m147p147s145z, 258m258p258s27z, 369m369p369s36z]
    "2": [13579m13579p13579s1357z, 2468m2468p2468s246z]
  bought: {each: options.each, dealer: options.dealer}
  reward: {count: options.reward}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 2}
settlement:
  win:
    amount: total
    extras:
      - {reason: jiang_ma, amount: total * winner.horse_hits}
"""

WAIT_5P = "123p 456s 789s 11s 46p"
DEALER = "11p 33p 5p 77p 22s 99s 5s 1s 9p"


def test_bought_horses_repeat_the_win_of_the_seat_they_point_at():
    rs = variant(base=HORSES)
    # seat 3 wins 2 from the dealer (seat 0). Horses: seat 1 holds 4m (庄上:
    # seat 3, the winner), seat 2 holds 1m (庄家: seat 0, the payer),
    # seat 3 holds 2m (庄下: seat 1, nobody), the dealer holds 3m (庄对: seat 2)
    g = game(rs, {0: DEALER, 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="1s")
    g.horses = {0: [INDEX["3m"]], 1: [INDEX["4m"]], 2: [INDEX["1m"]], 3: [INDEX["2m"]]}
    act(g, "0 discard 5p")
    act(g, "3 hu")
    lines = {(p.payer, p.payee, p.amount, p.reason) for p in g.result.payments}
    assert lines == {(0, 3, 2, "win"), (0, 1, 2, "horse"), (2, 3, 2, "horse")}
    marks = {h["owner"]: (h["seat"], h["mark"]) for h in g.result.horses}
    assert marks == {0: (2, "none"), 1: (3, "won"), 2: (0, "lost"), 3: (1, "none")}


def test_a_horse_pays_what_the_variant_says_per_share():
    """horses.bought.amount: here a flat 1 per horse, whatever the share."""
    rs = variant(base=HORSES.replace("bought: {each: options.each, dealer: options.dealer}",
                                     "bought: {each: options.each, dealer: options.dealer, amount: horse.share // 2}"))
    g = game(rs, {0: DEALER, 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="1s")
    g.horses = {0: [INDEX["3m"]], 1: [INDEX["4m"]], 2: [INDEX["1m"]], 3: [INDEX["2m"]]}
    act(g, "0 discard 5p")
    act(g, "3 hu")
    lines = {(p.payer, p.payee, p.amount, p.reason) for p in g.result.payments}
    assert lines == {(0, 3, 2, "win"), (0, 1, 1, "horse"), (2, 3, 1, "horse")}


def test_a_horse_on_a_self_drawn_winner_is_paid_by_every_loser_but_its_owner():
    rs = variant(base=HORSES)
    g = game(rs, {0: "123m 456m 789m 11p 23s 4s", 1: OTHER, 2: OTHER, 3: OTHER2})
    g.horses = {1: [INDEX["1m"]]}  # points at the dealer, who wins
    act(g, "0 hu")
    horse = sorted((p.payer, p.payee, p.amount) for p in g.result.payments if p.reason == "horse")
    assert horse == [(2, 1, 2), (3, 1, 2)]


def test_horses_at_an_exhausted_wall_are_lost_and_pay_nothing():
    rs = variant(base=HORSES)
    g = game(rs, {0: DEALER, 1: OTHER, 2: OTHER, 3: OTHER2}, wall="")
    g.horses = {1: [INDEX["1m"]]}
    act(g, "0 discard 9p")
    pass_others(g)
    assert g.result.end == "draw" and g.result.payments == []
    assert g.result.horses == [{"tile": "1m", "kind": "bought", "owner": 1, "seat": 0, "mark": "lost"}]


def test_penalty_horses_go_to_the_dealer_alone_from_a_separate_deck():
    rs = variant(base=HORSES)
    table = rs.configure({"each": 0, "dealer": 2})
    from runtime.game import deal

    g = deal(table, "seed", dealer=2)
    assert list(g.horses) == [2] and len(g.horses[2]) == 2
    assert sum(len(t) for t in g._hands) + len(g.wall) == 136  # horses do not come out of the wall


def test_reward_horses_hit_the_winner_and_multiply():
    rs = variant(base=HORSES)
    # the last two wall tiles are the reserved reward horses: 4m and 8p point at seat 3
    g = game(rs, {0: DEALER, 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="1s 2s 4m 8p", options={"each": 0, "reward": 2})
    act(g, "0 discard 5p")
    act(g, "3 hu")
    assert {(p.payer, p.payee, p.amount, p.reason) for p in g.result.payments} == {(0, 3, 2, "win"), (0, 3, 4, "jiang_ma")}
    assert [h["mark"] for h in g.result.horses] == ["won", "won"]


@pytest.mark.parametrize("players, tile, seat", [(3, "5z", 0), (3, "6z", 2), (2, "8m", 1), (2, "5z", 0)])
def test_horse_tables_for_three_and_two_players(players, tile, seat):
    rs = variant(base=HORSES)
    hands = {0: DEALER, 1: OTHER, 2: OTHER2}
    g = game(rs, {s: hands[s] for s in range(players)}, wall="1s", players=players)
    assert g.horse_seat(INDEX[tile]) == seat


# ---------------------------------------------------------------- follow the dealer

FOLLOW = BASE + """
follow_dealer: {when: players >= 3, amount: follow.round}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
"""


def _follow_game(wall):
    rs = variant(base=FOLLOW)
    hands = {0: "1z 2z 3z 4z 19m 19p 19s 58m 3p 6p", 1: "1z 2z 59m 19p 19s 258m 3p 7p", 2: "1z 2z 69m 19p 19s 258m 3p 7p", 3: "1z 2z 79m 19p 19s 258m 3p 7p"}
    return game(rs, hands, wall=wall)


def test_two_rounds_followed_pay_one_then_two():
    g = _follow_game("6s 6s 6s 7s 7s 7s 7s 8s")
    for tile in ("1z", "1z", "1z", "1z", "2z", "2z", "2z", "2z"):
        act(g, f"{g.current} discard {tile}")
        pass_others(g)
    lines = [(p.payer, p.payee, p.amount) for p in g.payments]
    assert lines == [(0, 1, 1), (0, 2, 1), (0, 3, 1), (0, 1, 2), (0, 2, 2), (0, 3, 2)]


def test_a_different_discard_ends_following():
    g = _follow_game("6s 6s 6s 7s")
    for tile in ("1z", "1z", "2z", "1z"):
        act(g, f"{g.current} discard {tile}")
        pass_others(g)
    assert g.payments == [] and g.follow is None


def test_a_pung_ends_following():
    rs = variant(base=FOLLOW)
    hands = {0: "1z 2z 3z 4z 19m 19p 19s 58m 3p 6p", 1: "11z 2z 9m 19p 19s 258m 3p 7p", 2: "1z 2z 69m 19p 19s 258m 3p 7p", 3: "1z 2z 79m 19p 19s 258m 3p 7p"}
    g = game(rs, hands, wall="6s 6s 6s 7s")
    act(g, "0 discard 1z")
    act(g, "1 pong")
    pass_others(g)
    assert g.follow is None


# ---------------------------------------------------------------- streaks, combining

STREAK = BASE + """
options:
  mult: {zh: 大胡相乘, type: bool, default: false}
scoring:
  unit: points
  combine: "'multiply' if options.mult else 'add'"
  fans:
    base: {zh: 鸡胡, value: 2, alone: true}
    all_pungs: {zh: 碰碰胡, value: 4, when: shape.standard and sets.chows == 0}
    one_suit: {zh: 混一色, value: 4, when: hand.number_suits == 1 and hand.honours > 0}
settlement:
  win:
    amount: total
    extras: [{reason: lian_zhuang, amount: winner.streak}]
"""


@pytest.mark.parametrize("mult, total", [(False, 8), (True, 16)])
def test_patterns_add_or_multiply_by_option(mult, total):
    rs = variant(base=STREAK)
    g = game(rs, {0: "111m 222m 333m 444z 11z", 1: OTHER, 2: OTHER, 3: OTHER2}, options={"mult": mult})
    act(g, "0 hu")
    assert g.result.valuations[0].total == total


def test_the_dealer_streak_is_counted_by_the_match_and_paid_on_top():
    rs = variant(base=STREAK)
    table = rs.configure()
    match = Match(table, "streak", first_dealer=0, hands=3)
    streaks = []
    from runtime.bots import make_bot
    from runtime.match import play_hand

    bots = [make_bot("greedy", s) for s in range(4)]
    while not match.over:
        game_ = match.start_hand()
        streaks.append((game_.dealer, game_.streak))
        play_hand(game_, bots)
        r = game_.result
        if r.end == "win" and game_.dealer in r.winners and game_.streak:
            assert {p.amount for p in r.payments if p.reason == "lian_zhuang"} == {game_.streak}
        match.finish_hand()
    for (d0, s0), (d1, s1) in zip(streaks, streaks[1:]):
        assert s1 == (s0 + 1 if d1 == d0 else 0)
