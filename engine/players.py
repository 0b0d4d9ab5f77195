"""Built-in players: uniform random, and greedy (most immediate points net of floor penalties)."""

from __future__ import annotations

import random
from typing import Any, Protocol

from .errors import EngineError


class Player(Protocol):
    name: str

    def choose(self, state: Any) -> Any:
        """A legal move for ``state.current_player``."""


class RandomPlayer:
    """Plays uniformly at random over ``legal_moves()``; seeded, so games repeat."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> Any:
        moves = state.legal_moves()
        return moves[self.rng.randrange(len(moves))]


class GreedyPlayer:
    """Plays the move with the most immediate points (``state.immediate_points``: wall points of
    a line it completes, less the floor penalty it adds); ties go to the first in legal order."""

    name = "greedy"

    def choose(self, state: Any) -> Any:
        return state.greedy_move()


PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def make_player(kind: str, seed: int | None = None) -> Player:
    """A built-in player by name (``random`` or ``greedy``). Raises :class:`EngineError` (a
    ValueError) for another name."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer()
    raise EngineError("player.unknown", kind=kind, players=", ".join(PLAYERS))
