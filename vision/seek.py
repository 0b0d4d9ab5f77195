"""Where the boards not found yet may lie: on the table's plane, beside the ones found.

Every board lies on the one table, and each is a card of its layout's size. A board found fixes
that plane (its homography, scaled from its fractions to millimetres, maps the table to the
photo; several fix it better), so every other board is a square of known size on it, at some place and turn. Seen from
straight above (:func:`table_view`), a board's print has edges in its layout's few directions
(Azul's squares: two at right angles; Summer Pavilion's rhombuses: three at 60 degrees), in
whatever turn; a table's grain runs one way, a cloth's weave or a heap of tiles every way. The
places whose edge directions look most like the layout's (:func:`seek_boards`) are turned and
placed by the print, and are outlines to fit (:func:`~azulcam.vision.outline.outline_boards`):
a board too faint against its table to close an outline of its own (a white card on pale wood)
is found so, where its print shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from .locate import plane_of_boards
from .outline import Gradients, likeliest_placement

#: The top-down view's scale (pixels per millimetre): a slot some ten pixels across.
SEEK_PPM = 0.5
#: The table seen reaches at most this far (mm) from the board found each way.
_REACH_MM = 1500.0
#: Places kept per board wanted: the fit decides among them.
_PLACES_PER_BOARD = 3
#: Harmonics of the edge directions that tell a layout's print (squares: 4; rhombuses: 6; a
#: grain: 2).
_HARMONICS = (2, 4, 6)
#: How much a place's edge pattern across the layout's counts against it (:func:`_likeness`).
_ACROSS_WEIGHT = 2.0
#: The patches whose print is compared with the layout's, as a share of the window.
_PATCH = 0.3
#: Places (and a board found) closer than this share of a board's side are one board.
_APART = 0.9
#: A place is searched this many half-slots each way on the view (about half a board).
_VIEW_STEPS = 12
#: Direction histogram bins (over 180 degrees) that turn a place.
_TURN_BINS = 90


@dataclass(frozen=True)
class TableView:
    """The photo seen from straight above at :data:`SEEK_PPM` (grey, float32), ``seen`` where the
    photo reaches, and ``to_image``, the homography from its pixels to the photo's."""

    grey: np.ndarray
    seen: np.ndarray
    to_image: np.ndarray


