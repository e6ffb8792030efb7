"""The documented shuffle, recomputed independently from its description
(runtime/shuffle.py), so that anyone can check a deal."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from runtime.shuffle import derive, shuffled


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
