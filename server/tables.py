"""Live tables: seats, spectators, connections, bots, 托管 timers and
persistence around a TableState.

Everything here runs on the event loop's one thread, and each change (check,
write to the store, apply, queue the messages) is synchronous, so no other
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

from runtime.actions import Action, ActionError
from runtime.bots import make_bot
from runtime.game import IllegalAction

from . import protocol as P
from .autoplay import auto_action
from .hints import Hints
from .store import ABANDONED, FINISHED, PLAYING, WAITING, ActionRecord, LeaseLost, Store, TableRecord
from .tablestate import TableState, replay

log = logging.getLogger("mjc.server")

EMOTES = ("thumbs_up", "laugh", "cry", "angry", "hurry", "wow")
MAX_SPECTATORS = 64


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


@dataclass
class Slot:
    """One seat of a live table."""

    kind: str  # human or bot
    name: str = ""
    token_sha256: str = ""
    conn: object = None  # the seat's Connection, when one is open
    auto: bool = False  # played by 托管 until its player acts again
    left: bool = False  # its player left during the match: 托管 plays, anyone may take the seat
    ready: bool = False  # before the match: the player said ready
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
    ready_check: bool = False  # the match starts when every player said ready, not as soon as seats fill

    KEYS = ("bot", "turn_seconds", "bot_delay", "hand_pause", "hands", "ready_check")

    @classmethod
    def from_json(cls, d: dict) -> "Config":
        return cls(**{k: d[k] for k in cls.KEYS if k in d})

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in self.KEYS}


@dataclass
class Limits:
    max_tables: int = 10000  # live tables in one process
    max_hands: int = 64  # hands in one match, however the options ask for them
    create_rate: float = 20.0  # table creations a second per client address (0: no limit)
    create_burst: float = 100.0
    message_rate: float = 20.0  # messages a second per socket
    message_burst: float = 40.0
    flood_close_after: int = 200  # refused messages in a row before the socket is closed
    lease_seconds: float = 10.0  # PostgreSQL: how long a lease runs without renewal


class LiveTable:
    def __init__(self, rec: TableRecord, state: TableState, store: Store, seat_tokens: dict, instance: str = ""):
        self.id = rec.id
        self.rec = rec
        self.state = state
        self.store = store
        self.instance = instance
        self.config = Config.from_json(rec.config)
        self.status = rec.status
        self.slots = []
        for seat, kind in enumerate(rec.seats):
            token, name = seat_tokens.get(seat, ("", ""))
            self.slots.append(Slot(kind, name or ("bot" if kind == "bot" else ""), token))
        self.spectators: set = set()
        self.state.present.tracked = set()  # views are kept only for viewers with a socket
        self.hints = Hints()
        self.hand_over_at = 0.0  # loop time the last hand ended
        self.on_finished = None  # called once the match is over (the manager forgets the table later)
        self.on_lost = None  # called when another process took the table over
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    # ------------------------------------------------------------ public state

    def seats_json(self) -> list[dict]:
        return [
            {"seat": s, "kind": sl.kind, "name": sl.name, "joined": sl.joined, "connected": sl.conn is not None,
             "auto": sl.auto, "left": sl.left, "ready": sl.ready or sl.kind == "bot"}
            for s, sl in enumerate(self.slots)
        ]

    def info(self) -> dict:
        """What anyone may know about the table, without the game."""
        rs = self.state.table.ruleset
        return {
            "id": self.id,
            "variant": rs.name,
            "title": {"zh": rs.title.zh, "en": rs.title.en},
            "unit": {"zh": rs.scoring.unit_name.zh, "en": rs.scoring.unit_name.en},
            "variant_sha256": rs.source_sha256,
            "players": self.state.n,
            "options": dict(self.state.table.option_values),
            "config": self.config.to_json(),
            "created": self.rec.created,
            "status": self.status,
            "hand": self.state.hand,
            "hands": self.state.match.hands,
            "rounds": self.state.match.wind_rounds,  # a match of rounds of wind (then hands is 0), else 0
            "hands_played": len(self.state.match.results),
            "scores": list(self.state.match.scores),
            "seats": self.seats_json(),
            "free_seats": self.free_seats(),
            "spectators": len(self.spectators),
        }

    def public(self) -> dict:
        return {**self.info(), "view": self.state.view(self.state.spectators), "proofs": self.proofs()}

    def proofs(self) -> list[dict]:
        rs = self.state.table.ruleset
        common = {"variant": rs.name, "variant_sha256": rs.source_sha256, "players": self.state.n,
                  "options": dict(self.state.table.option_values)}
        return [{**common, **p} for p in self.state.proofs]

    # ------------------------------------------------------------ seats

    def free_seats(self) -> list[int]:
        """Human seats nobody holds, and seats whose player left the match."""
        if self.status not in (WAITING, PLAYING):
            return []
        return [s for s, sl in enumerate(self.slots) if sl.kind == "human" and (not sl.token_sha256 or sl.left)]

    def join(self, seat: int | None, name: str) -> tuple[int, str]:
        """Take a free seat; returns (seat, token). Raises LookupError."""
        free = self.free_seats()
        if self.status not in (WAITING, PLAYING):
            raise LookupError(f"this table is {self.status}")
        if seat is None:
            if not free:
                raise LookupError("no free seat at this table")
            seat = free[0]
        elif seat >= len(self.slots):
            raise LookupError(f"this table has seats 0 to {len(self.slots) - 1}")
        elif seat not in free:
            what = "a bot's" if self.slots[seat].kind == "bot" else "taken"
            raise LookupError(f"seat {seat} is {what}; free seats: {free or 'none'}")
        token, digest = new_token()
        slot = self.slots[seat]
        if slot.conn is not None:
            slot.conn.close(4001, "another player took this seat")
            slot.conn = None
            self.state.present.track(seat, False)
        slot.token_sha256 = digest
        slot.name = name or f"player {seat + 1}"
        slot.left = slot.auto = slot.ready = False
        self.store.add_seat(self.id, seat, digest, slot.name)
        self._broadcast_status()
        self.maybe_start()
        if self.status == PLAYING:
            self._after_change()  # a fresh clock for the seat's pending decision
        return seat, token

    def leave(self, seat: int) -> None:
        """The seat's player leaves: before the match the seat is free again;
        during it 托管 plays the seat until its player, or someone else, takes it."""
        slot = self.slots[seat]
        conn, slot.conn = slot.conn, None
        self.state.present.track(seat, False)
        if self.status == WAITING:
            slot.token_sha256, slot.name, slot.ready = "", "", False
            self.store.remove_seat(self.id, seat)
        else:
            slot.left = slot.auto = True
        if conn is not None:
            conn.close(4000, "you left the table")
        self._broadcast_status()
        self._wake.set()

    def set_ready(self, seat: int, ready: bool) -> None:
        if self.status == WAITING:
            self.slots[seat].ready = ready
            self._broadcast_status()
            self.maybe_start()

    def fill_with_bots(self) -> list[int]:
        """The creator's call: bots take every free seat (before the match)."""
        if self.status != WAITING:
            raise LookupError("the match has begun")
        seats = [s for s, sl in enumerate(self.slots) if sl.kind == "human" and not sl.token_sha256]
        for s in seats:
            self.slots[s] = Slot("bot", "bot")
        self.rec.seats = [sl.kind for sl in self.slots]
        self.store.set_seats(self.id, self.rec.seats)
        self._broadcast_status()
        self.maybe_start()
        return seats

    def is_owner(self, token: str) -> bool:
        return bool(self.rec.owner_sha256) and hmac.compare_digest(self.rec.owner_sha256, token_hash(token))

    def abandon(self) -> None:
        """The creator ends the table: nothing more is played; its log stays."""
        if self.status in (FINISHED, ABANDONED):
            return
        self.status = ABANDONED
        self.store.set_status(self.id, ABANDONED)
        self._broadcast_status()
        for conn in self._connections():
            conn.close(4410, "the table was closed by its creator")
        self._wake.set()

    def seat_of(self, token: str) -> int | None:
        digest = token_hash(token)
        found = None
        for seat, slot in enumerate(self.slots):
            # compare every seat, in constant time, so timing tells nothing
            if slot.token_sha256 and hmac.compare_digest(slot.token_sha256, digest):
                found = seat
        return found

    def maybe_start(self) -> None:
        if self.status != WAITING or not all(sl.joined for sl in self.slots):
            return
        if self.config.ready_check and not all(sl.ready or sl.kind == "bot" for sl in self.slots):
            return
        self.status = PLAYING
        self.store.set_status(self.id, PLAYING)
        self.state.start_hand()
        self._after_change()

    # ------------------------------------------------------------ connections

    def _connections(self):
        return [sl.conn for sl in self.slots if sl.conn is not None] + list(self.spectators)

    def attach(self, seat: int, conn, last_seen: int) -> None:
        """A seat's socket authenticated: replace any older one, then send
        the welcome, every numbered message after `last_seen`, and the view."""
        slot = self.slots[seat]
        if slot.conn is not None and slot.conn is not conn:
            slot.conn.close(4000, "replaced by a newer connection for this seat")
        slot.conn = conn
        if slot.left:  # back at the seat it left
            slot.left = False
        self.state.present.track(seat, True)
        self._welcome(seat, conn, last_seen)
        self._broadcast_status()

    def attach_spectator(self, conn, last_seen: int) -> bool:
        if len(self.spectators) >= MAX_SPECTATORS:
            return False
        self.spectators.add(conn)
        self.state.present.track(self.state.spectators, True)
        self._welcome(self.state.spectators, conn, last_seen)
        self._broadcast_status()
        return True

    def _welcome(self, viewer: int, conn, last_seen: int) -> None:
        last = self.state.last(viewer)
        if last_seen > last:
            conn.send(P.error(P.STALE, f"last_seen {last_seen} is ahead of this stream ({last}); sending it all"))
            last_seen = 0
        seat = viewer if viewer < self.state.n else None
        conn.send({"type": "welcome", "protocol": P.VERSION, "seat": seat, "last": last, "table": self.info()})
        conn.sent = last_seen
        self._send_stream(viewer, conn)
        self._send_view(viewer, conn)

    def detach(self, seat: int | None, conn) -> None:
        if seat is None:
            self.spectators.discard(conn)
            if not self.spectators:
                self.state.present.track(self.state.spectators, False)
        elif self.slots[seat].conn is conn:
            self.slots[seat].conn = None
            self.state.present.track(seat, False)
        else:
            return
        self._broadcast_status()

    def resend(self, viewer: int, conn, last_seen: int) -> None:
        conn.sent = min(max(0, last_seen), self.state.last(viewer))
        self._send_stream(viewer, conn)
        self._send_view(viewer, conn)

    def _conn(self, viewer: int):
        return self.slots[viewer].conn if viewer < self.state.n else None

    def _send_stream(self, viewer: int, conn) -> None:
        for msg in self.state.since(viewer, conn.sent):
            conn.send(msg)
        conn.sent = self.state.last(viewer)

    def _view_message(self, viewer: int, number: int, view) -> dict:
        seat = viewer if viewer < self.state.n else None
        ask = self.state.asked.get(seat) if seat is not None else None
        msg = {"type": "view", "step": number, "hand": self.state.hand, "ask": ask,
               "deadline_ms": self._deadline_ms(seat, ask), "auto": self.slots[seat].auto if seat is not None else False,
               "view": view}
        if seat is not None and view is not None and self.state.game is not None:
            hints = self.hints.of(self.state.game, seat, view)
            if hints:
                msg["hints"] = hints
        return msg

    def _send_view(self, viewer: int, conn) -> None:
        """The current view (after a (re)connection)."""
        present = self.state.present
        conn.send(self._view_message(viewer, present.count[viewer], present.current(viewer)))

    def _send_new_views(self, viewer: int, conn) -> None:
        for number, view in self.state.present.new[viewer]:
            conn.send(self._view_message(viewer, number, view))

    def _deadline_ms(self, seat, ask) -> int | None:
        if seat is None or ask is None or self.config.turn_seconds is None:
            return None
        slot = self.slots[seat]
        if slot.asked_at[0] != ask:
            return int(self.config.turn_seconds * 1000)
        left = slot.asked_at[1] + self.config.turn_seconds - asyncio.get_running_loop().time()
        return max(0, int(left * 1000))

    def _broadcast_status(self) -> None:
        msg = {"type": "status", "status": self.status, "seats": self.seats_json(), "free_seats": self.free_seats(),
               "spectators": len(self.spectators)}
        for conn in self._connections():
            conn.send(msg)

    def emote(self, seat: int, emote: str) -> None:
        msg = {"type": "emote", "seat": seat, "emote": emote}
        for conn in self._connections():
            conn.send(msg)

    # ------------------------------------------------------------ moves

    def act(self, seat: int, data, ask=None, ref=None) -> dict:
        """A player's move: returns the reply (accepted or error); a refused
        move changes nothing."""
        if self.status == WAITING:
            return P.error(P.NOT_STARTED, "the match starts when every seat is taken and ready", ref)
        if self.status != PLAYING or self.state.over:
            return P.error(P.FINISHED, f"the match is {'over' if self.status == FINISHED else self.status}", ref)
        if not self.state.in_hand:
            return P.error(P.NOT_YOUR_TURN, "the next hand has not been dealt yet", ref)
        pending = self.state.asked.get(seat)
        if pending is None:
            return P.error(P.NOT_YOUR_TURN, f"seat {seat} has no decision to make now", ref)
        if ask is not None and ask != pending:
            return P.error(P.STALE, f"that move answers decision {ask}; the decision now is {pending}", ref)
        try:
            action = self.state.parse(seat, data)
        except ActionError as exc:
            return P.error(P.BAD_MESSAGE, f"not an action: {exc}", ref)
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
        return P.reply("accepted", ref, ask=pending)

    def resume(self, seat: int) -> None:
        slot = self.slots[seat]
        if slot.auto:
            slot.auto = slot.left = False
            slot.asked_at = (None, 0.0)  # a fresh clock for the pending decision
            self._broadcast_status()
            self._after_change(views=False)

    def _commit(self, seat: int, action: Action, by: str) -> None:
        """Write the move, then apply it, then tell everyone: a move clients
        have seen is always in the store. A failure rolls the write back."""
        from .moves import canonical

        rec = ActionRecord(self.state.step + 1, self.state.hand, seat, canonical(action), by)
        try:
            with self.store.move(self.id, rec, self.instance):
                try:
                    self.state.apply(seat, action, by)
                except IllegalAction:
                    raise
                except BaseException:
                    self._rebuild()  # the failed move may have left the game half-changed
                    raise
        except LeaseLost:
            self.lost()
            return
        if self.state.over:
            self.status = FINISHED
            self.store.set_status(self.id, FINISHED)
            if self.on_finished is not None:
                self.on_finished(self)
        elif not self.state.in_hand:
            self.hand_over_at = asyncio.get_running_loop().time()
        self._after_change()

    def lost(self) -> None:
        """Another process serves this table now (its lease ran out here):
        stop, and send the clients there."""
        log.warning("table %s: lease lost; another process serves it now", self.id)
        for conn in self._connections():
            conn.close(P.MOVED, "this table moved to another server process; reconnect")
        for slot in self.slots:
            slot.conn = None
        self.spectators.clear()
        self.status = "moved"
        self._wake.set()
        if self.on_lost is not None:
            self.on_lost(self)

    def _rebuild(self) -> None:
        """The game again from the log in the store."""
        state = TableState(self.state.table, self.rec.match_seed, hands=self.config.hands)
        state.present.live = False
        replay(state, self.store.actions(self.id), started=True)
        state.present.tracked = set(self.state.present.tracked)
        state.present.resume(state.game, set(state.asked))
        self.state = state
        log.warning("table %s rebuilt from its log after a failed move", self.id)

    def _after_change(self, views: bool = True) -> None:
        for viewer in range(self.state.n + 1):
            conns = [self._conn(viewer)] if viewer < self.state.n else list(self.spectators)
            for conn in conns:
                if conn is None:
                    continue
                self._send_stream(viewer, conn)
                if views:
                    self._send_new_views(viewer, conn)
                else:
                    self._send_view(viewer, conn)
        if self.status == FINISHED:
            self._broadcast_status()
        self._wake.set()

    # ------------------------------------------------------------ the driver

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table {self.id}")

    async def stop(self, code: int = 1001, reason: str = "server shutting down") -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        for conn in self._connections():
            conn.close(code, reason)

    async def _drive(self) -> None:
        loop = asyncio.get_running_loop()
        while self.status in (WAITING, PLAYING):
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
