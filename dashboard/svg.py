"""The table as the engine has it, drawn as SVG for the pages: each board, and the displays with
the centre (and Summer Pavilion's supply).

Tiles are drawn as the game's tiles look (:func:`tile`): Azul's blue, yellow with its red
pattern, red, black with its lattice, light blue with its white star; Summer Pavilion's rhombuses.
A coloured wall's empty spaces show their print, pale. Every zone a person may confirm carries
``data-zone`` (its observation name, less the ``boards.P.`` of a board's), so that a page asks
about the space tapped, and ``data-holds`` (what lies there), which the page words as its tooltip; zones to confirm are outlined in dashed red, those the last event changed
in amber. Drawings scale to any width (``viewBox`` only): the page sizes them.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from ..engine import pavilion_board as topo
from ..engine.azul import COLORS as AZUL_COLORS
from ..engine.azul import FLOOR_PENALTIES, FLOOR_SLOTS, LINE_SLOTS, WALL_SLOTS, wall_color
from ..engine.games import GameSpec
from ..engine.zones import HAND, SLOT, Zone, ZoneError

#: Tile colours as the pages draw them (a tile's face; its pattern is drawn over it).
FILL = {"blue": "#1d4f9c", "yellow": "#f0b323", "red": "#d8432f", "black": "#26262b", "white": "#86cfe6",
        "joker": "#7e4fb8", "first_player": "#f6f4ee", "purple": "#7b3fa0", "green": "#3f9a4a", "orange": "#f08a24"}
#: The pages' inks: the card, its print, and the two outlines.
CARD, PRINT, EDGE = "#f4ead6", "#8a7556", "#5b4a36"
UNSURE, CHANGED = "#e0281e", "#ffb000"
#: One Azul space, in drawing units.
CELL = 40


def board_svg(observation: dict[str, Any], player: int, spec: GameSpec, options: dict[str, Any], unsure: list[str],
              changed: list[str] | None = None) -> str:
    """Player ``player``'s board of ``observation`` (a game of ``spec`` with ``options``), the
    zones in ``unsure`` (observation names) outlined as in doubt and those in ``changed`` as just
    changed."""
    board = next(b for b in observation["boards"] if b["player"] == player)
    marks = _Marks(_on_board(unsure, player), _on_board(changed or [], player))
    if spec.board == "wall":
        return _azul(board["slots"], options.get(spec.face) == "grey", marks)
    return _pavilion(board["slots"], board.get("hand", {}), options.get(spec.face) != "grey", marks)


def table_svg(observation: dict[str, Any], spec: GameSpec, unsure: list[str], changed: list[str] | None = None) -> str:
    """The displays on a ring round the centre's tiles (the tiles of ``spec``'s shape), and the
    supply beneath where the game has one."""
    marks = _Marks(set(unsure), set(changed or []))
    displays = observation["factories"]
    n = max(len(displays), 1)
    disc = 1.45 * CELL
    # Room for the centre's tiles inside the ring, and for the discs side by side on it.
    ring = max(disc + 12 + 2.3 * CELL, disc / (math.sin(math.pi / n) * 0.92) if n > 1 else 0.0)
    size = ring + disc + 24
    parts = []
    for i, display in enumerate(displays):
        a = math.radians(90 - 360 * i / n)
        cx, cy = ring * math.cos(a), -ring * math.sin(a)
        zone = Zone.display(i)
        parts.append(f'<g class="display" data-zone="{zone}">'
                     f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{disc:.1f}" fill="#f6eedc" stroke="#2d5aa8" stroke-width="3"/>'
                     f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{disc - 7:.1f}" fill="none" stroke="#e08a2c" stroke-width="2"/>')
        t = disc * 0.52
        for k, kind in enumerate(display["tiles"][:4]):
            dx, dy = (k % 2 - 0.5) * t * 1.08, (k // 2 - 0.5) * t * 1.08
            parts.append(tile(kind, spec.shape, cx + dx, cy + dy, t))
        lx, ly = (ring + disc + 12) * math.cos(a), -(ring + disc + 12) * math.sin(a) + 5
        parts.append(f'<text x="{lx:.1f}" y="{ly:.1f}" class="label">{i + 1}</text>')
        parts.append(_mark(marks, zone, f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{disc + 4:.1f}"'))
        parts.append(f'<circle class="zone" data-zone="{zone}"{_holds(display["tiles"])} cx="{cx:.1f}" cy="{cy:.1f}" '
                     f'r="{disc:.1f}"/></g>')
    parts.append(_centre(observation["center"], spec.shape, ring - disc - 12, marks))
    height = 2 * size
    supply = observation.get("supply")
    if supply is not None:
        parts.append(_supply(supply, spec.shape, -size, size + 10, 2 * size, marks))
        height += 2.2 * CELL
    return _svg(-size, -size, 2 * size, height, parts, "table")


def _on_board(names: list[str], player: int) -> set[str]:
    """The zones among ``names`` on ``player``'s board as its drawing names them: a slot by its id,
    the tiles beside it as ``hand`` (a name of no zone is left out)."""
    out: set[str] = set()
    for name in names:
        try:
            zone = Zone.parse(name)
        except ZoneError:
            continue
        if zone.player == player and zone.kind in (SLOT, HAND):
            out.add(zone.slot if zone.slot is not None else HAND)
    return out


def _holds(kinds: list[str]) -> str:
    """A zone's content as an attribute (``data-holds``: its kinds, comma-separated; empty: nothing),
    which the page words in its own language (a tooltip), with the zone's place."""
    return f' data-holds="{escape(",".join(kinds))}"'


