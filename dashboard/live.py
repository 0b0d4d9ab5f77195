"""The game the dashboard follows: the watch loop in a thread, and what the pages are shown of it.

:class:`LiveGame` runs ``follow.watch`` over a source in a thread of its own. Every event the
watcher announces goes to the history (SQLite) and to every page listening (:class:`Broadcaster`),
with the game's state as the pages draw it (:func:`state_of`). The newest frame is kept, with the
zones of the last reading drawn over it (unsure ones in red), for the camera view. Corrections go
to the watcher between two frames, as ``watch --control`` lines do; a new game is begun there too.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import queue
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.profile import Profile
from ..engine.notice import plain
from ..engine.observe import empty_content, expected, observation_of
from ..engine.record import RECORD_FORMAT, Game, Record
from ..follow import Frame, Refused, last_view, teach_view, Journal, Source, WatchConfig, game_to_follow, nothing_committed, open_watcher, resumed_tracker, watch
from ..i18n.notices import notice_words, with_message
from ..i18n.places import Table
from ..i18n.words import is_message
from .choices import zone_words
from .history import History
from .search import Searcher
from .svg import board_svg, table_svg
from .words import described, described_parts, worded

#: Log lines and alerts a page is sent (the whole game is in the history).
LOG_LINES = 12
JPEG_QUALITY = 80


class Broadcaster:
    """Stream events to every page listening: each subscriber an asyncio queue on its loop,
    fed from any thread. A subscriber that does not keep up loses its oldest events, not the
    others' time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = []

    def subscribe(self) -> asyncio.Queue:
        subscriber: asyncio.Queue = asyncio.Queue(maxsize=256)
        with self._lock:
            self._subscribers.append((asyncio.get_running_loop(), subscriber))
        return subscriber

    def unsubscribe(self, subscriber: asyncio.Queue) -> None:
        with self._lock:
            self._subscribers = [(loop, q) for loop, q in self._subscribers if q is not subscriber]

    def publish(self, message: dict[str, Any]) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for loop, subscriber in subscribers:
            try:
                loop.call_soon_threadsafe(_put, subscriber, message)
            except RuntimeError:  # its loop is closed: the page has gone
                self.unsubscribe(subscriber)

    @property
    def listening(self) -> int:
        with self._lock:
            return len(self._subscribers)


def _put(subscriber: asyncio.Queue, message: dict[str, Any]) -> None:
    if subscriber.full():
        subscriber.get_nowait()
    subscriber.put_nowait(message)


@dataclass
class Seen:
    """The newest frame, and the zones of the last reading to draw over it."""

    frame: Frame | None = None
    outlines: list[tuple[np.ndarray, bool]] = field(default_factory=list)  # (polygon, unsure)
    displays: list[tuple[float, float]] = field(default_factory=list)
    jpeg: bytes | None = None
    jpeg_of: int = -1


