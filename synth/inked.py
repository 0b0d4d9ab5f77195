"""A second hand: the game's components drawn by code of their own, for a family held out of everything.

The four families of :mod:`art` share one drawing of the boards' layout, ornaments, tile bodies and
light; leaving one out of training measures little. ``inked`` is drawn here from scratch: an
ink-on-card printing (ruled outlines and hatching, no ornament band), the coloured wall printed
with the tiles' own designs at full strength (as real boards are), terrazzo-speckled tiles with
rounded corners and a specular streak, navy discs with a gold rim, its own tables (concrete,
planks, gingham, cork), and its own light: a lamp above the table with a warm key and a cool
fill, a tone curve, window reflections on glossy tops. Only what every copy of the game shares
comes from elsewhere: the layouts (where each slot lies), the tiles' colours and designs as
photos of retail copies show them, and the renderer's camera and geometry.

The interface is :mod:`art`'s (:func:`board_art`, :func:`factory_sprite`, :func:`tile_sprite`,
:func:`tile_side_color`, :func:`table_texture`), plus :func:`light` in place of the renderer's.
Every function is deterministic and cached; arrays come back read-only.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..engine import pavilion_board as topo
from ..engine.games import PAVILION, GameSpec
from ..engine.zones import Slot
# Bookkeeping, the sheet's size and which game's component a call draws, not drawing:
from .art import RenderError, _frozen, _seed, board_design, game_spec, sheet_size

NAME = "inked"
#: Its tables (indices of :func:`table_texture`).
TABLES = (0, 1, 2, 3)

# BGR. The tiles' colours lie where real tiles' do in photos, each a little off the other hand's.
TILE = {
    "blue": (160, 84, 30), "yellow": (48, 180, 236), "red": (70, 70, 212), "black": (34, 30, 30),
    "white": (222, 200, 150), "joker": (120, 120, 128), "first_player": (226, 236, 240),
}
TILE_INK = {"yellow": (40, 40, 190), "black": (210, 180, 120), "white": (250, 246, 240), "first_player": (40, 40, 40)}
PAV = {"purple": (120, 50, 140), "green": (70, 150, 60), "orange": (20, 116, 236), "yellow": (50, 206, 240),
       "blue": (196, 120, 40), "red": (60, 50, 200), "first_player": (110, 150, 190)}
CARD = (214, 222, 220)  # grey-green card
INK = (48, 44, 52)
RULE = (96, 88, 84)
DISC = ((74, 44, 30), (80, 170, 210))  # navy field, gold rim
SUPERSAMPLE = 4


def _pts(p: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(p, np.float64) * 16).astype(np.int32)


def _fill(img: np.ndarray, p: np.ndarray, colour: Any) -> None:
    cv2.fillPoly(img, [_pts(p)], colour, cv2.LINE_AA, 4)


def _outline(img: np.ndarray, p: np.ndarray, colour: Any, width: float) -> None:
    cv2.polylines(img, [_pts(p)], True, colour, max(1, int(round(width))), cv2.LINE_AA, 4)


def _dot(img: np.ndarray, c: Any, r: float, colour: Any, width: int = -1) -> None:
    cv2.circle(img, (int(round(c[0] * 16)), int(round(c[1] * 16))), max(1, int(round(r * 16))), colour, width,
               cv2.LINE_AA, 4)


def _write(img: np.ndarray, text: str, centre: Any, height: float, colour: Any) -> None:
    """Text centred on ``centre``, ``height`` pixels tall, in a plain sans face."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height / 22.0
    thick = max(1, int(round(height / 9)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(img, text, (int(centre[0] - tw / 2), int(centre[1] + th / 2)), font, scale, colour, thick, cv2.LINE_AA)


def _card(h: int, w: int, colour: Any, seed: int) -> np.ndarray:
    """Card with a fibrous grain: fine streaks along one direction, not a mottle."""
    rng = np.random.default_rng(seed)
    streaks = cv2.resize(rng.normal(0, 1, (max(2, h // 6), max(2, w // 40))).astype(np.float32), (w, h),
                         interpolation=cv2.INTER_LINEAR)
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    img += streaks[..., None] * 3.0 + rng.normal(0, 1.2, (h, w, 1)).astype(np.float32)
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)


def _hatch(img: np.ndarray, p: np.ndarray, colour: Any, spacing: float, width: float) -> None:
    """Diagonal hatching inside polygon ``p``."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [_pts(p)], 255, cv2.LINE_AA, 4)
    lines = np.zeros_like(mask)
    x0, y0 = p.min(axis=0)
    x1, y1 = p.max(axis=0)
    span = (x1 - x0) + (y1 - y0)
    k = 0.0
    while k < span:
        a = (x0 + k, y0)
        b = (x0 + k - (y1 - y0), y1)
        cv2.line(lines, (int(a[0] * 16), int(a[1] * 16)), (int(b[0] * 16), int(b[1] * 16)), 255,
                 max(1, int(round(width))), cv2.LINE_AA, 4)
        k += spacing
    sel = (mask.astype(np.float32) * lines.astype(np.float32) / 65025.0)[..., None]
    img[:] = np.clip(img * (1 - sel) + np.array(colour, np.float32) * sel + 0.5, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- tiles


def _azul_design(kind: str, s: int) -> np.ndarray:
    """The top face's design, ``s`` pixels square (BGR), before its finish."""
    img = np.empty((s, s, 3), np.uint8)
    img[:] = TILE[kind]
    c = s / 2
    if kind == "blue":
        _outline(img, np.array([(0.2, 0.2), (0.8, 0.2), (0.8, 0.8), (0.2, 0.8)]) * s, (190, 120, 70), s * 0.025)
    elif kind == "yellow":  # a red quatrefoil with a dot
        for a in range(4):
            t = a * math.pi / 2
            _dot(img, (c + 0.17 * s * math.cos(t), c + 0.17 * s * math.sin(t)), 0.15 * s, TILE_INK[kind])
        _dot(img, (c, c), 0.08 * s, TILE[kind])
        for a in range(4):
            t = a * math.pi / 2 + math.pi / 4
            _dot(img, (c + 0.38 * s * math.cos(t), c + 0.38 * s * math.sin(t)), 0.05 * s, TILE_INK[kind])
    elif kind == "red":
        _dot(img, (c, c), 0.3 * s, (50, 50, 180), max(1, int(s * 0.03)))
    elif kind == "black":  # a light-blue lattice on the diagonals, dots at its crossings
        for k in range(-3, 4):
            off = k * s / 3.5
            cv2.line(img, (int((off) * 16), 0), (int((off + s) * 16), s * 16), TILE_INK[kind], max(1, int(s * 0.03)),
                     cv2.LINE_AA, 4)
            cv2.line(img, (int((s - off) * 16), 0), (int((-off) * 16), s * 16), TILE_INK[kind], max(1, int(s * 0.03)),
                     cv2.LINE_AA, 4)
    elif kind == "white":  # a six-armed white star with blue tips on the light-blue face
        for a in range(6):
            t = a * math.pi / 3
            tip = (c + 0.36 * s * math.cos(t), c + 0.36 * s * math.sin(t))
            cv2.line(img, (int(c * 16), int(c * 16)), (int(tip[0] * 16), int(tip[1] * 16)), TILE_INK[kind],
                     max(1, int(s * 0.06)), cv2.LINE_AA, 4)
            _dot(img, tip, 0.05 * s, (170, 110, 50))
        _dot(img, (c, c), 0.1 * s, TILE_INK[kind])
    elif kind == "joker":  # five stripes, one of each colour, on a grey body
        for i, colour in enumerate(("blue", "yellow", "red", "black", "white")):
            y0 = (0.12 + i * 0.152) * s
            cv2.rectangle(img, (int(0.12 * s), int(y0)), (int(0.88 * s), int(y0 + 0.12 * s)), TILE[colour], -1)
    elif kind == "first_player":
        _dot(img, (c, c), 0.34 * s, TILE_INK[kind], max(1, int(s * 0.03)))
        _write(img, "1", (c, c), 0.42 * s, TILE_INK[kind])
    return img


def _finish(img: np.ndarray, mask: np.ndarray, seed: int) -> np.ndarray:
    """Terrazzo speckle, a darker rim inside the face's edge, a diagonal specular streak."""
    s = img.shape[0]
    img = img.astype(np.float32)
    rng = np.random.default_rng(seed)
    n = max(8, s * s // 180)
    for x, y, r, v in zip(rng.uniform(0, s, n), rng.uniform(0, s, n), rng.uniform(0.004, 0.012, n) * s,
                          rng.uniform(-40, 40, n)):
        cv2.circle(img, (int(x), int(y)), max(1, int(r)), tuple(float(np.clip(c + v, 0, 255)) for c in img[int(y) % s, int(x) % s]),
                   -1, cv2.LINE_AA)
    inner = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, s // 24))
    rim = cv2.GaussianBlur((mask.astype(np.float32) - inner.astype(np.float32)) / 255.0, (0, 0), s * 0.02 + 0.5)
    img *= (1 - 0.35 * rim)[..., None]
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    streak = np.exp(-(((xx + yy) / s - 0.6) / 0.08) ** 2) * 0.22
    img += (255 - img) * streak[..., None]
    return img


def _rounded_square(s: int, radius: float) -> np.ndarray:
    mask = np.zeros((s, s), np.uint8)
    r = int(radius)
    cv2.rectangle(mask, (r, 0), (s - 1 - r, s - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (s - 1, s - 1 - r), 255, -1)
    for cx, cy in ((r, r), (s - 1 - r, r), (r, s - 1 - r), (s - 1 - r, s - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _shrunk(img: np.ndarray, mask: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    bgr = cv2.resize(np.clip(img, 0, 255), size, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(mask.astype(np.float32), size, interpolation=cv2.INTER_AREA)[..., None]
    return np.clip(np.concatenate([bgr, alpha], axis=2) + 0.5, 0, 255).astype(np.uint8)


def _pavilion_design(kind: str, s: int) -> tuple[np.ndarray, np.ndarray]:
    """A rhombus face (long diagonal vertical, ``s`` long) and its mask, at ``s`` internal pixels."""
    w = max(2, int(round(s / math.sqrt(3))))
    img = np.empty((s, w, 3), np.uint8)
    img[:] = PAV[kind]
    poly = np.array([(w / 2, 0), (w, s / 2), (w / 2, s), (0, s / 2)])
    mask = np.zeros((s, w), np.uint8)
    cv2.fillPoly(mask, [_pts(poly)], 255, cv2.LINE_AA, 4)
    c = poly.mean(axis=0)
    lighter = tuple(min(255, v + 70) for v in PAV[kind])
    for f in (0.7, 0.42):  # concentric rhombus lines, then a dot: each colour a mark of its own count
        _outline(img, c + (poly - c) * f, lighter, max(1, s * 0.018))
    marks = PAVILION.tiles.index(kind) + 1
    for y in np.linspace(-0.12, 0.12, marks) if marks > 1 else (0.0,):
        _dot(img, (c[0], c[1] + y * s), s * 0.025, lighter)
    return img, mask


def _pavilion_token(s: int) -> tuple[np.ndarray, np.ndarray]:
    img = np.empty((s, s, 3), np.uint8)
    img[:] = PAV["first_player"]
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(mask, (s // 2, s // 2), s // 2 - 1, 255, -1, cv2.LINE_AA)
    for r in np.arange(0.1, 0.5, 0.07):  # end grain rings
        _dot(img, (s / 2, s / 2), r * s, (80, 120, 160), max(1, s // 90))
    return img, mask


@lru_cache(maxsize=512)
def tile_sprite(game: str, kind: str, size_px: int) -> tuple[np.ndarray, np.ndarray]:
    """A tile's top face as BGRA and its polygon, as :func:`art.tile_sprite` draws them (the same
    polygons: the renderer places both hands' sprites alike)."""
    spec = _check(game, kind)
    if not isinstance(size_px, (int, np.integer)) or size_px < 4:
        raise RenderError("render.size", least=4, size=size_px)
    s_out = int(size_px)
    k = max(1, min(SUPERSAMPLE, 512 // s_out))
    s = s_out * k
    square = np.array([(0, 0), (s_out, 0), (s_out, s_out), (0, s_out)], np.float32)
    if spec.shape == "square":
        mask = _rounded_square(s, 0.1 * s)
        img = _finish(_azul_design(kind, s), mask, _seed(game, kind, s_out))
        return _frozen(_shrunk(img, mask, (s_out, s_out))), _frozen(square)
    if kind == "first_player":
        img, mask = _pavilion_token(s)
        return _frozen(_shrunk(img, mask, (s_out, s_out))), _frozen(square)
    img, mask = _pavilion_design(kind, s)
    w_out = max(2, int(round(s_out / math.sqrt(3))))
    poly = np.array([(w_out / 2, 0), (w_out, s_out / 2), (w_out / 2, s_out), (0, s_out / 2)], np.float32)
    return _frozen(_shrunk(img, mask, (w_out, s_out))), _frozen(poly)


#: The score marker, as this hand draws it: a charcoal cube, matte, its top's edge rounded off.
MARKER_TOP = (52, 50, 54)
MARKER_SIDE = (30, 28, 30)


@lru_cache(maxsize=32)
def marker_sprite(size_px: int) -> tuple[np.ndarray, np.ndarray]:
    """The score marker's top face as BGRA (a square ``size_px`` across) and its polygon."""
    if not isinstance(size_px, (int, np.integer)) or size_px < 4:
        raise RenderError("render.size", least=4, size=size_px)
    s_out = int(size_px)
    k = max(1, min(SUPERSAMPLE, 512 // s_out))
    s = s_out * k
    mask = _rounded_square(s, 0.2 * s)
    img = np.zeros((s, s, 3), np.float32)
    img[:] = MARKER_TOP
    rng = np.random.default_rng(_seed("marker", s_out))
    img += rng.normal(0.0, 4.0, (s, s, 1)).astype(np.float32)  # a matte, speckled finish
    square = np.array([(0, 0), (s_out, 0), (s_out, s_out), (0, s_out)], np.float32)
    return _frozen(_shrunk(np.clip(img, 0, 255), mask, (s_out, s_out))), _frozen(square)


def tile_side_color(game: str, kind: str) -> tuple[int, int, int]:
    """The tile's sides: the body's colour, darker and greyer (a resin cast through, its sides matte)."""
    spec = _check(game, kind)
    base = np.array((TILE if spec.shape == "square" else PAV)[kind], np.float64)
    grey = base.mean()
    side = (base * 0.7 + grey * 0.3) * 0.5
    return tuple(int(v) for v in side)  # type: ignore[return-value]


def _check(game: str, kind: str) -> GameSpec:
    """The spec of the game named ``game``. Raises :class:`~.art.RenderError` for an unknown game or a kind not among its tiles."""
    spec = game_spec(game)
    if kind not in spec.tiles:
        raise RenderError("render.unknown_tile", game=game, kind=kind, tiles=", ".join(spec.tiles))
    return spec


# --------------------------------------------------------------------------- boards


def _slot(layout: Any, slot_id: str, w: int, h: int) -> np.ndarray:
    return np.array([(x * w, y * h) for x, y in layout[slot_id].polygon], np.float64)


def _azul(name: str, w: int, h: int) -> np.ndarray:
    layout = load_layout(name)
    img = _card(h, w, CARD, _seed(name, w, h))
    rule = max(1.0, 0.0025 * w)
    # A double ruled border with filled corner squares.
    for inset in (0.012, 0.02):
        cv2.rectangle(img, (int(inset * w), int(inset * h)), (int((1 - inset) * w), int((1 - inset) * h)), RULE,
                      max(1, int(rule)), cv2.LINE_AA)
    for cx, cy in ((0.016, 0.016), (0.984, 0.016), (0.016, 0.984), (0.984, 0.984)):
        cv2.rectangle(img, (int((cx - 0.01) * w), int((cy - 0.01) * h)), (int((cx + 0.01) * w), int((cy + 0.01) * h)),
                      INK, -1)
    # Score track: a ruled grid of 5 x 20 with the numbers small, every fifth circled.
    x0, y0 = layout.track[1][0][0] * w, layout.track[1][0][1] * h
    x1, y1 = layout.track[100][2][0] * w, layout.track[100][2][1] * h
    cw, ch = (x1 - x0) / 20, (y1 - y0) / 5
    for r in range(6):
        cv2.line(img, (int(x0), int(y0 + r * ch)), (int(x1), int(y0 + r * ch)), RULE, max(1, int(rule * 0.6)), cv2.LINE_AA)
    for c in range(21):
        cv2.line(img, (int(x0 + c * cw), int(y0)), (int(x0 + c * cw), int(y1)), RULE, max(1, int(rule * 0.6)), cv2.LINE_AA)
    for r in range(5):
        for c in range(20):
            n = r * 20 + c + 1
            centre = (x0 + (c + 0.5) * cw, y0 + (r + 0.5) * ch)
            if n % 5 == 0:
                _dot(img, centre, 0.42 * min(cw, ch), RULE, max(1, int(rule * 0.6)))
            _write(img, str(n), centre, 0.28 * ch, INK)
    zy = layout.track[0][0][1] * h
    cv2.rectangle(img, (int(x0), int(zy)), (int(x0 + cw), int(y0)), RULE, max(1, int(rule * 0.6)), cv2.LINE_AA)
    _write(img, "0", (x0 + cw / 2, (zy + y0) / 2), 0.25 * ch, INK)
    # Title: plain letters under a rule.
    _write(img, "AZUL", (0.21 * w, 0.385 * h), 0.05 * h, INK)
    cv2.line(img, (int(0.08 * w), int(0.42 * h)), (int(0.34 * w), int(0.42 * h)), RULE, max(1, int(rule)), cv2.LINE_AA)
    # Pattern lines: dashed outlines on bare card, a chevron before each wall row.
    for r in range(5):
        for i in range(r + 1):
            p = _slot(layout, Slot.line(r, i), w, h)
            for a, b in zip(p, np.roll(p, -1, axis=0)):
                for t in np.arange(0, 1, 0.2):
                    u, v = a + (b - a) * t, a + (b - a) * (t + 0.12)
                    cv2.line(img, (int(u[0] * 16), int(u[1] * 16)), (int(v[0] * 16), int(v[1] * 16)), RULE,
                             max(1, int(rule)), cv2.LINE_AA, 4)
        p = _slot(layout, Slot.line(r, 0), w, h)
        yc = p[:, 1].mean()
        xc = 0.498 * w
        d = 0.008 * w
        cv2.polylines(img, [_pts(np.array([(xc - d, yc - d), (xc, yc), (xc - d, yc + d)]))], False, INK,
                      max(1, int(rule)), cv2.LINE_AA, 4)
    # Wall: coloured, each space the tile's own design at full strength in a ruled grid; grey,
    # hatched spaces.
    colored = name.endswith("colored")
    for r in range(5):
        for c in range(5):
            slot = layout[Slot.wall(r, c)]
            p = _slot(layout, slot.id, w, h)
            if colored and slot.printed:
                side = max(4, int(round(p[1][0] - p[0][0])))
                design = cv2.resize(_azul_design(slot.printed, side * 2), (side, side), interpolation=cv2.INTER_AREA)
                xa, ya = int(round(p[0][0])), int(round(p[0][1]))
                hh, ww = img[ya:ya + side, xa:xa + side].shape[:2]
                img[ya:ya + hh, xa:xa + ww] = design[:hh, :ww]
            else:
                _fill(img, p, (196, 200, 200))
                _hatch(img, p, (150, 154, 156), max(3.0, 0.012 * w), max(1.0, rule * 0.5))
            _outline(img, p, INK, rule)
    # Floor: seven spaces, the penalty printed inside each at its top.
    for i in range(7):
        slot = layout[Slot.floor(i)]
        p = _slot(layout, slot.id, w, h)
        _outline(img, p, INK, rule)
        if slot.number is not None:
            _write(img, str(slot.number), (p[:, 0].mean(), p[:, 1].min() - 0.012 * h), 0.022 * h, INK)
    # End bonuses as words.
    for j, text in enumerate(("row +2", "column +7", "colour +10")):
        _write(img, text, (0.845 * w, (0.85 + 0.04 * j) * h), 0.022 * h, INK)
    return img


def _pavilion(name: str, w: int, h: int) -> np.ndarray:
    layout = load_layout(name)
    img = _card(h, w, (200, 214, 206), _seed(name, w, h))
    cv2.rectangle(img, (int(0.015 * w), int(0.015 * h)), (int(0.985 * w), int(0.985 * h)), RULE,
                  max(1, int(0.003 * w)), cv2.LINE_AA)
    colored = name.endswith("colored")
    for i in range(topo.SPACES):
        slot = layout[topo.SPACE_NAMES[i]]
        p = _slot(layout, slot.id, w, h)
        if colored:
            colour = slot.printed or topo.COLORS[i % 6]
            _fill(img, p, PAV[colour])
            c = p.mean(axis=0)
            _outline(img, c + (p - c) * 0.8, (250, 250, 250), max(1, 0.003 * w))
        else:
            _fill(img, p, (210, 212, 214))
            _hatch(img, p, (170, 172, 174), max(3.0, 0.01 * w), 1.0)
        _outline(img, p, INK, max(1, 0.002 * w))
        if slot.number is not None:
            q = p[0] + (p[2] - p[0]) * 0.8
            _write(img, str(slot.number), q, 0.02 * h, INK if not colored else (250, 250, 250))
    for k in range(6):  # pillars between the outer stars: small dark rings
        t = math.radians(30 + 60 * k)
        _dot(img, (0.5 * w + 0.26 * w * math.cos(t), 0.48 * h - 0.26 * w * math.sin(t)), 0.018 * w, INK,
             max(1, int(0.004 * w)))
    for corner in topo.CORNER_NAMES:
        _outline(img, _slot(layout, corner, w, h), RULE, max(1, 0.003 * w))
    return img


def _scoring(name: str, w: int, h: int) -> np.ndarray:
    layout = load_layout(name)
    img = _card(h, w, (190, 206, 214), _seed(name, w, h))
    cell = w / 30
    nx, ny = int(round(w / cell)), int(round(h / cell))
    cw, ch = w / nx, h / ny
    cells = [(i, 0) for i in range(nx)] + [(nx - 1, j) for j in range(1, ny)] + \
        [(i, ny - 1) for i in range(nx - 2, -1, -1)] + [(0, j) for j in range(ny - 2, 0, -1)]
    for n, (i, j) in enumerate(cells):
        box = np.array([(i * cw, j * ch), ((i + 1) * cw, j * ch), ((i + 1) * cw, (j + 1) * ch), (i * cw, (j + 1) * ch)])
        _outline(img, box, RULE, 1)
        _write(img, str(n), box.mean(axis=0), 0.3 * ch, INK)
    for i in range(topo.SUPPLY_SPACES):
        p = _slot(layout, Slot.supply(i), w, h)
        _hatch(img, p, (150, 160, 170), max(3.0, 0.012 * w), 1.0)
        _outline(img, p, INK, max(1, 0.003 * w))
    return img


@lru_cache(maxsize=16)
def board_art(layout_name: str, px_per_mm: float) -> np.ndarray:
    """The printed board side ``layout_name`` at ``px_per_mm``, every slot where its layout says."""
    w, h = sheet_size(layout_name, px_per_mm)
    design = board_design(layout_name)
    if design == "wall":
        return _frozen(_azul(layout_name, w, h))
    if design == "scoring":
        return _frozen(_scoring(layout_name, w, h))
    return _frozen(_pavilion(layout_name, w, h))


@lru_cache(maxsize=64)
def factory_sprite(size_px: int, game: str = "azul") -> np.ndarray:
    """A factory display of either game, ``size_px`` square BGRA: a navy disc, a gold rim, a pale
    eight-pointed star."""
    if not isinstance(size_px, (int, np.integer)) or size_px < 4:
        raise RenderError("render.size", least=4, size=size_px)
    s_out = int(size_px)
    k = max(1, min(SUPERSAMPLE, 1024 // s_out))
    s = s_out * k
    c, R = (s / 2, s / 2), s / 2
    img = _card(s, s, DISC[0], _seed("disc", s_out))
    _dot(img, c, R * 0.97, DISC[1], max(1, int(R * 0.05)))
    star = [(c[0] + (R * 0.5 if n % 2 == 0 else R * 0.22) * math.cos(n * math.pi / 8),
             c[1] + (R * 0.5 if n % 2 == 0 else R * 0.22) * math.sin(n * math.pi / 8)) for n in range(16)]
    _outline(img, np.array(star), (200, 210, 220), max(1, R * 0.02))
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(mask, (s // 2, s // 2), s // 2 - 1, 255, -1, cv2.LINE_AA)
    return _frozen(_shrunk(img, mask, (s_out, s_out)))


@lru_cache(maxsize=8)
def table_texture(index: int, size_px: int = 512) -> np.ndarray:
    """Its tables, tileable, ``size_px`` square: 0 concrete, 1 painted planks, 2 gingham, 3 cork."""
    if not isinstance(index, (int, np.integer)) or index not in TABLES:
        raise RenderError("render.texture_one_of", tables=str(TABLES), index=index)
    s = int(size_px)
    rng = np.random.default_rng(_seed("table", index, s))
    if index == 0:
        base = cv2.GaussianBlur(rng.normal(0, 1, (s, s)).astype(np.float32), (0, 0), 6) * 20 + 150
        img = np.repeat(base[..., None], 3, axis=2) + rng.normal(0, 4, (s, s, 3)).astype(np.float32)
        for _ in range(60):  # pores
            cv2.circle(img, tuple(int(v) for v in rng.integers(0, s, 2)), int(rng.integers(1, 3)), (110, 110, 112), -1)
    elif index == 1:
        img = np.empty((s, s, 3), np.float32)
        img[:] = (170, 190, 200)
        for k in range(0, s, s // 4):
            cv2.line(img, (0, k), (s, k), (110, 124, 132), 2)
        img += cv2.GaussianBlur(rng.normal(0, 1, (s, s)).astype(np.float32), (0, 0), 2)[..., None] * 6
    elif index == 2:
        yy, xx = np.mgrid[0:s, 0:s]
        band = s // 16
        a, b = (xx // band) % 2, (yy // band) % 2
        red = np.array((60, 60, 190), np.float32)
        white = np.array((235, 238, 240), np.float32)
        img = white * (1 - 0.5 * (a + b))[..., None] + red * (0.5 * (a + b))[..., None]
        img += rng.normal(0, 3, (s, s, 3)).astype(np.float32)
    else:
        img = np.empty((s, s, 3), np.float32)
        img[:] = (90, 140, 180)
        for _ in range(s * 4):
            cv2.circle(img, tuple(int(v) for v in rng.integers(0, s, 2)), int(rng.integers(1, 4)),
                       tuple(float(v) for v in rng.uniform(-30, 30, 3) + (90, 140, 180)), -1)
    return _frozen(np.clip(img, 0, 255).astype(np.uint8))


# --------------------------------------------------------------------------- light


def light(image: np.ndarray, look: Any, camera: Any, solids: Any, glare_points: np.ndarray, glare_size: np.ndarray,
          phase: float = 0.0) -> np.ndarray:
    """Its own light, from the scene's ``look``: a lamp above the table (the gradient's direction
    places it, its strength how near it hangs), a warm key from the lamp's side and a cool fill
    from the other (the colour temperature sets the key), an S-shaped tone curve (exposure), and
    window reflections on glossy tops as bright streaks (the glare points)."""
    h, w = image.shape[:2]
    gw, gh = 64, max(8, int(64 * h / w))
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    u, v = (xx + 0.5) / gw - 0.5, (yy + 0.5) / gh - 0.5
    strength, direction, offset = look.gradient
    direction += phase
    lx, ly = 0.45 * math.cos(direction), 0.45 * math.sin(direction)
    near = 0.25 + 0.6 * (1 - strength)
    lamp = 1.0 / (1.0 + ((u - lx) ** 2 + (v - ly) ** 2) / near ** 2)
    key_share = (lamp - lamp.min()) / max(float(lamp.max() - lamp.min()), 1e-6)
    t = (look.kelvin - 2700) / 3800  # 0 warm, 1 cold
    key = np.array([0.75 + 0.3 * t, 0.95, 1.2 - 0.3 * t], np.float32)  # BGR
    fill = np.array([1.15, 1.0, 0.85], np.float32)
    colour = key_share[..., None] * key + (1 - key_share[..., None]) * fill
    gain = (0.55 + 0.6 * lamp)[..., None] * colour * look.exposure
    gain *= 1 - look.vignette * (u ** 2 + v ** 2)[..., None] * 1.5
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    lit = image.astype(np.float32) * gain / 255.0
    curved = lit * lit * (3 - 2 * np.clip(lit, 0, 1))  # smoothstep: deeper shadows, softer highlights
    out = np.clip((0.6 * curved + 0.4 * lit) * 255.0, 0, 255)
    for (x, y), s in zip(glare_points, glare_size):
        s = float(max(4.0, s))
        x0, y0 = int(x - s), int(y - s)
        if x0 < 0 or y0 < 0 or x0 + 2 * s >= w or y0 + 2 * s >= h:
            continue
        n = int(2 * s)
        streak = np.zeros((n, n), np.float32)
        cv2.line(streak, (int(s * 0.5 * 16), int(s * 1.3 * 16)), (int(s * 1.5 * 16), int(s * 0.7 * 16)), 90.0,
                 max(1, int(s * 0.18)), cv2.LINE_AA, 4)
        out[y0:y0 + n, x0:x0 + n] += cv2.GaussianBlur(streak, (0, 0), 1.0)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)
