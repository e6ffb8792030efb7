"""The compiled variants and their option panels, as JSON for clients."""

from __future__ import annotations

from functools import lru_cache

from runtime.registry import load, names


def option_json(o, source: str = "") -> dict:
    out = {
        "id": o.id,
        "name": {"zh": o.name.zh, "en": o.name.en},
        "type": o.type,
        "default": o.default,
        "advanced": o.advanced,
    }
    if o.values:
        out["values"] = [
            {"value": v, "label": {"zh": lab.zh, "en": lab.en}} if lab is not None else {"value": v}
            for v, lab in zip(o.values, list(o.labels) + [None] * (len(o.values) - len(o.labels)))
        ]
    if o.minimum is not None:
        out["minimum"] = o.minimum
    if o.maximum is not None:
        out["maximum"] = o.maximum
    if o.rule:
        out["rule"] = o.rule
    if o.doc:
        out["doc"] = o.doc
    if source:
        out["source"] = source  # where the option comes from: document, resolution or house
    return out


def _source(rs, kind: str, key: str) -> str:
    """A fan's or option's `source:` mark (compiler/provenance.py), or ""."""
    p = getattr(rs, "provenance", None) or {}
    section = {"fans": "scoring", "options": "options"}[kind]
    return p.get(kind, {}).get(key) or p.get("sections", {}).get(section) or p.get("values", "")


def variant_json(rs) -> dict:
    return {
        "name": rs.name,
        "title": {"zh": rs.title.zh, "en": rs.title.en},
        "summary": rs.summary,
        "source_sha256": rs.source_sha256,
        "players": list(rs.players),
        "default_players": rs.default_players,
        "verbs": list(rs.verbs),
        "unit": {"zh": rs.scoring.unit_name.zh, "en": rs.scoring.unit_name.en},
        "fans": [{"id": f.id, "name": {"zh": f.name.zh, "en": f.name.en},
                  **({"source": _source(rs, "fans", f.id)} if _source(rs, "fans", f.id) else {})} for f in rs.scoring.fans],
        "options": [option_json(o, _source(rs, "options", o.id)) for o in rs.options],
        "constraints": [c.message.both() for c in rs.constraints],
    }


@lru_cache(maxsize=1)
def catalog() -> list[dict]:
    """Every compiled variant (read once: generated/ does not change under a running server)."""
    return [variant_json(load(name)) for name in names()]
