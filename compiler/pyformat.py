"""Python literals and calls, laid out within a line width.

A tiny pretty-printer for the generated modules: a call, tuple or dict
that fits on its line stays there; otherwise each argument goes on a line
of its own with a trailing comma, recursively.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 99
INDENT = "    "


def width(text: str) -> int:
    """Columns a line takes on screen: Chinese characters take two."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


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
    inline = fmt_inline if memo is None else (lambda v: _inline(v, memo))
    if isinstance(value, Call):
        items = [inline(a) for a in value.args] + [f"{k}={inline(v)}" for k, v in value.kwargs]
        return f"{value.func}(", ")", items
    if isinstance(value, tuple):
        items = [inline(v) for v in value]
        if len(items) == 1:
            return "(", ",)", items
        return "(", ")", items
    if isinstance(value, list):
        return "[", "]", [inline(v) for v in value]
    if isinstance(value, dict):
        return "{", "}", [f"{inline(k)}: {inline(v)}" for k, v in value.items()]
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
    one = pad + prefix + _inline(value, memo) + suffix
    if len(one) <= WIDTH and width(one) <= WIDTH:  # a line is never narrower than its length
        return one
    if isinstance(value, str) and " " in value:
        return _long_string(value, indent, prefix, suffix)
    parts = _parts(value, memo)
    if parts is None:
        return one
    opening, closing, _ = parts
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
