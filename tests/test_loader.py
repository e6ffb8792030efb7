"""The YAML loader: libyaml and the pure-Python parser give the same nodes,
marks and errors; the loader works where PyYAML has no libyaml; the
shipped schema is a valid draft 2020-12 schema (checked here, not at every
build)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from compiler import loader
from compiler.errors import CompileError

REPO = Path(__file__).resolve().parents[1]
GOOD = sorted((REPO / "variants").glob("*.yaml"))
BAD = sorted((REPO / "tests" / "bad_variants").glob("*.yaml")) + sorted((REPO / "tests" / "scenario_errors").glob("*.yaml"))

needs_libyaml = pytest.mark.skipif(loader.C_LOADER is None, reason="PyYAML was built without libyaml")

# files that are not valid YAML in other ways than the corpus shows
SYNTAX = {
    "tab.yaml": "a:\n\tb: 1\n",
    "unclosed_flow.yaml": "a: [1, 2\nb: 3\n",
    "bad_indent.yaml": "a:\n    b: 1\n  c: 2\n",
    "colon.yaml": "a: b: c\n",
    "two_documents.yaml": "a: 1\n---\nb: 2\n",
    "undefined_alias.yaml": "a: *nowhere\n",
    "nul.yaml": "a: 1\x00\n",
    "unclosed_quote.yaml": "a: 'text\n",
    "bad_tag.yaml": "a: !python/object 1\n",
    "deep.yaml": "a: " + "[" * 150 + "]" * 150 + "\n",
    "deep_and_broken.yaml": "a: " + "[" * 150 + "\n",
    "deep_block.yaml": "".join(" " * i + f"k{i}:\n" for i in range(120)) + " " * 120 + "k: 1\n",
    "deep_key.yaml": "? " + "[" * 101 + "]" * 101 + "\n: 1\n",
    "deep_later.yaml": "a: 1\nb: 2\na: 3\nc: " + "{k: " * 101 + "1" + "}" * 101 + "\n",
    "deep_100.yaml": "a: " + "[" * 99 + "]" * 99 + "\n",
    "deep_through_alias.yaml": "a: &x " + "[" * 60 + "]" * 60 + "\nb: " + "[" * 50 + "*x" + "]" * 50 + "\n",
    "merge.yaml": "a: &x {b: 1}\nc:\n  <<: *x\n",
    "alias.yaml": "a: &x [1]\nb: *x\n",
    "duplicate.yaml": "a: 1\nb: 2\na: 3\n",
    "empty.yaml": "# nothing\n",
}


def _tree(node):
    """Every node as (kind, tag, value, style, start line/col/index, end index)."""
    start, end = node.start_mark, node.end_mark
    head = (type(node).__name__, node.tag, start.line, start.column, start.index, end.line, end.column, end.index)
    if isinstance(node, yaml.ScalarNode):
        return head + (node.value, node.style or "")
    if isinstance(node, yaml.MappingNode):
        return head + (node.flow_style, [(_tree(k), _tree(v)) for k, v in node.value])
    return head + (node.flow_style, [_tree(v) for v in node.value])


def _outcome(text: str | Path, name: str, which):
    try:
        if isinstance(text, Path):
            data, pos, _ = loader.load_file(text, name, which)
        else:
            data, pos = loader.load_text(text, name, which)
    except CompileError as exc:
        return "error", [str(d) for d in exc.diagnostics]
    return "ok", json.dumps(data, sort_keys=True, default=str), pos.values, pos.keys, pos.styles, pos.spans


@needs_libyaml
@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_libyaml_and_pure_compose_the_same_nodes_and_marks(path):
    text = path.read_text(encoding="utf-8")
    c = loader.compose(text, path.name, loader.C_LOADER)
    p = loader.compose(text, path.name, loader.PURE_LOADER)
    assert _tree(c) == _tree(p)
    assert _outcome(text, path.name, loader.C_LOADER) == _outcome(text, path.name, loader.PURE_LOADER)


@needs_libyaml
@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_libyaml_and_pure_report_the_same_on_every_broken_file(path):
    assert _outcome(path, path.name, loader.C_LOADER) == _outcome(path, path.name, loader.PURE_LOADER)


@needs_libyaml
@pytest.mark.parametrize("name", sorted(SYNTAX))
def test_libyaml_and_pure_report_the_same_syntax_errors(name):
    text = SYNTAX[name]
    c, p = _outcome(text, name, loader.C_LOADER), _outcome(text, name, loader.PURE_LOADER)
    assert c == p
    if name not in ("alias.yaml", "deep_100.yaml"):
        assert c[0] == "error", c


def test_errors_name_file_line_and_column_in_the_pure_parsers_words():
    out = _outcome(SYNTAX["tab.yaml"], "tab.yaml", None)
    assert out == ("error", ["tab.yaml:2:1: YAML syntax: a tab character: YAML indents with spaces only"])
    out = _outcome(SYNTAX["deep.yaml"], "deep.yaml", None)
    assert out[1][0].startswith("deep.yaml:1:") and "nested more than 100 levels deep" in out[1][0]


def test_the_default_parser_is_libyaml_where_present():
    assert loader.backend() == ("libyaml" if yaml.__with_libyaml__ else "python")


def test_marks_count_characters_not_bytes():
    """libyaml reads UTF-8 but its marks, like the pure parser's, index
    characters of the text, which `Positions.at_offset` relies on."""
    text = "title: {zh: 云南卡二条, en: x}\nwhen: \"win.tile == 2s 和 bad\"\n"
    for which in (loader.C_LOADER, loader.PURE_LOADER):
        if which is None:
            continue
        data, pos = loader.load_text(text, "f.yaml", which)
        start, end = pos.spans[("when",)]
        assert text[start:end] == '"win.tile == 2s 和 bad"'
        assert pos.of(("title", "en")) == (1, 24)
        assert pos.at_offset(("when",), 17) == (2, 25)  # the b of "bad", after 和


def test_the_pure_loader_runs_where_pyyaml_has_no_libyaml(tmp_path):
    """With yaml._yaml unimportable (PyYAML built without libyaml) the
    loader falls back to the pure parser and compiles a variant the same."""
    code = f"""
