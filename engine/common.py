"""What every game of the engine shares: turn markers, outcomes and the legal-move sequence."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

from .notice import Notice
from .zones import Zone

#: ``current_player`` when chance acts next (a deal, a supply refill), as in OpenSpiel.
CHANCE = -1
#: ``current_player`` once the game is over.
TERMINAL = -2
#: The most points a state read from a file may hold, and the most rounds of an Azul game (far
#: past any game played: bounds that turn a stranger's 10**20 into a refusal, not arithmetic).
MOST_POINTS, MOST_ROUNDS = 1000, 100

#: A take's source when it is the centre of the table (a factory display is its index).
CENTER = "center"

M = TypeVar("M")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Scored:
    """Points a player won (positive) or lost (negative), and why.

    ``reason`` is one of the breakdown keys (``placement``, ``penalties``, ``rows``, ...);
    ``where`` names the slot or structure when there is one (``wall.2.4``).
    """

    player: int
    points: int
    reason: str
    where: str | None = None
    detail: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "points": self.points, "reason": self.reason}
        if self.where is not None:
            out["where"] = self.where
        if self.detail is not None:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True, slots=True)
class Moved:
    """Tiles that moved from one place to another (``tiles`` maps tile name to count)."""

    tiles: tuple[tuple[str, int], ...]
    source: str
    target: str

    def to_json(self) -> dict[str, Any]:
        return {"tiles": dict(self.tiles), "from": self.source, "to": self.target}


@dataclass(slots=True)
class Outcome:
    """What one move or chance event did: tiles moved, points scored, phase changes."""

    events: list[Any] = field(default_factory=list)
    round_over: bool = False
    game_over: bool = False

    def points(self, player: int) -> int:
        """Net points ``player`` gained or lost through this move."""
        return sum(e.points for e in self.events if isinstance(e, Scored) and e.player == player)

    @property
    def scored(self) -> list[Scored]:
        return [e for e in self.events if isinstance(e, Scored)]

    def to_json(self) -> dict[str, Any]:
        return {
            "events": [e.to_json() for e in self.events],
            "round_over": self.round_over,
            "game_over": self.game_over,
        }


def moved(tiles: dict[str, int], source: str, target: str) -> Moved:
    return Moved(tuple((k, v) for k, v in tiles.items() if v), source, target)


class LegalMoves(Sequence[M], Generic[M]):
    """The legal moves of a position, in a fixed order, each exactly once.

    The moves are made only when asked for: ``len()`` is cheap, and ``moves[i]``
    builds just the i-th move, so that uniform random play and search do not pay
    for moves they never look at (python-chess's ``LegalMoveGenerator`` is lazy too).
    Groups are ``(count, build, arg)`` triples where ``build(arg, k)`` makes the k-th
    move of the group.
    """

    __slots__ = ("_groups", "_len")

    def __init__(self, groups: list[tuple[int, Callable[[Any, int], M], Any]], length: int) -> None:
        self._groups = groups
        self._len = length

    @classmethod
    def of(cls, moves: list[M]) -> "LegalMoves[M]":
        return cls([(len(moves), _nth, moves)], len(moves)) if moves else cls([], 0)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> M:  # type: ignore[override]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal move index out of range")
        for count, build, arg in self._groups:
            if index < count:
                return build(arg, index)
            index -= count
        raise IndexError("legal move index out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[M]:
        for count, build, arg in self._groups:
            for k in range(count):
                yield build(arg, k)

    def __contains__(self, move: object) -> bool:
        return any(m == move for m in self)

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in list(self)[:6])
        more = ", ..." if self._len > 6 else ""
        return f"<LegalMoves ({self._len}): {shown}{more}>"


def _nth(moves: list[M], k: int) -> M:
    return moves[k]


def is_int(value: Any) -> bool:
    """An integer that is not a bool (JSON's ``true`` must not pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


#: The codes of the refusals of a move's or chance event's JSON object, by what it is (``move``,
#: ``deal``, ``refill``): no object, an unknown key, a required key missing.
_OBJECT_REFUSALS = {
    "move": ("move.not_object", "move.unknown_key", "move.lacks_key"),
    "deal": ("deal.not_object", "deal.unknown_key", "deal.lacks_key"),
    "refill": ("refill.not_object", "refill.unknown_key", "refill.lacks_key"),
}


def check_keys(data: dict[str, Any], allowed: Any, required: Any, what: str = "move") -> None:
    """Refuse unknown keys and missing required keys of a JSON object (a ``move``, ``deal`` or
    ``refill``: ``what``), naming them: :class:`InvalidMoveError`."""
    from .errors import InvalidMoveError

    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise InvalidMoveError(_OBJECT_REFUSALS[what][1], name=unknown[0], data=repr(data))
    for key in required:
        if key not in data:
            raise InvalidMoveError(_OBJECT_REFUSALS[what][2], name=key, data=repr(data))


def check_object(data: Any, what: str) -> None:
    """Refuse a move or chance event (``what``: ``move``, ``deal``, ``refill``) whose JSON is no
    object: :class:`InvalidMoveError`."""
    from .errors import InvalidMoveError, show

    if not isinstance(data, dict):
        raise InvalidMoveError(_OBJECT_REFUSALS[what][0], value=show(data))


def check_source(source: Any) -> None:
    """Refuse a take's source that is neither a factory index nor :data:`CENTER`: :class:`InvalidMoveError`."""
    from .errors import InvalidMoveError, show

    if not (source == CENTER or (is_int(source) and source >= 0)):
        raise InvalidMoveError("move.bad_source", value=show(source))


def parse_words(text: str, read: Callable[[list[str]], Any], examples: str) -> Any:
    """The move a move's text form says, read from its words by ``read``, which returns ``None``
    (or raises ValueError or IndexError) for words that say no move. Raises
    :class:`InvalidMoveError` naming the text and giving ``examples``."""
    from .errors import InvalidMoveError

    try:
        move = read(text.split())
    except InvalidMoveError:
        raise
    except (ValueError, IndexError):
        move = None
    if move is None:
        raise InvalidMoveError("move.unreadable", text=text, examples=examples)
    return move


def count_word(words: list[str], i: int, key: str) -> int:
    """The count ``N`` of the word ``key=N`` that may end a move's text at ``words[i]`` (0 when
    the words end before it). Raises ValueError for another word (:func:`parse_words` says which
    text it could not read)."""
    if len(words) <= i:
        return 0
    name, _, value = words[i].partition("=")
    if name != key:
        raise ValueError
    return int(value)


def color_noun(name: str) -> Notice:
    """A colour (or the joker) by name, as the message that words it where it is shown: ``blue``
    is ``color.blue`` (a noun: ``line 2 already holds blue``)."""
    code = "color." + name  # a key for every tile name (tests/engine/test_messages.py)
    return Notice(code)


def color_adjective(name: str) -> Notice:
    """A colour by name as it qualifies one tile (``holds no blue tile``): ``adj.blue.one``."""
    code = f"adj.{name}.one"  # a key for every tile name (tests/engine/test_messages.py)
    return Notice(code)


def chained(code: str, items: Sequence[Any]) -> Any:
    """``items`` (each a value or a message) said one after the other by the two-part message
    ``code`` (``{head}`` and ``{last}``: ``list.or``, ``a or b or c``): the last item alone,
    else the first and the chain of the rest."""
    said = items[-1]
    for item in reversed(items[:-1]):
        said = Notice(code, head=item, last=said)
    return said


def either(values: Sequence[Any]) -> Any:
    """The values shown (``repr``) as alternatives: ``'colored' or 'grey'``."""
    return chained("list.or", [repr(v) for v in values])


def pour(bag: list[int], spare: list[int]) -> None:
    """Pour ``spare`` (the lid or the tower) into ``bag``, kind by kind."""
    for t in range(len(bag)):
        bag[t] += spare[t]
        spare[t] = 0


#: The words of a draw's refusals: what chance draws (``deal``, ``refill``), how (``dealt``,
#: ``drawn``) and the spare tiles' place (``lid``, ``tower``), each a message worded where it is shown.
_DRAW_WORDS = {
    "deal": Notice("chance.deal"), "refill": Notice("chance.refill"),
    "dealt": Notice("chance.dealt"), "drawn": Notice("chance.drawn"),
    "lid": Notice("spare.lid"), "tower": Notice("spare.tower"),
}


def check_draw(counts: list[int], names: tuple[str, ...], bag: list[int], spare: list[int], wanted: int,
               what: str, verb: str, spare_name: str, factories: int = 0) -> bool:
    """Check that ``counts`` (tiles per kind) could be drawn from ``bag``, pouring ``spare`` (the
    lid or the tower) into it when it runs out, when ``wanted`` tiles are to be drawn: a ``deal``
    or a ``refill`` (``what``), ``dealt`` or ``drawn`` (``verb``), the spare tiles in the ``lid``
    or the ``tower`` (``spare_name``); ``factories``, when given, is said with the count due (``5
    factories of 4``).

    Returns whether the spare tiles were poured in. Raises :class:`ImpossibleDealError` naming
    the count or the kind at fault.
    """
    from .errors import ImpossibleDealError

    in_bag, in_spare = sum(bag), sum(spare)
    expected = min(wanted, in_bag + in_spare)
    total = sum(counts)
    if total != expected:
        raise ImpossibleDealError("deal.wrong_total", what=_DRAW_WORDS[what], total=total, expected=expected, verb=_DRAW_WORDS[verb],
                                  bag=in_bag, spare=_DRAW_WORDS[spare_name], spare_tiles=in_spare,
                                  note=Notice("deal.factories_of", n=factories) if factories else "")
    pour = total > in_bag
    for t, name in enumerate(names):
        if not pour:
            if counts[t] > bag[t]:
                raise ImpossibleDealError("deal.more_than_bag", what=_DRAW_WORDS[what], n=counts[t], color=color_noun(name), bag=bag[t])
        elif counts[t] < bag[t]:
            raise ImpossibleDealError("deal.bag_ran_out", bag=bag[t], color=color_noun(name), verb=_DRAW_WORDS[verb], n=counts[t])
        elif counts[t] > bag[t] + spare[t]:
            raise ImpossibleDealError("deal.more_than_held", what=_DRAW_WORDS[what], n=counts[t], color=color_noun(name),
                                      spare=_DRAW_WORDS[spare_name], held=bag[t] + spare[t])
    return pour


#: ``_phase`` of a state whose round's deal is due: every game numbers its phases from it.
DEAL_PHASE = 0
#: The ``format`` of a state's JSON (docs/formats/state.md).
STATE_FORMAT = "azulcam-state/1"


class GameState:
    """What the states of both games share: the turn and the phase, the bag and the spare tiles
    (Azul's box lid, Summer Pavilion's tower), the factory displays and the centre, the
    first-player tile, the boards' scores, copying, the JSON form's frame, the checked ``play``,
    the greedy move, equality by value and the game's spec.

    A subclass sets the class attributes and provides the hooks declared here, as a variant of
    python-chess overrides its ``Board``'s; the rules themselves stay in the subclass.
    """

    __slots__ = ("players", "grey", "round", "_phase", "_to_move", "_start_player", "_first_in_center",
                 "_first_holder", "_bag", "_spare", "_factories", "_center", "_on_table", "_boards",
                 "_end_reason", "_log", "_pooled")

    #: The game's name (a class attribute of each state class); :attr:`spec` is its spec.
    game: str
    #: Each phase's name, by ``_phase``; the first is :data:`DEAL_PHASE`'s, ``"deal"``.
    _PHASE_NAMES: tuple[str, ...]
    #: The names of the tile kinds the piles count (index: the kind), and back.
    _TILE_NAMES: tuple[str, ...]
    _TILE_INDEX: dict[str, int]
    #: The JSON keys of the first-player tile's place and of the spare tiles.
    _FIRST_KEY: str
    _SPARE_KEY: str
    #: The last round a state read from a file may be in, and the least score of a board.
    _MOST_ROUNDS: int
    _LEAST_SCORE: int
    #: The class of a player's board.
    _BOARD: type

    players: int
    #: Whether the boards show their grey face (Azul's grey wall, Summer Pavilion's grey side).
    grey: bool
    round: int
    _phase: int
    #: The player to move, the one who starts the round's taking, the move log while ``play``
    #: runs (``None`` otherwise).
    _to_move: int
    _start_player: int
    _log: list[Any] | None
    #: Tile counts by kind: the bag, and the spare tiles that go back into it once it is empty.
    _bag: list[int]
    _spare: list[int]
    #: The factory displays and the centre, as ``{kind: count}`` piles.
    _factories: list[dict[int, int]]
    _center: dict[int, int]
    #: Tiles on the displays and in the centre (the phase of taking ends when none is left).
    _on_table: int
    #: Whether the first-player tile lies in the centre, else who took it this round (``None``:
    #: nobody yet, as after a position is set up).
    _first_in_center: bool
    _first_holder: int | None
    _boards: list[Any]
    _end_reason: str | None
    #: Whether bag and spare are known only together (a game taken up mid-way).
    _pooled: bool

    # -- hooks -----------------------------------------------------------------
    # ``current_player`` and ``is_over`` read the game's own phases: each game defines them with its
    # phase numbers as module constants, as they run at every ply of a playout (Python 3.11 reads a
    # table kept as a class attribute through the instance at a quarter more cost).

    @property
    def current_player(self) -> int:  # pragma: no cover - each game defines it
        """The player to move, :data:`CHANCE` when chance acts next, :data:`TERMINAL` once over."""
        raise NotImplementedError

    def is_over(self) -> bool:  # pragma: no cover - each game defines it
        raise NotImplementedError

    @property
    def options(self) -> dict[str, Any]:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def legal_moves(self) -> LegalMoves[Any]:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def immediate_points(self, move: Any) -> int:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def play_unchecked(self, move: Any) -> None:  # pragma: no cover - each game defines it
        raise NotImplementedError

    def _read_move(self, move: Any) -> Any:  # pragma: no cover - a move from a move, its JSON or its text
        raise NotImplementedError

    def _illegal_reason(self, move: Any) -> Notice | None:  # pragma: no cover - why a read move is illegal here
        raise NotImplementedError

    def _key(self) -> tuple[Any, ...]:  # pragma: no cover - the state as a hashable value
        raise NotImplementedError

    def _copy_into(self, s: Any) -> None:  # pragma: no cover - copy the game's own fields onto ``s``
        raise NotImplementedError

    def _standing(self, board: Any) -> Any:  # pragma: no cover - what ranks a board at the end: its score, then any tie-break
        raise NotImplementedError

    def _count_other_tiles(self, counts: list[int]) -> None:  # pragma: no cover - each game defines it
        """Add to ``counts`` (by kind) the tiles neither in the bag, the spare tiles, the displays nor the centre."""
        raise NotImplementedError

    def _supply_json(self) -> dict[str, Any]:
        """The JSON of the tiles beside the displays (none: a game without a supply)."""
        return {}

    def _progress_json(self) -> dict[str, Any]:  # pragma: no cover - where the round and the game stand beyond the turn
        raise NotImplementedError

    def _board_json(self, board: Any) -> dict[str, Any]:  # pragma: no cover - a board's JSON after its score
        raise NotImplementedError

    @classmethod
    def _new_from_json(cls, data: dict[str, Any]) -> Any:  # pragma: no cover - the first state of a state's JSON
        raise NotImplementedError

    def _read_supply_json(self, data: dict[str, Any]) -> None:
        """Read the tiles beside the displays from a state's JSON and check how many factories
        it has. Raises :class:`StateError` (and KeyError, TypeError or IndexError) for a bad field."""
        from .errors import StateError

        if len(data["factories"]) != len(self._factories):
            raise StateError("state.factory_count")

    def _read_progress_json(self, data: dict[str, Any]) -> None:  # pragma: no cover - :meth:`_progress_json` back
        raise NotImplementedError

    def _read_board_json(self, board: Any, data: dict[str, Any], where: str) -> None:  # pragma: no cover - each game defines it
        """Read a board's fields of :meth:`_board_json` back (``where``: the board's path, for errors)."""
        raise NotImplementedError

    # -- set-up and copies -------------------------------------------------------

    @classmethod
    def _set_up(cls, players: Any, face: Any, start_player: Any) -> Any:
        """A state of ``players`` with boards showing ``face``, before the first deal, with what
        every game sets up alike (the bag and the boards are the game's to fill). Raises
        :class:`StateError` for a player count the game is not played by, a face the boards do
        not have, or a start player who is not playing."""
        from .errors import StateError, show
        from .games import GAMES  # the specs name the state classes: imported when asked

        spec = GAMES[cls.game]
        if not (is_int(players) and players in spec.factories):
            raise StateError("state.players", game=spec.title_message, least=spec.players[0], most=spec.players[-1],
                             value=show(players))
        if not (isinstance(face, str) and face in spec.faces):
            raise StateError("state.face", face=spec.face, values=either(spec.faces), value=show(face))
        if not (is_int(start_player) and 0 <= start_player < players):
            raise StateError("state.start_player", last=players - 1, value=show(start_player))
        s = object.__new__(cls)
        s.players = players
        s.grey = face == "grey"
        s.round = 1
        s._phase = DEAL_PHASE
        s._to_move = start_player
        s._start_player = start_player
        s._first_in_center = True
        s._first_holder = None
        s._spare = [0] * 6
        s._factories = [{} for _ in range(spec.factories[players])]
        s._center = {}
        s._on_table = 0
        s._boards = [cls._BOARD() for _ in range(players)]
        s._end_reason = None
        s._log = None
        s._pooled = False
        return s

    def copy(self) -> Any:
        """An independent copy of the state, as it is now."""
        s = object.__new__(type(self))
        s.players = self.players
        s.grey = self.grey
        s.round = self.round
        s._phase = self._phase
        s._to_move = self._to_move
        s._start_player = self._start_player
        s._first_in_center = self._first_in_center
        s._first_holder = self._first_holder
        s._bag = self._bag[:]
        s._spare = self._spare[:]
        s._factories = [f.copy() for f in self._factories]
        s._center = self._center.copy()
        s._on_table = self._on_table
        s._boards = [b.copy() for b in self._boards]
        s._end_reason = self._end_reason
        s._log = None
        s._pooled = self._pooled
        self._copy_into(s)
        return s

    __copy__ = copy

    @property
    def spec(self) -> Any:
        """The :class:`~.games.GameSpec` of this state's game."""
        from .games import GAMES  # the specs name the state classes: imported when asked

        return GAMES[self.game]

    # -- turn ------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """The phase's name: ``deal``, a phase of the game's own (its ``_PHASE_NAMES``), ``over``."""
        return self._PHASE_NAMES[self._phase]

    @property
    def start_player(self) -> int:
        """The player who starts (or started) the current round's taking."""
        return self._start_player

    @property
    def end_reason(self) -> str | None:
        """Why the game ended (``None`` while it goes on): see the game's rulings."""
        return self._end_reason

    def _next_round(self) -> None:
        """The round is over and the game goes on: the first-player tile back in the centre, the
        start player to move once chance has dealt."""
        self.round += 1
        self._first_holder = None
        self._first_in_center = True
        self._to_move = self._start_player
        self._phase = DEAL_PHASE

    # -- playing ---------------------------------------------------------------

    def play(self, move: Any) -> Outcome:
        """Play a legal move for the player to move and say what happened.

        Accepts a move, its JSON object or its text. Raises :class:`InvalidMoveError` for a move
        that cannot be read, :class:`IllegalMoveError` for one that breaks a rule, and
        :class:`AmbiguousMoveError` for one that could mean several moves.
        """
        from .errors import IllegalMoveError

        move = self._read_move(move)
        reason = self._illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError("illegal.move", move=str(move), player=self._to_move, reason=reason)
        outcome = Outcome()
        self._log = outcome.events
        try:
            self.play_unchecked(move)
        finally:
            self._log = None
        outcome.game_over = self.current_player == TERMINAL
        outcome.round_over = outcome.game_over or self.phase == "deal"
        return outcome

    def greedy_move(self) -> Any:
        """The legal move with the most ``immediate_points``, the first in legal order on ties:
        the built-in greedy player's move and the assistant's playout policy. The engines
        override it with a way that does not build every move where the phase allows."""
        best = best_key = None
        for move in self.legal_moves():
            key = self.immediate_points(move)
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best

    def _take_source(self, source: int | str) -> dict[int, int] | None:
        """The pile a take's (read) ``source`` names; ``None`` when there is no such factory."""
        if is_int(source) and source >= len(self._factories):  # type: ignore[operator]
            return None
        if source == CENTER:
            return self._center
        return self._factories[source]  # type: ignore[index]

    def _no_source(self) -> Notice:
        """Why a take from a factory :meth:`_take_source` does not find is illegal."""
        return Notice("illegal.no_such_factory", n=len(self._factories))

    def _lacks(self, source: int | str, color: str | None = None) -> Notice:
        """Why a take is illegal whose ``source`` holds no tile of ``color`` (``None``: no joker)."""
        where = Notice("illegal.the_centre") if source == CENTER else Notice("illegal.factory", n=source)
        if color is None:
            return Notice("illegal.holds_no_joker", source=where)
        return Notice("illegal.holds_no_color", source=where, color=color_adjective(color))

    def _to_center(self, pile: dict[int, int], factory: int) -> None:
        """Push what a take left on ``factory`` (its ``pile``) into the centre, logged."""
        center = self._center
        if self._log is not None:
            names = self._TILE_NAMES
            self._log.append(moved({names[k]: v for k, v in pile.items()}, f"factory.{factory}", Zone.centre()))
        for k, v in pile.items():
            center[k] = center.get(k, 0) + v
        pile.clear()

    # -- chance ------------------------------------------------------------------

    def _pool_hidden(self) -> None:
        """In a game taken up mid-way, where bag and spare tiles are known only together
        (``pooled``), a draw takes from both: the spare tiles are poured in first."""
        if self._pooled:
            pour(self._bag, self._spare)

    def _draw(self, rng: Any, need: int) -> list[int]:
        """``need`` tile kinds drawn at random from the bag, then from the spare tiles poured
        in once it runs out (fewer when both run out)."""
        self._pool_hidden()
        bag = [t for t in range(6) for _ in range(self._bag[t])]
        if len(bag) >= need:
            return rng.sample(bag, need)
        rng.shuffle(bag)
        spare = [t for t in range(6) for _ in range(self._spare[t])]
        return bag + rng.sample(spare, min(need - len(bag), len(spare)))

    def _check_draw(self, counts: list[int], wanted: int, what: str, verb: str, factories: int = 0) -> None:
        """Check that chance could draw ``counts`` (tiles by kind) from the bag and the spare
        tiles, ``wanted`` being due (as :func:`check_draw` says them). Raises
        :class:`ImpossibleDealError` naming the fault."""
        self._pool_hidden()
        check_draw(counts, self._TILE_NAMES[:6], self._bag, self._spare, wanted, what, verb, self._SPARE_KEY, factories)

    def _take_from_bag(self, counts: list[int]) -> None:
        """Take ``counts`` (tiles by kind, a checked draw) out of the bag, pouring the spare
        tiles in first when the bag holds too few."""
        bag = self._bag
        if sum(counts) > sum(bag):
            pour(bag, self._spare)
        for t in range(6):
            bag[t] -= counts[t]

    # -- scores and inspection -----------------------------------------------------

    def scores(self) -> list[int]:
        return [b.score for b in self._boards]

    def winners(self) -> list[int]:
        """The players with the most points; a tie goes to the game's tie-break (Azul's most
        complete wall rows), and a tie on both is shared. During a game: who would win if it
        ended now."""
        standings = [self._standing(b) for b in self._boards]
        best = max(standings)
        return [p for p, standing in enumerate(standings) if standing == best]

    def board(self, player: int) -> Any:
        """The live board of ``player`` (do not modify it)."""
        return self._boards[player]

    def tile_counts(self) -> list[int]:
        """Every tile of the game by kind, wherever it lies: bag and spare tiles, displays,
        centre, and the game's own places (lines, floors and walls; supply, hands, boards and
        corners)."""
        counts = [self._bag[t] + self._spare[t] for t in range(6)]
        for pile in self._factories:
            for t, n in pile.items():
                counts[t] += n
        for t, n in self._center.items():
            counts[t] += n
        self._count_other_tiles(counts)
        return counts

    # -- values ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The state as an ``azulcam-state/1`` object (docs/formats/state.md)."""
        names = self._TILE_NAMES
        return {
            "format": STATE_FORMAT,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "round": self.round,
            "phase": self.phase,
            "to_move": self._to_move,
            "start_player": self._start_player,
            self._FIRST_KEY: "center" if self._first_in_center else self._first_holder,
            "bag": pile_to_json(self._bag, names),
            self._SPARE_KEY: pile_to_json(self._spare, names),
            **self._supply_json(),
            "factories": [[names[t] for t in sorted(f) for _ in range(f[t])] for f in self._factories],
            "center": pile_to_json(self._center, names),
            **self._progress_json(),
            **({"pooled": True} if self._pooled else {}),
            "boards": [{"score": b.score, "placement": b.placement, "penalties": b.penalties, **self._board_json(b)}
                       for b in self._boards],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any:
        """Rebuild a state written by :meth:`to_json`. Raises :class:`StateError` naming the bad field."""
        from .errors import EngineError, StateError
        from .games import GAMES  # the specs name the state classes: imported when asked

        title = GAMES[cls.game].title_message
        try:
            if data.get("format") != STATE_FORMAT or data.get("game") != cls.game:
                raise StateError("state.not_a_state", format=STATE_FORMAT, game=title)
            s = cls._new_from_json(data)
            players = s.players
            s.round = whole(data["round"], "round", 1, cls._MOST_ROUNDS)
            s._phase = cls._PHASE_NAMES.index(data["phase"])
            s._to_move = whole(data["to_move"], "to_move", TERMINAL, players - 1)
            first = data[cls._FIRST_KEY]
            s._first_in_center = first == "center"
            s._first_holder = None if first in ("center", None) else whole(first, cls._FIRST_KEY, 0, players - 1)

            index = cls._TILE_INDEX
            s._bag = pile_from_json(data["bag"], index, "bag")
            s._spare = pile_from_json(data[cls._SPARE_KEY], index, cls._SPARE_KEY)
            s._read_supply_json(data)
            for pile, names in zip(s._factories, data["factories"]):
                for t in sorted(index[n] for n in names):
                    pile[t] = pile.get(t, 0) + 1
            s._center = {t: n for t, n in enumerate(pile_from_json(data["center"], index, "center")) if n}
            s._on_table = sum(sum(f.values()) for f in s._factories) + sum(s._center.values())
            s._read_progress_json(data)
            s._pooled = bool(data.get("pooled", False))
            if len(data["boards"]) != players:
                raise StateError("state.board_count")
            for p, (b, bd) in enumerate(zip(s._boards, data["boards"])):
                where = f"boards[{p}]"
                b.score = whole(bd["score"], f"{where}.score", cls._LEAST_SCORE, MOST_POINTS)
                b.placement = whole(bd["placement"], f"{where}.placement", 0, MOST_POINTS)
                b.penalties = whole(bd["penalties"], f"{where}.penalties", -MOST_POINTS, 0)
                s._read_board_json(b, bd, where)
            return s
        except EngineError:
            raise
        except (KeyError, TypeError, IndexError, ValueError) as exc:  # (ValueError: a phase of no name)
            raise StateError("state.malformed", game=title, field=str(exc)) from None

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, GameState)
        return self._key() == other._key()

    # A state changes as it is played: it is no dict key. Its key() is, for sets of positions.
    __hash__ = None  # type: ignore[assignment]

    def key(self) -> tuple[Any, ...]:
        """A hashable value, equal for equal states (as they are now)."""
        return self._key()

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.players}p {self.options} round {self.round} {self.phase} "
                f"to_move={self.current_player} scores={self.scores()}>")


