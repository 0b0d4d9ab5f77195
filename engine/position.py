"""What no legal game can show: the engines' verdict on a position as a camera saw it.

A position read from a photo may be impossible (a misread tile, a tile knocked onto the wrong
space). As python-chess's ``Board.status()`` does, the engine accepts it and says why it cannot
be: :func:`problems` lists every rule the position breaks, each naming the slot or zone, from a
plain ``azulcam-observation/1`` (data only: the engine knows nothing of images).
:func:`read_observation` first checks that the observation has the format's shape, and raises
:class:`~.errors.ObservationError` naming the first field that has not.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from . import pavilion_board as topo
from .azul import COLORS as AZUL_COLORS
from .azul import SCORE_TRACK_TOP as TRACK_TOP
from .azul import FLOOR_SLOTS, LINE_SLOTS, WALL_SLOTS, wall_column
from .common import either, is_int
from .errors import ObservationError, show
from .notice import Notice
from .games import AZUL, GAMES, PAVILION, read_options
from .observe import OBSERVATION_FORMAT

_AZUL_PER_COLOR = AZUL.tiles_per_color
_PAVILION_PER_COLOR = PAVILION.tiles_per_color
_MAX_BOARDS = 4


# Each refusal names the first bad field by its path (``field``: ``boards[1].slots``), which
# its words put first: ``boards[1].slots: unknown slot 'wall.7.0'``.


def _check_tile(game: str, name: Any, where: str) -> None:
    if not (isinstance(name, str) and name in GAMES[game].tiles):
        raise ObservationError("observation.unknown_tile", field=where, value=show(name), tiles=", ".join(GAMES[game].tiles))


def _check_counts(game: str, counts: Any, where: str) -> None:
    """``{tile name: count}``, counts non-negative integers."""
    if not isinstance(counts, dict):
        raise ObservationError("observation.not_counts", field=where, value=show(counts))
    for name, n in counts.items():
        _check_tile(game, name, where)
        if not (is_int(n) and n >= 0):
            raise ObservationError("observation.not_count", field=f"{where}.{name}", value=show(n))


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...], required: tuple[str, ...], where: str) -> None:
    unknown = sorted(str(k) for k in data if k not in allowed)
    if unknown:
        raise ObservationError("observation.unknown_key", field=where, name=unknown[0], keys=", ".join(allowed))
    for key in required:
        if key not in data:
            raise ObservationError("observation.missing_key", field=where, name=key)


def _check_strings(value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise ObservationError("observation.not_strings", field=where, value=show(value))
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise ObservationError("observation.not_string", field=f"{where}[{i}]", value=show(v))


def _check_notices(value: Any, where: str) -> None:
    """A list of sentences, each a string or a coded one (``{"code", "params", "text"}``, :class:`Notice`)."""
    if not isinstance(value, list):
        raise ObservationError("observation.not_list", field=where, value=show(value))
    for i, v in enumerate(value):
        if isinstance(v, str):
            continue
        if not (isinstance(v, dict) and isinstance(v.get("code"), str) and isinstance(v.get("params", {}), dict)
                and isinstance(v.get("text", ""), str)):
            raise ObservationError("observation.not_notice", field=f"{where}[{i}]", value=show(v))


def read_observation(data: Any) -> dict[str, Any]:
    """Check the shape of an ``azulcam-observation/1`` and return it with the parts it leaves
    out filled in (no factories, an empty centre, no supply, nothing uncertain, no warnings).

    ``game`` (``"azul"`` or ``"pavilion"``) and ``boards`` must be there; ``format``, when given,
    must be ``azulcam-observation/1``. Each factory is ``{"center": [x, y], "tiles": [names]}``
    (``center`` null when there is no picture, as in :func:`.observe.observation_of`); the
    ``center`` and a board's ``hand`` count tiles by name; a board is ``{"player": number,
    "slots": {slot id: tile name}, "hand": {...}, "score": cell}``, each player once (``score``,
    Azul only and optional: the cell 0..100 of the player's marker on the score track); ``supply`` is null (Azul)
    or the ten supply spaces, each a tile name or null (Summer Pavilion); ``uncertain`` and
    ``warnings`` are lists of strings. Tile names and slot ids are those of the game. Keys of its
    own at the top (such as ``check``) are kept; anywhere else an unknown key is refused.

    Raises :class:`ObservationError` naming the first bad field, e.g.
    ``boards[1].slots: unknown slot 'wall.7.0'``.
    """
    if not isinstance(data, dict):
        raise ObservationError("observation.not_object", value=show(data))
    if "format" in data and data["format"] != OBSERVATION_FORMAT:
        raise ObservationError("observation.not_an_observation", field="format", format=OBSERVATION_FORMAT,
                               value=show(data["format"]))
    game = data.get("game")
    if not (isinstance(game, str) and game in GAMES):
        raise ObservationError("observation.unknown_game", field="game", games=either(GAMES), value=show(game))
    out = dict(data)
    out.setdefault("format", OBSERVATION_FORMAT)

    factories = out.setdefault("factories", [])
    if not isinstance(factories, list):
        raise ObservationError("observation.factories_not_list", field="factories", value=show(factories))
    for i, f in enumerate(factories):
        where = f"factories[{i}]"
        if not isinstance(f, dict):
            raise ObservationError("observation.factory_not_object", field=where, value=show(f))
        _check_keys(f, ("center", "tiles"), ("center", "tiles"), where)
        xy = f["center"]
        if xy is not None and not (isinstance(xy, list) and len(xy) == 2 and all(_is_number(v) for v in xy)):
            raise ObservationError("observation.factory_center", field=f"{where}.center", value=show(xy))
        tiles = f["tiles"]
        if not isinstance(tiles, list):
            raise ObservationError("observation.factory_tiles", field=f"{where}.tiles", value=show(tiles))
        for k, name in enumerate(tiles):
            _check_tile(game, name, f"{where}.tiles[{k}]")

    _check_counts(game, out.setdefault("center", {}), "center")

    if "boards" not in out:
        raise ObservationError("observation.boards_missing", field="boards")
    boards = out["boards"]
    if not isinstance(boards, list) or len(boards) > _MAX_BOARDS:
        raise ObservationError("observation.boards_not_list", field="boards", most=_MAX_BOARDS, value=show(boards))
    players: set[int] = set()
    for i, b in enumerate(boards):
        where = f"boards[{i}]"
        if not isinstance(b, dict):
            raise ObservationError("observation.board_not_object", field=where, value=show(b))
        _check_keys(b, ("player", "slots", "hand", "score"), ("player", "slots"), where)
        p = b["player"]
        if not (is_int(p) and 0 <= p < _MAX_BOARDS):
            raise ObservationError("observation.bad_player", field=f"{where}.player", last=_MAX_BOARDS - 1, value=show(p))
        if p in players:
            raise ObservationError("invalid.players_twice", field=f"{where}.player", player=p)
        players.add(p)
        slots = b["slots"]
        if not isinstance(slots, dict):
            raise ObservationError("observation.slots_not_object", field=f"{where}.slots", value=show(slots))
        for slot, name in slots.items():
            if slot not in GAMES[game].slot_ids:
                raise ObservationError("observation.unknown_slot", field=f"{where}.slots", value=show(slot))
            _check_tile(game, name, f"{where}.slots.{slot}")
        _check_counts(game, b.get("hand", {}), f"{where}.hand")
        score = b.get("score")
        if score is not None and not (game == "azul" and is_int(score) and 0 <= score <= TRACK_TOP):
            raise ObservationError("observation.bad_score", field=f"{where}.score", top=TRACK_TOP, value=show(score))

    supply = out.setdefault("supply", None)
    if game == "azul" and supply is not None:
        raise ObservationError("observation.azul_supply", field="supply", value=show(supply))
    if supply is not None:
        if not (isinstance(supply, list) and len(supply) == topo.SUPPLY_SPACES):
            raise ObservationError("observation.bad_supply", field="supply", spaces=topo.SUPPLY_SPACES, value=show(supply))
        for k, name in enumerate(supply):
            if name is not None:
                _check_tile(game, name, f"supply[{k}]")
    _check_strings(out.setdefault("uncertain", []), "uncertain")
    _check_notices(out.setdefault("warnings", []), "warnings")
    return out


def _is_number(v: Any) -> bool:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


def tiles_in_view(observation: dict[str, Any]) -> Counter[str]:
    """Every tile in view by kind (the first-player marker included)."""
    seen: Counter[str] = Counter()
    for f in observation.get("factories", []):
        seen.update(f.get("tiles", []))
    seen.update(observation.get("center", {}))
    for b in observation.get("boards", []):
        seen.update(b.get("slots", {}).values())
        seen.update(b.get("hand", {}))
    seen.update(t for t in observation.get("supply") or [] if t is not None)
    return seen


def problems(observation: Any, options: Any) -> list[Notice]:
    """Every reason why ``observation`` cannot be a position of a legal game with ``options``
    (as a record has them: Azul ``wall``, ``jokers``; Summer Pavilion ``side``; those left out
    take their defaults). An empty list: it can be. Each is a :class:`~.notice.Notice`: a code
    and parameters (players, lines, rows and stars from 0), worded where it is shown.

    Raises :class:`ObservationError` when the observation is not of the format's shape (see
    :func:`read_observation`) or the options are not the game's.
    """
    obs = read_observation(observation)
    opts = read_options(obs["game"], options, ObservationError)
    if obs["game"] == "azul":
        return _azul_problems(obs, opts["wall"], opts["jokers"])
    return _pavilion_problems(obs, opts["side"])


def _marker_problems(seen: Counter[str], game: str) -> list[Notice]:
    n = seen.get("first_player", 0)
    return [Notice("problem.markers", n=n, game=game)] if n > 1 else []


def _azul_problems(obs: dict[str, Any], wall: str, jokers: bool) -> list[Notice]:
    out: list[Notice] = []
    seen = tiles_in_view(obs)
    players = len(obs.get("boards", []))
    joker_count = (5 if players == 2 else 10) if jokers else 0
    per_color = _AZUL_PER_COLOR - ((1 if players == 2 else 2) if jokers else 0)
    for color in AZUL_COLORS:
        if seen.get(color, 0) > per_color:
            out.append(Notice("problem.too_many",
                              tile=color, n=seen[color], limit=per_color))
    if seen.get("joker", 0) > joker_count:
        out.append(Notice("problem.too_many_jokers" if joker_count else "problem.no_jokers", n=seen["joker"], limit=joker_count))
    out += _marker_problems(seen, "azul")
    for b in obs.get("boards", []):
        p, slots = b.get("player"), b.get("slots", {})
        for r in range(5):
            line = [slots.get(s) for s in LINE_SLOTS[r]]
            filled = [t for t in line if t is not None]
            if any(t is None for t in line[:len(filled)]):
                out.append(Notice("problem.line_gap", player=p, line=r))
            colors = {t for t in filled if t not in ("joker", "first_player")}  # the marker is no colour: marker_on_line
            if len(colors) > 1:
                out.append(Notice("problem.line_mixed",
                                  player=p, line=r, tiles=sorted(colors)))
            if any(t == "first_player" for t in filled):
                out.append(Notice("problem.marker_on_line", game="azul",
                                  player=p, line=r))
            row = {c: slots.get(s) for c, s in enumerate(WALL_SLOTS[r])}
            for color in colors:
                if color in row.values():
                    out.append(Notice("problem.line_on_wall",
                                      player=p, line=r, tile=color))
            if wall == "colored":
                for c, t in row.items():
                    if t is not None and t != "joker" and t in AZUL_COLORS and wall_column(AZUL_COLORS.index(t), r) != c:
                        printed = AZUL_COLORS[(c - r) % 5]
                        out.append(Notice("problem.wall_color",
                                          player=p, tile=t, row=r, column=c, printed=printed))
            else:
                row_colors = [t for t in row.values() if t not in (None, "joker")]
                for color, n in Counter(row_colors).items():
                    if n > 1:
                        out.append(Notice("problem.wall_row_twice",
                                          player=p, tile=color, row=r))
        if wall != "colored":
            for c in range(5):
                column = [slots.get(WALL_SLOTS[r][c]) for r in range(5)]
                for color, n in Counter(t for t in column if t not in (None, "joker")).items():
                    if n > 1:
                        out.append(Notice("problem.wall_column_twice",
                                          player=p, tile=color, column=c))
        if any(slots.get(s) == "first_player" for row_slots in WALL_SLOTS for s in row_slots):
            out.append(Notice("problem.marker_on_wall", player=p, game="azul"))
        floor = [slots.get(s) for s in FLOOR_SLOTS]
        n = sum(t is not None for t in floor)
        if any(t is None for t in floor[:n]):
            out.append(Notice("problem.floor_gap", player=p))
    return out


def _pavilion_problems(obs: dict[str, Any], side: str) -> list[Notice]:
    out: list[Notice] = []
    seen = tiles_in_view(obs)
    for color in topo.COLORS:
        if seen.get(color, 0) > _PAVILION_PER_COLOR:
            out.append(Notice("problem.too_many",
                              tile=color, n=seen[color], limit=_PAVILION_PER_COLOR))
    out += _marker_problems(seen, "pavilion")
    for b in obs.get("boards", []):
        p, slots = b.get("player"), b.get("slots", {})
        for star in range(topo.STARS):
            tiles = {k: slots.get(topo.SPACE_NAMES[topo.space_index(star, k)]) for k in range(1, 7)}
            placed = [t for t in tiles.values() if t is not None]
            if "first_player" in placed:
                out.append(Notice("problem.token_on_star", game="pavilion",
                                  player=p, star=star))
            colors = [t for t in placed if t in topo.COLORS]
            color = topo.STAR_COLOR[star]
            if side == "colored" and color is not None:
                for k, t in tiles.items():
                    if t is not None and t in topo.COLORS and t != topo.COLORS[color]:
                        out.append(Notice("problem.star_color",
                                          player=p, tile=t, star=star, space=k))
            elif side == "colored" or len(set(colors)) > 1:
                # the central star (and a grey star built multicolour): six different colours
                for c, n in Counter(colors).items():
                    if n > 1:
                        out.append(Notice("problem.star_twice",
                                          player=p, tile=c, star=star, n=n))
        corners = [slots.get(s) for s in topo.CORNER_NAMES]
        if "first_player" in corners:
            out.append(Notice("problem.token_on_corner", player=p, game="pavilion"))
    return out
