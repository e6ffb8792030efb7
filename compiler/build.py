"""The whole pipeline for one file and for a folder of variants:
load → schema check → semantic check and lowering → render."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from . import ir, playability, provenance
from .errors import CompileError
from .inherit import Source, load_variant, load_variant_text
from .lower import lower, semantic_errors
from .render import render
from .schema_check import check, schema


@dataclass
class Compiled:
    name: str
    variant: ir.Variant
    module: str


def compile_text(text: str, name: str, display: str, parents: dict | None = None) -> Compiled:
    """Compile variant text; `parents` maps names it may extend to their text."""
    return _compile(load_variant_text(text, name, display, parents), name)


def compile_file(path: str | Path, display: str | None = None) -> Compiled:
    path = Path(path)
    return _compile(load_variant(path, display or str(path)), path.stem)


def _compile(source: Source, name: str) -> Compiled:
    data, positions = source.data, source.positions
    errors, broken = check(data, positions)
    if errors:
        raise CompileError(errors + semantic_errors(data, positions, name, source, broken))
    seen: list = []
    variant = lower(data, positions, name, source, seen)
    problems = playability.check(variant, seen, positions)
    marks, wrong = provenance.collect(data, positions, schema()["properties"])
    if problems or wrong:
        raise CompileError(problems + wrong)
    if marks:
        variant = dataclasses.replace(variant, provenance=marks)
    return Compiled(name, variant, render(variant))


def variant_files(folder: str | Path) -> list[Path]:
    return sorted(Path(folder).glob("*.yaml"))


def display_path(path: Path) -> str:
    """The path as given relative to the working folder, with / separators."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass
class BuildReport:
    written: list
    unchanged: list
    changed: list  # would change (check mode)
    missing: list  # would be created (check mode)
    stale: list  # generated modules without a variant
    errors: list  # CompileError


def build(variants: str | Path, out: str | Path, check_only: bool = False, jobs: int | None = None) -> BuildReport:
    """Compile every variant of the folder `variants` into `out` (or, with
    `check_only`, tell what would change). `jobs`: processes that compile at
    once (default: `_jobs`)."""
    variants, out = Path(variants), Path(out)
    report = BuildReport([], [], [], [], [], [])
    expected = set()
    paths = variant_files(variants)
    for outcome in _outcomes(paths, out, _jobs(jobs, len(paths))):
        if isinstance(outcome, CompileError):
            report.errors.append(outcome)
            continue
        name, current, module = outcome
        target = out / f"{name}.py"
        expected.add(target.name)
        if current == "same":
            report.unchanged.append(target)
        elif check_only:
            (report.changed if current == "changed" else report.missing).append(target)
        else:
            out.mkdir(parents=True, exist_ok=True)
            target.write_text(module, encoding="utf-8")
            report.written.append(target)
    if out.exists():
        for f in sorted(out.glob("*.py")):
            if f.name.startswith("_") or f.name in expected:
                continue
            report.stale.append(f)
            if not check_only and not report.errors:
                f.unlink()
    return report


def _outcome(path: Path, out: Path):
    """One variant compiled and set beside its module in `out`: a
    CompileError, or (name, "same" | "changed" | "missing", the module's
    text unless the same)."""
    try:
        compiled = compile_file(path, display_path(path))
    except CompileError as exc:
        return exc
    target = out / f"{compiled.name}.py"
    current = target.read_text(encoding="utf-8") if target.exists() else None
    if current == compiled.module:
        return compiled.name, "same", None
    return compiled.name, "missing" if current is None else "changed", compiled.module


MAX_JOBS = 4


def _jobs(jobs: int | None, files: int) -> int:
    """Processes for a build: `jobs`, else $MJC_BUILD_JOBS, else one per
    CPU this process may use (at most MAX_JOBS), and one where forking is
    not safe or not worth it: not on Linux, with threads running (a forked
    child would inherit their locks held), or for fewer than 4 files."""
    if jobs is None:
        import os

        env = os.environ.get("MJC_BUILD_JOBS", "")
        if env.isdigit():
            jobs = int(env)
        else:
            jobs = min(len(os.sched_getaffinity(0)), MAX_JOBS) if hasattr(os, "sched_getaffinity") else 1
    if jobs <= 1 or files < 4:
        return 1
    import sys

    if not sys.platform.startswith("linux") or _threads() != 1:
        return 1
    return min(jobs, files // 2)


def _threads() -> int:
    """The threads of this process, as the kernel counts them (those that
    C libraries started too); 0 when it cannot tell."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"Threads:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _outcomes(paths: list[Path], out: Path, jobs: int) -> list:
    """`_outcome` of each path, in order, by `jobs` processes: this one and
    jobs - 1 forked children, which take the variants one at a time,
    largest first, from a shared pipe and send back what they found. A
    child that fails in any way leaves its variants to this process, which
    compiles them again (and raises what they raise)."""
    if jobs <= 1:
        return [_outcome(p, out) for p in paths]
    import os
    import pickle
    import struct

    from . import render, schema_check

    # what every variant needs once per process, made before the children part
    schema_check._fits()
    render._template()
    order = sorted(range(len(paths)), key=lambda i: -_weight(paths[i]))
    tasks_r, tasks_w = os.pipe()
    os.write(tasks_w, b"".join(struct.pack("<i", i) for i in order))
    os.close(tasks_w)  # every task is in the pipe: a read past them is the end

    def take():
        while True:
            got = os.read(tasks_r, 4)
            if len(got) < 4:
                return
            yield struct.unpack("<i", got)[0]

    children = []
    results: list = [None] * len(paths)
    try:
        for _ in range(jobs - 1):
            r, w = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # no room for another process: fewer do the work
                os.close(r)
                os.close(w)
                break
            if pid == 0:  # the child: compile until no task is left, send, and leave without cleaning up
                status = 1
                try:
                    os.close(r)
                    done = []
                    for i in take():
                        o = _outcome(paths[i], out)
                        done.append((i, ("error", o.diagnostics) if isinstance(o, CompileError) else o))
                    with os.fdopen(w, "wb") as f:
                        f.write(pickle.dumps(done))
                    status = 0
                finally:
                    os._exit(status)
            os.close(w)
            children.append((pid, r))
        for i in take():
            results[i] = _outcome(paths[i], out)
    finally:
        os.close(tasks_r)
        for pid, r in children:
            with os.fdopen(r, "rb") as f:
                data = f.read()
            _, status = os.waitpid(pid, 0)
            if status == 0:
                try:
                    done = pickle.loads(data)
                except Exception:
                    done = []
                for i, o in done:
                    results[i] = CompileError(o[1]) if o[0] == "error" else o
    return [_outcome(paths[i], out) if o is None else o for i, o in enumerate(results)]


def _weight(path: Path) -> int:
    """A variant's likely compile time: the size of its file and of the file it extends."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 0
    size = len(text)
    for line in text.splitlines():
        if line.startswith("extends:"):
            parent = path.parent / f"{line.split(':', 1)[1].strip()}.yaml"
            if parent.is_file():
                size += parent.stat().st_size
            break
    return size
