"""Board layouts (``azulcam-layout/1``): every slot of a board side as a polygon, as data.

A layout says where each slot lies on a board, in fractions of the board's width and height
from its top left as its owner sees it. Five layouts ship with azulcam (``LAYOUT_NAMES``);
a user whose edition is printed differently can load an edited copy from a file instead
(see ``calibration/README.md``). The shipped files are written by
:func:`azulcam.vision.boards.build_layouts` from the measured board geometry and the Summer
Pavilion engine's topology; a test keeps the two equal.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..engine import pavilion_board as topo
from ..engine.azul import COLORS as AZUL_COLORS, SCORE_TRACK_TOP
from ..engine.errors import show

LAYOUT_FORMAT = "azulcam-layout/1"
_LAYOUT_KEYS = ("format", "name", "size_mm", "slots", "track")
_SLOT_KEYS = ("id", "polygon", "printed", "number")
#: An Azul score track's cells: 0 to 100.
TRACK_CELLS = SCORE_TRACK_TOP + 1
LAYOUT_NAMES: tuple[str, ...] = ("azul-colored", "azul-grey", "pavilion-colored", "pavilion-grey", "pavilion-scoring")

Point = tuple[float, float]


class LayoutError(ValueError):
    """A layout that cannot be read or used; the message names the file and the slot."""


def expected_slots(name: str) -> tuple[str, ...]:
    """The slot ids a layout of this board must have, from its name's prefix
    (``azul-*``, ``pavilion-scoring``, ``pavilion-*``)."""
    if name.startswith("azul"):
        return (tuple(f"line.{r}.{i}" for r in range(5) for i in range(r + 1))
                + tuple(f"wall.{r}.{c}" for r in range(5) for c in range(5))
                + tuple(f"floor.{i}" for i in range(7)))
    if name.startswith("pavilion-scoring"):
        return tuple(f"supply.{i}" for i in range(10))
    if name.startswith("pavilion"):
        return tuple(f"{s}.{k}" for s in range(7) for k in range(1, 7)) + tuple(f"corner.{i}" for i in range(4))
    raise LayoutError(f"layout name {name!r} names no board (azul-..., pavilion-..., pavilion-scoring...)")


@dataclass(frozen=True)
class Slot:
    """One slot: its id, outline (board fractions), the colour printed under it and its printed number."""

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
    def from_json(cls, data: Any, source: str = "layout") -> "Layout":
        """Read and check a layout. Raises :class:`LayoutError` naming ``source`` and the slot."""
        if not isinstance(data, dict) or data.get("format") != LAYOUT_FORMAT:
            raise LayoutError(f"{source}: not an {LAYOUT_FORMAT} layout")
        unknown = sorted(str(k) for k in data if k not in _LAYOUT_KEYS)
        if unknown:
            raise LayoutError(f"{source}: unknown key {unknown[0]!r} (a layout has {', '.join(_LAYOUT_KEYS)})")
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise LayoutError(f"{source}: the layout needs a name, not {show(name)}")
        size = data.get("size_mm")
        if not (isinstance(size, list) and len(size) == 2 and all(is_number(v) and v > 0 for v in size)):
            raise LayoutError(f"{source}: size_mm must be [width, height] in millimetres, not {show(size)}")
        raw = data.get("slots")
        if not isinstance(raw, list) or not raw:
            raise LayoutError(f"{source}: slots must be a non-empty list, not {show(raw)}")
        colors = AZUL_COLORS if name.startswith("azul") else topo.COLORS if name.startswith("pavilion") else None
        slots = []
        for n, s in enumerate(raw):
            where = f"{source}: slot {n}"
            if not isinstance(s, dict) or not isinstance(s.get("id"), str) or not s["id"]:
                raise LayoutError(f"{where}: a slot needs an id (a slot name such as wall.0.0), not {show(s)}")
            where = f"{source}: slot {s['id'] if len(s['id']) <= 60 else show(s['id'])}"
            unknown = sorted(str(k) for k in s if k not in _SLOT_KEYS)
            if unknown:
                raise LayoutError(f"{where}: unknown key {unknown[0]!r} (a slot has {', '.join(_SLOT_KEYS)})")
            poly = s.get("polygon")
            if not _is_polygon(poly):
                raise LayoutError(f"{where}: polygon must be a list of at least 3 [x, y] points, not {show(poly)}")
            printed, number = s.get("printed"), s.get("number")
            if printed is not None and not (isinstance(printed, str) and (colors is None or printed in colors)):
                names = f" ({', '.join(colors)})" if colors else ""
                raise LayoutError(f"{where}: printed must be a colour name{names}, not {show(printed)}")
            if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
                raise LayoutError(f"{where}: number must be an integer, not {show(number)}")
            slots.append(Slot(s["id"], tuple((float(x), float(y)) for x, y in poly), printed, number))
        track = data.get("track", [])
        if not (isinstance(track, list) and all(_is_polygon(cell) for cell in track)):
            raise LayoutError(f"{source}: track must be a list of score cells, each a list of at least 3 [x, y] "
                              f"points, not {show(track) if len(show(track)) <= 80 else show(track)[:80] + '...'}")
        layout = cls(name, (float(size[0]), float(size[1])), tuple(slots),
                     tuple(tuple((float(x), float(y)) for x, y in cell) for cell in track))
        problems = check_layout(layout)
        if problems:
            raise LayoutError(f"{source}: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
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


def _is_polygon(poly: Any) -> bool:
    """A list of at least three [x, y] points, each a finite number."""
    return (isinstance(poly, list) and len(poly) >= 3
            and all(isinstance(p, list) and len(p) == 2 and all(is_number(v) for v in p) for p in poly))


def is_number(v: Any) -> bool:
    """A finite JSON number (not a bool; not NaN or infinite, which Python's json reads)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:  # an integer beyond any float
        return False


def _convex_area(poly: np.ndarray) -> float:
    return abs(float(cv2.contourArea(poly)))


def check_layout(layout: Layout) -> list[str]:
    """What is wrong with a layout: missing, unknown or repeated slots, slots off the board,
    slots that are not convex, and slots that overlap. An empty list means it is usable."""
    problems = []
    ids = [s.id for s in layout.slots]
    try:
        expected = expected_slots(layout.name)
    except LayoutError as exc:
        return [str(exc)]
    missing = [i for i in expected if i not in ids]
    if missing:
        problems.append(f"missing slot {missing[0]}" + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""))
    problems += [f"unknown slot {i}" for i in ids if i not in expected]
    problems += [f"slot {i} appears twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if layout.track and not layout.name.startswith("azul"):
        problems.append("only an Azul board has a score track")
    elif layout.track and len(layout.track) != TRACK_CELLS:
        problems.append(f"the score track has {TRACK_CELLS} cells (0 to {TRACK_CELLS - 1}), not {len(layout.track)}")
    for n, cell in enumerate(layout.track):
        if any(not (-0.001 <= v <= 1.001) for p in cell for v in p):
            problems.append(f"score cell {n} lies outside the board (coordinates are fractions 0..1)")
        elif not cv2.isContourConvex(np.array(cell, np.float32)) or _convex_area(np.array(cell, np.float32)) < 1e-6:
            problems.append(f"score cell {n} is not a convex polygon with an area")
    polys = []
    for s in layout.slots:
        if any(not (-0.001 <= v <= 1.001) for p in s.polygon for v in p):
            problems.append(f"slot {s.id} lies outside the board (coordinates are fractions 0..1)")
            polys.append(None)  # not measured: its numbers may be beyond what OpenCV's floats hold
            continue
        poly = np.array(s.polygon, np.float32)
        if not cv2.isContourConvex(poly) or _convex_area(poly) < 1e-6:
            problems.append(f"slot {s.id} is not a convex polygon with an area")
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
                problems.append(f"slots {layout.slots[a].id} and {layout.slots[b].id} overlap")
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
        source = f"layout {key}"
    else:
        path = Path(key)
        try:
            unknown = path.suffix != ".json" and not path.exists()
        except (OSError, ValueError):  # a name too long for a path, or one with a NUL in it
            unknown = True
        if unknown:
            raise LayoutError(f"unknown layout {show(key)} (shipped: {', '.join(LAYOUT_NAMES)}; or give a .json file)")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise LayoutError(f"cannot read layout {show(key)}: {getattr(exc, 'strerror', None) or exc}") from None
        source = key
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutError(f"{source}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise LayoutError(f"{source}: malformed JSON: nested too deeply") from None
    except ValueError as exc:  # a number too long to read
        raise LayoutError(f"{source}: malformed JSON: {exc}") from None
    layout = Layout.from_json(data, source)
    _CACHE[key] = layout
    return layout
