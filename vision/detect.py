"""Loose tiles found and named in one pass: a small fully convolutional network over the top-down view.

Tiles off the boards (on the factory displays, in the centre, next to each board) lie anywhere,
turned anyhow and often touching. Splitting colour blobs into tiles fails exactly where it matters
(a heap in the centre), so the locator asks a network trained on rendered tables instead:

1. ``locate.rectify`` warps the play area to a top-down view at :data:`VIEW_PPM` pixels per
   millimetre, so that a tile has the same size in every photo, whatever the camera;
2. the network (``models/detector.onnx``, trained by ``models/train_detector.py``) answers, for
   every cell of :data:`STRIDE` view pixels, how likely a tile of each kind has its centre there
   (one heat map per kind, as CenterNet does: Zhou et al., "Objects as Points", 2019);
3. :func:`peaks` keeps the local maxima above a threshold among the game's kinds: one tile each,
   with its kind and confidence.

Heat-map targets for training come from a scene's truth (:func:`heatmap_targets`): the same view,
the same geometry, so that training and reading cannot drift apart.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..engine.games import GAMES
from ..engine.zones import CENTER, DISPLAY, HAND, Zone
from .shipped import ShippedModelError, package_file, verified_session

#: Scale of the top-down view the network reads (pixels per mm): an Azul tile is 10 pixels wide.
VIEW_PPM = 0.5
#: One heat-map cell per STRIDE x STRIDE view pixels (4 mm).
STRIDE = 2
#: The network also works at a quarter of the view's size: a view it reads is padded to a
#: multiple of this.
INPUT_MULTIPLE = 4
#: The network's heat maps, in order: every tile kind of every game, ``game/kind`` in the games'
#: and their tiles' order (the classifier's classes but empty). The network was trained on these:
#: :func:`load_detector` refuses one whose metadata lists others.
KINDS: tuple[str, ...] = tuple(f"{spec.name}/{tile}" for spec in GAMES.values() for tile in spec.tiles)
#: A peak below this is not a tile.
THRESHOLD = 0.35
#: Tiles lying flat never have centres closer than this (two Summer Pavilion rhombuses side by
#: side: 19 mm; two Azul tiles: 20 mm), with room for the parallax of their raised tops.
MIN_GAP_MM = 12.0
#: Summer Pavilion's start-player token is a disc wider than a tile (radius three quarters of a
#: rhombus's side, 16.6 mm), and the network sees a tile's colour on its rim too: such peaks lay
#: 11-12 mm from the token's own over the ten bench sets. A tile lying flat beside the token has
#: its centre at least 26 mm from the token's (the disc's radius and the rhombus's inradius), so
#: within this of a marker peak above THRESHOLD a peak of another kind is the token; the nearest
#: true tile's peak to such a marker peak lay 16.2 mm from it.
TOKEN_GAP_MM = 13.0
#: With no first-player marker found above THRESHOLD, the marker's strongest peak down to this
#: is proposed as the marker (:func:`with_proposed_marker`).
MARKER_FLOOR = 0.2
#: The first-player marker's kind.
MARKER = "first_player"
#: A tile whose peak is lower than this is listed as uncertain.
SURE = 0.6
#: With a candidate model (:func:`confirmed`), peaks down to this are proposed as tiles too: a
#: tile the network is unsure of (a black tile on a dark table, a tile in a heap) often peaks
#: between this and THRESHOLD, and so do the gaps between tiles; that model tells them apart.
CANDIDATE_FLOOR = 0.12
#: How much context the candidate model sees around a tile-sized square, on each side (fraction
#: of the square; ``crops.cut``'s margin): a tile's neighbours, and the gap it would leave.
CANDIDATE_MARGIN = 0.5
#: A peak the candidate model reads as no tile, with no standing tile near it (no centre within
#: :data:`LONE_SIDES` of a tile's side), may lie off Summer Pavilion's start-player token: the
#: token is wider than a tile and its rim gives peaks of a tile's colour (:data:`TOKEN_GAP_MM`),
#: and the model learned peaks more than 9 mm from every tile's centre as none
#: (``dataset.CANDIDATE_FAR``). The token is always beside a board or in the centre, never on a
#: board: where none stands, such a peak is read again on its patch moved this share of a tile's
#: side along the sides and the diagonals (:func:`marker_nearby`).
MARKER_SEARCH_STEP = 0.3
LONE_SIDES = 0.8
#: A peak of a tile's kind off the displays that the candidate model reads as no tile, but that
#: the detector rates above this, is read again the same way, round it (:func:`tiles_nearby`): a
#: peak 5-8 mm off its tile's centre is as far off as the model learned to call no tile. Just
#: under even odds: a peak the detector itself doubts is not worth a second reading. (The value
#: was chosen on the project's own bench sets, not checked on data kept out of that choice.)
NEARBY_TILE_FLOOR = 0.45
#: ... and a moved patch stands as a tile where the model names one at this confidence or more.
NEARBY_TILE_SURE = 0.5
#: Spread of a target peak (heat-map cells).
SIGMA = 0.9
MODEL_NAME = "detector.onnx"


def marker_is_token(game: str) -> bool:
    """Whether ``game``'s first-player marker is a round token wider than a tile (Summer
    Pavilion's), not a tile of the tiles' own shape (Azul's square one): the game of rhombuses
    has the token (``locate.tile_polygon``'s ``token``)."""
    return GAMES[game].shape == "rhombus"


def game_channels(game: str | None) -> tuple[np.ndarray, list[str]]:
    """The heat maps a game's tiles use (every map for None), and the kind each one names
    (``game/kind`` for None)."""
    if game is None:
        return np.arange(len(KINDS)), list(KINDS)
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: expected one of {tuple(GAMES)}")
    cols = [i for i, k in enumerate(KINDS) if k.startswith(game + "/")]
    return np.array(cols), [KINDS[i].split("/", 1)[1] for i in cols]


def without_kinds(heat: np.ndarray, game: str, kinds: Collection[str]) -> np.ndarray:
    """``heat`` (K x h x w) with the maps of ``game``'s ``kinds`` cleared (those the game's
    options rule out, ``classify.ruled_out``): their peaks are named by the next likeliest kind,
    or are no tile. ``heat`` itself where there are none."""
    cols, names = game_channels(game)
    cleared = [c for c, kind in zip(cols, names) if kind in kinds]
    if not cleared:
        return heat
    heat = heat.copy()
    heat[cleared] = 0.0
    return heat


@dataclass(frozen=True)
class Detection:
    """A tile found in the view: its centre in view pixels, kind and confidence (peak height)."""

    center: tuple[float, float]
    kind: str
    confidence: float


# --------------------------------------------------------------------------- training targets


def heatmap_targets(view_shape: tuple[int, int], centres: np.ndarray, channels: np.ndarray,
                    ignore_centres: np.ndarray, ignore_polygons: list[np.ndarray], tile_px: float
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Targets for a view of ``view_shape`` (h, w pixels): K x h/STRIDE x w/STRIDE heat maps with a
    Gaussian peak (exactly 1 at its cell) at each tile centre (view pixels) in its channel, and a
    weight map that is 0 where nothing should be learned: around tiles that cannot be seen
    (``ignore_centres``, under a hand) and inside ``ignore_polygons`` (the boards, read slot by slot)."""
    h, w = (view_shape[0] + STRIDE - 1) // STRIDE, (view_shape[1] + STRIDE - 1) // STRIDE
    heat = np.zeros((len(KINDS), h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for (cx, cy), ch in zip(np.asarray(centres, np.float64).reshape(-1, 2) / STRIDE, channels):
        ix, iy = int(round(cx)), int(round(cy))
        if not (0 <= ix < w and 0 <= iy < h):
            continue
        x0, x1, y0, y1 = max(ix - 4, 0), min(ix + 5, w), max(iy - 4, 0), min(iy + 5, h)
        g = np.exp(-((xx[y0:y1, x0:x1] - ix) ** 2 + (yy[y0:y1, x0:x1] - iy) ** 2) / (2 * SIGMA ** 2))
        np.maximum(heat[ch, y0:y1, x0:x1], g, out=heat[ch, y0:y1, x0:x1])
    weight = np.ones((h, w), np.uint8)
    for poly in ignore_polygons:
        cv2.fillPoly(weight, [np.round(np.asarray(poly) / STRIDE * 16).astype(np.int32)], 0, cv2.LINE_8, 4)
    r = max(1, int(round(tile_px / STRIDE)))
    for cx, cy in np.asarray(ignore_centres, np.float64).reshape(-1, 2) / STRIDE:
        cv2.circle(weight, (int(round(cx)), int(round(cy))), r, 0, -1)
    return heat, weight.astype(np.float32)


# --------------------------------------------------------------------------- reading heat maps


def peaks(heat: np.ndarray, game: str | None, threshold: float = THRESHOLD) -> list[Detection]:
    """Tiles in one set of heat maps (K x h x w, probabilities): local maxima (3 x 3) of the
    strongest of the game's kinds (any kind for None) above ``threshold``, with that kind. In
    Summer Pavilion, peaks of the tiles' kinds within :data:`TOKEN_GAP_MM` of a start-player
    token's peak above THRESHOLD are the token's rim, and dropped."""
    cols, kinds = game_channels(game)
    # A game's maps are consecutive: a slice, not a copy of them (a few ms a frame).
    sub = heat[cols[0]:cols[-1] + 1] if np.array_equal(cols, np.arange(cols[0], cols[-1] + 1)) else heat[cols]
    best = sub.max(axis=0)
    local = cv2.dilate(best, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((best >= local) & (best > threshold))
    # Sub-cell centres: the heat-weighted mean of the 3 x 3 cells around each peak.
    padded = np.pad(best, 1)
    dy, dx = np.mgrid[-1:2, -1:2].reshape(2, 1, 9)
    win = padded[ys[:, None] + 1 + dy, xs[:, None] + 1 + dx]
    total = win.sum(axis=1)
    cy = ys + (win * dy).sum(axis=1) / total
    cx = xs + (win * dx).sum(axis=1) / total
    named = sub[:, ys, xs].argmax(axis=0)
    # Two tiles lying flat never have centres closer than MIN_GAP_MM: a weaker peak that near a
    # stronger one is the same tile (or the gap between two), not another. Between peaks of one
    # kind the gap is also measured once they are placed within their cells (three cells apart
    # may then be two thirds of it: one tile's two peaks); between kinds only cell to cell (the
    # first-player marker may lie on the edge of a tile, and its weak peak must stay).
    order = np.argsort(-best[ys, xs], kind="stable")
    ys, xs, cy, cx, named = ys[order], xs[order], cy[order], cx[order], named[order]
    gap = MIN_GAP_MM * VIEW_PPM / STRIDE
    fy, fx = ys.astype(np.float64), xs.astype(np.float64)
    near = (fy[:, None] - fy[None]) ** 2 + (fx[:, None] - fx[None]) ** 2 < gap * gap
    near |= ((cy[:, None] - cy[None]) ** 2 + (cx[:, None] - cx[None]) ** 2 < gap * gap) & (named[:, None] == named[None])
    keep = np.ones(len(ys), bool)
    for i in range(len(ys)):
        if keep[i]:
            keep[i + 1:] &= ~near[i, i + 1:]
    ys, xs, cy, cx, named = ys[keep], xs[keep], cy[keep], cx[keep], named[keep]
    if game is not None and marker_is_token(game):
        is_marker = np.array([kinds[int(k)] == MARKER for k in named], bool)
        token_gap = TOKEN_GAP_MM * VIEW_PPM / STRIDE
        rim = np.zeros(len(ys), bool)
        for ty, tx in np.stack([cy, cx], 1)[is_marker & (best[ys, xs] > THRESHOLD)]:
            rim |= ~is_marker & ((cy - ty) ** 2 + (cx - tx) ** 2 < token_gap * token_gap)
        ys, xs, cy, cx, named = ys[~rim], xs[~rim], cy[~rim], cx[~rim], named[~rim]
    return [Detection((float(x * STRIDE), float(y * STRIDE)), kinds[int(k)], float(best[y0, x0]))
            for x, y, k, y0, x0 in zip(cx, cy, named, ys, xs)]


def with_proposed_marker(heat: np.ndarray, game: str, floor: float = THRESHOLD) -> list[Detection]:
    """The tiles of ``game`` in ``heat`` (:func:`peaks`); where no first-player marker is among
    them, also the marker's strongest peak down to :data:`MARKER_FLOOR`, proposed: the game has
    one marker, always on the table (``analyze.one_marker`` keeps it only where nothing else is
    read as the marker). With a ``floor`` below THRESHOLD, every peak down to it follows instead,
    the marker's too, as candidates for the candidate model (:func:`confirmed`): a marker peak
    on a board, dropped later, no longer hides a weak one beside it."""
    every = peaks(heat, game, min(floor, MARKER_FLOOR))
    found = [d for d in every if d.confidence > THRESHOLD]
    if floor < THRESHOLD:
        return found + [d for d in every if floor < d.confidence <= THRESHOLD]
    if not any(d.kind == MARKER for d in found):
        weak = [d for d in every if d.kind == MARKER and d.confidence > MARKER_FLOOR]
        found += weak[:1]  # peaks come strongest first
    return found


# --------------------------------------------------------------------------- the model


class DetectorError(ShippedModelError):
    """The detector model is missing, altered (SHA-256 mismatch) or unreadable."""


@dataclass
class TileDetector:
    """The heat-map network; build it with :func:`load_detector`."""

    session: Any
    version: str
    sha256: str
    metadata: dict[str, str] = field(default_factory=dict)

    def heatmaps(self, view: np.ndarray) -> np.ndarray:
        """K x h/STRIDE x w/STRIDE heat maps of a uint8 BGR top-down view."""
        view = np.asarray(view)
        if view.ndim != 3 or view.shape[2] != 3 or view.dtype != np.uint8:
            raise ValueError(f"a view must be h x w x 3 uint8 BGR, not {view.shape} {view.dtype}")
        # Pad to a multiple of the network's coarsest step; the padding's cells are cut off again.
        h, w = view.shape[:2]
        ph, pw = -h % INPUT_MULTIPLE, -w % INPUT_MULTIPLE
        if ph or pw:
            view = cv2.copyMakeBorder(view, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(0, 0, 0))
        x = view[None].astype(np.float32)
        heat = self.session.run(None, {self.session.get_inputs()[0].name: x})[0][0]
        return heat[:, :(h + STRIDE - 1) // STRIDE, :(w + STRIDE - 1) // STRIDE]


def load_detector(path: str | Path | None = None, threads: int = 1) -> TileDetector:
    """Load the detector (by default the package's ``detector.onnx``) after checking its SHA-256
    against ``<model>.sha256``. Raises :class:`DetectorError` naming the file and the reason."""
    path = Path(path) if path is not None else package_file(MODEL_NAME)
    session, actual = verified_session(path, "model.name.detector", DetectorError, threads=threads)
    meta = dict(session.get_modelmeta().custom_metadata_map)
    try:
        kinds = tuple(json.loads(meta["kinds"]))
        ppm, stride, version = float(meta["view_ppm"]), int(meta["stride"]), meta["version"]
    except (KeyError, ValueError, TypeError) as exc:
        raise DetectorError("model.detector_metadata", path=str(path), reason=str(exc)) from exc
    if kinds != KINDS or ppm != VIEW_PPM or stride != STRIDE:
        raise DetectorError("model.detector_trained", path=str(path), kinds=str(kinds), ppm=ppm, stride=stride,
                            want_kinds=len(KINDS), want_ppm=VIEW_PPM, want_stride=STRIDE)
    return TileDetector(session, version, actual, meta)


# --------------------------------------------------------------------------- tiles on the table


@dataclass(frozen=True)
class Found:
    """A loose tile: its zone (a display, the centre or beside a board: :attr:`Zone.loose`), kind,
    the detector's confidence and its outline in the image (a tile-sized square around its centre,
    4 x 2 pixels); ``checked`` once the candidate model read it (:func:`confirmed`)."""

    zone: Zone
    kind: str
    confidence: float
    outline: np.ndarray
    checked: bool = False


#: A tile centre this far inside a board's edge (mm) lies on the board: its slots are read instead.
#: Measured in the board's own frame: here from the profile's corners, and again once the
#: boards are registered (``analyze.off_the_boards``).
ON_BOARD_MM = 3.0


def on_the_boards(mm: np.ndarray, plane: Any) -> np.ndarray:
    """Which plane points (n x 2 mm) lie more than :data:`ON_BOARD_MM` inside one of the
    ``plane``'s boards: measured in each board's own frame (its corners' homography), not on the
    plane, whose single homography can be a tenth off in scale at a far board."""
    from . import locate

    in_image = plane.image_points(mm)
    inside = np.zeros(len(mm), bool)
    for quad, homography in zip(plane.boards, plane.homographies):
        # The board's outline on the plane is its layout's rectangle, moved and turned.
        size = (float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[3] - quad[0])))
        inside |= locate.depth_on_board(in_image, homography, size) > ON_BOARD_MM
    return inside


def player_heatmaps(detector: TileDetector, view: Any, plane: Any) -> np.ndarray:
    """The ``detector``'s heat maps of the part of a top-down ``view`` (``locate.rectify`` at
    :data:`VIEW_PPM`) that :func:`loose_tiles` searches: around the players' boards."""
    return detector.heatmaps(view.around_players(plane, STRIDE).image)


def loose_tiles(detector: TileDetector, view: Any, plane: Any, game: str, discs: list[Any],
                unseen: list[Any] = (), floor: float = THRESHOLD, heat: np.ndarray | None = None,
                without: Collection[str] = ()) -> list[Found]:
    """The tiles of ``game`` off the boards in a top-down ``view`` (``locate.rectify`` at
    :data:`VIEW_PPM`), each in its zone: on a disc of ``discs``, in the centre or beside a board.
    Peaks on a display that should stand there but was not seen (``unseen``, from
    ``locate.unseen_displays``, moved onto the four tiles that may hide it,
    ``locate.onto_their_tiles``) are in its zone, numbered after ``discs``
    (``analyze.TableLocator`` decides whether it is there). Peaks on the boards themselves and
    far from every zone are dropped. Only the part of the view around the players' boards is searched (not the scoring
    board's). With a ``floor`` below THRESHOLD, the peaks down to it are candidates too
    (:func:`with_proposed_marker`), for :func:`confirmed` to settle. ``heat``: the detector's
    :func:`player_heatmaps` of ``view``, where already made (else they are made here); the maps
    of the kinds ``without`` (those the game's options rule out) are cleared (:func:`without_kinds`)."""
    from . import locate
    from ..calibration.geometry import tile_mm

    if abs(view.ppm - VIEW_PPM) > 1e-9:
        raise ValueError(f"the detector reads views at {VIEW_PPM} px/mm, not {view.ppm}")
    half = tile_mm(GAMES[game]) / 2
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    # Loose tiles lie among the players' boards: the scoring board's side of the view is skipped.
    window = view.around_players(plane, STRIDE)
    found = with_proposed_marker(without_kinds(detector.heatmaps(window.image) if heat is None else heat, game, without),
                                 game, floor)
    if not found:
        return []
    mm = window.to_mm(np.array([d.center for d in found], np.float64))
    on_board = on_the_boards(mm, plane)
    # The candidates below THRESHOLD take their zones among themselves: of more than four peaks on
    # a display, the four that lie most as its tiles do are its (``locate.zones_of``), and a weak
    # peak there must not push one of them out into the centre.
    weak = np.array([floor < d.confidence <= THRESHOLD for d in found])
    # A display not seen stands where its four tiles are, a little off even spacing round the ring.
    unseen = locate.onto_their_tiles(list(unseen), mm[~weak & ~on_board], plane, game, list(discs))
    every_disc = list(discs) + list(unseen)
    zones: list[Zone | None] = [None] * len(found)
    # Peaks on a board are dropped below: they take no zone (most of an Azul table's, the wall's
    # printed tiles among them), and cannot count among a display's.
    for chosen in (np.flatnonzero(~weak & ~on_board), np.flatnonzero(weak & ~on_board)):
        if len(chosen):
            for n, zone in zip(chosen, locate.zones_of(mm[chosen], plane, every_disc, game)):
                zones[n] = zone
    # But where four peaks above THRESHOLD already hold a display, a weak one there is a fifth.
    # It stays on the display only where it makes, with three of the four, a likelier display's
    # four than they do. Otherwise, farther out it is a tile pushed against the display, and takes
    # the zone it would have without it; well inside the disc, it is one of the four seen twice,
    # and is dropped (``locate.zones_of``).
    for n in np.flatnonzero(weak):
        zone = zones[n]
        if zone is None or zone.kind != DISPLAY:
            continue
        held = [k for k in np.flatnonzero(~weak) if zones[k] == zone]
        if len(held) >= 4:
            zones[n] = locate.zones_of(mm[held + [n]], plane, every_disc, game)[-1]
    out = []
    for d, at, zone, on in zip(found, mm, zones, on_board):
        if on or zone is None:
            continue
        out.append(Found(zone, d.kind, d.confidence, plane.image_points(at + square)))
    return out


def off_the_displays(zone: Zone) -> bool:
    """Whether a loose tile's zone is the centre or beside a board (a hand), where the
    candidate model reads the tiles, and not a factory display."""
    return zone.kind in _OFF_THE_DISPLAYS


_OFF_THE_DISPLAYS = frozenset((CENTER, HAND))


def candidate_patches(image: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """The candidate model's patches: each tile-sized outline (N x 4 x 2 pixels) with
    :data:`CANDIDATE_MARGIN` of context (``crops.cut``)."""
    from . import crops

    return crops.cut(image, outlines, CANDIDATE_MARGIN)


def confirmed(found: list[Found], image: np.ndarray, game: str, model: Any | None, without: Collection[str] = ()
              ) -> list[Found]:
    """The tiles of ``found`` (:func:`loose_tiles`, down to :data:`CANDIDATE_FLOOR`) that stand.
    In the centre and beside the boards, the candidate ``model`` (a tile classifier of
    :func:`candidate_patches`) reads every tile the detector found but the first-player marker
    above THRESHOLD (``analyze.one_marker`` settles it), and its reading stands: no tile, or the
    tile it names (but a tile the detector named white stays white where the model names the
    marker: the marker looks like a white tile, and ``analyze.one_marker`` settles markers; a
    black tile the model names the marker with full confidence is the marker).
    Whether a tile lies there is settled first, by all the tile kinds together against
    empty (``classify_presence``), among the kinds the game's options allow (all but
    ``without``). Those it read are ``checked`` and keep the detector's
    confidence, so that a zone with a peak below :data:`SURE` stays uncertain. It reads the weak
    peaks of tiles on the displays too, and those it names a tile (not the marker) stand,
    ``checked``: they only fill a display's places read empty (``analyze.settled_displays``).
    The strong peaks off the displays it read as no tile are read again round them, for a tile
    off its peak (:func:`tiles_nearby`); in Summer Pavilion, where no marker stands, the peaks
    it read as no tile are searched round for the start-player token (:func:`marker_nearby`).
    Without a model, the candidates below THRESHOLD are dropped (but the proposed marker) and
    the rest stand as found."""
    if model is None:
        return [f for f in found if f.confidence > THRESHOLD or f.kind == MARKER]
    asked = [n for n, f in enumerate(found)
             if ((f.kind != MARKER or f.confidence <= THRESHOLD) and off_the_displays(f.zone))
             or (f.confidence <= THRESHOLD and f.kind != MARKER and not off_the_displays(f.zone))]
    outlines = np.array([found[n].outline for n in asked], np.float64).reshape(-1, 4, 2)
    answers = dict(zip(asked, model.classify_presence(candidate_patches(image, outlines), game, without) if asked else []))
    out = []
    for n, f in enumerate(found):
        if n not in answers:
            if f.confidence > THRESHOLD:  # a weak marker peak on a display is no candidate
                out.append(f)
        elif answers[n][0] is not None and (off_the_displays(f.zone) or answers[n][0] != MARKER):
            kind = answers[n][0]
            out.append(replace(f, kind="white" if kind == MARKER and f.kind == "white" else kind, checked=True))
    dropped = [found[n] for n, answer in answers.items() if answer[0] is None and off_the_displays(found[n].zone)]
    out += tiles_nearby(dropped, out, image, game, model, without)
    if not marker_is_token(game) or any(f.kind == MARKER for f in out):
        return out
    return out + marker_nearby(dropped, out, image, game, model)


#: The eight moves of a patch round a peak (:func:`_moved_reads`), along a tile's sides and diagonals.
_STEPS = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]


def _moved_reads(peaks: list[Found], image: np.ndarray, game: str, model: Any, without: Collection[str] = ()
                 ) -> tuple[np.ndarray, list[Any]]:
    """Each peak's outline moved :data:`MARKER_SEARCH_STEP` of a tile's side each way
    (:data:`_STEPS`, eight per peak, peak by peak), and the candidate ``model``'s reading of
    each (``classify_presence``), in one batch."""
    moved = np.array([f.outline + MARKER_SEARCH_STEP * (a * (f.outline[1] - f.outline[0]) + b * (f.outline[3] - f.outline[0]))
                      for f in peaks for a, b in _STEPS], np.float64).reshape(-1, 4, 2)
    return moved, model.classify_presence(candidate_patches(image, moved), game, without)


def _lone(outline: np.ndarray, centres: np.ndarray) -> bool:
    """Whether no tile centre of ``centres`` (n x 2 pixels) lies within :data:`LONE_SIDES` of
    the tile side of ``outline`` from its centre."""
    side = float(np.linalg.norm(outline[1] - outline[0]))
    return not len(centres) or float(np.linalg.norm(centres - outline.mean(axis=0), axis=1).min()) >= LONE_SIDES * side


def _centres(tiles: list[Found]) -> np.ndarray:
    return np.array([f.outline.mean(axis=0) for f in tiles], np.float64).reshape(-1, 2)


def tiles_nearby(dropped: list[Found], standing: list[Found], image: np.ndarray, game: str, model: Any,
                 without: Collection[str] = ()) -> list[Found]:
    """The tiles off the centres of their peaks: each of the ``dropped`` peaks (read as no tile
    by the candidate ``model``) that the detector rated above :data:`NEARBY_TILE_FLOOR` is read
    again on its patch moved round it (:func:`_moved_reads`), and the moved patch the model
    names a tile (not the marker) with the highest confidence, :data:`NEARBY_TILE_SURE` or more,
    stands as that tile, ``checked``, keeping the peak's confidence, where no ``standing`` tile
    (nor one found so before it) lies near it: a peak beside a tile that stands is that
    tile's, or the gap beside it."""
    peaks = [f for f in dropped if f.confidence > NEARBY_TILE_FLOOR]
    if not peaks:
        return []
    moved, reads = _moved_reads(peaks, image, game, model, without)
    centres, out = _centres(standing), []
    for n, peak in enumerate(peaks):
        named = [(reads[k][1], k) for k in range(n * len(_STEPS), (n + 1) * len(_STEPS))
                 if reads[k][0] not in (None, MARKER)]
        confidence, k = max(named, default=(0.0, -1))
        if confidence >= NEARBY_TILE_SURE and _lone(moved[k], centres):
            out.append(replace(peak, kind=reads[k][0], outline=moved[k], checked=True))
            centres = np.vstack([centres, moved[k].mean(axis=0)])
    return out


def marker_nearby(dropped: list[Found], standing: list[Found], image: np.ndarray, game: str, model: Any) -> list[Found]:
    """The first-player marker, where one of the ``dropped`` peaks (read as no tile by the
    candidate ``model``) lies on its rim (:data:`MARKER_SEARCH_STEP`): each such peak with no
    ``standing`` tile near it is read again on its patch moved along the tile's sides and
    diagonals (:func:`_moved_reads`), and the moved patch read as the marker with the highest
    confidence stands as the marker, ``checked``, where no standing tile lies near it either. An
    empty list where none is read so."""
    centres = _centres(standing)
    peaks = [f for f in dropped if _lone(f.outline, centres)]
    if not peaks:
        return []
    moved, reads = _moved_reads(peaks, image, game, model)
    best = max(((reads[k][1], k) for k in range(len(moved)) if reads[k][0] == MARKER), default=None)
    if best is None or not _lone(moved[best[1]], centres):
        return []
    return [replace(peaks[best[1] // len(_STEPS)], kind=MARKER, outline=moved[best[1]], checked=True)]
