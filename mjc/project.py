"""Where `mjc` finds its variants.

Wherever `mjc` runs, a `variants/` folder there (or the folder given with
`--variants DIR`) is the source of `play`, `score`, `scenario`,
`simulate`, `docs` and `serve`: each `NAME.yaml` in it is the variant
`NAME`. Its compiled module is `generated/NAME.py` beside that folder when
that file was built from the same YAML (the SHA-256 in its header matches
the file and those it extends); otherwise the YAML is compiled in memory,
so an edit shows in the next command without `mjc build`. Variants the
folder does not hold come from the installed package.

One line on standard error says which source a command used.
"""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

from compiler.build import compile_file, display_path, variant_files
from compiler.errors import CompileError
from compiler.inherit import load_variant

_SHA = re.compile(r"^# Source SHA-256: ([0-9a-f]{64})", re.M)


class ProjectError(Exception):
    """A variant of the folder that does not compile: its diagnostics."""

    def __init__(self, name: str, error: CompileError):
        self.name = name
        self.error = error
        super().__init__("\n".join(str(d) for d in error.diagnostics))


class Project:
    """The variants of one folder, compiled when needed."""

    def __init__(self, folder: Path, out: Path | None = None, say=None):
        self.folder = Path(folder)
        self.out = Path(out) if out is not None else self.folder.parent / "generated"
        self.say = say  # called once with the line naming the source
        self.how: dict[str, str] = {}  # name -> "generated" or why it was compiled in memory
        self._names = [p.stem for p in variant_files(self.folder)]
        self._said: set = set()

    def names(self) -> list[str]:
        return list(self._names)

    def load(self, name: str):
        path = self.folder / f"{name}.yaml"
        shown = display_path(path)
        try:
            source = load_variant(path, shown)
        except CompileError as exc:
            raise ProjectError(name, exc) from None
        target = self.out / f"{name}.py"
        text = target.read_text(encoding="utf-8") if target.is_file() else None
        found = _SHA.search(text or "")
        if found and found.group(1) == source.sha256:
            self.how[name] = f"{display_path(target)} is up to date"
        else:
            try:
                text = compile_file(path, shown).module
            except CompileError as exc:
                raise ProjectError(name, exc) from None
            why = "missing" if found is None and not target.is_file() else "stale"
            self.how[name] = f"compiled in memory: {display_path(target)} is {why}"
        module = types.ModuleType(f"mjc_project_{name}")
        module.__file__ = str(target)
        exec(compile(text, str(target), "exec"), module.__dict__)  # the compiler's own output
        return module.RULESET

    def announce(self, name: str) -> None:
        """Say, once per variant, where a loaded variant came from."""
        if self.say is None or name in self._said:
            return
        self._said.add(name)
        if name in self.how:
            shown = display_path(self.folder / f"{name}.yaml")
            self.say(f"mjc: {name} from {shown} ({self.how[name]})")
        else:
            self.say(f"mjc: {name} from the packaged variants ({display_path(self.folder)}/ has no {name}.yaml)")

    def summary(self) -> str:
        fresh = sum(1 for how in self.how.values() if "in memory" not in how)
        return (f"mjc: variants from {display_path(self.folder)}/ ({len(self._names)} files: {fresh} from generated/, "
                f"{len(self.how) - fresh} compiled in memory), packaged variants for other names")


def find(folder: str | None) -> Path | None:
    """The variants folder a command uses: the one given, or ./variants."""
    if folder is not None:
        return Path(folder)
    here = Path("variants")
    return here if here.is_dir() and variant_files(here) else None


def install(folder: str | None, quiet: bool = False) -> Project | None:
    """Put the folder's variants in front of the packaged ones for this
    process; None (and a line saying so) where there is no folder."""
    from runtime import registry

    path = find(folder)
    say = None if quiet else (lambda line: print(line, file=sys.stderr))
    if path is None:
        registry.use(None)
        return None
    project = Project(path, say=say)
    registry.use(project)
    return project


def announce(name: str) -> None:
    """Where the variant `name` came from, on standard error, when a folder is in use."""
    from runtime import registry

    source = registry.front()
    if isinstance(source, Project):
        source.announce(name)


def packaged_line() -> str:
    return "mjc: packaged variants (no variants/ folder here; --variants DIR names one)"


def resolve(name: str) -> str:
    """A variant's name from its name, its Chinese title or its English
    name (case and spaces aside); unknown text is returned as it is."""
    from runtime import registry

    known = registry.names()
    if name in known:
        return name
    wanted = _plain(name)
    for other in known:
        if _plain(other) == wanted:
            return other
    for other in known:
        try:
            rs = registry.load(other)
        except ProjectError:
            continue
        if wanted in (_plain(rs.title.zh), _plain(rs.title.en)):
            return other
    return name


def _plain(text: str) -> str:
    return "".join(str(text).split()).lower().replace("-", "_")
