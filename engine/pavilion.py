"""Azul: Summer Pavilion (2019), both sides of the player board, 2 to 4 players.

Same interface as :mod:`azul`: a plain-value state, explicit chance (``deal`` at setup and
at each round start, ``refill`` of the supply after bonus tiles were taken), lazy ordered
legal moves, ``play`` returning what happened, scores with a breakdown.

Turn structure of a round: phase 1 (``acquire``) takes from factories and centre; phase 2
(``place``) places one tile per turn, a completed pillar / statue / window makes the same
player choose ``bonus`` tiles, after which chance refills the supply; a player who passes
keeps up to 4 tiles on the corners. Phase 3 (next round) happens when everyone has passed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, Union

from . import pavilion_board as topo
from .common import (CENTER, CHANCE, DEAL_PHASE, MOST_POINTS, TERMINAL, GameState, LegalMoves, Outcome, Scored, check_keys,
                     check_object, check_source, color_adjective, color_noun, count_word, is_int, moved, parse_words,
                     pile_from_json, pile_to_json, whole)
from .errors import AmbiguousMoveError, IllegalMoveError, ImpossibleDealError, InvalidMoveError, StateError, show
from .notice import Notice
from .zones import Slot, Zone

COLORS = topo.COLORS
COLOR_INDEX = topo.COLOR_INDEX
TILES_PER_COLOR = 22
FACTORIES_FOR_PLAYERS = {2: 5, 3: 7, 4: 9}
START_SCORE = 5
ROUNDS = 6
MIN_SCORE = 1

_DEAL, _ACQUIRE, _PLACE, _BONUS, _REFILL, _OVER = DEAL_PHASE, 1, 2, 3, 4, 5
_PHASE_NAMES = ("deal", "acquire", "place", "bonus", "refill", "over")
_CENTER = -1
_ALL = 0b111111
_POP = tuple(bin(m).count("1") for m in range(64))
_BITS = tuple(tuple(i for i in range(6) if m >> i & 1) for m in range(64))
_SPACE_NAMES = frozenset(topo.SPACE_NAMES)
_CENTRE_ZONE = Zone.centre()  # the centre as the moves' logs name it (a take's source says CENTER)


# --------------------------------------------------------------------------- moves


def _color(name: Any, code: str = "move.unknown_pavilion_color", where: dict[str, Any] | None = None) -> str:
    """``name`` when it is a colour; else :class:`InvalidMoveError` ``code`` (a move's colour, a
    tile of a deal or refill), with ``where`` it was found."""
    if not (isinstance(name, str) and name in COLOR_INDEX):
        raise InvalidMoveError(code, value=show(name), colors=", ".join(COLORS), **(where or {}))
    return name


def _colors_list(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise InvalidMoveError("move.not_color_list", name=key, value=show(value))
    return tuple(_color(c, "move.unknown_pavilion_color_in", {"name": key}) for c in value)


def _sorted_colors(colors: Any) -> tuple[str, ...]:
    """Colours in colour order; raises InvalidMoveError for a name that is no colour."""
    if isinstance(colors, str) or not isinstance(colors, (list, tuple)):
        raise InvalidMoveError("move.not_color_names", value=show(colors))
    return tuple(sorted((_color(c) for c in colors), key=COLOR_INDEX.__getitem__))


@dataclass(frozen=True, slots=True)
class Take:
    """Phase 1: all tiles of ``color`` from a factory (``source`` 0..) or the centre, plus one
    wild tile if the source has any. ``color`` is the wild colour only when the source holds nothing else."""

    source: int | str
    color: str

    def to_json(self) -> dict[str, Any]:
        return {"action": "take", "source": self.source, "color": self.color}

    def __str__(self) -> str:
        return f"take {self.source} {self.color}"


@dataclass(frozen=True, slots=True)
class Place:
    """Phase 2: place one ``color`` tile on ``space``, paying its number with ``wild`` tiles of the
    round's wild colour and the rest in ``color``."""

    space: str
    color: str
    wild: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"action": "place", "space": self.space, "color": self.color, "wild": self.wild}

    def __str__(self) -> str:
        return f"place {self.space} {self.color} wild={self.wild}"


@dataclass(frozen=True, slots=True)
class Bonus:
    """Phase 2: the tiles taken from the supply after completing pillars, statues or windows."""

    colors: tuple[str, ...]

    def __post_init__(self) -> None:  # one move per multiset, whatever order it is written in
        object.__setattr__(self, "colors", _sorted_colors(self.colors))

    def to_json(self) -> dict[str, Any]:
        return {"action": "bonus", "colors": list(self.colors)}

    def __str__(self) -> str:
        return "bonus " + (",".join(self.colors) or "-")


@dataclass(frozen=True, slots=True)
class Pass:
    """Phase 2: stop placing this round, keeping ``keep`` (up to 4 tiles) on the corners.

    ``keep=None`` means the default of ruling 6: keep everything when holding 4 tiles or fewer.
    """

    keep: tuple[str, ...] | None = ()

    def __post_init__(self) -> None:
        if self.keep is not None:
            object.__setattr__(self, "keep", _sorted_colors(self.keep))

    def to_json(self) -> dict[str, Any]:
        return {"action": "pass"} if self.keep is None else {"action": "pass", "keep": list(self.keep)}

    def __str__(self) -> str:
        return "pass" if self.keep is None else "pass " + (",".join(self.keep) or "-")


PavilionMove = Union[Take, Place, Bonus, Pass]


