"""What one seat knows at a decision: its own tiles, and what the table
shows everyone (discards, exposed melds, flowers, face-up tiles, the wild
indicator, who declared ready, how many tiles are left).

Only public fields of the game and the seat's own state are read, the
same information `runtime.views.seat_view` gives that seat; nothing of
another seat's concealed tiles or of the wall's order (a test plays the
bot against a game whose hidden parts raise when touched).
"""

from __future__ import annotations

NUM = 34


class Opponent:
    """What the table shows of one other seat."""

    __slots__ = ("seat", "discards", "discard_set", "declared", "hand_size", "passed", "claimed_melds", "locked",
                 "no_win", "shedding")

    def __init__(self, seat: int):
        self.seat = seat
        self.discards: list = []
        self.discard_set: set = set()
        self.claimed_melds = 0  # sets laid down with another seat's tile
        self.declared = False
        self.locked = False  # its hand cannot change but to win or kong (a locked declaration, a win it stays on)
        self.no_win: frozenset = frozenset()  # kinds it cannot win holding (its declarations)
        self.shedding = False  # its last discard was one it must shed first: it may hold more
        self.hand_size = 13  # set from the table below
        self.passed: set = set()  # tiles it let go by since its last turn


class Knowledge:
    def __init__(self, game, seat: int):
        table = game.table
        self.seat = seat
        self.n = game.n
        copies = table.ruleset.copies
        me = game.seats[seat]
        self.declared = me.declared
        self.opening_ready = me.opening_ready  # its declaration was an opening one
        # tiles its own declarations make dead weight: shed first, or no win while held
        lim = getattr(me, "limits", None)
        self.banned = frozenset(lim.no_win | lim.first) if lim is not None else frozenset()
        self.flowers = len(me.flowers)
        self.doublings = me.doublings
        self.dealer = game.dealer
        self.round_wind = game.round_wind
        self.wall = max(game.drawable(), 0)
        seen = [0] * 42
        for t in range(NUM):
            seen[t] = me.counts[t]
        opponents = []
        for s, st in enumerate(game.seats):
            for m in st.melds:
                if m.exposed or s == seat:
                    for t in m.tiles:
                        seen[t] += 1
            for t, taken in zip(st.discards, st.claimed):
                if not taken:
                    seen[t] += 1
            if s == seat or getattr(st, "out", False):
                continue  # a seat that left the hand (it won) neither wins nor pays any more
            o = Opponent(s)
            o.discards = list(st.discards)
            o.discard_set = set(st.discards)
            o.claimed_melds = sum(1 for m in st.melds if m.claimed_from_other)
            o.declared = st.declared
            o.locked = getattr(st, "locked", False) or (st.declared and table.ready_locks)
            lim = getattr(st, "limits", None)
            if lim is not None:
                o.no_win = lim.no_win
                last = next((t for t, taken in zip(reversed(st.discards), reversed(st.claimed)) if not taken), -1)
                o.shedding = last in lim.first
            # from public facts only: each set laid down took three tiles
            # from the hand (a kong's fourth is replaced); the seat on turn holds one more
            o.hand_size = table.ruleset.other_tiles - 3 * len(st.melds) + (1 if s == game.current and game.phase == "turn" else 0)
            opponents.append(o)
        for t in getattr(game, "face_up_tiles", lambda: [])():
            seen[t] += 1
        if game.indicator >= 0:
            seen[game.indicator] += 1
        self.unseen = [max(0, copies - seen[t]) if t in table.kind_set else 0 for t in range(NUM)]
        self.unseen_total = max(1, sum(self.unseen))
        self.opponents = opponents
        self._passed(game)

    def _passed(self, game) -> None:
        """Tiles each opponent let go by: every discard made since his own
        last discard (his hand has not changed since, and a win on it was
        not taken). Against a seat that declared a locked ready hand, every
        discard since the declaration, his own included (his waits cannot
        change)."""
        from runtime.tiles import INDEX

        by_seat = {o.seat: o for o in self.opponents}
        discards: list = []  # (seat, tile) in the order they were made
        last_own: dict = {}
        locked_at: dict = {}  # when the seat's hand was last fixed: a declaration, or a win it stays on
        for ev in getattr(game, "events", ()):
            kind = ev.get("type")
            if kind == "discard":
                who = ev.get("seat")
                discards.append((who, INDEX.get(ev.get("tile"), -1)))
                last_own[who] = len(discards)
                if ev.get("ready"):
                    locked_at[who] = len(discards)
            elif kind in ("ready", "hu"):
                locked_at[ev.get("seat")] = len(discards)
        for s, o in by_seat.items():
            if o.locked and s in locked_at:
                o.passed = {t for _, t in discards[locked_at[s] :] if t >= 0}
            else:
                o.passed = {t for who, t in discards[last_own.get(s, 0) :] if who != s and t >= 0}
