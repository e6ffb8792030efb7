"""A table's match as pure, deterministic state: no sockets, no clock, no disk.

Given the match seed and the list of applied actions, this rebuilds exactly
the same game, the same numbered message streams and the same sequence of
views, which is what lets a restarted server restore a table by replaying
its log, and a client reconnect with "the last `n` I saw".

Each seat has its own stream: hand_start, the hand's events filtered for
that seat (runtime/views.py), hand_end (with the revealed seed and every
hand) and match_end, numbered 1, 2, 3 … Spectators share one more stream
(index `n`), filtered as for a seat that holds no tiles.

Views are *presented* (server/present.py): a seat that is not asked sees
the same sequence of views whether or not another seat could claim.
"""

from __future__ import annotations

from runtime.match import Match
from runtime.tiles import NAMES
from runtime.views import event_for

from . import fairness
from .moves import canonical, parse_move
from .present import Presenter

# events that are a move of the seat they name: they carry `by` (player,
# bot or auto) from that seat's own last move, never from someone else's
_MOVE_EVENTS = frozenset({"discard", "ready", "pong", "chow", "kong", "hu", "double", "exchange", "void", "declare"})


class TableState:
    def __init__(self, table, match_seed: str, hands: int | None = None):
        self.table = table
        self.n = table.players
        self.match = Match(table, match_seed, hands=hands)
        self.streams: list[list[dict]] = [[] for _ in range(self.n + 1)]  # seats, then spectators
        self.step = 0  # actions applied in the whole match (never shown: passes are secret)
        self.hand = -1  # index of the hand in play or last played
        self.game = None  # the hand in play, or the last one once it ended
        self.proofs: list[dict] = []  # per hand: dealer, seed_sha256, and the seed once over
        self.asked: dict[int, int] = {}  # seat -> id of its pending decision
        self.asks = [0] * self.n  # decisions each seat was asked so far: ask ids count per seat
        self.by = [""] * self.n  # how each seat's last move was made: player, bot or auto
        self.log: list[list[tuple]] = []  # per hand: (seat, canonical action, by)
        self.deals: list[dict] = []  # per hand: how it was dealt (dealer, round_wind, streak), for replays
        self.present = Presenter(self.n)
        self._seen = 0  # events of self.game already streamed
        self._show_one = table.ruleset.kongs.show_concealed

    # ------------------------------------------------------------ queries

    @property
    def in_hand(self) -> bool:
        return self.game is not None and not self.game.over

    @property
    def between_hands(self) -> bool:
        """A hand is over (or none began) and the match goes on."""
        return not self.in_hand and not self.match.over

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def spectators(self) -> int:
        """The index of the spectators' stream and views."""
        return self.n

    def to_act(self) -> list[int]:
        return self.game.to_act() if self.in_hand else []

    def last(self, viewer: int) -> int:
        return len(self.streams[viewer])

    def since(self, viewer: int, last_seen: int) -> list[dict]:
        return self.streams[viewer][max(0, last_seen):]

    def view(self, viewer: int) -> dict | None:
        """The view this seat (or the spectators, at index n) is shown now."""
        return self.present.current(viewer)

    # ------------------------------------------------------------ changes

    def start_hand(self) -> None:
        """Deal the next hand."""
        assert self.between_hands, "a hand is in play or the match is over"
        m = self.match
        index = len(m.results)
        self.deals.append({"dealer": m.dealer, "round_wind": m.round_wind(index), "streak": m.streak})
        game = m.start_hand()
        self.game = game
        self.hand = len(self.match.results)
        self.log.append([])
        self.by = [""] * self.n
        self._seen = 0
        seed = self.match.hand_seed(self.hand)
        proof = {"hand": self.hand, "dealer": game.dealer, "seed_sha256": fairness.commitment(seed)}
        self.proofs.append(proof)
        self._push_all({"type": "hand_start", **proof})
        self.present.new_hand()
        self._changed()

    def parse(self, seat: int, data):
        """A move as a player sends it (text or JSON), resolved against the
        game; raises runtime.actions.ActionError."""
        return parse_move(self.game, seat, data)

    def apply(self, seat: int, action, by: str = "player") -> None:
        """Apply one action; raises runtime.game.IllegalAction, leaving
        everything unchanged, when it is not legal now."""
        if not self.in_hand:
            raise RuntimeError("no hand in play")
        self.game.apply(seat, action)
        self.step += 1
        self.by[seat] = by
        self.log[self.hand].append((seat, canonical(action), by))
        self.asked.pop(seat, None)
        self._changed()

    def _changed(self) -> None:
        first = self._seen
        self._stream_events()
        if self.game.over:
            self._finish_hand()
        self._ask()
        self.present.update(self.game, self.game.events[first:], set(self.asked))

    def _finish_hand(self) -> None:
        game = self.game
        seed = self.match.hand_seed(self.hand)
        proof = self.proofs[self.hand]
        proof["seed"] = seed
        self.match.finish_hand()
        # once the seed is out the whole deal can be recomputed, so every
        # hand is shown (查叫 at an exhausted wall can be checked)
        revealed = {str(s): [NAMES[t] for t in st.tiles()] for s, st in enumerate(game.seats)}
        for viewer in range(self.n + 1):
            self._push(viewer, {
                "type": "hand_end",
                "result": game.result.to_json(),
                "revealed": revealed,
                "scores": list(self.match.scores),
                "proof": dict(proof),
            })
        if self.match.over:
            self._push_all({"type": "match_end", "scores": list(self.match.scores)})

    def _ask(self) -> None:
        """Give each seat with a new decision its next ask id (counted per
        seat, so an id says nothing about other seats' moves)."""
        acting = set(self.to_act())
        for seat in list(self.asked):
            if seat not in acting:
                del self.asked[seat]
        for seat in sorted(acting):
            if seat not in self.asked:
                self.asks[seat] += 1
                self.asked[seat] = self.asks[seat]

    # ------------------------------------------------------------ streams

    def _stream_events(self) -> None:
        events = self.game.events
        for i in range(self._seen, len(events)):
            e = events[i]
            by = self.by[e["seat"]] if e["type"] in _MOVE_EVENTS and isinstance(e.get("seat"), int) and 0 <= e["seat"] < self.n else ""
            for viewer in range(self.n + 1):
                msg = {"type": "event", "event": event_for(e, viewer, self._show_one)}
                if by:
                    msg["by"] = by
                self._push(viewer, msg)
        self._seen = len(events)

    def _push(self, viewer: int, msg: dict) -> None:
        stream = self.streams[viewer]
        stream.append({**msg, "n": len(stream) + 1, "hand": self.hand})

    def _push_all(self, msg: dict) -> None:
        for viewer in range(self.n + 1):
            self._push(viewer, msg)


class ReplayError(ValueError):
    """A stored log that does not replay under the current runtime."""


def replay(state: TableState, actions, started: bool) -> None:
    """Rebuild a table from its log: deal each hand again and apply its
    actions in order. `started`: the match had begun (its first hand was
    dealt) even if no action was taken yet."""
    from runtime.actions import ActionError
    from runtime.game import IllegalAction

    if started or actions:
        state.start_hand()
    for a in actions:
        while state.hand < a.hand:
            if not state.between_hands:
                raise ReplayError(f"action {a.seq} belongs to hand {a.hand + 1}, but hand {state.hand + 1} had not ended")
            state.start_hand()
        if a.seq != state.step + 1:
            raise ReplayError(f"action {a.seq} follows action {state.step}: the log has a gap")
        try:
            state.apply(a.seat, state.parse(a.seat, a.action), a.by)
        except (ActionError, IllegalAction, RuntimeError) as exc:
            raise ReplayError(f"action {a.seq} (seat {a.seat} {a.action}) does not replay: {exc}") from None
