"""What a perfect camera would see of a position: an engine state as an ``azulcam-observation/1``
(:func:`observation_of`), and as what it puts in each of the observation's zones (:func:`expected`).

The observation names every tile on the table where a player sees it (docs/formats/observation.md): each
factory display, the centre, every occupied board slot, the tiles beside a board and the Summer
Pavilion supply. Hidden tiles (bag, box lid, tower) are not in it. It is built from the states'
``to_json()`` alone, with the renderer's conventions (``synth/table.py``): a pattern line lists
its colour tiles from the right, then its jokers; the Azul first-player marker lies in its
owner's hand when it is not on the floor line; a Summer Pavilion board's kept tiles lie on
``corner.0`` onwards.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from . import pavilion_board as topo
from .errors import StateError
from .games import GAMES
from .zones import Slot, Zone

OBSERVATION_FORMAT = "azulcam-observation/1"


def _counts(names: list[str], game: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for name in sorted(names, key=GAMES[game].tiles.index):
        out[name] = out.get(name, 0) + 1
    return out


def observation_of(state: Any) -> dict[str, Any]:
    """The ``azulcam-observation/1`` of ``state`` (an Azul or Summer Pavilion state) as a perfect
    reader would print it, with the game's ``options`` added (a key of its own, which readers
    ignore). A state has no picture: every factory display's ``center`` is ``[0.0, 0.0]``, so
    that the observation keeps the format's shape. ``uncertain`` and ``warnings`` are empty.
    Raises :class:`StateError` for a state of another game."""
    data = state.to_json()
    game = data.get("game")
    if game not in GAMES:
        raise StateError("state.no_observation", game=game)
    order = GAMES[game].tiles.index
    factories = [{"center": [0.0, 0.0], "tiles": sorted(tiles, key=order)} for tiles in data["factories"]]
    center = [name for name, n in data["center"].items() for _ in range(n)]
    holder = data["marker"] if game == "azul" else data["token"]
    if holder == "center":
        center.append("first_player")
    boards = []
    for p, b in enumerate(data["boards"]):
        slots: dict[str, str] = {}
        hand: list[str] = []
        if game == "azul":
            for r, line in enumerate(b["lines"]):
                tiles = [line["color"]] * line["count"] + ["joker"] * line["jokers"]
                slots.update((_line_space(r, i), t) for i, t in enumerate(tiles))
            for r, row in enumerate(b["wall"]):
                slots.update((_wall_space(r, c), t) for c, t in enumerate(row) if t is not None)
            slots.update((_floor_space(i), t) for i, t in enumerate(b["floor"]))
            if holder == p and "first_player" not in b["floor"]:
                hand.append("first_player")
        else:
            spaces = b["spaces"]
            slots.update((name, spaces[name]) for name in topo.SPACE_NAMES if name in spaces)
            slots.update((_corner_space(i), color) for i, color in enumerate(b["corners"]))
            hand = [name for name, n in b["hand"].items() for _ in range(n)]
            if holder == p:
                hand.append("first_player")
        boards.append({"player": p, "slots": slots, "hand": _counts(hand, game)})
    return {
        "format": OBSERVATION_FORMAT,
        "game": game,
        "options": dict(data["options"]),
        "factories": factories,
        "center": _counts(center, game),
        "boards": boards,
        "supply": list(data["supply"]) if game == "pavilion" else None,
        "uncertain": [],
        "warnings": [],
    }


def _tiles(counts: dict[str, int]) -> tuple[str, ...]:
    return tuple(sorted(name for name, n in counts.items() for _ in range(n)))


# The slots a board's JSON fills, each built once: every expected() builds an observation. (A
# state read from a file may overfill a line or the floor: its slots are named all the same.)
_line_space, _wall_space, _floor_space, _corner_space = map(cache, (Slot.line, Slot.wall, Slot.floor, Slot.corner))


class _Table(NamedTuple):
    """The zones of a table of one game and player count, each player's board slots by slot id."""

    slots: tuple[dict[str, Zone], ...]
    hands: tuple[Zone, ...]
    displays: tuple[Zone, ...]
    supply: tuple[Zone, ...]


@cache
def _table(game: str, players: int) -> _Table:
    spec = GAMES[game]
    return _Table(tuple({slot: Zone.board(p, slot) for slot in spec.slot_ids} for p in range(players)),
                  tuple(Zone.hand(p) for p in range(players)),
                  tuple(Zone.display(i) for i in range(spec.factories[players])),
                  tuple(Zone.supply(n) for n in range(spec.supply_spaces)))


def expected(state: Any) -> dict[Zone, Any]:
    """Zone -> what a perfect reader would see there in ``state``, zones named as in
    ``azulcam-observation/1`` (``boards.P.SLOT``, ``boards.P.hand``, ``factories.I``, ``center``,
    ``supply.N``): a slot its kind (empty slots left out), other zones a sorted tuple of tiles."""
    obs = observation_of(state)
    table = _table(obs["game"], len(obs["boards"]))
    zones: dict[Zone, Any] = {}
    for board in obs["boards"]:
        p = board["player"]
        on_board = table.slots[p]
        zones.update((on_board.get(slot) or Zone.board(p, slot), kind) for slot, kind in board["slots"].items())
        zones[table.hands[p]] = _tiles(board["hand"])
    for zone, display in zip(table.displays, obs["factories"]):
        zones[zone] = tuple(sorted(display["tiles"]))
    zones[_CENTRE] = _tiles(obs["center"])
    for zone, kind in zip(table.supply, obs.get("supply") or []):
        zones[zone] = kind
    return zones


def empty_content(zone: str) -> Any:
    """What an empty zone holds (:func:`expected`'s zones): no tiles (a display, the centre, a
    hand), or None (a slot). Raises :class:`~.zones.ZoneError` for a name that is no zone."""
    empty = _EMPTY.get(zone, _UNKNOWN)
    if empty is _UNKNOWN:
        empty = _EMPTY[zone] = () if Zone.parse(zone).loose else None
    return empty


# Zone names are few and asked about in every explanation's cost (follow.explain): each is worked out once.
_EMPTY: dict[str, Any] = {}
_UNKNOWN = object()
_CENTRE = Zone.centre()
