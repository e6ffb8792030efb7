"""The browser client in headless Chromium (Debian's `chromium` driven by
Playwright's Python client), as people use it:

- Alice creates a two-player table in the lobby with a friend's seat, and
  gets an invite link; Bob opens it on a phone-sized screen, gives his name
  and sits down; both press ready; they play the whole match by clicking;
- a spectator watches through /watch/ID and is never shown a concealed tile;
- anyone replays a finished hand step by step, and the scenario file it
  offers plays to the same result under `mjc scenario`.

Screenshots are kept in tests/artifacts/ (look at them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import httpx
import pytest

from server_harness import ROOT, ServerProcess

CHROMIUM = os.environ.get("MJC_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = ROOT / "tests" / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# CI installs chromium (.ci/run), so there a missing browser is a failure, not a skip
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="no chromium on PATH (apt-get install chromium; .ci/run installs it)",
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("browser") / "browser.sqlite3").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM, "chromium is not installed"
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (in the test extra)")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def page_of(browser, errors, **kw):
    context = browser.new_context(**kw)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    return page


def click_something(page) -> bool:
    """One decision, as a careful player makes it: win, else pass, else discard."""
    for sel in ("#actions button.act.hu", "#actions button.act.pass", "#hand button.tile.hot.can",
                "#hand button.tile.can", "#actions button.act"):
        button = page.query_selector(sel)
        if button is not None:
            try:
                button.click(timeout=800)
                return True
            except Exception:
                return False  # re-rendered under the click: look again
    return False


def shot(page, name):
    page.screenshot(path=str(ARTIFACTS / f"browser-{name}.png"), full_page=True)


def concealed_tiles_shown(page) -> list[str]:
    """Faces a spectator sees in the seats' concealed rows (melds aside)
    while a hand is in play (read in one go: at its end every hand is shown)."""
    return page.evaluate(
        """() => {
          const result = document.querySelector('#result');
          const over = (result && result.offsetParent !== null) || document.body.innerText.includes('本局结束');
          if (over) return [];
          return [...document.querySelectorAll('.seat-box .row:not(.melds) .tile')]
            .map(e => e.dataset.tile).filter(t => t !== 'back');
        }""")


def test_two_friends_play_a_match_through_an_invite_link_a_spectator_watches_anyone_replays(server, browser, tmp_path):
    errors: list[str] = []
    alice = page_of(browser, errors, viewport={"width": 1200, "height": 950})
    alice.goto(server.url + "/")
    alice.wait_for_selector("#variant option[value=yunnan_ka_er_tiao]", state="attached")
    alice.fill("#my-name", "Alice")
    alice.select_option("#variant", "yunnan_ka_er_tiao")
    alice.select_option("#players", "2")
    alice.select_option("[data-seat='1']", "human")
    alice.fill("#delay", "0")
    alice.fill("#hands", "2")
    shot(alice, "lobby")
    alice.click("#create-btn")
    alice.wait_for_selector("#invite")
    invite = alice.input_value("#invite")
    table_id = invite.rstrip("/").split("/")[-1]
    assert "/t/" in invite

    # Bob, on a phone, opens the link: one name, one click, seated
    bob = page_of(browser, errors, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    bob.goto(invite)
    bob.wait_for_selector("#join-btn:not([hidden])")
    bob.fill("#join-name", "Bob")
    bob.click("#join-btn")
    bob.wait_for_selector("#ready-btn")
    # the lobby lists the table with its players and no free seat
    listed = httpx.get(server.url + "/api/tables").json()["tables"]
    row = next(t for t in listed if t["id"] == table_id)
    assert [s["name"] for s in row["seats"]] == ["Alice", "Bob"] and row["free_seats"] == [] and row["status"] == "waiting"
    alice.wait_for_function("document.querySelectorAll('#waiting .seat-chip:not(.free)').length === 2")
    shot(alice, "waiting-room")
    bob.click("#ready-btn")
    alice.click("#ready-btn")
    alice.wait_for_selector("#hand .tile")
    bob.wait_for_selector("#hand .tile")

    watcher = page_of(browser, errors, viewport={"width": 1000, "height": 800})
    watcher.goto(f"{server.url}/watch/{table_id}")
    watcher.wait_for_selector(".seat-box .seat-head")

    deadline = time.monotonic() + 240
    shots = {"alice-playing": False, "bob-phone": False, "spectator": False}
    seen_concealed = []
    while not (alice.query_selector(".summary") and bob.query_selector(".summary")):
        assert time.monotonic() < deadline, "the match did not end"
        moved = False
        for page in (alice, bob):
            if page.query_selector(".summary"):
                continue
            if page.is_visible("#result") and page.query_selector("#result button"):
                page.click("#result button:has-text('关闭')")  # read the settlement, then play on
            moved |= click_something(page)
        seen_concealed += concealed_tiles_shown(watcher)
        if not moved:
            alice.wait_for_timeout(60)
        if not shots["alice-playing"] and alice.query_selector("#pond-top .tile") and alice.query_selector("#pond-bottom .tile"):
            shot(alice, "alice-playing")
            shots["alice-playing"] = True
        if not shots["bob-phone"] and bob.query_selector("#hand button.tile.can") and bob.query_selector("#pond-top .tile"):
            shot(bob, "bob-phone")
            shots["bob-phone"] = True
        if not shots["spectator"] and watcher.query_selector("#pond-bottom .tile"):
            shot(watcher, "spectator")
            shots["spectator"] = True
    assert not seen_concealed, f"the spectator saw concealed tiles: {seen_concealed[:5]}"
    alice.wait_for_timeout(300)
    shot(alice, "match-summary")
    shot(bob, "bob-match-summary")
    summary = alice.inner_text("#result")
    assert "比赛结束" in summary and "Alice" in summary and "Bob" in summary
    assert "支付 Payments" in summary or "荒庄" in summary
    watcher.wait_for_selector(".summary")
    shot(watcher, "spectator-end")

    # anyone replays the first hand, from the server's log
    viewer = page_of(browser, errors, viewport={"width": 1100, "height": 900})
    viewer.goto(f"{server.url}/replay/{table_id}/1")
    viewer.wait_for_selector("#rp-pos")
    frames = int(viewer.inner_text("#rp-pos").split("/")[1])
    assert frames > 5
    for _ in range(4):
        viewer.click("#rp-next")
    shot(viewer, "replay-step")
    viewer.click("#rp-last")
    viewer.wait_for_selector("#rp-result:not([hidden])")
    shot(viewer, "replay-end")
    # the download plays to the same result under mjc scenario
    href = viewer.get_attribute("#rp-download", "href")
    text = httpx.get(server.url + href).text
    scenario = tmp_path / "hand1.yaml"
    scenario.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "mjc", "scenario", str(scenario)], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    played = httpx.get(f"{server.url}/api/tables/{table_id}/hands/1/replay").json()["result"]
    assert result["deltas"] == played["deltas"] and result["winners"] == played["winners"]
    assert not errors, errors


def test_a_hand_against_bots_with_wilds_and_horses(server, browser):
    """潮州 with 翻鬼 and bought horses: the option panel, the wild mark and
    the horses in the settlement."""
    errors: list[str] = []
    page = page_of(browser, errors, viewport={"width": 1100, "height": 900})
    page.goto(server.url + "/")
    page.wait_for_selector("#variant option[value=chaozhou]", state="attached")
    page.select_option("#variant", "chaozhou")
    page.select_option("[data-option=gui_pai]", "fan_gui")
    page.select_option("[data-option=mai_ma]", "2")
    page.fill("#delay", "0")
    page.fill("#hands", "1")
    page.click("#create-btn")
    page.wait_for_selector("#hand .tile")
    assert "鬼牌" in page.inner_text("#info") and "买马" in page.inner_text("#info")
    deadline = time.monotonic() + 120
    while not page.query_selector(".summary"):
        assert time.monotonic() < deadline, "the hand did not end"
        if not click_something(page):
            page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    shot(page, "chaozhou-result")
    result = page.inner_text("#result")
    assert "马 Horses" in result and ("和牌 Win" in result or "荒庄" in result)
    assert "各家手牌" in result  # every hand is shown
    page.click("#fair-box summary")
    assert "seed:" in page.inner_text("#fair")
    assert not errors, errors


def test_a_sichuan_hand_exchange_void_and_wins_over_time(server, browser):
    """四川 血战到底 against bots: 换三张 picked by clicking three tiles of
    one suit, 定缺 chosen with a button, the declared voids shown, and the
    hand's wins listed in the settlement (SC-05, SC-06, SC-55)."""
    errors: list[str] = []
    page = page_of(browser, errors, viewport={"width": 1100, "height": 900})
    page.goto(server.url + "/")
    page.wait_for_selector("#variant option[value=sichuan_xuezhan]", state="attached")
    page.select_option("#variant", "sichuan_xuezhan")
    page.fill("#delay", "0")
    page.fill("#hands", "1")
    page.click("#create-btn")
    page.wait_for_selector("button.act.exchange")
    tiles = [b.get_attribute("data-tile") for b in page.query_selector_all("#hand button.tile")]
    suit = min((s for s in "mps" if sum(t.endswith(s) for t in tiles) >= 3), key=lambda s: sum(t.endswith(s) for t in tiles))
    picked = 0
    for i, t in enumerate(tiles):
        if t.endswith(suit) and picked < 3:
            page.query_selector_all("#hand button.tile")[i].click()
            picked += 1
    shot(page, "sichuan-exchange")
    page.click("button.act.exchange")
    page.wait_for_selector("#actions button.act", timeout=10000)
    void = page.query_selector_all("#actions button.act")
    assert any("定缺" in b.inner_text() for b in void)
    void[0].click()
    page.wait_for_selector(".tag.choice")
    shot(page, "sichuan-void")
    assert "定缺" in page.inner_text("body")
    deadline = time.monotonic() + 180
    while not page.query_selector(".summary"):
        assert time.monotonic() < deadline, "the hand did not end"
        if not click_something(page):
            page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    shot(page, "sichuan-result")
    assert not errors, errors