def _counted(counts: dict[str, int]) -> list[str]:
    """``{kind: n}`` as a list of kinds, each as many times as it lies there."""
    return [kind for kind, n in counts.items() for _ in range(n)]


class _Marks:
    def __init__(self, unsure: set[str], changed: set[str]) -> None:
        self.unsure, self.changed = unsure, changed


def _mark(marks: _Marks, zone: str, shape: str) -> str:
    """An outline round ``zone`` (``shape``: an unclosed SVG element) where it is in doubt or just changed."""
    if zone in marks.unsure:
        return f'{shape} fill="none" stroke="{UNSURE}" stroke-width="4" stroke-dasharray="7 4" class="unsure"/>'
    if zone in marks.changed:
        return f'{shape} fill="none" stroke="{CHANGED}" stroke-width="4" class="changed"/>'
    return ""


def _centre(center: dict[str, int], shape: str, radius: float, marks: _Marks) -> str:
    """The centre's tiles, one of each kind with its count."""
    kinds = [(k, n) for k, n in center.items() if n]
    zone = Zone.centre()
    parts = [f'<g data-zone="{zone}"><circle class="centre" cx="0" cy="0" r="{radius:.1f}" fill="#00000010" '
             'stroke="#00000030" stroke-dasharray="4 4"/>']
    per_row = 4 if len(kinds) > 4 else max(len(kinds), 1)
    rows = math.ceil(len(kinds) / per_row) if kinds else 0
    t = min(0.9 * CELL, 1.75 * radius / (per_row * 1.25), 1.3 * radius / max(rows * 1.5, 1))
    for k, (kind, n) in enumerate(kinds):
        x = (k % per_row - (per_row - 1) / 2) * t * 1.25
        y = (k // per_row - (rows - 1) / 2) * t * 1.5
        parts.append(tile(kind, shape, x, y, t))
        if n > 1:
            parts.append(_badge(x + t * 0.45, y + t * 0.45, n, t * 0.3))
    parts.append(_mark(marks, zone, f'<circle cx="0" cy="0" r="{radius + 3:.1f}"'))
    parts.append(f'<circle class="zone" data-zone="{zone}"{_holds(_counted(center))} cx="0" cy="0" r="{radius:.1f}"/></g>')
    return "".join(parts)


def _badge(cx: float, cy: float, n: int, r: float) -> str:
    """A count on a tile: a small dark disc with the number."""
    return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#222" stroke="#fff" stroke-width="1.5"/>'
            f'<text x="{cx:.1f}" y="{cy + r * 0.42:.1f}" class="count" font-size="{r * 1.25:.1f}">{n}</text>')


