"""Board registration against the board's own look: its bare view from a calibration photo."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import board_homography
from azulcam.engine.games import GAMES
from azulcam.vision import register
from azulcam.vision.bare import PPM, rectified, view_size
from azulcam.synth.dataset import random_position
from azulcam.vision.register import refine_board
from azulcam.synth.render import SceneOptions, render_moments
from tests.vision.test_register import slot_error

SIZE = (1920, 1080)  # as bench/register.py: 2 px of a calibration there is some 0.15 tile
CLICK_PX = 2.0


def calibrated_tables(count: int, family: str, seed: int):
    """``count`` tables of ``family``, each photographed at the game's start and later: the later
    photo (grey) and, for each board wholly in it, its true corners, the corners 2 px off its
    bare view was taken through from the first photo (as a calibration keeps it: the bare view's
    frame is theirs), its side and that bare view."""
    rng, clicks = random.Random(seed), np.random.default_rng(seed)
    for n in range(count):
        state = random_position(rng)
        start = GAMES[state.game].new(state.players, state.options, 0)
        calibration, scene = render_moments([start, state], (seed, n), SceneOptions(size=SIZE, family=family))
        boards = []
        for board in scene.truth["profile"]["boards"]:
            truth = np.array(board["corners"], np.float64)
            if (truth < 0).any() or (truth[:, 0] >= SIZE[0]).any() or (truth[:, 1] >= SIZE[1]).any():
                continue
            clicked = truth + clicks.normal(0, CLICK_PX, (4, 2))
            boards.append((truth, clicked, board["layout"], rectified(calibration.image, board_homography(clicked), board["layout"])))
        yield cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY), boards


def test_a_bumped_board_comes_back_onto_its_slots_by_its_own_bare_view():
    """A printing other than the renderer's classic art: each board bumped by about 6 mm since
    calibration is aligned with its own bare view."""
    tables = list(calibrated_tables(4, "strong-print", 12))
    nudge = np.random.default_rng(12)
    before, after = [], []
    for grey, boards in tables:
        for truth, _, layout, sheet in boards:
            assert sheet.shape[:2] == view_size(layout)[::-1]
            width = np.linalg.norm(truth[1] - truth[0])
            start = truth + nudge.normal(0, 0.025 * width, 2) + nudge.normal(0, 0.01 * width, (4, 2))
            reg = refine_board(grey, start, layout, sheet)
            before.append(slot_error(start, truth, layout))
            after.append(slot_error(reg.corners, truth, layout))
    print(f"slot centres, worst on a board, median: {np.median(before):.3f} -> {np.median(after):.3f} tile")
    assert len(after) >= 8
    assert np.median(after) < 0.2 and np.median(after) < np.median(before) / 2, (before, after)


@pytest.fixture
def without_ipp():
    """OpenCV without IPP, as a reading runs it: the same bytes worked out twice, or fitted from
    arrays elsewhere in memory, give the same bits (``register.without_ipp``)."""
    with register.without_ipp():
        yield


def test_two_sheets_never_share_a_look_and_one_sheet_is_worked_out_once(monkeypatch, without_ipp):
    """Looks are found by the sheet's bytes: an equal copy finds the same templates (a table's
    frames do not work them out again), another sheet, even in the same array changed in place,
    does not."""
    grey, boards = next(calibrated_tables(1, "matte-worn", 13))
    truth, clicked, layout, sheet = boards[0]
    built = []
    fine_model = register._fine_model
    monkeypatch.setattr(register, "_fine_model", lambda template: built.append(1) or fine_model(template))
    start = truth + np.random.default_rng(14).normal(0, 3, (4, 2))
    first = refine_board(grey, start, layout, sheet)
    # The board lies in its bare view's frame: where calibration's corners put it.
    assert first.aligned and slot_error(first.corners, clicked, layout) < 0.1 and built
    built.clear()
    assert refine_board(grey, start, layout, sheet).corners.tolist() == first.corners.tolist()
    assert refine_board(grey, start, layout, sheet.copy()).corners.tolist() == first.corners.tolist()
    assert not built  # found again, by the same array and by an equal one
    template = register._template(layout, 0.7, sheet)

    # The same sheet moved 4 mm to the right on its board: another look, whose board lies 4 mm
    # to the left of the first's; first in another array, then in the first one changed in place.
    h, w = sheet.shape[:2]
    moved = cv2.warpAffine(sheet, np.float32([[1, 0, 4 * PPM], [0, 1, 0]]), (w, h), borderMode=cv2.BORDER_REPLICATE)
    for other in (moved, sheet):
        other[...] = moved
        now = register._template(layout, 0.7, other)
        assert np.array_equal(now, register._Look(layout, moved.copy()).template(0.7))  # worked out anew
        assert not np.allclose(now, template, atol=1e-3 * template.max())
        shifted = refine_board(grey, start, layout, other)
        mm = np.linalg.norm(truth[1] - truth[0]) / load_layout(layout).size_mm[0]
        assert shifted.aligned and np.mean(shifted.corners[:, 0] - first.corners[:, 0]) == pytest.approx(-4 * mm, rel=0.3)


def test_a_sheet_is_an_image_of_bytes():
    grey = np.zeros((90, 160), np.uint8)
    corners = np.array([[10, 10], [100, 10], [100, 70], [10, 70]], np.float64)
    with pytest.raises(ValueError, match="sheet"):
        refine_board(grey, corners, "azul-colored", sheet=np.zeros((340, 500, 3), np.float32))
