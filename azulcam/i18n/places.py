"""The places of a table in words, for every interface alike: players, stars, board spaces and
the zones of ``azulcam-observation/1`` (``boards.1.wall.3.2``: "Player 2, wall row 4, column 3")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import pavilion_board as topo
from ..engine.azul import FLOOR_PENALTIES
from ..engine.games import find_game
from ..engine.zones import CENTER, CORNER, DISPLAY, FLOOR_SPACE, HAND, LINE_SPACE, SLOT, STAR_SPACE, SUPPLY, WALL_SPACE
from ..engine.zones import Slot, Zone, ZoneError
from . import Catalogue

#: Characters of a player's name shown at most (the rest cut, with an ellipsis).
NAME_MAX = 24


def player_name(m: Catalogue, p: int, names: Sequence[str] | None = None) -> str:
    """``Player 2`` or ``Player 2 (Alice)`` for the observation's player 1."""
    if names is not None and 0 <= p < len(names) and names[p]:
        name = names[p] if len(names[p]) <= NAME_MAX else names[p][:NAME_MAX - 1] + "…"
        return m.text("player.named", n=p + 1, name=name)
    return m.text("player", n=p + 1)


def star_name(m: Catalogue, star: int, colored: bool | None) -> str:
    """``purple star`` on the coloured side, ``top-left star`` when the side is grey or unknown
    (the central star is ``central star`` on both)."""
    if star == topo.CENTRAL:
        return m.text("star.central")
    if colored:
        return m.text(f"star.{topo.STAR_NAMES[star]}")
    return m.text(f"star.at.{star}")


def slot_place(m: Catalogue, game: str, slot: str, colored: bool | None = None) -> str | None:
    """A board slot (Azul ``wall.3.2``, ``line.1.0``, ``floor.4``; Summer Pavilion ``4.6``,
    ``corner.2``; ``hand``) in words; ``None`` for a slot the game's boards do not have.
    ``colored``: whether the board's side is the coloured one (None: unknown). Raises
    :class:`~azulcam.engine.errors.RecordError` for an unknown game."""
    if slot == HAND:
        return m.text("where.hand")
    try:
        return _slot_words(m, game, Slot.parse(slot), colored)
    except ZoneError:
        return None


def _slot_words(m: Catalogue, game: str, slot: Slot, colored: bool | None) -> str | None:
    kind = slot.kind
    if find_game(game).board == "stars":
        if kind == CORNER and slot.index < topo.CORNERS:
            return m.text(f"where.corner.{slot.index}")
        if kind == STAR_SPACE and slot.star < topo.STARS and 1 <= slot.number <= 6:
            return m.text("where.space", star=star_name(m, slot.star, colored), space=slot.number)
        return None
    if kind == WALL_SPACE and max(slot.numbers) < 5:
        return m.text("where.wall", row=slot.row + 1, column=slot.column + 1)
    if kind == LINE_SPACE and slot.index <= slot.row < 5:
        return m.text("where.line", line=slot.row + 1, space=slot.index + 1)
    if kind == FLOOR_SPACE and slot.index < len(FLOOR_PENALTIES):
        return m.text("where.floor", space=slot.index + 1)
    return None


def place(m: Catalogue, game: str, path: str, colored: bool | None = None, names: Sequence[str] | None = None) -> str:
    """A zone or slot of the observation (``boards.1.wall.3.2``, ``factories.0``, ``center``,
    ``supply.4``) of ``game`` in words; one it does not know, as it is. Raises
    :class:`~azulcam.engine.errors.RecordError` for an unknown game."""
    try:
        zone = Zone.parse(path)
    except ZoneError:
        return path
    if zone.kind == CENTER:
        return m.text("where.center")
    if zone.kind == DISPLAY:
        return m.text("where.factory", n=zone.index + 1)
    if zone.kind == SUPPLY and find_game(game).supply_spaces:
        return m.text("where.supply", n=zone.index + 1)
    where = (m.text("where.hand") if zone.kind == HAND
             else _slot_words(m, game, zone.slot, colored) if zone.kind == SLOT else None)  # type: ignore[arg-type]
    if where is not None:
        return m.text("where.board", player=player_name(m, zone.player, names), place=where)  # type: ignore[arg-type]
    return path


@dataclass(frozen=True)
class Table:
    """What naming a table's zones needs: the game, whether its boards show the coloured side
    (None: unknown) and the players' names (None: numbered only)."""

    game: str
    colored: bool | None = None
    names: tuple[str, ...] | None = None

    @classmethod
    def of(cls, game: str, options: dict, players: object = None) -> Table:
        """The table of a game with ``options`` and ``players`` (a record's: a count or names)."""
        side = options.get(find_game(game).face)
        names = tuple(players) if isinstance(players, (list, tuple)) else None
        return cls(game, side != "grey", names)

    def place(self, m: Catalogue, path: str) -> str:
        """The zone ``path`` in the words of ``m`` (:func:`place`)."""
        return place(m, self.game, path, self.colored, self.names)
