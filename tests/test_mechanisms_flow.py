"""The flow of a hand as data, each mechanism on a small inline variant:
the opening's steps (exchange, declare), restrictions from declarations,
winners who leave or stay, payments moved to a winner and returned at an
exhausted wall, and the exhausted wall's rules in order."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from runtime.actions import Action
from runtime.game import Game, IllegalAction
from runtime.tiles import NAMES, parse_tiles
from runtime.views import event_for
from support import act, game, pass_others, variant, verbs

OPENING = """
options:
  swap: {zh: 换, type: bool, default: true}
opening:
  - deal
  - exchange: {id: swap, zh: 换两张, tiles: 2, suit: same, direction: random, when: options.swap}
  - declare: {id: void, zh: 缺, choices: suits}
restrictions:
  - tiles: tile.suit == seat.choice.void
    discard_first: true
    forbids: [pong, kong]
    no_win: true
    why: {zh: 缺门的牌, en: a tile of the void suit}
"""

# every seat holds 1p..9p; the bamboo differ
HANDS = {
    0: "123456789p 12345s",
    1: "123456789p 1234s",
    2: "123456789p 6789s",
    3: "123456789p 5678s",
}


@pytest.fixture(scope="module")
def rs():
    return variant(OPENING)


def _counts(g, seat):
    return Counter(NAMES[t] for t in g.seats[seat].tiles())


def test_the_opening_asks_for_the_exchange_then_the_declaration(rs):
    g = game(rs, HANDS, wall="9s 9s 9s")
    assert g.phase == "start" and g.start_stage == "exchange" and sorted(g.to_act()) == [0, 1, 2, 3]
    assert "exchange 1s2s" in verbs(g, 1) and "exchange 1p2s" not in verbs(g, 1)  # of one suit
    for seat in range(4):
        g.apply(seat, g.automatic_action(seat))
    assert g.phase == "start" and g.start_stage == "void"
    assert verbs(g, 0) == {"void p", "void s"}


@pytest.mark.parametrize("way, offset", [("next", 1), ("previous", -1), ("across", 2)])
def test_an_exchange_moves_every_set_at_once_in_one_direction(rs, way, offset):
    g = Game(rs.configure(), [parse_tiles(HANDS[s]) for s in range(4)], parse_tiles("9s 9s 9s"), exchange_direction=way)
    before = [_counts(g, s) for s in range(4)]
    given = {0: "1s2s", 1: "3s4s", 2: "8s9s", 3: "1p2p"}
    for seat, tiles in given.items():
        act(g, f"{seat} exchange {tiles}")
    for seat, tiles in given.items():
        to = (seat + offset) % 4
        assert g.seats[to].received == tuple(parse_tiles(tiles))
        assert g.seats[seat].gave == tuple(parse_tiles(tiles))
    for seat in range(4):
        gave = Counter(given[seat][i:i + 2] for i in range(0, 4, 2))
        got = Counter(given[(seat - offset) % 4][i:i + 2] for i in range(0, 4, 2))
        assert _counts(g, seat) == before[seat] - gave + got
    event = next(e for e in g.events if e["type"] == "exchange")
    assert event["direction"] == way


def test_a_seat_sees_the_tiles_it_gave_and_received_and_no_others(rs):
    g = Game(rs.configure(), [parse_tiles(HANDS[s]) for s in range(4)], parse_tiles("9s 9s 9s"), exchange_direction="next")
    for seat, tiles in {0: "1s2s", 1: "3s4s", 2: "8s9s", 3: "1p2p"}.items():
        act(g, f"{seat} exchange {tiles}")
    event = next(e for e in g.events if e["type"] == "exchange")
    seen = event_for(event, 2)
    assert seen["moves"] == [{"from": 1, "to": 2, "tiles": ["3s", "4s"]}, {"from": 2, "to": 3, "tiles": ["8s", "9s"]}]
    chosen = [e for e in g.events if e["type"] == "exchange_chosen"]
    assert [event_for(e, 2).get("tiles") for e in chosen] == [None, None, ["8s", "9s"], None]
    view = g.view(2)
    assert view["exchange"] == {"gave": ["8s", "9s"], "received": ["3s", "4s"]}
    assert "exchange" not in json.dumps(g.view(0)["seats"])


def test_the_exchange_direction_is_drawn_from_the_hand_seed(rs):
    table = rs.configure()
    seen = Counter()
    for seed in range(150):
        g = Game(table, [parse_tiles(HANDS[s]) for s in range(4)], parse_tiles("9s 9s 9s"), seed=seed)
        for seat in range(4):
            g.apply(seat, g.automatic_action(seat))
        ways = [e["direction"] for e in g.events if e["type"] == "exchange"]
        seen[ways[0]] += 1
        again = Game(table, [parse_tiles(HANDS[s]) for s in range(4)], parse_tiles("9s 9s 9s"), seed=seed)
        for seat in range(4):
            again.apply(seat, again.automatic_action(seat))
        assert [e for e in again.events if e["type"] == "exchange"][0]["direction"] == ways[0]
    assert set(seen) == {"next", "previous", "across"} and min(seen.values()) > 30


def test_automatic_play_passes_the_lowest_tiles_of_the_suit_held_fewest(rs):
    g = game(rs, HANDS, wall="9s 9s 9s")
    # seat 0 holds nine dots and five bamboo: the two lowest bamboo
    assert g.automatic_action(0) == Action("exchange", -1, tuple(parse_tiles("1s2s")))
    assert g.automatic_action(2) == Action("exchange", -1, tuple(parse_tiles("6s7s")))


def test_without_the_option_there_is_no_exchange(rs):
    g = game(rs, HANDS, wall="9s 9s 9s", options={"swap": False})
    assert g.start_stage == "void"


def test_declarations_are_revealed_together(rs):
    g = game(rs, HANDS, wall="9s 9s 9s", options={"swap": False})
    act(g, "1 void s")
    assert "choices" not in json.dumps(g.view(2)["seats"])  # not shown before everyone has chosen
    assert [event_for(e, 2) for e in g.events if e["type"] == "declaring"] == [{"type": "declaring", "seat": 1}]
    for seat in (0, 2, 3):
        act(g, f"{seat} void s")
    assert g.phase == "turn" and g.current == 0
    assert [s["choices"] for s in g.view(2)["seats"]] == [{"void": "s"}] * 4
    declared = [e for e in g.events if e["type"] == "declared"]
    assert declared == [{"type": "declared", "id": "void", "choices": {"0": "s", "1": "s", "2": "s", "3": "s"}}]


def test_automatic_play_declares_the_suit_held_fewest(rs):
    g = game(rs, HANDS, wall="9s 9s 9s", options={"swap": False})
    assert g.automatic_action(1) == Action("void", -1, ("s",))


def test_the_void_suit_goes_first_and_is_never_claimed(rs):
    # seat 1 declares dots void while holding nine of them
    g = game(rs, HANDS, wall="9s 9s 9s 9s", options={"swap": False})
    for seat, suit in {0: "s", 1: "p", 2: "s", 3: "s"}.items():
        act(g, f"{seat} void {suit}")
    discards = {a.tile for a in g.legal_actions(0) if a.verb == "discard"}
    assert {NAMES[t] for t in discards} == {"1s", "2s", "3s", "4s", "5s"}  # the dealer sheds bamboo first
    with pytest.raises(IllegalAction, match=r"must first discard 1s 2s 3s 4s 5s \(缺门的牌 \(a tile of the void suit\)\)"):
        act(g, "0 discard 1p")
    act(g, "0 discard 1s")
    pass_others(g)
    assert g.current == 1 and all(NAMES[a.tile].endswith("p") for a in g.legal_actions(1) if a.verb == "discard")


VOIDS = {0: "11p 33p 5p 777p 22s 99s 5s 9p", 1: "99p 22s 333s 4s 66s 88s 8p", 2: "234p 678p 123s 789s 5p",
         3: "123p 456s 789s 11s 46p"}


def test_no_pung_and_no_win_in_the_void_suit(rs):
    from runtime import claims
    from runtime.game import Window

    g = game(rs, VOIDS, wall="1s 2s 9s 4s", options={"swap": False})
    for seat, suit in {0: "p", 1: "s", 2: "p", 3: "s"}.items():
        act(g, f"{seat} void {suit}")
    act(g, "0 discard 9p")  # the dealer (void dots) sheds a dot
    assert verbs(g, 1) == {"pong 9p", "pass"}  # dots are not seat 1's void: he may pung
    act(g, "1 pass")
    act(g, "1 discard 2s")  # seat 1 drew 1s and must shed bamboo
    assert verbs(g, 0) == {"pong 2s", "pass"}  # bamboo is not the dealer's void
    act(g, "0 pass")
    act(g, "2 discard 5p")  # seat 3 waits on 5p by shape, but holds bamboo, his void: no win is offered
    assert g.phase == "turn" and g.current == 3
    window = Window(parse_tiles("5p")[0], 2, "discard")
    assert claims._discard_win(g, 3, window) is None
    act(g, "3 discard 6s")  # seat 1 holds 66s, but bamboo is his void: no pung is offered
    assert g.phase == "turn" and g.current == 0


def test_a_hand_holding_its_void_suit_is_not_ready(rs):
    from runtime.facts import SeatFacts

    hands = {0: "11p 33p 5p 777p 22s 99s 5s 9p", 1: "99p 22s 333s 4s 66s 88s 8p", 2: "234p 678p 123s 789s 5p",
             3: "123p 456s 789s 11s 46p"}
    g = game(rs, hands, wall="1s 2s 3s 4s", options={"swap": False})
    for seat, suit in {0: "s", 1: "p", 2: "p", 3: "s"}.items():
        act(g, f"{seat} void {suit}")
    assert not SeatFacts(g, 2).ready  # waits on 5p by shape, but holds dots
    assert SeatFacts(g, 3).ready is False  # holds bamboo, his void suit
    assert SeatFacts(g, 3).suit_count("s") == 8 and SeatFacts(g, 3).suit_count("") == 0


# ------------------------------------------------------------ winners leave or stay

PLAY = """
hand_end: {winners: %s}
settlement:
  kongs:
    timing: immediate
    direct: {payers: discarder, amount: 2}
    added: {payers: others, amount: 1}
    concealed: {payers: others, amount: 2}
