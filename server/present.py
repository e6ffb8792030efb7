"""The views each seat and the spectators are shown, so that a seat that is
not asked cannot tell whether another seat could claim.

The runtime opens a claim window only when some seat may claim (a discard
that nobody can take goes straight on to the next draw), and likewise a
robbing window on an added kong and the opening declarations after the
deal. Shown as they are, those windows would tell every other seat that
someone holds a claim. So every such *moment* — each discard, each added
kong, each deal — is shown to everyone the same way, window or not:

- right after the moment, every viewer not asked is shown the *interim*
  view: the table just after the discard (or kong, or deal), phase `claim`
  (or `start`), `claim: {tile, from, kind}`, nobody's turn, no legal
  actions. It is built from what that viewer saw before plus the public
  event, so it cannot depend on who may claim;
- while a window stays open, a viewer not asked keeps seeing that interim
  view (passes and other answers show nothing); a seat asked sees its own
  real view with its choices;
- when the moment had no window, the interim view is followed at once by
  the next real view; with a window, when the window closes.

A viewer is shown a view only when it differs from the last one it was
shown, and each viewer's views are counted (the `step` of a view message),
so the sequence of views — and their count — is the same either way. Only
the time an interim view stays up differs (see the README, Server).
"""

from __future__ import annotations

from runtime.melds import ADDED

from .public import public_view

CLAIM, START = "claim", "start"


def _is_moment(event: dict) -> bool:
    kind = event["type"]
    return kind in ("deal", "discard") or (kind == "kong" and event.get("kind") == ADDED)


def enrich(view: dict, game) -> dict:
    """Server additions to a runtime view: which tile of each exposed meld
    was claimed (to turn it sideways)."""
    from runtime.tiles import NAMES

    for s, seat in enumerate(view["seats"]):
        for mj, m in zip(seat["melds"], game.seats[s].melds):
            if m.claimed >= 0 and m.source >= 0 and m.exposed:
                mj["claimed"] = NAMES[m.claimed]
    return view


def real_view(game, viewer: int) -> dict:
    """The viewer's view as the runtime gives it (index n: spectators)."""
    view = game.view(viewer) if viewer < game.n else public_view(game)
    return enrich(view, game)


def _idle(view: dict, phase: str, claim: dict | None) -> dict:
    """`view` as a viewer sees it while others decide: nobody's turn, no choice."""
    out = dict(view)
    out["phase"] = phase
    out["current"] = None
    for key, empty in (("drawn", None), ("legal_actions", []), ("to_act", [])):
        if key in out:
            out[key] = empty
    if claim is None:
        out.pop("claim", None)
    else:
        out["claim"] = claim
    return out


def neutral(view: dict, moment: dict | None = None) -> dict:
    """The interim form of a view taken during a window (or just after a deal)."""
    if moment is None or moment["type"] == "deal":
        if view["phase"] != CLAIM:
            out = _idle(view, START, None)
            out.pop("opening", None)  # which opening step waits on others would tell who may declare
            return out
        claim = dict(view["claim"])
        if claim.get("kind") == "history":
            claim["kind"] = "discard"  # a run of discards that may win: shown as the discard's window
        return _idle(view, CLAIM, claim)
    kind = "rob" if moment["type"] == "kong" else "discard"
    return _idle(view, CLAIM, {"tile": moment["tile"], "from": moment["seat"], "kind": kind})


