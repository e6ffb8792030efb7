"""The generic mechanisms the two-player rulesets need, each on its own with
small variants compiled from inline YAML: flower replacement (补花),
deferring a win to double (加倍), ready declarations at the opening and a
declarer's sight of the other hands, first-turn facts, special sets (旋风杠,
喜杠), kong payments by tile, and a table fee paid to the house."""

from __future__ import annotations

import pytest

from mjc.handjson import score_hand
from runtime.actions import Action, parse_action
from runtime.game import IllegalAction
from runtime.tiles import INDEX
from runtime.views import event_for
from support import act, compile_ruleset, game, pass_others, verbs

# 72 tiles: characters, honours and the eight flowers; two players.
FLOWER_TABLE = """
title: {zh: 测试, en: Test}
players: {allowed: [2], default: 2}
tiles: {suits: [m], honours: 1234567z, flowers: 12345678f}
deal: {dealer: 14, others: 13}
options:
  stake: {zh: 倍场, type: int, values: [1, 100], default: 1}
  table_fee: {zh: 台费, type: int, minimum: 0, default: 0}
claims: {chow: true}
ready: {declare: any_turn, locks_hand: true, kong: never, forbids: [pong, chow]}
observation: {ready_player_sees_opponent: true}
winning:
  double: true
scoring:
  unit: fan
  final: total * 2 ** winner.doublings
  fans:
    base: {zh: 底, value: 1}
    flower: {zh: 花牌, value: 1, count: hand.flowers}
    kong_flower: {zh: 杠上开花, value: 8, when: win.kong_replacement}
    heavenly: {zh: 天胡, value: 48, when: win.first_own_draw and winner.is_dealer}
    earthly: {zh: 地胡, value: 32, when: "win.first_own_draw and not winner.is_dealer and game.melds == 0"}
    human: {zh: 人胡, value: 24, when: "win.first_discard and game.melds == 0"}
    opening_ready: {zh: 天听, value: 16, when: winner.declared_at_opening}
settlement:
  win: {amount: "total * options.stake"}
  table_fee: options.table_fee
"""


@pytest.fixture(scope="module")
def fl():
    return compile_ruleset(FLOWER_TABLE, "flower_table")


def fans(g, seat):
    return {f.id: c for f, _, c in g.result.valuations[seat].fans}


# ---------------------------------------------------------------- 补花


def test_opening_flowers_dealer_first_then_in_turn_from_the_end(fl):
    g = game(fl, {0: "111m 222m 333m 4m 5z 6z 1f 2f", 1: "555m 666m 777m 1z 2z 3z 3f"},
             wall="8m 8m 8m 1z 7z 4f 4z")
    got = [(e["type"], e.get("seat"), e.get("tile")) for e in g.events[1:]]
    assert got == [
        ("flower", 0, "1f"), ("replacement", 0, "4z"),
        ("flower", 0, "2f"), ("replacement", 0, "4f"),
        ("flower", 0, "4f"), ("replacement", 0, "7z"),  # a replaced flower is replaced again
        ("flower", 1, "3f"), ("replacement", 1, "1z"),
    ]
    assert [f for f in g.seats[0].flowers] == [INDEX["1f"], INDEX["2f"], INDEX["4f"]]
    assert g.seats[1].flowers == [INDEX["3f"]]
    assert sum(g.seats[0].counts) == 14 and sum(g.seats[1].counts) == 13
    assert g.seats[0].drawn == INDEX["7z"]  # the dealer's last tile was a flower
    assert g.wall[g.front:g.back] == [INDEX["8m"]] * 3


def test_a_flower_drawn_in_play_is_replaced_and_the_win_is_still_the_first_draw(fl):
    # seat 1 waits on 2z alone; its first draw is 5f, replaced by 2z from the end
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 2z"}, wall="5f 9m 9m 2z")
    pass_others(g)  # seat 1 does not declare at the opening
    act(g, "0 discard 6z")
    assert g.current == 1 and g.turn_kind == "draw"
    assert g.seats[1].flowers == [INDEX["5f"]]
    assert {"hu", "double"} <= verbs(g, 1)
    act(g, "1 hu")
    assert fans(g, 1) == {"base": 1, "flower": 1, "earthly": 1}  # not a kong replacement (MCR72-59, MCR72-29)
    assert g.result.valuations[1].total == 1 + 1 + 32