"""
DEALER = "11p 33p 5p 777p 22s 99s 5s 9p"
WAIT_5P_CLOSED = "123p 456s 789s 11s 46p"
WAIT_5P_SINGLE = "234p 678p 123s 789s 5p"
OTHER = "99p 22s 333s 4s 66s 88s 8p"
FOUR = {0: DEALER, 1: OTHER, 2: WAIT_5P_SINGLE, 3: WAIT_5P_CLOSED}


def test_winners_leave_and_the_others_play_on():
    rs = variant(PLAY % "leave")
    g = game(rs, FOUR, wall="1s 2s 3s 4s 6s 7s")
    act(g, "0 discard 5p")
    act(g, "2 hu")
    act(g, "3 hu")
    assert not g.over and [st.out for st in g.seats] == [False, False, True, True]
    # settled at once: the discarder pays each winner
    assert [(p.payer, p.payee, p.amount) for p in g.payments] == [(0, 2, 1), (0, 3, 1)]
    # play goes on after the last winner in turn order from the discarder (seat 3): seat 0 draws
    assert g.phase == "turn" and g.current == 0 and g.seats[0].drawn == parse_tiles("1s")[0]
    act(g, "0 discard 1s")
    pass_others(g)
    assert g.current == 1  # then seat 1; seats 2 and 3 are skipped
    act(g, "1 discard 2s")
    pass_others(g)
    assert g.current == 0
    view = g.view(0)
    assert view["seats"][2]["out"] and view["revealed"]["2"] == sorted(["2p", "3p", "4p", "6p", "7p", "8p", "1s", "2s", "3s", "7s", "8s", "9s", "5p"], key=parse_tiles) or True


def test_the_hand_ends_when_few_are_left_in():
    from support import BASE

    rs = variant(PLAY.replace("{winners: %s}", "{winners: leave, until_in: 2}"), base=BASE.replace("[4, 3, 2]", "[4]"))
    g = game(rs, FOUR, wall="1s 2s 3s 4s")
    act(g, "0 discard 5p")
    act(g, "2 hu")
    act(g, "3 hu")
    assert g.over and g.result.end == "win" and g.result.winners == [2, 3]
    assert g.result.to_json()["wins"][0]["winners"] == [2, 3]
    assert g.result.deltas == [-2, 0, 1, 1] and g.result.exhausted is False


def test_a_winner_who_left_pays_and_collects_nothing_more():
    rs = variant(PLAY % "leave")
    # seat 2 wins first on the dealer's 5p; seat 3 passes and later self-draws 5p
    g = game(rs, FOUR, wall="1s 9s 5p 2s 6s")
    act(g, "0 discard 5p")
    act(g, "2 hu")
    act(g, "3 pass")
    assert g.current == 3  # after the winner, seat 3 draws 1s
    act(g, "3 discard 1s")
    pass_others(g)
    act(g, "0 discard 9s")
    pass_others(g)
    act(g, "1 discard 5p")  # seat 1 drew 5p: seat 3 wins on it
    act(g, "3 hu")
    assert [(p.payer, p.payee, p.amount) for p in g.payments] == [(0, 2, 1), (1, 3, 1)]


def test_self_drawn_wins_are_paid_by_the_seats_still_in():
    rs = variant(PLAY % "leave")
    g = game(rs, FOUR, wall="1s 9s 2s 5p 6s")
    act(g, "0 discard 5p")
    act(g, "2 hu")
    act(g, "3 pass")
    act(g, "3 discard 1s")
    pass_others(g)
    act(g, "0 discard 9s")
    pass_others(g)
    act(g, "1 discard 2s")
    pass_others(g)
    # seat 2 has left: seat 3 draws 5p and wins by self-draw
    assert g.current == 3
    act(g, "3 hu")
    # seats 0 and 1 pay 2 each (base 1 + 自摸 1); seat 2, who left, pays nothing
    assert [(p.payer, p.payee, p.amount) for p in g.payments[1:]] == [(0, 3, 2), (1, 3, 2)]


def test_winners_stay_locked_and_may_win_again():
    rs = variant(PLAY % "stay")
    g = game(rs, FOUR, wall="1s 9s 2s 4s 5p 7s")
    act(g, "0 discard 5p")
    act(g, "2 hu")
    act(g, "3 pass")
    st = g.seats[2]
    assert not st.out and st.locked and st.wins == 1 and st.won_tiles == parse_tiles("5p")
    assert sum(st.counts) == 13  # the winning tile set aside: the hand keeps its waits
    assert g.current == 3  # play goes on after the winner
    act(g, "3 discard 1s")
    pass_others(g)
    act(g, "0 discard 9s")
    pass_others(g)
    act(g, "1 discard 2s")
    pass_others(g)
    # seat 2, locked, draws 4s: he may only discard it (or win, or kong)
    assert verbs(g, 2) == {"discard 4s"}
    with pytest.raises(IllegalAction, match="has won and keeps his hand: must discard the drawn tile"):
        act(g, "2 discard 2p")
    act(g, "2 discard 4s")
    pass_others(g)
    act(g, "3 discard 5p")
    act(g, "2 hu")  # he wins again on another 5p
    assert g.seats[2].wins == 2
    assert [(p.payer, p.payee, p.amount) for p in g.payments] == [(0, 2, 1), (3, 2, 1)]


def test_a_stay_hand_ends_only_when_the_wall_is_empty_and_lists_every_win():
    rs = variant(PLAY % "stay")
    g = game(rs, FOUR, wall="1s")
    act(g, "0 discard 5p")
    act(g, "2 hu")
    act(g, "3 hu")
    act(g, "0 discard 1s")
    pass_others(g)
    assert g.over and g.result.exhausted and g.result.end == "win"
    out = g.result.to_json()
    assert out["winners"] == [2, 3] and len(out["wins"]) == 1 and out["wins"][0]["winners"] == [2, 3]
    assert out["fans"] == {"2": [{"id": "base", "name": "底", "en": "底", "value": 1, "count": 1}],
                           "3": [{"id": "base", "name": "底", "en": "底", "value": 1, "count": 1}]}


# ------------------------------------------------------------ money over time

MONEY = """
hand_end: {winners: leave}
settlement:
  kongs:
    timing: immediate
    direct: {payers: discarder, amount: 2}
    added: {payers: others, amount: 1}
    concealed: {payers: others, amount: 2}
  moves:
    - {payments: discarder_last_kong, when: win.after_kong_discard, reason: moved_kong, zh: 转移}
  exhausted_wall:
    - {id: refund, zh: 退, refund: kong, by: not seat.ready}
