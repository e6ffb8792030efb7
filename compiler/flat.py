"""The fan table's fast form: what `render` emits beside the readable one.

The compiler knows every fan and every 不计 list at build time, so it lays
the table out flat for `runtime/flat.py`: fans at bit positions in
exclusion order (each fan after the fans that exclude it), exclusions as
masks over those positions, and two finders that set a fan's bit where the
readable finders append `(fan index, count)`. Each generated line keeps the
fan's YAML condition beside it as a comment, so the fast form reads as its
source does.
"""

from __future__ import annotations

import textwrap

from runtime.exclusion_order import excluders_first

from . import ir
from .pyformat import INDENT, WIDTH, wrap_condition


def _order(scoring: ir.Scoring) -> tuple[int, ...]:
    if scoring.exclusion == "listed":
        return excluders_first(scoring.fans)
    return tuple(range(len(scoring.fans)))


def _mask(positions) -> int:
    m = 0
    for p in positions:
        m |= 1 << p
    return m


def _hex(mask: int) -> str:
    return hex(mask) if mask else "0"


def _wrapped_tuple(name: str, items: list[str]) -> list[str]:
    """`name=(a, b, ...)`, its items wrapped at the module's width."""
    body = ", ".join(items) + ("," if len(items) == 1 else "")
    pad = INDENT * 2
    lines = textwrap.wrap(body, WIDTH - len(pad), break_long_words=False, break_on_hyphens=False)
    return [f"{INDENT}{name}=("] + [pad + line for line in lines] + [f"{INDENT}),"]


def tables(scoring: ir.Scoring) -> str:
    """The `FLAT_FANS = FlatFans(...)` construction, one commented line per
    position for the masks."""
    fans = scoring.fans
    order = _order(scoring)
    pos = {fans[i].id: p for p, i in enumerate(order)}
    position = [0] * len(fans)
    for p, i in enumerate(order):
        position[i] = p
    lines = [
        "# The fan table, flat, for the fast scoring path (runtime/flat.py): bit p of every",
        "# mask is the fan at position p, each fan after the fans that exclude it.",
        "FLAT_FANS = FlatFans(",
    ]
    lines += _wrapped_tuple("order", [str(i) for i in order])
    lines += _wrapped_tuple("position", [str(p) for p in position])
    lines.append(f"{INDENT}excludes=(")
    for p, i in enumerate(order):
        f = fans[i]
        note = f"# {p} {f.id}" + (": " + " ".join(f.excludes) if f.excludes else "")
        lines.append(_commented(f"{INDENT * 2}{_hex(_mask(pos[x] for x in f.excludes))},", note))
    lines.append(f"{INDENT}),")
    times = []
    for i in order:
        pairs = tuple((pos[x], n) for x, n in fans[i].excludes_times)
        times.append("(" + "".join(f"({q}, {n})," for q, n in pairs) + ")")
    if any(t != "()" for t in times):
        lines += _wrapped_tuple("excludes_times", times)
    else:
        lines.append(f"{INDENT}excludes_times=((),) * {len(fans)},")
    on_sets = [_hex(_mask(pos[x] for x in fans[i].excludes_sets)) for i in order]
    if any(m != "0" for m in on_sets):
        lines += _wrapped_tuple("excludes_sets", on_sets)
    else:
        lines.append(f"{INDENT}excludes_sets=(0,) * {len(fans)},")
    partial = [fans[i].id for i in order if fans[i].excludes_times or fans[i].excludes_sets]
    if partial:
        lines.append(_commented(f"{INDENT}partial={_hex(_mask(pos[x] for x in partial))},", "# " + " ".join(partial)))
    prefer = set(scoring.prefer)
    for name, chosen in (
        ("alone", [f.id for f in fans if f.alone]),
        ("bonus", [f.id for f in fans if f.bonus]),
        ("prefer", [f.id for f in fans if f.id in prefer]),
    ):
        if chosen:
            lines.append(_commented(f"{INDENT}{name}={_hex(_mask(pos[x] for x in chosen))},", "# " + " ".join(chosen)))
    if scoring.exclusion == "listed":
        lines.append(f"{INDENT}listed=True,")
    lines.append(")")
    return "\n".join(lines)


def _commented(code: str, note: str) -> str:
    """`code  # note`, or the note on lines of its own above a long line."""
    one = f"{code}  {note}"
    if len(one) <= WIDTH:
        return one
    pad = code[: len(code) - len(code.lstrip())]
    words = textwrap.wrap(note[2:], WIDTH - len(pad) - 2, break_long_words=False, break_on_hyphens=False)
    return "\n".join(f"{pad}# {w}" for w in words) + "\n" + code


def finder(scoring: ir.Scoring, per_arrangement: bool) -> str:
    """The body of a flat finder: each fan's condition sets its bit; a
    count other than one goes into `many` (position -> count)."""
    order = _order(scoring)
    lines = [f"{INDENT}bits = 0"]
    for p, i in sorted(((p, i) for p, i in enumerate(order)), key=lambda pi: pi[1]):
        f = scoring.fans[i]
        if f.sets is not None or f.each is not None or f.per_arrangement != per_arrangement:
            continue  # counted by the runtime's set engines, or by the other finder
        source = " ".join(f.when.source.split()) if f.when is not None else "true"
        if f.count is not None:
            source += "; count: " + " ".join(f.count.source.split())
        text = f"{f.name.zh} {f.name.en} [{p}]: {source}"
        room = WIDTH - len(INDENT) - 2
        wrapped = textwrap.wrap(text, room, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)
        lines += [f"{INDENT}# {w}" for w in wrapped]
        lines += fan_hit(f, [f"bits |= {_hex(1 << p)}"], [f"bits |= {_hex(1 << p)}", f"many[{p}] = n"])
    lines.append(f"{INDENT}return bits")
    return "\n".join(lines)


def fan_hit(f: ir.Fan, once: list[str], counted: list[str]) -> list[str]:
    """A finder's lines for one fan, in either form: under its condition,
    `once` where it counts one, else its count `n` and, when above zero,
    `counted` (both lists of statements)."""
    pad = INDENT
    lines = []
    if f.when is not None:
        lines.append(wrap_condition(f.when.code, 1))
        pad = INDENT * 2
    if f.count is None:
        lines += [pad + x for x in once]
    else:
        lines += [f"{pad}n = {f.count.code}", f"{pad}if n > 0:"] + [pad + INDENT + x for x in counted]
    return lines
