"""Where boards lie in a whole photo, learned from every printing: the board-finding model
(``models/board_finder.onnx``).

``calibrate``'s quadrilaterals from a photo's edges miss a board whose card is as pale as its
table, or whose outline merges with a cloth's pattern. This model looks at the whole photo, shrunk
to :data:`LONG_SIDE` pixels, and says for each cell of :data:`STRIDE` pixels how likely it lies on
a board's card (any board: a player's or Summer Pavilion's scoring board), and on its core (the
middle of its sides, :data:`CORE`: cores of boards lying side by side stay apart). Each core, with
the card round it, gives rough quadrilaterals (:func:`quads_of`); the board-fitting model and the
boards' printed outlines decide, as for every other proposal (``calibrate.find_boards``).

It is trained on every art family the renderer draws and their blends
(``models/train_board_finder.py``): a board is told by what every printing shares, a light card
of a board's proportions with a printed lattice, never by one printing's look.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.profile import board_homography, to_image
from ..engine.notice import Notice
from .shipped import ShippedModelError, package_file, verified_session

MODEL_NAME = "board_finder.onnx"
#: The photo is shrunk so that its long side is this many pixels: a board of a four-player table
#: seen whole is still some 15 cells across.
LONG_SIDE = 512
#: The network's input is padded to a multiple of this.
INPUT_MULTIPLE = 16
#: One cell of the maps per this many input pixels.
STRIDE = 4
#: The core of a board: this range of its own fractions, both ways.
CORE = (0.3, 0.7)
#: A cell is on a card, or a core, from this probability.
THRESHOLD = 0.5
#: How far past its core a board's card is looked for, in how far it reaches from it seen straight on
#: (room for a board seen at a slant, whose near half is larger).
REACH = 1.5
#: A core of fewer cells is noise.
MIN_CORE_CELLS = 2


class BoardFinderError(ShippedModelError):
    """The board-finding model is missing, altered (SHA-256 mismatch) or unreadable."""


def core_outline(corners: np.ndarray) -> np.ndarray:
    """The core of a board outlined by ``corners`` (4 x 2 pixels): its middle, :data:`CORE` of
    its sides each way, through its homography (a board seen at a slant has its core there too)."""
    lo, hi = CORE
    return to_image(board_homography(corners), [[lo, lo], [hi, lo], [hi, hi], [lo, hi]])


def input_scale(shape: tuple[int, ...]) -> float:
    """The factor a photo of ``shape`` (rows, columns, ...) is shrunk by for the network."""
    return LONG_SIDE / max(shape[:2])


def shrunk(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo shrunk to :data:`LONG_SIDE` on its long side, and the factor it was shrunk by."""
    scale = input_scale(image.shape)
    h, w = image.shape[:2]
    return cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA), scale


