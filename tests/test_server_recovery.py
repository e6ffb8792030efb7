"""Crash recovery: the server is SIGKILLed mid-hand; a new process on the
same database restores the table by replaying its log, the client
reconnects with its last `n`, and the match ends exactly as an
uninterrupted run of the same moves does."""

from __future__ import annotations

import asyncio
import sqlite3

import httpx

from server_harness import Seat, ServerProcess, create_table, first_choice, fresh_stream, join, play, uninterrupted_run


def test_sigkill_mid_hand_then_restore_and_finish_identically(tmp_path):
    db = tmp_path / "crash.sqlite3"
    srv = ServerProcess(db).start()
    try:
        t = create_table(srv.url, variant="chuxiong_yuxi", bot_delay=0, hand_pause=0, hands=3, turn_seconds=None)
        a = join(srv.url, t["id"], name="crash")

        async def before_kill():
            s = Seat(srv.ws_url, t["id"], a["token"])
            await s.connect()
            moves = 0

            def enough(seat):
                return moves >= 4 and any(m["type"] == "hand_start" for m in seat.stream)

            while not enough(s):
                assert not s.finished, "the match ended before the kill"
                legal = s.pending()
                if legal:
                    await s.act(first_choice(legal))
                    moves += 1
                try:
                    await s.recv()
                except asyncio.TimeoutError:
                    raise AssertionError(f"stalled: view {s.view}, errors {s.errors}, stream tail {s.stream[-3:]}") from None
            # drain what the server already sent; it now waits on this seat
            try:
                while True:
                    await s.recv(timeout=0.5)
            except asyncio.TimeoutError:
                pass
            return s

        s = asyncio.run(before_kill())
        assert not s.finished
        view_before = s.view["view"]
        srv.kill()
    finally:
        srv.kill()

    srv2 = ServerProcess(db, port=srv.port).start()
    try:
        state = httpx.get(f"{srv2.url}/api/tables/{t['id']}").json()
        assert state["status"] == "playing"

        async def after_restart():
            s.ws, s.view = None, None
            welcome = await s.connect()  # last_seen = what it has
            assert welcome["type"] == "welcome" and welcome["last"] == len(s.stream)
            while s.view is None or s.view["view"] != view_before:
                await s.recv()  # the same view as before the kill
            await play(s, first_choice)
            await s.close()
            return await fresh_stream(srv2.ws_url, t["id"], a["token"], len(s.stream))

        fresh = asyncio.run(after_restart())
    finally:
        srv2.stop()

    assert [m["n"] for m in s.stream] == list(range(1, len(s.stream) + 1))
    assert s.stream == fresh, "the stream after the restart differs from the one a fresh client gets"

    # the uninterrupted run: same seed, same player, bots as the server seeds them
    with sqlite3.connect(db) as conn:
        seed, variant = conn.execute("SELECT match_seed, variant FROM tables WHERE id=?", (t["id"],)).fetchone()
        logged = conn.execute("SELECT seat, action, by FROM actions WHERE table_id=? ORDER BY seq", (t["id"],)).fetchall()
    played, ref = uninterrupted_run(t["id"], variant, t["options"], t["players"], seed, hands=3)
    assert played == [tuple(r) for r in logged]
    assert ref.streams[0] == s.stream
    assert s.stream[-1]["scores"] == list(ref.match.scores)


def test_a_log_whose_variant_changed_is_refused_and_the_others_restored(tmp_path):
    from server.manager import Manager, TableError
    from server.store import SqliteStore as Store

    db = str(tmp_path / "refuse.sqlite3")

    async def create():
        m = Manager(Store(db))
        ids = [m.create({"variant": "kunming", "seats": ["human"] * 4})[0].id for _ in range(2)]
        for t in m.tables.values():
            for _ in range(4):
                t.join(None, "p")
        await m.stop()
        m.store.close()
        return ids

    keep, stale = asyncio.run(create())
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tables SET variant_sha256='0000' WHERE id=?", (stale,))

    async def restore():
        m = Manager(Store(db))
        m.restore_all()
        try:
            assert keep in m.tables and m.tables[keep].state.in_hand
            try:
                await m.serve(stale)
            except TableError as exc:
                assert exc.status == 410 and "cannot be replayed" in str(exc) and "kunming" in str(exc)
            else:
                raise AssertionError("a table with a changed variant was restored")
        finally:
            await m.stop()
            m.store.close()

    asyncio.run(restore())
