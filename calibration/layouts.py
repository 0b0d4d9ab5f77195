"""Board layouts (``azulcam-layout/1``): every slot of a board side as a polygon, as data.

A layout says where each slot lies on a board, in fractions of the board's width and height
from its top left as its owner sees it. Five layouts ship with azulcam (``LAYOUT_NAMES``);
a user whose edition is printed differently can load an edited copy from a file instead
(see ``calibration/README.md``). The shipped files are written by
:func:`azulcam.calibration.geometry.build_layouts` from the measured board geometry and the Summer
Pavilion engine's topology; a test keeps the two equal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import cv2
import numpy as np
from pydantic import Field, model_validator

from ..engine.azul import SCORE_TRACK_TOP
from ..engine.errors import CodedError, show
from ..engine.games import GAMES, GameSpec
from ..engine.notice import Notice, chained
from ..engine.zones import CORNER, FLOOR_SPACE, LINE_SPACE, STAR_SPACE, WALL_SPACE, ZoneError
from ..engine.zones import Slot as SlotId
from ..formats import FormatError, checked
from ..formats.fields import Form, Name, Number, Text
from ..formats.problems import refusal

LAYOUT_FORMAT = "azulcam-layout/1"
#: An Azul score track's cells: 0 to 100.
TRACK_CELLS = SCORE_TRACK_TOP + 1
#: The shipped layouts: each game's player boards, a face each, then its scoring board if it has one.
LAYOUT_NAMES: tuple[str, ...] = tuple(name for spec in GAMES.values()
                                      for name in (*spec.layouts, *filter(None, [spec.scoring_layout])))

Point = tuple[float, float]
#: What a layout read from data, not a file, is called in a message: ``layout``.
UNNAMED = Notice("layout.unnamed")


class LayoutError(CodedError):
    """A layout that cannot be read or used: ``code`` and ``params`` name the file (``source``), and
    the field (``reason``: the format's refusal, :class:`azulcam.formats.FormatError`) or the slot
    (``problem``, one of :func:`check_layout`'s)."""


#: ``[x, y]`` in fractions of a board's width and height.
FractionPoint = Annotated[list[Number], Field(min_length=2, max_length=2)]
Polygon = Annotated[list[FractionPoint], Field(min_length=3)]


class SlotModel(Form):
    """One slot of ``azulcam-layout/1``."""

    id: Name
    polygon: Polygon
    printed: Text | None = None
    number: int | None = None


class LayoutModel(Form):
    """``azulcam-layout/1``: its form. What its slots must be (each slot of the board named by
    ``name``, once, on the board, convex, apart) is :func:`check_layout`'s."""

    format: Literal["azulcam-layout/1"]
    name: Text
    size_mm: Annotated[list[Annotated[Number, Field(gt=0)]], Field(min_length=2, max_length=2)]
    slots: Annotated[list[SlotModel], Field(min_length=1)]
    track: list[Polygon] = []

    @model_validator(mode="after")
    def printed_in_the_games_colours(self) -> "LayoutModel":
        colors = _printed_colors(self.name)
        for n, slot in enumerate(self.slots):
            if colors is not None and slot.printed is not None and slot.printed not in colors:
                expected = ", ".join(map(repr, colors[:-1])) + f" or {colors[-1]!r}"
                raise refusal(("slots", n, "printed"), "literal_error", expected=expected)
        return self


def _printed_colors(name: str) -> tuple[str, ...] | None:
    """The colours a board of the layout ``name`` may show printed under a slot (``None``: a name
    of no game, which :func:`check_layout` refuses)."""
    spec = layout_game(name)
    return spec.colors if spec is not None else None


def layout_game(name: str) -> GameSpec | None:
    """The game whose board a layout named ``name`` draws, by the start of its name: a shipped
    layout's (``azul-grey``, ``pavilion-scoring``) or an edited copy's, whose name keeps the
    shipped one's start (``azul-colored-mine``). ``None``: a name of no game."""
    return next((spec for spec in GAMES.values() if name.startswith(spec.name)), None)


def is_scoring_layout(name: str) -> bool:
    """Whether a layout named ``name`` draws a game's scoring board (``pavilion-scoring``, or an
    edited copy of it), not a player board."""
    spec = layout_game(name)
    return spec is not None and spec.scoring_layout is not None and name.startswith(spec.scoring_layout)


def a_board(spec: GameSpec) -> Notice:
    """One board of ``spec``'s game, to word: ``an Azul board``, ``a Summer Pavilion board``."""
    return Notice(f"a_board.{spec.name}")


#: The kinds of a board's slots in the order a layout lists them: Azul's pattern lines, wall and
#: floor line; Summer Pavilion's star spaces, then its corners.
_SLOT_KINDS = (LINE_SPACE, WALL_SPACE, FLOOR_SPACE, STAR_SPACE, CORNER)


def _slot_order(slot: SlotId) -> tuple[int, tuple[int, ...]]:
    return _SLOT_KINDS.index(slot.kind), slot.numbers


def expected_slots(name: str) -> tuple[SlotId, ...]:
    """The slot ids a layout of this board must have (its game's, :attr:`GameSpec.slot_ids`, in
    the order its layouts list them), from its name's prefix (``azul-*``, ``pavilion-scoring``,
    ``pavilion-*``). Raises :class:`LayoutError` for a name of no game's board."""
    spec = layout_game(name)
    if spec is None:
        boards = [f"{s.name}-..." + (f", {s.scoring_layout}..." if s.scoring_layout else "") for s in GAMES.values()]
        raise LayoutError("layout.no_board", name=name, boards=", ".join(boards))
    if is_scoring_layout(name):
        return tuple(SlotId.supply(i) for i in range(spec.supply_spaces))
    return tuple(sorted(map(SlotId.parse, spec.slot_ids), key=_slot_order))


def _read_slot_id(text: str) -> str:
    """A slot id read from a layout file: its :class:`~azulcam.engine.zones.Slot`, or the text as
    it is where it names no slot (which :func:`check_layout` then reports as unknown)."""
    try:
        return SlotId.parse(text)
    except ZoneError:
        return text


@dataclass(frozen=True)
class Slot:
    """One slot: its id (a :class:`~azulcam.engine.zones.Slot` in any usable layout), outline (board
    fractions), the colour printed under it and its printed number."""

    id: str
    polygon: tuple[Point, ...]
    printed: str | None = None
    number: int | None = None

    @property
    def center(self) -> Point:
        xs, ys = zip(*self.polygon)
        return sum(xs) / len(xs), sum(ys) / len(ys)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "polygon": [[round(x, 5), round(y, 5)] for x, y in self.polygon]}
        if self.printed is not None:
            out["printed"] = self.printed
        if self.number is not None:
            out["number"] = self.number
        return out


@dataclass(frozen=True)
class Layout:
    """A board side: its name, printed size in millimetres, slots in a fixed order and, where the
    board has one (Azul), its score track's cells, the cell of score ``n`` at index ``n``."""

    name: str
    size_mm: tuple[float, float]
    slots: tuple[Slot, ...]
    track: tuple[tuple[Point, ...], ...] = ()
    _by_id: dict[str, Slot] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {s.id: s for s in self.slots})

    def __getitem__(self, slot_id: str) -> Slot:
        try:
            return self._by_id[slot_id]
        except KeyError:
            raise KeyError(f"layout {self.name} has no slot {slot_id!r}") from None

    def __contains__(self, slot_id: object) -> bool:
        return slot_id in self._by_id

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.slots)

    def to_json(self) -> dict[str, Any]:
        out = {"format": LAYOUT_FORMAT, "name": self.name, "size_mm": list(self.size_mm),
               "slots": [s.to_json() for s in self.slots]}
        if self.track:
            out["track"] = _track_json(self.track)
        return out

    def dumps(self) -> str:
        """JSON text, one slot (and one track cell) per line, so that edited layouts diff well."""
        head = json.dumps({"format": LAYOUT_FORMAT, "name": self.name, "size_mm": list(self.size_mm)})[:-1]
        body = ",\n  ".join(json.dumps(s.to_json()) for s in self.slots)
        track = ",\n  ".join(json.dumps(cell) for cell in _track_json(self.track))
        return f'{head}, "slots": [\n  {body}\n]' + (f', "track": [\n  {track}\n]' if self.track else "") + "}\n"

    @classmethod
    def from_json(cls, data: Any, source: Notice | str = UNNAMED) -> "Layout":
        """Read and check a layout: its form (:class:`LayoutModel`), then its slots
        (:func:`check_layout`). Raises :class:`LayoutError` naming ``source`` (a file's path, or a
        message: a shipped layout, :data:`UNNAMED`) and the field or slot."""
        try:
            model = checked(LayoutModel, data)
        except FormatError as exc:
            raise LayoutError("layout.form", source=source, reason=exc) from None
        layout = cls(model.name, (model.size_mm[0], model.size_mm[1]),
                     tuple(Slot(_read_slot_id(s.id), _points(s.polygon), s.printed, s.number) for s in model.slots),
                     tuple(_points(cell) for cell in model.track))
        problems = check_layout(layout)
        if len(problems) == 1:
            raise LayoutError("layout.unusable", source=source, problem=problems[0])
        if problems:
            raise LayoutError("layout.unusable_more", source=source, problem=problems[0], more=len(problems) - 1)
        return layout

    def scaled(self, scale: Point = (1.0, 1.0), shift: Point = (0.0, 0.0), size_mm: Point | None = None,
               name: str | None = None) -> "Layout":
        """A copy with every slot moved by ``x' = (x - 0.5) * sx + 0.5 + dx`` (and likewise y):
        for an edition whose print sits a little larger, smaller or off-centre on its board."""
        (sx, sy), (dx, dy) = scale, shift
        def moved(poly: tuple[Point, ...]) -> tuple[Point, ...]:
            return tuple(((x - 0.5) * sx + 0.5 + dx, (y - 0.5) * sy + 0.5 + dy) for x, y in poly)

        slots = tuple(Slot(s.id, moved(s.polygon), s.printed, s.number) for s in self.slots)
        return Layout(name or self.name, tuple(size_mm) if size_mm else self.size_mm,  # type: ignore[arg-type]
                      slots, tuple(moved(cell) for cell in self.track))