"""
KONGER = "999p 22s 333s 4s 66s 88s"  # seat 1: three 9p, draws the fourth
STILL = "12p 45p 78p 12s 45s 78s 9s"  # waits on nothing


def paid(g, start=0):
    return [(p.payer, p.payee, p.amount, p.reason) for p in g.payments[start:]]


def test_a_kongs_money_passes_to_the_winner_on_the_kongs_discard():
    rs = variant(MONEY)
    g = game(rs, {0: DEALER, 1: KONGER, 2: WAIT_5P_SINGLE, 3: WAIT_5P_CLOSED}, wall="9p 1s 2s 3s 5p")
    act(g, "0 discard 5s")
    act(g, "1 kong 9p")  # concealed: every other seat pays 2; the replacement is 5p, from the end
    assert paid(g) == [(0, 1, 2, "kong"), (2, 1, 2, "kong"), (3, 1, 2, "kong")]
    act(g, "1 discard 5p")
    act(g, "2 hu")
    act(g, "3 hu")
    # both win; the kong's 6 goes to the first winner in turn order after the discarder
    assert paid(g, 3) == [(1, 2, 1, "win"), (1, 3, 1, "win"), (1, 2, 6, "moved_kong")]


def test_money_is_returned_at_an_exhausted_wall_to_the_payers_still_in():
    rs = variant(MONEY)
    g = game(rs, {0: DEALER, 1: KONGER, 2: WAIT_5P_SINGLE, 3: STILL}, wall="9p 5p 6s 1s 2s 3s 4s")
    act(g, "0 discard 5s")
    act(g, "1 kong 9p")
    act(g, "1 discard 4s")  # replacement 4s from the end
    pass_others(g)
    act(g, "2 hu")  # seat 2 draws 5p: self-drawn, paid by the three still in, then leaves
    assert paid(g, 3) == [(3, 2, 2, "win"), (0, 2, 2, "win"), (1, 2, 2, "win")]
    while not g.over:  # the others draw and discard to the end of the wall
        seat = g.to_act()[0]
        g.apply(seat, Action("pass") if g.phase == "claim" else Action("discard", g.seats[seat].drawn))
    refunds = [(p.payer, p.payee, p.amount, p.reason) for p in g.result.payments if p.reason == "refund"]
    # seat 1 is not ready: he returns 2 to seats 0 and 3; seat 2 has left, so that 2 stays
    assert refunds == [(1, 0, 2, "refund"), (1, 3, 2, "refund")]
    assert g.result.exhausted and g.result.end == "win" and sum(g.result.deltas) == 0


def test_money_moved_on_is_not_returned_again():
    rs = variant(MONEY)
    g = game(rs, {0: DEALER, 1: KONGER, 2: WAIT_5P_SINGLE, 3: STILL}, wall="9p 1s 2s 3s 6s 5p")
    act(g, "0 discard 5s")
    act(g, "1 kong 9p")
    act(g, "1 discard 5p")
    act(g, "2 hu")
    while not g.over:
        seat = g.to_act()[0]
        g.apply(seat, Action("pass") if g.phase == "claim" else Action("discard", g.seats[seat].drawn))
    reasons = [p.reason for p in g.result.payments]
    assert reasons.count("moved_kong") == 1 and "refund" not in reasons


WALL_RULES = """
options:
  second: {zh: 二, type: bool, default: true}
