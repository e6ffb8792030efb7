"""Whether data fits the variant schema, without jsonschema.

`mjc build` checks every variant against the JSON Schema, and nearly every
variant fits: this module answers "does it fit?" for the shipped schema's
keywords with the draft 2020-12 meaning that jsonschema gives them (its
types, its `equal` and `uniq`, its keyword semantics, copied here), as
plain Python closures made once per process. Only data that does not fit
goes to jsonschema (compiler/schema_check.py), for the errors and their
words; importing jsonschema and walking it on good data cost more than a
third of a build.

The answer is exact or none: a schema with a keyword this module does not
know (or a `$ref` it does not resolve) raises `Unsupported` when compiled,
and the caller then asks jsonschema for every variant.
"""

from __future__ import annotations

import itertools
import numbers
import re
from collections.abc import Mapping, Sequence


class Unsupported(Exception):
    """A schema this module cannot decide exactly."""


# Keywords that never make data invalid (draft 2020-12 annotations, and the
# definitions that `$ref` reads).
_ANNOTATIONS = frozenset({
    "$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default", "examples",
    "markdownDescription", "deprecated", "readOnly", "writeOnly",
})


# ---- jsonschema's own semantics (jsonschema/_types.py and _utils.py)


def _is_array(x) -> bool:
    return isinstance(x, list)


def _is_boolean(x) -> bool:
    return isinstance(x, bool)


def _is_integer(x) -> bool:
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


def _is_null(x) -> bool:
    return x is None


def _is_number(x) -> bool:
    if isinstance(x, bool):
        return False
    return isinstance(x, numbers.Number)


def _is_object(x) -> bool:
    return isinstance(x, dict)


def _is_string(x) -> bool:
    return isinstance(x, str)


_TYPES = {
    "array": _is_array,
    "boolean": _is_boolean,
    "integer": _is_integer,
    "null": _is_null,
    "number": _is_number,
    "object": _is_object,
    "string": _is_string,
}


def _unbool(element, true=object(), false=object()):
    if element is True:
        return true
    if element is False:
        return false
    return element


