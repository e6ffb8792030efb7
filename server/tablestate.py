"""A table's match as pure, deterministic state: no sockets, no clock, no disk.

Given the match seed and the list of applied actions, this rebuilds exactly
the same game and exactly the same numbered message streams, which is what
lets a restarted server restore a table by replaying its log, and a client
reconnect with "the last `n` I saw".

Each seat has its own stream: hand_start, the hand's events filtered for
that seat (runtime/views.py), hand_end (with the revealed seed) and
match_end, numbered 1, 2, 3 …
"""

from __future__ import annotations

from runtime.match import Match
from runtime.views import event_for

from . import fairness


class TableState:
    def __init__(self, table, match_seed: str, hands: int | None = None):
        self.table = table
        self.n = table.players
        self.match = Match(table, match_seed, hands=hands)
        self.streams: list[list[dict]] = [[] for _ in range(self.n)]
        self.step = 0  # actions applied in the whole match
        self.hand = -1  # index of the hand in play or last played
        self.game = None  # the hand in play, or the last one once it ended
        self.proofs: list[dict] = []  # per hand: dealer, seed_sha256, and the seed once over
        self.asked: dict[int, int] = {}  # seat -> step at which its current decision began
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

    def to_act(self) -> list[int]:
        return self.game.to_act() if self.in_hand else []

    def last(self, seat: int) -> int:
        return len(self.streams[seat])

    def since(self, seat: int, last_seen: int) -> list[dict]:
        return self.streams[seat][max(0, last_seen):]

    # ------------------------------------------------------------ changes

    def start_hand(self) -> None:
        """Deal the next hand."""
        assert self.between_hands, "a hand is in play or the match is over"
        game = self.match.start_hand()
        self.game = game
        self.hand = len(self.match.results)
        self._seen = 0
        seed = self.match.hand_seed(self.hand)
        proof = {"hand": self.hand, "dealer": game.dealer, "seed_sha256": fairness.commitment(seed)}
        self.proofs.append(proof)
        self._push_all({"type": "hand_start", **proof})
        self._stream_events(None)
        self._ask()

    def apply(self, seat: int, action, by: str = "player") -> None:
        """Apply one action; raises runtime.game.IllegalAction, leaving
        everything unchanged, when it is not legal now."""
        if not self.in_hand:
            raise RuntimeError("no hand in play")
        self.game.apply(seat, action)
        self.step += 1
        self.asked.pop(seat, None)
        self._stream_events(by)
        if self.game.over:
            self._finish_hand()
        self._ask()

    def _finish_hand(self) -> None:
        game = self.game
        seed = self.match.hand_seed(self.hand)
        proof = self.proofs[self.hand]
        proof["seed"] = seed
        self.match.finish_hand()
        for seat in range(self.n):
            self._push(seat, {
                "type": "hand_end",
                "result": game.result.to_json(),
                "scores": list(self.match.scores),
                "proof": dict(proof),
            })
        if self.match.over:
            self._push_all({"type": "match_end", "scores": list(self.match.scores)})

    def _ask(self) -> None:
        """Note when each seat's pending decision began (its `ask` id)."""
        acting = set(self.to_act())
        for seat in list(self.asked):
            if seat not in acting:
                del self.asked[seat]
        for seat in acting:
            self.asked.setdefault(seat, self.step)

    # ------------------------------------------------------------ streams

    def _stream_events(self, by: str | None) -> None:
        events = self.game.events
        for i in range(self._seen, len(events)):
            e = events[i]
            for seat in range(self.n):
                msg = {"type": "event", "event": event_for(e, seat, self._show_one)}
                if by is not None and i == self._seen:
                    msg["by"] = by  # who made the move that caused these events
                self._push(seat, msg)
        self._seen = len(events)

    def _push(self, seat: int, msg: dict) -> None:
        stream = self.streams[seat]
        stream.append({**msg, "n": len(stream) + 1, "hand": self.hand})

    def _push_all(self, msg: dict) -> None:
        for seat in range(self.n):
            self._push(seat, msg)


class ReplayError(ValueError):
    """A stored log that does not replay under the current runtime."""


def replay(state: TableState, actions, started: bool) -> None:
    """Rebuild a table from its log: deal each hand again and apply its
    actions in order. `started`: the match had begun (its first hand was
    dealt) even if no action was taken yet."""
    from runtime.actions import ActionError, parse_action
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
            state.apply(a.seat, parse_action(a.action), a.by)
        except (ActionError, IllegalAction, RuntimeError) as exc:
            raise ReplayError(f"action {a.seq} (seat {a.seat} {a.action}) does not replay: {exc}") from None
