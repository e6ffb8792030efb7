"""Helpers for the server tests: a real `mjc serve` process on a free
loopback port, and a protocol client for one seat."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`python -m mjc serve` in a subprocess; stopped by its own pid."""

    def __init__(self, db, port: int | None = None, extra: tuple = (), log: Path | None = None):
        self.db = db  # an SQLite path, or a postgresql:// URL (then give `log`)
        self.port = port or free_port()
        self.extra = extra
        self.proc: subprocess.Popen | None = None
        self.log = log or Path(db).with_suffix(f".{self.port}.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> "ServerProcess":
        cmd = [sys.executable, "-m", "mjc", "serve", "--port", str(self.port), "--db", str(self.db),
               "--log-level", "warning", "--create-rate", "0", *self.extra]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=0.5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def create_table(base: str, **req) -> dict:
    r = httpx.post(base + "/api/tables", json=req, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def join(base: str, table_id: str, **req) -> dict:
    r = httpx.post(f"{base}/api/tables/{table_id}/join", json=req, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


class Seat:
    """One seat's socket: keeps the numbered stream and the latest view."""

    def __init__(self, ws_url: str, table_id: str, token: str):
        self.url = f"{ws_url}/ws/tables/{table_id}"
        self.token = token
        self.ws = None
        self.stream: list[dict] = []  # numbered messages, in order
        self.view: dict | None = None  # the latest view message
        self.errors: list[dict] = []
        self.other: list[dict] = []
        self.sent_ask = None

    async def connect(self, last_seen: int | None = None, **hello) -> dict:
        self.ws = await websockets.connect(self.url, max_size=2**22)
        self.sent_ask = None  # a move sent just before a drop may never have arrived: answer again
        last = len(self.stream) if last_seen is None else last_seen
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "last_seen": last, **hello}))
        return await self.recv()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def recv(self, timeout: float = 15) -> dict:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if "n" in msg:
            expected = len(self.stream) + 1
            assert msg["n"] == expected, f"numbered message {msg['n']} after {expected - 1}"
            self.stream.append(msg)
        elif msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
        else:
            self.other.append(msg)
        return msg

    async def send(self, msg) -> None:
        await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def pending(self) -> list[str]:
        v = self.view
        if v is None or v["view"] is None or v["ask"] is None or v["ask"] == self.sent_ask:
            return []
        return v["view"]["legal_actions"]

    async def act(self, action: str) -> None:
        self.sent_ask = self.view["ask"]
        await self.send({"type": "act", "action": action, "ask": self.view["ask"]})

    @property
    def finished(self) -> bool:
        return any(m["type"] == "match_end" for m in self.stream)


def first_choice(legal: list[str]) -> str:
    """A deterministic player: win, else pass, else discard the last tile offered."""
    for verb in ("hu", "pass"):
        if verb in legal:
            return verb
    return legal[-1]


async def play(seat: Seat, chooser=first_choice, until=None, timeout: float = 60) -> None:
    """Answer every decision until the match ends (or `until(seat)` holds)."""
    deadline = time.monotonic() + timeout
    while not seat.finished and not (until and until(seat)):
        assert time.monotonic() < deadline, "the match did not end in time"
        legal = seat.pending()
        if legal:
            await seat.act(chooser(legal))
        try:
            msg = await seat.recv()
            if msg["type"] == "error" and msg["code"] == "rate_limited":
                await asyncio.sleep(0.3)  # too fast for the server: slow down, then answer again
                seat.sent_ask = None
        except asyncio.TimeoutError:
            raise AssertionError(f"stalled: view {seat.view}, errors {seat.errors[-3:]}, last {seat.stream[-2:]}") from None


async def fresh_stream(ws_url: str, table_id: str, token: str, length: int) -> list[dict]:
    """The first `length` numbered messages a new client of this seat gets (last_seen 0)."""
    fresh = Seat(ws_url, table_id, token)
    await fresh.connect(last_seen=0)
    while len(fresh.stream) < length:
        await fresh.recv()
    await fresh.close()
    return fresh.stream


def uninterrupted_run(table_id: str, variant: str, options: dict, players: int, seed: str, hands: int):
    """The match as the server plays it with seat 0 answering by
    `first_choice` and every other seat a greedy bot seeded as the server
    seeds it, without any interruption: (the moves, the final TableState)."""
    from runtime.actions import parse_action
    from runtime.registry import load
    from server.tables import server_move
    from server.tablestate import TableState

    ref = TableState(load(variant).configure(options, players), seed, hands=hands)
    played = []
    while not ref.over:
        ref.start_hand()
        while ref.in_hand:
            # the server's bots answer at once, before the player's message arrives
            acting = ref.to_act()
            seat = next((x for x in acting if x != 0), acting[0])
            if seat == 0:
                action, by = parse_action(first_choice([str(x) for x in ref.game.legal_actions(0)])), "player"
            else:
                action, by = server_move(ref, table_id, "greedy", "bot", seat)
            played.append((seat, str(action), by))
            ref.apply(seat, action, by)
    return played, ref
