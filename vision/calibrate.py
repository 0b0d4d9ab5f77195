"""Finding the boards without a profile: ``azulcam calibrate``.

1. :func:`board_candidates`: convex quadrilaterals among the image's edges, large enough to
   be a board, and where the board-finding model (:mod:`board_finder`) sees boards' cards in the
   whole photo; the board-fitting model (:mod:`board_fit`, :func:`identify`) fits each as the
   board it may be: learned models propose;
2. geometry decides (:mod:`outline`): each outline is fitted by the layout's printed slots,
   which every printing shares, and is a board where they line up on the photo's edges and not
   half a slot off;
3. where fewer boards than players are found, the others are sought on the table's plane that
   the ones found fix (:mod:`seek`): every board is a card of known size on it;
4. the boards are numbered from the one nearest the camera (the bottom of the image), then
   clockwise; each is fitted again by the board-fitting model where that fit lines up as well.

Where it cannot find a board it says so; corners can always be given by hand instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..calibration.layouts import a_board
from ..calibration.profile import PROFILE_FORMAT, BoardPlacement, board_homography, outlines_a_board, seat_order
from ..engine.errors import CodedError
from ..engine.games import GAMES, GameSpec
from ..engine.notice import Notice, chained
from .board_fit import BoardFit, BoardFitter, load_board_fitter
from .board_finder import BoardFinder, load_board_finder
from .outline import Gradients, outline_boards, outline_contrast, overlaps, register_outline, same_place
from .register import FIT_LAYOUT_PROBABILITY, fit_board, without_ipp
from .seek import seek_boards, table_view
from .verify import COLOURED_AGREEMENT, COLOURED_F, check_board

#: Boards are found in the photo shrunk to this many pixels on its long side at most: a phone's
#: photo shows them far larger than they need to be found, and costs as many times more to search.
FIND_LONG_SIDE = 1920
#: A board the board-fitting model takes for one (:data:`FIT_LAYOUT_PROBABILITY`) stands where its
#: outlines line up at least this much (:func:`~azulcam.vision.outline.outline_contrast`): half
#: of what a board found by its outlines alone needs, above the 95th percentile of the same
#: outlines put elsewhere on a table (two of the renderer's families).
MODEL_CONTRAST = 0.04
#: Boards lining up at least this much (:func:`~azulcam.vision.outline.outline_contrast`) fix the
#: table's plane together: nine true boards in ten on the renderer's own families do.
SURE_CONTRAST = 0.2
#: The board-fitting model's fit replaces the outlines' where it lines up no worse than this
#: much below it (:func:`_refined`).
REFIT_SLACK = 0.02


class CalibrationError(CodedError):
    """The boards could not be found or confirmed: ``code`` and ``params`` say how many were."""


@dataclass(frozen=True)
class Match:
    """A board found: its corners (TL, TR, BR, BL as the owner sees it), layout and how sure
    (how much better its slots' outlines line up there than half a slot off,
    :func:`~azulcam.vision.outline.outline_contrast`)."""

    corners: np.ndarray
    layout: str
    score: float


def board_candidates(grey: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Convex quadrilaterals (4 x 2, image pixels) that may be boards, rough: the board-fitting
    model takes outlines some centimetres off. From the image's edges at three strengths (a board
    on a grained table: its outline merges with the grain's weaker edges), and from the regions
    lighter or darker than the rest (Otsu), each region's outline or, failing four corners, its
    smallest enclosing rectangle."""
    out = []
    blurred = cv2.GaussianBlur(grey, (5, 5), 0)
    for low, high in ((30, 90), (60, 160), (100, 250)):
        edges = cv2.dilate(cv2.Canny(blurred, low, high), np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        out += [q for c in contours if cv2.contourArea(c) >= min_area for q in _quads(c, min_area, boxes=False)]
    _, light = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    opening = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    for mask in (light, 255 - light):
        contours, _ = cv2.findContours(cv2.morphologyEx(mask, cv2.MORPH_OPEN, opening), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        out += [q for c in contours if cv2.contourArea(c) >= min_area for q in _quads(c, min_area, boxes=True)]
    return out


def _quads(contour: np.ndarray, min_area: float, boxes: bool) -> list[np.ndarray]:
    """The convex quadrilateral of a contour's hull, where it has four corners; with ``boxes``,
    else its smallest enclosing rectangle."""
    hull = cv2.convexHull(contour)
    quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(quad) == 4 and cv2.isContourConvex(quad) and cv2.contourArea(quad) >= min_area:
        return [_clockwise(quad.reshape(4, 2).astype(np.float64))]
    if boxes:
        return [_clockwise(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64))]
    return []


def _clockwise(quad: np.ndarray) -> np.ndarray:
    """Corners in clockwise order on the image (y down), starting anywhere."""
    c = quad.mean(0)
    angles = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    return quad[np.argsort(angles)]


def identify(image: np.ndarray, quads: list[np.ndarray], fitter: BoardFitter | None = None) -> list[BoardFit]:
    """The board-fitting model's look at each candidate quadrilateral: what it shows, its corners
    fitted (twice: outlines of one board some centimetres apart end on the same fit, whichever
    is taken) and turned so that the owner's top left comes first."""
    return (fitter or load_board_fitter()).fit_many(image, quads)


def find_boards(image: np.ndarray, game: str, players: int, side: str = "colored",
                fitter: BoardFitter | None = None, least: int | None = None, finder: BoardFinder | None = None
                ) -> tuple[list[Match], Match | None]:
    """The players' boards (numbered: nearest the image's bottom first, then clockwise) and,
    for Summer Pavilion, the scoring board, the same in every process (OpenCV without IPP:
    :func:`~azulcam.vision.register.without_ipp`): proposed by the board-finding model
    (``finder``) and the photo's quadrilaterals, fitted by the board-fitting model (``fitter``;
    both by default the shipped ones), decided by their
    printed outlines (see the module's steps), in the photo shrunk to :data:`FIND_LONG_SIDE`.
    Raises :class:`CalibrationError` when fewer boards than players are found (than ``least``,
    where a photo may show only some of the boards)."""
    h, w = image.shape[:2]
    scale = min(1.0, FIND_LONG_SIDE / max(h, w))
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    with without_ipp():
        boards, scoring = _find_boards(small, game, players, side, fitter or load_board_fitter(),
                                       finder or load_board_finder(), players if least is None else least)
    if scale == 1.0:
        return boards, scoring
    # Corners are pixel centres: a pixel of the smaller photo covers 1 / scale of the photo's.
    grown = lambda m: Match((m.corners + 0.5) / scale - 0.5, m.layout, m.score)  # noqa: E731
    return [grown(m) for m in boards], grown(scoring) if scoring is not None else None


def photo_profile(image: np.ndarray, game: str, players: int, options: dict | None = None,
                  fitter: BoardFitter | None = None, least: int | None = None) -> dict:
    """The ``azulcam-profile/1`` of a photo nobody calibrated: its boards found
    (:func:`find_boards`), and their side, where ``options`` do not give it (``wall`` for Azul,
    ``side`` for Summer Pavilion), from their print (:func:`~azulcam.vision.verify.check_board`:
    the coloured side groups its slots' colours by the colour printed under them). Raises
    :class:`CalibrationError` where the boards (or Summer Pavilion's scoring board) are not
    found. With ``least``, a photo of fewer boards than players (``least`` of them or more) gives
    the profile of those it shows (``players`` the count found; :meth:`Profile.in_view` reads it
    for the whole table), with or without Summer Pavilion's scoring board."""
    spec = GAMES[game]
    options = dict(options or {})
    key = spec.face
    given = options.get(key)
    boards, scoring = find_boards(image, game, players, given or "colored", fitter, least)
    if spec.scoring_layout is not None and scoring is None and len(boards) == players:
        raise CalibrationError("calibration.no_scoring_board")
    if given is None:
        # Each side as the boards' print sees it (:func:`~azulcam.vision.verify.check_board`): the
        # side fewer boards deny; where as many deny either, the coloured side only where most
        # boards show its pattern beyond doubt (its tiles follow it too).
        denied, coloured = {}, 0
        for side in spec.faces:
            checks = [check_board(image, _placement(Match(m.corners, spec.layout({key: side}), m.score), p),
                                  board_homography(m.corners))
                      for p, m in enumerate(boards)]
            denied[side] = sum(c.verdict == "other_side" for c in checks)
            if side == "colored":
                coloured = sum(c.figures.get("printed_f", 0.0) >= COLOURED_F[spec.board]
                               and c.figures.get("agreement", 0.0) >= COLOURED_AGREEMENT for c in checks)
        side = (min(denied, key=denied.get) if denied["colored"] != denied["grey"]
                else "colored" if coloured > len(boards) / 2 else "grey")
        options[key] = side
        boards = [Match(m.corners, spec.layout({key: side}), m.score) for m in boards]
    for option, values in spec.options.items():
        if isinstance(values[0], bool):  # a variant (Azul's jokers): played without it unless given
            options.setdefault(option, values[0])
    return profile_json(image, game, boards, scoring, options)


def _find_boards(image: np.ndarray, game: str, players: int, side: str, fitter: BoardFitter, finder: BoardFinder,
                 least: int) -> tuple[list[Match], Match | None]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    grad = Gradients.of(grey)
    quads = finder.quads(image) + board_candidates(grey, min_area=0.004 * h * w)
    fits = identify(image, quads, fitter)
    # The model proposes (its fitted outlines, beside the raw ones); the boards' geometry decides.
    starts = [f.corners for f in fits] + quads
    spec = GAMES[game]
    player_layout = spec.layout({spec.face: side})
    chosen = _outlined(grad, grey, fits, starts, player_layout, players)
    # The boards whose print is confirmed (:func:`_confirmed`) come first.
    confirmed = [m for m in chosen if _confirmed(image, m)]
    chosen = confirmed + [m for m in chosen if not any(m is c for c in confirmed)]
    scoring = None
    if spec.scoring_layout is not None:
        rest = _outlined(grad, grey, fits, starts, spec.scoring_layout, 1, chosen[:players])
        scoring = rest[0] if rest else None
    # More boards of the game in view than players: a wrong --players would drop one unsaid.
    more = [m for m in confirmed[players:] if scoring is None or not overlaps(m.corners, scoring.corners)]
    if more:
        raise CalibrationError("calibration.more_boards", found=players + len(more), game=game, players=players)
    if len(chosen) < players and least < players:
        chosen = confirmed  # some boards out of view: only those whose print is confirmed
    chosen = chosen[:players]
    if len(chosen) < least:
        for other in (s for s in GAMES.values() if s is not spec):
            seen = len(_outlined(grad, grey, fits, starts, other.layouts[0], players, chosen, seek=False))
            if seen:
                looks = (Notice("calibration.one_looks_like", n=seen, board=a_board(other)) if seen == 1
                         else Notice("calibration.some_look_like", n=seen, boards=Notice(f"boards_of.{other.name}")))
                raise CalibrationError("calibration.too_few_other_game", found=len(chosen), players=players, looks=looks)
        raise CalibrationError("calibration.too_few", found=len(chosen), players=players)
    chosen = _facing_out(chosen, [scoring] if scoring else [], spec)
    order = seat_order([m.corners.mean(0) for m in chosen])
    refined = [_refined(image, grad, chosen[i], fitter) for i in order]
    if scoring is not None:
        scoring = _refined(image, grad, scoring, fitter)
    return refined, scoring


def _outlined(grad: Gradients, grey: np.ndarray, fits: list[BoardFit], starts: list[np.ndarray], layout: str,
              wanted: int, taken: list[Match] = (), seek: bool = True) -> list[Match]:
    """The boards of ``layout``, best first (none overlapping another, nor a board ``taken``, of
    another layout, found already):

    - the board-fitting model's fits that it takes for such a board and whose outlines line up
      (:data:`MODEL_CONTRAST`; fitted by their outlines where those line up better);
    - then, while fewer than ``wanted``, the boards the ``starts`` lead to by their outlines
      (:func:`~azulcam.vision.outline.outline_boards`);
    - then, while still fewer (or where some line up only faintly beside others that line up
      surely: the better of the two stands), those sought on the table's plane beside the boards
      found (:mod:`~azulcam.vision.seek`)."""
    found: list[Match] = []

    def add(matches: list[Match]) -> None:
        for m in sorted(matches, key=lambda m: -m.score):
            if outlines_a_board(m.corners) and not any(overlaps(m.corners, o.corners) for o in [*taken, *found]):
                found.append(m)

    modelled: list[Match] = []
    places: list[list[Match]] = []  # the model's fits of this layout, grouped by place
    for f in fits:
        if f.probability(layout) >= FIT_LAYOUT_PROBABILITY and outlines_a_board(f.corners):
            fit = Match(f.corners, layout, outline_contrast(grad, f.corners, layout))
            group = next((g for g in places if same_place(g[0].corners, f.corners, 0.05)), None)
            if group is None:
                places.append([fit])
            else:
                group.append(fit)
    for group in places:
        # Outlines of one board some centimetres apart end on fits a little apart: the one that
        # lines up best stands for them, or the outlines' fit from it where they line up better
        # (a fit some centimetres off, on a board partly covered).
        best = max(group, key=lambda m: m.score)
        outlined = register_outline(grad, best.corners, layout)
        if outlined is not None and outlined.contrast > best.score and outlines_a_board(outlined.corners):
            best = Match(outlined.corners, layout, outlined.contrast)
        if best.score >= MODEL_CONTRAST:
            modelled.append(best)
    add(modelled)
    if len(found) < wanted:
        add([Match(f.corners, layout, f.contrast) for f in outline_boards(grad, starts, layout)])
    # A board lining up only faintly where others line up surely may be a fit half a board off (a
    # rough start on a board partly covered): it is sought again on the plane the sure ones fix,
    # and the better of the two stands.
    faint: list[Match] = []
    if any(m.score >= SURE_CONTRAST for m in [*found, *taken]):
        faint = [m for m in found if m.score < SURE_CONTRAST]
        found[:] = [m for m in found if m.score >= SURE_CONTRAST]
    anchors = sorted([*found, *taken], key=lambda m: -m.score)
    if seek and len(found) < wanted and anchors:
        # The plane from every board that lines up surely (one board's, carried across the table,
        # is a tenth off), else from the likeliest.
        sure = [m for m in anchors if m.score >= SURE_CONTRAST] or anchors[:1]
        view = table_view(grey, [(m.corners, m.layout) for m in sure])
        if view is not None:
            places = seek_boards(view, layout, [m.corners for m in anchors], wanted - len(found))
            # Few places, each where a board's print gathers: every one is fitted, however faint.
            faint += [Match(f.corners, layout, f.contrast) for f in outline_boards(grad, places, layout, min_promise=-1.0)]
    add(faint)
    return sorted(found, key=lambda m: -m.score)


def _facing_out(boards: list[Match], others: list[Match], spec: GameSpec) -> list[Match]:
    """Summer Pavilion's boards (``spec.board`` ``stars``) turned so that each faces away from the
    middle of the boards: the layout is the same turned half round (its stars), so its geometry
    cannot tell which side its owner sits at; the owner sits at the table's edge, the boards'
    middle is the table's. Boards of a wall are left as they are: their print says its top."""
    everything = boards + others
    if len(everything) < 2 or spec.board != "stars":
        return boards
    middle = np.mean([m.corners.mean(axis=0) for m in everything], axis=0)
    out = []
    for m in boards:
        centre = m.corners.mean(axis=0)
        # The owner's side is the bottom edge (BR, BL): it should lie farther from the middle.
        down = lambda c: float(np.dot((c[2] + c[3]) / 2 - centre, centre - middle))  # noqa: E731
        turned = np.roll(m.corners, 2, axis=0)
        out.append(Match(turned, m.layout, m.score) if down(turned) > down(m.corners) else m)
    return out


def _refined(image: np.ndarray, grad: Gradients, match: Match, fitter: BoardFitter) -> Match:
    """A board found by its outlines, fitted again by the board-fitting model where that fit is
    the same board and lines up at least as well (:func:`~azulcam.vision.outline.outline_contrast`):
    on a printing it knows, the model's fit is the finer."""
    reg = fit_board(image, match.corners, match.layout, keeps_shape=False, fitter=fitter)
    if reg.aligned and outlines_a_board(reg.corners) and same_place(reg.corners, match.corners, 0.05) \
            and outline_contrast(grad, reg.corners, match.layout) >= match.score - REFIT_SLACK:
        return Match(reg.corners, match.layout, match.score)
    return match


def _placement(match: Match, player: int | None = None) -> BoardPlacement:
    return BoardPlacement(player, match.layout, tuple((float(x), float(y)) for x, y in match.corners))  # type: ignore[arg-type]


def _confirmed(image: np.ndarray, match: Match) -> bool:
    """Whether the photo shows the whole board of ``match``'s layout there, uncovered."""
    check = check_board(image, _placement(match), board_homography(match.corners))
    return check.verdict == "match" and not check.covered


def _where(match: Match) -> dict[str, float]:
    """Where a board lies, as a message's parameters: its centre's ``x`` and ``y``."""
    x, y = match.corners.mean(axis=0)
    return {"x": float(x), "y": float(y)}


def confirm_boards(image: np.ndarray, boards: list[Match]) -> None:
    """Raises :class:`CalibrationError` unless the photo shows each board whole, bare of hands, of
    its layout's game and side (:func:`~azulcam.vision.verify.check_board`): a profile is the
    reference for every later reading, so a doubtful outline is refused now rather than misread
    later. The message names the boards confirmed and those not, by their centres."""
    checks = [check_board(image, _placement(m, p), board_homography(m.corners)) for p, m in enumerate(boards)]
    bad = [(m, c) for m, c in zip(boards, checks) if c.verdict != "match" or c.covered]
    if not bad:
        return
    good = [Notice("calibration.confirmed_at", player=p, **_where(m))
            for p, (m, c) in enumerate(zip(boards, checks)) if c.verdict == "match" and not c.covered]
    why = []
    for m, c in bad:
        if c.mismatch:  # the likely mistake, by what the board looks like: calibration.unconfirmed.other_game, ...
            why.append(Notice(f"calibration.unconfirmed.{c.verdict}", seen=c.seen_as(), **_where(m)))
        elif c.covered:
            parts = chained("list.and", [Notice(f"quarter.{part.replace(' ', '_')}") for part in c.covered])
            why.append(Notice("calibration.unconfirmed.covered", parts=parts, **_where(m)))
        else:
            why.append(Notice("calibration.unconfirmed.unsure", layout=m.layout, **_where(m)))
    raise CalibrationError("calibration.unconfirmed", bad=len(bad), boards=len(boards), why=why,
                           confirmed=chained("list.next", good) if good else Notice("calibration.none_confirmed"))


def profile_json(image: np.ndarray, game: str, boards: list[Match], scoring: Match | None, options: dict) -> dict:
    """The ``azulcam-profile/1`` of the boards found, for a game with ``options``."""
    h, w = image.shape[:2]
    placement = lambda m: {"layout": m.layout, "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in m.corners]}  # noqa: E731
    return {"format": PROFILE_FORMAT, "game": game, "image_size": [w, h], "options": options, "players": len(boards),
            "boards": [{"player": p, **placement(m)} for p, m in enumerate(boards)],
            "scoring_board": placement(scoring) if scoring else None, "colors": None}
