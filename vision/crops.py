"""Patches for the tile classifier: one square patch per board slot or loose tile.

The same code cuts the training crops from rendered scenes and the crops read at inference
(as chesscog does), so the model sees what it learned from. A slot's or tile's four outline
points (a square's corners, or a rhombus's tip, side, tip, side) are mapped onto the patch's
corners, with a margin of context around them: squares and rhombuses both become squares,
turned the same way as the board (or as the loose tile's outline).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from ..calibration.layouts import Layout
from ..calibration.profile import to_image

#: Side of a patch in pixels.
PATCH = 32
#: How much of the patch is context around the outline, on each side (fraction of the outline).
MARGIN = 0.12

_PATCH_CORNERS = np.array([[0, 0], [PATCH, 0], [PATCH, PATCH], [0, PATCH]], np.float32) - 0.5


def grow(quads: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """Outlines (N x 4 x 2) pushed out from their centres by ``margin`` of their size."""
    centres = quads.mean(axis=1, keepdims=True)
    return centres + (quads - centres) * (1 + 2 * margin)


def slot_outlines(homography: np.ndarray, layout: Layout, ids: list[str] | None = None) -> tuple[list[str], np.ndarray]:
    """Image outlines (N x 4 x 2) of a board's slots, from the board's homography (board
    fractions -> pixels): the slot polygon's four points in the layout's order."""
    ids = list(ids) if ids is not None else list(layout.ids)
    polys = np.array([layout[i].polygon[:4] for i in ids], np.float64)
    return ids, to_image(homography, polys.reshape(-1, 2)).reshape(-1, 4, 2)


def cut(image: np.ndarray, outlines: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """One PATCH x PATCH x 3 patch per outline (N x 4 x 2 image points), as uint8."""
    out = np.zeros((len(outlines), PATCH, PATCH, 3), np.uint8)
    h, w = image.shape[:2]
    for n, quad in enumerate(grow(np.asarray(outlines, np.float64), margin)):
        x0, y0 = np.floor(quad.min(0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
        if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
            continue  # wholly outside the image: left black
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        m = cv2.getPerspectiveTransform((quad - (x0, y0)).astype(np.float32), _PATCH_CORNERS)
        out[n] = cv2.warpPerspective(image[y0:y1, x0:x1], m, (PATCH, PATCH), flags=cv2.INTER_AREA
                                     if (x1 - x0) > 2 * PATCH else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def board_patches(image: np.ndarray, homography: np.ndarray, layout: Layout) -> tuple[list[str], np.ndarray]:
    """Every slot of one board: its ids and patches."""
    ids, outlines = slot_outlines(homography, layout)
    return ids, cut(image, outlines)


def outline_of(item: dict[str, Any]) -> np.ndarray:
    """The 4 x 2 outline of a truth item (``azulcam-scene/1`` ``items``)."""
    return np.asarray(item["outline"], np.float64)
