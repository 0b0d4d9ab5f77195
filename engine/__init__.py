"""The rules engines: game states, legal moves, chance events, scoring and records.

Imports nothing but the standard library and numpy: vision and the dashboard build on it.
"""

from .azul import AzulState, Deal, Take, WallMove
from .common import CHANCE, TERMINAL, LegalMoves, Moved, Outcome, Scored
from .errors import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    ImpossibleDealError,
    InvalidMoveError,
    ObservationError,
    RecordError,
)

__all__ = [
    "AzulState", "Deal", "Take", "WallMove",
    "CHANCE", "TERMINAL", "LegalMoves", "Moved", "Outcome", "Scored",
    "AmbiguousMoveError", "EngineError", "IllegalMoveError", "ImpossibleDealError", "InvalidMoveError", "ObservationError",
    "RecordError",
]
