"""Playing together over real sockets: the lobby listing, names, ready,
leaving before and during a match, coming back with the same token,
someone else taking a left seat, the creator seating bots, spectators,
emotes."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from server_harness import Seat, ServerProcess, create_table, first_choice, join, play


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("together") / "together.sqlite3").start()
    yield srv
    srv.stop()


async def until(seat: Seat, check, timeout: float = 10):
    while not check(seat):
        await seat.recv(timeout=timeout)


def last_status(seat: Seat) -> dict | None:
    return next((m for m in reversed(seat.other) if m["type"] == "status"), None)


def test_ready_leave_before_the_match_and_bots_from_the_creator(server):
    t = create_table(server.url, variant="kunming", seats=["human"] * 4, ready_check=True, bot_delay=0, hand_pause=0,
                     hands=1, turn_seconds=None)
    a = join(server.url, t["id"], name="Alice")
    b = join(server.url, t["id"], name="Bob")
    listed = next(x for x in httpx.get(server.url + "/api/tables").json()["tables"] if x["id"] == t["id"])
    assert listed["free_seats"] == [2, 3] and [s["name"] for s in listed["seats"][:2]] == ["Alice", "Bob"]
    assert listed["variant"] == "kunming" and listed["options"] == t["options"]

    async def main():
        sa, sb = Seat(server.ws_url, t["id"], a["token"]), Seat(server.ws_url, t["id"], b["token"])
        await sa.connect()
        await sb.connect()
        await sb.send({"type": "leave", "id": 1})  # Bob leaves before the match: his seat is free again
        await until(sa, lambda s: (last_status(s) or {}).get("free_seats") == [1, 2, 3])
        r = httpx.post(f"{server.url}/api/tables/{t['id']}/bots", json={"token": a["token"]})
        assert r.status_code == 403  # a seat token is not the creator's
        r = httpx.post(f"{server.url}/api/tables/{t['id']}/bots", json={"token": t["owner_token"]})
        assert r.status_code == 200 and r.json()["bots"] == [1, 2, 3] and r.json()["status"] == "waiting"
        await sa.send({"type": "ready", "ready": True})
        await until(sa, lambda s: any(m["type"] == "hand_start" for m in s.stream))
        await sa.close()

    asyncio.run(main())
    gone = Seat(server.ws_url, t["id"], b["token"])

    async def bob_back():
        msg = await gone.connect()
        assert msg["code"] == "unauthorized"

    asyncio.run(bob_back())


def test_leave_during_the_match_come_back_or_be_replaced_spectators_and_emotes(server):
    t = create_table(server.url, variant="yunnan_ka_er_tiao", seats=["human", "human", "bot", "bot"], bot_delay=0,
                     hand_pause=0, hands=1, turn_seconds=None)
    a = join(server.url, t["id"], name="Alice")
    b = join(server.url, t["id"], name="Bob")

    async def main():
        sa, sb = Seat(server.ws_url, t["id"], a["token"]), Seat(server.ws_url, t["id"], b["token"])
        await sa.connect()
        await sb.connect()
        watcher = await websockets.connect(f"{server.ws_url}/ws/tables/{t['id']}")
        await watcher.send(json.dumps({"type": "hello", "spectate": True}))
        welcome = json.loads(await watcher.recv())
        assert welcome["type"] == "welcome" and welcome["seat"] is None
        await sa.send({"type": "emote", "emote": "thumbs_up"})
        await until(sb, lambda s: any(m["type"] == "emote" and m["seat"] == 0 for m in s.other))
        # Bob leaves mid-match: 托管 plays his seat and it is listed as free
        await sb.send({"type": "leave"})
        await until(sa, lambda s: (last_status(s) or {"seats": [{}, {}]})["seats"][1].get("left"))
        state = httpx.get(f"{server.url}/api/tables/{t['id']}").json()
        assert state["free_seats"] == [1] and state["seats"][1]["auto"]
        # ... and comes back with the same token
        back = Seat(server.ws_url, t["id"], b["token"])
        assert (await back.connect())["type"] == "welcome"
        await until(sa, lambda s: not last_status(s)["seats"][1]["left"])
        await back.send({"type": "leave"})
        await until(sa, lambda s: last_status(s)["seats"][1]["left"])
        # Carol takes the seat Bob left: Bob's token no longer works
        c = join(server.url, t["id"], name="Carol")
        assert c["seat"] == 1
        old = Seat(server.ws_url, t["id"], b["token"])
        assert (await old.connect())["code"] == "unauthorized"
        sc = Seat(server.ws_url, t["id"], c["token"])
        await sc.connect()

        async def carol():
            await play(sc, first_choice)

        task = asyncio.create_task(carol())
        await play(sa, first_choice)
        await task
        # the spectator got the stream up to the end, with no one's concealed tiles
        seen = []
        while True:
            msg = json.loads(await asyncio.wait_for(watcher.recv(), 10))
            seen.append(msg)
            if msg["type"] == "match_end":
                break
        deal = next(m for m in seen if m["type"] == "event" and m["event"]["type"] == "deal")
        assert deal["event"]["hand"] == []
        assert all("tile" not in m["event"] for m in seen if m["type"] == "event" and m["event"]["type"] == "draw")
        views = [m for m in seen if m["type"] == "view"]
        assert views and all("hand" not in m["view"] and "legal_actions" not in m["view"] for m in views if m["view"])
        await watcher.send(json.dumps({"type": "act", "action": "pass", "id": 5}))
        refused = json.loads(await watcher.recv())
        while refused["type"] != "error":
            refused = json.loads(await watcher.recv())
        assert refused["code"] == "wrong_seat" and refused["id"] == 5
        await watcher.close()
        for s in (sa, sc):
            await s.close()

    asyncio.run(main())
