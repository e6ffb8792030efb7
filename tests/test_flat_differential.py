"""The fan table's fast form against its readable form, on every compiled
variant: the same result objects for random hands, the same events for
seeded bot games.

The fast form (runtime/flat.py, FLAT_FANS in each generated module,
per-straight knitted waits, per-suit split rows) is what runs; the
readable form (MJC_READABLE_SCORING=1) is the reference it must equal.

CI runs a slice. The full count, 10,000 hands and 200 games per variant:

    MJC_LONG=1 python -m pytest -q -p no:cacheprovider tests/test_flat_differential.py
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from flat_hands import random_hand
from mjc.handjson import score_hand
from runtime import scoring_form
from runtime.bots import make_bot
from runtime.game import deal
from runtime.registry import load, packaged_names

LONG = os.environ.get("MJC_LONG") == "1"
HANDS = 10_000 if LONG else 600
GAMES = 200 if LONG else 6
VARIANTS = packaged_names()


def _in_form(readable: bool, fn):
    before = scoring_form.set_readable(readable)
    try:
        return fn()
    finally:
        scoring_form.set_readable(before)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_hands_score_the_same_in_both_forms(variant):
    rs = load(variant)
    table = rs.configure({})
    rng = random.Random(f"flat-{variant}")
    fast_cache: dict = {}
    readable_cache: dict = {}
    outcomes: Counter = Counter()
    fans_seen: set = set()
    for _ in range(HANDS):
        hand = random_hand(table, rng)
        fast = _in_form(False, lambda: score_hand(hand, rs, fast_cache))
        readable = _in_form(True, lambda: score_hand(hand, rs, readable_cache))
        if fast != readable:
            pytest.fail(f"{json.dumps(hand, ensure_ascii=False)}\n  fast:     {fast}\n  readable: {readable}")
        outcomes[fast["ok"]] += 1
        fans_seen.update(f["id"] for f in fast.get("fans", ()))
    # the hands exercise the table: most win, and many different fans come up
    assert outcomes[True] > HANDS * 0.6, outcomes
    assert len(fans_seen) >= min(len(rs.scoring.fans) // 2, 8), sorted(fans_seen)


def _play(variant: str, i: int) -> tuple[list, dict]:
    rs = load(variant)
    rng = random.Random(f"{variant}-{i}")
    table = rs.configure({}, rng.choice(rs.players))
    game = deal(table, f"flat-{i}", dealer=rng.randrange(table.players))
    kind = "greedy" if i % 2 else "random"
    bots = [make_bot(kind, f"{i}/{s}") for s in range(table.players)]
    while not game.over:
        for seat in game.to_act():
            game.apply(seat, bots[seat].choose(game, seat))
            if game.over:
                break
    return game.events, game.to_json()


@pytest.mark.parametrize("variant", VARIANTS)
def test_seeded_games_have_the_same_events_in_both_forms(variant):
    wins = 0
    for i in range(GAMES):
        fast = _in_form(False, lambda: _play(variant, i))
        readable = _in_form(True, lambda: _play(variant, i))
        assert fast[0] == readable[0], f"game {i}: the events differ"
        assert fast[1] == readable[1], f"game {i}: the final states differ"
        wins += any(e["type"] == "hu" for e in fast[0])
    assert wins > 0, "no game was won: nothing was scored"


def test_the_form_is_chosen_at_run_time():
    """evaluate(readable=...) overrides the module's choice for one call
    and leaves it as it was."""
    from benchmarks import pymahjonggb as mcr_hands
    from mjc.handjson import parse_hand
    from runtime.scoring import evaluate

    table = load("mcr").configure({})
    ctx = parse_hand(mcr_hands.random_hand(random.Random(7)), table)
    before = scoring_form.readable()
    a = evaluate(table, ctx, readable=True)
    assert scoring_form.readable() == before
    b = evaluate(table, ctx, readable=False)
    assert scoring_form.readable() == before
    assert a is not None and b is not None and (a.fans, a.total) == (b.fans, b.total)
