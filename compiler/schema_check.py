"""Check variant data against the JSON Schema, with positions."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from typing import TYPE_CHECKING

from . import schema_fast
from .errors import Diagnostic
from .loader import Positions

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_FILE = "variant.schema.json"


@lru_cache(maxsize=1)
def schema() -> dict:
    text = resources.files("compiler").joinpath("schema", SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _fits():
    """Whether data fits the schema (compiler/schema_fast.py), or None when
    that module cannot decide this schema exactly: then jsonschema decides."""
    try:
        return schema_fast.Checker(schema())
    except schema_fast.Unsupported:
        return None


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    # jsonschema is imported only for data that does not fit: the errors and
    # their words are jsonschema's.
    from jsonschema import Draft202012Validator

    # The shipped schema is checked against the draft 2020-12 meta-schema by
    # the tests (tests/test_loader.py), not at every run: that check alone
    # cost more than compiling every variant.
    return Draft202012Validator(_inlined(schema()))


_ANNOTATIONS = {"description", "title", "$comment", "examples", "default", "markdownDescription"}


def _inlined(root: dict) -> dict:
    """The schema with each local `$ref` to `#/$defs/NAME` replaced by that
    definition, for the validator: the same checks and the same errors
    (an error inside a reference names the definition's schema either way;
    annotations beside a `$ref` never reach an error), without a reference
    lookup per checked value, which cost a third of the checking. The
    definitions do not refer to themselves; a `$ref` with other keywords
    beside it, or to a definition that would recur, stays as it is."""
    defs = root.get("$defs", {})

    def walk(node, seen: tuple):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and set(node) - {"$ref"} <= _ANNOTATIONS:
                name = ref[len("#/$defs/"):]
                if name in defs and name not in seen:
                    return walk(defs[name], seen + (name,))
            return {k: (v if k in ("enum", "const", "default", "examples") else walk(v, seen)) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, seen) for v in node]
        return node

    return walk(root, ())


_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "nothing",
}


def _json_type(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "the top level"


def _expected(types) -> str:
    if isinstance(types, str):
        types = [types]
    return " or ".join(_TYPE_WORDS.get(t, t) for t in types)


_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer"}


def _branch_errors(error) -> list:
    """For a value that fits none of several forms: the mistakes within the
    one form of its own type (a mapping where the other form is text)."""
    kind = _JSON_TYPES.get(type(error.instance))
    branches = [i for i, b in enumerate(error.validator_value) if b.get("type") == kind]
    if len(branches) != 1:
        return []
    inner = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == branches[0]]
    # a nested oneOf of required keys says which key is missing: keep the plainer errors
    plain = [e for e in inner if e.validator != "oneOf"]
    return plain or inner


def _shape(schema: dict) -> str:
    """What a mapping or list is expected to hold, for a value of another type."""
    if schema.get("type") == "object" and schema.get("properties"):
        keys = [k for k in schema["properties"] if k != "$schema"]
        if len(keys) <= 8:
            need = set(schema.get("required") or [])
            return " with keys " + ", ".join(f"{k}{' (required)' if k in need else ''}" for k in keys)
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        items = schema["items"]
        if "enum" in items:
            return " of " + ", ".join(str(x) for x in items["enum"]) + f" (for example [{', '.join(str(x) for x in items['enum'][:2])}])"
        plural = {"integer": "integers", "string": "texts", "object": "mappings", "boolean": "true or false values"}
        if items.get("type") in plural:
            return f" of {plural[items['type']]}"
    return ""


def _diagnose(error, pos: Positions) -> list[Diagnostic]:
    path = tuple(error.absolute_path)
    where = _where(path)
    v = error.validator
    if v == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key in allowed:
                continue
            if allowed and len(allowed) <= 12:
                hint = f"; expected one of: {', '.join(allowed)}"
            else:
                import difflib

                close = difflib.get_close_matches(str(key), allowed, n=3, cutoff=0.6)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
            out.append(pos.diag(path + (key,), f"unknown key {key!r} in {where}{hint}", key=True))
        return out
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [pos.diag(path, f"{where}: missing required key {missing!r}", key=True)]
    if v == "enum":
        options = ", ".join(str(o) for o in error.validator_value)
        return [pos.diag(path, f"{where}: {error.instance!r} is not allowed; expected one of: {options}")]
    if v == "type":
        return [pos.diag(path, f"{where}: expected {_expected(error.validator_value)}{_shape(error.schema)}, "
                               f"got {_json_type(error.instance)}")]
    if v == "oneOf":
        inner = _branch_errors(error)
        if inner:
            return [d for e in inner for d in _diagnose(e, pos)]
        desc = error.schema.get("description", "")
        return [pos.diag(path, f"{where}: {error.instance!r} does not fit: {desc}".rstrip(": "))]
    if v == "pattern" and "propertyNames" in error.absolute_schema_path:
        return [
            pos.diag(path + (error.instance,), f"bad id {error.instance!r} in {where}: ids are lower case letters, digits and _", key=True)
        ]
    if v == "propertyNames":
        return [
            pos.diag(path + (error.instance,), f"bad id {error.instance!r} in {where}: ids are lower case letters, digits and _", key=True)
        ]
    if v in ("minimum", "maximum"):
        return [pos.diag(path, f"{where}: {error.instance} is {'below the minimum' if v == 'minimum' else 'above the maximum'} {error.validator_value}")]
    if v == "minItems":
        return [pos.diag(path, f"{where}: needs at least {error.validator_value} item(s)")]
    if v == "uniqueItems":
        return [pos.diag(path, f"{where}: items must not repeat")]
    if v == "minLength":
        return [pos.diag(path, f"{where}: must not be empty")]
    if v == "minProperties":
        return [pos.diag(path, f"{where}: needs at least {error.validator_value} entry")]
    return [pos.diag(path, f"{where}: {error.message}")]


def check(data, pos: Positions) -> tuple[list[Diagnostic], set]:
    """The schema's diagnostics, and the top-level sections they are in."""
    out: list[Diagnostic] = []
    broken: set = set()
    fits = _fits()
    if fits is not None and fits(data):
        return out, broken
    for error in _validator().iter_errors(data):
        out.extend(_diagnose(error, pos))
        path = list(error.absolute_path)
        if path:
            broken.add(path[0])
        elif error.validator == "required":
            broken.add(error.message.split("'")[1] if "'" in error.message else "")
        elif error.validator == "additionalProperties":
            broken.update(k for k in error.instance if k not in error.schema.get("properties", {}))
    return out, broken
