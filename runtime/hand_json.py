"""Hand JSON (shared/spec/notation.md): read one winning hand, check it
against the table, value it and write the result object.

`mjc/handjson.py` documents the optional fields this project adds (their
names are in `FLAGS` and `KEYS` here). Compiled with the engine: reading
a hand and writing its result cost about as much as valuing it.
"""

from __future__ import annotations

from .melds import ADDED, CONCEALED, DIRECT, KONG, SPECIAL, Meld
from .ruleset import FanSpec, OptionError, Table
from .scoring import WinContext, evaluate
from .tiles import INDEX, NAMES, NUM_KINDS, TileError, format_tiles, parse_tile, parse_tiles, show

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# typed Final: the compiled reader tests membership natively
KEYS: "Final[frozenset[str]]" = frozenset(
    {"concealed", "melds", "win_tile", "self_drawn", "seat_wind", "round_wind", "flowers", "flags", "wilds", "options"})
FLAGS: "Final[frozenset[str]]" = frozenset({
    "last_tile", "kong_replacement", "robbing_kong", "last_copy", "after_kong_discard", "first_turn",
    "declared_ready", "discarder_is_dealer", "kong_chain", "first_draw", "declared_at_opening", "doublings",
})
# flags that are counts, with the most a hand can have: 4 kongs; a deferred
# win (加倍) for at most every tile of the largest wall
COUNT_FLAGS: "Final[dict[str, int]]" = {"kong_chain": 4, "doublings": 144}
MELD_KEYS: "Final[frozenset[str]]" = frozenset({"type", "tiles", "exposed", "kind"})
EAST: "Final" = 27  # the winds are 1z-4z: 27-30
NORTH: "Final" = 30
WINDS = range(EAST, NORTH + 1)


class HandError(ValueError):
    pass


def _named(value: object) -> list[int] | None:
    """A list of tile names, as nearly every hand gives its tiles; None for
    anything else (which `_tiles` reads, or names the error of)."""
    if not isinstance(value, list):
        return None
    out: list[int] = []
    for item in value:
        tile = INDEX.get(item, -1) if isinstance(item, str) else -1
        if tile < 0:
            return None
        out.append(tile)
    return out


def _tiles(value, where: str) -> list[int]:
    """A group of tiles, compact (`123m`) or a list; errors name the field
    and, in a list, the item."""
    named = _named(value)
    if named is not None:
        return named
    if isinstance(value, str):
        try:
            return parse_tiles(value)
        except TileError as exc:
            raise HandError(f"{where}: {exc}") from None
    if not isinstance(value, list):
        raise HandError(f"{where}: tiles are a string such as 123m or a list such as [\"1m\", \"2m\"], not {show(value)}")
    out: list[int] = []
    for i, item in enumerate(value):
        tile = INDEX.get(item) if isinstance(item, str) else None
        if tile is not None:  # the common case: one tile, no parsing
            out.append(tile)
            continue
        if not isinstance(item, str):
            raise HandError(f"{where}[{i}]: a tile is a string such as 5p, not {show(item)}")
        try:
            out.extend(parse_tiles(item))
        except TileError as exc:
            raise HandError(f"{where}[{i}]: {exc}") from None
    return out


def _tile(value, where: str) -> int:
    tile = INDEX.get(value, -1) if isinstance(value, str) else -1
    if tile >= 0:
        return tile
    if not isinstance(value, str):
        raise HandError(f"{where}: a tile is a string such as 5p, not {show(value)}")
    try:
        return parse_tile(value)
    except TileError as exc:
        raise HandError(f"{where}: {exc}") from None


def _wind(data: dict, key: str) -> int:
    if key not in data:
        return EAST
    tile = _tile(data[key], key)
    if not EAST <= tile <= NORTH:
        raise HandError(f"{key}: a wind is 1z, 2z, 3z or 4z, not {NAMES[tile]}")
    return tile


