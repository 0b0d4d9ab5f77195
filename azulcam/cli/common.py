"""What the commands share: the refusal of bad input and its words, JSON out and in, ``--out``,
``--text`` and ``--lang``, the reading model and the rules' check of a reading."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..engine.errors import CodedError
from ..engine.record import Record
from ..i18n import LANGUAGES, default_language
from ..i18n.words import is_message, words


class BadInput(Exception):
    """Input the user gave that azulcam cannot use (exit code 1): a ``cli.*`` code of the
    catalogue and its parameters (a parameter may be another message, worded in its place), worded
    where it is printed, in the user's language (:func:`said`). ``str()`` is the code and
    parameters, for logs and tracebacks."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return self.code + (f" {self.params}" if self.params else "")


def refusals() -> tuple[type[Exception], ...]:
    """The errors that refuse the user's input, each a message the command line words (exit 1):
    :class:`BadInput` and every coded error of the other parts (the engine's, the formats', the
    reader's, the follower's)."""
    return BadInput, CodedError


def said(message: Any, lang: str) -> str:
    """``message`` (a refusal, an engine error, a format's refusal, a warning) in the words of
    ``lang``'s catalogue (:func:`~azulcam.i18n.words.words`); a warning that is a sentence (a
    note of the machine's, such as an OSError's), as it is."""
    return words(message, lang) if is_message(message) else str(message)


def warn(command: str, message: Any, lang: str) -> None:
    """``message`` said on standard error as a warning of ``azulcam command``."""
    print(f"azulcam {command}: warning: {said(message, lang)}", file=sys.stderr)


def dump_json(data: object, indent: int = 2) -> str:
    """Indented JSON with lists of numbers, and objects that hold no object, kept on one line.
    Built value by value, so that a string is printed exactly as it is (it reads back equal)."""
    def flat(value: object) -> bool:
        if isinstance(value, dict):
            return all(not isinstance(v, dict) and (not isinstance(v, list) or flat(v)) for v in value.values())
        if isinstance(value, list):
            return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        return True

    def encoded(value: object, level: int) -> str:
        if flat(value) or not value:
            return json.dumps(value, ensure_ascii=False)
        pad, inner = " " * (indent * level), " " * (indent * (level + 1))
        if isinstance(value, dict):
            items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {encoded(v, level + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        return "[\n" + ",\n".join(inner + encoded(v, level + 1) for v in value) + "\n" + pad + "]"  # type: ignore[union-attr]

    return encoded(data, 0)


def write_out(path: str, text: str, summary: str) -> None:
    """``text`` to standard output (``-``) or to a file, then ``summary`` on stderr. Raises
    :class:`BadInput` where the file cannot be written."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput("cli.cannot_write", path=path, reason=exc.strerror) from None
    print(f"{summary} -> {path}", file=sys.stderr)


#: What :func:`load_json` reads: each has its own refusals (``cli.cannot_read.WHAT``, ...), so that
#: every language words the file's kind its own way.
JSON_FILES = ("record", "profile", "observation")


def load_json(path: str, what: str) -> object:
    """The JSON at ``path`` (``-``: standard input), a file of the kind ``what`` (one of
    :data:`JSON_FILES`). Raises :class:`BadInput` naming ``what`` and where it cannot be read."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cli.cannot_read.{what}", path=path, reason=getattr(exc, "strerror", None) or str(exc)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"cli.malformed_json.{what}", path=path, line=exc.lineno, column=exc.colno,
                       reason=exc.msg) from None
    except (RecursionError, ValueError) as exc:  # nested too deep, or a number too long to read
        raise BadInput(f"cli.unreadable_json.{what}", path=path, kind=type(exc).__name__) from None


def load_record(path: str) -> Record:
    """The record at ``path`` (``-``: standard input), its form checked field by field
    (:mod:`azulcam.formats`) before the engine reads it. Raises :class:`BadInput`."""
    from ..formats import FormatError
    from ..formats.record import read_record

    data = load_json(path, "record")
    try:
        return Record.from_json(read_record(data))
    except FormatError as exc:
        raise BadInput("cli.record_invalid", path=path, reason=exc) from None


def add_text_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--text`` (``what`` for people instead of JSON) and its ``--lang``."""
    parser.add_argument("--text", action="store_true", help=f"print {what} for people instead of JSON")
    add_language_option(parser, "language of --text")


def add_language_option(parser: argparse.ArgumentParser, what: str = "language of the errors and warnings") -> None:
    """``--lang``: the language of the command's errors and warnings, and of whatever else
    ``what`` says it words (a command's ``--text``)."""
    parser.add_argument("--lang", choices=list(LANGUAGES), default=None,
                        help=f"{what} (default: from LC_ALL, LC_MESSAGES, LANG or LANGUAGE; else en)")


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    """``--memory``: the table memory to read with (and, for a command that teaches, to teach)."""
    parser.add_argument("--memory", default=None, metavar="PATH",
                        help="this table's memory (azulcam-table-memory/1, from azulcam teach and earlier watches; "
                             "default: PROFILE.memory.json beside the profile)")


def table_memory(args: argparse.Namespace, game: str) -> tuple[object, Path | None]:
    """The table memory a command reads with: ``--memory``, else the one kept beside
    ``--profile`` (none for a profile on standard input or a photo read without one: an empty
    memory, kept nowhere), and where it is kept. Raises :class:`BadInput` for one that cannot be
    used (damaged, newer, of another game), naming the file."""
    from ..vision.memory import TableMemory, TableMemoryError, memory_path_of

    path = (Path(args.memory) if getattr(args, "memory", None) is not None
            else memory_path_of(Path(args.profile)) if getattr(args, "profile", None) not in (None, "-") else None)
    if path is None:
        return TableMemory(game), None
    try:
        return TableMemory.load(path, game), path
    except TableMemoryError as exc:
        raise BadInput("cli.reason", reason=exc) from None


def language(args: argparse.Namespace) -> str:
    """The language of a command's words (its errors, warnings and ``--text``): ``--lang``,
    else the environment's."""
    return args.lang or default_language()


def reading_model() -> object:
    """The shipped reading model. Raises :class:`BadInput` where the install is damaged."""
    from ..vision.classify import ModelError, default_classifier

    try:
        return default_classifier()
    except ModelError as exc:
        raise BadInput("cli.reason", reason=exc) from None


def check(observation: dict, options: dict) -> dict[str, object]:
    """The rules engine's verdict on an observation of a game with ``options`` (the profile's)."""
    from ..engine.position import problems
    from ..i18n.places import Table
    from ..i18n.words import messages_json

    found = problems(observation, options)
    return {"possible": not found, "problems": messages_json(found, Table.of(observation["game"], options))}
