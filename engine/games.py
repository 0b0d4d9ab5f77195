"""Each game as one frozen spec, looked up by name, as python-chess looks up its variants.

A :class:`GameSpec` holds what the rest of azulcam needs to know of a game without asking which
game it is: its title and options (and which option names the boards' face), its tile names and
colours, its player boards' slot ids and layouts, what lies on a table of it (a supply, tiles held
beside the boards, a score track with markers), the shape of its tiles, and how to build its
first state and read its moves and chance events. Code outside the engine reads these fields and
never compares a game's name; a new game or variant is a new spec in :data:`GAMES`.

    >>> find_game("pavilion").title, find_game("azul").face
    ('Summer Pavilion', 'wall')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from . import azul, pavilion
from . import pavilion_board as topo
from .common import either
from .errors import EngineError, RecordError, show
from .notice import Notice
from .zones import Slot


@dataclass(frozen=True, eq=False)
class GameSpec:
    """One game: its rules' facts and its state class. Compared by identity (one spec a game)."""

    #: The name records, profiles and observations write (``"game": "azul"``).
    name: str
    #: The game's title, as the box prints it.
    title: str
    #: Every option with its allowed values, the first the default.
    options: Mapping[str, tuple[Any, ...]]
    #: The option that names the player boards' printed face (Azul's wall, Summer Pavilion's side).
    face: str
    #: Every tile name an observation may hold, in the order observations list them.
    tiles: tuple[str, ...]
    #: The colours (the tiles the bag holds as colours, not a joker or the marker).
    colors: tuple[str, ...]
    #: Tiles of each colour in the box.
    tiles_per_color: int
    #: Factory displays for each player count.
    factories: Mapping[int, int]
    #: The board as it is drawn: ``"wall"`` (pattern lines, a wall and a floor line) or ``"stars"``.
    board: str
    #: The tiles' outline: ``"square"`` or ``"rhombus"`` (a 60-degree rhombus).
    shape: str
    #: The supply's spaces on the scoring board beside the displays (0: no supply).
    supply_spaces: int
    #: Whether players hold tiles beside their boards (Summer Pavilion's taken tiles).
    holds_tiles: bool
    #: Whether each board has a score track with a marker on it (Azul).
    score_track: bool
    #: The board of the supply and the round track, as a layout name (``None``: none).
    scoring_layout: str | None
    #: The class of this game's states.
    state_class: type
    #: Reads one move of this game from its JSON.
    move_from_json: Callable[[Any], Any]
    #: Reads each kind of chance event (``deal``, ``refill``) from its JSON.
    chance_from_json: Mapping[str, Callable[[Any], Any]]
    #: The slot ids of a player board (as the layouts name them).
    slot_ids: frozenset[Slot]
    #: The first state from the player count, the checked options and the start player.
    _new: Callable[[int, dict[str, Any], int], Any]

    @property
    def title_message(self) -> Notice:
        """The title as a message (``game.title.azul``), worded where it is shown in the reader's
        language (:attr:`title` is the English one)."""
        code = "game.title." + self.name  # a key for every game (tests/engine/test_messages.py)
        return Notice(code)

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts the game is played by."""
        return tuple(sorted(self.factories))

    @property
    def faces(self) -> tuple[str, ...]:
        """The boards' printed faces, the first the default."""
        return tuple(self.options[self.face])

    @cached_property
    def layouts(self) -> tuple[str, ...]:
        """The player boards' layout names, one a face (``azul-colored``, ``azul-grey``)."""
        return tuple(f"{self.name}-{face}" for face in self.faces)

    def layout(self, options: Mapping[str, Any]) -> str:
        """The layout name of a player board under ``options`` (checked options of this game)."""
        return f"{self.name}-{options[self.face]}"

    def face_of(self, layout: str) -> str:
        """The face a layout of this game's boards shows. Raises :class:`EngineError` (a
        ValueError) for another layout."""
        if layout not in self.layouts:
            raise EngineError("game.no_such_layout", layout=layout, game=self.title_message)
        return self.faces[self.layouts.index(layout)]

    def read_options(self, options: Any, error: type[ValueError] = RecordError) -> dict[str, Any]:
        """The game's options as a record writes them, checked, every option given (defaults filled
        in). Raises ``error`` naming the unknown option or the bad value (a kind of
        :class:`EngineError`; a plain ValueError asks for none in particular: EngineError)."""
        kind = _coded(error)
        if not isinstance(options, dict):
            raise kind("options.not_object", value=show(options))
        unknown = sorted(str(k) for k in options if k not in self.options)
        if unknown:
            raise kind("options.unknown", game=self.title_message, option=unknown[0], options=", ".join(self.options))
        out = {}
        for key, values in self.options.items():
            value = options.get(key, values[0])
            if isinstance(values[0], bool):
                if not isinstance(value, bool):
                    raise kind("options.not_bool", option=key, value=show(value))
            elif not (isinstance(value, str) and value in values):
                raise kind("options.bad_value", option=key, values=either(values), value=show(value))
            out[key] = value
        return out

    def options_for(self, face: str | None = None, **flags: bool) -> dict[str, Any]:
        """Checked options from a face (default: the first) and the true/false options given.
        Raises :class:`EngineError` for a face or an option the game has not."""
        return self.read_options({**({self.face: face} if face is not None else {}), **flags}, EngineError)

    def tiles_in_play(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The tile names a table of this game under ``options`` may show, in order: every tile
        but the wild ones a variant leaves out (Azul's jokers without ``jokers``)."""
        return tuple(t for t in self.tiles if t not in self.wild_tiles or options.get("jokers"))

    @property
    def wild_tiles(self) -> frozenset[str]:
        """Tiles that only a variant brings (Azul's jokers)."""
        return frozenset(self.tiles) - frozenset(self.colors) - {"first_player"}

    def new(self, players: int, options: Mapping[str, Any] | None = None, start_player: int = 0) -> Any:
        """The position before the first event. Raises :class:`RecordError` for bad options and
        :class:`StateError` for a bad player count or start player."""
        return self._new(players, self.read_options(dict(options or {})), start_player)

    def __repr__(self) -> str:
        return f"<GameSpec {self.name}>"


_AZUL_SLOTS = frozenset(s for slots in (*azul.LINE_SLOTS, *azul.WALL_SLOTS, azul.FLOOR_SLOTS) for s in slots)

AZUL = GameSpec(
    name="azul", title="Azul",
    options=MappingProxyType({"wall": ("colored", "grey"), "jokers": (False, True)}), face="wall",
    tiles=azul.TILE_NAMES, colors=azul.COLORS, tiles_per_color=azul.TILES_PER_COLOR,
    factories=MappingProxyType(dict(azul.FACTORIES_FOR_PLAYERS)),
    board="wall", shape="square", supply_spaces=0, holds_tiles=False, score_track=True, scoring_layout=None,
    state_class=azul.AzulState, move_from_json=azul.move_from_json,
    chance_from_json=MappingProxyType({"deal": azul.deal_from_json}), slot_ids=_AZUL_SLOTS,
    _new=lambda players, options, start: azul.AzulState.new(players, options["wall"], options["jokers"], start),
)

PAVILION = GameSpec(
    name="pavilion", title="Summer Pavilion",
    options=MappingProxyType({"side": topo.SIDES}), face="side",
    tiles=topo.COLORS + ("first_player",), colors=topo.COLORS, tiles_per_color=pavilion.TILES_PER_COLOR,
    factories=MappingProxyType(dict(pavilion.FACTORIES_FOR_PLAYERS)),
    board="stars", shape="rhombus", supply_spaces=topo.SUPPLY_SPACES, holds_tiles=True, score_track=False,
    scoring_layout="pavilion-scoring",
    state_class=pavilion.PavilionState, move_from_json=pavilion.move_from_json,
    chance_from_json=MappingProxyType({"deal": pavilion.deal_from_json, "refill": pavilion.refill_from_json}),
    slot_ids=frozenset(topo.SPACE_NAMES + topo.CORNER_NAMES),
    _new=lambda players, options, start: pavilion.PavilionState.new(players, options["side"], start),
)

#: Every game by name, in the order the interfaces list them.
GAMES: Mapping[str, GameSpec] = MappingProxyType({spec.name: spec for spec in (AZUL, PAVILION)})

#: Every tile name of every game, once each, in the games' order.
ALL_TILES: tuple[str, ...] = tuple(dict.fromkeys(t for spec in GAMES.values() for t in spec.tiles))


def find_game(name: Any, error: type[ValueError] = RecordError) -> GameSpec:
    """The spec of the game ``name``. Raises ``error`` (:class:`RecordError`; an observation
    check passes its own kind, a plain ValueError asks for none in particular: EngineError)
    naming the games there are."""
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise _coded(error)("game.unknown", value=show(name), games=", ".join(GAMES))


def _coded(error: type[ValueError]) -> type[EngineError]:
    """The kind of :class:`EngineError` to raise for a caller that asks for ``error``: that kind
    itself, or EngineError where a plain ValueError will do (a refusal is a code with parameters)."""
    return error if issubclass(error, EngineError) else EngineError


def read_options(game: Any, options: Any, error: type[ValueError] = RecordError) -> dict[str, Any]:
    """The options of the game named ``game`` as a record writes them, checked, every option given
    (defaults filled in): Azul ``{"wall": "colored" | "grey", "jokers": bool}``, Summer Pavilion
    ``{"side": "colored" | "grey"}``. Raises ``error`` naming the unknown game or option, or the
    bad value."""
    return find_game(game, error).read_options(options, error)