def _bool(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise HandError(f"{where} is true or false, not {show(value)}")
    return value


def _count(value, where: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise HandError(f"{where} is a count, 0 to {most}, not {show(value)}")
    return value


def _unknown(data: dict, known: frozenset) -> list:
    """The keys of `data` outside `known` (no set is built for a good hand)."""
    for key in data:
        if key not in known:
            return sorted(set(data) - known, key=str)
    return []


def _meld(data, i: int, table: Table | None = None) -> Meld:
    # the field's name (`melds[i]`) is written only for an error
    if not isinstance(data, dict):
        raise HandError(f"melds[{i}]: a meld is an object with type and tiles, not {show(data)}")
    unknown = _unknown(data, MELD_KEYS)
    if unknown:
        raise HandError(f"melds[{i}]: unknown key {show(unknown[0])}; expected: {', '.join(sorted(MELD_KEYS))}")
    kind = data.get("type")
    if kind not in ("chow", "pung", "kong"):
        raise HandError(f"melds[{i}]: type is chow, pung or kong, not {show(kind)}")
    sub = data.get("kind")
    if sub is not None and not isinstance(sub, str):
        raise HandError(f"melds[{i}]: kind is a string such as direct, added or concealed, not {show(sub)}")
    if "exposed" in data and not isinstance(data["exposed"], bool):
        _bool(data["exposed"], f"melds[{i}].exposed")
    given = data.get("tiles", [])
    named = _named(given)
    tiles = sorted(named if named is not None else _tiles(given, f"melds[{i}].tiles"))
    if kind == "kong" and table is not None and sub in table.special_by_id:
        spec = table.special_by_id[sub]
        if tuple(tiles) not in spec.groups:
            groups = ", ".join(format_tiles(g) for g in spec.groups)
            raise HandError(f"melds[{i}]: the special set {spec.id} is one of: {groups}")
        return Meld(SPECIAL, tiles[0], spec.id, -1, -1, tuple(tiles))
    if kind == "chow":
        if len(tiles) != 3 or tiles[0] >= 27 or tiles[1] != tiles[0] + 1 or tiles[2] != tiles[0] + 2 or tiles[0] // 9 != tiles[2] // 9:
            raise HandError(f"melds[{i}]: a chow is three consecutive tiles of one suit")
        return Meld("chow", tiles[0], "", 0)
    size = 3 if kind == "pung" else 4
    if len(tiles) != size or tiles[0] != tiles[-1]:  # sorted: all alike when the ends are
        raise HandError(f"melds[{i}]: a {kind} is {size} identical tiles")
    if kind == "pung":
        return Meld("pung", tiles[0], "", 0)
    exposed = data.get("exposed", True)
    sub = sub or (DIRECT if exposed else CONCEALED)
    if sub not in (DIRECT, ADDED, CONCEALED):
        raise HandError(f"melds[{i}]: kind is direct, added or concealed, not {show(sub)}")
    if (sub == CONCEALED) == exposed and "exposed" in data:
        raise HandError(f"melds[{i}]: a {sub} kong cannot have exposed: {str(exposed).lower()}")
    return Meld(KONG, tiles[0], sub, -1 if sub == CONCEALED else 0)


def has_wilds(ruleset) -> bool:
    """Whether some table of the ruleset has wild tiles (fixed or turned)."""
    w = ruleset.wilds
    return bool(w) and (any(tiles and when is not False for tiles, when in w.fixed) or w.indicator is not False)


def hand_table(data, table: Table) -> Table:
    """The table a hand is scored at: its `wilds`, when given, replace the
    wild kinds the options make."""
    wilds = data.get("wilds") if isinstance(data, dict) else None
    if wilds is None:
        return table
    kinds = frozenset(_tiles(wilds, "wilds"))
    name = table.ruleset.name
    if not has_wilds(table.ruleset):
        if kinds:
            raise HandError(f"{name} has no wild tiles")
        return table
    for t in sorted(kinds):
        if t >= 34:
            raise HandError(f"wilds: {NAMES[t]} is a flower, which is never wild")
        if t not in table.kind_set:
            raise HandError(f"wilds: {NAMES[t]} is not a tile of {name}")
    return table if kinds == table.wilds else table.with_wilds(kinds)


def parse_hand(data, table: Table) -> WinContext:
    if not isinstance(data, dict):
        raise HandError("a hand is a JSON object")
    unknown = _unknown(data, KEYS)
    if unknown:
        raise HandError(f"unknown key {show(unknown[0])}; expected: {', '.join(sorted(KEYS))}")
    for key in ("concealed", "win_tile"):
        if key not in data:
            raise HandError(f"missing key {key!r}")
    concealed = _tiles(data["concealed"], "concealed")
    given = data.get("melds")
    if given is None:
        given = []
    elif not isinstance(given, list):
        raise HandError(f"melds is a list of melds (objects with type and tiles), not {show(given)}")
    melds: list[Meld] = [_meld(m, i, table) for i, m in enumerate(given)]
    win = _tile(data["win_tile"], "win_tile")
    seat_wind = _wind(data, "seat_wind")
    round_wind = _wind(data, "round_wind")
    flags = data.get("flags")
    if flags is None:
        flags = {}
    elif not isinstance(flags, dict):
        raise HandError(f"flags is an object of true/false values, not {show(flags)}")
    bad = _unknown(flags, FLAGS)
    if bad:
        raise HandError(f"unknown flag {show(bad[0])}; expected: {', '.join(sorted(FLAGS))}")
    for key, value in flags.items():
        if key in COUNT_FLAGS:
            _count(value, "flags." + key, COUNT_FLAGS[key])
        elif not isinstance(value, bool):
            _bool(value, "flags." + key)
    flowers = data.get("flowers")
    flowers_aside: tuple = ()
    if flowers is None:
        n_flowers = 0
    elif isinstance(flowers, int) and not isinstance(flowers, bool):
        n_flowers = _count(flowers, "flowers", 8)
    elif isinstance(flowers, (str, list)):
        got = _tiles(flowers, "flowers")
        for t in got:
            if t < 34:
                raise HandError(f"flowers: {NAMES[t]} is not a flower (1f to 8f)")
        if len(set(got)) != len(got):
            twice = next(t for t in got if got.count(t) > 1)
            raise HandError(f"flowers: {NAMES[twice]} is given twice")
        n_flowers = len(got)
        flowers_aside = tuple(got)
    else:
        raise HandError(f"flowers is a list of flower tiles such as [\"1f\", \"5f\"] or their number, not {show(flowers)}")
    self_drawn = _bool(data.get("self_drawn", False), "self_drawn")
    size = len(concealed) + 3 * len(melds) + 1
    want = table.ruleset.other_tiles + 1  # sets and a pair: the variant's deal, plus the winning tile
    if size != want:
        raise HandError(f"not a winning hand: {size - 1} tiles after melds, expected {want - 1} before the winning tile")
    counts: list[int] = [0] * NUM_KINDS
    for t in concealed:
        counts[t] = counts[t] + 1
    held: list[int] = list(counts)
    held[win] = held[win] + 1
    for m in melds:
        m.add_to(held)
    copies = table.ruleset.copies
    in_play = table.kind_set  # a part of the ruleset's tile kinds
    for t, c in enumerate(held):
        if not c:
            continue
        limit = 1 if t >= 34 else copies
        if c > limit:
            raise HandError(f"the hand holds {c} copies of a tile that has {limit}")
        if t not in in_play:
            if t not in table.ruleset.tile_kinds:
                raise HandError(f"{NAMES[t]} is not a tile of {table.ruleset.name}")
            raise HandError(f"{NAMES[t]} is not in play at this table: its options remove it ({_removed_by(table, t)})")
    _as_the_game_allows(data, melds, flags, self_drawn, n_flowers, table)
    is_dealer = seat_wind == 27
    first_turn = flags.get("first_turn", False)
    default_discarder_dealer = first_turn and not self_drawn and not is_dealer
    kong_replacement = flags.get("kong_replacement", False)
    return WinContext(
        concealed=counts,
        melds=melds,
        win_tile=win,
        self_drawn=self_drawn,
        robbing_kong=flags.get("robbing_kong", False),
        kong_replacement=kong_replacement,
        kong_chain=flags.get("kong_chain", 1) if kong_replacement else 0,
        after_kong_discard=flags.get("after_kong_discard", False),
        last_tile=flags.get("last_tile", False),
        last_copy=flags.get("last_copy", False),
        first_turn=first_turn,
        first_discard=first_turn and not self_drawn,
        is_dealer=is_dealer,
        discarder_is_dealer=flags.get("discarder_is_dealer", default_discarder_dealer),
        declared_ready=flags.get("declared_ready", False),
        seat_wind=seat_wind,
        round_wind=round_wind,
        flowers=n_flowers,
        flowers_aside=flowers_aside,
        players=table.players,
        first_draw=flags.get("first_draw", first_turn and self_drawn),
        declared_at_opening=flags.get("declared_at_opening", False),
        doublings=flags.get("doublings", 0),
    )


def _removed_by(table, tile: int) -> str:
    """The options that take `tile` out of play, as `id=value`."""
    rs = table.ruleset
    for tiles, when in rs.removals:
        if tile in tiles and callable(when):
            code = getattr(when, "__code__", None)  # none in a compiled build: the docstring names them too
            names = [o.id for o in rs.options if o.id in (tuple(code.co_names if code else ()) + tuple(_doc_names(when)))]
            shown = [f"{o}={str(table.option_values[o]).lower()}" for o in names if o in table.option_values]
            if shown:
                return ", ".join(shown)
    return "options"


def _doc_names(fn) -> list[str]:
    import re

    from .ruleset import docstring

    return re.findall(r"options\.([a-z0-9_]+)", docstring(fn))


def _as_the_game_allows(data, melds: list, flags: dict, self_drawn: bool, flowers: int, table: Table) -> None:
    """What play could never give: melds the table cannot make, flags that
    contradict each other or the table (the same checks as the game's)."""
    name = table.ruleset.name
    for i, m in enumerate(melds):
        if m.type == "chow" and not table.chow:
            raise HandError(f"melds[{i}]: a chow cannot be made at this table of {name} (no chow is claimed)")
        if m.type == "pung" and not table.pong:
            raise HandError(f"melds[{i}]: a pung cannot be made at this table of {name} (no pung is claimed)")
        if m.type == KONG:
            allowed = {DIRECT: table.kong_claim, ADDED: table.added_kong and table.pong, CONCEALED: table.concealed_kong}
            if not allowed.get(m.kind, True):
                raise HandError(f"melds[{i}]: a {m.kind} kong cannot be made at this table of {name}")
    robbing = flags.get("robbing_kong", False)
    replacement = flags.get("kong_replacement", False)
    if flags:  # the first contradiction, in this order (no flags: none)
        why = _contradiction(data, flags, self_drawn, robbing, replacement)
        if why:
            raise HandError(f"contradictory flags: {why}")
    if robbing and not table.rob_kinds:
        raise HandError(f"robbing_kong: a kong cannot be robbed at this table of {name}")
    if flags.get("declared_ready", False) and table.declare == "none":
        raise HandError(f"declared_ready: {name} has no ready declaration at this table")


def _contradiction(data, flags: dict, self_drawn: bool, robbing: bool, replacement: bool) -> str:
    if self_drawn and robbing:
        return "robbing_kong is a win on another player's tile, so it is not self_drawn"
    if replacement and robbing:
        return "a win is not both on a kong replacement and robbing a kong"
    after_kong = flags.get("after_kong_discard", False)
    if self_drawn and after_kong:
        return "after_kong_discard is a win on a discard, so it is not self_drawn"
    if robbing and after_kong:
        return "a robbed kong is not a discard made after a kong"
    if robbing and flags.get("last_tile", False):
        return "last_tile (海底) is the wall's last tile, not a robbed kong"
    if flags.get("first_draw", False) and not self_drawn:
        return "first_draw is a self-drawn win: self_drawn must be true"
    discarder_is_dealer = flags.get("discarder_is_dealer", False)
    if self_drawn and discarder_is_dealer:
        return "a self-drawn win has no discarder"
    if discarder_is_dealer and _wind(data, "seat_wind") == 27:
        return "the dealer (seat wind 1z) did not discard to himself"
    if flags.get("kong_chain", 0) > 1 and not replacement:
        return "kong_chain counts kongs before a kong_replacement win, and this is none"
    return ""


def score_hand(data, ruleset, table_cache: dict | None = None) -> dict:
    """One hand JSON object → one result object (never raises on bad input)."""
    try:
        options = data.get("options") if isinstance(data, dict) else None
        if options is None:
            options = {}
        elif not isinstance(options, dict):
            raise HandError(f"options is an object of table options, not {show(options)}")
        try:
            key = repr(sorted(options.items())) if options else ""
        except ValueError:  # an int beyond Python's digit limit
            raise HandError("options: a number with too many digits") from None
        table = (table_cache or {}).get(key)
        if table is None:
            table = ruleset.configure(options)
            if table_cache is not None:
                table_cache[key] = table
        table = hand_table(data, table)
        ctx = parse_hand(data, table)
    except (HandError, OptionError) as exc:
        return {"ok": False, "error": str(exc)}
    v = evaluate(table, ctx)
    if v is None and table.wild_win and ctx.self_drawn:
        # holding enough wild tiles wins whatever the shape, as in play (N鬼胡牌)
        held = sum(ctx.concealed[t] for t in table.wilds) + (ctx.win_tile in table.wilds)
        if held >= table.wild_win:
            v = evaluate(table, ctx, shapeless=True)
    if v is None:
        return {"ok": False, "error": "not a winning hand: the tiles form no winning shape of " + ruleset.name}
    fans = []
    fan: tuple[FanSpec, int, int]  # typed: unpacked natively when compiled
    for fan in v.fans:
        f, val, c = fan
        entry = _ENTRIES.get(f)
        if entry is None:
            entry = _entry(f)
        out_fan = entry.copy()  # a small dict copies faster than it builds
        out_fan["value"] = val
        out_fan["count"] = c
        fans.append(out_fan)
    out = {
        "ok": True,
        "fans": fans,
        "total": v.total,
        "unit": ruleset.scoring.unit,
    }
    if not v.win_allowed:
        out["win_allowed"] = False
        out["why"] = v.why
    elif not ctx.self_drawn and not ctx.robbing_kong and not table.hu_on_discard:
        out["win_allowed"] = False
        out["why"] = f"{ruleset.name} wins by self-draw only at this table"
    return out


# the result's fields of a fan that do not change from hand to hand, by fan
# (specs hash by identity); bounded, for a server that reloads variants
_ENTRIES: "Final[dict[FanSpec, dict[str, object]]]" = {}


def _entry(f: FanSpec) -> dict[str, object]:
    if len(_ENTRIES) >= 4096:
        _ENTRIES.clear()
    entry: dict[str, object] = {"id": f.id, "name": f.name.zh, "en": f.name.en}
    _ENTRIES[f] = entry
    return entry
