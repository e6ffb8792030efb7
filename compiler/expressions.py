"""The expression language of variant files: parse, check, emit Python.

Grammar (lowest precedence first)::

    expr       := or_expr ["if" or_expr "else" expr]
    or_expr    := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | comparison
    comparison := sum (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in") sum)*
    sum        := term (("+" | "-") term)*
    term       := unary (("*" | "/" | "//" | "%") unary)*
    unary      := "-" unary | power
    power      := primary ["**" unary]
    primary    := INT | STRING | TILES | "true" | "false"
                | NAME ("." NAME)* ["(" [expr ("," expr)*] ")"]
                | "(" expr ")" | "[" [expr ("," expr)*] "]"

`TILES` is MPSZ text (`2s`, `123m`): one tile has type tile, several have
type tiles. Names are facts of `runtime.vocabulary`, `options.ID` for a
table option, `WHO.choice.ID` for a declaration made at the opening, a
named tile group (`honours`, `terminals`, ...) or one of the functions
`min`, `max`, `abs`. `/` divides integers and rounds down.

Every expression is checked for names and types, then emitted as a plain
Python expression over the fact objects; nothing is ever `eval`-ed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from runtime import tiles as tilemod
from runtime import vocabulary as vocab

from .pyformat import TILE_SET

BOOL, INT, TILE, TILES, STR = vocab.BOOL, vocab.INT, vocab.TILE, vocab.TILES, vocab.STR


class ExprError(Exception):
    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


# ---------------------------------------------------------------- tokens

_TOKEN_RE = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<tiles>(?:[0-9]+[mpszf])+(?![A-Za-z0-9_]))
  | (?P<int>[0-9]+(?![A-Za-z_]))
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\*\*|//|==|!=|<=|>=|[-+*/%<>().,\[\]])
    """,
    re.VERBOSE,
)

_KEYWORDS = {"and", "or", "not", "if", "else", "in", "true", "false", "True", "False"}


@dataclass
class Token:
    kind: str
    text: str
    offset: int


def tokenize(text: str) -> list[Token]:
    out = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m:
            raise ExprError(f"unexpected character {text[pos]!r}", pos)
        kind = m.lastgroup
        if kind != "space":
            word = m.group()
            if kind == "name" and word in _KEYWORDS:
                kind = "kw"
            out.append(Token(kind, word, pos))
        pos = m.end()
    out.append(Token("end", "", len(text)))
    return out


# ---------------------------------------------------------------- syntax tree


@dataclass
class Node:
    offset: int
    type: str = field(default="", init=False)


@dataclass
class Const(Node):
    value: object


@dataclass
class TileConst(Node):
    tiles: tuple


@dataclass
class Name(Node):
    path: str


@dataclass
class Call(Node):
    func: str
    args: list


@dataclass
class ListExpr(Node):
    items: list


@dataclass
class Unary(Node):
    op: str
    operand: Node


@dataclass
class Binary(Node):
    op: str
    left: Node
    right: Node


@dataclass
class Compare(Node):
    ops: list
    operands: list


@dataclass
class BoolOp(Node):
    op: str
    values: list


@dataclass
class IfExpr(Node):
    cond: Node
    then: Node
    other: Node


