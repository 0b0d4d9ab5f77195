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


def test_a_tall_patch_holds_the_slot_and_the_raised_top_of_its_tile():
    """In a slanted view a tile's top lies a quarter of a tile from its slot: the slot raised by
    a tile's height over the table's plane (fitted to the profile's corners) lands on it, and
    the tall patch's outline, grown by ``TALL_MARGIN``, holds both."""
    import random

    from azulcam.calibration.layouts import load_layout
    from azulcam.calibration.profile import Profile, board_homography
    from azulcam.vision.camera import EDGE_VIEW
    from azulcam.vision.dataset import random_position
    from azulcam.vision.locate import table_plane
    from azulcam.vision.render import SceneOptions, render_state
    from azulcam.vision.table import tile_height

    rng = random.Random(7)
    state = random_position(rng)
    scene = render_state(state, (7, 0), SceneOptions(size=(1920, 1080), view=EDGE_VIEW))
    plane = table_plane(Profile.from_json(scene.truth["profile"]))
    tops = {item["zone"]: np.mean(item["outline"], axis=0) for item in scene.truth["items"]}
    off_slot, off_raised, held = [], [], []
    for board in scene.truth["profile"]["boards"]:
        ids, quads = crops.slot_outlines(board_homography(np.asarray(board["corners"], float)), load_layout(board["layout"]))
        raised = plane.raised_in_image(quads, tile_height(state.game))
        grown = crops.grow(crops.tall(quads, raised), crops.TALL_MARGIN)
        for slot_id, quad, up, outline in zip(ids, quads, raised, grown):
            top = tops.get(f"boards.{board['player']}.{slot_id}")
            if top is None:
                continue
            side = np.linalg.norm(quad[1] - quad[0])
            off_slot.append(np.linalg.norm(top - quad.mean(axis=0)) / side)
            off_raised.append(np.linalg.norm(top - up.mean(axis=0)) / side)
            contour = outline.astype(np.float32).reshape(-1, 1, 2)
            held.append(all(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in np.vstack([quad, up])))
    assert len(off_slot) > 10
    assert np.median(off_slot) > 0.15 and np.median(off_raised) < 0.05, (np.median(off_slot), np.median(off_raised))
    assert all(held)