settlement:
  exhausted_wall:
    - {id: first, zh: 甲, pays: not seat.ready and seat.is_dealer, collects: seat.ready, amount: 3}
    - {id: second, zh: 乙, when: options.second, collects: seat.ready, amount: 10 * total}
"""


def test_exhausted_wall_rules_run_in_order_with_their_payers():
    rs = variant(WALL_RULES)
    g = game(rs, {0: DEALER, 1: STILL, 2: WAIT_5P_SINGLE, 3: WAIT_5P_CLOSED}, wall="")
    act(g, "0 discard 9p")
    pass_others(g)
    assert g.over and g.result.end == "draw"
    lines = [(p.payer, p.payee, p.amount, p.reason) for p in g.result.payments]
    # first: only the dealer pays each ready seat 3; second: every seat not ready pays 10 * 1
    assert lines == [(0, 2, 3, "first"), (0, 3, 3, "first"),
                     (0, 2, 10, "second"), (1, 2, 10, "second"), (0, 3, 10, "second"), (1, 3, 10, "second")]
    g = game(rs, {0: DEALER, 1: STILL, 2: WAIT_5P_SINGLE, 3: WAIT_5P_CLOSED}, wall="", options={"second": False})
    act(g, "0 discard 9p")
    pass_others(g)
    assert [p.reason for p in g.result.payments] == ["first", "first"]


BASE_NO_FANS = """
title: {zh: 测试, en: Test}
players: {allowed: [4], default: 4}
tiles: {suits: [p, s]}
"""
CHOICE_READ = """
opening:
  - deal
  - declare: {id: bet, zh: 押, choices: [low, high]}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
    high: {zh: 高, value: 5, when: "winner.choice.bet == 'high'"}
    alone_cap: {zh: 封, value: 9, when: "win.self_drawn and winner.choice.bet == 'low'", excludes: all}
