"""The engine's error kinds, all :class:`ValueError` (as python-chess does it).

Each message says what was wrong and where, so that a user reading a record or a
camera log can find the offending event.
"""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base of every error the engine raises about its input."""


class InvalidMoveError(EngineError):
    """A move (or chance event) that cannot be parsed: unknown key, colour or shape."""


class IllegalMoveError(EngineError):
    """A well-formed move that breaks a rule in the current position."""


class AmbiguousMoveError(EngineError):
    """A move description that matches several legal moves."""


class ImpossibleDealError(IllegalMoveError):
    """A supplied deal or refill that the bag and lid (or tower) could not have produced."""


class RecordError(EngineError):
    """A game record that cannot be read or replayed.

    ``index`` is the event index (``None`` when the problem is outside the events).
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        self.reason = message
        where = f"event {index}: " if index is not None else ""
        super().__init__(f"{where}{message}")


class ObservationError(EngineError):
    """An ``azulcam-observation/1`` (or the options it is checked with) of the wrong shape:
    the message names the first bad field, e.g. ``boards[1].slots: unknown slot 'wall.7.0'``."""


def show(value: Any, most: int = 60) -> str:
    """``repr(value)`` cut to ``most`` characters, for messages about input of any size."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer too long to print, or a value nested too deeply
        return f"a {type(value).__name__}"
    return text if len(text) <= most else text[:most - 3] + "..."
