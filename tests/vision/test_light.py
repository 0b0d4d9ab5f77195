"""The answers the pipeline checks twice: the slots, read in their board's own light (``light``,
``analyze.slot_lights``) and, where the classifier is unsure, read again
(``analyze.second_look``); the loose tiles the detector is unsure of, checked by the classifier
(``analyze.cross_checked``); the first-player marker, one per game (``analyze.one_marker``);
and the factory displays, read by the classifier or by the detector
(``analyze.settled_displays``)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

import azulcam.vision.analyze as analyze
from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import Profile
from azulcam.vision import light
from azulcam.vision.analyze import (Loose, assemble, board_lights, nearest_lights, read, recoloured, register_boards,
                                    second_look, slot_lights)
from azulcam.vision.camera import ViewRanges
from azulcam.vision.classify import default_classifier
from azulcam.vision.dataset import random_position
from azulcam.vision.evaluate import compare
from azulcam.vision.render import SceneOptions, render_state


@pytest.fixture(scope="module")
def clean_scene():
    rng = random.Random(7)
    state = random_position(rng)
    while state.game != "azul":
        state = random_position(rng)
    scene = render_state(state, 7, SceneOptions(size=(1280, 720), clean=True))
    profile = Profile.from_json(scene.truth["profile"])
    boards = register_boards(cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY), profile)
    return scene.image, boards, scene.truth


def test_light_scales_with_the_photo(clean_scene):
    image, boards, _ = clean_scene
    board = boards[0]
    full = light.board_light(image, board.homography, board.placement.layout)
    half = light.board_light((image // 2).astype(np.uint8), board.homography, board.placement.layout)
    assert full is not None and half is not None
    # A clean render shows the card about as printed; a photo at half the light, half of that.
    assert np.all((full > 0.7) & (full < 1.3)), full
    np.testing.assert_allclose(half / full, 0.5, atol=0.03)
    # One channel dimmed: the light says which.
    tinted = image.copy()
    tinted[..., 0] = (tinted[..., 0] * 0.6).astype(np.uint8)
    blue = light.board_light(tinted, board.homography, board.placement.layout)
    np.testing.assert_allclose(blue / full, [0.6, 1.0, 1.0], atol=0.03)


def test_no_light_for_a_board_out_of_the_photo(clean_scene):
    image, boards, _ = clean_scene
    far = np.array([[300.0, 0, 5000], [0, 200.0, 5000], [0, 0, 1]])  # board fractions -> pixels, far off
    assert light.board_light(image, far, boards[0].placement.layout) is None


def test_bare_patches_show_a_bare_slot_as_its_patch_relit(clean_scene):
    from azulcam.vision import crops

    image, boards, truth = clean_scene
    for board in boards:
        layout = load_layout(board.placement.layout)
        filled = truth["observation"]["boards"][board.placement.player]["slots"]
        ids, quads = crops.slot_outlines(board.homography, layout)
        for margin in (crops.MARGIN, crops.TALL_MARGIN):
            shown = light.relit(crops.cut(image, quads, margin), light.board_light(image, board.homography, layout.name))
            bare = light.bare_patches(layout.name, board.homography, quads, margin)
            assert bare.shape == shown.shape and bare.dtype == np.uint8
            apart = np.abs(shown.astype(np.float32) - bare).mean(axis=(1, 2, 3))
            empty = np.array([filled.get(i) is None for i in ids])
            assert empty.any() and (~empty).any()
            # A bare slot looks like its art (the render's blur and grain aside); a tile on it does not.
            assert np.median(apart[empty]) < 25 and np.median(apart[~empty]) > 2 * np.median(apart[empty]), (
                np.median(apart[empty]), np.median(apart[~empty]))


def test_tall_patches_add_the_bare_art_for_a_model_that_reads_it(clean_scene):
    from azulcam.vision import crops
    from azulcam.vision.locate import plane_for
    from azulcam.vision.table import tile_height

    image, boards, truth = clean_scene
    profile = Profile.from_json(truth["profile"])
    outlines = [crops.slot_outlines(b.homography, load_layout(b.placement.layout))[1] for b in boards]
    quads = np.concatenate(outlines)
    per_slot, _ = slot_lights(boards, board_lights(image, boards))
    chosen = np.array([0, 5, len(outlines[0]) + 3])  # two slots of the first board, one of the second
    plain = analyze.tall_patches(image, quads, per_slot, profile)(chosen)
    both = analyze.tall_patches(image, quads, per_slot, profile, [(b, len(q)) for b, q in zip(boards, outlines)])(chosen)
    assert plain.shape == (3, 32, 32, 6) and both.shape == (3, 32, 32, 9)
    np.testing.assert_array_equal(both[..., :6], plain)
    tall = crops.tall(quads[chosen], plane_for(profile).raised_in_image(quads[chosen], tile_height("azul")))
    for n, board in enumerate([boards[0], boards[0], boards[1]]):  # each slot under its own board's art
        want = light.bare_patches(board.placement.layout, board.homography, tall[n:n + 1], crops.TALL_MARGIN)
        np.testing.assert_array_equal(both[n, ..., 6:], want[0])


def test_relit_undoes_the_light():
    patches = np.full((2, 32, 32, 3), 100, np.uint8)
    same = light.relit(patches, light.TYPICAL_LIGHT)
    np.testing.assert_array_equal(same, patches)
    darker = light.relit(patches, light.TYPICAL_LIGHT / 2)
    assert darker.dtype == np.uint8 and np.all(darker == 200)
    assert np.all(light.relit(patches, light.TYPICAL_LIGHT / 4) == 255)  # clipped, not wrapped


class _Scripted:
    """A classifier that answers unsure for every patch whose mean is below 128, and, read again,
    sure of ``red``; it records each call's batch sizes."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.rereads: list[tuple[int, int]] = []

    def classify(self, patches, game):
        self.calls.append(len(patches))
        return [(None, 0.5) if p.mean() < 128 else ("blue", 0.99) for p in patches]

    def reread(self, patches, relit, game, pale=None, special_patches=None, lit=None):
        self.rereads.append((len(patches), len(relit)))
        self.special_patches, self.lit = special_patches, lit
        assert relit.shape == patches.shape and not np.array_equal(relit, patches)  # relit: another light
        return [("red", 0.95)] * len(patches)

    def reads_tall(self, game):
        return game == "azul"


