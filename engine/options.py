"""The games' options as a record, a profile and an observation write them, checked."""

from __future__ import annotations

from typing import Any

from .errors import RecordError, show

#: Every option of each game, with its allowed values; the first is the default.
OPTIONS: dict[str, dict[str, tuple[Any, ...]]] = {
    "azul": {"wall": ("colored", "grey"), "jokers": (False, True)},
    "pavilion": {"side": ("colored", "grey")},
}
_GAME_NAMES = {"azul": "Azul", "pavilion": "Summer Pavilion"}


def read_options(game: str, options: Any, error: type[ValueError] = RecordError) -> dict[str, Any]:
    """A game's options as a record writes them, checked, every option given (defaults filled in):
    Azul ``{"wall": "colored" | "grey", "jokers": bool}``, Summer Pavilion ``{"side": "colored" | "grey"}``.

    Raises ``error`` (:class:`RecordError`; a profile or an observation check passes its own kind)
    naming the unknown option or the bad value.
    """
    if not (isinstance(game, str) and game in OPTIONS):
        raise error(f"unknown game {show(game)} (games: {', '.join(OPTIONS)})")
    if not isinstance(options, dict):
        raise error(f"options must be a JSON object, not {show(options)}")
    allowed = OPTIONS[game]
    unknown = sorted(str(k) for k in options if k not in allowed)
    if unknown:
        raise error(f"unknown {_GAME_NAMES[game]} option {unknown[0]!r} (options: {', '.join(allowed)})")
    out = {}
    for key, values in allowed.items():
        value = options.get(key, values[0])
        if isinstance(values[0], bool):
            if not isinstance(value, bool):
                raise error(f"option {key} must be true or false, not {show(value)}")
        elif not (isinstance(value, str) and value in values):
            raise error(f"option {key} must be {' or '.join(map(repr, values))}, not {show(value)}")
        out[key] = value
    return out
