"""How each board is lit, measured on the board itself: the reading model sees every patch in its
board's card light.

A board is its own grey card: its card (everything but its slots and their surrounds, found from
the layout alone, never from any art) is measured in the photo (:func:`card_colour`), and a patch
scaled so that the card shows neutral grey (:func:`in_card_light`) looks the same under any
light's colour and strength.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ..calibration.layouts import load_layout

#: A board's card is shown at this grey (each channel) by :func:`in_card_light`: below white, so
#: that a tile brighter than the card keeps its shape rather than saturating.
CARD_GREY = 170.0
#: Card points are sampled this far apart (mm) on the board ...
_CARD_STEP_MM = 2.5
#: ... and kept where they lie outside every slot grown by this factor about its centre (a
#: tile's sides and shadow fall just outside its space).
_CARD_CLEAR = 1.35


@lru_cache(maxsize=8)
def _card_points(layout_name: str) -> np.ndarray:
    """Points of the board's card, as board fractions (N x 1 x 2): a grid over the board that
    keeps clear of every slot. From the layout alone: what every printing shares."""
    layout = load_layout(layout_name)
    w_mm, h_mm = layout.size_mm
    cols, rows = int(w_mm / _CARD_STEP_MM), int(h_mm / _CARD_STEP_MM)
    mask = np.ones((rows, cols), np.uint8)
    for slot in layout.slots:
        poly = np.asarray(slot.polygon, np.float64) * (cols, rows)
        centre = poly.mean(axis=0)
        cv2.fillPoly(mask, [np.round((poly - centre) * _CARD_CLEAR + centre).astype(np.int32)], 0)
    ys, xs = np.nonzero(mask[1:-1, 1:-1])  # not the board's very edge, where the table shows through
    points = np.stack([(xs + 1.5) / cols, (ys + 1.5) / rows], axis=1).reshape(-1, 1, 2)
    points.flags.writeable = False  # cached and shared
    return points


def card_colour(image: np.ndarray, homography: np.ndarray, layout_name: str) -> np.ndarray | None:
    """The board's card as ``image`` shows it (``homography``: board fractions -> pixels): the
    median BGR over points of the board clear of its slots (:func:`_card_points`), whatever the
    printing; None when less than a quarter of them lie in the image. The light, the camera's
    white balance and the card's own colour together: what :func:`in_card_light` takes out."""
    points = _card_points(layout_name)
    pixels = np.round(cv2.perspectiveTransform(points, np.asarray(homography, np.float64)).reshape(-1, 2))
    ih, iw = image.shape[:2]
    inside = (pixels[:, 0] >= 0) & (pixels[:, 0] < iw) & (pixels[:, 1] >= 0) & (pixels[:, 1] < ih)
    if inside.sum() < 0.25 * len(points):
        return None
    pixels = pixels[inside].astype(np.int64)
    seen = image[pixels[:, 1], pixels[:, 0]]
    return np.median(np.ascontiguousarray(seen.T), axis=1).astype(np.float32)


def card_gain(card: np.ndarray | None) -> np.ndarray:
    """The gain per channel (BGR) that shows a card that looks ``card`` (:func:`card_colour`) at
    :data:`CARD_GREY`; ones for no card in view."""
    if card is None:
        return np.ones(3, np.float32)
    return (CARD_GREY / np.maximum(np.asarray(card, np.float32), 8.0)).astype(np.float32)


def in_card_light(patches: np.ndarray, card: np.ndarray | None) -> np.ndarray:
    """``patches`` (N x P x P x 3 uint8 BGR) of one board whose card looks ``card``
    (:func:`card_colour`), scaled per channel so that the card shows :data:`CARD_GREY`: the
    same board in any light, and any board's tiles against a neutral card. None (no card in
    view) leaves them as they are."""
    if card is None or len(patches) == 0:
        return patches
    gain = card_gain(card)
    return cv2.multiply(patches.reshape(-1, patches.shape[2], 3), (*map(float, gain), 0.0)).reshape(patches.shape)

