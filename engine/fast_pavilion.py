"""The Summer Pavilion rules core in C (``_pavilion_core.c``), for search: each game's state as a compact C value that plays a legal move
by its index in well under a microsecond, and whole playouts in C.

The Python engines stay the rules of record (they replay records and serve every interface); a core
is their copy for the playouts of search and the benchmark, proven equal to them move for move by
the property tests (tests/engine/test_fast_*.py). A core is built by ``pip install -e .``
(setup.py); where it could not be built, its class is ``None`` and ``AVAILABLE`` is false, and
callers fall back on the Python engine.

A core's moves are the reference's own move objects (``legal_moves()``), in the reference's order;
its chance is drawn by its own seeded random stream (``seed``, ``deal_random``), by the rules'
distribution but not Python's stream.
"""

from __future__ import annotations

from typing import Any

from . import pavilion_board as _topo
from .common import STATE_FORMAT

try:
    from . import _pavilion_core
except ImportError:  # no compiler where it was installed: the Python engine serves alone
    _pavilion_core = None  # type: ignore[assignment]

#: Whether the Summer Pavilion core was built.
AVAILABLE = _pavilion_core is not None


# --------------------------------------------------------------------------- Summer Pavilion

_COLORS = _topo.COLORS
_COLOR_INDEX = _topo.COLOR_INDEX
_SPACE_NAMES = _topo.SPACE_NAMES
_PAVILION_PHASES = ("deal", "acquire", "place", "bonus", "refill", "over")
_PAVILION_ENDS = (None, "rounds")
_CENTRE_SOURCE = 15
#: The reference's move objects by the core's move codes (moves are frozen values: shared).
_PAVILION_MOVES: dict[int, Any] = {}


def _pavilion_move(code: int) -> Any:
    """The reference's move of a core's move code (see engine/_pavilion_core.c)."""
    from .pavilion import Bonus, Pass, Place, Take

    kind = code & 3
    if kind == 0:
        source = code >> 2 & 15
        move: Any = Take("center" if source == _CENTRE_SOURCE else source, _COLORS[code >> 6 & 7])
    elif kind == 1:
        move = Place(_SPACE_NAMES[code >> 2 & 63], _COLORS[code >> 8 & 7], code >> 11 & 15)
    else:
        tiles = tuple(_COLORS[c] for c in range(6) for _ in range(code >> (2 + 4 * c) & 15))
        move = Bonus(tiles) if kind == 2 else Pass(tiles)
    _PAVILION_MOVES[code] = move
    return move


def _pavilion_data(state: Any) -> tuple[Any, ...]:
    """A reference state's fields as the core reads them (``Core(data)``)."""
    if state._end_reason not in _PAVILION_ENDS:
        raise ValueError(f"the core knows no end reason {state._end_reason!r}")
    holder = state._first_holder
    return (
        state.players, int(state.grey), state.round, state._phase, state._to_move, state._start_player,
        int(state._first_in_center), -1 if holder is None else holder,
        state._bag, state._spare, state._supply,
        [[f.get(c, 0) for c in range(6)] for f in state._factories], [state._center.get(c, 0) for c in range(6)],
        state._on_table, state._owed, _PAVILION_ENDS.index(state._end_reason), int(state._pooled),
        [(b.space, b.hand, b.corners, b.score, b.placement, b.penalties, b.stars, b.numbers, int(b.passed))
         for b in state._boards],
    )


def _pile(counts: list[int]) -> dict[str, int]:
    return {_COLORS[t]: n for t, n in enumerate(counts) if n}


if _pavilion_core is not None:

    class FastPavilion(_pavilion_core.Core):
        """A Summer Pavilion state in the C core: ``of`` a reference state, then played by move
        index (``legal_count``, ``play_index``, ``greedy_index``), by chance (``deal_random``, or
        ``apply_chance`` of a reference event), or to the end (``playout``, ``random_game``).

        ``current_player``, ``legal_moves()``, ``scores()``, ``winners()`` and ``to_json()`` are
        the reference's. ``copy()`` copies the random stream too: seed a copy to draw another future.
        """

        __slots__ = ()
        game = "pavilion"

        @classmethod
        def of(cls, state: Any) -> "FastPavilion":
            """The core's copy of a reference :class:`~.pavilion.PavilionState` (any phase)."""
            return cls(_pavilion_data(state))

        @classmethod
        def new(cls, players: int = 2, side: str = "colored", start_player: int = 0) -> "FastPavilion":
            from .pavilion import PavilionState

            return cls.of(PavilionState.new(players, side, start_player))

        @property
        def phase(self) -> str:
            return _PAVILION_PHASES[self.phase_index]

        def legal_moves(self) -> list[Any]:
            """The legal moves as the reference's move objects, in the reference's order."""
            moves = _PAVILION_MOVES
            return [moves.get(code) or _pavilion_move(code) for code in self.legal_codes()]

        def play(self, move: Any) -> None:
            """Play a legal move given as the reference's move object (ValueError if not legal)."""
            self.play_index(self.legal_moves().index(move))

        def apply_chance(self, event: Any) -> None:
            """Apply a reference chance event (a ``Deal`` or ``Refill``, or a record's JSON of
            one), checked against the bag and the tower (ValueError)."""
            from .pavilion import Deal, Refill, deal_from_json, refill_from_json

            if isinstance(event, dict):
                if set(event) == {"deal"}:
                    event = deal_from_json(event["deal"])
                elif set(event) == {"refill"}:
                    event = refill_from_json(event["refill"])
                else:
                    raise ValueError(f"not a Summer Pavilion chance event: {event!r:.80}")
            index = _COLOR_INDEX
            if isinstance(event, Deal):
                supply = None if event.supply is None else [index[c] for c in event.supply]
                self.apply_deal([[index[c] for c in f] for f in event.factories], supply)
            elif isinstance(event, Refill):
                self.apply_refill([index[c] for c in event.supply])
            else:
                raise ValueError(f"not a Summer Pavilion chance event: {event!r:.80}")

        def to_json(self) -> dict[str, Any]:
            """The state as the reference's ``to_json()`` writes it (``azulcam-state/1``)."""
            (players, grey, rnd, phase, to_move, start, in_centre, holder, bag, spare, supply, factories, centre,
             _on_table, owed, ended, pooled, boards) = self.export()
            out: dict[str, Any] = {
                "format": STATE_FORMAT, "game": "pavilion", "options": {"side": "grey" if grey else "colored"},
                "players": players, "round": rnd, "phase": _PAVILION_PHASES[phase], "to_move": to_move,
                "start_player": start, "token": "center" if in_centre else (None if holder < 0 else holder),
                "bag": _pile(bag), "tower": _pile(spare),
                "supply": [_COLORS[c] if c >= 0 else None for c in supply],
                "factories": [[_COLORS[t] for t in range(6) for _ in range(f[t])] for f in factories],
                "center": _pile(centre), "owed": owed, "end_reason": _PAVILION_ENDS[ended],
            }
            if pooled:
                out["pooled"] = True
            out["boards"] = [
                {"score": score, "placement": placement, "penalties": penalties, "stars": stars, "numbers": numbers,
                 "passed": bool(passed), "spaces": {_SPACE_NAMES[i]: _COLORS[c] for i, c in enumerate(space) if c >= 0},
                 "hand": _pile(hand), "corners": [_COLORS[c] for c in corners]}
                for space, hand, corners, score, placement, penalties, stars, numbers, passed in boards]
            return out

else:
    FastPavilion = None  # type: ignore[assignment,misc]