def _supply(supply: list[str | None], shape: str, x0: float, y0: float, width: float, marks: _Marks) -> str:
    """The supply's spaces (Summer Pavilion's ten) in a row, its tiles of ``shape``."""
    step = width / len(supply)
    parts = []
    for i, kind in enumerate(supply):
        cx, cy = x0 + (i + 0.5) * step, y0 + CELL
        zone = Zone.supply(i)
        parts.append(f'<rect x="{cx - step * 0.45:.1f}" y="{cy - step * 0.45:.1f}" width="{step * 0.9:.1f}" '
                     f'height="{step * 0.9:.1f}" rx="6" fill="{CARD}" stroke="{PRINT}"/>')
        if kind is not None:
            parts.append(tile(kind, shape, cx, cy, step * 0.8))
        parts.append(_mark(marks, zone, f'<rect x="{cx - step * 0.48:.1f}" y="{cy - step * 0.48:.1f}" '
                                        f'width="{step * 0.96:.1f}" height="{step * 0.96:.1f}" rx="6"'))
        parts.append(f'<rect class="zone" data-zone="{zone}"{_holds([kind] if kind else [])} x="{cx - step * 0.45:.1f}" y="{cy - step * 0.45:.1f}" '
                     f'width="{step * 0.9:.1f}" height="{step * 0.9:.1f}"/>')
    return "".join(parts)


# --------------------------------------------------------------------------- tiles


