"""Game.apply keeps the state and its record together, whatever form a move comes in."""

from __future__ import annotations

import random

import pytest

from azulcam.engine.errors import IllegalMoveError
from azulcam.engine.record import Game, Record, final_state


@pytest.mark.parametrize("game", ["azul", "pavilion"])
@pytest.mark.parametrize("form", ["move", "json", "text"])
def test_every_move_form_is_recorded(game: str, form: str) -> None:
    match = Game.new(game, 2)
    rng = random.Random(4)
    for _ in range(30):
        state = match.state
        if state.current_player < 0:
            match.apply(state.sample_chance(rng))
            continue
        move = state.legal_moves()[rng.randrange(len(state.legal_moves()))]
        match.apply({"move": move, "json": move.to_json(), "text": str(move)}[form])
    replayed = final_state(Record.loads(match.record.dumps()))
    assert replayed == match.state


def test_a_refused_move_changes_neither_state_nor_record() -> None:
    match = Game.new("azul", 2)
    match.apply(match.state.sample_chance(random.Random(1)))
    before = match.state.copy()
    with pytest.raises(IllegalMoveError):
        match.apply("take center blue 0")  # the centre is empty at the start of a round
    assert match.state == before and len(match.record.events) == 1
