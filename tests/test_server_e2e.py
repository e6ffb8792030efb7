"""End to end over real sockets on 127.0.0.1: create a table, join, play
whole hands against bots, reconnect mid-hand."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from server_harness import Seat, ServerProcess, create_table, first_choice, fresh_stream, join, play
from test_server_hidden import check_stream_for_seat


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("e2e") / "e2e.sqlite3").start()
    yield srv
    srv.stop()


def test_http_catalog_schema_and_openapi(server):
    variants = httpx.get(server.url + "/api/variants").json()["variants"]
    from runtime.registry import names

    assert [v["name"] for v in variants] == names()
    for v in variants:
        assert v["options"] and all({"id", "name", "type", "default"} <= set(o) for o in v["options"])
    schema = httpx.get(server.url + "/api/protocol.schema.json").json()
    assert {"client_message", "server_message", "create_table", "join"} <= set(schema["$defs"])
    doc = httpx.get(server.url + "/api/openapi.json").json()
    assert doc["openapi"].startswith("3.") and "/api/tables" in doc["paths"]
    page = httpx.get(server.url + "/")
    assert page.status_code == 200 and "麻将" in page.text


@pytest.mark.parametrize("variant", ["yunnan_ka_er_tiao", "chaozhou"])
def test_play_whole_match_against_bots(server, variant):
    t = create_table(server.url, variant=variant, bot_delay=0, hand_pause=0, hands=2, turn_seconds=None)
    assert t["status"] == "waiting"
    seat = join(server.url, t["id"], name="alice")
    assert seat["seat"] == 0 and len(seat["token"]) >= 24

    async def main():
        s = Seat(server.ws_url, t["id"], seat["token"])
        welcome = await s.connect()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        await play(s, first_choice)
        await s.close()
        return s

    s = asyncio.run(main())
    kinds = [m["type"] for m in s.stream]
    assert kinds.count("hand_start") == 2 and kinds.count("hand_end") == 2 and kinds[-1] == "match_end"
    assert [m["n"] for m in s.stream] == list(range(1, len(s.stream) + 1))
    assert not s.errors, s.errors
    check_stream_for_seat(s.stream, 0)
    ends = [m for m in s.stream if m["type"] == "hand_end"]
    assert ends[-1]["scores"] == s.stream[-1]["scores"]
    state = httpx.get(f"{server.url}/api/tables/{t['id']}").json()
    assert state["status"] == "finished" and state["scores"] == s.stream[-1]["scores"]
    proofs = httpx.get(f"{server.url}/api/tables/{t['id']}/hands").json()["hands"]
    assert len(proofs) == 2 and all("seed" in p for p in proofs)


def test_reconnect_mid_hand_gets_exactly_the_missed_messages(server):
    """Seat 0 drops while seat 1 and the bots play on; back with last_seen,
    it gets each missed message once, and its stream equals a fresh one."""
    t = create_table(server.url, variant="yunnan_ka_er_tiao", seats=["human", "human", "bot", "bot"],
                     bot_delay=0, hand_pause=0, hands=2, turn_seconds=None)
    a = join(server.url, t["id"], seat=0)
    b = join(server.url, t["id"], seat=1)

    async def main():
        s0 = Seat(server.ws_url, t["id"], a["token"])
        s1 = Seat(server.ws_url, t["id"], b["token"])
        await s0.connect()
        await s1.connect()
        moves = 0

        async def seat1_loop():
            while not s1.finished:
                legal = s1.pending()
                if legal:
                    await s1.act(first_choice(legal))
                try:
                    await s1.recv(timeout=0.5)
                except asyncio.TimeoutError:
                    pass

        task = asyncio.create_task(seat1_loop())
        # seat 0 plays twice, and drops right after sending its second move:
        # the events of that move and all that follow are what it misses
        while True:
            assert not s0.finished, "the match ended before seat 0 made two moves"
            legal = s0.pending()
            if legal:
                await s0.act(first_choice(legal))
                moves += 1
                if moves == 2:
                    break
            await s0.recv()
        seen = len(s0.stream)
        await s0.close()  # gone mid-hand; seat 1 and the bots go on till seat 0 is asked
        await asyncio.sleep(0.5)
        s0.view = None
        welcome = await s0.connect(last_seen=seen)
        assert welcome["type"] == "welcome" and welcome["last"] >= seen
        await play(s0, first_choice)
        await task
        fresh = await fresh_stream(server.ws_url, t["id"], a["token"], len(s0.stream))
        await s0.close()
        await s1.close()
        return s0, fresh, seen

    s0, fresh, seen = asyncio.run(main())
    assert [m["n"] for m in s0.stream] == list(range(1, len(s0.stream) + 1))
    assert s0.stream == fresh
    assert s0.stream[-1]["type"] == "match_end" and seen < len(s0.stream)


def test_timeout_hands_the_seat_to_tuoguan_until_resume(server):
    t = create_table(server.url, variant="kunming", bot_delay=0, hand_pause=0, hands=1, turn_seconds=0.2)
    a = join(server.url, t["id"])

    async def main():
        s = Seat(server.ws_url, t["id"], a["token"])
        await s.connect()
        # never act: 托管 plays every decision, so the match still ends
        resumed = False
        while not s.finished:
            msg = await s.recv()
            if msg["type"] == "status" and msg["seats"][0]["auto"] and not resumed:
                await s.send({"type": "resume", "id": "back"})  # take the seat back once
                resumed = True
                while True:
                    m = await s.recv()
                    if m["type"] == "status" and not m["seats"][0]["auto"]:
                        break
        autos = [m for m in s.stream if m.get("by") == "auto" and m["event"].get("seat") == 0]
        statuses = [m for m in s.other if m["type"] == "status"]
        await s.close()
        return autos, statuses

    autos, statuses = asyncio.run(main())
    assert autos, "托管 made no move"
    assert any(st["seats"][0]["auto"] for st in statuses)
