"""The engines' verdict on a position as seen (``azulcam.engine.position.problems``): every
position of a real game passes, and each kind of impossible sight is named with its place."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from azulcam.engine.position import problems
from azulcam.engine.record import Record, replay
from azulcam.synth.table import Table, arrange, observation, zone_contents

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"
NAMES = sorted(p.name for p in RECORDS.glob("*.json") if not p.name.endswith(".score.json"))


def seen(state, arrangement) -> dict:
    """The observation a perfect reader would print of ``state`` (factory centres left at 0)."""
    contents = zone_contents(state)
    table = Table(arrangement, [])
    return observation(table, contents, lambda pts: np.zeros((len(pts), 2)))


@pytest.mark.parametrize("name", NAMES)
def test_every_position_of_a_real_game_is_possible(name):
    record = Record.load(RECORDS / name)
    state = record.new_state()
    arrangement = arrange(state.game, state.players, state.spec.layout(state.options), np.random.default_rng(0))
    for step in replay(record):
        assert problems(seen(step.state, arrangement), record.options) == [], f"after event {step.index}"


def _azul_view(wall="colored"):
    record = Record.load(RECORDS / ("azul-2p-colored.json" if wall == "colored" else "azul-3p-grey.json"))
    steps = [s.state.copy() for s in replay(record)]
    state = steps[len(steps) // 2]
    arrangement = arrange("azul", state.players, state.spec.layout(state.options), np.random.default_rng(0))
    return seen(state, arrangement)


@pytest.mark.parametrize("change, message", [
    (lambda o: o["boards"][0]["slots"].update({"line.2.0": "red", "line.2.1": "blue"}), "pattern line 2 holds blue and red"),
    (lambda o: o["boards"][0]["slots"].update({"line.3.1": "red"}) or o["boards"][0]["slots"].pop("line.3.0", None),
     "pattern line 3 is not filled from the right"),
    (lambda o: o["boards"][1]["slots"].update({"wall.0.0": "red"}), "a red tile on wall.0.0, printed blue"),
    (lambda o: o["boards"][0]["slots"].update({"floor.3": "blue"}) or [o["boards"][0]["slots"].pop(f"floor.{i}", None) for i in range(3)],
     "the floor line is not filled from the left"),
    (lambda o: o["center"].update({"first_player": 1}) or o["boards"][0]["slots"].update({"floor.0": "first_player"}),
     "the first-player marker is seen 2 times"),
    (lambda o: o["factories"][0].update(tiles=["black"] * 25), "black tiles in view, but the game has 20"),
    (lambda o: o["center"].update({"joker": 1}), "1 jokers in view, but the game has 0"),
])
def test_impossible_azul_sights_are_named(change, message):
    view = _azul_view()
    view["center"] = {k: v for k, v in view["center"].items() if k != "first_player"}
    for b in view["boards"]:
        b["slots"] = {k: v for k, v in b["slots"].items() if v != "first_player"}
    assert problems(view, {"wall": "colored"}) == []
    broken = copy.deepcopy(view)
    change(broken)
    found = problems(broken, {"wall": "colored"})
    assert any(message in p for p in found), found


def test_grey_wall_colours_twice_in_a_row_or_column():
    view = _azul_view("grey")
    slots = view["boards"][1]["slots"]
    for r in range(5):
        for c in range(5):
            slots.pop(f"wall.{r}.{c}", None)
    assert not [p for p in problems(view, {"wall": "grey"}) if "wall" in p]
    slots.update({"wall.1.0": "red", "wall.1.3": "red", "wall.2.4": "blue", "wall.4.4": "blue"})
    found = problems(view, {"wall": "grey"})
    assert "board 1: red twice on wall row 1" in found and "board 1: blue twice in wall column 4" in found


def test_impossible_pavilion_sights_are_named():
    obs = {"game": "pavilion", "factories": [], "center": {}, "supply": [None] * 10,
           "boards": [{"player": 0, "slots": {"0.1": "red", "0.4": "red", "3.2": "red", "1.1": "green"}, "hand": {}},
                      {"player": 1, "slots": {"2.1": "blue", "2.2": "red", "2.3": "blue"}, "hand": {"orange": 23}}]}
    colored = problems(obs, {"side": "colored"})
    assert "board 0: red twice on the multicolour star 0" in colored
    assert "board 0: a green tile on 1.1, on the purple star" in colored
    assert "24 orange tiles in view, but the game has 22" not in colored and any("orange tiles in view" in p for p in colored)
    grey = problems(obs, {"side": "grey"})
    assert "board 1: blue twice on the multicolour star 2" in grey
    assert not any("1.1" in p for p in grey)  # a single-colour grey star may be any colour
