"""Hand JSON (shared/spec/notation.md): parse one winning hand and value it.

Optional fields this project adds, all defaulting to false/0:
`flags.declared_ready` (the winner declared ready: 报叫/报听),
`flags.discarder_is_dealer` (default: a `first_turn` discard win by a
non-dealer is taken as the dealer's first discard), `flags.kong_chain`
(kongs in a row before a `kong_replacement` win, default 1),
`flags.first_draw` (a self-drawn win with the winner's first tile, before
his first discard; default: `first_turn` and `self_drawn`),
`flags.declared_at_opening` (the winner declared ready at the opening:
天听) and `flags.doublings` (wins the winner deferred to double: 加倍,
default 0). A meld `{"type": "kong", "kind": ID, "tiles": ...}` whose kind
is one of the variant's special sets (`special_sets`: 旋风杠, 喜杠) is that
set: its tiles are one of the set's groups.
"""

from __future__ import annotations

from runtime.melds import ADDED, CONCEALED, DIRECT, KONG, SPECIAL, Meld
from runtime.ruleset import OptionError
from runtime.scoring import WinContext, evaluate
from runtime.tiles import NUM_KINDS, TileError, format_tiles, parse_tile, parse_tiles

KEYS = {"concealed", "melds", "win_tile", "self_drawn", "seat_wind", "round_wind", "flowers", "flags", "wilds", "options"}
FLAGS = {
    "last_tile", "kong_replacement", "robbing_kong", "last_copy", "after_kong_discard", "first_turn",
    "declared_ready", "discarder_is_dealer", "kong_chain", "first_draw", "declared_at_opening", "doublings",
}
MELD_KEYS = {"type", "tiles", "exposed", "kind"}


class HandError(ValueError):
    pass


def _tiles(value, where: str) -> list[int]:
    try:
        return parse_tiles(value)
    except (TileError, TypeError) as exc:
        raise HandError(f"{where}: {exc}") from None


def _meld(data, i: int, table=None) -> Meld:
    where = f"melds[{i}]"
    if not isinstance(data, dict):
        raise HandError(f"{where}: a meld is an object with type and tiles")
    unknown = set(data) - MELD_KEYS
    if unknown:
        raise HandError(f"{where}: unknown key {sorted(unknown)[0]!r}; expected: {', '.join(sorted(MELD_KEYS))}")
    kind = data.get("type")
    tiles = sorted(_tiles(data.get("tiles", []), where + ".tiles"))
    specials = getattr(table, "special_by_id", {})
    if kind == "kong" and data.get("kind") in specials:
        spec = specials[data["kind"]]
        if tuple(tiles) not in spec.groups:
            groups = ", ".join(format_tiles(g) for g in spec.groups)
            raise HandError(f"{where}: the special set {spec.id} is one of: {groups}")
        return Meld(SPECIAL, tiles[0], spec.id, -1, -1, tuple(tiles))
    if kind == "chow":
        if len(tiles) != 3 or tiles[0] >= 27 or tiles[1] != tiles[0] + 1 or tiles[2] != tiles[0] + 2 or tiles[0] // 9 != tiles[2] // 9:
            raise HandError(f"{where}: a chow is three consecutive tiles of one suit")
        return Meld("chow", tiles[0], "", 0)
    if kind in ("pung", "kong"):
        size = 3 if kind == "pung" else 4
        if len(tiles) != size or len(set(tiles)) != 1:
            raise HandError(f"{where}: a {kind} is {size} identical tiles")
        if kind == "pung":
            return Meld("pung", tiles[0], "", 0)
        exposed = data.get("exposed", True)
        sub = data.get("kind") or (DIRECT if exposed else CONCEALED)
        if sub not in (DIRECT, ADDED, CONCEALED):
            raise HandError(f"{where}: kind is direct, added or concealed, not {sub!r}")
        if (sub == CONCEALED) == bool(exposed) and "exposed" in data:
            raise HandError(f"{where}: a {sub} kong cannot have exposed: {str(exposed).lower()}")
        return Meld(KONG, tiles[0], sub, -1 if sub == CONCEALED else 0)
    raise HandError(f"{where}: type is chow, pung or kong, not {kind!r}")


