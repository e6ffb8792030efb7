"""What anyone may see of a table: a spectator's view of a game.

Built from the runtime's seat views, so it follows the runtime's hiding
rules, then cut down to a whitelist of top-level keys: a field added to
seat views later stays out of the public view until it is listed here.
Spectators are shown it through server/present.py like a seat that is
never asked, so they cannot tell either whether anyone may claim.
"""

from __future__ import annotations

from runtime.views import seat_view

_PUBLIC_KEYS = (
    "players", "dealer", "phase", "current", "wall_remaining", "seats", "face_up", "wilds", "indicator",
    "horses", "stakes", "bought", "claim", "result", "revealed",
)


def public_view(game) -> dict | None:
    if game is None:
        return None
    base = seat_view(game, 0)
    if game.n > 1:
        # seat 0's own entry shows its concealed kongs; take it as seat 1 sees it
        base["seats"][0] = seat_view(game, 1)["seats"][0]
    return {k: base[k] for k in _PUBLIC_KEYS if k in base}
