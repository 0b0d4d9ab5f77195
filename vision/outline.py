"""A board's printed outlines fitted to the photo's edges: where a board lies, by its geometry alone.

Every printing of a board draws its slots where the layout puts them (a wall of squares, the
staircase of pattern lines, the floor; stars of rhombuses), whatever its colours, ornaments or
light. :func:`fit_outline` moves a board's homography until those outlines lie on edges of the
photo: points along every slot's edges (and the card's border) search along their normals for the
nearest edge running their way, and the homography that best puts them there (point to line, a
Gauss-Newton step) is taken, again and again with a shrinking reach (the moving-edges tracker of
model-based visual tracking).

:func:`outline_contrast` says how sure the fit is a board: the share of outline points with such
an edge within a pixel or two, less the same share with the layout moved half a slot across or
down. A board's print lines up where it lies and not half a slot off; a table's weave, a
tablecloth's checks or a heap of tiles line up as well (or as badly) either way.

:func:`register_outline` fits a rough outline (a candidate quadrilateral, some centimetres off,
in any turn) and finds its turn: the layout is not symmetric (Azul's staircase and floor), so the
turn whose slots line up best is the owner's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..calibration.profile import board_homography, to_image
from .verify import slot_px

#: Points along the outlines, about one every this many millimetres of the board.
_STEP_MM = 4.0
#: An edge runs the outline's way where the gradient lies within about 37 degrees of its normal.
_ALONG = 0.8
#: An outline point has an edge where the gradient across it is at least this share of the
#: median found at the board's outline points (and at least :data:`_MIN_EDGE` grey levels a pixel).
_EDGE_SHARE = 0.25
_MIN_EDGE = 1.0
#: Reaches of a fit, as shares of the board's side in the photo; none below :data:`_MIN_REACH` pixels.
_REACHES = (0.03, 0.015, 0.008)
_MIN_REACH = 2.0
#: The search before the fit: outline points about every this many millimetres, moved by up to
#: this many half-slots each way, each point looking for an edge within this share of the side;
#: the likeliest of each turn is fitted.
_SEARCH_STEP_MM = 6.0
_SEARCH_STEPS = 2
_SEARCH_REACH = 0.02
#: A fit is a board where its slots' outlines line up this much better than half a slot off
#: (:func:`outline_contrast`). Set on two of the renderer's own families (classic, matte-worn;
#: 15 tables each), never on a held-out one: true boards 0.10 and more (1st percentile), the
#: same outlines put elsewhere on the table 0.05 at most (99th).
BOARD_CONTRAST = 0.08
#: A start is fitted only where a placement of its search already lines up this much
#: (:func:`outline_contrast` before any fit): on the classic and strong-print families, 95 % of
#: the starts that lead to a board and 25 % of the others.
FIT_PROMISE = 0.03
#: Starts whose corners all lie within this share of a side of another's are searched once.
_SAME_START = 0.03
#: A board's corners in its own fractions (TL TR BR BL).
_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
#: Gauss-Newton steps at each reach, at most, and the motion (pixels) that ends them.
_STEPS = 3
_SETTLED_PX = 0.1
#: A fit that moved a corner farther than this share of the board's side from its start, or
#: turned concave, went elsewhere.
_MAX_MOVE = 0.25


#: Edge directions are told apart in this many bins over 180 degrees; an edge counts in its own
#: bin and the two beside it (an outline point finds edges within about 34 degrees of its own).
_DIRECTION_BINS = 8


@dataclass(frozen=True)
class Gradients:
    """The photo's grey-level gradients (float32, grey levels a pixel), lightly smoothed, and its
    edges (Canny's, thresholds from the photo's own gradients) as one distance map per direction:
    how far each pixel lies from the nearest edge running that way (L1 pixels, uint8)."""

    gx: np.ndarray
    gy: np.ndarray
    distances: np.ndarray

    @classmethod
    def of(cls, grey: np.ndarray) -> Gradients:
        # Contrast evened out first: a board's print in a dim corner of the photo counts as much
        # as one under the lamp (on 15 tables of each of two families, the weakest true boards'
        # contrast rose from 0.09-0.11 to 0.10-0.14, places off the boards' stayed below 0.05).
        grey = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8)).apply(grey)
        g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
        # Canny's thresholds from the photo: the strongest third of its gradients are edges,
        # and weaker ones joined to them (a faint print on a pale card as well as a bold one).
        sample = cv2.magnitude(gx[::8, ::8], gy[::8, ::8])
        high = max(4.0, float(np.percentile(sample, 67))) * 8
        edges = cv2.Canny(cv2.GaussianBlur(grey, (0, 0), 1.0), high / 2, high, L2gradient=True)
        ys, xs = np.nonzero(edges)
        labels = np.zeros(grey.shape, np.uint8)  # 0: no edge, else 1 + the edge's direction bin
        labels[ys, xs] = 1 + direction_bins(np.stack([gx[ys, xs], gy[ys, xs]], axis=-1))
        distances = np.empty((_DIRECTION_BINS, *grey.shape), np.uint8)
        for b in range(_DIRECTION_BINS):
            table = np.full(256, 255, np.uint8)
            table[1 + np.array([b - 1, b, b + 1]) % _DIRECTION_BINS] = 0
            distances[b] = cv2.distanceTransform(cv2.LUT(labels, table), cv2.DIST_L1, 3, dstType=cv2.CV_8U)
        return cls(gx, gy, distances)

    def edge_near(self, x: np.ndarray, normals: np.ndarray, reach: float) -> np.ndarray:
        """Whether an edge running across each normal lies within ``reach`` pixels of each point
        (``x``: ... x 2; ``normals``: the same, or as :func:`direction_bins` gives them)."""
        bins = normals if normals.dtype.kind == "i" else direction_bins(normals)
        h, w = self.gx.shape
        xi = np.rint(x[..., 0]).astype(np.intp)
        yi = np.rint(x[..., 1]).astype(np.intp)
        inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        flat = (np.broadcast_to(bins, xi.shape) * h + yi.clip(0, h - 1)) * w + xi.clip(0, w - 1)
        return (self.distances.ravel()[flat] <= reach) & inside


def direction_bins(normals: np.ndarray) -> np.ndarray:
    """Each normal's direction bin (of :data:`_DIRECTION_BINS` over 180 degrees)."""
    return ((np.arctan2(normals[..., 1], normals[..., 0]) % np.pi) / np.pi * _DIRECTION_BINS).astype(np.intp) % _DIRECTION_BINS


