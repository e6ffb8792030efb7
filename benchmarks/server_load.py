"""Load on the game server: N tables of bots playing over WebSocket on loopback.

    python -m benchmarks.server_load --tables 10 100 1000
    python -m benchmarks.server_load --tables 10 --seconds 5     # a quick slice
    python -m benchmarks.server_load --tables 10 100 1000 --db postgresql://user:pass@127.0.0.1/db

With `--db` a PostgreSQL URL the server stores tables and moves there
(its tables are dropped first: give it a database of its own). Where the
machine has two cores or more, the server is pinned to one core and the
load generator to the others (`os.sched_setaffinity`, as `taskset` does),
so that each has its own; `--no-pin` shares them. A PostgreSQL server on
the same machine is not pinned and competes with both.

For each N a fresh `mjc serve` process (its own SQLite file in a temporary
folder) gets N four-seat tables, every seat a human seat taken by this
load generator: 4N sockets. Each client answers its seat's decisions with
a quick random policy (win when it may, mostly pass claims, else a random
legal move) and plays until its table has played `--hands` hands or the
`--seconds` budget runs out; then every socket is closed and the server
stopped. Bounded in count (N tables, `--hands` hands) and time.

Reported per N:
- actions/s: moves the server accepted per second of play (each one
  checked, written to SQLite, applied, and sent out as events and views
  to the table's four seats);
- p50/p99 latency: from sending a move to its `accepted` reply;
- server CPU per action: the server process's CPU time during play divided
  by the moves it accepted (less sensitive to other load on the machine);
- memory per table: the server's RSS after all tables are dealt and every
  socket is connected, less its RSS before any table, divided by N.

The generator and the server share the machine, so the figures are for
both: on 2 cores each gets about one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from benchmarks.run import installed_first

ROOT = Path(__file__).resolve().parent.parent


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def post(http, path: str, body: dict) -> dict:
    """POST with a few retries: a kept-alive connection the server closed
    just as it was reused is not the server failing."""
    for attempt in range(5):
        try:
            r = await http.post(path, json=body)
            r.raise_for_status()
            return r.json()
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError):
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cores() -> tuple[set, set] | None:
    """(server cores, generator cores) when there are two or more to split."""
    mine = sorted(os.sched_getaffinity(0))
    if len(mine) < 2:
        return None
    return {mine[0]}, set(mine[1:])


def clean_postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS actions, seats, tables")


class Server:
    def __init__(self, folder: str, db: str | None = None, server_cores: set | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        if db:
            clean_postgres(db)
        args = ["serve", "--port", str(self.port), "--db", db or f"{folder}/load.sqlite3",
                "--log-level", "warning", "--create-rate", "0", "--max-tables", "100000"]
        cmd = installed_first("mjc", *args)  # a compiled install is what is measured
        env = dict(os.environ)
        pin = (lambda: os.sched_setaffinity(0, server_cores)) if server_cores else None
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(f"{folder}/server.log", "wb"),
                                     preexec_fn=pin)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/variants", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


class SeatClient:
    """One seat: answers its decisions, measures each move's round trip."""

    def __init__(self, url: str, token: str, rng: random.Random, stats: dict, hands: int):
        self.url, self.token, self.rng, self.stats, self.hands = url, token, rng, stats, hands
        self.ws = None
        self.sent_ask = None
        self.sent_at: dict[int, float] = {}
        self.next_id = 0
        self.hands_done = 0
        self.stopping = False  # set when the time limit closes the socket

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=2**22, open_timeout=60, ping_interval=None,
                                           compression=None)  # loopback: deflate would only cost CPU
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))

    def choose(self, legal: list[str]) -> str:
        if "hu" in legal:
            return "hu"
        if "pass" in legal and self.rng.random() < 0.85:
            return "pass"
        return self.rng.choice(legal)

    async def run(self) -> None:
        """Play until this seat's table is done or the socket is closed by the time limit."""
        try:
            async for text in self.ws:
                # the generator parses only what it acts on, to load the server rather than itself:
                # events, and views that ask this seat nothing, are skipped unread
                if text.startswith('{"type":"event"') or (text.startswith('{"type":"view"') and '"ask":null' in text[:120]):
                    continue
                msg = json.loads(text)
                kind = msg["type"]
                if kind == "view":
                    v = msg["view"]
                    if v and v["legal_actions"] and msg["ask"] is not None and msg["ask"] != self.sent_ask:
                        self.sent_ask = msg["ask"]
                        self.next_id += 1
                        self.sent_at[self.next_id] = time.perf_counter()
                        await self.ws.send(json.dumps({"type": "act", "action": self.choose(v["legal_actions"]),
                                                       "ask": msg["ask"], "id": self.next_id}))
                elif kind in ("accepted", "error") and "id" in msg:
                    t0 = self.sent_at.pop(msg.get("id"), None)
                    if t0 is not None:
                        self.stats["latency"].append(time.perf_counter() - t0)
                        self.stats["accepted" if kind == "accepted" else "refused"] += 1
                elif kind == "hand_end":
                    self.hands_done += 1
                    if self.hands_done >= self.hands:
                        return
                elif kind == "match_end":
                    return
        except websockets.ConnectionClosed:
            if not self.stopping:
                self.stats["dropped"] += 1