# ---------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self) -> Token:
        return self.tokens[self.i]

    def next(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def accept(self, text: str) -> Token | None:
        tok = self.peek()
        if tok.kind in ("op", "kw") and tok.text == text:
            self.i += 1
            return tok
        return None

    def expect(self, text: str) -> Token:
        tok = self.accept(text)
        if tok is None:
            got = self.peek()
            raise ExprError(f"expected {text!r}, found {_describe(got)}", got.offset)
        return tok

    def parse(self) -> Node:
        node = self.expr()
        tok = self.peek()
        if tok.kind != "end":
            raise ExprError(f"unexpected {_describe(tok)} after a complete expression", tok.offset)
        return node

    def expr(self) -> Node:
        node = self.or_expr()
        if self.accept("if"):
            cond = self.or_expr()
            self.expect("else")
            other = self.expr()
            return IfExpr(node.offset, cond, node, other)
        return node

    def or_expr(self) -> Node:
        values = [self.and_expr()]
        while self.accept("or"):
            values.append(self.and_expr())
        return values[0] if len(values) == 1 else BoolOp(values[0].offset, "or", values)

    def and_expr(self) -> Node:
        values = [self.not_expr()]
        while self.accept("and"):
            values.append(self.not_expr())
        return values[0] if len(values) == 1 else BoolOp(values[0].offset, "and", values)

    def not_expr(self) -> Node:
        tok = self.accept("not")
        if tok:
            return Unary(tok.offset, "not", self.not_expr())
        return self.comparison()

    _CMP = ("==", "!=", "<", "<=", ">", ">=")

    def comparison(self) -> Node:
        first = self.sum()
        ops, operands = [], [first]
        while True:
            tok = self.peek()
            if tok.kind == "op" and tok.text in self._CMP:
                self.next()
                ops.append(tok.text)
            elif tok.kind == "kw" and tok.text == "in":
                self.next()
                ops.append("in")
            elif tok.kind == "kw" and tok.text == "not" and self.tokens[self.i + 1].text == "in":
                self.i += 2
                ops.append("not in")
            else:
                break
            operands.append(self.sum())
        return first if not ops else Compare(first.offset, ops, operands)

    def sum(self) -> Node:
        node = self.term()
        while self.peek().kind == "op" and self.peek().text in ("+", "-"):
            op = self.next().text
            node = Binary(node.offset, op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek().kind == "op" and self.peek().text in ("*", "/", "//", "%"):
            op = self.next().text
            node = Binary(node.offset, "//" if op == "/" else op, node, self.unary())
        return node

    def unary(self) -> Node:
        tok = self.accept("-")
        if tok:
            return Unary(tok.offset, "-", self.unary())
        return self.power()

    def power(self) -> Node:
        node = self.primary()
        if self.accept("**"):
            return Binary(node.offset, "**", node, self.unary())
        return node

    def primary(self) -> Node:
        tok = self.next()
        if tok.kind == "int":
            return Const(tok.offset, int(tok.text))
        if tok.kind == "string":
            return Const(tok.offset, tok.text[1:-1])
        if tok.kind == "tiles":
            try:
                tiles = tuple(tilemod.parse_group(tok.text))
            except tilemod.TileError as exc:
                raise ExprError(str(exc), tok.offset) from None
            return TileConst(tok.offset, tiles)
        if tok.kind == "kw" and tok.text in ("true", "True", "false", "False"):
            return Const(tok.offset, tok.text in ("true", "True"))
        if tok.kind == "name":
            path = tok.text
            while self.accept("."):
                part = self.next()
                if part.kind != "name":
                    raise ExprError(f"expected a name after '.', found {_describe(part)}", part.offset)
                path += "." + part.text
            if self.accept("("):
                args = []
                if not self.accept(")"):
                    args.append(self.expr())
                    while self.accept(","):
                        args.append(self.expr())
                    self.expect(")")
                return Call(tok.offset, path, args)
            return Name(tok.offset, path)
        if tok.kind == "op" and tok.text == "(":
            node = self.expr()
            self.expect(")")
            return node
        if tok.kind == "op" and tok.text == "[":
            items = []
            if not self.accept("]"):
                items.append(self.expr())
                while self.accept(","):
                    items.append(self.expr())
                self.expect("]")
            return ListExpr(tok.offset, items)
        raise ExprError(f"expected a value, found {_describe(tok)}", tok.offset)


def _describe(tok: Token) -> str:
    return "the end of the expression" if tok.kind == "end" else repr(tok.text)


def parse(text: str) -> Node:
    return _Parser(text).parse()


# ---------------------------------------------------------------- checking


@dataclass(frozen=True)
class OptionType:
    """What the checker needs to know of a table option."""

    type: str  # bool, int or str
    values: tuple = ()


@dataclass
class Env:
    scope: str
    options: dict  # id -> OptionType
    defs: dict = field(default_factory=dict)  # name -> Compiled, usable as facts
    fans: frozenset = frozenset()  # fan ids, for fans.ID in result and settle expressions
    choices: dict = field(default_factory=dict)  # declaration id -> the values offered ("" always)


def suggest(word: str, candidates) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(candidates), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""


class _Checker:
    def __init__(self, env: Env):
        self.env = env
        self.names: set[str] = set()

    def check(self, node: Node) -> str:
        node.type = getattr(self, "_" + type(node).__name__)(node)
        return node.type

    def _Const(self, node):
        if isinstance(node.value, bool):
            return BOOL
        return INT if isinstance(node.value, int) else STR

    def _TileConst(self, node):
        return TILE if len(node.tiles) == 1 else TILES

    def _Name(self, node):
        path = node.path
        self.names.add(path)
        if path.startswith("options."):
            opt = path[len("options."):]
            if opt not in self.env.options:
                raise ExprError(
                    f"unknown option {opt!r}" + _alternatives(opt, self.env.options), node.offset
                )
            return self.env.options[opt].type
        if path in self.env.defs:
            return self.env.defs[path].type
        if path.startswith("fans.") and self.env.scope in (vocab.RESULT, vocab.SETTLE):
            if path[5:] not in self.env.fans:
                raise ExprError(f"unknown fan {path[5:]!r}" + suggest(path[5:], self.env.fans), node.offset)
            return INT
        if path in vocab.TILE_GROUPS:
            return TILES
        parts = path.split(".")
        if len(parts) == 3 and parts[1] == "choice":
            return self._choice(node, parts[0], parts[2])
        fact = vocab.lookup(path, self.env.scope)
        if fact is None:
            raise ExprError(self._unknown(path), node.offset)
        if fact.args:
            raise ExprError(f"{path} needs arguments: {path}({', '.join(fact.args)})", node.offset)
        return fact.type

    def _choice(self, node, who: str, cid: str) -> str:
        if (self.env.scope, who) not in vocab.CHOICE_CODE:
            known = sorted(w for s, w in vocab.CHOICE_CODE if s == self.env.scope)
            where = f"; here: {', '.join(w + '.choice.ID' for w in known)}" if known else ""
            raise ExprError(f"{who}.choice is not known in a {self.env.scope} expression{where}", node.offset)
        if cid not in self.env.choices:
            if not self.env.choices:
                raise ExprError(f"no declaration {cid!r}: the opening declares none (opening: - declare: ...)", node.offset)
            raise ExprError(f"unknown declaration {cid!r}" + _alternatives(cid, self.env.choices), node.offset)
        return STR

    def _unknown(self, path: str) -> str:
        other = [f.scopes for f in vocab.FACTS if f.name == path]
        if other:
            where = ", ".join(sorted(set().union(*other)))
            return f"{path} is not known in a {self.env.scope} expression (it is known in: {where})"
        known = vocab.names_in_scope(self.env.scope) + ["options." + o for o in self.env.options] + list(self.env.defs)
        return f"unknown name {path!r}" + suggest(path, known)

    def _Call(self, node):
        args = [self.check(a) for a in node.args]
        if node.func in ("min", "max"):
            if not args or any(t != INT for t in args):
                raise ExprError(f"{node.func}() takes one or more integers", node.offset)
            return INT
        if node.func == "abs":
            if args != [INT]:
                raise ExprError("abs() takes one integer", node.offset)
            return INT
        fact = vocab.lookup(node.func, self.env.scope)
        if fact is None or not fact.args:
            raise ExprError(self._unknown(node.func) if fact is None else f"{node.func} is not a function", node.offset)
        self.names.add(node.func)
        if node.func in _SEES_NO_FLOWERS and any(_names_flowers(a) for a in node.args):
            raise ExprError(f"{node.func} counts tiles of the hand, where flowers never are; count the flowers set "
                            f"aside with {_SEES_NO_FLOWERS[node.func]}", node.offset)
        want = list(fact.args)
        if len(args) != len(want) or any(not _fits(a, w) for a, w in zip(args, want)):
            raise ExprError(
                f"{node.func}() takes ({', '.join(want)}), got ({', '.join(args)})", node.offset
            )
        return fact.type

    def _ListExpr(self, node):
        types = [self.check(i) for i in node.items]
        if all(t in (TILE, TILES) for t in types):
            return TILES
        if all(t == INT for t in types):
            return "ints"
        if all(t == STR for t in types):
            return "strs"
        raise ExprError("a list holds tiles, integers or strings, not a mix", node.offset)

    def _Unary(self, node):
        t = self.check(node.operand)
        if node.op == "not":
            _need(t, BOOL, "'not'", node.operand)
            return BOOL
        _need(t, INT, "'-'", node.operand)
        return INT

    def _Binary(self, node):
        for side in (node.left, node.right):
            _need(self.check(side), INT, repr("/" if node.op == "//" else node.op), side)
        return INT

    def _Compare(self, node):
        types = [self.check(o) for o in node.operands]
        for op, (lt, rt), right in zip(node.ops, zip(types, types[1:]), node.operands[1:]):
            if op in ("in", "not in"):
                ok = (lt == TILE and rt == TILES) or (lt == INT and rt == "ints") or (lt == STR and rt == "strs")
                if not ok:
                    raise ExprError(f"'{op}' cannot test {_a(lt)} against {_a(rt)}", right.offset)
            elif op in ("==", "!="):
                if lt != rt and {lt, rt} != {TILE, TILES}:
                    raise ExprError(f"cannot compare {_a(lt)} with {_a(rt)}", right.offset)
            else:
                _need(lt, INT, repr(op), node.operands[0])
                _need(rt, INT, repr(op), right)
        self._check_option_strings(node)
        return BOOL

    def _check_option_strings(self, node):
        """`options.X == v`, `!=`, `in [...]`: v must be a value the option
        offers (an order comparison such as `>= 6` may use any number)."""
        for op, left, right in zip(node.ops, node.operands, node.operands[1:]):
            if op in ("==", "!="):
                pairs = [(left, right), (right, left)]
            elif op in ("in", "not in") and isinstance(right, ListExpr):
                pairs = [(left, item) for item in right.items]
            else:
                continue
            for a, b in pairs:
                if isinstance(a, Name) and a.path.startswith("options.") and isinstance(b, Const):
                    opt = self.env.options.get(a.path[8:])
                    if opt and opt.values and b.value not in opt.values:
                        raise ExprError(
                            f"option {a.path[8:]} has no value {b.value!r}"
                            + _alternatives(str(b.value), [str(v) for v in opt.values], keep_order=True),
                            b.offset,
                        )
                if isinstance(a, Name) and ".choice." in a.path and isinstance(b, Const):
                    cid = a.path.split(".")[2]
                    values = self.env.choices.get(cid, ())
                    if values and b.value not in values and b.value != "":
                        raise ExprError(
                            f"declaration {cid} has no value {b.value!r}"
                            + _alternatives(str(b.value), [str(v) for v in values], keep_order=True),
                            b.offset,
                        )

    def _BoolOp(self, node):
        for v in node.values:
            _need(self.check(v), BOOL, f"'{node.op}'", v)
        return BOOL

    def _IfExpr(self, node):
        _need(self.check(node.cond), BOOL, "'if'", node.cond)
        a, b = self.check(node.then), self.check(node.other)
        if a != b:
            raise ExprError(f"both branches of 'if' must have one type, got {_a(a)} and {_a(b)}", node.other.offset)
        return a


# facts over the hand's tiles, and what to use for flowers instead
_SEES_NO_FLOWERS = {
    "hand.count": "hand.flowers_held(...)", "hand.concealed_copies": "hand.flowers_held(...)",
    "melds.copies": "hand.flowers_held(...)", "hand.kinds_in": "hand.flowers_held(...)",
    "hand.only": "hand.flowers_held(...) and hand.flowers", "hand.any": "hand.flowers_held(...) > 0",
    "sets.has_pung": "hand.flowers_held(...)", "sets.has_chow": "hand.flowers_held(...)",
    "sets.pungs_of": "hand.flowers_held(...)", "sets.chows_of": "hand.flowers_held(...)",
    "sets.all_contain": "hand.flowers_held(...)",
}


def _names_flowers(node) -> bool:
    if isinstance(node, TileConst):
        return any(t >= tilemod.FLOWER_BASE for t in node.tiles)
    if isinstance(node, ListExpr):
        return any(_names_flowers(i) for i in node.items)
    return False


def _alternatives(word, candidates, keep_order: bool = False) -> str:
    candidates = list(candidates) if keep_order else sorted(candidates)
    if 0 < len(candidates) <= 8:
        return f"; expected one of: {', '.join(candidates)}"
    return suggest(word, candidates)


def _a(type_name: str) -> str:
    """The type name with its article: 'an int', 'a tile'."""
    word = {"ints": "list of integers", "strs": "list of strings", "tiles": "list of tiles", "str": "string"}.get(
        type_name, type_name
    )
    return ("an " if word[0] in "aeiou" else "a ") + word


def _fits(actual: str, wanted: str) -> bool:
    return actual == wanted or (wanted == TILES and actual == TILE)


def _need(actual: str, wanted: str, what: str, node: Node) -> None:
    if actual != wanted:
        raise ExprError(f"{what} needs {_a(wanted)}, got {_a(actual)}", node.offset)


# ---------------------------------------------------------------- emitting

_PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6, "neg": 7, "**": 8}


class _Emitter:
    def __init__(self, env: Env):
        self.env = env

    def emit(self, node: Node) -> tuple[str, int]:
        return getattr(self, "_" + type(node).__name__)(node)

    def wrap(self, node: Node, level: int) -> str:
        code, prec = self.emit(node)
        return f"({code})" if prec < level else code

    def _Const(self, node):
        return repr(node.value), 9

    def _TileConst(self, node):
        if len(node.tiles) == 1:
            return str(node.tiles[0]), 9
        return _tileset(node.tiles), 9

    def _Name(self, node):
        if node.path.startswith("options."):
            return vocab.OPTION_CODE.format(node.path[8:]), 9
        if node.path in self.env.defs:
            return f"({self.env.defs[node.path].code})", 9
        if node.path.startswith("fans."):
            code = vocab.FAN_CODE_SETTLE if self.env.scope == vocab.SETTLE else vocab.FAN_CODE
            return code.format(node.path[5:]), 9
        parts = node.path.split(".")
        if len(parts) == 3 and parts[1] == "choice":
            return f"{vocab.CHOICE_CODE[(self.env.scope, parts[0])]}.get({parts[2]!r}, '')", 9
        if node.path in vocab.TILE_GROUPS:
            return _tileset(tilemod.parse_group(vocab.TILE_GROUPS[node.path])), 9
        return vocab.lookup(node.path, self.env.scope).code, 9

    def _Call(self, node):
        codes = [self.emit(a)[0] for a in node.args]
        if node.func in ("min", "max", "abs"):
            return f"{node.func}({', '.join(codes)})", 9
        fact = vocab.lookup(node.func, self.env.scope)
        for i, (arg, wanted) in enumerate(zip(node.args, fact.args)):
            if wanted == TILES and arg.type == TILE:
                codes[i] = f"frozenset({{{codes[i]}}})"
        constant = TILE_SET.fullmatch(codes[0]) if fact.bits and len(codes) == 1 else None
        if constant:
            # a constant set: its kinds as bits (`tilebits`, made a module constant when rendered)
            return f"{fact.bits}(tilebits({{{constant.group(1)}}}))", 9
        return f"{fact.code}({', '.join(codes)})", 9

    def _ListExpr(self, node):
        if node.type == TILES:
            tiles = []
            singles: list[str] = []  # tiles known only at run time
            groups: list[str] = []  # sets of tiles known only at run time
            for item in node.items:
                if isinstance(item, TileConst):
                    tiles.extend(item.tiles)
                elif isinstance(item, Name) and item.path in vocab.TILE_GROUPS:
                    tiles.extend(tilemod.parse_group(vocab.TILE_GROUPS[item.path]))
                elif item.type == TILE:
                    singles.append(self.emit(item)[0])
                else:
                    groups.append(self.wrap(item, 9))
            if not singles and not groups:
                return _tileset(tiles), 9
            parts = ([f"frozenset(({', '.join(singles)},))"] if singles else []) + groups
            if tiles:
                parts.append(_tileset(tiles))
            return (parts[0] if len(parts) == 1 else "(" + " | ".join(parts) + ")"), 9
        codes = [self.emit(i)[0] for i in node.items]
        return "(" + ", ".join(codes) + ("," if len(codes) == 1 else "") + ")", 9

    def _Unary(self, node):
        if node.op == "not":
            return f"not {self.wrap(node.operand, _PREC['not'])}", _PREC["not"]
        return f"-{self.wrap(node.operand, _PREC['neg'])}", _PREC["neg"]

    def _Binary(self, node):
        p = _PREC[node.op]
        if node.op == "**":
            return f"{self.wrap(node.left, p + 1)} ** {self.wrap(node.right, _PREC['neg'])}", p
        return f"{self.wrap(node.left, p)} {node.op} {self.wrap(node.right, p + 1)}", p

    def _capped(self, node: Node) -> str:
        """The capped code of a count fact (`Fact.capped`), else ''."""
        if not isinstance(node, Name) or node.path in self.env.defs or "." not in node.path:
            return ""
        if node.path.startswith(("options.", "fans.")):
            return ""
        fact = vocab.lookup(node.path, self.env.scope)
        return fact.capped if fact is not None else ""

    def _Compare(self, node):
        if len(node.ops) == 1 and node.ops[0] in _Parser._CMP:
            # a costly count against a number: read it capped one past the number
            left, right = node.operands
            for count, number in ((left, right), (right, left)):
                cap = self._capped(count)
                if cap and isinstance(number, Const) and type(number.value) is int and number.value >= 0:
                    capped = cap.format(number.value + 1)
                    sides = (capped, repr(number.value)) if count is left else (repr(number.value), capped)
                    return f"{sides[0]} {node.ops[0]} {sides[1]}", _PREC["cmp"]
        parts = [self.wrap(node.operands[0], _PREC["cmp"] + 1)]
        for op, operand in zip(node.ops, node.operands[1:]):
            parts.append(op)
            parts.append(self.wrap(operand, _PREC["cmp"] + 1))
        return " ".join(parts), _PREC["cmp"]

    def _BoolOp(self, node):
        p = _PREC[node.op]
        return f" {node.op} ".join(self.wrap(v, p + 1) for v in node.values), p

    def _IfExpr(self, node):
        return f"{self.wrap(node.then, 1)} if {self.wrap(node.cond, 1)} else {self.wrap(node.other, 0)}", 0


def _tileset(tiles) -> str:
    return "frozenset({" + ", ".join(str(t) for t in sorted(set(tiles))) + "})"


@dataclass(frozen=True)
class Compiled:
    source: str
    code: str
    type: str
    names: frozenset
    node: Node | None = None

    def results(self) -> list:
        """The literal values the expression can give, or None where a
        branch gives a computed value (an option, a fact)."""
        out = []

        def walk(n):
            if isinstance(n, IfExpr):
                walk(n.then)
                walk(n.other)
            elif isinstance(n, Const):
                out.append((n.value, n.offset))
            else:
                out.append((None, n.offset))

        walk(self.node)
        return out


def compile_expr(text: str, env: Env, want: str | None = None) -> Compiled:
    """Parse, check and emit one expression; raises ExprError."""
    node = parse(text)
    checker = _Checker(env)
    actual = checker.check(node)
    if want is not None and not _fits(actual, want):
        raise ExprError(f"expected {_a(want)} expression, this one gives {_a(actual)}", 0)
    code, _ = _Emitter(env).emit(node)
    names = set(checker.names)
    for name in list(names):
        if name in env.defs:
            names |= env.defs[name].names
    return Compiled(text, code, actual, frozenset(names), node)
