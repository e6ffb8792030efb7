"""Dealers, winds and flowers as data, each on a small inline variant: the
dealer's streak in payments, the prevailing wind moving on when the deal
comes back to the first dealer, matches in rounds of wind, flowers by
identity (a seat's own flowers, complete sets), wins on one's own flowers
and on another's, and hands of five sets."""

from __future__ import annotations

import pytest

from compiler.errors import CompileError
from runtime import analysis
from runtime import hand as hm
from runtime.actions import Action
from runtime.match import Match
from runtime.settlement import HandResult
from runtime.tiles import counts_of, parse_tiles
from support import act, game, pass_others, variant

OTHER = "99p 22s 333s 4s 66s 88s 8p"

STREAK = """
settlement:
  win:
    amount: "10 + (1 + 2 * dealer.streak if winner.is_dealer or payer.is_dealer else 0)"
"""


def _streak_game(streak):
    from runtime.game import Game

    rs = variant(STREAK)
    table = rs.configure()
    hands = [parse_tiles(h) for h in ("11p 33p 5p 777p 22s 99s 5s 9p", OTHER, "234p 678p 123s 789s 5p", OTHER)]
    return Game(table, hands, parse_tiles("1s 2s"), streak=streak)


def test_the_dealer_streak_weighs_payments_between_the_dealer_and_another():
    g = _streak_game(2)
    act(g, "0 discard 5p")
    act(g, "2 hu")
    # the dealer pays: 10 + 1 + 2 * 2
    assert [(p.payer, p.payee, p.amount) for p in g.result.payments] == [(0, 2, 15)]
    g = _streak_game(0)
    act(g, "0 discard 5p")
    act(g, "2 hu")
    assert [p.amount for p in g.result.payments] == [11]


ROUNDS = """
match:
  wind_rounds: options.quan
  prevailing_wind: by_round
options:
  quan: {zh: 圈, type: int, values: [1, 2], default: 1}
dealer:
  next:
    - {after: dealer_wins, deals: dealer}
    - {after: draw, deals: dealer}
    - {after: win, deals: next}
"""


def _finish(match, next_dealer):
    """End the match's current hand as a draw that sends the deal to `next_dealer`."""
    match.start_hand()
    match.game.result = HandResult("draw", [], -1, False, [], [0] * match.table.players, next_dealer)
    match.finish_hand()


def test_a_match_of_rounds_of_wind_ends_when_the_deal_would_come_back():
    rs = variant(ROUNDS)
    assert [o.id for o in rs.options] == ["quan"]  # no `rounds` option
    m = Match(rs.configure({"quan": 2}), "seed")
    winds = []
    for nxt in (0, 1, 2, 2, 3, 0, 1, 2, 3, 0):  # a kept deal (2 -> 2) does not count
        winds.append(m.round_wind())
        _finish(m, nxt)
        if m.over:
            break
    assert winds == [27] * 6 + [28] * 4  # East until the deal comes back to seat 0, then South
    assert m.over and len(m.results) == 10 and m.rounds == 2
    assert m.round_wind() == 29  # the third round would be West


def test_the_prevailing_wind_moves_on_when_the_deal_comes_back_to_the_first_dealer():
    rs = variant(ROUNDS)
    m = Match(rs.configure({"quan": 2}), "seed")
    for nxt in (1, 2, 3):
        _finish(m, nxt)
    assert m.round_wind() == 27
    _finish(m, 0)
    assert m.round_wind() == 28 and m.dealer == 0


FLOWERS = """
title: {zh: 测试, en: Test}
players: {allowed: [4], default: 4}
tiles: {suits: [p, s], flowers: 12345678f, flower_sets: [1234f, 5678f]}
opening: [deal, flowers]
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
    own: {zh: 本花, value: 1, count: hand.own_flowers_outside_sets}
    sets: {zh: 花组, value: 2, count: hand.flower_sets}
    plum: {zh: 梅, value: 5, when: hand.flowers_held(5f) > 0}
    replaced: {zh: 花上, value: 3, when: win.flower_replacement}
    eight: {zh: 八花, value: 8, when: "false"}
    seven: {zh: 七花, value: 7, when: "false"}
winning:
  by_flowers:
    all_eight: {zh: 八花, when: seat.flowers == 8, fans: [eight]}
  on_flower:
    rob_eighth: {zh: 七花, when: seat.flowers == 7, fans: [seven]}
"""
WAIT = "234p 678p 123s 789s 5p"  # waits on 5p


