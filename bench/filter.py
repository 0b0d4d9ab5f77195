"""Whole games followed by the filter alone (`follow/filter.py`) on views read through a known confusion.

Each game is played by the built-in greedy players from its seed and seen after every event (amid
Azul's wall choices at a round's end, only once all are made), each view read as
tests/support/confusion.py reads it: every zone right but at ``--rate`` (each slot, and each tile of
a display, the centre or a hand, read as a kind drawn at random), the readings claiming ``--sure``;
with ``--lasting``, a zone misread is misread the same way in every view until its content changes
(a reader's on a printing it never saw). No image is drawn or read: this measures the filter, not
the reader.

Prints per game and in all: records identical to the truth (deals' tiles in any order), events
committed unsure, events committed sure that the truth does not hold (the figure that must stay 0),
games lost, and the time per view (mean and worst).

    python bench/filter.py [--games 8] [--rate 0.01] [--sure 0.97] [--seed 0] [--lasting]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from azulcam.engine.players import GreedyPlayer
from azulcam.engine.record import play_game
from azulcam.follow.filter import Filter

ROOT = Path(__file__).resolve().parent.parent
#: The games turned through: Azul coloured and grey with jokers, Summer Pavilion coloured and grey, 2 to 4 players.
KINDS = [("azul", 2, {}), ("pavilion", 2, {"side": "colored"}), ("azul", 3, {"wall": "grey", "jokers": True}),
         ("pavilion", 3, {"side": "grey"}), ("azul", 4, {}), ("pavilion", 4, {"side": "colored"})]


def _support():
    """tests/support: the views the filter's tests use (confusion.py), and the records compared as
    they do (tracking.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import support.confusion
    import support.tracking

    return support.confusion, support.tracking


def follow(game, players, options, seed, rate, sure, support, lasting=False):
    confusion, tracking = support
    record = play_game(game, [GreedyPlayer() for _ in range(players)], options, seed).record
    rng = random.Random(seed)
    lasting_misreads = confusion.LastingMisreads(rng, rate)
    follower, committed, times = Filter(record.new_state()), [], []
    for k, state in confusion.states_seen(record)[1:]:
        misread = lasting_misreads(state) if lasting else confusion.misread_at_random(state, rng, rate)
        view = confusion.view_of(state, k, sure=sure, misread=misread)
        start = time.perf_counter()
        committed += follower.see(view)
        times.append(time.perf_counter() - start)
        if follower.lost:
            break
    committed += follower.finish()
    truth = tracking.sorted_deals(record.events)
    got = tracking.sorted_deals([c.event for c in committed])
    wrong = sum(1 for i, c in enumerate(committed) if c.sure and (i >= len(truth) or got[i] != truth[i]))
    return {"identical": got == truth, "events": len(truth), "unsure": sum(not c.sure for c in committed),
            "wrong_sure": wrong, "lost": follower.lost, "mean": sum(times) / len(times), "worst": max(times)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--rate", type=float, default=0.01)
    parser.add_argument("--sure", type=float, default=0.97)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lasting", action="store_true")
    args = parser.parse_args()
    support = _support()
    rows = []
    for n in range(args.games):
        game, players, options = KINDS[n % len(KINDS)]
        row = follow(game, players, options, args.seed + n, args.rate, args.sure, support, args.lasting)
        rows.append(row)
        print(f"{game} {players}p {options or ''} seed {args.seed + n}: {row['events']} events, "
              f"{'identical' if row['identical'] else 'differs'}, {row['unsure']} unsure, "
              f"{row['wrong_sure']} wrong and sure, {'lost, ' if row['lost'] else ''}"
              f"{row['mean'] * 1000:.0f} ms a view (worst {row['worst'] * 1000:.0f})", flush=True)
    print(f"in all: {sum(r['identical'] for r in rows)} of {len(rows)} records identical, "
          f"{sum(r['unsure'] for r in rows)} events unsure, {sum(r['wrong_sure'] for r in rows)} wrong and sure, "
          f"{sum(r['lost'] for r in rows)} lost; {1000 * sum(r['mean'] for r in rows) / len(rows):.0f} ms a view "
          f"(worst {1000 * max(r['worst'] for r in rows):.0f}) at rate {args.rate}{' lasting' if args.lasting else ''}, "
          f"readings sure at {args.sure}")


if __name__ == "__main__":
    main()
