"""Load a variant file keeping the line and column of every node.

The result is plain data (dicts, lists, scalars) and a `Positions` map from
a path inside that data (a tuple of keys and indices) to where its value,
or its key, starts in the file.

The file is parsed by libyaml (PyYAML's `CSafeLoader`) where PyYAML was
built with it, else by PyYAML's pure-Python parser: both compose the same
nodes with the same line, column and character index marks (libyaml counts
characters, not bytes). A file libyaml refuses is parsed again by the pure
parser, so that every syntax error reads the same whichever parser runs
(libyaml words its errors differently); bad files are rare and small, the
good ones are the ones that need to be fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import CompileError, Diagnostic

PURE_LOADER = yaml.SafeLoader
# libyaml's loader, or None where PyYAML was installed without it
C_LOADER = getattr(yaml, "CSafeLoader", None)


def backend() -> str:
    """Which YAML parser `load_text` uses: 'libyaml' or 'python'."""
    return "libyaml" if C_LOADER is not None else "python"


@dataclass
class Positions:
    file: str
    values: dict = field(default_factory=dict)  # path -> (line, col), 1-based
    keys: dict = field(default_factory=dict)  # path -> (line, col) of the key itself
    styles: dict = field(default_factory=dict)  # path -> scalar style ('' plain, "'" or '"')
    spans: dict = field(default_factory=dict)  # path -> (start, end) character index of a scalar
    text: str = ""

    def of(self, path, key: bool = False) -> tuple[int, int]:
        """Where `path` starts; falls back to its closest ancestor."""
        path = tuple(path)
        table = self.keys if key else self.values
        while path:
            if path in table:
                return table[path]
            if path in self.values:
                return self.values[path]
            path = path[:-1]
        return self.values.get((), (1, 1))

    def diag(self, path, message: str, key: bool = False, offset: int = 0) -> Diagnostic:
        line, col = self.of(path, key)
        return Diagnostic(self.file, line, col + offset, message)

    def at_offset(self, path, offset: int) -> tuple[int, int]:
        """Where the character `offset` of a scalar's value sits in the file,
        following YAML's folding of plain, quoted and block scalars."""
        path = tuple(path)
        if path not in self.spans:
            return self.of(path)
        where = _char_positions(self.text, *self.spans[path], self.styles.get(path, ""))
        if not where:
            return self.of(path)
        return where[min(offset, len(where) - 1)]

    def diag_at(self, path, offset: int, message: str) -> Diagnostic:
        line, col = self.at_offset(path, offset)
        return Diagnostic(self.file, line, col, message)


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _char_positions(text: str, start: int, end: int, style: str) -> list[tuple[int, int]]:
    """(line, col) of each character of a scalar's folded value, and one
    more for the position just after it."""
    raw = text[start:end]
    out: list[tuple[int, int]] = []
    if style in (">", "|"):
        first = raw.find("\n")
        if first < 0:
            return []
        body_start = start + first + 1
        lines = text[body_start:end].split("\n")
        indent = min((len(x) - len(x.lstrip(" ")) for x in lines if x.strip()), default=0)
        index = body_start
        for i, line in enumerate(lines):
            for k, _ in enumerate(line[indent:]):
                out.append(_line_col(text, index + indent + k))
            index += len(line) + 1
            out.append(_line_col(text, index - 1))  # the joining space or newline
        return out
    index = start + (1 if style in ("'", '"') else 0)
    stop = end - (1 if style in ("'", '"') else 0)
    pending_space = False
    while index < stop:
        ch = text[index]
        if ch == "\n":
            pending_space = True
            index += 1
            while index < stop and text[index] in " \t":
                index += 1
            continue
        if pending_space:
            out.append(_line_col(text, index))  # the folded line break reads as a space
            pending_space = False
        out.append(_line_col(text, index))
        index += 1
    out.append(_line_col(text, stop))
    return out


_STR = "tag:yaml.org,2002:str"


def _mark(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, positions: Positions):
        self.pos = positions
        self.errors: list[Diagnostic] = []
        self.constructor = yaml.SafeLoader("")
        self.built: set[int] = set()  # collection nodes seen: a second visit is an alias
        self.values, self.keys = positions.values, positions.keys
        self.styles, self.spans = positions.styles, positions.spans

    def build(self, node, path: tuple):
        mark = node.start_mark
        self.values[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            self.styles[path] = node.style or ""
            self.spans[path] = (mark.index, node.end_mark.index)
            if node.tag == _STR:
                return node.value  # what SafeConstructor.construct_yaml_str returns, without its bookkeeping
            return self.constructor.construct_object(node)
        if id(node) in self.built:
            # aliases of collections could expand a small file without bound
            line, col = _mark(node)
            self.errors.append(Diagnostic(self.pos.file, line, col, "YAML aliases of mappings and lists (*name) are not supported"))
            return None
        self.built.add(id(node))
        if isinstance(node, yaml.MappingNode):
            out: dict = {}
            keys = self.keys
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    line, col = _mark(key_node)
                    self.errors.append(Diagnostic(self.pos.file, line, col, "a key must be a plain name"))
                    continue
                tag = key_node.tag
                if tag == _STR:
                    key = key_node.value  # as construct_object gives it
                elif tag == "tag:yaml.org,2002:merge":
                    line, col = _mark(key_node)
                    self.errors.append(Diagnostic(self.pos.file, line, col, "YAML merge keys (<<) are not supported; use extends"))
                    continue
                else:
                    key = self.constructor.construct_object(key_node)
                sub = path + (key,)
                if key in out:
                    line, col = _mark(key_node)
                    first = keys[sub]
                    self.errors.append(
                        Diagnostic(self.pos.file, line, col, f"duplicate key {key!r} (first given at line {first[0]})")
                    )
                    continue
                keys[sub] = _mark(key_node)
                out[key] = self.build(value_node, sub)
            return out
        return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]


