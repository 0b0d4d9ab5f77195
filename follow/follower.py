"""Views in, committed events out: the tracker's verdicts journalled, recorded and announced.

The follower needs no image: a view is data (:class:`~.explain.View`), so that a game can be
followed from any frame loop, and the dashboard and the command line hear one stream of events.
What the tracker commits goes to the journal first (fsync), then to the record file, then to
whoever listens (``emit``: one event stream line, a dict). A person's corrections come the same
way (:meth:`Follower.correct`), checked before they reach the tracker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.observe import observation_of
from .corrections import check_overrule, parsed
from .explain import View
from .journal import Journal, write_atomically
from .track import Refused, Tracker

EVENTS_FORMAT = "azulcam-events/1"

#: When something happened: (frame number, seconds), as the event stream stamps it.
Stamp = tuple[int, float]


@dataclass
class Follower:
    """The tracker, where committed events go (``journal``, ``record_path``) and who hears of
    them (``emit``). ``last_view``: the newest view seen, looked at again after a correction."""

    tracker: Tracker
    emit: Callable[[dict[str, Any]], None]
    journal: Journal | None = None
    record_path: Path | None = None
    last_view: View | None = None

    def start(self, source_name: str, resumed: bool) -> None:
        record = self.tracker.game.record
        self.emit({"kind": "start", "time": 0.0, "frame": 0, "format": EVENTS_FORMAT, "source": source_name,
                   "game": record.game, "players": record.players, "options": record.options,
                   "resumed": resumed, "events": len(record.events), "joining": self.tracker.joining is not None})

    def see(self, view: View) -> None:
        """The tracker's verdict on a still view: what it committed journalled, recorded, announced."""
        self.last_view = view
        self._announce(self._seen(view), (view.frame, view.time))

    def alert(self, code: str, params: dict[str, Any], stamp: Stamp) -> None:
        """An alert of the frame loop's own (no zone of the game in it) at ``stamp``."""
        self._announce([{"kind": "alert", "zones": [], "code": code, "params": params}], stamp)

    def tick(self, stamp: Stamp) -> None:
        """Time passing over the last view (the table still, nothing new to read)."""
        self._announce(self.tracker.tick(stamp[1]), stamp)

    def correct(self, command: Any, stamp: Stamp | None = None) -> Refused | None:
        """A person's correction (one control line, :mod:`corrections`) at ``stamp`` (default: the
        last view's): journalled, then announced; what cannot be done is announced as
        ``refused`` with its code, changes nothing and is returned."""
        if stamp is None:
            stamp = (self.last_view.frame, self.last_view.time) if self.last_view is not None else (0, 0.0)
        try:
            announced, entries = self._corrected(command, stamp[0])
        except Refused as exc:
            # The refusal's own parameters as JSON: an error it carries (the engine's) as its object.
            self._announce([{"kind": "refused", "code": "follow.refused",
                             "params": {"reason": exc.code, "params": exc.notice.to_json()["params"]}}], stamp)
            return exc
        # Done: from here on, a failure is the journal's or the disk's, not a refusal.
        if self.journal is not None:
            for entry in entries:
                self.journal.append(entry)
        if entries and self.record_path is not None:
            write_atomically(self.record_path, self.tracker.game.record.dumps())
        if not entries and self.last_view is not None:  # an overrule or a join: the table looked at again
            announced = self._seen(self.last_view)
        self._announce(announced, stamp)
        return None

    def _corrected(self, command: Any, frame: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The correction made on the tracker: what to announce, and the journal's entries for it.
        Raises :class:`Refused` for one that cannot be, the tracker unchanged."""
        tracker = self.tracker
        correction = parsed(command, tracker.game.state)
        if correction.overrule is not None:
            check_overrule(correction.overrule.zone, correction.overrule.content, tracker.game.state)
            tracker.overrule(correction.overrule.zone, correction.overrule.content)
            return [], []
        if correction.join is not None:
            state = tracker.game.state
            join = correction.join
            tracker.join(join.round if join.round is not None else state.round,
                         join.scores if join.scores is not None else list(state.scores()))
            return [], []
        announced = [tracker.undo()] if correction.undo else tracker.replace(correction.replace)
        entries: list[dict[str, Any]] = [{"undo": True}]
        if correction.replace is not None:
            entries.append({"event": tracker.game.record.events[-1], "frame": frame, "corrected": True})
        return [{**a, "corrected": True} if a["kind"] in ("move", "chance") else a for a in announced], entries

    def _seen(self, view: View) -> list[dict[str, Any]]:
        """The tracker's verdict on a view, what it committed journalled first."""
        numbered = bool(self.tracker.displays.places)
        before = list(self.tracker.game.record.events)
        start = self.tracker.game.record.start_player
        announced = self.tracker.see(view)
        self._keep(numbered, before, start, view.frame)
        return announced

    def _keep(self, numbered: bool, before: list[dict[str, Any]], start: int, frame: int) -> None:
        """The journal first: what the tracker committed (or revised) is on disk before it is announced."""
        record = self.tracker.game.record
        events = record.events
        same = next((k for k, (a, b) in enumerate(zip(before, events)) if a != b), min(len(before), len(events)))
        if self.journal is not None:
            if not numbered and self.tracker.displays.places:
                self.journal.append({"displays": self.tracker.displays.to_json()})
            if record.start_player != start:
                self.journal.append({"start_player": record.start_player})
            for _ in range(len(before) - same):
                self.journal.append({"undo": True})
            for event in events[same:]:
                self.journal.append({"event": event, "frame": frame})
        if self.record_path is not None and events != before:
            write_atomically(self.record_path, record.dumps())

    def _announce(self, events: list[dict[str, Any]], stamp: Stamp) -> None:
        if not events:
            return
        when = {"time": round(stamp[1], 3), "frame": stamp[0]}
        committed = False
        for event in events:
            self.emit({**event, **when})
            committed |= event["kind"] in ("move", "chance", "position")
        if committed or any(e["kind"] == "undo" for e in events):
            state = self.tracker.game.state
            observation = observation_of(state)
            observation.pop("options", None)
            self.emit({"kind": "state", **when, "observation": observation, "scores": state.scores(),
                       "to_move": state.current_player, "over": state.is_over()})