def network_input(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo :func:`shrunk`, padded at the bottom and right to a multiple of
    :data:`INPUT_MULTIPLE` (black), as uint8 BGR; and the factor it was shrunk by."""
    small, scale = shrunk(image)
    h, w = small.shape[:2]
    return cv2.copyMakeBorder(small, 0, (-h) % INPUT_MULTIPLE, 0, (-w) % INPUT_MULTIPLE, cv2.BORDER_CONSTANT,
                              value=(0, 0, 0)), scale


def _quad_of(points: np.ndarray) -> np.ndarray | None:
    """The convex quadrilateral round ``points`` (N x 2): their hull brought to four sides, each
    step adding the least area (``cv2.approxPolyN``)."""
    if len(points) < 4:
        return None
    hull = cv2.convexHull(points.astype(np.float32))
    if len(hull) < 4:
        return None
    quad = cv2.approxPolyN(hull, 4, ensure_convex=True)
    return quad.reshape(4, 2).astype(np.float64) if quad.size == 8 else None


def quads_of(card: np.ndarray, core: np.ndarray) -> list[np.ndarray]:
    """Rough quadrilaterals (4 x 2, input pixels) of the boards the maps (one cell per
    :data:`STRIDE` input pixels) show, read at the input's own resolution (the maps brought up
    smoothly): for each core (:data:`THRESHOLD`, at least :data:`MIN_CORE_CELLS`), the card
    round it nearer it than any other core, outlined; and the core's own outline grown back to
    the board's (a card merged with its table's pattern still has its core)."""
    rows, cols = card.shape
    up = lambda m: cv2.resize(m.astype(np.float32), (cols * STRIDE, rows * STRIDE), interpolation=cv2.INTER_LINEAR)  # noqa: E731
    card, core = up(card), up(core)
    cores = (core >= THRESHOLD).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
    keep = [k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] >= MIN_CORE_CELLS * STRIDE * STRIDE]
    if not keep:
        return []
    # Each card pixel belongs to the nearest core: boards lying side by side share a card region.
    far, nearest = cv2.distanceTransformWithLabels((cores == 0).astype(np.uint8), cv2.DIST_L2, 5,
                                                 labelType=cv2.DIST_LABEL_CCOMP)
    owner = np.zeros(nearest.max() + 1, np.int32)
    owner[nearest[cores > 0]] = labels[cores > 0]
    owner = owner[nearest]
    on_card = card >= THRESHOLD
    grow = 1.0 / (CORE[1] - CORE[0])
    out = []
    for k in keep:
        # The card reaches (1 - CORE[1]) / (CORE[1] - CORE[0]) of the core's width past it, no
        # farther: a table as pale as the card is not the board.
        reach = REACH * (1 - CORE[1]) / (CORE[1] - CORE[0]) * np.sqrt(stats[k, cv2.CC_STAT_AREA])
        ys, xs = np.nonzero(on_card & (owner == k) & (far <= reach))
        region = _quad_of(np.column_stack([xs, ys]))
        if region is not None:
            out.append(region)
        ys, xs = np.nonzero(labels == k)
        inner = _quad_of(np.column_stack([xs, ys]))
        if inner is not None:
            middle = inner.mean(axis=0)
            out.append(middle + (inner - middle) * grow)
    return out


class BoardFinder:
    """The board-finding model (:func:`load_board_finder`)."""

    def __init__(self, session: Any, version: str, sha256: str) -> None:
        self.session = session
        self.version = version
        self.sha256 = sha256
        self._input = session.get_inputs()[0].name

    def maps(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """The card and core maps of a photo (probabilities, one cell per :data:`STRIDE` input
        pixels) and the factor the photo was shrunk by."""
        view, scale = network_input(image)
        out = self.session.run(None, {self._input: view[None].astype(np.float32)})[0][0]
        return out[0], out[1], scale

    def quads(self, image: np.ndarray) -> list[np.ndarray]:
        """Rough quadrilaterals (4 x 2, photo pixels) where the model sees boards (:func:`quads_of`)."""
        card, core, scale = self.maps(image)
        # An input pixel covers 1 / scale of the photo's (pixel centres at whole coordinates).
        return [(q + 0.5) / scale - 0.5 for q in quads_of(card, core)]


_FINDER: BoardFinder | None = None


def load_board_finder(path: Path | None = None, threads: int = 1) -> BoardFinder:
    """The board-finding model (by default the package's ``board_finder.onnx``, loaded once) after
    checking its SHA-256; raises :class:`BoardFinderError` saying what is wrong with the file."""
    global _FINDER
    if path is None and _FINDER is not None:
        return _FINDER
    source = path if path is not None else package_file(MODEL_NAME)
    session, digest = verified_session(source, "model.name.board_finder", BoardFinderError, threads=threads)
    meta = dict(session.get_modelmeta().custom_metadata_map)
    for key, want in (("long_side", LONG_SIDE), ("stride", STRIDE), ("core", json.dumps(list(CORE)))):
        if meta.get(key) != str(want):
            raise BoardFinderError("model.trained_for", model=Notice("model.name.board_finder"), path=str(source),
                                   setting=key, got=meta.get(key), want=want)
    finder = BoardFinder(session, meta.get("version", "?"), digest)
    if path is None:
        _FINDER = finder
    return finder
