"""Load a variant file keeping the line and column of every node.

The result is plain data (dicts, lists, scalars) and a `Positions` map from
a path inside that data (a tuple of keys and indices) to where its value,
or its key, starts in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import CompileError, Diagnostic


@dataclass
class Positions:
    file: str
    values: dict = field(default_factory=dict)  # path -> (line, col), 1-based
    keys: dict = field(default_factory=dict)  # path -> (line, col) of the key itself
    styles: dict = field(default_factory=dict)  # path -> scalar style ('' plain, "'" or '"')

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

    def expr_offset(self, path) -> int:
        """Columns between a scalar's start and its text (1 for a quote)."""
        return 1 if self.styles.get(tuple(path)) in ("'", '"') else 0


def _mark(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, positions: Positions):
        self.pos = positions
        self.errors: list[Diagnostic] = []
        self.constructor = yaml.SafeLoader("")

    def build(self, node, path: tuple):
        self.pos.values[path] = _mark(node)
        if isinstance(node, yaml.MappingNode):
            out = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    line, col = _mark(key_node)
                    self.errors.append(Diagnostic(self.pos.file, line, col, "a key must be a plain name"))
                    continue
                if key_node.tag == "tag:yaml.org,2002:merge":
                    line, col = _mark(key_node)
                    self.errors.append(Diagnostic(self.pos.file, line, col, "YAML merge keys (<<) are not supported; use extends"))
                    continue
                key = self.constructor.construct_object(key_node)
                if key in out:
                    line, col = _mark(key_node)
                    first = self.pos.keys[path + (key,)]
                    self.errors.append(
                        Diagnostic(self.pos.file, line, col, f"duplicate key {key!r} (first given at line {first[0]})")
                    )
                    continue
                self.pos.keys[path + (key,)] = _mark(key_node)
                out[key] = self.build(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        self.pos.styles[path] = node.style or ""
        return self.constructor.construct_object(node)


def load_text(text: str, file: str) -> tuple[object, Positions]:
    """Parse YAML text; raises CompileError with positions on any mistake."""
    positions = Positions(file)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "not valid YAML"
        raise CompileError([Diagnostic(file, line, col, f"YAML syntax: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise CompileError([Diagnostic(file, 1, 1, f"YAML syntax: {exc}")]) from None
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


def load_file(path: str | Path, display: str | None = None) -> tuple[object, Positions, bytes]:
    path = Path(path)
    shown = display or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CompileError([Diagnostic(shown, 1, 1, f"cannot read the file: {exc.strerror}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CompileError([Diagnostic(shown, 1, 1, f"the file is not UTF-8 (byte {exc.start})")]) from None
    data, positions = load_text(text, shown)
    return data, positions, raw
