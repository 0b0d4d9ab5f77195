"""The profile check (``vision.verify``) on the fixture scenes: every true board is confirmed, and
a board given the other game's or the other side's layout at its true corners is not (it is
refused, or at worst too unclear to tell)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from azulcam.calibration.profile import BoardPlacement, board_homography
from azulcam.engine.notice import Notice
from azulcam.i18n.words import words
from azulcam.vision import verify

SCENES = sorted((Path(__file__).parents[2] / "fixtures" / "scenes").glob("*/scene-*.json"))


def boards(path: Path) -> tuple[np.ndarray, list[dict]]:
    """The photo and its boards, each with ``hidden``: how many of its slots the truth says are
    hidden (by a hand, clutter or the frame)."""
    truth = json.loads(path.read_text(encoding="utf-8"))
    hidden = [h["zone"].split(".")[1] for h in truth["hidden"] if h["zone"].startswith("boards.")]
    placed = [dict(b, hidden=hidden.count(str(b["player"]))) for b in truth["profile"]["boards"]]
    return cv2.imread(str(path.with_suffix(".jpg"))), placed


def check(image: np.ndarray, board: dict, layout: str) -> verify.BoardCheck:
    corners = np.array(board["corners"], np.float64)
    return verify.check_board(image, BoardPlacement(board["player"], layout, tuple(map(tuple, corners))),
                              board_homography(corners))


@pytest.mark.parametrize("path", SCENES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_true_boards_are_confirmed_and_wrong_ones_are_not(path):
    image, placed = boards(path)
    for board in placed:
        game, side = board["layout"].split("-")
        assert check(image, board, board["layout"]).verdict == "match", board
        other_game = check(image, board, ("pavilion" if game == "azul" else "azul") + "-" + side)
        other_side = check(image, board, game + "-" + ("grey" if side == "colored" else "colored"))
        # A board half under a hand keeps too little of its print to tell the games apart.
        assert other_game.verdict != "match" or board["hidden"] >= 10, (board, other_game)
        assert other_side.verdict in ("other_side", "match"), other_side
        if side == "colored":  # a coloured print is never taken for a grey one, nor the other way
            assert other_side.verdict == "other_side", other_side


def test_the_checks_say_which_board_and_why():
    image, placed = boards(SCENES[0])
    board = placed[0]
    wrong = check(image, board, "pavilion-colored")
    assert wrong.mismatch and wrong.reason().code == "mismatch.other_game" and wrong.who == Notice("who.board", player=0)
    assert words(wrong.reason()) == ("the board of player 0 looks like an Azul board, but the profile says Summer Pavilion "
                                     "(pavilion-colored): wrong profile? calibrate again")
    moved = dict(board, corners=[[x + 2000, y] for x, y in board["corners"]])
    assert check(image, moved, board["layout"]).verdict == "unsure"  # out of the photo: nothing to tell
