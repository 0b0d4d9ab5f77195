"""A photo whose content is known taught to a table's memory (``vision.taught``): the renderer's one
table at a game's start (calibrated bare) and at two later moments; one is taught, both are read
with the memory."""

from __future__ import annotations

import numpy as np
import pytest

from azulcam.engine.players import make_player
from azulcam.engine.record import play_game, replay
from azulcam.engine.zones import Zone
from azulcam.synth.render import SceneOptions, render_moments
from azulcam.vision.analyze import assemble, bare_boards, default_locator, read
from azulcam.vision.classify import default_classifier
from azulcam.vision.evaluate import compare
from azulcam.calibration.profile import Profile
from azulcam.vision.memory import LOOSE, SLOTS, TableMemory
from azulcam.vision.taught import TaughtReader, matched_tiles, patch_kinds, teach


@pytest.fixture(scope="module")
def table():
    record = play_game("azul", [make_player("greedy", 1), make_player("greedy", 2)], {"wall": "colored"}, 3).record
    states = [record.new_state()] + [step.state.copy() for step in replay(record)]
    later = [s for s in states if s.current_player >= 0 and s.round >= 3 and not s.is_over()]
    scenes = render_moments([states[0], later[0], later[-1]], (41, 7), SceneOptions(size=(1280, 720), family="strong-print"))
    model = default_classifier()
    profile = Profile.from_json(scenes[0].truth["profile"])
    return scenes, profile, model, default_locator()[0], bare_boards(scenes[0].image, profile, model)


def _wrong(scene, profile, reader, locator, bare) -> int:
    return compare(assemble(read(scene.image, profile, reader, locator, bare)), scene.truth).slot_errors


def test_a_taught_photo_is_read_right_and_the_next_no_worse(table):
    scenes, profile, model, locator, bare = table
    taught, other = scenes[1], scenes[2]
    reading = read(taught.image, profile, model, locator, bare)
    untaught = [_wrong(scene, profile, model, locator, bare) for scene in (taught, other)]
    assert min(untaught) > 0  # this printing's spaces are read wrong here, untaught
    assert reading.slot_inputs.shape == (len(reading.slots), 32, 32, 9)
    assert not patch_kinds(reading.slot_inputs).any()  # a slot is read beside its bare look
    memory = TableMemory("azul")
    hidden = {Zone.parse(z["zone"]) for z in taught.truth["hidden"]}
    lesson = teach(memory, model, reading, taught.image, taught.truth["observation"], hidden)
    assert memory.photos == 1 and lesson.examples[SLOTS] == len(memory.examples[SLOTS].labels) > 50
    assert lesson.examples[LOOSE] > 0 and memory.head(LOOSE, model.info.sha256) is not None
    assert sum(memory.confusion[SLOTS]["empty"].values()) > 0
    reader = TaughtReader(model, memory)
    assert reader.names_loose_tiles and not model.names_loose_tiles
    assert _wrong(taught, profile, reader, locator, bare) == 0
    assert _wrong(other, profile, reader, locator, bare) < untaught[1]
    with pytest.raises(ValueError):  # a photo of Azul taught a Summer Pavilion observation
        teach(memory, model, reading, taught.image, {**taught.truth["observation"], "game": "pavilion"})


def test_a_zone_s_tiles_are_named_by_its_content_the_likeliest_first():
    columns = [None, "blue", "red"]
    probs = np.array([[0.0, 0.6, 0.4], [0.0, 0.9, 0.1], [0.1, 0.2, 0.7]])
    assert matched_tiles(probs, columns, ["blue", "red", "red"]) == ["red", "blue", "red"]
    assert matched_tiles(probs, columns, ["blue", "red"]) is None  # three tiles seen, two there
    assert matched_tiles(probs, columns, []) == [None, None, None]  # an empty display's places

