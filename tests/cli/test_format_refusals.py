"""The issue's broken records through ``azulcam score``, each with the answer it gets: one line
naming the field by its path and what is wrong, exit 1 (never an internal error, never a number
quietly truncated)."""

from __future__ import annotations

import copy
import json

import pytest

from support.cli import assert_one_line_error, run
from support.fuzzing import positioned, profiles

AZUL, PAVILION = (next(r for r in positioned() if r["game"] == game and r["players"] == 2) for game in ("azul", "pavilion"))
AT = "events.0.position"


def _score(record, tmp_path, capsys) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = run(["score", str(path)], capsys)
    assert code == 1 and out == "", (code, err)
    return assert_one_line_error(err).split(".json: ", 1)[1]  # less "azulcam score: error: record PATH"


def _with(record, *path_value):
    record = copy.deepcopy(record)
    *path, value = path_value
    node = record["events"][0]["position"]
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return record


@pytest.mark.parametrize("record, path, value, answer", [
    (PAVILION, ("round",), 7, f"{AT}.round must be at most 6"),
    (PAVILION, ("round",), 0, f"{AT}.round must be at least 1"),
    (AZUL, ("marker",), 9, f"{AT}.marker must be at most 3"),
    (AZUL, ("marker",), 2, f"{AT}.marker is not one of the game's 2 players"),
    (PAVILION, ("token",), 9, f"{AT}.token must be at most 3"),
    (AZUL, ("boards", 0, "score"), -1000, f"{AT}.boards.0.score must be at least 0"),
    (PAVILION, ("boards", 1, "score"), 10**20, f"{AT}.boards.1.score must be at most 1000"),
    (AZUL, ("boards", 0, "score"), "12", f"{AT}.boards.0.score must be a whole number"),
    (AZUL, ("boards", 0, "score"), 12.9, f"{AT}.boards.0.score must be a whole number"),
    (AZUL, ("to_move",), 1.7, f"{AT}.to_move must be a whole number"),
    (AZUL, ("to_move",), 2, f"{AT}.to_move is not one of the game's 2 players"),
    (AZUL, ("round",), -5, f"{AT}.round must be at least 1"),
    (AZUL, ("boards", 0, "bonus"), {"rows": True}, f"{AT}.boards.0.bonus.rows must be a whole number"),
    (AZUL, ("bag", "blue"), 14.0, f"{AT}.bag.blue must be a whole number"),
    (AZUL, ("boards", 1, "lines", 2), {"color": "red", "count": 3, "jokers": 1},
     f"{AT}.boards.1.lines: pattern line 3 holds 4 tiles, at most 3"),
    (PAVILION, ("factories",), [[]], f"{AT}.factories must hold 5, not 1"),
])
def test_a_position_s_field_out_of_its_range_is_named(record, path, value, answer, tmp_path, capsys):
    assert _score(_with(record, *path, value), tmp_path, capsys) == answer


def test_a_player_named_with_a_lone_surrogate_is_refused(tmp_path, capsys):
    record = {**AZUL, "players": ["Ann", "B\ud800"]}
    assert _score(record, tmp_path, capsys) == "players.1 holds text that is not valid Unicode"


def test_a_profile_given_as_a_record_is_named_by_its_format(tmp_path, capsys):
    assert _score(profiles()[0], tmp_path, capsys) == "format must be 'azulcam-record/1'"


def test_a_move_of_the_wrong_form_is_named_by_its_event(tmp_path, capsys):
    record = copy.deepcopy(AZUL)
    k = next(i for i, e in enumerate(record["events"]) if "move" in e and e["move"]["action"] == "take")
    record["events"][k]["move"]["line"] = 5
    assert _score(record, tmp_path, capsys) == f"events.{k}.move.line must be at most 4"
    record["events"][k]["move"] = {"action": "steal"}
    assert _score(record, tmp_path, capsys) == f"events.{k}.move: 'action' must be one of 'take', 'wall'"
