"""``azulcam suggest``: the moves ranked as JSON, for people in either language, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_cli import assert_one_line_error, run

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"


def test_suggest_prints_the_moves_ranked(capsys):
    code, out, _ = run(["suggest", str(RECORD), "--at", "5", "--time", "0.2", "--top", "2", "--seed", "1"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "azulcam-suggestions/1" and data["at"] == 5 and len(data["moves"]) == 2
    for move in data["moves"]:
        assert move["player"] == data["player"] and 0 <= move["win"] <= 1 and move["playouts"] > 0
        assert {"gained", "lost"} == set(move["points"]) and "penalty" in move["why"]
        assert move["reason"]["en"] and move["reason"]["fr"] and move["text"]["en"].startswith("Player")


@pytest.mark.parametrize("game", ["azul-2p-grey-jokers", "azul-4p-colored-jokers", "pavilion-2p-colored"])
def test_every_legal_move_of_every_variant_has_a_reason(capsys, game):
    """Each move the search may rank says in one line what it does, in both languages."""
    from azulcam.dashboard.words import worded
    from azulcam.engine.ai import Suggestion, why
    from azulcam.engine.record import Record, replay

    record = Record.from_json(json.loads((RECORD.parent / f"{game}.json").read_text()))
    seen = set()
    for k, step in enumerate(replay(record)):
        state = step.state
        if state.current_player < 0 or state.phase in seen or k % 3:
            continue
        seen.add(state.phase)
        for move in list(state.legal_moves())[:40]:
            suggestion = Suggestion(move, state.current_player, why=why(state, move)).to_json()
            reason = worded(suggestion, record)["reason"]
            assert reason["en"] and reason["fr"], (game, state.phase, move)
    assert seen >= {"offer"} or seen >= {"acquire", "place"}


@pytest.mark.parametrize("lang, words", [("en", "Moves for Player"), ("fr", "Coups pour Joueur")])
def test_suggest_for_people(capsys, lang, words):
    code, out, _ = run(["suggest", str(RECORD), "--at", "5", "--time", "0.2", "--top", "1", "--text", "--lang", lang], capsys)
    assert code == 0 and out.startswith(words) and out.count("\n") == 2


@pytest.mark.parametrize("argv, message", [
    (["--at", "999"], "--at 999: the record has"),
    (["--at", "0"], "a deal"),
])
def test_suggest_refuses_what_it_cannot_do(capsys, argv, message):
    code, _, err = run(["suggest", str(RECORD), "--time", "0.1", *argv], capsys)
    assert code == 1 and message in assert_one_line_error(err)
