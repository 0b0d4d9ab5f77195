"""The game's journal: every committed event on disk before anyone hears of it.

One JSON object a line (``azulcam-journal/1``): first the game (``game``, ``players``, ``options``,
``start_player``), then entries in the order they happened: ``{"event": E, "frame": N}`` (a record
event, committed, and the frame it was seen in; ``"corrected": true`` where a person gave it), ``{"start_player": N}`` (the first move showed who began), ``{"displays": [[x, y],
...]}`` (where the displays were numbered), ``{"undo": true}`` (the last event taken back). Each
line is flushed and synced before :meth:`Journal.append` returns, so a process killed at any moment
loses no committed event; a line cut short by the kill is the last one and is ignored when read.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from ..engine.errors import CodedError, EngineError
from ..engine.record import Game
from ..formats import FormatError, checked
from ..formats.fields import Form, ImagePoint, Player, exactly_one, one_of_the_players, player_count, whole
from ..formats.record import GameHead, read_event, read_head

JOURNAL_FORMAT = "azulcam-journal/1"


class JournalHead(GameHead):
    """A journal's first line: the game it holds."""

    format: Literal["azulcam-journal/1"]


class JournalEntry(Form):
    """Every later line: exactly one of a record event (with the frame it was seen in), the
    player who began, where the displays were numbered, or the last event taken back."""

    event: dict | None = None
    frame: whole(0, 2**53) | None = None  # type: ignore[valid-type]
    corrected: Literal[True] | None = None  # the event a person gave (``replace``)
    start_player: Player | None = None  # type: ignore[valid-type]
    displays: Annotated[list[ImagePoint], Field(max_length=9)] | None = None
    undo: Literal[True] | None = None

    _start = field_validator("start_player")(one_of_the_players)

    @model_validator(mode="after")
    def _one_only(self) -> "JournalEntry":
        shown = "event (with frame, corrected), start_player, displays, undo"
        exactly_one(self, ("event", "start_player", "displays", "undo"), shown)
        if (self.frame is not None or self.corrected) and self.event is None:
            exactly_one(self, (), shown)  # (a frame without its event)
        return self


class JournalError(CodedError):
    """A journal that cannot be read back: a ``journal.*`` code whose parameters name the file
    (``path``) and the line; ``reason``, where there is one, the error found there."""


@dataclass
class Resumed:
    """What a journal holds: the game replayed and where the displays were numbered."""

    game: Game
    displays: list[tuple[float, float]] = field(default_factory=list)
    #: The frame the last event was seen in (-1: none): a video or folder goes on after it.
    frame: int = -1


class Journal:
    """An open journal, appended to line by line."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._file = self.path.open("a", encoding="utf-8")

    @classmethod
    def create(cls, path: str | Path, game: Game, displays: list[tuple[float, float]] | None = None,
               frame: int = -1) -> "Journal":
        """A journal holding ``game`` so far (its events, where the displays were numbered, the
        frame of its last event), written whole beside ``path`` and moved there: a new game's, or
        a resumed one's written afresh, less any line a kill cut short."""
        path = Path(path)
        record = game.record
        header = {"format": JOURNAL_FORMAT, "game": record.game, "players": record.players,
                  "options": record.options, "start_player": record.start_player}
        lines = [json.dumps(header)]
        if displays:
            lines.append(json.dumps({"displays": [[round(x, 1), round(y, 1)] for x, y in displays]}))
        for k, event in enumerate(record.events):
            last = k == len(record.events) - 1
            lines.append(json.dumps({"event": event, **({"frame": frame} if last and frame >= 0 else {})}))
        write_atomically(path, "\n".join(lines) + "\n")
        return cls(path)

    def append(self, entry: dict[str, Any]) -> None:
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def game_to_follow(journal_path: Path | None, game: str, players: int, options: dict[str, Any], new: bool
                   ) -> tuple[Resumed, bool]:
    """The game a watch follows: the one ``journal_path`` holds (resumed, True), or a new one of
    ``game`` (False) where there is no journal or ``new`` asks for one. Raises
    :class:`JournalError` for a journal that cannot be read or is of another game."""
    if journal_path is None or new or not journal_path.exists():
        return Resumed(Game.new(game, players, options)), False
    kept = read_journal(journal_path)
    if kept.game.record.game != game or kept.game.record.player_count != players:
        raise JournalError("journal.other_game", path=str(journal_path), kept_game=kept.game.record.game,
                           kept_players=kept.game.record.player_count, game=game, players=players)
    return kept, True


def write_atomically(path: Path, text: str) -> None:
    """``text`` to ``path`` through a file beside it, synced, then moved there: a reader sees the
    old file or the new one, whole, even after a kill."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:  # a full disk, a folder gone: the old file stays, no half-written one beside it
        tmp.unlink(missing_ok=True)
        raise


def read_journal(path: str | Path) -> Resumed:
    """The game a journal holds. Raises :class:`JournalError` naming the line that is not a
    journal's, or an event the rules refuse; a last line cut short is left out."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise JournalError("journal.unreadable", path=str(path), reason=getattr(exc, "strerror", None) or str(exc)) from None
    entries = []
    for n, line in enumerate(lines, start=1):
        try:
            entries.append(json.loads(line))
        except (ValueError, RecursionError) as exc:  # not JSON; a number too long to read; nested too deep
            if n == len(lines) and isinstance(exc, json.JSONDecodeError):  # cut short by a kill while it was written: never committed
                break
            raise JournalError("journal.not_json", path=str(path), line=n) from None
    if not entries or not isinstance(entries[0], dict) or entries[0].get("format") != JOURNAL_FORMAT:
        raise JournalError("journal.not_a_journal", path=str(path), format=JOURNAL_FORMAT)
    try:
        head = read_head(JournalHead, entries[0]).model_dump()
    except FormatError as exc:
        raise JournalError("journal.bad_line", path=str(path), line=1, reason=exc) from None
    context = {"game": head["game"], "players": player_count(head["players"])}
    events: list[dict[str, Any]] = []
    displays: list[tuple[float, float]] = []
    frame = -1
    for n, entry in enumerate(entries[1:], start=2):
        try:
            line = checked(JournalEntry, entry, (), context)
            if line.event is not None:
                read_event(line.event, context, ("event",))
        except FormatError as exc:
            raise JournalError("journal.bad_line", path=str(path), line=n, reason=exc) from None
        if line.event is not None:
            events.append(line.event)
            frame = line.frame if line.frame is not None else frame
        elif line.undo:
            if not events:
                raise JournalError("journal.nothing_to_undo", path=str(path), line=n)
            events.pop()
        elif line.start_player is not None:
            head["start_player"] = line.start_player
        else:
            displays = [(x, y) for x, y in line.displays]  # type: ignore[union-attr]
    try:
        game = Game.new(head["game"], head["players"], head["options"], head["start_player"])
    except (EngineError, ValueError) as exc:
        raise JournalError("journal.not_a_game", path=str(path), reason=exc) from None
    for event in events:
        try:
            game.apply(event)
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            raise JournalError("journal.no_replay", path=str(path), event=len(game.record.events), reason=exc) from None
    return Resumed(game, displays, frame)
