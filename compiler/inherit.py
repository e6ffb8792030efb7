"""Variant inheritance: `extends: PARENT` in a variant file.

A child states only what differs from its parent (`PARENT.yaml` in the same
folder, which may itself extend another). The merge rules:

- mappings merge key by key, recursively: a key the child gives replaces
  or refines the parent's (so `options: {mai_dian: {default: true}}`
  changes only that option's default, and `scoring: {fans: {new: {...}}}`
  adds a fan);
- a key the child sets to null (`~`) is removed (`fans: {kong: ~}` drops a
  fan, `ready: ~` drops the parent's ready declarations); a null for a key
  the parent does not have stays, and the schema check reports it;
- lists and scalars are replaced whole;
- `title`, `source` and `summary` are never inherited.

Every value keeps the file, line and column it came from, so a mistake in
an inherited value is reported in the parent's file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CompileError, Diagnostic
from .loader import Positions, load_file, load_text

NOT_INHERITED = ("title", "source", "summary")


class LayeredPositions:
    """Positions over data merged from several files: each path answers
    from the file its value came from."""

    def __init__(self, own: Positions):
        self.own = own
        self.file = own.file
        self.owner: dict = {}

    def _for(self, path) -> Positions:
        path = tuple(path)
        while path:
            if path in self.owner:
                return self.owner[path]
            path = path[:-1]
        return self.owner.get((), self.own)

    def of(self, path, key: bool = False):
        return self._for(path).of(path, key)

    def diag(self, path, message: str, key: bool = False, offset: int = 0) -> Diagnostic:
        return self._for(path).diag(path, message, key, offset)

    def at_offset(self, path, offset: int):
        return self._for(path).at_offset(path, offset)

    def diag_at(self, path, offset: int, message: str) -> Diagnostic:
        return self._for(path).diag_at(path, offset, message)

    @property
    def styles(self):
        return _ByPath(self, "styles")


class _ByPath:
    def __init__(self, layered: LayeredPositions, attr: str):
        self.layered, self.attr = layered, attr

    def get(self, path, default=None):
        return getattr(self.layered._for(path), self.attr).get(tuple(path), default)


@dataclass
class Source:
    """A variant's merged data and where each part came from."""

    data: dict
    positions: object
    files: list = field(default_factory=list)  # (display path, raw bytes), child first
    parents: list = field(default_factory=list)  # names, nearest first

    @property
    def sha256(self) -> str:
        if len(self.files) == 1:
            return hashlib.sha256(self.files[0][1]).hexdigest()
        h = hashlib.sha256()
        for display, raw in self.files:
            h.update(display.encode() + b"\0" + hashlib.sha256(raw).digest())
        return h.hexdigest()

    @property
    def raw(self) -> bytes:
        return self.files[0][1]


def _merge(parent, child, ppos, cpos, layered: LayeredPositions, path: tuple):
    if isinstance(parent, dict) and isinstance(child, dict):
        out = dict(parent)
        for key, value in child.items():
            sub = path + (key,)
            if value is None and key in parent:
                out.pop(key)
            elif key in parent and isinstance(parent[key], dict) and isinstance(value, dict):
                layered.owner[sub] = cpos
                out[key] = _merge(parent[key], value, ppos, cpos, layered, sub)
            else:
                layered.owner[sub] = cpos
                out[key] = value
        for key in parent:
            if key not in child:
                layered.owner[path + (key,)] = ppos
        return out
    return child


def _owned_by(layered: LayeredPositions, data, pos, path=()):
    """Record `pos` as the owner of every path under `data`."""
    layered.owner[path] = pos
    if isinstance(data, dict):
        for key, value in data.items():
            _owned_by(layered, value, pos, path + (key,))


def load_variant(path: Path, display: str) -> Source:
    """Load a variant file and, through `extends`, its ancestors, which are
    `NAME.yaml` files in the same folder."""
    path = Path(path)
    base = display.rsplit("/", 1)[0] + "/" if "/" in display else ""

    def loader(name):
        parent = path.parent / f"{name}.yaml"
        return load_file(parent, f"{base}{name}.yaml") if parent.exists() else None

    data, pos, raw = load_file(path, display)
    return _resolve(path.stem, data, pos, raw, loader, ())


def load_variant_text(text: str, name: str, display: str, parents: dict | None = None) -> Source:
    """Like `load_variant` for text, with parents given as {name: text}."""
    parents = parents or {}

    def loader(parent):
        if parent not in parents:
            return None
        return (*load_text(parents[parent], f"{parent}.yaml"), parents[parent].encode("utf-8"))

    data, pos = load_text(text, display)
    return _resolve(name, data, pos, text.encode("utf-8"), loader, ())


def _resolve(name, data, pos, raw, loader, chain) -> Source:
    source = Source(data, pos, [(pos.file, raw)])
    if not isinstance(data, dict) or "extends" not in data:
        return source
    parent_name = data["extends"]
    where = pos.of(("extends",))
    if not isinstance(parent_name, str):
        return source  # the schema reports the type
    if parent_name == name or parent_name in chain:
        cycle = " -> ".join((*chain, name, parent_name))
        raise CompileError([Diagnostic(pos.file, where[0], where[1], f"extends makes a cycle: {cycle}")])
    loaded = loader(parent_name)
    if loaded is None:
        raise CompileError([Diagnostic(pos.file, where[0], where[1], f"extends unknown variant {parent_name!r}: no {parent_name}.yaml beside this file")])
    pdata, ppos, praw = loaded
    parent = _resolve(parent_name, pdata, ppos, praw, loader, (*chain, name))
    layered = LayeredPositions(pos)
    _owned_by(layered, parent.data, parent.positions)
    inherited = {k: v for k, v in parent.data.items() if k not in NOT_INHERITED and k != "extends"}
    merged = _merge(inherited, data, parent.positions, pos, layered, ())
    layered.owner[()] = pos
    return Source(merged, layered, [(pos.file, raw)] + parent.files, [parent_name] + parent.parents)
