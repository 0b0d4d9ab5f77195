"""The board-fitting model's geometry: its view, its cells, the fit of a homography to them."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from azulcam.calibration.profile import board_homography, to_image
from azulcam.vision import board_fit
from azulcam.vision.board_fit import (MARGIN, STRIDE, VIEW_PX, BoardFitError, board_view, cell_fractions,
                                      load_board_fitter, view_to_outline, weighted_homography)
from azulcam.vision.shipped import package_file


def test_the_view_puts_the_outline_inside_its_margin():
    frame = view_to_outline()
    inner = VIEW_PX * (1 - 2 * MARGIN)
    # The outline's corners lie MARGIN of the view in from its edges (pixel centres at whole numbers).
    assert np.allclose(to_image(np.linalg.inv(frame), [[0, 0], [1, 1]]),
                       [[VIEW_PX * MARGIN - 0.5] * 2, [VIEW_PX * MARGIN - 0.5 + inner] * 2])
    cells = cell_fractions()
    assert cells.shape == ((VIEW_PX // STRIDE) ** 2, 2)
    assert cells.min() < -MARGIN * 0.8 and cells.max() > 1 + MARGIN * 0.8


@pytest.mark.parametrize("side", [110, 400, 1300])
def test_a_board_large_in_the_photo_is_shrunk_first_without_moving(side):
    """A dot at a known place in the board shows at the same place of the view, whether the board
    is about the view's size or ten times it (halved first, as often as it takes)."""
    image = np.full((1600, 1800, 3), 200, np.uint8)
    corners = np.array([[150, 120], [150 + side, 140], [160 + side, 130 + side], [140, 110 + side]], np.float64)
    spot = to_image(board_homography(corners), [[0.3, 0.6]])[0]
    cv2.circle(image, tuple(int(round(v)) for v in spot), max(3, side // 25), (0, 0, 0), -1)
    view = board_view(image, corners)
    ys, xs = np.nonzero(view[..., 0] < 100)
    found = np.array([xs.mean(), ys.mean()])
    expected = to_image(np.linalg.inv(view_to_outline()), [[0.3, 0.6]])[0]
    assert np.abs(found - expected).max() < 0.6


def test_the_weighted_fit_recovers_a_homography_and_ignores_what_weighs_nothing():
    rng = np.random.default_rng(1)
    truth = board_homography(np.array([[10, 20], [300, 40], [320, 280], [0, 300]], np.float64))
    src = rng.uniform(-0.2, 1.2, (500, 2))
    dst = to_image(truth, src)
    dst[:100] += 50  # outliers
    weights = np.ones(500)
    weights[:100] = 0
    fitted = weighted_homography(src, dst, weights)
    assert np.abs(to_image(fitted, src[100:]) - dst[100:]).max() < 1e-6


def test_a_damaged_or_foreign_model_is_refused(tmp_path):
    copy = tmp_path / "board_fit.onnx"
    shutil.copy(package_file("board_fit.onnx"), copy)
    shutil.copy(package_file("board_fit.onnx.sha256"), tmp_path / "board_fit.onnx.sha256")
    assert load_board_fitter(copy).version
    copy.write_bytes(copy.read_bytes()[:-10])
    with pytest.raises(BoardFitError) as info:
        load_board_fitter(copy)
    assert info.value.code == "model.altered" and info.value.params["path"] == str(copy)
    (tmp_path / "board_fit.onnx.sha256").unlink()
    with pytest.raises(BoardFitError) as info:
        load_board_fitter(copy)
    assert (info.value.code, info.value.params) == ("model.no_digest", {"path": str(tmp_path / "board_fit.onnx.sha256")})


def test_a_model_for_another_view_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(board_fit, "VIEW_PX", 96)
    with pytest.raises(BoardFitError) as info:
        load_board_fitter(package_file("board_fit.onnx"))
    assert info.value.code == "model.trained_for" and (info.value.params["setting"], info.value.params["want"]) == ("view_px", 96)
