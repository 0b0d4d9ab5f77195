"""Messages in words: a code with its parameters (a :class:`~azulcam.engine.notice.Notice`, an
engine error, a format's refusal, a command's refusal) worded by the catalogue in one language.
This is the one place a message becomes a sentence; the command line, the observations' ``text``,
the dashboard and the event stream all word their messages here, the follower's alerts and
refusals among them (:func:`follow_values`).

    >>> from azulcam.engine.notice import Notice
    >>> words(Notice("problem.floor_gap", player=1), "en")
    'board 1: the floor line is not filled from the left'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..engine.games import ALL_TILES
from ..engine.notice import plain
from . import Catalogue, messages
from .places import Table, player_name, star_name


def is_message(value: Any) -> bool:
    """Whether ``value`` is a message to word: it has a ``code`` and ``params``."""
    return isinstance(getattr(value, "code", None), str) and isinstance(getattr(value, "params", None), dict)


def words(message: Any, lang: str | Catalogue = "en", table: Table | None = None) -> str:
    """``message`` (anything with ``code`` and ``params``; a record's error with its ``index``)
    as a sentence of ``lang``'s catalogue, its places named as ``table``'s where it is given (the
    game, the side, the players' names). A parameter that is itself a message, or a list of them,
    is worded in its place; the rules' problems and the reader's warnings have their parameters
    phrased (:func:`problem_values`, :func:`warning_values`). Raises KeyError for a code the
    catalogue does not have, ValueError for a problem that names no known tile."""
    m = messages(lang) if isinstance(lang, str) else lang
    code, params = message.code, dict(message.params)
    phrase = _PHRASES.get(code.partition(".")[0])
    text = phrase(m, code, params, table) if phrase is not None else m.text(
        code, **{name: _worded(value, m, table) for name, value in params.items()})
    index = getattr(message, "index", None)
    return text if index is None else m.text("error.at_event", index=index, reason=text)


def _worded(value: Any, m: Catalogue, table: Table | None) -> Any:
    if is_message(value):
        return words(value, m, table)
    if _is_message_json(value):
        return words(_Coded(value["code"], dict(value.get("params", {}))), m, table)
    if isinstance(value, (list, tuple)) and value and all(is_message(v) or _is_message_json(v) for v in value):
        return m.text("list.sep").join(_worded(v, m, table) for v in value)
    return value


def _is_message_json(value: Any) -> bool:
    """Whether ``value`` is a message as JSON holds it (``{"code", "params"}``: a stream event's
    or a refusal's nested reason)."""
    return isinstance(value, dict) and isinstance(value.get("code"), str) and isinstance(value.get("params", {}), dict)


class _Coded:
    """A message read back from its JSON object."""

    def __init__(self, code: str, params: dict[str, Any]) -> None:
        self.code, self.params = code, params


def join(m: Catalogue, items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``et`` in French)."""
    if len(items) <= 1:
        return "".join(items)
    return m.text("list.and", head=", ".join(items[:-1]), last=items[-1])


# The rules check (engine/position.py) and the reader (vision/analyze.py) give each problem and
# warning as a code with parameters counted from 0 as the observation counts (players, lines,
# rows, stars) and tiles by name: here they become the words a person reads.

#: Every tile name of every game but the first-player marker.
_TILES = frozenset(ALL_TILES) - {"first_player"}


def problem_values(m: Catalogue, code: str, params: dict[str, Any], table: Table | None) -> str:
    """One of the rules check's problems in words: the board's player first where it names one.
    Raises ValueError for a tile name no game has."""
    tiles = [t for t in params.get("tiles", []) if t in _TILES]
    tile = "joker" if code in ("problem.no_jokers", "problem.too_many_jokers") else params.get("tile")
    if tile is not None and tile not in _TILES or len(tiles) != len(params.get("tiles", [])):
        raise ValueError(f"{code}: no such tile")
    n = int(params.get("n", 2))  # the "twice" problems count two
    v: dict[str, Any] = {"n": n}
    game = params.get("game", table.game if table is not None else None)
    if game is not None:  # the first-player marker: each game names its own
        v["marker"] = m.text(f"marker.{game}")
    for name in ("line", "row", "column"):
        if name in params:
            v[name] = int(params[name]) + 1
    for name in ("space", "limit"):
        if name in params:
            v[name] = params[name]
    if "star" in params:
        v["star"] = star_name(m, int(params["star"]), table.colored if table is not None else None)
    if tiles:
        v["tiles"] = join(m, [m.count(f"adj.{t}", 2) for t in tiles])
    if tile is not None:
        v.update(a_tile=m.text(f"tile.{tile}"), tiles_n=m.count(f"tiles.{tile}", n), tiles=m.count(f"adj.{tile}", 2))
    if params.get("printed") in _TILES:
        v["printed"] = m.count(f"adj.{params['printed']}", 1)
    said = m.text(code, **v)
    if params.get("player") is not None:
        names = table.names if table is not None else None
        return m.text("problem.on_board", player=player_name(m, int(params["player"]), names), problem=said)
    return said


def warning_values(m: Catalogue, code: str, params: dict[str, Any], table: Table | None) -> str:
    """One of the reader's warnings in words."""
    v = {k: params[k] for k in ("x", "y", "pw", "ph", "w", "h", "layout", "seen", "players") if k in params}
    if "player" in params:
        player = params["player"]
        v["board"] = m.text("warning.scoring_board") if player is None else m.text("warning.board_of", n=int(player) + 1)
    if "parts" in params:
        v["parts"] = join(m, [m.text(f"part.{p.replace(' ', '_')}") if f"part.{p.replace(' ', '_')}" in m else p
                              for p in params["parts"]])
    if "reason" in params:
        reason = params["reason"]
        v["reason"] = (_worded(reason, m, table) if not isinstance(reason, str)
                       else m.text(reason) if reason in m else reason)
    return m.text(code, **v)


# Following a game (follow/): an alert names the zones that disagree, as places of the table,
# with what the camera sees there and what the game has; a refusal, a game lost and a watch that
# explained nothing carry another message's code and params as their reason.

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


def _same(read: Any, expected: Any) -> bool:
    if _empty(read) or _empty(expected):
        return _empty(read) and _empty(expected)
    if isinstance(read, (list, tuple)) and isinstance(expected, (list, tuple)):
        return Counter(read) == Counter(expected)
    return read == expected


def zone_disagreement(m: Catalogue, zone: dict[str, Any], table: Table | None = None) -> str:
    """One zone whose reading the game does not explain, in words: where (the player and the
    place, where ``table`` tells them; else the zone as the stream names it), what the camera
    sees and what the game has."""
    where = table.place(m, zone["zone"]) if table is not None else zone["zone"]
    game = table.game if table is not None else None
    read, expected = zone["read"], zone["expected"]
    if _same(read, expected):  # the reading agrees with the game; the space's change from bare does not
        if _empty(expected):
            return m.text("follow.zone_changed_empty", zone=where)
        return m.text("follow.zone_changed", zone=where, expected=_content(m, expected, game))
    if _empty(expected):
        return m.text("follow.zone_unexpected", zone=where, read=_content(m, read, game))
    if _empty(read):
        return m.text("follow.zone_missing", zone=where, expected=_content(m, expected, game))
    return m.text("follow.zone_read", zone=where, read=_content(m, read, game), expected=_content(m, expected, game))


def follow_values(m: Catalogue, code: str, params: dict[str, Any], table: Table | None) -> str:
    """One of the follower's notices (``follow.*``) in words: an alert's zones (at most
    :data:`ZONES_NAMED`, the rest counted), and the reason a refusal (``reason`` and its
    ``params``), a game lost or a watch that explained nothing (``code`` and its ``params``)
    carry, worded in its place; the rest as any message."""
    if code == "follow.unexplained":
        zones = params.get("zones", [])
        details = [zone_disagreement(m, z, table) for z in zones[:ZONES_NAMED]]
        if len(zones) > ZONES_NAMED:
            details.append(m.text("follow.and_more", n=len(zones) - ZONES_NAMED))
        return m.text(code, details=m.text("list.sep").join(details))
    if code == "follow.refused":
        return m.text(code, reason=words(_Coded(params["reason"], params.get("params", {})), m, table))
    if code in ("follow.nothing_explained", "follow.lost"):
        why = words(_Coded(params["code"], params.get("params", {})), m, table)
        return m.text(code, why=why, **{k: v for k, v in params.items() if k not in ("code", "params")})
    return m.text(code, **{name: _worded(value, m, table) for name, value in params.items()})


#: How the parameters of a family of codes become words, by the code's first part.
_PHRASES: dict[str, Callable[[Catalogue, str, dict[str, Any], Table | None], str]] = {
    "problem": problem_values, "warning": warning_values, "follow": follow_values,
}


def message_json(message: Any, table: Table | None = None) -> dict[str, Any]:
    """``{"code", "params", "text"}`` of a message, ``text`` its English words: how the public
    formats write a warning or a problem."""
    return {"code": message.code, "params": {k: plain(v) for k, v in message.params.items()},
            "text": words(message, "en", table)}


def messages_json(items: list[Any], table: Table | None = None) -> list[Any]:
    """Messages as :func:`message_json` writes them; anything else (a plain sentence) as it is."""
    return [message_json(i, table) if is_message(i) else i for i in items]