def _track_json(track: tuple[tuple[Point, ...], ...]) -> list[list[list[float]]]:
    return [[[round(x, 5), round(y, 5)] for x, y in cell] for cell in track]


def _points(polygon: list[list[float]]) -> tuple[Point, ...]:
    return tuple((x, y) for x, y in polygon)


def _convex_area(poly: np.ndarray) -> float:
    return abs(float(cv2.contourArea(poly)))


def check_layout(layout: Layout) -> list[Notice]:
    """What is wrong with a layout, each a message to word: missing, unknown or repeated slots,
    slots off the board, slots that are not convex, and slots that overlap. An empty list means
    it is usable."""
    problems = []
    ids = [s.id for s in layout.slots]
    try:
        expected = expected_slots(layout.name)
    except LayoutError as exc:
        return [exc.notice]
    missing = [i for i in expected if i not in ids]
    if len(missing) == 1:
        problems.append(Notice("layout.missing_slot", slot=missing[0]))
    elif missing:
        problems.append(Notice("layout.missing_slots", slot=missing[0], more=len(missing) - 1))
    problems += [Notice("layout.unknown_slot", slot=i) for i in ids if i not in expected]
    problems += [Notice("layout.slot_twice", slot=i) for i in sorted({i for i in ids if ids.count(i) > 1})]
    tracked = [spec for spec in GAMES.values() if spec.score_track]
    if layout.track and layout_game(layout.name) not in tracked:
        problems.append(Notice("layout.track_elsewhere", boards=chained("list.or", [a_board(s) for s in tracked])))
    elif layout.track and len(layout.track) != TRACK_CELLS:
        problems.append(Notice("layout.track_cells", cells=TRACK_CELLS, top=TRACK_CELLS - 1, got=len(layout.track)))
    for n, cell in enumerate(layout.track):
        if any(not (-0.001 <= v <= 1.001) for p in cell for v in p):
            problems.append(Notice("layout.cell_outside", cell=n))
        elif not cv2.isContourConvex(np.array(cell, np.float32)) or _convex_area(np.array(cell, np.float32)) < 1e-6:
            problems.append(Notice("layout.cell_not_convex", cell=n))
    polys = []
    for s in layout.slots:
        if any(not (-0.001 <= v <= 1.001) for p in s.polygon for v in p):
            problems.append(Notice("layout.slot_outside", slot=s.id))
            polys.append(None)  # not measured: its numbers may be beyond what OpenCV's floats hold
            continue
        poly = np.array(s.polygon, np.float32)
        if not cv2.isContourConvex(poly) or _convex_area(poly) < 1e-6:
            problems.append(Notice("layout.slot_not_convex", slot=s.id))
            poly = None
        polys.append(poly)
    for a in range(len(polys)):
        for b in range(a + 1, len(polys)):
            pa, pb = polys[a], polys[b]
            if pa is None or pb is None:
                continue
            if (pa[:, 0].max() <= pb[:, 0].min() or pb[:, 0].max() <= pa[:, 0].min()
                    or pa[:, 1].max() <= pb[:, 1].min() or pb[:, 1].max() <= pa[:, 1].min()):
                continue
            area, _ = cv2.intersectConvexConvex(pa, pb)
            if area > 1e-3 * min(_convex_area(pa), _convex_area(pb)):
                problems.append(Notice("layout.slots_overlap", slot=layout.slots[a].id, other=layout.slots[b].id))
    return problems