def tile(kind: str, shape: str, cx: float, cy: float, size: float, pale: bool = False, turn: float = 0.0) -> str:
    """One tile of ``shape`` (``GameSpec.shape``) centred at (``cx``, ``cy``), ``size`` across:
    Azul's squares with their patterns, Summer Pavilion's rhombuses (``turn``: the rhombus's long
    axis, degrees from +x) and its round start-player token. ``pale``: a space's print rather
    than a tile."""
    opacity = ' opacity="0.3"' if pale else ""
    if shape == "rhombus":
        if kind == "first_player":
            return (f'<g{opacity}><circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.42:.1f}" fill="{FILL[kind]}" '
                    f'stroke="{EDGE}" stroke-width="1.5"/><text x="{cx:.1f}" y="{cy + size * 0.16:.1f}" '
                    f'class="one" font-size="{size * 0.45:.1f}">1</text></g>')
        return _rhombus_tile(kind, cx, cy, size, turn, opacity)
    h = size / 2
    x, y = cx - h, cy - h
    fill = FILL.get(kind, "#999")
    shadow = "" if pale else (f'<rect x="{x + size * 0.05:.1f}" y="{y + size * 0.08:.1f}" width="{size:.1f}" '
                              f'height="{size:.1f}" rx="{size * 0.12:.1f}" fill="#00000038"/>')
    parts = [f'<g{opacity}>{shadow}<rect x="{x:.1f}" y="{y:.1f}" width="{size:.1f}" height="{size:.1f}" '
             f'rx="{size * 0.12:.1f}" fill="{fill}" stroke="#00000055" stroke-width="1.2"/>',
             f'<rect x="{x + size * 0.07:.1f}" y="{y + size * 0.07:.1f}" width="{size * 0.86:.1f}" '
             f'height="{size * 0.86:.1f}" rx="{size * 0.08:.1f}" fill="none" stroke="#ffffff40" stroke-width="1.2"/>']
    s = size
    if kind == "yellow":  # a red four-petalled flower
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            parts.append(f'<circle cx="{cx + dx * s * 0.17:.1f}" cy="{cy + dy * s * 0.17:.1f}" r="{s * 0.11:.1f}" fill="#c4321f"/>')
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{s * 0.07:.1f}" fill="#f7d66b"/>')
    elif kind == "black":  # a light-blue lattice: two diamonds and the diagonals
        for k in (0.38, 0.2):
            parts.append(f'<path d="M{cx:.1f},{cy - s * k:.1f} L{cx + s * k:.1f},{cy:.1f} L{cx:.1f},{cy + s * k:.1f} '
                         f'L{cx - s * k:.1f},{cy:.1f}Z" fill="none" stroke="#7fc4e4" stroke-width="{s * 0.045:.1f}"/>')
        parts.append(f'<path d="M{x + s * 0.2:.1f},{y + s * 0.2:.1f} L{x + s * 0.8:.1f},{y + s * 0.8:.1f} '
                     f'M{x + s * 0.8:.1f},{y + s * 0.2:.1f} L{x + s * 0.2:.1f},{y + s * 0.8:.1f}" '
                     f'stroke="#7fc4e4" stroke-width="{s * 0.03:.1f}"/>')
    elif kind == "white":  # a white snowflake on light blue
        for a in (0, 60, 120):
            dx, dy = math.cos(math.radians(a)) * s * 0.32, math.sin(math.radians(a)) * s * 0.32
            parts.append(f'<line x1="{cx - dx:.1f}" y1="{cy - dy:.1f}" x2="{cx + dx:.1f}" y2="{cy + dy:.1f}" '
                         f'stroke="#ffffff" stroke-width="{s * 0.07:.1f}" stroke-linecap="round"/>')
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{s * 0.09:.1f}" fill="#1d4f9c"/>')
    elif kind == "blue":
        parts.append(f'<path d="M{cx:.1f},{cy - s * 0.24:.1f} L{cx + s * 0.24:.1f},{cy:.1f} L{cx:.1f},{cy + s * 0.24:.1f} '
                     f'L{cx - s * 0.24:.1f},{cy:.1f}Z" fill="none" stroke="#5d8fd8" stroke-width="{s * 0.05:.1f}"/>')
    elif kind == "red":
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{s * 0.2:.1f}" fill="none" stroke="#f08a74" '
                     f'stroke-width="{s * 0.05:.1f}"/>')
    elif kind == "joker":
        points = " ".join(f"{cx + math.cos(math.radians(90 + 36 * k)) * s * (0.34 if k % 2 == 0 else 0.14):.1f},"
                          f"{cy - math.sin(math.radians(90 + 36 * k)) * s * (0.34 if k % 2 == 0 else 0.14):.1f}"
                          for k in range(10))
        parts.append(f'<polygon points="{points}" fill="#ffe07a"/>')
    elif kind == "first_player":
        parts.append(f'<text x="{cx:.1f}" y="{cy + s * 0.2:.1f}" class="one" font-size="{s * 0.6:.1f}">1</text>')
    parts.append("</g>")
    return "".join(parts)


def _rhombus(cx: float, cy: float, size: float, turn: float) -> list[tuple[float, float]]:
    """A 60-degree rhombus centred at (cx, cy), its long diagonal ``size`` along ``turn`` degrees."""
    a = math.radians(turn)
    ux, uy = math.cos(a), -math.sin(a)
    vx, vy = -uy, ux
    long, short = size / 2, size / 2 / math.sqrt(3)
    return [(cx + ux * long, cy + uy * long), (cx + vx * short, cy + vy * short),
            (cx - ux * long, cy - uy * long), (cx - vx * short, cy - vy * short)]


def _points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def _rhombus_tile(kind: str, cx: float, cy: float, size: float, turn: float, opacity: str) -> str:
    outer = _rhombus(cx, cy, size, turn)
    inner = _rhombus(cx, cy, size * 0.55, turn)
    return (f'<g{opacity}><polygon points="{_points(outer)}" fill="{FILL.get(kind, "#999")}" stroke="#00000055" '
            f'stroke-width="1.2"/><polygon points="{_points(inner)}" fill="none" stroke="#ffffff70" stroke-width="1.5"/></g>')


# --------------------------------------------------------------------------- boards


