"""A match measured in rounds of wind on the server (TW-05, TW-06, TW-08):
the table lists its length as rounds, plays until the deal has gone round
once, and every hand's dealer follows the variant's rotation."""

from __future__ import annotations

import time

import httpx

from server_harness import ServerProcess, create_table


def test_a_taiwan_table_plays_one_round_of_wind(tmp_path):
    srv = ServerProcess(tmp_path / "rounds.sqlite3").start()
    try:
        t = create_table(srv.url, variant="taiwan_16", seats=["bot"] * 4, bot_delay=0, hand_pause=0)
        assert (t["rounds"], t["hands"]) == (1, 0)
        listed = {x["id"]: x for x in httpx.get(f"{srv.url}/api/tables").json()["tables"]}
        assert listed[t["id"]]["rounds"] == 1
        deadline = time.monotonic() + 120
        while (info := httpx.get(f"{srv.url}/api/tables/{t['id']}").json())["status"] != "finished":
            assert time.monotonic() < deadline, "the round of wind did not end"
            time.sleep(0.2)
        proofs = httpx.get(f"{srv.url}/api/tables/{t['id']}/hands").json()["hands"]
    finally:
        srv.stop()
    dealers = [p["dealer"] for p in proofs]
    assert len(dealers) == info["hands_played"] >= 4
    # the deal stays or moves to the next seat, never skips one, and the match
    # ends when it would come back to the first dealer
    assert all(b in (a, (a + 1) % 4) for a, b in zip(dealers, dealers[1:]))
    assert sorted(set(dealers)) == [0, 1, 2, 3] and dealers[-1] == (dealers[0] - 1) % 4
    assert sum(info["scores"]) == 0
