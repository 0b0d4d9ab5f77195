"""Localisation of everything that does not lie on a board slot: factory displays, loose tiles.

Board slots are read from the calibration profile (one homography per board). Everything else
is searched for, in a few plain steps that each can be tested and timed on its own:

1. :func:`table_plane` fits one homography from the image to the table plane in millimetres,
   using every board of the profile (each board is a rigid square of known size); from it the
   camera's position over the table is estimated, for the parallax of raised tile tops;
2. :func:`rectify` warps the play area to a top-down view at about a millimetre per pixel:
   factory discs become circles and tiles squares or rhombuses of known size, whatever the view;
3. :func:`find_factories` finds the cardboard discs (a circular Hough transform of their rim at
   the known radius, then as many as the game has factories) in that view, empty or not;
4. :func:`factory_tiles` proposes the tiles lying on each occupied disc (four, in a square or a
   pinwheel turned as the tiles are turned);
5. :func:`find_loose_tiles` finds the tiles lying on the table (the centre, next to each board):
   what differs from the table's own colour, split into tile-sized pieces, and names their zone.

Outlines are given in image pixels with the truth's vertex convention (a square's corners, a
rhombus's tip, side, tip, side, clockwise in the image); a classifier labels each outline's
patch (:func:`azulcam.vision.crops.cut`) and may call a false candidate ``empty``.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..calibration.profile import Profile, ProfileError, board_homography
from ..calibration.geometry import BOARD_HEIGHT_MM, FACTORY_HEIGHT_MM, factory_diameter, tile_height, tile_mm
from ..engine.errors import CodedError, show
from ..engine.games import GAMES
from ..engine.zones import Zone

#: Scale of the top-down view the loose tiles are searched in (pixels per millimetre), at most.
TILE_VIEW_PPM = 1.0
#: Scale of the coarser top-down view the factory discs are searched in.
DISC_VIEW_PPM = 0.5
#: Margin around the boards that the top-down view covers (mm): the Azul marker lies beside a board.
VIEW_MARGIN_MM = 70.0
#: Focal length assumed (in image widths) when the view is too close to straight down to measure it.
DEFAULT_FOCAL_WIDTHS = 0.85
#: Two displays cannot overlap (their centres lie two radii apart or more): disc candidates closer
#: than this many radii are one, the best (room for centres found a twentieth of a radius off).
_DISC_GAP = 1.9
#: A fifth tile found on a display nearer its centre (on the table) than this many radii is one of
#: its four seen twice: a tile of the centre pushed against the display rests on the table
#: outside its disc, a radius or more from its centre, where a display's own tile lies inside it.
SEEN_TWICE_WITHIN = 0.9
#: A weak disc (scoring below :data:`OFF_RING_WEAK` of the median display) farther than this share
#: of the displays' spacing from every place of the even ring through the others is not one: the
#: displays stand evenly round a circle (the rules' set-up). On the bench's ten sets, displays in
#: view lay 0.27 of a spacing from it at most; the rims found half a display away from a display
#: under a hand, or in a heap of centre tiles, 0.40-0.51; one display under a hand found where it
#: stands, 0.41 (two of its neighbours not found either), and is dropped. A display pushed a third of a spacing out of line on a real table and holding
#: tiles (which hide its rim) is dropped too: its gap in the ring then holds it if the detector
#: finds its four tiles there (``analyze.TableLocator``).
OFF_RING = 0.35
OFF_RING_WEAK = 0.7
#: A weak disc candidate on the ring of displays is one where this share of its rim or more is seen
#: (four tiles leave gaps all round it; a hand or a finger over a display, a side of it).
HALF_RIM = 0.5
#: A display with less of its rim seen than this is partly covered (``analyze.TableLocator``).
FULL_RIM = 0.75
#: No table is wider than this (mm). Corners far outside the image (a close-up) can place the
#: boards a hundred metres apart on the plane fitted to them (seen in a training scene), and its
#: top-down view would not fit in memory.
TABLE_MAX_MM = 3000.0


class LocateError(CodedError):
    """Input the locator cannot work with (not an image, a profile of another game or size):
    ``code`` and ``params``."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Disc:
    """A factory display found in the image: its centre and mean radius in image pixels, its
    centre on the table plane (mm), how sure the ring finder is (its ring contrast) and the share
    of its rim seen."""

    center: tuple[float, float]
    radius: float
    plane: tuple[float, float]
    score: float
    occupied: bool = True
    rim: float = 1.0


@dataclass(frozen=True)
class Loose:
    """A tile's top face found in the image: its outline (4 x 2 image pixels, the truth's vertex
    order), centre, zone (a display, the centre or beside a board: :attr:`Zone.loose`) and a score."""

    outline: np.ndarray
    center: tuple[float, float]
    zone: Zone
    score: float = 1.0


@dataclass
class Plane:
    """The table plane seen by the camera: ``to_plane`` maps image pixels to millimetres (the
    frame of the first board), ``to_image`` back; ``nadir`` and ``height`` place the camera
    over that plane (for parallax); ``boards`` are the boards' outlines on the plane (mm)."""

    to_plane: np.ndarray
    to_image: np.ndarray
    nadir: np.ndarray
    height: float
    boards: list[np.ndarray]
    players: list[int | None]
    px_per_mm: float
    #: Each board's homography (board fractions -> image pixels, from its corners): exact for
    #: its own board, where the one homography of the plane (:func:`table_plane`), a compromise
    #: under the lens's distortion, can be a tenth off in scale at a far board.
    homographies: list[np.ndarray] = field(default_factory=list)

    def image_points(self, pts: Any) -> np.ndarray:
        return _apply(self.to_image, pts)

    def plane_points(self, pts: Any) -> np.ndarray:
        return _apply(self.to_plane, pts)

    def lifted(self, pts: Any, height_mm: float) -> np.ndarray:
        """Where plane points raised by ``height_mm`` above the board tops appear on the plane."""
        pts = np.asarray(pts, np.float64)
        k = self.height / max(self.height - height_mm, 1.0)
        return self.nadir + (pts - self.nadir) * k

    def lowered(self, pts: Any, height_mm: float) -> np.ndarray:
        """The plane points that, raised by ``height_mm``, appear at ``pts`` (:meth:`lifted` undone)."""
        pts = np.asarray(pts, np.float64)
        k = self.height / max(self.height - height_mm, 1.0)
        return self.nadir + (pts - self.nadir) / k


@dataclass
class View:
    """A top-down image of the play area: pixel (0, 0) shows plane point ``origin``."""

    image: np.ndarray
    origin: np.ndarray
    ppm: float

    def to_px(self, pts: Any) -> np.ndarray:
        return (np.asarray(pts, np.float64) - self.origin) * self.ppm

    def to_mm(self, px: Any) -> np.ndarray:
        return np.asarray(px, np.float64) / self.ppm + self.origin

    def around_players(self, plane: "Plane", step: int = 1) -> "View":
        """The part of the view where the factory displays and the loose tiles lie: the players'
        boards and :data:`VIEW_MARGIN_MM` around them (not the Summer Pavilion scoring board's
        side), its corners on multiples of ``step`` pixels of this view."""
        players = np.vstack([b for b, p in zip(plane.boards, plane.players) if p is not None])
        lo = np.floor(self.to_px(players.min(0) - VIEW_MARGIN_MM) / step).astype(int).clip(0) * step
        hi = np.ceil(self.to_px(players.max(0) + VIEW_MARGIN_MM) / step).astype(int) * step
        part = np.ascontiguousarray(self.image[lo[1]:hi[1], lo[0]:hi[0]])
        return View(part, self.to_mm(lo), self.ppm)


