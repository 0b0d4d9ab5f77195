"""Calibration profiles (``azulcam-profile/1``): where each board lies in the camera image.

A profile names each player's board layout and the image pixels of its four corners (top
left, top right, bottom right, bottom left as its owner sees it); from them a homography
maps board fractions to image pixels.

A profile is checked in one place, its model (:class:`ProfileModel`): every rule of
docs/formats/profile.md, the boards' layouts loaded and of the game and side the profile says
included. What is read through :meth:`Profile.from_json` is then usable as it is; only what a
reading adds (the game asked for, the photo's size) is checked where the photo is read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

import cv2
import numpy as np
from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError, PydanticKnownError

from ..engine.errors import show
from ..engine.games import GAMES
from ..formats import FormatError, checked
from ..formats.fields import OPTIONS, Form, Game, ImagePoint, Number, OpenForm, Players, Side, Text, UnicodeText, player_count, unicode_text
from ..formats.problems import refusal
from .layouts import LayoutError, is_scoring_layout, layout_game, load_layout

PROFILE_FORMAT = "azulcam-profile/1"

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)


class ProfileError(FormatError):
    """A profile that cannot be read or used: ``code`` and ``params`` for the catalogue, the field's
    path (``field``) among them (worded ``boards.1.corners.2.0 must be a finite number``)."""


def board_homography(corners: Corners | np.ndarray) -> np.ndarray:
    """The 3x3 homography from board fractions (0..1, origin top left) to image pixels."""
    return cv2.getPerspectiveTransform(_UNIT_SQUARE.astype(np.float32), np.asarray(corners, np.float32))


def seat_order(centres: Any) -> list[int]:
    """The seats of the boards whose middles (in the image) are ``centres``: the indices of the
    boards in their players' order, the one nearest the camera (lowest in the image) player 0,
    then clockwise round the table. Every profile numbers its players so."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    if not len(centres):
        return []
    middle = centres.mean(0)
    first = int(np.argmax(centres[:, 1]))
    start = math.atan2(centres[first, 1] - middle[1], centres[first, 0] - middle[0])
    return sorted(range(len(centres)),
                  key=lambda i: (math.atan2(centres[i, 1] - middle[1], centres[i, 0] - middle[0]) - start) % (2 * math.pi))


