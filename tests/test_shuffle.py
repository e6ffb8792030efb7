"""The documented shuffle, recomputed independently from its description
(runtime/shuffle.py), so that anyone can check a deal."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from runtime.shuffle import _draw, _shuffled_words, derive, shuffled


def reference(items, seed: bytes) -> list:
    words = []
    block = 0

    def word():
        nonlocal block
        if not words:
            digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
            block += 1
            words.extend(int.from_bytes(digest[k : k + 8], "big") for k in range(0, 32, 8))
        return words.pop(0)

    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        span = i + 1
        cutoff = 2**64 - 2**64 % span
        w = word()
        while w >= cutoff:
            w = word()
        j = w % span
        out[i], out[j] = out[j], out[i]
    return out


def test_a_known_vector():
    assert shuffled(range(10), "abc") == [5, 6, 1, 8, 0, 7, 2, 4, 3, 9]
    assert shuffled(range(10), "abc") == reference(range(10), b"abc")


@settings(max_examples=100, deadline=None)
@given(seed=st.binary(max_size=40), n=st.integers(0, 150))
def test_matches_the_description(seed, n):
    assert shuffled(range(n), seed) == reference(range(n), seed)


def test_seeds_as_text_and_integers():
    assert shuffled(range(20), 7) == shuffled(range(20), b"7") == shuffled(range(20), "7")
    assert derive("match", "hand", 3) == hashlib.sha256(b"match/hand/3").hexdigest()


def test_words_drawn_as_halves_as_64_bit_words():
    """The shuffle reads each 64-bit word as two 32-bit halves: the same
    rejections and the same draws as on the word, at the cutoff too."""
    for span in (2, 3, 5, 7, 72, 100, 143, 144, 1000, (1 << 20) - 1):
        m = 2**64 % span
        for w in (0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - m - 1, 2**64 - m, 2**64 - 1, 2**64 - 2**32, 2**64 - 2**32 - 1):
            if w >= 2**64:
                continue  # 2^64 - m with m = 0 is no 64-bit word
            expected = w % span if w < 2**64 - m else -1
            assert _draw(w >> 32, w & 0xFFFFFFFF, span) == expected, (span, w)
    for n in (0, 1, 2, 10, 72, 136, 144):
        for seed in (b"", b"abc", b"bench-7"):
            assert shuffled(range(n), seed) == _shuffled_words(list(range(n)), seed) == reference(range(n), seed)