def move_from_json(data: Any) -> PavilionMove:
    """Parse a Summer Pavilion move from its JSON object. Raises :class:`InvalidMoveError`."""
    check_object(data, "move")
    action = data.get("action")
    if action == "take":
        check_keys(data, ("action", "source", "color"), ("source", "color"))
        check_source(data["source"])
        return Take(data["source"], _color(data["color"]))
    if action == "place":
        check_keys(data, ("action", "space", "color", "wild"), ("space", "color"))
        space = data["space"]
        if not isinstance(space, str):
            raise InvalidMoveError("move.space_not_name", value=show(space))
        if space not in _SPACE_NAMES:  # ASCII digits only: str.isdigit() also takes '²' and '٣'
            raise InvalidMoveError("move.no_space", space=show(space))
        wild = data.get("wild", 0)
        if not (is_int(wild) and wild >= 0):
            raise InvalidMoveError("move.bad_wild", value=show(wild))
        return Place(Slot.parse(space), _color(data["color"]), wild)
    if action == "bonus":
        check_keys(data, ("action", "colors"), ("colors",))
        return Bonus(_colors_list(data["colors"], "colors"))
    if action == "pass":
        check_keys(data, ("action", "keep"), ())
        return Pass(_colors_list(data["keep"], "keep") if "keep" in data else None)
    raise InvalidMoveError("move.unknown_pavilion_action", value=show(action))


def parse_move(text: str) -> PavilionMove:
    """Parse ``str(move)``: ``take 2 green``, ``place 4.6 blue wild=3``, ``bonus red,purple``, ``pass green,green``.
    Raises :class:`InvalidMoveError`."""
    return parse_words(text, _move_of_words, "'take 2 green', 'place 4.6 blue wild=3', 'bonus red', 'pass green'")


