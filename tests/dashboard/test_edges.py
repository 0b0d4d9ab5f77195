"""The dashboard at its edges: each request the issue found answered with a 500, or taken when it
should not be, now gets the answer named here, and the game followed goes on."""

from __future__ import annotations

import sqlite3

import pytest

from azulcam.dashboard.history import History, HistoryError
from azulcam.dashboard.words import described
from azulcam.engine.record import Record
from azulcam.i18n.words import words


def _code(reply) -> str:
    return reply.json()["detail"]["code"]


def test_an_unknown_tile_is_refused_before_it_reaches_the_tracker_and_the_game_goes_on(played, client):
    live, _, _, _ = played
    reply = client.post("/api/corrections", json={"overrule": {"zone": "boards.0.wall.0.0", "content": "banana"}})
    assert reply.status_code == 422 and _code(reply) == "invalid.literal_choice"
    assert reply.json()["detail"]["params"]["field"].startswith("body.overrule.content")
    taken = client.post("/api/corrections", json={"overrule": {"zone": "boards.0.wall.0.1", "content": None}})
    assert taken.status_code == 200 and taken.json()["done"]  # the tracker still takes corrections
    assert live.health()["error"] is None


def test_empty_as_null_is_taken(client):
    reply = client.post("/api/corrections", json={"overrule": {"zone": "boards.1.wall.4.4", "content": None}})
    assert reply.status_code == 200 and reply.json()["done"]


@pytest.mark.parametrize("raw, code", [
    (b'{"undo": NaN}', "invalid.literal_error"),
    (b'{"undo": Infinity}', "invalid.literal_error"),
    (b'{"overrule": {"zone": "boards.0.wall.0.0", "content": "\\ud800"}}', "invalid.not_unicode"),
    (b'{"replace": {"player": "\\udfff"}}', "invalid.not_unicode"),
    (b'{"undo": tru', "invalid.json_invalid"),
    (b"\xff\xfe", "invalid.json_invalid"),
])
def test_bodies_that_json_allows_and_python_cannot_store_are_422_and_nothing_is_kept(played, client, raw, code):
    _, history, _, _ = played
    game = client.get("/api/state").json()["game_id"]
    kept = len(history.events(game))
    reply = client.post("/api/corrections", content=raw, headers={"content-type": "application/json"})
    assert reply.status_code == 422 and _code(reply) == code, reply.text
    assert len(history.events(game)) == kept
    assert client.get(f"/api/games/{game}/events").status_code == 200


def test_a_body_past_the_limit_is_413_and_never_stored(played, client):
    _, history, _, _ = played
    game = client.get("/api/state").json()["game_id"]
    kept = len(history.events(game))
    big = b'{"replace": {"x": "' + b"a" * (10 * 1024 * 1024) + b'"}}'
    reply = client.post("/api/corrections", content=big, headers={"content-type": "application/json"})
    assert reply.status_code == 413 and _code(reply) == "http.too_large"
    streamed = client.post("/api/corrections", content=iter([b'{"replace": {"x": "', b"a" * 70_000, b'"}}']),
                           headers={"content-type": "application/json"})
    assert streamed.status_code == 413  # no Content-Length: counted as it comes
    assert len(history.events(game)) == kept


@pytest.mark.parametrize("url, status, code", [
    ("/api/games/99999999999999999999", 422, "invalid.less_than_equal"),
    ("/api/games/-1", 422, "invalid.greater_than_equal"),
    ("/api/games/abc", 422, "invalid.int_parsing"),
    ("/api/games/999", 404, "http.no_game"),
    ("/api/games/999/replay", 404, "http.no_game"),
    ("/api/games/999/events", 404, "http.no_game"),
    ("/api/games?limit=0", 422, "invalid.greater_than_equal"),
    ("/api/zones/" + "x" * 200, 422, "invalid.string_too_long"),
    ("/nowhere", 404, "http.not_found"),
])
def test_ids_and_numbers_are_checked_never_a_500(client, url, status, code):
    reply = client.get(url)
    assert reply.status_code == status and _code(reply) == code, reply.text


def test_an_unknown_game_page_says_so_and_an_unknown_language_falls_back(client):
    page = client.get("/games/999")
    assert page.status_code == 404 and "replay.js" in page.text  # the page words the refusal itself
    assert client.get("/api/strings?lang=de").json()["lang"] == "en"
    assert client.get("/api/strings?lang=de", headers={"Accept-Language": "de-DE,fr;q=0.8"}).json()["lang"] == "fr"


def test_a_take_of_jokers_alone_is_worded():
    record = Record("azul", 2, {"wall": "colored", "jokers": True}, 0, [])
    event = {"kind": "move", "player": 0, "move": {"action": "take", "source": 1, "color": None, "line": 2, "jokers": True}}
    assert described(event, record) == {"en": "Player 1 takes the jokers from display 2 to pattern line 3",
                                        "fr": "Joueur 1 prend les jokers de la fabrique 2 vers la ligne de motif 3"}
    both = {**event, "move": {**event["move"], "color": "red", "floor_jokers": 1}}
    assert described(both, record)["en"] == ("Player 1 takes the red tiles and the jokers from display 2 to pattern line 3, "
                                             "1 joker to the floor")