class LiveGame:
    """A game followed on ``source`` with ``watcher_parts`` (profile, classifier, locator, bare
    boards), its history in ``history`` and its journal in ``folder`` (``game-ID.journal``): a
    game whose journal is there when the dashboard starts again goes on where it was."""

    def __init__(self, source: Source, profile: Profile, classifier: Any, locator: Any, bare: Any,
                 history: History, folder: Path, options: dict[str, Any], pace: bool = True,
                 names: list[str] | None = None, table_path: Path | None = None, first: Frame | None = None) -> None:
        self.source, self.profile, self.history, self.folder = source, profile, history, folder
        #: The players' names a new game is recorded with (None: numbered only).
        self.players: int | list[str] = list(names) if names else profile.player_count
        self.pace = pace
        self.options = options
        self.broadcaster = Broadcaster()
        self.seen = Seen()
        self._lock = threading.Lock()
        self._log: list[dict[str, Any]] = []
        self._alerts: list[dict[str, Any]] = []
        self._unsure: list[str] = []
        self._tasks: queue.Queue = queue.Queue()  # work for the watch thread, between two frames
        self.searcher = Searcher()
        self._stopped = threading.Event()
        self._watching = threading.Event()
        self.done = threading.Event()
        self._thread: threading.Thread | None = None
        self._began: float | None = None
        self._behind = 0.0
        self.error: dict[str, Any] | None = None
        self.game_id, game, displays, self.after = self._game_to_follow()
        #: The frame a set-up began the game from (its first view), handed to the watch first.
        self.first = first if not game.record.events else None
        # As every watch: this table's memory kept beside its profile (``table_path``).
        self.watcher = open_watcher(WatchConfig(profile=profile, table_path=table_path), game, displays, self._heard,
                                    classifier, locator, bare, self._journal(game, displays, self.after))
        if hasattr(source, "on_new_game"):  # the demo: its next game begun as a player begins one on the page
            source.on_new_game = lambda: self.correct({"new": True})
        self._zones = expected(game.state)  # every zone as the engine has it, to tell what an event changed
        self._changed: list[str] = []
        self.state = state_of(self.watcher.tracker.game, self.game_id, [], [], [], [])

    # -- the game ---------------------------------------------------------------------------

    def _game_to_follow(self) -> tuple[int, Game, list[tuple[float, float]], int]:
        """The unfinished game whose journal is in the folder (its id, game, displays and the
        frame of its last event), or a new one."""
        for row in self.history.games():
            path = self.folder / f"game-{row['id']}.journal"
            if not row["over"] and not row["closed"] and path.exists():
                kept, resumed = game_to_follow(path, self.profile.game, self.profile.player_count, self.options, False)
                if resumed:
                    return row["id"], kept.game, list(kept.displays), kept.frame
        game = Game.new(self.profile.game, self.players, self.options)
        return self.history.start(game.record, self.source.name), game, [], -1

    def _journal(self, game: Game, displays: list[tuple[float, float]], frame: int = -1) -> Journal:
        return Journal.create(self.folder / f"game-{self.game_id}.journal", game, displays, frame)

    def start(self) -> None:
        self._watching.set()
        self._thread = threading.Thread(target=self._run, name="dashboard watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            # A video or a folder resumed reads on after the journal's last frame; a camera shows the table as it is.
            tapped = _Tapped(self.source, self._frame_seen, self.pace and not self.source.live, self.after, self.first)
            game = self.watcher.tracker.game
            events_before, over_before = len(game.record.events), game.state.is_over()
            watch(tapped, self.watcher, bool(game.record.events), self.after)
            idle = nothing_committed(self.watcher, events_before, over_before)
            if idle is not None:  # the source ended having followed nothing: the pages are told why
                frame, seconds = self.watcher.last_seen
                self._heard({"kind": "alert", "time": round(seconds, 3), "frame": frame, "zones": [], "code": idle[0],
                             "params": idle[1]})
        except Exception as exc:  # noqa: BLE001 (a camera that cannot go on: the pages are told why)
            # An error that is a message (a source that cannot be read) is worded in its place; any
            # other is a bug of ours, named by its kind.
            reason = plain(exc) if is_message(exc) else f"{type(exc).__name__}: {exc}"
            self.error = {"code": "dash.watch_stopped", "params": {"reason": reason}}
            self._heard({"kind": "alert", "zones": [], **self.error})
        self._watching.clear()
        # The source has ended (a video, the demo): corrections are still taken, with no frame to wait
        # for, and journalled (watch closed the journal as the source ended).
        tracker = self.watcher.tracker
        self.watcher.journal = self._journal(tracker.game, tracker.displays.places, self.watcher.last_seen[0])
        while not self._stopped.is_set():
            try:
                task = self._tasks.get(timeout=0.1)
            except queue.Empty:
                continue
            task()
            self._run_tasks()
        self.done.set()

    def stop(self) -> None:
        self._stopped.set()
        self.source.close()
        self.searcher.close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def source_ended(self) -> bool:
        """Whether the source gave its last frame (a video, the demo): corrections still apply."""
        return self._thread is not None and not self._watching.is_set()

    def correct(self, command: dict[str, Any]) -> Future:
        """A correction for the watcher, made in the watch thread before the next frame: undo,
        replace, overrule, join; ``{"new": true}`` begins a new game. Its future's result is the
        refusal (:class:`~azulcam.follow.Refused`) or None once it is made."""
        frame, seconds = self.watcher.last_seen
        self.history.add(self.game_id, {"kind": "correction", "correction": command, "time": round(seconds, 3), "frame": frame})
        outcome: Future = Future()

        def made() -> None:
            # Made all the same where the asker has gone (its future cancelled): only the answer is dropped.
            asked = outcome.set_running_or_notify_cancel()
            try:
                if command == {"new": True}:
                    self._begin_new_game()
                    refused = None
                else:
                    overrule = command.get("overrule")
                    refused = self.watcher.correct(command)
                    if refused is None and isinstance(overrule, dict) and overrule.get("content") is None:
                        self.learn_empty(str(overrule.get("zone")))
            except Exception as exc:  # noqa: BLE001 (the page is answered; the watch goes on)
                if asked:
                    outcome.set_exception(exc)
                return
            if asked:
                outcome.set_result(refused)

        self._tasks.put(made)
        return outcome

    def reading(self) -> dict[str, Any] | None:
        """The last still view as the camera read it, drawn (:func:`reading_of`): what "Is this
        your table?" shows; None before any view was read."""
        observation = last_view(self.watcher)
        return None if observation is None else reading_of(observation, self.watcher)

    def teach(self, corrections: list[tuple[str, Any]]) -> Future:
        """The last still view, as a person says it is (its reading with ``corrections``), taught to
        this table's memory in the watch thread (:func:`~azulcam.follow.teaching.teach_view`). Its
        future's result is the view read again with what it learnt (:func:`reading_of`, with
        ``taught``), or the refusal (:class:`~azulcam.follow.Refused`)."""
        outcome: Future = Future()

        def made() -> None:
            if not outcome.set_running_or_notify_cancel():
                return
            try:
                lesson, again = teach_view(self.watcher, corrections)
            except Refused as exc:
                outcome.set_result(exc)
                return
            except Exception as exc:  # noqa: BLE001 (the page is answered; the watch goes on)
                outcome.set_exception(exc)
                return
            memory = self.watcher.memory
            outcome.set_result({**reading_of(again, self.watcher),
                                "taught": {"slots": lesson.examples.get("slots", 0), "loose": lesson.examples.get("loose", 0),
                                           "photos": memory.photos}})

        self._tasks.put(made)
        return outcome

    def learn_empty(self, zone: str) -> bool:
        """Calibration learns from a person's word that a board space is empty: the space as the
        newest frame shows it becomes that board's bare view of it (``bare.learn_empty``), so
        that later readings compare it with how it looks empty in today's light. False where
        there is nothing to learn from (not a board space, no frame or reading of that board)."""
        with self._lock:
            frame = self.seen.frame
        return frame is not None and self.watcher.learn_empty(zone, frame.image)

    # -- in the watch thread ----------------------------------------------------------------

    def _frame_seen(self, frame: Frame) -> None:
        if self._began is None:
            self._began = time.monotonic() - frame.time
        self._behind = time.monotonic() - self._began - frame.time
        with self._lock:
            self.seen.frame = frame
        self._run_tasks()
        reading = self.watcher.last_reading
        if reading is not None and reading is not getattr(self, "_drawn_reading", None):
            self._drawn_reading = reading
            outlines = self.watcher.slot_outlines()
            with self._lock:
                self.seen.outlines, self.seen.displays = outlines, list(reading.factories)

    def _run_tasks(self) -> None:
        while not self._tasks.empty():
            self._tasks.get_nowait()()  # each task answers its own failure (see correct)

    def _begin_new_game(self) -> None:
        tracker = self.watcher.tracker
        self.history.keep(self.game_id, tracker.game.record, tracker.game.state.scores(), tracker.game.state.is_over())
        self.history.close(self.game_id)
        if self.watcher.journal is not None:
            self.watcher.journal.close()
        game = Game.new(self.profile.game, self.players, self.options)
        self.game_id = self.history.start(game.record, self.source.name)
        self.watcher.tracker = resumed_tracker(game, [], self.profile, tracker.mixups)  # the same reader, the same table
        self.watcher.journal = self._journal(game, [])
        with self._lock:
            self._log, self._alerts, self._unsure = [], [], []
            self._zones = expected(game.state)
        self._heard({"kind": "start", "time": 0.0, "frame": self.watcher.last_seen[0], "new": True})

    def _heard(self, event: dict[str, Any]) -> None:
        """One event the watcher announced (already journalled where it is a commit)."""
        kind = event["kind"]
        if "code" in event:  # an alert, a refusal or a re-synchronisation: worded in every language
            record = self.watcher.tracker.game.record
            table = Table.of(record.game, record.options, record.players)
            event = {**with_message(event, table), "text": notice_words(event, table)}
        self.history.add(self.game_id, event)
        game = self.watcher.tracker.game
        with self._lock:
            if kind in ("move", "chance", "position", "undo"):
                # "n": the event's number in the record (an undo: the number of the one taken back).
                number = len(game.record.events) + (1 if kind == "undo" else 0)
                self._log = (self._log + [{**event, "n": number, "text": described(event, game.record),
                                           "parts": described_parts(event, game.record)}])[-LOG_LINES:]
            elif kind == "alert":
                self._alerts = (self._alerts + [event])[-LOG_LINES:]
            elif kind == "uncertain":
                self._unsure = list(event["zones"])
            if kind in ("move", "chance", "position", "undo", "start"):
                self._alerts = []
            zones = expected(game.state)
            if kind in ("move", "chance", "position", "undo", "start"):
                self._changed = changed_zones(self._zones, zones) if kind != "start" else []
            self._zones = zones
            self.state = state_of(game, self.game_id, self._log, self._alerts, self._unsure, self._changed)
            state = self.state
        if kind in ("move", "chance", "position", "undo"):
            self.history.keep(self.game_id, game.record, game.state.scores(), game.state.is_over())
        # "at": when it was sent (this machine's clock), for a page to tell how late it hears of it.
        self.broadcaster.publish({"event": {k: v for k, v in event.items() if k != "observation"}, "state": state,
                                  "at": time.time()})

    # -- for the pages ----------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """How the watch keeps up: frames fed and read, the time reading and tracking took over
        the video's time, how far behind its clock the newest frame is, the pages listening."""
        spent = self.watcher.spent
        frame = self.seen.frame
        video_s = frame.time if frame is not None else 0.0
        return {"frames": int(spent["frames"]), "reads": int(spent["reads"]), "video_s": round(video_s, 2),
                "processing_ratio": round((spent["gate_s"] + spent["read_s"] + spent["track_s"]) / video_s, 3) if video_s else None,
                "behind_s": round(self._behind, 3), "listening": self.broadcaster.listening,
                "source_ended": self.source_ended, "error": self.error}

    def game_now(self) -> Game:
        """The game as the tracker has it now: a replay of its record, not shared with the watch thread."""
        record = self.watcher.tracker.game.record
        return Game(Record(record.game, record.players, record.options, record.start_player, list(record.events)))

    def alternatives(self) -> list[dict[str, Any]]:
        """The moves the last one may be replaced by (every legal move in the position before it,
        as record events, each with its words); none where the last event is not a move."""
        record = self.watcher.tracker.game.record
        events = list(record.events)
        if not events or "move" not in events[-1]:
            return []
        before = Game(Record(record.game, record.players, record.options, record.start_player, events[:-1])).state
        out = []
        for move in before.legal_moves():
            event = {"player": before.current_player, "move": move.to_json()}
            said = {"kind": "move", **event}
            out.append({"event": event, "text": described(said, record), "parts": described_parts(said, record),
                        "last": event == events[-1]})
        return out

    def suggestions(self, seconds: float, top: int) -> dict[str, Any]:
        """The best moves for the player to move now, each with its words; none where no player
        is to move. Searched in a process of its own (:mod:`search`), one search at a time
        (:class:`~.search.Busy` while one runs). ``position``: the position the moves are for
        (:func:`position_of`; a page drops them once the state's differs)."""
        game = self.game_now()
        record = game.record
        if game.state.current_player < 0:
            return {"player": game.state.current_player, "position": position_of(self.game_id, record), "moves": []}
        found = [worded(s, record) for s in self.searcher.suggest(record, seconds, top)]
        return {"player": game.state.current_player, "position": position_of(self.game_id, record), "moves": found}

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return self.state

    def jpeg(self) -> tuple[int, bytes | None]:
        """The newest frame as JPEG, the zones drawn over it: (frame number, bytes; None before any)."""
        with self._lock:
            seen = self.seen
            frame = seen.frame
            if frame is None:
                return -1, None
            if seen.jpeg_of == frame.index and seen.jpeg is not None:
                return frame.index, seen.jpeg
            outlines, displays = list(seen.outlines), list(seen.displays)
        image = frame.image.copy()
        for polygon, unsure in outlines:
            cv2.polylines(image, [np.round(polygon).astype(np.int32)], True, (40, 40, 230) if unsure else (90, 200, 90),
                          2 if unsure else 1, cv2.LINE_AA)
        for x, y in displays:
            if np.isfinite(x):
                cv2.circle(image, (int(x), int(y)), 6, (230, 160, 40), 2, cv2.LINE_AA)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        with self._lock:
            seen.jpeg, seen.jpeg_of = data.tobytes() if ok else None, frame.index
            return frame.index, seen.jpeg


class _Tapped:
    """A source whose every frame is seen by ``on_frame`` before the watcher gets it, ``first``
    (a set-up's start of the game) before them; with ``pace``, a video's (or the demo's) frames
    are handed over at their own time, as a camera's would be, those up to ``after`` (where a
    resumed game's journal stopped) at once."""

    def __init__(self, source: Source, on_frame: Any, pace: bool = False, after: int = -1, first: Frame | None = None) -> None:
        self._source, self._on_frame, self._pace, self._after, self._first = source, on_frame, pace, after, first
        self.name, self.live = source.name, source.live

    def frames(self) -> Iterator[Frame]:
        began: float | None = None
        for frame in itertools.chain([self._first] if self._first is not None else [], self._source.frames()):
            if self._pace and frame.index > self._after:
                began = time.monotonic() - frame.time if began is None else began
                wait = began + frame.time - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            self._on_frame(frame)
            yield frame

    def close(self) -> None:
        self._source.close()


def state_of(game: Game, game_id: int, log: list[dict[str, Any]], alerts: list[dict[str, Any]],
             unsure: list[str], changed: list[str]) -> dict[str, Any]:
    """What the pages show of a game: its position as ``azulcam-observation/1`` (every zone the
    engine knows of), the players' names (None: numbered only), scores with their breakdown,
    round, whose turn, whether it is over and who won, the move log, alerts, the zones to
    confirm (read unsure, or named by an alert) and those the last event changed; and the table
    drawn (:mod:`svg`)."""
    state = game.state
    to_confirm = list(dict.fromkeys([*unsure, *(z for alert in alerts for z in alert.get("zones", []))]))
    record = game.record
    observation = observation_of(state)
    observation.pop("options", None)
    over = state.is_over()
    return {
        "game_id": game_id,
        "game": record.game,
        "players": record.player_count,
        "names": list(record.players) if isinstance(record.players, list) else None,
        "options": record.options,
        "round": state.round,
        "to_move": state.current_player,
        "over": over,
        "winners": list(state.winners()) if over else [],
        "scores": state.scores(),
        "breakdown": state.breakdown(),
        "observation": observation,
        "events": len(record.events),
        "position": position_of(game_id, record),
        "log": log,
        "alerts": alerts,
        "unsure": unsure,
        "to_confirm": to_confirm,
        "places": {zone: zone_words(record, zone) for zone in to_confirm},
        "changed": changed,
        "boards_svg": [board_svg(observation, p, state.spec, record.options, to_confirm, changed)
                       for p in range(record.player_count)],
        "table_svg": table_svg(observation, state.spec, to_confirm, changed),
        "record_format": RECORD_FORMAT,
    }


def reading_of(observation: dict[str, Any], watcher: Any) -> dict[str, Any]:
    """A view as the camera read it (its ``observation``), as the pages draw it: with the zones it
    was unsure of, and its boards and table drawn (:mod:`svg`)."""
    game = watcher.tracker.game
    unsure = [str(z) for z in observation["uncertain"]]
    return {"observation": observation, "unsure": unsure,
            "boards_svg": [board_svg(observation, b["player"], game.state.spec, game.record.options, unsure, [])
                           for b in observation["boards"]],
            "table_svg": table_svg(observation, game.state.spec, unsure, [])}


def position_of(game_id: int, record: Record) -> str:
    """A short name of the position a game's record reached (its id and events), that changes
    whenever an event is added, taken back or replaced."""
    digest = hashlib.sha1(json.dumps([record.start_player, record.events], sort_keys=True).encode()).hexdigest()
    return f"{game_id}:{len(record.events)}:{digest[:12]}"


def changed_zones(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The zones (:func:`~azulcam.engine.observe.expected`'s) whose content differs between two positions."""
    return sorted(z for z in set(before) | set(after) if before.get(z, empty_content(z)) != after.get(z, empty_content(z)))
