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


@pytest.mark.parametrize("elevation, fov", [(45, 60), (60, 75), (75, 55)])
def test_a_slanted_board_gives_the_focal_length_and_where_a_tile_s_top_lies(elevation, fov):
    K, R, t = _camera(elevation, fov)
    square = np.array([[0, 0, 0], [300, 0, 0], [300, 300, 0], [0, 300, 0]], float)
    h = cv2.getPerspectiveTransform(square[:, :2].astype(np.float32), _project(K, R, t, square).astype(np.float32))
    f = pose.focal_length([h], (1280, 720))
    assert f == pytest.approx(K[0, 0], rel=0.01)
    found = pose.pose(h, pose.intrinsics(f, (1280, 720)))
    assert found.height_mm == pytest.approx(700 * math.sin(math.radians(elevation)), rel=0.02)
    # A tile's top, 7 mm above the board towards the camera, where the camera truly sees it.
    tops = np.array([[40.0, 60.0, -7.0], [250.0, 200.0, -7.0]])
    seen = _project(K, R, t, tops)
    lifted = cv2.perspectiveTransform(tops[:, :2].reshape(-1, 1, 2), pose.lifted(found, 7.0)).reshape(-1, 2)
    flat = cv2.perspectiveTransform(tops[:, :2].reshape(-1, 1, 2), h).reshape(-1, 2)
    assert np.abs(lifted - seen).max() < 0.3
    assert np.abs(flat - seen).max() > 2.0  # the parallax the board's own plane misses


def test_a_view_straight_down_leaves_the_focal_length_to_a_typical_camera_s():
    K, R, t = _camera(90, 70)
    square = np.array([[0, 0, 0], [300, 0, 0], [300, 300, 0], [0, 300, 0]], float)
    h = cv2.getPerspectiveTransform(square[:, :2].astype(np.float32), _project(K, R, t, square).astype(np.float32))
    typical = 1280 / 2 / math.tan(math.radians(pose.TYPICAL_FOV) / 2)
    assert pose.focal_length([h], (1280, 720)) == pytest.approx(typical, rel=0.05)
