"""The dashboard end to end without a browser: the demo game played through the whole pipeline
(renderer, still gate, reader, tracker, engine) into the JSON API, the history and corrections."""

from __future__ import annotations

import json

import numpy as np
import pytest

from azulcam.calibration.layouts import load_layout
from azulcam.dashboard.choices import zone_choices
from azulcam.engine.record import Game

EVENTS = 6  # as conftest's ``played``


def test_the_demo_game_is_followed_into_the_api_and_the_history(played, client):
    _, _, record, _ = played
    state = client.get("/api/state").json()
    assert state["events"] == EVENTS and state["game"] == "azul" and state["players"] == 2
    assert [e.get("player") for e in state["log"] if e["kind"] == "move"] == [e["player"] for e in record.events if "move" in e]
    assert [e["n"] for e in state["log"]] == list(range(1, EVENTS + 1))  # numbered by their place in the record
    assert all(set(e["text"]) == {"en", "fr"} for e in state["log"])
    assert len(state["boards_svg"]) == 2 and all(svg.startswith("<svg") for svg in state["boards_svg"])
    assert state["table_svg"].startswith("<svg") and state["table_svg"].count('class="display"') == 5
    assert state["changed"] and all(z.startswith(("boards.", "factories.", "center")) for z in state["changed"])
    games = client.get("/api/games").json()
    assert games[0]["id"] == state["game_id"] and games[0]["events"] == EVENTS
    exported = client.get(f"/api/games/{state['game_id']}")
    assert exported.json()["format"] == "azulcam-record/1" and len(exported.json()["events"]) == EVENTS
    assert "attachment" in exported.headers["content-disposition"]
    kinds = [e["kind"] for e in client.get(f"/api/games/{state['game_id']}/events").json()]
    assert kinds.count("move") == EVENTS - 1 and kinds.count("chance") == 1
    steps = client.get(f"/api/games/{state['game_id']}/replay").json()
    assert len(steps) == EVENTS + 1 and steps[0]["event"] is None and steps[-1]["scores"] == state["scores"]
    assert steps[1]["text"]["en"].startswith("Deal of round 1") and len(steps[-1]["boards_svg"]) == 2
    assert "replay.js" in client.get(f"/games/{state['game_id']}").text
    alternatives = client.get("/api/alternatives").json()
    assert sum(a["last"] for a in alternatives) == 1 and len(alternatives) > 1
    assert all(a["event"]["player"] == record.events[-1]["player"] for a in alternatives)
    snapshot = client.get("/snapshot.jpg")
    assert snapshot.status_code == 200 and snapshot.headers["content-type"] == "image/jpeg" and snapshot.content[:2] == b"\xff\xd8"


