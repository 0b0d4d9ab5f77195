"""Game records (``azulcam-record/1``): the record's own fields, then each event by its kind
(a move by a player of the game, a deal, a refill, a position), its path named from the record's
top (``events.12.move.line``). Replaying the events by the rules is the engine's (:func:`replay`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from ..engine.games import GAMES, PAVILION, GameSpec
from .fields import (OPTIONS, Form, Game, OpenForm, PavilionColor, Player, Players, dealt_tiles, one_of_the_players,
                     player_count, whole)
from .moves import MOVES
from .problems import checked, refuse
from .state import POSITIONS

#: The longest game a record may hold: far beyond any real one (a 4-player Summer Pavilion game has about 400 events).
MOST_EVENTS = 100_000
Seed = whole(-(2**63), 2**64 - 1)


class Head(OpenForm):
    """What a record is before anything else: a profile is not a record with odd keys."""

    format: Literal["azulcam-record/1"]
    game: Game


class GameHead(Form):
    """The game a record or a watch's journal holds: its options, its players, who starts
    (``players`` before ``start_player``, which is checked against it)."""

    game: Game
    options: dict = {}
    players: Players
    start_player: Player = 0  # type: ignore[valid-type]

    _starts = field_validator("start_player")(one_of_the_players)


class RecordFields(GameHead):
    format: Literal["azulcam-record/1"]
    seed: Seed | None = None  # type: ignore[valid-type]
    events: Annotated[list, Field(max_length=MOST_EVENTS)]


def read_head(model: type[GameHead], data: Any) -> GameHead:
    """``data`` read through ``model`` (a record's or a journal's head), its options the game's."""
    head = checked(model, data)
    checked(OPTIONS[head.game], head.options, ("options",))
    return head


class MoveEvent(Form):
    player: Player  # type: ignore[valid-type]
    move: dict

    _player = field_validator("player")(one_of_the_players)


def _deal(spec: GameSpec) -> type[Form]:
    tile = Literal[dealt_tiles(spec)]  # type: ignore[valid-type]

    class Dealt(Form):
        factories: Annotated[list[Annotated[list[tile], Field(max_length=4)]],  # type: ignore[valid-type]
                             Field(max_length=max(spec.factories.values()))]
        if spec.supply_spaces:  # dealt at the set-up too
            supply: Annotated[list[tile], Field(max_length=spec.supply_spaces)] | None = None  # type: ignore[valid-type]

    class Deal(Form):
        deal: Dealt

    return Deal


class Refilled(Form):
    supply: Annotated[list[PavilionColor], Field(max_length=PAVILION.supply_spaces)]  # type: ignore[valid-type]


class Refill(Form):
    refill: Refilled


class PositionEvent(Form):
    position: dict
    resynchronised: Literal[True] | None = None


#: Each game's deal events, by the game's name.
DEALS = {name: _deal(spec) for name, spec in GAMES.items()}


def read_record(data: Any) -> dict[str, Any]:
    """``data`` when it has a record's form, every event included; raises :class:`FormatError`
    naming the first field that has not (the record's format before anything else)."""
    checked(Head, data)
    record = read_head(RecordFields, data)
    context = {"players": player_count(record.players), "game": record.game}
    for k, event in enumerate(data["events"]):
        read_event(event, context, ("events", k))
    return data


def read_event(event: Any, context: dict[str, Any], at: tuple[Any, ...] = ()) -> None:
    """Checks one record event's form in a game of ``context`` (``game``, ``players``)."""
    game = context["game"]
    chance = GAMES[game].chance_from_json
    kinds = ", ".join(["player/move", *chance, "position"])
    if not isinstance(event, dict) or not event:
        refuse("invalid.event", at, kinds=kinds)
    if "position" in event:
        checked(PositionEvent, event, at)
        read_position(event["position"], at + ("position",))
    elif "move" in event or "player" in event:
        checked(MoveEvent, event, at, context)
        checked(MOVES[game], event["move"], at + ("move",))
    elif "deal" in event:
        checked(DEALS[game], event, at)
    elif "refill" in event and "refill" in chance:
        checked(Refill, event, at)
    else:
        refuse("invalid.event", at, kinds=kinds)


def read_position(data: Any, at: tuple[Any, ...] = ()) -> dict[str, Any]:
    """``data`` when it has an ``azulcam-state/1`` position's form, of either game."""
    if not isinstance(data, dict):
        refuse("invalid.dict_type", at)
    game = data.get("game")
    if not isinstance(game, str) or game not in POSITIONS:
        refuse("invalid.literal_choice", at + ("game",), expected=", ".join(map(repr, POSITIONS)))
    checked(POSITIONS[game], data, at)
    return data
