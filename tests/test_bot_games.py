"""1,000 bot games of 云南卡二条 with the invariants checked after every
action: 2, 3 and 4 players, greedy and random bots, random option panels."""

from __future__ import annotations

import random

from invariants import check_conservation, check_end
from runtime.bots import make_bot
from runtime.game import deal
from runtime.registry import load

GAMES = 1000


def test_a_thousand_games_keep_every_invariant():
    rs = load("yunnan_ka_er_tiao")
    rng = random.Random(2026)
    ends = {"win": 0, "draw": 0}
    for i in range(GAMES):
        options = {o.id: rng.choice(list(o.values)) for o in rs.options if o.values}
        table = rs.configure(options, rng.choice(rs.players))
        game = deal(table, f"ci-{i}", dealer=rng.randrange(table.players))
        kind = "greedy" if i % 2 else "random"
        bots = [make_bot(kind, f"{i}/{s}") for s in range(table.players)]
        check_conservation(game)
        while not game.over:
            for seat in game.to_act():
                game.apply(seat, bots[seat].choose(game, seat))
                check_conservation(game)
                if game.over:
                    break
        check_end(game)
        ends[game.result.end] += 1
    assert ends["win"] > GAMES // 4 and ends["draw"] > 0


def test_the_random_bot_draws_as_random_choice():
    """runtime.bots.choice, the random bot's draw, is random.Random.choice:
    the same option from the same generator state, lists of every length."""
    import pytest

    from runtime.bots import choice

    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in list(range(1, 40)) + [63, 64, 65, 127, 128, 129, 1000]:
            options = list(range(n))
            assert choice(ours, options) == theirs.choice(options)
        assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        choice(random.Random(0), [])
