"""Boards found and fitted by their printed outlines, on art the models never saw (the inked
family, drawn by its own code) and on the renderer's own."""

from __future__ import annotations

import random
from functools import lru_cache

import cv2
import numpy as np
import pytest

from azulcam.synth.dataset import random_position
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision.calibrate import find_boards
from azulcam.vision.outline import BOARD_CONTRAST, Gradients, outline_boards, outline_contrast, register_outline, same_place
from azulcam.vision.register import fit_board, outline_board, register_board
from azulcam.vision.seek import seek_boards, table_view


@lru_cache(maxsize=4)
def scene(family: str, seed: int):
    rng = random.Random(seed)
    return render_state(random_position(rng), seed, SceneOptions(size=(1920, 1080), family=family))


def boards_of(s) -> list[tuple[np.ndarray, str]]:
    return [(np.asarray(b["corners"], np.float64), b["layout"]) for b in s.truth["profile"]["boards"]]


def off_by(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance, as a share of the board's diagonal, in the same turn."""
    return float(np.linalg.norm(found - truth, axis=1).max() / np.linalg.norm(truth[2] - truth[0]))


def test_a_board_lines_up_where_it_lies_and_not_elsewhere():
    s = scene("inked", 3)
    grad = Gradients.of(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY))
    for corners, layout in boards_of(s):
        side = np.linalg.norm(corners[1] - corners[0])
        assert outline_contrast(grad, corners, layout) >= BOARD_CONTRAST
        # the same outline turned half round, or moved half a board along the table, is no board
        assert outline_contrast(grad, np.roll(corners, 2, axis=0), layout) < BOARD_CONTRAST
        assert outline_contrast(grad, corners + [0.5 * side, 0], layout) < BOARD_CONTRAST


@pytest.mark.parametrize("family", ["inked", "classic"])
def test_a_rough_outline_in_any_turn_is_fitted_in_the_owners_turn(family):
    s = scene(family, 3)
    grad = Gradients.of(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY))
    rng = np.random.default_rng(3)
    for k, (corners, layout) in enumerate(boards_of(s)):
        diagonal = np.linalg.norm(corners[2] - corners[0])
        start = np.roll(corners, k + 1, axis=0) + rng.normal(0, 0.01 * diagonal, (4, 2))
        fit = register_outline(grad, start, layout)
        assert fit is not None and fit.contrast >= BOARD_CONTRAST
        assert off_by(fit.corners, corners) < 0.03, (family, k)


def test_starts_on_one_board_are_fitted_once_and_elsewhere_none_is_a_board():
    s = scene("inked", 3)
    grad = Gradients.of(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY))
    (corners, layout), *_ = boards_of(s)
    side = np.linalg.norm(corners[1] - corners[0])
    starts = [corners + d for d in ([3, 0], [0, -4], [-2, 2])] + [corners + [0, 2.5 * side], corners - [2.5 * side, 0]]
    found = outline_boards(grad, starts, layout)
    assert len(found) == 1 and same_place(found[0].corners, corners, 0.03)


def test_the_boards_not_found_are_sought_on_the_table_beside_one_found():
    """From any one board found, some of the others are found where they lie on the table's
    plane, none on the board found. Not every one from every board: the place sought is a tenth
    to a quarter of a board off, and on this table the board nearest the camera is not found
    from any other (a single board's plane, carried across the table, is that far off)."""
    s = scene("inked", 3)
    grey = cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY)
    grad = Gradients.of(grey)
    boards = boards_of(s)
    found_from = {}
    for i, (anchor, layout) in enumerate(boards):
        view = table_view(grey, [(anchor, layout)])
        assert view is not None
        places = seek_boards(view, layout, [anchor], len(boards) - 1)
        found = outline_boards(grad, places, layout, min_promise=-1.0)
        assert found and not any(same_place(f.corners, anchor) for f in found)
        found_from[i] = {j for j, (corners, _) in enumerate(boards) if any(same_place(f.corners, corners, 0.05) for f in found)}
    assert all(found_from.values())
    assert len(set().union(*found_from.values())) >= len(boards) - 1


def test_a_printing_the_model_never_saw_is_registered_by_its_outlines():
    """Corners clicked some millimetres off: the board-fitting model does not know the inked
    family's art and keeps them; the outlines fit the board."""
    s = scene("inked", 3)
    grey = cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY)
    corners, layout = boards_of(s)[0]
    start = corners + np.random.default_rng(5).normal(0, 3, (4, 2))
    reg = outline_board(grey, start, layout)
    assert reg.aligned and off_by(reg.corners, corners) < off_by(start, corners) / 2
    if not fit_board(s.image, start, layout).aligned:
        assert np.array_equal(register_board(s.image, grey, start, layout).corners, reg.corners)


def test_every_board_of_an_unseen_printing_is_found_unaided():
    """Every board of an inked table, each corner within 5 % of a side of the truth's; the one an
    arm lies across (player 1's, five of its spaces hidden) found where it lies but less well,
    within 15 % (the table's plane the other boards fix places it, and what is covered of its print
    does not pull the fit home)."""
    s = scene("inked", 3)
    profile = s.truth["profile"]
    side = profile["boards"][0]["layout"].split("-", 1)[1]
    boards, scoring = find_boards(s.image, profile["game"], len(profile["boards"]), side)
    assert len(boards) == len(profile["boards"]) and scoring is None
    for player, (corners, _) in enumerate(boards_of(s)):
        assert any(same_place(b.corners, corners, 0.15 if player == 1 else 0.05) for b in boards), player


def test_a_board_only_its_outlines_align_is_read_and_said_so(monkeypatch):
    """Where the board-fitting model does not take a board for one it knows (here: made to
    refuse every board, as it does boards of a printing it never saw), the outlines align it;
    its spaces are read against the photo's own print, only the unsure ones listed in
    ``uncertain``, and a warning names the board."""
    from azulcam.calibration.profile import Profile
    from azulcam.vision import register
    from azulcam.vision.analyze import analyze
    from azulcam.vision.classify import default_classifier
    from azulcam.vision.evaluate import compare

    s = scene("inked", 3)
    profile = Profile.from_json(s.truth["profile"])
    # Unpatched, the model takes most of this table's boards (3 of 4 here: it never saw the art).
    unpatched = [w for w in analyze(s.image, profile, default_classifier())["warnings"] if w["code"] == "warning.unfamiliar_print"]
    assert len(unpatched) < len(profile.boards) // 2
    monkeypatch.setattr(register, "fit_board", lambda image, corners, *a, **k: register.Registration(corners, 0.0, False))
    observation = analyze(s.image, profile, default_classifier())
    outlined = [w for w in observation["warnings"] if w["code"] == "warning.unfamiliar_print"]
    assert all("aligned by its outlines alone" in w["text"] for w in outlined)
    assert len(outlined) == len(profile.boards)
    for board in profile.boards:
        spaces = [z for z in observation["uncertain"]
                  if z.startswith(f"boards.{board.player}.") and not z.endswith((".score", ".hand"))]
        assert len(spaces) < 47 // 2  # not every space: those the reader is unsure of
    score = compare(observation, s.truth)
    assert score.sure_slot_errors <= 0.03 * (score.slots - score.unsure_slots), score.mistakes
