"""Checks that a lowered variant can be played, on top of the semantic ones.

A variant that passes `lower` is well formed; these checks prove that no
table of it fails at play time:

- arithmetic: a division (`/`, `%`) whose divisor may be 0, and a power
  (`**`) whose exponent may be negative or larger than `MAX_EXPONENT`, are
  refused. Each integer fact and option has a range (`FACT_RANGES`, an
  option's values or minimum and maximum); ranges follow the expression,
  narrowed by the conditions around it (`1 if total == 0 else 8 / total`,
  `x > 0 and 12 / x > 1`, `min(x, 10)`), so a designer bounds a value
  where the facts do not;
- option rules: some choice of options meets them at every player count,
  and the defaults meet them at the default player count;
- the wall: at every table the options allow, the deal leaves tiles to
  draw after the reserved tail and the tiles left undrawn, and a face-up
  tail never shares the wall's last tiles with a reserved tail (reward
  horses): a kong could take a horse, and a tile seen face up would later
  be turned as one.

Tables are enumerated over the options the checked values read (and the
player counts), keeping those the option rules allow.
"""

from __future__ import annotations

import itertools
import math

from runtime import tiles as tilemod
from runtime import vocabulary as vocab

from . import ir
from .errors import Diagnostic
from .expressions import BoolOp, Binary, Call, Compare, Const, IfExpr, ListExpr, Name, TileConst, Unary

INF = math.inf
MAX_EXPONENT = 256  # a power's exponent must be provably at most this (2 ** 256 has 78 digits)
MAX_TABLES = 20000  # tables enumerated per check; beyond, the check is not made

# Ranges of the integer facts, where they are bounded (every integer fact is
# at least 0 unless listed otherwise; `total` is worked out per variant).
FACT_RANGES = {
    "hand.number_suits": (0, 3), "hand.honours": (0, 18), "hand.terminals": (0, 18), "hand.flowers": (0, 8),
    "hand.wilds": (0, 18), "hand.concealed_quads": (0, 3), "hand.hogs": (0, 4), "hand.kinds": (0, 18),
    "hand.kinds_in": (0, 18), "hand.rank_span": (0, 8), "hand.concealed_copies": (0, 4), "melds.copies": (0, 4),
    "hand.count": (0, 4), "melds.count": (0, 4), "melds.claimed": (0, 4), "melds.chows": (0, 4),
    "melds.pungs": (0, 4), "melds.kongs": (0, 4), "melds.concealed_kongs": (0, 4), "melds.exposed_kongs": (0, 4),
    "melds.added_kongs": (0, 4), "melds.special": (0, 4), "shape.quads": (0, 3), "sets.chows": (0, 4),
    "sets.pungs": (0, 4), "sets.kongs": (0, 4), "sets.concealed_pungs": (0, 4), "sets.pungs_of": (0, 4),
    "sets.chows_of": (0, 4), "win.waits": (0, 34), "win.shape_waits": (0, 34), "win.kong_chain": (0, 4),
    "game.claims": (0, 16), "game.melds": (0, 16), "winner.doublings": (0, 144), "winners": (1, 3),
    "winner.horse_hits": (0, 144), "seat.honour_run": (0, 144), "seat.distinct_honour_run": (0, 7),
    "wall.remaining": (0, 144), "follow.round": (1, 36), "players": (2, 4), "horse.share": (-INF, INF),
    "winner.streak": (0, INF),
}


class _Problems:
    def __init__(self, pos):
        self.pos = pos
        self.out: list[Diagnostic] = []

    def at(self, path, message: str, offset: int | None = None) -> None:
        if offset is None:
            self.out.append(self.pos.diag(path, message))
        else:
            self.out.append(self.pos.diag_at(path, offset, message))


def check(variant: ir.Variant, seen: list, pos) -> list[Diagnostic]:
    """`seen` holds (path, compiled expression, scope) of every expression
    the lowering compiled, in order."""
    problems = _Problems(pos)
    ranges = _Ranges(variant, seen)
    for path, compiled, scope in seen:
        if compiled.node is None:
            continue
        for offset, message in ranges.arithmetic(compiled.node, scope):
            shown = " ".join(compiled.source.split())
            problems.at(path, f"in {shown!r}: {message}", offset)
    tables = _Tables(variant, seen, problems)
    tables.option_rules()
    tables.wall()
    return problems.out


