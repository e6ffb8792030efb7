"""Every table of one server process: create, find, restore, take over.

A table that cannot be restored (its variant is gone, was recompiled from
another source, or its log no longer replays) is refused with a message
saying why, and the server goes on serving the others. Finished and
abandoned tables are rebuilt from their log when someone asks for them
(their streams, results and proofs stay readable after any restart).

With a shared PostgreSQL store a table is served by one process at a time:
this process holds a lease on each table it serves, renews them all every
third of the lease time, and takes over any open table whose lease ran out
(its process died), replaying its log; a table whose lease it could not
renew is dropped and its clients sent away (close 4409) to reconnect.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

from runtime.registry import UnknownVariant, load
from runtime.ruleset import OptionError

from .catalog import option_bounds
from .fairness import new_match_seed
from .store import ABANDONED, FINISHED, OPEN, PLAYING, WAITING, Store, TableRecord
from .tables import Config, Limits, LiveTable, new_token
from .tablestate import ReplayError, TableState, replay

log = logging.getLogger("mjc.server")
LISTED = ("id", "variant", "title", "unit", "players", "options", "config", "status", "hand", "hands", "rounds", "seats",
          "free_seats", "spectators", "created")


class TableError(ValueError):
    """A request about tables that cannot be met; `status` is the HTTP code."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Manager:
    def __init__(self, store: Store, limits: Limits | None = None, instance: str = ""):
        self.store = store
        self.limits = limits or Limits()
        self.instance = instance  # a prefix of table ids, and the name leases are held under
        self.owner = instance or secrets.token_hex(4)
        self.tables: dict[str, LiveTable] = {}
        self.refused: dict[str, str] = {}  # table id -> why it was not restored
        self.finished_ttl = 600.0  # seconds a finished table stays in memory for late readers
        self._lease_task: asyncio.Task | None = None

    # ------------------------------------------------------------ lookups

    async def serve(self, table_id: str) -> LiveTable:
        """The table, from memory, or rebuilt from the store: a finished one
        to read, an open one whose lease this process can take."""
        table = self.tables.get(table_id)
        if table is not None and table.status != "moved":
            return table
        if table_id in self.refused:
            raise TableError(self.refused[table_id], 410)
        rec = self.store.table(table_id) if len(table_id) <= 64 else None
        if rec is None:
            raise TableError(f"no table {table_id!r}", 404)
        if rec.status in OPEN:
            if not self.store.acquire(rec.id, self.owner):
                raise TableError(f"table {table_id} is served by another server process; retry there", 409)
            live = self._restore_open(rec)
            if live is None:
                raise TableError(self.refused[table_id], 410)
            return live
        try:
            live = self._restore(rec)
        except (ReplayError, TableError) as exc:
            self.refused[rec.id] = str(exc)
            raise TableError(str(exc), 410) from None
        self.tables[live.id] = live
        self._forget_later(live)
        return live

    def listing(self) -> list[dict]:
        """Open tables, waiting ones first, newest first: this process's, and
        with a shared store those the other processes serve too."""
        out = [t.info() for t in self.tables.values() if t.status in OPEN]
        if self.store.shared:
            out += [i for i in map(self._listed, self.store.unfinished()[-500:]) if i and i["id"] not in self.tables]
        out.sort(key=lambda i: (i["status"] != WAITING, -i["created"]))
        return [{k: i[k] for k in LISTED} for i in out]

    def _listed(self, rec: TableRecord) -> dict | None:
        """A table another process serves, as the store knows it (no game state)."""
        try:
            rs = load(rec.variant)
            table = rs.configure(rec.options, rec.players)
            hands = rec.config.get("hands") or table.hands
            rounds = 0 if rec.config.get("hands") else table.wind_rounds
        except (UnknownVariant, OptionError):
            return None
        seats = self.store.seats(rec.id)
        rows = [{"seat": s, "kind": kind, "name": seats.get(s, ("", "bot" if kind == "bot" else ""))[1],
                 "joined": kind == "bot" or s in seats, "connected": False, "auto": False, "left": False,
                 "ready": kind == "bot"} for s, kind in enumerate(rec.seats)]
        return {"id": rec.id, "variant": rs.name, "title": {"zh": rs.title.zh, "en": rs.title.en},
                "unit": {"zh": rs.scoring.unit_name.zh, "en": rs.scoring.unit_name.en}, "players": rec.players,
                "options": rec.options, "config": rec.config, "status": rec.status, "hand": -1, "hands": hands, "rounds": rounds,
                "seats": rows, "spectators": 0, "created": rec.created,
                "free_seats": [r["seat"] for r in rows if r["kind"] == "human" and not r["joined"]]}

    # ------------------------------------------------------------ creating

    def create(self, req: dict) -> tuple[LiveTable, str]:
        """A new table from a checked create_table request; returns it and the creator's token."""
        if len([t for t in self.tables.values() if t.status in OPEN]) >= self.limits.max_tables:
            raise TableError("this server is full; try again later", 503)
        try:
            rs = load(req["variant"])
            options = req.get("options") or {}
            for key, value in options.items():
                low, high = option_bounds(rs, key, self.limits.max_hands)
                if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
                    raise OptionError(f"option {key} must be between {low} and {high}, not {value}")
            table = rs.configure(options, req.get("players"))
        except (UnknownVariant, OptionError) as exc:
            raise TableError(str(exc)) from None
        hands = req.get("hands") or table.hands
        if hands > self.limits.max_hands:
            raise TableError(f"a match of {hands} hands; this server plays at most {self.limits.max_hands}")
        seats = req.get("seats") or ["human"] + ["bot"] * (table.players - 1)
        if len(seats) != table.players:
            raise TableError(f"seats lists {len(seats)} seats for a {table.players}-player table")
        config = Config(
            bot=req.get("bot", "greedy"),
            turn_seconds=req.get("turn_seconds", 30.0),
            bot_delay=req.get("bot_delay", 0.6),
            hand_pause=req.get("hand_pause", 3.0),
            hands=req.get("hands"),
            ready_check=req.get("ready_check", False),
        )
        owner_token, owner_sha256 = new_token()
        rec = TableRecord(
            id=self._new_id(), created=time.time(), variant=rs.name, variant_sha256=rs.source_sha256,
            players=table.players, options=dict(table.option_values), seats=list(seats),
            config=config.to_json(), match_seed=new_match_seed(), status=WAITING, owner_sha256=owner_sha256,
        )
        self.store.create_table(rec)
        self.store.acquire(rec.id, self.owner)
        live = LiveTable(rec, TableState(table, rec.match_seed, hands=config.hands), self.store, {}, self.owner)
        self._add(live)
        live.maybe_start()  # a table of bots only starts at once
        return live, owner_token

    def _add(self, live: LiveTable) -> None:
        self.tables[live.id] = live
        live.on_finished = self._forget_later
        live.on_lost = self._lost
        live.start()

    def _forget_later(self, live: LiveTable) -> None:
        """Keep a finished table a while (players read the result, late
        sockets get the end of their stream), then free its memory; its log
        stays in the store, and it is rebuilt if asked for again."""

        def forget():
            if self.tables.get(live.id) is live:
                del self.tables[live.id]
                asyncio.ensure_future(live.stop())

        self.store.release(live.id, self.owner)
        asyncio.get_running_loop().call_later(self.finished_ttl, forget)

    def _lost(self, live: LiveTable) -> None:
        if self.tables.get(live.id) is live:
            del self.tables[live.id]
        asyncio.ensure_future(live.stop(4409, "moved"))

    def _new_id(self) -> str:
        while True:
            tid = (f"{self.instance}-" if self.instance else "") + secrets.token_hex(5)
            if tid not in self.tables and self.store.table(tid) is None:
                return tid

    def abandon(self, live: LiveTable) -> None:
        live.abandon()
        self._forget_later(live)

    # ------------------------------------------------------------ restoring

    def restore_all(self) -> None:
        """At start-up: every open table this process may serve (with a
        shared store: those whose lease is free, expired, or already its own)."""
        for rec in self.store.unfinished():
            if self.store.acquire(rec.id, self.owner):
                self._restore_open(rec)

    def _restore_open(self, rec: TableRecord) -> LiveTable | None:
        try:
            live = self._restore(rec)
        except (ReplayError, TableError) as exc:
            self.refused[rec.id] = str(exc)
            self.store.release(rec.id, self.owner)
            log.error("table %s not restored: %s", rec.id, exc)
            return None
        self._add(live)
        if live.status == FINISHED:
            self._forget_later(live)  # its last move was written just before the process died
        log.info("table %s restored: %s, hand %d", rec.id, rec.variant, live.state.hand + 1)
        return live

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
        state.present.live = False  # nothing is shown while the log replays
        replay(state, self.store.actions(rec.id), started=rec.status != WAITING)
        state.present.tracked = set()  # no socket yet: views are worked out when one opens
        state.present.resume(state.game, set(state.asked))
        live = LiveTable(rec, state, self.store, self.store.seats(rec.id), self.owner)
        if state.over and live.status != FINISHED:
            live.status = FINISHED
            if rec.status in OPEN:
                self.store.set_status(rec.id, FINISHED)
        if live.status == PLAYING:
            for slot in live.slots:
                slot.ready = True
        return live

    # ------------------------------------------------------------ leases

    def start_leases(self) -> None:
        if self.store.shared and self._lease_task is None:
            self._lease_task = asyncio.get_running_loop().create_task(self._leases(), name="leases")

    async def _leases(self) -> None:
        every = self.limits.lease_seconds / 3
        while True:
            await asyncio.sleep(every)
            try:
                self.tick_leases()
            except Exception:
                log.exception("renewing leases failed")

    def tick_leases(self) -> None:
        """Renew this process's leases, drop tables it lost, take over orphans."""
        held = {t.id for t in self.tables.values() if t.status in OPEN}
        renewed = self.store.renew(self.owner)
        for tid in held - renewed:
            table = self.tables.get(tid)
            if table is not None and table.status in OPEN:
                table.lost()
        for tid in self.store.orphans(self.owner):
            if tid in self.tables or tid in self.refused:
                continue
            rec = self.store.table(tid)
            if rec is not None and rec.status in OPEN and self.store.acquire(tid, self.owner):
                log.info("taking over table %s (its lease ran out)", tid)
                self._restore_open(rec)

    async def stop(self) -> None:
        if self._lease_task is not None:
            self._lease_task.cancel()
        for t in list(self.tables.values()):
            await t.stop()
            if t.status in OPEN:
                self.store.release(t.id, self.owner)


__all__ = ["Manager", "TableError", "ABANDONED"]
