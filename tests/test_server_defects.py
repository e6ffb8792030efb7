"""One test per defect found by the outside client (issue 12), each written
to fail on the server before its fix: chow by its text form and through a
restart, finished tables after a restart, unbounded options, hostile input
(NaN, huge integers, deep nesting, lone surrogates), rate_limited ids,
non-JSON bodies, dangling $ref in the OpenAPI document."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
import websockets

from runtime.actions import parse_action
from runtime.bots import make_bot
from runtime.game import deal
from runtime.registry import load, names
from server_harness import Seat, ServerProcess, create_table, first_choice, join, play
from test_server_hidden import random_table

CHOW_VARIANTS = [n for n in names() if "chow" in load(n).verbs]


def test_chow_variants_are_known():
    assert {"mcr", "erren_136", "erren_mcr72"} <= set(CHOW_VARIANTS)


@pytest.mark.parametrize("variant", names())
def test_every_legal_action_text_reads_back_as_that_action(variant):
    """The text a view lists (and the log keeps) resolves to the very action."""
    from server.moves import canonical, resolve

    rng = random.Random(f"canonical/{variant}")
    seen = set()
    for k in range(3):
        table = random_table(variant, rng)
        game = deal(table, f"canonical/{k}", 0)
        bots = [make_bot("random", rng.random()) for _ in range(table.players)]
        while not game.over:
            for seat in game.to_act():
                for a in game.legal_actions(seat):
                    assert resolve(game, seat, parse_action(canonical(a))) == a, (canonical(a), a)
                    seen.add(a.verb)
                game.apply(seat, bots[seat].choose(game, seat))
                if game.over:
                    break
    if variant in CHOW_VARIANTS:
        assert "chow" in seen


def chow_first(legal):
    chows = [a for a in legal if a.startswith("chow ")]
    return chows[0] if chows else first_choice(legal)


def test_chow_by_text_then_a_restart_replays_every_chow_variant(tmp_path):
    """Defect 1: `chow 5m6m` as the view lists it is accepted, and a table in
    which anyone chowed is served after a restart (was 410 'does not replay')."""
    db = tmp_path / "chow.sqlite3"
    srv = ServerProcess(db).start()
    tables = {}
    try:
        for v in CHOW_VARIANTS:
            t = create_table(srv.url, variant=v, bot_delay=0, hand_pause=0, hands=6, turn_seconds=None)
            tables[v] = (t, join(srv.url, t["id"], name=v))

        async def until_chow(v):
            t, a = tables[v]
            s = Seat(srv.ws_url, t["id"], a["token"])
            await s.connect()

            def chowed(seat):
                return any(m["type"] == "event" and m["event"]["type"] == "chow" and m["event"]["seat"] == 0
                           for m in seat.stream)

            await play(s, chow_first, until=chowed, timeout=90)
            assert chowed(s), f"{v}: seat 0 never chowed"
            assert not [e for e in s.errors if e["code"] not in ("stale", "rate_limited")], s.errors
            await s.close()
            return s

        async def all_chow():
            return await asyncio.gather(*(until_chow(v) for v in CHOW_VARIANTS))

        seats = asyncio.run(all_chow())
    finally:
        srv.kill()
    srv2 = ServerProcess(db, port=srv.port).start()
    try:
        for v, s in zip(CHOW_VARIANTS, seats):
            t, _ = tables[v]
            r = httpx.get(f"{srv2.url}/api/tables/{t['id']}")
            assert r.status_code == 200, r.text
            assert r.json()["status"] in ("playing", "finished")

        async def finish(s):
            s.ws, s.view = None, None
            await s.connect()
            await play(s, chow_first, timeout=90)
            await s.close()

        async def all_finish():
            await asyncio.gather(*(finish(s) for s in seats))

        asyncio.run(all_finish())
        for s in seats:
            assert s.stream[-1]["type"] == "match_end"
    finally:
        srv2.stop()


def test_finished_tables_streams_and_proofs_are_served_after_a_restart(tmp_path):
    """Defect 2: a finished table answered 410 after a restart, and a seat
    offline when its match ended never got hand_end, match_end or the seed."""
    db = tmp_path / "done.sqlite3"
    srv = ServerProcess(db).start()
    try:
        # seat 1 plays the match; seat 0 joins and never connects (offline at the end)
        t = create_table(srv.url, variant="kunming", seats=["human", "human", "bot", "bot"], bot_delay=0,
                         hand_pause=0, hands=1, turn_seconds=0.05)
        away = join(srv.url, t["id"], seat=0)
        here = join(srv.url, t["id"], seat=1)

        async def main():
            s = Seat(srv.ws_url, t["id"], here["token"])
            await s.connect()
            await play(s, first_choice)
            await s.close()

        asyncio.run(main())
        before = httpx.get(f"{srv.url}/api/tables/{t['id']}/hands").json()
    finally:
        srv.kill()
    srv2 = ServerProcess(db, port=srv.port).start()
    try:
        r = httpx.get(f"{srv2.url}/api/tables/{t['id']}")
        assert r.status_code == 200 and r.json()["status"] == "finished", r.text
        after = httpx.get(f"{srv2.url}/api/tables/{t['id']}/hands").json()
        assert after == before and all("seed" in h for h in after["hands"])

        async def late():
            s = Seat(srv2.ws_url, t["id"], away["token"])
            await s.connect(last_seen=0)
            while not s.finished:
                await s.recv()
            await s.close()
            return s

        s = asyncio.run(late())
        kinds = [m["type"] for m in s.stream]
        assert "hand_end" in kinds and kinds[-1] == "match_end"
        assert all("seed" in m["proof"] for m in s.stream if m["type"] == "hand_end")
    finally:
        srv2.stop()


def test_a_match_whose_last_move_was_written_before_a_crash_is_served_finished(tmp_path):
    """Defect 2b: a table whose log ends the match but whose status was
    still 'playing' (the process died between the two writes) was skipped."""
    import sqlite3

    from server.manager import Manager
    from server.store import SqliteStore

    db = str(tmp_path / "late.sqlite3")

    async def run():
        m = Manager(SqliteStore(db))
        live, _ = m.create({"variant": "yunnan_ka_er_tiao", "seats": ["bot"] * 4, "bot_delay": 0, "hand_pause": 0,
                            "hands": 1, "turn_seconds": None})
        while live.status != "finished":
            await asyncio.sleep(0.01)
        await m.stop()
        m.store.close()
        return live.id

    tid = asyncio.run(run())
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tables SET status='playing' WHERE id=?", (tid,))

    async def restore():
        m = Manager(SqliteStore(db))
        m.restore_all()
        t = await m.serve(tid)
        assert t.status == "finished" and t.state.over and "seed" in t.proofs()[0]
        await m.stop()

    asyncio.run(restore())


# ------------------------------------------------------------ one server for the input checks


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("defects") / "defects.sqlite3").start()
    yield srv
    srv.stop()


def post_raw(server, path, text, kind="application/json"):
    return httpx.post(server.url + path, content=text.encode("utf-8", "surrogatepass"), headers={"content-type": kind})


def test_options_are_bounded_and_the_creator_can_close_a_table(server):
    """Defect 3: options.rounds had no maximum (10^9 hands accepted, for
    ever); there was no way to delete a table."""
    for body in ({"variant": "chaozhou", "options": {"rounds": 10**9}},
                 {"variant": "chaozhou", "options": {"rounds": 65}},
                 {"variant": "yunnan_ka_er_tiao", "options": {"rounds": 5}},
                 {"variant": "yunnan_ka_er_tiao", "hands": 65},
                 {"variant": "mcr", "options": {"min_fan": 10**6}}):
        r = httpx.post(server.url + "/api/tables", json=body)
        assert r.status_code == 400, (body, r.text)
        assert "error" in r.json()
    panel = {o["id"]: o for o in httpx.get(server.url + "/api/variants/chaozhou").json()["options"]}
    assert panel["rounds"]["maximum"] == 64
    t = create_table(server.url, variant="chaozhou", options={"rounds": 64}, seats=["human", "bot", "bot", "bot"])
    assert t["hands"] == 64 and t["owner_token"] and t["invite"] == f"/t/{t['id']}"
    url = f"{server.url}/api/tables/{t['id']}"
    assert httpx.delete(url).status_code == 403
    assert httpx.delete(url, headers={"Authorization": "Bearer " + "x" * 32}).status_code == 403
    r = httpx.delete(url, headers={"Authorization": f"Bearer {t['owner_token']}"})
    assert r.status_code == 200 and r.json()["status"] == "abandoned"
    assert t["id"] not in [x["id"] for x in httpx.get(server.url + "/api/tables").json()["tables"]]
    r = httpx.post(url + "/join", json={"name": "late"})
    assert r.status_code == 409


@pytest.mark.parametrize("text, word", [
    ('{"variant": "kunming", "turn_seconds": NaN}', "NaN"),
    ('{"variant": "kunming", "turn_seconds": Infinity}', "Infinity"),
    ('{"variant": "kunming", "hands": ' + "9" * 5000 + "}", "too large"),
    ('{"variant": "kunming", "options": ' + "[" * 3000 + "]" * 3000 + "}", "nested"),
    ('{"variant": "kunming", "options": {"a": "\\ud800"}}', "surrogate"),
])
def test_hostile_bodies_are_400_not_500(server, text, word):
    """Defect 5: NaN passed the schema (then 500 for ever), a 5,000-digit
    integer or deep nesting under the size limit gave 500."""
    r = post_raw(server, "/api/tables", text)
    assert r.status_code == 400, r.text
    assert word in r.json()["error"]
    assert httpx.get(server.url + "/healthz").json()["ok"]


def test_only_json_bodies(server):
    """Defect 5: a text/plain (or form) body was accepted, so another site
    could create tables through a visitor's browser."""
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""):
        r = post_raw(server, "/api/tables", '{"variant": "kunming"}', kind)
        assert r.status_code == 415, (kind, r.text)
    assert post_raw(server, "/api/tables", '{"variant": "kunming"}', "application/json; charset=utf-8").status_code == 201


