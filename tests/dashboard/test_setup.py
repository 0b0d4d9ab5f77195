"""A first run without a profile: the page sets the table up. The boards are found in the
camera's picture (or placed by hand), the game and its options chosen, and the game begins from
that view; its profile and the boards' bare look are kept for the next run."""

from __future__ import annotations

import json

import numpy as np

from azulcam.calibration.profile import Profile
from azulcam.dashboard.setup import PROFILE_NAME

OPTIONS = {"wall": "colored", "jokers": False}


def test_a_first_run_sets_the_table_up_from_the_page_and_keeps_the_profile(first_run, make_client):
    setup, history, scene, data = first_run
    client = make_client(None, history, setup=setup)
    assert client.get("/", follow_redirects=False).headers["location"] == "/setup"
    assert client.get("/?lang=fr", follow_redirects=False).headers["location"] == "/setup?lang=fr"  # the language kept
    waiting = client.get("/api/state")
    assert waiting.status_code == 409 and waiting.json()["detail"]["code"] == "dash.not_set_up"
    assert client.get("/api/setup").json() == {"set_up": False, "size": [1280, 720]}
    assert client.get("/setup/snapshot.jpg").content[:2] == b"\xff\xd8"
    found = client.post("/api/setup/find", json={"game": "azul", "players": 4, "side": "colored"}).json()
    truth = [np.array(b["corners"]) for b in scene.truth["profile"]["boards"]]
    assert found["scoring"] is None and len(found["boards"]) == 4
    assert all(min(np.abs(np.array(c) - t).max() for t in truth) < 8 for c in found["boards"])
    wrong = client.post("/api/setup/start", json={"game": "azul", "boards": found["boards"], "names": ["Ann"]})
    assert wrong.status_code == 422 and wrong.json()["detail"]["code"] == "setup.names"
    started = client.post("/api/setup/start", json={"game": "azul", "boards": found["boards"],
                                                    "names": ["Ann", "Bob", "Cy", "Dee"]})
    assert started.status_code == 200, started.json()
    state = client.get("/api/state").json()
    assert state["names"] == ["Ann", "Bob", "Cy", "Dee"] and state["events"] == 0 and state["options"] == OPTIONS
    assert client.get("/", follow_redirects=False).status_code == 200
    assert client.post("/api/setup/find", json={"game": "azul", "players": 4}).json()["detail"]["code"] == "dash.set_up_already"
    kept = Profile.from_json(__import__("json").loads((data / PROFILE_NAME).read_text()))
    assert kept.player_count == 4 and all(b.bare is not None for b in kept.boards)  # the next run reads with it


def test_boards_placed_by_hand_are_refined_and_a_bad_placement_is_refused_in_words(first_run, make_client):
    setup, history, scene, _ = first_run
    client = make_client(None, history, setup=setup)
    truth = [[[x + 3, y - 2] for x, y in b["corners"]] for b in scene.truth["profile"]["boards"]]  # clicked a little off
    wrong_game = client.post("/api/setup/start", json={"game": "pavilion", "boards": truth,
                                                       "scoring": truth[0]})
    assert wrong_game.status_code == 422 and wrong_game.json()["detail"]["code"] == "setup.unconfirmed"
    for body, code in (({"game": "azul", "boards": [[[0, 0]] * 3]}, "invalid.too_short"),
                       ({"game": "azul", "boards": truth, "jokers": "yes"}, "invalid.bool_type"),
                       ({"game": "chess", "boards": truth}, "invalid.literal_choice"),
                       ({"game": "azul", "players": 9}, "invalid.less_than_equal"),
                       # names a record can hold: a blank one would be refused when the game is read back
                       ({"game": "azul", "boards": truth, "names": ["  ", "Bo", "Cy", "Di"]}, "invalid.empty"),
                       ({"game": "azul", "boards": truth, "names": ["A\ud800", "Bo", "Cy", "Di"]}, "invalid.not_unicode")):
        reply = client.post("/api/setup/find" if "players" in body else "/api/setup/start",  # JSON escapes a lone surrogate
                            content=json.dumps(body), headers={"content-type": "application/json"})
        assert reply.status_code == 422 and reply.json()["detail"]["code"] == code, (body, reply.json())
    assert client.post("/api/setup/start", json={"game": "azul", "boards": truth}).status_code == 200
    assert client.get("/api/state").json()["players"] == 4
