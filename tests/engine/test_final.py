"""Final scores of a finished Azul game from what a photo shows: each marker plus the walls'
end-of-game bonuses (engine/final.py), and the engine's own bonuses from one function."""

from __future__ import annotations

import random

import pytest

from azulcam.engine.azul import end_bonuses, most_placement_points
from azulcam.engine.final import final_scores, is_finished
from azulcam.engine.observe import observation_of
from azulcam.engine.players import make_player
from azulcam.engine.position import read_observation
from azulcam.engine.errors import ObservationError
from azulcam.engine.record import play_game


def _finished(seed: int, wall: str = "colored", jokers: bool = False, players: int = 3):
    rng = random.Random(seed)
    bots = [make_player("greedy", rng.randrange(1 << 30)) for _ in range(players)]
    return play_game("azul", bots, {"wall": wall, "jokers": jokers}, rng.randrange(1 << 30)).state


def _photographed(state) -> dict:
    """The observation a perfect reader makes of a finished table: each marker on the points
    scored during the game (the score less the end-of-game bonuses)."""
    seen = observation_of(state)
    for board, parts in zip(seen["boards"], state.breakdown()):
        board["score"] = parts["placement"] + parts["penalties"]
    return read_observation(seen)


@pytest.mark.parametrize("seed, wall, jokers", [(1, "colored", False), (2, "grey", False), (3, "colored", True),
                                                (4, "grey", True)])
def test_a_finished_game_s_photo_gives_its_final_scores_and_winners(seed, wall, jokers):
    state = _finished(seed, wall, jokers)
    assert state.is_over()
    seen = _photographed(state)
    assert is_finished(seen)
    final = final_scores(seen)
    assert [e["score"] for e in final["players"]] == state.scores()
    assert final["winners"] == state.winners() and final["problems"] == []
    for e, parts in zip(final["players"], state.breakdown()):
        assert (e["rows"], e["columns"], e["colors"]) == (parts["rows"], parts["columns"], parts["colors"])
        assert e["marker"] <= most_placement_points([_index(t) for t in _wall_of(seen, e["player"])])


def _wall_of(seen: dict, player: int) -> list[str | None]:
    slots = seen["boards"][player]["slots"]
    return [slots.get(f"wall.{r}.{c}") for r in range(5) for c in range(5)]


def _index(name: str | None) -> int:
    from azulcam.engine.azul import TILE_NAMES

    return -1 if name is None else TILE_NAMES.index(name)


def test_end_bonuses_count_rows_columns_and_colours_but_never_a_joker_as_a_colour():
    full_row = [0, 1, 2, 3, 4] + [-1] * 20
    assert end_bonuses(full_row) == (2, 0, 0)
    column = [r if c == 0 else -1 for r in range(5) for c in range(5)]
    assert end_bonuses(column) == (0, 7, 0)
    blue = [0 if c == r else -1 for r in range(5) for c in range(5)]
    assert end_bonuses(blue) == (0, 0, 10)
    jokered = [5 if r == 0 and c == 0 else 0 if c == r else -1 for r in range(5) for c in range(5)]
    assert end_bonuses(jokered) == (0, 0, 0)


def test_a_wall_s_tiles_score_at_most_what_they_would_placed_last():
    assert most_placement_points([-1] * 25) == 0
    assert most_placement_points([0] + [-1] * 24) == 1
    assert most_placement_points([0, 1] + [-1] * 23) == 4  # each of the two: a run of 2


def test_what_makes_a_final_score_doubtful_is_named_with_its_player():
    state = _finished(5)
    seen = _photographed(state)
    seen["boards"][0]["score"] = None
    # Player 1's wall: one complete row and nothing else, 25 points at most when placed.
    seen["boards"][1]["slots"] = {f"wall.0.{c}": name for c, name in enumerate(("blue", "yellow", "red", "black",
                                                                               "white"))}
    seen["boards"][1]["score"] = 26
    seen["uncertain"] = ["boards.2.score", "boards.2.wall.0.0"]
    final = final_scores(seen)
    assert final["players"][0]["score"] is None and final["winners"] == []
    assert final["players"][1]["score"] == 26 + 2
    codes = {(p["code"], p["player"]) for p in final["problems"]}
    assert {("final.marker_unseen", 0), ("final.marker_unsure", 2), ("final.wall_unsure", 2)} <= codes
    too_far = [p for p in final["problems"] if p["code"] == "final.marker_too_far"]
    assert too_far == [{"code": "final.marker_too_far", "player": 1, "cell": 26, "most": 25}]


def test_a_game_under_way_is_not_finished_and_summer_pavilion_has_no_markers():
    from azulcam.engine.azul import AzulState

    assert not is_finished(observation_of(AzulState.new(2)))
    with pytest.raises(ObservationError) as caught:
        final_scores({"game": "pavilion", "boards": []})
    assert caught.value.code == "observation.final_not_azul"


def test_an_observation_s_marker_is_a_cell_of_an_azul_track():
    seen = observation_of(_finished(6))
    for cell in (101, True):
        seen["boards"][0]["score"] = cell
        with pytest.raises(ObservationError) as caught:
            read_observation(seen)
        assert caught.value.code == "observation.bad_score" and caught.value.params["field"] == "boards[0].score"
    seen["boards"][0]["score"] = 0
    assert read_observation(seen)["boards"][0]["score"] == 0
