"""A message about a position or a reading as a code with its parameters, that reads as its
English wording: what the engine's rules check finds and what the reader could not see.

A :class:`Notice` is a ``str`` (its English sentence: printed, joined, compared as before), and
carries ``code`` and ``params`` for an interface to word it in its own language (``azulcam/i18n``
has a template per code). Indices in ``params`` count from 0 (players, lines, rows, stars), as the
observation's zone names do.

    >>> n = Notice("problem.floor_gap", "board 1: the floor line is not filled from the left", player=1)
    >>> str(n), n.code, n.params
    ('board 1: the floor line is not filled from the left', 'problem.floor_gap', {'player': 1})
"""

from __future__ import annotations

from typing import Any


class Notice(str):
    """An English sentence that also carries its ``code`` and ``params``."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, text: str, **params: Any) -> "Notice":
        notice = super().__new__(cls, text)
        notice.code, notice.params = code, params
        return notice

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (a worker process's answer) with its code
        return (_rebuilt, (self.code, str(self), self.params))

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params", "text"}``, as ``azulcam-observation/1`` allows a warning or problem to be."""
        return {"code": self.code, "params": dict(self.params), "text": str(self)}


def _rebuilt(code: str, text: str, params: dict[str, Any]) -> Notice:
    return Notice(code, text, **params)


def as_json(items: list[Any]) -> list[Any]:
    """Notices as their JSON objects; anything else (a plain sentence) as it is."""
    return [i.to_json() if isinstance(i, Notice) else i for i in items]
