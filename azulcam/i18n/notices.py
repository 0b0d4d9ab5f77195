"""What following a game says to people: its alerts, refusals and re-synchronisations, each a code
with parameters (``{"code": ..., "params": {...}}`` in the event stream), worded here by the
catalogue in any of its languages: the command line, the event stream's ``message`` and the
dashboard all word them so."""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import LANGUAGES, Catalogue, messages

#: How many disagreeing zones an alert names; the rest are counted.
ZONES_NAMED = 6


def _content(m: Catalogue, content: Any) -> str:
    """A zone's content in words: a slot's kind (or empty), a zone's loose tiles (or none)."""
    if isinstance(content, (list, tuple)):
        counts = Counter(content)
        parts = [m.count(f"tiles.{name}", n) if f"tiles.{name}.one" in m else f"{n} {name}" for name, n in counts.items()]
        return m.text("list.sep").join(parts) if parts else m.text("none")
    if content is None:
        return m.text("dash.empty")
    return m.text(f"color.{content}") if f"color.{content}" in m else str(content)


def notice_text(m: Catalogue, code: str, params: dict[str, Any]) -> str:
    """The notice ``code`` with ``params`` in the words of ``m``. Raises KeyError for a code the
    catalogue does not have (a bug)."""
    if code == "follow.unexplained":
        zones = params.get("zones", [])
        details = [m.text("follow.zone_read", zone=z["zone"], read=_content(m, z["read"]), expected=_content(m, z["expected"]))
                   for z in zones[:ZONES_NAMED]]
        if len(zones) > ZONES_NAMED:
            details.append(m.text("follow.and_more", n=len(zones) - ZONES_NAMED))
        return m.text(code, details=m.text("list.sep").join(details))
    if code == "follow.refused":
        return m.text(code, reason=notice_text(m, params["reason"], params.get("params", {})))
    if code == "follow.nothing_explained":
        return m.text(code, frames=params["frames"], reads=params["reads"], why=notice_text(m, params["code"], params.get("params", {})))
    return m.text(code, **params)


def notice_words(event: dict[str, Any]) -> dict[str, str]:
    """``{lang: text}`` of an event that carries a ``code`` and its ``params``."""
    return {lang: notice_text(messages(lang), event["code"], event.get("params", {})) for lang in LANGUAGES}


def with_message(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` with its ``message`` in English, where it carries a ``code`` (the event stream's
    ``message``, for logs and people who read the stream)."""
    if "code" not in event:
        return event
    return {**event, "message": notice_text(messages("en"), event["code"], event.get("params", {}))}
