"""One way to open a watch: every path that follows a game (``watch``, ``serve``, the page's
set-up, the benches) goes through here, so that each has the same table memory, the same check
of the profile against the view and the same behaviour.

- :class:`WatchConfig`: what a watch is opened from (a pydantic model: the profile, where this
  table's memory is kept, a game to join).
- :func:`open_watcher`: the :class:`~.watch.Watcher` of a game, knowing what earlier games at
  this table taught of its tiles (:func:`~.watch.load_table`, kept beside the profile as
  ``PROFILE.tiles.json`` and written back as it grows).
- :func:`check_first_view`: the profile checked against the first frame, as ``analyze`` checks
  a photo's (another game, another side, boards not where it puts them: refused).
- :func:`nothing_committed`: why a watch that ended committed nothing (a watch that says nothing
  must not pass for one that followed a game).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from ..calibration.profile import Profile, ProfileError
from ..engine.record import Game
from ..vision.analyze import ImageError, ProfileMismatch, verified_profile
from ..vision.references import TileReferences
from .journal import Journal
from .mixups import Mixups
from .track import Refused
from .watch import Watcher, load_table, resumed_tracker


class WatchConfig(BaseModel):
    """What a watch is opened from: the table's ``profile``; ``table_path``, where this table's
    tile references and the reader's mix-ups are kept (None: learnt for this watch alone);
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
    """Where the memory of the table that ``profile_path`` profiles is kept: ``PROFILE.tiles.json``."""
    return profile_path.with_suffix(".tiles.json")


def open_watcher(config: WatchConfig, game: Game, displays: list[tuple[float, float]], emit: Callable[[dict[str, Any]], None],
                 classifier: Any, locator: Any, bare: dict[int, Any] | None, journal: Journal | None = None,
                 record_path: Path | None = None) -> Watcher:
    """The watcher of ``game`` (new, or resumed from a journal with its ``displays`` numbered) on
    the table of ``config``. Raises :class:`Refused` (``follow.table_memory``) where the table's
    memory is there but not readable, and as :meth:`~.track.Tracker.join` does for a game to join
    that cannot be."""
    table, mixups = TileReferences(), Mixups()
    if config.table_path is not None:
        try:
            table, mixups = load_table(config.table_path)
        except ValueError as exc:
            raise Refused("follow.table_memory", reason=str(exc)) from None
    watcher = Watcher(config.profile, classifier, resumed_tracker(game, displays, config.profile, mixups), emit, locator,
                      bare, journal, record_path, table, config.table_path)
    if config.join is not None and not game.record.events:
        watcher.tracker.join(*config.join)
    return watcher


def check_first_view(image: np.ndarray, profile: Profile, force: bool = False) -> tuple[list[Any], str | None]:
    """The profile checked against a watch's first frame, as ``analyze`` checks a photo: the
    warnings to show, and (with ``force``) why the view does not match it, followed all the
    same. Raises :class:`Refused` ``follow.profile_mismatch`` (not with ``force``) or
    ``follow.unreadable_frame``."""
    try:
        warnings, _ = verified_profile(image, profile)
    except ProfileMismatch as exc:
        if not force:
            raise Refused("follow.profile_mismatch", reason=str(exc)) from None
        return [], str(exc)
    except (ImageError, ProfileError) as exc:
        raise Refused("follow.unreadable_frame", reason=str(exc)) from None
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