def test_slot_lights_are_each_boards_own(clean_scene):
    image, boards, _ = clean_scene
    sizes = [len(load_layout(b.placement.layout).ids) for b in boards]
    lights, lit = slot_lights(boards, board_lights(image, boards))
    assert lights.shape == (sum(sizes), 3) and lit.all()
    first = light.board_light(image, boards[0].homography, boards[0].placement.layout)
    np.testing.assert_allclose(lights[:sizes[0]], np.tile(first, (sizes[0], 1)), rtol=1e-6)
    # A board that could not be aligned has no light of its own: its card may lie elsewhere.
    unaligned = [SimpleNamespace(placement=b.placement, homography=b.homography,
                                 registration=SimpleNamespace(aligned=n != 1)) for n, b in enumerate(boards)]
    own = board_lights(image, unaligned)
    assert own[1] is None and all(x is not None for n, x in enumerate(own) if n != 1)
    lights, lit = slot_lights(unaligned, own)
    assert lit.tolist() == [n != 1 for n, size in enumerate(sizes) for _ in range(size)]
    np.testing.assert_allclose(lights[~lit], np.tile(light.TYPICAL_LIGHT, ((~lit).sum(), 1)))


def test_a_loose_tile_is_in_the_light_of_the_nearest_board_with_one():
    boards = [SimpleNamespace(registration=SimpleNamespace(corners=np.array([[x, 0], [x + 100, 0], [x + 100, 100],
                                                                             [x, 100]], float)))
              for x in (0, 1000, 2000)]
    lights = [np.array([0.5, 0.5, 0.5], np.float32), None, np.array([1.2, 1.1, 1.0], np.float32)]
    square = np.array([[-5, -5], [5, -5], [5, 5], [-5, 5]], float)
    tiles = np.stack([square + (60, 50), square + (950, 50), square + (1900, 300)])
    # The second tile lies on the board without a light: the nearest with one is the first.
    np.testing.assert_allclose(nearest_lights(tiles, boards, lights), [lights[0], lights[0], lights[2]])
    # No board with a light: the typical light (a patch relit under it stays as it is).
    np.testing.assert_allclose(nearest_lights(tiles, boards, [None] * 3), np.tile(light.TYPICAL_LIGHT, (3, 1)))
    assert nearest_lights(np.zeros((0, 4, 2)), boards, lights).shape == (0, 3)


def test_a_colour_read_otherwise_in_the_boards_light_stands_and_is_uncertain():
    o = np.zeros((4, 2))
    loose = [Loose(o, "boards.0.hand", "red", 0.97, 0.6), Loose(o, "center", "red", 0.8, 0.6),
             Loose(o, "center", "blue", 0.9, 0.6), Loose(o, "center", "first_player", 0.9, 0.6)]
    named = [("red", 0.97), ("red", 0.8), ("blue", 0.9), ("first_player", 0.9)]
    in_light = {0: ("purple", 0.95), 1: (None, 0.9), 2: ("blue", 0.99)}
    out = recoloured(loose, named, in_light)
    # Another colour in the board's light: it stands, below the tile's unsure_below. No tile
    # seen, or the same colour: the detector's reading stands.
    assert out[0][0] == "purple" and out[0][1] < 0.6
    assert out[1:] == named[1:]
    # The first-player marker is never recoloured, nor a colour made the marker.
    assert recoloured(loose, named, {3: ("red", 0.99), 0: ("first_player", 0.99)}) == named
    # Nor black made white or white black: the light fixes hues, not brightness.
    dark = [Loose(o, "center", "black", 0.69, 0.6), Loose(o, "center", "white", 0.6, 0.6)]
    assert recoloured(dark, [("black", 0.69), ("white", 0.6)], {0: ("white", 0.6), 1: ("black", 0.9)}) == [
        ("black", 0.69), ("white", 0.6)]
    assert recoloured(dark, [("black", 0.69), ("white", 0.6)], {0: ("blue", 0.9)})[0][0] == "blue"


