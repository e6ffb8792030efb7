"""PostgreSQL as the shared store: two `mjc serve` processes on one
database. Tables created on A are served by A under leases; A is SIGKILLed
mid-hand; once its leases run out B takes every table over (replaying its
log), the player reconnects to B with its last `n` and finishes, and a
bots-only table that nobody watches finishes on B by itself. No numbered
message is lost or repeated: the player's stream equals a fresh one, and
equals the uninterrupted run of the same moves."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
import websockets

from pg_support import postgres_url
from server_harness import Seat, ServerProcess, create_table, first_choice, fresh_stream, join, play, uninterrupted_run

# long enough that a busy CI machine does not lose a live process its lease
LEASE = "3"


@pytest.fixture(scope="module")
def pg():
    return postgres_url()


def test_same_store_api_as_sqlite(pg):
    """The PostgreSQL store writes and reads what the SQLite one does, and fences moves by lease."""
    from server.pgstore import PostgresStore
    from server.store import ActionRecord, LeaseLost, TableRecord

    store = PostgresStore(pg, lease_seconds=5)
    rec = TableRecord("pg-unit", time.time(), "kunming", "x" * 64, 4, {"a": 1}, ["human"] * 4, {"hands": 1}, "s" * 64,
                      "waiting", "o" * 64)
    store.create_table(rec)
    assert store.table("pg-unit") == rec
    store.add_seat("pg-unit", 0, "t" * 64, "alice")
    assert store.seats("pg-unit") == {0: ("t" * 64, "alice")}
    assert store.acquire("pg-unit", "a") and not store.acquire("pg-unit", "b") and store.acquire("pg-unit", "a")
    with store.move("pg-unit", ActionRecord(1, 0, 0, "discard 3s", "player"), "a"):
        pass
    with pytest.raises(LeaseLost):
        with store.move("pg-unit", ActionRecord(2, 0, 0, "pass", "player"), "b"):
            raise AssertionError("a move was applied without the lease")
    with pytest.raises(RuntimeError):
        with store.move("pg-unit", ActionRecord(2, 0, 0, "pass", "player"), "a"):
            raise RuntimeError("the move failed")  # rolled back
    assert [a.action for a in store.actions("pg-unit")] == ["discard 3s"]
    assert store.renew("a") == {"pg-unit"} and store.renew("b") == set()
    store.release("pg-unit", "a")
    assert store.acquire("pg-unit", "b")
    store.set_status("pg-unit", "finished")
    assert "pg-unit" not in [t.id for t in store.unfinished()]
    store.close()


async def connect_when_served(seat: Seat, deadline: float) -> dict:
    """Reconnect, retrying while the table is still leased to the dead process."""
    while True:
        try:
            msg = await seat.connect()
            if msg["type"] == "welcome":
                return msg
        except websockets.ConnectionClosed:
            pass
        assert time.monotonic() < deadline, "the other process never took the table over"
        await asyncio.sleep(0.3)


def test_a_process_dies_mid_hand_and_another_finishes_its_tables(pg, tmp_path):
    a = ServerProcess(pg, extra=("--instance", "a", "--lease-seconds", LEASE), log=tmp_path / "a.log").start()
    b = ServerProcess(pg, extra=("--instance", "b", "--lease-seconds", LEASE), log=tmp_path / "b.log").start()
    try:
        # four hands, killed after three decisions: the server picks the seed, and a
        # bot's quick wins must not end the match before the kill
        t = create_table(a.url, variant="chuxiong_yuxi", bot_delay=0, hand_pause=0, hands=4, turn_seconds=None)
        assert t["id"].startswith("a-")
        seat = join(a.url, t["id"], name="p")
        bots = create_table(a.url, variant="kunming", seats=["bot"] * 4, bot_delay=0.02, hand_pause=0, hands=2)
        # B lists A's tables in its lobby, but does not serve them
        assert t["id"] in [x["id"] for x in httpx.get(f"{b.url}/api/tables").json()["tables"]]
        r = httpx.post(f"{b.url}/api/tables/{t['id']}/join", json={})
        assert r.status_code == 409 and "another server process" in r.json()["error"]

        async def before_kill():
            s = Seat(a.ws_url, t["id"], seat["token"])
            await s.connect()
            answered = []

            def counting(legal):
                answered.append(legal)
                return first_choice(legal)

            await play(s, counting, until=lambda _: len(answered) >= 3, timeout=60)
            return s

        s = asyncio.run(before_kill())
        assert not s.finished
        a.kill()  # mid-hand: its leases now run out

        async def after_kill():
            s.ws, s.view = None, None
            welcome = await connect_when_served(s, time.monotonic() + 20)
            assert welcome["last"] >= len(s.stream)
            await play(s, first_choice, timeout=90)
            await s.close()
            return await fresh_stream(b.ws_url, t["id"], seat["token"], len(s.stream))

        s.url = f"{b.ws_url}/ws/tables/{t['id']}"
        fresh = asyncio.run(after_kill())
        assert [m["n"] for m in s.stream] == list(range(1, len(s.stream) + 1))
        assert s.stream == fresh and s.stream[-1]["type"] == "match_end"
        deadline = time.monotonic() + 30
        while httpx.get(f"{b.url}/api/tables/{bots['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "B did not finish the bots' table"
            time.sleep(0.2)
        done = httpx.get(f"{b.url}/api/tables/{bots['id']}/hands").json()["hands"]
        assert len(done) == 2 and all("seed" in h for h in done)
    finally:
        a.kill()
        b.stop()
        for name in ("a.log", "b.log"):  # shown by pytest when the test fails
            log = tmp_path / name
            print(f"--- {name}", log.read_text(errors="replace")[-4000:] if log.exists() else "(none)", sep="\n")
    # the uninterrupted run of the same moves gives the same stream
    from server.pgstore import PostgresStore

    store = PostgresStore(pg)
    rec = store.table(t["id"])
    logged = [(x.seat, x.action, x.by) for x in store.actions(t["id"])]
    store.close()
    played, ref = uninterrupted_run(t["id"], rec.variant, rec.options, rec.players, rec.match_seed, hands=4)
    assert played == logged
    assert ref.streams[0] == s.stream
