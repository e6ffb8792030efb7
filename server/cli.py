"""Entry points for `mjc serve` and `mjc verify-deal` (wired in mjc/cli.py)."""

from __future__ import annotations

import json
import sys

NEEDS = "the server needs starlette, uvicorn and websockets: python3 -m pip install 'mahjong-rules-compiler[server]' (or pip install starlette uvicorn websockets)"


class ServeError(Exception):
    """A mistake in the command line or the environment: printed, exit 2."""


def add_arguments(sub) -> None:
    s = sub.add_parser("serve", help="run the game server (HTTP + WebSocket, browser client at /)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    s.add_argument("--db", default="mjc-server.sqlite3",
                   help="SQLite file of tables and moves (default ./mjc-server.sqlite3), or a postgresql://user:pass@host/db URL "
                        "shared by several processes (pip install 'mahjong-rules-compiler[postgres]')")
    s.add_argument("--instance", default="", help="this process's name: prefix of its table ids and holder of its leases")
    s.add_argument("--lease-seconds", type=float, default=10.0,
                   help="PostgreSQL: a table's lease runs this long unrenewed before another process takes it over (default 10)")
    s.add_argument("--max-tables", type=int, default=10000, help="live tables in this process (default 10000)")
    s.add_argument("--create-rate", type=float, default=20.0, help="tables a client address may create a second (0: no limit)")
    s.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])

    s = sub.add_parser("verify-deal", help="recompute a hand's wall from its revealed seed and check it")
    s.add_argument("file", nargs="?", help="a deal record (JSON, as the server publishes per hand); default standard input")
    s.add_argument("--json", action="store_true", help="print the result as JSON")


def serve(args) -> int:
    try:
        import uvicorn

        from .app import create_app
        from .tables import Limits
    except ImportError:
        raise ServeError(NEEDS) from None
    if not 0 < args.port < 65536:
        raise ServeError(f"--port must be 1-65535, not {args.port}")
    if not 0.5 <= args.lease_seconds <= 3600:
        raise ServeError(f"--lease-seconds must be 0.5-3600, not {args.lease_seconds:g}")
    limits = Limits(max_tables=args.max_tables, create_rate=args.create_rate, lease_seconds=args.lease_seconds)
    _check_database(args.db)
    _check_port(args.host, args.port)
    try:
        app = create_app(args.db, limits, args.instance)
    except Exception as exc:  # an unreadable database path, say
        raise ServeError(str(exc)) from None
    # messages are at most 4 KiB (checked by the app, with an error reply);
    # a frame past 64 KiB is not read at all and closes the socket (1009)
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=65536, log_level=args.log_level)
    return 0


def _check_database(path: str) -> None:
    """The --db file opens as SQLite (or can be created), or the PostgreSQL
    server answers, before the server starts."""
    if path.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError:
            raise ServeError("--db postgresql://… needs psycopg 3: python3 -m pip install 'mahjong-rules-compiler[postgres]'") from None
        try:
            psycopg.connect(path, connect_timeout=10).close()
        except psycopg.Error as exc:
            where = path.split("@")[-1]
            raise ServeError(f"--db {where}: cannot connect to PostgreSQL ({str(exc).strip().splitlines()[0]})") from None
        return
    import sqlite3

    try:
        con = sqlite3.connect(path)
        try:
            con.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise ServeError(f"--db {path}: not a usable SQLite database ({exc})") from None


def _check_port(host: str, port: int) -> None:
    import socket

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def verify_deal(args) -> int:
    from .fairness import ProofError, verify

    try:
        text = open(args.file, encoding="utf-8").read() if args.file else sys.stdin.read()
    except OSError as exc:
        raise ServeError(f"{args.file}: {exc.strerror}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ServeError(f"{args.file or 'stdin'}: not JSON: {exc.msg} at line {exc.lineno}") from None
    if isinstance(record, dict) and isinstance(record.get("proof"), dict):
        record = {**record, **record["proof"]}  # a hand_end message as saved by a client
    try:
        out = verify(record)
    except ProofError as exc:
        raise ServeError(str(exc)) from None
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(f"{out['variant']}, hand {out['hand'] + 1 if isinstance(out['hand'], int) else out['hand']}, dealer seat {out['dealer']}")
        for seat, tiles in enumerate(out["hands"]):
            print(f"  seat {seat} dealt: {' '.join(tiles)}")
        print(f"  wall ({len(out['wall'])} tiles, in draw order): {' '.join(out['wall'])}")
        if "indicator" in out:
            print(f"  wild indicator: {out['indicator']}")
        for seat, tiles in out.get("horses", {}).items():
            print(f"  seat {seat} horses: {' '.join(tiles)}")
        for w in out["warnings"]:
            print(f"warning: {w}")
        for p in out["problems"]:
            print(f"MISMATCH: {p}")
        print("ok: the seed matches its published SHA-256 and the deal" if out["ok"] else "FAILED")
    return 0 if out["ok"] else 1
