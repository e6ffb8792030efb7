"""What one seat may see: its own tiles, everyone's melds and discards,
tile counts of the others, and nothing of the wall's order.

Events are filtered by a whitelist: each known event type names the fields
every seat may see, and the seat the event is about may see a few more (its
own drawn tile). An event type this module does not know is made safe by
default: other seats get none of its tile-bearing fields, and nobody gets a
field that could hold the wall, the dealt hands or face-down horses.
"""

from __future__ import annotations

from .melds import CONCEALED
from .tiles import NAMES


def _tiles(counts) -> list[str]:
    return [NAMES[t] for t in range(len(counts)) for _ in range(counts[t])]


def seat_view(game, seat: int) -> dict:
    seats = []
    show_one = game.table.ruleset.kongs.show_concealed
    for s, st in enumerate(game.seats):
        public = {
            "seat": s,
            "melds": [m.to_json(hide_concealed=s != seat, show_one=show_one) for m in st.melds],
            "discards": [NAMES[t] for t in st.discards],
            "claimed": [i for i, c in enumerate(st.claimed) if c],
            "flowers": [NAMES[t] for t in st.flowers],
            "hand_size": sum(st.counts),
            "declared_ready": st.declared,
        }
        if st.choices:
            public["choices"] = dict(st.choices)  # revealed together, public from then on
        if game.table.after_win != "end":
            public["out"] = st.out
            public["wins"] = st.wins
            public["won_tiles"] = [NAMES[t] for t in st.won_tiles]
        seats.append(public)
    me = game.seats[seat]
    view = {
        "seat": seat,
        "players": game.n,
        "dealer": game.dealer,
        "phase": game.phase,
        "current": game.current if game.phase == "turn" else None,
        # who else has a claim or a declaration to make is their secret: a
        # seat sees only whether it is asked itself
        "to_act": _to_act_for(game, seat),
        "wall_remaining": max(game.drawable(), 0),
        "hand": _tiles(me.counts),
        "drawn": NAMES[me.drawn] if me.drawn >= 0 and game.phase == "turn" and game.current == seat else None,
        "seats": seats,
        "legal_actions": [str(a) for a in game.legal_actions(seat)],
    }
    if game.table.ready_sees_opponents and me.declared:
        # 听牌玩家可看到对方牌: a declared seat sees the others' concealed tiles
        view["opponent_hands"] = {str(s): _tiles(st.counts) for s, st in enumerate(game.seats) if s != seat}
    if game.table.face_up:
        view["face_up"] = game.face_up_names()
    if game.table.wilds:
        view["wilds"] = [NAMES[t] for t in sorted(game.table.wilds)]
    if game.indicator >= 0:
        view["indicator"] = NAMES[game.indicator]
    if not game.dealt:
        view["hand"] = []  # the tiles are not shown before the deal step
    if game.phase == "start" and game.start_stage == "stakes":
        view["stakes"] = list(game.table.stakes)
    if game.phase == "start":
        view["opening"] = _opening_for(game)
    if me.gave or me.received:
        view["exchange"] = {"gave": [NAMES[t] for t in me.gave], "received": [NAMES[t] for t in me.received]}
    if game.horses:
        view["horses"] = {str(s): len(tiles) for s, tiles in sorted(game.horses.items())}  # face down
    if game.table.stakes:
        view["bought"] = [st.bought for st in game.seats] if game.start_stage != "stakes" else None
    out_seats = {str(s): _tiles(st.counts) for s, st in enumerate(game.seats) if st.out}
    if out_seats:
        view["revealed"] = out_seats  # a winner who left laid his hand face up
    if game.window is not None:
        view["claim"] = {"tile": NAMES[game.window.tile], "from": game.window.source, "kind": game.window.kind}
    if game.result is not None:
        view["result"] = game.result.to_json()
        view["revealed"] = {str(w): _tiles(game.seats[w].counts) for w in game.result.winners}
    return view


def _opening_for(game) -> dict:
    """The opening step in progress, as every seat may know it."""
    from .opening import current

    step = current(game)
    if step is None:
        return {}
    out = {"step": step.kind}
    if step.id:
        out["id"] = step.id
    if step.kind == "exchange":
        out.update(tiles=step.tiles, same_suit=step.same_suit)
    return out