def _move_of_words(words: list[str]) -> PavilionMove | None:
    """The move the words of a move's text say; ``None``, ValueError or IndexError when they say none."""
    if words[0] == "take" and len(words) == 3:
        return move_from_json({"action": "take", "source": words[1] if words[1] == CENTER else int(words[1]), "color": words[2]})
    if words[0] == "place" and len(words) in (3, 4):
        return move_from_json({"action": "place", "space": words[1], "color": words[2], "wild": count_word(words, 3, "wild")})
    if words[0] == "bonus" and len(words) == 2:
        return move_from_json({"action": "bonus", "colors": [] if words[1] == "-" else words[1].split(",")})
    if words[0] == "pass" and len(words) <= 2:
        if len(words) == 1:
            return Pass(None)
        return move_from_json({"action": "pass", "keep": [] if words[1] == "-" else words[1].split(",")})
    return None


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: factory contents at a round start, and the ten supply spaces at setup."""

    factories: tuple[tuple[str, ...], ...]
    supply: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if self.supply is not None:
            body["supply"] = list(self.supply)
        body["factories"] = [list(f) for f in self.factories]
        return {"deal": body}


@dataclass(frozen=True, slots=True)
class Refill:
    """Chance: tiles put on the empty supply spaces, in space order, after a bonus take."""

    supply: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"refill": {"supply": list(self.supply)}}


def deal_from_json(data: Any) -> Deal:
    """Parse ``{"factories": [[...], ...], "supply": [...]}`` (the value of a record's ``deal`` key)."""
    check_object(data, "deal")
    check_keys(data, ("factories", "supply"), ("factories",), "deal")
    factories = data["factories"]
    if not isinstance(factories, list):
        raise InvalidMoveError("deal.factories_not_color_lists", value=show(factories))
    for i, f in enumerate(factories):
        if not isinstance(f, list):
            raise InvalidMoveError("deal.factory_not_color_list", factory=i, value=show(f))
    supply = data.get("supply")
    if supply is not None and not isinstance(supply, list):
        raise InvalidMoveError("deal.supply_not_color_list", value=show(supply))
    return Deal(tuple(tuple(_color(c, "deal.unknown_factory_color", {"factory": i}) for c in f) for i, f in enumerate(factories)),
                tuple(_color(c, "deal.unknown_supply_color") for c in supply) if supply is not None else None)


def refill_from_json(data: Any) -> Refill:
    """Parse ``{"supply": [...]}`` (the value of a record's ``refill`` key)."""
    check_object(data, "refill")
    check_keys(data, ("supply",), ("supply",), "refill")
    if not isinstance(data["supply"], list):
        raise InvalidMoveError("refill.supply_not_color_list", value=show(data["supply"]))
    return Refill(tuple(_color(c, "refill.unknown_color") for c in data["supply"]))


# --------------------------------------------------------------------------- tables


@lru_cache(maxsize=None)
def _keep_options(hand: tuple[int, ...], most: int) -> tuple[tuple[str, ...], ...]:
    """Every multiset of at most ``most`` tiles from ``hand`` (counts per colour), each once:
    the largest first, then in colour order."""
    out: list[tuple[int, ...]] = []

    def extend(c: int, chosen: tuple[int, ...], left: int) -> None:
        if c == 6:
            out.append(chosen)
            return
        for k in range(min(hand[c], left), -1, -1):
            extend(c + 1, chosen + (c,) * k, left - k)

    extend(0, (), most)
    out.sort(key=lambda combo: (-len(combo), combo))
    return tuple(tuple(COLORS[c] for c in combo) for combo in out)


# --------------------------------------------------------------------------- state


class Board:
    """One player's board: placed tiles, the tiles next to it (hand), corners and score."""

    __slots__ = ("space", "star_colors", "star_count", "star_filled", "hand", "corners", "score", "placement",
                 "penalties", "stars", "numbers", "passed")

    def __init__(self) -> None:
        self.space = [-1] * topo.SPACES  # colour placed on each space, -1 empty
        self.star_colors = [0] * topo.STARS  # bitmask of colours placed on each star
        self.star_count = [0] * topo.STARS  # tiles placed on each star
        self.star_filled = [0] * topo.STARS  # bitmask of the filled spaces (k - 1) of each star
        self.hand = [0] * 6  # tiles next to the board, per colour
        self.corners: list[int] = []  # tiles kept on the corner spaces
        self.score = START_SCORE
        self.placement = 0
        self.penalties = 0
        self.stars = 0
        self.numbers = 0
        self.passed = False

    def copy(self) -> "Board":
        b = Board.__new__(Board)
        b.space = self.space[:]
        b.star_colors = self.star_colors[:]
        b.star_count = self.star_count[:]
        b.star_filled = self.star_filled[:]
        b.hand = self.hand[:]
        b.corners = self.corners[:]
        b.score = self.score
        b.placement = self.placement
        b.penalties = self.penalties
        b.stars = self.stars
        b.numbers = self.numbers
        b.passed = self.passed
        return b

    def lose(self, points: int) -> int:
        """Take away up to ``points``, never below 1; returns the points actually lost."""
        loss = min(points, self.score - MIN_SCORE) if self.score > MIN_SCORE else 0
        self.score -= loss
        self.penalties -= loss
        return loss


class PavilionState(GameState):
    """A position of Azul: Summer Pavilion. Build with :meth:`new`; see the module docstring.

    The ``phase`` is ``deal``, ``acquire`` (phase 1), ``place`` (phase 2), ``bonus`` (bonus tiles
    due), ``refill`` (chance refills the supply) or ``over``.
    """

    game = "pavilion"
    #: The breakdown keys that are end-of-game bonuses.
    END_BONUS_KEYS = ("stars", "numbers")
    _PHASE_NAMES = _PHASE_NAMES
    _TILE_NAMES, _TILE_INDEX = COLORS, COLOR_INDEX
    # The first-player tile is the start-player token; the spare tiles lie in the tower.
    _FIRST_KEY, _SPARE_KEY = "token", "tower"
    _MOST_ROUNDS, _LEAST_SCORE = ROUNDS, MIN_SCORE  # each round has its wild colour
    _BOARD = Board

    __slots__ = ("_supply", "_owed", "_printed")

    def __init__(self) -> None:
        raise TypeError("use PavilionState.new(players, side=...) or PavilionState.from_json(...)")

    @classmethod
    def new(cls, players: int = 2, side: str = "colored", start_player: int = 0) -> "PavilionState":
        s = cls._set_up(players, side, start_player)
        s._printed = topo.PRINTED[side]
        s._bag = [TILES_PER_COLOR] * 6
        s._supply = [-1] * topo.SUPPLY_SPACES
        s._owed = 0
        return s

    def _copy_into(self, s: "PavilionState") -> None:
        s._printed = self._printed
        s._supply = self._supply[:]
        s._owed = self._owed

    @property
    def options(self) -> dict[str, Any]:
        return {"side": "grey" if self.grey else "colored"}

    @property
    def wild(self) -> str:
        """The round's wild colour."""
        return COLORS[topo.WILD_BY_ROUND[self.round - 1]]

    @property
    def current_player(self) -> int:
        phase = self._phase
        if phase == _ACQUIRE or phase == _PLACE or phase == _BONUS:
            return self._to_move
        return TERMINAL if phase == _OVER else CHANCE

    def is_over(self) -> bool:
        return self._phase == _OVER

    # -- legal moves -------------------------------------------------------------

    def _allowed_colors(self, b: Board, star: int) -> int:
        """Bitmask of colours that may still be placed on ``star``."""
        present = b.star_colors[star]
        if not self.grey:
            if star == topo.CENTRAL:
                return _ALL & ~present
            return 1 << topo.STAR_COLOR[star]  # type: ignore[operator]
        n = b.star_count[star]
        if n <= 1:
            return _ALL
        if _POP[present] == 1:
            return present  # a single-colour star
        return _ALL & ~present  # a multicolour star

    def legal_moves(self) -> LegalMoves[PavilionMove]:
        """Every legal move, each once, in a fixed order (sources, then colours in colour order;
        spaces in index order, colours, wild counts; bonus and keep choices as sorted multisets)."""
        phase = self._phase
        if phase == _ACQUIRE:
            wild = topo.WILD_BY_ROUND[self.round - 1]
            groups = []
            total = 0
            for i, pile in enumerate(self._factories):
                if pile:
                    colors = _take_colors(pile, wild)
                    groups.append((len(colors), _build_take, (i, colors)))
                    total += len(colors)
            if self._center:
                colors = _take_colors(self._center, wild)
                groups.append((len(colors), _build_take, (CENTER, colors)))
                total += len(colors)
            return LegalMoves(groups, total)
        if phase == _PLACE:
            return self._placements()
        if phase == _BONUS:
            return LegalMoves.of(self._bonus_moves())
        return LegalMoves([], 0)

    def _placements(self) -> LegalMoves[PavilionMove]:
        b = self._boards[self._to_move]
        hand = b.hand
        wild = topo.WILD_BY_ROUND[self.round - 1]
        hw = hand[wild] if hand[wild] < 6 else 6
        held = 0
        for c in range(6):
            if hand[c]:
                held |= 1 << c
        costs = _STAR_COSTS[self.grey]
        filled = b.star_filled
        groups = []
        total = 0
        if held:
            for star in range(topo.STARS):
                if filled[star] == _ALL:
                    continue
                colors = self._allowed_colors(b, star) & held
                if not colors:
                    continue
                for c in _BITS[colors]:
                    have = hand[c]
                    key = (costs[star], filled[star], have if have < 6 else 6, -1 if c == wild else hw)
                    options = _STAR_OPTIONS.get(key)
                    if options is None:
                        options = _STAR_OPTIONS[key] = _star_options(*key)
                    if options[0]:
                        groups.append((options[0], _place, (star * 6, c, options[1])))
                        total += options[0]
        keeps = self._keep_choices(b)
        groups.append((len(keeps), _pass, keeps))
        total += len(keeps)
        return LegalMoves(groups, total)

    def _keep_choices(self, b: Board) -> tuple[tuple[str, ...], ...]:
        if self.round == ROUNDS:
            return ((),)  # the corners cannot carry over after the last round (ruling 6)
        hand = b.hand
        return _keep_options(tuple(h if h < 4 else 4 for h in hand), 4)

    def _bonus_moves(self) -> list[PavilionMove]:
        counts = [0] * 6
        for c in self._supply:
            if c >= 0:
                counts[c] += 1
        n = min(self._owed, sum(counts))
        out = []
        for combo in combinations_with_replacement(range(6), n):
            need = [0] * 6
            for c in combo:
                need[c] += 1
            if all(need[c] <= counts[c] for c in range(6)):
                out.append(Bonus(tuple(COLORS[c] for c in combo)))
        return out

    # -- playing -----------------------------------------------------------------

    def _read_move(self, move: PavilionMove | dict[str, Any] | str) -> PavilionMove:
        if isinstance(move, dict):
            move = move_from_json(move)
        elif isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, (Take, Place, Bonus, Pass)):
            raise InvalidMoveError("move.not_pavilion", value=show(move))
        if isinstance(move, Pass) and move.keep is None and self._phase == _PLACE:
            move = self._default_pass()
        return move

    def _default_pass(self) -> Pass:
        b = self._boards[self._to_move]
        held = sum(b.hand)
        if self.round == ROUNDS:
            return Pass(())
        if held > 4:
            raise AmbiguousMoveError("move.pass_which", player=self._to_move, held=held)
        return Pass(tuple(COLORS[c] for c in range(6) for _ in range(b.hand[c])))

    def _illegal_reason(self, move: PavilionMove) -> Notice | None:
        phase = self._phase
        if phase == _OVER:
            return Notice("illegal.game_over")
        if phase in (_DEAL, _REFILL):
            return Notice("illegal.chance_next", phase=_PHASE_NAMES[phase])
        expected = {_ACQUIRE: Take, _PLACE: (Place, Pass), _BONUS: Bonus}[phase]
        if not isinstance(move, expected):
            if phase == _BONUS:
                return Notice("illegal.must_choose_bonus", n=self._owed)
            return Notice("illegal.must_take" if phase == _ACQUIRE else "illegal.must_place")
        b = self._boards[self._to_move]
        if isinstance(move, Take):
            pile = self._take_source(move.source)
            if pile is None:
                return self._no_source()
            c = COLOR_INDEX[move.color]
            if not pile.get(c):
                return self._lacks(move.source, move.color)
            if move.color == self.wild and len(pile) > 1:
                return Notice("illegal.wild_take", color=color_noun(move.color))
        elif isinstance(move, Place):
            i = topo.parse_space(move.space)
            c = COLOR_INDEX[move.color]
            if b.space[i] >= 0:
                return Notice("illegal.space_taken", space=move.space)
            if not self._allowed_colors(b, i // 6) >> c & 1:
                star_name = "star." + topo.STAR_NAMES[i // 6]  # a key for every star (tests/engine/test_messages.py)
                return Notice("illegal.star_refuses", color=color_noun(move.color), star=i // 6, name=Notice(star_name))
            cost = self._printed[i]
            wild = topo.WILD_BY_ROUND[self.round - 1]
            if c == wild and move.wild:
                return Notice("illegal.wild_as_itself")
            if move.wild >= cost:
                return Notice("illegal.pay_one", color=color_adjective(move.color), cost=cost)
            if b.hand[c] < cost - move.wild:
                return Notice("illegal.space_costs", space=move.space, cost=cost, need=cost - move.wild,
                              color=color_noun(move.color), held=b.hand[c])
            if b.hand[wild] < move.wild:
                return Notice("illegal.wild_needed", n=move.wild, color=color_noun(COLORS[wild]), held=b.hand[wild])
        elif isinstance(move, Pass):
            if move.keep and self.round == ROUNDS:
                return Notice("illegal.keep_after_last_round")
            if move.keep is not None and len(move.keep) > 4:
                return Notice("illegal.keep_at_most_4")
            need = [0] * 6
            for name in move.keep or ():
                need[COLOR_INDEX[name]] += 1
            for c in range(6):
                if need[c] > b.hand[c]:
                    return Notice("illegal.keep_more_than_held", n=need[c], color=color_noun(COLORS[c]), held=b.hand[c])
        elif isinstance(move, Bonus):
            n = min(self._owed, sum(1 for c in self._supply if c >= 0))
            if len(move.colors) != n:
                return Notice("illegal.bonus_count", n=n, given=len(move.colors))
            need = [0] * 6
            for name in move.colors:
                need[COLOR_INDEX[name]] += 1
            for c in range(6):
                have = self._supply.count(c)
                if need[c] > have:
                    return Notice("illegal.supply_lacks", have=have, color=color_noun(COLORS[c]), n=need[c])
        if move not in self.legal_moves():
            return Notice("illegal.not_legal")
        return None

    def play_unchecked(self, move: PavilionMove) -> None:
        """Apply a move known to be legal (from :meth:`legal_moves`)."""
        kind = type(move)
        if kind is Place:
            self._place(topo.parse_space(move.space), COLOR_INDEX[move.color], move.wild)  # type: ignore[union-attr]
        elif kind is Take:
            src = move.source  # type: ignore[union-attr]
            self._take(_CENTER if src == CENTER else src, COLOR_INDEX[move.color])  # type: ignore[union-attr, arg-type]
        elif kind is Pass:
            self._pass(move.keep or ())  # type: ignore[union-attr]
        else:
            self._bonus(move.colors)  # type: ignore[union-attr]

    def _take(self, src: int, c: int) -> None:
        player = self._to_move
        b = self._boards[player]
        wild = topo.WILD_BY_ROUND[self.round - 1]
        log = self._log
        pile = self._center if src == _CENTER else self._factories[src]
        n = pile.pop(c)
        w = 0
        if c != wild and wild in pile:
            w = 1
            if pile[wild] == 1:
                del pile[wild]
            else:
                pile[wild] -= 1
        elif c == wild and n > 1:  # only wild tiles: exactly one is taken
            pile[c] = n - 1
            n = 1
        b.hand[c] += n
        b.hand[wild] += w
        self._on_table -= n + w
        if log is not None:
            where = _CENTRE_ZONE if src == _CENTER else f"factory.{src}"
            log.append(moved({COLORS[c]: n, COLORS[wild] if c != wild else "": w}, where, Zone.hand(player)))
        if src != _CENTER:
            if pile:
                self._to_center(pile, src)
        elif self._first_in_center:
            self._first_in_center = False
            self._first_holder = player
            loss = b.lose(n + w)
            if log is not None:
                log.append(moved({"first_player": 1}, _CENTRE_ZONE, Zone.hand(player)))
                log.append(Scored(player, -loss, "penalties", _CENTRE_ZONE,
                                  f"first from the centre: {n + w} tiles taken"))
        if self._on_table:
            self._to_move = (player + 1) % self.players
        else:
            self._begin_placing()

    def _begin_placing(self) -> None:
        self._phase = _PLACE
        if self._first_holder is not None:
            self._start_player = self._first_holder
        self._to_move = self._start_player
        for b in self._boards:
            b.passed = False

    def _place(self, i: int, c: int, w: int) -> None:
        player = self._to_move
        b = self._boards[player]
        wild = topo.WILD_BY_ROUND[self.round - 1]
        cost = self._printed[i]
        b.hand[c] -= cost - w
        b.hand[wild] -= w
        self._spare[c] += cost - w - 1
        self._spare[wild] += w
        star = i // 6
        b.space[i] = c
        b.star_colors[star] |= 1 << c
        b.star_count[star] += 1
        b.star_filled[star] |= 1 << (i - 6 * star)
        space = b.space
        points = _ring_points(space, i)
        b.score += points
        b.placement += points
        owed = 0
        completed = []
        for j in topo.STRUCTURES_OF[i]:
            kind, number, spaces, tiles = topo.STRUCTURES[j]
            if all(space[x] >= 0 for x in spaces):
                owed += tiles
                completed.append(f"{kind} {number}")
        log = self._log
        if log is not None:
            log.append(moved({COLORS[c]: 1}, Zone.hand(player), Zone.board(player, topo.SPACE_NAMES[i])))
            paid = {COLORS[c]: cost - w - 1}
            if w:
                paid[COLORS[wild]] = paid.get(COLORS[wild], 0) + w
            log.append(moved(paid, Zone.hand(player), "tower"))
            log.append(Scored(player, points, "placement", topo.SPACE_NAMES[i],
                              "no neighbour" if points == 1 else f"{points} connected tiles"))
        if owed:
            if log is not None:
                log.append(Scored(player, 0, "bonus", None, f"completed {', '.join(completed)}: {owed} tile(s) due"))
            if any(x >= 0 for x in self._supply):
                self._owed = owed
                self._phase = _BONUS
                return
            # An empty supply pays nothing (ruling 2), but is still refilled at the end of the turn.
            if self._refill_due():
                self._phase = _REFILL
                return
        self._next_placer()

    def _refill_due(self) -> bool:
        return -1 in self._supply and (any(self._bag) or any(self._spare))

    def _bonus(self, colors: tuple[str, ...]) -> None:
        player = self._to_move
        b = self._boards[player]
        supply = self._supply
        for name in colors:
            c = COLOR_INDEX[name]
            supply[supply.index(c)] = -1
            b.hand[c] += 1
        if self._log is not None:
            self._log.append(moved(_count_names(colors), "supply", Zone.hand(player)))
        self._owed = 0
        if self._refill_due():
            self._phase = _REFILL  # chance refills the supply at the end of the turn
            return
        self._phase = _PLACE
        self._next_placer()

    def _next_placer(self) -> None:
        n = self.players
        p = self._to_move
        boards = self._boards
        for step in range(1, n + 1):
            q = (p + step) % n
            if not boards[q].passed:
                self._to_move = q
                return
        self._end_round()  # pragma: no cover - a pass ends the round itself

    def _pass(self, keep: tuple[str, ...]) -> None:
        player = self._to_move
        b = self._boards[player]
        kept = [COLOR_INDEX[name] for name in keep]
        for c in kept:
            b.hand[c] -= 1
        discarded = sum(b.hand)
        log = self._log
        if log is not None:
            if kept:
                log.append(moved(_count_names(keep), Zone.hand(player), Zone.corners(player)))
            if discarded:
                log.append(moved({COLORS[c]: b.hand[c] for c in range(6)}, Zone.hand(player), "tower"))
        for c in range(6):
            self._spare[c] += b.hand[c]
            b.hand[c] = 0
        b.corners = kept
        loss = b.lose(discarded)
        if log is not None and discarded:
            log.append(Scored(player, -loss, "penalties", "pass", f"{discarded} tile(s) discarded"))
        b.passed = True
        if all(x.passed for x in self._boards):
            self._end_round()
        else:
            self._next_placer()

    def _end_round(self) -> None:
        log = self._log
        if self.round == ROUNDS:
            self._finish()
            return
        for p, b in enumerate(self._boards):
            for c in b.corners:
                b.hand[c] += 1
            if log is not None and b.corners:
                log.append(moved(_count_names([COLORS[c] for c in b.corners]), Zone.corners(p), Zone.hand(p)))
            b.corners = []
        self._next_round()

    def _finish(self) -> None:
        log = self._log
        printed = self._printed
        for p, b in enumerate(self._boards):
            stars = 0
            for star in range(topo.STARS):
                if b.star_count[star] == 6:
                    colors = b.star_colors[star]
                    value = topo.COLOR_STAR_VALUE[_BITS[colors][0]] if _POP[colors] == 1 and (
                        self.grey or star != topo.CENTRAL) else topo.MULTICOLOR_STAR_VALUE
                    stars += value
                    if log is not None:
                        log.append(Scored(p, value, "stars", f"star {star}", "complete"))
            numbers = 0
            for number, value in topo.NUMBER_BONUS.items():
                if all(b.space[i] >= 0 for i in range(topo.SPACES) if printed[i] == number):
                    numbers += value
                    if log is not None:
                        log.append(Scored(p, value, "numbers", None, f"every {number} covered"))
            b.stars = stars
            b.numbers = numbers
            b.score += stars + numbers
            if b.corners:  # not reached while round-6 passes keep nothing; kept for states built by hand
                loss = b.lose(len(b.corners))
                for c in b.corners:
                    self._spare[c] += 1
                b.corners = []
                if log is not None:
                    log.append(Scored(p, -loss, "penalties", "corners", "tiles left on the corners"))
        self._phase = _OVER
        self._end_reason = "rounds"

    # -- chance ------------------------------------------------------------------

    def sample_chance(self, rng: random.Random) -> Deal | Refill:
        """Draw the next chance outcome: a deal (setup: the supply too) or a supply refill."""
        if self._phase == _DEAL:
            supply_n = topo.SUPPLY_SPACES if self._setup else 0
            need = supply_n + 4 * len(self._factories)
            drawn = self._draw(rng, need)
            supply = tuple(COLORS[c] for c in drawn[:supply_n]) if supply_n else None
            rest = drawn[supply_n:]
            factories = tuple(tuple(COLORS[c] for c in rest[i:i + 4]) for i in range(0, 4 * len(self._factories), 4))
            return Deal(factories, supply)
        if self._phase == _REFILL:
            drawn = self._draw(rng, self._supply.count(-1))
            return Refill(tuple(COLORS[c] for c in drawn))
        raise IllegalMoveError("deal.no_chance_due_over" if self._phase == _OVER else "deal.no_chance_due")

    @property
    def _setup(self) -> bool:
        return self.round == 1 and self._phase == _DEAL and all(c < 0 for c in self._supply) and sum(self._bag) == 6 * TILES_PER_COLOR

    def apply_chance(self, event: Deal | Refill | dict[str, Any]) -> Outcome:
        """Apply a deal or refill, checked against bag and tower. Raises :class:`ImpossibleDealError`."""
        if isinstance(event, dict):  # a record's event: {"deal": {...}} or {"refill": {...}}, nothing else
            kinds = [k for k in ("deal", "refill") if k in event]
            if len(kinds) != 1:
                raise InvalidMoveError("deal.not_pavilion_event", value=show(event))
            other = sorted(str(k) for k in event if k != kinds[0])
            if other:
                raise InvalidMoveError("deal.unknown_event_key" if kinds[0] == "deal" else "refill.unknown_event_key", name=other[0])
            event = deal_from_json(event["deal"]) if kinds[0] == "deal" else refill_from_json(event["refill"])
        outcome = Outcome()
        if self._phase == _DEAL:
            if not isinstance(event, Deal):
                raise ImpossibleDealError("deal.due_not_refill")
            nf = len(self._factories)
            if len(event.factories) != nf:
                raise ImpossibleDealError("deal.factory_count", players=self.players, factories=nf, filled=len(event.factories))
            for i, f in enumerate(event.factories):
                if len(f) > 4:
                    raise ImpossibleDealError("deal.factory_overfull", factory=i, n=len(f))
            setup = self._setup
            if setup and (event.supply is None or len(event.supply) != topo.SUPPLY_SPACES):
                raise ImpossibleDealError("deal.setup_supply")
            if not setup and event.supply is not None:
                raise ImpossibleDealError("deal.supply_after_setup")
            tiles = [t for f in event.factories for t in f] + list(event.supply or ())
            counts = self._check_colors_drawn(tiles, topo.SUPPLY_SPACES * setup + 4 * nf, "deal")
            self._take_from_bag(counts)
            if event.supply is not None:
                self._supply = [COLOR_INDEX[c] for c in event.supply]
            for pile, names in zip(self._factories, event.factories):
                for c in sorted(COLOR_INDEX[n] for n in names):
                    pile[c] = pile.get(c, 0) + 1
            self._on_table = sum(len(f) for f in event.factories)
            self._phase = _ACQUIRE
            self._to_move = self._start_player
            outcome.events.append(moved(_count_names(tiles), "bag", "factories"))
            if not self._on_table:  # bag and tower empty: phase 1 has nothing to take
                self._begin_placing()
            return outcome
        if self._phase == _REFILL:
            if not isinstance(event, Refill):
                raise ImpossibleDealError("refill.due_not_deal")
            empty = [i for i, c in enumerate(self._supply) if c < 0]
            counts = self._check_colors_drawn(list(event.supply), len(empty), "refill")
            self._take_from_bag(counts)
            for i, name in zip(empty, event.supply):
                self._supply[i] = COLOR_INDEX[name]
            outcome.events.append(moved(_count_names(event.supply), "bag", "supply"))
            self._phase = _PLACE
            self._next_placer()
            return outcome
        if self._phase == _OVER:
            raise ImpossibleDealError("deal.no_chance_due_now_over")
        raise ImpossibleDealError("deal.no_chance_due_now_to_move", player=self._to_move)

    def _check_colors_drawn(self, tiles: list[str], wanted: int, what: str) -> list[int]:
        """The counts by colour of ``tiles`` that chance draws, checked as :meth:`_check_draw` does."""
        counts = [0] * 6
        for name in tiles:
            counts[COLOR_INDEX[name]] += 1
        self._check_draw(counts, wanted, what, "drawn")
        return counts

    def apply_chance_unchecked(self, event: Deal | Refill) -> None:
        """The same as :meth:`apply_chance`: its checks cost little next to a round's moves, so
        this name exists only for the shared interface with the Azul engine."""
        self.apply_chance(event)

    # -- scores ------------------------------------------------------------------

    def breakdown(self) -> list[dict[str, int]]:
        """Per player: the ``start`` 5 points, ``placement``, ``penalties`` (negative), end bonuses
        ``stars`` and ``numbers``; they add up to the score."""
        return [{"start": START_SCORE, "placement": b.placement, "penalties": b.penalties,
                 "stars": b.stars, "numbers": b.numbers} for b in self._boards]

    def _standing(self, board: Board) -> int:
        return board.score  # no tie-break: a tie on points shares the victory

    def immediate_points(self, move: PavilionMove) -> int:
        """Points a move scores now: a placement's points (a bonus counts each tile as 1),
        less the points a take or pass loses."""
        b = self._boards[self._to_move]
        if isinstance(move, Place):
            i = topo.parse_space(move.space)
            space = b.space[:]
            space[i] = COLOR_INDEX[move.color]
            return _ring_points(space, i)
        if isinstance(move, Take):
            if move.source == CENTER and self._first_in_center:
                n = self._center.get(COLOR_INDEX[move.color], 0)
                wild = topo.WILD_BY_ROUND[self.round - 1]
                if COLOR_INDEX[move.color] == wild:
                    n = 1
                elif wild in self._center:
                    n += 1
                return -min(n, max(0, b.score - MIN_SCORE))
            return 0
        if isinstance(move, Pass):
            return -min(sum(b.hand) - len(move.keep or ()), max(0, b.score - MIN_SCORE))
        return len(move.colors)

    def greedy_move(self) -> PavilionMove:
        """As :meth:`GameState.greedy_move`, without building every move: a take scores 0 but
        from the centre while the start token lies there; a placement scores by its space
        alone (at least 1, more than any pass), so the first space with the most wins."""
        phase = self._phase
        if phase == _ACQUIRE and (not self._first_in_center or any(self._factories)):
            return self.legal_moves()[0]  # a take scoring 0, first in legal order: none scores more
        if phase != _PLACE:
            return super().greedy_move()
        space = self._boards[self._to_move].space
        best_points = 0
        best = None
        for _count, build, arg in self._placements()._groups:
            if build is not _place:
                continue
            base, c, entries = arg
            for k, first_wild, _n in entries:
                i = base + k
                space[i] = c
                points = _ring_points(space, i)
                space[i] = -1
                if points > best_points:
                    best_points, best = points, (i, c, first_wild)
        if best is None:
            return super().greedy_move()  # only passes
        i, c, first_wild = best
        return Place(topo.SPACE_NAMES[i], COLORS[c], first_wild)

    # -- inspection --------------------------------------------------------------

    def factories(self) -> list[dict[str, int]]:
        """The tiles on each factory display, by colour."""
        return [{COLORS[c]: n for c, n in sorted(f.items()) if n} for f in self._factories]

    def center(self) -> dict[str, int]:
        """The tiles in the centre by colour, and ``first_player`` while the start-player token lies there."""
        out = {COLORS[c]: n for c, n in sorted(self._center.items()) if n}
        if self._first_in_center:
            out["first_player"] = 1
        return out

    def supply(self) -> list[str | None]:
        return [COLORS[c] if c >= 0 else None for c in self._supply]

    def _count_other_tiles(self, counts: list[int]) -> None:
        for c in self._supply:
            if c >= 0:
                counts[c] += 1
        for b in self._boards:
            for c in range(6):
                counts[c] += b.hand[c]
            for c in b.corners:
                counts[c] += 1
            for c in b.space:
                if c >= 0:
                    counts[c] += 1

    # -- values ------------------------------------------------------------------

    def _supply_json(self) -> dict[str, Any]:
        return {"supply": self.supply()}

    def _progress_json(self) -> dict[str, Any]:
        return {"owed": self._owed, "end_reason": self._end_reason}

    def _board_json(self, b: Board) -> dict[str, Any]:
        return {
            "stars": b.stars, "numbers": b.numbers, "passed": b.passed,
            "spaces": {topo.SPACE_NAMES[i]: COLORS[c] for i, c in enumerate(b.space) if c >= 0},
            "hand": pile_to_json(b.hand, COLORS),
            "corners": [COLORS[c] for c in b.corners],
        }

    @classmethod
    def _new_from_json(cls, data: dict[str, Any]) -> "PavilionState":
        players = whole(data["players"], "players", 2, 4)
        return cls.new(players, data["options"]["side"], whole(data["start_player"], "start_player", 0, players - 1))

    def _read_supply_json(self, data: dict[str, Any]) -> None:
        self._supply = [COLOR_INDEX[c] if c is not None else -1 for c in data["supply"]]
        if len(self._supply) != topo.SUPPLY_SPACES or len(data["factories"]) != len(self._factories):
            raise StateError("state.supply_or_factory_count")

    def _read_progress_json(self, data: dict[str, Any]) -> None:
        self._owed = whole(data.get("owed", 0), "owed", 0, 200)
        self._end_reason = data.get("end_reason")

    def _read_board_json(self, b: Board, bd: dict[str, Any], where: str) -> None:
        b.stars = whole(bd.get("stars", 0), f"{where}.stars", 0, MOST_POINTS)
        b.numbers = whole(bd.get("numbers", 0), f"{where}.numbers", 0, MOST_POINTS)
        if not isinstance(bd.get("passed", False), bool):
            raise StateError("state.not_bool", field=f"{where}.passed", value=f"{bd['passed']!r:.40}")
        b.passed = bd.get("passed", False)
        for name, color in bd["spaces"].items():
            i = topo.parse_space(name)
            c = COLOR_INDEX[color]
            b.space[i] = c
            b.star_colors[i // 6] |= 1 << c
            b.star_count[i // 6] += 1
            b.star_filled[i // 6] |= 1 << (i % 6)
        b.hand = pile_from_json(bd["hand"], COLOR_INDEX, f"{where}.hand")
        b.corners = [COLOR_INDEX[c] for c in bd["corners"]]

    def _key(self) -> tuple[Any, ...]:
        return (
            self.players, self.grey, self.round, self._phase, self._to_move, self._start_player,
            self._first_in_center, self._first_holder, tuple(self._bag), tuple(self._spare), tuple(self._supply),
            tuple(tuple(sorted(f.items())) for f in self._factories), tuple(sorted(self._center.items())),
            self._owed, self._end_reason, self._pooled,
            tuple((tuple(b.space), tuple(b.hand), tuple(b.corners), b.score, b.placement, b.penalties,
                   b.stars, b.numbers, b.passed) for b in self._boards),
        )


def _ring_points(space: list[int], i: int) -> int:
    """Points for the tile just placed on space ``i``: 1 plus the unbroken runs of placed tiles
    touching it on its star's ring (the whole ring, 6, when the star is complete)."""
    base = i - i % 6
    k = i - base
    points = 1
    j = (k + 1) % 6
    while j != k and space[base + j] >= 0:
        points += 1
        j = (j + 1) % 6
    if j == k:
        return 6
    j = (k - 1) % 6
    while space[base + j] >= 0:
        points += 1
        j = (j - 1) % 6
    return points


def _take_colors(pile: dict[int, int], wild: int) -> list[int]:
    """Colours a take may name from ``pile``: every non-wild colour, or the wild one when alone."""
    colors = sorted(c for c in pile if c != wild)
    return colors if colors else ([wild] if wild in pile else [])


def _build_take(arg: tuple[int | str, list[int]], k: int) -> Take:
    return Take(arg[0], COLORS[arg[1][k]])


#: Cost of each space of each star, per side (False: coloured, True: grey).
_STAR_COSTS = {grey: tuple(topo.PRINTED[side][6 * star:6 * star + 6] for star in range(topo.STARS))
               for grey, side in ((False, "colored"), (True, "grey"))}
_STAR_OPTIONS: dict[tuple[Any, ...], tuple[int, tuple[tuple[int, int, int], ...]]] = {}


def _star_options(costs: tuple[int, ...], filled: int, have: int, have_wild: int
                  ) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """Ways to place one tile of a colour on a star: ``(count, ((k, first_wild, n), ...))``,
    for ``have`` tiles of the colour and ``have_wild`` wild tiles (``-1``: the colour is the wild
    one, placed as itself and paid entirely in its colour)."""
    entries = []
    for k in range(6):
        if filled >> k & 1:
            continue
        cost = costs[k]
        if have_wild < 0:
            if have >= cost:
                entries.append((k, 0, 1))
            continue
        lo = cost - have if cost > have else 0  # at least one tile of the colour itself
        hi = cost - 1 if cost - 1 < have_wild else have_wild
        if lo <= hi:
            entries.append((k, lo, hi - lo + 1))
    return sum(e[2] for e in entries), tuple(entries)


def _place(arg: tuple[int, int, tuple[tuple[int, int, int], ...]], index: int) -> Place:
    base, c, entries = arg
    for k, first_wild, n in entries:
        if index < n:
            return Place(topo.SPACE_NAMES[base + k], COLORS[c], first_wild + index)
        index -= n
    raise IndexError(index)  # pragma: no cover


def _pass(keeps: tuple[tuple[str, ...], ...], k: int) -> Pass:
    return Pass(keeps[k])


def _count_names(names: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for name in names:
        out[name] = out.get(name, 0) + 1
    return out
