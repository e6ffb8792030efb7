"""Tiles and MPSZ notation.

A tile kind is an int: 0-8 are 1m-9m, 9-17 are 1p-9p, 18-26 are 1s-9s,
27-33 are 1z-7z (East, South, West, North, White, Green, Red) and 34-41
are the flowers 1f-8f. Hands are count vectors indexed by kind, which
keeps hand analysis to integer arithmetic.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` and `re` are not imported at run time: a variant imports this (import time)
if TYPE_CHECKING:
    from typing import Final, Iterable

SUITS = "mpsz"
NUM_PLAYABLE: "Final" = 34  # Final: a number where compiled code reads it (no look-up)
NUM_KINDS: "Final" = 42
FLOWER_BASE = 34
HONOUR_BASE = 27

_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

NAMES: "Final[tuple[str, ...]]" = tuple(
    [f"{r}m" for r in range(1, 10)]
    + [f"{r}p" for r in range(1, 10)]
    + [f"{r}s" for r in range(1, 10)]
    + [f"{r}z" for r in range(1, 8)]
    + [f"{r}f" for r in range(1, 9)]
)
INDEX: "Final[dict[str, int]]" = {name: i for i, name in enumerate(NAMES)}  # typed: a native look-up

ZH_NAMES = tuple(
    [f"{n}万" for n in "一二三四五六七八九"]
    + [f"{n}筒" for n in "一二三四五六七八九"]
    + [f"{n}条" for n in "一二三四五六七八九"]
    + list("东南西北白发中")
    + list("春夏秋冬梅兰竹菊")
)


class TileError(ValueError):
    """A tile text that is not MPSZ notation."""


def suit_of(tile: int) -> str:
    if tile < 27:
        return SUITS[tile // 9]
    return "z" if tile < FLOWER_BASE else "f"


def rank_of(tile: int) -> int:
    """1-9 for number tiles, 1-7 for honours, 1-8 for flowers."""
    if tile < 27:
        return tile % 9 + 1
    if tile < FLOWER_BASE:
        return tile - 26
    return tile - 33


def is_number(tile: int) -> bool:
    return tile < 27


def is_honour(tile: int) -> bool:
    return 27 <= tile < FLOWER_BASE


def is_flower(tile: int) -> bool:
    return tile >= FLOWER_BASE


def is_terminal(tile: int) -> bool:
    return tile < 27 and tile % 9 in (0, 8)


def is_terminal_or_honour(tile: int) -> bool:
    return is_terminal(tile) or is_honour(tile)


def name(tile: int) -> str:
    return NAMES[tile]


_DIGITS = frozenset("0123456789")


def show(value, limit: int = 40) -> str:
    """A short repr of a value for a message (never fails on a huge int)."""
    try:
        text = repr(value)
    except ValueError:  # an int beyond Python's digit limit
        if isinstance(value, int):
            return "a number with too many digits"
        return f"a {type(value).__name__} holding a number with too many digits"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bad(part: str, word: str) -> str:
    """`'x'`, or `'x' in '123mx'` when the bad part sits in a longer word."""
    return repr(part) if part == word else f"{part!r} in {show(word)}"


def parse_group(text: str) -> list[int]:
    """Parse compact MPSZ (`123m456p11z`) or space-separated tiles.

    Raises TileError naming the bad text (and the word it sits in).
    """
    tiles: list[int] = []
    for word in text.replace(",", " ").split():
        pos = 0
        size_of_word = len(word)
        while pos < size_of_word:
            # a group is digits then one ASCII letter
            end = pos
            while end < size_of_word and word[end] in _DIGITS:
                end += 1
            letter = word[end] if end < size_of_word else ""
            if end == pos or not ("a" <= letter <= "z" or "A" <= letter <= "Z"):
                bad = end
                while bad < size_of_word and word[bad] not in _DIGITS:
                    bad += 1
                part = word[pos:bad]  # the digits and what follows them up to the next digit
                raise TileError(f"bad tile text {_bad(part, word)}: expected MPSZ such as 1m, 123p or 11z")
            digits, suit = word[pos:end], letter
            pos = end + 1
            group = digits + suit
            if suit not in _SUIT_BASE:
                raise TileError(f"bad tile text {_bad(group, word)}: unknown suit {suit!r} (m, p, s, z or f)")
            size = _SUIT_SIZE[suit]
            for d in digits:
                if not 1 <= int(d) <= size:
                    # `10p` is named whole: it reads as one (bad) tile, not 1p and 0p
                    raise TileError(f"bad tile text {_bad(group, word)}: {suit} tiles run 1..{size}")
            tiles.extend(_SUIT_BASE[suit] + int(d) - 1 for d in digits)
    return tiles


def parse_tile(text: str) -> int:
    if isinstance(text, str) and text in INDEX:  # the common case: no parsing
        return INDEX[text]
    tiles = parse_group(text) if isinstance(text, str) else []
    if len(tiles) != 1:
        raise TileError(f"bad tile text {show(text)}: expected exactly one tile such as 5p")
    return tiles[0]


def parse_tiles(value: str | Iterable[str]) -> list[int]:
    """A group of tiles given compactly or as a list of tile texts."""
    if isinstance(value, str):
        return parse_group(value)
    out: list[int] = []
    for item in value:
        if not isinstance(item, str):
            raise TileError(f"bad tile text {show(item)}: expected a string such as 5p")
        tile = INDEX.get(item)
        if tile is not None:
            out.append(tile)
        else:
            out.extend(parse_group(item))
    return out


def format_tiles(tiles: Iterable[int]) -> str:
    """Compact MPSZ in sorted order: `123m45p`."""
    by_suit: dict[str, list[str]] = {}
    for t in sorted(tiles):
        by_suit.setdefault(suit_of(t), []).append(str(rank_of(t)))
    return "".join("".join(by_suit[s]) + s for s in "mpszf" if s in by_suit)


def names(tiles: Iterable[int]) -> list[str]:
    return [NAMES[t] for t in tiles]


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def successor(tile: int, order: tuple[int, ...] | None = None) -> int:
    """Next kind in the indicator order: 9 wraps to 1 within a suit;
    honours follow `order` (a cycle of honour kinds) when given."""
    if tile < 27:
        return tile - 8 if tile % 9 == 8 else tile + 1
    cycle = order or tuple(range(27, 34))
    return cycle[(cycle.index(tile) + 1) % len(cycle)]
