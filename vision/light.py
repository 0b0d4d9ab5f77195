"""How each board is lit, measured on the board itself, so that its slots are read as under the
usual light.

The classifier learned tiles and printed spaces under the renderer's whole range of light. At the
ends of that range (a warm dim room, an over-exposed webcam) a printed yellow or white space can
look like a tile of that colour, and a white tile like the card. A board is its own colour chart:
its card (everything but its slots) seen in the photo, against the same card in the board's art,
gives the light on each colour channel (:func:`board_light`). A patch divided by that light and
multiplied by :data:`TYPICAL_LIGHT` (:func:`relit`) shows its slot as under the light the
classifier has seen most. The slot model (``models/tiles_slots.onnx``) is trained on slots relit
so (``dataset.scene_patches(slots_relit=True)``) and reads them so (``analyze.read``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from . import art, crops

#: Scale (pixels per mm) at which a board is compared with its art: fine enough for a median.
ART_PPM = 1.0
#: The median light (BGR, photo over art, per channel) on the boards of 120 scenes drawn from the
#: renderer's usual ranges (seed 910000), measured by :func:`board_light`.
TYPICAL_LIGHT = np.array([0.754, 0.805, 0.900], np.float32)


#: Scales (pixels per mm) of the art that :func:`bare_patches` are cut from: the one nearest the
#: board's own scale in the photo, so that its print is as fine as the photo's.
BARE_SCALES = (0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0)
#: What a model that also reads the bare art says in its ``input_format`` metadata
#: (``models/train.py --bare``): ``analyze.read`` then adds :func:`bare_patches` to its patches.
BARE_FORMAT = "then BGR of the bare board's art in TYPICAL_LIGHT (light.bare_patches)"


#: Every how many card pixels of the art one is measured: the median of a ninth of them is within
#: 0.75 % of the median of a third (the boards of 20 scenes, half of them in edge light).
_SAMPLE_STEP = 9


@lru_cache(maxsize=8)
def _card(layout_name: str) -> tuple[np.ndarray, np.ndarray]:
    """The card pixels measured, from the board's art at :data:`ART_PPM`: their centres as
    board fractions (N x 1 x 2) and their art colours (BGR, plus one), keeping those at least two
    pixels away from every slot (a tile on a slot tells nothing about the light)."""
    sheet = art.board_art(layout_name, ART_PPM)
    h, w = sheet.shape[:2]
    mask = np.ones((h, w), np.uint8)
    for slot in load_layout(layout_name).slots:
        cv2.fillPoly(mask, [np.round(np.array(slot.polygon) * (w, h)).astype(np.int32)], 0)
    index = np.flatnonzero(cv2.erode(mask, np.ones((5, 5), np.uint8)))[::_SAMPLE_STEP]
    points = np.stack([(index % w + 0.5) / w, (index // w + 0.5) / h], axis=1).reshape(-1, 1, 2)
    colours = sheet.reshape(-1, 3)[index].astype(np.float32) + 1
    points.flags.writeable = colours.flags.writeable = False  # cached and shared
    return points, colours


def board_light(image: np.ndarray, homography: np.ndarray, layout_name: str) -> np.ndarray | None:
    """Per channel (BGR), the median ratio of the board's card in ``image`` (through
    ``homography``, board fractions -> pixels; the nearest pixel to each card point) to the card
    in its art; None when less than a quarter of the card is in the image."""
    points, colours = _card(layout_name)
    pixels = np.round(cv2.perspectiveTransform(points, homography).reshape(-1, 2)).astype(np.int64)
    ih, iw = image.shape[:2]
    inside = (pixels[:, 0] >= 0) & (pixels[:, 0] < iw) & (pixels[:, 1] >= 0) & (pixels[:, 1] < ih)
    if inside.sum() < 0.25 * len(points):
        return None
    if not inside.all():
        pixels, colours = pixels[inside], colours[inside]
    seen = image[pixels[:, 1], pixels[:, 0]]
    ratio = (seen.astype(np.float32) + 1) / colours
    return np.median(np.ascontiguousarray(ratio.T), axis=1)


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


def in_card_light(patches: np.ndarray, card: np.ndarray | None) -> np.ndarray:
    """``patches`` (N x P x P x 3 uint8 BGR) of one board whose card looks ``card``
    (:func:`card_colour`), scaled per channel so that the card shows :data:`CARD_GREY`: the
    same board in any light, and any board's tiles against a neutral card. None (no card in
    view) leaves them as they are."""
    if card is None or len(patches) == 0:
        return patches
    gain = CARD_GREY / np.maximum(np.asarray(card, np.float32), 8.0)
    return cv2.multiply(patches.reshape(-1, patches.shape[2], 3), (*map(float, gain), 0.0)).reshape(patches.shape)


def relit(patches: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``patches`` (N x P x P x 3 uint8 BGR) seen under ``light`` (from :func:`board_light`;
    one for all, or N x 3, one per patch), shown as under :data:`TYPICAL_LIGHT` (rounded and
    saturated). One OpenCV multiply per run of patches under the same light (a board's slots)."""
    lights = np.asarray(light, np.float32).reshape(-1, 3)
    if len(lights) == 1:
        lights = np.broadcast_to(lights, (len(patches), 3))
    out = np.empty_like(patches)
    starts = [0, *np.flatnonzero((lights[1:] != lights[:-1]).any(axis=1)) + 1]
    for start, end in zip(starts, starts[1:] + [len(patches)]):
        if end > start:
            gain = TYPICAL_LIGHT / np.maximum(lights[start], 1e-3)
            run = patches[start:end]
            out[start:end] = cv2.multiply(run.reshape(-1, run.shape[2], 3), (*map(float, gain), 0.0)).reshape(run.shape)
    return out


