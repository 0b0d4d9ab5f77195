"""What the reading model sees of a board's slots: each slot now, beside the same slot bare.

A classifier that learned one printing reads another's strongly printed bare spaces as tiles. The
one thing every copy of the game shares is that a tile is a body lying on its space; what the
space looks like without one is learned from the table itself. So the reading model
(``models/reader.onnx``, trained by ``models/train_reader.py`` on every art family the renderer
draws) reads nine channels per slot:

1. the slot as the photo shows it (:func:`slot_patches`), its board's card shown neutral grey
   (:func:`azulcam.vision.light.in_card_light`): the same board in any light;
2. the same slot bare, in its own card light, on the board calibration kept bare
   (:func:`bare_slot_patches`), or zeros where none was kept;
3. the photo's own consensus of that slot's print (:func:`consensus`: every slot printed alike, on
   every board of that side in the photo, most of them bare in most of a game).

Loose tiles have neither reference (zeros). Each reference has its own channels: an exact bare
board and a consensus with tiles among it deserve different trust, which one model learns only if
it can tell them apart. The slot and its bare view are cut by the same code, the bare one from the board's view in its own plane
(:func:`azulcam.vision.bare.rectified`), so that training and reading cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from ..calibration.layouts import Layout, Slot
from ..engine import zones
from . import crops, light
from .bare import view_size

#: The reading model in the package's ``models/`` folder.
READER_NAME = "reader.onnx"
#: Context round each slot, on each side (fraction of the slot): a tile's sides and shadow, and
#: its top face where a slanted view shows it off its space, fall inside the patch.
READ_MARGIN = 0.2
#: What the reading model's ``input_format`` metadata says; the reader refuses a model that
#: does not say so.
INPUT_FORMAT = ("float32 NHWC 0..255, 9 channels: BGR of the slot in its board's card light "
                f"(light.in_card_light, READ_MARGIN {READ_MARGIN}), then BGR of the same slot on the board "
                "calibration kept bare, in its card light, or zeros, then BGR of the photo's consensus of its "
                "print (reader.consensus), or zeros")
CHANNELS = 9


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


def print_group(slot: Slot) -> tuple[str, str | int | None]:
    """What a slot's print has in common with other slots of its side: its zone (``wall``,
    ``line``, ``floor``, ``corner``, ``supply``, or ``star`` for a Summer Pavilion star's space) and
    the colour printed under it, or where none is printed its printed number (a grey wall's
    spaces are all alike; a grey star's space is told by its number)."""
    kind = zones.Slot.parse(slot.id).kind
    zone = "star" if kind == zones.STAR_SPACE else kind
    return (zone, slot.printed) if slot.printed else (zone, slot.number)


def consensus(boards: list[tuple[Layout, list[str], np.ndarray]]) -> list[np.ndarray]:
    """What each slot's print looks like bare in this photo, for each board's cut slots
    (``layout``, slot ``ids``, their patches N x 32 x 32 x 3 from :func:`slot_patches`): the
    per-pixel median of every slot printed alike (:func:`print_group`) on every board of the same
    side. No art is assumed: the user's own printing, in this photo's light, from the spaces a
    game leaves bare (most of them, most of a game; a full wall gives a reference that looks like
    its tiles, and the model learned from such games too)."""
    groups: dict[tuple[str, tuple[str, str | int | None]], list[np.ndarray]] = {}
    for layout, ids, now in boards:
        for slot_id, patch in zip(ids, now):
            groups.setdefault((layout.name, print_group(layout[slot_id])), []).append(patch)
    medians = {key: np.median(np.stack(patches), axis=0).round().astype(np.uint8) for key, patches in groups.items()}
    return [np.stack([medians[layout.name, print_group(layout[i])] for i in ids]) if ids else now[:0]
            for layout, ids, now in boards]


def model_input(now: np.ndarray, bare: np.ndarray | None, agreed: np.ndarray | None) -> np.ndarray:
    """The model's nine channels: ``now`` (N x 32 x 32 x 3), then ``bare`` (the calibration's)
    and ``agreed`` (the photo's :func:`consensus`), each or zeros."""
    return np.concatenate([now] + [np.zeros_like(now) if r is None else r for r in (bare, agreed)], axis=3)
