"""What the reading model sees (``vision/reader.py``): each slot in its board's card light
(``light.card_colour``, ``light.in_card_light``), beside the same slot on the board as calibration
saw it bare, both cut by the same code; and the loader that refuses any other model."""

from __future__ import annotations

import random

import numpy as np
import pytest

from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import board_homography
from azulcam.engine.pavilion import COLORS as PAVILION_COLORS
from azulcam.vision import bare, light, reader
from azulcam.vision.classify import ModelError, load_reader
from azulcam.models.samples import CLASSES, reader_patches
from azulcam.synth.dataset import random_position
from azulcam.synth.render import SceneOptions, render_moments
from azulcam.vision.shipped import package_file


@pytest.fixture(scope="module", params=["strong-print", "bright"])
def moments(request):
    """A table at the game's start (boards bare) and later, one camera, in a family of its own."""
    rng = random.Random(31)
    state = random_position(rng)
    while state.game != "azul" or state.options.get("wall") != "colored":
        state = random_position(rng)
    start = state.spec.new(state.players, state.options, 0)
    options = SceneOptions(size=(1280, 720), clean=True, family=request.param)
    return render_moments([start, state], 31, options)


def test_card_light_shows_every_board_card_neutral_grey(moments):
    """Whatever the card's colour and the light, a board's card comes out at CARD_GREY."""
    calibration, _ = moments
    for placement in calibration.truth["profile"]["boards"]:
        layout = load_layout(placement["layout"])
        homography = board_homography(np.asarray(placement["corners"], np.float64))
        card = light.card_colour(calibration.image, homography, layout.name)
        assert card is not None and (card > 30).all()
        ids, patches = reader.slot_patches(calibration.image, homography, layout)
        assert patches.shape == (len(layout.ids), 32, 32, 3) and ids == list(layout.ids)
        # The board's view in its own plane, in card light: its card is the grey it is shown at.
        view = bare.rectified(calibration.image, homography, layout.name)
        in_view = reader.view_homography(layout)
        shown = light.in_card_light(view[None], light.card_colour(view, in_view, layout.name))[0]
        assert np.abs(light.card_colour(shown, in_view, layout.name) - light.CARD_GREY).max() <= 2


def test_card_colour_is_none_for_a_board_out_of_the_image():
    layout = load_layout("azul-colored")
    far = board_homography(np.array([[5000, 5000], [5400, 5000], [5400, 5400], [5000, 5400]], np.float64))
    assert light.card_colour(np.zeros((100, 100, 3), np.uint8), far, layout.name) is None
    patches = np.full((2, 32, 32, 3), 77, np.uint8)
    assert light.in_card_light(patches, None) is patches


def test_a_bare_slot_now_looks_like_the_same_slot_at_calibration(moments):
    """Cut from the photo through its corners and from calibration's bare view of it, a slot that
    is still bare shows the same thing; one holding a tile does not."""
    calibration, scene = moments
    placement = scene.truth["profile"]["boards"][0]
    layout = load_layout(placement["layout"])
    homography = board_homography(np.asarray(placement["corners"], np.float64))
    ids, now = reader.slot_patches(scene.image, homography, layout)
    view = bare.rectified(calibration.image, homography, layout.name)
    then = reader.bare_slot_patches(view, layout, ids)
    filled = scene.truth["observation"]["boards"][0]["slots"]
    difference = np.abs(now.astype(np.float32) - then).mean(axis=(1, 2, 3))
    empty = np.array([filled.get(i) is None for i in ids])
    assert empty.any() and (~empty).any()
    assert np.median(difference[empty]) < 0.5 * np.median(difference[~empty])
    both = reader.model_input(now, then, now)
    assert both.shape == (len(ids), 32, 32, reader.CHANNELS)
    assert np.array_equal(both[..., 3:6], then) and np.array_equal(both[..., 6:], now)
    assert not reader.model_input(now, None, None)[..., 3:].any()


def test_training_patches_pair_each_slot_with_its_bare_self(moments):
    calibration, scene = moments
    with_ref = reader_patches(scene.image, scene.truth, calibration, np.random.default_rng(0))
    without = reader_patches(scene.image, scene.truth, None, np.random.default_rng(0))
    assert with_ref.images.shape[1:] == (32, 32, reader.CHANNELS) and len(with_ref.images) == len(with_ref.labels)
    assert with_ref.labels.max() < len(CLASSES) and (with_ref.labels != 0).any() and (with_ref.labels == 0).any()
    for patches in (with_ref, without):  # every slot beside the photo's consensus; loose tiles beside nothing
        slots = patches.images[..., 6:].any(axis=(1, 2, 3))
        assert slots.any() and not slots.all()
        assert not patches.images[~slots, ..., 3:].any()
    assert with_ref.images[..., 3:6].any() and not without.images[..., 3:6].any()  # the bare board, if kept


