"""Positions (``azulcam-state/1``, a record's ``position`` event): the whole state as the engine
keeps it, checked for form and for the rules between its fields (the player to move exists, the
round exists in that game, one board per player, as many displays as the player count has). Whether
a legal game shows it is the engine's to say."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from ..engine.azul import FLOOR_PENALTIES
from ..engine.common import MOST_POINTS, MOST_ROUNDS, TERMINAL
from ..engine.pavilion import MIN_SCORE, ROUNDS
from ..engine.games import AZUL, PAVILION, GameSpec
from .fields import (AzulColor, AzulOptions, AzulTile, Count, Form, PavilionColor, PavilionOptions, Player, one_of_the_players,
                     whole)
from .moves import SpaceName

Points = whole(0, MOST_POINTS)
Penalties = whole(-MOST_POINTS, 0)
#: A 64-bit fingerprint of a round's end (Azul's stall check).
Fingerprint = whole(-(2**63), 2**63 - 1)


def _check_count(value: list, expected: int) -> list:
    if len(value) != expected:
        raise PydanticCustomError("wrong_count", "{expected} expected, not {got}", {"expected": expected, "got": len(value)})
    return value


class _Position(Form):
    """What both games' positions share; ``players`` comes first, so that later fields are checked against it."""

    #: The game whose positions these are.
    spec: ClassVar[GameSpec]
    format: Literal["azulcam-state/1"]
    players: whole(2, 4)  # type: ignore[valid-type]
    to_move: whole(TERMINAL, 3)  # type: ignore[valid-type]
    start_player: Player  # type: ignore[valid-type]
    pooled: bool = False

    _a_player = field_validator("to_move", "start_player")(one_of_the_players)

    @field_validator("factories", check_fields=False)
    @classmethod
    def _displays(cls, value: list, info: ValidationInfo) -> list:
        players = info.data.get("players")
        return value if players is None else _check_count(value, cls.spec.factories[players])

    @field_validator("boards", check_fields=False)
    @classmethod
    def _boards(cls, value: list, info: ValidationInfo) -> list:
        players = info.data.get("players")
        return value if players is None else _check_count(value, players)


def _holder(value: int | str | None, info: ValidationInfo) -> int | str | None:
    return value if isinstance(value, str) else one_of_the_players(value, info)


class AzulLine(Form):
    color: AzulColor | None  # type: ignore[valid-type]
    count: whole(0, 5)  # type: ignore[valid-type]
    jokers: whole(0, 5)  # type: ignore[valid-type]


class AzulBonus(Form):
    rows: Points = 0  # type: ignore[valid-type]
    columns: Points = 0  # type: ignore[valid-type]
    colors: Points = 0  # type: ignore[valid-type]


class AzulBoard(Form):
    score: Points  # type: ignore[valid-type]
    placement: Points  # type: ignore[valid-type]
    penalties: Penalties  # type: ignore[valid-type]
    bonus: AzulBonus = AzulBonus()
    lines: Annotated[list[AzulLine], Field(min_length=5, max_length=5)]
    wall: Annotated[list[Annotated[list[AzulTile | None], Field(min_length=5, max_length=5)]],  # type: ignore[valid-type]
                    Field(min_length=5, max_length=5)]
    floor: Annotated[list[Literal[AZUL.tiles]],  # type: ignore[valid-type]
                     Field(max_length=len(FLOOR_PENALTIES))]

    @field_validator("lines")
    @classmethod
    def _line_holds_its_length(cls, lines: list[AzulLine]) -> list[AzulLine]:
        for r, line in enumerate(lines):
            if line.count + line.jokers > r + 1:
                raise PydanticCustomError("line_too_full", "line {line} holds {got} tiles, at most {most}",
                                          {"line": r + 1, "got": line.count + line.jokers, "most": r + 1})
        return lines


class AzulPosition(_Position):
    spec = AZUL
    game: Literal[AZUL.name]  # type: ignore[valid-type]
    options: AzulOptions
    round: whole(1, MOST_ROUNDS)  # type: ignore[valid-type]
    phase: Literal["deal", "offer", "tiling", "over"]
    marker: Player | Literal["center"] | None  # type: ignore[valid-type]
    bag: dict[AzulTile, Count]  # type: ignore[valid-type]
    lid: dict[AzulTile, Count]  # type: ignore[valid-type]
    factories: list[Annotated[list[AzulTile], Field(max_length=4)]]  # type: ignore[valid-type]
    center: dict[AzulTile, Count]  # type: ignore[valid-type]
    tiling: Annotated[list[whole(0, 4)], Field(min_length=2, max_length=2)] | None = None  # type: ignore[valid-type]
    end_reason: Literal["row", "stalled"] | None = None
    last_round_end: Fingerprint | None = None  # type: ignore[valid-type]
    boards: list[AzulBoard]

    _marker_holder = field_validator("marker")(_holder)


class PavilionBoard(Form):
    score: whole(MIN_SCORE, MOST_POINTS)  # type: ignore[valid-type]
    placement: Points  # type: ignore[valid-type]
    penalties: Penalties  # type: ignore[valid-type]
    stars: Points = 0  # type: ignore[valid-type]
    numbers: Points = 0  # type: ignore[valid-type]
    passed: bool = False
    spaces: dict[SpaceName, PavilionColor]  # type: ignore[valid-type]
    hand: dict[PavilionColor, Count]  # type: ignore[valid-type]
    corners: Annotated[list[PavilionColor], Field(max_length=4)]  # type: ignore[valid-type]


class PavilionPosition(_Position):
    spec = PAVILION
    game: Literal[PAVILION.name]  # type: ignore[valid-type]
    options: PavilionOptions
    round: whole(1, ROUNDS)  # type: ignore[valid-type]
    phase: Literal["deal", "acquire", "place", "bonus", "refill", "over"]
    token: Player | Literal["center"] | None  # type: ignore[valid-type]
    bag: dict[PavilionColor, Count]  # type: ignore[valid-type]
    tower: dict[PavilionColor, Count]  # type: ignore[valid-type]
    supply: Annotated[list[PavilionColor | None], Field(min_length=PAVILION.supply_spaces, max_length=PAVILION.supply_spaces)]  # type: ignore[valid-type]
    factories: list[Annotated[list[PavilionColor], Field(max_length=4)]]  # type: ignore[valid-type]
    center: dict[PavilionColor, Count]  # type: ignore[valid-type]
    owed: whole(0, 200) = 0  # type: ignore[valid-type]
    end_reason: Literal["rounds"] | None = None
    boards: list[PavilionBoard]

    _token_holder = field_validator("token")(_holder)


#: Each game's positions, by the game's name.
POSITIONS = {model.spec.name: model for model in (AzulPosition, PavilionPosition)}
