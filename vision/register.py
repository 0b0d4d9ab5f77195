"""Board registration: where exactly each board lies in this image, starting from the profile.

A profile's corners are a user's clicks or an earlier frame's fit: a few pixels off, or a board
bumped by a centimetre or two since. :func:`refine_board` warps the image around the board into
the board's own plane and aligns it with the board's printed art (ECC on edges, coarse to fine),
so that every slot is read where it is. A board that cannot be aligned keeps its profile corners
and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..calibration.profile import board_homography, to_image
from . import art

#: Scales (pixels per board millimetre) of the coarse-to-fine alignment.
_LEVELS = (0.25, 0.7)
#: How far past the board's edge the warped view reaches (fraction of its size): room to move.
_PAD = 0.12


@dataclass(frozen=True)
class Registration:
    """A board's refined corners (image pixels, TL TR BR BL), how well the art matched (ECC
    correlation, 0..1) and whether the alignment converged."""

    corners: np.ndarray
    score: float
    aligned: bool


@lru_cache(maxsize=32)
def _template(layout_name: str, ppm: float) -> np.ndarray:
    """The board's art as the edges the aligner matches: grey, blurred, padded with flat grey."""
    sheet = art.board_art(layout_name, 3.0)
    w, h = load_layout(layout_name).size_mm
    size = (max(8, int(round(w * ppm))), max(8, int(round(h * ppm))))
    grey = cv2.cvtColor(cv2.resize(sheet, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    pad_x, pad_y = _pad(layout_name, ppm)
    out = cv2.copyMakeBorder(grey, pad_y, pad_y, pad_x, pad_x, cv2.BORDER_CONSTANT, value=int(grey.mean()))
    out = _edges(out)
    out.flags.writeable = False
    return out


def _pad(layout_name: str, ppm: float) -> tuple[int, int]:
    """Pixels of grey round the board in its padded view, across and down."""
    w, h = load_layout(layout_name).size_mm
    size = (max(8, int(round(w * ppm))), max(8, int(round(h * ppm))))
    return int(round(size[0] * _PAD)), int(round(size[1] * _PAD))


def _edges(grey: np.ndarray) -> np.ndarray:
    """Gradient magnitude, smoothed: lighting and tile colours matter less than printed lines."""
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    return cv2.GaussianBlur(mag, (0, 0), 1.5)


def _frame_to_board(size: tuple[int, int], pad: tuple[int, int]) -> np.ndarray:
    """Pixels of a padded board view -> board fractions. A pixel's centre is its whole coordinate
    (as in ``warpPerspective``), and the template's pixel ``i`` (past the pad) covers the board
    from ``i`` to ``i + 1`` pixels: its centre is half a pixel in."""
    w, h = size
    px, py = pad
    return np.array([[1 / (w - 2 * px), 0, (0.5 - px) / (w - 2 * px)],
                     [0, 1 / (h - 2 * py), (0.5 - py) / (h - 2 * py)], [0, 0, 1]])


@dataclass(frozen=True)
class ArtView:
    """The image around a board warped into the board's padded frame at ``ppm`` pixels per mm,
    as edges, beside the same edges of the board's art (``template``)."""

    edges: np.ndarray
    template: np.ndarray
    pad: tuple[int, int]
    view_to_image: np.ndarray
    view_to_board: np.ndarray


def art_view(grey: np.ndarray, homography: np.ndarray, layout_name: str, ppm: float) -> ArtView:
    """Warp the image through a board's ``homography`` (board fractions -> pixels) into its frame."""
    template = _template(layout_name, ppm)
    th, tw = template.shape
    pad = _pad(layout_name, ppm)
    view_to_board = _frame_to_board((tw, th), pad)
    view_to_image = homography @ view_to_board
    view = cv2.warpPerspective(grey, view_to_image, (tw, th), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    return ArtView(_edges(view), template, pad, view_to_image, view_to_board)


def refine_board(grey: np.ndarray, corners: np.ndarray, layout_name: str, iterations: int = 40) -> Registration:
    """Align a board's art with a greyscale image, starting from ``corners`` (4 x 2 pixels)."""
    h_img = board_homography(np.asarray(corners, np.float64)).astype(np.float64)
    score, aligned = 0.0, True
    for ppm in _LEVELS:
        view = art_view(grey, h_img, layout_name, ppm)
        warp = np.eye(3, dtype=np.float32)
        try:
            score, warp = cv2.findTransformECC(view.template, view.edges, warp, cv2.MOTION_HOMOGRAPHY,
                                               (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-5),
                                               None, 3)
        except cv2.error:
            aligned = False
            break
        # ECC's warp takes template pixels to view pixels; the board's homography follows it.
        h_img = view.view_to_image @ warp.astype(np.float64) @ np.linalg.inv(view.view_to_board)
    if not aligned:
        return Registration(np.asarray(corners, np.float64), 0.0, False)
    refined = to_image(h_img, [[0, 0], [1, 0], [1, 1], [0, 1]])
    moved = np.abs(refined - corners).max()
    size = np.linalg.norm(np.asarray(corners[1]) - corners[0])
    if not np.isfinite(refined).all() or moved > 0.25 * size:  # a runaway fit: keep the profile
        return Registration(np.asarray(corners, np.float64), float(score), False)
    return Registration(refined, float(score), True)
