"""Where a variant's values come from, as its YAML declares it.

Each fan, option and option rule may say `source: document | resolution |
house`: the source document states it, it is our reading of an ambiguity
or a gap (a rules file's "Proposed resolution" and "-A" IDs), or it is a
value the studio chose. `source.values` marks everything else and
`source.sections` marks whole sections (`claims: resolution`). The
compiled module keeps the marks (`Ruleset.provenance`) for `mjc docs` and
the server's variant list.
"""

from __future__ import annotations

from .errors import Diagnostic

MARKS = ("document", "resolution", "house")
LABELS = {
    "document": ("原文", "the source document"),
    "resolution": ("释疑", "a resolution of an ambiguity"),
    "house": ("自定", "a house value"),
    "": ("未注", "not marked"),
}


def collect(data: dict, pos, top_level_keys) -> tuple[dict, list[Diagnostic]]:
    """The marks of a (merged) variant, and mistakes in `source.sections`."""
    problems: list[Diagnostic] = []
    source = data.get("source") if isinstance(data.get("source"), dict) else {}
    sections = dict(source.get("sections") or {})
    for key in sections:
        if key not in top_level_keys or key in ("source", "title", "summary", "extends"):
            problems.append(pos.diag(("source", "sections", key), f"source.sections: {key!r} is not a section of a variant", key=True))
    fans = ((data.get("scoring") or {}).get("fans") or {}) if isinstance(data.get("scoring"), dict) else {}
    options = data.get("options") or {}
    rules = data.get("option_rules") or []
    out = {
        "values": source.get("values", ""),
        "sections": {k: v for k, v in sorted(sections.items())},
        "fans": {fid: spec["source"] for fid, spec in fans.items() if isinstance(spec, dict) and spec.get("source")},
        "options": {oid: spec["source"] for oid, spec in options.items() if isinstance(spec, dict) and spec.get("source")},
        "option_rules": tuple(r.get("source", "") for r in rules if isinstance(r, dict)),
    }
    if not any((out["values"], out["sections"], out["fans"], out["options"], any(out["option_rules"]))):
        return {}, problems
    return out, problems


def mark(provenance: dict, kind: str, key: str = "", section: str = "") -> str:
    """The mark of a fan (`fans`), an option (`options`), or a section's rule."""
    if not provenance:
        return ""
    if kind in ("fans", "options") and key in provenance.get(kind, {}):
        return provenance[kind][key]
    return provenance.get("sections", {}).get(section or {"fans": "scoring", "options": "options"}.get(kind, kind),
                                               provenance.get("values", ""))
