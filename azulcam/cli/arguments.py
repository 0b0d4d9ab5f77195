"""The flags the commands share: the kinds of value they take (a size, an event range, a bounded
number, a board's corners), the game options, declared once from the games' specs, and the
reading's ``--jokers``."""

from __future__ import annotations

import argparse
import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.games import GAMES, GameSpec
from ..engine.notice import Notice
from ..i18n import default_language
from .common import BadInput, said

#: The player counts of every game.
PLAYER_COUNTS = sorted({count for spec in GAMES.values() for count in spec.players})


def size(text: str) -> tuple[int, int]:
    """An argparse type: ``WIDTHxHEIGHT`` in pixels, 64 to 8192 each."""
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit() and 64 <= int(w) <= 8192 and 64 <= int(h) <= 8192):
        raise bad_value("cli.arg.not_a_size", text=text)
    return int(w), int(h)


def event_range(text: str) -> tuple[int, int | None]:
    """An argparse type: ``FIRST:LAST`` event indices (``LAST`` left out: to the end)."""
    first, colon, last = text.partition(":")
    try:
        return int(first or 0), (int(last) if last else None) if colon else int(first or 0)
    except ValueError:
        raise bad_value("cli.arg.not_an_event_range", text=text) from None


def bounded(kind: type, low: float, high: float, low_open: bool = False) -> Any:
    """An argparse type: a finite ``kind`` (int or float) in ``low``..``high`` (above ``low`` with
    ``low_open``), its refusal naming the range."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise bad_value("cli.arg.not_a_whole_number" if kind is int else "cli.arg.not_a_number", text=text) from None
        if not math.isfinite(value) or (value <= low if low_open else value < low) or value > high:
            raise bad_value("cli.arg.not_above" if low_open else "cli.arg.not_within", low=low, high=high, text=text)
        return value

    return parse


def quad(text: str) -> list[tuple[float, float]]:
    """An argparse type: a board's four corners ``x1,y1,...,x4,y4`` (TL TR BR BL)."""
    try:
        values = [float(v) for v in text.replace(";", ",").split(",")]
    except ValueError:
        values = []
    if len(values) != 8:
        raise bad_value("cli.arg.not_four_corners", text=text)
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def bad_value(code: str, **params: Any) -> argparse.ArgumentTypeError:
    """The refusal of an option's value, for argparse to print as the usage error it is. Worded
    while argparse reads the command line, before the command's ``--lang`` is known: in the
    locale's language (:func:`~azulcam.i18n.default_language`)."""
    return argparse.ArgumentTypeError(said(Notice(code, **params), default_language()))


def add_game_options(parser: argparse.ArgumentParser, option_help: Mapping[str, str], *, required: bool = False,
                     defaults: bool = False, game_help: str | None = None, players_help: str | None = None) -> None:
    """``--game`` and ``--players`` (``required``; with ``defaults``, the first game and its fewest
    players; else none), then one flag for each game option in ``option_help``, in its order and
    with its help: a choice among the option's values (none by default: a game's own default is
    filled in by :func:`game_and_options`, which also refuses another game's option) or, for a
    true/false option, a switch."""
    first = next(iter(GAMES.values()))
    parser.add_argument("--game", choices=list(GAMES), required=required, default=first.name if defaults else None,
                        help=game_help)
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, required=required,
                        default=first.players[0] if defaults else None, help=players_help)
    for name, text in option_help.items():
        values = tuple(dict.fromkeys(v for spec in GAMES.values() for v in spec.options.get(name, ())))
        if isinstance(values[0], bool):
            parser.add_argument(f"--{name}", action="store_true", help=text)
        else:
            parser.add_argument(f"--{name}", choices=list(values), default=None, help=text)
    parser.set_defaults(game_options=tuple(option_help))


def game_and_options(args: argparse.Namespace, *, fill: bool = True,
                     name_own_face: bool = False) -> tuple[GameSpec, dict[str, Any]]:
    """The game of ``--game`` and the options its flags (those :func:`add_game_options` declared)
    give: with ``fill`` every option of the game, checked, its defaults filled in; else only those
    given. Raises :class:`BadInput` where a flag given is no option of the game, saying whose each
    flag is (with ``name_own_face``: whose the flags of the other games are, and this game's face
    flag)."""
    spec = GAMES[args.game]
    names = args.game_options
    given = {name: getattr(args, name) for name in names if getattr(args, name) not in (None, False)}
    if any(name not in spec.options for name in given):
        if name_own_face:
            raise BadInput("cli.options_of_other_games", options=whose([n for n in names if n not in spec.options]),
                           game=title(spec), face=spec.face)
        raise BadInput("cli.reason", reason=whose(names))
    return spec, spec.read_options(given) if fill else given


def reading_options(profile: Any, jokers: bool) -> dict[str, Any]:
    """The game's options for a reading: the profile's, with ``--jokers`` turning the jokers on.
    Raises :class:`BadInput` where the profile's game has no jokers."""
    options = dict(profile.game_options)
    if jokers:
        if "jokers" not in GAMES[profile.game].options:
            raise BadInput("cli.reason", reason=whose(["jokers"]))
        options["jokers"] = True
    return options


def whose(names: Sequence[str]) -> Notice:
    """Which game's options the flags of the options ``names`` are, in the games' order, as a
    message (``cli.options_of.GAME.*``, one part a game, each after the other joined by "and"):
    ``--wall and --jokers are Azul options and --side a Summer Pavilion one``."""
    parts: list[Notice] = []
    for spec in GAMES.values():
        flags = [f"--{name}" for name in spec.options if name in names]
        if flags:  # the verb and the noun said once, in the first part
            parts.append(Notice(f"cli.options_of.{spec.name}.{'more' if parts else 'first'}."
                                f"{'one' if len(flags) == 1 else 'other'}", flags=listed(flags)))
    return functools.reduce(lambda said_so_far, part: Notice("list.and", head=said_so_far, last=part), parts)


def listed(items: Sequence[str]) -> str | Notice:
    """``a``, ``a and b``, ``a, b and c`` (a message, for each language's "and")."""
    return items[0] if len(items) == 1 else Notice("list.and", head=", ".join(items[:-1]), last=items[-1])


def title(spec: GameSpec) -> Notice:
    """The game's title as the command line's messages name it (:attr:`GameSpec.title` in English)."""
    return Notice(f"cli.title.{spec.name}")
