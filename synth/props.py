"""Things on a real game table that look like the game: holed trivets, coins, dice, score pads
and the box lid, lying flat beside the play area.

A reader fitted to clean tables takes a trivet's ring of holes for factory displays, a die for
a tile, a coin for the start-player token, the box lid's mosaic for a board. The renderer lays
some of these round the play area (``SceneOptions.props``) so that those mistakes show in the
figures. Each prop is a top-down sprite (BGRA, alpha 0 where the table shows through) of a known
size in millimetres, drawn from its own seeded generator so that the same prop looks the same.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: The kinds of prop, each with its chance of being picked.
KINDS = {"trivet": 0.3, "coins": 0.2, "dice": 0.2, "pad": 0.15, "lid": 0.15}
#: Pixels per millimetre of a prop's sprite (its drawing is shrunk or enlarged to the table's).
_SPRITE_PPM = 3.0


@dataclass(frozen=True)
class Prop:
    """One prop: its kind, centre on the table (mm), turn (degrees), size (mm: width, height of
    its sprite) and the seed of its drawing."""

    kind: str
    x: float
    y: float
    turn: float
    size: tuple[float, float]
    seed: int

    def corners(self) -> np.ndarray:
        """Its sprite's top-left, top-right and bottom-right corners on the table (mm, 3 x 2)."""
        w, h = self.size
        c, s = math.cos(math.radians(self.turn)), math.sin(math.radians(self.turn))
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2]])
        return local @ np.array([[c, s], [-s, c]]) + (self.x, self.y)


def _size(kind: str, rng: np.random.Generator) -> tuple[float, float]:
    if kind == "trivet":
        d = rng.uniform(160, 240)
        return d, d
    if kind == "coins":
        return 90.0, 90.0
    if kind == "dice":
        return 70.0, 70.0
    if kind == "pad":
        return float(rng.uniform(90, 110)), float(rng.uniform(140, 160))
    side = rng.uniform(260, 300)  # the box lid
    return side, side


def sample_props(rng: np.random.Generator, extent: tuple[float, float, float, float], count: int) -> list[Prop]:
    """``count`` props lying round the play area ``extent`` (x0, y0, x1, y1, mm), each clear of it."""
    kinds, weights = list(KINDS), np.array(list(KINDS.values()))
    out = []
    x0, y0, x1, y1 = extent
    for _ in range(count):
        kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
        w, h = _size(kind, rng)
        reach = math.hypot(w, h) / 2 + rng.uniform(5, 60)
        side, t = int(rng.integers(4)), rng.uniform(0.1, 0.9)
        x = (x0 - reach, x1 + reach, x0 + t * (x1 - x0), x0 + t * (x1 - x0))[side]
        y = (y0 + t * (y1 - y0), y0 + t * (y1 - y0), y0 - reach, y1 + reach)[side]
        out.append(Prop(kind, float(x), float(y), float(rng.uniform(0, 360)), (w, h), int(rng.integers(2**31))))
    return out


def sprite(prop: Prop) -> np.ndarray:
    """The prop seen from above: BGRA uint8 at :data:`_SPRITE_PPM` pixels per millimetre."""
    rng = np.random.default_rng(prop.seed)
    w, h = (max(8, int(round(v * _SPRITE_PPM))) for v in prop.size)
    img = np.zeros((h, w, 4), np.uint8)
    {"trivet": _trivet, "coins": _coins, "dice": _dice, "pad": _pad, "lid": _lid}[prop.kind](img, rng)
    return img


def _disc(img: np.ndarray, centre: tuple[float, float], radius: float, color: tuple[int, ...]) -> None:
    cv2.circle(img, (int(round(centre[0] * 16)), int(round(centre[1] * 16))), int(round(radius * 16)), color, -1,
               cv2.LINE_AA, 4)


def _trivet(img: np.ndarray, rng: np.random.Generator) -> None:
    """A round cork, black or white plastic trivet with rings of round holes."""
    s = img.shape[0]
    c = (s / 2, s / 2)
    color = ((90, 140, 190), (40, 40, 42), (230, 232, 230), (60, 90, 160))[int(rng.integers(4))]
    _disc(img, c, s / 2 - 1, (*color, 255))
    if color == (90, 140, 190):  # cork: speckled
        speckle = rng.normal(0, 14, img.shape[:2]).astype(np.float32)
        img[..., :3] = np.clip(img[..., :3] + cv2.GaussianBlur(speckle, (0, 0), 1.2)[..., None], 0, 255).astype(np.uint8)
    hole = s * rng.uniform(0.07, 0.12)
    for ring, count in ((0.0, 1), (0.27, 6), (0.40, 12)):
        for k in range(count):
            a = 2 * math.pi * k / count
            _disc(img, (c[0] + ring * s * math.cos(a), c[1] + ring * s * math.sin(a)), hole / 2, (0, 0, 0, 0))