def test_own_flowers_and_complete_sets_are_known_by_identity():
    from runtime.scoring import HandFacts, WinContext

    rs = variant(FLOWERS, base="")
    table = rs.configure()
    ctx = WinContext(counts_of(parse_tiles("234p 678p 123s 789s 5p")), [], parse_tiles("5p")[0], False,
                     seat_wind=28, flowers=5, flowers_aside=tuple(parse_tiles("12346f")))
    h = HandFacts(ctx, table)
    # South's own flowers are 2f and 6f: 2f is in the complete seasons, so only 6f counts on its own
    assert (h.own_flowers, h.flower_sets, h.own_flowers_outside_sets) == (2, 1, 1)
    assert h.flowers_held(frozenset(parse_tiles("5f6f"))) == 1


def test_flowers_dealt_are_set_aside_and_replaced_from_the_end():
    rs = variant(FLOWERS, base="")
    g = game(rs, {0: "11p 33p 5p 777p 22s 99s 1f 2f", 1: OTHER, 2: WAIT, 3: OTHER}, wall="1s 2s 3s 5s 9s")
    assert g.seats[0].flowers == parse_tiles("1f2f")
    assert sorted(g.seats[0].tiles()) == sorted(parse_tiles("11p 33p 5p 777p 22s 99s 5s 9s"))


def test_a_win_on_ones_own_flowers_is_taken_at_once():
    rs = variant(FLOWERS, base="")
    # seat 1 holds seven flowers and draws the eighth
    g = game(rs, {0: "11p 33p 5p 777p 22s 99s 5s 9p", 1: "1234567f 123p 456s", 2: WAIT, 3: OTHER},
             wall="8f 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    act(g, "0 discard 9p")
    pass_others(g)
    assert g.current == 1 and g.legal_actions(1) == [Action("hu")] and g.forced_action(1) == Action("hu")
    act(g, "1 hu")
    r = g.result
    assert r.winners == [1] and r.self_drawn and [f.id for f, _, _ in r.valuations[1].fans] == ["eight"]
    assert r.deltas == [-8, 24, -8, -8]


def test_a_seat_wins_on_the_flower_another_sets_aside():
    rs = variant(FLOWERS, base="")
    # seat 2 holds seven flowers; seat 1 draws the eighth
    still = "12p 45p 78p 12s 45s 78s 9s"
    g = game(rs, {0: "11p 33p 5p 777p 22s 99s 5s 9p", 1: still, 2: "1234567f 123p 456s", 3: still},
             wall="8f 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    act(g, "0 discard 9p")  # nobody claims it: seat 1 draws 8f and sets it aside
    assert g.phase == "claim" and g.window.kind == "flower" and g.legal_actions(2) == [Action("hu")]
    act(g, "2 hu")
    r = g.result
    assert r.winners == [2] and r.discarder == 1 and not r.self_drawn
    assert g.seats[2].flowers == parse_tiles("12345678f") and g.seats[1].flowers == []
    assert r.deltas == [0, -7, 7, 0]


def test_a_win_on_a_flowers_replacement_is_known():
    rs = variant(FLOWERS, base="")
    g = game(rs, {0: "11p 33p 5p 777p 22s 99s 5s 9p", 1: OTHER, 2: WAIT, 3: OTHER},
             wall="1s 5f 2s 3s 5p")
    act(g, "0 discard 9p")
    pass_others(g)
    act(g, "1 discard 1s")
    pass_others(g)
    # seat 2 draws 5f, sets it aside and draws 5p from the end: a win on the replacement
    assert g.seats[2].flowers == parse_tiles("5f") and g.seats[2].drawn == parse_tiles("5p")[0]
    act(g, "2 hu")
    assert sorted(f.id for f, _, _ in g.result.valuations[2].fans) == ["base", "plum", "replaced"]


def test_tile_facts_that_cannot_see_flowers_name_the_fact_to_use():
    with pytest.raises(CompileError, match=r"hand.count counts tiles of the hand, where flowers never are; "
                                           r"count the flowers set aside with hand.flowers_held"):
        variant(FLOWERS.replace("hand.flowers_held(5f) > 0", "hand.count(5f) > 0"), base="")


FIVE_SETS = """
title: {zh: 测试, en: Test}
players: {allowed: [4], default: 4}
tiles: {suits: [m, p, s]}
deal: {dealer: 17, others: 16}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
"""


def test_hands_of_five_sets_and_a_pair():
    rs = variant(FIVE_SETS, base="")
    table = rs.configure()
    assert table.sets == 5
    sixteen = counts_of(parse_tiles("111m 333m 555m 777m 999m 2p"))
    assert analysis.shanten(table, sixteen, []) == 0 and analysis.waits(table, sixteen, []) == parse_tiles("2p")
    assert hm.standard_shanten(counts_of(parse_tiles("111222333444555m 66m")), 0, 5) == -1
    assert analysis.shanten(table, counts_of(parse_tiles("123456789m 1234p 79s")), []) == 1