def _syntax_message(exc: yaml.MarkedYAMLError) -> tuple[object, str]:
    """A YAML parser error in a designer's words, and where to point."""
    problem = (exc.problem or exc.context or "not valid YAML").strip()
    context = (exc.context or "").strip()
    mark, ctx = exc.problem_mark, exc.context_mark
    found = problem.split("but found", 1)[-1].split("but got", 1)[-1].strip() if "but" in problem else ""
    if context.startswith("while parsing a flow") and ctx is not None:
        bracket = "[" if "sequence" in context else "{"
        closing = "]" if bracket == "[" else "}"
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        return ctx, f"this '{bracket}' is never closed: expected ',' or '{closing}', but found {found}{where}"
    if "expected <block end>" in problem and ctx is not None:
        return mark, (
            f"bad indentation: this key does not line up with the mapping that starts at line "
            f"{ctx.line + 1}, column {ctx.column + 1}"
        )
    if "mapping values are not allowed here" in problem:
        return mark, "a ':' where no key may start: check the indentation, or quote text that contains ': '"
    if "found character '\\t'" in problem:
        return mark, "a tab character: YAML indents with spaces only"
    return mark or ctx, problem.replace("<block end>", "the end of the block")


MAX_DEPTH = 100  # mappings and lists nested deeper than this are refused


def _check_depth(text: str, file: str, loader=PURE_LOADER) -> None:
    """Refuse nesting past MAX_DEPTH before building anything (the YAML
    parser reads events without recursion; composing and building the tree
    recurse)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark
                    raise CompileError([Diagnostic(file, mark.line + 1, mark.column + 1,
                                                   f"nested more than {MAX_DEPTH} levels deep")])
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return  # a syntax error: compose reports it with its position


def _compose_pure(text: str, file: str):
    """The root node by the pure-Python parser, or a CompileError in the
    designer's words."""
    _check_depth(text, file, PURE_LOADER)
    try:
        return yaml.compose(text, Loader=PURE_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark, message = _syntax_message(exc)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise CompileError([Diagnostic(file, line, col, f"YAML syntax: {message}")]) from None
    except yaml.YAMLError as exc:
        raise CompileError([Diagnostic(file, 1, 1, f"YAML syntax: {exc}")]) from None


def compose(text: str, file: str, loader=None):
    """The root node of `text` (None for an empty file), parsed by `loader`:
    `C_LOADER` (the default where present) or `PURE_LOADER`. Any error
    libyaml finds is reported as the pure parser reports it."""
    loader = C_LOADER if loader is None else loader
    if loader is None or loader is PURE_LOADER:
        return _compose_pure(text, file)
    try:
        root = yaml.compose(text, Loader=loader)
    except yaml.YAMLError:
        return _compose_pure(text, file)  # raises, with the pure parser's words (or agrees with libyaml's tree)
    if root is not None and _deeper_than(root, MAX_DEPTH):
        return _compose_pure(text, file)  # raises, as for a syntax error
    return root


def _deeper_than(root, limit: int) -> bool:
    """Whether mappings and lists nest deeper than `limit` in a tree libyaml
    composed (libyaml itself refuses nesting past 1000, so its composing
    cannot run away): the depth `_check_depth` counts from the events, with
    each collection counted where it first appears, not again where an
    alias repeats it. Walking the tree costs less than parsing the text a
    second time."""
    seen: set[int] = set()
    collections = (yaml.MappingNode, yaml.SequenceNode)

    def walk(node, depth: int) -> bool:
        if id(node) in seen:
            return False
        seen.add(id(node))
        if depth > limit:
            return True
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, collections) and walk(key, depth + 1):
                    return True
                if isinstance(value, collections) and walk(value, depth + 1):
                    return True
            return False
        return any(walk(item, depth + 1) for item in node.value if isinstance(item, collections))

    return isinstance(root, collections) and walk(root, 1)


def load_text(text: str, file: str, loader=None) -> tuple[object, Positions]:
    """Parse YAML text; raises CompileError with positions on any mistake.
    `loader` as for `compose`."""
    positions = Positions(file, text=text)
    root = compose(text, file, loader)
    if root is None:
        raise CompileError([Diagnostic(file, 1, 1, "the file is empty: expected a mapping of variant keys")])
    builder = _Builder(positions)
    try:
        data = builder.build(root, ())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        raise CompileError([Diagnostic(file, mark.line + 1, mark.column + 1, exc.problem)]) from None
    if builder.errors:
        raise CompileError(builder.errors)
    return data, positions


def load_file(path: str | Path, display: str | None = None, loader=None) -> tuple[object, Positions, bytes]:
    path = Path(path)
    shown = display or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CompileError([Diagnostic(shown, 1, 1, f"cannot read the file: {exc.strerror}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = raw[exc.start:exc.end].hex(" ")
        raise CompileError([Diagnostic(shown, line, col, f"the file is not UTF-8: byte {exc.start + 1} (0x{bad}) is not UTF-8 text; save it as UTF-8")]) from None
    data, positions = load_text(text, shown, loader)
    return data, positions, raw
