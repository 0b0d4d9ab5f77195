"""The engine's error kinds, all :class:`ValueError` (as python-chess does it).

Each error is a message code with its parameters (``code``, ``params``: what was wrong and where,
so that a user reading a record or a camera log can find the offending event), worded where it is
shown by the catalogue (:func:`azulcam.i18n.words.words`), in the user's language. ``str()`` of
an error is its code and parameters, for logs and tracebacks. Their base, :class:`CodedError`, is
every folder's: the formats' refusals and the reader's and calibration's errors are coded alike.
"""

from __future__ import annotations

from typing import Any

from .notice import Notice


class CodedError(ValueError):
    """An error about input as a message code with its parameters (``code``, ``params``), worded
    where it is shown: the base of the engine's errors, the formats' refusals and the reader's and
    calibration's errors alike. ``str()`` is the code and parameters, for logs and tracebacks."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def notice(self) -> Notice:
        """The error as a :class:`Notice`, to word or to carry inside another message."""
        return Notice(self.code, **self.params)

    def __str__(self) -> str:
        return self.code + (f" {self.params}" if self.params else "")

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (a worker process's answer) with its parameters
        return (_rebuilt, (type(self), self.code, self.params, getattr(self, "index", None)))


class EngineError(CodedError):
    """Base of every error the engine raises about its input: ``code`` and ``params``."""


class InvalidMoveError(EngineError):
    """A move (or chance event) that cannot be parsed: unknown key, colour or shape."""


class IllegalMoveError(EngineError):
    """A well-formed move that breaks a rule in the current position."""


class AmbiguousMoveError(EngineError):
    """A move description that matches several legal moves."""


class ImpossibleDealError(IllegalMoveError):
    """A supplied deal or refill that the bag and lid (or tower) could not have produced."""


class StateError(EngineError):
    """A state that cannot be: a setup its game is not played with (the player count, the
    boards' face, the start player), or an ``azulcam-state/1`` (a record's position) with a field
    missing, of the wrong kind or out of range."""


class RecordError(EngineError):
    """A game record that cannot be read or replayed.

    ``index`` is the event index (``None`` when the problem is outside the events); ``reason`` is
    the message without it.
    """

    def __init__(self, code: str, /, index: int | None = None, **params: Any) -> None:
        super().__init__(code, **params)
        self.index = index

    @classmethod
    def of(cls, error: Any, index: int | None = None) -> "RecordError":
        """A record error that says what ``error`` (an engine error, a format's refusal, any error
        with ``code`` and ``params``) says, at event ``index``."""
        return cls(error.code, index, **error.params)

    @property
    def reason(self) -> Notice:
        return self.notice

    def __str__(self) -> str:
        return (f"event {self.index}: " if self.index is not None else "") + super().__str__()


class ObservationError(EngineError):
    """An ``azulcam-observation/1`` (or the options it is checked with) of the wrong shape: the
    parameters name the first bad field (``field``: ``boards[1].slots``)."""


def _rebuilt(kind: type[CodedError], code: str, params: dict[str, Any], index: int | None) -> CodedError:
    return kind(code, index, **params) if issubclass(kind, RecordError) else kind(code, **params)


def show(value: Any, most: int = 60) -> str:
    """``repr(value)`` cut to ``most`` characters, for messages about input of any size."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer too long to print, or a value nested too deeply
        return f"a {type(value).__name__}"
    return text if len(text) <= most else text[:most - 3] + "..."
