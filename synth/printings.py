"""Boards printed as no one designed them: the layout's spaces where they lie, all else drawn at random.

A share of the training blends (:data:`art.BLEND_FREE_BOARD_SHARE`) prints its boards here, each
board side its own style drawn from the blend's seed. What stays is what every copy of the game
shares: where the spaces lie, their shapes, and which colour each coloured space carries. What is
drawn at random is everything a printer chooses: the card (any colour, plain, mottled, striped,
dotted or checked), a frame or none, ornaments and words wherever they fall, and each group of
spaces (Azul's score track, pattern lines, wall and floor; Summer Pavilion's stars and corner
spaces; the scoring board's track and supply) filled or bare, outlined thin or thick or not at
all, ruled as one grid, set on a panel, shadowed; the coloured spaces printed from the tiles' own
faces or inks at any strength up to a tile's. A model that finds or reads these boards cannot rely
on one printing's look.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..engine import pavilion_board as topo
from ..engine.zones import Slot
from . import art

#: Strength of a coloured space's print: from faint on the card to as strong as a tile.
PRINT_STRENGTH = (0.15, 1.0)
#: Words a printer may put on a board (the game's name, or letters of no meaning).
WORDS = ("AZUL", "SUMMER PAVILION", "PAVILION", "MOSAIC", "PLAYER", "SCORE", "BONUS")


@dataclass(frozen=True)
class CellStyle:
    """How one group of spaces is printed: ``fill`` (BGR or None: bare card), ``edge`` and
    ``edge_px`` (0: no outline), ``inset`` (the printed square's share of the space), ``shadow``
    (px offset of a darker copy under it, 0 for none), ``inner`` (a second, inner outline)."""

    fill: tuple[int, int, int] | None
    edge: tuple[int, int, int]
    edge_px: float
    inset: float
    shadow: float
    inner: bool


def _ink(rng: np.random.Generator, fam: art.Family) -> tuple[int, int, int]:
    """A colour a printer would use: a tile's ink (a share), a dark one, or any."""
    u = rng.random()
    if u < 0.35:
        inks = [*fam.azul_base.values(), *fam.pavilion_base.values()]
        return tuple(int(c) for c in inks[int(rng.integers(len(inks)))])  # type: ignore[return-value]
    return art.tinted_grey(rng, 10, 110, 30) if u < 0.75 else art.any_colour(rng)


def _card_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    u = rng.random()
    return art.tinted_grey(rng, 150, 252, 35) if u < 0.7 else art.any_colour(rng) if u < 0.9 else art.tinted_grey(rng, 10, 110, 30)


def _card(rng: np.random.Generator, h: int, w: int, colour: tuple[int, int, int], fam: art.Family) -> np.ndarray:
    """The bare card (float32): plain and mottled, or with a faint to strong all-over pattern."""
    img = art._paper(h, w, colour, int(rng.integers(1 << 31)), mottle=float(rng.uniform(0, 10)))
    kind = rng.choice(["plain", "stripes", "dots", "checks", "gradient", "diamonds"], p=[0.35, 0.15, 0.15, 0.1, 0.1, 0.15])
    ink = _ink(rng, fam)
    strength = float(rng.uniform(0.05, 0.5))
    if kind == "plain":
        return img
    period = float(rng.uniform(0.015, 0.08)) * w
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "gradient":
        angle = rng.uniform(0, 2 * np.pi)
        t = (np.cos(angle) * xs + np.sin(angle) * ys) / max(w, h)
        mask = (t - t.min()) / max(float(np.ptp(t)), 1e-6)
    elif kind == "stripes":
        angle = rng.uniform(0, np.pi)
        t = (np.cos(angle) * xs + np.sin(angle) * ys) / period
        mask = (np.sin(2 * np.pi * t) > rng.uniform(-0.6, 0.6)).astype(np.float32)
    elif kind == "checks":
        mask = ((np.floor(xs / period) + np.floor(ys / period)) % 2).astype(np.float32)
    else:
        mask = np.zeros((h, w), np.float32)
        r = period * rng.uniform(0.1, 0.3)
        for j in range(int(h / period) + 2):
            for i in range(int(w / period) + 2):
                c = ((i + 0.5 * (j % 2)) * period, j * period)
                if kind == "dots":
                    art._circle(mask, c, r, 1.0)
                else:
                    art._poly(mask, np.array([(c[0], c[1] - r), (c[0] + r, c[1]), (c[0], c[1] + r), (c[0] - r, c[1])]), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.6)
    img += (np.array(ink, np.float32) - img) * (mask * strength)[..., None]
    return img


def _frame(img: np.ndarray, rng: np.random.Generator, fam: art.Family) -> None:
    """A frame round the card: none, one or two ruled lines, or a band with or without a motif."""
    h, w = img.shape[:2]
    kind = rng.choice(["none", "line", "double", "band"], p=[0.25, 0.25, 0.15, 0.35])
    if kind == "none":
        return
    colour = _ink(rng, fam)
    if kind == "band":
        band = float(rng.uniform(0.008, 0.035)) * w
        motif = _ink(rng, fam) if rng.random() < 0.6 else colour
        art._ornament_band(img, w, h, band, colour, motif)
        return
    at = float(rng.uniform(0.0, 0.03)) * w
    for k in range(1 if kind == "line" else 2):
        d = at + k * float(rng.uniform(0.006, 0.015)) * w
        thick = max(1, int(round(rng.uniform(0.001, 0.008) * w)))
        art._poly(img, np.array([(d, d), (w - d, d), (w - d, h - d), (d, h - d)]), colour, thick)


def _ornaments(img: np.ndarray, rng: np.random.Generator, fam: art.Family, count: int) -> None:
    """Shapes and words anywhere on the card: the spaces are printed over them."""
    h, w = img.shape[:2]
    for _ in range(count):
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        r = float(rng.uniform(0.01, 0.06)) * w
        colour = _ink(rng, fam) if rng.random() < 0.8 else art.tinted_grey(rng, 150, 252, 35)
        thick = -1 if rng.random() < 0.6 else max(1, int(round(rng.uniform(0.002, 0.006) * w)))
        kind = rng.choice(["circle", "star", "diamond", "line", "word", "rect"])
        if kind == "circle":
            art._circle(img, c, r, colour, thick)
        elif kind == "star":
            art._poly(img, art._star_points(c, r, r * rng.uniform(0.35, 0.6), int(rng.integers(4, 9)), rng.uniform(0, 90)),
                      colour, thick)
        elif kind == "diamond":
            art._poly(img, np.array([(c[0], c[1] - r), (c[0] + r, c[1]), (c[0], c[1] + r), (c[0] - r, c[1])]), colour, thick)
        elif kind == "rect":
            d = r * rng.uniform(0.3, 1.0)
            art._poly(img, np.array([(c[0] - r, c[1] - d), (c[0] + r, c[1] - d), (c[0] + r, c[1] + d), (c[0] - r, c[1] + d)]),
                      colour, thick)
        elif kind == "line":
            a = rng.uniform(0, np.pi)
            d = np.array([np.cos(a), np.sin(a)]) * r * 2
            art._line(img, np.array(c) - d, np.array(c) + d, colour, max(1, int(round(rng.uniform(0.001, 0.006) * w))))
        else:
            art._text(img, str(rng.choice(WORDS)), c, r * rng.uniform(0.5, 1.0), colour, float(rng.uniform(0.08, 0.18)))


def _style(rng: np.random.Generator, card: tuple[int, int, int], fam: art.Family) -> CellStyle:
    """One group's printing: a filled, outlined, ruled or bare look of its own."""
    u = rng.random()
    fill = None if u < 0.3 else art.tinted_grey(rng, 150, 252, 35) if u < 0.75 else card if u < 0.85 else art.any_colour(rng)
    edged = fill is None or fill == card or rng.random() < 0.7  # a space is always printed somehow
    return CellStyle(fill=fill, edge=_ink(rng, fam), edge_px=float(rng.uniform(0.001, 0.007)) if edged else 0.0,
                     inset=float(rng.choice([1.0, rng.uniform(0.8, 1.0)])),
                     shadow=float(rng.uniform(0.002, 0.006)) if rng.random() < 0.2 else 0.0,
                     inner=bool(rng.random() < 0.2))


def _cells(img: np.ndarray, polys: list[np.ndarray], style: CellStyle, panel: tuple[int, int, int] | None = None,
           pad: float = 0.0) -> None:
    """Print a group of spaces (pixel polygons) in ``style``, on a panel behind them where given."""
    w = img.shape[1]
    if panel is not None and polys:
        lo = np.min([p.min(axis=0) for p in polys], axis=0) - pad
        hi = np.max([p.max(axis=0) for p in polys], axis=0) + pad
        art._poly(img, np.array([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])]), panel)
    for p in polys:
        q = p.mean(axis=0) + (p - p.mean(axis=0)) * style.inset
        if style.shadow:
            art._poly(img, q + style.shadow * w, art._shade(style.fill or style.edge, -0.4))
        if style.fill is not None:
            art._poly(img, q, style.fill)
        if style.edge_px:
            thick = max(1, int(round(style.edge_px * w)))
            art._poly(img, art._inset(q, thick / 2), style.edge, thick)
            if style.inner:
                art._poly(img, q.mean(axis=0) + (q - q.mean(axis=0)) * 0.7, style.edge, max(1, thick // 2))


def _numbers(img: np.ndarray, polys: list[np.ndarray], labels: list[str], rng: np.random.Generator,
             colour: tuple[int, int, int], above: bool) -> None:
    """Numbers in their spaces, or just above them."""
    for p, label in zip(polys, labels):
        side = float(np.linalg.norm(p[1] - p[0]))
        c = p.mean(axis=0)
        if above:
            c = c - (0, side * rng.uniform(0.6, 0.8))
        art._text(img, label, c, side * (0.25 if above else rng.uniform(0.25, 0.5)), colour, 0.12)


def _azul(layout_name: str, w: int, h: int, fam: art.Family, rng: np.random.Generator) -> np.ndarray:
    layout = load_layout(layout_name)
    card = _card_colour(rng)
    img = _card(rng, h, w, card, fam)
    _frame(img, rng, fam)
    _ornaments(img, rng, fam, int(rng.integers(0, 8)))

    def px(slot_id: str) -> np.ndarray:
        return art._slot_px(layout, slot_id, w, h)

    def panel() -> tuple[int, int, int] | None:
        return None if rng.random() < 0.6 else (art.tinted_grey(rng, 150, 252, 35) if rng.random() < 0.6 else art.any_colour(rng))

    track = [np.array([(x * w, y * h) for x, y in cell]) for cell in layout.track]
    if rng.random() < 0.85:
        _cells(img, track, _style(rng, card, fam), panel(), 0.004 * w)
        if rng.random() < 0.6:
            fifth = _ink(rng, fam)
            for n in range(5, len(track), 5):
                art._poly(img, track[n].mean(axis=0) + (track[n] - track[n].mean(axis=0)) * 0.85, fifth)
        if rng.random() < 0.8:
            every = 1 if rng.random() < 0.7 else 5
            shown = [n for n in range(len(track)) if n % every == 0]
            _numbers(img, [track[n] for n in shown], [str(n) for n in shown], rng, _ink(rng, fam), False)
    lines = [px(Slot.line(r, i)) for r in range(5) for i in range(r + 1)]
    _cells(img, lines, _style(rng, card, fam), panel(), 0.008 * w)
    if rng.random() < 0.5:  # arrows from each pattern line to its wall row
        colour, thick = _ink(rng, fam), max(1, int(round(0.003 * w)))
        for r in range(5):
            a, b = px(Slot.line(r, 0)), px(Slot.wall(r, 0))
            y = (a[0][1] + a[2][1]) / 2
            x0, x1 = a[1][0] + 0.004 * w, b[0][0] - 0.004 * w
            art._line(img, (x0, y), (x1, y), colour, thick)
            art._poly(img, np.array([(x1, y), (x1 - 0.01 * w, y - 0.007 * w), (x1 - 0.01 * w, y + 0.007 * w)]), colour)
    wall = [px(Slot.wall(r, c)) for r in range(5) for c in range(5)]
    style = _style(rng, card, fam)
    _cells(img, wall, style, panel(), float(rng.uniform(0.0, 0.012)) * w)
    if layout_name.endswith("colored"):
        _coloured_wall(img, layout, wall, rng, fam, style)
    floor = [px(Slot.floor(i)) for i in range(7)]
    _cells(img, floor, _style(rng, card, fam), panel(), 0.006 * w)
    if rng.random() < 0.8:
        labels = [str(layout[Slot.floor(i)].number) for i in range(7)]
        _numbers(img, floor, labels, rng, _ink(rng, fam), bool(rng.random() < 0.6))
    return img


def _coloured_wall(img: np.ndarray, layout, wall: list[np.ndarray], rng: np.random.Generator, fam: art.Family,
                   style: CellStyle) -> None:
    """The coloured wall's spaces, each in its tile's colour: the tile's face printed flat, its ink
    filling the space, a mark of its ink in the middle, or a ring of it."""
    mode = rng.choice(["face", "flat", "mark", "ring"], p=[0.45, 0.3, 0.15, 0.1])
    strength = float(rng.uniform(*PRINT_STRENGTH))
    turn = float(rng.uniform(-0.4, 0.4)) if rng.random() < 0.3 else 0.0
    w = img.shape[1]
    for n, p in enumerate(wall):
        kind = layout[Slot.wall(*divmod(n, 5))].printed
        q = p.mean(axis=0) + (p - p.mean(axis=0)) * style.inset
        ink = tuple(int(c) for c in art.hue_turned(np.array([[fam.azul_base[kind]]], np.uint8), turn)[0, 0])
        if mode == "face":
            side = max(4, int(round(q[1][0] - q[0][0])))
            tile, _ = art.tile_sprite("azul", kind, side, fam.name)
            art._paste(img, art.hue_turned(tile[..., :3], turn), q[0][0], q[0][1], q[2][0], q[2][1], strength)
        elif mode == "flat":
            region = np.zeros(img.shape[:2], np.float32)
            art._poly(region, q, 1.0)
            img += (np.array(ink, np.float32) - img) * (region * strength)[..., None]
        elif mode == "mark":
            art._circle(img, q.mean(axis=0), float(np.linalg.norm(q[1] - q[0])) * rng.uniform(0.15, 0.35), ink)
        else:  # a ring inside the space's outline
            art._poly(img, art._inset(q, style.edge_px * w + 0.006 * w), ink, max(1, int(round(0.006 * w))))
        if style.edge_px and mode in ("face", "flat"):  # the outline over the print
            art._poly(img, art._inset(q, max(1, int(round(style.edge_px * w))) / 2), style.edge,
                      max(1, int(round(style.edge_px * w))))


def _pavilion(layout_name: str, w: int, h: int, fam: art.Family, rng: np.random.Generator) -> np.ndarray:
    layout = load_layout(layout_name)
    colored = layout_name.endswith("colored")
    card = _card_colour(rng)
    img = _card(rng, h, w, card, fam)
    _frame(img, rng, fam)
    _ornaments(img, rng, fam, int(rng.integers(0, 10)))
    if rng.random() < 0.6:  # something in each gap between the stars
        centre, outer = topo.star_center(0), [topo.star_center(s) for s in range(1, 7)]
        colour, r = (art.tinted_grey(rng, 150, 252, 35) if rng.random() < 0.5 else _ink(rng, fam)), float(rng.uniform(0.012, 0.03)) * w
        for s in range(6):
            for a, b in ((centre, outer[s]), (outer[s], outer[(s + 1) % 6])):
                art._circle(img, ((a[0] + b[0]) / 2 * w, (a[1] + b[1]) / 2 * h), r, colour)
    style = _style(rng, card, fam)
    strength = float(rng.uniform(*PRINT_STRENGTH))
    grey = art.tinted_grey(rng, 150, 252, 35) if rng.random() < 0.5 else art.any_colour(rng)
    numbers = rng.random() < 0.8
    number_ink = _ink(rng, fam)
    for i in range(topo.SPACES):
        slot = layout[topo.SPACE_NAMES[i]]
        p = art._slot_px(layout, slot.id, w, h)
        if colored:
            base = fam.pavilion_base[slot.printed or topo.COLORS[i % 6]]
            fill = art._mix(card, base, strength)
        else:
            fill = grey
        _cells(img, [p], CellStyle(fill, style.edge, style.edge_px, style.inset, style.shadow, style.inner))
        if numbers and slot.number is not None:
            art._text(img, str(slot.number), p[0] + (p[2] - p[0]) * 0.76, 0.022 * h, number_ink, 0.16)
    corners = [art._slot_px(layout, c, w, h) for c in topo.CORNER_NAMES]
    _cells(img, corners, _style(rng, card, fam))
    if rng.random() < 0.5:  # the player's colour near the top
        art._circle(img, (0.5 * w, 0.075 * h), float(rng.uniform(0.02, 0.04)) * w, art.any_colour(rng))
    return img


def _scoring(layout_name: str, w: int, h: int, fam: art.Family, rng: np.random.Generator) -> np.ndarray:
    layout = load_layout(layout_name)
    card = _card_colour(rng)
    img = _card(rng, h, w, card, fam)
    cell = float(rng.uniform(0.028, 0.04)) * w
    nx, ny = max(3, int(round(w / cell))), max(3, int(round(h / cell)))
    cw, ch = w / nx, h / ny
    if rng.random() < 0.6:
        art._poly(img, np.array([(cw, ch), (w - cw, ch), (w - cw, h - ch), (cw, h - ch)]), art.any_colour(rng))
    _ornaments(img, rng, fam, int(rng.integers(0, 8)))
    ring = [(i, 0) for i in range(nx)] + [(nx - 1, j) for j in range(1, ny)] + \
           [(i, ny - 1) for i in range(nx - 2, -1, -1)] + [(0, j) for j in range(ny - 2, 0, -1)]
    track = [np.array([(i * cw, j * ch), ((i + 1) * cw, j * ch), ((i + 1) * cw, (j + 1) * ch), (i * cw, (j + 1) * ch)])
             for i, j in ring]
    _cells(img, track, _style(rng, card, fam))
    if rng.random() < 0.8:
        _numbers(img, track, [str(n) for n in range(len(track))], rng, _ink(rng, fam), False)
    if rng.random() < 0.7:  # the rounds, each in its wild colour
        r = float(rng.uniform(0.015, 0.03)) * w
        for k in range(6):
            colour = fam.pavilion_base[topo.COLORS[topo.WILD_BY_ROUND[k]]]
            art._circle(img, (w * (0.3 + 0.08 * k), h * 0.17), r, art._mix(card, colour, float(rng.uniform(0.3, 1.0))))
    supply = [art._slot_px(layout, Slot.supply(i), w, h) for i in range(topo.SUPPLY_SPACES)]
    _cells(img, supply, _style(rng, card, fam))
    return img


def board(layout_name: str, w: int, h: int, fam: art.Family, seed: int) -> np.ndarray:
    """BGR uint8 image ``w`` x ``h`` of board side ``layout_name`` printed in the style that
    ``seed`` draws (every side of one seed its own), in ``fam``'s tile inks and faces."""
    rng = np.random.default_rng([seed, *layout_name.encode()])
    design = art.board_design(layout_name)
    if design == "wall":
        img = _azul(layout_name, w, h, fam, rng)
    elif design == "scoring":
        img = _scoring(layout_name, w, h, fam, rng)
    else:
        img = _pavilion(layout_name, w, h, fam, rng)
    return art._grain(img, int(rng.integers(1 << 31)), float(rng.uniform(1.0, 5.0)))