def test_a_flower_replacing_a_kong_keeps_the_kong_replacement(fl):
    g = game(fl, {0: "1111m 456m 789m 111z 2z", 1: "333m 555m 777m 33z 4z 6z"}, wall="9m 9m 2z 6f")
    act(g, "0 kong 1m")
    assert g.seats[0].flowers == [INDEX["6f"]] and g.turn_kind == "replacement"
    act(g, "0 hu")
    assert fans(g, 0) == {"base": 1, "flower": 1, "kong_flower": 1}  # no 天胡 after a kong (MCR72-28)


def test_flower_events_show_the_flower_and_hide_the_replacement(fl):
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 2z"}, wall="5f 9m 9m 2z")
    pass_others(g)
    act(g, "0 discard 6z")
    flower = next(e for e in g.events if e["type"] == "flower")
    repl = next(e for e in g.events if e["type"] == "replacement")
    assert event_for(flower, 0) == flower  # the flower is public
    assert "tile" not in event_for(repl, 0) and event_for(repl, 1)["tile"] == "2z"
    assert g.view(0)["seats"][1]["flowers"] == ["5f"]


def test_a_flower_with_nothing_left_to_replace_it_ends_the_hand(fl):
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 2z"}, wall="5f")
    pass_others(g)
    act(g, "0 discard 6z")
    assert g.over and g.result.end == "draw" and g.seats[1].flowers == [INDEX["5f"]]


# ---------------------------------------------------------------- 加倍


def test_doubling_a_self_draw_forgoes_it_and_doubles_the_later_win(fl):
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 2z"}, wall="2z 5z 2z 5z")
    pass_others(g)
    act(g, "0 discard 6z")
    act(g, "1 double")
    assert g.seats[1].doublings == 1 and g.phase == "turn" and g.current == 1
    assert "hu" not in verbs(g, 1) and "double" not in verbs(g, 1)
    act(g, "1 discard 2z")
    act(g, "0 discard 5z")
    assert verbs(g, 1) >= {"hu", "double"}
    act(g, "1 hu")
    assert g.result.valuations[1].total == 2  # (base 1) x 2
    assert g.result.deltas == [-2, 2]
    assert [e for e in g.events if e["type"] == "double"] == [{"type": "double", "seat": 1, "doublings": 1}]


def test_doubling_on_a_discard_passes_it(fl):
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 6z"}, wall="6z 9m")
    pass_others(g)
    act(g, "0 discard 6z")
    assert verbs(g, 1) == {"hu", "double", "pass"}
    act(g, "1 double")
    assert g.phase == "turn" and g.current == 1 and g.seats[1].doublings == 1  # seat 1 drew 6z
    act(g, "1 hu")
    # seat 1's first draw won: 地胡, (base 1 + 32) doubled once
    assert fans(g, 1) == {"base": 1, "earthly": 1} and g.result.valuations[1].total == 66


def test_a_locked_ready_hand_discards_its_draw_and_may_still_double(fl):
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 2z"}, wall="9m 9m 2z")
    act(g, "1 ready")
    assert g.seats[1].declared and g.seats[1].opening_ready
    act(g, "0 discard 6z")
    assert g.legal_actions(1) == [Action("discard", INDEX["9m"])]
    assert g.forced_action(1) == Action("discard", INDEX["9m"])
    act(g, "1 discard 9m")
    act(g, "0 discard 9m")
    assert verbs(g, 1) == {"hu", "double", "discard 2z"}
    act(g, "1 hu")
    assert fans(g, 1) == {"base": 1, "opening_ready": 1}


# ---------------------------------------------------------------- ready at the opening, and sight


def test_opening_declarations(fl):
    # the dealer declares with his first discard: 天听; after a kong it is not
    g = game(fl, {0: "123m 456m 789m 111z 2z 5z", 1: "333m 555m 777m 33z 44z"}, wall="9m 9m 2z")
    pass_others(g)
    assert "ready 5z" in verbs(g, 0)
    act(g, "0 ready 5z")
    assert g.seats[0].opening_ready
    g = game(fl, {0: "1111m 456m 789m 11z 25z", 1: "333m 555m 777m 33z 44z"}, wall="9m 9m 6z 2z")
    pass_others(g)
    act(g, "0 kong 1m")
    act(g, "0 ready 5z")
    assert g.seats[0].declared and not g.seats[0].opening_ready
    # a non-dealer declaring with a later discard is not at the opening
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 6z"}, wall="2z 9m")
    pass_others(g)
    act(g, "0 discard 6z")
    act(g, "1 pass")
    act(g, "1 ready 6z")
    assert g.seats[1].declared and not g.seats[1].opening_ready


