"""Wild tiles in hand analysis: every answer equals brute-force
substitution of the jokers by real tiles."""

from __future__ import annotations

import os
from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from runtime import hand as hm
from runtime import jokers as jk
from runtime.tiles import counts_of, parse_group

KINDS = list(range(34))
# MJC_LONG=1 runs the slow brute-force comparisons at length (3 wilds, more hands)
LONG = bool(os.environ.get("MJC_LONG"))
EXAMPLES = 400 if LONG else 60
MAX_JOKERS = 3 if LONG else 2


def brute(counts, jokers, kinds=KINDS):
    """Complete hands reachable by replacing the jokers with real tiles."""
    out = set()
    for subst in combinations_with_replacement(kinds, jokers):
        full = list(counts[:34])
        for t in subst:
            full[t] += 1
        if max(full) <= 4 and hm.is_standard_win(full):
            out.add(tuple(full))
    return out


def hand_with_jokers(size):
    return st.tuples(
        st.lists(st.sampled_from([t for t in range(34) for _ in range(4)]), min_size=size, max_size=size),
        st.integers(0, 3),
    ).filter(lambda x: max(counts_of(x[0])[:34]) <= 4)


def test_known_hands():
    c = counts_of(parse_group("123m456p789s11z"))
    assert jk.standard_complete(c, 3)  # three jokers make any set
    assert not jk.standard_complete(c, 2)
    assert not jk.standard_complete(counts_of(parse_group("19m19p19s1234z")), 3)
    assert jk.standard_complete(counts_of(parse_group("1m")), 1)  # a pair with a joker
    assert jk.seven_pairs_complete(counts_of(parse_group("1122m3344p5566s7z")), 1)
    assert jk.thirteen_orphans_complete(counts_of(parse_group("19m19p19s1234566z")), 1)
    assert jk.thirteen_orphans_complete(counts_of(parse_group("19m19p19s123456z")), 2)


@settings(max_examples=250, deadline=None)
@given(hand_with_jokers(14))
def test_win_with_jokers_iff_some_substitution_wins(sample):
    tiles, jokers = sample
    tiles = tiles[: 14 - jokers]
    counts = counts_of(tiles)
    assert jk.standard_complete(counts, jokers) == bool(brute(counts, jokers))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([t for t in range(9, 27) for _ in range(4)]), min_size=12, max_size=12), st.integers(2, 4))
def test_completions_are_exactly_the_winning_substitutions(tiles, jokers):
    tiles = tiles[: 14 - jokers]
    counts = counts_of(tiles)
    if max(counts[:34]) > 4:
        return
    kinds = list(range(9, 27))
    assert {tuple(c) for c in jk.completions(counts, jokers, kinds)} == brute(counts, jokers, kinds)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.sampled_from([t for t in range(34) for _ in range(2)]), min_size=13, max_size=13), st.integers(1, MAX_JOKERS + 1))
def test_seven_pairs_with_jokers(tiles, jokers):
    tiles = tiles[: 14 - jokers]
    counts = counts_of(tiles)
    if max(counts[:34]) > 4:
        return
    expected = any(
        hm.is_seven_pairs(full) and max(full) <= 4
        for s in combinations_with_replacement(range(34), jokers)
        for full in [[c + s.count(t) for t, c in enumerate(counts[:34])]]
    )
    assert jk.seven_pairs_complete(counts, jokers) == expected


# ---------------------------------------------------------------- waits, through the analysis layer

from support import variant  # noqa: E402

WILD_VARIANT = """
title: {zh: 测试, en: Test}
players: {allowed: [4], default: 4}
tiles: {suits: [m, p, s], honours: 1234567z}
wilds: {fixed: [{tiles: 5z, when: true}]}
winning: {shapes: {standard: true, seven_pairs: true, thirteen_orphans: true}}
scoring: {unit: points, fans: {base: {zh: 底, value: 1}}}
"""


def _brute_shapes(counts, jokers):
    for subst in combinations_with_replacement(KINDS, jokers):
        full = list(counts[:34])
        for t in subst:
            full[t] += 1
        if max(full) <= 4 and (hm.is_standard_win(full) or hm.is_seven_pairs(full) or hm.is_thirteen_orphans(full)):
            return True
    return False


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.sampled_from([t for t in range(34) if t != 31 for _ in range(4)]), min_size=13, max_size=13), st.integers(0, MAX_JOKERS))
def test_waits_with_wilds_equal_brute_force_waits(tiles, jokers):
    from runtime import analysis

    table = variant(base=WILD_VARIANT).configure()
    counts = counts_of(tiles[: 13 - jokers] + [31] * jokers)
    if max(counts[:34]) > 4:
        return
    expected = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        grown = list(counts)
        grown[t] += 1
        plain = list(grown)
        n = plain[31]
        plain[31] = 0
        if _brute_shapes(plain, n):
            expected.append(t)
    assert analysis.waits(table, counts, []) == expected
