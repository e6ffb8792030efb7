"""The browser page in headless Chromium (Debian's `chromium` driven by
Playwright's Python client): create a table from the lobby, play a hand
against bots by clicking, keep a screenshot in tests/artifacts/."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from server_harness import ROOT, ServerProcess

CHROMIUM = os.environ.get("MJC_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = ROOT / "tests" / "artifacts"

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


def test_create_a_table_and_play_a_hand_in_the_browser(server):
    assert CHROMIUM, "chromium is not installed"
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (in the test extra)")
    ARTIFACTS.mkdir(exist_ok=True)
    errors = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url + "/")
            page.wait_for_selector("#variant option[value=chaozhou]", state="attached")
            page.select_option("#variant", "chaozhou")
            # the option panel is the variant's: pick wilds turned from an indicator and bought horses
            page.select_option("[data-option=gui_pai]", "fan_gui")
            page.select_option("[data-option=mai_ma]", "2")
            page.fill("#delay", "0")
            page.fill("#hands", "1")
            page.screenshot(path=str(ARTIFACTS / "browser-lobby.png"), full_page=True)
            page.click("#create-btn")
            page.wait_for_selector("#game:not([hidden])")
            page.wait_for_selector("#hand .tile")
            assert "鬼牌" in page.inner_text("#info") and "买马" in page.inner_text("#info")
            deadline = time.monotonic() + 90
            clicks = 0
            while not page.is_visible("#result"):
                assert time.monotonic() < deadline, "the hand did not end"
                button = (page.query_selector("#actions button.hu") or page.query_selector("#actions button.pass")
                          or page.query_selector("#hand button.tile.hot.can") or page.query_selector("#hand button.tile.can")
                          or page.query_selector("#actions button[data-action]"))
                if button is not None:
                    try:
                        button.click(timeout=1000)
                        clicks += 1
                    except Exception:
                        pass  # the page re-rendered under the click: look again
                else:
                    page.wait_for_timeout(50)
            page.wait_for_timeout(300)
            shot = ARTIFACTS / "browser-hand-result.png"
            page.screenshot(path=str(shot), full_page=True)
            print(f"screenshot: {shot}")
            result = page.inner_text("#result")
            assert "支付 Payments" in result and ("和牌 Win" in result or "荒庄" in result)
            assert "seed:" in page.inner_text("#fair")
            assert clicks > 0
        finally:
            browser.close()
    assert not errors, errors
