"""How each board is lit, measured on the board itself, for a second look at the slots the
classifier is unsure of.

The classifier learned tiles and printed spaces under the renderer's whole range of light. At the
ends of that range (a warm dim room, an over-exposed webcam) a printed yellow or white space can
look like a tile of that colour, and a white tile like the card. A board is its own colour chart:
its card (everything but its slots) seen in the photo, against the same card in the board's art,
gives the light on each colour channel (:func:`board_light`). A patch divided by that light and
multiplied by :data:`TYPICAL_LIGHT` (:func:`relit`) shows its slot as under the light the
classifier has seen most.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from . import art

#: Scale (pixels per mm) at which a board is compared with its art: fine enough for a median.
ART_PPM = 1.0
#: The median light (BGR, photo over art, per channel) on the boards of 120 scenes drawn from the
#: renderer's usual ranges (seed 910000), measured by :func:`board_light`.
TYPICAL_LIGHT = np.array([0.754, 0.805, 0.900], np.float32)


#: Every how many card pixels one is measured: the median of a third of them is the same.
_SAMPLE_STEP = 3


@lru_cache(maxsize=8)
def _card(layout_name: str) -> tuple[tuple[int, int], np.ndarray, np.ndarray]:
    """The board's art at :data:`ART_PPM`: its size (w, h), and the flat indices and art colours
    (BGR, plus one) of the card pixels measured: those at least two pixels away from every slot
    (a tile on a slot tells nothing about the light)."""
    sheet = art.board_art(layout_name, ART_PPM)
    h, w = sheet.shape[:2]
    mask = np.ones((h, w), np.uint8)
    for slot in load_layout(layout_name).slots:
        cv2.fillPoly(mask, [np.round(np.array(slot.polygon) * (w, h)).astype(np.int32)], 0)
    index = np.flatnonzero(cv2.erode(mask, np.ones((5, 5), np.uint8)))[::_SAMPLE_STEP]
    colours = sheet.reshape(-1, 3)[index].astype(np.float32) + 1
    index.flags.writeable = colours.flags.writeable = False  # cached and shared
    return (w, h), index, colours


def board_light(image: np.ndarray, homography: np.ndarray, layout_name: str) -> np.ndarray | None:
    """Per channel (BGR), the median ratio of the board's card in ``image`` (through
    ``homography``, board fractions -> pixels) to the card in its art; None when less than a
    quarter of the card is in the image."""
    (w, h), index, colours = _card(layout_name)
    to_image = homography @ np.diag([1.0 / w, 1.0 / h, 1.0])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    seen = cv2.warpPerspective(image, to_image, (w, h), flags=flags).reshape(-1, 3)[index]
    ih, iw = image.shape[:2]
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float64), to_image)
    if not ((corners >= 0).all() and (corners[..., 0] < iw).all() and (corners[..., 1] < ih).all()):
        inside = cv2.warpPerspective(np.full((ih, iw), 255, np.uint8), to_image, (w, h), flags=flags).ravel()[index] == 255
        if inside.sum() < 0.25 * len(index):
            return None
        seen, colours = seen[inside], colours[inside]
    ratio = (seen.astype(np.float32) + 1) / colours
    return np.median(np.ascontiguousarray(ratio.T), axis=1)


def relit(patches: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``patches`` (N x P x P x 3 uint8 BGR) seen under ``light`` (from :func:`board_light`),
    shown as under :data:`TYPICAL_LIGHT`."""
    gain = TYPICAL_LIGHT / np.maximum(np.asarray(light, np.float32), 1e-3)
    return np.clip(patches.astype(np.float32) * gain, 0, 255).astype(np.uint8)
