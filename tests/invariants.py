"""Checks that must hold in every state of every game, for every variant."""

from __future__ import annotations

import json
from collections import Counter

from runtime.tiles import NAMES


def tiles_in_play(game) -> Counter:
    """Every tile somewhere: hands, melds, ponds, flowers, the wall."""
    c = Counter()
    for st in game.seats:
        for t, n in enumerate(st.counts):
            if n:
                c[t] += n
        for m in st.melds:
            c.update(m.tiles)
        c.update(t for t, taken in zip(st.discards, st.claimed) if not taken)
        c.update(st.flowers)
        c.update(st.won_tiles)  # discards won, winning tiles set aside
    c.update(game.wall[game.front : game.back])
    if game.indicator >= 0:
        c[game.indicator] += 1  # the turned wild indicator, out of play
    return c


def check_conservation(game) -> None:
    assert tiles_in_play(game) == Counter(game.table.wall_tiles()), "tiles are not conserved"


def check_view_hides(game, seat: int) -> None:
    view = game.view(seat)
    text = json.dumps(view)
    assert '"wall"' not in text, "a view shows the wall"
    if "opponent_hands" in view:  # only where the variant lets a declared seat see them
        assert game.table.ready_sees_opponents and game.seats[seat].declared
    for s, public in enumerate(view["seats"]):
        assert "hand" not in public, "a view shows another seat's hand"
        if s != seat:
            for m in public["melds"]:
                if not m["exposed"]:
                    assert m["tiles"][1:] == [None] * 3, "a view shows a concealed kong"
                    assert m["tiles"][0] is None or game.table.ruleset.kongs.show_concealed
    me = game.seats[seat]
    if "exchange" in view:  # only the seat's own part of an exchange
        assert view["exchange"] == {"gave": [NAMES[t] for t in me.gave], "received": [NAMES[t] for t in me.received]}
    own = sorted(NAMES[t] for t, n in enumerate(game.seats[seat].counts) for _ in range(n))
    if not game.dealt:
        own = []  # stakes bought before the deal are bought before the tiles are seen
    assert sorted(view["hand"]) == own
    out = {s for s, st in enumerate(game.seats) if st.out}
    assert set(map(int, view.get("revealed", {}))) <= out | (set(game.result.winners) if game.phase == "end" else set())


def check_end(game) -> None:
    """Payments explain the deltas, which sum to zero unless the variant
    charges a table fee (台费): then to minus the fees the house took."""
    r = game.result
    house = sum(p.amount for p in r.payments if p.payee < 0)
    assert house == game.table.table_fee * game.n, "the house takes exactly the table fee from every seat"
    assert sum(r.deltas) == -house, f"payments do not sum to zero (less the table fees): {r.deltas}"
    recomputed = [0] * game.n
    for p in r.payments:
        assert p.amount > 0 and p.payer != p.payee
        recomputed[p.payer] -= p.amount
        if p.payee >= 0:
            recomputed[p.payee] += p.amount
    assert recomputed == r.deltas
    if r.end == "win":
        assert r.winners and all(s in r.valuations for s in r.winners)
