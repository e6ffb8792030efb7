"""More generic mechanisms on their own, each with a small inline variant:
face-up tail, stakes, wins on discards, kong payments, liability, discard
wins settled as self-draws, play-time forced wins, joined wins, fans that
count alone, refusals kept until a draw."""

from __future__ import annotations

import json

import pytest

from runtime.actions import Action
from runtime.game import Game, IllegalAction
from support import act, game, pass_others, variant, verbs

BASE = """
title: {zh: 测试, en: Test}
players: {allowed: [4, 3, 2], default: 4}
tiles: {suits: [p, s]}
"""

FANS = """
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
    self_drawn: {zh: 自摸, value: 1, when: win.self_drawn}
"""

OTHER = "99p 22s 333s 4s 66s 88s 8p"
WAIT_5P = "123p 456s 789s 11s 46p"


# ---------------------------------------------------------------- face-up tail

FACE_UP = BASE + FANS + "wall: {face_up_tail: 2}\n"


def test_a_kong_takes_a_face_up_tile_and_a_new_one_turns():
    rs = variant(base=FACE_UP)
    g = game(rs, {0: "1111p 23p 456s 789s 99s", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="1s 2s 3s 5s 6s 7s")
    assert g.face_up_tiles() == [23, 24]  # the last two tiles, 6s 7s
    act(g, "0 kong 1p")
    assert g.phase == "replace" and verbs(g, 0) == {"take 6s", "take 7s"}
    with pytest.raises(IllegalAction, match="take one of the face-up tiles: 6s, 7s"):
        g.apply(0, Action("discard", 9))
    act(g, "0 take 6s")
    assert g.seats[0].drawn == 23 and g.turn_kind == "replacement"
    assert g.face_up_tiles() == [22, 24]  # 5s turned over beside 7s
    assert g.events[-1] == {"type": "replacement", "seat": 0, "tile": "6s", "taken": True, "face_up": ["5s", "7s"]}


def test_no_kong_once_no_face_down_tile_is_left():
    rs = variant(base=FACE_UP)
    g = game(rs, {0: "1111p 23p 456s 789s 99s", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="6s 7s")
    assert not g.kong_possible()
    assert not any(v.startswith("kong") for v in verbs(g, 0))


def test_face_up_tiles_are_drawn_in_order_at_the_end():
    rs = variant(base=FACE_UP)
    g = game(rs, {0: "11p 23p 456s 789s 99s 5p 7p", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="1s 6s 7s")
    act(g, "0 discard 5p")
    act(g, "3 pass")
    assert g.seats[1].drawn == 18  # 1s from the front
    g.apply(1, Action("discard", 18))
    pass_others(g)
    assert g.seats[2].drawn == 23  # a face-up tile, drawn in wall order
    assert g.view(0)["face_up"] == ["7s"]


def test_the_view_shows_the_face_up_tiles():
    rs = variant(base=FACE_UP)
    g = game(rs, {0: "1111p 23p 456s 789s 99s", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="1s 2s 3s 5s 6s 7s")
    assert g.view(2)["face_up"] == ["6s", "7s"]


# ---------------------------------------------------------------- stakes

STAKES = BASE + """
options:
  buying: {zh: 买点, type: bool, default: true}
stakes: {when: options.buying, values: [0, 1, 2]}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
settlement:
  win: {amount: total + payer.bought + winner.bought}
"""


def test_stakes_are_bought_before_the_deal_and_paid_on_top():
    rs = variant(base=STAKES)
    g = game(rs, {0: "123p 456p 789p 11s 456s", 1: OTHER, 2: OTHER, 3: OTHER})
    assert g.phase == "start" and g.start_stage == "stakes" and sorted(g.to_act()) == [0, 1, 2, 3]
    assert verbs(g, 1) == {"buy 0", "buy 1", "buy 2", "pass"}
    assert g.view(1)["hand"] == [] and not any(e["type"] == "deal" for e in g.events)
    act(g, "0 buy 1")
    act(g, "1 buy 2")
    act(g, "2 pass")
    act(g, "3 buy 0")
    assert [st.bought for st in g.seats] == [1, 2, 0, 0]
    assert g.phase == "turn" and g.view(0)["hand"]
    act(g, "0 hu")
    # each payer pays 1 + 1 (the winner's stake) + his own stake
    assert g.result.deltas == [8, -4, -2, -2]


def test_no_stakes_when_the_option_is_off():
    rs = variant(base=STAKES)
    g = game(rs, {0: "123p 456p 789p 11s 456s", 1: OTHER, 2: OTHER, 3: OTHER}, options={"buying": False})
    assert g.phase == "turn"


def test_buy_round_trips_through_json():
    rs = variant(base=STAKES)
    g = game(rs, {0: "123p 456p 789p 11s 456s", 1: OTHER, 2: OTHER, 3: OTHER})
    act(g, "0 buy 2")
    restored = Game.from_json(json.loads(json.dumps(g.to_json())), g.table)
    assert restored.to_json() == g.to_json() and restored.seats[0].bought == 2


# ---------------------------------------------------------------- wins on discards

HISTORY = """
title: {zh: 测试, en: Test}
players: {allowed: [4], default: 4}
tiles: {suits: [m, p, s], honours: 1234567z}
winning:
  by_discards:
    ten_honours: {zh: 十老头, when: seat.honour_run >= 10, fans: [ten]}
    seven_winds: {zh: 七风, when: seat.distinct_honour_run >= 7, fans: [seven]}
scoring:
  unit: fan
  fans:
    base: {zh: 底, value: 0}
    ten: {zh: 十老头, value: 1, when: "false"}
    seven: {zh: 七风, value: 1, when: "false"}
settlement:
  win: {amount: "3 * 2 ** (total - 1) if total > 0 else 1"}
"""


def test_seven_different_honours_in_a_row_win():
    rs = variant(base=HISTORY)
    hands = {0: "1234567z 19m 19p 19s 5m", 1: "23456m 23456p 234s", 2: "23456m 23456p 567s", 3: "78m 78p 78s 345678s 9m"}
    g = game(rs, hands, wall="2s 3s 4s 5s 6s 7s 8s 2s 3s 4s 5s 6s 7s 8s 2m 3m 4m 5m 6m 7m 8m 2p 3p 4p 5p 6p 7p 8p")
    for i, tile in enumerate(["1z", "2z", "3z", "4z", "5z", "6z", "7z"]):
        act(g, f"0 discard {tile}")
        if i == 6:
            break
        assert g.phase == "turn" and g.current == 1  # nobody claims, no win yet
        for seat in (1, 2, 3):
            g.apply(seat, Action("discard", g.seats[seat].drawn))
            pass_others(g)
    assert g.phase == "claim" and g.window.kind == "history" and verbs(g, 0) == {"hu", "pass"}
    act(g, "0 hu")
    r = g.result
    assert r.winners == [0] and r.self_drawn and [f.id for f, _, _ in r.valuations[0].fans] == ["seven"]
    assert r.deltas == [9, -3, -3, -3]


def test_a_claimed_honour_breaks_the_run():
    rs = variant(base=HISTORY)
    g = game(rs, {0: "1234567z 19m 19p 19s 5m", 1: "77z 3456m 23456p 23s", 2: OTHER.replace("p", "m"), 3: "78m 78p 78s 345678s 9m"}, wall="2s 3s 4s 5s 6s 7s 8s 2s 3s 4s 5s 6s 7s 8s 2m 3m 4m 5m")
    act(g, "0 discard 7z")
    act(g, "1 pong")
    pass_others(g)
    from runtime.facts import SeatFacts

    assert SeatFacts(g, 0).honour_run == 0


# ---------------------------------------------------------------- kong payments

KONG_PAY = BASE + FANS + """
options:
  timing: {zh: 时机, type: choice, values: [immediate, at_end, owner_wins], default: immediate}
settlement:
  kongs:
    timing: immediate
    direct: {payers: discarder, amount: 2}
    added: {payers: others, amount: 1}
    concealed: {payers: others, amount: 2}
"""


def test_kongs_are_paid_at_once_and_stand_whatever_happens():
    rs = variant(base=KONG_PAY)
    g = game(rs, {0: "1111p 23p 456s 789s 99s", 1: "555p 99p 22s 33s 4s 66s 8p", 2: OTHER, 3: WAIT_5P}, wall="1s 2s 3s 5p 6s 7s 8s")
    act(g, "0 kong 1p")
    assert [(p.payer, p.payee, p.amount, p.reason) for p in g.payments] == [(1, 0, 2, "kong"), (2, 0, 2, "kong"), (3, 0, 2, "kong")]
    act(g, "0 discard 9s")
    pass_others(g)
    act(g, "1 discard 1s")  # seat 1 drew 1s
    pass_others(g)
    g.apply(2, Action("discard", g.seats[2].drawn))
    pass_others(g)
    g.apply(3, Action("discard", g.seats[3].drawn))
    pass_others(g)
    act(g, "0 discard 5p")  # drew 5p: seat 1 kongs it, seat 3 passes its win
    act(g, "3 pass")
    act(g, "1 kong")
    assert (0, 1, 2, "kong") in {(p.payer, p.payee, p.amount, p.reason) for p in g.payments}


@pytest.mark.parametrize("timing, expected", [("at_end", [6, -2, -2, -2]), ("owner_wins", [0, 0, 0, 0])])
def test_kongs_paid_with_the_hand(timing, expected):
    """Seat 0 konged; seat 3 wins: at_end pays the kong, owner_wins does not."""
    rs = variant(base=KONG_PAY.replace("timing: immediate\n", f"timing: {timing}\n"))
    g = game(rs, {0: "1111p 23p 456s 789s 99s", 1: OTHER, 2: OTHER, 3: "123p 456s 789s 111s 5p"}, wall="4p 2s 5p 3s 6s 7s 8s")
    act(g, "0 kong 1p")
    assert g.payments == []
    act(g, "0 discard 9s")
    pass_others(g)
    for seat in (1, 2):
        g.apply(seat, Action("discard", g.seats[seat].drawn))
        pass_others(g)
    act(g, "3 hu")  # drew 5p
    kongs = [0] * 4
    for p in g.result.payments:
        if p.reason == "kong":
            kongs[p.payer] -= p.amount
            kongs[p.payee] += p.amount
    assert kongs == expected


def _seat_3_robs_seat_1s_added_kong(rs):
    """Seat 1 pungs 5p, later adds the drawn 5p as a kong; seat 3 robs it."""
    g = game(rs, {0: "5p 9p 11p 33p 77p 22s 99s 5s 1s", 1: "55p 99p 22s 333s 4s 66s 8p", 2: OTHER, 3: WAIT_5P}, wall="6s 7s 1s 5p 9s 8s")
    act(g, "0 discard 5p")
    act(g, "1 pong")
    pass_others(g)
    act(g, "1 discard 8p")
    pass_others(g)
    for seat in (2, 3, 0):
        g.apply(seat, Action("discard", g.seats[seat].drawn))
        pass_others(g)
    act(g, "1 kong 5p")
    act(g, "3 hu")
    return g


def test_a_robbed_added_kong_pays_nothing():
    rs = variant(base=KONG_PAY)
    g = _seat_3_robs_seat_1s_added_kong(rs)
    assert [p for p in g.result.payments if p.reason == "kong"] == []


# ---------------------------------------------------------------- liability, settled as self-draw

LIABLE = BASE + """
options:
  dihu_zimo: {zh: 地胡算自摸, type: bool, default: false}
claims:
  rob_kong: {counts_as: self_draw}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
settlement:
  win:
    amount: "3 * total if win.self_drawn else total"
    self_draw_when: win.first_turn and options.dihu_zimo
    liable:
      - {when: win.robbing_kong, who: discarder}
"""


def test_the_robbed_player_pays_every_share_of_a_self_draw():
    rs = variant(base=LIABLE)
    g = _seat_3_robs_seat_1s_added_kong(rs)
    assert g.result.deltas == [0, -9, 0, 9]
    assert [(p.payer, p.payee, p.amount) for p in g.result.payments] == [(1, 3, 9)]


def test_a_first_turn_discard_win_settled_as_a_self_draw():
    rs = variant(base=LIABLE)
    for option, expected in ((False, [-1, 0, 0, 1]), (True, [-3, -3, -3, 9])):
        g = game(rs, {0: "11p 33p 5p 77p 22s 99s 5s 1s 9p", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="1s", options={"dihu_zimo": option})
        act(g, "0 discard 5p")
        act(g, "3 hu")
        assert g.result.deltas == expected


# ---------------------------------------------------------------- forced wins by the wall, joined wins, alone

PLAY = BASE + """
claims:
  must_win: wall.remaining <= 1
  join_wins: true
  after_pass:
    - {claim: hu, tiles: any, until: draw}
scoring:
  unit: points
  fans:
    base: {zh: 平胡, value: 0, alone: true}
    self_drawn: {zh: 自摸, value: 1, when: win.self_drawn}
"""

WAIT_5P_SINGLE = "234p 678p 123s 789s 5p"


def test_a_win_is_forced_near_the_end_of_the_wall_and_ignores_refusals():
    rs = variant(base=PLAY)
    g = game(rs, {0: "11p 33p 5p 77p 22s 99s 5s 1s 9p", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="9s 5p")
    act(g, "0 discard 9p")
    assert not g.over
    g = game(rs, {0: "11p 33p 5p 77p 22s 99s 5s 1s 9p", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="9s")
    act(g, "0 discard 5p")
    assert verbs(g, 3) == {"hu"}
    g.seats[3].refusals = [("hu", -1, None, True)]
    assert verbs(g, 3) == {"hu"}


def test_one_win_carries_every_seat_that_could_win():
    rs = variant(base=PLAY)
    g = game(rs, {0: "11p 33p 5p 77p 22s 99s 5s 1s 9p", 1: OTHER, 2: WAIT_5P_SINGLE, 3: WAIT_5P}, wall="9s 9s")
    act(g, "0 discard 5p")
    act(g, "2 pass")
    act(g, "3 hu")
    assert g.result.winners == [2, 3]


def test_an_alone_fan_counts_only_without_others():
    rs = variant(base=PLAY)
    g = game(rs, {0: "11p 33p 5p 77p 22s 99s 5s 1s 9p", 1: OTHER, 2: OTHER, 3: WAIT_5P}, wall="9s 9s")
    act(g, "0 discard 5p")
    act(g, "3 hu")
    assert [f.id for f, _, _ in g.result.valuations[3].fans] == ["base"]
    g = game(rs, {0: "123p 456p 789p 11s 456s", 1: OTHER, 2: OTHER, 3: OTHER})
    act(g, "0 hu")
    assert [f.id for f, _, _ in g.result.valuations[0].fans] == ["self_drawn"]


def test_a_refusal_kept_until_a_draw_survives_a_pung():
    rs = variant(base=PLAY)
    g = game(rs, {0: "11p 33p 5p 77p 22s 99s 5s 1s 9p", 1: "55s 99p 22s 333s 4s 66s 8p", 2: OTHER, 3: WAIT_5P}, wall="9s 9s 8s 7s 6s 5s 4s 3s")
    act(g, "0 discard 5p")
    act(g, "3 pass")
    assert g.seats[3].refusals == [("hu", -1, None, True)]
    g._clear_refusals(3, draw=False)
    assert g.seats[3].refusals == [("hu", -1, None, True)]
    g._clear_refusals(3, draw=True)
    assert g.seats[3].refusals == []


def test_the_room_creator_deals_the_first_hand_when_set():
    """dealer.creator_deals (CX-06, CX-44): seat 0 deals first when the
    option is on; otherwise the first dealer is drawn from the match seed."""
    from runtime.match import Match
    from runtime.registry import load

    rs = load("chuxiong_yuxi")
    assert {Match(rs.configure({"creator_deals": True}), seed).dealer for seed in range(12)} == {0}
    assert len({Match(rs.configure({}), seed).dealer for seed in range(12)}) > 1


def test_option_rules_refuse_a_panel_that_breaks_them():
    """option_rules: options that exclude each other, with the message the
    room's creator sees."""
    import pytest

    from runtime.ruleset import OptionError
    from support import variant

    rs = variant("""
options:
  bao_pao: {zh: 包炮, type: bool, default: true}
  dai_zai: {zh: 带灾, type: bool, default: false}
option_rules:
  - check: options.bao_pao != options.dai_zai
    message: {zh: 包炮和带灾必须选择其一, en: Choose exactly one of 包炮 and 带灾}
""")
    rs.configure({"bao_pao": False, "dai_zai": True})
    with pytest.raises(OptionError, match="Choose exactly one"):
        rs.configure({"dai_zai": True})
    with pytest.raises(OptionError, match="包炮和带灾必须选择其一"):
        rs.configure({"bao_pao": False})
