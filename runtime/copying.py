"""Copies of the engine's objects that work on compiled classes too: a
mypyc class has no `__dict__` (its fields are listed in `__mypyc_attrs__`)
and its `__new__` runs `__init__`, so `copy.copy` cannot copy it."""

from __future__ import annotations

import copy

TYPE_CHECKING = False  # mypy reads the block below; `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Any


def field_names(obj: Any) -> list[str]:
    names = getattr(type(obj), "__mypyc_attrs__", None)
    if names is None:
        slots = getattr(type(obj), "__slots__", None)
        return list(slots) if slots is not None else list(vars(obj))
    return [n for n in names if not n.startswith("__")]


def replace(obj: Any, **changes: Any) -> Any:
    """`dataclasses.replace` for the engine's value classes (plain classes,
    not dataclasses, for import time: runtime/ruleset.py): a new object of
    `obj`'s class from its fields, `changes` in place of some. Every field
    is a parameter of the class's `__init__` of the same name."""
    values = {name: getattr(obj, name) for name in field_names(obj)}
    values.update(changes)
    return type(obj)(**values)


def deepcopy_fields(obj: Any, memo: dict) -> Any:
    """A deep copy of a value class with mutable fields: a new one from its
    fields (a compiled class cannot be made blank), then every field
    deep-copied."""
    new = replace(obj)
    memo[id(obj)] = new
    return copy_fields(obj, new, memo)


def copy_fields(src: Any, dst: Any, memo: dict | None = None) -> Any:
    """Every field of `src` set on `dst` (deep copies given `memo`); a field
    never set stays unset."""
    for name in field_names(src):
        try:
            value = getattr(src, name)
        except AttributeError:
            continue
        setattr(dst, name, value if memo is None else copy.deepcopy(value, memo))
    return dst
