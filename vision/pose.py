"""The camera's pose from the boards' homographies, and where a raised tile's top face lies.

A board's printed top is a plane whose homography (board millimetres to image pixels) every
registration gives. With square pixels and the principal point at the image's centre, each board
gives two constraints on the focal length (its plane's axes are orthogonal and of one length: the
image of the absolute conic), and with the focal length, the camera's rotation and position over
the board (:func:`pose`). Every copy of the game shares its tiles' height (Azul 7 mm, Summer
Pavilion 6 mm: ``calibration.geometry.tile_height``): a tile's top face lies on the plane that far above the
board (:func:`lifted`), shifted from its printed space by the parallax of the camera's slant, with
its near sides showing between the two. A print lies on the board's own plane.

Lens distortion is not modelled: the homographies are fitted to the distorted image, and the
lifted plane inherits their error near the image's edges. A view straight down leaves the focal
length free: it then falls back on a typical camera's (:data:`TYPICAL_FOV`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: Horizontal field of view (degrees) of a typical camera: webcams and phones lie between about
#: 55 and 80, and their spread about it (one standard deviation).
TYPICAL_FOV = 65.0
FOV_SPREAD = 20.0
#: The fields of view tried (degrees).
_FOVS = np.linspace(25.0, 120.0, 96)
#: How far a board's back-projected axes stray from square and equal at the true focal length (the
#: cosine of their angle, the log of their lengths' ratio): corners a pixel or two off on a board a
#: few hundred pixels across.
AXES_NOISE = 0.015


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
    """The focal length (pixels) most likely given every board's plane (its axes square and of one
    length, within :data:`AXES_NOISE`) and a typical camera (:data:`TYPICAL_FOV`, :data:`FOV_SPREAD`):
    a slanted board decides it; a view straight down says nothing, and leaves it to the typical
    camera's, so that corners a pixel off cannot make a top-down view look steeply slanted."""
    focals = size[0] / 2 / np.tan(np.radians(_FOVS) / 2)
    cost = ((_FOVS - TYPICAL_FOV) / FOV_SPREAD) ** 2
    centre = np.array([size[0] / 2, size[1] / 2])
    for h in homographies:
        h = np.asarray(h, np.float64)
        # K^-1 h for each focal length: the principal point taken out, then x and y divided by f.
        shifted = h[:2] - np.outer(centre, h[2])
        axes = np.concatenate([shifted[None, :, :2] / focals[:, None, None],
                               np.broadcast_to(h[2, :2], (len(focals), 1, 2))], axis=1)  # F x 3 x 2
        r1, r2 = axes[..., 0], axes[..., 1]
        n1, n2 = np.linalg.norm(r1, axis=1), np.linalg.norm(r2, axis=1)
        cosine = np.einsum("fi,fi->f", r1, r2) / (n1 * n2)
        cost = cost + (cosine ** 2 + np.log(n1 / n2) ** 2) / AXES_NOISE ** 2
    k = int(np.argmin(cost))
    if 0 < k < len(cost) - 1:  # the parabola through the best and its neighbours
        bend = cost[k - 1] - 2 * cost[k] + cost[k + 1]
        step = 0.5 * (cost[k - 1] - cost[k + 1]) / bend if bend > 0 else 0.0
        fov = float(np.interp(k + step, np.arange(len(_FOVS)), _FOVS))
        return size[0] / 2 / math.tan(math.radians(fov) / 2)
    return float(focals[k])


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


def tile_tops(homographies: Sequence[np.ndarray], sizes_mm: Sequence[tuple[float, float]], image_size: tuple[int, int],
              height_mm: float) -> list[np.ndarray]:
    """For each board (its homography from board fractions to pixels, its size in millimetres),
    the homography from board fractions to the image of the plane ``height_mm`` above it: where
    the top face of a tile lying on a space shows. The focal length is worked out from every
    board at once (:func:`focal_length`), each board's pose from its own homography: corners a
    pixel or two off move a tile's top by a tenth of a tile or more on a board 200 pixels across
    (``python bench/pose.py --nudge 1``)."""
    metrics = [metric(np.asarray(h, np.float64), size) for h, size in zip(homographies, sizes_mm)]
    if not metrics:
        return []
    K = intrinsics(focal_length(metrics, image_size), image_size)
    return [lifted(pose(h, K), height_mm) @ np.diag([size[0], size[1], 1.0]) for h, size in zip(metrics, sizes_mm)]