def test_second_look_rereads_only_unsure_slots_in_one_call_saying_which_are_lit():
    patches = np.full((6, 32, 32, 3), 200, np.uint8)
    patches[[0, 2, 4]] = 50  # unsure
    relit = light.relit(patches, light.TYPICAL_LIGHT * 1.2)
    lit = np.array([True, True, True, True, False, True])  # slot 4 has no light of its own
    clf = _Scripted()
    first = clf.classify(patches, "azul")
    out = second_look(patches, relit, lit, first, clf, "azul")
    # A slot of a board whose light was not measured is read again too (as photographed).
    assert clf.calls == [6] and clf.rereads == [(3, 3)] and clf.lit.tolist() == [True, True, False]
    assert out == [("red", 0.95), first[1], ("red", 0.95), first[3], ("red", 0.95), first[5]]


def test_second_look_rereads_a_sure_white_tile_on_a_pale_space():
    from azulcam.vision.analyze import PALE_WHITE_SURE

    patches = np.full((4, 32, 32, 3), 200, np.uint8)
    relit = light.relit(patches, light.TYPICAL_LIGHT * 1.2)
    lit = np.ones(4, bool)
    first = [("white", 0.98), ("white", 0.98), ("blue", 0.95), ("white", PALE_WHITE_SURE)]
    special = np.array([True, False, True, True])  # slot 1: a white tile on the coloured wall's blue space
    clf = _Scripted()
    out = second_look(patches, relit, lit, first, clf, "azul", special)
    assert clf.rereads == [(1, 1)] and out == [("red", 0.95)] + first[1:]
    # Summer Pavilion has no white tile; its star spaces are read again only when unsure.
    clf = _Scripted()
    assert second_look(patches, relit, lit, first, clf, "pavilion", special) == first and clf.rereads == []


def test_second_look_rereads_a_sure_tile_off_the_colour_printed_under_it():
    from azulcam.vision.analyze import OFF_PRINTED_SURE

    patches = np.full((6, 32, 32, 3), 200, np.uint8)
    relit = light.relit(patches, light.TYPICAL_LIGHT * 1.2)
    lit = np.ones(6, bool)
    # A white tile on a black space (no legal game shows it); a black one there; a joker, which
    # fits any space; a white on a space with no colour printed; a red on a red star and a
    # yellow on it read surely.
    first = [("white", 0.95), ("black", 0.95), ("joker", 0.95), ("white", 0.95), ("red", 0.95), ("yellow", OFF_PRINTED_SURE)]
    printed = ["black", "black", "black", None, "red", "red"]
    clf = _Scripted()
    out = second_look(patches, relit, lit, first, clf, "azul", None, None, printed)
    assert clf.rereads == [(1, 1)] and out == [("red", 0.95)] + first[1:]
    clf = _Scripted()
    assert second_look(patches, relit, lit, first, clf, "azul") == first and clf.rereads == []


def test_second_look_rereads_a_sure_tile_of_a_stars_colour_on_that_star():
    from azulcam.vision.analyze import STAR_TILE_SURE

    patches = np.full((4, 32, 32, 3), 200, np.uint8)
    relit = light.relit(patches, light.TYPICAL_LIGHT * 1.2)
    lit = np.ones(4, bool)
    # A yellow read on the yellow star; one on a space that is no star's (not special); a red
    # read surely on the red star; a yellow on the yellow star below the bar.
    first = [("yellow", 0.98), ("yellow", 0.98), ("red", STAR_TILE_SURE), ("yellow", 0.95)]
    printed = ["yellow", "yellow", "red", "yellow"]
    special = np.array([True, False, True, True])
    clf = _Scripted()
    out = second_look(patches, relit, lit, first, clf, "pavilion", special, None, printed)
    assert clf.rereads == [(2, 2)] and out == [("red", 0.95), first[1], first[2], ("red", 0.95)]


