"""The board-finding model: its targets, its maps made into quadrilaterals, and what it proposes
on a drawn table."""

from __future__ import annotations

import random
import shutil

import cv2
import numpy as np
import pytest

from azulcam.calibration.profile import board_homography, to_image
from azulcam.models.samples import board_finder_frame
from azulcam.synth.dataset import random_position
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision import board_finder
from azulcam.vision.board_finder import (CORE, STRIDE, BoardFinderError, core_outline, load_board_finder,
                                         network_input, quads_of)
from azulcam.vision.shipped import package_file


def off_by(quad: np.ndarray, corners: np.ndarray) -> float:
    """The largest corner distance in the best turn, as a share of the board's diagonal."""
    return min(float(np.linalg.norm(np.roll(quad, k, axis=0) - corners, axis=1).max()) for k in range(4)) \
        / float(np.linalg.norm(corners[2] - corners[0]))


def test_a_core_is_the_middle_of_its_board_in_perspective():
    corners = np.array([[100, 50], [300, 60], [340, 220], [60, 200]], np.float64)
    core = core_outline(corners)
    lo, hi = CORE
    assert np.allclose(core, to_image(board_homography(corners), [[lo, lo], [hi, lo], [hi, hi], [lo, hi]]))
    assert cv2.pointPolygonTest(corners.astype(np.float32), tuple(map(float, core.mean(0))), False) > 0
    assert cv2.contourArea(core.astype(np.float32)) < 0.25 * cv2.contourArea(corners.astype(np.float32))


def test_two_boards_side_by_side_are_two_quadrilaterals():
    """One card region, two cores: each board is outlined apart, by its cells and by its core grown,
    in the input's pixels (a cell's centre STRIDE / 2 - 0.5 pixels in)."""
    card = np.zeros((60, 100), np.float32)
    core = np.zeros_like(card)
    boards = [np.array([[10, 10], [44, 10], [44, 44], [10, 44]], np.float64),
              np.array([[45, 12], [85, 12], [85, 50], [45, 50]], np.float64)]
    for corners in boards:
        cv2.fillPoly(card, [corners.astype(np.int32)], 1.0)
        cv2.fillPoly(core, [np.round(core_outline(corners)).astype(np.int32)], 1.0)
    quads = quads_of(card, core)
    assert len(quads) == 4
    for corners in boards:
        assert sum(off_by(q, corners * STRIDE + (STRIDE - 1) / 2) < 0.08 for q in quads) == 2


def test_no_core_no_quadrilateral():
    card = np.ones((30, 30), np.float32)
    assert quads_of(card, np.zeros_like(card)) == []


def test_the_targets_lie_where_the_boards_do():
    s = render_state(random_position(random.Random(4)), 4, SceneOptions(size=(1280, 720)))
    frame, masks = board_finder_frame(s.image, s.truth)
    scale = board_finder.input_scale(s.image.shape)
    assert frame.shape[:2] == masks.shape[1:] and max(frame.shape[:2]) == board_finder.LONG_SIDE
    for placement in s.truth["profile"]["boards"]:
        corners = (np.asarray(placement["corners"]) + 0.5) * scale - 0.5
        middle = np.round(corners.mean(0)).astype(int)
        if (0 <= middle).all() and middle[0] < frame.shape[1] and middle[1] < frame.shape[0]:
            assert masks[0, middle[1], middle[0]] == 255 and masks[1, middle[1], middle[0]] == 255
    assert 0 < (masks[1] > 0).sum() < (masks[0] > 0).sum()


def test_the_input_is_padded_to_the_networks_multiple():
    view, scale = network_input(np.zeros((3000, 4000, 3), np.uint8))
    assert scale == board_finder.LONG_SIDE / 4000
    assert view.shape[1] == board_finder.LONG_SIDE and view.shape[0] % board_finder.INPUT_MULTIPLE == 0


@pytest.mark.parametrize("family,seed", [("classic", 11), ("matte-worn", 12)])
def test_every_board_seen_whole_is_proposed(family, seed):
    """On drawn tables of the families it learned (held-out seeds), each board wholly in view gets a
    proposal with every corner within a tenth of its diagonal: the board-fitting model and the
    outlines take it from there."""
    s = render_state(random_position(random.Random(seed)), seed, SceneOptions(size=(1280, 720), family=family))
    quads = load_board_finder().quads(s.image)
    h, w = s.image.shape[:2]
    placements = s.truth["profile"]["boards"] + ([s.truth["profile"]["scoring_board"]]
                                                 if s.truth["profile"]["scoring_board"] else [])
    whole = [np.asarray(p["corners"]) for p in placements]
    whole = [c for c in whole if (c >= 0).all() and (c[:, 0] < w).all() and (c[:, 1] < h).all()]
    assert whole
    for corners in whole:
        assert min(off_by(q, corners) for q in quads) < 0.1
    assert len(quads) <= 2 * (len(placements) + 2)


def test_maps_are_on_the_stride_grid():
    finder = load_board_finder()
    card, core, scale = finder.maps(np.full((720, 1280, 3), 90, np.uint8))
    assert card.shape == core.shape == (288 // STRIDE, 512 // STRIDE) and scale == 0.4
    assert card.max() < board_finder.THRESHOLD  # a bare grey photo has no board


def test_a_damaged_model_is_refused(tmp_path):
    copy = tmp_path / "board_finder.onnx"
    shutil.copy(package_file("board_finder.onnx"), copy)
    shutil.copy(package_file("board_finder.onnx.sha256"), tmp_path / "board_finder.onnx.sha256")
    assert load_board_finder(copy).version
    copy.write_bytes(copy.read_bytes()[:-10])
    with pytest.raises(BoardFinderError) as info:
        load_board_finder(copy)
    assert info.value.code == "model.altered" and info.value.params["path"] == str(copy)


def test_a_model_for_another_input_is_refused(monkeypatch):
    monkeypatch.setattr(board_finder, "LONG_SIDE", 640)
    with pytest.raises(BoardFinderError) as info:
        load_board_finder(package_file("board_finder.onnx"))
    assert info.value.code == "model.trained_for" and (info.value.params["setting"], info.value.params["want"]) == ("long_side", 640)