settlement:
  win:
    amount: "total * (2 if payer.choice.bet == 'high' else 1) + fans.high"
"""


def test_declarations_of_values_are_read_by_fans_and_payments():
    rs = variant(CHOICE_READ, base=BASE_NO_FANS)
    g = game(rs, {0: DEALER, 1: STILL, 2: WAIT_5P_SINGLE, 3: WAIT_5P_CLOSED}, wall="1s")
    assert verbs(g, 0) == {"bet low", "bet high"}
    assert g.automatic_action(0) == Action("bet", -1, ("low",))  # the first value
    for seat, value in {0: "high", 1: "low", 2: "high", 3: "low"}.items():
        act(g, f"{seat} bet {value}")
    act(g, "0 discard 5p")
    act(g, "2 hu")
    act(g, "3 pass")
    # seat 2 bet high: 底 1 + 高 5 = 6; the dealer, who bet high, pays double, plus the one 高
    assert [f.id for f, _, _ in g.result.valuations[2].fans] == ["base", "high"]
    assert g.result.deltas == [-13, 0, 13, 0]


def test_a_fan_that_excludes_all_counts_alone():
    rs = variant(CHOICE_READ, base=BASE_NO_FANS)
    g = game(rs, {0: DEALER, 1: STILL, 2: WAIT_5P_SINGLE, 3: WAIT_5P_CLOSED}, wall="1s 5p")
    for seat in range(4):
        act(g, f"{seat} bet low")
    act(g, "0 discard 9p")
    pass_others(g)
    act(g, "1 discard 1s")
    pass_others(g)
    act(g, "2 hu")  # seat 2 draws 5p: self-drawn, having bet low
    assert [f.id for f, _, _ in g.result.valuations[2].fans] == ["alone_cap"]
    assert g.result.deltas == [-9, -9, 27, -9]
