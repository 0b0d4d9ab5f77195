"""What the JSON API takes and answers, as pydantic models: the routes' contracts, and the
OpenAPI page's (``/api/docs``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from .. import follow
from ..engine.games import GAMES, GameSpec
from ..formats.fields import Game, Side, unicode_text

#: A player's name as the set-up page sends it: text a record can hold (not blank, valid Unicode).
PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24), AfterValidator(unicode_text)]

#: Words in every language of the catalogue: ``{"en": ..., "fr": ...}``.
Words = dict[str, str]
#: A line cut where a player is named (``words.described_parts``): each language's pieces of
#: text, and ``{"player": P}`` where player P is named.
Parts = dict[str, list[str | dict[str, int]]]


class Correction(follow.Correction):
    """One correction, as a ``watch --control`` line, or ``{"new": true}``: a new game begun."""

    new: Literal[True] | None = None


class Taught(BaseModel):
    """What one lesson taught: board spaces and loose tiles, and the photos this table has taught."""

    slots: int
    loose: int
    photos: int


class Reading(BaseModel):
    """The last still view as the camera read it (``live.reading_of``); after a lesson, read again
    with what it learnt (``taught``)."""

    observation: dict[str, Any]
    unsure: list[str]
    boards_svg: list[str]
    table_svg: str
    taught: Taught | None = None


class Lesson(BaseModel):
    """What a person says the last still view shows where the camera read it wrong: each zone and
    its content, as an overrule gives them (a slot's tile or null, a loose zone's tiles)."""

    model_config = ConfigDict(extra="forbid")

    corrections: list[follow.Overrule] = Field(default_factory=list, max_length=200)


class Outcome(BaseModel):
    """A correction made (``done``), or still waiting for the watch thread (its outcome then
    comes on ``/events``)."""

    accepted: dict[str, Any]
    done: bool


class Strings(BaseModel):
    lang: str
    languages: list[str]
    strings: dict[str, str]


class State(BaseModel):
    """What the pages draw (see ``live.state_of``)."""

    game_id: int
    game: str
    players: int
    names: list[str] | None
    options: dict[str, Any]
    round: int
    to_move: int
    over: bool
    winners: list[int]
    scores: list[int]
    breakdown: list[dict[str, int]]
    observation: dict[str, Any]
    events: int
    position: str = Field(description="a name of the position the record reached, new with every event taken or taken back")
    log: list[dict[str, Any]]
    alerts: list[dict[str, Any]]
    unsure: list[str] = Field(description="the zones the last reading was unsure of")
    to_confirm: list[str] = Field(description="the zones a person is asked to confirm: read unsure, or named by an alert")
    places: dict[str, Words] = Field(description="each zone to confirm in words")
    changed: list[str]
    boards_svg: list[str]
    table_svg: str
    record_format: str


class Choice(BaseModel):
    """One thing a zone may hold: a slot's kind (None: empty), or a kind of loose tile."""

    content: str | None
    text: Words


class ZoneChoices(BaseModel):
    """What a person may say lies in a zone: the rules' choices, in words."""

    zone: str
    place: Words
    loose: bool = Field(description="a zone of loose tiles (a display, the centre, a hand): counts of each choice")
    most: int = Field(description="the most tiles the zone holds (a slot: 1)")
    now: str | None | list[str] = Field(description="what the game has there now")
    choices: list[Choice]


class Alternative(BaseModel):
    event: dict[str, Any]
    text: Words
    parts: Parts
    last: bool


class Suggestions(BaseModel):
    player: int
    position: str = Field(description="the position the moves are for (the state's ``position``): once it changes, "
                                      "they are stale")
    moves: list[dict[str, Any]]


class Health(BaseModel):
    frames: int
    reads: int
    video_s: float
    processing_ratio: float | None
    behind_s: float
    listening: int
    source_ended: bool
    error: dict[str, Any] | None


class GameRow(BaseModel):
    id: int
    started: float
    source: str
    game: str
    players: int | list[str]
    options: dict[str, Any]
    scores: list[int]
    over: bool
    closed: bool
    events: int


class ReplayStep(BaseModel):
    event: dict[str, Any] | None
    text: Words | None
    parts: Parts | None
    round: int
    scores: list[int]
    boards_svg: list[str]
    table_svg: str


#: A point of the camera's picture, in pixels.
Point = Annotated[list[Annotated[float, Field(ge=-100_000, le=100_000, allow_inf_nan=False)]], Field(min_length=2, max_length=2)]
#: A board's four corners: top left, top right, bottom right, bottom left, as its owner sees it.
Corners = Annotated[list[Point], Field(min_length=4, max_length=4)]


class SetupFind(BaseModel):
    """Find the boards of ``players`` players of ``game`` (printed side ``side``) in the newest frame."""

    model_config = ConfigDict(extra="forbid")
    game: Game
    players: int = Field(ge=2, le=4, strict=True)
    side: Side = "colored"


class SetupStart(BaseModel):
    """Begin the game from the newest frame (the start of the game, boards bare)."""

    model_config = ConfigDict(extra="forbid")
    game: Game
    side: Side = "colored"
    jokers: bool = Field(default=False, strict=True, description="Azul's joker tiles")
    boards: list[Corners] = Field(min_length=2, max_length=4)
    scoring: Corners | None = Field(default=None, description="Summer Pavilion's scoring board")
    names: list[PlayerName] | None = Field(default=None, max_length=4)

    def options(self) -> dict[str, Any]:
        spec = GAMES[self.game]
        return {spec.face: self.side, **({"jokers": self.jokers} if "jokers" in spec.options else {})}


class SetupGame(BaseModel):
    """What the set-up page asks of a game (its :class:`~azulcam.engine.games.GameSpec`)."""

    face: str = Field(description="the option naming the boards' printed face (Azul's wall, Summer Pavilion's side)")
    faces: list[str] = Field(description="that option's values, the first the default")
    flags: list[str] = Field(description="the game's true/false options (Azul's jokers)")
    scoring_board: bool = Field(description="whether a scoring board is found or placed beside the players' boards")

    @classmethod
    def of(cls, spec: GameSpec) -> "SetupGame":
        return cls(face=spec.face, faces=list(spec.faces), flags=[k for k in spec.options if k != spec.face],
                   scoring_board=spec.scoring_layout is not None)


class Found(BaseModel):
    boards: list[list[list[float]]]
    scoring: list[list[float]] | None


class SetupState(BaseModel):
    set_up: bool
    size: list[int] | None = Field(description="the camera picture's width and height (None: no frame yet)")