def test_second_look_gives_the_special_slots_tall_patches_to_a_model_that_learned_them():
    patches = np.full((4, 32, 32, 3), 50, np.uint8)  # all unsure
    relit = light.relit(patches, light.TYPICAL_LIGHT * 1.2)
    lit = np.ones(4, bool)
    special = np.array([True, False, True, False])
    asked = []

    def tall(chosen):
        asked.append(chosen.tolist())
        return np.full((len(chosen), 32, 32, 6), 7, np.uint8)

    clf = _Scripted()
    first = clf.classify(patches, "azul")
    assert second_look(patches, relit, lit, first, clf, "azul", special, tall) == [("red", 0.95)] * 4
    assert asked == [[0, 2]] and clf.special_patches.shape == (2, 32, 32, 6)
    # A special-space model of the usual patches (here Summer Pavilion's) is given none.
    second_look(patches, relit, lit, first, clf, "pavilion", special, tall)
    assert asked == [[0, 2]] and clf.special_patches is None


def test_reread_averages_the_models_on_both_lights_and_turns():
    from azulcam.vision.classify import REREAD_TURNS

    chosen = default_classifier()
    model = chosen.classifier
    rng = np.random.default_rng(5)
    patches = rng.integers(0, 255, (6, 32, 32, 3), dtype=np.uint8)
    relit = light.relit(patches, light.TYPICAL_LIGHT * 1.3)
    models = [model] + ([model.companion] if model.companion is not None else [])
    assert model.slots is not None and REREAD_TURNS >= 2
    probs = []
    for turn in range(REREAD_TURNS):
        def turned(x):
            return np.ascontiguousarray(np.rot90(x, turn, axes=(1, 2)))
        probs += [m.game_probabilities(turned(x), "azul")[0] for m in models for x in (patches, relit)]
        probs.append(model.slots.game_probabilities(turned(relit), "azul")[0])  # trained on relit slots only
    mean = sum(probs) / len(probs)
    kinds = model.game_probabilities(patches, "azul")[1]
    want = [(kinds[int(row.argmax())], float(row.max())) for row in mean]
    got = model.reread(patches, relit, "azul")
    assert [k for k, _ in got] == [k for k, _ in want]
    np.testing.assert_allclose([c for _, c in got], [c for _, c in want], rtol=1e-6)
    # Random pixels are no tile: the turns do not all agree, so they are not the first turn alone.
    first = [m.game_probabilities(x, "azul")[0] for m in models for x in (patches, relit)]
    first.append(model.slots.game_probabilities(relit, "azul")[0])
    assert not np.allclose(sum(first) / len(first), mean)
    # A patch of a board with no light of its own is not read by the slot model (it learned slots
    # relit in their board's light): the mean of the others, on that patch alone.
    lit = np.array([True, False, True, True, False, True])
    general = [p for n, p in enumerate(probs) if (n + 1) % (len(models) * 2 + 1)]  # each turn's slot-model entry left out
    unlit_mean = sum(general) / len(general)
    got = model.reread(patches, relit, "azul", lit=lit)
    for n, (kind, confidence) in enumerate(got):
        row = mean[n] if lit[n] else unlit_mean[n]
        assert kind == kinds[int(row.argmax())] and confidence == pytest.approx(float(row.max()), rel=1e-6)
    assert not np.allclose(unlit_mean[~lit], mean[~lit])


def test_second_look_helps_at_the_ends_of_the_light_range():
    """Rendered tables in the darkest and brightest light the renderer makes: the slots read with
    the second look are wrong less often than without it."""
    classifier = default_classifier().classifier
    classifier.reader = None  # the per-space models' path, where no reading model loads
    rng = random.Random(920000)
    options = SceneOptions(size=(1280, 720), view=ViewRanges(elevation=(45.0, 55.0)), edge_light=True)
    errors = {True: 0, False: 0}
    original = analyze.second_look
    try:
        for n in range(8):
            scene = render_state(random_position(rng), (920000, n), options)
            profile = Profile.from_json(scene.truth["profile"])
            for on in (True, False):
                analyze.second_look = original if on else (
                    lambda patches, relit, lit, answers, c, g, pale=None, tall=None, printed=None: list(answers))
                errors[on] += compare(assemble(read(scene.image, profile, classifier)), scene.truth).slot_errors
    finally:
        analyze.second_look = original
    assert errors[True] < errors[False], errors


def test_loose_tiles_are_read_better_in_the_boards_light_at_the_ends_of_its_range():
    """Summer Pavilion tables in the darkest and brightest light the renderer makes: the displays,
    the centre and the tiles beside the boards have fewer mistakes with each loose tile seen in
    the light of the nearest board (``nearest_lights``) than as photographed."""
    classifier = default_classifier().classifier
    classifier.reader = None  # the per-space models' path, where no reading model loads
    rng = random.Random(920000)
    options = SceneOptions(size=(1280, 720), view=ViewRanges(elevation=(45.0, 55.0)), edge_light=True)
    errors = {True: 0, False: 0}
    original = analyze.nearest_lights
    scenes, n = 0, 0
    try:
        while scenes < 8:
            state = random_position(rng)
            n += 1
            if state.game != "pavilion":
                continue
            scenes += 1
            scene = render_state(state, (920000, n - 1), options)
            profile = Profile.from_json(scene.truth["profile"])
            for on in (True, False):
                analyze.nearest_lights = original if on else (
                    lambda outlines, boards, lights: np.tile(light.TYPICAL_LIGHT, (len(outlines), 1)))
                mistakes = compare(assemble(read(scene.image, profile, classifier, analyze.default_locator()[0])),
                                   scene.truth).errors
                errors[on] += sum(mistakes[zone] for zone in ("factories", "center", "hand"))
    finally:
        analyze.nearest_lights = original
    assert errors[True] < errors[False], errors


