"""The rules cores in C, for search: each game's state as a compact C value that plays a legal move
by its index in well under a microsecond, and whole playouts in C.

The Python engines stay the rules of record (they replay records and serve every interface); a core
is their copy for the playouts of search and the benchmark, proved equal to them move for move by
the property tests (tests/engine/test_fast_*.py). The cores are built by ``pip install -e .``
(setup.py); where one could not be built, :data:`AVAILABLE` says so and :func:`core_of` answers
None, and callers play on the Python engine.

A core's moves are the reference's own move objects (``legal_moves()``), in the reference's order;
search plays them by index (``legal_count``, ``play_index``, ``greedy_index``); chance is drawn
by the core's own seeded random stream (``seed``, ``deal_random``), by the rules' distribution
but not Python's stream; ``playout(wander)`` plays the rest of a game in C.
"""

from __future__ import annotations

from typing import Any

from . import fast_azul, fast_pavilion
from .azul import AzulState
from .fast_azul import FastAzul
from .fast_pavilion import FastPavilion
from .pavilion import PavilionState

#: Whether each game's core was built, by the game's name.
AVAILABLE: dict[str, bool] = {"azul": fast_azul.AVAILABLE, "pavilion": fast_pavilion.AVAILABLE}

_CORES: dict[type, Any] = {AzulState: FastAzul if fast_azul.AVAILABLE else None,
                           PavilionState: FastPavilion if fast_pavilion.AVAILABLE else None}


def core_of(state: Any) -> Any:
    """The core's copy of the reference state ``state``, or None where its game's core was not built."""
    core = _CORES.get(type(state))
    return None if core is None else core.of(state)


__all__ = ["AVAILABLE", "FastAzul", "FastPavilion", "core_of"]
