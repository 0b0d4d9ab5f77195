"""Where a board lies, learned from every printing: the board-fitting model (``models/board_fit.onnx``).

A board is warped through a rough outline (a profile's corners, a contour of the photo) into a
square view with a margin round it (:func:`board_view`). For each cell of a grid over the view,
the model says where that cell truly lies in the outline's frame and how far off that may be;
for the whole view, which layout it shows (or none) and which corner of the outline is the
owner's top left. A homography fitted to the cells, the surer ones weighing more and the
outliers less, gives the board's corners; a second look through them settles the fit.

The model is trained on every art family the renderer draws and their blends
(``models/train_board_fit.py``): what it can rely on is what every printing shares (the board's
outline, the grid of slots the layout gives, the score track), never one printing's look.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.layouts import LAYOUT_NAMES, layout_game
from ..calibration.profile import board_homography, to_image
from ..engine.notice import Notice
from .shipped import ShippedModelError, package_file, verified_session

MODEL_NAME = "board_fit.onnx"
#: The view's side in pixels, and the share of it beyond the outline on each side: room for an
#: outline a few centimetres off (a bumped board, a contour on the board's shadow).
VIEW_PX = 128
MARGIN = 0.15
#: The model's grid: one cell per this many view pixels.
STRIDE = 4
#: The model says shifts in tenths of the outline's side (numbers near 1 train best).
SHIFT_SCALE = 10.0
#: What a view may show: a board of each layout, or no board.
KINDS: tuple[str, ...] = LAYOUT_NAMES + ("none",)
#: Looks through the last fit: the first takes an outline a few centimetres off to within a few
#: millimetres, the second settles it (the view is then centred on the board, as in training's
#: finest cases).
PASSES = 2
#: Robust refits of the cells: a cell whose residual is beyond this many of its own expected
#: errors counts as much as one at it (Huber's weights), so that a hand or a prop over part of
#: the board pulls the fit less (a hand over a quarter of a board still moved a corner 4 px).
_HUBER = 2.0
_REFITS = 1
#: The board's own corners in its fractions (TL TR BR BL).
_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)


class BoardFitError(ShippedModelError):
    """The board-fitting model is missing, altered (SHA-256 mismatch) or unreadable."""


def view_to_outline() -> np.ndarray:
    """View pixels -> fractions of the outline it was warped through (0..1 inside). A pixel's
    centre is its whole coordinate, as in ``warpPerspective``."""
    inner = VIEW_PX * (1 - 2 * MARGIN)
    offset = VIEW_PX * MARGIN - 0.5
    return np.array([[1 / inner, 0, -offset / inner], [0, 1 / inner, -offset / inner], [0, 0, 1]])


def cell_fractions() -> np.ndarray:
    """The outline fractions of the model's cells' centres, row by row (N x 2)."""
    cells = VIEW_PX // STRIDE
    centres = np.arange(cells) * STRIDE + (STRIDE - 1) / 2
    xs, ys = np.meshgrid(centres, centres)
    points = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    out = view_to_outline() @ points
    return (out[:2] / out[2]).T


def board_view(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The square view (``VIEW_PX``, BGR uint8) of the image through the outline ``corners``
    (4 x 2 pixels, any start, clockwise on the image), its margin round it. Where the board is
    twice the view's size or more in the photo, the region the view covers is halved first
    (``pyrDown``, as often as it takes), so that no print aliases."""
    view_to_image = board_homography(np.asarray(corners, np.float64)) @ view_to_outline()
    ends = to_image(view_to_image, [[0, 0], [VIEW_PX, 0], [VIEW_PX, VIEW_PX], [0, VIEW_PX]])
    scale = np.sqrt(max(abs(cv2.contourArea(ends.astype(np.float32))), 1.0)) / VIEW_PX
    if scale >= 2:  # image pixels per view pixel
        h, w = image.shape[:2]
        x0, y0 = np.clip(np.floor(ends.min(axis=0)).astype(int) - 4, 0, [w - 1, h - 1])
        x1, y1 = np.clip(np.ceil(ends.max(axis=0)).astype(int) + 5, [x0 + 1, y0 + 1], [w, h])
        image = image[y0:y1, x0:x1]
        # Image pixels -> the region's, then each halving's (``pyrDown`` keeps the even pixels).
        to_region = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]])
        while scale >= 2 and min(image.shape[:2]) >= 2:
            image = cv2.pyrDown(image)
            to_region = np.diag([0.5, 0.5, 1.0]) @ to_region
            scale /= 2
        view_to_image = to_region @ view_to_image
    return cv2.warpPerspective(image, view_to_image, (VIEW_PX, VIEW_PX), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def weighted_homography(src: np.ndarray, dst: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The homography taking ``src`` to ``dst`` (N x 2 each) that best fits them by weighted
    least squares of the direct linear transform (Hartley's normalisation)."""
    def normaliser(p: np.ndarray) -> np.ndarray:
        mean = np.average(p, axis=0, weights=weights)
        spread = np.sqrt(np.average(((p - mean) ** 2).sum(axis=1), weights=weights)) / np.sqrt(2) + 1e-12
        return np.array([[1 / spread, 0, -mean[0] / spread], [0, 1 / spread, -mean[1] / spread], [0, 0, 1]])

    ts, td = normaliser(src), normaliser(dst)
    s = src @ ts[:2, :2].T + ts[:2, 2]
    d = dst @ td[:2, :2].T + td[:2, 2]
    n = len(s)
    a = np.zeros((2 * n, 9))
    a[0::2, 0:2], a[0::2, 2] = s, 1
    a[0::2, 6:8], a[0::2, 8] = -d[:, :1] * s, -d[:, 0]
    a[1::2, 3:5], a[1::2, 5] = s, 1
    a[1::2, 6:8], a[1::2, 8] = -d[:, 1:] * s, -d[:, 1]
    # The null vector of the weighted system: the eigenvector of its 9 x 9 normal matrix with the
    # smallest eigenvalue (as the SVD's last right singular vector, at a fraction of its cost).
    normal = (a * np.repeat(weights, 2)[:, None]).T @ a
    h = np.linalg.eigh(normal)[1][:, 0].reshape(3, 3)
    h = np.linalg.inv(td) @ h @ ts
    return h / h[2, 2]


@dataclass(frozen=True)
class BoardFit:
    """A board's fit: its corners (image pixels, TL TR BR BL as its owner sees the board), the
    probability of each of :data:`KINDS`, how many quarter turns the outline's corners were from
    the owner's (``np.roll(outline, -turn)``) with that turn's probability."""

    corners: np.ndarray
    kinds: dict[str, float]
    turn: int
    turn_probability: float

    def probability(self, layout: str) -> float:
        """The probability that the view shows a board like ``layout``: a player's board of its
        game, either side (the model tells the sides apart less surely than boards from the rest,
        and ``verify`` checks the side), or the scoring board."""
        return sum(p for kind, p in self.kinds.items() if _board_group(kind) == _board_group(layout))


def _board_group(layout: str) -> str:
    """What the model tells apart: a game's player boards (its name), a scoring board, or none."""
    spec = layout_game(layout)
    return layout if spec is None or layout == spec.scoring_layout else spec.name


class BoardFitter:
    """The board-fitting model (:func:`load_board_fitter`). Reads one view or a batch."""

    def __init__(self, session: Any, version: str, sha256: str) -> None:
        self.session = session
        self.version = version
        self.sha256 = sha256
        self._input = session.get_inputs()[0].name
        self._cells = cell_fractions()

    def fit(self, image: np.ndarray, corners: np.ndarray, passes: int = PASSES) -> BoardFit:
        """The board seen through the outline ``corners`` (4 x 2 pixels, clockwise on the image,
        any corner first), fitted ``passes`` times, each through the last fit."""
        return self.fit_many(image, [corners], passes)[0]

    def fit_many(self, image: np.ndarray, outlines: list[np.ndarray], passes: int = PASSES) -> list[BoardFit]:
        """:meth:`fit` of several outlines of one image, each pass one batched call."""
        if not outlines:
            return []
        current = [np.asarray(c, np.float64).reshape(4, 2) for c in outlines]
        fits: list[BoardFit] = []
        for _ in range(max(1, passes)):
            views = np.stack([board_view(image, c) for c in current]).astype(np.float32)
            shift, kinds = self.session.run(None, {self._input: views})
            fits = [self._fit(c, s, k) for c, s, k in zip(current, shift, kinds)]
            # The next pass looks through the fit in the outline's own corner order: the model's
            # turn is read again each time.
            current = [np.roll(f.corners, f.turn, axis=0) for f in fits]
        return fits

    def _fit(self, outline: np.ndarray, shift: np.ndarray, logits: np.ndarray) -> BoardFit:
        cells = self._cells
        truth = cells + shift[:2].reshape(2, -1).T / SHIFT_SCALE  # where each cell truly lies
        expected = np.exp(shift[2].reshape(-1)) / SHIFT_SCALE  # its expected error (Laplace scale)
        weights = 1.0 / expected ** 2
        fit = weighted_homography(truth, cells, weights)  # true board fractions -> the outline's fractions
        for _ in range(_REFITS):
            residual = np.linalg.norm(to_image(fit, truth) - cells, axis=1)
            fit = weighted_homography(truth, cells, weights * np.minimum(1.0, _HUBER * expected / np.maximum(residual, 1e-12)))
        corners = to_image(board_homography(outline) @ fit, _UNIT)
        layout_logits, turn_logits = logits[:len(KINDS)], logits[len(KINDS):]
        kinds = _softmax(layout_logits)
        turns = _softmax(turn_logits)
        turn = int(np.argmax(turns))
        return BoardFit(np.roll(corners, -turn, axis=0), dict(zip(KINDS, map(float, kinds))), turn,
                        float(turns[turn]))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


_FITTER: BoardFitter | None = None


def load_board_fitter(path: Path | None = None, threads: int = 1) -> BoardFitter:
    """The board-fitting model (by default the package's ``board_fit.onnx``, loaded once) after
    checking its SHA-256; raises :class:`BoardFitError` saying what is wrong with the file."""
    global _FITTER
    if path is None and _FITTER is not None:
        return _FITTER
    source = path if path is not None else package_file(MODEL_NAME)
    session, digest = verified_session(source, "model.name.board_fit", BoardFitError, threads=threads)
    meta = dict(session.get_modelmeta().custom_metadata_map)
    for key, want in (("view_px", VIEW_PX), ("margin", MARGIN), ("stride", STRIDE), ("shift_scale", SHIFT_SCALE)):
        if float(meta.get(key, "nan")) != want:
            raise BoardFitError("model.trained_for", model=Notice("model.name.board_fit"), path=str(source), setting=key,
                                got=meta.get(key), want=want)
    if json.loads(meta.get("kinds", "[]")) != list(KINDS):
        raise BoardFitError("model.board_fit_kinds", path=str(source), kinds=str(list(KINDS)))
    fitter = BoardFitter(session, meta.get("version", "?"), digest)
    if path is None:
        _FITTER = fitter
    return fitter
