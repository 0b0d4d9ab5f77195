"""Every game the dashboard followed, in SQLite: its events, the corrections made, the scores.

One row a game (``games``) and one a stream event (``events``: moves, chance events, positions,
undos, alerts and corrections, as the watcher announced them, in order). A game's record is rebuilt
from its events, so that what was corrected stays in the history and the record is what the
tracker kept. SQLite runs in WAL mode, each write is committed before it returns: a process killed
at any moment loses no event written.

The schema carries its version (``PRAGMA user_version``, :data:`VERSION`); an older history is
brought up to date once, a newer one refused. A history that cannot be read is named with its path
and never replaced: nor is an empty one beside journals of games it should list (a history lost
or cut short), whose next game would take the first journal's name.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from ..engine.errors import CodedError
from ..engine.record import Record

#: The schema's version: 1 added ``games.events`` (a game listed without parsing its record).
VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    source TEXT NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    record TEXT NOT NULL,
    scores TEXT NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    closed INTEGER NOT NULL DEFAULT 0,
    events INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""

#: The stream events a game's history keeps (``state`` lines are rebuilt from the record).
KEPT = ("move", "chance", "position", "undo", "alert", "uncertain", "refused", "correction")
#: The journals of the games a history lists, beside it.
JOURNALS = "game-*.journal"


class HistoryError(CodedError):
    """A history that cannot be used: a ``history.*`` code whose parameters name its ``path`` and why."""


class History:
    """The games database at ``path`` (``:memory:`` for one that lives as long as the object).
    Safe to use from several threads. Raises :class:`HistoryError` for one that is damaged, of
    a newer azulcam, or empty beside the journals of games it should list."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        file = None if self.path == ":memory:" else Path(self.path)
        existed = file is not None and file.exists()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise HistoryError("history.unreadable", path=self.path, reason=str(exc)) from None
        if version > VERSION:
            raise HistoryError("history.newer", path=self.path, version=version, most=VERSION)
        if existed and "games" not in tables and file is not None:
            journals = sorted(file.parent.glob(JOURNALS))
            if journals:
                raise HistoryError("history.lost", path=self.path, journals=len(journals), first=journals[0].name)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._upgrade(version, tables)
        except sqlite3.DatabaseError as exc:
            raise HistoryError("history.unusable", path=self.path, reason=str(exc)) from None

    def _upgrade(self, version: int, tables: set[str]) -> None:
        """The schema made or brought up to :data:`VERSION`."""
        if "games" in tables and version < 1:  # before 1: no event count a game
            self._db.execute("ALTER TABLE games ADD COLUMN events INTEGER NOT NULL DEFAULT 0")
            for game, record in self._db.execute("SELECT id, record FROM games").fetchall():
                self._db.execute("UPDATE games SET events = ? WHERE id = ?", (len(Record.loads(record).events), game))
        self._db.executescript(SCHEMA)
        self._db.execute(f"PRAGMA user_version = {VERSION}")

    def start(self, record: Record, source: str) -> int:
        """A new game; its id."""
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO games (started, source, game, players, options, record, scores, events) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (time.time(), source, record.game, json.dumps(record.players), json.dumps(record.options),
                 record.dumps(), "[]", len(record.events)))
            return int(cur.lastrowid)  # type: ignore[arg-type]

    def add(self, game: int, event: dict[str, Any]) -> None:
        """One stream event of ``game``, kept where it is one :data:`KEPT`."""
        if event.get("kind") not in KEPT:
            return
        with self._lock:
            self._db.execute("INSERT INTO events (game, seq, kind, data) VALUES (?, (SELECT COALESCE(MAX(seq), -1) + 1 "
                             "FROM events WHERE game = ?), ?, ?)", (game, game, event["kind"], json.dumps(event)))

    def keep(self, game: int, record: Record, scores: list[int], over: bool) -> None:
        """The game's record and scores as they now stand."""
        with self._lock:
            self._db.execute("UPDATE games SET record = ?, scores = ?, over = ?, events = ? WHERE id = ?",
                             (record.dumps(), json.dumps(scores), int(over), len(record.events), game))

    def close(self, game: int) -> None:
        """The game is left (a new one begun): it is not taken up again, over or not."""
        with self._lock:
            self._db.execute("UPDATE games SET closed = 1 WHERE id = ?", (game,))

    def games(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Every game (the ``limit`` newest), newest first: id, when it started, its source,
        game, players, options, scores, whether it is over (by the rules), whether it was left
        for a new one (closed), and how many record events it has."""
        with self._lock:
            rows = self._db.execute("SELECT id, started, source, game, players, options, scores, over, closed, events "
                                    "FROM games ORDER BY id DESC LIMIT ?", (-1 if limit is None else limit,)).fetchall()
        return [{"id": r[0], "started": r[1], "source": r[2], "game": r[3], "players": json.loads(r[4]),
                 "options": json.loads(r[5]), "scores": json.loads(r[6]), "over": bool(r[7]), "closed": bool(r[8]),
                 "events": r[9]} for r in rows]

    def has(self, game: int) -> bool:
        """Whether the history holds game ``game``."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is not None

    def record(self, game: int) -> Record:
        """The game's ``azulcam-record/1``. Raises KeyError for an unknown game."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise KeyError(game)
        return Record.loads(row[0])

    def events(self, game: int) -> list[dict[str, Any]]:
        """The game's kept stream events, in order. Raises KeyError for an unknown game."""
        with self._lock:
            if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise KeyError(game)
            rows = self._db.execute("SELECT data FROM events WHERE game = ? ORDER BY seq", (game,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def shut(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
