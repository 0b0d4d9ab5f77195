"""Moves (docs/formats/moves.md): each game's actions, checked for form. Whether a move is legal
in its position is the engine's to say."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..engine.common import MOST_POINTS
from ..engine.games import AZUL, PAVILION
from .fields import MOST_DISPLAYS, AzulColor, Form, PavilionColor, whole

#: A display's number (as many as the largest game has), or the centre.
Source = whole(0, MOST_DISPLAYS - 1) | Literal["center"]


class AzulTake(Form):
    action: Literal["take"]
    source: Source  # type: ignore[valid-type]
    color: AzulColor | None = None  # type: ignore[valid-type]
    line: whole(0, 4) | Literal["floor"]  # type: ignore[valid-type]
    jokers: bool = False
    floor_jokers: whole(0, 20) = 0  # type: ignore[valid-type]


class AzulWall(Form):
    action: Literal["wall"]
    row: whole(0, 4)  # type: ignore[valid-type]
    column: whole(0, 4) | Literal["floor"]  # type: ignore[valid-type]


AzulMove = Annotated[AzulTake | AzulWall, Field(discriminator="action")]

SpaceName = Annotated[str, Field(strict=True, pattern=r"^[0-6]\.[1-6]$")]


class PavilionTake(Form):
    action: Literal["take"]
    source: Source  # type: ignore[valid-type]
    color: PavilionColor  # type: ignore[valid-type]


class PavilionPlace(Form):
    action: Literal["place"]
    space: SpaceName
    color: PavilionColor  # type: ignore[valid-type]
    wild: whole(0, 6) = 0  # type: ignore[valid-type]


class PavilionBonus(Form):
    action: Literal["bonus"]
    colors: Annotated[list[PavilionColor], Field(max_length=12)]  # type: ignore[valid-type]


class PavilionPass(Form):
    action: Literal["pass"]
    keep: Annotated[list[PavilionColor], Field(max_length=MOST_POINTS)] | None = None  # type: ignore[valid-type]


PavilionMove = Annotated[PavilionTake | PavilionPlace | PavilionBonus | PavilionPass, Field(discriminator="action")]
#: Each game's moves, by the game's name.
MOVES = {AZUL.name: AzulMove, PAVILION.name: PavilionMove}
