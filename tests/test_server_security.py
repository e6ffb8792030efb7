"""Bad input and cheating: each refused with an error naming the reason,
the table unchanged, the server still serving other tables."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from server_harness import Seat, ServerProcess, create_table, join


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("sec") / "sec.sqlite3").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def tables(server):
    """Table A: two humans and two bots, waiting on a human (no time limit).
    Table B: another, to check it is still served after the abuse."""
    out = {}
    for name in ("a", "b"):
        t = create_table(server.url, variant="yunnan_ka_er_tiao", seats=["human", "human", "bot", "bot"],
                         bot_delay=0, hand_pause=0, turn_seconds=None)
        out[name] = (t, join(server.url, t["id"], seat=0), join(server.url, t["id"], seat=1))
    return out


def state_of(server, table_id):
    return httpx.get(f"{server.url}/api/tables/{table_id}").json()


def run(coro):
    return asyncio.run(coro)


async def settled(seat: Seat) -> dict:
    """Read until the server has sent this seat a view and then stays quiet."""
    while True:
        try:
            await seat.recv(timeout=0.3)
        except asyncio.TimeoutError:
            return seat.view


async def expect_error(seat: Seat, code: str) -> dict:
    while True:
        msg = await seat.recv(timeout=5)
        if msg["type"] == "error":
            assert msg["code"] == code, msg
            assert msg["message"]
            return msg


def test_wrong_token_and_another_tables_token_are_refused(server, tables):
    (ta, _, _), (_, b0, _) = tables["a"], tables["b"]

    async def main():
        for token in ("x" * 32, b0["token"]):  # made up, and a real token of table B
            s = Seat(server.ws_url, ta["id"], token)
            msg = await s.connect()
            assert msg["type"] == "error" and msg["code"] == "unauthorized", msg
            with pytest.raises(websockets.ConnectionClosed) as info:
                await s.recv()
            assert info.value.rcvd.code == 4401
        # no hello at all, an act first
        ws = await websockets.connect(f"{server.ws_url}/ws/tables/{ta['id']}")
        await ws.send(json.dumps({"type": "act", "action": "pass"}))
        assert json.loads(await ws.recv())["code"] == "unauthorized"
        await ws.close()

    run(main())


def test_another_seats_token_cannot_claim_this_seat(server, tables):
    t, a0, a1 = tables["a"]

    async def main():
        s = Seat(server.ws_url, t["id"], a1["token"])
        msg = await s.connect(seat=0)
        assert msg["code"] == "wrong_seat", msg

    run(main())


def test_out_of_turn_illegal_stale_and_malformed_moves_change_nothing(server, tables):
    t, a0, a1 = tables["a"]

    async def main():
        s0 = Seat(server.ws_url, t["id"], a0["token"])
        s1 = Seat(server.ws_url, t["id"], a1["token"])
        await s0.connect()
        await s1.connect()
        await settled(s0)
        await settled(s1)
        asked, idle = (s0, s1) if s0.view["ask"] is not None else (s1, s0)
        assert asked.view["ask"] is not None, "one human must be asked (the bots play at once)"
        before = state_of(server, t["id"])
        view_before = asked.view["view"]

        await idle.send({"type": "act", "action": "discard 1s", "id": 7})
        # (in the rare claim window open to both humans, a discard is out of place rather than out of turn)
        err = await expect_error(idle, "not_your_turn" if idle.view["ask"] is None else "illegal")
        assert err["id"] == 7
        held = set(asked.view["view"]["hand"])
        missing = next(f"{r}{s}" for s in "ps" for r in range(1, 10) if f"{r}{s}" not in held)
        await asked.send({"type": "act", "action": f"discard {missing}"})
        err = await expect_error(asked, "illegal")
        assert missing in err["message"]
        await asked.send({"type": "act", "action": "pass", "ask": asked.view["ask"] + 99})
        await expect_error(asked, "stale")
        for bad, code in [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('{"type": "teleport"}', "bad_message"),
            ('{"type": "act", "action": "discard 3s", "seat": 2}', "bad_message"),
            ('{"type": "act", "action": {"verb": "discard", "tile": "0m"}}', "bad_message"),
            ('{"type": "act", "action": "fly 3s"}', "bad_message"),
            ('{"type": "hello", "token": "' + a0["token"] + '"}', "bad_message"),
            (b"\x00\x01binary", "bad_message"),
            (json.dumps({"type": "ping", "id": "x" * 5000}), "too_large"),
        ]:
            await asked.send(bad)
            await expect_error(asked, code)
        after = state_of(server, t["id"])
        assert after["view"] == before["view"] and after["scores"] == before["scores"]
        await settled(asked)
        assert asked.view["view"] == view_before
        await asked.send({"type": "ping", "id": 1})
        while (await asked.recv())["type"] != "pong":
            pass
        await s0.close()
        await s1.close()

    run(main())


def test_huge_frame_closes_only_that_socket(server, tables):
    t, a0, _ = tables["a"]

    async def main():
        s = Seat(server.ws_url, t["id"], a0["token"])
        await s.connect()
        await s.send("x" * 200_000)
        with pytest.raises(websockets.ConnectionClosed) as info:
            while True:
                await s.recv()
        assert info.value.rcvd is None or info.value.rcvd.code == 1009

    run(main())
    assert httpx.get(server.url + "/healthz").json()["ok"]


def test_flood_is_rate_limited_then_closed_and_other_tables_still_play(server, tables):
    t, a0, _ = tables["a"]
    tb, b0, b1 = tables["b"]
    before = state_of(server, t["id"])

    async def main():
        s = Seat(server.ws_url, t["id"], a0["token"])
        await s.connect()
        for i in range(400):
            try:
                await s.send({"type": "act", "action": "discard 9s", "ask": 10**6, "id": i})
            except websockets.ConnectionClosed:
                break
        codes = []
        try:
            while True:
                msg = await s.recv(timeout=5)
                if msg["type"] == "error":
                    codes.append(msg["code"])
        except websockets.ConnectionClosed as exc:
            assert exc.rcvd.code == 1008
        assert "rate_limited" in codes

        # table B plays on: its humans connect and a move goes through
        s0 = Seat(server.ws_url, tb["id"], b0["token"])
        s1 = Seat(server.ws_url, tb["id"], b1["token"])
        await s0.connect()
        await s1.connect()
        await settled(s0)
        await settled(s1)
        asked = s0 if s0.view["ask"] is not None else s1
        ask = asked.view["ask"]
        await asked.act(asked.view["view"]["legal_actions"][0])
        while True:
            msg = await asked.recv()
            if msg["type"] == "accepted":
                assert msg["ask"] == ask
                break
            assert msg["type"] != "error", msg

    run(main())
    after = state_of(server, t["id"])
    assert after["view"] == before["view"]


def test_http_requests_are_checked(server, tables):
    t, _, _ = tables["a"]
    cases = [
        ({"variant": "nope"}, 400, "unknown variant"),
        ({"variant": "yunnan_ka_er_tiao", "options": {"qiang_gang": "maybe"}}, 400, "qiang_gang"),
        ({"variant": "yunnan_ka_er_tiao", "players": 5}, 400, "players"),
        ({"variant": "yunnan_ka_er_tiao", "extra": 1}, 400, "extra"),
        ({"variant": "yunnan_ka_er_tiao", "seats": ["human", "bot"]}, 400, "seats"),
    ]
    for body, status, word in cases:
        r = httpx.post(server.url + "/api/tables", json=body)
        assert r.status_code == status and word in r.json()["error"], (body, r.text)
    r = httpx.post(server.url + "/api/tables", content=b"{bad", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = httpx.post(server.url + "/api/tables", content=b"x" * 20000, headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = httpx.post(f"{server.url}/api/tables/{t['id']}/join", json={"seat": 0})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    r = httpx.post(f"{server.url}/api/tables/{t['id']}/join", json={"seat": 2})
    assert r.status_code == 409 and "bot" in r.json()["error"]
    assert httpx.get(server.url + "/api/tables/nope").status_code == 404
    public = httpx.get(f"{server.url}/api/tables/{t['id']}").json()
    text = json.dumps(public)
    assert "token" not in text and "match_seed" not in text
    assert "hand" not in public["view"] and "drawn" not in public["view"]
    for s in public["view"]["seats"]:
        assert "hand" not in s
    assert "legal_actions" not in public["view"]
