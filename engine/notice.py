"""A message as a code with its parameters: what the rules find in a position, what the reader
could not see, why an input is refused.

A :class:`Notice` holds no words. Wherever it is shown (the command line, an observation's
``text``, the dashboard, the event stream) the catalogue words it in the reader's language
(:func:`azulcam.i18n.words.words`): the engine imports nothing of ours, so every English sentence
has one source. Indices in ``params`` count from 0 (players, lines, rows, stars), as the
observation's zone names do; a parameter may itself be a notice, worded in its place.

    >>> n = Notice("problem.floor_gap", player=1)
    >>> n.code, n.params, n
    ('problem.floor_gap', {'player': 1}, Notice('problem.floor_gap', player=1))
"""

from __future__ import annotations

from typing import Any


class Notice:
    """A message's ``code`` (a key of the catalogue) and its ``params``. Equal by both."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Notice):
            return NotImplemented
        return self.code == other.code and self.params == other.params

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        shown = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Notice({self.code!r}{shown})"

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params"}``, a parameter that is a notice as its own JSON object."""
        return {"code": self.code, "params": {k: plain(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Notice":
        """The notice of :meth:`to_json`'s object (nested notices come back as JSON objects)."""
        return cls(data["code"], **data.get("params", {}))


def plain(value: Any) -> Any:
    """A parameter as JSON holds it: a notice (or anything with ``code`` and ``params``, an
    error) as its object, lists and tuples as lists."""
    if isinstance(value, Notice):
        return value.to_json()
    if hasattr(value, "code") and hasattr(value, "params"):
        return {"code": value.code, "params": {k: plain(v) for k, v in value.params.items()}}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def chained(key: str, items: list[Any]) -> Any:
    """``items`` (messages or plain values, at least one) joined two by two by the catalogue's
    ``key``, a template of ``{head}`` and ``{last}``: ``chained("list.or", [a, b, c])`` words as
    ``a or b or c``. The one item itself where there is one."""
    head = items[0]
    for last in items[1:]:
        head = Notice(key, head=head, last=last)
    return head
