"""The rules engines: game states, legal moves, chance events, scoring and records.

Imports nothing but the standard library and numpy: vision and the dashboard build on it.
"""

from .azul import AzulState, Deal, Take, WallMove
from .games import GAMES, GameSpec, find_game
from .pavilion import PavilionState
from .zones import Slot, Zone, ZoneError
from .common import CHANCE, TERMINAL, LegalMoves, Moved, Outcome, Scored
from .errors import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    ImpossibleDealError,
    InvalidMoveError,
    ObservationError,
    RecordError,
    StateError,
)

__all__ = [
    "AzulState", "Deal", "Take", "WallMove", "PavilionState", "GAMES", "GameSpec", "find_game",
    "CHANCE", "TERMINAL", "LegalMoves", "Moved", "Outcome", "Scored",
    "AmbiguousMoveError", "EngineError", "IllegalMoveError", "ImpossibleDealError", "InvalidMoveError", "ObservationError",
    "RecordError", "StateError", "Slot", "Zone", "ZoneError",
]