def unique_states(items: Iterable[T]) -> list[T]:
    """``items`` (each with a ``state``) less those that reach a state an earlier one reaches: the
    best of each, where they come best first (moves in another order reach the same table)."""
    out: list[T] = []
    seen: set[Any] = set()
    for item in items:
        key = item.state.key()  # type: ignore[attr-defined]
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def pile_to_json(counts: list[int] | dict[int, int], names: tuple[str, ...]) -> dict[str, int]:
    """Tile counts (a list by kind, or a ``{kind: count}`` pile) as ``{name: count}``, empty kinds left out."""
    items = sorted(counts.items()) if isinstance(counts, dict) else enumerate(counts)
    return {names[t]: n for t, n in items if n}


def whole(value: Any, where: str, low: int, high: int) -> int:
    """``value`` when it is an integer (not a bool, not ``12.0`` or ``"12"``) in ``low..high``;
    :class:`StateError` naming ``where`` (the field's path) otherwise: a state read from a file is
    a stranger's, never truncated or taken as it comes."""
    if not is_int(value) or not low <= value <= high:
        from .errors import StateError

        raise StateError("state.not_whole", field=where, low=low, high=high, value=f"{value!r:.40}")
    return value


def pile_from_json(data: dict[str, int], index: dict[str, int], where: str = "pile") -> list[int]:
    """``{name: count}`` back to a list of 6 counts by kind (each a whole number 0..200); an
    unknown name raises KeyError."""
    out = [0] * 6
    for name, n in data.items():
        out[index[name]] = whole(n, f"{where}.{name}", 0, 200)
    return out
