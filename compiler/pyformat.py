"""Python literals and calls, laid out within a line width.

A tiny pretty-printer for the generated modules: a call, tuple or dict
that fits on its line stays there; otherwise each argument goes on a line
of its own with a trailing comma, recursively.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

WIDTH = 99
INDENT = "    "
# a constant set of tile kinds as compiled expressions write it, its codes in
# group 1: render names each one as a module constant
TILE_SET = re.compile(r"frozenset\(\{([0-9, ]*)\}\)")


def width(text: str) -> int:
    """Columns a line takes on screen: Chinese characters take two."""
    if text.isascii():
        return len(text)
    return len(text) + sum(map(_wide, _NON_ASCII.findall(text)))


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@functools.lru_cache(maxsize=None)
def _wide(ch: str) -> int:
    """1 for a character that takes two columns (East Asian wide or full-width)."""
    import unicodedata

    return 1 if unicodedata.east_asian_width(ch) in "WF" else 0


@dataclass(frozen=True)
class Ref:
    """A name emitted as is (a function or a constant)."""

    name: str


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple = ()  # positional
    kwargs: tuple = ()  # (name, value) pairs, in order


def _atom(value) -> str | None:
    kind = type(value)
    if kind is str:
        return _string(value)
    if kind is int or kind is bool or value is None:
        return repr(value)
    if kind is Ref:
        return value.name
    if kind is Call or kind is tuple or kind is list or kind is dict:
        return None
    return _other_atom(value)


def _other_atom(value) -> str | None:
    """`_atom` for the types it does not test first (subclasses included)."""
    if isinstance(value, Ref):
        return value.name
    if value is None or isinstance(value, (bool, int)):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(repr(v) for v in sorted(value)) + "})" if value else "frozenset()"
    return None


def _string(text: str) -> str:
    """Double-quoted like black, keeping Chinese text readable."""
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{body}"'


def _parts(value, memo: dict | None = None) -> tuple[str, str, list[str]] | None:
    """(opening, closing, items) of a container, or None for an atom."""
    brackets = _brackets(value)
    if brackets is None:
        return None
    if isinstance(value, Call):
        items = [_inline(a, memo) for a in value.args] + [f"{k}={_inline(v, memo)}" for k, v in value.kwargs]
    elif isinstance(value, dict):
        items = [f"{_inline(k, memo)}: {_inline(v, memo)}" for k, v in value.items()]
    else:
        items = [_inline(v, memo) for v in value]
    return brackets[0], brackets[1], items


def _brackets(value) -> tuple[str, str] | None:
    """(opening, closing) of a container, or None for an atom."""
    if isinstance(value, Call):
        return f"{value.func}(", ")"
    if isinstance(value, tuple):
        return ("(", ",)") if len(value) == 1 else ("(", ")")
    if isinstance(value, list):
        return "[", "]"
    if isinstance(value, dict):
        return "{", "}"
    return None


def fmt_inline(value) -> str:
    return _inline(value, None)


def _inline(value, memo: dict | None) -> str:
    """`value` on one line; `memo` (id → text) keeps each container's text
    while one `fmt` lays out a tree, which asks for the same subtrees'
    one-line forms at every level."""
    atom = _atom(value)
    if atom is not None:
        return atom
    if memo is not None:
        key = id(value)
        if key in memo:
            return memo[key][1]
    opening, closing, items = _parts(value, memo)
    text = opening + ", ".join(items) + closing
    if memo is not None:
        memo[key] = (value, text)  # the value is kept alive so that its id stays its own
    return text


def fmt(value, indent: int = 0, prefix: str = "", suffix: str = "", _memo: dict | None = None) -> str:
    """`prefix` + value + `suffix`, broken over lines when too wide."""
    memo = {} if _memo is None else _memo
    pad = INDENT * indent
    text = _inline(value, memo)
    if len(pad) + len(prefix) + len(text) + len(suffix) <= WIDTH:  # a line is never narrower than its length
        one = pad + prefix + text + suffix
        if width(one) <= WIDTH:
            return one
    if isinstance(value, str) and " " in value:
        return _long_string(value, indent, prefix, suffix)
    brackets = _brackets(value)
    if brackets is None:
        return pad + prefix + text + suffix
    opening, closing = brackets
    if closing == ",)":
        closing = ")"
    lines = [pad + prefix + opening]
    for item in _children(value):
        lines.append(fmt(item[1], indent + 1, item[0], ",", memo))
    lines.append(pad + closing + suffix)
    return "\n".join(lines)


def _long_string(text: str, indent: int, prefix: str, suffix: str) -> str:
    """A long string as implicitly joined pieces inside parentheses."""
    pad = INDENT * indent
    room = WIDTH - len(pad) - len(INDENT) - 2
    pieces, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and width(_string(candidate)) > room:
            pieces.append(current + " ")
            current = word
        else:
            current = candidate
    pieces.append(current)
    body = "\n".join(pad + INDENT + _string(p) for p in pieces)
    return f"{pad}{prefix}(\n{body}\n{pad}){suffix}"


def wrap_doc(text: str, indent: int) -> str:
    """A docstring body wrapped to the line width."""

    pad = INDENT * indent
    room = WIDTH - len(pad) - 6
    lines, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and width(candidate) > room:
            lines.append(current)
            current = word
        else:
            current = candidate
    lines.append(current)
    if len(lines) <= 1:
        return text
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:]) + "\n" + pad


def _children(value):
    if isinstance(value, Call):
        return [("", a) for a in value.args] + [(f"{k}=", v) for k, v in value.kwargs]
    if isinstance(value, dict):
        return [(f"{fmt_inline(k)}: ", v) for k, v in value.items()]
    return [("", v) for v in value]


def wrap_expression(code: str, indent: int) -> str:
    """A `return` line for an expression, split at top-level operators
    (boolean first, then conditional, then arithmetic) inside parentheses
    when it is too wide."""
    return _wrapped("return ", code, "", indent)


def wrap_condition(code: str, indent: int) -> str:
    """An `if` line for a condition, split like `wrap_expression`."""
    return _wrapped("if ", code, ":", indent)


def _wrapped(head: str, code: str, tail: str, indent: int) -> str:
    pad = INDENT * indent
    line = f"{pad}{head}{code}{tail}"
    if width(line) <= WIDTH:
        return line
    pieces = [code]
    for ops in ((" and ", " or "), (" if ", " else "), (" + ", " - ", " * ", " // ")):
        pieces = _split_top(code, ops)
        if len(pieces) > 1:
            break
    body = "\n".join(f"{pad}{INDENT}{p}" for p in pieces)
    return f"{pad}{head}(\n{body}\n{pad}){tail}"


def _split_top(code: str, ops: tuple) -> list[str]:
    depth = 0
    pieces, start, i = [], 0, 0
    while i < len(code):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0:
            for op in ops:
                if code.startswith(op, i):
                    pieces.append(code[start:i])
                    start = i + 1
                    i += len(op) - 1
                    break
        i += 1
    pieces.append(code[start:])
    return [p.strip() for p in pieces]
