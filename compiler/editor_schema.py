"""The schema published for editors: `schema/variant.editor.schema.json`.

The compiler checks a variant's merged data against `variant.schema.json`.
An editor sees one file, and a file that `extends` another states only
what differs, so the editor schema is the same schema with a second form
for such files: no key is required below the top (the parent gives it),
a key may be null (which removes the parent's), `title` stays required
(it is never inherited). Expression strings carry the facts they may name
in their description. Generated from the compiler's schema and the
vocabulary: `python -m compiler.editor_schema --write`; a test keeps it
fresh.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from runtime import vocabulary as vocab

from .schema_check import schema

FILE = Path(__file__).parent / "schema" / "variant.editor.schema.json"
PARTIAL = "partial_"


def _facts_line() -> str:
    names = sorted({f.name + (f"({', '.join(f.args)})" if f.args else "") for f in vocab.FACTS})
    return ("Facts: " + ", ".join(names) + "; options.ID for a table option; tile groups: "
            + ", ".join(vocab.TILE_GROUPS) + "; functions min, max, abs.")


def _relaxed(node, top: bool = False):
    """A schema node for a partial file: nothing required, null allowed for
    a property (it removes the parent's), oneOf read as anyOf."""
    if isinstance(node, list):
        return [_relaxed(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "required":
            if top:
                out[key] = ["title"]
            continue
        if key == "minProperties":
            continue
        if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
            out[key] = "#/$defs/" + PARTIAL + value[len("#/$defs/"):]
        elif key == "oneOf":
            out["anyOf"] = _relaxed(value)
        elif key == "properties":
            out[key] = {k: _nullable(_relaxed(v)) for k, v in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_relaxed(value))
        else:
            out[key] = _relaxed(value)
    return out


def _nullable(node: dict) -> dict:
    return {"anyOf": [node, {"type": "null"}], **({"description": node["description"]} if "description" in node else {})}


def build() -> dict:
    strict = copy.deepcopy(schema())
    defs = strict.pop("$defs")
    expr = defs["expr"]
    expr["description"] = expr.get("description", "").rstrip() + " " + _facts_line()
    expr["markdownDescription"] = expr["description"]
    variant = {k: strict[k] for k in ("type", "additionalProperties", "required", "properties")}
    partial = _relaxed(variant, top=True)
    partial["properties"]["extends"] = variant["properties"]["extends"]
    all_defs = dict(defs)
    all_defs.update({PARTIAL + name: _relaxed(node) for name, node in defs.items()})
    all_defs["variant"] = variant
    all_defs["partial_variant"] = partial
    return {
        "$schema": strict["$schema"],
        "$id": strict.get("$id", "").replace("variant.schema.json", "variant.editor.schema.json"),
        "title": strict.get("title", "") + " (for editors)",
        "description": (strict.get("description", "") + " A file that extends another states only what differs: "
                        "no key is required but title, and a key set to null removes the parent's.").strip(),
        "if": {"required": ["extends"]},
        "then": {"$ref": "#/$defs/partial_variant"},
        "else": {"$ref": "#/$defs/variant"},
        "$defs": all_defs,
    }


def text() -> str:
    return json.dumps(build(), ensure_ascii=False, indent=2) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--write"]:
        FILE.write_text(text(), encoding="utf-8")
        print(f"wrote {FILE}")
        return 0
    sys.stdout.write(text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