# ------------------------------------------------------------ ranges


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def _mul1(x, y):
    if x == 0 or y == 0:
        return 0
    return x * y


def _mul(a, b):
    products = [_mul1(x, y) for x in a for y in b]
    return (min(products), max(products))


def _neg(a):
    return (-a[1], -a[0])


def _union(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]))


def _floordiv(a, b):
    """a // b over ranges, b not holding 0."""
    if b[0] > 0 or b[1] < 0:
        ends = []
        for x in a:
            for y in b:
                if math.isinf(x) or math.isinf(y):
                    ends.append(0 if math.isinf(y) and not math.isinf(x) else (x / y if not (math.isinf(x) and math.isinf(y)) else INF))
                else:
                    ends.append(x // y)
        lo, hi = min(ends), max(ends)
        return (math.floor(lo) if not math.isinf(lo) else lo, math.ceil(hi) if not math.isinf(hi) else hi)
    return (-INF, INF)


def _pow(a, b):
    if b[0] < 0 or math.isinf(b[1]) or b[1] > MAX_EXPONENT:
        return (-INF, INF)
    ends = []
    for x in a:
        for y in (b[0], b[1]):
            ends.append(x**y if not math.isinf(x) else (INF if y > 0 else 1))
    lo, hi = min(ends), max(ends)
    if a[0] < 0 < a[1] or a[0] < 0:
        m = max(abs(a[0]), abs(a[1])) ** b[1] if not any(math.isinf(v) for v in a) else INF
        return (-m, m)
    return (min(lo, 1 if b[0] == 0 else lo), hi)


def _show(r) -> str:
    lo, hi = r
    text = lambda v: "any" if math.isinf(v) else str(int(v))  # noqa: E731
    if math.isinf(lo) and math.isinf(hi):
        return "any value"
    if math.isinf(hi):
        return f"{text(lo)} or more"
    if math.isinf(lo):
        return f"{text(hi)} or less"
    return f"{text(lo)} to {text(hi)}" if lo != hi else text(lo)


class _Ranges:
    """The range of every integer expression, per variant."""

    def __init__(self, variant: ir.Variant, seen: list):
        self.variant = variant
        self.options = {}
        for o in variant.options:
            if o.type != "int":
                continue
            if o.values:
                self.options[o.id] = (min(o.values), max(o.values))
            else:
                self.options[o.id] = (-INF if o.minimum is None else o.minimum, INF if o.maximum is None else o.maximum)
        self.players = (min(variant.players), max(variant.players))
        self.defs = {name: e for name, e in variant.scoring.defines} if variant.scoring else {}
        self.def_nodes = {}
        for path, compiled, scope in seen:
            if len(path) == 3 and path[:2] == ("scoring", "define"):
                self.def_nodes[path[2]] = compiled.node
        self.fan_counts: dict = {}
        self._total = None
        self.seen = seen

    # -- the value of a hand

    def total(self):
        if self._total is None:
            self._total = (-INF, INF)  # while being worked out (a cycle cannot happen, but be safe)
            self._total = self._work_out_total()
        return self._total

    def _work_out_total(self):
        sc = self.variant.scoring
        if sc is None:
            return (-INF, INF)
        nodes = {p: c.node for p, c, _ in self.seen}
        parts = []
        counts = {}
        for f in sc.fans:
            path = ("scoring", "fans", f.id)
            value = (f.value.const, f.value.const) if f.value.expr is None else self.of(nodes.get(path + ("value",)), vocab.TABLE, {})
            if f.count is not None:
                count = self.of(nodes.get(path + ("count",)), vocab.HAND, {})
                count = (0, max(0, count[1]))  # a fan counts only when its count is above 0
            elif f.each is not None or f.sets is not None:
                count = (0, 4)
            else:
                count = (0, 1)
            counts[f.id] = count
            parts.append((value, count))
        self.fan_counts = counts
        added = (0, 0)
        for value, count in parts:
            added = _add(added, _mul(value, count))
        multiplied = (0, 1)
        for value, count in parts:
            hi = max(1, value[1]) ** count[1] if not math.isinf(count[1]) and not math.isinf(value[1]) else INF
            lo = min(0, value[0]) if value[0] < 0 else 0
            multiplied = (min(multiplied[0], lo), _mul1(multiplied[1], hi))
        combine = sc.combine
        if combine.expr is not None:
            total = _union(added, multiplied)
        else:
            total = multiplied if combine.const == "multiply" else added
        final = nodes.get(("scoring", "final"))
        if final is not None:
            total = self.of(final, vocab.RESULT, {"total": total})
        if sc.cap.expr is None and sc.cap.const:
            total = (min(total[0], sc.cap.const), min(total[1], sc.cap.const))
        return total

    # -- one expression

    def of(self, node, scope: str, known: dict):
        """The range of an integer expression; `known` narrows names."""
        if node is None:
            return (-INF, INF)
        return self._range(node, scope, known, [])

    def arithmetic(self, node, scope: str) -> list:
        """(offset, message) for every division by a possible 0 and every unbounded power."""
        problems: list = []
        self._range(node, scope, {}, problems)
        return problems

    def _range(self, node, scope, known, problems):
        r = self._eval(node, scope, known, problems)
        return r if r is not None else (-INF, INF)

    def _eval(self, node, scope, known, problems):
        if isinstance(node, Const):
            return (node.value, node.value) if isinstance(node.value, int) and not isinstance(node.value, bool) else None
        if isinstance(node, Name):
            return self._name(node.path, scope, known)
        if isinstance(node, Unary):
            inner = self._eval(node.operand, scope, known, problems)
            if node.op == "-" and inner is not None:
                return _neg(inner)
            return None
        if isinstance(node, Binary):
            a = self._range(node.left, scope, known, problems)
            b = self._range(node.right, scope, known, problems)
            if node.op == "+":
                return _add(a, b)
            if node.op == "-":
                return _add(a, _neg(b))
            if node.op == "*":
                return _mul(a, b)
            if node.op in ("//", "%"):
                if b[0] <= 0 <= b[1]:
                    sign = "/" if node.op == "//" else "%"
                    problems.append((node.right.offset, f"the divisor of '{sign}' can be 0 (its values: {_show(b)}); "
                                     "write max(x, 1) or test it first: y / x if x > 0 else 0"))
                    return (-INF, INF)
                if node.op == "%":
                    m = max(abs(b[0]), abs(b[1]))
                    return (0, m - 1) if b[0] > 0 else (-(m - 1), m - 1)
                return _floordiv(a, b)
            if node.op == "**":
                if b[0] < 0:
                    problems.append((node.right.offset, f"the exponent of '**' can be negative (its values: {_show(b)}), "
                                     "which makes a fraction; write max(x, 0)"))
                    return (-INF, INF)
                if b[1] > MAX_EXPONENT:
                    problems.append((node.right.offset, f"the exponent of '**' may reach {_show((b[1], b[1])) if not math.isinf(b[1]) else 'any size'} "
                                     f"(its values: {_show(b)}); exponents are at most {MAX_EXPONENT}: bound it, e.g. min(x, 30)"))
                    return (-INF, INF)
                return _pow(a, b)
        if isinstance(node, Call):
            args = [self._range(a, scope, known, problems) if a.type == vocab.INT else self._skip(a, scope, known, problems) for a in node.args]
            if node.func == "min" and args:
                return (min(a[0] for a in args), min(a[1] for a in args))
            if node.func == "max" and args:
                return (max(a[0] for a in args), max(a[1] for a in args))
            if node.func == "abs" and args:
                lo, hi = args[0]
                return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
            return FACT_RANGES.get(node.func, (0, INF)) if node.type == vocab.INT else None
        if isinstance(node, IfExpr):
            self._skip(node.cond, scope, known, problems)
            then = self._range(node.then, scope, _narrow(node.cond, True, known, self, scope), problems)
            other = self._range(node.other, scope, _narrow(node.cond, False, known, self, scope), problems)
            return _union(then, other) if node.type == vocab.INT else None
        if isinstance(node, BoolOp):
            current = dict(known)
            for value in node.values:
                self._skip(value, scope, current, problems)
                current = _narrow(value, node.op == "and", current, self, scope)
            return None
        if isinstance(node, Compare):
            for operand in node.operands:
                self._skip(operand, scope, known, problems)
            return None
        if isinstance(node, ListExpr):
            for item in node.items:
                self._skip(item, scope, known, problems)
            return None
        return None

    def _skip(self, node, scope, known, problems):
        """Walk a node for its arithmetic, whatever its type."""
        self._eval(node, scope, known, problems)
        return (-INF, INF)

    def _name(self, path: str, scope: str, known: dict):
        if path in known:
            return known[path]
        if path.startswith("options."):
            return self.options.get(path[8:])
        if path in self.def_nodes:
            return self.of(self.def_nodes[path], vocab.HAND, known)
        if path.startswith("fans."):
            self.total()
            return self.fan_counts.get(path[5:], (0, INF))
        if path == "total":
            return self.total()
        if path == "players":
            return self.players
        fact = vocab.lookup(path, scope)
        if fact is None or fact.type != vocab.INT:
            return None
        return FACT_RANGES.get(path, (0, INF))


def _narrow(cond, truth: bool, known: dict, ranges: _Ranges, scope: str) -> dict:
    """What holding (or failing) `cond` says of the names it compares to numbers."""
    if isinstance(cond, Unary) and cond.op == "not":
        return _narrow(cond.operand, not truth, known, ranges, scope)
    if isinstance(cond, BoolOp):
        if (cond.op == "and") == truth:
            for value in cond.values:
                known = _narrow(value, truth, known, ranges, scope)
        return known
    if not isinstance(cond, Compare) or len(cond.ops) != 1:
        return known
    op, (left, right) = cond.ops[0], cond.operands
    if isinstance(right, Name) and isinstance(left, Const):
        left, right = right, left
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
    if not (isinstance(left, Name) and isinstance(right, Const)) or not isinstance(right.value, int) or isinstance(right.value, bool):
        return known
    if not truth:
        op = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}.get(op)
        if op is None:
            return known
    current = ranges.of(left, scope, known)
    lo, hi, k = current[0], current[1], right.value
    if op == "==":
        lo, hi = max(lo, k), min(hi, k)
    elif op == "!=":
        if lo == k:
            lo = k + 1
        if hi == k:
            hi = k - 1
    elif op == ">":
        lo = max(lo, k + 1)
    elif op == ">=":
        lo = max(lo, k)
    elif op == "<":
        hi = min(hi, k - 1)
    elif op == "<=":
        hi = min(hi, k)
    return {**known, left.path: (lo, hi)}


