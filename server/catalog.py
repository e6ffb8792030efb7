"""The compiled variants and their option panels, as JSON for clients."""

from __future__ import annotations

from functools import lru_cache

from runtime.registry import load, names

UNBOUNDED_INT_LIMIT = 1000  # an int option declared without a maximum: the server's own bound
MAX_HANDS = 64  # hands in one match (Limits.max_hands)

# Payment reasons the runtime and the variants use, for the settlement table;
# a variant's own reason ids that are fan ids are named by the fan.
REASONS = {
    "win": ("和牌", "win"),
    "self_drawn": ("自摸", "self-drawn"),
    "kong": ("杠分", "kong"),
    "horse": ("买马", "horses"),
    "jiang_ma": ("奖马", "reward horses"),
    "lian_zhuang": ("连庄", "dealer streak"),
    "gen_zhuang": ("跟庄", "follow the dealer"),
    "cha_jiao": ("查叫", "not ready at a drawn hand"),
    "table_fee": ("台费", "table fee"),
    "bao": ("包牌", "pays for all"),
    "stake": ("买点", "stake"),
}


def option_bounds(rs, key: str, max_hands: int = MAX_HANDS) -> tuple[int, int]:
    """The values the server accepts for an int option: its declared bounds,
    and where it declares no maximum, the server's own (the hand limit for
    an option that sets the number of hands)."""
    try:
        o = rs.option(key)
    except Exception:
        return (-(2**31), 2**31)  # not an option: configure names the mistake
    if o.type != "int" or o.values:
        return (-(2**31), 2**31)
    low = o.minimum if o.minimum is not None else 0
    if o.maximum is not None:
        return low, o.maximum
    return low, _sets_hands(rs.name, key, max_hands)


@lru_cache(maxsize=None)
def _sets_hands(name: str, key: str, max_hands: int) -> int:
    rs = load(name)
    try:
        probe = rs.configure({key: max_hands + 1})
        sets_hands = probe.hands == max_hands + 1
    except Exception:
        sets_hands = False
    return max_hands if sets_hands else UNBOUNDED_INT_LIMIT


def option_json(o, source: str = "", rs=None) -> dict:
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
    elif rs is not None and o.type == "int" and not o.values:
        out["maximum"] = option_bounds(rs, o.id)[1]  # the server's bound
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
        "options": [option_json(o, _source(rs, "options", o.id), rs) for o in rs.options],
        "reasons": {**{k: {"zh": zh, "en": en} for k, (zh, en) in REASONS.items()}, **_own_reasons(rs)},
        "chow": "chow" in rs.verbs,
        "constraints": [c.message.both() for c in rs.constraints],
    }


def _own_reasons(rs) -> dict:
    """The payment reasons a variant names itself: its exhausted-wall rules
    (查花猪, 查大叫, 退税 …) and payments moved to a winner (呼叫转移)."""
    named = [(r.id, r.name) for r in rs.wall_rules] + [(m.reason, m.name) for m in rs.payment_moves]
    return {rid: {"zh": name.zh, "en": name.en} for rid, name in named if name.zh and name.zh != rid}


@lru_cache(maxsize=1)
def catalog() -> list[dict]:
    """Every compiled variant (read once: generated/ does not change under a running server)."""
    return [variant_json(load(name)) for name in names()]
