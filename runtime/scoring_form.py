"""Which form of the compiled fan table scores hands: the fast one (flat
masks, per-straight wait search, per-suit split rows) or the readable one
it must always equal.

The readable form is chosen with the environment variable
`MJC_READABLE_SCORING=1` (read at import), with `set_readable` in a test,
or for one call with `evaluate(..., readable=True)`. It exists so that a
differential test can hold the two equal.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time (import time)
if TYPE_CHECKING:
    from typing import Callable

from . import hand as hm
from . import knitted as kn
from .splits import standard_splits

_readable: bool = os.environ.get("MJC_READABLE_SCORING", "") not in ("", "0")


def readable() -> bool:
    return _readable


def set_readable(flag: bool) -> bool:
    """Choose the form; returns the one chosen before."""
    global _readable
    before = _readable
    _readable = flag
    return before


def splitter() -> Callable:
    """The standard splitter of the form that runs (the two give equal splits)."""
    return hm.standard_decompositions if _readable else standard_splits


def knitted_waits() -> Callable:
    """The knitted-straight wait search of the form that runs."""
    return kn.waits if _readable else kn.waits_by_straight