@dataclass(frozen=True)
class _Outline:
    """Points along a layout's outlines (board fractions) and the outline's direction there."""

    points: np.ndarray
    tangents: np.ndarray
    homogeneous: np.ndarray


@lru_cache(maxsize=None)
def _outline(layout_name: str, border: bool, step_mm: float = _STEP_MM) -> _Outline:
    """The layout's slots' outlines, and the card's ``border``, as points every ``step_mm``."""
    layout = load_layout(layout_name)
    w, h = layout.size_mm
    polygons = [np.asarray(s.polygon, np.float64) for s in layout.slots]
    if border:
        polygons.append(_UNIT)
    points, tangents = [], []
    for polygon in polygons:
        for a, b in zip(polygon, np.roll(polygon, -1, axis=0)):
            n = max(2, int(np.hypot((b[0] - a[0]) * w, (b[1] - a[1]) * h) / step_mm))
            t = (np.arange(n) + 0.5) / n
            points.append(a + (b - a) * t[:, None])
            tangents.append(np.repeat(((b - a) / np.linalg.norm(b - a))[None], n, axis=0))
    p = np.vstack(points)
    out = _Outline(p, np.vstack(tangents), np.c_[p, np.ones(len(p))])
    for array in (out.points, out.tangents, out.homogeneous):
        array.flags.writeable = False
    return out


@lru_cache(maxsize=None)
def half_slot(layout_name: str) -> float:
    """Half a slot's width (the square root of the median slot's area), in board fractions: the
    layout moved this far across or down lies between its slots."""
    return 0.5 * slot_px(layout_name, 1)


def _placed(h: np.ndarray, outline: _Outline) -> tuple[np.ndarray, np.ndarray]:
    """The outline's points in the image through ``h`` (3 x 3, or K x 3 x 3 for K placements at
    once) and their unit normals there (n x 2, or K x n x 2)."""
    x, w = _projected(h, outline)
    # The homography's Jacobian at each point takes the board's tangent to the image's:
    # (A t - x (c . t)) / w, with A the homography's top left 2 x 2 and c its bottom row's first two.
    t = outline.tangents
    d = t @ np.swapaxes(h[..., :2, :2], -1, -2) - x * (t @ np.swapaxes(h[..., 2:3, :2], -1, -2))
    d *= np.sign(w)[..., None] / (np.linalg.norm(d, axis=-1, keepdims=True) + 1e-12)
    return x, np.stack([-d[..., 1], d[..., 0]], axis=-1)


