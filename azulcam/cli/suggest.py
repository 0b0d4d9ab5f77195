"""``azulcam suggest``: the best moves for the player to move in a record, with their reasons."""

from __future__ import annotations

import argparse

from .arguments import bounded
from .common import BadInput, add_text_options, dump_json, language, load_record


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    g = subparsers.add_parser("suggest", help="the best moves for the player to move in a record, with their reasons",
                              description="Search over the engine (what the bag deals is sampled, never read) and "
                                          "print the moves ranked: each with its chance to win, the points it is "
                                          "expected to win and lose this round, and why.")
    g.add_argument("record", help="an azulcam-record/1 (- for standard input)")
    g.add_argument("--at", type=int, default=None, help="after this many of its events (default: all)")
    g.add_argument("--time", type=bounded(float, 0.0, 60.0, low_open=True), default=1.0,
                   help="seconds of search (above 0, at most 60)")
    g.add_argument("--top", type=bounded(int, 1, 100), default=3, help="moves to print (1 to 100; all where there are fewer)")
    g.add_argument("--seed", type=int, default=None, help="the search's own draws")
    add_text_options(g, "the moves and their reasons")
    g.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The best moves for the player to move, after the record's first ``--at`` events."""
    from ..dashboard.words import worded
    from ..engine.ai import suggest
    from ..engine.errors import RecordError
    from ..engine.record import Game, Record

    try:
        record = load_record(args.record)
        at = len(record.events) if args.at is None else args.at
        if not 0 <= at <= len(record.events):
            raise BadInput("cli.suggest.at", at=at, events=len(record.events))
        state = Game(Record(record.game, record.players, record.options, record.start_player, record.events[:at],
                            record.seed)).state
        found = suggest(state, args.time, args.top, args.seed)
    except (RecordError, ValueError) as exc:
        raise BadInput("cli.reason", reason=exc) from None
    out = {"format": "azulcam-suggestions/1", "game": record.game, "at": at, "player": state.current_player,
           "moves": [worded(s.to_json(), record) for s in found]}
    if not args.text:
        print(dump_json(out))
        return 0
    from ..i18n import messages

    m = messages(language(args))
    print(m.text("suggest.title", player=m.text("player", n=state.current_player + 1)))
    for k, s in enumerate(out["moves"], 1):
        judged = m.text("suggest.playouts", win=round(100 * s["win"]), n=s["playouts"])
        why = m.text("list.sep").join(part for part in (s["reason"][m.lang], s["outlook"][m.lang], judged) if part)
        print(m.text("suggest.line", k=k, move=s["text"][m.lang], why=why))
    return 0
