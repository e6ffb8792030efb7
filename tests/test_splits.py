"""The fast split path against the reference search: a group read as one
int and checked rank by rank (`hand._sets_ok`, `hand._pair_ok`), and
`splits.standard_splits` against `hand.standard_decompositions`, in the
same order; and the shape-wait count read capped. `MJC_LONG=1` checks
every suit vector of at most 14 tiles."""

from __future__ import annotations

import itertools
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runtime import hand as hm
from runtime.splits import standard_splits
from runtime.tiles import NUM_KINDS, counts_of, parse_group


def code_of(counts) -> int:
    code = 0
    for r, c in enumerate(counts):
        code |= c << (3 * r)
    return code


def reference(counts: tuple, chows: bool) -> tuple[bool, bool]:
    """(splits into sets, splits into a pair and sets) by the recursive search."""
    return bool(hm._suit_sets(counts, chows)), bool(hm._suit_pair_sets(counts, chows))


def suit_vectors():
    if os.environ.get("MJC_LONG"):
        for ranks in (9, 7):
            for v in itertools.product(range(5), repeat=ranks):
                if sum(v) <= 14:
                    yield v, ranks == 9
        return
    rng = random.Random(14)
    for _ in range(6000):
        chows = rng.random() < 0.75
        yield tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9 if chows else 7)), chows


def test_a_group_splits_exactly_when_the_search_finds_a_split():
    checked = 0
    for v, chows in suit_vectors():
        code = code_of(v)
        assert (hm._sets_ok(code, chows), hm._pair_ok(code, chows)) == reference(v, chows), (v, chows)
        checked += 1
    assert checked >= 6000


@pytest.mark.parametrize("v, chows, sets, pair", [
    ((1, 1, 1, 0, 0, 0, 0, 0, 0), True, True, False),
    ((0, 0, 0, 0, 0, 0, 1, 1, 1), True, True, False),  # 789: the last chow
    ((0, 0, 0, 0, 0, 0, 0, 1, 1), True, False, False),  # 89 starts no chow
    ((3, 1, 1, 1, 1, 1, 1, 1, 3), True, False, False),  # nine gates less a tile: no split, a pair no more
    ((3, 1, 1, 1, 2, 1, 1, 1, 3), True, False, True),  # nine gates and 5: the pair is 55
    ((2, 2, 2, 0, 0, 0, 0, 0, 0), True, True, False),  # 112233: two chows
    ((4, 1, 1, 0, 0, 0, 0, 0, 0), True, True, False),  # 111123: a pung and a chow; less 11, 1123 splits no more
    ((1, 1, 1, 0, 0, 0, 0), False, False, False),  # honours make no chows
    ((3, 0, 2, 0, 0, 0, 0), False, False, True),
    ((6, 0, 0, 0, 0, 0, 0, 0, 0), True, True, False),  # a fifth copy's counts: two pungs
])
def test_worked_groups(v, chows, sets, pair):
    assert hm._sets_ok(code_of(v), chows) is sets
    assert hm._pair_ok(code_of(v), chows) is pair
    assert reference(v, chows) == (sets, pair) or max(v) > 4


def test_counts_up_to_six_agree_with_the_search():
    rng = random.Random(6)
    for _ in range(3000):
        chows = rng.random() < 0.75
        v = tuple(rng.choice((0, 0, 0, 1, 2, 3, 4, 5, 6)) for _ in range(9 if chows else 7))
        code = code_of(v)
        assert (hm._sets_ok(code, chows), hm._pair_ok(code, chows)) == reference(v, chows), (v, chows)


TILES_ALL = [t for t in range(34) for _ in range(4)]
TILES_ONE_SUIT = [t for t in range(9) for _ in range(4)]


def hands(pool, size):
    return st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True).map(
        lambda idx: [pool[i] for i in idx]
    )


def full(tiles) -> list[int]:
    counts = counts_of(tiles)
    return counts + [0] * (NUM_KINDS - len(counts))


@settings(max_examples=400, deadline=None)
@given(st.one_of(hands(TILES_ALL, 14), hands(TILES_ONE_SUIT, 14), hands(TILES_ONE_SUIT, 11)))
def test_standard_splits_equal_the_reference_in_order(tiles):
    counts = full(tiles)
    assert standard_splits(counts) == hm.standard_decompositions(counts)


def test_splits_of_worked_hands():
    counts = full(parse_group("111222333m456p99s"))
    assert standard_splits(counts) == hm.standard_decompositions(counts)
    assert len(standard_splits(counts)) == 2
    assert standard_splits(full(parse_group("123m456p789s11123z"))) == []
    assert standard_splits(full(parse_group("11m11p11s"))) == []  # three pairs: no pair group alone
    assert standard_splits(full(parse_group("123m456p789s11122z"))) == [
        (28, ((hm.CHOW, 0), (hm.CHOW, 12), (hm.CHOW, 24), (hm.PUNG, 27)))
    ]


def test_shape_waits_read_capped_equal_the_whole_count():
    """`HandFacts.shape_waits_upto` (what `win.shape_waits == 1` reads):
    min(count, cap) whatever was asked before, on random MCR hands."""
    from benchmarks import pymahjonggb as hands_of
    from runtime.hand_facts import HandFacts
    from runtime.hand_json import parse_hand
    from runtime.registry import load

    table = load("mcr").configure({})
    rng = random.Random(5)
    seen = set()
    for _ in range(300):
        ctx = parse_hand(hands_of.random_hand(rng), table)
        whole = HandFacts(ctx, table).shape_wait_count
        seen.add(whole)
        for caps in ((1,), (2,), (2, 1), (2, 5), (1, 3, 2), (9,)):
            h = HandFacts(ctx, table)
            for cap in caps:
                assert h.shape_waits_upto(cap) == min(whole, cap), (ctx.concealed, caps)
            assert h.shape_wait_count == whole
    assert {0, 1, 2, 3} <= seen or {1, 2, 3} <= seen