def test_a_game_with_a_take_of_jokers_alone_replays(tmp_path, played, make_client):
    from azulcam.engine.players import make_player
    from azulcam.engine.record import play_game

    live, _, _, _ = played
    record = play_game("azul", [make_player("greedy", 0), make_player("random", 1)], {"wall": "colored", "jokers": True}, 0).record
    assert any("move" in e and e["move"]["action"] == "take" and e["move"]["color"] is None for e in record.events)
    history = History(tmp_path / "history.sqlite")
    game = history.start(record, "a record")
    steps = make_client(live, history).get(f"/api/games/{game}/replay")
    assert steps.status_code == 200 and any("jokers" in (s["text"] or {}).get("en", "") for s in steps.json())
    history.shut()


def test_a_damaged_history_is_named_with_its_path_and_kept(tmp_path):
    path = tmp_path / "history.sqlite"
    path.write_bytes(b"not a database, but somebody's file" * 100)
    with pytest.raises(HistoryError) as refused:
        History(path)
    assert refused.value.code == "history.unreadable" and refused.value.params["path"] == str(path)
    assert words(refused.value).startswith(f"the history {path} cannot be read")
    assert path.read_bytes().startswith(b"not a database")


def test_an_empty_history_beside_journals_is_refused_not_replaced(tmp_path):
    (tmp_path / "game-1.journal").write_text('{"format": "azulcam-journal/1"}\n')
    path = tmp_path / "history.sqlite"
    path.write_bytes(b"")
    with pytest.raises(HistoryError) as refused:
        History(path)
    assert refused.value.code == "history.lost" and refused.value.params["journals"] == 1
    assert "empty, but 1 game journals lie beside it (game-1.journal, ...)" in words(refused.value)
    assert path.read_bytes() == b"" and (tmp_path / "game-1.journal").exists()
    History(tmp_path / "elsewhere.sqlite").shut()  # a new history beside the same journals is another file: fine


def test_the_schema_carries_its_version_and_an_old_history_is_brought_up(tmp_path):
    path = tmp_path / "history.sqlite"
    old = sqlite3.connect(path)  # the schema before version 1: no event count a game
    old.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY, started REAL NOT NULL, source TEXT NOT NULL, game TEXT NOT NULL,"
                      " players TEXT NOT NULL, options TEXT NOT NULL, record TEXT NOT NULL, scores TEXT NOT NULL,"
                      " over INTEGER NOT NULL DEFAULT 0, closed INTEGER NOT NULL DEFAULT 0);")
    record = Record("azul", 2, {"wall": "colored", "jokers": False}, 0, [])
    old.execute("INSERT INTO games (started, source, game, players, options, record, scores) VALUES (0, 'x', 'azul', '2', '{}', ?, '[]')",
                (record.dumps(),))
    old.commit()
    old.close()
    history = History(path)
    assert history.games()[0]["events"] == 0
    history.shut()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1
    newer = sqlite3.connect(path)
    newer.execute("PRAGMA user_version = 99")
    newer.commit()
    newer.close()
    with pytest.raises(HistoryError) as refused:
        History(path)
    assert refused.value.code == "history.newer" and (refused.value.params["version"], refused.value.params["most"]) == (99, 1)


def test_listing_games_does_not_parse_their_records(tmp_path):
    history = History(tmp_path / "history.sqlite")
    game = history.start(Record("azul", 2, {"wall": "colored", "jokers": False}, 0, []), "test")
    history._db.execute("UPDATE games SET record = 'not json' WHERE id = ?", (game,))
    assert history.games()[0]["id"] == game  # listed all the same; only its record page would fail
    history.shut()


def test_a_correction_answered_before_it_is_made_is_still_made_and_the_watch_goes_on(following, make_client, monkeypatch):
    from azulcam.dashboard.routes import api

    live, history, _ = following(3)
    client = make_client(live, history)
    monkeypatch.setattr(api, "CORRECTION_WAIT", 0.0)  # the watch thread never in time
    reply = client.post("/api/corrections", json={"undo": True})
    assert reply.status_code == 202 and not reply.json()["done"]
    for _ in range(100):
        if client.get("/api/state").json()["events"] == 2:
            break
        live.done.wait(0.05)
    assert client.get("/api/state").json()["events"] == 2  # made all the same
    monkeypatch.setattr(api, "CORRECTION_WAIT", 10.0)
    assert client.post("/api/corrections", json={"undo": True}).status_code == 200  # and the watch thread lives on
    assert client.get("/api/state").json()["events"] == 1


def test_a_line_names_the_players_by_the_record_and_cuts_where_a_player_is_named():
    from azulcam.dashboard.words import described_parts

    record = Record("azul", ["Ann", "Bob"], {"wall": "colored", "jokers": False}, 0, [])
    event = {"kind": "move", "player": 1, "move": {"action": "take", "source": 1, "color": "red", "line": 2}}
    assert described(event, record)["en"] == "Bob takes the red tiles from display 2 to pattern line 3"
    parts = described_parts({"kind": "undo", "event": {k: v for k, v in event.items() if k != "kind"}}, record)
    assert parts["fr"] == ["Annulé : ", {"player": 1}, " prend les tuiles rouges de la fabrique 2 vers la ligne de motif 3"]
