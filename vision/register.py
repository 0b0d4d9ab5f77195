"""Board registration: where exactly each board lies in this image, starting from the profile.

A profile's corners are a user's clicks or an earlier frame's fit: a few pixels off, or a board
bumped by a centimetre or two since. :func:`register_board` finds where the board lies now, so
that every slot is read where it is:

- with the user's own board as calibration saw it bare (a ``sheet``: ``bare.BareBoard.image``;
  a printing differs from copy to copy, and the board itself is what this one looks like),
  :func:`refine_board` warps the image around the board into its own plane and aligns it with
  the sheet (ECC on edges, coarse to fine; from a profile's corners, the fine level alone first);
- without one, or where that fails, the board-fitting model fits it from what every printing
  shares (:mod:`board_fit`, :func:`fit_board`).

A board that cannot be aligned keeps its profile corners and says so. Each sheet's templates are
worked out once (:class:`_Look`), found again by the sheet's bytes, never by the array's identity
alone.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..calibration.profile import board_homography, to_image
from .board_fit import BoardFitter, load_board_fitter
from .outline import BOARD_CONTRAST, Gradients, register_outline

#: Scales (pixels per board millimetre) of the coarse-to-fine alignment.
_LEVELS = (0.25, 0.7)
#: The coarse level is OpenCV's ECC (wide basin), stopped once the warp moves less than this.
_COARSE_EPS = 1e-2
#: The fine level is an inverse-compositional ECC on the template's strongest-gradient pixels:
#: the share of pixels it reads, its iterations, and the corner motion (view pixels) that ends it.
_FINE_KEEP = 0.4
_FINE_ITERATIONS = 20
_FINE_EPS = 0.03
#: Where the fine level does not settle, OpenCV's ECC takes over, stopped at this correlation
#: change. At 1e-3 the worst board took 16 ms instead of 42 (190 tuning images), but one more slot
#: was misread: the p90 time is not worth a slot.
_FALLBACK_EPS = 1e-4
#: ... and after at most this many iterations: a speed bound, not a fit. A board at the edges of
#: the bench's ranges took 41-42 ms to reach the same fit as in 25 ms at 20; the seven bench sets
#: and bench/register.py read the same at 20 as at 40.
_FALLBACK_ITERATIONS = 20
#: How far past the board's edge the warped view reaches (fraction of its size): room to move.
_PAD = 0.12
#: A profile's corners are first fitted by the fine level alone (:func:`_fine_from_start`), and
#: so they are where the coarse level gives up (or the fine level finds nothing to correlate at
#: first): with the fine level's narrow reach, a fit farther than this share of the board's width
#: (10 mm on Azul's) from them was pulled elsewhere. Of the 13 boards of the ten tuned bench sets
#: fitted so after the coarse level gave up, 12 moved 0.01-0.033 of the width onto their art, one
#: (under a hand) 0.15, 1.4 tiles off its slots.
_RESCUED_MOVE = 0.04
#: A board's corners in its own fractions (TL TR BR BL), as :class:`Registration` lists them.
_BOARD_CORNERS = [[0, 0], [1, 0], [1, 1], [0, 1]]
#: A board moved on the table keeps its shape: a fit whose sides are longer or shorter than the
#: start's by more than this share was pulled by something else (an arm over the board's edge).
#: Fits from starts a few pixels off change their sides by up to 8 %; such pulled fits by 19-20 %.
_MAX_RESHAPE = 0.12


@contextmanager
def without_ipp() -> Iterator[None]:
    """OpenCV without its Intel IPP paths in this thread for the block (the setting is per thread:
    a thread of the block's own calls ``cv2.ipp.setUseIPP(False)`` itself).

    Some IPP routines take a path by where an array starts in memory, so their results differ
    in the last bits from process to process: ECC's among them, and a board's fit then moved by
    up to 0.01 px and a slot's probability by 1e-4 between two processes reading the same photo,
    enough to turn a reading that sits on a threshold (``analyze.UNSURE``). Without IPP a photo is read (``analyze.read``) and
    calibrated (``calibrate.find_boards``) the same in every process, and read no slower: 24
    four-player tables read alternately with and without it in one process gave median ratios
    of 0.998 (Azul) and 0.982 (Summer Pavilion)."""
    before = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(False)
    try:
        yield
    finally:
        cv2.ipp.setUseIPP(before)


@dataclass(frozen=True)
class Registration:
    """A board's refined corners (image pixels, TL TR BR BL), how well it matched (its sheet's
    ECC correlation, or the board-fitting model's probability of its layout; 0..1) and whether
    the alignment converged."""

    corners: np.ndarray
    score: float
    aligned: bool
    #: Aligned by its printed outlines alone (:func:`outline_board`): the board-fitting model did
    #: not take it for a board it knows, and the reading model has likely not seen its print either.
    by_outline: bool = False


#: Sheets whose looks are kept (a four-player table of each game, and some to spare).
_SHEETS_KEPT = 16
#: A sheet's pad is flat grey, blended with this share of the sheet's edge carried
#: on outwards. A sheet's edge is where calibration's corners put the board's edge, a pixel or
#: two off it: a flat pad's step there is an edge the photo has not, which pulls the fit off the
#: sheet's frame (the frame the bare board is compared in); with no step at all (the edge carried
#: on alone), boards under many tiles were fitted a fifth of a tile off. bench/register.py
#: --bare, 20 tables a family, four families, sheets through corners 2 px off (seeds 77 and 78):
#: the fits land a median 0.06-0.11 tile from the sheet's frame (flat: 0.09-0.14) and 0.13-0.18
#: from the truth (flat: 0.14-0.19); sheets through the true corners: 0.06-0.11 from the truth
#: (flat: 0.05-0.13); at 0.5 and more, 11-36 % of the matte-worn and bright boards beyond 0.2.
_SHEET_EDGE_KEEP = 0.3


class _Look:
    """A board's look, as the aligner matches it: a sheet, the board photographed in its own
    plane (BGR or grey, uint8; pixel ``(i, j)`` shows it at fractions ``(i / width, j / height)``,
    as ``bare.rectified`` makes it). Its templates and fine models are worked out once per scale.
    ``sheet`` is a read-only copy: the caller's array may change after, this look does not."""

    def __init__(self, layout_name: str, sheet: np.ndarray) -> None:
        self.layout_name = layout_name
        self.sheet = sheet
        self._templates: dict[float, np.ndarray] = {}
        self._models: dict[float, _Model] = {}

    def matches(self, layout_name: str, sheet: np.ndarray) -> bool:
        """Whether this is the look of ``sheet`` (the same side, shape and bytes)."""
        return (self.layout_name == layout_name and self.sheet.shape == sheet.shape
                and self.sheet.dtype == sheet.dtype and bool(np.array_equal(self.sheet, sheet)))

    def template(self, ppm: float) -> np.ndarray:
        """The look as the edges the aligner matches at ``ppm``: grey, blurred, padded with flat
        grey (the warped view reaches past the board's edge, the look covers the board only;
        a sheet's edge partly carried on, :data:`_SHEET_EDGE_KEEP`)."""
        out = self._templates.get(ppm)
        if out is None:
            w, h = load_layout(self.layout_name).size_mm
            size = (max(8, int(round(w * ppm))), max(8, int(round(h * ppm))))
            grey = cv2.resize(self._source(), size, interpolation=cv2.INTER_AREA)
            if grey.ndim == 3:
                grey = cv2.cvtColor(grey, cv2.COLOR_BGR2GRAY)
            pad_x, pad_y = _pad(self.layout_name, ppm)
            out = cv2.copyMakeBorder(grey, pad_y, pad_y, pad_x, pad_x, cv2.BORDER_CONSTANT, value=int(grey.mean()))
            edge = cv2.copyMakeBorder(grey, pad_y, pad_y, pad_x, pad_x, cv2.BORDER_REPLICATE)
            out = cv2.addWeighted(edge, _SHEET_EDGE_KEEP, out, 1 - _SHEET_EDGE_KEEP, 0)
            out = _edges(out)
            out.flags.writeable = False  # cached and shared
            self._templates[ppm] = out
        return out

    def model(self, ppm: float) -> _Model:
        out = self._models.get(ppm)
        if out is None:
            out = self._models[ppm] = _fine_model(self.template(ppm))
        return out

    def _source(self) -> np.ndarray:
        """The sheet (BGR or grey), its pixel ``i`` covering the board from ``i`` to ``i + 1``
        pixels (as the template's, and ``cv2.resize``'s): a sheet's pixel centres lie on the
        board's fractions ``i / width``, and it is moved half a pixel to match."""
        h, w = self.sheet.shape[:2]
        return cv2.warpAffine(self.sheet, np.array([[1, 0, 0.5], [0, 1, 0.5]]), (w, h),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


#: Sheets' looks by (side, shape, dtype, SHA-256 of the bytes), least recently used first ...
_SHEET_LOOKS: OrderedDict[tuple, _Look] = OrderedDict()
#: ... and the look last found for an array of this ``id``: a hint, taken only where the array's
#: bytes are still the look's (``np.array_equal`` is some ten times cheaper than the digest).
_LAST_LOOK: dict[int, _Look] = {}
_LOOKS_LOCK = threading.Lock()


def _look(layout_name: str, sheet: np.ndarray | _Look) -> _Look:
    """The look of a board of side ``layout_name``: ``sheet``'s, worked out once per distinct
    sheet, whatever array holds it."""
    if isinstance(sheet, _Look):
        return sheet
    sheet = np.asarray(sheet)
    if sheet.dtype != np.uint8 or sheet.ndim not in (2, 3) or (sheet.ndim == 3 and sheet.shape[2] != 3) \
            or min(sheet.shape[:2]) < 8:
        raise ValueError(f"a board's sheet is a BGR or grey uint8 image, not {sheet.dtype} {sheet.shape}")
    given = id(sheet)
    hinted = _LAST_LOOK.get(given)
    if hinted is not None and hinted.matches(layout_name, sheet):
        return hinted
    sheet = np.ascontiguousarray(sheet)
    key = (layout_name, sheet.shape, sheet.dtype.str, hashlib.sha256(sheet.data).digest())
    with _LOOKS_LOCK:
        look = _SHEET_LOOKS.get(key)
        if look is None:
            copy = sheet.copy()
            copy.flags.writeable = False
            look = _SHEET_LOOKS[key] = _Look(layout_name, copy)
            while len(_SHEET_LOOKS) > _SHEETS_KEPT:
                _SHEET_LOOKS.popitem(last=False)
        else:
            _SHEET_LOOKS.move_to_end(key)
        if len(_LAST_LOOK) >= 4 * _SHEETS_KEPT:
            _LAST_LOOK.clear()
        _LAST_LOOK[given] = look
    return look


def _template(layout_name: str, ppm: float, sheet: np.ndarray | _Look) -> np.ndarray:
    """The board's look (``sheet``'s) as the edges the aligner matches: grey,
    blurred, padded (:meth:`_Look.template`)."""
    return _look(layout_name, sheet).template(ppm)


def _pad(layout_name: str, ppm: float) -> tuple[int, int]:
    """Pixels of grey round the board in its padded view, across and down."""
    w, h = load_layout(layout_name).size_mm
    size = (max(8, int(round(w * ppm))), max(8, int(round(h * ppm))))
    return int(round(size[0] * _PAD)), int(round(size[1] * _PAD))


def _edges(grey: np.ndarray) -> np.ndarray:
    """Gradient magnitude, smoothed: lighting and tile colours matter less than printed lines."""
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    return cv2.GaussianBlur(mag, (0, 0), 1.5)


def _frame_to_board(size: tuple[int, int], pad: tuple[int, int]) -> np.ndarray:
    """Pixels of a padded board view -> board fractions. A pixel's centre is its whole coordinate
    (as in ``warpPerspective``), and the template's pixel ``i`` (past the pad) covers the board
    from ``i`` to ``i + 1`` pixels: its centre is half a pixel in."""
    w, h = size
    px, py = pad
    return np.array([[1 / (w - 2 * px), 0, (0.5 - px) / (w - 2 * px)],
                     [0, 1 / (h - 2 * py), (0.5 - py) / (h - 2 * py)], [0, 0, 1]])


@dataclass(frozen=True)
class SheetView:
    """The image around a board warped into the board's padded frame at ``ppm`` pixels per mm,
    as edges, beside the same edges of the board's sheet (``template``)."""

    edges: np.ndarray
    template: np.ndarray
    pad: tuple[int, int]
    view_to_image: np.ndarray
    view_to_board: np.ndarray

    def aligned_homography(self, warp: np.ndarray) -> np.ndarray:
        """The board's homography (board fractions -> image pixels) once ``warp`` (template
        pixels -> view pixels, from an alignment in this view) is applied."""
        return self.view_to_image @ np.asarray(warp, np.float64) @ np.linalg.inv(self.view_to_board)


def sheet_view(grey: np.ndarray, homography: np.ndarray, layout_name: str, ppm: float,
               sheet: np.ndarray | _Look) -> SheetView:
    """Warp the image through a board's ``homography`` (board fractions -> pixels) into its frame,
    beside the template of ``sheet`` (the board in its own plane, :func:`refine_board`)."""
    template = _template(layout_name, ppm, sheet)
    th, tw = template.shape
    pad = _pad(layout_name, ppm)
    view_to_board = _frame_to_board((tw, th), pad)
    view_to_image = homography @ view_to_board
    view = cv2.warpPerspective(grey, view_to_image, (tw, th), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    return SheetView(_edges(view), template, pad, view_to_image, view_to_board)


@dataclass(frozen=True)
class _Model:
    """What the fine alignment needs of a template, worked out once per look and scale.

    Coordinates are normalised (centre 0, half the larger side 1) so that the eight homography
    parameters are alike in size. ``points``: the chosen template pixels (n x 1 x 2, as
    ``cv2.perspectiveTransform`` takes them, padded with zeros to whole rows of
    :data:`_REMAP_COLUMNS`); ``products``: 17 x n, the template there (zero-mean), the
    steepest-descent images G (zero-mean, transposed) and H^-1 G^T, which takes an error vector
    to a parameter update (H = G^T G): a sampling's three products with them are one
    matrix-vector product, and, all zero-mean, they need no mean taken off the sampling first;
    ``step_values``: H^-1 G^T times the template; ``lam_num``/``proj``: the parts of ECC's
    photometric factor that depend on the template only; ``values_norm``: the template's norm."""

    points: np.ndarray
    count: int
    products: np.ndarray
    step_values: np.ndarray
    proj: np.ndarray
    lam_num: float
    values_norm: float
    norm: np.ndarray
    corners: np.ndarray
    half: float


#: Columns of the maps the fine level samples through (``cv2.remap`` wants fewer than 32,767).
_REMAP_COLUMNS = 1024


def _model(layout_name: str, ppm: float, sheet: np.ndarray | _Look) -> _Model:
    """What the fine level needs of the board's sheet at ``ppm``."""
    return _look(layout_name, sheet).model(ppm)


def _fine_model(template: np.ndarray) -> _Model:
    template = cv2.GaussianBlur(template, (3, 3), 0)
    h, w = template.shape
    gx = cv2.Sobel(template, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
    gy = cv2.Sobel(template, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
    mag = np.hypot(gx, gy)
    mag[:2], mag[-2:], mag[:, :2], mag[:, -2:] = 0, 0, 0, 0
    strengths = mag[mag > 0]
    keep = max(1, int(len(strengths) * _FINE_KEEP))
    ys, xs = np.nonzero(mag >= np.partition(strengths, len(strengths) - keep)[len(strengths) - keep])
    half, cx, cy = max(w, h) / 2, (w - 1) / 2, (h - 1) / 2
    x, y = (xs - cx) / half, (ys - cy) / half
    gx, gy = gx[ys, xs] * half, gy[ys, xs] * half
    g = np.stack([gx * x, gx * y, gx, gy * x, gy * y, gy, -(gx * x * x + gy * x * y), -(gx * x * y + gy * y * y)], 1)
    g -= g.mean(0)
    h_inv = np.linalg.inv(g.T @ g)
    t = template[ys, xs].astype(np.float64)
    t -= t.mean()
    t_proj = g.T @ t
    step = h_inv @ g.T
    norm = np.array([[1 / half, 0, -cx / half], [0, 1 / half, -cy / half], [0, 0, 1]])
    corners = norm @ np.array([[0, w - 1, w - 1, 0], [0, 0, h - 1, h - 1], [1, 1, 1, 1]], np.float64)
    n = len(xs)
    points = np.zeros((-(-n // _REMAP_COLUMNS) * _REMAP_COLUMNS, 1, 2), np.float32)
    points[:n, 0, 0], points[:n, 0, 1] = xs, ys
    products = np.ascontiguousarray(np.vstack([t[None], g.T, step]).astype(np.float32))
    for array in (points, products):
        array.flags.writeable = False  # cached and shared
    return _Model(points, n, products, step @ t, h_inv @ t_proj, float(t @ t - t_proj @ h_inv @ t_proj),
                  float(np.linalg.norm(t)), norm, corners, half)


def _align_fine(edges: np.ndarray, model: _Model) -> tuple[np.ndarray, float, bool] | None:
    """Inverse-compositional ECC (Evangelidis & Psarakis): the warp (template pixels -> view
    pixels, 3 x 3) that best correlates the template's chosen pixels with ``edges``, that
    correlation and whether it converged; None where the two do not correlate. The template's
    gradients, Jacobian and Hessian are fixed, so an iteration is one sampling of ``edges`` and
    one matrix-vector product (:class:`_Model`)."""
    edges = cv2.GaussianBlur(edges, (3, 3), 0)
    n = model.count
    rows = len(model.points) // _REMAP_COLUMNS
    denorm = np.linalg.inv(model.norm)
    warp = np.eye(3)  # in normalised coordinates
    sampled, products, converged = np.zeros(n, np.float32), np.zeros(len(model.products)), False
    for _ in range(_FINE_ITERATIONS):
        # The points' places in the view, as one two-channel map; what is sampled past the n-th
        # point (the padding) is dropped.
        places = cv2.perspectiveTransform(model.points, denorm @ warp @ model.norm)
        sampled = cv2.remap(edges, places.reshape(rows, _REMAP_COLUMNS, 2), None, cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).reshape(-1)[:n]
        products = (model.products @ sampled).astype(np.float64)
        lam_den = products[0] - products[1:9] @ model.proj
        if not lam_den > 0:
            return None
        dp = products[9:] * (model.lam_num / lam_den) - model.step_values
        delta = np.array([[1 + dp[0], dp[1], dp[2]], [dp[3], 1 + dp[4], dp[5]], [dp[6], dp[7], 1]])
        warp = warp @ np.linalg.inv(delta)
        moved = delta @ model.corners
        if np.abs(moved[:2] / moved[2] - model.corners[:2]).max() * model.half < _FINE_EPS:
            converged = True
            break
    centred = sampled.astype(np.float64) - sampled.mean(dtype=np.float64)
    score = float(products[0]) / (float(np.linalg.norm(centred)) * model.values_norm + 1e-12)
    return denorm @ warp @ model.norm, score, converged


def refine_board(grey: np.ndarray, corners: np.ndarray, layout_name: str, sheet: np.ndarray | _Look,
                 iterations: int = 40, keeps_shape: bool = True) -> Registration:
    """Align a board's ``sheet`` with a greyscale image, starting from ``corners`` (4 x 2 pixels).

    The sheet is the board in its own plane (BGR or grey uint8, any pixels per mm; pixel
    ``(i, j)`` at board fractions ``(i / width, j / height)``: ``bare.BareBoard.image``, as
    ``bare.rectified`` makes it), of side ``layout_name``. Its templates are worked out on its
    first call and kept for its bytes (:func:`_look`).

    With ``keeps_shape`` (a profile's corners), the fine level alone is tried first, and its fit
    stands where it settles near them (:func:`_fine_from_start`). Otherwise, or failing that:
    coarse level: OpenCV's ECC (at most ``iterations``), which takes a start a few centimetres
    off; fine level: the inverse-compositional ECC of :func:`_align_fine`, several times cheaper
    per iteration at the same accuracy. Where the coarse level gives up (a blurred, far board),
    the fine level starts from ``corners``, and must not move the board farther than
    :data:`_RESCUED_MOVE`. A runaway fit (:func:`_plausible`: off by more than a
    quarter of the board's width or, with ``keeps_shape``, changing the board's shape) is
    refitted as a rigid motion. ``keeps_shape`` is for ``corners`` from a profile, the board as
    it was; a calibration's rough outline may be reshaped."""
    corners = np.asarray(corners, np.float64)
    look = _look(layout_name, sheet)
    if keeps_shape:
        near = _fine_from_start(grey, corners, layout_name, look)
        if near is not None:
            return near
    h_img = board_homography(corners).astype(np.float64)
    score, aligned, rescued = 0.0, True, False
    coarse, *finer = _LEVELS
    view = sheet_view(grey, h_img, layout_name, coarse, look)
    try:
        score, warp = cv2.findTransformECC(view.template, view.edges, np.eye(3, dtype=np.float32),
                                           cv2.MOTION_HOMOGRAPHY,
                                           (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, _COARSE_EPS),
                                           None, 3)
    except cv2.error:
        # The coarse level found nothing to hold on to (a blurred, far board): the fine level
        # starts from the profile's corners, which are seldom far off (_RESCUED_MOVE).
        warp, rescued = np.eye(3), True
    # ECC's warp takes template pixels to view pixels; the board's homography follows it.
    h_img = view.aligned_homography(warp)
    for ppm in finer:
        view = sheet_view(grey, h_img, layout_name, ppm, look)
        found = _align_fine(view.edges, look.model(ppm))
        # Where the inverse-compositional step finds no correlation, OpenCV's ECC tries from here.
        rescued |= found is None
        warp, score, converged = found if found is not None else (np.eye(3), 0.0, False)
        if not converged:  # still creeping (a start far off, a board partly covered): OpenCV's ECC takes over
            try:
                score, warp = cv2.findTransformECC(view.template, view.edges, warp.astype(np.float32),
                                                   cv2.MOTION_HOMOGRAPHY,
                                                   (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, min(iterations, _FALLBACK_ITERATIONS), _FALLBACK_EPS),
                                                   None, 3)
            except cv2.error:
                aligned = False
                break
        h_img = view.aligned_homography(warp)
    if not aligned:
        return Registration(corners, 0.0, False)
    refined = to_image(h_img, _BOARD_CORNERS)
    if rescued and _beyond_reach(corners, refined):
        return Registration(corners, float(score), False)
    if _plausible(corners, refined, _MAX_RESHAPE if keeps_shape else None):
        return Registration(refined, float(score), True)
    # A runaway fit, or one that changed the board's shape: the board is fitted again as it can
    # only have moved, turned and slid on the table (a rigid motion in its own plane).
    rigid = _rigid_fit(grey, corners, layout_name, iterations, look)
    if rigid is not None and _plausible(corners, rigid[0]):
        return Registration(rigid[0], rigid[1], True)
    return Registration(corners, float(score), False)


def _fine_from_start(grey: np.ndarray, corners: np.ndarray, layout_name: str,
                     sheet: np.ndarray | _Look) -> Registration | None:
    """The board aligned by the fine level alone from ``corners`` (a profile's: a user's clicks
    or an earlier fit, seldom more than a few pixels off), or None where it does not settle, or
    settles farther than :data:`_RESCUED_MOVE` from them (a board bumped since, or a fit pulled
    onto a neighbouring slot: the coarse level's wide reach is wanted), or changes the board's
    shape. On sixteen bench sets (1920 x 1080, corners 2 px off) two images more were read
    right and one wrong (edges 920000 #28, a slot moved onto ``analyze.UNSURE``), and
    four-player tables were registered in about 0.65 of the time (when the change was made)."""
    ppm = _LEVELS[-1]
    view = sheet_view(grey, board_homography(corners).astype(np.float64), layout_name, ppm, sheet)
    found = _align_fine(view.edges, _model(layout_name, ppm, sheet))
    if found is None or not found[2]:
        return None
    warp, score, _ = found
    refined = to_image(view.aligned_homography(warp), _BOARD_CORNERS)
    if _beyond_reach(corners, refined) or not _plausible(corners, refined):
        return None
    return Registration(refined, float(score), True)


def _beyond_reach(start: np.ndarray, refined: np.ndarray) -> bool:
    """Whether a fit by the fine level alone from ``start`` moved a corner farther than
    :data:`_RESCUED_MOVE` of the board's width: pulled elsewhere."""
    return bool(np.abs(refined - start).max() > _RESCUED_MOVE * np.linalg.norm(start[1] - start[0]))


def _plausible(start: np.ndarray, refined: np.ndarray, reshape: float | None = _MAX_RESHAPE) -> bool:
    """Whether a fit can be the board of ``start`` (4 x 2 pixels) moved: finite, within a quarter
    of the board's width, and (unless ``reshape`` is None) its sides within that share of the
    start's."""
    start = np.asarray(start, np.float64)
    if not np.isfinite(refined).all() or np.abs(refined - start).max() > 0.25 * np.linalg.norm(start[1] - start[0]):
        return False
    if reshape is None:
        return True
    sides = np.linalg.norm(np.roll(refined, -1, axis=0) - refined, axis=1)
    start_sides = np.linalg.norm(np.roll(start, -1, axis=0) - start, axis=1)
    return bool(np.abs(sides / np.maximum(start_sides, 1e-9) - 1).max() <= reshape)


def _rigid_fit(grey: np.ndarray, corners: np.ndarray, layout_name: str, iterations: int,
               sheet: np.ndarray | _Look) -> tuple[np.ndarray, float] | None:
    """The board's corners and ECC score from OpenCV's ECC restricted to a rigid motion
    (``MOTION_EUCLIDEAN``) in the board's frame at the finest level, from ``corners``; None when
    it fails."""
    view = sheet_view(grey, board_homography(np.asarray(corners, np.float64)), layout_name, _LEVELS[-1], sheet)
    try:
        score, warp = cv2.findTransformECC(view.template, view.edges, np.eye(2, 3, dtype=np.float32),
                                           cv2.MOTION_EUCLIDEAN,
                                           (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, _FALLBACK_EPS),
                                           None, 3)
    except cv2.error:
        return None
    warp3 = np.vstack([warp.astype(np.float64), [0.0, 0.0, 1.0]])
    return to_image(view.aligned_homography(warp3), _BOARD_CORNERS), float(score)


#: A fit by the board-fitting model counts as aligned where the model says, with at least this
#: probability, that the view shows a board like its layout (``BoardFit.probability``): below, it
#: does not look like that board (covered, out of view, moved away) and the profile's corners are
#: kept. The likelier of two answers; calibration takes candidates by it too.
FIT_LAYOUT_PROBABILITY = 0.5


def fit_board(image: np.ndarray, corners: np.ndarray, layout_name: str, keeps_shape: bool = True,
              fitter: BoardFitter | None = None) -> Registration:
    """The board of side ``layout_name`` fitted by the board-fitting model (:mod:`board_fit`)
    from ``corners`` (4 x 2 pixels, TL TR BR BL: a profile's, or a calibration's outline) in the
    BGR ``image``. The model's own turn is not taken: the corners' order is the profile's. A fit
    that is not plausible (:func:`_plausible`; with ``keeps_shape``, the board's shape kept) or
    does not look like the layout keeps ``corners``, not aligned."""
    corners = np.asarray(corners, np.float64)
    fit = (fitter or load_board_fitter()).fit(image, corners)
    refined = np.roll(fit.corners, fit.turn, axis=0)  # back in the order of ``corners``
    score = fit.probability(layout_name)
    if score >= FIT_LAYOUT_PROBABILITY and _plausible(corners, refined, _MAX_RESHAPE if keeps_shape else None):
        return Registration(refined, score, True)
    return Registration(corners, score, False)


#: A board's outlines are fitted in the photo within this share of its side about its corners.
_OUTLINE_MARGIN = 0.2


def outline_board(grey: np.ndarray, corners: np.ndarray, layout_name: str, keeps_shape: bool = True) -> Registration:
    """The board of ``corners`` (4 x 2 pixels, TL TR BR BL, kept in that turn) fitted by its printed
    slots' outlines (:mod:`outline`: what every printing shares), in the part of ``grey`` about
    it. Aligned where they line up as a board's do (:data:`~azulcam.vision.outline.BOARD_CONTRAST`)
    and the fit is plausible (:func:`_plausible`; with ``keeps_shape``, the board's shape kept);
    else ``corners`` are kept, not aligned."""
    corners = np.asarray(corners, np.float64)
    side = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max())
    h, w = grey.shape
    lo = np.floor(np.clip(corners.min(axis=0) - _OUTLINE_MARGIN * side, 0, [w, h])).astype(int)
    hi = np.ceil(np.clip(corners.max(axis=0) + _OUTLINE_MARGIN * side, 0, [w, h])).astype(int)
    if (hi - lo).min() < 16:
        return Registration(corners, 0.0, False)
    grad = Gradients.of(np.ascontiguousarray(grey[lo[1]:hi[1], lo[0]:hi[0]]))
    fit = register_outline(grad, corners - lo, layout_name, any_turn=False)
    if fit is None:
        return Registration(corners, 0.0, False)
    refined = fit.corners + lo
    aligned = fit.contrast >= BOARD_CONTRAST and _plausible(corners, refined, _MAX_RESHAPE if keeps_shape else None)
    return Registration(refined if aligned else corners, fit.contrast, aligned, by_outline=aligned)


def register_board(image: np.ndarray, grey: np.ndarray, corners: np.ndarray, layout_name: str,
                   sheet: np.ndarray | None = None, fitter: BoardFitter | None = None) -> Registration:
    """Where the board of a profile's ``corners`` lies in this photo (BGR ``image`` and its
    ``grey``): aligned with its ``sheet`` where calibration kept one (:func:`refine_board`), else,
    or where that fails, fitted by the board-fitting model (:func:`fit_board`), or failing that
    (a printing the model never saw) by its printed outlines (:func:`outline_board`)."""
    if sheet is not None:
        reg = refine_board(grey, corners, layout_name, sheet)
        if reg.aligned:
            return reg
    reg = fit_board(image, corners, layout_name, fitter=fitter)
    if reg.aligned:
        return reg
    outlined = outline_board(grey, corners, layout_name)
    return outlined if outlined.aligned else reg
