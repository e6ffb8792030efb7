"""The whole pipeline for one file and for a folder of variants:
load → schema check → semantic check and lowering → render."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import ir
from .errors import CompileError
from .loader import load_file, load_text
from .lower import lower, semantic_errors
from .render import render
from .schema_check import check


@dataclass
class Compiled:
    name: str
    variant: ir.Variant
    module: str


def compile_text(text: str, name: str, display: str) -> Compiled:
    data, positions = load_text(text, display)
    return _compile(data, positions, name, text.encode("utf-8"))


def compile_file(path: str | Path, display: str | None = None) -> Compiled:
    path = Path(path)
    data, positions, raw = load_file(path, display)
    return _compile(data, positions, path.stem, raw)


def _compile(data, positions, name: str, raw: bytes) -> Compiled:
    errors, broken = check(data, positions)
    if errors:
        raise CompileError(errors + semantic_errors(data, positions, name, raw, broken))
    variant = lower(data, positions, name, raw)
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


def build(variants: str | Path, out: str | Path, check_only: bool = False) -> BuildReport:
    variants, out = Path(variants), Path(out)
    report = BuildReport([], [], [], [], [], [])
    expected = set()
    for path in variant_files(variants):
        try:
            compiled = compile_file(path, display_path(path))
        except CompileError as exc:
            report.errors.append(exc)
            continue
        target = out / f"{compiled.name}.py"
        expected.add(target.name)
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current == compiled.module:
            report.unchanged.append(target)
        elif check_only:
            (report.changed if current is not None else report.missing).append(target)
        else:
            out.mkdir(parents=True, exist_ok=True)
            target.write_text(compiled.module, encoding="utf-8")
            report.written.append(target)
    if out.exists():
        for f in sorted(out.glob("*.py")):
            if f.name.startswith("_") or f.name in expected:
                continue
            report.stale.append(f)
            if not check_only and not report.errors:
                f.unlink()
    return report
