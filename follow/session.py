"""One way to open a watch: every path that follows a game (``watch``, ``serve``, the page's
set-up, the benches) goes through here, so that each has the same table memory, the same check
of the profile against the view and the same behaviour. And the set-up of a table from one view
of it, which the dashboard's set-up page opens its watch with.

- :class:`WatchConfig`: what a watch is opened from (a pydantic model: the profile, where this
  table's memory is kept, a game to join).
- :func:`open_watcher`: the :class:`~.watch.Watcher` of a game, reading with what this table
  taught (its memory, :func:`~.watch.load_table`, kept beside the profile as
  ``PROFILE.memory.json`` and written back as it grows; its photos' lessons, ``azulcam teach``).
- :func:`check_first_view`: the profile checked against the first frame, as ``analyze`` checks
  a photo's (another game, another side, boards not where it puts them: refused).
- :func:`nothing_committed`: why a watch that ended committed nothing (a watch that says nothing
  must not pass for one that followed a game).
- :func:`found_boards`, :func:`table_profile`, :func:`keep_profile`: a table set up from one view
  of it, as ``azulcam calibrate --bare`` does from a photo: the boards found (or their corners
  given by hand and refined on their print), then the profile and each board's bare look taken
  from the start-of-game view and kept (:func:`with_bare`). Refusals are :class:`~.track.Refused`
  codes with parameters (``setup.*``), worded by the catalogue.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict

from ..calibration.profile import Profile, ProfileError
from ..engine.games import find_game
from ..engine.record import Game
from ..vision.analyze import ImageError, ProfileMismatch, bare_boards, verified_profile
from ..vision.bare import save_bare_boards
from ..vision.calibrate import CalibrationError, Match, confirm_boards, find_boards, profile_json
from ..vision.memory import TableMemory, memory_path_of
from ..vision.taught import reader_with
from ..vision.register import register_board
from .journal import Journal, write_atomically
from .mixups import Mixups
from .track import Refused
from .watch import Watcher, load_table, resumed_tracker


class WatchConfig(BaseModel):
    """What a watch is opened from: the table's ``profile``; ``table_path``, where this table's
    memory is kept (None: learnt for this watch alone);
    ``join``, the round and scores of a game under way to take up at the first view."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, extra="forbid")

    profile: Profile
    table_path: Path | None = None
    join: tuple[int, list[int]] | None = None

    @classmethod
    def beside(cls, profile: Profile, profile_path: Path | None, join: tuple[int, list[int]] | None = None) -> "WatchConfig":
        """The configuration of a profile kept at ``profile_path``: its table's memory beside it."""
        return cls(profile=profile, table_path=table_path_of(profile_path) if profile_path is not None else None, join=join)


def table_path_of(profile_path: Path) -> Path:
    """Where the memory of the table that ``profile_path`` profiles is kept
    (:func:`~azulcam.vision.memory.memory_path_of`)."""
    return memory_path_of(profile_path)


def open_watcher(config: WatchConfig, game: Game, displays: list[tuple[float, float]], emit: Callable[[dict[str, Any]], None],
                 classifier: Any, locator: Any, bare: dict[int, Any] | None, journal: Journal | None = None,
                 record_path: Path | None = None) -> Watcher:
    """The watcher of ``game`` (new, or resumed from a journal with its ``displays`` numbered) on
    the table of ``config``. Raises :class:`Refused` (``follow.table_memory``) where the table's
    memory is there but not readable, and as :meth:`~.track.Tracker.join` does for a game to join
    that cannot be."""
    memory, mixups = TableMemory(config.profile.game), Mixups()
    if config.table_path is not None:
        try:
            memory, mixups = load_table(config.table_path, config.profile.game)
        except ValueError as exc:
            raise Refused("follow.table_memory", reason=exc) from None
    # Read through the table's memory, which the game and a person's lessons teach.
    watcher = Watcher(config.profile, reader_with(classifier, memory),
                      resumed_tracker(game, displays, config.profile, mixups), emit, locator,
                      bare, journal, record_path, memory, config.table_path)
    if config.join is not None and not game.record.events:
        watcher.tracker.join(*config.join)
    return watcher


