"""A person's corrections to a followed game: one model for the control stream (``watch
--control``) and the dashboard's ``/api/corrections``, checked here before they reach the tracker.

A correction is exactly one of ``undo`` (the last event taken back), ``replace`` (the last event
replaced by a record event), ``overrule`` (what lies in a zone, over what the camera reads) and
``join`` (the game taken up from the table as it stands). Its form is checked by the model
(:class:`Correction`); what an overrule says is checked against the game (:func:`check_overrule`):
a zone the game has, holding what the rules allow there.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from ..calibration.layouts import expected_slots, load_layout
from ..engine.common import MOST_POINTS, MOST_ROUNDS
from ..engine.games import ALL_TILES
from ..formats import FormatError, checked
from ..formats.fields import Form, exactly_one
from ..formats.record import read_event
from .track import Refused

#: Zone names as in ``azulcam-observation/1``.
ZONE_PATTERN = r"^(boards\.[0-3]\.[A-Za-z0-9_.]+|factories\.[0-9]|center|supply\.[0-9])$"


#: Every tile name of either game: what a zone may be said to hold (the game decides the rest).
TileName = Literal[tuple(dict.fromkeys(ALL_TILES))]  # type: ignore[valid-type]


class Overrule(Form):
    zone: str = Field(pattern=ZONE_PATTERN, max_length=40,
                      description="an observation zone: boards.P.SLOT, boards.P.hand, factories.I, center, supply.N")
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


def is_loose(zone: str) -> bool:
    """Whether ``zone`` holds loose tiles (a display, the centre, a Summer Pavilion hand)."""
    return zone == "center" or zone.startswith("factories.") or zone.endswith(".hand")


def check_overrule(zone: str, content: Any, state: Any) -> None:
    """Raises :class:`Refused` (``follow.bad_zone``) unless ``zone`` is one of the game of
    ``state`` and ``content`` something the rules let lie there: a slot holds one tile of the
    game or nothing (a coloured wall's space only its printed colour), a zone of loose tiles a
    list of the game's tiles."""
    one_tile = content is None or isinstance(content, str)  # a slot's: never a list
    spec, options = state.spec, state.options
    tiles = set(spec.tiles_in_play(options))
    if not re.fullmatch(ZONE_PATTERN, zone) or zone.endswith(".hand") and not spec.holds_tiles:
        # (tiles lie beside a board only where the game has players hold them)
        raise Refused("follow.bad_zone", zone=zone[:40], content=repr(content)[:80])
    ok = False
    if is_loose(zone):
        displays = len(state.to_json()["factories"])
        ok = (isinstance(content, list) and all(t in tiles for t in content)
              and (not zone.startswith("factories.") or int(zone.split(".")[1]) < displays)
              and (not zone.startswith("boards.") or int(zone.split(".")[1]) < state.players))
    elif zone.startswith("supply."):
        # the supply holds colour tiles only: the start-player token never lies there
        ok = (spec.scoring_layout is not None and zone in expected_slots(spec.scoring_layout) and one_tile
              and (content is None or content in spec.colors))
    elif zone.startswith("boards."):
        _, player, slot = zone.split(".", 2)
        layout = spec.layout(options)
        if int(player) < state.players and slot in expected_slots(layout) and one_tile:
            # A coloured wall's space holds its printed colour alone: the wall tiling lays it there.
            printed = load_layout(layout)[slot].printed if spec.board == "wall" else None
            ok = content is None or (content in tiles and content != "first_player" and (printed is None or content == printed))
            if slot.startswith("floor.") and content == "first_player":
                ok = True
    if not ok:
        raise Refused("follow.bad_zone", zone=zone, content=repr(content)[:80])
