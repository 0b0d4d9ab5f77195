"""Observations (``azulcam-observation/1``): what one photo shows, checked for form with the
game's own tile names and slots. Whether a legal game shows it is the engine's to say
(:func:`azulcam.engine.position.problems`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from ..engine.azul import SCORE_TRACK_TOP
from ..engine.games import GAMES, GameSpec
from ..engine.observe import OBSERVATION_FORMAT
from .fields import MOST_TILES, Count, Form, Game, ImagePoint, OpenForm, Player, Text, UnicodeText, whole
from .problems import checked, printable

#: More zones or warnings than any table has.
MOST_ENTRIES = 1000


class Head(OpenForm):
    format: Literal["azulcam-observation/1"] = OBSERVATION_FORMAT
    game: Game


class Notice(Form):
    code: Text
    params: dict[Text, Any] = {}
    text: UnicodeText = ""  # a reader's warning may quote an exception's text: any length


def _observation(spec: GameSpec) -> type[OpenForm]:
    tile = Literal[spec.tiles]  # type: ignore[valid-type]
    slots = spec.slot_ids

    class Display(Form):
        center: ImagePoint | None
        tiles: Annotated[list[tile], Field(max_length=MOST_TILES)]

    class Board(Form):
        player: Player  # type: ignore[valid-type]
        slots: dict[Text, tile]
        hand: dict[tile, Count] = {}  # type: ignore[valid-type]
        if spec.score_track:  # the cell its marker stands on, as read
            score: whole(0, SCORE_TRACK_TOP) | None = None  # type: ignore[valid-type]
        else:  # (no score track to read)
            score: None = None

        @field_validator("slots")
        @classmethod
        def _the_game_s_slots(cls, value: dict[str, str]) -> dict[str, str]:
            unknown = sorted(s for s in value if s not in slots)
            if unknown:
                raise PydanticCustomError("unknown_slot", "no slot {slot} on this game's boards", {"slot": printable(unknown[0], 40)})
            return value

    class Observation(OpenForm):
        """Keys of its own at the top (``check``, ``final``, ``sample``) are the writer's: kept, not read."""

        format: Literal["azulcam-observation/1"] = OBSERVATION_FORMAT
        game: Literal[spec.name]  # type: ignore[valid-type]
        factories: Annotated[list[Display], Field(max_length=9)] = []
        center: dict[tile, Count] = {}  # type: ignore[valid-type]
        boards: Annotated[list[Board], Field(max_length=4)]
        if not spec.supply_spaces:
            supply: None = None
        else:
            supply: Annotated[list[tile | None], Field(min_length=spec.supply_spaces, max_length=spec.supply_spaces)] | None = None
        uncertain: Annotated[list[Text], Field(max_length=MOST_ENTRIES)] = []
        warnings: Annotated[list[Text | Notice], Field(max_length=MOST_ENTRIES)] = []

        @field_validator("boards")
        @classmethod
        def _each_player_once(cls, boards: list[Board]) -> list[Board]:
            seen: set[int] = set()
            for b in boards:
                if b.player in seen:
                    raise PydanticCustomError("players_twice", "player {player} has two boards", {"player": b.player})
                seen.add(b.player)
            return boards

    return Observation


#: Each game's observations, by the game's name.
OBSERVATIONS = {name: _observation(spec) for name, spec in GAMES.items()}


def read_observation(data: Any) -> dict[str, Any]:
    """``data`` when it has an observation's form; raises :class:`FormatError` naming the first
    field that has not."""
    head = checked(Head, data)
    checked(OBSERVATIONS[head.game], data)
    return data
