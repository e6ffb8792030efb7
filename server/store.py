"""SQLite persistence: tables, seats and every applied action.

One file, WAL mode, `synchronous=NORMAL`: a committed action survives the
server process being killed (the WAL is in the OS's hands), though not a
power cut between checkpoints — the trade a game server wants for a
commit per move. Nothing derived is stored: a table's game is rebuilt by
replaying its actions through the deterministic runtime.

Calls are synchronous and made from the event loop's thread only; each is
a short indexed write.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    variant TEXT NOT NULL,
    variant_sha256 TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,          -- JSON: every option's value
    seats TEXT NOT NULL,            -- JSON: "human" or "bot" per seat
    config TEXT NOT NULL,           -- JSON: bot, turn_seconds, bot_delay, hand_pause, hands
    match_seed TEXT NOT NULL,       -- secret: never sent to a client
    status TEXT NOT NULL            -- waiting, playing, finished
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,           -- 1, 2, 3 … per table: the match's step
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,           -- text form: "discard 3s"
    by TEXT NOT NULL,               -- player, bot or auto (托管)
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


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


@dataclass
class ActionRecord:
    seq: int
    hand: int
    seat: int
    action: str
    by: str


class Store:
    def __init__(self, path: str):
        self.path = path
        # autocommit mode: each write below is its own short transaction
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ writes

    def create_table(self, rec: TableRecord) -> None:
        self.db.execute(
            "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?)",
            (rec.id, rec.created, rec.variant, rec.variant_sha256, rec.players, json.dumps(rec.options),
             json.dumps(rec.seats), json.dumps(rec.config), rec.match_seed, rec.status),
        )

    def add_seat(self, table_id: str, seat: int, token_sha256: str, name: str) -> None:
        self.db.execute(
            "INSERT INTO seats VALUES (?,?,?,?,?)", (table_id, seat, token_sha256, name, time.time())
        )

    def set_status(self, table_id: str, status: str) -> None:
        self.db.execute("UPDATE tables SET status=? WHERE id=?", (status, table_id))

    def add_action(self, table_id: str, a: ActionRecord) -> None:
        self.db.execute(
            "INSERT INTO actions VALUES (?,?,?,?,?,?,?)",
            (table_id, a.seq, a.hand, a.seat, a.action, a.by, time.time()),
        )

    # ------------------------------------------------------------ reads

    def _table(self, row) -> TableRecord:
        return TableRecord(
            id=row[0], created=row[1], variant=row[2], variant_sha256=row[3], players=row[4],
            options=json.loads(row[5]), seats=json.loads(row[6]), config=json.loads(row[7]),
            match_seed=row[8], status=row[9],
        )

    def table(self, table_id: str) -> TableRecord | None:
        row = self.db.execute("SELECT * FROM tables WHERE id=?", (table_id,)).fetchone()
        return self._table(row) if row else None

    def unfinished(self) -> list[TableRecord]:
        rows = self.db.execute("SELECT * FROM tables WHERE status != 'finished' ORDER BY created").fetchall()
        return [self._table(r) for r in rows]

    def seats(self, table_id: str) -> dict[int, tuple[str, str]]:
        """seat -> (token_sha256, name)"""
        rows = self.db.execute("SELECT seat, token_sha256, name FROM seats WHERE table_id=?", (table_id,))
        return {seat: (token, name) for seat, token, name in rows}

    def actions(self, table_id: str) -> list[ActionRecord]:
        rows = self.db.execute(
            "SELECT seq, hand, seat, action, by FROM actions WHERE table_id=? ORDER BY seq", (table_id,)
        )
        return [ActionRecord(*r) for r in rows]
