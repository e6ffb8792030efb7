"""Build: the pure-Python package, plus mypyc extensions of `runtime/` and
`generated/` where mypyc and a C compiler work (docs/speed.md).

The compiled set is a glob, runtime/*.py and generated/*.py, less the
packages' `__init__.py` (they stay Python: runtime's installs the
`MJC_PURE=1` switch) and the few modules listed in EXCLUDED. The `.py`
sources are installed beside the extensions: they are the reference, what
`MJC_PURE=1` runs, and the fallback.

Falling back to pure Python never fails the install: `MJC_BUILD_PURE=1`, no
mypyc, a type error or a C compiler that fails each give a one-line notice
(`pip install -v .` shows it) and a pure wheel; `mjc --version` says which
build runs and why.
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# Modules kept in Python in a compiled build (reasons in docs/speed.md).
EXCLUDED = {
    "runtime/__init__.py",
    "generated/__init__.py",
    "runtime/_pure.py",  # the MJC_PURE=1 import hook itself
}
# mypy's view of the sources: third-party and uncompiled packages (bots/,
# mjc/) are read for types but not checked.
MYPY_FLAGS = ["--ignore-missing-imports", "--follow-imports=silent", "--disable-error-code=annotation-unchecked"]
# setup.py runs for metadata too (egg_info, dist_info): mypyc only for a build.
# Not for an editable install (`pip install -e .`): extensions in the checkout
# would shadow the .py files a developer edits.
BUILDING = {"build", "build_ext", "bdist_wheel", "install"}

_state = {"build": "pure", "why": "", "mypyc": ""}


def _notice(why: str) -> None:
    _state.update(build="pure", why=why)
    print(f"mahjong-rules-compiler: building the pure-Python package only ({why})", file=sys.stderr, flush=True)


def compiled_sources() -> list[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    files = sorted(glob.glob("runtime/*.py", root_dir=here) + glob.glob("generated/*.py", root_dir=here))
    return [f for f in files if f not in EXCLUDED]


def _ext_modules() -> list:
    if not BUILDING.intersection(sys.argv[1:]):
        return []
    if os.environ.get("MJC_BUILD_PURE") == "1":
        _notice("MJC_BUILD_PURE=1")
        return []
    try:
        from mypyc.build import mypycify
        from mypy.version import __version__ as mypy_version
    except ImportError as e:
        _notice(f"mypyc is not installed: {e}")
        return []
    opt = os.environ.get("MJC_MYPYC_OPT", "1")  # C at -O1: most of -O3's speed for 2/3 of its compile time (docs/speed.md)
    try:
        exts = mypycify(
            MYPY_FLAGS + compiled_sources(),
            opt_level=opt,
            # one library per module, compiled on every core (BuildExt.parallel): 235 s
            # instead of 363 s on 2 cores, as fast at run time (docs/speed.md)
            separate=os.environ.get("MJC_MYPYC_SEPARATE", "1") == "1",
            multi_file=os.environ.get("MJC_MYPYC_MULTI_FILE") == "1",
        )
    except BaseException as e:  # mypy reports type errors by SystemExit
        if isinstance(e, KeyboardInterrupt):
            raise
        _notice(f"mypyc failed ({type(e).__name__} {e}); its messages are above")
        return []
    _state.update(build="compiled", mypyc=mypy_version, why="")
    return exts


class BuildExt(build_ext):
    """Compile the extensions (in parallel where there are several); if the
    C compiler fails, ship pure Python."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        if not self.extensions:
            return
        try:
            super().run()
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            status = re.search(r"exit status \d+", str(e))
            _notice(f"the C compiler failed: {type(e).__name__}{', ' + status.group() if status else ''}")
            self.extensions = []
            self.distribution.ext_modules = []
            # nothing compiled may reach the wheel
            for ext_path in glob.glob(os.path.join(self.build_lib, "**", "*" + _ext_suffix()), recursive=True):
                os.remove(ext_path)
            _write_build_info(self.build_lib)


def _ext_suffix() -> str:
    import sysconfig

    return sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def _write_build_info(build_lib: str) -> None:
    path = os.path.join(build_lib, "runtime", "_build.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(_state, f, sort_keys=True)
        f.write("\n")


class BuildPy(build_py):
    """The Python sources, and runtime/_build.json: which build this is."""

    def run(self):
        super().run()
        _write_build_info(self.build_lib)

    def get_outputs(self, include_bytecode=1):
        return super().get_outputs(include_bytecode) + [os.path.join(self.build_lib, "runtime", "_build.json")]


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