async def run_load(url: str, tables: int, hands: int, seconds: float, variant: str, server: Server) -> dict:
    ws_url = url.replace("http://", "ws://")
    rng = random.Random(tables)
    stats = {"latency": [], "accepted": 0, "refused": 0, "dropped": 0}
    rss_before = rss_kib(server.proc.pid)
    clients = []
    setup_started = time.monotonic()
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=20)) as http:
        sem = asyncio.Semaphore(20)

        async def one_table():
            async with sem:
                tid = (await post(http, "/api/tables", {
                    "variant": variant, "seats": ["human"] * 4, "players": 4, "turn_seconds": None,
                    "hand_pause": 0, "hands": hands}))["id"]
                out = []
                for seat in range(4):
                    token = (await post(http, f"/api/tables/{tid}/join", {"seat": seat}))["token"]
                    out.append(SeatClient(f"{ws_url}/ws/tables/{tid}", token, random.Random(rng.random()), stats, hands))
                return out

        for group in await asyncio.gather(*(one_table() for _ in range(tables))):
            clients.extend(group)

    sem = asyncio.Semaphore(100)

    async def connect(c):
        async with sem:
            await c.connect()

    await asyncio.gather(*(connect(c) for c in clients))
    setup = time.monotonic() - setup_started
    await asyncio.sleep(0.5)
    rss_loaded = rss_kib(server.proc.pid)
    started = time.monotonic()
    cpu_started = cpu_seconds(server.proc.pid)
    runs = [asyncio.ensure_future(c.run()) for c in clients]
    done, pending = await asyncio.wait(runs, timeout=seconds)
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(server.proc.pid) - cpu_started
    rss_after = rss_kib(server.proc.pid)
    for c in clients:
        c.stopping = True
    await asyncio.gather(*(c.ws.close() for c in clients), return_exceptions=True)
    await asyncio.gather(*pending, return_exceptions=True)
    lat = sorted(stats["latency"])

    def pct(p):
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": tables,
        "sockets": len(clients),
        "setup_s": round(setup, 1),
        "play_s": round(elapsed, 1),
        "hands_done": sum(c.hands_done for c in clients) // 4,
        "actions": stats["accepted"],
        "refused": stats["refused"],
        "dropped": stats["dropped"],
        "actions_per_s": round(stats["accepted"] / elapsed, 1) if elapsed else 0,
        "server_cpu_ms_per_action": round(1000 * cpu / stats["accepted"], 2) if stats["accepted"] else None,
        "server_cpu_share": round(cpu / elapsed, 2) if elapsed else None,
        "p50_ms": round(pct(0.50), 2),
        "p99_ms": round(pct(0.99), 2),
        "rss_before_mib": round(rss_before / 1024, 1),
        "rss_loaded_mib": round(rss_loaded / 1024, 1),
        "rss_after_mib": round(rss_after / 1024, 1),
        "kib_per_table": round((rss_loaded - rss_before) / tables, 1),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.server_load", description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    p.add_argument("--hands", type=int, default=1, help="hands each table plays (default 1)")
    p.add_argument("--seconds", type=float, default=60, help="play time budget per N (default 60)")
    p.add_argument("--variant", default="yunnan_ka_er_tiao")
    p.add_argument("--db", help="a postgresql:// URL to store in (default: an SQLite file in a temporary folder)")
    p.add_argument("--no-pin", action="store_true", help="do not pin the server and the generator to separate cores")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    split = None if args.no_pin else cores()
    if split:
        os.sched_setaffinity(0, split[1])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 4 * max(args.tables) + 200
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, need), hard))
    rows = []
    for n in args.tables:
        folder = tempfile.mkdtemp(prefix="mjc-load-")
        server = Server(folder, args.db, split[0] if split else None)
        try:
            rows.append(asyncio.run(run_load(server.url, n, args.hands, args.seconds, args.variant, server)))
        finally:
            server.stop()
            shutil.rmtree(folder, ignore_errors=True)
        rows[-1].update(store="postgresql" if args.db else "sqlite", pinned=bool(split))
        if args.json:
            print(json.dumps(rows[-1]))
        else:
            r = rows[-1]
            print(f"{n:>5} tables ({r['sockets']} sockets): {r['actions_per_s']:>8.1f} actions/s, "
                  f"server CPU {r['server_cpu_ms_per_action']} ms/action (busy {r['server_cpu_share']:.0%}), p50 {r['p50_ms']} ms, "
                  f"p99 {r['p99_ms']} ms, {r['kib_per_table']} KiB/table "
                  f"(RSS {r['rss_before_mib']} → {r['rss_loaded_mib']} MiB), {r['hands_done']} hands in {r['play_s']} s, "
                  f"{r['refused']} refused, {r['dropped']} dropped", flush=True)
    if not args.json:
        where = f"server on core {sorted(split[0])}, generator on {sorted(split[1])}" if split else "not pinned"
        print(f"({platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}, "
              f"{'PostgreSQL' if args.db else 'SQLite'}, {where})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
