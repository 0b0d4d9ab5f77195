"""Following by what changed: a space compared with itself, and the engine explaining the change.

The tracker's views here come from the truth with the change of every settled space as a perfect
change reader would see it (against the truth's content when the tracker settled it), and a
reader that misreads: the game must be followed all the same, since a space that did not change
keeps the content the engine gave it."""

import math

import numpy as np
import pytest

from azulcam.calibration.layouts import load_layout
from azulcam.engine.observe import empty_content, expected
from azulcam.engine.players import make_player
from azulcam.engine.record import Game, play_game, replay
from azulcam.follow.change import ChangeModel, moved_share, neighbours
from azulcam.follow.explain import ZoneRead, exact_view
from azulcam.follow.track import Tracker
from support.tracking import sorted_deals

SURE = math.log(1000.0)


def _follow(game, options, players, seed, events, misread_of):
    """The truth, and the tracker's record after a view of every position: ``misread_of(state)``
    gives the zones the reader reads wrong there; every settled space's change is seen."""
    truth = play_game(game, [make_player("greedy", seed + i) for i in range(players)], options, seed,
                      start_player=seed % players).record
    truth.events = truth.events[:events]
    tracker = Tracker(Game.new(game, players, options), first_near=(700, 400))
    references: dict[str, object] = {}  # the truth's content of each settled space when it was settled
    said = []
    for k, state in enumerate([truth.new_state()] + [step.state.copy() for step in replay(truth)]):
        view = exact_view(state, float(k), misread_of(state))
        now = expected(state)
        view.change = {z: ((SURE if now.get(z, empty_content(z)) != was else -SURE),) * 2 for z, was in references.items()}
        said += tracker.see(view)
        settled, forgotten = tracker.take_settled()
        for zone in settled:
            references[zone] = now.get(zone, empty_content(zone))
        for zone in forgotten:
            references.pop(zone, None)
    return truth, tracker, said


def _every_empty_printed_space_read_as_its_print(state):
    """A reader misled by a strong printing: each empty space printed with a colour read as a
    tile of that colour, at 0.99."""
    layout = load_layout(f"azul-{state.options['wall']}" if state.game == "azul" else f"pavilion-{state.options['side']}")
    exp = expected(state)
    return {f"boards.{p}.{s.id}": ZoneRead(s.printed, 0.99) for p in range(state.players) for s in layout.slots
            if s.printed and exp.get(f"boards.{p}.{s.id}") is None}


@pytest.mark.parametrize("game, options, players", [
    ("azul", {"wall": "colored", "jokers": False}, 2),
    ("pavilion", {"side": "colored"}, 3),
])
def test_a_reader_that_takes_every_printed_space_for_a_tile_still_follows_the_game(game, options, players):
    truth, tracker, said = _follow(game, options, players, 5, 40, _every_empty_printed_space_read_as_its_print)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events)
    assert not [e for e in said if e["kind"] == "alert"]


def test_a_space_misread_in_every_view_after_its_tile_came_keeps_the_tile():
    def line_read_empty(state):
        return {"boards.0.line.0.0": ZoneRead(None, 0.99)}  # read empty whatever lies there

    truth, tracker, said = _follow("azul", {"wall": "grey", "jokers": True}, 3, 7, 45, line_read_empty)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events)
    assert not [e for e in said if e["kind"] == "alert"]


def test_a_move_taken_back_forgets_what_it_settled():
    truth, tracker, _ = _follow("azul", {"wall": "colored", "jokers": False}, 2, 3, 6, lambda s: {})
    tracker.take_settled()
    before = dict(tracker.baseline)
    tracker.undo()
    _, forgotten = tracker.take_settled()
    assert forgotten and all(z in before and z not in tracker.baseline for z in forgotten)


def _patch(colour, tile=None, shift=(0, 0), noise=0, seed=0):
    """A 32 x 32 slot patch of a card in ``colour``, with a square tile body in the middle."""
    rng = np.random.default_rng(seed)
    patch = np.full((32, 32, 3), colour, np.float64)
    if tile is not None:
        patch[8:24, 8:24] = tile
        patch[24:26, 8:24] = 40  # its near side, darker
    patch = np.roll(patch, shift, axis=(0, 1))
    return np.clip(patch + rng.normal(0, noise, patch.shape), 0, 255).astype(np.uint8)


