"""The camera's pose from the boards' homographies, and where a raised tile's top face lies.

A board's printed top is a plane whose homography (board millimetres to image pixels) every
registration gives. With square pixels and the principal point at the image's centre, each board
gives two constraints on the focal length (its plane's axes are orthogonal and of one length: the
image of the absolute conic), and with the focal length, the camera's rotation and position over
the board (:func:`pose`). Every copy of the game shares its tiles' height (Azul 7 mm, Summer
Pavilion 6 mm: ``boards.tile_height``): a tile's top face lies on the plane that far above the
board (:func:`lifted`), shifted from its printed space by the parallax of the camera's slant, with
its near sides showing between the two. A print lies on the board's own plane.

Lens distortion is not modelled: the homographies are fitted to the distorted image, and the
lifted plane inherits their error near the image's edges. A view straight down leaves the focal
length free: the constraints then fall back on a typical camera's (:data:`TYPICAL_FOV`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Horizontal field of view (degrees) assumed where the views do not fix the focal length: webcams
#: and phones lie between about 55 and 80.
TYPICAL_FOV = 65.0
#: Weight of :data:`TYPICAL_FOV` against the views' constraints (their axes of unit length): small,
#: so that one slanted board decides.
PRIOR_WEIGHT = 1e-5


@dataclass(frozen=True)
class Pose:
    """A camera over one board: intrinsics ``K``, rotation ``R`` and translation ``t`` taking
    board millimetres (x right, y down the board; z = x cross y) to the camera's frame."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray

    @property
    def height_mm(self) -> float:
        """The camera's height above the board's plane."""
        return abs(float((self.R.T @ self.t)[2]))


def metric(fractions_to_image: np.ndarray, size_mm: tuple[float, float]) -> np.ndarray:
    """A board's homography from its fractions (0..1) to one from its millimetres."""
    return fractions_to_image @ np.diag([1.0 / size_mm[0], 1.0 / size_mm[1], 1.0])


def _centred(h: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``h`` in image coordinates centred on the image and measured in image widths."""
    w, hh = size
    to_unit = np.array([[1.0 / w, 0.0, -0.5], [0.0, 1.0 / w, -0.5 * hh / w], [0.0, 0.0, 1.0]])
    out = to_unit @ h
    return out / np.linalg.norm(out[:, :2])  # the plane's axes: its translation is not their scale


def focal_length(homographies: Sequence[np.ndarray], size: tuple[int, int]) -> float:
    """The focal length (pixels) that best makes every board's plane square and orthogonal, drawn
    towards :data:`TYPICAL_FOV`'s where the views say little (a view straight down says nothing)."""
    prior = 1.0 / (0.5 / math.tan(math.radians(TYPICAL_FOV) / 2)) ** 2  # 1/f^2, f in image widths
    a_rows, b_rows = [1.0], [-prior]  # the prior: u = prior
    weights = [PRIOR_WEIGHT]
    for h in homographies:
        c = _centred(np.asarray(h, np.float64), size)
        h1, h2 = c[:, 0], c[:, 1]
        # h1' W h2 = 0 and h1' W h1 = h2' W h2, W = diag(u, u, 1), u = 1/f^2: linear in u.
        a_rows += [h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2]
        b_rows += [h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2]
        weights += [1.0, 1.0]
    a, b, wt = np.array(a_rows), np.array(b_rows), np.array(weights)
    u = -float(np.sum(wt * a * b) / np.sum(wt * a * a))
    if not u > 0:
        u = prior
    return size[0] / math.sqrt(u)


def intrinsics(focal: float, size: tuple[int, int]) -> np.ndarray:
    return np.array([[focal, 0.0, size[0] / 2], [0.0, focal, size[1] / 2], [0.0, 0.0, 1.0]])


def pose(h_mm: np.ndarray, K: np.ndarray) -> Pose:
    """The camera over a board from its homography (millimetres to pixels) and intrinsics: the
    rotation made orthonormal, the board in front of the camera."""
    b = np.linalg.inv(K) @ np.asarray(h_mm, np.float64)
    scale = 2.0 / (np.linalg.norm(b[:, 0]) + np.linalg.norm(b[:, 1]))
    if b[2, 2] * scale < 0:  # the board lies in front of the camera (positive depth)
        scale = -scale
    r1, r2, t = b[:, 0] * scale, b[:, 1] * scale, b[:, 2] * scale
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    R = u @ vt
    if np.linalg.det(R) < 0:
        R = u @ np.diag([1.0, 1.0, -1.0]) @ vt
    return Pose(K, R, t)


def lifted(pose_: Pose, height_mm: float) -> np.ndarray:
    """The homography from board millimetres to the image of the plane ``height_mm`` above the
    board, towards the camera: where a tile's top face lies."""
    camera_z = float(-(pose_.R.T @ pose_.t)[2])
    up = 1.0 if camera_z > 0 else -1.0
    r1, r2, r3 = pose_.R[:, 0], pose_.R[:, 1], pose_.R[:, 2]
    return pose_.K @ np.column_stack([r1, r2, r3 * up * height_mm + pose_.t])
