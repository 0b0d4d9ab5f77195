"""A table set up from one view of it, as ``azulcam calibrate --bare`` does from a photo: the
boards found (or their corners given by hand and refined on their print), then the profile and
each board's bare look taken from the start-of-game view. What the dashboard's set-up page asks.

Refusals are :class:`~.track.Refused` codes with parameters (``setup.*``), worded by the catalogue.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.profile import Profile, ProfileError
from ..vision.analyze import bare_boards
from ..vision.bare import save_bare_boards
from ..vision.calibrate import CalibrationError, Match, confirm_boards, find_boards, profile_json
from ..vision.register import register_board
from .journal import write_atomically
from .track import Refused

def layout_of(game: str, side: str) -> str:
    """The players' boards' layout of ``game`` on ``side`` (``azul-colored``, ``pavilion-grey``)."""
    return f"{game}-{side}"


def found_boards(image: np.ndarray, game: str, players: int, side: str) -> dict[str, Any]:
    """The players' boards found in ``image`` (and Summer Pavilion's scoring board): each its
    four corners in pixels (top left, top right, bottom right, bottom left as its owner sees
    it), numbered nearest the image's bottom first, then clockwise. Raises :class:`Refused`
    (``setup.not_found``) when not every board is found: their corners are then the user's."""
    try:
        boards, scoring = find_boards(image, game, players, side)
    except CalibrationError:
        raise Refused("setup.not_found", players=players) from None
    if game == "pavilion" and scoring is None:
        raise Refused("setup.no_scoring_board")
    corners = lambda m: [[round(float(x), 1), round(float(y), 1)] for x, y in m.corners]  # noqa: E731
    return {"boards": [corners(m) for m in boards], "scoring": corners(scoring) if scoring else None}


def table_profile(image: np.ndarray, game: str, options: dict[str, Any], boards: list[list[list[float]]],
                  scoring: list[list[float]] | None, classifier: Any) -> tuple[Profile, dict[int, Any]]:
    """The profile of a table whose boards' corners are ``boards`` (and ``scoring``), each
    refined on its print, from ``image`` (the start of the game, boards bare), and each board's
    bare look. Raises :class:`Refused` (``setup.unconfirmed``) where the view does not show a
    board whole and bare of hands, of the game and side chosen."""
    side = options["wall"] if game == "azul" else options["side"]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

    def placed(corners: list[list[float]], layout: str) -> Match:
        registration = register_board(image, grey, np.array(corners, np.float64), layout)
        return Match(registration.corners, layout, registration.score)

    matches = [placed(c, layout_of(game, side)) for c in boards]
    if game == "pavilion" and scoring is None:
        raise Refused("setup.no_scoring_board")
    score_board = placed(scoring, "pavilion-scoring") if scoring is not None else None
    try:
        confirm_boards(image, matches)
    except CalibrationError:
        raise Refused("setup.unconfirmed") from None
    try:
        profile = Profile.from_json(profile_json(image, game, matches, score_board, options))
    except ProfileError:
        raise Refused("setup.unconfirmed") from None
    return profile, bare_boards(image, profile, classifier)


def with_bare(data: dict[str, Any], bare: dict[int, Any], path: Path) -> dict[str, Any]:
    """A profile's JSON with each board's bare look (:mod:`azulcam.vision.bare`) saved beside
    ``path`` and named in its board's ``bare`` key, as ``calibrate --bare`` keeps them. Raises
    :class:`~azulcam.vision.bare.BareError` naming a file it cannot write."""
    named = save_bare_boards(bare, path)
    return {**data, "boards": [{**b, "bare": named[b["player"]]} if b["player"] in named else b for b in data["boards"]]}


def keep_profile(profile: Profile, bare: dict[int, Any], path: Path) -> Profile:
    """``profile`` written to ``path`` (whole or not at all) with each board's bare look beside
    it (:func:`with_bare`); the profile as written, naming them."""
    data = with_bare(profile.to_json(), bare, path)
    write_atomically(path, json.dumps(data, indent=1) + "\n")
    return Profile.from_json(data)
