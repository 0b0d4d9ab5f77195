"""The dashboard end to end without a browser: the demo game played through the whole pipeline
(renderer, still gate, reader, tracker, engine) into the JSON API, the history and corrections."""

from __future__ import annotations

import json

import numpy as np
import pytest
from fastapi.testclient import TestClient

from azulcam.calibration.layouts import load_layout
from azulcam.dashboard.app import create_app
from azulcam.dashboard.demo import DemoSource, demo_record
from azulcam.dashboard.history import History
from azulcam.dashboard.live import LiveGame
from azulcam.engine.record import Record
from azulcam.vision.analyze import bare_boards, default_locator
from azulcam.vision.classify import default_classifier

EVENTS = 6  # the deal and five moves


def _played_to_the_end(live: LiveGame) -> None:
    """Start ``live`` and wait until its source has given its last frame."""
    live.start()
    for _ in range(600):
        if live.source_ended:
            return
        live.done.wait(0.1)
    raise AssertionError("the demo video did not end in a minute")


def _live(folder, record: Record, pace: bool = False) -> tuple[LiveGame, History]:
    source = DemoSource(record)
    classifier = default_classifier()
    history = History(folder / "history.sqlite")
    live = LiveGame(source, source.profile, classifier, default_locator()[0], bare_boards(source.first, source.profile, classifier),
                    history, folder, dict(record.options), pace)
    return live, history


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The demo's first events followed to the video's end."""
    folder = tmp_path_factory.mktemp("dashboard")
    full = demo_record()
    record = Record(full.game, full.players, full.options, full.start_player, full.events[:EVENTS])
    live, history = _live(folder, record)
    _played_to_the_end(live)
    yield live, history, record, folder
    live.stop()


def test_the_demo_game_is_followed_into_the_api_and_the_history(played):
    live, history, record, _ = played
    client = TestClient(create_app(live, history))
    state = client.get("/api/state").json()
    assert state["events"] == EVENTS and state["game"] == "azul" and state["players"] == 2
    assert [e.get("player") for e in state["log"] if e["kind"] == "move"] == [e["player"] for e in record.events if "move" in e]
    assert all(set(e["text"]) == {"en", "fr"} for e in state["log"])
    assert len(state["boards_svg"]) == 2 and all(svg.startswith("<svg") for svg in state["boards_svg"])
    games = client.get("/api/games").json()
    assert games[0]["id"] == state["game_id"] and games[0]["events"] == EVENTS
    exported = client.get(f"/api/games/{state['game_id']}")
    assert exported.json()["format"] == "azulcam-record/1" and len(exported.json()["events"]) == EVENTS
    assert "attachment" in exported.headers["content-disposition"]
    kinds = [e["kind"] for e in client.get(f"/api/games/{state['game_id']}/events").json()]
    assert kinds.count("move") == EVENTS - 1 and kinds.count("chance") == 1
    assert client.get("/api/games/999").status_code == 404
    steps = client.get(f"/api/games/{state['game_id']}/replay").json()
    assert len(steps) == EVENTS + 1 and steps[0]["event"] is None and steps[-1]["scores"] == state["scores"]
    assert steps[1]["text"]["en"].startswith("Deal of round 1") and len(steps[-1]["boards_svg"]) == 2
    assert "replay.js" in client.get(f"/games/{state['game_id']}").text
    alternatives = client.get("/api/alternatives").json()
    assert sum(a["last"] for a in alternatives) == 1 and len(alternatives) > 1
    assert all(a["event"]["player"] == record.events[-1]["player"] for a in alternatives)
    snapshot = client.get("/snapshot.jpg")
    assert snapshot.status_code == 200 and snapshot.headers["content-type"] == "image/jpeg" and snapshot.content[:2] == b"\xff\xd8"


def test_pages_and_strings_in_both_languages(played):
    live, history, _, _ = played
    client = TestClient(create_app(live, history))
    assert "dashboard.js" in client.get("/").text
    for url in ("/overlay", "/overlay/score", "/overlay/last-move", "/overlay/round"):
        assert client.get(url).status_code == 200
    missing = client.get("/overlay/nope")
    assert missing.status_code == 404 and "widgets: score, last-move, round" in missing.json()["detail"]
    assert client.get("/api/strings", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).json()["strings"]["player"] == "Joueur {n}"
    assert client.get("/api/strings?lang=en", headers={"Accept-Language": "fr"}).json()["lang"] == "en"
    assert client.get("/api/strings?lang=de").status_code == 422
    assert client.get("/static/../app.py").status_code == 404


@pytest.mark.parametrize("body, message", [
    ({}, "exactly one of undo, replace, overrule, join or new"),
    ({"undo": True, "new": True}, "exactly one of"),
    ({"undo": False}, "undo"),
    ({"overrule": {"zone": "boards.9.wall.0.0", "content": None}}, "zone"),
    ({"join": {"round": 0}}, "round"),
    ({"shout": 1}, "shout"),
])
def test_a_correction_that_cannot_be_is_a_422_and_changes_nothing(played, body, message):
    live, history, _, _ = played
    client = TestClient(create_app(live, history))
    before = client.get("/api/state").json()["events"]
    reply = client.post("/api/corrections", json=body)
    assert reply.status_code == 422 and message in json.dumps(reply.json())
    assert client.get("/api/state").json()["events"] == before


def test_writes_need_the_token_where_there_is_one(played):
    live, history, _, _ = played
    client = TestClient(create_app(live, history, token="s3cret"))
    assert client.post("/api/corrections", json={"overrule": {"zone": "center", "content": []}}).status_code == 401
    assert client.post("/api/corrections?token=wrong", json={"overrule": {"zone": "center", "content": []}}).status_code == 401
    assert client.get("/api/state").status_code == 200  # reads stay open


def test_an_undo_from_the_page_takes_the_last_move_back(tmp_path):
    full = demo_record()
    record = Record(full.game, full.players, full.options, full.start_player, full.events[:3])
    live, history = _live(tmp_path, record)
    _played_to_the_end(live)
    client = TestClient(create_app(live, history))
    assert client.get("/api/state").json()["events"] == 3
    other = next(a["event"] for a in client.get("/api/alternatives").json() if not a["last"])
    assert client.post("/api/corrections", json={"replace": other}).status_code == 202
    for _ in range(50):
        if client.get("/api/state").json()["log"][-1].get("move") == other["move"]:
            break
        live.done.wait(0.1)
    assert client.get("/api/state").json()["log"][-1]["move"] == other["move"]
    assert client.get("/api/state").json()["events"] == 3
    assert client.post("/api/corrections", json={"undo": True}).status_code == 202
    for _ in range(50):
        if client.get("/api/state").json()["events"] == 2:
            break
        live.done.wait(0.1)
    state = client.get("/api/state").json()
    assert state["events"] == 2 and state["log"][-1]["kind"] == "undo", [(e["kind"], e.get("frame")) for e in state["log"]]
    assert len(history.record(state["game_id"]).events) == 2
    kept = history.events(state["game_id"])
    assert [e["correction"] for e in kept if e["kind"] == "correction"] == [{"replace": other}, {"undo": True}]
    assert "undo" in [e["kind"] for e in kept]
    live.stop()


def test_a_space_said_empty_becomes_the_calibrations_bare_view_of_it(played):
    live, history, _, _ = played
    client = TestClient(create_app(live, history))
    bare = live.watcher.bare[0]
    slot = "wall.2.2"
    before = bare.image.copy()
    live.watcher.bare[0].reads[slot] = "azul/red"  # as if calibration had taken its print for a tile
    assert client.post("/api/corrections", json={"overrule": {"zone": f"boards.0.{slot}", "content": None}}).status_code == 202
    for _ in range(50):
        if bare.reads[slot] is None:
            break
        live.done.wait(0.1)
    assert bare.reads[slot] is None
    changed = np.argwhere((bare.image != before).any(axis=2))
    layout = load_layout(bare.layout)
    h, w = bare.image.shape[:2]
    x0, y0 = np.min(layout[slot].polygon, axis=0) * [w, h]
    x1, y1 = np.max(layout[slot].polygon, axis=0) * [w, h]
    assert len(changed) and changed[:, 1].min() >= x0 - 1 and changed[:, 1].max() <= x1 + 1
    assert changed[:, 0].min() >= y0 - 1 and changed[:, 0].max() <= y1 + 1  # that space only
    assert client.post("/api/corrections", json={"overrule": {"zone": "boards.0.hand", "content": []}}).status_code == 202


def test_a_new_game_from_the_page_keeps_the_last_in_the_history(tmp_path):
    full = demo_record()
    live, history = _live(tmp_path, Record(full.game, full.players, full.options, full.start_player, full.events[:2]))
    _played_to_the_end(live)
    client = TestClient(create_app(live, history))
    first = client.get("/api/state").json()
    assert first["events"] == 2
    assert client.post("/api/corrections", json={"new": True}).status_code == 202
    for _ in range(50):
        if client.get("/api/state").json()["game_id"] != first["game_id"]:
            break
        live.done.wait(0.1)
    state = client.get("/api/state").json()
    assert state["game_id"] != first["game_id"] and state["events"] == 0 and state["log"] == []
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games[first["game_id"]]["closed"] and not games[first["game_id"]]["over"] and games[first["game_id"]]["events"] == 2 and games[state["game_id"]]["events"] == 0
    live.stop()


def test_suggestions_only_when_asked(played):
    live, history, _, _ = played
    client = TestClient(create_app(live, history))
    data = client.get("/api/suggestions?time=0.2&top=2").json()
    state = client.get("/api/state").json()
    assert data["player"] == state["to_move"] and 1 <= len(data["moves"]) <= 2
    assert all(m["player"] == state["to_move"] and set(m["text"]) == set(m["reason"]) == {"en", "fr"} for m in data["moves"])
    assert client.get("/api/suggestions?time=99").status_code == 422
    assert client.get("/overlay/suggestions").status_code == 200
