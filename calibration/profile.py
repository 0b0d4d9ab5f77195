"""Calibration profiles (``azulcam-profile/1``): where each board lies in the camera image.

A profile names each player's board layout and the image pixels of its four corners (top
left, top right, bottom right, bottom left as its owner sees it); from them a homography
maps board fractions to image pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from ..engine import pavilion_board as topo
from ..engine.azul import TILE_NAMES as AZUL_TILE_NAMES
from ..engine.errors import show
from ..engine.record import read_options
from .layouts import is_number

PROFILE_FORMAT = "azulcam-profile/1"
GAMES = ("azul", "pavilion")
#: The layouts that ship with azulcam, by what they are (a board given by a file's path is not checked here).
_SHIPPED_BOARDS = {"azul": {"azul-colored": "colored", "azul-grey": "grey"},
                   "pavilion": {"pavilion-colored": "colored", "pavilion-grey": "grey"}}
_SHIPPED = {"azul-colored", "azul-grey", "pavilion-colored", "pavilion-grey", "pavilion-scoring"}
_A_BOARD = {"azul": "an Azul", "pavilion": "a Summer Pavilion"}
#: Tile kinds a profile's ``colors`` may hold references of (``"game/kind"``).
_COLOR_KINDS = {"azul": AZUL_TILE_NAMES, "pavilion": topo.COLORS + ("first_player",)}
#: How far from the image a corner may lie, in pixels (a board partly out of view is fine; 1e300 is not).
_MAX_PIXELS = 1e6

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)


class ProfileError(ValueError):
    """A profile that cannot be read or used; the message names the field."""


def board_homography(corners: Corners | np.ndarray) -> np.ndarray:
    """The 3x3 homography from board fractions (0..1, origin top left) to image pixels."""
    return cv2.getPerspectiveTransform(_UNIT_SQUARE.astype(np.float32), np.asarray(corners, np.float32))


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

    @classmethod
    def from_json(cls, data: Any, where: str, player_required: bool = True) -> "BoardPlacement":
        if not isinstance(data, dict):
            raise ProfileError(f"{where} must be an object, not {show(data)}")
        player = data.get("player")
        if player_required and (not isinstance(player, int) or isinstance(player, bool) or player < 0):
            raise ProfileError(f"{where}.player must be a player number, not {show(player)}")
        layout = data.get("layout")
        if not isinstance(layout, str) or not layout:
            raise ProfileError(f"{where}.layout must name a layout, not {show(layout)}")
        corners = data.get("corners")
        if not (isinstance(corners, list) and len(corners) == 4 and all(
                isinstance(p, list) and len(p) == 2 and all(is_number(v) for v in p) for p in corners)):
            raise ProfileError(f"{where}.corners must be four [x, y] image points (TL, TR, BR, BL), not {show(corners)}")
        if any(abs(v) > _MAX_PIXELS for p in corners for v in p):
            raise ProfileError(f"{where}.corners lie more than {_MAX_PIXELS:.0e} pixels out: {show(corners)}")
        quad = np.array(corners, np.float32)
        if abs(cv2.contourArea(quad)) < 1.0 or not cv2.isContourConvex(quad):
            raise ProfileError(f"{where}.corners do not outline a board (a convex quadrilateral with an area)")
        bare = data.get("bare")
        if bare is not None and not (
                isinstance(bare, dict) and set(bare) <= {"image", "reads"} and isinstance(bare.get("image"), str)
                and 0 < len(bare["image"]) <= 255 and "\0" not in bare["image"]
                and isinstance(bare.get("reads", {}), dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in bare.get("reads", {}).items())):
            raise ProfileError(f"{where}.bare must be {{\"image\": FILE, \"reads\": {{slot: kind}}}}, not {show(bare)}")
        return cls(player if player_required else None, layout,
                   tuple((float(x), float(y)) for x, y in corners), bare)  # type: ignore[arg-type]


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
        has none, the side its first board's layout shows (a layout name with ``grey`` in it: the
        grey side) and no jokers."""
        if self.options is not None:
            return read_options(self.game, self.options, ProfileError)
        side = "grey" if self.boards and "grey" in self.boards[0].layout else "colored"
        return {"wall": side, "jokers": False} if self.game == "azul" else {"side": side}

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
        """Read and check a profile. Raises :class:`ProfileError` naming the bad field.

        Keys it does not know are ignored (docs/formats/profile.md); ``options`` and ``players`` may be
        left out (older files): they are derived from the boards.
        """
        if not isinstance(data, dict) or data.get("format") != PROFILE_FORMAT:
            raise ProfileError(f"not an {PROFILE_FORMAT} profile")
        game = data.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise ProfileError(f"game must be 'azul' or 'pavilion', not {show(game)}")
        size = data.get("image_size")
        if not (isinstance(size, list) and len(size) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
            raise ProfileError(f"image_size must be [width, height] in pixels, not {show(size)}")
        options = data.get("options")
        if options is not None:
            options = read_options(game, options, ProfileError)
        players = data.get("players")
        if isinstance(players, list):
            bad = [n for n in players if not isinstance(n, str)]
            if bad:
                raise ProfileError(f"players must be a count or a list of names, not a list holding {show(bad[0])}")
        elif players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            raise ProfileError(f"players must be a count or a list of names, not {show(players)}")
        boards = data.get("boards")
        if not isinstance(boards, list) or not 2 <= len(boards) <= 4:
            raise ProfileError(f"boards must list the 2 to 4 player boards, not {show(boards)}")
        placed = tuple(BoardPlacement.from_json(b, f"boards[{i}]") for i, b in enumerate(boards))
        numbers = sorted(b.player for b in placed)  # type: ignore[type-var]
        if numbers != list(range(len(placed))):
            raise ProfileError(f"boards must be for players 0..{len(placed) - 1}, each once (got {numbers})")
        count = len(players) if isinstance(players, list) else players
        if count is not None and count != len(placed):
            raise ProfileError(f"the profile is for {count} players but lists {len(placed)} boards")
        scoring = data.get("scoring_board")
        if scoring is not None and game == "azul":
            raise ProfileError("scoring_board must be null: Azul has no scoring board")
        scoring_board = None if scoring is None else BoardPlacement.from_json(scoring, "scoring_board", False)
        for i, b in enumerate(placed):
            if b.layout in _SHIPPED and b.layout not in _SHIPPED_BOARDS[game]:
                raise ProfileError(f"boards[{i}].layout {b.layout} is not {_A_BOARD[game]} player board")
        if scoring_board is not None and scoring_board.layout in _SHIPPED and scoring_board.layout != "pavilion-scoring":
            raise ProfileError(f"scoring_board.layout {scoring_board.layout} is not the scoring board")
        colors = _read_colors(data.get("colors"))
        profile = cls(game, (size[0], size[1]), placed, scoring_board, colors, options, players)
        resolved = profile.game_options
        key = "wall" if game == "azul" else "side"
        for i, b in enumerate(placed):
            side = _SHIPPED_BOARDS[game].get(b.layout)
            if side is not None and side != resolved[key]:
                raise ProfileError(f"options.{key} is {resolved[key]!r}, but boards[{i}].layout is {b.layout}")
        return cls(game, profile.image_size, placed, scoring_board, colors, resolved,
                   len(placed) if players is None else players)


def _read_colors(colors: Any) -> dict[str, Any] | None:
    """A profile's ``colors``: null, or ``{"game/kind": [L, a, b] or [L, a, b, spread]}`` (CIE Lab)."""
    if colors is None:
        return None
    if not isinstance(colors, dict):
        raise ProfileError(f"colors must be an object or null, not {show(colors)}")
    for name, value in colors.items():
        if name == "empty":  # the colour classifier's own key, which it skips
            continue
        game, slash, kind = name.partition("/")
        if not (slash and game in _COLOR_KINDS and kind in _COLOR_KINDS[game]):
            raise ProfileError(f"colors: {name!r} names no tile ('game/kind', e.g. 'azul/blue' or 'pavilion/red')")
        if not (isinstance(value, list) and len(value) in (3, 4) and all(is_number(v) for v in value)):
            raise ProfileError(f"colors[{name!r}] must be [L, a, b] or [L, a, b, spread], not {show(value)}")
    return colors