def test_slots_printed_alike_form_one_group_per_print():
    """A coloured wall's spaces go by colour (five of each), a grey wall's all alike; the floor's
    and a grey star's spaces go by their printed number, a coloured star's by its colour."""
    def sizes(name, zone):
        layout = load_layout(name)
        groups: dict = {}
        for slot in layout.slots:
            if zone(slot.id):
                groups.setdefault(reader.print_group(slot), []).append(slot.id)
        return sorted(len(g) for g in groups.values()), groups

    assert sizes("azul-colored", lambda i: i.startswith("wall."))[0] == [5] * 5
    assert sizes("azul-grey", lambda i: i.startswith("wall."))[0] == [25]
    assert sizes("azul-grey", lambda i: i.startswith("line."))[0] == [15]
    assert sizes("azul-grey", lambda i: i.startswith("floor."))[0] == [2, 2, 3]
    stars = lambda i: i.split(".")[0].isdigit()  # noqa: E731
    assert sizes("pavilion-grey", stars)[0] == [6] * 5 + [12]  # the central star's spaces are all 3s
    coloured, groups = sizes("pavilion-colored", stars)
    assert all(len({i.split(".")[0] for i in g}) == 1 for k, g in groups.items() if k[1] in PAVILION_COLORS)
    assert sum(coloured) == 42


def test_the_photos_consensus_of_a_print_looks_like_its_bare_spaces(moments):
    """Beside the per-pixel median of every space printed alike on the table's boards, a bare
    space looks like it and a space holding a tile does not: the reference a photo alone gives."""
    _, scene = moments
    cuts, empties = [], []
    for placement, board in zip(scene.truth["profile"]["boards"], scene.truth["observation"]["boards"]):
        layout = load_layout(placement["layout"])
        homography = board_homography(np.asarray(placement["corners"], np.float64))
        ids, now = reader.slot_patches(scene.image, homography, layout)
        cuts.append((layout, ids, now))
        empties.append(np.array([board["slots"].get(i) is None for i in ids]))
    agreed = reader.consensus(cuts)
    assert [a.shape for a in agreed] == [now.shape for _, _, now in cuts]
    difference = np.concatenate([np.abs(now.astype(np.float32) - ref).mean(axis=(1, 2, 3))
                                 for (_, _, now), ref in zip(cuts, agreed)])
    empty = np.concatenate(empties)
    assert empty.any() and (~empty).any()
    assert np.median(difference[empty]) < 0.5 * np.median(difference[~empty])
    # Slots printed alike share one reference.
    layout, ids, _ = cuts[0]
    same = [n for n, i in enumerate(ids) if reader.print_group(layout[i]) == reader.print_group(layout[ids[0]])]
    assert len(same) > 1 and all(np.array_equal(agreed[0][same[0]], agreed[0][n]) for n in same)


def test_load_reader_refuses_a_model_that_is_not_one(tmp_path):
    """The candidate model is a valid ONNX classifier, but not a reading model."""
    with pytest.raises(ModelError) as info:
        load_reader(package_file("tiles_candidates.onnx"))
    assert info.value.code == "model.not_reader" and info.value.params["path"].endswith("tiles_candidates.onnx")
    with pytest.raises(ModelError) as info:
        load_reader(tmp_path / "reader.onnx")
    assert info.value.code == "model.missing" and info.value.params["path"] == str(tmp_path / "reader.onnx")


def test_the_shipped_reading_model_reads_a_calibrated_table_of_another_printing(moments):
    """The shipped reading model reads the slots beside the boards calibration kept bare, decoded
    by the rules: a clean table of a family with strong or bright prints, nearly every slot right,
    and none of the rest read surely."""
    from azulcam.calibration.profile import Profile
    from azulcam.vision.analyze import assemble, bare_boards, read
    from azulcam.vision.classify import default_classifier
    from azulcam.vision.evaluate import compare

    calibration, scene = moments
    classifier = default_classifier()
    profile = Profile.from_json(scene.truth["profile"])
    bare_views = bare_boards(calibration.image, profile, classifier)
    assert set(bare_views) == {b.player for b in profile.boards}
    reading = read(scene.image, profile, classifier, bare=bare_views)
    assert "decode" in reading.spent
    observation = assemble(reading)
    score = compare(observation, scene.truth)
    assert score.slots > 60 and score.slot_errors <= 2, score.mistakes


