"""The public formats' forms, as pydantic models: every file and request is read through one.

A model checks a format's form (types, ranges, the fields a game has, rules between fields such as
"the player to move exists") and names the field that is wrong by its path
(``events.3.position.boards.1.lines.2.count``). What the rules of the game allow is the engine's to
check, after. :func:`checked` is the door: it gives the model, or raises :class:`FormatError`, a
catalogue code with its parameters.

This package imports pydantic, the engine (for its names and bounds) and the catalogue, nothing else of ours.
"""

from .problems import FormatError, checked, field_problem

__all__ = ["FormatError", "checked", "field_problem"]