def _coins(img: np.ndarray, rng: np.random.Generator) -> None:
    """A few coins in a loose heap: gold, silver and copper discs with a rim."""
    s = img.shape[0]
    for _ in range(int(rng.integers(3, 8))):
        r = s * rng.uniform(0.09, 0.15)
        c = (rng.uniform(r, s - r), rng.uniform(r, s - r))
        metal = ((60, 170, 210), (190, 190, 186), (60, 110, 180))[int(rng.integers(3))]
        _disc(img, c, r, (*(int(v * 0.75) for v in metal), 255))
        _disc(img, c, r * 0.86, (*metal, 255))
        _disc(img, (c[0] - r * 0.25, c[1] - r * 0.25), r * 0.3, (*(min(255, int(v * 1.2)) for v in metal), 255))


def _dice(img: np.ndarray, rng: np.random.Generator) -> None:
    """One to three dice about a tile's size, each showing a face of pips."""
    s = img.shape[0]
    pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
            5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
    for _ in range(int(rng.integers(1, 4))):
        side = s * rng.uniform(0.2, 0.26)
        cx, cy = rng.uniform(side, s - side), rng.uniform(side, s - side)
        turn = rng.uniform(0, math.pi / 2)
        body, pip = ((235, 235, 232), (30, 30, 30)) if rng.random() < 0.6 else ((40, 40, 200), (240, 240, 240))
        box = cv2.boxPoints(((cx, cy), (side, side), math.degrees(turn)))
        cv2.fillConvexPoly(img, np.round(box * 16).astype(np.int32), (*body, 255), cv2.LINE_AA, 4)
        c, s_ = math.cos(turn), math.sin(turn)
        for px, py in pips[int(rng.integers(1, 7))]:
            dx, dy = px * side * 0.27, py * side * 0.27
            _disc(img, (cx + dx * c - dy * s_, cy + dx * s_ + dy * c), side * 0.08, (*pip, 255))


def _pad(img: np.ndarray, rng: np.random.Generator) -> None:
    """A score pad: white paper ruled in a grid, with pencilled numbers."""
    h, w = img.shape[:2]
    img[:] = (242, 244, 244, 255)
    step = w / 5
    for i in range(1, 5):
        cv2.line(img, (int(i * step), int(0.1 * h)), (int(i * step), h - 4), (170, 150, 140, 255), 1, cv2.LINE_AA)
    for j in range(int(h / (step * 0.5))):
        y = int(0.1 * h + j * step * 0.5)
        cv2.line(img, (4, y), (w - 4, y), (170, 150, 140, 255), 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(5, 25))):
        x, y = rng.uniform(0.05 * w, 0.85 * w), rng.uniform(0.15 * h, 0.95 * h)
        cv2.putText(img, str(int(rng.integers(0, 100))), (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, step / 90,
                    (80, 80, 90, 255), 1, cv2.LINE_AA)


def _lid(img: np.ndarray, rng: np.random.Generator) -> None:
    """The game box's lid: a deep blue frame round a mosaic of tile-like squares."""
    s = img.shape[0]
    img[:] = (110, 60, 25, 255)
    margin, cells = int(0.12 * s), int(rng.integers(5, 8))
    step = (s - 2 * margin) / cells
    palette = [(150, 72, 18), (28, 172, 244), (42, 38, 196), (40, 34, 31), (238, 220, 170), (200, 226, 240)]
    for i in range(cells):
        for j in range(cells):
            x, y = margin + i * step, margin + j * step
            color = palette[int(rng.integers(len(palette)))]
            cv2.rectangle(img, (int(x + 2), int(y + 2)), (int(x + step - 2), int(y + step - 2)), (*color, 255), -1)
    cv2.rectangle(img, (margin // 3, margin // 3), (s - margin // 3, s - margin // 3), (40, 140, 230, 255), max(2, s // 90))
