"""``azulcam`` command line, one module a command, each adding its own parser. Usage errors exit 2,
bad input exits 1; both print to stderr, bad input in the command's language (``--lang``, else
the locale's)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .. import __version__
from . import analyze, calibrate, demo, layout, play, render, score, serve, suggest, teach, watch
from .common import language, refusals, said

#: The commands, in the order ``--help`` lists them.
COMMANDS = (play, score, render, layout, calibrate, analyze, teach, watch, suggest, serve, demo)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="azulcam",
        description="A table companion for Azul and Azul: Summer Pavilion: rules engines, records, score reports, "
                    "and reading photos of a game table. Add --text to analyze, score or demo for a summary "
                    "in English or French.",
    )
    parser.add_argument("--version", action="version", version=f"azulcam {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("azulcam: interrupted", file=sys.stderr)
        return 130
    except refusals() as exc:  # (looked up only once something is raised: the formats load pydantic)
        # The prefix is the program's voice, as argparse's "usage:" and "error:" are: English.
        print(f"azulcam {args.command}: error: {said(exc, language(args))}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``azulcam score game.json | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes at exit
        return 141
    except OSError as exc:  # the machine's, not the input's nor ours: a full disk, a folder removed, a device gone
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"azulcam {args.command}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug of ours: say so in one line rather than a traceback
        print(f"azulcam {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(please report it with the command you ran)", file=sys.stderr)
        return 1
