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


#: The patch's pixel centres, homogeneous (3 x PATCH * PATCH), row by row.
_PATCH_GRID = np.vstack([np.mgrid[0:PATCH, 0:PATCH][::-1].reshape(2, -1), np.ones(PATCH * PATCH)])
#: Rows of one ``cv2.remap`` call: OpenCV's maps hold fewer than 32,768 rows.
_REMAP_PATCHES = 1000


def _patch_to_image(quads: np.ndarray) -> np.ndarray:
    """N x 3 x 3 homographies taking each patch's pixels onto its quad (N x 4 x 2, the patch's
    corners on the quad's four points, in order), as ``cv2.getPerspectiveTransform`` would."""
    src = np.broadcast_to(_PATCH_CORNERS.astype(np.float64), quads.shape)
    n = len(quads)
    a = np.zeros((n, 8, 8))
    a[:, :4, 0:2] = src
    a[:, :4, 2] = 1
    a[:, :4, 6:8] = -src * quads[:, :, :1]
    a[:, 4:, 3:5] = src
    a[:, 4:, 5] = 1
    a[:, 4:, 6:8] = -src * quads[:, :, 1:]
    b = np.concatenate([quads[:, :, 0], quads[:, :, 1]], axis=1)
    h = np.linalg.solve(a, b[..., None])[..., 0]
    return np.concatenate([h, np.ones((n, 1))], axis=1).reshape(n, 3, 3)


def cut(image: np.ndarray, outlines: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """One PATCH x PATCH x 3 patch per outline (N x 4 x 2 image points), as uint8: the outline,
    grown by ``margin``, mapped onto the patch's corners. Outlines up to twice the patch's size
    are sampled bilinearly, all in one ``cv2.remap``; larger ones are shrunk with
    ``cv2.INTER_AREA``, one by one (and outlines with no area are warped one by one, as OpenCV
    does them). An outline wholly outside the image gives a black patch."""
    out = np.zeros((len(outlines), PATCH, PATCH, 3), np.uint8)
    h, w = image.shape[:2]
    quads = grow(np.asarray(outlines, np.float64), margin)
    if not len(quads):
        return out
    lo, hi = np.floor(quads.min(axis=1)).astype(int) - 1, np.ceil(quads.max(axis=1)).astype(int) + 2
    seen = (hi[:, 0] > 0) & (hi[:, 1] > 0) & (lo[:, 0] < w) & (lo[:, 1] < h)
    large = seen & ((np.minimum(hi[:, 0], w) - np.maximum(lo[:, 0], 0)) > 2 * PATCH)
    # An outline with no area (its points on a line) has no homography to solve for: one by one too.
    x, y = quads[..., 0], quads[..., 1]
    flat = seen & (np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)) < 1e-6)
    small = np.flatnonzero(seen & ~large & ~flat)
    for start in range(0, len(small), _REMAP_PATCHES):
        chosen = small[start:start + _REMAP_PATCHES]
        # Every patch's homography times the grid in one product (3 rows per patch), divided
        # straight into the two maps remap reads.
        points = (_patch_to_image(quads[chosen]).reshape(-1, 3) @ _PATCH_GRID).reshape(len(chosen), 3, -1)
        rows = len(chosen) * PATCH
        map_x, map_y = np.empty((2, rows, PATCH), np.float32)
        np.divide(points[:, 0], points[:, 2], out=map_x.reshape(len(chosen), -1), casting="unsafe")
        np.divide(points[:, 1], points[:, 2], out=map_y.reshape(len(chosen), -1), casting="unsafe")
        out[chosen] = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).reshape(-1, PATCH, PATCH, 3)
    for n in np.flatnonzero(large | flat):
        (x0, y0), (x1, y1) = np.maximum(lo[n], 0), np.minimum(hi[n], (w, h))
        m = cv2.getPerspectiveTransform((quads[n] - (x0, y0)).astype(np.float32), _PATCH_CORNERS)
        out[n] = cv2.warpPerspective(image[y0:y1, x0:x1], m, (PATCH, PATCH),
                                     flags=cv2.INTER_AREA if large[n] else cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def outline_of(item: dict[str, Any]) -> np.ndarray:
    """The 4 x 2 outline of a truth item (``azulcam-scene/1`` ``items``)."""
    return np.asarray(item["outline"], np.float64)