def _projected(h: np.ndarray, outline: _Outline) -> tuple[np.ndarray, np.ndarray]:
    """The outline's points through ``h`` (as :func:`_placed`) and their homogeneous scale."""
    q = outline.homogeneous @ np.swapaxes(h, -1, -2)
    w = q[..., 2]
    return q[..., :2] / w[..., None], w


def _nearest_edges(grad: Gradients, x: np.ndarray, normals: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """For each point, the offset along its normal (pixels, within ``reach``) of the strongest edge
    running its way, and that edge's strength (0 where none)."""
    r = max(1, int(np.ceil(reach)))
    s = np.arange(-r, r + 1, dtype=np.float32)
    xs = x[:, None, 0].astype(np.float32) + s[None] * normals[:, None, 0].astype(np.float32)
    ys = x[:, None, 1].astype(np.float32) + s[None] * normals[:, None, 1].astype(np.float32)
    gx, gy = _sampled(grad.gx, xs, ys), _sampled(grad.gy, xs, ys)
    across = np.abs(gx * normals[:, None, 0] + gy * normals[:, None, 1])
    strength = np.where(across >= _ALONG * np.hypot(gx, gy), across, 0.0)
    k = strength.argmax(axis=1)
    return s[k].astype(np.float64), strength[np.arange(len(k)), k].astype(np.float64)


#: Columns of the maps ``cv2.remap`` samples through (it wants fewer than 32,767 each way).
_REMAP_COLUMNS = 1024


def _sampled(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``image`` at the points (``xs``, ``ys``; any shape, float32), bilinear, 0 outside it."""
    count = xs.size
    padded = -(-count // _REMAP_COLUMNS) * _REMAP_COLUMNS
    mx = np.zeros(padded, np.float32)
    my = np.zeros(padded, np.float32)
    mx[:count], my[:count] = xs.ravel(), ys.ravel()
    out = cv2.remap(image, mx.reshape(-1, _REMAP_COLUMNS), my.reshape(-1, _REMAP_COLUMNS), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out.ravel()[:count].reshape(xs.shape)


def _threshold(strength: np.ndarray) -> float:
    return max(_MIN_EDGE, _EDGE_SHARE * float(np.median(strength)))


def _side(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())


def _sane(start: np.ndarray, corners: np.ndarray) -> bool:
    return bool(np.isfinite(corners).all() and np.abs(corners - start).max() <= _MAX_MOVE * _side(start)
                and cv2.isContourConvex(corners.astype(np.float32)))


def fit_outline(grad: Gradients, corners: np.ndarray, layout_name: str, reaches: tuple[float, ...]) -> np.ndarray | None:
    """The board's corners (TL TR BR BL as given) once the layout's outlines (its slots' and the
    card's border) lie on the photo's edges, from ``corners``, searching at each of ``reaches``
    (pixels) in turn; None where the fit runs away (:data:`_MAX_MOVE`, concave)."""
    start = np.asarray(corners, np.float64)
    outline = _outline(layout_name, True)
    h = board_homography(start).astype(np.float64)
    centre = start.mean(axis=0)
    scale = _side(start) / 2
    to_norm = np.array([[1 / scale, 0, -centre[0] / scale], [0, 1 / scale, -centre[1] / scale], [0, 0, 1]])
    from_norm = np.linalg.inv(to_norm)
    for reach in reaches:
        for _ in range(_STEPS):
            x, n = _placed(h, outline)
            offset, strength = _nearest_edges(grad, x, n, max(_MIN_REACH, reach))
            found = strength >= _threshold(strength)
            if found.sum() < 16:
                return None
            # Point-to-line residuals of a small homography G = I + delta (normalised image
            # coordinates) applied after h; Huber weights keep a far edge from pulling hard.
            xn = (x[found] - centre) / scale
            nx, ny = n[found, 0], n[found, 1]
            u, v = xn[:, 0], xn[:, 1]
            jac = np.stack([nx * u, nx * v, nx, ny * u, ny * v, ny,
                            -(nx * u * u + ny * u * v), -(nx * u * v + ny * v * v)], axis=1)
            residual = offset[found] / scale
            weight = 1.0 / np.maximum(1.0, np.abs(offset[found]) / 2.0)
            a = jac * weight[:, None]
            delta = np.linalg.solve(a.T @ jac + 1e-6 * np.eye(8), a.T @ residual)
            g = np.array([[1 + delta[0], delta[1], delta[2]], [delta[3], 1 + delta[4], delta[5]], [delta[6], delta[7], 1]])
            h = from_norm @ g @ to_norm @ h
            moved = np.abs(delta[:6]).max() * scale
            if moved < _SETTLED_PX:
                break
    out = to_image(h, _UNIT)
    return out if _sane(start, out) else None


def outline_contrast(grad: Gradients, corners: np.ndarray, layout_name: str) -> float:
    """How much better the layout's slot outlines lie on edges at ``corners`` than half a slot
    across or down: the share of their points with an edge running their way within a pixel or
    two, less the largest of the four such shares moved. Near 0 off a board, some tenths on one."""
    corners = np.asarray(corners, np.float64)
    reach = max(_MIN_REACH, _REACHES[-1] * _side(corners))
    return _contrast(grad, board_homography(corners).astype(np.float64), layout_name, reach, _STEP_MM)


def _contrast(grad: Gradients, h: np.ndarray, layout_name: str, reach: float, step_mm: float) -> float:
    d = half_slot(layout_name)
    hs = np.array([h] + [h @ np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1.0]]) for dx, dy in ((d, 0), (-d, 0), (0, d), (0, -d))])
    x, n = _placed(hs, _outline(layout_name, False, step_mm))
    found = grad.edge_near(x, n, reach).mean(axis=1)
    return float(found[0] - found[1:].max())


@dataclass(frozen=True)
class OutlineFit:
    """A board fitted by its outlines: corners (TL TR BR BL as its owner sees it) and how well
    they line up (:func:`outline_contrast`)."""

    corners: np.ndarray
    contrast: float


@dataclass(frozen=True)
class _Search:
    """A start searched (:func:`_search`): the likeliest placements (turn, corners in that turn),
    best first, and the best of their contrasts before any fit (:func:`outline_contrast` at the
    search's reach): how promising a fit from there is."""

    placements: list[tuple[int, np.ndarray]]
    promise: float


def _search(grad: Gradients, start: np.ndarray, layout_name: str, steps: int = _SEARCH_STEPS,
            turns: tuple[int, ...] = (0, 1, 2, 3)) -> _Search:
    """Each of ``turns`` (quarter turns) of ``start``, moved by whole half-slots about it, scored by
    the share of its outline points with an edge near them."""
    side = _side(start)
    reach = max(_MIN_REACH, _SEARCH_REACH * side)
    d = half_slot(layout_name)
    moves = np.arange(-steps, steps + 1) * d
    shifts = np.array([[[1, 0, i], [0, 1, j], [0, 0, 1.0]] for i in moves for j in moves])
    w_mm, h_mm = load_layout(layout_name).size_mm
    if w_mm != h_mm:
        # An oblong board lies with its long side along the start's long side, one way or the other.
        across = np.linalg.norm(start[1] - start[0]) + np.linalg.norm(start[2] - start[3])
        down = np.linalg.norm(start[3] - start[0]) + np.linalg.norm(start[2] - start[1])
        turns = tuple(k for k in turns if (k % 2 == 0) == ((across >= down) == (w_mm >= h_mm))) or turns
    turned = np.array([board_homography(np.roll(start, -k, axis=0)).astype(np.float64) for k in turns])
    hs = (turned[:, None] @ shifts[None]).reshape(-1, 3, 3)
    outline = _outline(layout_name, True, _SEARCH_STEP_MM)
    x, _ = _projected(hs, outline)
    # Half a slot's move hardly turns an edge: each turn's normals serve its moves.
    _, n = _placed(turned, outline)
    bins = np.repeat(direction_bins(n), len(shifts), axis=0)
    found = grad.edge_near(x, bins, reach).mean(axis=1).reshape(len(turns), len(shifts))
    # The likeliest placement of each turn: a layout turned half round puts much of its print on
    # the same lines, and the turn is told by the fits, not by this coarse look.
    best = found.argmax(axis=1)
    order = [k * len(shifts) + int(best[k]) for k in np.argsort(-found.max(axis=1), kind="stable")]
    placements = [(turns[int(i) // len(shifts)], to_image(hs[i], _UNIT)) for i in order]
    promise = max(_contrast(grad, hs[i], layout_name, reach, _SEARCH_STEP_MM) for i in order)
    return _Search(placements, promise)


def likeliest_placement(grad: Gradients, corners: np.ndarray, layout_name: str, steps: int) -> np.ndarray:
    """Where a board of ``layout_name`` most likely lies about a rough outline (``corners``, any
    turn): of its four turns moved by up to ``steps`` half-slots each way, the placement whose
    outline points find the most edges near them, unfitted (corners in its own turn)."""
    return _search(grad, np.asarray(corners, np.float64), layout_name, steps).placements[0][1]


def _fitted(grad: Gradients, start: np.ndarray, search: _Search, layout_name: str) -> OutlineFit | None:
    """The best fit from a search's placements, each fitted (:func:`fit_outline`)."""
    side = _side(start)
    reaches = tuple(r * side for r in _REACHES)
    fits: list[tuple[float, np.ndarray]] = []
    for turn, begin in search.placements:
        fitted = fit_outline(grad, begin, layout_name, reaches)
        if fitted is not None and _sane(np.roll(start, -turn, axis=0), fitted):
            fits.append((outline_contrast(grad, fitted, layout_name), fitted))
    if not fits:
        return None
    contrast, corners = max(fits, key=lambda f: f[0])
    return OutlineFit(corners, contrast)


def register_outline(grad: Gradients, corners: np.ndarray, layout_name: str, any_turn: bool = True) -> OutlineFit | None:
    """A rough outline (4 x 2 pixels, in any turn, some centimetres off) fitted as a board of
    ``layout_name``. A printed layout repeats itself a slot across (Azul's wall, a star's
    rhombuses), so a fit from afar may settle a slot off: every turn, moved by whole half-slots
    about the start, is first scored by the share of its outline points with an edge near them;
    the likeliest few are fitted (:func:`fit_outline`) and the fit that lines up best
    (:func:`outline_contrast`) is the board. Without ``any_turn``, the corners' own turn is kept
    (a profile's). None where no fit holds."""
    start = np.asarray(corners, np.float64)
    return _fitted(grad, start, _search(grad, start, layout_name, turns=(0, 1, 2, 3) if any_turn else (0,)), layout_name)


def same_place(a: np.ndarray, b: np.ndarray, share: float = 0.1) -> bool:
    """Whether two outlines (4 x 2 pixels) are one board's, in any turn: each corner within
    ``share`` of the side of the other's."""
    if np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) > share * _side(b):
        return False
    return min(float(np.linalg.norm(np.roll(a, k, axis=0) - b, axis=1).max()) for k in range(4)) <= share * _side(b)


def outline_boards(grad: Gradients, starts: list[np.ndarray], layout_name: str,
                   min_contrast: float = BOARD_CONTRAST, min_promise: float = FIT_PROMISE) -> list[OutlineFit]:
    """The boards of ``layout_name`` that rough outlines (``starts``: candidate quadrilaterals,
    any turn) lead to, whose outlines line up at least ``min_contrast`` (:func:`outline_contrast`),
    best first, none overlapping another. Starts are fitted likeliest first, down to those whose
    search promises ``min_promise`` (:data:`FIT_PROMISE`: a speed bound for the many candidate
    quadrilaterals of a photo), and a start whose likeliest placement was tried already (or is a
    fit found) is not fitted again."""
    distinct: list[np.ndarray] = []
    for s in starts:
        s = np.asarray(s, np.float64)
        if not any(same_place(s, d, _SAME_START) for d in distinct):
            distinct.append(s)
    searched = sorted(((_search(grad, s, layout_name), s) for s in distinct), key=lambda t: -t[0].promise)
    fits: list[OutlineFit] = []
    tried: list[np.ndarray] = []
    for search, start in searched:
        likeliest = search.placements[0][1]
        if search.promise < min_promise:
            break
        if any(same_place(likeliest, t) for t in tried):
            continue
        tried.append(likeliest)
        fit = _fitted(grad, start, search, layout_name)
        if fit is None:
            continue
        tried.append(fit.corners)
        if fit.contrast >= min_contrast:
            fits.append(fit)
    fits.sort(key=lambda f: -f.contrast)
    chosen: list[OutlineFit] = []
    for f in fits:
        if not any(overlaps(f.corners, c.corners) for c in chosen):
            chosen.append(f)
    return chosen


def overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two outlines overlap by more than a fifth of the smaller."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > 0.2 * min(abs(cv2.contourArea(a.astype(np.float32))), abs(cv2.contourArea(b.astype(np.float32))))
