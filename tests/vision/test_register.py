"""Board registration and automatic calibration on rendered tables with known corners."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

import azulcam.vision.analyze as analyze
from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import Profile, board_homography, to_image
from azulcam.i18n.words import words
from azulcam.vision.analyze import ImageError, load_image
from azulcam.vision.calibrate import find_boards
from azulcam.vision.classify import default_classifier
from azulcam.synth.dataset import random_position
from azulcam.vision.bare import rectified
from azulcam.vision.calibrate import identify
from azulcam.vision.register import fit_board, refine_board
from azulcam.synth.render import SceneOptions, render_state


def slot_error(corners, true_corners, layout_name) -> float:
    """Largest distance between where the two corner sets put a slot centre, in tile widths."""
    centres = np.array([s.center for s in load_layout(layout_name).slots])
    a = to_image(board_homography(corners), centres)
    b = to_image(board_homography(true_corners), centres)
    tile = np.linalg.norm(np.subtract(true_corners[1], true_corners[0])) * 20 / 250
    return float(np.linalg.norm(a - b, axis=1).max() / tile)


def own_sheet(image, truth, layout):
    """The board in its own plane, taken from ``image`` through its true corners: a sheet as
    calibration keeps one (the aligner's mechanics are tested on it)."""
    return rectified(image, board_homography(truth), layout)


def test_an_arm_over_the_board_does_not_reshape_it():
    """An arm across a fifth of a board (and far off it) can pull a full homography fit onto its
    own edge, shrinking the board by a fifth; a board on the table keeps its shape, so such a fit
    is not plausible (it is redone as a rigid motion) and the slots stay where they are."""
    from azulcam.vision import register

    rng = random.Random(4)
    scene = render_state(random_position(rng), 4, SceneOptions(size=(1280, 720), clean=True))
    board = scene.truth["profile"]["boards"][0]
    truth = np.array(board["corners"], np.float64)
    arm = to_image(board_homography(truth), [[-0.6, -0.3], [0.2, -0.3], [0.2, 1.3], [-0.6, 1.3]])
    sheet = own_sheet(scene.image, truth, board["layout"])
    image = scene.image.copy()
    cv2.fillPoly(image, [np.round(arm).astype(np.int32)], (40, 60, 110))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    start = truth + np.random.default_rng(4).normal(0, 2, (4, 2))
    kept = refine_board(grey, start, board["layout"], sheet)
    assert kept.aligned and np.abs(kept.corners - truth).max() < 6
    shrunk = truth[0] + (truth - truth[0]) * 0.8  # as a fit pulled onto the arm's edge
    assert register._plausible(truth, truth + 3) and not register._plausible(truth, shrunk)


def test_the_model_brings_a_bumped_board_back_onto_its_slots():
    """No sheet: the board-fitting model fits each board bumped by about 6 mm, in another
    printing than the classic one."""
    rng, nudge = random.Random(11), np.random.default_rng(11)
    before, after = [], []
    for n in range(4):
        scene = render_state(random_position(rng), (31, n), SceneOptions(size=(1280, 720), hands=0.0,
                                                                         family="matte-worn"))
        for board in scene.truth["profile"]["boards"]:
            truth = np.array(board["corners"])
            if (truth < 0).any() or (truth[:, 0] >= 1280).any() or (truth[:, 1] >= 720).any():
                continue
            width = np.linalg.norm(truth[1] - truth[0])
            shift = nudge.normal(0, 0.025 * width, 2)  # the board moved by about 6 mm
            start = truth + shift + nudge.normal(0, 0.01 * width, (4, 2))  # and the clicks are a little off
            reg = fit_board(scene.image, start, board["layout"])
            assert reg.aligned
            before.append(slot_error(start, truth, board["layout"]))
            after.append(slot_error(reg.corners, truth, board["layout"]))
    assert len(after) >= 8
    assert np.median(after) < 0.2 and np.median(after) < np.median(before) / 2, (before, after)


def test_the_model_names_the_owners_corner_and_refuses_what_is_no_board():
    """An outline starting at any corner is turned so that the owner's top left comes first;
    a board under a cloth is not aligned, and keeps the profile's corners."""
    rng = random.Random(11)
    scene = render_state(random_position(rng), (31, 0), SceneOptions(size=(1280, 720), hands=0.0, family="bright"))
    board = scene.truth["profile"]["boards"][0]
    truth = np.array(board["corners"], np.float64)
    start = truth + np.random.default_rng(3).normal(0, 3, (4, 2))
    for turn in range(4):
        (fit,) = identify(scene.image, [np.roll(start, turn, axis=0)])
        assert fit.probability(board["layout"]) > 0.5 and np.abs(fit.corners - truth).max() < 12, turn
    covered = scene.image.copy()
    cloth = to_image(board_homography(truth), [[-0.3, -0.2], [1.2, -0.3], [1.3, 1.2], [-0.2, 1.3]])
    cv2.fillPoly(covered, [np.round(cloth).astype(np.int32)], (90, 90, 90))
    reg = fit_board(covered, start, board["layout"])
    assert not reg.aligned and np.array_equal(reg.corners, start)


def test_where_the_coarse_level_fails_the_fine_level_aligns_from_the_profile(monkeypatch):
    """A blurred, far board gives the coarse level nothing to hold on to (OpenCV's ECC gives up
    on 6 of 13 boards the bench sets could not align): the fine level starts from the profile's
    corners, within reach of them. A board under a cloth is still not aligned."""
    from azulcam.vision import register

    rng = random.Random(11)
    scene = render_state(random_position(rng), (31, 0), SceneOptions(size=(1280, 720), hands=0.0))
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    board = scene.truth["profile"]["boards"][0]
    truth = np.array(board["corners"], np.float64)
    sheet = own_sheet(scene.image, truth, board["layout"])
    start = truth + np.random.default_rng(3).normal(0, 2, (4, 2))
    ecc = cv2.findTransformECC
    calls = []

    def coarse_fails(template, edges, warp, *args):
        calls.append(template.shape)
        if len(calls) == 1:
            raise cv2.error("the correlation is going to be minimized")
        return ecc(template, edges, warp, *args)

    monkeypatch.setattr(register.cv2, "findTransformECC", coarse_fails)
    monkeypatch.setattr(register, "_fine_from_start", lambda *args: None)  # as where it does not settle
    reg = refine_board(grey, start, board["layout"], sheet)
    assert calls and reg.aligned and slot_error(reg.corners, truth, board["layout"]) < 0.15
    # From there the fine level may not move a board farther than _RESCUED_MOVE: a fit that
    # would (here onto the sheet, from a start bumped by 8 % of the board) is not trusted.
    width = np.linalg.norm(truth[1] - truth[0])
    bumped = start + [0.08 * width, 0.0]
    calls.clear()
    far = refine_board(grey, bumped, board["layout"], sheet)
    assert calls and not far.aligned and np.array_equal(far.corners, bumped)
    monkeypatch.undo()
    assert refine_board(grey, bumped, board["layout"], sheet).aligned  # with the coarse level, it is
    covered = grey.copy()
    cloth = to_image(board_homography(truth), [[-0.3, -0.2], [1.2, -0.3], [1.3, 1.2], [-0.2, 1.3]])
    cv2.fillPoly(covered, [np.round(cloth).astype(np.int32)], 90)
    assert not refine_board(covered, start, board["layout"], sheet).aligned


def test_from_a_profile_a_few_pixels_off_the_fine_level_alone_aligns_the_board(monkeypatch):
    """A profile's corners a few pixels off: the fine level alone fits the board (OpenCV's ECC,
    the coarse level, is never called), as well as the coarse level then the fine. From corners
    bumped by 8 % of the board's width, its fit would move too far: the coarse level takes it."""
    from azulcam.vision import register

    rng = random.Random(11)
    scene = render_state(random_position(rng), (31, 0), SceneOptions(size=(1280, 720), hands=0.0))
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    ecc, calls = cv2.findTransformECC, []

    def counted(*args):
        calls.append(1)
        return ecc(*args)

    monkeypatch.setattr(register.cv2, "findTransformECC", counted)
    boards = 0
    for board in scene.truth["profile"]["boards"]:
        truth = np.array(board["corners"], np.float64)
        if (truth < 0).any() or (truth[:, 0] >= 1280).any() or (truth[:, 1] >= 720).any():
            continue
        boards += 1
        start = truth + np.random.default_rng(boards).normal(0, 2, (4, 2))
        sheet = own_sheet(scene.image, truth, board["layout"])
        calls.clear()
        near = refine_board(grey, start, board["layout"], sheet)
        assert near.aligned and not calls
        full = refine_board(grey, start, board["layout"], sheet, keeps_shape=False)  # coarse, then fine
        assert calls and slot_error(near.corners, truth, board["layout"]) < 0.15
        assert slot_error(near.corners, full.corners, board["layout"]) < 0.05
    assert boards >= 2
    truth = np.array(scene.truth["profile"]["boards"][0]["corners"], np.float64)
    layout = scene.truth["profile"]["boards"][0]["layout"]
    bumped = truth + [0.08 * np.linalg.norm(truth[1] - truth[0]), 0.0]
    calls.clear()
    moved = refine_board(grey, bumped, layout, own_sheet(scene.image, truth, layout))
    assert calls and moved.aligned and slot_error(moved.corners, truth, scene.truth["profile"]["boards"][0]["layout"]) < 0.15


def test_a_reading_runs_opencv_without_ipp_in_both_its_threads_and_gives_it_back(monkeypatch):
    """IPP's results depend on where arrays start in memory (fits differed by 0.01 px from
    process to process): a reading turns it off where the boards are registered and in the
    locator's thread, and leaves the caller's setting as it was."""
    rng = random.Random(4)
    scene = render_state(random_position(rng), 4, SceneOptions(size=(960, 540), clean=True))
    profile = Profile.from_json(scene.truth["profile"])
    seen: dict[str, bool] = {}
    register_boards = analyze.register_boards

    def registering(image, grey, prof, *more):  # more: the bare boards, where the reading passes them
        seen["register"] = cv2.ipp.useIPP()
        return register_boards(image, grey, prof, *more)

    def locator(image, prof):
        seen["locator"] = cv2.ipp.useIPP()
        return [], [], []

    monkeypatch.setattr(analyze, "register_boards", registering)
    before = cv2.ipp.useIPP()
    try:
        cv2.ipp.setUseIPP(True)
        analyze.read(scene.image, profile, default_classifier(), locator)
        assert seen == {"register": False, "locator": False}
        assert cv2.ipp.useIPP()
    finally:
        cv2.ipp.setUseIPP(before)


def test_calibration_runs_opencv_without_ipp_and_gives_it_back(monkeypatch):
    """Calibrating a photo twice gives the same profile in every process: IPP is off while the
    boards are sought, and the caller's setting comes back, whatever the outcome."""
    import azulcam.vision.calibrate as calibrate

    seen = []

    def candidates(grey, min_area):
        seen.append(cv2.ipp.useIPP())
        return []

    monkeypatch.setattr(calibrate, "board_candidates", candidates)
    before = cv2.ipp.useIPP()
    try:
        cv2.ipp.setUseIPP(True)
        with pytest.raises(calibrate.CalibrationError):
            find_boards(np.full((90, 160, 3), 128, np.uint8), "azul", 2)
        assert seen == [False] and cv2.ipp.useIPP()
    finally:
        cv2.ipp.setUseIPP(before)


def test_calibrate_finds_the_boards_of_a_clear_photo():
    rng = random.Random(3)
    state = random_position(rng)
    while state.game != "azul" or state.players != 4:
        state = random_position(rng)
    scene = render_state(state, (55, 3), SceneOptions(size=(1280, 720), hands=0.0, clutter=0.0))
    truth = [np.array(b["corners"]) for b in scene.truth["profile"]["boards"]]
    side = scene.truth["profile"]["boards"][0]["layout"].split("-", 1)[1]
    boards, scoring = find_boards(scene.image, "azul", 4, side)
    assert scoring is None and len(boards) == 4
    # player numbers are a convention of the photo (nearest first, then clockwise): the seats
    # go round in the same direction, so some turn of the found list matches the truth
    best = max(sum(np.abs(boards[(i + s) % 4].corners - truth[i]).max() < 8 for i in range(4)) for s in range(4))
    assert best == 4


def test_unreadable_images_are_clear_errors(tmp_path):
    with pytest.raises(ImageError) as info:
        load_image(tmp_path / "absent.jpg")
    assert (info.value.code, info.value.params) == ("image.missing", {"path": str(tmp_path / "absent.jpg")})
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(ImageError) as info:
        load_image(empty)
    assert (info.value.code, info.value.params) == ("image.empty", {"path": str(empty)})
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 this is not really a JPEG")
    with pytest.raises(ImageError) as info:
        load_image(corrupt)
    assert (info.value.code, info.value.params) == ("image.undecodable", {"path": str(corrupt)})
    assert words(info.value) == f"cannot read image {corrupt}: not an image OpenCV can decode (corrupt or another format)"
