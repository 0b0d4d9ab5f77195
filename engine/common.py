"""What every game of the engine shares: turn markers, outcomes and the legal-move sequence."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

#: ``current_player`` when chance acts next (a deal, a supply refill), as in OpenSpiel.
CHANCE = -1
#: ``current_player`` once the game is over.
TERMINAL = -2
#: The most points a state read from a file may hold, and the most rounds of an Azul game (far
#: past any game played: bounds that turn a stranger's 10**20 into a refusal, not arithmetic).
MOST_POINTS, MOST_ROUNDS = 1000, 100

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Scored:
    """Points a player won (positive) or lost (negative), and why.

    ``reason`` is one of the breakdown keys (``placement``, ``penalties``, ``rows``, ...);
    ``where`` names the slot or structure when there is one (``wall.2.4``).
    """

    player: int
    points: int
    reason: str
    where: str | None = None
    detail: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "points": self.points, "reason": self.reason}
        if self.where is not None:
            out["where"] = self.where
        if self.detail is not None:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True, slots=True)
class Moved:
    """Tiles that moved from one place to another (``tiles`` maps tile name to count)."""

    tiles: tuple[tuple[str, int], ...]
    source: str
    target: str

    def to_json(self) -> dict[str, Any]:
        return {"tiles": dict(self.tiles), "from": self.source, "to": self.target}


@dataclass(slots=True)
class Outcome:
    """What one move or chance event did: tiles moved, points scored, phase changes."""

    events: list[Any] = field(default_factory=list)
    round_over: bool = False
    game_over: bool = False

    def points(self, player: int) -> int:
        """Net points ``player`` gained or lost through this move."""
        return sum(e.points for e in self.events if isinstance(e, Scored) and e.player == player)

    @property
    def scored(self) -> list[Scored]:
        return [e for e in self.events if isinstance(e, Scored)]

    def to_json(self) -> dict[str, Any]:
        return {
            "events": [e.to_json() for e in self.events],
            "round_over": self.round_over,
            "game_over": self.game_over,
        }


def moved(tiles: dict[str, int], source: str, target: str) -> Moved:
    return Moved(tuple((k, v) for k, v in tiles.items() if v), source, target)


class LegalMoves(Sequence[M], Generic[M]):
    """The legal moves of a position, in a fixed order, each exactly once.

    The moves are made only when asked for: ``len()`` is cheap, and ``moves[i]``
    builds just the i-th move, so that uniform random play and search do not pay
    for moves they never look at (python-chess's ``LegalMoveGenerator`` is lazy too).
    Groups are ``(count, build, arg)`` triples where ``build(arg, k)`` makes the k-th
    move of the group.
    """

    __slots__ = ("_groups", "_len")

    def __init__(self, groups: list[tuple[int, Callable[[Any, int], M], Any]], length: int) -> None:
        self._groups = groups
        self._len = length

    @classmethod
    def of(cls, moves: list[M]) -> "LegalMoves[M]":
        return cls([(len(moves), _nth, moves)], len(moves)) if moves else cls([], 0)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> M:  # type: ignore[override]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal move index out of range")
        for count, build, arg in self._groups:
            if index < count:
                return build(arg, index)
            index -= count
        raise IndexError("legal move index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[M]:
        for count, build, arg in self._groups:
            for k in range(count):
                yield build(arg, k)

    def __contains__(self, move: object) -> bool:
        return any(m == move for m in self)

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in list(self)[:6])
        more = ", ..." if self._len > 6 else ""
        return f"<LegalMoves ({self._len}): {shown}{more}>"


def _nth(moves: list[M], k: int) -> M:
    return moves[k]


def is_int(value: Any) -> bool:
    """An integer that is not a bool (JSON's ``true`` must not pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_keys(data: dict[str, Any], allowed: Any, required: Any, what: str = "move") -> None:
    """Refuse unknown keys and missing required keys of a JSON object, naming them."""
    from .errors import InvalidMoveError

    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise InvalidMoveError(f"unknown key {unknown[0]!r} in {what} {data!r}")
    for key in required:
        if key not in data:
            raise InvalidMoveError(f"{what} {data!r} lacks {key!r}")


def pour(bag: list[int], spare: list[int]) -> None:
    """Pour ``spare`` (the lid or the tower) into ``bag``, kind by kind."""
    for t in range(len(bag)):
        bag[t] += spare[t]
        spare[t] = 0


def check_draw(counts: list[int], names: tuple[str, ...], bag: list[int], spare: list[int], wanted: int,
               what: str, verb: str, spare_name: str, note: str = "") -> bool:
    """Check that ``counts`` (tiles per kind) could be drawn from ``bag``, pouring ``spare`` (the
    lid or the tower) into it when it runs out, when ``wanted`` tiles are to be drawn.

    Returns whether the spare tiles were poured in. Raises :class:`ImpossibleDealError` naming
    the count or the kind at fault.
    """
    from .errors import ImpossibleDealError

    in_bag, in_spare = sum(bag), sum(spare)
    expected = min(wanted, in_bag + in_spare)
    total = sum(counts)
    if total != expected:
        raise ImpossibleDealError(
            f"the {what} has {total} tiles but {expected} must be {verb} (bag {in_bag}, {spare_name} {in_spare}{note})")
    pour = total > in_bag
    for t, name in enumerate(names):
        if not pour:
            if counts[t] > bag[t]:
                raise ImpossibleDealError(f"the {what} has {counts[t]} {name} but the bag holds {bag[t]}")
        elif counts[t] < bag[t]:
            raise ImpossibleDealError(f"the bag ran out, so all {bag[t]} {name} of the bag must be {verb}, not {counts[t]}")
        elif counts[t] > bag[t] + spare[t]:
            raise ImpossibleDealError(f"the {what} has {counts[t]} {name} but bag and {spare_name} hold {bag[t] + spare[t]}")
    return pour


class GameState:
    """What the states of both games share: the checked ``play``, the greedy move, equality by
    value and the game's spec. A subclass provides the hooks declared here."""

    __slots__ = ()

    #: The game's name (a class attribute of each state class); :attr:`spec` is its spec.
    game: str
    #: The player to move, the move log while ``play`` runs (``None`` otherwise).
    _to_move: int
    _log: list[Any] | None

    @property
    def current_player(self) -> int:  # pragma: no cover - each game defines it
        raise NotImplementedError

    @property
    def phase(self) -> str:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def legal_moves(self) -> LegalMoves[Any]:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def immediate_points(self, move: Any) -> int:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def play_unchecked(self, move: Any) -> None:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def _read_move(self, move: Any) -> Any:  # pragma: no cover - a move from a move, its JSON or its text
        raise NotImplementedError

    def _illegal_reason(self, move: Any) -> str | None:  # pragma: no cover - why a read move is illegal here
        raise NotImplementedError

    def _key(self) -> tuple[Any, ...]:  # pragma: no cover - the state as a hashable value
        raise NotImplementedError

    @property
    def spec(self) -> Any:
        """The :class:`~.games.GameSpec` of this state's game."""
        from .games import GAMES  # the specs name the state classes: imported when asked

        return GAMES[self.game]

    def play(self, move: Any) -> Outcome:
        """Play a legal move for the player to move and say what happened.

        Accepts a move, its JSON object or its text. Raises :class:`InvalidMoveError` for a move
        that cannot be read, :class:`IllegalMoveError` for one that breaks a rule, and
        :class:`AmbiguousMoveError` for one that could mean several moves.
        """
        from .errors import IllegalMoveError

        move = self._read_move(move)
        reason = self._illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move} for player {self._to_move}: {reason}")
        outcome = Outcome()
        self._log = outcome.events
        try:
            self.play_unchecked(move)
        finally:
            self._log = None
        outcome.game_over = self.current_player == TERMINAL
        outcome.round_over = outcome.game_over or self.phase == "deal"
        return outcome

    def greedy_move(self) -> Any:
        """The legal move with the most ``immediate_points``, the first in legal order on ties:
        the built-in greedy player's move and the assistant's playout policy. The engines
        override it with a way that does not build every move where the phase allows."""
        best = best_key = None
        for move in self.legal_moves():
            key = self.immediate_points(move)
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, GameState)
        return self._key() == other._key()

    # A state changes as it is played: it is no dict key. Its key() is, for sets of positions.
    __hash__ = None  # type: ignore[assignment]

    def key(self) -> tuple[Any, ...]:
        """A hashable value, equal for equal states (as they are now)."""
        return self._key()


def pile_to_json(counts: list[int] | dict[int, int], names: tuple[str, ...]) -> dict[str, int]:
    """Tile counts (a list by kind, or a ``{kind: count}`` pile) as ``{name: count}``, empty kinds left out."""
    items = sorted(counts.items()) if isinstance(counts, dict) else enumerate(counts)
    return {names[t]: n for t, n in items if n}


def whole(value: Any, where: str, low: int, high: int) -> int:
    """``value`` when it is an integer (not a bool, not ``12.0`` or ``"12"``) in ``low..high``;
    ValueError naming ``where`` (the field's path) otherwise: a state read from a file is a
    stranger's, never truncated or taken as it comes."""
    if not is_int(value) or not low <= value <= high:
        raise ValueError(f"{where} must be a whole number in {low}..{high}, not {value!r:.40}")
    return value


def pile_from_json(data: dict[str, int], index: dict[str, int], where: str = "pile") -> list[int]:
    """``{name: count}`` back to a list of 6 counts by kind (each a whole number 0..200); an
    unknown name raises KeyError."""
    out = [0] * 6
    for name, n in data.items():
        out[index[name]] = whole(n, f"{where}.{name}", 0, 200)
    return out
