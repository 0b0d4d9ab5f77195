"""The Azul rules core in C (``_azul_core.c``), for search: the move assistant's playouts and the benchmark.

The Python engines (``azul.py``, ...) stay the reference: they replay records and serve every
interface. A core is a compact copy of their rules in C (``_azul_core.c``), built by ``setup.py``
where a C compiler is found, and proved equal to the reference by tests/engine/test_fast_azul.py.
Where it was not built, :data:`AVAILABLE` says so and callers use the Python engine.

A core's state is made from any reference state (:meth:`FastAzul.of`) and speaks the reference's
moves (:meth:`FastAzul.legal_moves`, in the same order); search plays it by index
(``legal_count``, ``play_index``, ``greedy_index``, ``deal_random``, ``playout``), all in C.
"""

from __future__ import annotations

from typing import Any

from .azul import CENTER, COLORS, FLOOR, TILE_INDEX, TILE_NAMES, AzulState, Deal, Take, WallMove
from .common import STATE_FORMAT

try:
    from . import _azul_core
except ImportError:  # built without a C compiler: the Python engine serves alone
    _azul_core = None  # type: ignore[assignment]

#: Whether the Azul core was built.
AVAILABLE = _azul_core is not None

_PHASES = ("deal", "offer", "tiling", "over")
_END_REASONS = (None, "row", "stalled")
_MAX_FACTORIES = 9
_HEAD = 16  # the flat form's fields before the bag: see _azul_core.c
_BOARD_FIELDS = 74


class _Missing:
    """The base of a core that was not built: making one says so."""

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the C rules core was not built (no C compiler at install?): use the Python engine")


class FastAzul(_azul_core.Core if _azul_core is not None else _Missing):  # type: ignore[misc]
    """An Azul state in the C core: every variant, 2 to 4 players.

    ``current_player``, ``legal_count()``, ``play_index(i)``, ``greedy_index()``,
    ``deal_random()``, ``seed(n)``, ``scores()``, ``winners()``, ``points()`` (each player's score
    and points lost to penalties), ``playout(wander)``, ``random_game()`` and ``copy()`` are the
    C's (see ``_azul_core.c``); this class adds what speaks the reference's values. A copy carries
    its random generator's state: seed each playout's copy for playouts that differ.
    """

    __slots__ = ()

    @classmethod
    def new(cls, players: int = 2, wall: str = "colored", jokers: bool = False, start_player: int = 0) -> "FastAzul":
        """As :meth:`AzulState.new` (the same checks)."""
        return cls.of(AzulState.new(players, wall, jokers, start_player))

    @classmethod
    def of(cls, state: AzulState | dict[str, Any]) -> "FastAzul":
        """The core's copy of a reference state (or of its ``azulcam-state/1`` JSON), in any phase.
        Raises :class:`StateError` for bad JSON, ValueError for a state the core cannot hold."""
        if isinstance(state, dict):
            state = AzulState.from_json(state)
        core = cls()
        core._load(flat_of(state))
        return core

    def legal_moves(self) -> list[Take | WallMove]:
        """The legal moves as the reference's own objects, equal and in the same order as
        ``state.legal_moves()``."""
        return [_move(*m) for m in self._moves()]

    def index_of(self, move: Take | WallMove) -> int:
        """The index of a legal move (ValueError for one that is not legal here)."""
        return self.legal_moves().index(move)

    def play(self, move: Take | WallMove) -> None:
        """Play a legal move given as the reference's object (ValueError for an illegal one)."""
        self.play_index(self.index_of(move))

    def greedy_move(self) -> Take | WallMove:
        return self.legal_moves()[self.greedy_index()]

    def apply_chance(self, deal: Deal | dict[str, Any]) -> None:
        """Apply a reference deal (a :class:`Deal`, or its record event / JSON object). Raises
        ValueError for one the bag and the lid could not have dealt, or that is not due."""
        if isinstance(deal, dict):
            deal = Deal(tuple(tuple(f) for f in deal.get("deal", deal)["factories"]))
        if not isinstance(deal, Deal):
            raise ValueError(f"not an Azul deal: {deal!r:.60}")
        counts = []
        for f in deal.factories:
            pile = [0] * 6
            for name in f:
                t = TILE_INDEX.get(name, -1)
                if not 0 <= t < 6:
                    raise ValueError(f"not a tile: {name!r:.40}")
                pile[t] += 1
            counts += pile
        self._deal(counts)

    @property
    def phase(self) -> str:
        return _PHASES[self._dump()[5]]

    def breakdown(self) -> list[dict[str, int]]:
        """As :meth:`AzulState.breakdown`."""
        return [{"placement": b["placement"], "penalties": b["penalties"], **b["bonus"]} for b in self.to_json()["boards"]]

    def to_json(self) -> dict[str, Any]:
        """The state as ``state.to_json()`` writes it (``azulcam-state/1``)."""
        return _json_of(self._dump())

    def to_state(self) -> AzulState:
        """The reference state this core holds."""
        return AzulState.from_json(self.to_json())


