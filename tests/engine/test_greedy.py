"""The engines' greedy_move: what the greedy player plays, found without building every move,
is the first move of the most immediate points in legal order, in every variant and phase."""

from __future__ import annotations

import random

import pytest

from azulcam.engine.azul import AzulState
from azulcam.engine.common import CHANCE, GameState
from azulcam.engine.pavilion import PavilionState

VARIANTS = [
    (AzulState, {"wall": "colored", "jokers": False}),
    (AzulState, {"wall": "grey", "jokers": False}),
    (AzulState, {"wall": "colored", "jokers": True}),
    (AzulState, {"wall": "grey", "jokers": True}),
    (PavilionState, {"side": "colored"}),
    (PavilionState, {"side": "grey"}),
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("kind", "options"), VARIANTS)
def test_greedy_move_is_the_first_best_legal_move(kind, options, players):
    checked = 0
    for seed in range(3):
        rng = random.Random(seed * 7 + players)
        state = kind.new(players, **options)
        while not state.is_over():
            if state.current_player == CHANCE:
                state.apply_chance_unchecked(state.sample_chance(rng))
                continue
            expected = GameState.greedy_move(state)  # every legal move, judged one by one
            assert state.greedy_move() == expected, f"seed {seed}, round {state.round}, {state.phase}"
            checked += 1
            moves = state.legal_moves()
            # Half random, half greedy: the positions of both kinds of play, floors and all.
            state.play_unchecked(moves[rng.randrange(len(moves))] if rng.random() < 0.5 else expected)
    assert checked > 50
