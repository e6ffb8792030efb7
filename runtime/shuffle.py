"""A documented, reproducible shuffle so anyone can recompute a wall.

Random numbers come from SHA-256 in counter mode: block i is
SHA-256(seed_bytes || i as 8 bytes big-endian); each block gives four
64-bit big-endian words, used in order. The shuffle is Fisher-Yates from
the last position down: for i = n-1 .. 1, j is drawn uniformly from
0..i by rejection (a word w is used when w < 2^64 - 2^64 mod (i+1),
then j = w mod (i+1)), and positions i and j are swapped.

The seed may be bytes, text (UTF-8) or an integer (its decimal text).
"""

from __future__ import annotations

import hashlib
import struct

_LIMIT = 1 << 64


def seed_bytes(seed) -> bytes:
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool):
        raise TypeError("a seed is bytes, text or an integer")
    if isinstance(seed, int):
        return str(seed).encode()
    return str(seed).encode("utf-8")


def _block_words(seed: bytes, first: int, count: int) -> tuple:
    data = b"".join(hashlib.sha256(seed + i.to_bytes(8, "big")).digest() for i in range(first, first + count))
    return struct.unpack(f">{4 * count}Q", data)


def _words(seed: bytes):
    block = 0
    while True:
        yield from _block_words(seed, block, 8)
        block += 8


def shuffled(items, seed) -> list:
    out = list(items)
    seed = seed_bytes(seed)
    n = len(out)
    # enough words for the usual case; more come from the stream if the
    # rejections use them up
    words = list(_block_words(seed, 0, (n + 3) // 4 + 1))
    stream = None
    k = 0
    for i in range(n - 1, 0, -1):
        span = i + 1
        cutoff = _LIMIT - _LIMIT % span
        while True:
            if k < len(words):
                w = words[k]
            else:
                if stream is None:
                    stream = _words(seed)
                    for _ in range(len(words)):
                        next(stream)
                w = next(stream)
                words.append(w)
            k += 1
            if w < cutoff:
                break
        j = w % span
        out[i], out[j] = out[j], out[i]
    return out


def derive(seed, *parts) -> str:
    """A sub-seed (for hand k of a match, say) as hex text."""
    h = hashlib.sha256(seed_bytes(seed))
    for p in parts:
        h.update(b"/" + str(p).encode())
    return h.hexdigest()
