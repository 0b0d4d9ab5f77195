"""Game records (``azulcam-record/1``): reading, writing, replaying and score reports.

A record is a complete, checkable game: every chance outcome and every move, each move
tagged with the player who made it. :class:`Game` is the one place where history is
recorded: every event goes through :meth:`Game.apply`, which checks it, plays it and
appends it to the record.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import CHANCE, TERMINAL, Outcome, is_int
from .errors import EngineError, RecordError, show
from .join import checked_position
from .games import find_game, read_options

RECORD_FORMAT = "azulcam-record/1"
SCORE_FORMAT = "azulcam-score/1"

_RECORD_KEYS = {"format", "game", "options", "players", "start_player", "events", "seed"}


@dataclass
class Record:
    """An ``azulcam-record/1`` game record. ``events`` hold the JSON events as written."""

    game: str
    players: int | list[str]
    options: dict[str, Any] = field(default_factory=dict)
    start_player: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    seed: int | None = None

    @property
    def player_count(self) -> int:
        return self.players if isinstance(self.players, int) else len(self.players)

    def new_state(self) -> Any:
        """The position before the first event. Raises :class:`RecordError` for a bad setup."""
        try:
            return find_game(self.game).new(self.player_count, self.options, self.start_player)
        except RecordError:
            raise
        except EngineError as exc:
            raise RecordError.of(exc) from None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "start_player": self.start_player,
        }
        if self.seed is not None:
            out["seed"] = self.seed
        out["events"] = self.events
        return out

    def dumps(self) -> str:
        """The record as JSON text: one event per line, so that records diff well."""
        head = self.to_json()
        events = head.pop("events")
        body = json.dumps(head, ensure_ascii=False)[:-1]
        lines = ",\n  ".join(json.dumps(e, ensure_ascii=False) for e in events)
        return f'{body}, "events": [\n  {lines}\n]}}\n' if events else f'{body}, "events": []}}\n'

    @classmethod
    def from_json(cls, data: Any) -> "Record":
        """Check the record's shape (not yet its moves: see :func:`replay`)."""
        if not isinstance(data, dict):
            raise RecordError("record.not_object")
        if data.get("format") != RECORD_FORMAT:  # the format first: a profile is not a record with odd keys
            raise RecordError("record.not_a_record", format=RECORD_FORMAT, value=show(data.get("format")))
        unknown = sorted(set(data) - _RECORD_KEYS)
        if unknown:
            raise RecordError("record.unknown_key", name=unknown[0])
        game = data.get("game")
        find_game(game)  # a RecordError naming the games there are, for another name
        players = data.get("players")
        if isinstance(players, list):
            bad = [n for n in players if not isinstance(n, str)]
            if bad:
                raise RecordError("record.player_not_name", value=show(bad[0]))
            # JSON decodes a surrogate pair to one character: a surrogate left in a name is a lone one.
            broken = [k for k, n in enumerate(players) if any(0xD800 <= ord(c) <= 0xDFFF for c in n)]
            if broken:
                raise RecordError("record.player_name_surrogate", player=broken[0])
        elif not is_int(players):
            raise RecordError("record.bad_players", value=show(players))
        options = data.get("options", {})
        read_options(game, options)  # checked here; kept as written
        start = data.get("start_player", 0)
        if not is_int(start):
            raise RecordError("record.bad_start_player", value=show(start))
        events = data.get("events")
        if not isinstance(events, list):
            raise RecordError("record.events_not_list", value=show(events))
        seed = data.get("seed")
        if seed is not None and not is_int(seed):
            raise RecordError("record.bad_seed", value=show(seed))
        return cls(game, players, options, start, events, seed)

    @classmethod
    def loads(cls, text: str) -> "Record":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError("record.json_at", line=exc.lineno, column=exc.colno, reason=exc.msg) from None
        except RecursionError:
            raise RecordError("record.json_too_deep") from None
        except ValueError as exc:  # a number too long to read
            raise RecordError("record.json", reason=str(exc)) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        """Read a record file. Raises :class:`RecordError` (and OSError for an unreadable file)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise RecordError("record.not_utf8", path=str(path)) from None
        return cls.loads(text)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")


@dataclass
class Step:
    """One replayed event: its index, the event as written, what it did and the state after it."""

    index: int
    event: dict[str, Any]
    outcome: Outcome
    state: Any


def _parse_event(record: Record, event: Any, index: int) -> tuple[str, Any, int | None]:
    """``("move", move, player)``, ``(chance_kind, chance, None)`` or ``("position", state, None)``."""
    if not isinstance(event, dict):
        raise RecordError("record.event_not_object", index)
    game = record.game
    spec = find_game(game)
    chance_readers = spec.chance_from_json
    try:
        if "position" in event:
            # "resynchronised": the camera lost the game and took it up again from the table.
            unknown = sorted(str(k) for k in event if k not in ("position", "resynchronised"))
            if unknown:
                raise RecordError("record.position_event_key", index, name=unknown[0])
            if event.get("resynchronised", True) is not True:
                raise RecordError("record.bad_resynchronised", index)
            return "position", checked_position(event["position"], game, record.options, record.player_count), None
        if "move" in event or "player" in event:
            unknown = sorted(set(event) - {"player", "move"})
            if unknown:
                raise RecordError("record.move_event_key", index, name=unknown[0])
            if "move" not in event or "player" not in event:
                raise RecordError("record.move_event_incomplete", index)
            return "move", spec.move_from_json(event["move"]), event["player"]
        if len(event) == 1:
            (kind, value), = event.items()
            if kind in chance_readers:
                return kind, chance_readers[kind](value), None
        raise RecordError("record.unknown_event", index, value=show(sorted(map(str, event))), chances=", ".join(chance_readers))
    except RecordError:
        raise
    except EngineError as exc:  # a move or chance event that cannot be read, or a position that cannot be
        raise RecordError.of(exc, index) from None


def replay(record: Record) -> Iterator[Step]:
    """Play a record's events one by one, checking each, and yield every step.

    Raises :class:`RecordError` naming the event index and the reason at the first event
    that is malformed, made by the wrong player, illegal or impossible. When the record
    carries a ``seed`` and no chance event where chance acts, the deal is drawn from it.
    """
    state = record.new_state()
    rng = random.Random(record.seed) if record.seed is not None else None
    index = 0
    events = record.events
    while index < len(events) or (rng is not None and state.current_player == CHANCE):
        to_move = state.current_player
        if index < len(events):
            event = events[index]
            kind, value, player = _parse_event(record, event, index)
        else:
            kind, value, player = "drawn", None, None
        if kind == "position":  # the game taken up from a position seen: whatever was due
            state = value
            yield Step(index, event, Outcome(), state)
            index += 1
            continue
        try:
            if to_move == TERMINAL:
                raise RecordError("record.game_over", index)
            if to_move == CHANCE:
                if kind in ("move", "drawn"):  # no chance event written here: draw it from the seed
                    if rng is None:
                        raise RecordError("record.chance_due", index, player=show(player))
                    chance = state.sample_chance(rng)
                    outcome = state.apply_chance(chance)
                    yield Step(index, chance.to_json(), outcome, state)
                    continue  # a written move is read again against the dealt state
                outcome = state.apply_chance(value)
            else:
                if kind != "move":
                    raise RecordError("record.player_not_chance", index, player=to_move, kind=kind)
                if not is_int(player):  # JSON's true is not player 1
                    raise RecordError("record.player_not_number", index, player=show(player), to_move=to_move)
                if player != to_move:
                    raise RecordError("record.wrong_player", index, player=show(player), to_move=to_move)
                outcome = state.play(value)
        except RecordError:
            raise
        except EngineError as exc:
            raise RecordError.of(exc, index) from None
        yield Step(index, event, outcome, state)
        index += 1


def final_state(record: Record) -> Any:
    """The state after every event of the record (checked)."""
    state = record.new_state()
    for step in replay(record):
        state = step.state
    return state


def score_report(record: Record) -> dict[str, Any]:
    """The ``azulcam-score/1`` report of a record: scores after each round, final scores with
    end bonuses, winners and the per-player breakdown. Raises :class:`RecordError`."""
    state = record.new_state()
    rounds = []
    number = 1
    for step in replay(record):
        state = step.state
        if "position" in step.event:  # a game taken up mid-way: its rounds go on from there
            number = state.round
        if step.outcome.round_over:
            bonus = [sum(part[k] for k in state.END_BONUS_KEYS)
                     for part in state.breakdown()] if step.outcome.game_over else [0] * state.players
            rounds.append({"round": number, "scores": [s - b for s, b in zip(state.scores(), bonus)]})
            number += 1
    return {
        "format": SCORE_FORMAT,
        "game": record.game,
        "rounds": rounds,
        "final": state.scores(),
        "winners": state.winners() if state.is_over() else [],
        "breakdown": state.breakdown(),
        "over": state.is_over(),
    }


class Game:
    """A game in progress together with its record: the one place where history is kept.

    Every event goes through :meth:`apply`, and :meth:`pop` takes the last one back. Beside
    the record the game keeps, for each recorded event, a copy of the state before it (as
    python-chess keeps a ``_BoardState`` per move), so that undoing is a list pop rather than
    a replay of the whole game.
    """

    def __init__(self, record: Record) -> None:
        """Replay ``record`` (checked: raises :class:`RecordError` at its first bad event) and
        keep the state before each of its events, so that :meth:`pop` can take every one back."""
        self.record = record
        self._replay()

    def _replay(self) -> None:
        """Set ``state`` from the record's events, and ``_before`` to the state before each."""
        events = self.record.events
        before: list[Any] = []
        state = self.record.new_state()
        for step in replay(self.record):
            # A deal drawn from the record's seed (a seeded record may leave its chance events
            # out) is no event of the record: it is taken back with the written event after it,
            # which is what a replay of the shorter record draws again. Drawn steps carry a
            # fresh event, never the record's own.
            if step.index < len(events) and step.event is events[step.index]:
                before.append(state)
            # replay plays on the state it yields: a copy keeps this one as it is now.
            state = step.state.copy()
        self.state = state
        self._before = before

    @classmethod
    def new(cls, game: str, players: int | list[str], options: dict[str, Any] | None = None, start_player: int = 0) -> "Game":
        find_game(game)  # a RecordError naming the games there are, for another name
        return cls(Record(game, players, dict(options or {}), start_player, []))

    def apply(self, event: Any) -> Outcome:
        """Check and play a move (a move, its JSON or text, or a record's move event with its
        player) or chance event, and append it to the record; a position event (``{"position":
        STATE}``) takes the game up from that position. Raises :class:`EngineError` (a
        ValueError: :class:`RecordError` for an event out of turn or a bad position, an
        illegal or unreadable move or deal otherwise), the game left as it was. :meth:`pop`
        takes the event back."""
        to_move = self.state.current_player
        if isinstance(event, dict) and "position" in event:
            kind, state, _ = _parse_event(self.record, event, len(self.record.events))
            # A copy, though the state is replaced rather than played on: whoever still holds
            # the old one may play on it, and pop must give back the position as it was.
            self._before.append(self.state.copy())
            self.state = state
            self.record.events.append({"position": state.to_json(), **({"resynchronised": True} if event.get("resynchronised") else {})})
            return Outcome()
        # The engine plays on the state in place: pop needs it as it was. Taken before the
        # checks, kept only once the event is recorded, so a refused event leaves no trace.
        before = self.state.copy()
        if to_move == CHANCE:
            outcome = self.state.apply_chance(event)  # a dict is checked there: one chance event, no other key
            if hasattr(event, "to_json"):
                event = event.to_json()
            elif self.record.game == "azul" and "deal" not in event:
                event = {"deal": event}  # Azul takes a deal's body alone too; the record writes the event
            self.record.events.append(dict(event))
        else:
            if isinstance(event, dict) and "move" in event:  # a record's move event: its player checked
                if event.get("player") != to_move:
                    raise RecordError("record.wrong_player", player=show(event.get("player")), to_move=to_move)
                event = event["move"]
            move = self.state._read_move(event)  # a move, its JSON or its text, read once for both uses
            outcome = self.state.play(move)
            self.record.events.append({"player": to_move, "move": move.to_json()})
        self._before.append(before)
        return outcome

    def pop(self) -> dict[str, Any]:
        """Take the last event back, as python-chess's ``Board.pop()`` does: remove it from the
        record and restore the state from before it (a new object: one held from before the
        call is not changed back). Returns the removed event, as the record wrote it; applying
        it again gives the same state. Raises :class:`EngineError` (a ValueError) when the record
        has no event."""
        events = self.record.events
        if not events:
            raise EngineError("follow.nothing_to_undo")
        if len(self._before) != len(events):
            # The record's events were changed other than by apply or pop: the snapshots no
            # longer match them, so they are rebuilt once from the record, as written now.
            self._replay()
        self.state = self._before.pop()
        return events.pop()


def play_game(game: str, players: list[Any], options: dict[str, Any], seed: int, start_player: int = 0,
              names: list[str] | None = None) -> Game:
    """Play a whole game between built-in players, chance drawn from ``seed``."""
    match = Game.new(game, names or len(players), options, start_player)
    rng = random.Random(seed)
    state = match.state
    while not state.is_over():
        if state.current_player == CHANCE:
            match.apply(state.sample_chance(rng))
        else:
            match.apply(players[state.current_player].choose(state))
    return match
