"""What no legal game can show: the engines' verdict on a position as a camera saw it.

A position read from a photo may be impossible (a misread tile, a tile knocked onto the wrong
space). As python-chess's ``Board.status()`` does, the engine accepts it and says why it cannot
be: :func:`problems` lists every rule the position breaks, each naming the slot or zone, from a
plain ``azulcam-observation/1`` (data only: the engine knows nothing of images).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import pavilion_board as topo
from .azul import COLORS as AZUL_COLORS, wall_column

_AZUL_PER_COLOR = 20
_PAVILION_PER_COLOR = 22


def _counts(observation: dict[str, Any]) -> Counter[str]:
    """Every tile in view by kind (the first-player marker included)."""
    seen: Counter[str] = Counter()
    for f in observation.get("factories", []):
        seen.update(f.get("tiles", []))
    seen.update(observation.get("center", {}))
    for b in observation.get("boards", []):
        seen.update(b.get("slots", {}).values())
        seen.update(b.get("hand", {}))
    seen.update(t for t in observation.get("supply") or [] if t is not None)
    return seen


def problems(observation: dict[str, Any], options: dict[str, Any]) -> list[str]:
    """Every reason why ``observation`` cannot be a position of a legal game with ``options``
    (Azul: ``wall``, ``jokers``; Summer Pavilion: ``side``). An empty list: it can be."""
    game = observation.get("game")
    if game == "azul":
        return _azul_problems(observation, options.get("wall", "colored"), bool(options.get("jokers", False)))
    if game == "pavilion":
        return _pavilion_problems(observation, options.get("side", "colored"))
    return [f"unknown game {game!r}"]


def _marker_problems(seen: Counter[str]) -> list[str]:
    n = seen.get("first_player", 0)
    return [f"the first-player marker is seen {n} times"] if n > 1 else []


def _azul_problems(obs: dict[str, Any], wall: str, jokers: bool) -> list[str]:
    out: list[str] = []
    seen = _counts(obs)
    players = len(obs.get("boards", []))
    joker_count = (5 if players == 2 else 10) if jokers else 0
    per_color = _AZUL_PER_COLOR - ((1 if players == 2 else 2) if jokers else 0)
    for color in AZUL_COLORS:
        if seen.get(color, 0) > per_color:
            out.append(f"{seen[color]} {color} tiles in view, but the game has {per_color}")
    if seen.get("joker", 0) > joker_count:
        out.append(f"{seen['joker']} jokers in view, but the game has {joker_count}")
    out += _marker_problems(seen)
    for b in obs.get("boards", []):
        p, slots = b.get("player"), b.get("slots", {})
        where = f"board {p}"
        for r in range(5):
            line = [slots.get(f"line.{r}.{i}") for i in range(r + 1)]
            filled = [t for t in line if t is not None]
            if any(t is None for t in line[:len(filled)]):
                out.append(f"{where}: pattern line {r} is not filled from the right")
            colors = {t for t in filled if t != "joker"}
            if len(colors) > 1:
                out.append(f"{where}: pattern line {r} holds {' and '.join(sorted(colors))}")
            if any(t == "first_player" for t in filled):
                out.append(f"{where}: the first-player marker lies on pattern line {r}")
            row = {c: slots.get(f"wall.{r}.{c}") for c in range(5)}
            for color in colors:
                if color in row.values():
                    out.append(f"{where}: pattern line {r} holds {color}, already on wall row {r}")
            if wall == "colored":
                for c, t in row.items():
                    if t is not None and t != "joker" and t in AZUL_COLORS and wall_column(AZUL_COLORS.index(t), r) != c:
                        out.append(f"{where}: a {t} tile on wall.{r}.{c}, printed {AZUL_COLORS[(c - r) % 5]}")
            else:
                row_colors = [t for t in row.values() if t not in (None, "joker")]
                for color, n in Counter(row_colors).items():
                    if n > 1:
                        out.append(f"{where}: {color} twice on wall row {r}")
        if wall != "colored":
            for c in range(5):
                column = [slots.get(f"wall.{r}.{c}") for r in range(5)]
                for color, n in Counter(t for t in column if t not in (None, "joker")).items():
                    if n > 1:
                        out.append(f"{where}: {color} twice in wall column {c}")
        if any(slots.get(f"wall.{r}.{c}") == "first_player" for r in range(5) for c in range(5)):
            out.append(f"{where}: the first-player marker lies on the wall")
        floor = [slots.get(f"floor.{i}") for i in range(7)]
        n = sum(t is not None for t in floor)
        if any(t is None for t in floor[:n]):
            out.append(f"{where}: the floor line is not filled from the left")
    return out


def _pavilion_problems(obs: dict[str, Any], side: str) -> list[str]:
    out: list[str] = []
    seen = _counts(obs)
    for color in topo.COLORS:
        if seen.get(color, 0) > _PAVILION_PER_COLOR:
            out.append(f"{seen[color]} {color} tiles in view, but the game has {_PAVILION_PER_COLOR}")
    out += _marker_problems(seen)
    for b in obs.get("boards", []):
        p, slots = b.get("player"), b.get("slots", {})
        where = f"board {p}"
        for star in range(topo.STARS):
            tiles = {k: slots.get(f"{star}.{k}") for k in range(1, 7)}
            placed = [t for t in tiles.values() if t is not None]
            if "first_player" in placed:
                out.append(f"{where}: the start-player token lies on star {star}")
            colors = [t for t in placed if t in topo.COLORS]
            color = topo.STAR_COLOR[star]
            if side == "colored" and color is not None:
                for k, t in tiles.items():
                    if t is not None and t in topo.COLORS and t != topo.COLORS[color]:
                        out.append(f"{where}: a {t} tile on {star}.{k}, on the {topo.COLORS[color]} star")
            elif side == "colored" or len(set(colors)) > 1:
                # the central star (and a grey star built multicolour): six different colours
                for c, n in Counter(colors).items():
                    if n > 1:
                        out.append(f"{where}: {c} twice on the multicolour star {star}")
        corners = [slots.get(f"corner.{i}") for i in range(4)]
        if "first_player" in corners:
            out.append(f"{where}: the start-player token lies on a corner")
    return out