@lru_cache(maxsize=16)
def _bare_sheet(layout_name: str, px_per_mm: float) -> np.ndarray:
    """The board's art at ``px_per_mm``, drawn four times finer and shrunk: drawn at that scale,
    its thin printed lines would be at least a whole pixel wide, darker than a photo's."""
    fine = art.board_art(layout_name, 4 * px_per_mm)
    size = (max(1, round(fine.shape[1] / 4)), max(1, round(fine.shape[0] / 4)))
    sheet = cv2.resize(fine, size, interpolation=cv2.INTER_AREA)
    sheet.flags.writeable = False  # cached and shared
    return sheet


def bare_patches(layout_name: str, homography: np.ndarray, outlines: np.ndarray, margin: float) -> np.ndarray:
    """What ``crops.cut(image, outlines, margin)`` would show, relit (:func:`relit`), were the
    board's slots bare and the board flat: its art under the same outlines (N x 4 x 2 image
    points; ``homography``: board fractions -> pixels), under :data:`TYPICAL_LIGHT`, at about the
    board's scale in the image (:data:`BARE_SCALES`). Beside the photographed patch it says what
    of the patch is print: a white tile and the coloured wall's white space look alike, but the
    tile stands a tile's height over the print."""
    # The board's scale as ``locate.px_per_mm`` measures it: its area in pixels over its area in mm.
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[1, 0]], [[1, 1]], [[0, 1]]], np.float64), homography)
    w_mm, h_mm = load_layout(layout_name).size_mm
    scale = math.sqrt(abs(cv2.contourArea(corners.astype(np.float32))) / (w_mm * h_mm))
    sheet = _bare_sheet(layout_name, min(BARE_SCALES, key=lambda s: abs(math.log(s / max(scale, 1e-6)))))
    h, w = sheet.shape[:2]
    to_sheet = np.diag([float(w), float(h), 1.0]) @ np.linalg.inv(homography)
    grown = crops.grow(np.asarray(outlines, np.float64).reshape(-1, 4, 2), margin)
    quads = cv2.perspectiveTransform(grown.reshape(-1, 1, 2), to_sheet).reshape(-1, 4, 2)
    cut = crops.cut(sheet, quads, 0.0)
    return cv2.multiply(cut.reshape(-1, crops.PATCH, 3), (*map(float, TYPICAL_LIGHT), 0.0)).reshape(cut.shape)


def bare_patches_by_board(boards: list[tuple[str, np.ndarray]], board_of: np.ndarray, outlines: np.ndarray,
                          margin: float) -> np.ndarray:
    """:func:`bare_patches` of outlines on several boards: ``boards`` (each board's layout name
    and homography) and ``board_of`` (each outline's index in ``boards``), one call per board."""
    board_of = np.asarray(board_of, int)
    out = np.zeros((len(board_of), crops.PATCH, crops.PATCH, 3), np.uint8)
    for k in np.unique(board_of):
        out[board_of == k] = bare_patches(*boards[k], np.asarray(outlines)[board_of == k], margin)
    return out
