"""What following a game says to people: its alerts, refusals and re-synchronisations, each a code
with parameters (``{"code": ..., "params": {...}}`` in the event stream), worded here by the
catalogue in any of its languages: the command line, the event stream's ``message`` and the
dashboard all word them so."""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import LANGUAGES, Catalogue, messages
from .places import Table

#: How many disagreeing zones an alert names; the rest are counted.
ZONES_NAMED = 6


def tile_words(m: Catalogue, game: str | None, kind: str) -> str:
    """One tile in words: ``a blue tile``, ``the first-player marker`` (a kind the catalogue does
    not know, as it is)."""
    if kind == "first_player":
        return m.text(f"tile.first_player.{game or 'azul'}")
    return m.text(f"tile.{kind}") if f"tile.{kind}" in m else str(kind)


def _content(m: Catalogue, content: Any, game: str | None) -> str:
    """A zone's content in words (never empty): a slot's tile (``a blue tile``), a zone's loose
    tiles (``2 blue tiles, 1 red tile``)."""
    if isinstance(content, (list, tuple)):
        parts = [m.count(f"tiles.{name}", n) if f"tiles.{name}.one" in m else tile_words(m, game, name) if n == 1 else f"{n} × {tile_words(m, game, name)}"
                 for name, n in Counter(content).items()]
        if len(parts) == 1:
            return parts[0]
        return m.text("list.and", head=m.text("list.comma").join(parts[:-1]), last=parts[-1])
    return tile_words(m, game, content)


def _empty(content: Any) -> bool:
    return content is None or (isinstance(content, (list, tuple)) and not content)


def zone_disagreement(m: Catalogue, zone: dict[str, Any], table: Table | None = None) -> str:
    """One zone whose reading the game does not explain, in words: where (the player and the
    place, where ``table`` tells them; else the zone as the stream names it), what the camera
    sees and what the game has."""
    where = table.place(m, zone["zone"]) if table is not None else zone["zone"]
    game = table.game if table is not None else None
    read, expected = zone["read"], zone["expected"]
    if _empty(expected):
        return m.text("follow.zone_unexpected", zone=where, read=_content(m, read, game))
    if _empty(read):
        return m.text("follow.zone_missing", zone=where, expected=_content(m, expected, game))
    return m.text("follow.zone_read", zone=where, read=_content(m, read, game), expected=_content(m, expected, game))


def notice_text(m: Catalogue, code: str, params: dict[str, Any], table: Table | None = None) -> str:
    """The notice ``code`` with ``params`` in the words of ``m``; zones named as places of
    ``table`` where it is given. Raises KeyError for a code the catalogue does not have (a bug)."""
    if code == "follow.unexplained":
        zones = params.get("zones", [])
        details = [zone_disagreement(m, z, table) for z in zones[:ZONES_NAMED]]
        if len(zones) > ZONES_NAMED:
            details.append(m.text("follow.and_more", n=len(zones) - ZONES_NAMED))
        return m.text(code, details=m.text("list.sep").join(details))
    if code == "follow.refused":
        return m.text(code, reason=notice_text(m, params["reason"], params.get("params", {}), table))
    if code == "follow.nothing_explained":
        return m.text(code, frames=params["frames"], reads=params["reads"],
                      why=notice_text(m, params["code"], params.get("params", {}), table))
    if code == "follow.lost":
        return m.text(code, after=params["after"], frame=params["frame"],
                      why=notice_text(m, params["code"], params.get("params", {}), table))
    return m.text(code, **params)


def notice_words(event: dict[str, Any], table: Table | None = None) -> dict[str, str]:
    """``{lang: text}`` of an event that carries a ``code`` and its ``params``."""
    return {lang: notice_text(messages(lang), event["code"], event.get("params", {}), table) for lang in LANGUAGES}


def with_message(event: dict[str, Any], table: Table | None = None) -> dict[str, Any]:
    """``event`` with its ``message`` in English, where it carries a ``code`` (the event stream's
    ``message``, for logs and people who read the stream)."""
    if "code" not in event:
        return event
    return {**event, "message": notice_text(messages("en"), event["code"], event.get("params", {}), table)}