def parse_hand(data, table) -> WinContext:
    if not isinstance(data, dict):
        raise HandError("a hand is a JSON object")
    unknown = set(data) - KEYS
    if unknown:
        raise HandError(f"unknown key {sorted(unknown)[0]!r}; expected: {', '.join(sorted(KEYS))}")
    for key in ("concealed", "win_tile"):
        if key not in data:
            raise HandError(f"missing key {key!r}")
    concealed = _tiles(data["concealed"], "concealed")
    melds = [_meld(m, i, table) for i, m in enumerate(data.get("melds") or [])]
    try:
        win = parse_tile(data["win_tile"])
        seat_wind = parse_tile(data.get("seat_wind", "1z"))
        round_wind = parse_tile(data.get("round_wind", "1z"))
    except TileError as exc:
        raise HandError(str(exc)) from None
    flags = data.get("flags") or {}
    if not isinstance(flags, dict):
        raise HandError("flags is an object of true/false values")
    bad = set(flags) - FLAGS
    if bad:
        raise HandError(f"unknown flag {sorted(bad)[0]!r}; expected: {', '.join(sorted(FLAGS))}")
    flowers = data.get("flowers", [])
    n_flowers = flowers if isinstance(flowers, int) and not isinstance(flowers, bool) else len(_tiles(flowers, "flowers"))
    if data.get("wilds"):
        raise HandError(f"{table.ruleset.name} has no wild tiles")
    size = len(concealed) + 3 * len(melds) + 1
    if size != 14:
        raise HandError(f"not a winning hand: {size - 1} tiles after melds, expected 13 before the winning tile")
    counts = [0] * NUM_KINDS
    for t in concealed:
        counts[t] += 1
    held = list(counts)
    held[win] += 1
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    for t, c in enumerate(held):
        limit = 1 if t >= 34 else table.ruleset.copies
        if c > limit:
            raise HandError(f"the hand holds {c} copies of a tile that has {limit}")
        if c and t not in table.ruleset.tile_kinds:
            from runtime.tiles import NAMES

            raise HandError(f"{NAMES[t]} is not a tile of {table.ruleset.name}")
    self_drawn = bool(data.get("self_drawn", False))
    is_dealer = seat_wind == 27
    first_turn = bool(flags.get("first_turn", False))
    default_discarder_dealer = first_turn and not self_drawn and not is_dealer
    doublings = flags.get("doublings", 0)
    if isinstance(doublings, bool) or not isinstance(doublings, int) or doublings < 0:
        raise HandError("flags.doublings is a count, 0 or more")
    return WinContext(
        concealed=counts,
        melds=melds,
        win_tile=win,
        self_drawn=self_drawn,
        robbing_kong=bool(flags.get("robbing_kong", False)),
        kong_replacement=bool(flags.get("kong_replacement", False)),
        kong_chain=int(flags.get("kong_chain", 1)) if flags.get("kong_replacement") else 0,
        after_kong_discard=bool(flags.get("after_kong_discard", False)),
        last_tile=bool(flags.get("last_tile", False)),
        last_copy=bool(flags.get("last_copy", False)),
        first_turn=first_turn,
        first_discard=first_turn and not self_drawn,
        is_dealer=is_dealer,
        discarder_is_dealer=bool(flags.get("discarder_is_dealer", default_discarder_dealer)),
        declared_ready=bool(flags.get("declared_ready", False)),
        seat_wind=seat_wind,
        round_wind=round_wind,
        flowers=n_flowers,
        players=table.players,
        first_draw=bool(flags.get("first_draw", first_turn and self_drawn)),
        declared_at_opening=bool(flags.get("declared_at_opening", False)),
        doublings=doublings,
    )


def score_hand(data, ruleset, table_cache: dict | None = None) -> dict:
    """One hand JSON object → one result object (never raises on bad input)."""
    try:
        options = data.get("options") or {} if isinstance(data, dict) else {}
        if not isinstance(options, dict):
            raise HandError("options is an object of table options")
        key = repr(sorted(options.items()))
        table = (table_cache or {}).get(key)
        if table is None:
            table = ruleset.configure(options)
            if table_cache is not None:
                table_cache[key] = table
        ctx = parse_hand(data, table)
    except (HandError, OptionError) as exc:
        return {"ok": False, "error": str(exc)}
    v = evaluate(table, ctx)
    if v is None:
        return {"ok": False, "error": "not a winning hand: the tiles form no winning shape of " + ruleset.name}
    out = {
        "ok": True,
        "fans": [{"id": f.id, "name": f.name.zh, "en": f.name.en, "value": val, "count": c} for f, val, c in v.fans],
        "total": v.total,
        "unit": ruleset.scoring.unit,
    }
    if not v.win_allowed:
        out["win_allowed"] = False
        out["why"] = v.why
    return out
