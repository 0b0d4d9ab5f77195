"""The zones of a table and the slots of a board, each name parsed once and formatted once.

A zone is where tiles lie, named as ``azulcam-observation/1`` names it: a board's slot
(``boards.1.wall.3.2``), the tiles beside a board (``boards.1.hand``), a score marker
(``boards.1.score``), a factory display (``factories.0``), the centre (``center``) and a
Summer Pavilion supply space (``supply.4``). The engine's move logs also name a board's parts
as a whole: a pattern line (``boards.1.line.3``), the floor line (``boards.1.floor``) and
Summer Pavilion's kept corner tiles (``boards.1.corners``).

:class:`Zone` and :class:`Slot` are ``str``: the name itself, as JSON writes it and as every
dictionary of zones is keyed, that also knows its parts (``zone.kind``, ``zone.player``,
``zone.slot``, ``slot.row``...). Build one with its constructor (:meth:`Zone.display`,
:meth:`Zone.slot`, :meth:`Slot.wall`...), or read a name from outside (a file, a request) with
:meth:`Zone.parse`; nothing else formats or splits these names. Each name is made once and
kept: the same zone is the same object, so building one in a loop costs a dictionary look-up.

    >>> z = Zone.parse("boards.1.wall.3.2")
    >>> z.kind, z.player, z.slot.kind, z.slot.row, z.slot.column
    ('slot', 1, 'wall', 3, 2)
    >>> Zone.board(1, Slot.wall(3, 2)) is z, z == "boards.1.wall.3.2"
    (True, True)
"""

from __future__ import annotations

from typing import Any

from .errors import EngineError

#: A zone's kinds (:attr:`Zone.kind`).
SLOT, HAND, SCORE, LINE, FLOOR, CORNERS = "slot", "hand", "score", "line", "floor", "corners"
DISPLAY, CENTER, SUPPLY = "display", "center", "supply"

#: A slot's kinds (:attr:`Slot.kind`): Azul's pattern-line spaces, wall spaces and floor
#: spaces; Summer Pavilion's star spaces and corners; a scoring board's supply spaces.
LINE_SPACE, WALL_SPACE, FLOOR_SPACE, STAR_SPACE, CORNER, SUPPLY_SPACE = \
    "line", "wall", "floor", "space", "corner", "supply"

#: How many numbers each slot kind's id carries after its kind (a star space's id is numbers only).
_SLOT_NUMBERS = {LINE_SPACE: 2, WALL_SPACE: 2, FLOOR_SPACE: 1, CORNER: 1, SUPPLY_SPACE: 1}


class ZoneError(EngineError):
    """A name that is no zone or slot (``zone.unknown`` with the ``zone``)."""


def _numbers(parts: list[str]) -> tuple[int, ...] | None:
    if not all(p.isascii() and p.isdigit() and (p == "0" or not p.startswith("0")) for p in parts):
        return None
    return tuple(int(p) for p in parts)


class Slot(str):
    """A board slot's id: Azul ``line.R.I`` (pattern line R, its space I from the right),
    ``wall.R.C`` and ``floor.K``; Summer Pavilion ``S.N`` (star S, its space printed N, 1 to 6)
    and ``corner.K``; a scoring board's ``supply.N``. All numbers count from 0 but a star's
    spaces, which carry the number printed on them.

    ``kind`` is one of :data:`LINE_SPACE`, :data:`WALL_SPACE`, :data:`FLOOR_SPACE`,
    :data:`STAR_SPACE`, :data:`CORNER`, :data:`SUPPLY_SPACE`; ``numbers`` the id's numbers.
    Whether a game's boards have the slot is the game's to say (:attr:`GameSpec.slot_ids`)."""

    kind: str
    numbers: tuple[int, ...]

    def __new__(cls, name: str) -> Slot:
        known = _SLOTS.get(name)
        if known is not None:
            return known
        head, *rest = name.split(".")
        numbers = _numbers(rest) if head in _SLOT_NUMBERS and len(rest) == _SLOT_NUMBERS[head] else None
        kind = head
        if numbers is None and len(rest) == 1:
            numbers, kind = _numbers([head, *rest]), STAR_SPACE
        if numbers is None:
            raise ZoneError("zone.unknown", zone=str(name))
        slot = str.__new__(cls, name)
        slot.kind, slot.numbers = kind, numbers
        _SLOTS[str(name)] = slot
        return slot

    @classmethod
    def parse(cls, name: str) -> Slot:
        """The slot named ``name``. Raises :class:`ZoneError` for a name that is no slot's."""
        return cls(name) if isinstance(name, str) else _refuse(name)

    @classmethod
    def line(cls, row: int, space: int) -> Slot:
        """Space ``space`` (from the right) of Azul's pattern line ``row``."""
        return cls(f"line.{row}.{space}")

    @classmethod
    def wall(cls, row: int, column: int) -> Slot:
        return cls(f"wall.{row}.{column}")

    @classmethod
    def floor(cls, space: int) -> Slot:
        return cls(f"floor.{space}")

    @classmethod
    def star_space(cls, star: int, number: int) -> Slot:
        """The space printed ``number`` (1 to 6) of Summer Pavilion's star ``star``."""
        return cls(f"{star}.{number}")

    @classmethod
    def corner(cls, index: int) -> Slot:
        return cls(f"corner.{index}")

    @classmethod
    def supply(cls, index: int) -> Slot:
        """Supply space ``index`` of Summer Pavilion's scoring board."""
        return cls(f"supply.{index}")

    @property
    def row(self) -> int:
        """A pattern line's or wall's row."""
        return self.numbers[0]

    @property
    def column(self) -> int:
        """A wall space's column."""
        return self.numbers[1]

    @property
    def index(self) -> int:
        """A pattern-line space's place from the right, a floor space's, a corner's or a supply space's."""
        return self.numbers[-1]

    @property
    def star(self) -> int:
        return self.numbers[0]

    @property
    def number(self) -> int:
        """A star space's printed number (1 to 6)."""
        return self.numbers[1]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Slot, (str(self),))


