"""Each generic runtime mechanism on its own, with small variants compiled
from inline YAML (no file of variants/ is read here)."""

from __future__ import annotations

import pytest

from runtime.actions import Action
from runtime.game import IllegalAction
from support import act, game, pass_others, variant, verbs

TOGGLES = """
options:
  multi: {zh: 多响, type: bool, default: true}
  rob: {zh: 抢杠, type: bool, default: true}
  refuse: {zh: 过手胡, type: bool, default: true}
  refuse_any: {zh: 弃先和后, type: bool, default: false}
  must: {zh: 必胡, type: bool, default: false}
claims:
  priority: [hu, kong, pong]
  multiple_winners: options.multi
  rob_kong: {kinds: [added], when: options.rob, counts_as: discard}
  must_win: options.must
  after_pass:
    - {claim: hu, when: options.refuse and not options.refuse_any, tiles: same, unless_worth_more: true}
    - {claim: hu, when: options.refuse_any, tiles: any}
"""

BASE_FANS = """
title: {zh: 测试, en: Test}
players: {allowed: [4, 3, 2], default: 4}
tiles: {suits: [p, s]}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
    self_drawn: {zh: 自摸, value: 1, when: win.self_drawn}
    after_kong: {zh: 杠上炮, value: 2, when: win.after_kong_discard}
    robbed: {zh: 抢杠, value: 1, when: win.robbing_kong}
"""

# seat 3 and seat 2 both wait on 5p; seat 0 deals in
DEALER = "11p 33p 5p 777p 22s 99s 5s 9p"
WAIT_5P_CLOSED = "123p 456s 789s 11s 46p"  # seat 3: closed wait on 5p
WAIT_5P_SINGLE = "234p 678p 123s 789s 5p"  # single wait on 5p
OTHER = "99p 22s 333s 4s 66s 88s 8p"


@pytest.fixture(scope="module")
def rs():
    return variant(base=BASE_FANS, extra=TOGGLES)


def four(dealer=DEALER, s1=OTHER, s2=WAIT_5P_SINGLE, s3=WAIT_5P_CLOSED):
    return {0: dealer, 1: s1, 2: s2, 3: s3}


def test_several_winners_on_one_discard(rs):
    g = game(rs, four(), wall="1s 2s 3s 4s")
    act(g, "0 discard 5p")
    assert verbs(g, 2) == {"hu", "pass"} and verbs(g, 3) == {"hu", "pass"}
    act(g, "3 hu")
    act(g, "2 hu")
    assert g.result.winners == [2, 3]
    assert g.result.deltas == [-2, 0, 1, 1]


def test_one_winner_goes_to_the_first_seat_after_the_discarder(rs):
    g = game(rs, four(), wall="1s 2s 3s 4s", options={"multi": False})
    act(g, "0 discard 5p")
    act(g, "3 hu")
    act(g, "2 hu")
    assert g.result.winners == [2]


def test_win_beats_pung(rs):
    g = game(rs, four(s1="55p 99p 22s 333s 4s 66s 8p"), wall="1s 2s 3s 4s")
    act(g, "0 discard 5p")
    assert "pong 5p" in verbs(g, 1)
    act(g, "1 pong")
    act(g, "2 pass")
    act(g, "3 hu")
    assert g.result.winners == [3]


def test_pung_when_nobody_wins_then_the_claimer_must_discard(rs):
    g = game(rs, four(s1="55p 99p 22s 333s 4s 66s 8p"), wall="1s 2s 3s 4s")
    act(g, "0 discard 5p")
    act(g, "1 pong")
    pass_others(g)
    assert g.phase == "turn" and g.current == 1
    assert g.seats[1].drawn == -1
    assert "hu" not in verbs(g, 1)


def test_must_win_offers_no_pass(rs):
    g = game(rs, four(), wall="1s 2s 3s 4s", options={"must": True})
    act(g, "0 discard 5p")
    assert verbs(g, 3) == {"hu"}
    assert g.forced_action(3) == Action("hu")
    with pytest.raises(IllegalAction, match="seat 3 cannot pass: the rules force this win"):
        g.apply(3, Action("pass"))


# ---------------------------------------------------------------- refusals


