"""PostgreSQL as the shared store (`mjc serve --db postgresql://…`), with
leases so that one process at a time serves a table.

Same schema and queries as SQLite (server/store.py). A lease is two columns
of the table's row: `lease_owner` (the process's instance name) and
`lease_until` (epoch seconds on the *database's* clock, so the processes'
clocks never matter). A process takes a lease when the table has none, when
it is its own, or when it ran out; it renews all of its leases in one
statement every third of the lease time (a lease that ran out but that no
other process took is still its own: a busy process keeps its tables); and
every move is inserted by a statement that checks, in the same
transaction, that the lease is still its own — another process can only
take a table by writing its own name into the row, so a process that lost
its lease (it stalled, or the network parted it from the database) can
never add a move after another took the table over: it gets LeaseLost
instead, and sends its clients away.

Needs psycopg 3 (`python3 -m pip install 'mahjong-rules-compiler[postgres]'`).
"""

from __future__ import annotations

import time
from contextlib import contextmanager

from .store import SCHEMA, ActionRecord, LeaseLost, Store

NOW = "extract(epoch from clock_timestamp())"


class PostgresStore(Store):
    P = "%s"
    shared = True

    def __init__(self, url: str, lease_seconds: float = 10.0):
        try:
            import psycopg
        except ImportError:
            raise RuntimeError(
                "--db postgresql://… needs psycopg 3: python3 -m pip install 'mahjong-rules-compiler[postgres]'"
            ) from None
        self.url = url.split("@")[-1] if "@" in url else url  # for logs: without the password
        self.lease_seconds = lease_seconds
        self.db = psycopg.connect(url, autocommit=True, connect_timeout=10)
        with self.db.transaction():
            # one process creates the schema at a time (several may start together)
            self.db.execute("SELECT pg_advisory_xact_lock(7170001)")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
        self._in_move = False

    def _exec(self, sql: str, args=()):
        return self.db.execute(self._q(sql), args)

    @contextmanager
    def move(self, table_id: str, a: ActionRecord, owner: str = ""):
        with self.db.transaction():
            cur = self.db.execute(
                "INSERT INTO actions (table_id, seq, hand, seat, action, \"by\", at) "
                "SELECT %s, %s, %s, %s, %s, %s, %s FROM tables "
                "WHERE id=%s AND lease_owner=%s",
                (table_id, a.seq, a.hand, a.seat, a.action, a.by, time.time(), table_id, owner),
            )
            if cur.rowcount != 1:
                raise LeaseLost(table_id)
            yield

    # ------------------------------------------------------------ leases

    def acquire(self, table_id: str, owner: str) -> bool:
        cur = self.db.execute(
            f"UPDATE tables SET lease_owner=%s, lease_until={NOW} + %s "
            f"WHERE id=%s AND (lease_owner IS NULL OR lease_owner=%s OR lease_until < {NOW}) RETURNING id",
            (owner, self.lease_seconds, table_id, owner),
        )
        return cur.fetchone() is not None

    def renew(self, owner: str) -> set:
        cur = self.db.execute(
            f"UPDATE tables SET lease_until={NOW} + %s "
            "WHERE lease_owner=%s AND status IN ('waiting', 'playing') RETURNING id",
            (self.lease_seconds, owner),
        )
        return {r[0] for r in cur.fetchall()}

    def release(self, table_id: str, owner: str) -> None:
        self.db.execute("UPDATE tables SET lease_owner=NULL, lease_until=NULL WHERE id=%s AND lease_owner=%s",
                        (table_id, owner))

    def orphans(self, owner: str) -> list[str]:
        cur = self.db.execute(
            "SELECT id FROM tables WHERE status IN ('waiting', 'playing') "
            f"AND (lease_owner IS NULL OR lease_until < {NOW}) ORDER BY created LIMIT 200"
        )
        return [r[0] for r in cur.fetchall()]
