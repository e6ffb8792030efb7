"""`build()` in several processes (compiler/build.py) reports and writes
what one process does: the same modules, the same errors in the same
order, and the same outcome when a child process fails."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from compiler import build as build_mod
from compiler.build import build

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the build forks on Linux only")


def _folder(tmp_path: Path) -> tuple[Path, Path]:
    """Every shipped variant, two broken ones, and an output folder with an
    old module, a stale one and some missing."""
    variants, out = tmp_path / "variants", tmp_path / "generated"
    shutil.copytree(ROOT / "variants", variants, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    (variants / "broken_schema.yaml").write_text("variant: x\nplayers: many\n", encoding="utf-8")
    bad = (ROOT / "tests" / "bad_variants")
    for p in sorted(bad.glob("*.yaml"))[:3]:
        shutil.copy(p, variants / f"bad_{p.name}")
    out.mkdir()
    for name in ("mcr", "kunming", "chaozhou"):
        shutil.copy(ROOT / "generated" / f"{name}.py", out / f"{name}.py")
    (out / "kunming.py").write_text("# old\n", encoding="utf-8")
    (out / "gone.py").write_text("# no variant\n", encoding="utf-8")
    return variants, out


def _summary(report, base: Path):
    def names(paths):
        return [p.relative_to(base).as_posix() for p in paths]

    return (names(report.written), names(report.unchanged), names(report.changed), names(report.missing),
            names(report.stale), [[str(d) for d in e.diagnostics] for e in report.errors])


def _files(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("check_only", [True, False])
def test_two_processes_report_and_write_what_one_does(tmp_path, monkeypatch, check_only):
    results = {}
    for jobs in (1, 2, 3):
        base = tmp_path / f"jobs{jobs}"
        base.mkdir()
        variants, out = _folder(base)
        monkeypatch.chdir(base)  # the modules' headers name their sources relative to the working folder
        results[jobs] = (_summary(build(variants, out, check_only=check_only, jobs=jobs), base), _files(out))
    assert results[1] == results[2] == results[3]
    summary = results[1][0]
    assert summary[5], "some variants do not compile"
    assert summary[4] == ["generated/gone.py"]


def test_the_shipped_variants_are_up_to_date_in_two_processes(monkeypatch):
    monkeypatch.chdir(ROOT)
    report = build(ROOT / "variants", ROOT / "generated", check_only=True, jobs=2)
    assert not report.errors and (report.changed, report.missing, report.stale) == ([], [], [])
    assert len(report.unchanged) == len(list((ROOT / "variants").glob("*.yaml")))


def test_a_child_that_fails_leaves_its_variants_to_the_parent(tmp_path, monkeypatch):
    variants, out = _folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    expected = _summary(build(variants, out, check_only=True, jobs=1), tmp_path)
    parent = os.getpid()
    real = build_mod._outcome

    def failing_in_children(path, out):
        if os.getpid() != parent:
            raise RuntimeError("a child's mistake")
        return real(path, out)

    monkeypatch.setattr(build_mod, "_outcome", failing_in_children)
    assert _summary(build(variants, out, check_only=True, jobs=2), tmp_path) == expected


def test_a_mistake_of_the_compiler_is_raised_as_in_one_process(tmp_path, monkeypatch):
    variants, out = _folder(tmp_path)
    monkeypatch.chdir(tmp_path)

    def broken(path, display=None):
        raise ZeroDivisionError(path.name)

    monkeypatch.setattr(build_mod, "compile_file", broken)
    with pytest.raises(ZeroDivisionError):
        build(variants, out, check_only=True, jobs=2)


def test_one_process_where_forking_is_not_safe_or_not_asked(monkeypatch):
    monkeypatch.setenv("MJC_BUILD_JOBS", "1")
    assert build_mod._jobs(None, 10) == 1
    monkeypatch.setenv("MJC_BUILD_JOBS", "2")
    assert build_mod._jobs(None, 10) == (2 if build_mod._threads() == 1 else 1)
    assert build_mod._jobs(None, 3) == 1  # too few files to be worth a process
    monkeypatch.setattr(build_mod, "_threads", lambda: 2)
    assert build_mod._jobs(2, 10) == 1  # a forked child would inherit the other threads' locks


def test_two_processes_share_the_variants(tmp_path, monkeypatch):
    if build_mod._threads() != 1:
        pytest.skip("this process runs threads: the build stays in one process")
    monkeypatch.chdir(ROOT)
    log = tmp_path / "pids"
    real = build_mod._outcome

    def logged(path, out):
        with open(log, "a") as f:
            f.write(f"{os.getpid()}\n")
        return real(path, out)

    monkeypatch.setattr(build_mod, "_outcome", logged)
    build(ROOT / "variants", ROOT / "generated", check_only=True, jobs=2)
    pids = log.read_text().split()
    assert len(pids) == len(list((ROOT / "variants").glob("*.yaml"))) and len(set(pids)) == 2