def _azul(slots: dict[str, str], grey: bool, marks: _Marks) -> str:
    parts = [f'<rect x="-8" y="-8" width="{10.9 * CELL + 16:.0f}" height="{6.7 * CELL + 16:.0f}" rx="14" fill="{CARD}" '
             'stroke="#2d5aa8" stroke-width="5"/>']
    for r in range(5):
        for i, slot in enumerate(LINE_SLOTS[r]):  # line.r.0 is the rightmost space
            parts.append(_space(slot, (4 - i) * CELL, r * CELL, slots, marks))
        for c, slot in enumerate(WALL_SLOTS[r]):
            printed = None if grey else AZUL_COLORS[wall_color(r, c)]
            parts.append(_space(slot, 5.9 * CELL + c * CELL, r * CELL, slots, marks, printed, grey))
    for i, (penalty, slot) in enumerate(zip(FLOOR_PENALTIES, FLOOR_SLOTS)):
        x, y = i * CELL * 1.08, 5.55 * CELL
        parts.append(f'<text x="{x + CELL / 2:.1f}" y="{y - 4:.1f}" class="penalty">{-penalty}</text>')
        parts.append(_space(slot, x, y, slots, marks))
    return _svg(-10, -10, 10.9 * CELL + 20, 6.7 * CELL + 20, parts, "board azul")


def _space(slot: str, x: float, y: float, slots: dict[str, str], marks: _Marks, printed: str | None = None,
           grey: bool = False) -> str:
    """One square space at (x, y) (its top left), with its square tile or its print."""
    s = CELL - 4
    cx, cy = x + CELL / 2 - 2, y + CELL / 2 - 2
    kind = slots.get(slot)
    base = "#d9d2c3" if grey else CARD
    parts = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{s}" height="{s}" rx="4" fill="{base}" stroke="{PRINT}" stroke-width="1"/>']
    if kind is not None:
        parts.append(tile(kind, "square", cx, cy, s - 2))
    elif printed is not None:
        parts.append(tile(printed, "square", cx, cy, s - 2, pale=True))
    parts.append(_mark(marks, slot, f'<rect x="{x - 2:.1f}" y="{y - 2:.1f}" width="{s + 4}" height="{s + 4}" rx="6"'))
    parts.append(f'<rect class="zone" data-zone="{escape(slot)}"{_holds([kind] if kind else [])} x="{x:.1f}" y="{y:.1f}" '
                 f'width="{s}" height="{s}"/>')
    return "".join(parts)


