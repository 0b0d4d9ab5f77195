"""Is a tile on this space? Asked of the user's own bare board, as calibration saw it.

On many printings an empty space is printed in its tile's colour and pattern, as strong as the
tile itself: a classifier that learned one printing reads another's bare spaces as tiles. What
every copy shares is that a tile is a body on the board: its raised top face stands off the
printed square towards the camera's far side, its sides and shadow fall beside it, its edges
are not the print's. So the board as it looked bare at calibration is the reference:

1. :func:`rectified`: a board in its own plane at :data:`PPM` pixels per millimetre, the same for
   the calibration photo (:class:`BareBoard`) and every later photo;
2. the calibration photo is also read: :attr:`BareBoard.reads` is what the classifier takes each
   bare space for. Where it read a space empty, the classifier knows this printing there and its
   later readings stand. Where it read the bare print as a tile and reads that tile there again
   (:func:`doubtful`), the bare board decides:
3. :func:`slot_changes`: how much of the bare board is still there: the correlation of the two
   views' edges over the slot and a margin round it (where a tile's sides and shadow fall), and
   how far its mean colour moved (CIELAB a, b, which the light's brightness leaves); a slot whose
   edges and colour are unchanged holds no tile (:func:`looks_bare`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.layouts import load_layout

#: Pixels per board millimetre of the views compared (an Azul tile is 40 pixels across).
PPM = 2.0
#: A slot is compared over its polygon grown by this factor about its centre: a tile's sides and
#: shadow fall just outside its space.
_GROWTH = 1.3
#: A space is bare where its edges still correlate with the bare board's at least this well
#: (1: unchanged) ...
BARE_EDGES = 0.6
#: ... and its mean colour moved by less than this (CIELAB a, b distance).
BARE_COLOUR = 8.0
#: A board whose bare print the classifier took for a tile in at least this many spaces is one
#: whose printing it does not know: every slot read as its printed colour is judged there.
CONFUSED = 3


class BareError(ValueError):
    """A bare board's image that cannot be read, or does not fit its board; the message names it."""


@dataclass(frozen=True)
class BareBoard:
    """One board as calibration saw it bare: BGR in its own plane at :data:`PPM`, and what the
    classifier read on each of its spaces (``None``: empty, as it should)."""

    layout: str
    image: np.ndarray
    reads: dict[str, str | None]
    _edges: np.ndarray = field(init=False, repr=False, compare=False)
    _ab: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_edges", _edges(self.image))
        object.__setattr__(self, "_ab", _ab(self.image))


def view_size(layout_name: str) -> tuple[int, int]:
    """The size in pixels (width, height) of a board's view at :data:`PPM`."""
    w, h = load_layout(layout_name).size_mm
    return int(round(w * PPM)), int(round(h * PPM))


def rectified(image: np.ndarray, homography: np.ndarray, layout_name: str) -> np.ndarray:
    """The board ``homography`` (board fractions -> image pixels) places, in its own plane."""
    w, h = view_size(layout_name)
    to_view = np.asarray(homography, np.float64) @ np.diag([1.0 / w, 1.0 / h, 1.0])
    return cv2.warpPerspective(image, to_view, (w, h), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=16)
def _slot_areas(layout_name: str) -> dict[str, np.ndarray]:
    """Each slot's flat pixel indices (its grown polygon) in the board's view."""
    w, h = view_size(layout_name)
    areas = {}
    for slot in load_layout(layout_name).slots:
        poly = np.asarray(slot.polygon, np.float64) * (w, h)
        centre = poly.mean(axis=0)
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round((poly - centre) * _GROWTH + centre).astype(np.int32)], 1)
        indices = np.flatnonzero(mask)
        indices.flags.writeable = False  # cached and shared
        areas[slot.id] = indices
    return areas


def _edges(view: np.ndarray) -> np.ndarray:
    grey = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    return cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)).reshape(-1)


def _ab(view: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(view, cv2.COLOR_BGR2LAB).reshape(-1, 3)[:, 1:].astype(np.float32)


def slot_changes(view: np.ndarray, bare: BareBoard, slots: list[str]) -> dict[str, tuple[float, float]]:
    """For each of ``slots``: (edge correlation with the bare board, colour shift) of ``view``,
    the same board now (:func:`rectified`)."""
    edges, ab = _edges(view), _ab(view)
    areas = _slot_areas(bare.layout)
    out = {}
    for slot_id in slots:
        area = areas[slot_id]
        a, b = edges[area], bare._edges[area]
        a, b = a - a.mean(), b - b.mean()
        correlation = float((a * b).sum() / (np.sqrt(float((a * a).sum()) * float((b * b).sum())) + 1e-6))
        shift = float(np.linalg.norm(ab[area].mean(axis=0) - bare._ab[area].mean(axis=0)))
        out[slot_id] = (correlation, shift)
    return out


def looks_bare(change: tuple[float, float]) -> bool:
    """Whether a slot's change (:func:`slot_changes`) says it holds no tile."""
    correlation, shift = change
    return correlation >= BARE_EDGES and shift < BARE_COLOUR


def doubtful(bare: BareBoard, reads: dict[str, str | None]) -> list[str]:
    """The slots whose reading now the bare board must judge: read as the very tile the classifier
    took the bare print for at calibration; and, on a board whose print the classifier took for
    tiles in several places, read as the colour printed under them."""
    confused = sum(kind is not None for kind in bare.reads.values()) >= CONFUSED
    printed = _printed(bare.layout) if confused else {}
    return [slot for slot, kind in reads.items()
            if kind is not None and (bare.reads.get(slot) == kind or printed.get(slot) == kind)]


@lru_cache(maxsize=16)
def _printed(layout_name: str) -> dict[str, str]:
    return {slot.id: slot.printed for slot in load_layout(layout_name).slots if slot.printed}


def save_bare_boards(boards: dict[int, BareBoard], profile_path: str | Path) -> dict[int, dict[str, Any]]:
    """Write each board's image beside the profile (``NAME.bare-P.png``) and return what each
    board's ``bare`` key in the profile holds. Raises :class:`BareError` naming a file it cannot
    write."""
    path = Path(profile_path)
    out = {}
    for player, board in boards.items():
        name = f"{path.stem}.bare-{player}.png"
        if not cv2.imwrite(str(path.with_name(name)), board.image):
            raise BareError(f"cannot write the bare board {path.with_name(name)}")
        out[player] = {"image": name, "reads": {slot: kind for slot, kind in sorted(board.reads.items()) if kind}}
    return out


def load_bare_boards(placements: Any, folder: str | Path) -> dict[int, BareBoard]:
    """The bare boards a profile's placements name (their ``bare`` keys), their images read from
    ``folder`` (the profile's). Raises :class:`BareError` naming a file that is missing, not an
    image, or of another size than its board's view."""
    out = {}
    for placement in placements:
        if placement.player is None or placement.bare is None:
            continue
        path = Path(folder) / placement.bare["image"]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if image is None:
            raise BareError(f"cannot read the bare board {path} (missing or not an image): calibrate again")
        layout = load_layout(placement.layout).name
        w, h = view_size(layout)
        if image.shape[:2] != (h, w):
            raise BareError(f"the bare board {path} is {image.shape[1]}x{image.shape[0]}, not {w}x{h} as {layout} "
                            "needs: calibrate again")
        reads: dict[str, str | None] = {slot.id: None for slot in load_layout(layout).slots}
        reads.update(placement.bare.get("reads", {}))
        out[placement.player] = BareBoard(layout, image, reads)
    return out
