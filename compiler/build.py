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
