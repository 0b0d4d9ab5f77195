"""Events and suggestions in words, in every language of the catalogue: the dashboard's move log and
suggestions, `azulcam suggest`.

Each text names its players by the record's names (else "Player N"), and comes also as ``parts``:
the same line cut where a player is named, each player a ``{"player": P}`` of its own, so that a
page that names the players otherwise (the overlay's ``?names=``) words the line with its names."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..engine.games import find_game
from ..engine.record import Record
from ..i18n import LANGUAGES, Catalogue, messages, places


#: Where a player is named in a line being cut into parts (never in a catalogue's words).
_SEAT = "\x00{}\x00"
_SEATS = re.compile("\x00(\\d+)\x00")


def described(event: dict[str, Any], record: Record) -> dict[str, str]:
    """``{lang: text}`` for a ``move``, ``chance``, ``position`` or ``undo`` stream event."""
    names = record.players if isinstance(record.players, list) else None
    return {lang: _text(messages(lang), event, record, lambda m, p: _named(m, p, names)) for lang in LANGUAGES}


def described_parts(event: dict[str, Any], record: Record) -> dict[str, list[str | dict[str, int]]]:
    """``{lang: parts}``: :func:`described`'s line cut where a player is named, each player a
    ``{"player": P}`` of its own."""
    out: dict[str, list[str | dict[str, int]]] = {}
    for lang in LANGUAGES:
        cut = _SEATS.split(_text(messages(lang), event, record, lambda m, p: _SEAT.format(p)))
        out[lang] = [{"player": int(piece)} if k % 2 else piece for k, piece in enumerate(cut) if piece or k % 2]
    return out


def worded(suggestion: dict[str, Any], record: Record) -> dict[str, Any]:
    """A suggestion (``Suggestion.to_json()``) with its move in words (``text``, and ``parts``),
    its ``reason`` (what the move does at once) and its ``outlook`` (what the search saw it bring
    this round, and leave the next player), each ``{lang: line}``."""
    event = {"kind": "move", "player": suggestion["player"], "move": suggestion["move"]}
    names = record.players if isinstance(record.players, list) else None
    return {**suggestion, "text": described(event, record), "parts": described_parts(event, record),
            "reason": {lang: _reason(messages(lang), suggestion["why"]) for lang in LANGUAGES},
            "outlook": {lang: _outlook(messages(lang), suggestion, record, names) for lang in LANGUAGES}}


def _named(m: Catalogue, p: int, names: list[str] | None) -> str:
    """A player as a line names them: by their name where the record has one, else ``Player N``."""
    return names[p] if names and 0 <= p < len(names) and names[p] else m.text("player", n=p + 1)


def _reason(m: Catalogue, why: dict[str, Any]) -> str:
    parts = []
    if why.get("completes"):
        parts.append(m.text("suggest.completes", n=why["completes"], points=why["placement"]))
    elif "placement" in why:
        parts.append(m.text("suggest.scores", points=why["placement"]))
    elif "line" in why:
        parts.append(m.text("suggest.fills", n=why["line"], k=why["on_line"]))
    if "tiles" in why:
        parts.append(m.count("suggest.takes", why["tiles"]))
    if why.get("points") or ("points" in why and not parts):
        parts.append(m.text("suggest.scores", points=why["points"]))
    if why.get("floor"):
        parts.append(m.text("suggest.floor", points=why["penalty"]))
    return m.text("list.sep").join(parts)


def _outlook(m: Catalogue, suggestion: dict[str, Any], record: Record, names: list[str] | None) -> str:
    # Rounded first and +0.0: a tenth rounded to nothing is said "+0.0", never "-0.0".
    points = suggestion["points"]
    parts = [m.text("suggest.round", gained=round(points["gained"], 1) + 0.0, lost=round(-points["lost"], 1) + 0.0)]
    leaves = suggestion.get("leaves")
    if leaves is not None and leaves["player"] != suggestion["player"]:
        named = lambda m, p: _named(m, p, names)  # noqa: E731
        parts.append(m.text("suggest.leaves", player=named(m, leaves["player"]), gained=round(leaves["gained"], 1) + 0.0))
        if leaves["answer"] is not None:
            answer = {"kind": "move", "player": leaves["player"], "move": leaves["answer"]}
            parts.append(m.text("suggest.answer", move=_text(m, answer, record, named)))
    return m.text("list.sep").join(parts)


def _tiles(m: Catalogue, names: list[str]) -> str:
    counts = Counter(n for n in names if n != "first_player")
    parts = [m.count(f"tiles.{name}", n) for name, n in counts.items()]
    if not parts:
        return m.text("none")
    return parts[0] if len(parts) == 1 else m.text("list.and", head=", ".join(parts[:-1]), last=parts[-1])


def _text(m: Catalogue, event: dict[str, Any], record: Record, name: Callable[[Catalogue, int], str]) -> str:
    kind = event["kind"]
    if kind == "undo":
        return m.text("event.undo", what=_text(m, as_stream(event["event"]), record, name))
    if kind == "position":
        return m.text("event.position", n=event["position"]["round"])
    if kind == "chance":
        return m.text("event.deal", n=_round_of(record)) if "deal" in event else m.text("event.refill")
    player = name(m, event["player"])
    move = event["move"]
    action = move["action"]
    spec = find_game(record.game)
    if action == "take":
        source = move["source"]
        where = m.text("event.source.center") if source == "center" else m.text("event.source.factory", n=source + 1)
        if not spec.holds_tiles:  # taken onto a pattern line or the floor
            line = m.text("event.floor") if move.get("line") == "floor" else m.text("event.line", n=move["line"] + 1)
            if move.get("color") is None:  # the jokers alone (the joker variant)
                said = m.text("event.take_jokers", player=player, source=where, line=line)
            else:
                key = "event.take_with_jokers" if move.get("jokers") else "event.take"
                said = m.text(key, player=player, color=m.text(f"adj.{move['color']}.other"), source=where, line=line)
            floored = move.get("floor_jokers") or 0
            return said + (m.count("event.floor_jokers", floored) if floored else "")
        return m.text("event.take_hand", player=player, color=m.text(f"adj.{move['color']}.other"), source=where)
    if action == "wall":
        if move["column"] == "floor":
            return m.text("event.wall_floor", player=player, row=move["row"] + 1)
        return m.text("event.wall", player=player, row=move["row"] + 1, column=move["column"] + 1)
    if action == "place":
        tile = m.text(f"tile.{move['color']}")
        space = places.slot_place(m, record.game, move["space"], record.options.get(spec.face) != "grey") or move["space"]
        if move.get("wild"):
            return m.text("event.place_wild", player=player, tile=tile, space=space, n=move["wild"])
        return m.text("event.place", player=player, tile=tile, space=space)
    if action == "bonus":
        return m.text("event.bonus", player=player, tiles=_tiles(m, move["colors"]))
    keep = move.get("keep") or []
    return m.text("event.pass_keep", player=player, tiles=_tiles(m, keep)) if keep else m.text("event.pass", player=player)


def as_stream(record_event: dict[str, Any]) -> dict[str, Any]:
    """A record event as the stream announces it (``kind`` added)."""
    if "move" in record_event:
        return {"kind": "move", **record_event}
    if "position" in record_event:
        return {"kind": "position", **record_event}
    return {"kind": "chance", **record_event}


def _round_of(record: Record) -> int:
    """The round a deal begins: the deals in the record up to this one."""
    deals = sum(1 for e in record.events if "deal" in e)
    return max(deals, 1)
