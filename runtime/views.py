"""What one seat may see: its own tiles, everyone's melds and discards,
tile counts of the others, and nothing of the wall's order."""

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
        seats.append(public)
    me = game.seats[seat]
    view = {
        "seat": seat,
        "players": game.n,
        "dealer": game.dealer,
        "phase": game.phase,
        "current": game.current if game.phase == "turn" else None,
        "to_act": game.to_act(),
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
    if game.phase == "start" and game.start_stage == "stakes":
        view["hand"] = []  # not dealt until every stake is bought
        view["stakes"] = list(game.table.stakes)
    if game.horses:
        view["horses"] = {str(s): len(tiles) for s, tiles in sorted(game.horses.items())}  # face down
    if game.table.stakes:
        view["bought"] = [st.bought for st in game.seats] if game.start_stage != "stakes" else None
    if game.window is not None:
        view["claim"] = {"tile": NAMES[game.window.tile], "from": game.window.source, "kind": game.window.kind}
    if game.result is not None:
        view["result"] = game.result.to_json()
        view["revealed"] = {str(w): _tiles(game.seats[w].counts) for w in game.result.winners}
    return view


_PRIVATE_TILE_EVENTS = ("draw", "replacement")


def event_for(event: dict, seat: int, show_concealed_kong: bool = False) -> dict:
    """An event as `seat` may see it."""
    if event["type"] in _PRIVATE_TILE_EVENTS and event.get("seat") != seat and not event.get("taken"):
        return {k: v for k, v in event.items() if k != "tile"}
    if event["type"] == "kong" and event.get("kind") == CONCEALED and event.get("seat") != seat and not show_concealed_kong:
        return {k: v for k, v in event.items() if k != "tile"}
    if event["type"] == "deal":
        hands = event.get("hands") or []
        return {**{k: v for k, v in event.items() if k != "hands"}, "hand": hands[seat] if seat < len(hands) else []}
    return event
