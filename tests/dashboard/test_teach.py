""""Is this your table?": the camera's last reading of a still view, corrected by a person where it
is wrong, teaches this table's memory, and the view is read again with it: through the API and on
the page in Debian's chromium. A strong-print table (its printed spaces as strong as its tiles: read
wrong in places untaught) at a game under way, calibrated bare at its start."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from azulcam.calibration.profile import Profile
from azulcam.cli import main
from azulcam.dashboard.app import create_app
from azulcam.dashboard.history import History
from azulcam.dashboard.live import LiveGame
from azulcam.engine.record import Record, replay
from azulcam.follow.capture import open_source
from azulcam.synth.render import SceneOptions, render_moments
from azulcam.vision.analyze import default_locator
from azulcam.vision.bare import load_bare_boards
from azulcam.vision.classify import default_classifier
from support.shown import serve_app

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def slots(observation: dict) -> dict[str, str]:
    return {f"boards.{b['player']}.{s}": v for b in observation["boards"] for s, v in b["slots"].items()}


def wrong(observation: dict, truth: dict) -> list[str]:
    read, wanted = slots(observation), slots(truth)
    return sorted(z for z in read.keys() | wanted.keys() if read.get(z) != wanted.get(z))


@pytest.fixture()
def table(tmp_path):
    """A live game following a folder holding one still photo of the table, read once; the
    photo's truth; the memory's path."""
    record = Record.load(RECORD)
    states = [record.new_state()] + [step.state.copy() for step in replay(record)]
    start, later = render_moments([states[0], states[30]], (41, 7), SceneOptions(size=(1280, 720), family="strong-print"))
    (tmp_path / "start.jpg").write_bytes(start.jpeg)
    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(12):  # a still table a second long
        (frames / f"{n:03}.jpg").write_bytes(later.jpeg)
    corners = [arg for b in start.truth["profile"]["boards"]
               for arg in ("--board", ",".join(f"{v:.1f}" for point in b["corners"] for v in point))]
    assert main(["calibrate", str(tmp_path / "start.jpg"), "--game", "azul", "--players", "2", *corners, "--bare",
                 "--out", str(tmp_path / "profile.json")]) == 0
    profile = Profile.from_json(json.loads((tmp_path / "profile.json").read_text()))
    bare = load_bare_boards(profile.boards, tmp_path)
    memory = tmp_path / "profile.memory.json"
    history = History(tmp_path / "history.sqlite")
    live = LiveGame(open_source(str(frames), 10.0), profile, default_classifier(), default_locator()[0], bare, history,
                    tmp_path, dict(record.options), pace=False, table_path=memory)
    live.start()
    for _ in range(600):
        if live.reading() is not None and live.source_ended:
            break
        time.sleep(0.1)
    assert live.reading() is not None
    yield live, history, later.truth["observation"], memory
    live.stop()
    history.shut()


def test_a_corrected_reading_teaches_the_memory_and_is_read_again_right(table):
    from fastapi.testclient import TestClient

    live, history, truth, memory = table
    client = TestClient(create_app(live, history), base_url="http://127.0.0.1:8000")
    seen = client.get("/api/reading").json()
    assert seen["boards_svg"] and seen["table_svg"] and seen["observation"]["format"] == "azulcam-observation/1"
    mistakes = wrong(seen["observation"], truth)
    assert mistakes  # read wrong untaught
    bad = client.post("/api/teach", json={"corrections": [{"zone": "boards.3.wall.0.0", "content": None}]})
    assert bad.status_code == 422 and bad.json()["detail"]["code"] == "follow.bad_zone"
    wanted = slots(truth)
    said = [{"zone": z, "content": wanted.get(z)} for z in mistakes]
    answer = client.post("/api/teach", json={"corrections": said})
    assert answer.status_code == 200, answer.text
    again = answer.json()
    assert wrong(again["observation"], truth) == [] and again["taught"]["photos"] == 1 and again["taught"]["slots"] > 50
    kept = json.loads(memory.read_text())
    assert kept["photos"] == 1 and "slots" in kept["heads"]
    # A view no legal game shows is refused, in the asker's language, and teaches nothing.
    impossible = [{"zone": "boards.0.wall.0.0", "content": "red"}]  # blue is printed there
    refused = client.post("/api/teach?lang=fr", json={"corrections": impossible})
    assert refused.status_code == 422 and refused.json()["detail"]["code"] == "follow.teach_impossible"
    assert "partie régulière" in refused.json()["detail"]["message"]
    assert json.loads(memory.read_text())["photos"] == 1


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
def test_the_page_corrects_a_space_and_draws_the_reading_read_again(table):
    from playwright.sync_api import sync_playwright

    live, history, truth, _ = table
    url, stop = serve_app(create_app(live, history))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="fr-FR")
            page.goto(f"{url}/")
            page.click("#teach-open")
            page.wait_for_selector("#teach-dialog[open] #teach-boards svg")
            assert page.inner_text("#teach-dialog h3") == "Est-ce bien votre table ?"
            seen = page.evaluate("teaching.reading.observation")
            zone = wrong(seen, truth)[0]
            player, slot = zone.split(".", 2)[1:]
            want = slots(truth).get(zone)
            page.click(f'#teach-boards figure[data-player="{player}"] .zone[data-zone="{slot}"]')
            page.wait_for_selector("#zone-dialog[open] #zone-choices button")
            k = page.evaluate(f"asked.choices.findIndex((c) => c.content === {json.dumps(want)})")
            assert k >= 0
            page.click(f'#zone-choices button[data-k="{k}"]')
            page.click("#zone-set")
            page.wait_for_selector(f'#teach-corrections li[data-zone="{zone}"]')
            page.click("#teach-go")
            page.wait_for_selector("#teach-note.ok", timeout=30000)
            assert "Appris" in page.inner_text("#teach-note")
            drawn = page.get_attribute(f'#teach-boards figure[data-player="{player}"] .zone[data-zone="{slot}"]',
                                       "data-holds")
            assert (drawn or None) == want  # the space read again as the person said
            assert zone not in wrong(page.evaluate("teaching.reading.observation"), truth)
            browser.close()
    finally:
        stop()
