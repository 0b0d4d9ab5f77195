"""What the commands share: the refusal of bad input, JSON out and in, ``--out``, ``--text`` and
``--lang``, the reading model and the rules' check of a reading."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..engine.record import Record


class BadInput(Exception):
    """Input the user gave that azulcam cannot use (exit code 1)."""


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
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
    print(f"{summary} -> {path}", file=sys.stderr)


def load_json(path: str, what: str) -> object:
    """The JSON at ``path`` (``-``: standard input). Raises :class:`BadInput` naming ``what`` and
    where it cannot be read."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read {what} {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what} {path}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (RecursionError, ValueError) as exc:  # nested too deep, or a number too long to read
        raise BadInput(f"{what} {path}: unreadable JSON ({type(exc).__name__})") from None


def load_record(path: str) -> Record:
    """The record at ``path`` (``-``: standard input), its form checked field by field
    (:mod:`azulcam.formats`) before the engine reads it. Raises :class:`BadInput`."""
    from ..formats import FormatError
    from ..formats.record import read_record

    data = load_json(path, "record")
    try:
        return Record.from_json(read_record(data))
    except FormatError as exc:
        raise BadInput(f"record {path}: {exc}") from None


def add_text_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--text`` (``what`` for people instead of JSON) and its ``--lang``."""
    parser.add_argument("--text", action="store_true", help=f"print {what} for people instead of JSON")
    parser.add_argument("--lang", choices=["en", "fr"], default=None,
                        help="language of --text (default: from LC_ALL, LC_MESSAGES, LANG or LANGUAGE; else en)")


def language(args: argparse.Namespace) -> str:
    """The language of ``--text``: ``--lang``, else the environment's."""
    from ..i18n import default_language

    return args.lang or default_language()


def reading_model() -> object:
    """The shipped reading model. Raises :class:`BadInput` where the install is damaged."""
    from ..vision.classify import ModelError, default_classifier

    try:
        return default_classifier()
    except ModelError as exc:
        raise BadInput(str(exc)) from None


def check(observation: dict, options: dict) -> dict[str, object]:
    """The rules engine's verdict on an observation of a game with ``options`` (the profile's)."""
    from ..engine.position import problems
    from ..i18n.places import Table
    from ..i18n.words import messages_json

    found = problems(observation, options)
    return {"possible": not found, "problems": messages_json(found, Table.of(observation["game"], options))}
