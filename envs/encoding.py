"""The fixed action space and the observation encoding of one configured
table, derived from its tile set and rules (docs/environment.md).

Actions: a catalogue of every action the table can ever offer, one index
each: pass, hu, double; discard / ready / take / kong of each tile kind;
pong; chow with the claimed tile lowest, middle or highest; each special
set; each stake; each exchange (a multiset of tiles of one suit, or of any
kinds) and each value of each opening declaration; and `auto`, legal only
when some legal action has no index of its own (the greedy bot's choice
is played then). The mask marks the indices of `game.legal_actions(seat)`.

Observations are built from `runtime.views.seat_view(game, seat)` alone,
the view a player of that seat gets from the server: what it does not
show, the encoding cannot hold.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from runtime.actions import Action
from runtime.tiles import INDEX

NUM = 34
MAX_EXCHANGES = 4000  # an exchange step with more choices than this is played by `auto`
PHASES = ("start", "turn", "replace", "claim", "end")


def _exchange_sets(table, step) -> list:
    kinds = [t for t in table.tile_kinds if t < NUM]
    groups = []
    if step.same_suit:
        for lo in (0, 9, 18, 27):
            g = [t for t in kinds if lo <= t < lo + 9]
            if g:
                groups.append(g)
    else:
        groups.append(kinds)
    out = []
    copies = table.ruleset.copies
    for g in groups:
        for combo in combinations_with_replacement(g, step.tiles):
            if max(combo.count(t) for t in combo) <= copies:
                out.append(tuple(combo))
                if len(out) > MAX_EXCHANGES:
                    return []
    return out


class Encoding:
    """Action catalogue and observation layout of one table."""

    def __init__(self, table):
        self.table = table
        self.n = n = table.players
        self.kinds = kinds = tuple(t for t in table.tile_kinds if t < NUM)
        self.kind_index = {t: i for i, t in enumerate(kinds)}
        K = len(kinds)
        actions: list = [("pass",), ("hu",), ("double",)]
        actions += [("discard", t) for t in kinds]
        if table.declare != "none":
            actions += [("ready", t) for t in kinds]
        if table.pong:
            actions.append(("pong",))
        if table.chow:
            actions += [("chow", p) for p in range(3)]
        actions += [("kong", t) for t in kinds]
        actions += [("kong", g) for sp in table.special_sets for g in sp.groups]
        if table.face_up:
            actions += [("take", t) for t in kinds]
        actions += [("buy", v) for v in table.stakes]
        self.declarations = []  # (id, values) of the opening's declarations
        for step in getattr(table, "opening", ()):
            if step.kind == "exchange":
                actions += [("exchange", combo) for combo in _exchange_sets(table, step)]
            elif step.kind == "declare":
                values = tuple(table.suits if step.choices_are_suits else step.choices)
                self.declarations.append((step.id, values))
                actions += [(step.id, v) for v in values]
        actions.append(("auto",))
        self.actions = tuple(actions)
        self.index = {a: i for i, a in enumerate(actions)}
        self.auto = self.index[("auto",)]
        # observation parts: (name, shape, high)
        self.max_stake = max(table.stakes, default=0)
        parts = [
            ("hand", (K,), 4),
            ("drawn", (K,), 1),
            ("melds", (n, K), 4),
            ("discards", (n, K), 4),
            ("flowers", (n,), 8),
            ("declared", (n,), 1),
            ("out", (n,), 1),
            ("wins", (n,), 4),
            ("hand_size", (n,), 14),
            ("dealer", (n,), 1),
            ("offer", (K,), 1),
            ("offer_from", (n,), 1),
            ("phase", (len(PHASES),), 1),
            ("wall", (1,), 1),
            ("face_up", (K,), 4),
            ("wilds", (K,), 1),
            ("bought", (n,), max(1, self.max_stake)),
        ]
        for did, values in self.declarations:
            parts.append((f"choice_{did}", (n, len(values)), 1))
        self.parts = tuple(parts)
        self.size = sum(int(np.prod(shape)) for _, shape, _ in parts)
        self.wall_size = max(1, len(table.wall_tiles()))

    # ------------------------------------------------------------ actions

    def key(self, game, action: Action):
        v = action.verb
        if v in ("pass", "hu", "double", "pong", "auto"):
            return (v,)
        if v in ("discard", "ready", "take"):
            return (v, action.tile)
        if v == "chow":
            tile = action.tile if action.tile >= 0 else game.window.tile
            return ("chow", tile - min(action.extra + (tile,)))
        if v == "kong":
            return ("kong", tuple(action.extra)) if action.extra else ("kong", action.tile)
        if v == "buy":
            return ("buy", action.extra[0])
        if v == "exchange":
            return ("exchange", tuple(sorted(action.extra)))
        if action.choice is not None:
            return (v, action.choice)
        return (v, action.tile, action.extra)

    def legal(self, game, seat: int) -> dict:
        """index -> Action for the seat's legal actions (`auto` where some
        legal action has no index of its own)."""
        out = {}
        unlisted = False
        for a in game.legal_actions(seat):
            i = self.index.get(self.key(game, a))
            if i is None:
                unlisted = True
            else:
                out.setdefault(i, a)
        if unlisted:
            out[self.auto] = None
        return out

    def mask(self, legal: dict) -> np.ndarray:
        m = np.zeros(len(self.actions), dtype=np.int8)
        for i in legal:
            m[i] = 1
        return m

    def name(self, i: int) -> str:
        a = self.actions[i]
        from runtime.tiles import NAMES

        if len(a) == 1:
            return a[0]
        x = a[1]
        if isinstance(x, tuple):
            return f"{a[0]} {''.join(NAMES[t] for t in x)}"
        if a[0] in ("discard", "ready", "take", "kong"):
            return f"{a[0]} {NAMES[x]}"
        if a[0] == "chow":
            return f"chow ({['lowest', 'middle', 'highest'][x]})"
        return f"{a[0]} {x}"

    # ------------------------------------------------------------ observations

    def encode(self, view: dict) -> dict:
        """The observation parts of one seat's view (`seat_view`)."""
        n = self.n
        ki = self.kind_index
        me = view["seat"]

        def rel(s: int) -> int:
            return (s - me) % n

        def count_into(arr, names):
            for name in names:
                t = INDEX.get(name) if name else None
                if t is not None and t in ki:
                    arr[ki[t]] += 1

        out = {name: np.zeros(shape, dtype=np.float32) for name, shape, _ in self.parts}
        count_into(out["hand"], view["hand"])
        if view.get("drawn"):
            count_into(out["drawn"], [view["drawn"]])
        for public in view["seats"]:
            r = rel(public["seat"])
            for m in public["melds"]:
                count_into(out["melds"][r], m["tiles"])
            count_into(out["discards"][r], public["discards"])
            out["flowers"][r] = len(public["flowers"])
            out["declared"][r] = float(bool(public.get("declared_ready")))
            out["out"][r] = float(bool(public.get("out")))
            out["wins"][r] = min(4, public.get("wins", 0))
            out["hand_size"][r] = public["hand_size"]
            for did, values in self.declarations:
                chosen = (public.get("choices") or {}).get(did)
                if chosen in values:
                    out[f"choice_{did}"][r][values.index(chosen)] = 1.0
        out["dealer"][rel(view["dealer"])] = 1.0
        claim = view.get("claim")
        if claim:
            count_into(out["offer"], [claim["tile"]])
            out["offer_from"][rel(claim["from"])] = 1.0
        out["phase"][PHASES.index(view["phase"])] = 1.0
        out["wall"][0] = min(1.0, view["wall_remaining"] / self.wall_size)
        count_into(out["face_up"], view.get("face_up") or [])
        count_into(out["wilds"], view.get("wilds") or [])
        for s, b in enumerate(view.get("bought") or []):
            out["bought"][rel(s)] = b
        for name, _, high in self.parts:
            np.clip(out[name], 0, high, out=out[name])
        return out

    def flat(self, parts: dict) -> np.ndarray:
        return np.concatenate([parts[name].ravel() for name, _, _ in self.parts]).astype(np.float32)

    def highs(self) -> np.ndarray:
        return np.concatenate([np.full(int(np.prod(shape)), high, dtype=np.float32) for _, shape, high in self.parts])