@pytest.fixture(scope="module")
def seated(server):
    t = create_table(server.url, variant="yunnan_ka_er_tiao", seats=["human", "human", "bot", "bot"],
                     bot_delay=0, hand_pause=0, turn_seconds=None)
    return t, join(server.url, t["id"], seat=0), join(server.url, t["id"], seat=1)


async def settled(seat: Seat):
    while True:
        try:
            await seat.recv(timeout=0.3)
        except asyncio.TimeoutError:
            return


def test_hostile_frames_are_bad_message_never_a_close_or_a_traceback(server, seated):
    t, a0, a1 = seated

    async def main():
        # a lone surrogate in the hello token: was 1011 and a traceback
        ws = await websockets.connect(f"{server.ws_url}/ws/tables/{t['id']}")
        await ws.send('{"type": "hello", "token": "abc\\ud800defgh"}')
        msg = json.loads(await ws.recv())
        assert msg["code"] == "bad_message" and "surrogate" in msg["message"]
        await ws.close()
        s0, s1 = Seat(server.ws_url, t["id"], a0["token"]), Seat(server.ws_url, t["id"], a1["token"])
        await s0.connect()
        await s1.connect()
        await settled(s0)
        await settled(s1)
        asked = s0 if s0.view["ask"] is not None else s1
        before = asked.view
        move = asked.view["view"]["legal_actions"][0]
        for text in (
            '{"type": "ping", "id": ' + "9" * 3000 + "}",  # was a plain 1000 close
            '{"type": "ping", "id": ' + "[" * 2000 + "]" * 2000 + "}",
            '{"type": "sync", "last_seen": NaN}',
            # a lone surrogate in the id: the move was applied and no reply came
            json.dumps({"type": "act", "action": move, "ask": asked.view["ask"]})[:-1] + ', "id": "x\\udc00"}',
        ):
            await asked.send(text)
            msg = await asked.recv()
            while msg["type"] != "error":
                msg = await asked.recv()
            assert msg["code"] == "bad_message", (text[:60], msg)
        await settled(asked)
        assert asked.view == before, "a refused move changed the table"
        # rate_limited errors carry the id
        for i in range(200):
            await asked.send({"type": "ping", "id": f"p{i}"})
        limited = []
        try:
            while True:
                msg = await asked.recv(timeout=2)
                if msg["type"] == "error" and msg["code"] == "rate_limited":
                    limited.append(msg)
        except asyncio.TimeoutError:
            pass
        assert limited and all(m.get("id", "").startswith("p") for m in limited), limited[:3]
        await s0.close()
        await s1.close()

    asyncio.run(main())
    assert httpx.get(server.url + "/healthz").json()["ok"]


def test_every_openapi_ref_resolves(server):
    """Defect 5: the OpenAPI document had a dangling $ref."""
    doc = httpx.get(server.url + "/api/openapi.json").json()
    refs = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc)
    assert refs
    for ref in refs:
        assert ref.startswith("#/"), ref
        node = doc
        for part in ref[2:].split("/"):
            assert isinstance(node, dict) and part in node, f"dangling $ref {ref}"
            node = node[part]
    schema = httpx.get(server.url + "/api/protocol.schema.json").json()
    for ref in [r for r in json.dumps(schema).split('"$ref": "')[1:]]:
        name = ref.split('"')[0]
        assert name.startswith("#/$defs/") and name.split("/")[-1] in schema["$defs"], name