def _to_act_for(game, seat: int) -> list[int]:
    acting = game.to_act()
    if game.phase in ("claim", "start"):
        return [seat] if seat in acting else []
    return acting


# Fields every seat may see, per event type.
_PUBLIC = {
    "stakes": {"values"},
    "bought": {"stakes"},
    "deal": {"dealer", "wall", "face_up", "indicator", "wilds"},
    "draw": {"seat"},
    "replacement": {"seat", "taken", "face_up", "flower"},
    "flower": {"seat", "tile"},  # a flower set aside is shown (补花); its replacement is not
    "double": {"seat", "doublings"},
    "discard": {"seat", "tile", "ready"},
    "ready": {"seat"},
    "pong": {"seat", "tile", "source"},
    "chow": {"seat", "tile", "tiles", "source"},
    "kong": {"seat", "kind", "source", "tiles"},  # tiles: a special set, laid face up
    "payment": {"from", "to", "amount", "reason"},
    "hu": {"seat", "tile", "self_drawn", "source"},
    "exchange_open": {"id", "tiles", "same_suit"},
    "exchange_chosen": {"seat"},
    "exchange": {"id", "direction"},  # and the moves the seat takes part in (event_for)
    "declare_open": {"id", "values"},
    "declaring": {"seat"},
    "declared": {"id", "choices"},
    "leave": {"seat", "hand", "tile"},  # a winner who leaves lays his hand face up
}
# Fields only the seat the event is about may see.
_OWN = {"draw": {"tile"}, "replacement": {"tile"}, "kong": {"tile"}, "exchange_chosen": {"tiles"}}
# Fields no seat is sent in any event: the wall's order, everyone's tiles,
# face-down horses, seeds.
_NEVER = frozenset({"hands", "horses", "horse_deck", "deck", "dead_wall", "seed", "concealed"})
_TILE_NAMES = frozenset(NAMES)


def _names_tiles(value) -> bool:
    """Whether a field's value holds tile text anywhere inside it."""
    if isinstance(value, str):
        return value in _TILE_NAMES
    if isinstance(value, (list, tuple)):
        return any(_names_tiles(v) for v in value)
    if isinstance(value, dict):
        return any(_names_tiles(v) for v in value.values())
    return False


def _never(key: str, value) -> bool:
    return key in _NEVER or (key.startswith("wall") and _names_tiles(value))


def _public_extra(event: dict, show_concealed_kong: bool) -> set:
    """Fields public only in some instances of a known event type."""
    kind = event["type"]
    if kind == "replacement" and event.get("taken"):
        return {"tile"}  # taken from the face-up tail: everyone saw it
    if kind == "kong" and (event.get("kind") != CONCEALED or show_concealed_kong):
        return {"tile"}
    return set()


def event_for(event: dict, seat: int, show_concealed_kong: bool = False) -> dict:
    """An event as `seat` may see it."""
    kind = event["type"]
    mine = event.get("seat") == seat
    if kind == "end":
        # the hand is over and its seed revealed: only raw piles stay out
        return {k: v for k, v in event.items() if not _never(k, v)}
    if kind == "deal":
        hands = event.get("hands") or []
        out = {k: v for k, v in event.items() if k == "type" or k in _PUBLIC["deal"]}
        out["hand"] = list(hands[seat]) if 0 <= seat < len(hands) else []
        return out
    if kind == "exchange":
        # a seat sees the tiles it passed and those it received, no other seat's
        out = {k: v for k, v in event.items() if k == "type" or k in _PUBLIC["exchange"]}
        out["moves"] = [dict(m) for m in event.get("moves", []) if seat in (m.get("from"), m.get("to"))]
        return out
    if kind in _PUBLIC:
        allowed = _PUBLIC[kind] | _public_extra(event, show_concealed_kong)
        if mine:
            allowed = allowed | _OWN.get(kind, set())
        return {k: v for k, v in event.items() if k == "type" or k in allowed}
    # an event type added later: keep what names no tile, and the tiles of
    # the seat's own event, but never a raw pile
    return {
        k: v for k, v in event.items()
        if k == "type" or (not _never(k, v) and (mine or not _names_tiles(v)))
    }