def test_cross_checked_tiles():
    from azulcam.vision.analyze import Loose, cross_checked

    outline = np.zeros((4, 2))
    sure = Loose(outline, "center", "red", 0.8, 0.6)
    doubtful = Loose(outline, "center", "red", 0.4, 0.6)
    assert cross_checked(sure, None) == ("red", 0.8)  # not asked: the detector's answer
    assert cross_checked(doubtful, (None, 0.7)) == (None, 0.4)  # the classifier sees no tile
    assert cross_checked(doubtful, ("blue", 0.95)) == ("blue", 0.4)  # sure of another kind
    assert cross_checked(doubtful, ("blue", 0.6)) == ("red", 0.4)  # unsure of another: the detector's


def test_one_first_player_marker():
    from azulcam.vision.analyze import Loose, one_marker

    o = np.zeros((4, 2))
    marker = Loose(o, "center", "first_player", 0.55, 0.6)  # doubtful: the classifier reads it too
    other = Loose(o, "boards.1.hand", "first_player", 0.4, 0.6)
    tile = Loose(o, "center", "red", 0.8, 0.6)
    place = Loose(o, "factories.0")  # read by the classifier alone
    loose = [marker, other, tile, place]
    floor_free = [("red", 0.99), (None, 0.97)]
    # The classifier saw a white tile on the marker and nothing on the other peak (cross_checked).
    named = [("white", 0.55), (None, 0.4), ("red", 0.8), ("blue", 0.99)]
    answers = {0: ("white", 0.95), 1: (None, 0.8), 3: ("blue", 0.99)}
    assert one_marker(floor_free, loose, named, answers) == [("first_player", 0.55), (None, 0.4), ("red", 0.8),
                                                              ("blue", 0.99)]
    # Two peaks named the marker: the more confident stays, the other takes the classifier's kind.
    answers[1] = ("white", 0.9)
    named[1] = ("first_player", 0.4)
    assert one_marker(floor_free, loose, named, answers)[:2] == [("first_player", 0.55), ("white", 0.4)]
    # A floor line read as the marker, surer than any peak: no loose tile is the marker.
    on_floor = [("first_player", 0.99), (None, 0.97)]
    assert one_marker(on_floor, loose, named, answers)[:2] == [("white", 0.55), ("white", 0.4)]
    # Two peaks named the marker, the less confident read as the marker by the classifier too:
    # it is the marker, and the other takes the classifier's kind.
    named[1] = ("first_player", 0.4)
    answers = {0: ("white", 0.95), 1: ("first_player", 0.7), 3: ("blue", 0.99)}
    assert one_marker(floor_free, loose, named, answers)[:2] == [("white", 0.55), ("first_player", 0.4)]
    # A display place read as the marker, more surely than the peaks: no display holds the
    # marker, so the peak the classifier reads as the marker is it, and the place, read as the
    # marker, is read empty.
    named = [("first_player", 0.55), ("red", 0.4), ("red", 0.8), ("first_player", 0.9)]
    answers = {0: ("first_player", 0.8), 1: ("red", 0.9), 3: ("first_player", 0.9)}
    assert one_marker(floor_free, loose, named, answers) == [("first_player", 0.55), ("red", 0.4), ("red", 0.8),
                                                             (None, 0.9)]
    # Alone, it is not the marker either.
    assert one_marker(floor_free, [place], [("first_player", 0.9)], {0: ("first_player", 0.9)}) == [(None, 0.9)]
    # A marker the detector only proposed (its peak below the detector's threshold) is dropped
    # where another candidate wins, whatever the classifier reads on it; alone, it stays.
    proposed = Loose(o, "boards.2.hand", "first_player", 0.3, 0.6)
    named = [("first_player", 0.55), ("first_player", 0.3)]
    answers = {0: ("white", 0.9), 1: ("red", 0.95)}
    assert one_marker(floor_free, [marker, proposed], named, answers) == [("first_player", 0.55), (None, 0.3)]
    assert one_marker(floor_free, [proposed], named[1:], {0: ("red", 0.95)}) == [("first_player", 0.3)]
    # No candidate: unchanged.
    plain = [("red", 0.8)]
    assert one_marker(floor_free, [tile], plain, {}) == plain


