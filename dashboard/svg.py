"""Each player's board as the engine sees it, drawn as SVG for the dashboard.

Azul: the pattern lines (filled from the right), the wall (empty spaces printed pale in their
colour on the coloured wall, grey on the grey one) and the floor line. Summer Pavilion: the seven
stars (six spaces each, numbered 1 to 6), the tiles beside the board and those kept on the corners.
Zones a person is asked to confirm are outlined in red.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from ..engine import pavilion_board as topo
from ..engine.azul import COLORS as AZUL_COLORS

#: Tile colours as the pages draw them.
FILL = {"blue": "#1f5fbf", "yellow": "#f2c230", "red": "#d8402f", "black": "#26262b", "white": "#8fd3e8",
        "joker": "#b06fd8", "first_player": "#f4f4f0", "purple": "#7b3fa0", "green": "#3f9a4a", "orange": "#f08a24"}
CELL = 22


def board_svg(observation: dict[str, Any], player: int, game: str, options: dict[str, Any], unsure: list[str]) -> str:
    board = next(b for b in observation["boards"] if b["player"] == player)
    marked = {z.split(".", 2)[2] for z in unsure if z.startswith(f"boards.{player}.")}
    if game == "azul":
        return _azul(board["slots"], options.get("wall") == "grey", marked)
    return _pavilion(board["slots"], board.get("hand", {}), marked)


def _cell(x: float, y: float, tile: str | None, slot: str, marked: set[str], printed: str | None = None) -> str:
    fill = FILL.get(tile or "", "#f3ead8")
    opacity = ""
    if tile is None and printed is not None:
        fill, opacity = FILL.get(printed, "#ccc"), ' fill-opacity="0.25"'
    stroke = ' stroke="#e01010" stroke-width="2.5"' if slot in marked else ' stroke="#8a7b62" stroke-width="0.8"'
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{CELL - 2}" height="{CELL - 2}" rx="3" fill="{fill}"{opacity}{stroke} '
            f'data-zone="{escape(slot)}"><title>{escape(slot)}: {escape(tile or "-")}</title></rect>')


def _azul(slots: dict[str, str], grey: bool, marked: set[str]) -> str:
    parts = []
    for r in range(5):
        for i in range(r + 1):  # line.r.0 is the rightmost space
            parts.append(_cell((4 - i) * CELL, r * CELL, slots.get(f"line.{r}.{i}"), f"line.{r}.{i}", marked))
        for c in range(5):
            printed = None if grey else AZUL_COLORS[(c - r) % 5]
            parts.append(_cell(5.5 * CELL + c * CELL, r * CELL, slots.get(f"wall.{r}.{c}"), f"wall.{r}.{c}", marked, printed))
    for i in range(7):
        parts.append(_cell(i * CELL, 5.4 * CELL, slots.get(f"floor.{i}"), f"floor.{i}", marked))
    return _svg(10.5 * CELL, 6.4 * CELL, parts)


def _pavilion(slots: dict[str, str], hand: dict[str, int], marked: set[str]) -> str:
    parts = []
    centres = {topo.CENTRAL: (0.0, 0.0)}
    outer = [s for s in range(topo.STARS) if s != topo.CENTRAL]
    for k, star in enumerate(outer):
        a = math.radians(180 - 60 * k)
        centres[star] = (3.2 * CELL * math.cos(a), -3.2 * CELL * math.sin(a))
    for star, (cx, cy) in centres.items():
        for n in range(1, 7):
            a = math.radians(90 - 60 * (n - 1))
            x, y = cx + 1.05 * CELL * math.cos(a), cy - 1.05 * CELL * math.sin(a)
            parts.append(_cell(x + 4.6 * CELL - CELL / 2, y + 4.3 * CELL - CELL / 2, slots.get(f"{star}.{n}"), f"{star}.{n}",
                               marked))
    for i in range(4):
        parts.append(_cell(i * CELL, 8.8 * CELL, slots.get(f"corner.{i}"), f"corner.{i}", marked))
    x = 5 * CELL
    for name, n in sorted(hand.items()):
        for _ in range(n):
            parts.append(_cell(x, 8.8 * CELL, name, "hand", marked))
            x += CELL * 0.7
    return _svg(max(9.4 * CELL, x + CELL), 9.9 * CELL, parts)


def _svg(width: float, height: float, parts: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 {width + 4:.0f} {height + 4:.0f}" '
            f'width="{width + 4:.0f}" height="{height + 4:.0f}">' + "".join(parts) + "</svg>")