@dataclass
class Located:
    """What :func:`locate` found, and the milliseconds of each step."""

    discs: list[Disc]
    tiles: list[Loose]
    ms: dict[str, float] = field(default_factory=dict)


# --------------------------------------------------------------------------- input checks


def _apply(h: np.ndarray, pts: Any) -> np.ndarray:
    pts = np.asarray(pts, np.float64)
    shape = pts.shape
    if pts.size == 0:  # OpenCV returns None for no points
        return pts.copy()
    out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), h)
    return out.reshape(shape)


def check_image(image: Any) -> np.ndarray:
    """The image as a H x W x 3 uint8 array. Raises :class:`LocateError` for anything else."""
    if not isinstance(image, np.ndarray):
        raise LocateError("locate.not_an_array", kind=type(image).__name__)
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise LocateError("locate.not_bgr", shape=str(image.shape), dtype=str(image.dtype))
    if image.shape[0] < 32 or image.shape[1] < 32:
        raise LocateError("locate.too_small", w=image.shape[1], h=image.shape[0])
    return image


def check_profile(profile: Any, game: str, image: np.ndarray | None = None) -> Profile:
    """The profile as a :class:`Profile` (its JSON read by :meth:`Profile.from_json`, which checks
    it whole, or as is), checked against what this call adds: the game asked for and the image's
    size. Raises :class:`LocateError` (a ``ValueError``) naming the mismatch."""
    if game not in GAMES:
        raise LocateError("locate.unknown_game", games=str(tuple(GAMES)), game=show(game))
    if isinstance(profile, dict):
        try:
            profile = Profile.from_json(profile)
        except ProfileError as exc:
            raise LocateError("locate.bad_profile", reason=exc) from None
    if not isinstance(profile, Profile):
        raise LocateError("locate.not_a_profile", kind=type(profile).__name__)
    if profile.game != game:
        raise LocateError("locate.other_game", profile_game=profile.game, game=game)
    if image is not None:
        w, h = profile.image_size
        if (image.shape[1], image.shape[0]) != (w, h):
            raise LocateError("locate.other_size", w=image.shape[1], h=image.shape[0], pw=w, ph=h)
    return profile


# --------------------------------------------------------------------------- step 1: the table plane


def px_per_mm(profile: Any) -> float:
    """Image pixels per millimetre at the boards: the median over boards of the square root of
    the board's area in pixels over its area in millimetres. Boards wholly inside the image
    decide when there are any: the corners of a board far out of view (a close-up) can be wild."""
    prof = profile if isinstance(profile, Profile) else check_profile(profile, getattr(profile, "get", lambda *_: "")("game", ""))
    out, inside = [], []
    iw, ih = prof.image_size
    for b in prof.boards + ((prof.scoring_board,) if prof.scoring_board else ()):
        w, h = load_layout(b.layout).size_mm
        corners = np.asarray(b.corners, np.float32)
        ratio = math.sqrt(abs(cv2.contourArea(corners)) / (w * h))
        out.append(ratio)
        if (corners >= 0).all() and (corners[:, 0] < iw).all() and (corners[:, 1] < ih).all():
            inside.append(ratio)
    return float(np.median(inside or out))


