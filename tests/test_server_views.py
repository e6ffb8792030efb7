"""Claim windows do not show: a seat that is not asked is shown the same
sequence of views whether or not another seat could claim (server/present.py).

Fuzzed over every variant in registry.names(): at every discard or added
kong after which some seat may claim (world B), the same state is replayed
in a world A where nobody may claim (the same table with every claim
turned off), and every seat that was not asked — and the spectators — must
be shown exactly the same views in both: the interim view after the move,
then, once every claimer has passed, the next real view. Likewise after the
deal when some seats may declare at the opening. And what the runtime's own
view shows during a real window, made neutral, is the interim view (so the
interim view holds what the seat would see anyway).
"""

from __future__ import annotations

import copy
import os
import random

import pytest

from runtime.actions import PASS
from runtime.bots import make_bot
from runtime.game import Game, deal
from runtime.registry import names
from server.present import Presenter, neutral, real_view
from test_server_hidden import random_table

LONG = os.environ.get("MJC_LONG") == "1"
TABLES = 24 if LONG else 4


def muted(table):
    """The same table where nobody may claim anything."""
    t = copy.copy(table)
    t.chow = t.pong = t.kong_claim = t.hu_on_discard = False
    t.rob_kinds = frozenset()
    t.history_wins = ()
    t.last_discard = frozenset()
    return t


def change(p: Presenter, game, seat: int, action) -> list[list[dict]]:
    """Apply one action and return the views each viewer was shown by it."""
    first = len(game.events)
    game.apply(seat, action)
    p.update(game, game.events[first:], set(game.to_act()))
    return [[v for _, v in p.new[i]] for i in range(game.n + 1)]


def clone(p: Presenter) -> Presenter:
    q = Presenter(p.n)
    q.shown = copy.deepcopy(p.shown)
    q.interim = copy.deepcopy(p.interim)
    return q


def pass_all(p: Presenter, game) -> list[list[dict]] | None:
    """Every claimer passes: the views each viewer is shown, or None where
    a claim cannot be passed (a win the rules force)."""
    seen = [[] for _ in range(game.n + 1)]
    while game.phase == "claim":
        for s in game.to_act():
            if PASS not in game.legal_actions(s):
                return None
            for v, views in enumerate(change(p, game, s, PASS)):
                seen[v].extend(views)
    return seen


def check_window(snap: dict, before: Presenter, after_b: Presenter, game_b, seat: int, action, shown_b):
    """World B opened a window after `action`; world A (nobody may claim) must look the same to the others."""
    claimers = set(game_b.to_act())
    game_a = Game.from_json(snap, muted(game_b.table))
    p_a = clone(before)
    shown_a = change(p_a, game_a, seat, action)
    assert game_a.phase != "claim"
    game_b2 = Game.from_json(game_b.to_json(), game_b.table)
    p_b2 = clone(after_b)
    rest_b = pass_all(p_b2, game_b2)
    if rest_b is None:
        return 0
    claimers |= {s for s, _ in game_b2.log[len(game_b.log):]}
    checked = 0
    for v in range(game_b.n + 1):
        if v in claimers:
            continue
        b, a = shown_b[v] + rest_b[v], shown_a[v]
        if game_a.over or game_b2.over:
            b, a = b[:1], a[:1]  # a last discard: the hand's end may differ (a win forgone is no draw)
        assert b == a, f"viewer {v} sees a claim window: world B showed {b}, world A {a}"
        checked += 1
    # the runtime's view during the window, made neutral, is the interim view
    moment = next(e for e in game_b.events[len(snap["events"]):] if e["type"] in ("discard", "kong"))
    for v in range(game_b.n + 1):
        if v not in claimers:
            real = neutral(real_view(game_b, v), moment)
            real.pop("opponent_hands", None)
            interim = dict(after_b.shown[v])
            interim.pop("opponent_hands", None)
            assert real == interim, f"viewer {v}: interim {interim} differs from the neutral real view {real}"
    return checked


@pytest.mark.parametrize("variant", names())
def test_views_do_not_show_who_may_claim(variant):
    rng = random.Random(f"views/{variant}")
    windows = checked = 0
    for k in range(TABLES):
        table = random_table(variant, rng)
        bots = [make_bot(rng.choice(["random", "greedy"]), rng.random()) for _ in range(table.players)]
        game = deal(table, f"views/{variant}/{k}", rng.randrange(table.players))
        p = Presenter(table.players)
        p.new_hand()
        p.update(game, game.events, set(game.to_act()))
        steps = 0
        while not game.over and steps < 400:
            steps += 1
            seat = game.to_act()[0]
            action = bots[seat].choose(game, seat)
            if game.phase == "turn":
                snap = game.to_json()
                before = clone(p)
                shown = change(p, game, seat, action)
                if game.phase == "claim":
                    windows += 1
                    checked += check_window(snap, before, p, game, seat, action, shown)
            else:
                change(p, game, seat, action)
    assert windows, f"{variant}: no claim window in {TABLES} hands"
    assert checked, f"{variant}: no window could be compared"


def _declaring() -> list[str]:
    from runtime.registry import load

    return [n for n in names() if load(n).configure().declare in ("opening", "any_turn")]


@pytest.mark.parametrize("variant", _declaring())
def test_opening_declarations_do_not_show(variant):
    """After the deal, seats not asked (the dealer among them) are shown the
    same interim view whether or not some seat may declare ready."""
    rng = random.Random(f"opening/{variant}")
    compared = 0
    for k in range(300):
        table = random_table(variant, rng)
        game = deal(table, f"opening/{variant}/{k}", 0)
        if game.phase != "start" or getattr(game, "start_stage", "") != "ready":
            continue
        p = Presenter(table.players)
        p.new_hand()
        p.update(game, game.events, set(game.to_act()))
        asked = set(game.to_act())
        quiet = Game.from_json(game.to_json(), game.table)
        quiet.start_choices = {}
        quiet._begin_turn(quiet.dealer, "deal")
        q = Presenter(table.players)
        q.new_hand()
        q.update(quiet, quiet.events, set(quiet.to_act()))
        for v in range(table.players + 1):
            if v not in asked:
                assert p.new[v][0][1] == q.new[v][0][1], f"viewer {v} can tell that someone may declare"
                compared += 1
        if compared > 20:
            break
    if not compared:
        assert variant != "yunnan_ka_er_tiao", "卡二条 offers opening declarations"
        pytest.skip(f"no opening declaration in 300 deals of {variant}")
