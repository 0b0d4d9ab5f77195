"""How the pages lay the table out, in Debian's chromium, for 2, 3 and 4 players of both games.

- The dashboard at 360, 390, 1280, 1920 and 3840 px wide, portrait and landscape, in English and
  French: no two widgets overlap, nothing scrolls sideways; on a landscape screen the table (the
  displays, the centre and the boards) fills most of the first screen; type and tiles scale with
  the screen.
- The overlay at 1920 x 1080 with every widget on, mid-game and at the game's end: every widget
  within the frame, none over another, the names of ``?names=`` wherever a player is named.
- The replay steps event by event.

Screenshots of each go to ``artefacts/screenshots/`` for a person to look at. The pages are served
by the real app; the game is one of greedy players, shown without a camera (``support.shown``)."""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

import pytest

from azulcam.dashboard.history import History
from azulcam.engine.record import Game
from support.shown import Shown, played, serve, serve_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SHOTS = Path(os.environ.get("AZULCAM_ARTEFACTS", Path(__file__).resolve().parents[2] / "artefacts")) / "screenshots"
#: Each width, portrait then landscape (a phone turned, a screen stood on its side).
SCREENS = [(360, 740), (740, 360), (390, 844), (844, 390), (1280, 720), (720, 1280), (1920, 1080), (1080, 1920),
           (3840, 2160), (2160, 3840)]
NAMES = ["Ann", "Bob", "Cyrielle-Marguerite", "Dee"]
#: The widgets of the dashboard: the bar, the banner, the displays' card and each board, each panel at the side.
WIDGETS = "header.bar, #banner:not([hidden]), #boards > *, aside.side > section"
#: On a landscape screen the table's cards together span at least this share of the first screen.
TABLE_SHARE = 0.5


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """A server for each table: (game, players, finished) -> its address; a history holding each game."""
    folder = tmp_path_factory.mktemp("layout")
    history = History(folder / "history.sqlite")
    served, stops = {}, []
    for game, players, over in itertools.product(("azul", "pavilion"), (2, 3, 4), (False, True)):
        record = played(game, players, None if over else 20, NAMES[:players])
        game_id = history.start(record, "test")
        history.keep(game_id, record, Game(record).state.scores(), over)
        url, stop = serve(Shown(record, game_id), history)
        served[game, players, over] = (url, game_id)
        stops.append(stop)
    yield served
    for stop in stops:
        stop()
    history.shut()