import sys
sys.modules["yaml._yaml"] = None  # as where PyYAML was built without libyaml
sys.path.insert(0, {str(REPO)!r})
import yaml
assert not hasattr(yaml, "CSafeLoader"), "libyaml still visible"
from compiler import loader
assert loader.C_LOADER is None and loader.backend() == "python"
from compiler.build import compile_file
from compiler.errors import CompileError
compiled = compile_file({str(REPO / 'variants' / 'yunnan_ka_er_tiao.yaml')!r}, "variants/yunnan_ka_er_tiao.yaml")
sys.stdout.write(compiled.module)
try:
    loader.load_text("a:\\n\\tb: 1\\n", "tab.yaml")
except CompileError as exc:
    sys.stderr.write(str(exc))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == (REPO / "generated" / "yunnan_ka_er_tiao.py").read_text(encoding="utf-8")
    assert out.stderr == "tab.yaml:2:1: YAML syntax: a tab character: YAML indents with spaces only"


def test_the_shipped_schema_is_a_valid_draft_2020_12_schema():
    from jsonschema import Draft202012Validator

    from compiler.schema_check import schema

    Draft202012Validator.check_schema(schema())


def test_the_validator_inlines_references_without_changing_the_checks():
    from jsonschema import Draft202012Validator

    from compiler.schema_check import _inlined, schema

    flat = json.dumps(_inlined(schema())["properties"])
    assert '"$ref"' not in flat
    full, inlined = Draft202012Validator(schema()), Draft202012Validator(_inlined(schema()))
    for path in GOOD + BAD:
        try:
            data, _, _ = loader.load_file(path, path.name)
        except CompileError:
            continue

        def errors(v):
            return sorted((list(e.absolute_path), e.validator, e.message) for e in v.iter_errors(data))

        assert errors(full) == errors(inlined), path.name
