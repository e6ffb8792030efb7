"""One seat's WebSocket: authenticate, then read messages, check each one,
and hand the good ones to the table.

Outgoing messages go through a queue drained by a writer task, so a table
never waits on a slow client; a client that falls far behind is dropped
(it reconnects and catches up from its last `n`).
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol as P
from .manager import Manager, TableError
from .ratelimit import TokenBucket

log = logging.getLogger("mjc.server")

HELLO_SECONDS = 10.0  # time a socket has to say hello
MAX_QUEUED = 2000  # messages waiting for a slow client before it is dropped


class Connection:
    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.queue: asyncio.Queue = asyncio.Queue()
        self.sent = 0  # the highest `n` queued to this client
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""

    def send(self, msg: dict) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.close(1013, "too far behind; reconnect with last_seen")
            return
        self.queue.put_nowait(P.dumps(msg))

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
            await self.ws.close(self.close_code, self.close_reason[:120])
        except Exception:
            self.closed = True  # the socket is gone; the reader will notice


async def _receive_text(ws: WebSocket) -> str | bytes | None:
    """The next frame, or None when the client went away."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return message["text"]
    return message.get("bytes") or b""


async def serve_socket(ws: WebSocket, manager: Manager, table_id: str) -> None:
    await ws.accept()
    conn = Connection(ws)
    writer = asyncio.get_running_loop().create_task(conn.writer())
    table, seat, watching = None, None, False
    try:
        try:
            table = await manager.serve(table_id)
        except TableError as exc:
            conn.send(P.error(P.UNAUTHORIZED if exc.status == 404 else P.FINISHED, str(exc)))
            conn.close(P.MOVED if exc.status == 409 else 4404, str(exc)[:100] if exc.status == 409 else "no such table")
            return
        hello = await _hello(ws, conn, table)
        if hello is None:
            return
        seat, watching = hello
        await _read_loop(ws, conn, table, seat, manager)
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client left, or the socket was closed under the reader
    except Exception:
        log.exception("socket for table %s failed", table_id)
        conn.close(1011, "server error")
    finally:
        if table is not None and (seat is not None or watching):
            table.detach(seat, conn)
        conn.close()
        try:
            await asyncio.wait_for(writer, 5)
        except (asyncio.TimeoutError, Exception):
            writer.cancel()


async def _hello(ws: WebSocket, conn: Connection, table):
    """Wait for a valid hello; returns (seat, False) for a player, (None,
    True) for a spectator, or None (socket closed)."""
    try:
        text = await asyncio.wait_for(_receive_text(ws), HELLO_SECONDS)
    except asyncio.TimeoutError:
        conn.send(P.error(P.UNAUTHORIZED, f"no hello within {HELLO_SECONDS:.0f} seconds"))
        conn.close(4401, "no hello")
        return None
    if text is None:
        return None
    try:
        msg = P.parse_client(text)
        if msg["type"] != "hello":
            raise P.ProtocolError(P.UNAUTHORIZED, 'the first message must be {"type": "hello", "token": ...}', msg.get("id"))
    except P.ProtocolError as exc:
        conn.send(P.error(exc.code, exc.message, exc.ref))
        conn.close(4401, "bad hello")
        return None
    if msg.get("spectate"):
        if not table.attach_spectator(conn, msg.get("last_seen", 0)):
            conn.send(P.error(P.UNAUTHORIZED, "this table has as many spectators as it takes", msg.get("id")))
            conn.close(4429, "too many spectators")
            return None
        return None, True
    seat = table.seat_of(msg["token"])
    if seat is None:
        conn.send(P.error(P.UNAUTHORIZED, "this token is not a seat of this table", msg.get("id")))
        conn.close(4401, "bad token")
        return None
    if "seat" in msg and msg["seat"] != seat:
        conn.send(P.error(P.WRONG_SEAT, f"this token is for another seat, not seat {msg['seat']}", msg.get("id")))
        conn.close(4403, "wrong seat")
        return None
    table.attach(seat, conn, msg.get("last_seen", 0))
    return seat, False


def _cheap_ref(text):
    """The id of a message refused before it is checked (rate limit): read
    only from a small, parseable message."""
    if not isinstance(text, str) or len(text) > P.MAX_MESSAGE_BYTES:
        return None
    try:
        return P.reference(P.loads(text))
    except (ValueError, RecursionError):
        return None


async def _read_loop(ws: WebSocket, conn: Connection, table, seat, manager: Manager) -> None:
    limits = manager.limits
    bucket = TokenBucket(limits.message_rate, limits.message_burst)
    refused_in_a_row = 0
    while not conn.closed:
        text = await _receive_text(ws)
        if text is None:
            return
        if not bucket.allow():
            refused_in_a_row += 1
            if refused_in_a_row >= limits.flood_close_after:
                conn.send(P.error(P.RATE_LIMITED, "too many messages; closing", _cheap_ref(text)))
                conn.close(1008, "flooding")
                return
            if refused_in_a_row <= 20 or refused_in_a_row % 50 == 0:  # do not flood back
                conn.send(P.error(P.RATE_LIMITED, f"more than {limits.message_rate:g} messages a second; message ignored",
                                  _cheap_ref(text)))
            continue
        refused_in_a_row = 0
        try:
            msg = P.parse_client(text)
        except P.ProtocolError as exc:
            conn.send(P.error(exc.code, exc.message, exc.ref))
            continue
        viewer = seat if seat is not None else table.state.spectators
        if msg["type"] == "sync":
            table.resend(viewer, conn, msg["last_seen"])
        elif seat is None:
            conn.send(_spectator(msg))
        else:
            conn.send(_dispatch(table, seat, msg))


def _spectator(msg: dict) -> dict:
    ref = msg.get("id")
    if msg["type"] == "ping":
        return P.reply("pong", ref)
    return P.error(P.WRONG_SEAT, "a spectator only watches (sync and ping)", ref)


def _dispatch(table, seat: int, msg: dict) -> dict:
    kind, ref = msg["type"], msg.get("id")
    if kind == "act":
        try:
            return table.act(seat, msg["action"], msg.get("ask"), ref)
        except Exception:
            log.exception("table %s: move %r by seat %d failed", table.id, msg["action"], seat)
            return P.error(P.SERVER_ERROR, "the server failed on this move; the table is unchanged", ref)
    if kind == "resume":
        table.resume(seat)
        return P.reply("accepted", ref, ask=table.state.asked.get(seat))
    if kind == "ready":
        table.set_ready(seat, msg.get("ready", True))
        return P.reply("accepted", ref, ask=None)
    if kind == "leave":
        table.leave(seat)
        return P.reply("accepted", ref, ask=None)
    if kind == "emote":
        table.emote(seat, msg["emote"])
        return P.reply("accepted", ref, ask=None)
    if kind == "ping":
        return P.reply("pong", ref)
    return P.error(P.BAD_MESSAGE, "hello was already said", ref)