def after_moment(before: dict, event: dict, viewer: int) -> dict:
    """The interim view just after a discard or an added kong, from the view
    the viewer had before it and the public event alone."""
    d, tile = event["seat"], event["tile"]
    seats = [dict(s) for s in before["seats"]]
    mine = dict(seats[d])
    mine["hand_size"] -= 1
    if event["type"] == "discard":
        mine["discards"] = mine["discards"] + [tile]
        if event.get("ready"):
            mine["declared_ready"] = True
    else:  # an added kong: the pung becomes a kong
        melds = []
        for m in mine["melds"]:
            if m["type"] == "pung" and m["tiles"][0] == tile:
                m = {**m, "type": "kong", "tiles": [tile] * 4, "kind": ADDED}
                m = {k: m[k] for k in ("type", "tiles", "exposed", "kind", "from", "claimed") if k in m}
            melds.append(m)
        mine["melds"] = melds
    seats[d] = mine
    out = {**before, "seats": seats}
    if viewer == d and "hand" in out:
        hand = list(out["hand"])
        hand.remove(tile)
        out["hand"] = hand
    return neutral(out, event)


class Presenter:
    """Per viewer (seats 0..n-1, spectators n): the view shown now, the
    count of views shown, and the views a change showed, in order."""

    def __init__(self, n: int):
        self.n = n
        self.shown: list[dict | None] = [None] * (n + 1)
        self.count = [0] * (n + 1)
        self.new: list[list[tuple[int, dict]]] = [[] for _ in range(n + 1)]
        self.interim: list[dict | None] = [None] * (n + 1)
        self.live = True  # off while a log is replayed: nothing is shown then
        # viewers whose views are kept up to date (None: all); the others'
        # are worked out when asked for (a seat nobody watches costs nothing)
        self.tracked: set | None = None
        self.game = None
        self.asked: set = set()

    def current(self, viewer: int) -> dict | None:
        if self.shown[viewer] is None and self.game is not None:
            self._show(viewer, self._settled(viewer))
        return self.shown[viewer]

    def track(self, viewer: int, on: bool) -> None:
        """Keep this viewer's views up to date (a socket is open), or stop."""
        if self.tracked is None:
            return
        if on:
            self.tracked.add(viewer)
            self.current(viewer)
        else:
            self.tracked.discard(viewer)
            self.shown[viewer] = None

    def _settled(self, viewer: int) -> dict:
        """The view now, without knowing what came before: an open window
        shows as its interim view (the same one a tracked viewer has)."""
        game = self.game
        if game.phase in (CLAIM, START) and viewer not in self.asked:
            return neutral(real_view(game, viewer))
        return real_view(game, viewer)

    def new_hand(self) -> None:
        self.interim = [None] * (self.n + 1)

    def _show(self, viewer: int, view: dict) -> None:
        if view != self.shown[viewer]:
            self.shown[viewer] = view
            self.count[viewer] += 1
            self.new[viewer].append((self.count[viewer], view))

    def update(self, game, events: list[dict], asked: set) -> None:
        """Show what a change (its new events; `asked`: seats with a decision) brings."""
        self.new = [[] for _ in range(self.n + 1)]
        self.game, self.asked = game, asked
        if not self.live:
            return
        moment = next((e for e in events if _is_moment(e)), None)
        windowed = game.phase in (CLAIM, START)
        for v in range(self.n + 1):
            if self.tracked is not None and v not in self.tracked:
                self.shown[v] = self.interim[v] = None
                continue
            if moment is not None:
                if moment["type"] == "deal" or self.shown[v] is None:
                    self.interim[v] = neutral(real_view(game, v), moment)
                else:
                    self.interim[v] = after_moment(self.shown[v], moment, v)
                self._show(v, self.interim[v])
            if windowed and v not in asked:
                if self.interim[v] is None:  # a window no moment of this hand led to
                    self.interim[v] = neutral(real_view(game, v))
                self._show(v, self.interim[v])
            else:
                self._show(v, real_view(game, v))
        if not windowed:
            self.interim = [None] * (self.n + 1)

    def resume(self, game, asked: set) -> None:
        """After a replay: the current views are worked out when asked for."""
        self.live = True
        self.new = [[] for _ in range(self.n + 1)]
        self.game, self.asked = game, asked
        self.shown = [None] * (self.n + 1)
        self.interim = [None] * (self.n + 1)
        for v in range(self.n + 1) if self.tracked is None else sorted(self.tracked):
            self.current(v)
