"""The tracker alone, on exact views: games followed with K events in a row that no view shows.

A camera that drops out, or a table played faster than the still views: the events unseen must be
worked out from the view that follows. The views are those a reader sure of everything would give
(``explain.exact_view``), so that what is measured is the tracker's search, not the reader. Each
game of the built-in greedy players is seen event by event, except K events in a row from event
12 + 7 x seed, one second each.

Prints per game whether the record is identical to the truth's, whether it ends alike (the same
table and as many events: records that differ only in what no view showed), the scores where they
differ, and the seconds the tracker took; then the totals.

    python bench/gaps.py [--unseen 4] [--seeds 3]
"""

from __future__ import annotations

import argparse
import time

from azulcam.engine.observe import expected
from azulcam.engine.players import make_player
from azulcam.engine.record import Game, play_game, replay
from azulcam.follow.explain import exact_view
from azulcam.follow.track import Tracker

CASES = (("azul", {"wall": "colored", "jokers": False}), ("pavilion", {"side": "colored"}),
         ("azul", {"wall": "grey", "jokers": True}))


def follow(game: str, options: dict, players: int, seed: int, unseen: int) -> dict:
    truth = play_game(game, [make_player("greedy", seed + i) for i in range(players)], options, seed,
                      start_player=seed % players).record
    first = 12 + 7 * seed
    truth.events = truth.events[:first + unseen + 9]
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    tracker = Tracker(Game.new(game, players, options), first_near=(700, 400))
    t0 = time.perf_counter()
    for k, state in enumerate(states):
        if not first < k <= first + unseen:
            tracker.see(exact_view(state, float(k)))
    seconds = time.perf_counter() - t0
    got = tracker.game
    same = [_sorted(e) for e in got.record.events] == [_sorted(e) for e in truth.events]
    alike = len(got.record.events) == len(truth.events) and expected(got.state) == expected(states[-1])
    return {"same": same, "alike": alike, "scores": (got.state.scores(), states[-1].scores()), "seconds": seconds}


def _sorted(event: dict) -> dict:
    if "deal" in event:
        return {"deal": {**event["deal"], "factories": [sorted(f) for f in event["deal"]["factories"]]}}
    return event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unseen", type=int, default=4, help="events in a row no view shows")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    results = []
    for game, options in CASES:
        for players in (2, 3):
            for seed in range(args.seeds):
                r = follow(game, options, players, seed, args.unseen)
                results.append(r)
                got, want = r["scores"]
                print(f"{game} {options} {players}p seed {seed}: {'identical' if r['same'] else 'alike' if r['alike'] else 'LOST'}"
                      f"{'' if got == want else f', scores {got} for {want}'}, {r['seconds']:.1f} s", flush=True)
    n = len(results)
    print(f"{args.unseen} events unseen: identical {sum(r['same'] for r in results)} of {n}, alike "
          f"{sum(r['alike'] for r in results)} of {n}, scores right {sum(r['scores'][0] == r['scores'][1] for r in results)} "
          f"of {n}; tracker time median {sorted(r['seconds'] for r in results)[n // 2]:.1f} s, max "
          f"{max(r['seconds'] for r in results):.1f} s")


if __name__ == "__main__":
    main()
