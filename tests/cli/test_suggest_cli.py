"""``azulcam suggest``: the moves ranked as JSON, for people in either language, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.cli import assert_one_line_error, run

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
        # The outlook says what the search saw: this round's points, and what the move leaves the next player.
        said, leaves = move["outlook"]["en"], move["leaves"]
        assert said.startswith(f"this round {round(move['points']['gained'], 1) + 0.0:+.1f} and "
                               f"{round(-move['points']['lost'], 1) + 0.0:+.1f} on average")
        assert f"leaves Player {leaves['player'] + 1} {round(leaves['gained'], 1) + 0.0:+.1f} this round" in said
        assert (f"likeliest answer: Player {leaves['player'] + 1} takes" in said) == (leaves["answer"] is not None)
        assert move["outlook"]["fr"].startswith("cette manche")


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
    assert "-0.0" not in out  # a loss of nothing is said "+0.0"


@pytest.mark.parametrize("argv, message", [
    (["--at", "999"], "--at 999: the record has"),
    (["--at", "0"], "a deal"),
])
def test_suggest_refuses_what_it_cannot_do(capsys, argv, message):
    code, _, err = run(["suggest", str(RECORD), "--time", "0.1", *argv], capsys)
    assert code == 1 and message in assert_one_line_error(err)


@pytest.mark.parametrize("argv, message", [
    (["--time", "0"], "--time: expected a number above 0 up to 60, not 0"),
    (["--time", "-1"], "--time: expected a number above 0"),
    (["--time", "nan"], "--time: expected a number above 0"),
    (["--time", "inf"], "--time: expected a number above 0"),
    (["--time", "1e9"], "--time: expected a number above 0"),
    (["--top", "0"], "--top: expected a number from 1 to 100, not 0"),
    (["--top", "-1"], "--top: expected a number from 1 to 100"),
    (["--top", "2.5"], "--top: expected a whole number, not '2.5'"),
])
def test_suggest_parameters_are_checked_where_they_are_parsed(capsys, argv, message):
    code, out, err = run(["suggest", str(RECORD), *argv], capsys)
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_every_move_listed_rests_on_enough_playouts_and_a_long_list_lists_them_all(capsys):
    from azulcam.engine.ai import MIN_PLAYOUTS
    from azulcam.engine.record import Game, Record

    record = Record.from_json(json.loads((RECORD.parent / "azul-4p-colored-jokers.json").read_text()))
    at = next(k for k in range(1, len(record.events)) if "deal" in record.events[k - 1])  # a fresh round: many moves
    state = Game(Record(record.game, record.players, record.options, record.start_player, record.events[:at])).state
    legal = len(state.legal_moves())
    code, out, err = run(["suggest", str(RECORD.parent / "azul-4p-colored-jokers.json"), "--at", str(at), "--time", "0.05",
                          "--top", "100", "--seed", "3"], capsys)
    moves = json.loads(out)["moves"]
    assert code == 0 and len(moves) == min(legal, 100) and legal > 20, err
    assert all(m["playouts"] >= MIN_PLAYOUTS for m in moves)
    assert len({json.dumps(m["move"], sort_keys=True) for m in moves}) == len(moves)


def test_the_chance_to_win_applies_the_games_tie_break(monkeypatch):
    """Two players level on points: Azul gives the game to the one with more complete wall rows."""
    import random

    from azulcam.engine import ai

    class Ended:  # a playout already over: only its verdict counts
        game, phase, current_player = "azul", "end", ai.TERMINAL

        def copy(self):
            return self

        def play_unchecked(self, move):
            pass

        def scores(self):
            return [30, 30]

        def winners(self):
            return [1]  # the tie-break's choice

    monkeypatch.setattr(ai, "_penalties", lambda state, player: 0)
    candidate = ai.Suggestion(move=None, player=1)
    ai._playout(Ended(), candidate, random.Random(0))
    assert candidate.wins == 1.0  # not the half a shared win would give
