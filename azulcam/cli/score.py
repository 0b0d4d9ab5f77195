"""``azulcam score``: a record replayed, every event checked, and its score report."""

from __future__ import annotations

import argparse
import json

from ..engine.record import final_state, score_report
from .common import add_text_options, dump_json, language, load_record


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    s = subparsers.add_parser("score", help="print the azulcam-score/1 report of a record",
                              description="Replay a record, checking every event, and print its score report.")
    s.add_argument("record", help="record file ('-' for standard input)")
    s.add_argument("--compact", action="store_true", help="print the report on one line")
    add_text_options(s, "the scores, their breakdown and the final boards")
    s.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record = load_record(args.record)
    report = score_report(record)
    if args.text:
        from ..text import score_text

        names = record.players if isinstance(record.players, list) else None
        print(score_text(report, final_state(record), language(args), names=names), end="")
        return 0
    print(json.dumps(report) if args.compact else dump_json(report))
    return 0
