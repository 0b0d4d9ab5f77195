"""Patch cutting (``crops.cut``): the same patches as OpenCV's perspective warp of each outline,
cut all at once."""

from __future__ import annotations

import cv2
import numpy as np

from azulcam.vision import crops


def _one_by_one(image: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """The patch of one outline by ``cv2.warpPerspective`` of the whole image (bilinear)."""
    quad = crops.grow(outline[None])[0].astype(np.float32)
    m = cv2.getPerspectiveTransform(quad, crops._PATCH_CORNERS)
    return cv2.warpPerspective(image, m, (crops.PATCH, crops.PATCH), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def test_cut_matches_a_perspective_warp_of_each_outline():
    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(0, 256, (300, 400, 3), dtype=np.uint8), (0, 0), 2.0)
    centres = rng.uniform([20, 20], [380, 280], (60, 2))
    turns = rng.uniform(0, np.pi / 2, 60)
    sizes = rng.uniform(10, 45, 60)
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
    outlines = []
    for c, t, s in zip(centres, turns, sizes):
        rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        quad = c + (square * s / 2) @ rot.T
        quad[2] += rng.normal(0, 2, 2)  # a little perspective
        outlines.append(quad)
    outlines.append(np.array([[-5.0, 100], [15, 100], [15, 120], [-5, 120]]))  # partly outside
    outlines = np.array(outlines)
    patches = crops.cut(image, outlines)
    assert patches.shape == (len(outlines), crops.PATCH, crops.PATCH, 3) and patches.dtype == np.uint8
    for outline, patch in zip(outlines, patches):
        np.testing.assert_allclose(patch.astype(int), _one_by_one(image, outline).astype(int), atol=1)


def test_cut_edge_cases():
    image = np.full((100, 100, 3), 200, np.uint8)
    far = np.array([[[500.0, 500], [520, 500], [520, 520], [500, 520]]])
    assert not crops.cut(image, far).any()  # wholly outside the image: black
    big = np.array([[[5.0, 5], [95, 5], [95, 95], [5, 95]]])  # shrunk with INTER_AREA
    assert (crops.cut(image, big) == 200).all()
    assert crops.cut(image, np.zeros((0, 4, 2))).shape == (0, crops.PATCH, crops.PATCH, 3)
    # Outlines with no area (a point, a line) have no homography: still patches, not an error.
    flat = np.array([np.full((4, 2), 50.0), [[10.0, 10], [20, 10], [30, 10], [40, 10]]])
    assert crops.cut(image, flat).shape == (2, crops.PATCH, crops.PATCH, 3)