def _move(kind: int, a: int, b: int, c: int, d: int, e: int) -> Take | WallMove:
    if kind:
        return WallMove(a, FLOOR if c == 5 else c)
    return Take(CENTER if a == _MAX_FACTORIES else a, COLORS[b] if b >= 0 else None, FLOOR if c == 5 else c, bool(d), e)


def flat_of(state: AzulState) -> list[int]:
    """The flat form (``_azul_core.c``'s layout) of a reference state, read from its fields."""
    s: Any = state
    first_holder = -1 if s._first_holder is None else s._first_holder
    last = s._last_round_end
    p, r = s._tiling_at if s._phase == 2 else (0, 0)  # the cursor means nothing out of the tiling
    flat = [s.players, int(s.grey), int(s.jokers), int(s._pooled), s.round, s._phase, s._to_move, s._start_player,
            int(s._first_in_center), first_holder, p, r, _END_REASONS.index(s._end_reason), int(last is not None),
            0 if last is None else last, s._on_table]
    flat += s._bag
    flat += s._spare
    for f in range(_MAX_FACTORIES):
        pile = s._factories[f] if f < len(s._factories) else {}
        flat += [pile.get(t, 0) for t in range(6)]
    flat += [s._center.get(t, 0) for t in range(6)]
    for b in s._boards:
        if len(b.floor) > 7:
            raise ValueError("a floor line of more than 7 tiles")
        flat += b.line_color + b.line_count + b.line_jokers + b.wall + b.row_filled + b.row_block + b.col_colors + b.accept
        flat.append(len(b.floor))
        flat += b.floor + [-1] * (7 - len(b.floor))
        flat += [b.score, b.placement, b.penalties, *b.bonus]
    return flat


def _pile(counts: Any) -> dict[str, int]:
    return {TILE_NAMES[t]: n for t, n in enumerate(counts) if n}


def _json_of(v: tuple[int, ...]) -> dict[str, Any]:
    """The ``azulcam-state/1`` object of a flat form (as ``AzulState.to_json``)."""
    players, grey, jokers, pooled, round_, phase, to_move, start, first_in_center, first_holder = v[:10]
    tiling_p, tiling_r, end_reason, has_last, last, _ = v[10:_HEAD]
    at = _HEAD
    bag, lid = v[at:at + 6], v[at + 6:at + 12]
    at += 12
    factories = []
    for f in range({2: 5, 3: 7, 4: 9}[players]):
        pile = v[at + 6 * f:at + 6 * f + 6]
        factories.append([TILE_NAMES[t] for t in range(6) for _ in range(pile[t])])
    at += 6 * _MAX_FACTORIES
    center = v[at:at + 6]
    at += 6
    boards = []
    for _ in range(players):
        b = v[at:at + _BOARD_FIELDS]
        at += _BOARD_FIELDS
        floor_len = b[60]
        score, placement, penalties, rows, columns, colors = b[68:74]
        boards.append({
            "score": score, "placement": placement, "penalties": penalties,
            "bonus": {"rows": rows, "columns": columns, "colors": colors},
            "lines": [{"color": COLORS[b[r]] if b[r] >= 0 else None, "count": b[5 + r], "jokers": b[10 + r]} for r in range(5)],
            "wall": [[TILE_NAMES[t] if t >= 0 else None for t in b[15 + 5 * r:20 + 5 * r]] for r in range(5)],
            "floor": [TILE_NAMES[t] for t in b[61:61 + floor_len]],
        })
    return {
        "format": STATE_FORMAT,
        "game": "azul",
        "options": {"wall": "grey" if grey else "colored", "jokers": bool(jokers)},
        "players": players,
        "round": round_,
        "phase": _PHASES[phase],
        "to_move": to_move,
        "start_player": start,
        "marker": "center" if first_in_center else (None if first_holder < 0 else first_holder),
        "bag": _pile(bag),
        "lid": _pile(lid),
        "factories": factories,
        "center": _pile(center),
        "tiling": [tiling_p, tiling_r] if phase == 2 else None,
        "end_reason": _END_REASONS[end_reason],
        "last_round_end": last if has_last else None,
        **({"pooled": True} if pooled else {}),
        "boards": boards,
    }
