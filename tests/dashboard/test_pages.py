"""The dashboard's pages in a real browser: Playwright driving Debian's chromium (no download).

The demo game is played at the camera's pace while the page is open: the page follows it live;
an undo from the page changes the board and the score; the overlay's background is transparent;
the French page is in French."""

from __future__ import annotations

import shutil
import socket
import threading
import time

import numpy as np
import pytest
import uvicorn

from azulcam.dashboard.app import create_app
from azulcam.dashboard.demo import demo_record
from azulcam.engine.record import Record

from test_app import _live

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The demo's first round, to the move that ends it (its wall tiling scores), played at 10
    frames a second behind a real server."""
    full = demo_record()
    second_deal = [k for k, e in enumerate(full.events) if "deal" in e][1]
    record = Record(full.game, full.players, full.options, full.start_player, full.events[:second_deal])
    live, history = _live(tmp_path_factory.mktemp("pages"), record, pace=True)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(live, history), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield f"http://127.0.0.1:{port}", browser, live, record
        browser.close()
    server.should_exit = True
    thread.join(timeout=5)
    live.stop()


def test_the_page_follows_the_demo_game_live_and_an_undo_changes_board_and_score(served):
    url, browser, live, record = served
    page = browser.new_page()
    page.goto(url + "/?lang=en")
    live.start()
    page.wait_for_function("document.querySelectorAll('#log li').length >= 3", timeout=60_000)
    seen_early = page.locator("#log li").count()
    page.wait_for_function(f"document.querySelectorAll('#log li').length >= {min(len(record.events), 12)}", timeout=120_000)
    assert page.locator("#log li").count() > seen_early  # the same page, never reloaded
    for _ in range(600):
        if live.source_ended:
            break
        time.sleep(0.1)
    page.wait_for_timeout(500)
    scores_before = page.locator("#scores .score").all_inner_texts()
    boards_before = page.locator("#boards").inner_html()
    assert scores_before != ["0", "0"]  # the round's end was scored
    page.click("#undo")
    page.wait_for_function("document.querySelector('#log li:last-child').textContent.startsWith('Taken back')", timeout=10_000)
    assert page.locator("#scores .score").all_inner_texts() == ["0", "0"]
    assert page.locator("#boards").inner_html() != boards_before
    page.close()


def test_the_overlay_is_transparent(served):
    url, browser, _, _ = served
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(url + "/overlay/round")
    page.wait_for_function("document.getElementById('widget-round').textContent.length > 0", timeout=10_000)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    import cv2

    shot = cv2.imdecode(np.frombuffer(page.screenshot(omit_background=True), np.uint8), cv2.IMREAD_UNCHANGED)
    assert shot.shape[2] == 4 and shot[1000, 1800, 3] == 0 and shot[:, :, 3].max() > 0
    page.close()


def test_the_french_page_is_in_french(served):
    url, browser, _, _ = served
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_function("document.documentElement.lang === 'fr'", timeout=10_000)
    assert page.locator("h1").inner_text() == "azulcam : la partie à la caméra"
    assert page.locator("#undo").inner_text() == "Annuler le dernier coup"
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'", timeout=10_000)
    assert page.locator("#undo").inner_text() == "Undo the last move"
    context.close()