def test_pages_and_strings_in_both_languages(client):
    assert "dashboard.js" in client.get("/").text
    for url in ("/overlay", "/overlay/score", "/overlay/last-move", "/overlay/round", "/overlay/boards", "/overlay/banner"):
        assert client.get(url).status_code == 200
    missing = client.get("/overlay/nope")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "http.no_widget"
    assert "score, last-move, round" in missing.json()["detail"]["params"]["widgets"]
    assert client.get("/api/strings", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).json()["strings"]["player"] == "Joueur {n}"
    assert client.get("/api/strings?lang=en", headers={"Accept-Language": "fr"}).json()["lang"] == "en"
    assert client.get("/static/../app.py").status_code == 404
    for name in ("common.js", "dashboard.js", "overlay.js", "replay.js", "style.css", "overlay.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_a_tapped_zone_offers_only_what_the_rules_allow_there_in_words(client):
    wall = client.get("/api/zones/boards.0.wall.1.3").json()  # printed red on the coloured wall
    assert wall["place"]["en"] == "Player 1, wall, row 2, column 4" and wall["place"]["fr"].startswith("Joueur 1")
    assert [c["content"] for c in wall["choices"]] == [None, "red"] and not wall["loose"]
    assert wall["choices"][1]["text"] == {"en": "a red tile", "fr": "une tuile rouge"}
    state = client.get("/api/state").json()
    lines = 0
    for p, board in enumerate(state["observation"]["boards"]):  # a pattern line: its colour, or one its wall row lacks
        for zone, kind in board["slots"].items():
            _, row, space = zone.split(".") if zone.startswith("line.") else ("", "0", "0")
            if int(row) > 0:  # another space of that line: empty, or the same colour
                other = f"boards.{p}.line.{row}.{1 if space == '0' else 0}"
                assert [c["content"] for c in client.get(f"/api/zones/{other}").json()["choices"]] == [None, kind], other
                lines += 1
    assert lines > 0
    floor = [c["content"] for c in client.get("/api/zones/boards.1.floor.0").json()["choices"]]
    assert "first_player" in floor and "joker" not in floor  # the demo plays without jokers
    display = client.get("/api/zones/factories.0").json()
    assert display["loose"] and display["most"] == 4 and "first_player" not in [c["content"] for c in display["choices"]]
    centre = client.get("/api/zones/center").json()
    assert centre["loose"] and "first_player" in [c["content"] for c in centre["choices"]]
    for zone in ("boards.5.wall.0.0", "factories.9", "boards.0.wall.9.9", "nowhere"):
        reply = client.get(f"/api/zones/{zone}")
        assert reply.status_code == 422 and reply.json()["detail"]["code"] == "follow.bad_zone", zone


@pytest.mark.parametrize("body, code", [
    ({}, "invalid.one_of"),
    ({"undo": True, "new": True}, "invalid.one_of"),
    ({"undo": False}, "invalid.literal_error"),
    ({"overrule": {"zone": "boards.9.wall.0.0", "content": None}}, "invalid.string_pattern_mismatch"),
    ({"overrule": {"zone": "boards.0.wall.0.0", "content": "banana"}}, "invalid.literal_choice"),
    ({"overrule": {"zone": "boards.1.wall.0.0", "content": "red"}}, "follow.bad_zone"),  # printed blue there
    ({"join": {"round": 0}}, "invalid.greater_than_equal"),
    ({"shout": 1}, "invalid.extra_forbidden"),
    ({"replace": {"player": 0, "move": {"action": "take", "source": 0, "color": "blue", "line": 9}}}, "invalid.less_than_equal"),
    ({"replace": {"player": 0, "move": {"action": "take", "source": 8, "color": "blue", "line": 0}}}, "follow.illegal"),
])
def test_a_correction_that_cannot_be_is_a_422_and_changes_nothing(client, body, code):
    before = client.get("/api/state").json()
    reply = client.post("/api/corrections", json=body)
    assert reply.status_code == 422 and reply.json()["detail"]["code"] == code, reply.json()
    assert reply.json()["detail"]["message"]  # worded in English for scripts and logs
    after = client.get("/api/state").json()
    assert after["events"] == before["events"] and after["observation"] == before["observation"]


def test_an_undo_and_a_replace_from_the_page_are_made_before_the_answer(following, make_client):
    live, history, _ = following(3)
    client = make_client(live, history)
    assert client.get("/api/state").json()["events"] == 3
    other = next(a["event"] for a in client.get("/api/alternatives").json() if not a["last"])
    reply = client.post("/api/corrections", json={"replace": other})
    assert reply.status_code == 200 and reply.json()["done"]
    state = client.get("/api/state").json()
    assert state["log"][-1]["move"] == other["move"] and state["events"] == 3
    assert client.post("/api/corrections", json={"undo": True}).status_code == 200
    state = client.get("/api/state").json()
    assert state["events"] == 2 and state["log"][-1]["kind"] == "undo" and state["log"][-1]["n"] == 3
    assert len(history.record(state["game_id"]).events) == 2
    kept = history.events(state["game_id"])
    assert [e["correction"] for e in kept if e["kind"] == "correction"] == [{"replace": other}, {"undo": True}]
    assert client.post("/api/corrections", json={"undo": True}).status_code == 200
    assert client.post("/api/corrections", json={"undo": True}).status_code == 200
    nothing = client.post("/api/corrections", json={"undo": True})
    assert nothing.status_code == 422 and nothing.json()["detail"]["code"] == "follow.nothing_to_undo"


def test_a_space_said_empty_is_taken_and_becomes_the_calibrations_bare_view_of_it(played, client):
    live, _, _, _ = played
    bare = live.watcher.bare[0]
    slot = "wall.2.2"
    before = bare.image.copy()
    live.watcher.bare[0].reads[slot] = "azul/red"  # as if calibration had taken its print for a tile
    reply = client.post("/api/corrections", json={"overrule": {"zone": f"boards.0.{slot}", "content": None}})
    assert reply.status_code == 200 and reply.json()["accepted"] == {"overrule": {"zone": f"boards.0.{slot}", "content": None}}
    assert bare.reads[slot] is None
    changed = np.argwhere((bare.image != before).any(axis=2))
    layout = load_layout(bare.layout)
    h, w = bare.image.shape[:2]
    x0, y0 = np.min(layout[slot].polygon, axis=0) * [w, h]
    x1, y1 = np.max(layout[slot].polygon, axis=0) * [w, h]
    assert len(changed) and changed[:, 1].min() >= x0 - 1 and changed[:, 1].max() <= x1 + 1
    assert changed[:, 0].min() >= y0 - 1 and changed[:, 0].max() <= y1 + 1  # that space only
    assert client.post("/api/corrections", json={"overrule": {"zone": "boards.0.hand", "content": []}}).status_code == 422


def test_a_new_game_from_the_page_keeps_the_last_in_the_history(following, make_client):
    live, history, _ = following(2)
    client = make_client(live, history)
    first = client.get("/api/state").json()
    assert first["events"] == 2
    assert client.post("/api/corrections", json={"new": True}).status_code == 200
    state = client.get("/api/state").json()
    assert state["game_id"] != first["game_id"] and state["events"] == 0 and state["log"] == []
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games[first["game_id"]]["closed"] and not games[first["game_id"]]["over"] and games[first["game_id"]]["events"] == 2
    assert games[state["game_id"]]["events"] == 0


def test_suggestions_only_when_asked_one_search_at_a_time_and_bounded(played, client):
    live, _, _, _ = played
    data = client.get("/api/suggestions?time=0.2&top=2").json()
    state = client.get("/api/state").json()
    assert data["player"] == state["to_move"] and 1 <= len(data["moves"]) <= 2 and data["position"] == state["position"]
    assert all(m["player"] == state["to_move"] and set(m["text"]) == set(m["reason"]) == {"en", "fr"} for m in data["moves"])
    for bad, code in (("time=99", "invalid.less_than_equal"), ("time=0", "invalid.greater_than"),
                      ("time=nan", "invalid.finite_number"), ("time=inf", "invalid.finite_number"),
                      ("top=0", "invalid.greater_than_equal"), ("top=1000", "invalid.less_than_equal")):
        reply = client.get(f"/api/suggestions?{bad}")
        assert reply.status_code == 422 and reply.json()["detail"]["code"] == code, (bad, reply.json())
    with live.searcher._running:  # a search running: the next waits its turn, not the tracker's core
        busy = client.get("/api/suggestions?time=0.2")
    assert busy.status_code == 429 and busy.json()["detail"]["code"] == "http.busy"


def test_every_refusal_is_worded_in_both_languages(client):
    from azulcam.i18n import messages

    for url in ("/api/games/0", "/api/games/999", "/api/suggestions?time=99", "/overlay/nope", "/nowhere"):
        detail = client.get(url).json()["detail"]
        for lang in ("en", "fr"):
            assert messages(lang).text(detail["code"], **detail["params"])
        assert detail["message"] == messages("en").text(detail["code"], **detail["params"])  # English unless asked
        # The message in the request's language: its ?lang=, else its Accept-Language (as the pages send theirs).
        said = messages("fr").text(detail["code"], **detail["params"])
        asked = url + ("&" if "?" in url else "?") + "lang=fr"
        assert client.get(asked).json()["detail"]["message"] == said, asked
        assert client.get(url, headers={"Accept-Language": "fr-FR,fr;q=0.9"}).json()["detail"]["message"] == said
    assert json.loads(client.get("/api/openapi.json").text)["info"]["title"] == "azulcam"


def test_every_zone_is_named_in_words_for_the_tooltips_in_both_languages(played, client):
    _, history, record, _ = played
    en, fr = (client.get(f"/api/places?lang={lang}").json() for lang in ("en", "fr"))
    assert en["boards.1.wall.0.0"] == "Player 2, wall, row 1, column 1" and fr["boards.1.wall.0.0"] == "Joueur 2, mur, ligne 1, colonne 1"
    assert en["factories.4"] == "factory display 5" and en["center"] == "centre of the table"
    assert len(en) == 2 * (25 + 15 + 7) + 5 + 1  # every board space of both players, the five displays, the centre
    game_id = history.games()[0]["id"]
    assert client.get(f"/api/places?game={game_id}&lang=fr").json() == fr
    missing = client.get("/api/places?game=999")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "http.no_game"


def test_a_tapped_supply_space_offers_every_colour_or_nothing():
    game = Game.new("pavilion", 2, {"side": "colored"})
    choices = [c["content"] for c in zone_choices(game, "supply.3")["choices"]]
    assert choices[0] is None and set(choices[1:]) <= set(game.state.spec.colors) and len(choices) > 1