def test_empty_displays_are_taught_as_their_print():
    """The locator proposes four places on a display it takes for occupied: the reading model
    learns an empty display's four as empty, cut where its tiles would show their tops."""
    from azulcam.models.samples import empty_display_places

    rng = random.Random(3)
    empty: list = []
    while not empty:
        scene = render_moments([random_position(rng)], 8, SceneOptions(size=(1280, 720), clean=True))[0]
        hidden = {h["zone"] for h in scene.truth["hidden"]}
        empty = [f["center"] for n, f in enumerate(scene.truth["observation"]["factories"])
                 if not f["tiles"] and f"factories.{n}" not in hidden]
    places = empty_display_places(scene.truth, np.random.default_rng(0))
    assert places.shape == (4 * len(empty), 4, 2)
    # Each display's four places lie round its centre, within a tile's width or so of it.
    middles = places.reshape(len(empty), 4, 4, 2).mean(axis=(1, 2))
    assert np.linalg.norm(middles - np.array(empty), axis=1).max() < 8
    patches = reader_patches(scene.image, scene.truth, None, np.random.default_rng(0))
    assert (patches.labels == 0).sum() >= min(len(places), 12)


def test_each_slot_is_read_beside_its_bare_self_and_the_photos_consensus(moments):
    """A board calibration kept bare is read beside it, the others beside zeros; every board beside
    the photo's consensus of its print."""
    from azulcam.calibration.profile import Profile
    from azulcam.vision.analyze import BoardView, reader_slots
    from azulcam.vision.register import Registration

    calibration, scene = moments
    profile = Profile.from_json(scene.truth["profile"])
    views = []
    for placement in profile.boards:
        corners = np.asarray(placement.corners, np.float64)
        homography = board_homography(corners)
        views.append(BoardView(placement, Registration(corners, 0.9, True), homography,
                               light.card_colour(scene.image, homography, placement.layout)))
    first = views[0]
    kept = bare.BareBoard(first.placement.layout,
                          bare.rectified(calibration.image, first.homography, first.placement.layout), {})

    class Seen:
        def game_probabilities(self, patches, game, without=()):
            self.patches = patches
            return np.zeros((len(patches), 7)), [None] * 7

    seen = Seen()
    slots, _, _, _ = reader_slots(scene.image, views, {first.placement.player: kept}, seen, "azul")
    layout = load_layout(first.placement.layout)
    mine = [n for n, zone in enumerate(slots) if zone.player == first.placement.player]
    assert np.array_equal(seen.patches[mine, ..., 3:6],
                          reader.bare_slot_patches(kept.image, layout, list(layout.ids)))
    cuts = [(load_layout(v.placement.layout), *reader.slots_in_card_light(scene.image, v.homography,
                                                                         load_layout(v.placement.layout), v.card))
            for v in views]
    others = [n for n in range(len(slots)) if n not in mine]
    assert not seen.patches[others, ..., 3:6].any()
    assert np.array_equal(seen.patches[..., 6:], np.concatenate(reader.consensus(cuts)))


def test_a_kind_the_options_rule_out_is_never_read(moments):
    """Read with Azul's jokers ruled out (a game without them), no slot can be a joker, and the
    other kinds share the probability."""
    from azulcam.vision.classify import default_classifier

    _, scene = moments
    placement = scene.truth["profile"]["boards"][0]
    layout = load_layout(placement["layout"])
    _, now = reader.slot_patches(scene.image, board_homography(np.asarray(placement["corners"], np.float64)), layout)
    patches = reader.model_input(now, None, reader.consensus([(layout, list(layout.ids), now)])[0])
    model = default_classifier()
    every, kinds = model.game_probabilities(patches, "azul")
    some, same = model.game_probabilities(patches, "azul", {"joker"})
    assert same == kinds and "joker" in kinds and every[:, kinds.index("joker")].max() > 0
    assert not some[:, kinds.index("joker")].any() and np.allclose(some.sum(axis=1), 1.0)
    assert all(kind != "joker" for kind, _ in model.classify(patches, "azul", {"joker"}))
