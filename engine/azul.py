"""Azul (2017): the coloured wall, the grey-wall variant and the joker-tiles variant.

The state is a plain value (``copy()``, ``==``, ``to_json()`` / ``from_json()``). Chance is
explicit: at the start of each round ``current_player`` is :data:`CHANCE` and a
:class:`Deal` must be applied, drawn by :meth:`AzulState.sample_chance` from a seeded RNG
or supplied by the caller (what a camera saw), in which case it is checked against the
bag and the lid.

Internally tiles are small integers (``0..4`` the colours in wall order, ``5`` joker,
``6`` the first-player marker); piles are ``{tile: count}`` dicts and wall rows are
bitmasks, because random play and search run through this code millions of times.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator, NamedTuple, Sequence, Union

from .common import (CENTER, CHANCE, DEAL_PHASE, MOST_POINTS, MOST_ROUNDS, TERMINAL, GameState, LegalMoves, Outcome, Scored,
                     check_keys, check_object, check_source, color_noun, count_word, is_int, moved, parse_words, whole)
from .errors import IllegalMoveError, ImpossibleDealError, InvalidMoveError, show
from .notice import Notice
from .zones import Slot, Zone

COLORS: tuple[str, ...] = ("blue", "yellow", "red", "black", "white")
JOKER = 5
MARKER = 6
TILE_NAMES: tuple[str, ...] = COLORS + ("joker", "first_player")
TILE_INDEX: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}
COLOR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLORS)}

FACTORIES_FOR_PLAYERS = {2: 5, 3: 7, 4: 9}
#: Tiles of each colour in the box (the joker variant swaps some of them for jokers).
TILES_PER_COLOR = 20
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
FLOOR_SIZE = len(FLOOR_PENALTIES)
_FLOOR_LOSS = tuple(sum(FLOOR_PENALTIES[:k]) for k in range(FLOOR_SIZE + 1))
ROW_BONUS, COLUMN_BONUS, COLOR_BONUS = 2, 7, 10
#: A board's slots, each made once: pattern line ``r``'s spaces from the right
#: (``LINE_SLOTS[r][i]``), the wall's (``WALL_SLOTS[r][c]``) and the floor line's.
LINE_SLOTS: tuple[tuple[Slot, ...], ...] = tuple(tuple(Slot.line(r, i) for i in range(r + 1)) for r in range(5))
WALL_SLOTS: tuple[tuple[Slot, ...], ...] = tuple(tuple(Slot.wall(r, c) for c in range(5)) for r in range(5))
FLOOR_SLOTS: tuple[Slot, ...] = tuple(Slot.floor(i) for i in range(FLOOR_SIZE))
#: The last cell of a board's score track (its cells run 0..100).
SCORE_TRACK_TOP = 100

FLOOR = "floor"
_CENTER = -1  # internal source index of the centre
_CENTRE_ZONE = Zone.centre()  # the centre as the moves' logs name it (a take's source says CENTER)
_FLOOR = 5  # internal line index of the floor
_FULL_ROW = 0b11111

# Phases.
_DEAL, _OFFER, _TILING, _OVER = DEAL_PHASE, 1, 2, 3
_PHASE_NAMES = ("deal", "offer", "tiling", "over")


def wall_column(color: int, row: int) -> int:
    """Column of ``color`` in ``row`` on the coloured wall (row 0 reads blue, yellow, red, black, white)."""
    return (color + row) % 5


def wall_color(row: int, column: int) -> int:
    """Colour printed at ``(row, column)`` on the coloured wall."""
    return (column - row) % 5


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(5) if mask >> i & 1)


# Precomputed tables over 5-bit masks.
_BITS = tuple(_bits(m) for m in range(32))
_FREE_COLORS = tuple(tuple(c for c in range(5) if not m >> c & 1) for m in range(32))
#: Lines a take may target, for a mask of accepting lines: those lines, then the floor.
_TARGETS = tuple(tuple(_BITS[m]) + (FLOOR,) for m in range(32))


def _run(mask: int, i: int) -> int:
    """Length of the unbroken run of set bits of ``mask`` through bit ``i`` (0 if unset)."""
    if not mask >> i & 1:
        return 0
    lo = i
    while lo > 0 and mask >> (lo - 1) & 1:
        lo -= 1
    hi = i
    while hi < 4 and mask >> (hi + 1) & 1:
        hi += 1
    return hi - lo + 1


_RUN = tuple(tuple(_run(m, i) for i in range(5)) for m in range(32))


# --------------------------------------------------------------------------- moves


class MoveEffect(NamedTuple):
    """What a legal move does at once (:meth:`AzulState.effect`): the wall points it brings at the
    coming tiling (a line it completes, or a wall move's space), the tiles on its pattern line
    after it (None for a move to the floor or a wall move), the tiles it sends to the floor line
    and the penalty they add (0 or less)."""

    placement: int
    on_line: int | None
    floor: int
    penalty: int


@dataclass(frozen=True, slots=True)
class Take:
    """Take tiles from a factory (``source`` 0..) or the centre and put them on a line.

    ``line`` is 0..4 or ``"floor"``. Joker variant: ``jokers`` also takes the source's jokers
    (``color=None`` takes only them); ``floor_jokers`` sends that many of the jokers to the floor
    so that more colour tiles stay on the line.
    """

    source: int | str
    color: str | None
    line: int | str
    jokers: bool = False
    floor_jokers: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": "take", "source": self.source, "color": self.color, "line": self.line}
        if self.jokers:
            out["jokers"] = True
        if self.floor_jokers:
            out["floor_jokers"] = self.floor_jokers
        return out

    def __str__(self) -> str:
        what = "+".join(x for x in (self.color, "joker" if self.jokers else None) if x)
        text = f"take {self.source} {what} {self.line}"
        return text + (f" floor_jokers={self.floor_jokers}" if self.floor_jokers else "")


@dataclass(frozen=True, slots=True)
class WallMove:
    """Grey wall (or an all-joker line): put the complete line ``row`` on ``column`` (or ``"floor"``)."""

    row: int
    column: int | str

    def to_json(self) -> dict[str, Any]:
        return {"action": "wall", "row": self.row, "column": self.column}

    def __str__(self) -> str:
        return f"wall {self.row} {self.column}"


AzulMove = Union[Take, WallMove]


def move_from_json(data: Any) -> AzulMove:
    """Parse an Azul move from its JSON object (docs/formats/moves.md). Raises :class:`InvalidMoveError`."""
    check_object(data, "move")
    action = data.get("action")
    if action == "take":
        check_keys(data, ("action", "source", "color", "line", "jokers", "floor_jokers"), ("source", "line"))
        source, color, line = data["source"], data.get("color"), data["line"]
        jokers, floor_jokers = data.get("jokers", False), data.get("floor_jokers", 0)
        check_source(source)
        if color is not None and not (isinstance(color, str) and color in COLOR_INDEX):
            raise InvalidMoveError("move.unknown_azul_color", value=show(color), colors=", ".join(COLORS))
        if not (line == FLOOR or (is_int(line) and 0 <= line <= 4)):
            raise InvalidMoveError("move.bad_line", value=show(line))
        if not isinstance(jokers, bool):
            raise InvalidMoveError("move.bad_jokers", value=show(jokers))
        if not (is_int(floor_jokers) and floor_jokers >= 0):
            raise InvalidMoveError("move.bad_floor_jokers", value=show(floor_jokers))
        if color is None and not jokers:
            raise InvalidMoveError("move.take_needs_color")
        return Take(source, color, line, jokers, floor_jokers)
    if action == "wall":
        check_keys(data, ("action", "row", "column"), ("row", "column"))
        row, column = data["row"], data["column"]
        if not (is_int(row) and 0 <= row <= 4):
            raise InvalidMoveError("move.bad_row", value=show(row))
        if not (column == FLOOR or (is_int(column) and 0 <= column <= 4)):
            raise InvalidMoveError("move.bad_column", value=show(column))
        return WallMove(row, column)
    raise InvalidMoveError("move.unknown_azul_action", value=show(action))


def parse_move(text: str) -> AzulMove:
    """Parse the text form of a move (``str(move)``): ``take 2 blue 3``, ``take center red floor``,
    ``take 1 blue+joker 2 floor_jokers=1``, ``take 0 joker 4``, ``wall 2 4``. Raises :class:`InvalidMoveError`."""
    return parse_words(text, _move_of_words, "'take 2 blue 3', 'take center red floor', 'wall 2 4'")


def _move_of_words(words: list[str]) -> AzulMove | None:
    """The move the words of a move's text say; ``None`` or ValueError when they say none."""
    if words and words[0] == "take" and len(words) in (4, 5):
        source: int | str = words[1] if words[1] == CENTER else int(words[1])
        parts = words[2].split("+")
        jokers = "joker" in parts
        colors = [p for p in parts if p != "joker"]
        if len(colors) > 1 or len(parts) != len(set(parts)):
            raise ValueError
        line: int | str = words[3] if words[3] == FLOOR else int(words[3])
        floor_jokers = count_word(words, 4, "floor_jokers")
        data = {"action": "take", "source": source, "color": colors[0] if colors else None, "line": line}
        if jokers:
            data["jokers"] = True
        if floor_jokers:
            data["floor_jokers"] = floor_jokers
        return move_from_json(data)
    if words and words[0] == "wall" and len(words) == 3:
        column: int | str = words[2] if words[2] == FLOOR else int(words[2])
        return move_from_json({"action": "wall", "row": int(words[1]), "column": column})
    return None


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the tiles dealt onto each factory display at the start of a round."""

    factories: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"deal": {"factories": [list(f) for f in self.factories]}}


def deal_from_json(data: Any) -> Deal:
    """Parse ``{"factories": [[...], ...]}`` (the value of a record's ``deal`` key)."""
    check_object(data, "deal")
    check_keys(data, ("factories",), ("factories",), "deal")
    factories = data["factories"]
    if not isinstance(factories, list):
        raise InvalidMoveError("deal.factories_not_tile_lists", value=show(factories))
    for i, f in enumerate(factories):
        if not isinstance(f, list):
            raise InvalidMoveError("deal.factory_not_tile_list", factory=i, value=show(f))
        for name in f:
            if not (isinstance(name, str) and (name in COLOR_INDEX or name == "joker")):
                raise InvalidMoveError("deal.unknown_tile", value=show(name), factory=i)
    return Deal(tuple(tuple(f) for f in factories))


# --------------------------------------------------------------------------- state


class Board:
    """One player's board: pattern lines, wall, floor line and score."""

    __slots__ = (
        "line_color", "line_count", "line_jokers", "wall", "row_filled", "row_block",
        "col_colors", "floor", "score", "placement", "penalties", "bonus", "accept",
    )

    def __init__(self) -> None:
        self.line_color = [-1] * 5  # colour of each pattern line, -1 for none
        self.line_count = [0] * 5  # colour tiles on each line
        self.line_jokers = [0] * 5  # joker tiles on each line
        self.wall = [-1] * 25  # tile on wall cell r * 5 + c, -1 for empty
        self.row_filled = [0] * 5  # bitmask of filled columns per row
        self.row_block = [0] * 5  # bitmask of colours a pattern line r may no longer take
        self.col_colors = [0] * 5  # bitmask of colours in each column (grey-wall rule)
        self.floor: list[int] = []
        self.score = 0
        self.placement = 0
        self.penalties = 0
        self.bonus = [0, 0, 0]  # rows, columns, colours (end of game)
        self.accept = [0b11111] * 5  # per colour: bitmask of lines that accept it

    def copy(self) -> "Board":
        b = Board.__new__(Board)
        b.line_color = self.line_color[:]
        b.line_count = self.line_count[:]
        b.line_jokers = self.line_jokers[:]
        b.wall = self.wall[:]
        b.row_filled = self.row_filled[:]
        b.row_block = self.row_block[:]
        b.col_colors = self.col_colors[:]
        b.floor = self.floor[:]
        b.score = self.score
        b.placement = self.placement
        b.penalties = self.penalties
        b.bonus = self.bonus[:]
        b.accept = self.accept[:]
        return b

    def refresh_accept(self) -> None:
        acc = [0, 0, 0, 0, 0]
        lc, ln, lj, rb = self.line_color, self.line_count, self.line_jokers, self.row_block
        for r in range(5):
            if ln[r] + lj[r] > r:
                continue
            c = lc[r]
            if c >= 0:
                acc[c] |= 1 << r
            else:
                for c in _FREE_COLORS[rb[r]]:
                    acc[c] |= 1 << r
        self.accept = acc

    def joker_lines(self) -> int:
        """Bitmask of lines that accept jokers alone: not full, and some wall space of the row free."""
        mask = 0
        for r in range(5):
            n = self.line_count[r] + self.line_jokers[r]
            if n <= r and (n or self.row_filled[r] != _FULL_ROW):
                mask |= 1 << r
        return mask

    def complete_rows(self) -> int:
        return sum(1 for m in self.row_filled if m == _FULL_ROW)


class AzulState(GameState):
    """A position of Azul: whose turn it is, every tile's place, the scores.

    Build one with :meth:`new`, then alternate :meth:`apply_chance` (when ``current_player``
    is :data:`CHANCE`) and :meth:`play`. ``play_unchecked`` is the fast path for moves taken
    from :meth:`legal_moves`. The ``phase`` is ``deal``, ``offer`` (factory offer), ``tiling``
    (a wall choice is due) or ``over``; the ``end_reason`` ``row`` (a complete wall row), or
    ``stalled`` (no row can ever be completed any more, or no tile is left to deal: see the
    engine's rulings).
    """

    game = "azul"
    #: The breakdown keys that are end-of-game bonuses.
    END_BONUS_KEYS = ("rows", "columns", "colors")
    _PHASE_NAMES = _PHASE_NAMES
    _TILE_NAMES, _TILE_INDEX = TILE_NAMES, TILE_INDEX
    # The first-player tile is the marker; the spare tiles lie in the box lid.
    _FIRST_KEY, _SPARE_KEY = "marker", "lid"
    _MOST_ROUNDS, _LEAST_SCORE = MOST_ROUNDS, 0
    _BOARD = Board

    __slots__ = ("jokers", "_tiling_at", "_last_round_end")

    def __init__(self) -> None:  # use AzulState.new()
        raise TypeError("use AzulState.new(players, ...) or AzulState.from_json(...)")

    # -- construction --------------------------------------------------------

    @classmethod
    def new(cls, players: int = 2, wall: str = "colored", jokers: bool = False, start_player: int = 0) -> "AzulState":
        """The position before the first deal. Raises :class:`StateError` for an impossible setup."""
        s = cls._set_up(players, wall, start_player)
        s.jokers = bool(jokers)
        per_color = TILES_PER_COLOR
        if s.jokers:
            per_color -= 1 if players == 2 else 2
        s._bag = [per_color] * 5 + [(TILES_PER_COLOR - per_color) * 5 if s.jokers else 0]
        s._tiling_at = (0, 0)
        s._last_round_end = None
        return s

    def _copy_into(self, s: "AzulState") -> None:
        s.jokers = self.jokers
        s._tiling_at = self._tiling_at
        s._last_round_end = self._last_round_end

    @property
    def options(self) -> dict[str, Any]:
        return {"wall": "grey" if self.grey else "colored", "jokers": self.jokers}

    @property
    def current_player(self) -> int:
        phase = self._phase
        if phase == _OFFER or phase == _TILING:
            return self._to_move
        return CHANCE if phase == _DEAL else TERMINAL

    def is_over(self) -> bool:
        return self._phase == _OVER

    # -- legal moves -----------------------------------------------------------

    def legal_moves(self) -> LegalMoves[AzulMove]:
        """Every legal move of the player to move, each once, in a fixed order: factories
        in order then the centre; colours in wall order; lines 0..4 then the floor."""
        phase = self._phase
        if phase == _OFFER:
            if self.jokers:
                return self._joker_takes()
            acc = self._boards[self._to_move].accept
            groups = []
            total = 0
            for pile, takes in zip(self._factories, _FACTORY_TAKES):
                for c in pile:
                    group = takes[c][acc[c]]
                    groups.append(group)
                    total += len(group)
            center = self._center
            if center:
                for c in sorted(center):
                    group = _CENTER_TAKES[c][acc[c]]
                    groups.append(group)
                    total += len(group)
            return _Takes(groups, total)
        if phase == _TILING:
            p, r = self._tiling_at
            cols = self._wall_columns(self._boards[p], r)
            return LegalMoves.of([WallMove(r, c) for c in cols] if cols else [WallMove(r, FLOOR)])
        return LegalMoves([], 0)

    def _joker_takes(self) -> LegalMoves[AzulMove]:
        b = self._boards[self._to_move]
        acc = b.accept
        joker_lines = b.joker_lines()
        moves: list[AzulMove] = []
        sources = [(i, pile) for i, pile in enumerate(self._factories)]
        sources.append((CENTER, {c: self._center[c] for c in sorted(self._center)}))
        for source, pile in sources:
            j = pile.get(JOKER, 0)
            options = []
            for c, n in pile.items():
                if c != JOKER:
                    options.append((c, n, 0))
                    if j:
                        options.append((c, n, j))
            if j:
                options.append((-1, 0, j))
            for c, n, jj in options:
                color = COLORS[c] if c >= 0 else None
                lines = acc[c] if c >= 0 else joker_lines
                for r in _BITS[lines]:
                    free = r + 1 - b.line_count[r] - b.line_jokers[r]
                    for k in _floor_joker_choices(n, jj, free):
                        moves.append(Take(source, color, r, jj > 0, k))
                moves.append(Take(source, color, FLOOR, jj > 0, 0))
        return LegalMoves.of(moves)

    def _wall_columns(self, b: Board, r: int) -> list[int]:
        """Columns where the complete line ``r`` may go (grey wall, or an all-joker line)."""
        c = b.line_color[r]
        filled = b.row_filled[r]
        if not self.grey:
            # Only an all-joker line asks: any free space of the row.
            return [col for col in range(5) if not filled >> col & 1]
        if c < 0:  # all jokers: a joker blocks nothing but its space
            return [col for col in range(5) if not filled >> col & 1]
        bit = 1 << c
        return [col for col in range(5) if not filled >> col & 1 and not b.col_colors[col] & bit]

    # -- playing ----------------------------------------------------------------

    def _read_move(self, move: AzulMove | dict[str, Any] | str) -> AzulMove:
        if isinstance(move, dict):
            return move_from_json(move)
        if isinstance(move, str):
            return parse_move(move)
        if not isinstance(move, (Take, WallMove)):
            raise InvalidMoveError("move.not_azul", value=show(move))
        return move

    def _illegal_reason(self, move: AzulMove) -> Notice | None:
        phase = self._phase
        if phase == _OVER:
            return Notice("illegal.game_over")
        if phase == _DEAL:
            return Notice("illegal.deal_first")
        if isinstance(move, WallMove):
            if phase != _TILING:
                return Notice("illegal.wall_out_of_tiling")
            p, r = self._tiling_at
            if move.row != r:
                return Notice("illegal.wall_other_line", line=r, row=move.row)
            b = self._boards[p]
            cols = self._wall_columns(b, r)
            if move.column == FLOOR:
                if cols:
                    return Notice("illegal.wall_fits", line=r, columns=", ".join(map(str, cols)))
            elif b.row_filled[r] >> move.column & 1:  # type: ignore[operator]
                return Notice("illegal.wall_space_taken", row=r, column=move.column)
            elif move.column not in cols:
                return Notice("illegal.wall_column_has", column=move.column, color=color_noun(COLORS[b.line_color[r]]))
        else:
            if phase != _OFFER:
                p, r = self._tiling_at
                return Notice("illegal.tiling_under_way", player=p, line=r)
            pile = self._take_source(move.source)
            if pile is None:
                return self._no_source()
            if move.color is not None and not pile.get(COLOR_INDEX[move.color]):
                return self._lacks(move.source, move.color)
            if move.jokers and not self.jokers:
                return Notice("illegal.no_jokers_in_play")
            if move.jokers and not pile.get(JOKER):
                return self._lacks(move.source)
            b = self._boards[self._to_move]
            if move.line != FLOOR and move.color is not None:
                r = move.line
                c = COLOR_INDEX[move.color]
                assert isinstance(r, int)
                if b.line_count[r] + b.line_jokers[r] > r:
                    return Notice("illegal.line_full", line=r)
                if b.line_color[r] >= 0 and b.line_color[r] != c:
                    return Notice("illegal.line_holds", line=r, color=color_noun(COLORS[b.line_color[r]]))
                if b.row_block[r] >> c & 1:
                    return Notice("illegal.wall_row_has", row=r, color=color_noun(move.color))
        if move not in self.legal_moves():
            return Notice("illegal.not_legal")
        return None

    def play_unchecked(self, move: AzulMove) -> None:
        """Apply a move known to be legal (taken from :meth:`legal_moves`): no checks."""
        if type(move) is Take:
            src = move.source
            color = move.color
            self._take(
                _CENTER if src == CENTER else src,  # type: ignore[arg-type]
                COLOR_INDEX[color] if color is not None else -1,
                _FLOOR if move.line == FLOOR else move.line,  # type: ignore[arg-type]
                move.jokers,
                move.floor_jokers,
            )
        else:
            p, r = self._tiling_at
            self._tile_line(p, self._boards[p], r, -1 if move.column == FLOOR else move.column)  # type: ignore[arg-type]
            self._tiling_at = (p, r + 1)
            self._advance_tiling()

    def _take(self, src: int, c: int, line: int, take_jokers: bool, floor_jokers: int) -> None:
        player = self._to_move
        b = self._boards[player]
        log = self._log
        marker = False
        if src == _CENTER:
            pile = self._center
            n = pile.pop(c) if c >= 0 else 0
            j = pile.pop(JOKER) if take_jokers else 0
            if self._first_in_center:
                self._first_in_center = False
                self._first_holder = player
                marker = True
        else:
            pile = self._factories[src]
            n = pile.pop(c) if c >= 0 else 0
            j = pile.pop(JOKER) if take_jokers else 0
            if pile:
                self._to_center(pile, src)
        self._on_table -= n + j
        floor = b.floor
        if marker:
            if len(floor) < FLOOR_SIZE:
                floor.append(MARKER)
            if log is not None:
                log.append(moved({"first_player": 1}, _CENTRE_ZONE, Zone.floor(player)))
        if line == _FLOOR:
            to_line_c = to_line_j = 0
        else:
            free = line + 1 - b.line_count[line] - b.line_jokers[line]
            to_line_j = (j if j < free else free) - floor_jokers
            to_line_c = n if n < free - to_line_j else free - to_line_j
            if to_line_c:
                b.line_color[line] = c
                b.line_count[line] += to_line_c
            b.line_jokers[line] += to_line_j
        n -= to_line_c
        j -= to_line_j
        if log is not None:
            where = _CENTRE_ZONE if src == _CENTER else f"factory.{src}"
            if to_line_c or to_line_j:
                log.append(moved({COLORS[c] if c >= 0 else "": to_line_c, "joker": to_line_j}, where, Zone.line(player, line)))
            if n or j:
                log.append(moved({COLORS[c] if c >= 0 else "": n, "joker": j}, where, Zone.floor(player)))
        if j:
            self._to_floor(floor, JOKER, j)
        if n:
            self._to_floor(floor, c, n)
        if to_line_c or to_line_j:
            # Only line ``line`` changed: it now takes its colour alone, or nothing once full.
            acc = b.accept
            bit = 1 << line
            keep = acc[c] & bit if c >= 0 and b.line_count[line] + b.line_jokers[line] <= line else 0
            nb = ~bit
            acc[0] &= nb
            acc[1] &= nb
            acc[2] &= nb
            acc[3] &= nb
            acc[4] &= nb
            if keep:
                acc[c] |= keep
            elif c < 0 and b.line_color[line] >= 0 and b.line_count[line] + b.line_jokers[line] <= line:
                acc[b.line_color[line]] |= bit
            elif c < 0 and b.line_color[line] < 0 and b.line_jokers[line] <= line:
                for x in _FREE_COLORS[b.row_block[line]]:
                    acc[x] |= bit
        if self._on_table:
            self._to_move = (player + 1) % self.players
        else:
            self._tiling_at = (0, 0)
            self._advance_tiling()

    def _to_floor(self, floor: list[int], tile: int, count: int) -> None:
        room = FLOOR_SIZE - len(floor)
        k = count if count < room else room
        if k > 0:
            floor.extend([tile] * k)
        else:
            k = 0
        if count > k:
            self._spare[tile] += count - k

    # -- wall tiling -----------------------------------------------------------

    def _advance_tiling(self) -> None:
        """Tile complete lines from the cursor on, stopping where a player must choose."""
        p, r = self._tiling_at
        boards = self._boards
        grey = self.grey
        while p < self.players:
            b = boards[p]
            while r < 5:
                if b.line_count[r] + b.line_jokers[r] > r:
                    c = b.line_color[r]
                    if grey or c < 0:
                        self._tiling_at = (p, r)
                        self._to_move = p
                        self._phase = _TILING
                        return
                    self._tile_line(p, b, r, (c + r) % 5)
                r += 1
            self._score_floor(p, b)
            p += 1
            r = 0
        self._end_round()

    def _tile_line(self, p: int, b: Board, r: int, col: int) -> None:
        """Move complete line ``r`` to wall column ``col`` (``-1``: to the floor) and score it."""
        c = b.line_color[r]
        n = b.line_count[r]
        j = b.line_jokers[r]
        lid = self._spare
        log = self._log
        b.line_color[r] = -1
        b.line_count[r] = 0
        b.line_jokers[r] = 0
        if col < 0:
            if log is not None:
                log.append(moved({COLORS[c] if c >= 0 else "": n, "joker": j}, Zone.line(p, r), Zone.floor(p)))
            if j:
                self._to_floor(b.floor, JOKER, j)
            if n:
                self._to_floor(b.floor, c, n)
            b.refresh_accept()
            return
        if j:
            tile = JOKER
            lid[JOKER] += j - 1
            if n:
                lid[c] += n
        else:
            tile = c
            lid[c] += n - 1
        b.wall[r * 5 + col] = tile
        filled = b.row_filled[r] | 1 << col
        b.row_filled[r] = filled
        if self.grey:
            if tile != JOKER:
                b.row_block[r] |= 1 << c
                b.col_colors[col] |= 1 << c
        else:
            b.row_block[r] |= 1 << ((col - r) % 5)
        h, v = _runs(b.row_filled, r, col)
        points = 1 if h == 1 and v == 1 else (h if h > 1 else 0) + (v if v > 1 else 0)
        b.score += points
        b.placement += points
        b.refresh_accept()
        if log is not None:
            log.append(moved({TILE_NAMES[tile]: 1}, Zone.line(p, r), Zone.board(p, Slot.wall(r, col))))
            if n + j > 1:
                log.append(moved({COLORS[c] if c >= 0 else "": n - (0 if j else 1), "joker": j - (1 if j else 0)}, Zone.line(p, r), "lid"))
            detail = "no neighbour" if points == 1 and h == 1 else f"horizontal {h if h > 1 else 0} + vertical {v if v > 1 else 0}"
            log.append(Scored(p, points, "placement", Slot.wall(r, col), detail))

    def _score_floor(self, p: int, b: Board) -> None:
        floor = b.floor
        if not floor:
            return
        loss = _FLOOR_LOSS[len(floor)]
        if loss > b.score:
            loss = b.score  # a score never drops below 0
        b.score -= loss
        b.penalties -= loss
        lid = self._spare
        for t in floor:
            if t != MARKER:
                lid[t] += 1
        if self._log is not None:
            self._log.append(Scored(p, -loss, "penalties", "floor", f"{len(floor)} on the floor line"))
            tiles: dict[str, int] = {}
            for t in floor:
                if t != MARKER:
                    tiles[TILE_NAMES[t]] = tiles.get(TILE_NAMES[t], 0) + 1
            if tiles:
                self._log.append(moved(tiles, Zone.floor(p), "lid"))
        floor.clear()

    def _end_round(self) -> None:
        boards = self._boards
        if any(_FULL_ROW in b.row_filled for b in boards):
            self._finish("row")
            return
        if not any(self._bag) and not any(self._spare):
            self._finish("stalled")  # nothing left to deal: no position can change again
            return
        if not self._any_row_completable():
            self._finish("stalled")
            return
        if self._first_holder is not None:
            self._start_player = self._first_holder
        ending = self._round_end_fingerprint()
        if ending == self._last_round_end:
            # The whole round changed nothing: every tile, score and the start player are as the
            # previous round left them, so the same forced round would repeat for ever.
            self._finish("stalled")
            return
        self._last_round_end = ending
        self._next_round()

    def _round_end_fingerprint(self) -> int:
        """A hash of everything a round can change (only integers, so it is the same in every run)."""
        parts: list[int] = [self._start_player, *self._bag, *self._spare]
        for b in self._boards:
            parts += b.line_color
            parts += b.line_count
            parts += b.line_jokers
            parts += b.wall
            parts.append(b.score)
        return hash(tuple(parts))

    def _any_row_completable(self) -> bool:
        """Whether any player can still complete some wall row (called at the end of a round).

        Only tiles that still circulate count: those in the bag and the lid (factories, centre and
        floors are empty by now). A tile on a pattern line moves again only when its line is
        completed, which needs its colour (or a joker) to circulate; a line that cannot be
        completed blocks its wall row for good. Counting the tiles stuck on such lines as
        available let games loop forever (only a few tiles dealt, round after round)."""
        available = 0
        for c in range(5):
            if self._bag[c] + self._spare[c]:
                available |= 1 << c
        if self.jokers:
            if self._bag[JOKER] + self._spare[JOKER]:
                return True  # a joker fills any space
            for b in self._boards:
                for r in range(5):
                    if b.line_jokers[r]:
                        c = b.line_color[r]
                        if (available >> c & 1) if c >= 0 else (available & ~b.row_block[r] & _FULL_ROW):
                            return True  # the line may be completed and free its jokers
        for b in self._boards:
            for r in range(5):
                c = b.line_color[r]
                if b.line_jokers[r] or (c >= 0 and not available >> c & 1):
                    continue  # a pattern line that can never be completed: the row gets nothing more
                filled = b.row_filled[r]
                empty = _FREE_COLORS[filled]  # empty columns of the row
                allowed = []
                for col in empty:
                    if self.grey:
                        mask = available & ~b.row_block[r] & ~b.col_colors[col] & _FULL_ROW
                    else:
                        mask = available & (1 << ((col - r) % 5))
                    allowed.append(mask)
                if _can_match(allowed):
                    return True
        return False

    def _finish(self, reason: str) -> None:
        log = self._log
        for p, b in enumerate(self._boards):
            rows, columns, colors = complete_lines(b.wall)
            b.bonus = [rows * ROW_BONUS, columns * COLUMN_BONUS, colors * COLOR_BONUS]
            b.score += sum(b.bonus)
            if log is not None:
                for key, count, value in (("rows", rows, ROW_BONUS), ("columns", columns, COLUMN_BONUS), ("colors", colors, COLOR_BONUS)):
                    if count:
                        log.append(Scored(p, count * value, key, None, f"{count} x {value}"))
        self._phase = _OVER
        self._end_reason = reason

    def immediate_points(self, move: AzulMove) -> int:
        """What a legal move will bring at the coming wall tiling, judged on the board as it is:
        the wall placement of a line it completes, less the floor penalty it adds."""
        effect = self.effect(move)
        return effect.placement + effect.penalty

    def effect(self, move: AzulMove) -> MoveEffect:
        """What a legal move does, judged on the board as it is (a round's last move clears the
        floor line and tiles the lines, so the board after it no longer shows this)."""
        b = self._boards[self._to_move]
        now = len(b.floor)
        gain, on_line = 0, None
        if isinstance(move, WallMove):
            if move.column != FLOOR:
                return MoveEffect(placement_points(b.row_filled, move.row, move.column), None, 0, 0)
            to_floor = move.row + 1
        else:
            pile = self._center if move.source == CENTER else self._factories[move.source]  # type: ignore[index]
            c = COLOR_INDEX[move.color] if move.color is not None else -1
            n = pile.get(c, 0) if c >= 0 else 0
            j = pile.get(JOKER, 0) if move.jokers else 0
            to_floor = 1 if move.source == CENTER and self._first_in_center else 0
            if move.line == FLOOR:
                to_floor += n + j
            else:
                r = move.line
                assert isinstance(r, int)
                free = r + 1 - b.line_count[r] - b.line_jokers[r]
                to_floor += max(0, n + j - free)
                on_line = min(r + 1, r + 1 - free + n + j)
                if n + j >= free:
                    gain = self._completion_points(b, r, c if c >= 0 else b.line_color[r])
        after = min(FLOOR_SIZE, now + to_floor)
        return MoveEffect(gain, on_line, after - now, -(_FLOOR_LOSS[after] - _FLOOR_LOSS[now]))

    def greedy_move(self) -> AzulMove:
        """As :meth:`GameState.greedy_move`; the factory offer without jokers is judged group by
        group (source, colour), building only the move it returns."""
        if self._phase != _OFFER or self.jokers:
            return super().greedy_move()
        b = self._boards[self._to_move]
        acc, count, jokers = b.accept, b.line_count, b.line_jokers
        now = len(b.floor)
        lost_now = _FLOOR_LOSS[now]
        gains: dict[tuple[int, int], int] = {}
        best_points = None
        best = (0, 0, 0)
        sources = [(i, pile, pile) for i, pile in enumerate(self._factories)]
        if self._center:
            sources.append((_CENTER, self._center, sorted(self._center)))
        for src, pile, colors in sources:
            marker = 1 if src == _CENTER and self._first_in_center else 0
            for c in colors:
                n = pile[c]
                for r in _BITS[acc[c]]:
                    free = r + 1 - count[r] - jokers[r]
                    gain = 0
                    if n >= free:
                        gain = gains.get((r, c), -1)
                        if gain < 0:
                            gain = gains[r, c] = self._completion_points(b, r, c)
                    on_floor = marker + (n - free if n > free else 0)
                    points = gain - (_FLOOR_LOSS[min(FLOOR_SIZE, now + on_floor)] - lost_now)
                    if best_points is None or points > best_points:
                        best_points, best = points, (src, c, r)
                points = -(_FLOOR_LOSS[min(FLOOR_SIZE, now + marker + n)] - lost_now)
                if best_points is None or points > best_points:
                    best_points, best = points, (src, c, _FLOOR)
        src, c, r = best
        return Take(CENTER if src == _CENTER else src, COLORS[c], FLOOR if r == _FLOOR else r)

    def _completion_points(self, b: Board, r: int, color: int) -> int:
        """Wall points of completing line ``r`` in ``color``: its space, or (grey wall, or a line
        of jokers alone, ``color`` -1) the best free column it may take, 0 where none may."""
        if not self.grey and color >= 0:
            return placement_points(b.row_filled, r, (color + r) % 5)
        cols = [col for col in range(5) if not b.row_filled[r] >> col & 1
                and (color < 0 or not b.col_colors[col] >> color & 1)]
        return max((placement_points(b.row_filled, r, col) for col in cols), default=0)

    # -- chance ----------------------------------------------------------------

    def sample_chance(self, rng: random.Random) -> Deal:
        """Draw the next deal from the bag (pouring the lid in when the bag runs out)."""
        if self._phase != _DEAL:
            raise IllegalMoveError("illegal.game_over" if self._phase == _OVER else "deal.not_due_player_moves")
        drawn = self._draw(rng, 4 * len(self._factories))
        names = list(map(TILE_NAMES.__getitem__, drawn))
        filled = [tuple(names[i:i + 4]) for i in range(0, len(names), 4)]
        return Deal(tuple(filled) + ((),) * (len(self._factories) - len(filled)))

    def apply_chance(self, deal: Deal | dict[str, Any]) -> Outcome:
        """Deal the factories. Raises :class:`ImpossibleDealError` for a deal that the bag and
        lid could not have produced, naming the factory or colour at fault."""
        if isinstance(deal, dict):
            if "deal" in deal:  # the record's event {"deal": {...}}, and nothing else
                other = sorted(str(k) for k in deal if k != "deal")
                if other:
                    raise InvalidMoveError("deal.unknown_event_key", name=other[0])
                deal = deal["deal"]
            deal = deal_from_json(deal)
        if not isinstance(deal, Deal):
            raise InvalidMoveError("deal.not_azul", value=show(deal))
        if self._phase != _DEAL:
            if self._phase == _OVER:
                raise ImpossibleDealError("deal.not_due_now_over")
            raise ImpossibleDealError("deal.not_due_now_to_move", player=self._to_move)
        nf = len(self._factories)
        if len(deal.factories) != nf:
            raise ImpossibleDealError("deal.factory_count", players=self.players, factories=nf, filled=len(deal.factories))
        counts = [0] * 6
        for i, f in enumerate(deal.factories):
            if len(f) > 4:
                raise ImpossibleDealError("deal.factory_overfull", factory=i, n=len(f))
            for name in f:
                t = TILE_INDEX.get(name, -1)
                if not 0 <= t <= JOKER or (t == JOKER and not self.jokers):
                    raise ImpossibleDealError("deal.not_a_tile", factory=i, tile=repr(name))
                counts[t] += 1
        self._check_draw(counts, 4 * nf, "deal", "dealt", nf)
        self._deal_unchecked(deal, counts)
        outcome = Outcome()
        outcome.events.append(moved({TILE_NAMES[t]: counts[t] for t in range(6)}, "bag", "factories"))
        return outcome

    def apply_chance_unchecked(self, deal: Deal) -> None:
        """Apply a deal drawn by :meth:`sample_chance` (no checks)."""
        counts = [0] * 6
        index = TILE_INDEX.__getitem__
        for f in deal.factories:
            for t in map(index, f):
                counts[t] += 1
        self._pool_hidden()
        self._deal_unchecked(deal, counts)

    def _deal_unchecked(self, deal: Deal, counts: list[int]) -> None:
        self._take_from_bag(counts)
        index = TILE_INDEX.__getitem__
        for pile, names in zip(self._factories, deal.factories):
            for t in sorted(map(index, names)):  # colours in tile order: the legal moves' order
                pile[t] = pile.get(t, 0) + 1
        self._on_table = sum(counts)
        self._phase = _OFFER
        self._to_move = self._start_player
        if not self._on_table:  # nothing to take: straight to wall tiling (only possible if stalled)
            self._tiling_at = (0, 0)
            self._advance_tiling()

    # -- scores ----------------------------------------------------------------

    def breakdown(self) -> list[dict[str, int]]:
        """Per player: ``placement`` points, floor ``penalties`` (as lost, so negative) and the
        end bonuses ``rows``, ``columns``, ``colors`` (0 until the game ends). They add up to the score."""
        return [
            {"placement": b.placement, "penalties": b.penalties, "rows": b.bonus[0], "columns": b.bonus[1], "colors": b.bonus[2]}
            for b in self._boards
        ]

    def marker_cells(self) -> list[int]:
        """Where each player's score marker stands on their board's score track: the score
        before the end bonuses (players add those at the end, from the walls), within 0..100."""
        return [min(max(b.score - sum(b.bonus), 0), SCORE_TRACK_TOP) for b in self._boards]

    def _standing(self, board: Board) -> tuple[int, int]:
        return board.score, board.complete_rows()  # a tie on points goes to the most complete wall rows

    # -- inspection --------------------------------------------------------------

    def factories(self) -> list[dict[str, int]]:
        return [{TILE_NAMES[t]: n for t, n in sorted(f.items())} for f in self._factories]

    def center(self) -> dict[str, int]:
        out = {TILE_NAMES[t]: n for t, n in sorted(self._center.items())}
        if self._first_in_center:
            out["first_player"] = 1
        return out

    def _count_other_tiles(self, counts: list[int]) -> None:
        for b in self._boards:
            for r in range(5):
                if b.line_count[r]:
                    counts[b.line_color[r]] += b.line_count[r]
                counts[JOKER] += b.line_jokers[r]
            for t in b.floor:
                if t != MARKER:
                    counts[t] += 1
            for t in b.wall:
                if t >= 0:
                    counts[t] += 1

    # -- values ----------------------------------------------------------------

    def _progress_json(self) -> dict[str, Any]:
        return {
            "tiling": list(self._tiling_at) if self._phase == _TILING else None,
            "end_reason": self._end_reason,
            "last_round_end": self._last_round_end,
        }

    def _board_json(self, b: Board) -> dict[str, Any]:
        return {
            "bonus": {"rows": b.bonus[0], "columns": b.bonus[1], "colors": b.bonus[2]},
            "lines": [
                {"color": COLORS[b.line_color[r]] if b.line_color[r] >= 0 else None,
                 "count": b.line_count[r], "jokers": b.line_jokers[r]}
                for r in range(5)
            ],
            "wall": [[TILE_NAMES[t] if t >= 0 else None for t in b.wall[r * 5:r * 5 + 5]] for r in range(5)],
            "floor": [TILE_NAMES[t] for t in b.floor],
        }

    @classmethod
    def _new_from_json(cls, data: dict[str, Any]) -> "AzulState":
        opts = data["options"]
        players = whole(data["players"], "players", 2, 4)
        return cls.new(players, opts["wall"], opts["jokers"], whole(data["start_player"], "start_player", 0, players - 1))

    def _read_progress_json(self, data: dict[str, Any]) -> None:
        self._tiling_at = tuple(data["tiling"]) if data.get("tiling") else (0, 0)  # type: ignore[assignment]
        self._end_reason = data.get("end_reason")
        self._last_round_end = data.get("last_round_end")

    def _read_board_json(self, b: Board, bd: dict[str, Any], where: str) -> None:
        bonus = bd.get("bonus", {})
        b.bonus = [whole(bonus.get(k, 0), f"{where}.bonus.{k}", 0, MOST_POINTS) for k in ("rows", "columns", "colors")]
        for r, line in enumerate(bd["lines"]):
            b.line_color[r] = COLOR_INDEX[line["color"]] if line["color"] is not None else -1
            b.line_count[r] = whole(line["count"], f"{where}.lines[{r}].count", 0, r + 1)
            b.line_jokers[r] = whole(line["jokers"], f"{where}.lines[{r}].jokers", 0, r + 1)
        for r, row in enumerate(bd["wall"]):
            for col, name in enumerate(row):
                if name is None:
                    continue
                t = TILE_INDEX[name]
                b.wall[r * 5 + col] = t
                b.row_filled[r] |= 1 << col
                if self.grey:
                    if t != JOKER:
                        b.row_block[r] |= 1 << t
                        b.col_colors[col] |= 1 << t
                else:
                    b.row_block[r] |= 1 << wall_color(r, col)
        b.floor = [TILE_INDEX[name] for name in bd["floor"]]
        b.refresh_accept()

    def _key(self) -> tuple[Any, ...]:
        return (
            self.players, self.grey, self.jokers, self.round, self._phase, self._to_move, self._start_player,
            self._first_in_center, self._first_holder, tuple(self._bag), tuple(self._spare), self._pooled,
            tuple(tuple(sorted(f.items())) for f in self._factories), tuple(sorted(self._center.items())),
            self._tiling_at if self._phase == _TILING else None, self._end_reason, self._last_round_end,
            tuple((tuple(b.line_color), tuple(b.line_count), tuple(b.line_jokers), tuple(b.wall), tuple(b.floor),
                   b.score, b.placement, b.penalties, tuple(b.bonus)) for b in self._boards),
        )


def _runs(row_filled: list[int], r: int, col: int) -> tuple[int, int]:
    """Horizontal and vertical runs through the filled wall cell ``(r, col)``."""
    rf = row_filled
    vmask = (rf[0] >> col & 1) | (rf[1] >> col & 1) << 1 | (rf[2] >> col & 1) << 2 | (rf[3] >> col & 1) << 3 | (rf[4] >> col & 1) << 4
    return _RUN[rf[r]][col], _RUN[vmask][r]


def complete_lines(wall: Sequence[int]) -> tuple[int, int, int]:
    """How many of a wall's rows and columns are complete, and how many colours lie on five of
    its spaces (a joker is no colour): the wall is 25 tile indices of :data:`TILE_NAMES`, row by
    row, -1 where empty."""
    rows = sum(1 for r in range(5) if all(wall[r * 5 + c] >= 0 for c in range(5)))
    columns = sum(1 for c in range(5) if all(wall[r * 5 + c] >= 0 for r in range(5)))
    colors = sum(1 for k in range(len(COLORS)) if sum(1 for t in wall if t == k) == 5)
    return rows, columns, colors


def end_bonuses(wall: Sequence[int]) -> tuple[int, int, int]:
    """The end-of-game bonuses of a wall (as :func:`complete_lines`), in points: each complete
    row, each complete column, and each colour on five spaces."""
    rows, columns, colors = complete_lines(wall)
    return rows * ROW_BONUS, columns * COLUMN_BONUS, colors * COLOR_BONUS


def most_placement_points(wall: Sequence[int]) -> int:
    """The most points the tiles on a wall (as :func:`end_bonuses`) can have scored when placed:
    each no more than it would score placed last, as a wall's tiles only ever gain neighbours."""
    rows = [sum(1 << c for c in range(5) if wall[r * 5 + c] >= 0) for r in range(5)]
    return sum(placement_points(rows, r, c) for r in range(5) for c in range(5) if wall[r * 5 + c] >= 0)


def placement_points(row_filled: list[int], r: int, col: int) -> int:
    """Points for a tile put on the empty wall cell ``(r, col)`` of a wall with rows ``row_filled``."""
    rows = row_filled[:]
    rows[r] |= 1 << col
    h, v = _runs(rows, r, col)
    return 1 if h == 1 and v == 1 else (h if h > 1 else 0) + (v if v > 1 else 0)


class _Takes(LegalMoves[AzulMove]):
    """The take moves of the factory offer without jokers, as groups (a source and colour's
    tuple of moves, from :data:`_FACTORY_TAKES`): random play and search pay only for the
    moves they look at, and build none."""

    __slots__ = ()

    def __getitem__(self, index: int) -> AzulMove:  # type: ignore[override]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal move index out of range")
        for group in self._groups:
            if index < len(group):
                return group[index]
            index -= len(group)
        raise IndexError("legal move index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[AzulMove]:
        for group in self._groups:
            yield from group


def _takes_from(source: int | str) -> tuple[tuple[tuple[Take, ...], ...], ...]:
    """Per colour and per mask of lines that accept it, the takes of that colour from ``source``:
    onto each accepting line, then the floor. Moves are values, so the tables share them."""
    return tuple(tuple(tuple(Take(source, COLORS[c], line) for line in _TARGETS[mask]) for mask in range(32))
                 for c in range(5))


_FACTORY_TAKES = tuple(_takes_from(i) for i in range(max(FACTORIES_FOR_PLAYERS.values())))
_CENTER_TAKES = _takes_from(CENTER)


def _floor_joker_choices(n: int, j: int, free: int) -> range:
    """Distinct ``floor_jokers`` values for ``n`` colour tiles and ``j`` jokers onto a line
    with ``free`` spaces: only when they overflow, and only while the line stays full."""
    if n == 0 or j == 0 or n + j <= free:
        return range(1)
    on_line = j if j < free else free
    # floor_jokers = k leaves on_line - k jokers on the line and needs free - (on_line - k) <= n colour tiles.
    most = min(on_line, n - (free - on_line))
    return range(most + 1) if most >= 0 else range(0)


def _can_match(allowed: list[int]) -> bool:
    """Whether each empty space (a mask of colours it may take) can get a different colour."""
    reachable = {0}
    for mask in allowed:
        reachable = {used | 1 << c for used in reachable for c in _BITS[mask & ~used & _FULL_ROW]}
        if not reachable:
            return False
    return True
