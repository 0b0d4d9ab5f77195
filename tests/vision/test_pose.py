"""The camera's pose from a board's homography, and the plane of the tiles' tops (vision.pose)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from azulcam.vision import pose


def _camera(elevation: float, fov: float, size=(1280, 720)):
    """A camera looking at the board's centre (board millimetres, z = x cross y into the table)
    from ``elevation`` degrees, 700 mm away: its K, R, t."""
    f = size[0] / 2 / math.tan(math.radians(fov) / 2)
    K = pose.intrinsics(f, size)
    target = np.array([150.0, 150.0, 0.0])
    e = math.radians(elevation)
    centre = target + 700 * np.array([0.3 * math.cos(e), math.cos(e), -math.sin(e)])  # above: z < 0
    forward = (target - centre) / np.linalg.norm(target - centre)
    right = np.cross(forward, [0.0, 0.0, -1.0]) if abs(forward[2]) < 0.999 else np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    R = np.vstack([right, down, forward])
    return K, R, -R @ centre


def _project(K, R, t, points):
    cam = (R @ np.asarray(points, float).T).T + t
    px = (K @ cam.T).T
    return px[:, :2] / px[:, 2:]


@pytest.mark.parametrize("elevation, fov, within", [(45, 60, 0.01), (60, 75, 0.05), (75, 55, 0.06)])
def test_a_slanted_board_gives_the_focal_length_and_where_a_tile_s_top_lies(elevation, fov, within):
    """The steeper the view, the less the board says and the more a typical camera's field of
    view weighs: within 1 % at 45 degrees, 5 to 6 % at 60 and 75."""
    K, R, t = _camera(elevation, fov)
    square = np.array([[0, 0, 0], [300, 0, 0], [300, 300, 0], [0, 300, 0]], float)
    h = cv2.getPerspectiveTransform(square[:, :2].astype(np.float32), _project(K, R, t, square).astype(np.float32))
    f = pose.focal_length([h], (1280, 720))
    assert f == pytest.approx(K[0, 0], rel=within)
    found = pose.pose(h, pose.intrinsics(f, (1280, 720)))
    assert found.height_mm == pytest.approx(700 * math.sin(math.radians(elevation)), rel=max(within, 0.02))
    # A tile's top, 7 mm above the board towards the camera, where the camera truly sees it.
    tops = np.array([[40.0, 60.0, -7.0], [250.0, 200.0, -7.0]])
    seen = _project(K, R, t, tops)
    lifted = cv2.perspectiveTransform(tops[:, :2].reshape(-1, 1, 2), pose.lifted(found, 7.0)).reshape(-1, 2)
    flat = cv2.perspectiveTransform(tops[:, :2].reshape(-1, 1, 2), h).reshape(-1, 2)
    assert np.abs(lifted - seen).max() < 1.0
    assert np.abs(flat - seen).max() > 2.0  # the parallax the board's own plane misses


def test_a_view_straight_down_leaves_the_focal_length_to_a_typical_camera_s():
    K, R, t = _camera(90, 70)
    square = np.array([[0, 0, 0], [300, 0, 0], [300, 300, 0], [0, 300, 0]], float)
    h = cv2.getPerspectiveTransform(square[:, :2].astype(np.float32), _project(K, R, t, square).astype(np.float32))
    typical = 1280 / 2 / math.tan(math.radians(pose.TYPICAL_FOV) / 2)
    assert pose.focal_length([h], (1280, 720)) == pytest.approx(typical, rel=0.05)


def test_tile_tops_work_in_board_fractions():
    """``tile_tops`` gives each board's plane of a tile's top from its fractions."""
    K, R, t = _camera(50, 65)
    size_mm = (300.0, 200.0)
    corners = np.array([[0, 0, 0], [300, 0, 0], [300, 200, 0], [0, 200, 0]], float)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, _project(K, R, t, corners).astype(np.float32))
    (top,) = pose.tile_tops([h], [size_mm], (1280, 720), 7.0)
    at = np.array([[0.25, 0.5], [0.8, 0.3]])
    seen = _project(K, R, t, np.c_[at * size_mm, np.full(2, -7.0)])
    on_top = cv2.perspectiveTransform(at.reshape(-1, 1, 2), top).reshape(-1, 2)
    assert np.abs(on_top - seen).max() < 0.5
    assert pose.tile_tops([], [], (1280, 720), 7.0) == []


def test_corners_a_pixel_off_in_a_view_straight_down_keep_a_tile_s_top_where_it_is():
    """A view nearly straight down says little of the focal length: corners nudged by two pixels
    must not make it look steeply slanted, which threw the plane of the tiles' tops 40 pixels off
    their spaces. What is left is the slant's direction, which such a view hardly shows: beyond
    what the nudge puts the board's own plane off, half a pixel at the median and 2.5 at the 90th
    percentile (a tile is 32 pixels across here)."""
    K, R, t = _camera(85, 60)
    square = np.array([[0, 0, 0], [300, 0, 0], [300, 300, 0], [0, 300, 0]], float)
    seen = _project(K, R, t, square)
    tops = np.array([[40.0, 60.0, -7.0], [250.0, 200.0, -7.0], [150.0, 150.0, -7.0]])
    truth, bottoms = _project(K, R, t, tops), _project(K, R, t, tops * (1, 1, 0))
    rng = np.random.default_rng(0)
    beyond = []
    for _ in range(50):
        h = cv2.getPerspectiveTransform(square[:, :2].astype(np.float32),
                                        (seen + rng.normal(0, 2, (4, 2))).astype(np.float32))
        found = pose.pose(h, pose.intrinsics(pose.focal_length([h], (1280, 720)), (1280, 720)))
        lifted = cv2.perspectiveTransform(tops[:, :2].reshape(-1, 1, 2), pose.lifted(found, 7.0)).reshape(-1, 2)
        flat = cv2.perspectiveTransform(tops[:, :2].reshape(-1, 1, 2), h).reshape(-1, 2)
        beyond += list(np.linalg.norm(lifted - truth, axis=1) - np.linalg.norm(flat - bottoms, axis=1))
    assert np.median(beyond) < 1.0 and np.percentile(beyond, 90) < 2.5