def _refusal_game(rs, options=None):
    # seat 3 waits 5p (closed); seat 1 draws 5p and discards it; seat 2
    # draws its fourth 9s, kongs, takes 5p from the tail and discards it
    hands = four(s1=OTHER, s2="999s 123p 456p 78p 1s 3s", s3=WAIT_5P_CLOSED)
    return game(rs, hands, wall="5p 9s 4p 6p 2p 5p", options=options)


def test_a_passed_win_is_refused_on_the_same_tile_until_the_own_draw(rs):
    g = _refusal_game(rs)
    act(g, "0 discard 5p")
    act(g, "3 pass")
    pass_others(g)
    assert g.seats[3].refusals == [("hu", 13, 1, False)]
    act(g, "1 discard 5p")  # seat 1 drew 5p
    assert g.phase == "turn" and g.current == 2  # nobody was offered it


def test_a_win_worth_more_lifts_the_refusal(rs):
    g = _refusal_game(rs)
    act(g, "0 discard 5p")
    pass_others(g)
    act(g, "1 discard 5p")
    pass_others(g)
    act(g, "2 kong 9s")  # drew the fourth 9s
    act(g, "2 discard 5p")  # the replacement: 杠上炮 is worth more
    assert "hu" in verbs(g, 3)
    act(g, "3 hu")
    assert [f.id for f, _, _ in g.result.valuations[3].fans] == ["base", "after_kong"]


def test_a_refusal_ends_with_the_own_draw(rs):
    g = _refusal_game(rs)
    act(g, "0 discard 5p")
    pass_others(g)
    act(g, "1 discard 5p")
    pass_others(g)
    act(g, "2 discard 1s")
    pass_others(g)
    assert g.current == 3 and g.seats[3].refusals == []


def test_refusing_every_tile(rs):
    g = _refusal_game(rs, {"refuse_any": True})
    act(g, "0 discard 5p")
    pass_others(g)
    assert g.seats[3].refusals == [("hu", -1, None, False)]


def test_no_refusal_when_the_rule_is_off(rs):
    g = _refusal_game(rs, {"refuse": False})
    act(g, "0 discard 5p")
    pass_others(g)
    act(g, "1 discard 5p")
    assert "hu" in verbs(g, 3)


# ---------------------------------------------------------------- robbing


def _pung_then_draw_fourth(rs, options=None):
    """Seat 1 pungs the dealer's 5p, and draws the fourth 5p next turn."""
    g = game(rs, four(s1="55p 99p 22s 333s 4s 66s 8p", s2=OTHER), wall="6s 7s 1s 5p 9s 8s", options=options)
    act(g, "0 discard 5p")
    act(g, "1 pong")
    pass_others(g)
    act(g, "1 discard 8p")
    pass_others(g)
    for seat in (2, 3, 0):
        g.apply(seat, Action("discard", g.seats[seat].drawn))
        pass_others(g)
    assert g.current == 1 and g.seats[1].drawn == 13  # the fourth 5p
    return g


def test_robbing_an_added_kong_is_a_discard_by_the_kong_owner(rs):
    g = _pung_then_draw_fourth(rs)
    act(g, "1 kong 5p")
    assert g.window is not None and g.window.kind == "rob"
    assert verbs(g, 3) == {"hu", "pass"}
    act(g, "3 hu")
    r = g.result
    assert r.winners == [3] and r.discarder == 1 and r.robbing_kong
    assert [f.id for f, _, _ in r.valuations[3].fans] == ["base", "robbed"]
    assert r.deltas == [0, -2, 0, 2]
    assert [m.type for m in g.seats[1].melds] == ["pung"]


def test_no_robbing_when_off_and_the_kong_completes(rs):
    g = _pung_then_draw_fourth(rs, {"rob": False})
    act(g, "1 kong 5p")
    assert g.phase == "turn" and g.current == 1 and g.turn_kind == "replacement"
    assert g.seats[1].melds[0].kind == "added"
    assert g.seats[1].drawn == 25  # 8s from the tail


def test_a_passed_rob_completes_the_kong(rs):
    g = _pung_then_draw_fourth(rs)
    act(g, "1 kong 5p")
    act(g, "3 pass")
    assert g.turn_kind == "replacement" and g.seats[1].melds[0].kind == "added"


