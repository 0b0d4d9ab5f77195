"""The engine's incremental bookkeeping agrees with recomputing it from scratch."""

from __future__ import annotations

import random

import pytest

from azulcam.engine.azul import AzulState
from azulcam.engine.common import CHANCE


@pytest.mark.parametrize("wall", ["colored", "grey"])
@pytest.mark.parametrize("jokers", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_accept_masks_match_a_recount(wall: str, jokers: bool, players: int) -> None:
    rng = random.Random(f"{wall}{jokers}{players}")
    for _ in range(8):
        state = AzulState.new(players, wall, jokers)
        while not state.is_over():
            if state.current_player == CHANCE:
                state.apply_chance_unchecked(state.sample_chance(rng))
                continue
            moves = state.legal_moves()
            state.play_unchecked(moves[rng.randrange(len(moves))])
            for p in range(players):
                board = state.board(p).copy()
                incremental = board.accept[:]
                board.refresh_accept()
                assert incremental == board.accept, (p, state.to_json())
