"""``azulcam play``: a seeded game between built-in players, written as its record."""

from __future__ import annotations

import argparse
import sys

from ..engine.players import PLAYERS, make_player
from ..engine.record import play_game
from .arguments import add_game_options, game_and_options
from .common import BadInput, add_language_option


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("play", help="play a game between built-in players and write its record",
                              description="Play a seeded game between built-in players and write its azulcam-record/1.")
    add_game_options(p, {"wall": "Azul: which wall (default colored)", "jokers": "Azul: play with the joker tiles",
                         "side": "Summer Pavilion: which side of the player boards (default colored)"}, defaults=True)
    p.add_argument("--seed", type=int, required=True, help="seed of the deals and of the random players")
    p.add_argument("--bots", default=None, metavar="KINDS",
                   help=f"comma-separated built-in players in seating order ({', '.join(PLAYERS)}); "
                        "one name for all (default: greedy,random for 2 players, greedy for more)")
    p.add_argument("--out", required=True, help="record file to write ('-' for standard output)")
    add_language_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    players = _players(args.bots, args.players, args.seed)
    _, options = game_and_options(args, name_own_face=True)
    game = play_game(args.game, players, options, args.seed)
    if args.out == "-":
        sys.stdout.write(game.record.dumps())
    else:
        try:
            game.record.save(args.out)
        except OSError as exc:
            raise BadInput("cli.cannot_write", path=args.out, reason=exc.strerror) from None
        state = game.state
        print(f"{args.game}, {args.players} players, seed {args.seed}: {len(game.record.events)} events, "
              f"final scores {state.scores()}, winners {state.winners()} -> {args.out}", file=sys.stderr)
    return 0


def _players(bots: str | None, count: int, seed: int) -> list[object]:
    """The built-in players ``--bots`` names, seeded. Raises :class:`BadInput` for an unknown kind
    or a count other than the game's."""
    if bots is None:
        bots = "greedy,random" if count == 2 else "greedy"
    kinds = [k.strip() for k in bots.split(",")]
    if len(kinds) == 1:
        kinds = kinds * count
    if len(kinds) != count:
        raise BadInput("cli.play.bots_count", given=len(kinds), players=count)
    try:
        return [make_player(kind, seed * 100 + i) for i, kind in enumerate(kinds)]
    except ValueError as exc:
        raise BadInput("cli.reason", reason=exc) from None
