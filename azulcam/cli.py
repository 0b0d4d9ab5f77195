"""``azulcam`` command line. Usage errors exit 2, bad input exits 1; both print to stderr."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Sequence

from . import __version__
from .engine.errors import EngineError
from .engine.players import PLAYERS, make_player
from .engine.record import Record, play_game, score_report


def dump_json(data: object) -> str:
    """Indented JSON with lists of numbers, and the small objects inside lists, kept on one line."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    text = re.sub(r"\[\s*([-\d.,\s]*?)\s*\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text)
    return re.sub(r"\{\s*(\"[^{}]*?)\s*\}", lambda m: "{" + " ".join(m.group(1).split()) + "}", text)


class BadInput(Exception):
    """Input the user gave that azulcam cannot use (exit code 1)."""


def _options(args: argparse.Namespace) -> dict[str, object]:
    if args.game == "azul":
        if args.side is not None:
            raise BadInput("--side is a Summer Pavilion option (Azul has --wall)")
        return {"wall": args.wall or "colored", "jokers": args.jokers}
    if args.wall is not None or args.jokers:
        raise BadInput("--wall and --jokers are Azul options (Summer Pavilion has --side)")
    return {"side": args.side or "colored"}


def _players(spec: str | None, count: int, seed: int) -> list[object]:
    if spec is None:
        spec = "greedy,random" if count == 2 else "greedy"
    kinds = [k.strip() for k in spec.split(",")]
    if len(kinds) == 1:
        kinds = kinds * count
    if len(kinds) != count:
        raise BadInput(f"--bots names {len(kinds)} players for a {count}-player game")
    try:
        return [make_player(kind, seed * 100 + i) for i, kind in enumerate(kinds)]
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def cmd_play(args: argparse.Namespace) -> int:
    players = _players(args.bots, args.players, args.seed)
    game = play_game(args.game, players, _options(args), args.seed)
    if args.out == "-":
        sys.stdout.write(game.record.dumps())
    else:
        try:
            game.record.save(args.out)
        except OSError as exc:
            raise BadInput(f"cannot write {args.out}: {exc.strerror}") from None
        state = game.state
        print(f"{args.game}, {args.players} players, seed {args.seed}: {len(game.record.events)} events, "
              f"final scores {state.scores()}, winners {state.winners()} -> {args.out}", file=sys.stderr)
    return 0


def _load_record(path: str) -> Record:
    try:
        if path == "-":
            return Record.loads(sys.stdin.read())
        return Record.load(path)
    except OSError as exc:
        raise BadInput(f"cannot read record {path}: {exc.strerror}") from None


def cmd_score(args: argparse.Namespace) -> int:
    record = _load_record(args.record)
    report = score_report(record)
    print(json.dumps(report) if args.compact else dump_json(report))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    players = _players("greedy,random", 2, args.seed)
    game = play_game("azul", players, {"wall": "colored", "jokers": False}, args.seed)
    report = score_report(game.record)
    print(dump_json(report))
    state = game.state
    print(f"demo: seeded Azul game (seed {args.seed}), greedy (player 0) against random (player 1): "
          f"{state.round} rounds, final {state.scores()}, winners {state.winners()}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="azulcam",
        description="Keeps a game of Azul or Azul: Summer Pavilion: rules engines, records and score reports.",
    )
    parser.add_argument("--version", action="version", version=f"azulcam {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="play a game between built-in players and write its record",
                       description="Play a seeded game between built-in players and write its azulcam-record/1.")
    p.add_argument("--game", choices=["azul", "pavilion"], default="azul")
    p.add_argument("--players", type=int, choices=[2, 3, 4], default=2)
    p.add_argument("--wall", choices=["colored", "grey"], default=None, help="Azul: which wall (default colored)")
    p.add_argument("--jokers", action="store_true", help="Azul: play with the joker tiles")
    p.add_argument("--side", choices=["colored", "grey"], default=None,
                   help="Summer Pavilion: which side of the player boards (default colored)")
    p.add_argument("--seed", type=int, required=True, help="seed of the deals and of the random players")
    p.add_argument("--bots", default=None, metavar="KINDS",
                   help=f"comma-separated built-in players in seating order ({', '.join(PLAYERS)}); "
                        "one name for all (default: greedy,random for 2 players, greedy for more)")
    p.add_argument("--out", required=True, help="record file to write ('-' for standard output)")
    p.set_defaults(func=cmd_play)

    s = sub.add_parser("score", help="print the azulcam-score/1 report of a record",
                       description="Replay a record, checking every event, and print its score report.")
    s.add_argument("record", help="record file ('-' for standard input)")
    s.add_argument("--compact", action="store_true", help="print the report on one line")
    s.set_defaults(func=cmd_score)

    d = sub.add_parser("demo", help="play a seeded game (greedy against random) and print its score report",
                       description="The main job until a camera is attached: a seeded game between two "
                                   "built-in players, and its score report.")
    d.add_argument("--seed", type=int, default=2026)
    d.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except (BadInput, EngineError) as exc:
        print(f"azulcam {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("azulcam: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: say so in one line rather than a traceback
        print(f"azulcam {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(please report it with the command you ran)", file=sys.stderr)
        return 1