# ---------------------------------------------------------------- kongs

KONGS = """
options:
  after_pung: {zh: 碰后杠, type: bool, default: true}
  chain: {zh: 连杠, type: bool, default: true}
kongs:
  in_pung_turn: options.after_pung
  chain: options.chain
"""


def test_kong_in_the_turn_of_a_pung_is_a_rule():
    rs = variant(KONGS)
    hands = {0: DEALER, 1: "55p 5p 99p 22s 33s 4s 66s 8s", 2: OTHER, 3: WAIT_5P_SINGLE}
    g = game(rs, hands, wall="1s")
    act(g, "0 discard 5p")
    act(g, "1 pong")
    pass_others(g)
    assert "kong 5p" in verbs(g, 1)  # the fourth 5p added at once
    g = game(rs, hands, wall="1s", options={"after_pung": False})
    act(g, "0 discard 5p")
    act(g, "1 pong")
    pass_others(g)
    assert not any(v.startswith("kong") for v in verbs(g, 1))


def test_chained_kongs_and_the_replacement_count():
    rs = variant(KONGS)
    dealer = "1111p 2222p 3p 456s 78s"
    g = game(rs, {0: dealer, 1: OTHER, 2: OTHER.replace("8p", "9s"), 3: WAIT_5P_SINGLE}, wall="1s 2s 3s 9s 3p")
    act(g, "0 kong 1p")
    assert g.seats[0].drawn == 11  # 3p from the tail
    act(g, "0 kong 2p")
    assert g.kong_chain == 2
    g2 = game(rs, {0: dealer, 1: OTHER, 2: OTHER, 3: WAIT_5P_SINGLE}, wall="1s 2s 3s 9s 3p", options={"chain": False})
    act(g2, "0 kong 1p")
    assert not any(v.startswith("kong") for v in verbs(g2, 0))


def test_no_kong_without_a_replacement_tile():
    rs = variant(KONGS)
    g = game(rs, {0: "1111p 2222p 3p 456s 78s", 1: OTHER, 2: OTHER, 3: WAIT_5P_SINGLE}, wall="")
    assert not any(v.startswith("kong") for v in verbs(g, 0))


# ---------------------------------------------------------------- ready

READY = """
ready: {declare: opening, locks_hand: true, forbids: [pong], kong: same_waits}
scoring:
  unit: points
  fans:
    base: {zh: 底, value: 1}
    declared: {zh: 报叫, value: 1, when: winner.declared_ready}
"""

READY_BASE = """
title: {zh: 测试, en: Test}
players: {allowed: [4], default: 4}
tiles: {suits: [p, s]}
"""


def test_non_dealers_declare_before_the_first_discard():
    rs = variant(READY, base=READY_BASE)
    g = game(rs, four(s1=OTHER), wall="9s 9s 1s 2s 3s")
    assert g.phase == "start" and sorted(g.to_act()) == [2, 3]
    act(g, "2 ready")
    act(g, "3 pass")
    assert g.seats[2].declared and not g.seats[3].declared
    assert g.phase == "turn" and g.current == 0


def test_the_dealer_declares_with_his_first_discard():
    rs = variant(READY, base=READY_BASE)
    g = game(rs, {0: "123p 456p 789p 11s 45s 9s", 1: OTHER, 2: OTHER, 3: OTHER}, wall="1s 2s 3s 4s")
    assert "ready 9s" in verbs(g, 0)
    act(g, "0 ready 9s")
    assert g.seats[0].declared and g.seats[0].declared_waits == (20, 23)


def test_a_declared_hand_is_locked_and_may_not_pung():
    rs = variant(READY, base=READY_BASE)
    g = game(rs, four(s1="55p 99p 22s 333s 4s 66s 8p", s2=OTHER), wall="9s 8s 7s 1s 2s 3s 4s")
    assert g.to_act() == [3]
    act(g, "3 ready")
    pass_others(g)
    act(g, "0 discard 9p")
    pass_others(g)
    act(g, "1 discard 9s")
    pass_others(g)
    act(g, "2 discard 8s")
    pass_others(g)
    assert verbs(g, 3) == {"discard 7s"}
    with pytest.raises(IllegalAction, match="declared ready: must discard the drawn tile"):
        g.apply(3, Action("discard", 9))


