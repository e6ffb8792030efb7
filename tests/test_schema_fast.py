"""compiler/schema_fast.py says "fits" exactly when jsonschema finds no error:
on every shipped and bad variant, on random changes of the shipped ones,
and on small schemas that test jsonschema's corners (true is not 1, 1.0 is
an integer, oneOf with two fits)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from compiler import schema_check, schema_fast
from compiler.errors import CompileError
from compiler.inherit import load_variant
from compiler.loader import load_file

REPO = Path(__file__).resolve().parents[1]
GOOD = sorted((REPO / "variants").glob("*.yaml"))
BAD = sorted((REPO / "tests" / "bad_variants").glob("*.yaml")) + sorted((REPO / "tests" / "scenario_errors").glob("*.yaml"))

FULL = Draft202012Validator(schema_check.schema())


def _fits(data) -> bool:
    fits = schema_check._fits()
    assert fits is not None
    return fits(data)


def _datas(path: Path) -> list:
    out = []
    try:
        out.append(load_file(path, path.name)[0])
        out.append(load_variant(path, path.name).data)
    except CompileError:
        pass
    return out


def test_the_shipped_schema_is_decided_without_jsonschema():
    assert isinstance(schema_check._fits(), schema_fast.Checker)


@pytest.mark.parametrize("path", GOOD + BAD, ids=lambda p: p.name)
def test_same_answer_as_jsonschema_on_every_variant_file(path):
    for data in _datas(path):
        assert _fits(data) == FULL.is_valid(data)


def test_every_shipped_variant_fits():
    for path in GOOD:
        assert _fits(load_variant(path, path.name).data), path.name


# ---- random changes of the shipped variants

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 300), st.sampled_from([0.0, 1.0, 2.5, -1.0]),
    st.text(max_size=6), st.sampled_from(["", "x", "true", "none", "self", "discard", "all", "a b", "Abc", "ab_1"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=6)


def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, path + (i,))


def _at(data, path):
    for p in path:
        data = data[p]
    return data


BASES = [load_variant(p, p.name).data for p in GOOD]
ALL_PATHS = [(i, path) for i, d in enumerate(BASES) for path in _paths(d) if path]


@st.composite
def _changed(draw):
    data = copy.deepcopy(BASES[draw(st.integers(0, len(BASES) - 1))])
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = _at(data, path[:-1])
        last = path[-1]
        how = draw(st.sampled_from(["replace", "delete", "add", "duplicate", "swap_type"]))
        if how == "replace":
            parent[last] = draw(VALUES)
        elif how == "delete":
            del parent[last]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(VALUES)
        elif how == "add":
            parent.append(draw(VALUES))
        elif how == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
        else:
            value = parent[last]
            parent[last] = [value] if not isinstance(value, list) else (value[0] if value else {})
    return data


@settings(max_examples=400, deadline=None)
@given(_changed())
def test_same_answer_as_jsonschema_on_changed_variants(data):
    assert _fits(data) == FULL.is_valid(data)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_same_answer_as_jsonschema_on_each_part(draw):
    """A value at one place of a shipped variant replaced by any value."""
    i, path = draw.draw(st.sampled_from(ALL_PATHS))
    data = copy.deepcopy(BASES[i])
    _at(data, path[:-1])[path[-1]] = draw.draw(VALUES)
    assert _fits(data) == FULL.is_valid(data)


# ---- jsonschema's corners

CORNERS = [
    ({"type": "integer"}, [1, 1.0, 1.5, True, "1", None]),
    ({"type": "number"}, [1, 1.5, True, False, "1"]),
    ({"type": ["string", "null"]}, ["a", None, 0, False]),
    ({"type": "boolean"}, [True, 0, 1]),
    ({"enum": ["a", "b"]}, ["a", "c", 1, None, ["a"]]),
    ({"enum": [1, True, None, [1]]}, [1, 1.0, True, False, 0, None, [1], [True], [1.0]]),
    ({"const": True}, [True, 1, 1.0, "true"]),
    ({"const": 1}, [True, 1, 1.0]),
    ({"uniqueItems": True}, [[1, True], [1, 1.0], [0, False], ["a", "a"], [[1], [True]], [{"a": 1}, {"a": 1}], [1, "1"], []]),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, [1, -1, 0.5, "x", -0.5]),
    ({"anyOf": [{"type": "string"}, {"minimum": 3}]}, ["x", 2, 3, None]),
    ({"minimum": 2, "maximum": 4}, [1, 2, 4, 5, True, "9", 3.5]),
    ({"minLength": 1, "pattern": "^[a-z_]+$"}, ["", "ab", "Ab", 3, "a\n"]),
    ({"minItems": 1, "maxItems": 2, "items": {"type": "string"}}, [[], ["a"], ["a", 1], ["a", "b", "c"], "ab"]),
    ({"items": False}, [[], [1], {}]),
    ({"properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False},
     [{"a": "x"}, {}, {"a": 1}, {"a": "x", "b": 1}, [], "a"]),
    ({"additionalProperties": {"type": "integer"}, "properties": {"a": {}}}, [{"a": "x", "b": 1}, {"b": "x"}, {1: 2}]),
    ({"propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1}, [{}, {"ab": 1}, {"A": 1}, {1: 1}]),
    ({"$defs": {"n": {"type": "integer"}}, "items": {"$ref": "#/$defs/n"}}, [[1, 2], [1, "2"]]),
    ({"$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "$ref": "#/$defs/t"}, [[], [[[]]], [[1]], 1]),
    (True, [1, None]),
    (False, [1, None]),
]


@pytest.mark.parametrize("schema, values", CORNERS, ids=lambda x: json.dumps(x, default=str)[:40])
def test_same_answer_as_jsonschema_in_its_corners(schema, values):
    fast = schema_fast.Checker(schema)
    full = Draft202012Validator(schema)
    for value in values:
        assert fast(value) == full.is_valid(value), value


@pytest.mark.parametrize("schema", [{"format": "email"}, {"patternProperties": {"a": {}}}, {"$ref": "other.json"}, {"if": {}}, {"type": "any"}])
def test_a_schema_it_cannot_decide_is_refused(schema):
    with pytest.raises(schema_fast.Unsupported):
        schema_fast.Checker(schema)


def test_the_diagnostics_are_those_of_jsonschema_alone(monkeypatch):
    """check() with the fast answer first reports what jsonschema alone reports."""
    sources = []
    for p in GOOD + BAD:
        try:
            sources.append(load_variant(p, p.name))
        except CompileError:
            continue
    with_fast = [schema_check.check(s.data, s.positions) for s in sources]
    monkeypatch.setattr(schema_check, "_fits", lambda: None)
    alone = [schema_check.check(s.data, s.positions) for s in sources]
    assert [(list(map(str, d)), b) for d, b in with_fast] == [(list(map(str, d)), b) for d, b in alone]
    assert any(d for d, _ in alone)