def test_a_tile_laid_moves_its_slot_and_noise_or_a_pixel_s_shift_does_not():
    bare = _patch((150, 160, 170), noise=3)
    tiled = _patch((150, 160, 170), tile=(60, 60, 200), noise=3, seed=1)
    again = _patch((150, 160, 170), shift=(1, 1), noise=3, seed=2)
    same_tile = _patch((150, 160, 170), tile=(60, 60, 200), shift=(0, 1), noise=3, seed=3)
    shares = moved_share(np.stack([tiled, again, same_tile]), np.stack([bare, bare, tiled]))
    assert shares[0] > 0.5 and shares[1] < 0.05 and shares[2] < 0.2
    outside = bare.copy()
    outside[:, :16] = 0  # cut with the image's black border
    assert np.isnan(moved_share(outside[None], bare[None])[0])
    model = ChangeModel()
    assert model.log_odds(shares[0]) > 2 and model.log_odds(shares[1]) < -2


def test_the_change_model_learns_this_table_s_noise():
    model = ChangeModel()
    rng = np.random.default_rng(0)
    for share in rng.uniform(0.0, 0.55, 400):  # a noisy table: unchanged slots move up to 0.55
        model.learn(float(share), False)
    for share in rng.uniform(0.8, 1.0, 20):
        model.learn(float(share), True)
    assert 0.55 < model.middle < 0.8
    assert model.log_odds(0.5) < 0 < model.log_odds(0.85)


def test_neighbours_are_the_spaces_beside_a_space():
    near = neighbours("azul-colored")
    assert "wall.0.1" in near["wall.0.0"] and "wall.1.0" in near["wall.0.0"]
    assert "wall.4.4" not in near["wall.0.0"] and "wall.0.0" not in near["wall.0.0"]


def test_a_board_registered_a_little_otherwise_is_no_change_a_tile_of_another_colour_is():
    tiled = _patch((150, 160, 170), tile=(60, 60, 200), noise=3, seed=1)
    off = _patch((150, 160, 170), tile=(60, 60, 200), shift=(3, -2), noise=3, seed=2)  # three pixels off
    other = _patch((150, 160, 170), tile=(200, 60, 60), shift=(2, 0), noise=3, seed=3)
    bare = _patch((150, 160, 170), shift=(-3, 3), noise=3, seed=4)
    shares = moved_share(np.stack([off, other, bare]), np.stack([tiled, tiled, tiled]))
    assert shares[0] < 0.05 and shares[1] > 0.3 and shares[2] > 0.5


@pytest.mark.parametrize("game, options, layout", [("azul", {"wall": "colored", "jokers": False}, "azul-colored"),
                                                    ("pavilion", {"side": "colored"}, "pavilion-colored")])
def test_a_view_weighs_each_state_as_every_zone_weighed_alone_would(game, options, layout):
    """The search weighs thousands of states against one view (ViewCost): only the zones a state
    puts something else in, or beside, are weighed again. The same figure and the same zones off
    as weighing every zone of the view, for every state two events on, with changes measured,
    neighbours that reach over and readings that disagree."""
    from azulcam.follow.explain import Changes, ViewCost, cost_of, successors

    truth = play_game(game, [make_player("greedy", 7 + i) for i in range(2)], options, 7, start_player=0).record
    states = [step.state.copy() for step in replay(truth)]
    state, later = states[5], states[9]
    rng = np.random.default_rng(3)
    view = exact_view(later, 1.0).zones
    for zone in rng.choice(sorted(view), 12, replace=False):
        view[zone] = ZoneRead(None if view[zone].content else "red", 0.9)  # readings that disagree
    near = {f"boards.{p}.{slot}": frozenset(f"boards.{p}.{n}" for n in around)
            for p in range(2) for slot, around in neighbours(layout).items()}
    measured = {z: (float(a), float(a) - 2.0) for z, a in zip(sorted(near), rng.normal(0.0, 4.0, len(near)))}
    committed = expected(state)
    changes = Changes(measured, near, {z: committed.get(z, empty_content(z)) for z in measured})
    reference = exact_view(state, 0.0).zones
    weigh = ViewCost(view, reference, committed, changes)
    tried = 0
    for _, after in successors(state, view, len(state.to_json()["factories"]))[:40]:
        for _, further in [(None, after)] + successors(after, view, len(after.to_json()["factories"]))[:10]:
            total, where = weigh(further)
            want_total, want_where = cost_of(further, view, reference, committed, changes)
            assert total == pytest.approx(want_total, abs=1e-9) and where == want_where
            tried += 1
    assert tried > 10
