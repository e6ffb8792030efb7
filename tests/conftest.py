"""Property tests draw the same examples on every run unless asked to
explore: CI stays reproducible, and `MJC_LONG=1` (or `MJC_EXPLORE=1`) draws
fresh random examples, many more of them, to look for new failures."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

# The checkout's `benchmarks` (and the tests' helpers) are importable, but
# after the installed packages: `python3 -P -m pytest` tests the build that
# is installed (compiled where it was built), not the checkout's sources.
sys.path.append(str(Path(__file__).resolve().parent.parent))

settings.register_profile("fixed", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile("explore" if os.environ.get("MJC_LONG") or os.environ.get("MJC_EXPLORE") else "fixed")


# CI installs the compiled build and runs the suite on it: MJC_EXPECT_COMPILED=1
# makes sure that the tests import it, not the checkout's sources.
if os.environ.get("MJC_EXPECT_COMPILED") == "1":
    import runtime

    if not runtime.build_info().startswith("compiled"):
        raise SystemExit(f"MJC_EXPECT_COMPILED=1 but the build that runs is {runtime.build_info()}; "
                         f"runtime is imported from {runtime.__file__}")
if os.environ.get("MJC_PURE", "") not in ("", "0"):
    import runtime
    import runtime.game

    if runtime.build_info() != "pure Python (MJC_PURE=1)" or not runtime.game.__file__.endswith(".py"):
        raise SystemExit(f"MJC_PURE=1 but the build that runs is {runtime.build_info()} ({runtime.game.__file__})")
