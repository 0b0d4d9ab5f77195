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

PROFILE_FORMAT = "azulcam-profile/1"

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
    """One board in the image: whose it is (``None`` for the scoring board), its layout and corners."""

    player: int | None
    layout: str
    corners: Corners

    @property
    def homography(self) -> np.ndarray:
        return board_homography(self.corners)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.player is None else {"player": self.player}
        out["layout"] = self.layout
        out["corners"] = [[round(x, 2), round(y, 2)] for x, y in self.corners]
        return out

    @classmethod
    def from_json(cls, data: Any, where: str, player_required: bool = True) -> "BoardPlacement":
        if not isinstance(data, dict):
            raise ProfileError(f"{where} must be an object")
        player = data.get("player")
        if player_required and (not isinstance(player, int) or isinstance(player, bool) or player < 0):
            raise ProfileError(f"{where}.player must be a player number, not {player!r}")
        layout = data.get("layout")
        if not isinstance(layout, str) or not layout:
            raise ProfileError(f"{where}.layout must name a layout")
        corners = data.get("corners")
        if not (isinstance(corners, list) and len(corners) == 4 and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                            for v in p) for p in corners)):
            raise ProfileError(f"{where}.corners must be four [x, y] image points (TL, TR, BR, BL)")
        quad = np.array(corners, np.float32)
        if abs(cv2.contourArea(quad)) < 1.0 or not cv2.isContourConvex(quad):
            raise ProfileError(f"{where}.corners do not outline a board (a convex quadrilateral with an area)")
        return cls(player if player_required else None, layout,
                   tuple((float(x), float(y)) for x, y in corners))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Profile:
    """Where the boards lie in one camera's image."""

    game: str
    image_size: tuple[int, int]
    boards: tuple[BoardPlacement, ...]
    scoring_board: BoardPlacement | None = None
    colors: dict[str, Any] | None = None

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
            "boards": [b.to_json() for b in self.boards],
            "scoring_board": self.scoring_board.to_json() if self.scoring_board else None,
            "colors": self.colors,
        }

    @classmethod
    def from_json(cls, data: Any) -> "Profile":
        """Read and check a profile. Raises :class:`ProfileError` naming the bad field."""
        if not isinstance(data, dict) or data.get("format") != PROFILE_FORMAT:
            raise ProfileError(f"not an {PROFILE_FORMAT} profile")
        game = data.get("game")
        if game not in ("azul", "pavilion"):
            raise ProfileError(f"game must be 'azul' or 'pavilion', not {game!r}")
        size = data.get("image_size")
        if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
            raise ProfileError(f"image_size must be [width, height] in pixels, not {size!r}")
        boards = data.get("boards")
        if not isinstance(boards, list) or not 2 <= len(boards) <= 4:
            raise ProfileError("boards must list the 2 to 4 player boards")
        placed = tuple(BoardPlacement.from_json(b, f"boards[{i}]") for i, b in enumerate(boards))
        players = sorted(b.player for b in placed)  # type: ignore[type-var]
        if players != list(range(len(placed))):
            raise ProfileError(f"boards must be for players 0..{len(placed) - 1}, each once (got {players})")
        scoring = data.get("scoring_board")
        scoring_board = None if scoring is None else BoardPlacement.from_json(scoring, "scoring_board", False)
        colors = data.get("colors")
        if colors is not None and not isinstance(colors, dict):
            raise ProfileError("colors must be an object or null")
        return cls(game, (size[0], size[1]), placed, scoring_board, colors)