def _pavilion(slots: dict[str, str], hand: dict[str, int], colored: bool, marks: _Marks) -> str:
    side = 1.42 * CELL  # a rhombus's side: the star's radius over the square root of 3
    reach = side * math.sqrt(3)
    spread = 2.1 * reach
    parts = [f'<rect x="{-3.4 * reach:.1f}" y="{-3.25 * reach:.1f}" width="{6.8 * reach:.1f}" height="{7.5 * reach:.1f}" '
             f'rx="16" fill="{CARD}" stroke="#2f7d6b" stroke-width="5"/>']
    for star in range(topo.STARS):
        if star == topo.CENTRAL:
            sx = sy = 0.0
        else:
            d = math.radians(topo.STAR_DIRECTION[star])
            sx, sy = spread * math.cos(d), -spread * math.sin(d)
        printed_kind = topo.STAR_NAMES[star] if colored and star != topo.CENTRAL else None
        for k in range(1, 7):
            index = topo.space_index(star, k)
            angle = topo.space_angle(index)
            a = math.radians(angle)
            cx, cy = sx + math.cos(a) * reach / 2, sy - math.sin(a) * reach / 2
            name = topo.SPACE_NAMES[index]
            corners = _rhombus(cx, cy, reach - 3, angle)
            parts.append(f'<polygon points="{_points(corners)}" fill="{CARD}" stroke="{PRINT}" stroke-width="1"/>')
            kind = slots.get(name)
            if kind is not None:
                parts.append(tile(kind, "rhombus", cx, cy, reach - 5, turn=angle))
            elif printed_kind is not None:
                parts.append(tile(printed_kind, "rhombus", cx, cy, reach - 5, pale=True, turn=angle))
            number = topo.PRINTED["colored" if colored else "grey"][index]
            tx, ty = sx + math.cos(a) * reach * 0.78, sy - math.sin(a) * reach * 0.78
            parts.append(f'<text x="{tx:.1f}" y="{ty + 4:.1f}" class="number">{number}</text>')
            parts.append(_mark(marks, name, f'<polygon points="{_points(_rhombus(cx, cy, reach + 2, angle))}"'))
            parts.append(f'<polygon class="zone" data-zone="{name}"{_holds([kind] if kind else [])} points="{_points(corners)}"/>')
    corner_at = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    for name, (ux, uy) in zip(topo.CORNER_NAMES, corner_at):
        cx, cy = ux * 2.85 * reach, uy * 2.7 * reach
        size = reach * 0.55
        parts.append(f'<rect x="{cx - size / 2:.1f}" y="{cy - size / 2:.1f}" width="{size:.1f}" height="{size:.1f}" rx="5" '
                     f'fill="#e9dcc0" stroke="{PRINT}"/>')
        if slots.get(name):
            parts.append(tile(slots[name], "rhombus", cx, cy, size * 0.95, turn=90))
        parts.append(_mark(marks, name, f'<rect x="{cx - size / 2 - 3:.1f}" y="{cy - size / 2 - 3:.1f}" '
                                        f'width="{size + 6:.1f}" height="{size + 6:.1f}" rx="6"'))
        parts.append(f'<rect class="zone" data-zone="{name}"{_holds([slots[name]] if slots.get(name) else [])} '
                     f'x="{cx - size / 2:.1f}" y="{cy - size / 2:.1f}" '
                     f'width="{size:.1f}" height="{size:.1f}"/>')
    # The tiles beside the board: one of each kind, with its count.
    y = 3.7 * reach
    x = -3.2 * reach
    kinds = [(k, n) for k, n in sorted(hand.items()) if n]
    for kind, n in kinds:
        parts.append(tile(kind, "rhombus", x + reach * 0.3, y, reach * 0.55, turn=90))
        if n > 1:
            parts.append(_badge(x + reach * 0.5, y + reach * 0.2, n, reach * 0.17))
        x += reach * 0.95
    parts.append(_mark(marks, HAND, f'<rect x="{-3.35 * reach:.1f}" y="{y - reach * 0.4:.1f}" width="{6.7 * reach:.1f}" '
                                      f'height="{reach * 0.8:.1f}" rx="8"'))
    parts.append(f'<rect class="zone" data-zone="{HAND}"{_holds(_counted(hand))} x="{-3.35 * reach:.1f}" y="{y - reach * 0.4:.1f}" '
                 f'width="{6.7 * reach:.1f}" height="{reach * 0.8:.1f}"/>')
    return _svg(-3.5 * reach, -3.35 * reach, 7 * reach, 7.6 * reach + 0.6 * reach, parts, "board pavilion")


#: Each drawing's own styles, so that it reads the same wherever it is shown (a page, a replay,
#: a file): its texts, and the zones a tap asks about (drawn over everything, invisible).
STYLE = ("<style>text{font-family:'Trebuchet MS','DejaVu Sans',sans-serif;font-weight:700;text-anchor:middle;"
         f"fill:{EDGE}}}.label,.penalty{{font-size:15px}}.number{{font-size:11px;opacity:.7}}"
         ".count{fill:#fff}.one{fill:#333}"
         ".zone{fill:#fff;fill-opacity:0;stroke:none;cursor:pointer}</style>")


def _svg(x: float, y: float, width: float, height: float, parts: list[str], kind: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{kind}" viewBox="{x:.0f} {y:.0f} {width:.0f} {height:.0f}" '
            f'preserveAspectRatio="xMidYMid meet" role="img">' + STYLE + "".join(parts) + "</svg>")