def test_a_display_is_read_once_by_the_classifier_or_by_the_detector():
    from azulcam.vision.analyze import Loose, settled_displays

    o = np.zeros((4, 2))
    places = [Loose(o, "factories.0") for _ in range(4)]
    peaks = [Loose(o, "factories.0", k, 0.8, 0.6) for k in ("red", "red", "blue", "black")]
    centre = [Loose(o, "center", "white", 0.9, 0.6)]
    loose = places + peaks + centre
    sure = [("red", 0.99), ("red", 0.95), ("blue", 0.97), ("white", 0.93)]
    peak_answers = [(x.kind, x.confidence) for x in peaks]
    # The classifier sure of every place, and the peaks naming the same tiles: the places' reading
    # stands (with its confidence), the peaks go.
    agreeing = [(x.kind, x.confidence) for x in peaks[:3]] + [("white", 0.8)]
    kept, answers = settled_displays(loose, sure + agreeing + [("white", 0.9)])
    assert kept == places + centre and answers == sure + [("white", 0.9)]
    # Sure of every place, but four peaks naming other tiles (places proposed off the tiles
    # read a neighbour's colour surely): the detector's reading stands.
    kept, answers = settled_displays(loose, sure + peak_answers + [("white", 0.9)])
    assert kept == peaks + centre and answers == peak_answers + [("white", 0.9)]
    # Unsure of one place, four sure peaks: the detector's reading stands.
    unsure = sure[:3] + [("white", 0.5)]
    kept, answers = settled_displays(loose, unsure + peak_answers + [("white", 0.9)])
    assert kept == peaks + centre and answers == peak_answers + [("white", 0.9)]
    # Four peaks, however unsure the detector is of one, still stand against an unsure place.
    weak = peaks[:3] + [Loose(o, "factories.0", "black", 0.5, 0.6)]
    kept, _ = settled_displays(places + weak, unsure + [(x.kind, x.confidence) for x in weak])
    assert kept == weak
    # Sure of every place but reading three tiles (a display holds four): the four peaks stand.
    three = sure[:3] + [(None, 0.97)]
    kept, _ = settled_displays(places + peaks, three + peak_answers)
    assert kept == peaks
    # The detector found three tiles: the places stand, sure or not.
    kept, _ = settled_displays(places + peaks[:3], unsure + peak_answers[:3])
    assert kept == places
    kept, _ = settled_displays(places + peaks[:3], three + peak_answers[:3])
    assert kept == places
    # Four peaks on a display that looked empty (no places proposed): the detector's four stand.
    kept, _ = settled_displays(peaks, peak_answers)
    assert kept == peaks
    # One to three peaks on a display read empty, or that looked empty, are the centre's tiles
    # lying against or over it (a display holds four tiles or none).
    empty = [(None, 0.95)] * 4
    for first in (places, []):
        kept, answers = settled_displays(first + peaks[:2], empty[:len(first)] + peak_answers[:2])
        assert [(x.zone, x.kind) for x in kept] == [("center", "red"), ("center", "red")]
        assert answers == peak_answers[:2]
    # One to three tiles read on the places and no peak: the display is empty (its places stay,
    # with the classifier's confidence, so that an unsure one is still listed as uncertain).
    two = [("joker", 0.77), (None, 0.94), ("joker", 0.33), (None, 0.8)]
    kept, answers = settled_displays(places, two)
    assert kept == places and answers == [(None, 0.77), (None, 0.94), (None, 0.33), (None, 0.8)]
    kept, answers = settled_displays(places, sure)  # four tiles and no peak: the places stand
    assert answers == sure
    # Three tiles read on the places, and peaks naming the one they lack: it fills the place
    # read empty, with the detector's lowest confidence there (so the display stays uncertain).
    lack = [(None, 0.98), ("black", 0.91), ("black", 0.84), ("red", 0.99)]
    seen_peaks = [Loose(o, "factories.0", k, c, 0.6) for k, c in (("red", 0.74), ("white", 0.71), ("black", 0.56))]
    kept, answers = settled_displays(places + seen_peaks, lack + [(x.kind, x.confidence) for x in seen_peaks])
    assert kept == places and answers == [("white", 0.56)] + lack[1:]
    # Where the detector's own peaks do not name it, one of its peaks below its threshold (which
    # the candidate model read as a tile) may: it fills the place, with its confidence.
    strong = [seen_peaks[0], seen_peaks[2]]
    faint = [Loose(o, "factories.0", "white", 0.2, 0.6, True)]
    kept, answers = settled_displays(places + strong + faint, lack + [(x.kind, x.confidence) for x in strong + faint])
    assert kept == places and answers == [("white", 0.2)] + lack[1:]
    # Such peaks count for nothing else: with no peak above the threshold, a display read with
    # two tiles is empty; four of them do not replace an unsure place's reading.
    kept, answers = settled_displays(places + faint, two + [("white", 0.2)])
    assert kept == places and answers == [(None, 0.77), (None, 0.94), (None, 0.33), (None, 0.8)]
    four_faint = [Loose(o, "factories.0", k, 0.3, 0.6, True) for k in ("red", "red", "blue", "black")]
    kept, answers = settled_displays(places + four_faint, unsure + [(x.kind, x.confidence) for x in four_faint])
    assert kept == places and answers == unsure
    # A display read with tiles keeps them; the peaks are its own.
    kept, _ = settled_displays(places + peaks[:2], sure + peak_answers[:2])
    assert kept == places