class Zone(str):
    """A zone of the table (the module's text names them all).

    ``kind`` is one of :data:`SLOT`, :data:`HAND`, :data:`SCORE`, :data:`LINE`, :data:`FLOOR`,
    :data:`CORNERS` (a player's board) or :data:`DISPLAY`, :data:`CENTER`, :data:`SUPPLY`;
    ``player`` the board's player (None off the boards); ``slot`` a board slot's
    :class:`Slot` (None for other zones); ``index`` a display's number, a supply space's, a whole
    pattern line's row (None otherwise)."""

    kind: str
    player: int | None
    slot: Slot | None
    index: int | None

    def __new__(cls, name: str) -> Zone:
        known = _ZONES.get(name)
        if known is not None:
            return known
        kind, player, slot, index = _parts(str(name))
        zone = str.__new__(cls, name)
        zone.kind, zone.player, zone.slot, zone.index = kind, player, slot, index
        _ZONES[str(name)] = zone
        return zone

    @classmethod
    def parse(cls, name: Any) -> Zone:
        """The zone named ``name``, a zone's name from outside (a file, a request, a test).
        Raises :class:`ZoneError` for anything else."""
        return cls(name) if isinstance(name, str) else _refuse(name)

    @classmethod
    def board(cls, player: int, slot: str) -> Zone:
        """Slot ``slot`` (a :class:`Slot` or its id) of ``player``'s board."""
        return cls(f"boards.{player}.{slot}")

    @classmethod
    def of_slot(cls, player: int | None, slot: str) -> Zone:
        """The zone of a layout's slot ``slot``: on ``player``'s board, or (``player`` None) on
        Summer Pavilion's scoring board, whose slots are the supply's spaces."""
        return cls.board(player, slot) if player is not None else cls.supply(Slot.parse(slot).index)

    @classmethod
    def hand(cls, player: int) -> Zone:
        """The tiles beside ``player``'s board: a Summer Pavilion hand, a start-player marker."""
        return cls(f"boards.{player}.{HAND}")

    @classmethod
    def score(cls, player: int) -> Zone:
        """``player``'s score marker."""
        return cls(f"boards.{player}.{SCORE}")

    @classmethod
    def line(cls, player: int, row: int) -> Zone:
        """The whole pattern line ``row`` of ``player``'s board (the moves' logs)."""
        return cls(f"boards.{player}.{LINE}.{row}")

    @classmethod
    def floor(cls, player: int) -> Zone:
        """The whole floor line of ``player``'s board (the moves' logs)."""
        return cls(f"boards.{player}.{FLOOR}")

    @classmethod
    def corners(cls, player: int) -> Zone:
        """The corner tiles ``player`` keeps for the next round (the moves' logs)."""
        return cls(f"boards.{player}.{CORNERS}")

    @classmethod
    def display(cls, index: int) -> Zone:
        """Factory display ``index``."""
        return cls(f"factories.{index}")

    @classmethod
    def centre(cls) -> Zone:
        """The centre of the table, where the taken displays' leftovers go."""
        return _CENTRE

    @classmethod
    def supply(cls, index: int) -> Zone:
        """Summer Pavilion's supply space ``index``."""
        return cls(f"supply.{index}")

    @property
    def loose(self) -> bool:
        """Whether the zone holds tiles loose, any number of them (a display, the centre, a hand),
        rather than one tile in one place."""
        return self.kind in _LOOSE

    @property
    def on_board(self) -> bool:
        """Whether the zone is part of a player's board (beside it, for a hand)."""
        return self.player is not None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Zone, (str(self),))


_LOOSE = frozenset((DISPLAY, CENTER, HAND))
_SLOTS: dict[str, Slot] = {}
_ZONES: dict[str, Zone] = {}


def _refuse(name: Any) -> Any:
    raise ZoneError("zone.unknown", zone=repr(name))


def _parts(name: str) -> tuple[str, int | None, Slot | None, int | None]:
    """A zone name's kind, player, slot and index; raises :class:`ZoneError` for no zone's."""
    head, _, rest = name.partition(".")
    if name == CENTER:
        return CENTER, None, None, None
    if head in ("factories", "supply"):
        number = _numbers([rest])
        if number is not None:
            return (DISPLAY if head == "factories" else SUPPLY), None, None, number[0]
    elif head == "boards":
        player_text, _, part = rest.partition(".")
        player = _numbers([player_text])
        if player is not None and part:
            p = player[0]
            if part in (HAND, SCORE, FLOOR, CORNERS):
                return part, p, None, None
            line_head, _, row = part.partition(".")
            row_number = _numbers([row]) if line_head == LINE else None
            if row_number is not None:
                return LINE, p, None, row_number[0]
            try:
                return SLOT, p, Slot(part), None
            except ZoneError:
                pass
    raise ZoneError("zone.unknown", zone=name)


_CENTRE = Zone(CENTER)