def test_declaring_only_at_the_opening():
    rs = variant(READY, base=READY_BASE)
    g = game(rs, {0: "123p 456p 789p 11s 45s 9s", 1: OTHER, 2: OTHER, 3: OTHER}, wall="1s 2s 3s 4s")
    act(g, "0 discard 9s")
    pass_others(g)
    assert not any(v.startswith("ready") for v in verbs(g, 1))


# ---------------------------------------------------------------- exhausted wall

CHECK = """
settlement:
  win: {amount: total}
  exhausted_wall:
    - id: cha_jiao
      collects: seat.ready
      amount: 10 * total
      ignore_fans: [self_drawn]
"""


def test_ready_check_at_an_exhausted_wall():
    rs = variant(CHECK)
    g = game(rs, {0: "11p 33p 5p 777p 22s 99s 5s 9p", 1: OTHER, 2: WAIT_5P_SINGLE, 3: WAIT_5P_CLOSED}, wall="")
    act(g, "0 discard 9p")
    pass_others(g)
    assert g.over and g.result.end == "draw"
    # seats 2 and 3 are ready (best wait worth 1: base); 0 and 1 pay each of them 10
    assert g.result.deltas == [-20, -20, 20, 20]
    assert {(p.payer, p.payee, p.amount, p.reason) for p in g.result.payments} == {
        (0, 2, 10, "cha_jiao"), (0, 3, 10, "cha_jiao"), (1, 2, 10, "cha_jiao"), (1, 3, 10, "cha_jiao")
    }


def test_last_discard_only_claimable_by_a_win():
    rs = variant("")
    g = game(rs, {0: "55p 11p 33p 77p 22s 99s 5s 9p", 1: "55p 99p 22s 333s 4s 66s 8p", 2: OTHER, 3: OTHER}, wall="")
    act(g, "0 discard 5s")
    assert g.over  # seat 1 could pung 5p but not the last 5s; nobody may claim


# ---------------------------------------------------------------- dealer rotation

DEALERS = """
dealer:
  next: {rules}
  may_repeat: {repeat}
"""
KET = "[{after: several_winners, deals: discarder}, {after: win, deals: winner}, {after: draw, deals: dealer}]"


@pytest.mark.parametrize(
    "rules, repeat, winners_case, expected",
    [
        (KET, "true", "single", 3),
        ("[{after: any, deals: next}]", "true", "single", 1),
        (KET, "true", "multi", 0),
        ("[{after: several_winners, deals: discarder_next}, {after: any, deals: winner}]", "true", "multi", 1),
        ("[{after: win, deals: winner}, {after: draw, deals: dealer}]", "true", "multi", 2),
        (KET, "true", "draw", 0),
        ("[{after: win, deals: winner}, {after: draw, deals: next}]", "true", "draw", 1),
        (KET, "false", "dealer_wins", 1),
        (KET, "true", "dealer_wins", 0),
        # the dealer keeps the deal on his own win and on a draw, else it passes on
        ("[{after: dealer_wins, deals: dealer}, {after: draw, deals: dealer}, {after: win, deals: next}]", "true", "dealer_wins", 0),
        ("[{after: dealer_wins, deals: dealer}, {after: draw, deals: dealer}, {after: win, deals: next}]", "true", "single", 1),
        ("[{after: dealer_wins, deals: dealer}, {after: draw, deals: dealer}, {after: win, deals: next}]", "true", "draw", 0),
        ("[{after: win, deals: discarder}, {after: draw, deals: dealer}]", "true", "dealer_wins", 0),
    ],
)
def test_next_dealer(rules, repeat, winners_case, expected):
    rs = variant(DEALERS.format(rules=rules, repeat=repeat))
    if winners_case == "dealer_wins":
        g = game(rs, {0: "123p 456p 789p 11s 456s", 1: OTHER, 2: OTHER, 3: OTHER})
        act(g, "0 hu")
    elif winners_case == "draw":
        g = game(rs, four(s1=OTHER, s2=OTHER, s3=OTHER), wall="")
        act(g, "0 discard 9p")
        pass_others(g)
    else:
        g = game(rs, four(s1=OTHER), wall="1s")
        act(g, "0 discard 5p")
        act(g, "2 hu" if winners_case == "multi" else "2 pass")
        act(g, "3 hu")
    assert g.result.next_dealer == expected