def to_image(h: np.ndarray, points: Any) -> np.ndarray:
    """Board fractions -> image pixels through homography ``h`` (N x 2 in, N x 2 out)."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


@dataclass(frozen=True)
class BoardPlacement:
    """One board in the image: whose it is (``None`` for the scoring board), its layout and corners;
    ``bare``, where calibration kept it: ``{"image": FILE, "reads": {slot: kind}}``, the board as
    it looked bare (an image beside the profile) and what the classifier took its bare spaces for
    (only those it took for a tile)."""

    player: int | None
    layout: str
    corners: Corners
    bare: dict[str, Any] | None = None

    @property
    def homography(self) -> np.ndarray:
        return board_homography(self.corners)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.player is None else {"player": self.player}
        out["layout"] = self.layout
        out["corners"] = [[round(x, 2), round(y, 2)] for x, y in self.corners]
        if self.bare is not None:
            out["bare"] = self.bare
        return out


@dataclass(frozen=True)
class Profile:
    """Where the boards lie in one camera's image, and the game they are for.

    ``options`` are the game's options as a record has them (Azul ``wall``, ``jokers``; Summer
    Pavilion ``side``) and ``players`` the player count or names; ``None`` for either means "derive
    it" (see :attr:`game_options` and :attr:`player_count`). :meth:`from_json` fills both in.
    """

    game: str
    image_size: tuple[int, int]
    boards: tuple[BoardPlacement, ...]
    scoring_board: BoardPlacement | None = None
    colors: dict[str, Any] | None = None
    options: dict[str, Any] | None = None
    players: int | list[str] | None = None

    @property
    def player_count(self) -> int:
        """How many play: ``players`` when given, else one per board."""
        if self.players is None:
            return len(self.boards)
        return self.players if isinstance(self.players, int) else len(self.players)

    @property
    def game_options(self) -> dict[str, Any]:
        """Every option of the game: ``options`` with the defaults filled in, or, when the profile
        has none (one built in code), the side its first board's layout names (``grey`` in it: the
        grey side) and no jokers."""
        if self.options is not None:
            try:
                return checked(OPTIONS[self.game], self.options, ("options",)).model_dump()
            except FormatError as exc:
                raise ProfileError(exc.code, **exc.params) from None
        side = "grey" if self.boards and "grey" in self.boards[0].layout else "colored"
        return GAMES[self.game].options_for(side)

    def board(self, player: int) -> BoardPlacement:
        for b in self.boards:
            if b.player == player:
                return b
        raise KeyError(f"the profile has no board for player {player}")

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PROFILE_FORMAT,
            "game": self.game,
            "image_size": list(self.image_size),
            "options": self.game_options,
            "players": self.player_count if self.players is None else self.players,
            "boards": [b.to_json() for b in self.boards],
            "scoring_board": self.scoring_board.to_json() if self.scoring_board else None,
            "colors": self.colors,
        }

    @classmethod
    def from_json(cls, data: Any) -> "Profile":
        """Read and check a profile (:class:`ProfileModel`). Raises :class:`ProfileError` naming the
        bad field by its path.

        Keys it does not know are ignored (docs/formats/profile.md); ``options`` and ``players`` may be
        left out (older files): they are derived from the boards.
        """
        try:
            model = checked(ProfileModel, data)
        except FormatError as exc:
            raise ProfileError(exc.code, **exc.params) from None
        boards = tuple(_placement(b, b.player) for b in model.boards)
        return cls(model.game, (model.image_size[0], model.image_size[1]), boards,
                   _placement(model.scoring_board, None) if model.scoring_board is not None else None,
                   model.colors, model.options if model.options is not None else _derived_options(model.game, model.boards),
                   model.players if model.players is not None else len(boards))

    @classmethod
    def in_view(cls, data: dict[str, Any], players: int) -> "Profile":
        """The profile of the boards one photo shows, fewer than the ``players`` at the table, as
        ``calibrate.photo_profile`` finds them with ``least`` (numbered by seat among themselves;
        Summer Pavilion's scoring board where it shows). It reads that one photo and is never
        written: the format, and a watch, hold every board."""
        def placement(board: dict[str, Any], player: int | None) -> BoardPlacement:
            return BoardPlacement(player, board["layout"], tuple((float(x), float(y)) for x, y in board["corners"]))

        profile = cls(data["game"], (int(data["image_size"][0]), int(data["image_size"][1])),
                      tuple(placement(b, n) for n, b in enumerate(data["boards"])),
                      placement(data["scoring_board"], None) if data.get("scoring_board") else None,
                      None, data.get("options"), players)
        profile.game_options  # the options checked
        return profile


def _placement(board: BoardModel, player: int | None) -> BoardPlacement:
    bare = board.bare.model_dump(exclude_unset=True) if board.bare is not None else None
    return BoardPlacement(player, board.layout, tuple((x, y) for x, y in board.corners), bare)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the format's model


def outlines_a_board(corners: Any) -> bool:
    """Whether four corners (pixels) can outline a board: finite, convex and with an area (a fit can
    fold over itself, or shrink to a line)."""
    quad = np.array(corners, np.float32)
    return bool(np.isfinite(quad).all() and abs(cv2.contourArea(quad)) >= 1.0 and cv2.isContourConvex(quad))


def _convex(corners: list[list[float]]) -> list[list[float]]:
    """Refuses corners that outline no board (:func:`outlines_a_board`)."""
    if not outlines_a_board(corners):
        raise PydanticCustomError("not_convex", "no convex outline with an area")
    return corners


class BareModel(Form):
    """How a board looked bare: a PNG beside the profile, and what the reading model took its bare
    spaces for (slot: kind)."""

    image: Annotated[str, Field(min_length=1, max_length=255, pattern=r"^[^\x00]*$"), AfterValidator(unicode_text)]
    reads: dict[Text, Text] = {}


class BoardModel(OpenForm):
    """A board in the image: its layout (a shipped name or a layout file's path), corners and bare look."""

    layout: UnicodeText
    corners: Annotated[list[ImagePoint], Field(min_length=4, max_length=4), AfterValidator(_convex)]
    bare: BareModel | None = None


class PlayerBoardModel(BoardModel):
    player: Annotated[int, Field(ge=0)]


class ProfileModel(OpenForm):
    """``azulcam-profile/1`` (docs/formats/profile.md); keys it does not know are ignored.

    Between fields: the options are the game's; the boards are for players 0 .. n-1, each once,
    as many as ``players`` says; each board's layout loads, is a player board of the game and
    shows the side the options say (without options, the side the first board shows); Summer
    Pavilion has its scoring board and Azul none.
    """

    format: Literal["azulcam-profile/1"]
    game: Game
    image_size: Annotated[list[Annotated[int, Field(gt=0)]], Field(min_length=2, max_length=2)]
    options: dict[str, Any] | None = None
    players: Players | None = None  # type: ignore[valid-type]
    boards: Annotated[list[PlayerBoardModel], Field(min_length=2, max_length=4)]
    scoring_board: BoardModel | None = Field(default=None, validate_default=True)
    colors: dict[str, Any] | None = None

    @field_validator("options", mode="plain")
    @classmethod
    def the_games_options(cls, options: Any, info: ValidationInfo) -> dict[str, Any] | None:
        """Every option of the game (a record's: :data:`azulcam.formats.fields.OPTIONS`), the
        defaults filled in."""
        game = info.data.get("game")
        if options is None or game is None:  # (an unknown game is refused already)
            return options
        return _options(game, options)

    @field_validator("boards")
    @classmethod
    def players_boards(cls, boards: list[PlayerBoardModel], info: ValidationInfo) -> list[PlayerBoardModel]:
        seen: set[int] = set()
        for n, board in enumerate(boards):
            if board.player >= len(boards):
                raise refusal((n, "player"), "not_a_player", "not one of the players", players=len(boards))
            if board.player in seen:
                raise refusal((n, "player"), "players_twice", "a player with two boards", player=board.player)
            seen.add(board.player)
        game = info.data.get("game")
        for n, board in enumerate(boards):
            name = _loaded(board.layout, (n, "layout"))
            if game is not None and not (layout_game(name) is GAMES[game] and not is_scoring_layout(name)):
                raise refusal((n, "layout"), "not_a_player_board", "no player board of this game", layout=name)
        return boards

    @field_validator("scoring_board")
    @classmethod
    def the_games_scoring_board(cls, board: BoardModel | None, info: ValidationInfo) -> BoardModel | None:
        game = info.data.get("game")
        if game is None:  # (an unknown game is refused already)
            return board
        scoring_layout = GAMES[game].scoring_layout
        if scoring_layout is None and board is not None:
            raise refusal((), "not_this_game", f"{GAMES[game].title} has no scoring board")
        if scoring_layout is not None:
            if board is None:
                raise refusal((), "missing")
            name = _loaded(board.layout, ("layout",))
            if not name.startswith(scoring_layout):
                raise refusal(("layout",), "not_the_scoring_board", "not the scoring board", layout=name)
        return board

    @field_validator("colors", mode="plain")
    @classmethod
    def colour_references(cls, colors: Any) -> dict[str, Any] | None:
        """``{"game/kind": [L, a, b] or [L, a, b, spread]}``, kept as given; an ``empty`` key (the
        colour classifier's own, which it skips) may hold anything."""
        if colors is None:
            return None
        if not isinstance(colors, dict):
            raise PydanticKnownError("dict_type")
        for name in colors:
            game, slash, kind = name.partition("/") if isinstance(name, str) else ("", "", "")
            if name != "empty" and not (slash and game in GAMES and kind in GAMES[game].tiles):
                raise refusal((), "unknown_tile", "no such tile", tile=name)
        # Every other key names a tile now: pydantic's paths may show it.
        _REFERENCES.validate_python({name: value for name, value in colors.items() if name != "empty"})
        return colors

    @model_validator(mode="after")
    def boards_agree(self) -> "ProfileModel":
        """As many boards as players, each showing the side the options say."""
        if self.players is not None and player_count(self.players) != len(self.boards):
            raise refusal(("players",), "wrong_count", "one per board", expected=len(self.boards),
                          got=show(player_count(self.players)))
        option = GAMES[self.game].face
        side = (self.options if self.options is not None else _derived_options(self.game, self.boards))[option]
        for n, board in enumerate(self.boards):
            name = load_layout(board.layout).name
            if _side_of(name) != side:
                raise refusal(("boards", n, "layout"), "wrong_side", "the other side", layout=name,
                              option=option, side=side)
        return self


#: Colour references by tile: CIELAB ``[L, a, b]`` or ``[L, a, b, spread]``.
_REFERENCES = TypeAdapter(dict[str, Annotated[list[Number], Field(min_length=3, max_length=4)]],
                          config=ConfigDict(strict=True))


def _options(game: str, options: Any) -> dict[str, Any]:
    """A game's options, checked, every option given."""
    return OPTIONS[game].model_validate(options).model_dump()


def _loaded(layout: str, where: tuple[str | int, ...]) -> str:
    """The name of the layout a board gives (a shipped name or a file's path), loaded; refused when
    it cannot be, with the reason."""
    try:
        return load_layout(layout).name
    except LayoutError as exc:
        raise refusal(where, "unknown_layout", "a layout that cannot be loaded: {reason}", reason=exc) from None


def _side_of(layout_name: str) -> str:
    """The side a layout's name says it shows (``azul-grey``: ``grey``; a name goes GAME-SIDE...)."""
    parts = layout_name.split("-")
    return parts[1] if len(parts) > 1 else ""


def _derived_options(game: str, boards: list[PlayerBoardModel]) -> dict[str, Any]:
    """A game's options where a profile (an older file) has none: the side its first board's layout
    shows (the first side when it shows neither), no jokers."""
    option = GAMES[game].face
    side = _side_of(load_layout(boards[0].layout).name)
    return _options(game, {option: side} if side in get_args(Side) else {})
