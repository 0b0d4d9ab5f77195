"""What the reading model sees of a board's slots: each slot now, beside the same slot bare.

A classifier that learned one printing reads another's strongly printed bare spaces as tiles. The
one thing every copy of the game shares is that a tile is a body lying on its space; the user's
own board as calibration saw it bare says what the space looks like without one. So the reading
model (``models/reader.onnx``, trained by ``models/train_reader.py`` on every art family the
renderer draws) reads six channels per slot:

1. the slot as the photo shows it (:func:`slot_patches`), its board's card shown neutral grey
   (:func:`azulcam.vision.light.in_card_light`): the same board in any light;
2. the same slot on the board calibration kept bare (:func:`bare_slot_patches`), in its own card
   light; zeros where calibration kept none (a profile without ``--bare``, the Summer Pavilion
   supply, a mid-game calibration).

Both are cut by the same code, the bare one from the board's view in its own plane
(:func:`azulcam.vision.bare.rectified`), so that training and reading cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from ..calibration.layouts import Layout
from . import crops, light
from .bare import view_size

#: The reading model in the package's ``models/`` folder.
READER_NAME = "reader.onnx"
#: Context round each slot, on each side (fraction of the slot): a tile's sides and shadow, and
#: its top face where a slanted view shows it off its space, fall inside the patch.
READ_MARGIN = 0.2
#: What the reading model's ``input_format`` metadata says; the reader refuses a model that
#: does not say so.
INPUT_FORMAT = ("float32 NHWC 0..255, 6 channels: BGR of the slot in its board's card light "
                f"(light.in_card_light, READ_MARGIN {READ_MARGIN}), then BGR of the same slot on the board "
                "calibration kept bare, in its card light, or zeros")
CHANNELS = 6


def slot_patches(image: np.ndarray, homography: np.ndarray, layout: Layout, ids: list[str] | None = None
                 ) -> tuple[list[str], np.ndarray]:
    """The board's slots (``ids``, default all) as ``image`` shows them through ``homography``
    (board fractions -> pixels): N x 32 x 32 x 3 uint8 BGR, in the board's card light."""
    return slots_in_card_light(image, homography, layout, light.card_colour(image, homography, layout.name), ids)


def slots_in_card_light(image: np.ndarray, homography: np.ndarray, layout: Layout, card: np.ndarray | None,
                        ids: list[str] | None = None) -> tuple[list[str], np.ndarray]:
    """:func:`slot_patches` for a board whose card colour in ``image`` is known already
    (:func:`azulcam.vision.light.card_colour`)."""
    ids, outlines = crops.slot_outlines(homography, layout, ids)
    return ids, light.in_card_light(crops.cut(image, outlines, READ_MARGIN), card)


def view_homography(layout: Layout) -> np.ndarray:
    """Board fractions -> pixels of the board's view in its own plane (:func:`bare.rectified`)."""
    w, h = view_size(layout.name)
    return np.diag([float(w), float(h), 1.0])


def bare_slot_patches(bare_view: np.ndarray, layout: Layout, ids: list[str]) -> np.ndarray:
    """The slots ``ids`` of a board's bare view (:attr:`azulcam.vision.bare.BareBoard.image`),
    cut as :func:`slot_patches` cuts them from a photo."""
    return slot_patches(bare_view, view_homography(layout), layout, ids)[1]


def model_input(now: np.ndarray, bare: np.ndarray | None) -> np.ndarray:
    """The model's six channels: ``now`` (N x 32 x 32 x 3), then ``bare`` or zeros."""
    return np.concatenate([now, np.zeros_like(now) if bare is None else bare], axis=3)