def test_unsure_slots_of_pattern_and_floor_lines_follow_how_lines_are_filled():
    from azulcam.vision.analyze import filled_in_order

    def line(prefix, name, readings):
        return [(prefix, f"{name}.{k}") for k in range(len(readings))], list(readings)

    # Pattern line 3 (four spaces, filled from the wall: space 0 first), one colour and jokers.
    ids, answers = line("boards.0", "line.3", [(None, 0.5), ("red", 0.97), ("white", 0.6), (None, 0.95)])
    assert filled_in_order(ids, answers) == [("red", 0.5), ("red", 0.97), ("red", 0.6), (None, 0.95)]
    ids, answers = line("boards.0", "line.3", [("red", 0.99), (None, 0.95), ("red", 0.7), ("joker", 0.4)])
    assert filled_in_order(ids, answers) == [("red", 0.99), (None, 0.95), (None, 0.7), (None, 0.4)]
    ids, answers = line("boards.1", "line.2", [("blue", 0.98), ("joker", 0.6), (None, 0.6)])
    assert filled_in_order(ids, answers) == answers  # a joker may share a line; nothing forces space 2
    # A space read surely empty before a tile read surely is covered (a hand over it): the tile
    # bounds the line, and the sure empty reading stays as read.
    ids, answers = line("boards.0", "line.4", [(None, 0.97), (None, 0.5), ("red", 0.99), ("red", 0.4), (None, 0.9)])
    assert filled_in_order(ids, answers) == [(None, 0.97), ("red", 0.5), ("red", 0.99), ("red", 0.4), (None, 0.9)]
    # The floor fills from its left end; its tiles may be of any kind, so none is named for it.
    ids, answers = line("boards.2", "floor", [("red", 0.99), (None, 0.6), ("first_player", 0.95), (None, 0.99),
                                               ("white", 0.5), (None, 0.99), (None, 0.99)])
    assert filled_in_order(ids, answers) == answers[:4] + [(None, 0.5)] + answers[5:]
    # Walls, Summer Pavilion spaces and the supply are not lines.
    ids = [("boards.0", "wall.0.0"), ("boards.0", "3.2"), ("supply", "supply.1")]
    assert filled_in_order(ids, [("white", 0.5), (None, 0.5), ("red", 0.5)]) == [("white", 0.5), (None, 0.5), ("red", 0.5)]


def test_unsure_tiles_off_the_printed_colour_are_read_empty():
    from azulcam.vision.analyze import on_printed_colours

    answers = [("white", 0.5), ("white", 0.95), ("black", 0.6), ("joker", 0.4), ("red", 0.3), (None, 0.5)]
    printed = ["black", "black", "black", "black", None, "blue"]
    # Unsure and off the space's colour: the pale print, read empty; a sure reading, the space's
    # own colour, a joker, a slot with no colour printed and an empty reading stay.
    assert on_printed_colours(answers, printed) == [(None, 0.5)] + answers[1:]
    # Summer Pavilion's coloured stars too: the placed tile is of the star's colour.
    assert on_printed_colours([("red", 0.6), ("purple", 0.6)], ["purple", "purple"]) == [(None, 0.6), ("purple", 0.6)]


def test_an_unsure_marker_off_the_floor_line_is_read_empty():
    from azulcam.vision.analyze import marker_on_the_floor

    ids = [("boards.0", "line.3.0"), ("boards.0", "floor.0"), ("boards.1", "wall.2.2"), ("boards.1", "line.1.1"),
           ("boards.2", "3.4"), ("supply", "supply.2"), ("boards.2", "line.0.0")]
    answers = [("first_player", 0.6), ("first_player", 0.6), ("first_player", 0.89), ("first_player", 0.95),
               ("first_player", 0.3), ("first_player", 0.3), ("white", 0.4)]
    assert marker_on_the_floor(ids, answers) == [(None, 0.6), ("first_player", 0.6), (None, 0.89), ("first_player", 0.95),
                                                 (None, 0.3), (None, 0.3), ("white", 0.4)]


def test_in_azul_only_the_first_player_marker_lies_beside_a_board():
    from azulcam.vision.analyze import Loose, beside_the_boards

    o = np.zeros((4, 2))
    loose = [Loose(o, "boards.3.hand", "blue", 0.44, 0.6), Loose(o, "boards.1.hand", "first_player", 0.8, 0.6),
             Loose(o, "center", "blue", 0.7, 0.6)]
    named = [("blue", 0.44), ("first_player", 0.8), ("blue", 0.7)]
    # A sleeve read as a blue tile beside a board is no tile (its confidence kept, so the zone
    # stays uncertain); the marker and the centre's tiles stay.
    assert beside_the_boards("azul", loose, named) == [(None, 0.44), ("first_player", 0.8), ("blue", 0.7)]
    # Summer Pavilion's players keep their tiles beside their boards.
    assert beside_the_boards("pavilion", loose, named) == named


