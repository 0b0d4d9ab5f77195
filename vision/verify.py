"""Does the photo show the boards the profile names, where it puts them?

A reading with the wrong profile (another game, the other side of the boards, boards moved or
covered) would be a confident wrong answer. This step looks at each board the profile places
and asks what every printing of the game shares, never our own art:

- **the game**, from the directions of the board's printed edges: an Azul board is a grid of
  squares (edges along its sides), a Summer Pavilion board is stars of 60-degree rhombuses
  (edges at 30, 90 and 150 degrees). The histogram of edge directions in the board's own
  plane is compared with each layout's own (:func:`direction_match`); it holds under any art,
  light, blur or scale, since it uses only the slots' shapes;
- **the side**, from the colours printed under the slots: on a coloured side, the spaces
  printed in one colour look alike and unlike the others (a tile there has the same colour), so
  the spread between those groups of slots is far larger than within them, and a slot's nearest
  slot in colour is printed the same colour (:func:`printed_pattern`: light and white balance
  move every group alike). On a grey side neither holds more than chance allows;
- **what is covered**: a quarter of the board whose edge directions no longer match its layout
  while the whole still does is under a hand or out of view; it is read, with a warning.

:func:`check_boards` gives one :class:`BoardCheck` per board; ``analyze`` refuses a photo whose
boards do not match (unless forced) and adds the warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from ..calibration.layouts import a_board, layout_game, load_layout
from ..calibration.profile import BoardPlacement
from ..engine.games import GAMES, GameSpec
from ..engine.notice import Notice

#: Edge directions are binned by this many degrees over 0..180.
_BIN_DEG = 5
#: The rectified view's side in pixels: about the board's own size in the photo (no detail is
#: invented by upsampling a far board), within these bounds.
_VIEW_MIN, _VIEW_MAX = 96, 480
#: A board's edge directions must match its layout's at least this well (a correlation) to
#: confirm the game; a quarter of the board below it is taken as covered. A random direction
#: histogram correlates near 0 with either game's; whole boards the renderer draws, in view,
#: match their own game's mostly above 0.75 and the other game's mostly below 0.35.
MATCHES = 0.4
#: ... and the other game's layout must match it by this much more to call it the other game.
#: Between the two, neither is sure (a board mostly covered): nothing is refused.
OTHER_GAME_BY = 0.25
#: On a board too small or blurred to read its slots' edges well (:data:`_SLOT_PX`), the other
#: game's layout must match at least this well.
OTHER_SURE = 0.6
#: A coloured side's printed pattern: the F statistic of the slots' colours grouped by the colour
#: printed under them, by how the board is drawn (``spec.board``), which decides how its printed
#: colours group. Under no pattern (a grey side) F has expectation 1; its 0.1 % tail is about
#: 7 for Azul's wall (4 and 20 degrees of freedom), hence the wall's 8. A grey Summer Pavilion
#: board whose stars were built one colour each also groups by colour (F up to 26 on the
#: renderer's tables), so on stars the coloured side is called only far above chance. A grey
#: side is called only near chance.
COLOURED_F = {"wall": 8.0, "stars": 40.0}
GREY_F = 3.0
#: ... and the nearest-slot agreement (:class:`PrintedPattern`) must say the same: by chance it is
#: one in the number of colours (0.2 for Azul, 0.17 for Summer Pavilion); a grey side is called
#: at no more than twice that, a coloured side where four slots in five agree. A hand over half a
#: coloured wall kept it near 0.5 on the renderer's tables (the F statistic then falls to
#: chance), and a grey board whose stars were built one colour each reached 0.61.
COLOURED_AGREEMENT = 0.8
GREY_AGREEMENT = 0.4
#: The board's outer band (a share of its side) is left out of the edge directions: every board's
#: outline is a square, whatever the game.
_OUTLINE_BAND = 0.04
#: A quarter of the board is judged covered or not only when it holds this share of the layout's
#: slot area (Azul's top left holds two pattern lines and the score track: too little to tell).
_PART_SLOTS = 0.15
#: A board is called another game's, or no board at all, only where its slots are this many
#: pixels across in the photo (the square root of a slot's area): below it a blurred, far board
#: keeps too little of its print's edges to say (it is read, with a warning).
_SLOT_PX = 12.0
#: A slot's area for its edge directions: its polygon grown by this factor about its centre, so
#: that the outline printed round it counts.
_SLOT_GROWTH = 1.2


@dataclass(frozen=True)
class BoardCheck:
    """What the photo shows where the profile puts one board.

    ``verdict``: ``match``; ``other_game`` or ``other_side`` (the board is printed for another
    game or side: ``seen`` names the layout it looks like); ``nothing`` (no board's print where
    the profile puts it); ``unsure`` (too little in view to tell, read anyway). ``covered``
    names the parts of a matching board that look covered or out of view. ``who`` is the board
    as a message (:func:`who_of`)."""

    who: Notice
    layout: str
    verdict: str
    seen: str | None = None
    covered: tuple[str, ...] = ()
    figures: dict[str, float] = field(default_factory=dict)

    @property
    def mismatch(self) -> bool:
        return self.verdict in ("other_game", "other_side", "nothing")

    def seen_as(self) -> Notice:
        """What the board looks like, for a mismatch, as a message: ``looks like an Azul board``,
        ``looks like the grey side (or a hand covers most of its print)``, ``shows nothing of its
        print``."""
        if self.verdict == "other_game":
            return Notice("looks.like", board=a_board(self._seen_game))
        if self.verdict == "other_side":
            return Notice("looks.grey" if "grey" in (self.seen or "") else "looks.colored")
        return Notice("looks.nothing", layout=self.layout)

    @property
    def reason_code(self) -> str:
        """The mismatch as a catalogue code: ``reason.other_game.azul`` (it looks like an Azul
        board), ``reason.other_side.grey``, ``reason.nothing``, ..."""
        if self.verdict == "other_game":
            return f"reason.other_game.{self._seen_game.name}"
        if self.verdict == "other_side":
            return "reason.other_side.grey" if "grey" in (self.seen or "") else "reason.other_side.colored"
        return "reason.nothing"

    @property
    def _seen_game(self) -> GameSpec:
        """The game whose board another game's board looks like (``seen``, a shipped layout)."""
        spec = layout_game(self.seen or "")
        assert spec is not None, self.seen
        return spec

    def reason(self) -> Notice:
        """The mismatch as a message, naming the board and the likely cause."""
        if self.verdict == "other_game":
            return Notice("mismatch.other_game", board=self.who, seen=self.seen_as(),
                          game=Notice(f"game_title.{_game(self.layout).name}"), layout=self.layout)
        if self.verdict == "other_side":
            return Notice("mismatch.other_side", board=self.who, seen=self.seen_as(), layout=self.layout)
        if self.verdict == "nothing":
            return Notice("mismatch.nothing", board=self.who, layout=self.layout)
        return Notice("mismatch.none", board=self.who)


