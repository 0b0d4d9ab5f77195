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


@lru_cache(maxsize=8)
def _card(layout_name: str) -> tuple[np.ndarray, np.ndarray]:
    """The board's art at :data:`ART_PPM` and a mask of its card: every pixel at least two pixels
    away from a slot (a tile on a slot tells nothing about the light)."""
    sheet = art.board_art(layout_name, ART_PPM)
    h, w = sheet.shape[:2]
    mask = np.ones((h, w), np.uint8)
    for slot in load_layout(layout_name).slots:
        cv2.fillPoly(mask, [np.round(np.array(slot.polygon) * (w, h)).astype(np.int32)], 0)
    mask = cv2.erode(mask, np.ones((5, 5), np.uint8))
    return sheet, mask


def board_light(image: np.ndarray, homography: np.ndarray, layout_name: str) -> np.ndarray | None:
    """Per channel (BGR), the median ratio of the board's card in ``image`` (through
    ``homography``, board fractions -> pixels) to the card in its art; None when less than a
    quarter of the card is in the image."""
    sheet, card = _card(layout_name)
    h, w = sheet.shape[:2]
    to_image = homography @ np.diag([1.0 / w, 1.0 / h, 1.0])
    flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
    seen = cv2.warpPerspective(image, to_image, (w, h), flags=flags)
    inside = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), to_image, (w, h), flags=flags)
    use = (card > 0) & (inside == 255)
    if use.sum() < 0.25 * (card > 0).sum():
        return None
    ratio = (seen[use].astype(np.float32) + 1) / (sheet[use].astype(np.float32) + 1)
    return np.median(ratio, axis=0)


def relit(patches: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``patches`` (N x P x P x 3 uint8 BGR) seen under ``light`` (from :func:`board_light`),
    shown as under :data:`TYPICAL_LIGHT`."""
    gain = TYPICAL_LIGHT / np.maximum(np.asarray(light, np.float32), 1e-3)
    return np.clip(patches.astype(np.float32) * gain, 0, 255).astype(np.uint8)