def _rigid_fit(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The rotation and shift (no scale) that best maps ``src`` onto ``dst`` (N x 2), applied to ``src``."""
    cs, cd = src.mean(0), dst.mean(0)
    u, _, vt = np.linalg.svd((src - cs).T @ (dst - cd))
    r = (u @ vt).T
    if np.linalg.det(r) < 0:
        vt[-1] *= -1
        r = (u @ vt).T
    return (src - cs) @ r.T + cd


def _camera_from_homography(h: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """The camera's foot point on the plane and its height (mm), from a plane -> image
    homography, assuming square pixels and the principal point at the image centre."""
    w, hgt = size
    cx, cy = (w - 1) / 2, (hgt - 1) / 2
    t = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], np.float64) @ h
    a1, b1, c1 = t[:, 0]
    a2, b2, c2 = t[:, 1]
    f2 = []
    if abs(c1 * c2) > 1e-12:
        f2.append(-(a1 * a2 + b1 * b2) / (c1 * c2))
    if abs(c2 * c2 - c1 * c1) > 1e-12:
        f2.append((a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2) / (c2 * c2 - c1 * c1))
    good = [v for v in f2 if (0.3 * w) ** 2 < v < (3 * w) ** 2]
    f = math.sqrt(float(np.median(good))) if good else DEFAULT_FOCAL_WIDTHS * w
    kinv = np.diag([1 / f, 1 / f, 1.0]) @ t
    lam = (np.linalg.norm(kinv[:, 0]) + np.linalg.norm(kinv[:, 1])) / 2
    r1, r2, tr = kinv[:, 0] / lam, kinv[:, 1] / lam, kinv[:, 2] / lam
    if tr[2] < 0:  # the plane must lie in front of the camera
        r1, r2, tr = -r1, -r2, -tr
    r = np.stack([r1, r2, np.cross(r1, r2)], 1)
    u, _, vt = np.linalg.svd(r)
    r = u @ vt
    c = -r.T @ tr
    return c[:2].copy(), float(abs(c[2]))


def plane_of_boards(boards: list[tuple[np.ndarray, str]]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The homography from the image to the table plane (mm, in the first board's frame) fitted to
    every board's corners (``boards``: 4 x 2 pixels and layout name each), and each board's
    outline on that plane: each board is a rigid rectangle of its layout's size, placed where the
    first board's homography puts it (twice, so that no single board's view decides)."""
    image_pts = np.array([corners for corners, _ in boards], np.float64)  # B x 4 x 2
    ideal = []
    for _, layout in boards:
        w, h = load_layout(layout).size_mm
        ideal.append(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    first = cv2.getPerspectiveTransform(image_pts[0].astype(np.float32), ideal[0].astype(np.float32))
    to_plane = first.astype(np.float64)
    for _ in range(2):
        placed = [_rigid_fit(sq, _apply(to_plane, pts)) for sq, pts in zip(ideal, image_pts)]
        to_plane, _ = cv2.findHomography(image_pts.reshape(-1, 2), np.vstack(placed), 0)
    return to_plane, [_rigid_fit(sq, _apply(to_plane, pts)) for sq, pts in zip(ideal, image_pts)]


def table_plane(profile: Profile) -> Plane:
    """One homography between the image and the table plane (mm) fitted to every board's corners:
    each board is a rigid rectangle of its layout's size, placed where the first board's
    homography puts it (twice, so that no single board's view decides)."""
    placements = list(profile.boards) + ([profile.scoring_board] if profile.scoring_board else [])
    to_plane, boards = plane_of_boards([(np.asarray(b.corners, np.float64), b.layout) for b in placements])
    to_image = np.linalg.inv(to_plane)
    nadir, height = _camera_from_homography(to_image / to_image[2, 2], profile.image_size)
    span = np.ptp(np.vstack(boards), axis=0)
    if span.max() > TABLE_MAX_MM:
        raise LocateError("locate.no_one_table", width=float(span[0] / 1000), height=float(span[1] / 1000))
    ppm = px_per_mm(profile)
    return Plane(to_plane, to_image, nadir, height, boards, [b.player for b in placements], ppm,
                 [board_homography(b.corners).astype(np.float64) for b in placements])


@lru_cache(maxsize=16)
def _plane_cached(key: str) -> Plane:
    import json
    return table_plane(Profile.from_json(json.loads(key)))


def plane_for(profile: Profile) -> Plane:
    """:func:`table_plane`, remembered per profile (a camera keeps its profile for many frames)."""
    import json
    return _plane_cached(json.dumps(profile.to_json(), sort_keys=True))


# --------------------------------------------------------------------------- step 2: top-down view


def rectify(image: np.ndarray, plane: Plane, ppm: float, margin_mm: float = VIEW_MARGIN_MM) -> View:
    """The play area (the boards' bounding box and a margin) seen from straight above at ``ppm``
    pixels per millimetre."""
    pts = np.vstack(plane.boards)
    lo = pts.min(0) - margin_mm
    hi = pts.max(0) + margin_mm
    size = np.ceil((hi - lo) * ppm).astype(int) + 1
    s = np.array([[ppm, 0, -lo[0] * ppm], [0, ppm, -lo[1] * ppm], [0, 0, 1]], np.float64)
    img = image
    shrink = 1.0
    # A warp that shrinks a lot aliases: shrink the photo first (cheaply) to about twice the view's scale.
    if plane.px_per_mm > 2.5 * ppm:
        shrink = 2.0 * ppm / plane.px_per_mm
        img = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    m = s @ plane.to_plane @ np.diag([1 / shrink, 1 / shrink, 1.0])
    out = cv2.warpPerspective(img, m, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return View(out, lo, ppm)


def board_mask(view: View, plane: Plane, grow_mm: float = 6.0) -> np.ndarray:
    """255 where a board (grown by ``grow_mm``) lies in the view, and outside the photo."""
    mask = np.zeros(view.image.shape[:2], np.uint8)
    for quad in plane.boards:
        c = quad.mean(0)
        d = quad - c
        grown = c + d * (1 + grow_mm / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1) * 1.42)
        cv2.fillConvexPoly(mask, np.round(view.to_px(grown) * 16).astype(np.int32), 255, cv2.LINE_8, 4)
    cv2.bitwise_or(mask, cv2.inRange(view.image, (0, 0, 0), (0, 0, 0)), dst=mask)
    return mask


# --------------------------------------------------------------------------- step 3: factory discs


def find_factories(image: np.ndarray, profile: Any, game: str, view: View | None = None,
                   plane: Plane | None = None) -> list[Disc]:
    """Every factory display in the image, empty or not (see :func:`_discs_in_view`).

    Raises :class:`LocateError` for an image that is not one or a profile of another game."""
    view, plane = _prepared(image, profile, game, view, plane)
    return _discs_in_view(view, plane, game)


def _prepared(image: Any, profile: Any, game: str, view: View | None, plane: Plane | None) -> tuple[View, Plane]:
    """The checked inputs' top-down view and table plane, made unless the caller has them."""
    image = check_image(image)
    prof = check_profile(profile, game, image)
    plane = plane or plane_for(prof)
    return (view if view is not None else rectify(image, plane, tile_view_ppm(plane))), plane


def tile_view_ppm(plane: Plane) -> float:
    return float(min(TILE_VIEW_PPM, max(0.6, plane.px_per_mm)))


def _discs_in_view(view: View, plane: Plane, game: str) -> list[Disc]:
    """Discs in the top-down view: a circular Hough transform at the disc's known radius (the
    rim's outer edge and the edge just inside it both vote for the centre, along their gradients
    either way, whatever the table's colour; each of the four ways counts as strongly as it
    gathers at as many places as there are displays, :func:`_gathered`), then at most as many discs as the game has
    factories (5, 7 or 9 for 2, 3 or 4 players), each with most of its rim seen.

    A disc with four tiles on it shows little of its rim and votes a fifth as much as an empty
    one, hardly more than a heap of loose tiles does; but the displays stand in a circle round
    the middle of the table (the rules' set-up): the circle through the strongest candidates
    (:func:`_factory_ring`) admits the weak ones on it, and one off it only when it is about as
    strong as the displays on it and not in the middle of the ring (:func:`_chosen_discs`). They
    also stand evenly round it: a weak one far from every even place is none (:func:`_on_even_ring`)."""
    view = view.around_players(plane)  # the displays stand among the players' boards
    f = DISC_VIEW_PPM / view.ppm
    small = cv2.resize(view.image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 0.99 else view.image
    ppm = view.ppm * (small.shape[1] / max(view.image.shape[1], 1))
    radius_mm = factory_diameter(GAMES[game]) / 2
    radius = radius_mm * ppm
    mask = board_mask(View(small, view.origin, ppm), plane, grow_mm=3.0)
    gx, gy, mag = _colour_gradient(small)
    mag[cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0] = 0
    h, w = mag.shape
    # The strongest fifth of the edges (its threshold read on every other pixel: the same, faster).
    strong = mag > max(12.0, float(np.percentile(mag[::2, ::2], 80)))
    at = np.flatnonzero(strong)
    ys, xs = np.divmod(at, w)
    m = mag.reshape(-1)[at]
    ux, uy = gx.reshape(-1)[at] / (4 * m), gy.reshape(-1)[at] / (4 * m)
    weight = np.sqrt(m)
    fx, fy = xs.astype(np.float64), ys.astype(np.float64)
    # Each edge pixel votes at the centre of the rim's outer edge and of the edge just inside it,
    # on both sides of it: four votes; a vote off the view goes to a last bin, dropped.
    cells = np.empty((4, len(at)), np.int64)
    for k, (r, s) in enumerate(((radius * 0.99, 1.0), (radius * 0.99, -1.0), (radius * 0.96, 1.0), (radius * 0.96, -1.0))):
        vx = np.round(fx + s * r * ux).astype(np.int64)
        vy = np.round(fy + s * r * uy).astype(np.int64)
        np.copyto(cells[k], np.where((vx >= 0) & (vx < w) & (vy >= 0) & (vy < h), vy * w + vx, h * w))
    wanted = GAMES[game].factories[sum(1 for p in plane.players if p is not None)]
    # Every display on a table is the same card on the same cloth: its rim's edges run the same way
    # (darker outside or inside) on each. The votes of each rim and side count as strongly as
    # the displays they gather, so that the gap between two displays, where the wrong side's
    # votes of both meet, does not pass for one.
    maps = [cv2.GaussianBlur(np.bincount(cells[k], weight, h * w + 1)[:h * w].reshape(h, w).astype(np.float32),
                             (0, 0), 1.0) for k in range(4)]
    gathered = np.array([_gathered(a, wanted) for a in maps])
    trust = (gathered / max(float(gathered.max()), 1e-9)) ** 2
    acc = sum(t * a for t, a in zip(trust, maps)) * (4.0 / max(float(trust.sum()), 1e-9))
    acc /= 2 * math.pi * radius
    pys, pxs = np.nonzero(_local_peaks(acc) & (acc > 0.05))
    order = np.argsort(-acc[pys, pxs])
    top_peaks = [i for i in order[:5 * wanted] if not mask[pys[i], pxs[i]]]
    points = np.array([[float(pxs[i]), float(pys[i])] for i in top_peaks]).reshape(-1, 2)
    cands = [(float(acc[pys[i], pxs[i]]) * seen, p, seen)
             for i, p, seen in zip(top_peaks, points, _rim_sectors(gx, gy, mag, points, radius)) if seen >= 0.2]
    cands.sort(key=lambda c: -c[0])
    distinct: list[tuple[float, np.ndarray, float]] = []  # the best of each neighbourhood, best first
    kept = np.zeros((0, 2))
    for c in cands:
        if not len(kept) or np.hypot(*(kept - c[1]).T).min() > _DISC_GAP * radius:
            distinct.append(c)
            kept = np.vstack([kept, c[1]])
    chosen = _on_even_ring(_chosen_discs(distinct[:3 * wanted], radius, wanted), wanted)
    return _discs_at(plane, np.array([p / ppm + view.origin for _, p, _ in chosen]), radius_mm,
                     [score for score, _, _ in chosen], [seen for _, _, seen in chosen])


def _gathered(votes: np.ndarray, wanted: int) -> float:
    """How strongly a map of votes gathers at as many places as there are displays: the sum of its
    ``wanted`` strongest local peaks."""
    peaks = votes[_local_peaks(votes) & (votes > 0)]
    return float(np.sort(peaks)[-wanted:].sum()) if peaks.size else 0.0


def _local_peaks(votes: np.ndarray) -> np.ndarray:
    """Where a map of votes is the largest of its 5 x 5 neighbourhood."""
    return votes == cv2.dilate(votes, np.ones((5, 5), np.uint8))


def _chosen_discs(distinct: list[tuple[float, np.ndarray, float]], radius: float, wanted: int
                  ) -> list[tuple[float, np.ndarray, float]]:
    """The displays among disc candidates (score, view point, share of the rim seen; best first,
    ``radius`` in view pixels): at most ``wanted``. On the ring of displays
    (:func:`_factory_ring`): anything well above the noise, the weak with half the rim seen or
    more (four tiles leave gaps all round; a hand or a finger over a display hides a side of it,
    and ``analyze.TableLocator`` leaves a few tiles seen on such a display unread). Off it: only
    what scores like the displays on it, and nothing well inside the ring, where the centre's
    tiles lie (a heap of them votes like a display with four tiles). No ring: the strongest,
    less what scores far below the others."""
    on_ring = _factory_ring(np.array([c[1] for c in distinct]).reshape(-1, 2),
                            np.array([c[0] for c in distinct]), radius, wanted)
    if on_ring is None:
        chosen = distinct[:wanted]
        if chosen:
            top = float(np.median([c[0] for c in chosen]))
            chosen = [c for c in chosen if c[0] > 0.2 * top]
        return chosen
    top = max(c[0] for c, on in zip(distinct, on_ring) if on)
    chosen = [c for c, on in zip(distinct, on_ring)
              if on and c[0] > 0.1 * top and (c[0] >= 0.3 * top or c[2] >= HALF_RIM)][:wanted]
    typical = float(np.median([c[0] for c in chosen]))
    hub, ring = _circle_through(np.array([c[1] for c in chosen])) if len(chosen) >= 3 else (None, 0.0)
    return chosen + [c for c, on in zip(distinct, on_ring) if not on and c[0] > 0.5 * typical
                     and (hub is None or np.hypot(*(c[1] - hub)) > ring - 2 * radius)][:wanted - len(chosen)]


def _on_even_ring(chosen: list[tuple[float, np.ndarray, float]], wanted: int) -> list[tuple[float, np.ndarray, float]]:
    """The chosen discs (score, view point, share of the rim seen) less the weak ones that stand
    off the even ring of displays through the others (:data:`OFF_RING`), the farthest first."""
    chosen = list(chosen)
    while len(chosen) >= 5:  # four others at least to place the ring by
        points = np.array([c[1] for c in chosen], np.float64)
        strength = [c[0] * c[2] for c in chosen]  # as the Disc scores it
        typical = float(np.median(strength))
        off = [_off_even_ring(np.delete(points, k, 0), points[k], wanted) if strength[k] < OFF_RING_WEAK * typical else 0.0
               for k in range(len(chosen))]
        worst = int(np.argmax(off))
        if off[worst] <= OFF_RING:
            break
        del chosen[worst]
    return chosen


def _off_even_ring(others: np.ndarray, point: np.ndarray, wanted: int) -> float:
    """How far ``point`` lies from the nearest of ``wanted`` places evenly round the circle
    through ``others`` (n x 2, n >= 3), turned to fit them best, as a share of the places' spacing."""
    hub, ring = _circle_through(others)
    step = 2 * math.pi / wanted
    angles = np.arctan2(others[:, 1] - hub[1], others[:, 0] - hub[0])
    turn = float(np.angle(np.exp(1j * wanted * angles).sum())) / wanted
    t = turn + step * round((math.atan2(point[1] - hub[1], point[0] - hub[0]) - turn) / step)
    place = hub + ring * np.array([math.cos(t), math.sin(t)])
    return float(np.hypot(*(point - place))) / max(2 * ring * math.sin(step / 2), 1e-9)


def _factory_ring(points: np.ndarray, scores: np.ndarray, radius: float, wanted: int) -> np.ndarray | None:
    """Which ``points`` (n x 2 view pixels, ``scores`` best first) lie on the circle the factory
    displays stand in: of the circles through three of the strongest, the one whose best
    ``wanted`` points within half a disc radius score most, no smaller than ``wanted`` discs
    side by side. None where no such circle passes through three points."""
    k = min(len(points), wanted + 3)
    if k < 3:
        return None
    i, j, m = np.array([t for t in itertools.combinations(range(k), 3)]).T
    a, b, c = points[i], points[j], points[m]
    # circumcentres of the triples
    d = 2 * (a[:, 0] * (b[:, 1] - c[:, 1]) + b[:, 0] * (c[:, 1] - a[:, 1]) + c[:, 0] * (a[:, 1] - b[:, 1]))
    ok = np.abs(d) > 1e-6
    d = np.where(ok, d, 1.0)
    na, nb, nc = (a * a).sum(1), (b * b).sum(1), (c * c).sum(1)
    cx = (na * (b[:, 1] - c[:, 1]) + nb * (c[:, 1] - a[:, 1]) + nc * (a[:, 1] - b[:, 1])) / d
    cy = (na * (c[:, 0] - b[:, 0]) + nb * (a[:, 0] - c[:, 0]) + nc * (b[:, 0] - a[:, 0])) / d
    ring = np.hypot(a[:, 0] - cx, a[:, 1] - cy)
    smallest = wanted * radius / math.pi  # discs touching all round
    ok &= (ring >= smallest) & (ring <= 6 * smallest + 10 * radius)
    if not ok.any():
        return None
    cx, cy, ring = cx[ok], cy[ok], ring[ok]
    on = np.abs(np.hypot(points[None, :, 0] - cx[:, None], points[None, :, 1] - cy[:, None]) - ring[:, None]) < 0.5 * radius
    # points are best first: the best `wanted` on a circle are its first `wanted` on it
    counted = on & (np.cumsum(on, 1) <= wanted)
    best = int(np.argmax((counted * scores[None]).sum(1)))
    return on[best] if on[best].sum() >= 3 else None


def _circle_through(points: np.ndarray) -> tuple[np.ndarray, float]:
    """Centre and radius of the circle nearest ``points`` (n x 2, n >= 3; least squares on
    x^2 + y^2 + a x + b y + c = 0)."""
    a, b, c = np.linalg.lstsq(np.column_stack([points, np.ones(len(points))]), -(points ** 2).sum(1), rcond=None)[0]
    hub = np.array([-a / 2, -b / 2])
    return hub, float(np.sqrt(max(hub @ hub - c, 0.0)))


def unseen_displays(discs: list[Disc], plane: Plane, game: str) -> list[Disc]:
    """The displays the game has but that were not found, where they should stand (score 0):
    the displays stand evenly round a circle (the rules' set-up), so a gap in the ring about one
    spacing too wide holds one (a hand over it, say). None where all were found, where fewer
    than three were, or where no gap is wide enough."""
    wanted = GAMES[game].factories[sum(1 for p in plane.players if p is not None)]
    missing = wanted - len(discs)
    if missing <= 0 or len(discs) < 3:
        return []
    centres = np.array([d.plane for d in discs], np.float64)
    hub, ring = _circle_through(centres)
    radius_mm = factory_diameter(GAMES[game]) / 2
    if not ring > 2 * radius_mm:
        return []
    angles = np.sort(np.arctan2(centres[:, 1] - hub[1], centres[:, 0] - hub[0]))
    gaps = np.diff(np.append(angles, angles[0] + 2 * math.pi))
    step = 2 * math.pi / wanted
    out = []
    for start, gap in sorted(zip(angles, gaps), key=lambda g: -g[1]):
        fits = min(int(round(gap / step)) - 1, missing - len(out))
        for k in range(1, fits + 1):
            t = start + gap * k / (fits + 1)
            out.append(_disc_at(plane, hub + ring * np.array([math.cos(t), math.sin(t)]), radius_mm, 0.0, 0.0))
    return out


def _colour_gradient(img: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel, the Sobel gradient of the colour channel that changes most (a navy rim on green
    felt differs in colour more than in brightness). All in OpenCV's own (threaded) operations."""
    best_gx = best_gy = best = None
    for ch in cv2.split(img):
        gx = cv2.Sobel(ch, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(ch, cv2.CV_32F, 0, 1, ksize=3)
        mag = cv2.magnitude(gx, gy)
        if best is None:
            best_gx, best_gy, best = gx, gy, mag
        else:
            more = cv2.compare(mag, best, cv2.CMP_GT)
            cv2.copyTo(gx, more, best_gx)
            cv2.copyTo(gy, more, best_gy)
            cv2.max(mag, best, dst=best)
    return best_gx, best_gy, best / 4.0  # type: ignore[return-value]


def _rim_sectors(gx: np.ndarray, gy: np.ndarray, mag: np.ndarray, points: np.ndarray, radius: float,
                 sectors: int = 16) -> np.ndarray:
    """For each centre of ``points`` (n x 2), the share of angular sectors where an edge crosses
    the rim (the outer edge or the inner one) running round the centre (its gradient pointing
    along the radius)."""
    a = np.linspace(0, 2 * math.pi, sectors * 2, endpoint=False)
    ca, sa = np.cos(a), np.sin(a)
    rr = np.array([0.74, 0.8, 0.86, 0.93, 1.0, 1.06])[:, None] * radius  # R x A samples per centre
    h, w = mag.shape
    pts = np.asarray(points, np.float64).reshape(-1, 1, 1, 2)
    xs = np.clip(np.round(pts[..., 0] + rr * ca), 0, w - 1).astype(int)  # n x R x A
    ys = np.clip(np.round(pts[..., 1] + rr * sa), 0, h - 1).astype(int)
    m = mag[ys, xs]
    radial = np.abs(gx[ys, xs] * ca + gy[ys, xs] * sa) / np.maximum(m * 4.0, 1e-6)
    hit = ((m > 10) & (radial > 0.8)).any(axis=1)  # n x A
    return hit.reshape(len(hit), sectors, 2).any(axis=2).mean(axis=1)


#: Sixteen points round a unit circle, where a display's rim is measured in the image.
_RIM = np.stack([np.cos(np.linspace(0, 2 * math.pi, 16, endpoint=False)),
                 np.sin(np.linspace(0, 2 * math.pi, 16, endpoint=False))], 1)


def _discs_at(plane: Plane, mm: np.ndarray, radius_mm: float, scores: Any, seen: Any) -> list[Disc]:
    """The displays whose discs have their centres at ``mm`` (n x 2, plane), each scored
    ``score * seen`` (``seen``: the share of its rim seen): centres and mean radii in the
    image, at the displays' tops, all in one pass."""
    mm = np.asarray(mm, np.float64).reshape(-1, 2)
    top = FACTORY_HEIGHT_MM - BOARD_HEIGHT_MM
    c_img = plane.image_points(plane.lifted(mm, top))
    rim_img = plane.image_points(plane.lifted(mm[:, None] + radius_mm * _RIM, top))
    radii = np.linalg.norm(rim_img - c_img[:, None], axis=2).mean(axis=1)
    return [Disc((float(c[0]), float(c[1])), float(r), (float(m[0]), float(m[1])), score * rim, rim=rim)
            for c, r, m, score, rim in zip(c_img, radii, mm, scores, seen)]


def _disc_at(plane: Plane, mm: np.ndarray, radius_mm: float, score: float, seen: float) -> Disc:
    return _discs_at(plane, mm, radius_mm, [score], [seen])[0]


# --------------------------------------------------------------------------- step 4: tiles on the discs


def tile_polygon(game: str, kind: str = "tile") -> np.ndarray:
    """A tile's top face around its centre (mm), unturned, in the truth's vertex order."""
    spec = GAMES[game]
    if spec.shape == "square":
        s = tile_mm(spec) / 2
        return np.array([(-s, -s), (s, -s), (s, s), (-s, s)], np.float64)
    if kind == "token":
        s = tile_mm(spec) * 0.75
        return np.array([(-s, -s), (s, -s), (s, s), (-s, s)], np.float64)
    hl = tile_mm(spec) * math.sqrt(3) / 2
    hs = tile_mm(spec) / 2
    return np.array([(0, -hl), (hs, 0), (0, hl), (-hs, 0)], np.float64)


def _turned(poly: np.ndarray, deg: float) -> np.ndarray:
    """Points (N x 2) turned by ``deg`` degrees about the origin (x towards y)."""
    return poly @ rotations(deg)


def _fourfold_angle(gray: np.ndarray, weight: np.ndarray | None = None, offset: float = 0.0) -> tuple[float, float]:
    """The dominant direction of edges, modulo 90 degrees (structure of the gradients' angles
    times four), and how strong it is (0..1). ``offset`` (degrees) is added to the result."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    mag2 = gx * gx + gy * gy
    if weight is not None:
        mag2 = mag2 * weight
    z = (gx + 1j * gy).astype(np.complex64)
    z4 = (z / np.maximum(np.abs(z), 1e-6)) ** 4
    s = complex((z4 * mag2).sum())
    total = float(mag2.sum())
    if total <= 0:
        return offset, 0.0
    # A gradient at angle phi belongs to an edge at phi + 90; modulo 90 they are the same.
    ang = math.degrees(math.atan2(s.imag, s.real)) / 4 + offset
    return ang, abs(s) / total


def rotations(degrees: Any) -> np.ndarray:
    """The matrices that turn row vectors by ``degrees`` (x towards y), one per angle (... x 2 x 2)."""
    a = np.radians(np.asarray(degrees, np.float64))
    c, s = np.cos(a), np.sin(a)
    return np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)


#: What :func:`factory_tiles` tries for a disc: the square's (or pinwheel's) turn, in degrees.
_DISC_TURNS = np.arange(0.0, 90.0, 3.0)
#: How far apart a display's tiles may lie, of their places' spacing (:func:`display_offsets`), by
#: the tiles' shape, which decides how they lie on it: squares (Azul's) from touching to gaps of a
#: third of a tile; rhombuses (Summer Pavilion's) reach the disc's rim already, their pinwheel
#: stays close.
_DISC_SPREADS = {"square": np.array([1.0, 1.12, 1.25, 1.38]), "rhombus": np.array([1.0])}
#: What it tries for each tile after: a few degrees and millimetres off the disc's fit, and the
#: prior that prefers the fit where the edges do not say much (one per turn and shift).
_NUDGE_TURNS = np.arange(-12.0, 12.1, 3.0)
_NUDGE_SHIFTS = np.array([(dx, dy) for dx in np.arange(-3.0, 3.1, 1.0) for dy in np.arange(-3.0, 3.1, 1.0)])
_NUDGE_PRIOR = (1.0 - 0.01 * (np.abs(_NUDGE_TURNS)[:, None] / 3 + np.abs(_NUDGE_SHIFTS).sum(axis=1)[None])).ravel()


def display_offsets(game: str) -> np.ndarray:
    """Where a display's four tiles lie round its centre (4 x 2 mm, in order round it): two by two
    (Azul), or Summer Pavilion's pinwheel of rhombuses pointing out, their centres on a square
    turned by 45 degrees."""
    spec = GAMES[game]
    if spec.shape == "square":
        return np.array([(-0.52, -0.52), (0.52, -0.52), (0.52, 0.52), (-0.52, 0.52)]) * tile_mm(spec)
    return np.array([(0.0, -0.62), (0.62, 0.0), (0.0, 0.62), (-0.62, 0.0)]) * tile_mm(spec) * 1.4


def _likeliest_four(points: np.ndarray, game: str) -> np.ndarray:
    """Of n > 4 tiles found on one display (n x 2 plane mm), the indices of the four that lie most
    nearly as a display's tiles do (:func:`display_offsets`): the six distances between them,
    sorted, nearest those of the four places in the least-squares sense."""
    i, j = np.triu_indices(4, 1)
    offsets = display_offsets(game)
    ideal = np.sort(np.linalg.norm(offsets[i] - offsets[j], axis=1))
    fours = np.array(list(itertools.combinations(range(len(points)), 4)))
    chosen = np.asarray(points, np.float64)[fours]  # C x 4 x 2
    apart = np.sort(np.linalg.norm(chosen[:, i] - chosen[:, j], axis=2), axis=1)  # C x 6
    return fours[int(np.argmin(((apart - ideal) ** 2).sum(axis=1)))]


def factory_tiles(view: View, plane: Plane, game: str, discs: list[Disc]) -> list[tuple[int, np.ndarray]]:
    """For each occupied disc, the top faces of the tiles lying on it (plane mm, 4 x 2 each), as
    ``(disc index, outline)``: a square of four squares (Azul) or a pinwheel of four
    rhombuses pointing out from the disc's centre (Summer Pavilion), turned so that their
    outlines follow the strongest edges, then each tile nudged on its own. A disc whose inside
    shows no edges is empty and proposes nothing. Every disc's turns, then every tile's nudges,
    are scored in one batch."""
    gray = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    radius_mm = factory_diameter(GAMES[game]) / 2
    base = tile_polygon(game)
    offsets = display_offsets(game)
    spins = np.zeros(4) if GAMES[game].shape == "square" else np.array([0.0, 90.0, 180.0, 270.0])
    occupied = [n for n, d in enumerate(discs) if _occupied(gray, view, np.array(d.plane), radius_mm)]
    if not occupied:
        return []
    # Where a tile's top appears: raised by the disc and the tile, seen from the camera.
    tops = display_tops(plane, np.array([discs[n].plane for n in occupied], np.float64), game)  # D x 2
    # Every turn of the cluster and every spread of it (hands leave gaps between the tiles).
    turns_spreads = np.array([(t, s) for s in _DISC_SPREADS[GAMES[game].shape] for t in _DISC_TURNS])  # TS x 2
    around = (offsets[None, :, None, :] * turns_spreads[:, 1, None, None, None]) @ rotations(turns_spreads[:, 0])[:, None]
    faces = base[None, None] @ rotations(turns_spreads[:, 0, None] + spins[None])  # TS x 4 x 4 x 2
    polys = (tops[:, None, None, None] + around[None]) + faces[None]  # D x TS x 4 x 4 x 2
    scores = _edge_support(gx, gy, view, polys).sum(axis=2)  # D x TS
    best, spread = turns_spreads[np.argmax(scores, axis=1)].T  # D, D
    centres = tops[:, None] + ((offsets[None] * spread[:, None, None])[:, :, None, :] @ rotations(best)[:, None])[:, :, 0]
    turns = best[:, None] + spins[None]  # D x 4
    outlines = _refined_tiles(gx, gy, view, centres.reshape(-1, 2), base, turns.ravel())
    return [(n, outline) for n, outline in zip(np.repeat(occupied, 4), outlines)]


def _refined_tiles(gx: np.ndarray, gy: np.ndarray, view: View, centres: np.ndarray, base: np.ndarray,
                   turns: np.ndarray) -> np.ndarray:
    """Tile outlines (K x 4 x 2, plane mm) at ``centres`` (K x 2) turned by ``turns`` (K), each
    nudged to the edges nearby: a few degrees and millimetres (:data:`_NUDGE_TURNS`,
    :data:`_NUDGE_SHIFTS`), the prediction preferred where the edges do not say much."""
    k = len(centres)
    faces = base[None, None] @ rotations(turns[:, None] + _NUDGE_TURNS[None])  # K x T x 4 x 2
    scores = _edge_support(gx, gy, view, faces + centres[:, None, None], _NUDGE_SHIFTS).reshape(k, -1)  # K x (T * S)
    turn, shift = np.divmod(np.argmax(scores * _NUDGE_PRIOR[None], axis=1), len(_NUDGE_SHIFTS))
    return (faces[np.arange(k), turn] + centres[:, None]) + _NUDGE_SHIFTS[shift][:, None]


def _edge_support(gx: np.ndarray, gy: np.ndarray, view: View, polys: np.ndarray, shifts: np.ndarray | None = None,
                  per_edge: int = 6) -> np.ndarray:
    """For outlines (... x 4 x 2, plane mm), the mean strength of the image edges running along
    their sides (the gradient across each side, sampled at ``per_edge`` points); with
    ``shifts`` (S x 2 mm), for each outline moved by each (... x S): a side's points and its
    normal are worked out once for all its shifts."""
    shape = polys.shape[:-2]
    p = polys.reshape(-1, 4, 2)
    a, b = p, np.roll(p, -1, axis=1)
    t = (np.arange(per_edge) + 0.5) / per_edge
    pts = a[:, :, None, :] + (b - a)[:, :, None, :] * t[None, None, :, None]  # N x 4 x E x 2
    edge = b - a
    normal = np.stack([-edge[..., 1], edge[..., 0]], -1)
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-9)
    normal = normal[:, None, :, None]  # N x 1 x 4 x 1 x 2, against N x S x 4 x E points
    px = view.to_px(pts[:, None] if shifts is None else pts[:, None] + np.asarray(shifts)[None, :, None, None])
    h, w = gx.shape
    xi = np.clip(np.round(px[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(px[..., 1]).astype(int), 0, h - 1)
    g = np.abs(gx[yi, xi] * normal[..., 0] + gy[yi, xi] * normal[..., 1])
    scores = g.mean(axis=(2, 3))  # N x S
    return scores.reshape(shape) if shifts is None else scores.reshape(*shape, len(shifts))


def _occupied(gray: np.ndarray, view: View, centre_mm: np.ndarray, radius_mm: float) -> bool:
    """Tiles on a disc show strong edges (their sides, the gaps between them); an empty disc's
    cream card shows only its faint print."""
    cp = view.to_px(centre_mm)
    r = radius_mm * view.ppm * 0.55
    x0, y0 = int(max(cp[0] - r, 0)), int(max(cp[1] - r, 0))
    x1, y1 = int(min(cp[0] + r + 1, gray.shape[1])), int(min(cp[1] + r + 1, gray.shape[0]))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inner = np.hypot(xx - cp[0], yy - cp[1]) < r
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    level = max(float(np.median(patch[inner])), 20.0)
    return float(np.mean(mag[inner])) / level > 0.25


# --------------------------------------------------------------------------- step 5: loose tiles


def find_loose_tiles(image: np.ndarray, profile: Any, game: str, discs: list[Disc], view: View | None = None,
                     plane: Plane | None = None) -> list[Loose]:
    """The tiles on the discs (:func:`factory_tiles`) and the loose tiles on the table, each with
    its zone: ``factories.I`` (I indexes ``discs``), ``center`` or ``boards.P.hand``.

    Raises :class:`LocateError` for an image that is not one or a profile of another game."""
    view, plane = _prepared(image, profile, game, view, plane)
    out: list[Loose] = []
    for n, poly in factory_tiles(view, plane, game, discs):
        out.append(_loose(plane, poly, Zone.display(n)))
    for poly, zone, score in _table_tiles(view, plane, game, discs):
        out.append(_loose(plane, poly, zone, score))
    return out


def _loose(plane: Plane, poly_mm: np.ndarray, zone: Zone, score: float = 1.0) -> Loose:
    img = plane.image_points(poly_mm)
    c = img.mean(0)
    return Loose(img, (float(c[0]), float(c[1])), zone, score)


def _table_tiles(view: View, plane: Plane, game: str, discs: list[Disc]) -> list[tuple[np.ndarray, Zone, float]]:
    """Tiles lying on the table: pixels far from the table's local colour, off boards and discs,
    split into tile-sized pieces (k-means on the pixels of each blob)."""
    img = view.image
    ppm = view.ppm
    h, w = img.shape[:2]
    tile = tile_mm(GAMES[game])
    tile_area = (tile * tile if GAMES[game].shape == "square" else tile * tile * math.sqrt(3) / 2) * ppm * ppm
    # Where to look: off the boards and the discs (the discs' tiles are proposed apart).
    blocked = board_mask(view, plane, grow_mm=5.0)
    radius = factory_diameter(GAMES[game]) / 2
    for d in discs:
        cp = view.to_px(d.plane)
        cv2.circle(blocked, (round(cp[0]), round(cp[1])), math.ceil((radius + 4) * ppm), 255, -1)
    # The table's colour around each point: a median over a wide window at a coarse scale.
    f = 0.25
    small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    small_mask = cv2.resize(blocked, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST)
    fill = small.copy()
    if (small_mask == 0).any():
        fill[small_mask > 0] = np.median(small[small_mask == 0], axis=0).astype(np.uint8)
    k = int(tile * ppm * f * 7) | 1
    bg = cv2.medianBlur(fill, max(3, min(k, 255)))
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    # Light differences (shadows, uneven light) scale all channels together; a tile's colour does not.
    imf = img.astype(np.float32) + 10.0
    bgf = bg.astype(np.float32) + 10.0
    ratio = cv2.divide(cv2.cvtColor(imf, cv2.COLOR_BGR2GRAY), cv2.cvtColor(bgf, cv2.COLOR_BGR2GRAY))
    chroma = cv2.absdiff(imf, bgf * cv2.merge([ratio] * 3))
    dist = cv2.absdiff(img, bg)
    cmax = cv2.max(cv2.max(chroma[..., 0], chroma[..., 1]), chroma[..., 2])
    dmax = cv2.max(cv2.max(dist[..., 0], dist[..., 1]), dist[..., 2])
    fg = cv2.bitwise_or(cv2.compare(cmax, 28.0, cv2.CMP_GT), cv2.compare(dmax, 70, cv2.CMP_GT))
    fg[blocked > 0] = 0
    kk = max(3, round(tile * ppm * 0.15) | 1)
    se = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kk, kk))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, se)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, se)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    lift = tile_height(GAMES[game]) - BOARD_HEIGHT_MM
    out = []
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < 0.45 * tile_area:
            continue
        n = round(area / (tile_area * 1.15))
        n = max(n, 1)
        if n > 40:
            continue  # a hand or a box, not tiles
        x, y, bw, bh = stats[i, :4]
        sub = labels[y:y + bh, x:x + bw] == i
        ys, xs = np.nonzero(sub)
        pts = np.stack([xs + x, ys + y], 1).astype(np.float32)
        if n == 1:
            groups = [pts]
        else:
            crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
            cv2.setRNGSeed(n)
            _, lab, _ = cv2.kmeans(pts, n, None, crit, 2, cv2.KMEANS_PP_CENTERS)
            groups = [pts[lab.ravel() == j] for j in range(n)]
        for g in groups:
            if len(g) < 0.3 * tile_area:
                continue
            poly = _fit_tile(g, gray, game, ppm)
            mm = view.to_mm(poly)
            # The blob holds the top face and the sides below it: its centre lies half-way down.
            centre = mm.mean(0)
            shift = plane.lifted(centre[None], lift)[0] - centre
            mm = mm + shift * 0.5
            zone = zone_of(mm.mean(0), plane, discs, game)
            if zone is None:
                continue
            out.append((mm, zone, min(1.0, len(g) / tile_area)))
    return out


def _fit_tile(pts: np.ndarray, gray: np.ndarray, game: str, ppm: float) -> np.ndarray:
    """The outline (view pixels) of the tile whose pixels are ``pts``: centred on them, turned
    as their edges (squares) or their long axis (rhombuses) are."""
    c = pts.mean(0)
    if GAMES[game].shape == "square":
        x0, y0 = np.floor(pts.min(0)).astype(int)
        x1, y1 = np.ceil(pts.max(0)).astype(int) + 1
        x0, y0 = max(x0 - 1, 0), max(y0 - 1, 0)
        patch = gray[y0:y1 + 1, x0:x1 + 1].astype(np.float32)
        weight = np.zeros(patch.shape, np.float32)
        weight[(pts[:, 1] - y0).astype(int), (pts[:, 0] - x0).astype(int)] = 1
        weight = cv2.dilate(weight, np.ones((3, 3), np.uint8))
        ang, _ = _fourfold_angle(patch, weight)
        return c + _turned(tile_polygon(game), ang) * ppm
    d = pts - c
    cov = d.T @ d / len(d)
    evals, evecs = np.linalg.eigh(cov)
    if evals[1] < 1.6 * evals[0]:  # round: the start-player token
        return c + tile_polygon(game, "token") * ppm
    vx, vy = evecs[:, 1]
    ang = math.degrees(math.atan2(-vx, vy))  # the long diagonal is the unturned polygon's y axis
    return c + _turned(tile_polygon(game), ang) * ppm


def depth_on_board(points: np.ndarray, homography: np.ndarray, size_mm: tuple[float, float]) -> np.ndarray:
    """How far inside a board (mm, negative outside) each of ``points`` (n x 2 image pixels)
    lies, measured in the board's own frame: ``homography`` takes board fractions to image
    pixels, and the board is ``size_mm`` (width, height)."""
    fx, fy = _apply(np.linalg.inv(homography), np.asarray(points, np.float64).reshape(-1, 2)).T
    w, h = size_mm
    return np.minimum.reduce([fx * w, (1 - fx) * w, fy * h, (1 - fy) * h])


def inside_distance(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Signed distance of each of ``points`` (n x 2) to the outline of a convex quadrilateral
    (4 x 2, same units): positive inside, as ``cv2.pointPolygonTest`` measures it, for all
    points at once."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    a = np.asarray(quad, np.float64).reshape(-1, 2)
    edge = np.roll(a, -1, axis=0) - a
    to_p = points[:, None, :] - a[None]
    t = np.clip((to_p * edge).sum(-1) / np.maximum((edge * edge).sum(-1), 1e-12), 0.0, 1.0)
    dist = np.linalg.norm(to_p - t[..., None] * edge, axis=-1).min(axis=1)
    cross = edge[None, :, 0] * to_p[..., 1] - edge[None, :, 1] * to_p[..., 0]
    inside = (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    return np.where(inside, dist, -dist)


#: A tile lies on a display when its top or its centre is this near the display's centre (of
#: the display's radius).
ON_DISC = 1.05
#: How far from where the ring puts a display not seen its tiles are looked for (of the display's
#: radius): the displays stand a little off even spacing round the ring.
UNSEEN_REACH = 2.0


def onto_their_tiles(unseen: list[Disc], points: np.ndarray, plane: Plane, game: str, discs: list[Disc]) -> list[Disc]:
    """The displays not seen (:func:`unseen_displays`: where even spacing round the ring puts
    them), each moved onto the tiles that may hide its rim: the four ``points`` (tiles' tops,
    plane mm) nearest where its tiles would show, within :data:`UNSEEN_REACH` of its radius and
    on no display seen, their middle taken as its tiles' (``display_tops``). A display with fewer
    than four tiles there stays where it was put."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if not unseen or len(points) < 4:
        return list(unseen)
    radius = factory_diameter(GAMES[game]) / 2
    free = ~(_from_discs(points, plane, discs, game)[1] < radius * ON_DISC).any(axis=1)
    out = []
    for disc in unseen:
        top = display_tops(plane, np.array([disc.plane], np.float64), game)[0]
        apart = np.linalg.norm(points - top, axis=1)
        near = np.flatnonzero(free & (apart < radius * UNSEEN_REACH))
        if len(near) < 4 or (free & (apart < radius * ON_DISC)).sum() == 4:
            out.append(disc)
            continue
        four = near[np.argsort(apart[near], kind="stable")[:4]]
        middle = points[four].mean(axis=0)
        # Moved there, it must hold those four and no other (as ``zones_of`` will count them): a
        # display under a hand must not take the centre's tiles beside it.
        if (free & (np.linalg.norm(points - middle, axis=1) < radius * ON_DISC)).sum() != 4:
            out.append(disc)
            continue
        out.append(display_under(points[four], plane, game, disc.score, disc.rim))
    return out


def display_under(tops: np.ndarray, plane: Plane, game: str, score: float = 0.0, rim: float = 0.0) -> Disc:
    """The display whose tiles show their tops at ``tops`` (n x 2 plane mm, its four tiles): the
    middle of the tops, lowered by the display's and a tile's height (``display_tops`` undone)."""
    middle = np.asarray(tops, np.float64).reshape(-1, 2).mean(axis=0)
    return _disc_at(plane, plane.lowered(middle, _display_top_mm(game)), factory_diameter(GAMES[game]) / 2, score, rim)


def _display_top_mm(game: str) -> float:
    """How far above the board tops a tile on a display shows its top."""
    return FACTORY_HEIGHT_MM + tile_height(GAMES[game]) - BOARD_HEIGHT_MM


def _from_discs(points: np.ndarray, plane: Plane, discs: list[Disc], game: str) -> tuple[np.ndarray, np.ndarray]:
    """For each point (n x 2 plane mm) and disc: its distance from the disc's centre, and the
    nearer of that and its distance from where the disc's tiles show their tops (n x discs)."""
    if not discs:
        return np.zeros((len(points), 0)), np.zeros((len(points), 0))
    centres = np.array([d.plane for d in discs], np.float64)
    from_centre = np.linalg.norm(points[:, None] - centres[None], axis=-1)
    tops = display_tops(plane, centres, game)
    return from_centre, np.minimum(from_centre, np.linalg.norm(points[:, None] - tops[None], axis=-1))


def display_tops(plane: Plane, centres: np.ndarray, game: str) -> np.ndarray:
    """Where the tiles on displays centred at ``centres`` (n x 2 plane mm) show the middle of
    their tops, as seen from the camera: raised by the display and the tile (plane mm)."""
    return plane.lifted(centres, _display_top_mm(game))


def zones_of(points: np.ndarray, plane: Plane, discs: list[Disc], game: str) -> list[Zone | None]:
    """The zone of each plane point (n x 2 mm): ``factories.N`` on display N, ``center`` inside
    the ring of factory displays, ``boards.P.hand`` near board P outside it, None far from all.
    The points are tiles, and a display holds four: where more lie on one, its are the four that
    lie most nearly as a display's tiles do (:func:`_likeliest_four`), and the others (the
    centre's tiles pushed against it) take the zone they would have without the display, but
    for those well inside the disc on the table (nearer its centre than :data:`SEEN_TWICE_WITHIN`
    of its radius): no tile on the table lies there, and they have no zone (None). The four
    nearest the display's centre were its until 2026-11-25: on the 16 bench sets looked at, of
    103 displays with more than four peaks, those four held 385 of the 412 tiles that could be
    told apart, the four most like a display's 410 (where they differed, a peak between two
    tiles, the side of one seen at a slant, had put out a tile on the display's far side)."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    zones: list[Zone | None] = [None] * len(points)
    if not len(points):
        return zones
    radius = factory_diameter(GAMES[game]) / 2
    on_disc = np.full(len(points), -1)
    twice = np.zeros(len(points), bool)
    if discs:
        # A tile on a display lies on the disc and is raised by it: seen from the camera, its top
        # moves outwards from the camera's foot point, past the disc's own rim when seen at a slant.
        from_centre, apart = _from_discs(points, plane, discs, game)  # n x discs
        near = apart < radius * ON_DISC
        on_disc = np.where(near.any(axis=1), near.argmax(axis=1), -1)
        for disc in np.unique(on_disc[on_disc >= 0]):
            mine = np.flatnonzero(on_disc == disc)
            if len(mine) > 4:
                beyond = np.setdiff1d(mine, mine[_likeliest_four(points[mine], game)])
                on_disc[beyond] = -1
                # A tile on the table cannot lie well inside a display's disc: a peak there is
                # one of the display's four seen twice (the dark side of a raised black tile).
                twice[beyond[from_centre[beyond, disc] < radius * SEEN_TWICE_WITHIN]] = True
    if len(discs) >= 3:
        ring = np.array([d.plane for d in discs])
        hub = ring.mean(0)
        ring_r = float(np.median(np.linalg.norm(ring - hub, axis=1)))
    else:
        hub = np.vstack([b for b, pl in zip(plane.boards, plane.players) if pl is not None]).mean(0)
        ring_r = 130.0
    from_hub = np.linalg.norm(points - hub, axis=1)
    players = [pl for pl in plane.players if pl is not None]
    outside = np.array([-inside_distance(points, quad) for quad, pl in zip(plane.boards, plane.players)
                        if pl is not None]).reshape(len(players), len(points))
    best = outside.argmin(axis=0) if players else np.zeros(len(points), int)
    best_d = outside.min(axis=0) if players else np.full(len(points), np.inf)
    for n in range(len(points)):
        if twice[n]:
            continue
        if on_disc[n] >= 0:
            zones[n] = Zone.display(int(on_disc[n]))
        elif from_hub[n] < ring_r:
            zones[n] = Zone.centre()
        elif best_d[n] < 110.0 and best_d[n] < from_hub[n] - ring_r + 40:
            zones[n] = Zone.hand(players[best[n]])
        elif from_hub[n] < ring_r + radius * 2:
            zones[n] = Zone.centre()
    return zones


def zone_of(p: np.ndarray, plane: Plane, discs: list[Disc], game: str) -> Zone | None:
    """The zone of one plane point (:func:`zones_of`)."""
    return zones_of(np.asarray(p, np.float64)[None], plane, discs, game)[0]


# --------------------------------------------------------------------------- all steps


def locate(image: np.ndarray, profile: Any, game: str) -> Located:
    """Every step on one image: the factory discs and every loose tile, with the milliseconds of
    each step (``plane``, ``view``, ``factories``, ``tiles``).

    Raises :class:`LocateError` for an image that is not one or a profile of another game."""
    ms: dict[str, float] = {}
    t = time.perf_counter()
    image = check_image(image)
    prof = check_profile(profile, game, image)
    plane = plane_for(prof)
    t1 = time.perf_counter()
    ms["plane"] = (t1 - t) * 1000
    view = rectify(image, plane, tile_view_ppm(plane))
    t2 = time.perf_counter()
    ms["view"] = (t2 - t1) * 1000
    discs = _discs_in_view(view, plane, game)
    t3 = time.perf_counter()
    ms["factories"] = (t3 - t2) * 1000
    tiles = find_loose_tiles(image, prof, game, discs, view, plane)
    ms["tiles"] = (time.perf_counter() - t3) * 1000
    return Located(discs, tiles, ms)
