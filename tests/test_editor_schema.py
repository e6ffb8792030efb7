"""The schema published for editors (issue 15, item 4): every shipped
variant, a file that `extends` another included, has no false error, and
mistakes are still found; expression strings list the facts."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from compiler import editor_schema
from runtime import vocabulary as vocab

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "variants").glob("*.yaml"))


def validator():
    return Draft202012Validator(json.loads(editor_schema.FILE.read_text(encoding="utf-8")))


def test_the_editor_schema_is_up_to_date():
    assert editor_schema.FILE.read_text(encoding="utf-8") == editor_schema.text(), "run `python -m compiler.editor_schema --write`"


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_every_shipped_variant_has_no_false_error(path):
    errors = list(validator().iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
    assert errors == []
    assert path.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=../compiler/schema/variant.editor.schema.json")


def test_a_partial_file_still_gets_its_mistakes():
    v = validator()
    child = {"extends": "yunnan_ka_er_tiao", "title": {"zh": "子"}, "options": {"guo_hu": None, "rounds": {"default": 4}}}
    assert list(v.iter_errors(child)) == []
    assert list(v.iter_errors({**child, "claims": {"chw": True}}))  # unknown key
    assert list(v.iter_errors({**child, "ready": {"declare": "sometimes"}}))  # not one of the values
    assert list(v.iter_errors({"extends": "yunnan_ka_er_tiao"}))  # the title is never inherited
    assert list(v.iter_errors({"title": {"zh": "全"}, "options": {}}))  # a whole file needs its keys


def test_expressions_list_the_facts():
    expr = json.loads(editor_schema.FILE.read_text(encoding="utf-8"))["$defs"]["expr"]
    for fact in ("win.self_drawn", "hand.number_suits", "wall.remaining", "options.ID"):
        assert fact in expr["description"]
    assert all(f.name in expr["description"] for f in vocab.FACTS)


@pytest.mark.skipif(shutil.which("check-jsonschema") is None, reason="check-jsonschema is in the test extra")
def test_check_jsonschema_on_every_shipped_variant():
    done = subprocess.run(["check-jsonschema", "--schemafile", str(editor_schema.FILE), *map(str, VARIANTS)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
