"""Live tables: seats, connections, bots, 托管 timers and persistence around
a TableState.

Everything here runs on the event loop's one thread, and each change (check,
write to SQLite, apply, queue the messages) is synchronous, so no other
coroutine ever sees a half-applied move and no locks are needed. Each table
has one driver task that makes the moves nobody sends: bots, 托管 after a
timeout, and dealing the next hand.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass

from runtime.actions import Action, ActionError, action_from_json
from runtime.bots import make_bot
from runtime.game import IllegalAction

from . import protocol as P
from .autoplay import auto_action
from .public import public_view
from .store import ActionRecord, Store, TableRecord
from .tablestate import TableState, replay

log = logging.getLogger("mjc.server")

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Slot:
    """One seat of a live table."""

    kind: str  # human or bot
    name: str = ""
    token_sha256: str = ""
    conn: object = None  # the seat's Connection, when one is open
    auto: bool = False  # played by 托管 until its player acts again
    asked_at: tuple = (None, 0.0)  # (ask id, loop time it began)

    @property
    def joined(self) -> bool:
        return self.kind == "bot" or bool(self.token_sha256)


@dataclass
class Config:
    bot: str = "greedy"
    turn_seconds: float | None = 30.0
    bot_delay: float = 0.6
    hand_pause: float = 3.0
    hands: int | None = None

    @classmethod
    def from_json(cls, d: dict) -> "Config":
        return cls(**{k: d[k] for k in ("bot", "turn_seconds", "bot_delay", "hand_pause", "hands") if k in d})

    def to_json(self) -> dict:
        return {"bot": self.bot, "turn_seconds": self.turn_seconds, "bot_delay": self.bot_delay,
                "hand_pause": self.hand_pause, "hands": self.hands}


class LiveTable:
    def __init__(self, rec: TableRecord, state: TableState, store: Store, seat_tokens: dict):
        self.id = rec.id
        self.rec = rec
        self.state = state
        self.store = store
        self.config = Config.from_json(rec.config)
        self.status = rec.status
        self.slots = []
        for seat, kind in enumerate(rec.seats):
            token, name = seat_tokens.get(seat, ("", ""))
            self.slots.append(Slot(kind, name or ("bot" if kind == "bot" else ""), token))
        self.hand_over_at = 0.0  # loop time the last hand ended
        self.on_finished = None  # called once the match is over (the manager forgets the table later)
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    # ------------------------------------------------------------ public state

    def seats_json(self) -> list[dict]:
        return [
            {"seat": s, "kind": sl.kind, "name": sl.name, "joined": sl.joined,
             "connected": sl.conn is not None, "auto": sl.auto}
            for s, sl in enumerate(self.slots)
        ]

    def info(self) -> dict:
        """What anyone may know about the table, without the game."""
        rs = self.state.table.ruleset
        return {
            "id": self.id,
            "variant": rs.name,
            "title": {"zh": rs.title.zh, "en": rs.title.en},
            "variant_sha256": rs.source_sha256,
            "players": self.state.n,
            "options": dict(self.state.table.option_values),
            "config": self.config.to_json(),
            "status": self.status,
            "hand": self.state.hand,
            "hands": self.state.match.hands,
            "scores": list(self.state.match.scores),
            "step": self.state.step,
            "seats": self.seats_json(),
        }

    def public(self) -> dict:
        return {**self.info(), "view": public_view(self.state.game), "proofs": self.proofs()}

    def proofs(self) -> list[dict]:
        rs = self.state.table.ruleset
        common = {"variant": rs.name, "variant_sha256": rs.source_sha256, "players": self.state.n,
                  "options": dict(self.state.table.option_values)}
        return [{**common, **p} for p in self.state.proofs]

    # ------------------------------------------------------------ seats

    def free_seats(self) -> list[int]:
        return [s for s, sl in enumerate(self.slots) if sl.kind == "human" and not sl.token_sha256]

    def join(self, seat: int | None, name: str) -> tuple[int, str]:
        """Take a human seat; returns (seat, token). Raises LookupError."""
        free = self.free_seats()
        if seat is None:
            if not free:
                raise LookupError("no free seat at this table")
            seat = free[0]
        elif seat >= len(self.slots):
            raise LookupError(f"this table has seats 0 to {len(self.slots) - 1}")
        elif seat not in free:
            what = "a bot's" if self.slots[seat].kind == "bot" else "taken"
            raise LookupError(f"seat {seat} is {what}; free seats: {free or 'none'}")
        token = secrets.token_urlsafe(24)
        slot = self.slots[seat]
        slot.token_sha256 = token_hash(token)
        slot.name = name or f"player {seat + 1}"
        self.store.add_seat(self.id, seat, slot.token_sha256, slot.name)
        self._broadcast_status()
        self.maybe_start()
        return seat, token

    def seat_of(self, token: str) -> int | None:
        digest = token_hash(token)
        found = None
        for seat, slot in enumerate(self.slots):
            # compare every seat, in constant time, so timing tells nothing
            if slot.token_sha256 and hmac.compare_digest(slot.token_sha256, digest):
                found = seat
        return found

    def maybe_start(self) -> None:
        if self.status == WAITING and all(sl.joined for sl in self.slots):
            self.status = PLAYING
            self.store.set_status(self.id, PLAYING)
            self.state.start_hand()
            self._after_change()

    # ------------------------------------------------------------ connections

    def attach(self, seat: int, conn, last_seen: int) -> None:
        """A seat's socket authenticated: replace any older one, then send
        the welcome, every numbered message after `last_seen`, and the view."""
        slot = self.slots[seat]
        if slot.conn is not None and slot.conn is not conn:
            slot.conn.close(4000, "replaced by a newer connection for this seat")
        slot.conn = conn
        last = self.state.last(seat)
        if last_seen > last:
            conn.send(P.error(P.STALE, f"last_seen {last_seen} is ahead of this seat's stream ({last}); sending it all"))
            last_seen = 0
        conn.send({"type": "welcome", "protocol": P.VERSION, "seat": seat, "last": last, "table": self.info()})
        conn.sent = last_seen
        self._send_stream(seat)
        self._send_view(seat)
        self._broadcast_status()

    def detach(self, seat: int, conn) -> None:
        slot = self.slots[seat]
        if slot.conn is conn:
            slot.conn = None
            self._broadcast_status()

    def resend(self, seat: int, conn, last_seen: int) -> None:
        conn.sent = min(max(0, last_seen), self.state.last(seat))
        self._send_stream(seat)
        self._send_view(seat)

    def _send_stream(self, seat: int) -> None:
        conn = self.slots[seat].conn
        if conn is None:
            return
        for msg in self.state.since(seat, conn.sent):
            conn.send(msg)
        conn.sent = self.state.last(seat)

    def _send_view(self, seat: int) -> None:
        conn = self.slots[seat].conn
        if conn is None:
            return
        game = self.state.game
        ask = self.state.asked.get(seat)
        conn.send({
            "type": "view",
            "step": self.state.step,
            "hand": self.state.hand,
            "ask": ask,
            "deadline_ms": self._deadline_ms(seat, ask),
            "auto": self.slots[seat].auto,
            "view": game.view(seat) if game is not None else None,
        })

    def _deadline_ms(self, seat: int, ask) -> int | None:
        slot = self.slots[seat]
        if ask is None or self.config.turn_seconds is None or slot.asked_at[0] != ask:
            return None
        left = slot.asked_at[1] + self.config.turn_seconds - asyncio.get_running_loop().time()
        return max(0, int(left * 1000))

    def _broadcast_status(self) -> None:
        msg = {"type": "status", "status": self.status, "seats": self.seats_json()}
        for slot in self.slots:
            if slot.conn is not None:
                slot.conn.send(msg)

    # ------------------------------------------------------------ moves

    def act(self, seat: int, data, ask=None, ref=None) -> dict:
        """A player's move: returns the reply (accepted or error); a refused
        move changes nothing."""
        if self.status == WAITING:
            return P.error(P.NOT_STARTED, "the match starts when every seat is taken", ref)
        if self.status == FINISHED or self.state.over:
            return P.error(P.FINISHED, "the match is over", ref)
        try:
            action = action_from_json(data)
        except ActionError as exc:
            return P.error(P.BAD_MESSAGE, f"not an action: {exc}", ref)
        if not self.state.in_hand:
            return P.error(P.NOT_YOUR_TURN, "the next hand has not been dealt yet", ref)
        pending = self.state.asked.get(seat)
        if pending is None:
            return P.error(P.NOT_YOUR_TURN, f"seat {seat} has no decision to make now", ref)
        if ask is not None and ask != pending:
            return P.error(P.STALE, f"that move answers decision {ask}; the decision now is {pending}", ref)
        game = self.state.game
        if action not in game.legal_actions(seat):
            try:
                game.apply(seat, action)  # only to get the runtime's reason; it refuses before changing anything
            except IllegalAction as exc:
                return P.error(P.ILLEGAL, f"cannot {action}: {exc.reason}", ref)
            raise AssertionError("an action outside legal_actions was applied")
        slot = self.slots[seat]
        if slot.auto:
            slot.auto = False  # the player is back: 托管 ends
            self._broadcast_status()
        self._commit(seat, action, "player")
        out = {"type": "accepted", "step": self.state.step}
        if ref is not None:
            out["id"] = ref
        return out

    def resume(self, seat: int) -> None:
        if self.slots[seat].auto:
            self.slots[seat].auto = False
            self.slots[seat].asked_at = (None, 0.0)  # a fresh clock for the pending decision
            self._broadcast_status()
            self._after_change()

    def _commit(self, seat: int, action: Action, by: str) -> None:
        """Write the move, then apply it, then tell everyone: a move clients
        have seen is always on disk. A failure rolls the write back."""
        rec = ActionRecord(self.state.step + 1, self.state.hand, seat, str(action), by)
        db = self.store.db
        db.execute("BEGIN IMMEDIATE")
        try:
            self.store.add_action(self.id, rec)
            self.state.apply(seat, action, by)
        except IllegalAction:
            db.execute("ROLLBACK")
            raise
        except BaseException:
            db.execute("ROLLBACK")
            self._rebuild()  # the failed move may have left the game half-changed
            raise
        db.execute("COMMIT")
        if self.state.over:
            self.status = FINISHED
            self.store.set_status(self.id, FINISHED)
            if self.on_finished is not None:
                self.on_finished(self)
        elif not self.state.in_hand:
            self.hand_over_at = asyncio.get_running_loop().time()
        self._after_change()

    def _rebuild(self) -> None:
        """The game again from the log on disk."""
        state = TableState(self.state.table, self.rec.match_seed, hands=self.config.hands)
        replay(state, self.store.actions(self.id), started=True)
        self.state = state
        log.warning("table %s rebuilt from its log after a failed move", self.id)

    def _after_change(self) -> None:
        for seat in range(self.state.n):
            self._send_stream(seat)
            self._send_view(seat)
        if self.status == FINISHED:
            self._broadcast_status()
        self._wake.set()

    # ------------------------------------------------------------ the driver

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table {self.id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        for slot in self.slots:
            if slot.conn is not None:
                slot.conn.close(1001, "server shutting down")

    async def _drive(self) -> None:
        loop = asyncio.get_running_loop()
        while self.status != FINISHED:
            self._wake.clear()
            at, job = self._next_job(loop.time())
            if job is None:
                await self._wake.wait()
                continue
            delay = at - loop.time()
            if delay > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), delay)
                    continue  # something changed first: look again
                except asyncio.TimeoutError:
                    pass
            try:
                job()
            except Exception:
                log.exception("table %s: a move made by the server failed", self.id)
                await asyncio.sleep(1)  # never spin on a failing job
            await asyncio.sleep(0)  # let sockets breathe between moves

    def _next_job(self, now: float):
        """The earliest move the server must make itself: (when, callable)."""
        if self.status != PLAYING:
            return None, None
        if self.state.between_hands:
            return self.hand_over_at + self.config.hand_pause, self._deal_next
        best = (None, None)
        for seat in self.state.to_act():
            slot = self.slots[seat]
            ask = self.state.asked.get(seat)
            if slot.asked_at[0] != ask:
                slot.asked_at = (ask, now)
            began = slot.asked_at[1]
            if slot.kind == "bot" or slot.auto:
                at, job = began + self.config.bot_delay, (lambda s=seat, a=ask: self._server_move(s, a))
            elif self.config.turn_seconds is not None:
                at, job = began + self.config.turn_seconds, (lambda s=seat, a=ask: self._timeout(s, a))
            else:
                continue
            if best[0] is None or at < best[0]:
                best = (at, job)
        return best

    def _deal_next(self) -> None:
        if self.state.between_hands and self.status == PLAYING:
            self.state.start_hand()
            self._after_change()

    def _timeout(self, seat: int, ask) -> None:
        if self.state.asked.get(seat) != ask:
            return
        self.slots[seat].auto = True
        self._broadcast_status()
        self._server_move(seat, ask)

    def _server_move(self, seat: int, ask) -> None:
        """A bot's move, or 托管's for a seat whose player is away."""
        if self.state.asked.get(seat) != ask or not self.state.in_hand:
            return
        try:
            action, by = server_move(self.state, self.id, self.config.bot, self.slots[seat].kind, seat)
        except Exception:
            log.exception("table %s: bot at seat %d failed; 托管 plays instead", self.id, seat)
            action, by = auto_action(self.state.game, seat), "auto"
        self._commit(seat, action, by)


def server_move(state: TableState, table_id: str, bot: str, kind: str, seat: int) -> tuple[Action, str]:
    """The move the server makes for a seat: a bot's, or 托管's. A bot is
    seeded by table, seat and step, so a restarted server makes the very
    moves the first process would have made."""
    if kind == "bot":
        return make_bot(bot, f"{table_id}/{seat}/{state.step}").choose(state.game, seat), "bot"
    return auto_action(state.game, seat), "auto"


@dataclass
class Limits:
    max_tables: int = 10000  # live tables in one process
    create_rate: float = 20.0  # table creations a second per client address (0: no limit)
    create_burst: float = 100.0
    message_rate: float = 20.0  # messages a second per socket
    message_burst: float = 40.0
    flood_close_after: int = 200  # refused messages in a row before the socket is closed