def _layout_dir() -> Any:
    return resources.files("azulcam.calibration").joinpath("layouts")


_CACHE: dict[str, Layout] = {}


def load_layout(name_or_path: str | Path) -> Layout:
    """A shipped layout by name (``azul-colored``), or a layout file by path.

    Raises :class:`LayoutError` for an unknown name or a file that is not a usable layout.
    """
    key = str(name_or_path)
    if key in _CACHE:
        return _CACHE[key]
    if key in LAYOUT_NAMES:
        text = _layout_dir().joinpath(f"{key}.json").read_text(encoding="utf-8")
        source: Notice | str = Notice("layout.shipped", name=key)
    else:
        path = Path(key)
        try:
            unknown = path.suffix != ".json" and not path.exists()
        except (OSError, ValueError):  # a name too long for a path, or one with a NUL in it
            unknown = True
        if unknown:
            raise LayoutError("layout.unknown", name=show(key), shipped=", ".join(LAYOUT_NAMES))
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise LayoutError("layout.unreadable", name=show(key), reason=getattr(exc, "strerror", None) or str(exc)) from None
        source = key
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutError("layout.malformed_json", source=source, line=exc.lineno, column=exc.colno, reason=exc.msg) from None
    except RecursionError:
        raise LayoutError("layout.too_deep", source=source) from None
    except ValueError as exc:  # a number too long to read
        raise LayoutError("layout.unreadable_json", source=source, reason=str(exc)) from None
    layout = Layout.from_json(data, source)
    _CACHE[key] = layout
    return layout