def who_of(placement: BoardPlacement) -> Notice:
    """The board ``placement`` places, as a message: ``the board of player 0`` (counted from 0, as
    the profile counts), ``the scoring board``."""
    return Notice("warning.scoring_board") if placement.player is None else Notice("who.board", player=placement.player)


def board_view(image: np.ndarray, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The board in its own plane (a square view about its size in the photo), the mask of the
    view's pixels to measure (inside the photo, off the board's outline) and the share of the
    board inside the photo."""
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[1, 0]], [[1, 1]], [[0, 1]]], np.float64), homography)
    corners = corners.reshape(4, 2)
    side = max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4))
    size = int(np.clip(side, _VIEW_MIN, _VIEW_MAX))
    to_view = homography @ np.diag([1.0 / size, 1.0 / size, 1.0])
    view = cv2.warpPerspective(image, to_view, (size, size), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), to_view, (size, size),
                                 flags=cv2.WARP_INVERSE_MAP | cv2.INTER_NEAREST, borderValue=0)
    # The photo's own border is an edge of no board: keep well clear of it.
    inside = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0
    band = max(1, int(round(_OUTLINE_BAND * size)))
    in_view = float(inside.mean())
    inside[:band, :] = inside[-band:, :] = inside[:, :band] = inside[:, -band:] = False
    return view, inside, in_view


@lru_cache(maxsize=None)
def layout_directions(layout_name: str) -> np.ndarray:
    """A layout's slot edges as a histogram of directions (by length, softened by a bin each way,
    centred and normalised)."""
    bins = 180 // _BIN_DEG
    hist = np.zeros(bins)
    for slot in load_layout(layout_name).slots:
        poly = np.asarray(slot.polygon, np.float64)
        for a, b in zip(poly, np.roll(poly, -1, axis=0)):
            d = b - a
            hist[int((np.degrees(np.arctan2(d[1], d[0])) % 180) // _BIN_DEG) % bins] += float(np.hypot(*d))
    hist = np.convolve(np.r_[hist[-2:], hist, hist[:2]], [0.25, 0.5, 1.0, 0.5, 0.25], "valid")
    hist -= hist.mean()
    return hist / np.linalg.norm(hist)


@dataclass(frozen=True)
class Edges:
    """A view's edges, measured once: each pixel's gradient magnitude and the direction of the edge
    through it (degrees, 0..180: an edge runs across its gradient)."""

    magnitude: np.ndarray
    direction: np.ndarray

    @classmethod
    def of(cls, view: np.ndarray) -> "Edges":
        grey = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
        gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
        magnitude, angle = cv2.cartToPolar(gx, gy, angleInDegrees=True)
        return cls(magnitude, (angle + 90.0) % 180.0)


def edge_directions(edges: Edges, mask: np.ndarray) -> np.ndarray | None:
    """The edges under ``mask`` as a centred, normalised histogram of directions (each weighed by
    its gradient magnitude); None where too little of the view is under the mask."""
    magnitude = edges.magnitude[mask]
    if magnitude.size < 0.05 * mask.size:
        return None
    hist, _ = np.histogram(edges.direction[mask], 180 // _BIN_DEG, (0.0, 180.0), weights=magnitude)
    hist -= hist.mean()
    norm = np.linalg.norm(hist)
    return hist / norm if norm > 0 else None


@lru_cache(maxsize=64)
def slot_area(layout_name: str, size: int) -> np.ndarray:
    """Where a layout's slots lie in a ``size`` x ``size`` view, each a little enlarged to take in
    its outline: the print there is the layout's, whatever else the board's printing shows (its
    frame, ornaments, the score track's numbers)."""
    area = np.zeros((size, size), np.uint8)
    for slot in load_layout(layout_name).slots:
        poly = np.asarray(slot.polygon, np.float64)
        centre = poly.mean(axis=0)
        grown = ((poly - centre) * _SLOT_GROWTH + centre) * size
        cv2.fillPoly(area, [np.round(grown).astype(np.int32)], 1)
    area.flags.writeable = False  # cached and shared
    return area > 0


def direction_match(edges: Edges, mask: np.ndarray, layout_name: str, quarter_turns: int = 0) -> float:
    """How well a view's edge directions where the layout's slots lie match the layout's own: a
    correlation (-1..1; 0 where nothing can be measured). With ``quarter_turns``, the layout is
    turned that many quarters on the (square) board first."""
    area = np.rot90(slot_area(layout_name, mask.shape[0]), quarter_turns)
    seen = edge_directions(edges, mask & area)
    turned = np.roll(layout_directions(layout_name), (quarter_turns % 2) * (90 // _BIN_DEG))
    return 0.0 if seen is None else float(seen @ turned)


def slot_px(layout_name: str, size: int) -> float:
    """A slot's size in a ``size``-pixel view: the square root of its median area."""
    areas = [abs(cv2.contourArea(np.asarray(slot.polygon, np.float32))) for slot in load_layout(layout_name).slots]
    return float(np.sqrt(np.median(areas))) * size


def _game(layout_name: str) -> GameSpec:
    """The game of a layout that loaded (:func:`~azulcam.calibration.layouts.load_layout` refuses
    a layout of no game's board)."""
    spec = layout_game(layout_name)
    assert spec is not None, layout_name
    return spec


def _other_games(spec: GameSpec) -> list[str]:
    """The boards of the other games a board of ``spec``'s game may be taken for: their first face."""
    return [other.layouts[0] for other in GAMES.values() if other is not spec]


#: The parts of a board, for what is covered: (name, x range, y range) in board fractions.
PARTS = (("top left", (0.0, 0.5), (0.0, 0.5)), ("top right", (0.5, 1.0), (0.0, 0.5)),
         ("bottom left", (0.0, 0.5), (0.5, 1.0)), ("bottom right", (0.5, 1.0), (0.5, 1.0)))


def covered_parts(edges: Edges, mask: np.ndarray, layout_name: str) -> tuple[str, ...]:
    """The quarters of a board whose edges match its layout less than :data:`MATCHES`, of those
    that hold at least :data:`_PART_SLOTS` of the layout's slot area (too few slots say nothing)."""
    size = mask.shape[0]
    slots = slot_area(layout_name, size)
    out = []
    for name, (x0, x1), (y0, y1) in PARTS:
        part = np.zeros_like(mask)
        part[int(y0 * size):int(y1 * size), int(x0 * size):int(x1 * size)] = True
        if (slots & part).sum() < _PART_SLOTS * slots.sum():
            continue
        if direction_match(edges, mask & part, layout_name) < MATCHES:
            out.append(name)
    return tuple(out)


@lru_cache(maxsize=64)
def printed_cells(coloured_layout: str, size: int) -> tuple[tuple[str, ...], tuple[np.ndarray, ...]]:
    """The slots with a printed colour in a ``size``-pixel view: their printed colours, and the
    flat pixel indices of each one's middle half (clear of its outline and of a tile's sides)."""
    colours, cells = [], []
    for slot in load_layout(coloured_layout).slots:
        if not slot.printed:
            continue
        poly = np.asarray(slot.polygon, np.float64)
        centre = poly.mean(axis=0)
        cell = np.zeros((size, size), np.uint8)
        cv2.fillPoly(cell, [np.round(((poly - centre) * 0.5 + centre) * size).astype(np.int32)], 1)
        indices = np.flatnonzero(cell)
        indices.flags.writeable = False  # cached and shared
        colours.append(slot.printed)
        cells.append(indices)
    return tuple(colours), tuple(cells)


@dataclass(frozen=True)
class PrintedPattern:
    """How the slots' colours follow the coloured side's print: ``f``, the F statistic of their
    colours grouped by the printed colour; ``agreement``, the share of slots whose nearest slot in
    colour is printed the same colour (by chance, about one in the number of colours)."""

    f: float
    agreement: float


def printed_pattern(view: np.ndarray, mask: np.ndarray, coloured_layout: str) -> PrintedPattern | None:
    """The slots' colours against the coloured side's print, or None where too few are in view.

    Each slot with a printed colour gives the median CIELAB colour of its middle half (lightness
    weighed half, since light falls off across a board). The F statistic needs every group to
    differ; the nearest-slot agreement holds where part of the board does (a hand over the rest
    makes the slots under it alike, whatever is printed there)."""
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    seen = mask.reshape(-1)
    colours, groups = [], []
    for printed, indices in zip(*printed_cells(coloured_layout, view.shape[0])):
        indices = indices[seen[indices]]
        if len(indices) < 3:
            continue
        colours.append(np.median(lab[indices], axis=0) * (0.5, 1.0, 1.0))
        groups.append(printed)
    kinds = sorted(set(groups))
    if len(colours) < 2 * len(kinds) or len(kinds) < 2:
        return None
    x, g = np.array(colours), np.array(groups)
    mean = x.mean(axis=0)
    between = sum((g == k).sum() * float(np.sum((x[g == k].mean(axis=0) - mean) ** 2)) for k in kinds)
    within = sum(float(np.sum((x[g == k] - x[g == k].mean(axis=0)) ** 2)) for k in kinds)
    distances = np.linalg.norm(x[:, None] - x[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    agreement = float(np.mean(g[distances.argmin(axis=1)] == g))
    return PrintedPattern(float((between / (len(kinds) - 1)) / (within / (len(x) - len(kinds)) + 1e-9)), agreement)


def check_board(image: np.ndarray, placement: BoardPlacement, homography: np.ndarray) -> BoardCheck:
    """What the photo shows where ``homography`` puts ``placement``'s board."""
    who, layout_name = who_of(placement), load_layout(placement.layout).name
    view, mask, in_view = board_view(image, homography)
    if in_view < 0.25:
        return BoardCheck(who, layout_name, "unsure", figures={"in_view": in_view})
    spec = _game(layout_name)
    if layout_name == spec.scoring_layout:
        return BoardCheck(who, layout_name, "match", figures={"in_view": in_view})
    edges = Edges.of(view)
    own = direction_match(edges, mask, layout_name)
    # The other game's board may lie any way round: the profile's corners were not set for it.
    other, other_layout = max((max(direction_match(edges, mask, name, turns) for turns in range(4)), name)
                              for name in _other_games(spec))
    figures = {"own": round(own, 3), "other": round(other, 3), "in_view": round(in_view, 3),
               "slot_px": round(slot_px(layout_name, view.shape[0]), 1)}
    sharp = figures["slot_px"] >= _SLOT_PX
    if other >= (MATCHES if sharp else OTHER_SURE) and other >= own + OTHER_GAME_BY:
        return BoardCheck(who, layout_name, "other_game", other_layout, figures=figures)
    if own < MATCHES:
        verdict = "nothing" if sharp and other < MATCHES and in_view > 0.9 else "unsure"
        return BoardCheck(who, layout_name, verdict, figures=figures)
    covered = covered_parts(edges, mask, layout_name)
    # The side is judged on the uncovered parts alone.
    seen_mask = mask.copy()
    size = view.shape[0]
    for name, (x0, x1), (y0, y1) in PARTS:
        if name in covered:
            seen_mask[int(y0 * size):int(y1 * size), int(x0 * size):int(x1 * size)] = False
    coloured, grey = spec.layout({spec.face: "colored"}), spec.layout({spec.face: "grey"})
    pattern = printed_pattern(view, seen_mask, coloured)
    verdict, seen = "match", None
    if pattern is not None:
        figures.update({"printed_f": round(pattern.f, 2), "agreement": round(pattern.agreement, 3)})
        says_grey = "grey" in layout_name
        if says_grey and pattern.f >= COLOURED_F[spec.board] and pattern.agreement >= COLOURED_AGREEMENT:
            verdict, seen = "other_side", coloured
        elif not says_grey and pattern.f <= GREY_F and pattern.agreement <= GREY_AGREEMENT and not covered:
            verdict, seen = "other_side", grey
    return BoardCheck(who, layout_name, verdict, seen, covered, figures)


#: A board whose edge directions correlate with its own layout's below this (a random
#: histogram's is near 0) shows no print of its game at all where the profile puts it: true
#: boards the renderer draws in view, sharp or not, match at 0.5 or more.
NO_PRINT = 0.15


def check_boards(image: np.ndarray, boards: list[tuple[BoardPlacement, np.ndarray]]) -> list[BoardCheck]:
    """One :class:`BoardCheck` per (placement, homography). Where not one player's board shows
    any print of its game (each mostly in view, each below :data:`NO_PRINT`, none more like the
    other game's), however small or blurred: no board lies where the profile puts them (another
    table, another camera, another game), each ``nothing``. One board alone may be under a hand."""
    checks = [check_board(image, placement, h) for placement, h in boards]
    players = [n for n, (placement, _) in enumerate(boards) if placement.player is not None]

    def bare_of_print(c: BoardCheck) -> bool:
        f = c.figures
        return c.verdict in ("unsure", "nothing") and f.get("in_view", 0.0) >= 0.5 and "own" in f \
            and f["own"] < NO_PRINT and f.get("other", 0.0) < MATCHES

    if players and all(bare_of_print(checks[n]) for n in players):
        for n in players:
            checks[n] = BoardCheck(checks[n].who, checks[n].layout, "nothing", figures=checks[n].figures)
    return checks