# ------------------------------------------------------------ tables


class _Unknown(Exception):
    """A value the table interpreter cannot work out (a fact of the game)."""


def _evaluate(node, o: dict, n: int):
    """A table expression's value for options `o` and `n` players."""
    if isinstance(node, Const):
        return node.value
    if isinstance(node, TileConst):
        return node.tiles[0] if len(node.tiles) == 1 else frozenset(node.tiles)
    if isinstance(node, Name):
        if node.path.startswith("options."):
            return o[node.path[8:]]
        if node.path == "players":
            return n
        if node.path in vocab.TILE_GROUPS:
            return frozenset(tilemod.parse_group(vocab.TILE_GROUPS[node.path]))
        raise _Unknown(node.path)
    if isinstance(node, Unary):
        v = _evaluate(node.operand, o, n)
        return (not v) if node.op == "not" else -v
    if isinstance(node, Binary):
        a, b = _evaluate(node.left, o, n), _evaluate(node.right, o, n)
        if node.op in ("//", "%") and b == 0:
            raise _Unknown("division by 0")
        if node.op == "**" and (b < 0 or b > MAX_EXPONENT):
            raise _Unknown("power")
        return {"+": a + b, "-": a - b, "*": a * b}.get(node.op) if node.op in "+-*" else (
            a // b if node.op == "//" else a % b if node.op == "%" else a**b)
    if isinstance(node, Call):
        args = [_evaluate(a, o, n) for a in node.args]
        if node.func in ("min", "max", "abs"):
            return {"min": min, "max": max, "abs": abs}[node.func](*args)
        raise _Unknown(node.func)
    if isinstance(node, ListExpr):
        return tuple(_evaluate(i, o, n) for i in node.items)
    if isinstance(node, Compare):
        values = [_evaluate(x, o, n) for x in node.operands]
        for op, a, b in zip(node.ops, values, values[1:]):
            ok = {"==": a == b, "!=": a != b}.get(op) if op in ("==", "!=") else (
                a in b if op == "in" else a not in b if op == "not in" else
                a < b if op == "<" else a <= b if op == "<=" else a > b if op == ">" else a >= b)
            if not ok:
                return False
        return True
    if isinstance(node, BoolOp):
        if node.op == "and":
            return all(_evaluate(v, o, n) for v in node.values)
        return any(_evaluate(v, o, n) for v in node.values)
    if isinstance(node, IfExpr):
        return _evaluate(node.then, o, n) if _evaluate(node.cond, o, n) else _evaluate(node.other, o, n)
    raise _Unknown(type(node).__name__)


def _nodes(node):
    """Every node of an expression tree."""
    yield node
    for child in getattr(node, "__dict__", {}).values():
        for c in child if isinstance(child, list) else [child]:
            if hasattr(c, "offset"):
                yield from _nodes(c)


def _options_read(node) -> set:
    return {x.path[8:] for x in _nodes(node) if isinstance(x, Name) and x.path.startswith("options.")}


class _Tables:
    """Tables of the variant: player counts and the options some check reads."""

    def __init__(self, variant: ir.Variant, seen: list, problems: _Problems):
        self.variant = variant
        self.problems = problems
        self.nodes = {p: c.node for p, c, _ in seen}
        self.rules = [(p, c.node) for p, c, _ in seen if len(p) == 3 and p[0] == "option_rules" and p[2] == "check"]
        self.specs = {o.id: o for o in variant.options}
        self.messages = [c.message for c in variant.constraints]

    def _domain(self, option_id: str, extra: set) -> list:
        o = self.specs[option_id]
        if o.type == "bool":
            return [o.default, not o.default]
        if o.values:
            return [o.default] + [v for v in o.values if v != o.default]
        candidates = {o.default, 0, 1} | {v + d for v in extra for d in (-1, 0, 1)}
        for bound in (o.minimum, o.maximum):
            if bound is not None:
                candidates.add(bound)
        out = [v for v in sorted(candidates) if (o.minimum is None or v >= o.minimum) and (o.maximum is None or v <= o.maximum)]
        return [o.default] + [v for v in out if v != o.default]

    def tables(self, options: set):
        """(options dict, players) for every table over `options` and the
        options the option rules read, the rules met; None when too many."""
        wanted = set(options)
        for _, node in self.rules:
            wanted |= _options_read(node)
        wanted = sorted(w for w in wanted if w in self.specs)
        numbers = {n.value for _, node in self.rules for n in _consts(node)}
        domains = [self._domain(w, numbers) for w in wanted]
        size = len(self.variant.players) * math.prod(len(d) for d in domains)
        if size > MAX_TABLES:
            return None
        defaults = {o.id: o.default for o in self.variant.options}
        out = []
        for n in self.variant.players:
            for values in itertools.product(*domains):
                o = {**defaults, **dict(zip(wanted, values))}
                if self._meets(o, n) is None:
                    out.append((o, n))
        return out

    def _meets(self, o: dict, n: int):
        """The index of the first option rule the table breaks, or None."""
        for i, (_, node) in enumerate(self.rules):
            try:
                if not _evaluate(node, o, n):
                    return i
            except (_Unknown, TypeError, KeyError):
                continue
        return None

    def option_rules(self) -> None:
        if not self.rules:
            return
        v = self.variant
        defaults = {o.id: o.default for o in v.options}
        broken = self._meets(defaults, v.default_players)
        if broken is not None:
            path = self.rules[broken][0]
            read = sorted(_options_read(self.rules[broken][1]))
            shown = ", ".join(f"options.{r} = {_text(defaults[r])}" for r in read)
            self.problems.at(path, f"the default options break this rule at a {v.default_players}-player table"
                             + (f" ({shown})" if shown else "") + f": {self.messages[broken].zh or self.messages[broken].en}")
        tables = self.tables(set())
        if tables is None:
            return
        for n in v.players:
            if not any(players == n for _, players in tables):
                self.problems.at(("option_rules",), f"no choice of options meets every option rule at a {n}-player table,"
                                 " so every such table would be refused")

    def wall(self) -> None:
        v = self.variant
        values = {
            "reserved_tail": (("wall", "reserved_tail"), v.reserved_tail),
            "left_undrawn": (("wall", "left_undrawn"), v.left_undrawn),
            "face_up_tail": (("wall", "face_up_tail"), v.face_up_tail),
        }
        if v.horses is not None:
            values["reward"] = (("horses", "reward", "count"), v.horses.reward)
        reads = set()
        for path, value in values.values():
            if value.expr is not None and path in self.nodes:
                reads |= _options_read(self.nodes[path])
        for i, (tiles, when) in enumerate(v.removals):
            if when.expr is not None and ("tiles", "remove", i, "when") in self.nodes:
                reads |= _options_read(self.nodes[("tiles", "remove", i, "when")])
        indicator = v.wilds.indicator if v.wilds is not None else ir.Value(const=False)
        indicator_path = ("wilds", "indicator", "when")
        if indicator.expr is not None and indicator_path in self.nodes:
            reads |= _options_read(self.nodes[indicator_path])
        tables = self.tables(reads)
        if tables is None:
            return
        reported = set()
        for o, n in tables:
            got = {}
            try:
                for key, (path, value) in values.items():
                    got[key] = self._value(path, value, o, n)
                removed = set()
                for i, (tiles, when) in enumerate(v.removals):
                    if self._value(("tiles", "remove", i, "when"), when, o, n):
                        removed |= set(tiles)
                turned = 1 if self._value(indicator_path, indicator, o, n) else 0
            except (_Unknown, TypeError, KeyError):
                continue
            kinds = [t for t in v.tile_kinds if t not in removed]
            total = sum(v.copies if t < 34 else 1 for t in kinds)
            after_deal = total - v.dealer_tiles - v.other_tiles * (n - 1) - turned
            reserved = max(int(got["reserved_tail"]), int(got.get("reward", 0)))
            undrawn = int(got["left_undrawn"])
            where = _where(o, values, self.nodes, n, v)
            if after_deal - reserved - undrawn <= 0 and "size" not in reported:
                reported.add("size")
                key = "left_undrawn" if undrawn else "reserved_tail"
                self.problems.at(values[key][0], f"{where}the deal leaves {after_deal} tiles in the wall (of {total});"
                                 f" with {reserved} reserved at its end and {undrawn} left undrawn, none is left to draw")
            face_up = int(got["face_up_tail"])
            if face_up > 0 and reserved > 0 and "overlap" not in reported:
                reported.add("overlap")
                what = "reward horses (奖马)" if got.get("reward") else "the reserved tail"
                self.problems.at(values["face_up_tail"][0], f"{where}the face-up tail ({face_up} tiles) and {what}"
                                 f" ({reserved} tiles) are both the last tiles of the wall: a kong could take a horse tile and"
                                 " a tile seen face up would later be turned as one; make them exclusive (an option rule)")

    def _value(self, path, value: ir.Value, o, n):
        if value.expr is None:
            return value.const
        node = self.nodes.get(path)
        if node is None:
            raise _Unknown(str(path))
        return _evaluate(node, o, n)


def _consts(node) -> list:
    return [x for x in _nodes(node) if isinstance(x, Const) and isinstance(x.value, int) and not isinstance(x.value, bool)]


def _where(o: dict, values: dict, nodes: dict, n: int, v: ir.Variant) -> str:
    read = set()
    for path, value in values.values():
        if value.expr is not None and path in nodes:
            read |= _options_read(nodes[path])
    shown = ", ".join(f"{r} = {_text(o[r])}" for r in sorted(read) if r in o)
    return f"at a {n}-player table" + (f" with {shown}" if shown else "") + ", "


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
