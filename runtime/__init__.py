"""The generic engine. Compiled with mypyc where the package was built with
it (setup.py); `MJC_PURE=1` in the environment runs the Python sources
instead, and `build_info()` says which build runs.

Every import of a variant runs this module and `_pure`: they import only
`os` and `sys` (no `from __future__ import annotations` either, which
imports `__future__`), for import time (issue 14, docs/speed.md)."""

from . import _pure

if _pure.wanted():
    _pure.install()


def build_info() -> str:
    """Which build runs: "compiled (mypyc X.Y)" or "pure Python (why)"."""
    import importlib
    import importlib.machinery
    import json
    import os

    probe = importlib.import_module("runtime.game")
    compiled = (probe.__file__ or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    built: dict = {}
    try:
        with open(os.path.join(os.path.dirname(__file__), "_build.json"), encoding="utf-8") as f:
            built = json.load(f)
    except (OSError, ValueError):
        pass
    if compiled:
        return f"compiled (mypyc {built.get('mypyc') or '?'})"
    if _pure.wanted():
        return "pure Python (MJC_PURE=1)"
    if built.get("build") == "compiled":
        return "pure Python (the compiled modules did not load)"
    if built.get("why"):
        return f"pure Python (built without mypyc: {built['why']})"
    return "pure Python (the sources, not an installed build)"
