"""Every broken variant under tests/bad_variants/ gives exactly its diagnostics.

Each `NAME.yaml` there has one (or, for the `three_*` files, several)
deliberate mistakes; `NAME.expected` next to it holds every diagnostic the
compiler must report, in order, as `FILE:LINE:COL: message` with FILE shown as
`tests/bad_variants/NAME.yaml`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from compiler.build import compile_file  # noqa: E402
from compiler.errors import CompileError  # noqa: E402
from mjc.cli import main  # noqa: E402

FOLDER = REPO / "tests" / "bad_variants"
NAMES = sorted(p.stem for p in FOLDER.glob("*.yaml"))
MULTI = sorted(n for n in NAMES if n.startswith("three_"))


def display(name: str) -> str:
    return f"tests/bad_variants/{name}.yaml"


def expected(name: str) -> list[str]:
    return (FOLDER / f"{name}.expected").read_text(encoding="utf-8").splitlines()


def reported(name: str) -> list[str]:
    with pytest.raises(CompileError) as info:
        compile_file(FOLDER / f"{name}.yaml", display(name))
    return [str(d) for d in info.value.diagnostics]


def test_corpus_is_complete():
    assert len(NAMES) >= 18
    expectations = sorted(p.stem for p in FOLDER.glob("*.expected"))
    assert expectations == NAMES, "every .yaml needs a .expected and every .expected a .yaml"
    for name in NAMES:
        lines = expected(name)
        assert lines, f"{name}.expected is empty"
        for line in lines:
            assert line.startswith(display(name) + ":"), f"{name}.expected: {line!r} names another file"


def test_the_base_variant_is_valid():
    """The broken files are copies of this variant or small files in its style."""
    compile_file(REPO / "variants" / "yunnan_ka_er_tiao.yaml", "variants/yunnan_ka_er_tiao.yaml")


@pytest.mark.parametrize("name", NAMES)
def test_compile_reports_exactly_the_expected_diagnostics(name):
    assert reported(name) == expected(name)


@pytest.mark.parametrize("name", NAMES)
def test_validate_command_prints_them_and_exits_2(name, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code = main(["validate", display(name)])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.splitlines() == expected(name)


@pytest.mark.parametrize("name", MULTI)
def test_several_mistakes_are_reported_at_once(name):
    """Three independent mistakes in three different sections: three diagnostics."""
    assert len(expected(name)) == 3
    lines = reported(name)

    def where(line: str) -> str:  # FILE:LINE:COL, whatever the message says
        return ":".join(line.split(":", 3)[:3])

    assert [where(x) for x in lines] == [where(x) for x in expected(name)]
    # They sit in three different top-level sections of the file.
    text = (FOLDER / f"{name}.yaml").read_text(encoding="utf-8").splitlines()

    def section(line_no: int) -> str:
        for line in reversed(text[:line_no]):
            if line and not line[0].isspace() and not line.startswith("#"):
                return line.split(":", 1)[0]
        return ""

    sections = {section(int(line.split(":")[1])) for line in lines}
    assert len(sections) == 3, sections


def test_validate_command_reports_every_file(capsys, monkeypatch):
    """Given several broken files, `mjc validate` reports all of them, in order."""
    monkeypatch.chdir(REPO)
    names = ["unknown_claims_key", "three_schema_mistakes", "ready_declare_enum"]
    code = main(["validate", *[display(n) for n in names]])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.splitlines() == [line for n in names for line in expected(n)]


def test_a_file_too_deep_does_not_stop_the_others(capsys, monkeypatch):
    """Nesting and encodings are named with file, line and column, and the
    files after them are still checked."""
    monkeypatch.chdir(REPO)
    names = ["yaml_nested_too_deep", "not_utf8", "settle_divide_by_zero"]
    code = main(["validate", *[display(n) for n in names], "variants/kunming.yaml"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.splitlines() == [line for n in names for line in expected(n)]
    assert out == "variants/kunming.yaml: ok\n"
