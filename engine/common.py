"""What every game of the engine shares: turn markers, outcomes and the legal-move sequence."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

#: ``current_player`` when chance acts next (a deal, a supply refill), as in OpenSpiel.
CHANCE = -1
#: ``current_player`` once the game is over.
TERMINAL = -2

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