def table_view(grey: np.ndarray, boards: list[tuple[np.ndarray, str]]) -> TableView | None:
    """The photo (``grey``) on the plane of the table that ``boards`` (corners TL TR BR BL and
    layout name each: boards found) lie on, fitted to them all (:func:`~azulcam.vision.locate.plane_of_boards`:
    one board's plane, carried across the table, is a tenth off), seen from straight above; None
    where the plane shows too little of itself (seen edge on)."""
    image_to_plane, placed = plane_of_boards([(np.asarray(c, np.float64), layout) for c, layout in boards])
    image_to_plane = image_to_plane / image_to_plane[2, 2]
    plane_to_image = np.linalg.inv(image_to_plane)
    board = np.asarray(boards[0][0], np.float64)
    h, w = grey.shape
    grid = np.stack(np.meshgrid(np.linspace(0, w - 1, 24), np.linspace(0, h - 1, 24)), axis=-1).reshape(-1, 2)
    q = np.c_[grid, np.ones(len(grid))] @ image_to_plane.T
    side = np.sign(image_to_plane[2] @ np.r_[board.mean(axis=0), 1])
    mm = q[q[:, 2] * side > 0, :2] / q[q[:, 2] * side > 0, 2:]
    mm = mm[np.abs(mm - placed[0].mean(axis=0)).max(axis=1) <= _REACH_MM]
    if len(mm) < 8:
        return None
    lo, hi = mm.min(axis=0), mm.max(axis=0)
    size = (int(np.ceil((hi[0] - lo[0]) * SEEK_PPM)) + 1, int(np.ceil((hi[1] - lo[1]) * SEEK_PPM)) + 1)
    to_image = plane_to_image @ np.array([[1 / SEEK_PPM, 0, lo[0]], [0, 1 / SEEK_PPM, lo[1]], [0, 0, 1]])
    # Shrink the photo first where the view is far coarser (a warp that shrinks a lot aliases).
    mm_per_px = np.sqrt(abs(np.linalg.det(image_to_plane[:2, :2] / (image_to_plane[2] @ np.r_[board.mean(axis=0), 1]))))
    shrink = min(1.0, 2.0 * SEEK_PPM * mm_per_px)
    source = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA) if shrink < 1.0 else grey
    warp = np.diag([shrink, shrink, 1.0]) @ to_image
    view = cv2.warpPerspective(source.astype(np.float32), warp, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    seen = cv2.warpPerspective(np.ones(source.shape, np.uint8), warp, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                               borderValue=0)
    return TableView(view, seen > 0, to_image)


def _edges(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradient magnitude and angle (radians) of a view."""
    g = cv2.GaussianBlur(grey, (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy), np.arctan2(gy, gx)


def _window(layout_name: str) -> int:
    """The side (view pixels, odd) of the square a place's edge directions are taken over:
    inside the card whatever its turn."""
    w_mm, h_mm = load_layout(layout_name).size_mm
    return int(0.7 * min(w_mm, h_mm) * SEEK_PPM) | 1


def _harmonic_shares(magnitude: np.ndarray, angle: np.ndarray, window: int) -> np.ndarray:
    """For each pixel, how much of the edges in the ``window`` about it run in a pattern of each
    of :data:`_HARMONICS` (the modulus of the magnitude-weighted mean of exp(i m angle)):
    len(_HARMONICS) x H x W, 0..1, the same in any turn."""
    total = cv2.boxFilter(magnitude, -1, (window, window), normalize=False, borderType=cv2.BORDER_CONSTANT) + 1e-6
    out = []
    for m in _HARMONICS:
        re = cv2.boxFilter(magnitude * np.cos(m * angle), -1, (window, window), normalize=False, borderType=cv2.BORDER_CONSTANT)
        im = cv2.boxFilter(magnitude * np.sin(m * angle), -1, (window, window), normalize=False, borderType=cv2.BORDER_CONSTANT)
        out.append(np.hypot(re, im) / total)
    return np.stack(out)


def _drawn(layout_name: str) -> np.ndarray:
    """The layout's slots' outlines and the card's at :data:`SEEK_PPM`, centred in a square that
    holds it at any turn."""
    layout = load_layout(layout_name)
    w_mm, h_mm = layout.size_mm
    side = int(np.ceil(np.hypot(w_mm, h_mm) * SEEK_PPM)) | 1
    canvas = np.zeros((side, side), np.float32)
    polygons = [np.asarray(slot.polygon) for slot in layout.slots] + [np.array([[0, 0], [1, 0], [1, 1], [0, 1.0]])]
    for polygon in polygons:
        placed = np.round(((polygon - 0.5) * [w_mm, h_mm] * SEEK_PPM + side / 2) * 16).astype(np.int32)
        cv2.polylines(canvas, [placed], True, 1.0, 1, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(canvas, (0, 0), 1.0)


@lru_cache(maxsize=8)
def _signature(layout_name: str) -> np.ndarray:
    """The layout's own harmonic shares (:func:`_harmonic_shares`) at its centre, as drawn."""
    drawn = _drawn(layout_name) * 255
    magnitude, angle = _edges(drawn)
    c = drawn.shape[0] // 2
    shares = _harmonic_shares(magnitude, angle, _window(layout_name))[:, c, c]
    shares.flags.writeable = False
    return shares


@lru_cache(maxsize=8)
def _direction_profile(layout_name: str) -> np.ndarray:
    """The layout's edge directions as a histogram over 180 degrees (:data:`_TURN_BINS`), centred
    and normalised, as drawn unturned."""
    magnitude, angle = _edges(_drawn(layout_name) * 255)
    return _profile(magnitude, angle)


def _profile(magnitude: np.ndarray, angle: np.ndarray) -> np.ndarray:
    hist, _ = np.histogram(angle % np.pi, _TURN_BINS, (0.0, np.pi), weights=magnitude)
    hist = np.convolve(np.r_[hist[-2:], hist, hist[:2]], [0.25, 0.5, 1.0, 0.5, 0.25], "valid")
    hist -= hist.mean()
    return hist / (np.linalg.norm(hist) + 1e-12)


def _turn_at(magnitude: np.ndarray, angle: np.ndarray, centre: tuple[int, int], layout_name: str) -> float:
    """The turn (degrees, counter-clockwise on the view; modulo the symmetry of the layout's
    edge directions) of a board centred at ``centre`` (view pixels): its edge directions about
    it against the layout's."""
    half = _window(layout_name) // 2
    x, y = centre
    part = (slice(max(0, y - half), y + half + 1), slice(max(0, x - half), x + half + 1))
    seen = _profile(magnitude[part].ravel(), angle[part].ravel())
    own = _direction_profile(layout_name)
    shifts = [float(seen @ np.roll(own, k)) for k in range(_TURN_BINS)]
    return float(np.argmax(shifts)) * 180.0 / _TURN_BINS


@lru_cache(maxsize=8)
def _card_kernel(layout_name: str) -> np.ndarray:
    """A card's place, whatever its turn: the mean inside a disc within the card less the mean
    in a ring just outside it."""
    w_mm, h_mm = load_layout(layout_name).size_mm
    inner, outer = 0.45 * min(w_mm, h_mm) * SEEK_PPM, 0.75 * max(w_mm, h_mm) * SEEK_PPM
    r = int(np.ceil(outer))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    d = np.hypot(xx, yy)
    disc = (d <= inner).astype(np.float32)
    ring = ((d >= 0.6 * max(w_mm, h_mm) * SEEK_PPM) & (d <= outer)).astype(np.float32)
    kernel = disc / disc.sum() - ring / ring.sum()
    kernel.flags.writeable = False
    return kernel


def _likeness(shares: np.ndarray, signature: np.ndarray) -> np.ndarray:
    """How much a place's harmonic shares run the layout's way: their part along the layout's own
    (a stronger print counts more) less twice their part across it (a grain, whose lines run one
    way, has every harmonic; a weave or a heap of tiles has little of any)."""
    unit = signature / np.linalg.norm(signature)
    along = np.tensordot(unit, shares, axes=1)
    across = np.sqrt(np.maximum((shares ** 2).sum(axis=0) - along ** 2, 0.0))
    return along - _ACROSS_WEIGHT * across


def seek_boards(view: TableView, layout_name: str, found: list[np.ndarray], wanted: int) -> list[np.ndarray]:
    """Up to :data:`_PLACES_PER_BOARD` x ``wanted`` outlines (image corners, TL TR BR BL at the
    turn the print gives) where a board of ``layout_name`` may lie on ``view``'s table, likeliest
    first, none on a board ``found`` (image corners) nor on one another."""
    magnitude, angle = _edges(view.grey)
    magnitude[~view.seen] = 0
    window = _window(layout_name)
    # Print like the layout's, patch by patch; a board is a card-sized square of it.
    patch = int(_PATCH * window) | 1
    printed = np.maximum(_likeness(_harmonic_shares(magnitude, angle, patch), _signature(layout_name)), 0.0)
    likeness = cv2.filter2D(printed, -1, _card_kernel(layout_name), borderType=cv2.BORDER_CONSTANT)
    # A place needs the photo all round it, and no board found on it.
    whole = cv2.erode(view.seen.astype(np.uint8), np.ones((window, window), np.uint8)) > 0
    likeness[~whole] = -np.inf
    # A place within a board's side of a board found is that board seen again (no two boards
    # overlap, so another's centre lies a side away or more); places a side apart are distinct.
    w_mm, h_mm = load_layout(layout_name).size_mm
    apart = int(_APART * min(w_mm, h_mm) * SEEK_PPM)
    image_to_view = np.linalg.inv(view.to_image)
    taken = np.zeros(likeness.shape, np.uint8)
    for corners in found:
        c = cv2.perspectiveTransform(np.asarray(corners, np.float64).reshape(-1, 1, 2), image_to_view).reshape(-1, 2)
        cv2.circle(taken, tuple(int(v) for v in np.round(c.mean(axis=0))), apart, 1, -1)
    likeness[taken > 0] = -np.inf
    corners_mm = (np.array([[0, 0], [1, 0], [1, 1], [0, 1.0]]) - 0.5) * [w_mm, h_mm]
    # The view is the table's plane: a board on it is a card of known size, placed there by its
    # printed outlines within half a board of where its print gathers.
    view_grad = Gradients.of(np.clip(view.grey, 0, 255).astype(np.uint8))
    out = []
    for _ in range(_PLACES_PER_BOARD * wanted):
        y, x = np.unravel_index(int(np.argmax(likeness)), likeness.shape)
        if not np.isfinite(likeness[y, x]):
            break
        cv2.circle(likeness, (int(x), int(y)), apart, -np.inf, -1)
        degrees = _turn_at(magnitude, angle, (int(x), int(y)), layout_name)
        centre = np.array([x, y], np.float64)
        a = np.radians(degrees)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        px = likeliest_placement(view_grad, corners_mm @ rot.T * SEEK_PPM + centre, layout_name, _VIEW_STEPS)
        out.append(cv2.perspectiveTransform(px.reshape(-1, 1, 2), view.to_image).reshape(4, 2))
    return out
