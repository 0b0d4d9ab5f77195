"""Azul: Summer Pavilion player board topology, as data, in one place.

Stars, spaces ``S.K``, printed numbers per side, ring adjacency, pillars, statues, windows
and corners (docs/rules.md), plus the board geometry measured in docs/boards.md. The engine, the
board layouts and the renderer all read it from here.

Space index ``i = 6 * S + (K - 1)``: star ``S`` (0 central, 1 purple, 2 orange, 3 red,
4 blue, 5 yellow, 6 green on the coloured side), space ``K`` = 1..6 clockwise.
"""

from __future__ import annotations

import math

from .errors import InvalidMoveError
from .zones import Slot, ZoneError

COLORS: tuple[str, ...] = ("purple", "green", "orange", "yellow", "blue", "red")
COLOR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLORS)}
PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)

#: Wild colour of round 1..6: purple, green, orange, yellow, blue, red (index = round - 1).
WILD_BY_ROUND: tuple[int, ...] = (PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED)

STARS = 7
CENTRAL = 0
#: Colour of each star on the coloured side (None: the central multicolour star).
STAR_COLOR: tuple[int | None, ...] = (None, PURPLE, ORANGE, RED, BLUE, YELLOW, GREEN)
STAR_NAMES: tuple[str, ...] = ("central", "purple", "orange", "red", "blue", "yellow", "green")

#: End-game value of a completed star by its colour; a multicolour star is worth 12.
COLOR_STAR_VALUE: tuple[int, ...] = (20, 18, 17, 16, 15, 14)  # purple, green, orange, yellow, blue, red
MULTICOLOR_STAR_VALUE = 12
#: End-game bonus for covering every space printed with 1, 2, 3, 4.
NUMBER_BONUS: dict[int, int] = {1: 4, 2: 8, 3: 12, 4: 16}

SPACES = STARS * 6
SIDES = ("colored", "grey")


def space_index(star: int, k: int) -> int:
    return 6 * star + (k - 1)


def space_name(index: int) -> Slot:
    return Slot.star_space(index // 6, index % 6 + 1)


def parse_space(name: str) -> int:
    """``"4.6"`` -> space index. Raises :class:`InvalidMoveError` (a ValueError) for a name that is no space."""
    try:
        slot: Slot | None = Slot.parse(name)
    except ZoneError:
        slot = None
    index = _SPACE_INDEX.get(slot)  # type: ignore[arg-type]
    if index is None:
        raise InvalidMoveError("move.no_space", space=repr(name))
    return index


SPACE_NAMES: tuple[Slot, ...] = tuple(space_name(i) for i in range(SPACES))
#: Each star space's index by its slot: a placement reads its space with one look-up.
_SPACE_INDEX: dict[Slot, int] = {slot: i for i, slot in enumerate(SPACE_NAMES)}

#: Printed number (the cost) of every space, per side.
_GREY_OUTER = (3, 2, 1, 4, 5, 6)
PRINTED: dict[str, tuple[int, ...]] = {
    "colored": tuple(k for _star in range(STARS) for k in range(1, 7)),
    "grey": tuple(3 for _ in range(6)) + tuple(_GREY_OUTER[k - 1] for _star in range(1, STARS) for k in range(1, 7)),
}



def _pillar(p: int) -> tuple[int, ...]:
    a, b = (p + 3) % 6 + 1, (p + 4) % 6 + 1
    return (space_index(p, 2), space_index(p, 3), space_index(0, a), space_index(0, b))


def _statue(s: int) -> tuple[int, ...]:
    t = s % 6 + 1
    return (space_index(s, 1), space_index(s, 2), space_index(t, 3), space_index(t, 4))


#: Bonus structures: (kind, number, spaces, tiles given). Same positions on both sides.
STRUCTURES: tuple[tuple[str, int, tuple[int, ...], int], ...] = (
    tuple(("pillar", p, _pillar(p), 1) for p in range(1, 7))
    + tuple(("statue", s, _statue(s), 2) for s in range(1, 7))
    + tuple(("window", s, (space_index(s, 5), space_index(s, 6)), 3) for s in range(1, 7))
)
#: For each space, the indices into STRUCTURES of the structures it belongs to.
STRUCTURES_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j, st in enumerate(STRUCTURES) if i in st[2]) for i in range(SPACES)
)

CORNERS = 4
CORNER_NAMES: tuple[Slot, ...] = tuple(Slot.corner(i) for i in range(CORNERS))  # TL, TR, BR, BL
SUPPLY_SPACES = 10

# --------------------------------------------------------------------------- geometry (docs/boards.md)

#: Star radius (centre to tip) as a fraction of the board width.
STAR_RADIUS = 0.142
#: Centre of the central star (fractions of width and height; the board is square).
CENTER_XY = (0.5, 0.48)
#: Distance of the outer star centres from the central one.
OUTER_DISTANCE = 0.297
#: Direction of each outer star from the centre, in degrees (0 = right, counter-clockwise).
STAR_DIRECTION: tuple[float | None, ...] = (None, 180.0, 120.0, 60.0, 0.0, -60.0, -120.0)
#: Corner storage spaces: centres about 0.10 from each side (TL, TR, BR, BL).
CORNER_CENTERS: tuple[tuple[float, float], ...] = ((0.10, 0.10), (0.90, 0.10), (0.90, 0.90), (0.10, 0.90))


def star_center(star: int) -> tuple[float, float]:
    """Board fractions (x right, y down) of a star's centre."""
    cx, cy = CENTER_XY
    d = STAR_DIRECTION[star]
    if d is None:
        return cx, cy
    a = math.radians(d)
    return cx + OUTER_DISTANCE * math.cos(a), cy - OUTER_DISTANCE * math.sin(a)


def space_angle(index: int) -> float:
    """Direction in degrees (counter-clockwise from +x) in which space ``index`` points from its star's centre."""
    star, k = index // 6, index % 6 + 1
    d = STAR_DIRECTION[star]
    if d is None:
        return 90.0 - 60.0 * (k - 1)
    return d + 270.0 - 60.0 * (k - 1)


def space_polygon(index: int) -> list[tuple[float, float]]:
    """The rhombus of a space as board fractions: star centre, side vertex, tip, side vertex.

    Each space is a 60-degree rhombus from the star centre to a tip at one star radius; its
    side vertices lie at radius / sqrt(3), 30 degrees either side of the tip's direction.
    """
    cx, cy = star_center(index // 6)
    a = space_angle(index)
    side = STAR_RADIUS / math.sqrt(3)

    def at(r: float, deg: float) -> tuple[float, float]:
        t = math.radians(deg)
        return cx + r * math.cos(t), cy - r * math.sin(t)

    return [(cx, cy), at(side, a - 30.0), at(STAR_RADIUS, a), at(side, a + 30.0)]
