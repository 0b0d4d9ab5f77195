"""The pieces every format's model is built of: whole numbers in a range (never a bool, never
``12.0`` nor ``"12"``), text that is valid Unicode, the games' tile names and options."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, create_model
from pydantic_core import PydanticCustomError, PydanticKnownError

from ..engine.games import AZUL, GAMES, PAVILION, GameSpec

#: Longest text a format holds (a player's name, a file name): a stranger's megabyte is refused.
LONGEST_TEXT = 200


class Form(BaseModel):
    """A JSON object of a public format: no key it does not know, no value converted."""

    model_config = ConfigDict(extra="forbid", strict=True)


class OpenForm(Form):
    """A JSON object whose readers skip the keys they do not know (the format says so)."""

    model_config = ConfigDict(extra="ignore", strict=True)


def whole(low: int, high: int) -> Any:
    """A whole number from ``low`` to ``high``."""
    return Annotated[int, Field(strict=True, ge=low, le=high)]


def unicode_text(text: str) -> str:
    """Refuses a lone surrogate: JSON decodes a surrogate pair to one character, so a surrogate
    left in a string is a lone one, which can be neither written out nor shown."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise PydanticCustomError("not_unicode", "text that is not valid Unicode (a lone surrogate)")
    return text


def _json_number(value: Any) -> float:
    """A JSON number as a float: a bool is none, and NaN, the infinities and an integer beyond any
    float (which Python's json reads) are no finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PydanticKnownError("float_parsing")
    try:
        number = float(value)
    except OverflowError:
        raise PydanticKnownError("finite_number") from None
    if not math.isfinite(number):
        raise PydanticKnownError("finite_number")
    return number


Text = Annotated[str, Field(strict=True, max_length=LONGEST_TEXT), AfterValidator(unicode_text)]
Name = Annotated[str, Field(strict=True, min_length=1, max_length=LONGEST_TEXT), AfterValidator(unicode_text)]
#: Text of any length that can be written out: a file's path.
UnicodeText = Annotated[str, AfterValidator(unicode_text)]
#: A finite number, an integer or not (never a bool).
Number = Annotated[float, BeforeValidator(_json_number)]
#: How far from the image a point may lie, in pixels (a board partly out of view is fine; 1e300 is not).
MOST_PIXELS = 1_000_000
#: ``[x, y]`` in image pixels.
ImagePoint = Annotated[list[Annotated[Number, Field(ge=-MOST_PIXELS, le=MOST_PIXELS)]], Field(min_length=2, max_length=2)]


def dealt_tiles(spec: GameSpec) -> tuple[str, ...]:
    """The tiles a deal of the game of ``spec`` may bring, in its order: every tile but the
    first-player marker (Azul's jokers too: whether the options play them is the engine's to say)."""
    return tuple(t for t in spec.tiles if t != "first_player")


Game = Literal[tuple(GAMES)]  # type: ignore[valid-type]
AzulColor = Literal[AZUL.colors]  # type: ignore[valid-type]
AzulTile = Literal[dealt_tiles(AZUL)]  # type: ignore[valid-type]
PavilionColor = Literal[PAVILION.colors]  # type: ignore[valid-type]
#: A board's printed face, of any game.
Side = Literal[tuple(dict.fromkeys(face for spec in GAMES.values() for face in spec.faces))]  # type: ignore[valid-type]

#: The most factory displays of any game (Azul's and Summer Pavilion's nine, for four players).
MOST_DISPLAYS = max(n for spec in GAMES.values() for n in spec.factories.values())
#: More tiles in one pile than a whole game has is a mistake (Summer Pavilion has 132, Azul 100 and 5 jokers).
MOST_TILES = 132
Count = whole(0, MOST_TILES)
Player = whole(0, 3)
Players = Annotated[int, Field(strict=True, ge=2, le=4)] | Annotated[list[Name], Field(min_length=2, max_length=4)]


def _options_model(spec: GameSpec) -> type[Form]:
    """The model of a game's options, from the engine's table of them (the first value is the default)."""
    fields = {key: (bool if isinstance(values[0], bool) else Literal[values], values[0])  # type: ignore[valid-type]
              for key, values in spec.options.items()}
    return create_model(f"{spec.name.title()}Options", __base__=Form, **fields)  # type: ignore[call-overload]


#: Each game's options as a record, a profile and a journal write them, by the game's name.
OPTIONS: dict[str, type[Form]] = {name: _options_model(spec) for name, spec in GAMES.items()}
AzulOptions, PavilionOptions = OPTIONS[AZUL.name], OPTIONS[PAVILION.name]


def exactly_one(model: BaseModel, names: tuple[str, ...], shown: str | None = None) -> None:
    """Raises ``one_of`` unless exactly one of the fields ``names`` of ``model`` is given (not null)."""
    if sum(getattr(model, k) is not None for k in names) != 1:
        raise PydanticCustomError("one_of", "exactly one of {names} is expected", {"names": shown or ", ".join(names)})


def player_count(players: int | list[str]) -> int:
    return len(players) if isinstance(players, list) else players


def one_of_the_players(player: int | None, info: ValidationInfo) -> int | None:
    """``player`` when it is a number below the game's count of players (the context's, or the
    ``players`` field checked before it); raises ``not_a_player`` otherwise."""
    count = (info.context or {}).get("players")
    if count is None and (getattr(info, "data", None) or {}).get("players") is not None:
        count = player_count(info.data["players"])
    if player is not None and count is not None and player >= count:
        raise PydanticCustomError("not_a_player", "not one of the {players} players", {"players": count})
    return player