def _equal(one, two) -> bool:
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(_equal(i, j) for i, j in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(key in two and _equal(value, two[key]) for key, value in one.items())
    return _unbool(one) == _unbool(two)


def _uniq(container) -> bool:
    try:
        sort = sorted(_unbool(i) for i in container)
        sliced = itertools.islice(sort, 1, None)
        for i, j in zip(sort, sliced):
            if _equal(i, j):
                return False
    except (NotImplementedError, TypeError):
        seen: list = []
        for e in container:
            e = _unbool(e)
            for i in seen:
                if _equal(i, e):
                    return False
            seen.append(e)
    return True


# ---- the schema compiled to checks


def _always(x) -> bool:
    return True


def _never(x) -> bool:
    return False


class Checker:
    """`checker(data)`: whether `data` is valid under the root schema."""

    def __init__(self, root):
        self.root = root
        self.compiled: dict[int, object] = {}  # id(schema node) -> check
        self.keep: list = []  # the nodes compiled, so that their ids stay theirs
        self.check = self.compile(root)

    def __call__(self, data) -> bool:
        return self.check(data)

    def resolve(self, ref: str):
        if not isinstance(ref, str) or not ref.startswith("#/"):
            raise Unsupported(f"$ref {ref!r}")
        node = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise Unsupported(f"$ref {ref!r}")
            node = node[part]
        return node

    def compile(self, schema):
        if schema is True:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        key = id(schema)
        if key in self.compiled:
            return self.compiled[key]
        checks: list = []

        def node(x, checks=checks) -> bool:
            for c in checks:
                if not c(x):
                    return False
            return True

        # registered before its parts, so that a reference back to it (a
        # recursive definition) finds it
        self.compiled[key] = node
        self.keep.append(schema)
        unknown = set(schema) - _ANNOTATIONS - set(_KEYWORDS)
        if unknown:
            raise Unsupported(f"keywords {sorted(unknown)}")
        for word, value in schema.items():
            if word in _KEYWORDS:
                checks.append(_KEYWORDS[word](self, value, schema))
        if not checks:
            self.compiled[key] = _always
            return _always
        if len(checks) == 1:
            self.compiled[key] = checks[0]
            # a reference made while compiling the parts still calls `node`, which is the same check
        return self.compiled[key]


def _type(c: Checker, types, schema):
    names = [types] if isinstance(types, str) else list(types)
    if any(n not in _TYPES for n in names):
        raise Unsupported(f"type {types!r}")
    tests = [_TYPES[n] for n in names]
    if len(tests) == 1:
        return tests[0]
    return lambda x: any(t(x) for t in tests)


def _ref(c: Checker, ref, schema):
    target = c.resolve(ref)
    box: list = []

    def check(x) -> bool:
        if not box:
            box.append(c.compile(target))
        return box[0](x)

    c.compile(target)  # compiled now, so that an Unsupported keyword shows at once
    return check


def _properties(c: Checker, properties, schema):
    subs = [(name, c.compile(sub)) for name, sub in properties.items()]

    def check(x) -> bool:
        if not isinstance(x, dict):
            return True
        for name, sub in subs:
            if name in x and not sub(x[name]):
                return False
        return True

    return check


def _additional_properties(c: Checker, extra, schema):
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    known = schema.get("properties", {})
    if extra is False:
        return lambda x: not isinstance(x, dict) or all(k in known for k in x)
    if isinstance(extra, dict):
        sub = c.compile(extra)
        return lambda x: not isinstance(x, dict) or all(sub(v) for k, v in x.items() if k not in known)
    # additionalProperties: true, or a value jsonschema reads as true
    if not extra:
        return lambda x: not isinstance(x, dict) or all(k in known for k in x)
    return _always


def _required(c: Checker, required, schema):
    names = list(required)
    return lambda x: not isinstance(x, dict) or all(n in x for n in names)


def _items(c: Checker, items, schema):
    if "prefixItems" in schema:
        raise Unsupported("prefixItems")
    if items is False:
        return lambda x: not isinstance(x, list) or not x
    sub = c.compile(items)
    return lambda x: not isinstance(x, list) or all(sub(v) for v in x)


def _enum(c: Checker, enums, schema):
    values = list(enums)
    if all(isinstance(e, str) for e in values):
        # `equal` with text on either side is ==, and text is never equal to a non-text
        texts = frozenset(values) if all(type(e) is str for e in values) else None
        if texts is not None:
            return lambda x: isinstance(x, str) and x in texts
    return lambda x: any(_equal(e, x) for e in values)


def _const(c: Checker, const, schema):
    return lambda x: _equal(x, const)


def _one_of(c: Checker, subschemas, schema):
    subs = [c.compile(s) for s in subschemas]

    def check(x) -> bool:
        valid = 0
        for sub in subs:
            if sub(x):
                valid += 1
                if valid > 1:
                    return False
        return valid == 1

    return check


def _any_of(c: Checker, subschemas, schema):
    subs = [c.compile(s) for s in subschemas]
    return lambda x: any(sub(x) for sub in subs)


def _all_of(c: Checker, subschemas, schema):
    subs = [c.compile(s) for s in subschemas]
    return lambda x: all(sub(x) for sub in subs)


def _min_length(c: Checker, n, schema):
    return lambda x: not isinstance(x, str) or len(x) >= n


def _max_length(c: Checker, n, schema):
    return lambda x: not isinstance(x, str) or len(x) <= n


def _pattern(c: Checker, pattern, schema):
    search = re.compile(pattern).search
    return lambda x: not isinstance(x, str) or search(x) is not None


def _minimum(c: Checker, n, schema):
    return lambda x: not _is_number(x) or not x < n


def _maximum(c: Checker, n, schema):
    return lambda x: not _is_number(x) or not x > n


def _min_items(c: Checker, n, schema):
    return lambda x: not isinstance(x, list) or not len(x) < n


def _max_items(c: Checker, n, schema):
    return lambda x: not isinstance(x, list) or not len(x) > n


def _unique_items(c: Checker, unique, schema):
    if not unique:
        return _always
    return lambda x: not isinstance(x, list) or _uniq(x)


def _property_names(c: Checker, names, schema):
    sub = c.compile(names)
    return lambda x: not isinstance(x, dict) or all(sub(k) for k in x)


def _min_properties(c: Checker, n, schema):
    return lambda x: not isinstance(x, dict) or not len(x) < n


def _max_properties(c: Checker, n, schema):
    return lambda x: not isinstance(x, dict) or not len(x) > n


_KEYWORDS = {
    "type": _type,
    "$ref": _ref,
    "properties": _properties,
    "additionalProperties": _additional_properties,
    "required": _required,
    "items": _items,
    "enum": _enum,
    "const": _const,
    "oneOf": _one_of,
    "anyOf": _any_of,
    "allOf": _all_of,
    "minLength": _min_length,
    "maxLength": _max_length,
    "pattern": _pattern,
    "minimum": _minimum,
    "maximum": _maximum,
    "minItems": _min_items,
    "maxItems": _max_items,
    "uniqueItems": _unique_items,
    "propertyNames": _property_names,
    "minProperties": _min_properties,
    "maxProperties": _max_properties,
}
