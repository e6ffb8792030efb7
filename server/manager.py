"""Every table of one server process: create, find, restore at start-up.

A table that cannot be restored (its variant is gone, was recompiled from
another source, or its log no longer replays) is refused with a message
saying why, and the server goes on serving the others.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

from runtime.registry import UnknownVariant, load
from runtime.ruleset import OptionError

from .fairness import new_match_seed
from .store import Store, TableRecord
from .tables import FINISHED, PLAYING, WAITING, Config, Limits, LiveTable
from .tablestate import ReplayError, TableState, replay

log = logging.getLogger("mjc.server")


class TableError(ValueError):
    """A request about tables that cannot be met; `status` is the HTTP code."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Manager:
    def __init__(self, store: Store, limits: Limits | None = None, instance: str = ""):
        self.store = store
        self.limits = limits or Limits()
        self.instance = instance  # a prefix of table ids, for routing by id
        self.tables: dict[str, LiveTable] = {}
        self.refused: dict[str, str] = {}  # table id -> why it was not restored
        self.finished_ttl = 600.0  # seconds a finished table stays in memory for late reconnections

    # ------------------------------------------------------------ lookups

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.refused:
            raise TableError(self.refused[table_id], 410)
        rec = self.store.table(table_id) if len(table_id) <= 64 else None
        if rec is not None and rec.status == FINISHED:
            raise TableError(f"table {table_id} has finished", 410)
        raise TableError(f"no table {table_id!r}", 404)

    def listing(self) -> list[dict]:
        return [
            {"id": t.id, "variant": t.rec.variant, "status": t.status, "players": t.state.n,
             "free_seats": t.free_seats()}
            for t in self.tables.values() if t.status != FINISHED
        ]

    # ------------------------------------------------------------ creating

    def create(self, req: dict) -> LiveTable:
        """A new table from a checked create_table request."""
        if len([t for t in self.tables.values() if t.status != FINISHED]) >= self.limits.max_tables:
            raise TableError("this server is full; try again later", 503)
        try:
            rs = load(req["variant"])
            table = rs.configure(req.get("options") or {}, req.get("players"))
        except (UnknownVariant, OptionError) as exc:
            raise TableError(str(exc)) from None
        seats = req.get("seats") or ["human"] + ["bot"] * (table.players - 1)
        if len(seats) != table.players:
            raise TableError(f"seats lists {len(seats)} seats for a {table.players}-player table")
        config = Config(
            bot=req.get("bot", "greedy"),
            turn_seconds=req.get("turn_seconds", 30.0),
            bot_delay=req.get("bot_delay", 0.6),
            hand_pause=req.get("hand_pause", 3.0),
            hands=req.get("hands"),
        )
        rec = TableRecord(
            id=self._new_id(), created=time.time(), variant=rs.name, variant_sha256=rs.source_sha256,
            players=table.players, options=dict(table.option_values), seats=list(seats),
            config=config.to_json(), match_seed=new_match_seed(), status=WAITING,
        )
        self.store.create_table(rec)
        live = LiveTable(rec, TableState(table, rec.match_seed, hands=config.hands), self.store, {})
        self._add(live)
        live.maybe_start()  # a table of bots only starts at once
        return live

    def _add(self, live: LiveTable) -> None:
        self.tables[live.id] = live
        live.on_finished = self._finished
        live.start()

    def _finished(self, live: LiveTable) -> None:
        """Keep a finished table a while (players read the result, late
        sockets get the end of their stream), then free its memory; its log
        stays in the database."""

        def forget():
            if self.tables.get(live.id) is live:
                del self.tables[live.id]
                asyncio.ensure_future(live.stop())

        asyncio.get_running_loop().call_later(self.finished_ttl, forget)

    def _new_id(self) -> str:
        while True:
            tid = (f"{self.instance}-" if self.instance else "") + secrets.token_hex(5)
            if tid not in self.tables and self.store.table(tid) is None:
                return tid

    # ------------------------------------------------------------ restoring

    def restore_all(self) -> None:
        for rec in self.store.unfinished():
            try:
                live = self._restore(rec)
            except (ReplayError, TableError) as exc:
                self.refused[rec.id] = str(exc)
                log.error("table %s not restored: %s", rec.id, exc)
                continue
            if live.status == FINISHED:
                continue  # its last move was written just before the process died
            self._add(live)
            log.info("table %s restored: %s, hand %d, step %d", rec.id, rec.variant, live.state.hand + 1, live.state.step)

    def _restore(self, rec: TableRecord) -> LiveTable:
        try:
            rs = load(rec.variant)
        except UnknownVariant:
            raise TableError(f"table {rec.id} was played under variant {rec.variant!r}, which this server no longer has", 410) from None
        if rs.source_sha256 != rec.variant_sha256:
            raise TableError(
                f"table {rec.id} was played under {rec.variant} compiled from source sha256 {rec.variant_sha256[:16]}…; "
                f"this server has {rs.source_sha256[:16]}…, so its log cannot be replayed under the rules it was played with",
                410,
            )
        try:
            table = rs.configure(rec.options, rec.players)
        except OptionError as exc:
            raise TableError(f"table {rec.id}: {exc}", 410) from None
        config = Config.from_json(rec.config)
        state = TableState(table, rec.match_seed, hands=config.hands)
        replay(state, self.store.actions(rec.id), started=rec.status == PLAYING)
        live = LiveTable(rec, state, self.store, self.store.seats(rec.id))
        if state.over and live.status != FINISHED:
            live.status = FINISHED
            self.store.set_status(rec.id, FINISHED)
        return live

    async def stop(self) -> None:
        for t in list(self.tables.values()):
            await t.stop()