def _boxes(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(selector, """els => els.map(e => { const r = e.getBoundingClientRect();
        return {what: e.id || e.className || e.tagName, x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; })
        .filter(b => b.w > 0 && b.h > 0)""")


def _overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    out = []
    for a, b in itertools.combinations(boxes, 2):
        if a["x"] + a["w"] > b["x"] + 1 and b["x"] + b["w"] > a["x"] + 1 and a["y"] + a["h"] > b["y"] + 1 and b["y"] + b["h"] > a["y"] + 1:
            out.append((a["what"], b["what"]))
    return out


def _open(browser, url: str, viewport: tuple[int, int], lang: str):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, locale=f"{lang}-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page, errors


@pytest.mark.parametrize("game, players", [("azul", 4), ("pavilion", 3), ("azul", 2)])
def test_the_dashboard_fits_every_screen_and_the_table_fills_a_landscape_one(browser, tables, game, players):
    url, _ = tables[game, players, False]
    sizes = {}
    for (width, height), lang in itertools.product(SCREENS, ("en", "fr")):
        page, errors = _open(browser, f"{url}/?lang={lang}", (width, height), lang)
        page.wait_for_selector("#boards figure.board-card", timeout=20_000)
        page.wait_for_function("document.querySelectorAll('#boards .zone title').length > 0", timeout=10_000)  # tooltips worded
        where = f"{game} {players} players, {width}x{height} {lang}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, where
        assert _overlapping(_boxes(page, WIDGETS)) == [], where
        cards = _boxes(page, "#boards > *")
        assert len(cards) == players + 1, (where, cards)  # the displays' card and every board, drawn
        if width > height and width >= 640:
            left, top = min(b["x"] for b in cards), min(b["y"] for b in cards)
            right, bottom = max(b["x"] + b["w"] for b in cards), max(b["y"] + b["h"] for b in cards)
            assert bottom <= height + 1, where  # every board on the first screen
            assert (right - left) * (bottom - top) >= TABLE_SHARE * width * height, where
        sizes[width, height] = (float(page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")),
                                max(b["w"] for b in cards[1:]))
        if players == 4 or (width, height) in ((390, 844), (1920, 1080)):
            page.screenshot(path=str(_shot(f"dashboard-{game}-{players}p-{width}x{height}-{lang}")))
        assert errors == [], where
        page.context.close()
    assert sizes[1920, 1080][0] >= 18 and sizes[3840, 2160][0] >= 1.8 * sizes[1920, 1080][0]  # type read across the room
    assert sizes[3840, 2160][1] >= 1.8 * sizes[1920, 1080][1]  # and the boards too


@pytest.mark.parametrize("game, players", [("azul", 2), ("azul", 3), ("azul", 4), ("pavilion", 2), ("pavilion", 4)])
def test_the_overlay_keeps_every_widget_in_the_frame_apart_and_names_the_players(browser, tables, game, players):
    names = NAMES[:players]
    for over in (False, True):
        url, _ = tables[game, players, over]
        page, errors = _open(browser, f"{url}/overlay?boards=1&suggest=1&names={','.join(names)}", (1920, 1080), "en")
        page.wait_for_selector("#widget-boards:not([hidden])", timeout=10_000)
        page.wait_for_selector("#widget-banner:not([hidden])" if over else "#widget-suggestions:not([hidden])", timeout=20_000)
        page.wait_for_timeout(300)
        boxes = _boxes(page, ".widget:not([hidden])")
        where = f"{game} {players} players{', over' if over else ''}"
        assert len(boxes) == 5, where  # score, last move, round, boards, and the suggestions or the banner
        assert all(b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["w"] <= 1920 and b["y"] + b["h"] <= 1080 for b in boxes), where
        assert _overlapping(boxes) == [], where
        text = page.locator("body").inner_text()
        assert "Player" not in text and all(name in text for name in names), where  # the names, everywhere
        page.screenshot(path=str(_shot(f"overlay-{game}-{players}p{'-over' if over else ''}")), omit_background=True)
        assert errors == [], where
        page.context.close()


def test_the_replay_steps_event_by_event_and_names_the_players(browser, tables):
    url, game_id = tables["azul", 3, True]
    for lang in ("en", "fr"):
        page, errors = _open(browser, f"{url}/games/{game_id}?lang={lang}", (1920, 1080), lang)
        page.wait_for_selector("#boards svg", timeout=10_000)
        total = int(page.locator("#step").get_attribute("max"))
        assert page.locator("#count").inner_text() == ({"en": f"Event {total} of {total}", "fr": f"Événement {total} sur {total}"}[lang])
        page.click("#first")
        assert page.locator("#step").input_value() == "0"
        page.click("#next")
        page.click("#next")
        assert page.locator("#step").input_value() == "2"
        assert page.locator("#count").inner_text().startswith({"en": "Event 2 of", "fr": "Événement 2 sur"}[lang])
        page.keyboard.press("ArrowRight")
        assert page.locator("#step").input_value() == "3"
        page.click("#previous")
        assert page.locator("#event").inner_text().startswith("2. ")
        assert page.locator("#boards figure .name").all_inner_texts() == NAMES[:3]
        assert page.locator("h1").inner_text() == {"en": f"Game {game_id}: Azul", "fr": f"Partie {game_id} : Azul"}[lang]
        page.screenshot(path=str(_shot(f"replay-{lang}")), full_page=True)
        assert errors == []
        page.context.close()


@pytest.mark.parametrize("page_name", ["replay", "setup"])
def test_the_replay_and_the_set_up_fit_every_screen_in_both_languages(browser, tables, first_run, page_name):
    if page_name == "replay":
        url, game_id = tables["azul", 4, True]
        path, ready, stop = f"{url}/games/{game_id}", "#boards svg", None
    else:
        setup, history, _, _ = first_run
        from azulcam.dashboard.app import create_app  # a first run: no game yet, the set-up page

        url, stop = serve_app(create_app(None, history, None, setup))
        path, ready = f"{url}/", "#find"
    try:
        for (width, height), lang in itertools.product(SCREENS, ("en", "fr")):
            page, errors = _open(browser, f"{path}?lang={lang}", (width, height), lang)
            page.wait_for_selector(ready, timeout=20_000)
            page.wait_for_function(f"document.documentElement.lang === '{lang}'", timeout=10_000)
            where = f"{page_name} {width}x{height} {lang}"
            assert page.evaluate("document.documentElement.scrollWidth") <= width, where
            assert _overlapping(_boxes(page, "header.bar, main > section, main > #boards > figure")) == [], where
            page.screenshot(path=str(_shot(f"{page_name}-{width}x{height}-{lang}")))
            assert errors == [], where
            page.context.close()
    finally:
        if stop is not None:
            stop()


def _shot(name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"
