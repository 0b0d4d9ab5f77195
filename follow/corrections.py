"""A person's corrections to a followed game: one model for the control stream (``watch
--control``) and the dashboard's ``/api/corrections``, checked here before they reach the tracker.

A correction is exactly one of ``undo`` (the last event taken back), ``replace`` (the last event
replaced by a record event), ``overrule`` (what lies in a zone, over what the camera reads) and
``join`` (the game taken up from the table as it stands). Its form is checked by the model
(:class:`Correction`); what an overrule says is checked against the game (:func:`check_overrule`):
a zone the game has, holding what the rules allow there.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from ..calibration.layouts import expected_slots, load_layout
from ..engine.common import MOST_POINTS, MOST_ROUNDS
from ..engine.games import ALL_TILES
from ..engine.zones import FLOOR_SPACE, HAND, SUPPLY, Zone, ZoneError
from ..formats import FormatError, checked
from ..formats.fields import Form, exactly_one
from ..formats.record import read_event
from .track import Refused

#: The highest board, and display or supply space, a correction's zone may name: a table's four
#: players, and one digit (whether the game has it is :func:`check_overrule`'s to say).
MOST_BOARD, MOST_PLACE = 3, 9


def named_zone(name: Any) -> Zone | None:
    """The zone ``name`` names, as ``azulcam-observation/1`` names it and within
    :data:`MOST_BOARD` and :data:`MOST_PLACE`; None for any other name."""
    try:
        zone = Zone.parse(name)
    except ZoneError:
        return None
    if zone.player is not None and zone.player > MOST_BOARD or zone.index is not None and zone.index > MOST_PLACE:
        return None
    return zone


def _a_zone(name: str) -> Zone:
    zone = named_zone(name)
    if zone is None:
        raise PydanticCustomError("string_pattern_mismatch", "not the name of a zone")
    return zone


#: Every tile name of either game: what a zone may be said to hold (the game decides the rest).
TileName = Literal[tuple(dict.fromkeys(ALL_TILES))]  # type: ignore[valid-type]


class Overrule(Form):
    zone: Annotated[str, Field(max_length=40, description="an observation zone: boards.P.SLOT, boards.P.hand, "
                                                          "factories.I, center, supply.N"), AfterValidator(_a_zone)]
    content: TileName | None | Annotated[list[TileName], Field(max_length=40)] = \
        Field(description="a tile name or null for a slot; tile names for a loose zone")


class Join(Form):
    round: int | None = Field(default=None, ge=1, le=MOST_ROUNDS, strict=True)
    scores: list[Annotated[int, Field(ge=0, le=MOST_POINTS, strict=True)]] | None = Field(default=None, min_length=2, max_length=4)


class Correction(Form):
    """One correction: exactly one of its fields."""

    undo: Literal[True] | None = None
    replace: dict[str, Any] | None = None
    overrule: Overrule | None = None
    join: Join | None = None

    @model_validator(mode="before")
    @classmethod
    def unicode_only(cls, data: Any) -> Any:
        """Refuses text that is not Unicode (a lone surrogate, which JSON allows): it could be
        neither stored nor shown."""
        if not _encodable(data):
            raise PydanticCustomError("not_unicode", "text that is not valid Unicode (a lone surrogate)")
        return data

    @model_validator(mode="after")
    def one_only(self) -> "Correction":
        exactly_one(self, tuple(type(self).model_fields))
        return self

    def command(self) -> dict[str, Any]:
        """The correction as a control line's JSON (an overrule's ``null`` content kept: empty)."""
        return {k: v for k, v in self.model_dump(exclude_unset=True).items() if v is not None}


def _encodable(value: Any, depth: int = 0) -> bool:
    """Whether every string in ``value`` (keys too, nested up to 64 deep) encodes as UTF-8."""
    if depth > 64:
        return False
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_encodable(k, depth + 1) and _encodable(v, depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_encodable(v, depth + 1) for v in value)
    return True


def parsed(data: Any, state: Any) -> Correction:
    """``data`` (a control line's JSON) as a correction in the game of ``state``, a ``replace``'s
    event checked for form as a record's is. Raises :class:`Refused` with the form's code
    (``invalid.TYPE``, :mod:`azulcam.formats`) naming the field and what is wrong with it."""
    try:
        correction = checked(Correction, data)
        if correction.replace is not None:
            read_event(correction.replace, {"game": state.game, "players": state.players}, ("replace",))
    except FormatError as exc:
        raise Refused(exc.code, **exc.params) from None
    return correction


def check_overrule(zone: str, content: Any, state: Any) -> None:
    """Raises :class:`Refused` (``follow.bad_zone``) unless ``zone`` is one of the game of
    ``state`` and ``content`` something the rules let lie there: a slot holds one tile of the
    game or nothing (a coloured wall's space only its printed colour), a zone of loose tiles a
    list of the game's tiles."""
    one_tile = content is None or isinstance(content, str)  # a slot's: never a list
    spec, options = state.spec, state.options
    tiles = set(spec.tiles_in_play(options))
    named = named_zone(zone)
    if named is None or named.kind == HAND and not spec.holds_tiles:
        # (tiles lie beside a board only where the game has players hold them)
        raise Refused("follow.bad_zone", zone=zone[:40], content=repr(content)[:80])
    ok = False
    player, slot = named.player, named.slot
    if named.loose:
        displays = len(state.to_json()["factories"])
        ok = (isinstance(content, list) and all(t in tiles for t in content)
              and (named.index is None or named.index < displays)
              and (player is None or player < state.players))
    elif named.kind == SUPPLY:
        # the supply holds colour tiles only: the start-player token never lies there
        ok = (spec.scoring_layout is not None and named in expected_slots(spec.scoring_layout) and one_tile
              and (content is None or content in spec.colors))
    elif player is not None:
        layout = spec.layout(options)
        if player < state.players and slot is not None and slot in expected_slots(layout) and one_tile:
            # A coloured wall's space holds its printed colour alone: the wall tiling lays it there.
            printed = load_layout(layout)[slot].printed if spec.board == "wall" else None
            ok = content is None or (content in tiles and content != "first_player" and (printed is None or content == printed))
            if slot.kind == FLOOR_SPACE and content == "first_player":
                ok = True
    if not ok:
        raise Refused("follow.bad_zone", zone=zone, content=repr(content)[:80])