def test_a_colour_read_surely_in_a_wall_row_or_column_or_on_a_multicolour_star_rules_it_out_there():
    from azulcam.vision.analyze import ONCE_SURE, UNSURE, once_per_line

    ids = [("boards.0", "wall.0.1"), ("boards.0", "wall.0.3"), ("boards.0", "wall.2.3"), ("boards.0", "wall.4.4"),
           ("boards.1", "wall.0.0")]
    answers = [("white", ONCE_SURE), ("white", 0.6), ("white", 0.7), ("white", 0.6), ("white", 0.5)]
    # Row 0 of board 0 holds a sure white: the row's unsure white is read empty; another row,
    # column or board keeps its whites.
    assert once_per_line(ids, answers) == [("white", ONCE_SURE), (None, 0.6), ("white", 0.7), ("white", 0.6),
                                           ("white", 0.5)]
    # Sure only by UNSURE (0.9) is not enough to rule a colour out; jokers may repeat.
    assert once_per_line(ids[:2], [("white", UNSURE), ("white", 0.6)]) == [("white", UNSURE), ("white", 0.6)]
    assert once_per_line(ids[:2], [("joker", 0.99), ("joker", 0.6)]) == [("joker", 0.99), ("joker", 0.6)]
    # Summer Pavilion's central star (star 0) holds each colour once; an outer star may repeat it.
    star = [("boards.0", "0.1"), ("boards.0", "0.4"), ("boards.0", "3.1"), ("boards.0", "3.2")]
    assert once_per_line(star, [("red", 0.99), ("red", 0.5), ("red", 0.99), ("red", 0.5)]) == [
        ("red", 0.99), (None, 0.5), ("red", 0.99), ("red", 0.5)]
    # An outer star holding two colours surely is built of six colours: it holds each once. One
    # sure colour alone may be a star of that colour, and another star is apart.
    outer = [("boards.0", "4.2"), ("boards.0", "4.3"), ("boards.0", "4.5"), ("boards.0", "5.1")]
    two = [("blue", 0.99), ("orange", 0.99), ("blue", 0.59), ("blue", 0.5)]
    assert once_per_line(outer, two) == [("blue", 0.99), ("orange", 0.99), (None, 0.59), ("blue", 0.5)]
    one = [("blue", 0.99), ("blue", 0.99), ("blue", 0.59), ("blue", 0.5)]
    assert once_per_line(outer, one) == one
    # The supply's places are no star.
    supply = [("supply", "supply.0"), ("supply", "supply.1"), ("supply", "supply.2")]
    assert once_per_line(supply, two[:3]) == two[:3]


def test_loose_tiles_well_inside_a_board_are_its_art_and_go():
    """A peak in the centre or beside a board that lies more than ``detect.ON_BOARD_MM`` inside a
    board, in the board's own frame (as registered), is the board's print (or a slot's tile):
    it goes. Display places stay."""
    from azulcam.calibration.profile import BoardPlacement, board_homography
    from azulcam.vision.analyze import BoardView, off_the_boards
    from azulcam.vision.detect import ON_BOARD_MM
    from azulcam.vision.register import Registration

    corners = np.array([[100.0, 100], [370, 100], [370, 370], [100, 370]])  # a 270 mm board at 1 px/mm
    placement = BoardPlacement(0, "pavilion-grey", corners.tolist())
    aligned = BoardView(placement, Registration(corners, 0.9, True), board_homography(corners))

    def tile(x, y, zone="boards.0.hand"):
        return Loose(np.array([[x - 8, y - 8], [x + 8, y - 8], [x + 8, y + 8], [x - 8, y + 8]], np.float64), zone, "green", 0.7)

    def ids(tiles):
        return [id(x) for x in tiles]

    deep, edge, outside, place = tile(235, 118), tile(235, 100 + ON_BOARD_MM - 1), tile(235, 80), tile(235, 118, "factories.0")
    centre = tile(200, 200, "center")
    assert ids(off_the_boards([deep, edge, outside, place, centre], [aligned])) == ids([edge, outside, place])
    # The board as registered, not as the profile placed it: moved 30 px down, the peak that
    # was 18 mm inside it lies 12 mm outside, and one 48 px lower lies 18 mm inside.
    moved = corners + (0, 30)
    bumped = BoardView(placement, Registration(moved, 0.9, True), board_homography(moved))
    assert ids(off_the_boards([deep, tile(235, 148)], [bumped])) == ids([deep])
    assert off_the_boards([], [aligned]) == [] and ids(off_the_boards([deep], [])) == ids([deep])
