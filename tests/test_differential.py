"""The compiled build and the pure one give the same results on random
winning hands and the same events in seeded games, for every variant
(tests/differential.py; the pure side runs in a subprocess with MJC_PURE=1).

CI runs a slice (MJC_DIFF_HANDS / MJC_DIFF_GAMES per variant, default 2,000
and 40); the full counts: `python tests/differential.py --hands 10000 --games 200`."""

from __future__ import annotations

import os
import sys

import pytest

import runtime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402

compiled = runtime.build_info().startswith("compiled")


@pytest.mark.skipif(not compiled, reason=f"the compiled build is not installed here: {runtime.build_info()}")
def test_compiled_and_pure_builds_agree_on_hands_and_games():
    hands = int(os.environ.get("MJC_DIFF_HANDS", "2000"))
    games = int(os.environ.get("MJC_DIFF_GAMES", "40"))
    equal, report, mine, pure = differential.compare(hands, games)
    assert mine["build"].startswith("compiled") and pure["build"] == "pure Python (MJC_PURE=1)", report
    assert len(mine["variants"]) >= 10
    assert equal, report


def test_the_random_hands_are_winning_hands_of_each_variant():
    """Most generated hands score (a few may be refused, e.g. by a variant's
    minimum), so that the comparison is over real results."""
    from mjc.handjson import score_hand
    from runtime.registry import load, packaged_names

    for name in packaged_names():
        rs = load(name)
        hands = differential.winning_hands(rs.configure({}), 200, seed=3)
        results = [score_hand(h, rs, {}) for h in hands]
        scored = [r for r in results if r.get("ok")]
        assert len(scored) >= 150, (name, [r for r in results if not r.get("ok")][:2])
        assert sum(1 for r in scored if r.get("fans")) >= 100, name