def test_a_declared_player_sees_the_other_hand(fl):
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 2z"}, wall="9m 9m 2z")
    assert "opponent_hands" not in g.view(1)
    act(g, "1 ready")
    assert sorted(g.view(1)["opponent_hands"]["0"]) == sorted("3m 3m 3m 5m 5m 5m 7m 7m 7m 3z 3z 4z 4z 6z".split())
    assert "opponent_hands" not in g.view(0)


def test_declaring_only_at_tables_that_offer_it():
    rs = compile_ruleset(FLOWER_TABLE.replace(
        "ready: {declare: any_turn, locks_hand: true, kong: never, forbids: [pong, chow]}",
        "ready: {declare: any_turn, when: options.bao}",
    ).replace("options:", "options:\n  bao: {zh: 报听, type: bool, default: true}"), "ready_when")
    hands = {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 2z"}
    assert game(rs, hands, wall="9m").phase == "start"
    g = game(rs, hands, wall="9m", options={"bao": False})
    assert g.phase == "turn" and not any(v.startswith("ready") for v in verbs(g, 0))
    assert "ready" in rs.verbs


# ---------------------------------------------------------------- first-turn facts


def test_heavenly_win_on_the_deal(fl):
    g = game(fl, {0: "123m 456m 789m 111z 22z", 1: "333m 555m 777m 33z 44z"}, wall="9m")
    pass_others(g)
    act(g, "0 hu")
    assert fans(g, 0) == {"base": 1, "heavenly": 1}
    assert g.result.deltas == [49, -49]


def test_human_win_on_the_first_discard_unless_the_dealer_konged(fl):
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 6z"}, wall="9m")
    pass_others(g)
    act(g, "0 discard 6z")
    act(g, "1 hu")
    assert fans(g, 1) == {"base": 1, "human": 1}
    g = game(fl, {0: "3333m 555m 777m 33z 4z 6z", 1: "123m 456m 789m 111z 6z"}, wall="9m 4z")
    pass_others(g)
    act(g, "0 kong 3m")
    act(g, "0 discard 6z")
    act(g, "1 hu")
    assert fans(g, 1) == {"base": 1}  # game.melds is 1
    assert g.result.valuations[1].facts.first_discard


def test_first_own_draw_after_the_dealers_concealed_kong(fl):
    # no 地胡 under "no meld by anyone" (game.melds), though no claim was made
    g = game(fl, {0: "3333m 555m 777m 33z 4z 6z", 1: "123m 456m 789m 111z 2z"}, wall="2z 9m 4z")
    pass_others(g)
    act(g, "0 kong 3m")
    act(g, "0 discard 6z")
    act(g, "1 hu")
    assert fans(g, 1) == {"base": 1}
    facts = g.result.valuations[1].facts
    assert facts.first_draw and facts.game_claims == 0 and facts.game_melds == 1


# ---------------------------------------------------------------- special sets

SPECIAL = """
title: {zh: 测试, en: Test}
players: {allowed: [2], default: 2}
tiles: {suits: [m, p, s], honours: 1234567z}
deal: {dealer: 14, others: 13}
wall: {reserved_tail: 2}
special_sets:
  whirlwind: {zh: 旋风杠, groups: [1234z], counts_as: kong, payment: 1}
  happy: {zh: 喜杠, groups: [1m1p1s, 9m9p9s], payment: 1}
ready: {declare: any_turn}
settlement:
  kongs:
    timing: immediate
    direct: {payers: discarder, amount: "2 if kong.tile in [1s, 1p, 5z, 6z, 7z] else 1"}
    added: {payers: others, amount: "2 if kong.tile in [1s, 1p, 5z, 6z, 7z] else 1"}
    concealed: {payers: others, amount: "4 if kong.tile in [1s, 1p, 5z, 6z, 7z] else 2"}
scoring:
  unit: fan
  fans:
    base: {zh: 底, value: 1}
    all_pungs: {zh: 飘胡, value: 2, when: "shape.standard and sets.pungs == 4"}
    concealed_hand: {zh: 门前清, value: 1, when: melds.count == 0}
    special: {zh: 特殊杠, value: 1, count: melds.special}
    kong_flower: {zh: 杠上开花, value: 1, when: win.kong_replacement}
    heavenly: {zh: 天胡, value: 4, when: win.first_own_draw and winner.is_dealer}
"""


@pytest.fixture(scope="module")
def sp():
    return compile_ruleset(SPECIAL, "special_sets")


def test_special_sets_from_the_starting_hand(sp):
    g = game(sp, {0: "1234z 1m1p1s 222m 333p 5s", 1: "444m 555m 666m 777p 8p"}, wall="9s 9s 9s 7z 6s 5s 6z 6z")
    pass_others(g)
    assert {"kong 1234z", "kong 1m1p1s"} <= verbs(g, 0)
    act(g, "0 kong 1234z")  # four tiles: a replacement from the tail, before the 2 reserved tiles
    assert g.turn_kind == "replacement" and g.seats[0].drawn == INDEX["5s"]
    assert [p.to_json() for p in g.payments] == [{"from": 1, "to": 0, "amount": 1, "reason": "kong"}]
    act(g, "0 kong 1m1p1s")  # three tiles: no replacement, the turn goes on
    assert g.phase == "turn" and g.current == 0 and len(g.payments) == 2
    assert sum(g.seats[0].counts) + 3 * len(g.seats[0].melds) == 14
    assert [m.to_json() for m in g.seats[0].melds] == [
        {"type": "kong", "tiles": ["1z", "2z", "3z", "4z"], "exposed": True, "kind": "whirlwind"},
        {"type": "kong", "tiles": ["1m", "1p", "1s"], "exposed": True, "kind": "happy"},
    ]
    act(g, "0 hu")  # 222m 333p 55s + the two sets: a win on the whirlwind's replacement
    assert fans(g, 0) == {"base": 1, "special": 2, "kong_flower": 1}  # the happy set is no pung: no 飘胡
    assert g.result.deltas == [2 + 4, -6]



def _play_out(g) -> None:
    """Every seat passes its claims and discards the tile it drew."""
    while not g.over:
        for seat in g.to_act():
            acts = g.legal_actions(seat)
            g.apply(seat, Action("pass") if Action("pass") in acts else Action("discard", g.seats[seat].drawn))


def test_tiles_left_undrawn_end_the_hand_while_replacements_come_from_the_end():
    """wall.left_undrawn (ER-15 with ER-12): the hand ends when that many
    tiles are left, and a kong's replacement is the wall's very last tile."""
    u = compile_ruleset(SPECIAL.replace("wall: {reserved_tail: 2}", "wall: {left_undrawn: 2}"), "left_undrawn")
    g = game(u, {0: "1234z 222m 333p 55s 9s 1m", 1: "444m 555m 666m 777p 8p"}, wall="9s 2s 9s 7z 6s 5s 4s 6z")
    pass_others(g)
    act(g, "0 kong 1234z")
    assert g.seats[0].drawn == INDEX["6z"]  # the last tile, not the one before the 2 left undrawn
    assert g.drawable() == 5
    _play_out(g)
    assert g.result.end == "draw"
    assert g.wall[g.front : g.back] == [INDEX["5s"], INDEX["4s"]]  # never drawn


@pytest.mark.parametrize("undrawn, kong", [(2, False), (1, True)])
def test_no_kong_once_only_the_undrawn_tiles_are_left(undrawn, kong):
    u = compile_ruleset(SPECIAL.replace("wall: {reserved_tail: 2}", f"wall: {{left_undrawn: {undrawn}}}"), "left_undrawn")
    g = game(u, {0: "222m 333p 55s 9s 1m 4z 5z 6z 7z", 1: "444m 555m 666m 777p 8p"}, wall="9s 2m 2s 6s")
    pass_others(g)
    act(g, "0 discard 7z")
    pass_others(g)
    act(g, "1 discard 9s")
    pass_others(g)
    assert g.seats[0].counts[INDEX["2m"]] == 4 and g.drawable() == 2 - undrawn
    assert ("kong 2m" in verbs(g, 0)) is kong

def test_special_sets_only_before_the_first_discard_and_never_once_declared(sp):
    g = game(sp, {0: "1234z 1m1p 222m 333p 5s 9s", 1: "444m 555m 666m 777p 1s"}, wall="9s 9s 9s 9m 5s 5s 6s 6z 6z")
    pass_others(g)
    act(g, "0 discard 9s")
    act(g, "1 discard 9s")
    assert not any(v.startswith("kong 1234z") for v in verbs(g, 0))
    with pytest.raises(IllegalAction, match="only from the starting hand"):
        g.apply(0, parse_action("kong 1234z"))
    # seat 1 declares at the opening: on its first draw it holds 1m 1p 1s but may not lay them down
    g = game(sp, {0: "1234z 222m 333p 555s 6s", 1: "123m 111p 11s 456s 78s"}, wall="9m 9s 9s 9m 5s 5s 6s 6z 6z")
    act(g, "1 ready")
    act(g, "0 discard 1z")
    assert g.current == 1 and not g.seats[1].has_discarded
    assert not any(v.startswith("kong") for v in verbs(g, 1))


def test_a_four_tile_special_set_needs_a_replacement(sp):
    g = game(sp, {0: "1234z 1m1p1s 222m 333p 5s", 1: "444m 555m 666m 777p 8p"}, wall="6z 6z")
    pass_others(g)
    assert "kong 1234z" not in verbs(g, 0) and "kong 1m1p1s" in verbs(g, 0)


def test_a_special_set_counting_as_a_kong_makes_all_pungs(sp):
    table = sp.configure()
    hand = {"concealed": "222m333p444s5s", "win_tile": "5s", "self_drawn": True,
            "melds": [{"type": "kong", "kind": "whirlwind", "tiles": "1234z"}]}
    out = score_hand(hand, sp)
    assert {f["id"] for f in out["fans"]} == {"base", "all_pungs", "special"}
    hand["melds"] = [{"type": "kong", "kind": "happy", "tiles": "1m1p1s"}]
    assert {f["id"] for f in score_hand(hand, sp)["fans"]} == {"base", "special"}
    hand["melds"] = [{"type": "kong", "kind": "happy", "tiles": "1m1p9s"}]
    assert "the special set happy is one of: 1m1p1s, 9m9p9s" in score_hand(hand, sp)["error"]
    assert table.special_by_id["whirlwind"].counts_as == "kong"


def test_kong_payments_by_tile(sp):
    g = game(sp, {0: "5555z 2222m 333p 5s 6s 7s", 1: "1s1s1s 444m 555m 777p 8p"}, wall="1s 9s 9s 9m 5s 7s 6s 6z 6z")
    pass_others(g)
    act(g, "0 kong 5z")
    act(g, "0 kong 2m")
    assert [p.amount for p in g.payments] == [4, 2]  # 暗大杠 4, 暗杠 2
    act(g, "0 discard 6s")
    act(g, "1 discard 8p")  # seat 1 drew the fourth 1s: it may kong it later
    act(g, "0 discard 5s")
    act(g, "1 kong 1s")
    assert [p.amount for p in g.payments] == [4, 2, 4]


def test_the_kong_amount_function_sees_the_tile(sp):
    from runtime.facts import KongFacts

    table = sp.configure()
    fn = table.kong_pay["direct"][1]
    assert fn(KongFacts(type("G", (), {"n": 2})(), 0, "direct", INDEX["1p"]), table.o) == 2
    assert fn(KongFacts(type("G", (), {"n": 2})(), 0, "direct", INDEX["1m"]), table.o) == 1


# ---------------------------------------------------------------- 台费


def test_table_fee_goes_to_the_house_win_or_draw(fl):
    g = game(fl, {0: "123m 456m 789m 111z 22z", 1: "333m 555m 777m 33z 44z"}, wall="9m",
             options={"stake": 100, "table_fee": 7})
    pass_others(g)
    act(g, "0 hu")
    assert g.result.deltas == [49 * 100 - 7, -49 * 100 - 7]
    lines = [p.to_json() for p in g.result.payments]
    assert {"from": 0, "to": None, "amount": 7, "reason": "table_fee"} in lines
    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "124m 456m 789m 111z 2z"}, wall="9m",
             options={"table_fee": 3})
    pass_others(g)
    act(g, "0 discard 6z")
    act(g, "1 discard 9m")
    assert g.result.end == "draw" and g.result.deltas == [-3, -3]


