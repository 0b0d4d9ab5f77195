"""A position read from a record (``azulcam-state/1``) is a stranger's: every field a whole number
in its range, never truncated ("12", 12.9), never a bool for a number, the round one the game has."""

from __future__ import annotations

import copy
import random

import pytest

from azulcam.engine.azul import AzulState
from azulcam.engine.errors import StateError
from azulcam.engine.pavilion import PavilionState
from azulcam.i18n.words import words


def _state(game: str) -> dict:
    state = AzulState.new(2, "colored", True) if game == "azul" else PavilionState.new(2, "colored")
    state.apply_chance(state.sample_chance(random.Random(1)))
    return state.to_json()


@pytest.mark.parametrize("game, path, value, message", [
    ("pavilion", ("round",), 7, "round must be a whole number in 1..6, not 7"),
    ("pavilion", ("round",), 0, "round must be a whole number in 1..6, not 0"),
    ("pavilion", ("token",), 9, "token must be a whole number in 0..1, not 9"),
    ("azul", ("marker",), 9, "marker must be a whole number in 0..1, not 9"),
    ("azul", ("round",), -5, "round must be a whole number in 1..100, not -5"),
    ("azul", ("to_move",), 1.7, "to_move must be a whole number"),
    ("azul", ("to_move",), "1", "to_move must be a whole number"),
    ("azul", ("boards", 0, "score"), -1000, "boards[0].score must be a whole number in 0..1000"),
    ("azul", ("boards", 0, "score"), 10 ** 20, "boards[0].score must be a whole number in 0..1000"),
    ("azul", ("boards", 0, "score"), 12.9, "boards[0].score must be a whole number"),
    ("pavilion", ("boards", 1, "score"), -941, "boards[1].score must be a whole number in 1..1000"),
    ("azul", ("boards", 0, "bonus"), {"rows": True}, "boards[0].bonus.rows must be a whole number"),
    ("azul", ("bag", "blue"), 14.0, "bag.blue must be a whole number"),
])
def test_a_field_out_of_its_range_or_type_is_refused_by_name(game, path, value, message):
    data = copy.deepcopy(_state(game))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    cls = AzulState if game == "azul" else PavilionState
    with pytest.raises(StateError) as caught:
        cls.from_json(data)
    assert caught.value.code == "state.not_whole" and message in words(caught.value), words(caught.value)


@pytest.mark.parametrize("game", ["azul", "pavilion"])
def test_a_state_written_reads_back_the_same(game):
    data = _state(game)
    cls = AzulState if game == "azul" else PavilionState
    assert cls.from_json(data).to_json() == data