def check_first_view(image: np.ndarray, profile: Profile, force: bool = False) -> tuple[list[Any], ProfileMismatch | None]:
    """The profile checked against a watch's first frame, as ``analyze`` checks a photo: the
    warnings to show, and (with ``force``) why the view does not match it (the error), followed
    all the same. Raises :class:`Refused` ``follow.profile_mismatch`` (not with ``force``) or
    ``follow.unreadable_frame``, the reader's error its ``reason``."""
    try:
        warnings, _ = verified_profile(image, profile)
    except ProfileMismatch as exc:
        if not force:
            raise Refused("follow.profile_mismatch", reason=exc) from None
        return [], exc
    except (ImageError, ProfileError) as exc:
        raise Refused("follow.unreadable_frame", reason=exc) from None
    return list(warnings), None


def nothing_committed(watcher: Watcher, events_before: int, over_before: bool) -> tuple[str, dict[str, Any]] | None:
    """Why a watch that ended committed no event (a notice code and its parameters), or None where
    it committed some, or the game it took up was already over."""
    tracker = watcher.tracker
    if len(tracker.game.record.events) != events_before or over_before:
        return None
    frames, reads = int(watcher.spent["frames"]), int(watcher.spent["reads"])
    if reads == 0:
        return "follow.nothing_read", {"frames": frames}
    if tracker.unexplained_since is not None:
        code, params = tracker.unexplained_notice
        return "follow.nothing_explained", {"frames": frames, "reads": reads, "code": code, "params": params}
    return "follow.nothing_changed", {"frames": frames, "reads": reads}


def resynchronised_at(record: Any) -> tuple[str, dict[str, Any]] | None:
    """Why ``record`` cannot be trusted whole (a notice code and its parameters), or None: its first
    position taken up again from the table after the camera lost the game (``resynchronised``). The
    moves it replaced were never seen and its scores are the ones the game had kept, so a record
    that holds one is not a game followed, however it ends."""
    for k, event in enumerate(record.events):
        if "position" in event and event.get("resynchronised"):
            return "follow.record_resynchronised", {"event": k, "round": event["position"]["round"]}
    return None


def found_boards(image: np.ndarray, game: str, players: int, side: str) -> dict[str, Any]:
    """The players' boards found in ``image`` (and the scoring board, where the game has one):
    each its four corners in pixels (top left, top right, bottom right, bottom left as its owner
    sees it), numbered nearest the image's bottom first, then clockwise. Raises :class:`Refused`
    (``setup.not_found``, ``setup.no_scoring_board``) when not every board is found: their
    corners are then the user's."""
    try:
        boards, scoring = find_boards(image, game, players, side)
    except CalibrationError:
        raise Refused("setup.not_found", players=players) from None
    if find_game(game).scoring_layout is not None and scoring is None:
        raise Refused("setup.no_scoring_board")
    corners = lambda m: [[round(float(x), 1), round(float(y), 1)] for x, y in m.corners]  # noqa: E731
    return {"boards": [corners(m) for m in boards], "scoring": corners(scoring) if scoring else None}


def table_profile(image: np.ndarray, game: str, options: dict[str, Any], boards: list[list[list[float]]],
                  scoring: list[list[float]] | None, classifier: Any) -> tuple[Profile, dict[int, Any]]:
    """The profile of a table whose boards' corners are ``boards`` (and ``scoring``), each
    refined on its print, from ``image`` (the start of the game, boards bare), and each board's
    bare look. Raises :class:`Refused` (``setup.unconfirmed``) where the view does not show a
    board whole and bare of hands, of the game and side chosen (a scoring board given where the
    game has none included), and ``setup.no_scoring_board`` where the game has one and it is
    not given."""
    spec = find_game(game)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

    def placed(corners: list[list[float]], layout: str) -> Match:
        registration = register_board(image, grey, np.array(corners, np.float64), layout)
        return Match(registration.corners, layout, registration.score)

    matches = [placed(c, spec.layout(options)) for c in boards]
    score_board = None
    if scoring is None and spec.scoring_layout is not None:
        raise Refused("setup.no_scoring_board")
    if scoring is not None:
        if spec.scoring_layout is None:
            raise Refused("setup.unconfirmed")  # no profile of this game holds a scoring board
        score_board = placed(scoring, spec.scoring_layout)
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
