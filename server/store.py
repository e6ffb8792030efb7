"""Persistence: tables, seats and every applied action, in SQLite or PostgreSQL.

Both stores hold the same schema and are used the same way; nothing
derived is stored: a table's game is rebuilt by replaying its actions
through the deterministic runtime.

- `SqliteStore`: one file, WAL mode, `synchronous=NORMAL`: a committed
  action survives the server process being killed (the WAL is in the OS's
  hands), though not a power cut between checkpoints. One process per file.
- `PostgresStore` (server/pgstore.py, `pip install '.[postgres]'`): shared
  by many processes. A table is served by one process at a time under a
  lease with an expiry (`tables.lease_owner`, `tables.lease_until`, on the
  database's clock); every move is written only while the writer still
  holds the lease, so a process that lost its lease can never add a move.

Calls are synchronous and made from the event loop's thread only; each is
a short indexed write.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass

# status of a table
WAITING, PLAYING, FINISHED, ABANDONED = "waiting", "playing", "finished", "abandoned"
OPEN = (WAITING, PLAYING)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    variant TEXT NOT NULL,
    variant_sha256 TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON: every option's value
    seats TEXT NOT NULL,            -- JSON: "human" or "bot" per seat
    config TEXT NOT NULL,           -- JSON: bot, turn_seconds, bot_delay, hand_pause, hands, ready_check
    match_seed TEXT NOT NULL,       -- secret: never sent to a client
    status TEXT NOT NULL,           -- waiting, playing, finished, abandoned
    owner_sha256 TEXT NOT NULL DEFAULT '',  -- SHA-256 of the creator's token (abandon, bots in free seats)
    lease_owner TEXT,               -- PostgreSQL: the instance serving the table
    lease_until DOUBLE PRECISION    -- PostgreSQL: epoch seconds (database clock) the lease runs to
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    joined DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,           -- 1, 2, 3 … per table: the match's step
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,           -- canonical text (server/moves.py): "discard 3s", "chow 5m6m"
    "by" TEXT NOT NULL,             -- player, bot or auto (托管)
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""

_COLUMNS = "id, created, variant, variant_sha256, players, options, seats, config, match_seed, status, owner_sha256"


@dataclass
class TableRecord:
    id: str
    created: float
    variant: str
    variant_sha256: str
    players: int
    options: dict
    seats: list
    config: dict
    match_seed: str
    status: str
    owner_sha256: str = ""


@dataclass
class ActionRecord:
    seq: int
    hand: int
    seat: int
    action: str
    by: str


class LeaseLost(RuntimeError):
    """Another process serves this table now: this one must stop serving it."""


class Store:
    """The queries both databases share; subclasses open the connection,
    name the parameter style and do leases."""

    P = "?"  # parameter placeholder
    shared = False  # many processes share the database (leases matter)
    url = ""

    def _q(self, sql: str) -> str:
        return sql.replace("?", self.P)

    def _exec(self, sql: str, args=()):
        raise NotImplementedError

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ writes

    def create_table(self, rec: TableRecord) -> None:
        self._exec(
            f"INSERT INTO tables ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (rec.id, rec.created, rec.variant, rec.variant_sha256, rec.players, json.dumps(rec.options),
             json.dumps(rec.seats), json.dumps(rec.config), rec.match_seed, rec.status, rec.owner_sha256),
        )

    def add_seat(self, table_id: str, seat: int, token_sha256: str, name: str) -> None:
        self._exec("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat))
        self._exec("INSERT INTO seats VALUES (?,?,?,?,?)", (table_id, seat, token_sha256, name, time.time()))

    def remove_seat(self, table_id: str, seat: int) -> None:
        self._exec("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat))

    def set_seats(self, table_id: str, seats: list) -> None:
        self._exec("UPDATE tables SET seats=? WHERE id=?", (json.dumps(seats), table_id))

    def set_status(self, table_id: str, status: str) -> None:
        self._exec("UPDATE tables SET status=? WHERE id=?", (status, table_id))

    @contextmanager
    def move(self, table_id: str, a: ActionRecord, owner: str = ""):
        """Write one action in a transaction that commits only if the body
        (applying it) succeeds; raises LeaseLost if this process no longer
        serves the table."""
        raise NotImplementedError

    # ------------------------------------------------------------ leases (no-ops for one process)

    def acquire(self, table_id: str, owner: str) -> bool:
        return True

    def renew(self, owner: str) -> set:
        return set()

    def release(self, table_id: str, owner: str) -> None:
        pass

    def orphans(self, owner: str) -> list[str]:
        """Open tables no live process serves (their lease ran out)."""
        return []

    # ------------------------------------------------------------ reads

    def _table(self, row) -> TableRecord:
        return TableRecord(
            id=row[0], created=row[1], variant=row[2], variant_sha256=row[3], players=row[4],
            options=json.loads(row[5]), seats=json.loads(row[6]), config=json.loads(row[7]),
            match_seed=row[8], status=row[9], owner_sha256=row[10] or "",
        )

    def table(self, table_id: str) -> TableRecord | None:
        row = self._exec(f"SELECT {_COLUMNS} FROM tables WHERE id=?", (table_id,)).fetchone()
        return self._table(row) if row else None

    def unfinished(self) -> list[TableRecord]:
        rows = self._exec(f"SELECT {_COLUMNS} FROM tables WHERE status IN ('waiting', 'playing') ORDER BY created").fetchall()
        return [self._table(r) for r in rows]

    def seats(self, table_id: str) -> dict[int, tuple[str, str]]:
        """seat -> (token_sha256, name)"""
        rows = self._exec("SELECT seat, token_sha256, name FROM seats WHERE table_id=?", (table_id,)).fetchall()
        return {seat: (token, name) for seat, token, name in rows}

    def actions(self, table_id: str) -> list[ActionRecord]:
        rows = self._exec(
            "SELECT seq, hand, seat, action, \"by\" FROM actions WHERE table_id=? ORDER BY seq", (table_id,)
        ).fetchall()
        return [ActionRecord(*r) for r in rows]


class SqliteStore(Store):
    def __init__(self, path: str):
        self.path = self.url = path
        # autocommit mode: each write below is its own short transaction
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Files written before these columns existed gain them."""
        have = {r[1] for r in self.db.execute("PRAGMA table_info(tables)")}
        for column, decl in (("owner_sha256", "TEXT NOT NULL DEFAULT ''"), ("lease_owner", "TEXT"),
                             ("lease_until", "DOUBLE PRECISION")):
            if column not in have:
                self.db.execute(f"ALTER TABLE tables ADD COLUMN {column} {decl}")

    def _exec(self, sql: str, args=()):
        return self.db.execute(sql, args)

    @contextmanager
    def move(self, table_id: str, a: ActionRecord, owner: str = ""):
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self._exec("INSERT INTO actions VALUES (?,?,?,?,?,?,?)",
                       (table_id, a.seq, a.hand, a.seat, a.action, a.by, time.time()))
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")


def open_store(url: str, **kw) -> Store:
    """A store from `--db`: a postgresql:// URL, else an SQLite file path."""
    if url.startswith(("postgresql://", "postgres://")):
        from .pgstore import PostgresStore

        return PostgresStore(url, **kw)
    return SqliteStore(url)  # one process: no leases
