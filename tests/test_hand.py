"""Hand analysis: shapes, decompositions, waits and shanten, on their own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from runtime import hand as hm
from runtime.tiles import NUM_KINDS, counts_of, parse_group


def c(text: str) -> list[int]:
    return counts_of(parse_group(text))


def test_standard_win_and_its_decompositions():
    assert hm.is_standard_win(c("123m456p789s11122z"))
    assert not hm.is_standard_win(c("123m456p789s11123z"))
    # 111 222 333 can be three pungs or three chows
    decs = hm.standard_decompositions(c("111222333m456p99s"))
    kinds = sorted(tuple(sorted(k for k, _ in sets)) for _, sets in decs)
    assert kinds == [(hm.CHOW, hm.CHOW, hm.CHOW, hm.CHOW), (hm.CHOW, hm.PUNG, hm.PUNG, hm.PUNG)]


def test_nine_gates_has_every_wait():
    assert hm.standard_waits(c("1112345678999m")) == list(range(9))


def test_honours_only_make_pungs():
    assert hm.standard_waits(c("123z")) == []
    assert hm.standard_waits(c("11z22z")) == [27, 28]


def test_seven_pairs_counts_a_quad_as_two_pairs_when_asked():
    quad = c("1111p2233445566s")
    assert hm.is_seven_pairs(quad, quads_as_two_pairs=True)
    assert not hm.is_seven_pairs(quad, quads_as_two_pairs=False)
    assert hm.seven_pairs_waits(c("111p2233445566s"), True) == [9]
    assert hm.seven_pairs_waits(c("111p2233445566s"), False) == []


def test_thirteen_orphans_waits():
    assert hm.thirteen_orphans_waits(c("19m19p19s1234567z")) == list(hm.ORPHANS)
    assert hm.thirteen_orphans_waits(c("19m19p19s1123456z")) == [33]


def test_known_shanten_values():
    assert hm.standard_shanten(c("123m456p789s11z22z")) == 0
    assert hm.standard_shanten(c("11z"), 4) == -1
    assert hm.standard_shanten(c("1m"), 4) == 0
    assert hm.standard_shanten(c("123m456p789s112z")) == 1
    assert hm.standard_shanten(c("147m258p369s1234z")) == 8
    assert hm.seven_pairs_shanten(c("1122m3344p5566s7z")) == 0
    assert hm.thirteen_orphans_shanten(c("19m19p19s1234567z")) == 0


# ---------------------------------------------------------------- properties

TILES_2_SUITS = [t for t in range(9, 27) for _ in range(4)]
TILES_ALL = [t for t in range(34) for _ in range(4)]


def hands(pool, size):
    return st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size, unique=True).map(
        lambda idx: [pool[i] for i in idx]
    )


def brute_waits(counts):
    out = []
    for t in range(34):
        if counts[t] >= 4:
            continue
        counts[t] += 1
        if hm.is_standard_win(counts):
            out.append(t)
        counts[t] -= 1
    return out


@settings(max_examples=400, deadline=None)
@given(hands(TILES_ALL, 13))
def test_fast_waits_equal_brute_force(tiles):
    counts = counts_of(tiles)
    assert sorted(hm.standard_waits(counts)) == brute_waits(counts)


@settings(max_examples=300, deadline=None)
@given(hands(TILES_2_SUITS, 13))
def test_fast_waits_equal_brute_force_in_two_suits(tiles):
    counts = counts_of(tiles)
    assert sorted(hm.standard_waits(counts)) == brute_waits(counts)


@settings(max_examples=300, deadline=None)
@given(hands(TILES_ALL, 14))
def test_every_decomposition_uses_every_tile(tiles):
    counts = counts_of(tiles)
    decs = hm.standard_decompositions(counts)
    assert bool(decs) == hm.is_standard_win(counts)
    for pair, sets in decs:
        rebuilt = [0] * NUM_KINDS
        rebuilt[pair] += 2
        for kind, t in sets:
            for x in ((t, t + 1, t + 2) if kind == hm.CHOW else (t, t, t)):
                rebuilt[x] += 1
        assert rebuilt == counts


@settings(max_examples=300, deadline=None)
@given(hands(TILES_2_SUITS, 13))
def test_shanten_zero_exactly_when_some_tile_completes(tiles):
    counts = counts_of(tiles)
    assert (hm.standard_shanten(counts) == 0) == bool(brute_waits(counts) or _waits_on_fifth(counts))


def _waits_on_fifth(counts):
    """A shape that would win only on a fifth copy is still shanten 0."""
    for t in range(34):
        if counts[t] == 4:
            counts[t] += 1
            ok = hm.is_standard_win(counts)
            counts[t] -= 1
            if ok:
                return True
    return False


@settings(max_examples=200, deadline=None)
@given(hands(TILES_2_SUITS, 14))
def test_shanten_minus_one_exactly_when_complete(tiles):
    counts = counts_of(tiles)
    assert (hm.standard_shanten(counts) == -1) == hm.is_standard_win(counts)


@settings(max_examples=150, deadline=None)
@given(hands(TILES_ALL, 13))
def test_shanten_steps_down_by_one_tile_at_a_time(tiles):
    """With -1 exactly for complete hands, these two steps pin shanten down
    by induction: drawing the right tile gains one step, never more, and a
    14-tile hand that is not complete is as good as its best 13 tiles."""
    counts = counts_of(tiles)
    k = hm.standard_shanten(counts)
    after = []
    for t in range(34):
        if counts[t] < 4:
            counts[t] += 1
            fourteen = hm.standard_shanten(counts)
            best13 = min(_without(counts, d) for d in range(34) if counts[d])
            assert fourteen == (best13 if fourteen >= 0 else -1) and (fourteen >= 0 or best13 == 0)
            after.append(fourteen)
            counts[t] -= 1
    assert min(after) == k - 1


def _without(counts, d):
    counts[d] -= 1
    value = hm.standard_shanten(counts)
    counts[d] += 1
    return value


def test_only_nine_gates_waits_on_all_nine_tiles_of_its_suit():
    """variants/mcr.yaml reads 九莲宝灯 as 13 concealed tiles of one suit
    that wait on all nine: every such hand is 1112345678999."""
    from runtime.hand import standard_waits

    found = []

    def walk(rank, left, counts):
        if rank == 9:
            if left == 0 and len(standard_waits(counts + [0] * 25)) == 9:
                found.append(tuple(counts))
            return
        for k in range(min(4, left) + 1):
            walk(rank + 1, left - k, counts + [k])

    walk(0, 13, [])
    assert found == [(3, 1, 1, 1, 1, 1, 1, 1, 3)]
