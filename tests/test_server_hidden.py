"""Hidden information: no message the server sends a seat names another
seat's concealed tiles, the wall's order, face-down horses or a seed
before its hand ends.

Fuzzed over every variant in registry.names() (so a variant added later is
covered), with random options, player counts and bots, through the same
TableState that builds the server's message streams. The oracle is generic:
a tile named in a message about another seat must be one whose public count
(discards, exposed melds, flowers, face-up tiles, indicator, wilds, the
tile on offer) changed with that move, or was on offer before it. A quick
slice runs in CI; MJC_LONG=1 plays many more hands.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from invariants import check_view_hides
from runtime.bots import make_bot
from runtime.registry import load, names
from runtime.tiles import NAMES
from runtime.views import event_for
from server.public import public_view
from server.tablestate import TableState

LONG = os.environ.get("MJC_LONG") == "1"
TABLES, HANDS = (30, 4) if LONG else (3, 2)
TILE_NAMES = frozenset(NAMES)
PILE_KEYS = {"hands", "horse_deck", "deck", "dead_wall", "concealed"}


def tiles_in(value) -> list[str]:
    if isinstance(value, str):
        return [value] if value in TILE_NAMES else []
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tiles_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tiles_in(v)]
    return []


def public_tiles(game) -> Counter:
    """Every tile anyone may see on the table now."""
    v = public_view(game)
    c = Counter()
    for s in v["seats"]:
        c.update(s["discards"])
        c.update(s["flowers"])
        c.update(s.get("won_tiles") or [])  # won discards, winning tiles set aside
        for m in s["melds"]:
            c.update(t for t in m["tiles"] if t)
    for key in ("face_up", "wilds"):
        c.update(v.get(key) or [])
    if v.get("indicator"):
        c[v["indicator"]] += 1
    if v.get("claim"):
        c[v["claim"]["tile"]] += 1
    if v.get("result"):
        c.update(tiles_in(v["result"]))
    c.update(tiles_in(v.get("revealed") or {}))  # a winner who left shows his hand
    return c


def no_piles(msg, seed_allowed: bool) -> None:
    """No raw pile anywhere in a message: wall order, dealt hands, horse tiles, seeds."""

    def walk(obj, path):
        if isinstance(obj, dict):
            for k, v in obj.items():
                where = f"{path}.{k}"
                assert k not in PILE_KEYS or not tiles_in(v), f"{where} names tiles"
                assert not (k == "wall" and isinstance(v, list)), f"{where} is the wall"
                assert k != "seed" or seed_allowed, f"{where}: a seed before the hand ended"
                assert not (k == "horses" and tiles_in(v)) or seed_allowed, f"{where}: horses before the reveal"
                walk(v, where)
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                walk(v, f"{path}[{i}]")

    walk(msg, "")


def check_stream_for_seat(stream: list[dict], seat: int) -> None:
    """Checks that need no game: used on what a real socket received too."""
    for msg in stream:
        over = msg["type"] in ("hand_end", "match_end") or (msg["type"] == "event" and msg["event"]["type"] == "end")
        no_piles(msg, seed_allowed=over)
        if msg["type"] == "event":
            e = msg["event"]
            if e["type"] == "deal":
                assert set(e) <= {"type", "dealer", "wall", "face_up", "indicator", "wilds", "hand"}, e
            if e["type"] == "draw" and e["seat"] != seat:
                assert "tile" not in e, e
            if e["type"] == "replacement" and e["seat"] != seat and not e.get("taken"):
                assert "tile" not in e, e
            if e["type"] == "exchange":
                # a seat is told the tiles it passed and those it received, no others
                assert all(seat in (m["from"], m["to"]) for m in e["moves"]), e
            if e["type"] == "exchange_chosen" and e["seat"] != seat:
                assert "tiles" not in e, e


def random_table(name: str, rng: random.Random):
    rs = load(name)
    options = {o.id: rng.choice(list(o.values)) for o in rs.options if o.values and not o.id == "rounds"}
    for _ in range(20):
        try:
            return rs.configure(options, rng.choice(list(rs.players)))
        except Exception:  # a constraint between options: draw again
            options = {o.id: rng.choice(list(o.values)) for o in rs.options if o.values and not o.id == "rounds"}
    return rs.configure({}, rs.default_players)


def check_new_messages(state: TableState, before: Counter, offered, marks: list[int], dealt, face_up=()) -> None:
    game = state.game
    after = public_tiles(game)
    changed = {t for t in set(before) | set(after) if before[t] != after[t]}
    # the tile on offer, and face-up tail tiles (a take may turn another of the same kind)
    allowed = changed | ({offered} if offered else set()) | set(face_up) | set(public_view(game).get("face_up") or [])
    for seat in range(state.n + 1):  # every seat, then the spectators (index n)
        new = state.streams[seat][marks[seat]:]
        check_stream_for_seat(new, seat)
        for msg in new:
            if msg["type"] != "event":
                continue
            e = msg["event"]
            if e["type"] == "deal":
                assert e["hand"] == (dealt[seat] if seat < state.n else [])
                continue
            if e["type"] == "end" or e.get("seat") == seat or e["type"] == "exchange":
                continue  # the hand is over, the seat's own event, or its own part of an exchange
            named = set(tiles_in(e))
            leaked = named - allowed
            assert not leaked, f"seat {seat} is told {sorted(leaked)} by {e} (public changes: {sorted(changed)})"


def check_spectator_view(state: TableState) -> None:
    """What spectators are shown holds no seat's own tiles, and a hand in
    play cannot be replayed (its replay shows every tile)."""
    from types import SimpleNamespace

    from server.replaylog import ReplayUnavailable, hand_replay

    view = state.view(state.spectators)
    assert not {"hand", "drawn", "legal_actions", "exchange", "opponent_hands"} & set(view), sorted(view)
    for s in view["seats"]:
        assert "hand" not in s
        for m in s["melds"]:
            if not m["exposed"]:
                assert sum(1 for t in m["tiles"] if t) <= 1, m
    if state.in_hand:
        with pytest.raises(ReplayUnavailable):
            hand_replay(SimpleNamespace(id="t", state=state, seats_json=list), state.hand)


@pytest.mark.parametrize("variant", names())
def test_no_message_leaks_hidden_tiles(variant):
    rng = random.Random(f"hidden/{variant}")
    for k in range(TABLES):
        table = random_table(variant, rng)
        state = TableState(table, f"fuzz/{variant}/{k}", hands=HANDS)
        bots = [make_bot(rng.choice(["random", "random", "greedy"]), rng.random()) for _ in range(table.players)]
        while not state.over:
            marks = [state.last(s) for s in range(state.n + 1)]
            state.start_hand()
            game = state.game
            dealt = [list(h) for h in game._hands]
            check_new_messages(state, Counter(), None, marks, dealt)
            while state.in_hand:
                for seat in state.to_act():
                    before = public_tiles(game)
                    offered = game.window.tile if game.window is not None else None
                    marks = [state.last(s) for s in range(state.n + 1)]
                    face_up = game.face_up_names() if game.table.face_up else []
                    state.apply(seat, bots[seat].choose(game, seat), "bot")
                    check_new_messages(state, before, NAMES[offered] if offered is not None else None, marks, dealt, face_up)
                    check_spectator_view(state)
                    for s in range(state.n):
                        check_view_hides(game, s)
                        acting = game.view(s)["to_act"]
                        if game.phase in ("claim", "start"):
                            assert acting in ([], [s]), "a seat is told who else may claim"
                    if not state.in_hand:
                        break


# ------------------------------------------------------------ the filter itself


def test_unknown_event_types_are_safe_by_default():
    e = {"type": "flower_swap", "seat": 2, "tile": "1f", "replacement": "5m", "count": 3, "wall": ["1m", "2m"],
         "hands": [["1m"]], "note": "x"}
    other = event_for(e, 0)
    assert other == {"type": "flower_swap", "seat": 2, "count": 3, "note": "x"}
    own = event_for(e, 2)
    assert own["tile"] == "1f" and own["replacement"] == "5m" and "wall" not in own and "hands" not in own


def test_known_events_show_private_tiles_only_to_their_seat():
    draw = {"type": "draw", "seat": 1, "tile": "3s"}
    assert event_for(draw, 1) == draw and event_for(draw, 0) == {"type": "draw", "seat": 1}
    kong = {"type": "kong", "seat": 1, "tile": "3s", "kind": "concealed"}
    assert "tile" not in event_for(kong, 0) and event_for(kong, 0, show_concealed_kong=True)["tile"] == "3s"
    assert event_for({**kong, "kind": "added"}, 0)["tile"] == "3s"
    taken = {"type": "replacement", "seat": 1, "tile": "6s", "taken": True, "face_up": ["7s"]}
    assert event_for(taken, 0) == taken
    extra = {"type": "discard", "seat": 1, "tile": "3s", "secret_hand": ["1m"]}
    assert event_for(extra, 0) == {"type": "discard", "seat": 1, "tile": "3s"}
    deal = {"type": "deal", "dealer": 0, "wall": 30, "hands": [["1m"], ["2m"]], "wall_order": ["3m"]}
    assert event_for(deal, 1) == {"type": "deal", "dealer": 0, "wall": 30, "hand": ["2m"]}
