"""Which build runs: runtime.build_info(), `mjc --version`, and the
MJC_PURE=1 switch that runs the Python sources of a compiled install."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys

import runtime

PROBE = "import runtime, runtime.game, generated.mcr; print(runtime.build_info()); print(runtime.game.__file__); print(generated.mcr.__file__)"


def _run(code: str, tmp_path, **env) -> list[str]:
    # the folder this process imports runtime from: the same package in the child
    home = os.path.dirname(os.path.dirname(os.path.abspath(runtime.__file__)))
    full = dict(os.environ, PYTHONPATH=home, **env)
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=full, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_mjc_pure_runs_the_python_sources(tmp_path):
    info, game_file, mcr_file = _run(PROBE, tmp_path, MJC_PURE="1")
    assert info == "pure Python (MJC_PURE=1)"
    assert game_file.endswith(os.path.join("runtime", "game.py"))
    assert mcr_file.endswith(os.path.join("generated", "mcr.py"))


def test_build_info_says_which_build_runs(tmp_path):
    info, game_file, mcr_file = _run(PROBE, tmp_path, MJC_PURE="0")
    extension = game_file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    if extension:
        assert info.startswith("compiled (mypyc ") and info.endswith(")")
        assert mcr_file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    else:
        assert info.startswith("pure Python (") and info != "pure Python (MJC_PURE=1)"


def test_mjc_version_names_the_build(tmp_path):
    lines = _run("import sys; from mjc.cli import main; sys.argv = ['mjc', '--version']; main()", tmp_path)
    assert lines[0].startswith("mjc ") and lines[0].endswith(runtime.build_info()), lines


# Importing a variant is kept light (issue 14, docs/speed.md): none of these
# may be imported on the way (the runtime's classes are not dataclasses, and
# `typing` is imported for mypy only).
HEAVY = ("dataclasses", "typing", "inspect", "importlib.util", "copy", "re")


def test_importing_a_variant_imports_nothing_heavy(tmp_path):
    from runtime.registry import names  # registry itself imports pkgutil (and so inspect): not in the probe

    probe = (
        f"import sys; before = set(sys.modules); import {', '.join('generated.' + n for n in names())}; "
        f"print(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules and m not in before)))"
    )
    (new,) = _run(probe, tmp_path, MJC_PURE="0") or [""]
    assert new == "", f"importing every variant imported {new}"
