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


def named(found, code, **params):
    """Whether ``found`` (a rules check's problems) holds one ``code`` with (at least) ``params``:
    the rule broken, and the place."""
    return any(p.code == code and params.items() <= p.params.items() for p in found)


@pytest.mark.parametrize("change, code, params", [
    (lambda o: o["boards"][0]["slots"].update({"line.2.0": "red", "line.2.1": "blue"}),
     "problem.line_mixed", {"player": 0, "line": 2, "tiles": ["blue", "red"]}),
    (lambda o: o["boards"][0]["slots"].update({"line.3.1": "red"}) or o["boards"][0]["slots"].pop("line.3.0", None),
     "problem.line_gap", {"player": 0, "line": 3}),
    (lambda o: o["boards"][1]["slots"].update({"wall.0.0": "red"}),
     "problem.wall_color", {"player": 1, "tile": "red", "row": 0, "column": 0, "printed": "blue"}),
    (lambda o: o["boards"][0]["slots"].update({"floor.3": "blue"}) or [o["boards"][0]["slots"].pop(f"floor.{i}", None) for i in range(3)],
     "problem.floor_gap", {"player": 0}),
    (lambda o: o["center"].update({"first_player": 1}) or o["boards"][0]["slots"].update({"floor.0": "first_player"}),
     "problem.markers", {"n": 2}),
    (lambda o: o["factories"][0].update(tiles=["black"] * 25), "problem.too_many", {"tile": "black", "limit": 20}),
    (lambda o: o["center"].update({"joker": 1}), "problem.no_jokers", {"n": 1, "limit": 0}),
], ids=["line mixed", "line gap", "wall colour", "floor gap", "two markers", "too many", "no jokers"])
def test_impossible_azul_sights_are_named(change, code, params):
    view = _azul_view()
    view["center"] = {k: v for k, v in view["center"].items() if k != "first_player"}
    for b in view["boards"]:
        b["slots"] = {k: v for k, v in b["slots"].items() if v != "first_player"}
    assert problems(view, {"wall": "colored"}) == []
    broken = copy.deepcopy(view)
    change(broken)
    found = problems(broken, {"wall": "colored"})
    assert named(found, code, **params), found


def test_grey_wall_colours_twice_in_a_row_or_column():
    view = _azul_view("grey")
    slots = view["boards"][1]["slots"]
    for r in range(5):
        for c in range(5):
            slots.pop(f"wall.{r}.{c}", None)
    assert not [p for p in problems(view, {"wall": "grey"}) if p.code.startswith("problem.wall")]
    slots.update({"wall.1.0": "red", "wall.1.3": "red", "wall.2.4": "blue", "wall.4.4": "blue"})
    found = problems(view, {"wall": "grey"})
    assert named(found, "problem.wall_row_twice", player=1, tile="red", row=1)
    assert named(found, "problem.wall_column_twice", player=1, tile="blue", column=4)


def test_impossible_pavilion_sights_are_named():
    obs = {"game": "pavilion", "factories": [], "center": {}, "supply": [None] * 10,
           "boards": [{"player": 0, "slots": {"0.1": "red", "0.4": "red", "3.2": "red", "1.1": "green"}, "hand": {}},
                      {"player": 1, "slots": {"2.1": "blue", "2.2": "red", "2.3": "blue"}, "hand": {"orange": 23}}]}
    colored = problems(obs, {"side": "colored"})
    assert named(colored, "problem.star_twice", player=0, tile="red", star=0)
    assert named(colored, "problem.star_color", player=0, tile="green", star=1, space=1)
    assert named(colored, "problem.too_many", tile="orange", n=23, limit=22)  # the hand's tiles counted once
    grey = problems(obs, {"side": "grey"})
    assert named(grey, "problem.star_twice", player=1, tile="blue", star=2)
    assert not named(grey, "problem.star_color", star=1)  # a single-colour grey star may be any colour
