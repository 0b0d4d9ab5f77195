"""The dashboard's pages in a real browser: Playwright driving Debian's chromium (no download).

The demo game is played at the camera's pace while the page is open: the page follows it live.
Each control is used as a player would; the desktop (1920 x 1080) and phone (390 x 844) pages
never scroll sideways; the French page is French throughout, its alerts and refusals included;
the overlay is transparent and each widget stands alone. Screenshots are kept under
``artefacts/screenshots/`` (``AZULCAM_ARTEFACTS`` elsewhere) for a person to look at."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from azulcam.dashboard.app import create_app
from azulcam.dashboard.demo import demo_record
from azulcam.engine.record import Record
from support.shown import serve_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SHOTS = Path(os.environ.get("AZULCAM_ARTEFACTS", Path(__file__).resolve().parents[2] / "artefacts")) / "screenshots"
DESKTOP, PHONE = {"width": 1920, "height": 1080}, {"width": 390, "height": 844}


def _shot(page, name: str, **options) -> bytes:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return page.screenshot(path=str(SHOTS / f"{name}.png"), **options)


@pytest.fixture(scope="module")
def served(tmp_path_factory, demo):
    """The demo's first round, to the move that ends it (its wall tiling scores), played at 10
    frames a second behind a real server; and a browser."""
    full = demo_record()
    second_deal = [k for k, e in enumerate(full.events) if "deal" in e][1]
    record = Record(full.game, full.players, full.options, full.start_player, full.events[:second_deal])
    live, history = demo.follow(tmp_path_factory.mktemp("pages"), record, pace=True)
    url, stop = serve_app(create_app(live, history))
    started = False

    def play(wait: bool = True) -> None:
        """Start the game's video once and, unless told not to, wait until it has given its last
        frame: a test run alone finds the round played as one run after the first test does."""
        nonlocal started
        if not started:
            started = True
            live.start()
        if wait:
            demo.ended(live, 120)

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield url, browser, live, record, play
        browser.close()
    stop()
    live.stop()


def _page(browser, url: str, viewport=DESKTOP, locale: str = "en-GB", ready: str = "#boards figure.board-card"):
    """A page at ``url`` in a context of its own, once ``ready`` is drawn; and the script errors it raises."""
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector(ready, timeout=20_000)
    return page, errors


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("document.body.scrollWidth") <= width


def test_the_page_follows_the_demo_game_live_and_an_undo_changes_board_and_score(served):
    url, browser, live, record, play = served
    page, errors = _page(browser, url + "/?lang=en")
    play(wait=False)  # while the page is open
    page.wait_for_function("document.querySelectorAll('#log li').length >= 3", timeout=60_000)
    seen_early = page.locator("#log li").count()
    page.wait_for_function(f"document.querySelectorAll('#log li').length >= {min(len(record.events), 12)}", timeout=120_000)
    assert page.locator("#log li").count() > seen_early  # the same page, never reloaded
    play()
    page.wait_for_timeout(500)
    numbers = page.eval_on_selector_all("#log li", "items => items.map(li => li.value)")
    assert numbers == list(range(len(record.events) - len(numbers) + 1, len(record.events) + 1))  # the record's own numbers
    assert page.locator("#last-move").inner_text() == page.locator("#log li").last.inner_text()
    assert page.locator("#table-view svg .display").count() == 5
    assert page.locator("#table-view svg .changed, #boards svg .changed").count() > 0  # the last move, highlighted
    scores_before = page.locator("#scores .score").all_inner_texts()
    boards_before = page.locator("#boards").inner_html()
    assert scores_before != ["0", "0"]  # the round's end was scored
    _shot(page, "dashboard-desktop-en", full_page=True)
    page.click("#undo")
    page.wait_for_function("document.querySelector('#log li:last-child').textContent.startsWith('Taken back')", timeout=10_000)
    page.wait_for_function("document.getElementById('controls-note').textContent.length > 0", timeout=10_000)
    assert page.locator("#controls-note").inner_text() == "Taken back: the camera will not record it again until the table changes"
    assert page.locator("#scores .score").all_inner_texts() == ["0", "0"]
    assert page.locator("#boards").inner_html() != boards_before
    assert errors == []
    page.close()


def test_desktop_and_phone_never_scroll_sideways(served):
    url, browser, _, _, _ = served
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page, errors = _page(browser, url + "/?lang=en", viewport)
        _no_sideways_scroll(page)
        box = page.locator("#lang").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        board = page.locator("#boards figure.board-card").first.bounding_box()
        assert board["width"] >= min(viewport["width"] - 40, 300)  # a board reads across the table
        _shot(page, f"dashboard-{name}", full_page=True)
        assert errors == []
        page.close()


def test_a_tapped_space_offers_only_what_the_rules_allow_and_is_set_from_there(served):
    url, browser, _, _, play = served
    play()
    page, errors = _page(browser, url + "/?lang=en")
    page.locator('#boards figure[data-player="0"] .zone[data-zone="wall.1.3"]').click()  # printed red
    dialog = page.locator("#zone-dialog")
    dialog.wait_for(state="visible")
    assert page.locator("#zone-place").inner_text() == "Player 1, wall, row 2, column 4"
    assert page.locator("#zone-choices button").all_inner_texts() == ["Empty", "A red tile"]  # said alone: capitalised
    assert page.locator("#zone-now").inner_text() in ("The game has nothing here", "The game has a red tile here")
    title = page.locator('#boards figure[data-player="0"] .zone[data-zone="wall.1.3"] title').text_content()
    assert title.startswith("Player 1, wall, row 2, column 4: ")  # the tooltip in words, never a zone id
    _shot(page, "dashboard-zone-dialog")
    page.locator("#zone-choices button", has_text="empty").click()
    page.click("#zone-set")
    dialog.wait_for(state="hidden")
    assert page.locator("#zone-note").inner_text() == ""
    page.locator('#table-view .zone[data-zone="factories.0"]').click()  # a display: counts of each kind, four at most
    dialog.wait_for(state="visible")
    plus = page.locator("#zone-choices button[data-step='1']")
    for _ in range(6):
        plus.first.click()
    assert page.locator("#zone-choices output").first.inner_text() == "4"
    page.click("#zone-cancel")
    dialog.wait_for(state="hidden")
    assert errors == []
    page.close()


def test_the_replace_form_suggestions_camera_and_history_work_from_the_page(served):
    url, browser, _, _, play = served
    play()
    page, errors = _page(browser, url + "/?lang=en")
    if page.locator("#suggest").is_disabled():  # the round is over (an overrule had the last view read again)
        page.click("#undo")
        page.wait_for_selector("#suggest:not([disabled])", timeout=10_000)
    page.click("#suggest")  # searched when asked
    page.wait_for_function("document.querySelectorAll('#suggested li').length > 0", timeout=20_000)
    assert not page.locator("#suggest").is_disabled()
    options = page.locator("#replace-move option")
    assert options.count() > 1
    other = next(k for k in range(options.count()) if options.nth(k).get_attribute("selected") is None)
    chosen = options.nth(other).inner_text()
    page.select_option("#replace-move", str(other))
    page.click("#replace button[type=submit]")
    page.wait_for_function("t => document.querySelector('#log li:last-child').textContent === t", arg=chosen, timeout=10_000)
    assert page.locator("#suggested li").count() == 0  # the suggestions were for a position gone
    page.click("details.camera summary")
    page.wait_for_function("document.getElementById('camera').naturalWidth > 0", timeout=10_000)  # the last frame, source ended
    with page.expect_navigation():
        page.locator("#games a").first.click()
    page.wait_for_function("document.querySelectorAll('#boards svg').length > 0", timeout=10_000)
    slider = page.locator("#step")
    slider.fill("1")
    assert page.locator("#event").inner_text().startswith("1. Deal of round 1")
    _shot(page, "replay")
    assert errors == []
    page.close()


def test_an_unknown_game_and_an_unknown_language_are_said_plainly(served):
    url, browser, _, _, _ = served
    page, errors = _page(browser, url + "/games/999?lang=de", ready="#missing:not([hidden])")
    assert page.locator("#missing").inner_text() == "There is no game 999"
    page.close()
    page, errors = _page(browser, url + "/?lang=de", locale="de-DE")
    assert page.evaluate("document.documentElement.lang") == "en" and page.locator("#undo").inner_text() == "Undo the last move"
    assert errors == []
    page.close()


def test_the_overlay_is_transparent_and_each_widget_stands_alone(served):
    url, browser, _, _, _ = served
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    import cv2

    for widget, selector in (("score", ".score .player"), ("round", ".round"), ("last-move", ".last-move"), ("boards", ".boards svg")):
        page.goto(f"{url}/overlay/{widget}?names=Ann,Bob")
        page.wait_for_selector(f"#widget-{widget}:not([hidden])", timeout=10_000)
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert page.locator(".widget").count() == 1 and page.locator(selector).count() > 0  # nothing else drawn
        if widget == "score":
            assert page.locator(".score").inner_text().startswith("Ann")  # ?names= for a streamer's players
        shot = cv2.imdecode(np.frombuffer(_shot(page, f"overlay-{widget}", omit_background=True), np.uint8), cv2.IMREAD_UNCHANGED)
        box = page.locator(f"#widget-{widget}").bounding_box()
        drawn = shot[:, :, 3] > 0
        shadow = 30  # the widget's shadow reaches that far
        assert drawn.any() and not drawn[int(box["y"] + box["height"]) + shadow:, :].any()  # nothing but the widget
        assert not drawn[:, int(box["x"] + box["width"]) + shadow:].any()
    page.goto(f"{url}/overlay/banner")  # the game is not over: the banner is there, drawn nowhere
    page.wait_for_timeout(800)
    shot = cv2.imdecode(np.frombuffer(page.screenshot(omit_background=True), np.uint8), cv2.IMREAD_UNCHANGED)
    assert shot.shape[2] == 4 and shot[:, :, 3].max() == 0
    page.goto(f"{url}/overlay?boards=1")
    page.wait_for_selector("#widget-boards:not([hidden])", timeout=10_000)
    assert page.locator(".widget:not([hidden])").count() == 4  # score, last move, round, boards
    _shot(page, "overlay-all", omit_background=True)
    context.close()


def test_the_french_page_is_french_throughout_alerts_and_refusals_included(served):
    url, browser, live, _, play = served
    play()
    live._heard({"kind": "alert", "time": 1.0, "frame": 1, "zones": ["boards.0.wall.0.0"], "code": "follow.unexplained",
                 "params": {"zones": [{"zone": "boards.0.wall.0.0", "read": "red", "expected": None}]}})
    page, errors = _page(browser, url + "/", locale="fr-FR")
    page.wait_for_function("document.documentElement.lang === 'fr'", timeout=10_000)
    assert page.locator("h1").inner_text() == "azulcam : la partie à la caméra"
    assert page.locator("#undo").inner_text() == "Annuler le dernier coup"
    alert = page.locator("#alerts").inner_text()
    assert "Joueur 1, mur, ligne 1, colonne 1 : la caméra voit une tuile rouge là où la partie n'a rien" in alert
    assert "boards.0" not in alert  # the place in words, never a zone id
    assert "Joueur 1, mur, ligne 1, colonne 1" in page.locator("#unsure").inner_text()  # and asked to confirm
    page.click("#new-game")
    assert page.locator("#new-game-confirm").is_visible()
    page.click("#new-game-no")  # asked first: one click closes no game
    assert not page.locator("#new-game-confirm").is_visible()
    page.click("#new-game")
    page.click("#new-game-yes")
    page.wait_for_function("document.querySelectorAll('#log li').length === 0", timeout=10_000)
    page.wait_for_selector("#replace", state="hidden", timeout=10_000)  # no move to replace in a new game: no form
    page.click("#undo")  # nothing to undo in a new game: said in place, in French
    page.wait_for_function("document.getElementById('controls-note').textContent.length > 0", timeout=10_000)
    assert page.locator("#controls-note").inner_text() == "rien à annuler : aucun événement n'est encore enregistré"
    _shot(page, "dashboard-desktop-fr", full_page=True)
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'", timeout=10_000)
    assert page.locator("#undo").inner_text() == "Undo the last move"
    assert errors == []
    page.close()


def test_a_first_run_is_set_up_from_the_page_without_a_command_line(served, first_run):
    _, browser, _, _, _ = served  # the module's browser (one Playwright a thread)
    setup, history, _, _ = first_run
    url, stop = serve_app(create_app(None, history, None, setup))
    try:
        page, errors = _page(browser, f"{url}/", PHONE, locale="fr-FR", ready="#find")
        page.wait_for_function("document.documentElement.lang === 'fr'", timeout=10_000)
        assert page.url.endswith("/setup") and page.locator("h1").inner_text() == "Installer la table"
        page.wait_for_function("document.getElementById('snapshot').naturalWidth > 0", timeout=10_000)
        page.select_option("#players", "4")
        for k, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
            page.fill(f'#names input[data-player="{k}"]', name)
        page.click("#find")
        page.wait_for_function("document.querySelectorAll('#marks polygon').length === 4", timeout=60_000)
        assert page.locator("#marks text").all_text_contents() == ["Ann", "Bob", "Cy", "Dee"]  # the names typed label the boards
        _no_sideways_scroll(page)
        _shot(page, "setup-phone-fr", full_page=True)
        page.click("#place")  # by hand instead: four clicks a board, each refined on its print
        assert "en haut à gauche" in page.locator("#placing").inner_text()
        page.click("#find")
        page.wait_for_function("!document.getElementById('start').disabled", timeout=60_000)
        page.click("#start")
        page.wait_for_url(f"{url}/", timeout=60_000)
        page.wait_for_selector("#boards figure.board-card", timeout=20_000)
        assert page.locator("#boards figure .name").all_inner_texts() == ["Ann", "Bob", "Cy", "Dee"]
        assert errors == []
        page.close()
    finally:
        stop()
