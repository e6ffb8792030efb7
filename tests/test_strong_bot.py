"""The strong bot (bots/): legal play at every seat of every variant with
the invariants kept, its choices on hand-built positions, and that it
decides from what its seat may see only."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from invariants import check_conservation, check_end
from runtime import analysis
from runtime.bots import make_bot
from runtime.game import Game, deal
from runtime.registry import load, names
from runtime.tiles import NAMES, counts_of, parse_group
from test_invariants import random_table

from bots.shape import Plan, STD, keys_of, plan_shanten, standard
from bots.strong import Evaluator, StrongBot
from bots.value import exact_ready

VARIANTS = names()


# ------------------------------------------------------------ legality


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_strong_bots_at_every_seat_play_legally_and_keep_the_invariants(variant, seed):
    rng = random.Random(seed)
    table = random_table(variant, rng)
    game = deal(table, seed, dealer=rng.randrange(table.players))
    bots = [make_bot("strong", f"{seed}/{s}") for s in range(table.players)]
    while not game.over:
        for seat in game.to_act():
            action = bots[seat].choose(game, seat)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)  # raises on an illegal action
            check_conservation(game)
            if game.over:
                break
    check_end(game)


def test_the_strong_bot_is_registered_and_deterministic():
    table = load("kunming").configure()
    runs = []
    for _ in range(2):
        game = deal(table, "same")
        bots = [make_bot("strong", f"x/{s}") for s in range(4)]
        while not game.over:
            for seat in game.to_act():
                game.apply(seat, bots[seat].choose(game, seat))
                if game.over:
                    break
        runs.append(game.log)
    assert runs[0] == runs[1]


# ------------------------------------------------------------ shape arithmetic


def test_plan_shanten_agrees_with_the_runtime():
    from runtime import hand as hm

    rng = random.Random(7)
    deck = [t for t in range(34) for _ in range(4)]
    for _ in range(500):
        n = rng.choice([13, 14, 10, 11, 7])
        counts = counts_of(rng.sample(deck, n))
        melds = (14 - n) // 3 if n < 13 else 0
        assert standard(keys_of(counts), (0, 1, 2, 3), melds) == hm.standard_shanten(counts, melds)
        assert plan_shanten(Plan((0, 1, 2, 3), STD), keys_of(counts), counts, melds, True) == hm.standard_shanten(counts, melds)


# ------------------------------------------------------------ hand-built positions


def _game(variant, mine, seed=1, options=None, seat=0, dealer=0):
    """A hand where `seat` holds `mine` and the others hold hands that
    are not ready (so the dealer's first turn comes straight away)."""
    table = load(variant).configure(options)
    deck = list(table.wall_tiles())
    for t in mine:
        deck.remove(t)
    rng = random.Random(seed)
    n = table.players
    sizes = [table.ruleset.dealer_tiles if s == dealer else table.ruleset.other_tiles for s in range(n)]
    while True:
        rng.shuffle(deck)
        hands, pos = [], 0
        for s in range(n):
            if s == seat:
                hands.append(list(mine))
            else:
                hands.append(deck[pos : pos + sizes[s]])
                pos += sizes[s]
        if all(s == seat or not analysis.waits(table, counts_of(h), []) for s, h in enumerate(hands)):
            return Game(table, hands, deck[pos:], dealer=dealer)


def _ukeire(table, counts) -> int:
    s = analysis.shanten(table, counts, [])
    out = 0
    for t in table.tile_kinds:
        if counts[t] < 4:
            counts[t] += 1
            out += (4 - counts[t] + 1) if analysis.shanten(table, counts, []) < s else 0
            counts[t] -= 1
    return out


def test_the_discard_that_keeps_the_most_effective_tiles():
    mine = parse_group("1p3p4p4p5p8p9p2s3s4s5s6s6s9s")
    game = _game("yunnan_ka_er_tiao", mine)
    assert game.phase == "turn" and game.current == 0
    choice = StrongBot().choose(game, 0)
    counts = game.seats[0].counts
    scored = {}
    for t in set(mine):
        counts[t] -= 1
        scored[t] = (analysis.shanten(game.table, counts, []), -_ukeire(game.table, counts))
        counts[t] += 1
    best = min(scored.values())
    assert choice.verb == "discard" and scored[choice.tile] == best, (str(choice), scored[choice.tile], best)
    assert NAMES[choice.tile] == "1p"  # 2 from ready with 49 tiles to draw; 9s, the greedy bot's discard, keeps 45
    assert make_bot("greedy").choose(game, 0) != choice


def test_a_safe_tile_against_a_declared_ready_hand():
    mine = parse_group("1p3p4p4p5p8p9p2s3s4s5s6s6s9s")

    def position(declared: bool):
        game = _game("yunnan_ka_er_tiao", mine)
        if declared:  # seat 1 declared ready with 7s; seat 2 then discarded 6s and seat 1 did not win on it
            st1 = game.seats[1]
            st1.declared = True
            st1.locked = True
            st1.discards, st1.claimed = parse_group("7s"), [False]
            game.seats[2].discards, game.seats[2].claimed = parse_group("6s"), [False]
            game.events += [{"type": "discard", "seat": 1, "tile": "7s", "ready": True},
                            {"type": "discard", "seat": 2, "tile": "6s"}]
        game.front = len(game.wall) - 8  # late in the hand
        game._legal = {}
        return game

    assert str(StrongBot().choose(position(False), 0)) == "discard 1p"
    game = position(True)
    assert str(StrongBot().choose(game, 0)) == "discard 6s"  # it let 6s pass: his waits do not hold it
    danger = Evaluator(game, 0).danger
    assert danger.cost(parse_group("6s")[0]) < 0.1 * danger.cost(parse_group("5p")[0])


def test_the_void_suit_is_chosen_by_value_and_shed_first():
    mine = parse_group("1m5m9m5p5p1s2s3s4s5s6s7s8s")
    game = _game("sichuan_xuezhan", mine, seed=2, options={"huan_san_zhang": False}, seat=1)
    assert game.phase == "start" and {str(a) for a in game.legal_actions(1)} == {"void m", "void p", "void s"}
    # three scattered 万 go, the 筒 pair stays; the greedy bot voids the suit it holds fewest of
    assert str(StrongBot().choose(game, 1)) == "void m"
    assert str(make_bot("greedy").choose(game, 1)) == "void p"

    # in play, every discard is of the void suit while one is held, and no strong hand ends holding one
    table = load("sichuan_xuezhan").configure()
    for i in range(3):
        game = deal(table, f"void-{i}", dealer=i % 4)
        bots = [make_bot("strong", f"{i}/{s}") for s in range(4)]
        while not game.over:
            for seat in game.to_act():
                action = bots[seat].choose(game, seat)
                st_ = game.seats[seat]
                void = st_.choices.get("void")
                if action.verb == "discard" and void:
                    held = [t for t in range(34) if st_.counts[t] and NAMES[t][1] == void]
                    assert not held or NAMES[action.tile][1] == void
                game.apply(seat, action)
                if game.over:
                    break


def test_the_exchange_passes_the_suit_it_will_void():
    mine = parse_group("1m5m9m5p5p1s2s3s4s5s6s7s8s")
    game = _game("sichuan_xuezhan", mine, seed=2, seat=1)
    assert game.phase == "start" and game.start_stage == "exchange"
    choice = StrongBot().choose(game, 1)
    assert choice.verb == "exchange" and "".join(NAMES[t] for t in choice.extra) == "1m5m9m"


def test_a_ready_hand_below_the_minimum_is_worth_nothing():
    # MCR: 1m2m3m 5m6m7m 2p3p4p 6s7s8s 9p waits on 9p alone: a few fans, under 8
    table = load("mcr").configure()
    game = deal(table, "min")
    ev = Evaluator(game, 0)
    low = counts_of(parse_group("1m2m3m5m6m7m2p3p4p6s7s8s9p"))
    assert all(ron == 0 and tsumo == 0 for _, _, ron, tsumo in exact_ready(table, ev.k, low, [], False, ev.money))
    # the same tiles with the minimum lowered: the waits pay
    table0 = load("mcr").configure({"min_fan": 0})
    game0 = deal(table0, "min")
    ev0 = Evaluator(game0, 0)
    assert any(ron > 0 for _, _, ron, _ in exact_ready(table0, ev0.k, low, [], False, ev0.money))
    # a half flush of pungs is ready for 8 and more
    high = counts_of(parse_group("1m1m1m5m5m5m9m9m9m1z1z2z2z"))
    assert all(ron > 0 for _, _, ron, _ in exact_ready(table, ev.k, high, [], False, ev.money))


def test_declares_ready_where_a_win_needs_it():
    # erren_136 (bao_ting): discarding 9p leaves 1m2m3m 4m5m6m 7p8p9p 2s3s4s 5z, waiting on 5z
    mine = parse_group("1m2m3m4m5m6m7p8p9p9p2s3s4s5z")
    game = _game("erren_136", mine)
    acts = {str(a) for a in game.legal_actions(0)}
    assert "ready 9p" in acts
    assert str(StrongBot().choose(game, 0)).startswith("ready")


def test_declares_ready_at_the_opening_where_it_pays_and_stays_free_where_it_only_locks():
    # erren_mcr72: 1m…9m 1z1z1z 2z 5z; discarding 2z or 5z leaves a ready hand.
    # With the dealer's first discard the declaration is 天听 (16 fan,
    # MCR72-31); later it only locks the hand (MCR72-21): the bot stays free.
    mine = parse_group("1m2m3m4m5m6m7m8m9m1z1z1z2z5z")
    game = _game("erren_mcr72", mine)
    assert {"ready 2z", "ready 5z"} <= {str(a) for a in game.legal_actions(0)}
    assert str(StrongBot().choose(game, 0)) in ("ready 2z", "ready 5z")
    later = _game("erren_mcr72", mine)
    later.seats[0].has_discarded = True
    later.turn_kind = "draw"
    later._legal = {}
    assert {"ready 2z", "ready 5z"} <= {str(a) for a in later.legal_actions(0)}
    assert str(StrongBot().choose(later, 0)) in ("discard 2z", "discard 5z")


def test_doubles_a_few_times_a_hand_at_most():
    # MCR72-10 sets no limit on 加倍; the bot stakes a win on one more only
    # while it has doubled fewer than MAX_DOUBLINGS times
    from bots import strong

    assert strong._doubles(100.0, 0.9, 60.0, 0)
    assert not strong._doubles(100.0, 0.9, 60.0, strong.MAX_DOUBLINGS)
    assert not strong._doubles(100.0, 0.5, 60.0, 0)  # the later win too unsure


# ------------------------------------------------------------ hidden information


class _Hidden(list):
    """Raises when read, but for `public` positions (the face-up tail)."""

    public = range(0)

    def __getitem__(self, i):
        wanted = range(*i.indices(len(self))) if isinstance(i, slice) else range(i, i + 1)
        if all(j in self.public for j in wanted):
            return list.__getitem__(self, i)
        raise AssertionError("the bot read another seat's concealed tiles or the wall")

    def __iter__(self):
        raise AssertionError("the bot read another seat's concealed tiles or the wall")


@pytest.mark.parametrize("variant", ["yunnan_ka_er_tiao", "chuxiong_yuxi", "kunming", "mcr", "sichuan_xueliu", "erren_mcr72"])
def test_the_bot_decides_from_what_its_seat_sees(variant):
    table = load(variant).configure()
    game = deal(table, "hidden")
    bots = [make_bot("strong", s) for s in range(table.players)]
    decisions = 0
    while not game.over and decisions < 120:
        for seat in game.to_act():
            game.legal_actions(seat)  # the runtime's own work on the seat's options, done first
            saved = [(s, st_.counts) for s, st_ in enumerate(game.seats) if s != seat]
            wall = game.wall
            for s, counts in saved:
                game.seats[s].counts = _Hidden(counts)
            game.wall = _Hidden(wall)
            game.wall.public = range(max(game.front, game.back - table.face_up), game.back)
            try:
                action = bots[seat].choose(game, seat)
            finally:
                for s, counts in saved:
                    game.seats[s].counts = counts
                game.wall = wall
            game.apply(seat, action)
            decisions += 1
            if game.over:
                break
    assert decisions > 10