def test_rotation_rules_must_decide_every_hand():
    from compiler.errors import CompileError

    with pytest.raises(CompileError, match="no rule says who deals after a draw"):
        variant(DEALERS.format(rules="[{after: win, deals: winner}]", repeat="true"))
    with pytest.raises(CompileError, match="this rule never applies"):
        variant(DEALERS.format(rules="[{after: any, deals: next}, {after: draw, deals: dealer}]", repeat="true"))


# ---------------------------------------------------------------- chow

CHOW = """
claims:
  chow: true
  priority: [hu, [kong, pong], chow]
"""


def test_chow_only_by_the_next_seat_and_below_pung():
    rs = variant(CHOW)
    hands = {0: DEALER, 1: "46p 99p 22s 333s 4s 66s 8s", 2: "55p 99p 22s 333s 4s 66s 8s", 3: OTHER}
    g = game(rs, hands, wall="1s 2s")
    act(g, "0 discard 5p")
    assert "chow 4p6p" in verbs(g, 1)
    assert not any(v.startswith("chow") for v in verbs(g, 2))
    act(g, "1 chow 4p6p")
    act(g, "2 pong")
    pass_others(g)
    assert g.current == 2 and g.seats[2].melds[0].type == "pung"


# ---------------------------------------------------------------- tile removal, caps, payers

PANEL = """
options:
  no_dragons: {zh: 无字, type: bool, default: false}
  red_wild: {zh: 红中, type: bool, default: false}
  cap: {zh: 封顶, type: int, values: [0, 2], default: 0}
  everyone: {zh: 带灾, type: bool, default: false}
tiles:
  suits: [p, s]
  honours: 567z
  remove:
    - {tiles: 56z, when: options.no_dragons}
    - {tiles: 7z, when: options.no_dragons and not options.red_wild}
scoring:
  unit: points
  cap: options.cap
  fans:
    base: {zh: 底, value: 1}
    self_drawn: {zh: 自摸, value: 2, when: win.self_drawn}
settlement:
  win:
    payers:
      discard: "'others' if options.everyone else 'discarder'"
    amount: "2 * total if payer.is_discarder else total"
"""

PANEL_BASE = """
title: {zh: 测试, en: Test}
players: {allowed: [4], default: 4}
"""


def test_tiles_removed_by_options():
    rs = variant(PANEL, base=PANEL_BASE)
    assert len(rs.configure().wall_tiles()) == 84
    assert len(rs.configure({"no_dragons": True}).wall_tiles()) == 72
    table = rs.configure({"no_dragons": True, "red_wild": True})
    assert len(table.wall_tiles()) == 76 and 33 in table.tile_kinds and 31 not in table.tile_kinds


def test_a_cap_limits_the_total():
    rs = variant(PANEL, base=PANEL_BASE)
    hands = {0: "123p 456p 789p 11s 456s", 1: OTHER, 2: OTHER, 3: OTHER}
    g = game(rs, hands)
    act(g, "0 hu")
    assert g.result.valuations[0].total == 3
    g = game(rs, hands, options={"cap": 2})
    act(g, "0 hu")
    assert g.result.valuations[0].total == 2 and g.result.deltas == [6, -2, -2, -2]


def test_discard_payers_chosen_by_an_option():
    rs = variant(PANEL, base=PANEL_BASE)
    hands = four(s1=OTHER)
    g = game(rs, hands, wall="1s")
    act(g, "0 discard 5p")
    act(g, "2 pass")
    act(g, "3 hu")
    assert g.result.deltas == [-2, 0, 0, 2]
    g = game(rs, hands, wall="1s", options={"everyone": True})
    act(g, "0 discard 5p")
    act(g, "2 pass")
    act(g, "3 hu")
    assert g.result.deltas == [-2, -1, -1, 4]
