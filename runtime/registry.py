"""Find and load compiled variants (the modules in `generated/`)."""

from __future__ import annotations

import importlib
import pkgutil

import generated

from .ruleset import Ruleset

_cache: dict[str, Ruleset] = {}


class UnknownVariant(LookupError):
    pass


def names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(generated.__path__) if not m.name.startswith("_"))


def load(name: str) -> Ruleset:
    if name not in _cache:
        known = names()
        if name not in known:
            raise UnknownVariant(f"unknown variant {name!r}; known variants: {', '.join(known) or 'none'}")
        module = importlib.import_module(f"generated.{name}")
        _cache[name] = module.RULESET
    return _cache[name]


def load_module(module) -> Ruleset:
    """A ruleset from a module object (compiled in memory, say)."""
    return module.RULESET
