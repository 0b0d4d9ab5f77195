"""Where each Azul player's score marker stands on their board's score track.

Every copy of Azul shares the track's geometry (the layout's ``track``: cell ``n`` holds score
``n``) and its marker: a black cube about 8 mm on a side (``calibration.geometry.SCORE_MARKER_MM``). The print
of a track differs from one edition to the next (numbers, coloured fifths, circles); a cube does
not. Seen from anywhere, a cube hides the middle of the cell it stands on, on the board's plane
(its sides or its top cover its footprint), and shows its top face where the parallax puts it, on
the plane a cube's height above (:func:`azulcam.vision.pose.tile_tops`). So each cell is cut on
both planes, in its board's card light (:func:`azulcam.vision.light.in_card_light`), and the share
of its middle that is near black on both is measured: a printed number covers a little of it, the
cube most of it, and a neighbour its top leans over, or the table seen past the board's edge on
the upper plane, only one of the two. The darkest cell is the marker's where it stands out from
every other cell but its neighbours (a cube put down astride two cells darkens both); otherwise
the marker is unsure, or not seen at all (a hand over it).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..calibration.layouts import Layout
from . import light
from ..calibration.geometry import SCORE_MARKER_MM
from .pose import tile_tops

#: A pixel of a cell is near black below this share of the card's grey (:data:`light.CARD_GREY`).
DARK_BELOW = 0.4
#: A track is seen straight on at this many pixels a cell.
CELL_PX = 20
#: The window whose darkness is measured (a fraction of a cell's side) ...
MIDDLE = 0.5
#: ... anywhere within this share of a cell's side of its middle: the cells of a far board are a
#: few pixels across, and its corners a pixel or two off move them by a good part of that.
SLACK = 0.25
#: A marker covers at least this share of its cell's middle where it is seen whole ...
COVERED = 0.45
#: ... and no cell but its neighbours on the track is darker than this share of it.
RIVAL = 0.5
#: Cells this close to the darkest (a share of it) are its rivals for the marker's cell.
TIED = 0.8
#: Below this share of a cell's middle no marker is seen on the track.
SEEN = 0.2


@dataclass(frozen=True)
class MarkerReading:
    """One board's score marker: the cell it stands on (None: not seen) and whether that is sure."""

    cell: int | None
    sure: bool


def track_darkness(image: np.ndarray, homography: np.ndarray, top: np.ndarray, layout: Layout,
                   card: np.ndarray | None) -> np.ndarray:
    """Each track cell's share of its middle near black both on the board's plane
    (``homography``: board fractions -> pixels) and on the plane of a marker's top (``top``), in
    the board's card light (``card``: :func:`light.card_colour`): N x 2, a row per cell (index = score), the most anywhere within
    :data:`SLACK` of its middle, then at its middle. The track is seen straight on, warped from
    each plane at :data:`CELL_PX` pixels a cell."""
    cells = np.asarray(layout.track, np.float64)  # N x K x 2 board fractions
    lo, hi = cells.reshape(-1, 2).min(axis=0), cells.reshape(-1, 2).max(axis=0)
    size = np.median(cells.max(axis=1) - cells.min(axis=1), axis=0)  # a cell's width and height
    scale = CELL_PX / size  # strip pixels per board fraction
    shape = np.ceil((hi - lo) * scale).astype(int) + 1
    to_strip = np.array([[1 / scale[0], 0, lo[0]], [0, 1 / scale[1], lo[1]], [0, 0, 1]])  # strip pixel -> fraction
    # Grey in the board's card light (light.in_card_light, then BGR to grey) in one product.
    weights = np.array([0.114, 0.587, 0.299], np.float32) * light.card_gain(card)
    dark = []
    for h in (homography, top):
        strip = cv2.warpPerspective(image, np.asarray(h, np.float64) @ to_strip, (int(shape[0]), int(shape[1])),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
        dark.append(strip.astype(np.float32) @ weights < DARK_BELOW * light.CARD_GREY)
    both = (dark[0] & dark[1]).astype(np.float32)
    # The window's share of dark at every place, then the most within SLACK of each cell's middle.
    window = np.maximum(1, np.round(MIDDLE * CELL_PX)).astype(int)
    shares = cv2.blur(both, (int(window), int(window)), borderType=cv2.BORDER_CONSTANT)
    reach = int(round(SLACK * CELL_PX))
    near = cv2.dilate(shares, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    middles = np.round((cells.mean(axis=1) - lo) * scale).astype(int)
    middles = np.clip(middles, 0, [shape[0] - 1, shape[1] - 1])
    return np.stack([near[middles[:, 1], middles[:, 0]], shares[middles[:, 1], middles[:, 0]]], axis=1)


def marker_cell(darkness: np.ndarray) -> MarkerReading:
    """The marker's cell from each cell's dark shares (:func:`track_darkness`): of the cells nearly
    as dark as the darkest within their slack (a cube darkens the neighbour it leans over), the
    one darkest at its middle."""
    near = darkness[:, 0]
    if near.max() < SEEN:
        return MarkerReading(None, False)
    close = np.flatnonzero(near >= TIED * near.max())
    best = int(close[np.argmax(darkness[close, 1])])
    others = np.delete(near, [c for c in (best - 1, best, best + 1) if 0 <= c < len(near)])
    sure = bool(near[best] >= COVERED and (not len(others) or others.max() <= RIVAL * near[best]))
    return MarkerReading(best, sure)


def read_markers(image: np.ndarray, homographies: list[np.ndarray], layouts: list[Layout],
                 cards: list[np.ndarray | None] | None = None) -> list[MarkerReading | None]:
    """Each board's score marker (None for a board without a track: Summer Pavilion's). The
    boards' homographies (board fractions -> pixels) together give the camera's pose; ``cards``
    are their cards' colours where already measured (:func:`light.card_colour`)."""
    if cards is None:
        cards = [light.card_colour(image, h, layout.name) for h, layout in zip(homographies, layouts)]
    tops = tile_tops(homographies, [layout.size_mm for layout in layouts], (image.shape[1], image.shape[0]),
                     SCORE_MARKER_MM)
    return [marker_cell(track_darkness(image, h, top, layout, card)) if layout.track else None
            for h, top, layout, card in zip(homographies, tops, layouts, cards)]
