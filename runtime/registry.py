"""Find and load compiled variants (the modules in `generated/`).

A command line may put another source in front of the packaged modules
(`use`): the `mjc` command puts a project's `variants/` folder there, so
that a designer's edits are what it plays. The runtime itself never reads
YAML; such a source hands it compiled rulesets.
"""

from __future__ import annotations

import importlib
import pkgutil

import generated

from .ruleset import Ruleset

_cache: dict[str, Ruleset] = {}
_front = None  # a source tried before the packaged modules: names() and load(name)


class UnknownVariant(LookupError):
    pass


def use(source) -> None:
    """Put `source` (an object with `names()` and `load(name)`) in front of
    the packaged variants; None removes it."""
    global _front
    _front = source
    _cache.clear()


def front():
    return _front


def packaged_names() -> list[str]:
    # not a compiled build's own libraries (NAME__mypyc, setup.py's separate mode)
    return sorted(m.name for m in pkgutil.iter_modules(generated.__path__)
                  if not m.name.startswith("_") and "__" not in m.name)


def names() -> list[str]:
    own = list(_front.names()) if _front is not None else []
    return sorted(set(own) | set(packaged_names()))


def load(name: str) -> Ruleset:
    if name not in _cache:
        if _front is not None and name in _front.names():
            _cache[name] = _front.load(name)
            return _cache[name]
        known = names()
        if name not in known:
            raise UnknownVariant(unknown_message(name, known))
        module = importlib.import_module(f"generated.{name}")
        _cache[name] = module.RULESET
    return _cache[name]


def unknown_message(name: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(str(name), known, n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return f"unknown variant {name!r}{hint}; known variants: {', '.join(known) or 'none'}"


def load_module(module) -> Ruleset:
    """A ruleset from a module object (compiled in memory, say)."""
    return module.RULESET
