"""What following a game says to people: its alerts, refusals and re-synchronisations, each a code
with parameters (``{"code": ..., "params": {...}}`` in the event stream), worded by
:func:`~azulcam.i18n.words.words` in any of the catalogue's languages: the event stream's
``message`` and the dashboard's words of each event come from here."""

from __future__ import annotations

from typing import Any

from ..engine.notice import Notice
from . import LANGUAGES
from .places import Table
from .words import words


def notice_words(event: dict[str, Any], table: Table | None = None) -> dict[str, str]:
    """``{lang: text}`` of an event that carries a ``code`` and its ``params``."""
    return {lang: words(_notice(event), lang, table) for lang in LANGUAGES}


def with_message(event: dict[str, Any], table: Table | None = None) -> dict[str, Any]:
    """``event`` with its ``message`` in English, where it carries a ``code`` (the event stream's
    ``message``, for logs and people who read the stream)."""
    if "code" not in event:
        return event
    return {**event, "message": words(_notice(event), "en", table)}


def _notice(event: dict[str, Any]) -> Notice:
    """The message an event carries: its ``code`` and ``params``."""
    return Notice(event["code"], **event.get("params", {}))