def test_restored_game_keeps_the_new_state(fl):
    from runtime.game import Game

    g = game(fl, {0: "333m 555m 777m 33z 44z 6z", 1: "123m 456m 789m 111z 6z"}, wall="9m 6z 6z 3f")
    act(g, "1 ready")
    act(g, "0 discard 6z")
    act(g, "1 double")
    data = g.to_json()
    r = Game.from_json(data, g.table)
    assert r.to_json() == data
    assert r.seats[1].doublings == 1 and r.seats[1].opening_ready


def test_hand_json_flags_for_first_turns_and_doublings(fl):
    base = {"concealed": "123m456m789m111z2z", "win_tile": "2z", "self_drawn": True, "seat_wind": "2z"}
    assert {f["id"] for f in score_hand(base, fl)["fans"]} == {"base"}
    out = score_hand({**base, "flags": {"first_turn": True}}, fl)  # first_draw follows first_turn
    assert {f["id"] for f in out["fans"]} == {"base", "earthly"}
    out = score_hand({**base, "flags": {"declared_at_opening": True, "doublings": 2}, "flowers": ["1f", "5f"]}, fl)
    assert {f["id"] for f in out["fans"]} == {"base", "flower", "opening_ready"} and out["total"] == (1 + 2 + 16) * 4
    assert "doublings" in score_hand({**base, "flags": {"doublings": -1}}, fl)["error"]
