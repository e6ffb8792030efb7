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


def _block_halves(seed: bytes, first: int, count: int) -> tuple:
    """The words of blocks `first`.. as 32-bit halves, high half first."""
    data = b"".join(hashlib.sha256(seed + i.to_bytes(8, "big")).digest() for i in range(first, first + count))
    return struct.unpack(f">{8 * count}I", data)


def shuffled(items, seed) -> list:
    out = list(items)
    seed = seed_bytes(seed)
    n = len(out)
    if n >= 1 << 20:
        return _shuffled_words(out, seed)
    # enough words for the usual case; more blocks follow if the rejections
    # use them up
    blocks = (n + 3) // 4 + 1
    halves = list(_block_halves(seed, 0, blocks))
    k = 0
    for i in range(n - 1, 0, -1):
        span = i + 1
        while True:
            if k >= len(halves):
                halves.extend(_block_halves(seed, blocks, 8))
                blocks += 8
            j = _draw(halves[k], halves[k + 1], span)
            k += 2
            if j >= 0:
                break
        out[i], out[j] = out[j], out[i]
    return out


def _draw(hi: int, lo: int, span: int) -> int:
    """j for the word w = hi * 2^32 + lo, or -1 when w is rejected, on
    small ints (span < 2^20): w < 2^64 - m (m = 2^64 mod span) unless
    hi = 2^32 - 1 and lo >= 2^32 - m, and w mod span = ((hi mod span) *
    (2^32 mod span) + lo) mod span."""
    r32 = 4294967296 % span
    m = r32 * r32 % span
    if m and hi == 4294967295 and lo >= 4294967296 - m:
        return -1
    return (hi % span * r32 + lo) % span


def _shuffled_words(out: list, seed: bytes) -> list:
    """The same shuffle on 64-bit words (for very long lists)."""
    n = len(out)
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
