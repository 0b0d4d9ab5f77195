"""The move assistant against the built-in players: games won, seats swapped.

Plays ``--games`` seeded games of the assistant (``engine.ai.suggest``, ``--time`` seconds a move,
or exactly ``--playouts`` a move, which repeats whatever the machine's load) against ``--against``
players (greedy or random): the assistant takes each seat in turn, the deals drawn from each
game's seed. Prints the assistant's wins (ties count half), its mean score and the others', and
the seconds a move took. ``--jobs`` plays games side by side, one process each; the assistant's
searches run on ``--threads`` cores each (by default the machine's cores shared by the jobs).

    python bench/ai.py [--game azul] [--players 2] [--games 400] [--time 1.0 | --playouts N]
                       [--against greedy] [--jobs 1] [--threads N]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time

from azulcam.engine.ai import cores, suggest
from azulcam.engine.common import CHANCE
from azulcam.engine.players import make_player
from azulcam.engine.record import Game

OPTIONS = {"azul": {"wall": "colored", "jokers": False}, "pavilion": {"side": "colored"}}


def play(game: str, players: int, seat: int, seed: int, seconds: float, against: str,
         playouts: int | None = None, threads: int | None = None) -> tuple[float, list[int], list[float]]:
    """One game with the assistant in ``seat`` (``seconds`` a move, or exactly ``playouts``): its
    result (1, 1/k for a k-way tie, 0), the scores, and the seconds each of its moves took."""
    match = Game.new(game, players, OPTIONS[game], start_player=seed % players)
    others = make_player(against, seed)
    rng = random.Random(seed)
    times = []
    state = match.state
    while not state.is_over():
        if state.current_player == CHANCE:
            match.apply(state.sample_chance(rng))
        elif state.current_player == seat:
            t0 = time.perf_counter()
            best = suggest(state, seconds, top=1, seed=seed * 1000 + len(match.record.events), playouts=playouts,
                           threads=threads)[0]
            times.append(time.perf_counter() - t0)
            match.apply(best.move)
        else:
            match.apply(others.choose(state))
        state = match.state
    scores = state.scores()
    winners = [p for p, s in enumerate(scores) if s == max(scores)]
    return (1.0 / len(winners) if seat in winners else 0.0), scores, times


def _one(job: tuple[argparse.Namespace, int]) -> tuple[int, float, list[int], list[float]]:
    args, k = job
    seat = k % args.players
    return (seat, *play(args.game, args.players, seat, args.seed + k // args.players, args.time, args.against,
                        playouts=args.playouts, threads=args.threads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(OPTIONS), default="azul")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--time", type=float, default=1.0, help="seconds the assistant thinks a move")
    parser.add_argument("--playouts", type=int, default=None, help="exactly this many playouts a move, instead of --time")
    parser.add_argument("--against", choices=("greedy", "random"), default="greedy")
    parser.add_argument("--seed", type=int, default=500000)
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    parser.add_argument("--threads", type=int, default=None, help="cores each search runs on")
    args = parser.parse_args()
    args.threads = args.threads or max(1, cores() // args.jobs)
    results, mine, theirs, times = [], [], [], []
    jobs = [(args, k) for k in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        for k, (seat, result, scores, took) in enumerate(pool.imap(_one, jobs)):
            results.append(result)
            mine.append(scores[seat])
            theirs.extend(s for p, s in enumerate(scores) if p != seat)
            times.extend(took)
            print(f"game {k + 1}: seat {seat}, scores {scores}, {'won' if result == 1 else 'tied' if result else 'lost'}", flush=True)
    budget = f"{args.playouts} playouts" if args.playouts is not None else f"{args.time:g} s on {args.threads} cores"
    print(f"{args.game}, {args.players} players, against {args.against}, {budget} a move: won {sum(results):g} of "
          f"{len(results)} ({sum(results) / len(results):.1%}); mean score {statistics.mean(mine):.1f} against "
          f"{statistics.mean(theirs):.1f}; a move took {statistics.median(times):.3f} s (median), "
          f"{max(times):.3f} s (max)")


if __name__ == "__main__":
    main()
