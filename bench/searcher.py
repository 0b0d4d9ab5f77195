"""A strong searching player, built the way the published Azul bots are: a measuring stick.

Monte Carlo tree search (UCT) over the round under way, determinised: every iteration walks the
tree from the position, choosing each player's move by UCB1 on that player's share of wins,
expands one new move, and plays the game out to its end by a quick policy (with probability
``--wander`` a uniformly random legal move, else the greedy one), the deals drawn afresh. A deal
ends the tree: what the bag will give is unknown, so below it every future is a playout. Each
node keeps the results from the view of the player who moved into it (max^n), so it plays three
and four players too. The move played is the most visited.

It plays on the rules core (``engine.fast``): the Python engine would give it some twenty times
fewer iterations, no measuring stick.

    python bench/searcher.py [--game azul] [--players 2] [--games 20] [--time 1.0] [--ratio 10]
                             [--against assistant|greedy] [--jobs 1] [--threads N]

plays ``--games`` games, seats swapped, of the searcher (``--ratio`` times ``--time`` a move)
against the assistant (``engine.ai.suggest``, ``--time`` a move) or the greedy player, and
prints the searcher's and the other side's wins. The searcher runs on one core; the assistant's
search on ``--threads`` (by default the machine's cores shared by the ``--jobs`` games side by side).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

from azulcam.engine import fast
from azulcam.engine.ai import cores, suggest
from azulcam.engine.common import CHANCE
from azulcam.engine.record import Game

OPTIONS = {"azul": {"wall": "colored", "jokers": False}, "pavilion": {"side": "colored"}}
#: UCB1's exploration constant, on win shares between 0 and 1 (sqrt 2, as UCT has it).
EXPLORE = math.sqrt(2)
#: The playouts' policy: this share of random moves, the rest greedy.
WANDER = 0.25




class _Node:
    __slots__ = ("mover", "visits", "wins", "children", "untried")

    def __init__(self, mover: int, moves: int) -> None:
        self.mover = mover  # the player who moved into this node (its results are that player's)
        self.visits = 0
        self.wins = 0.0
        self.children: dict[int, _Node] = {}
        self.untried = list(range(moves))


def search(state: Any, seconds: float, rng: random.Random) -> tuple[int, int]:
    """The index (in ``state.legal_moves()`` order) of the most visited move after ``seconds`` of
    search, and the iterations run."""
    root_position = fast.core_of(state)
    root = _Node(-1, root_position.legal_count())
    rng.shuffle(root.untried)
    deadline = time.monotonic() + seconds
    iterations = 0
    while time.monotonic() < deadline or iterations < 2:
        position = root_position.copy()
        node, path = root, [root]
        # Selection: down the tree while the round goes on and every move was tried.
        while not node.untried and node.children and position.current_player >= 0:
            log_n = math.log(node.visits)
            index, node = max(node.children.items(),
                              key=lambda kv: kv[1].wins / kv[1].visits + EXPLORE * math.sqrt(log_n / kv[1].visits))
            position.play_index(index)
            path.append(node)
        # Expansion: one new move, unless a deal (or the end) came.
        mover = position.current_player
        if mover >= 0 and node.untried:
            index = node.untried.pop()
            position.play_index(index)
            child = _Node(mover, position.legal_count() if position.current_player >= 0 else 0)
            rng.shuffle(child.untried)
            node.children[index] = child
            path.append(child)
        position.seed(rng.getrandbits(63))
        _, winners, _ = position.playout(WANDER)
        share = 1.0 / len(winners)
        for n in path:
            n.visits += 1
            if n.mover in winners:
                n.wins += share
        iterations += 1
    if not root.children:
        return 0, iterations
    best = max(root.children.items(), key=lambda kv: kv[1].visits)[0]
    return best, iterations


def play(game: str, players: int, seat: int, seed: int, seconds: float, ratio: float, against: str,
         threads: int = 1) -> tuple[float, list[int], list[int]]:
    """One game with the searcher in ``seat``: its result (1, 1/k for a k-way tie, 0), the scores
    and its iterations per move."""
    match = Game.new(game, players, OPTIONS[game], start_player=seed % players)
    rng, mine = random.Random(seed), random.Random(seed + 1)
    iterations = []
    state = match.state
    while not state.is_over():
        if state.current_player == CHANCE:
            match.apply(state.sample_chance(rng))
        elif state.current_player == seat:
            moves = state.legal_moves()
            index, n = search(state, seconds * ratio, mine) if len(moves) > 1 else (0, 0)
            iterations.append(n)
            match.apply(moves[index])
        elif against == "assistant":
            match.apply(suggest(state, seconds, top=1, seed=seed * 1000 + len(match.record.events),
                                threads=threads)[0].move)
        else:
            match.apply(state.greedy_move())
        state = match.state
    winners = state.winners()
    return (1.0 / len(winners) if seat in winners else 0.0), state.scores(), iterations


def _one(job: tuple[argparse.Namespace, int]) -> tuple[int, float, list[int], list[int]]:
    args, k = job
    seat = k % args.players
    return (seat, *play(args.game, args.players, seat, args.seed + k // args.players, args.time, args.ratio,
                        args.against, args.threads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(OPTIONS), default="azul")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=1.0, help="the assistant's seconds a move")
    parser.add_argument("--ratio", type=float, default=10.0, help="the searcher's time, in the assistant's")
    parser.add_argument("--against", choices=("assistant", "greedy"), default="assistant")
    parser.add_argument("--seed", type=int, default=700000)
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    parser.add_argument("--threads", type=int, default=None, help="cores the assistant's search runs on")
    args = parser.parse_args()
    args.threads = args.threads or max(1, cores() // args.jobs)
    if not fast.AVAILABLE[args.game]:
        raise SystemExit(f"the C core of {args.game} is not built: pip install -e . builds it")
    results, iterations = [], []
    with multiprocessing.Pool(args.jobs) as pool:
        for k, (seat, result, scores, its) in enumerate(pool.imap(_one, [(args, k) for k in range(args.games)])):
            results.append(result)
            iterations += its
            print(f"game {k + 1}: searcher in seat {seat}, scores {scores}, "
                  f"{'won' if result == 1 else 'tied' if result else 'lost'}", flush=True)
    won = sum(results)
    print(f"{args.game}, {args.players} players: the searcher ({args.ratio * args.time:g} s a move, "
          f"{statistics.median(iterations or [0]):.0f} iterations median) won {won:g} of {len(results)} "
          f"({won / len(results):.1%}) against the {args.against} ({args.time:g} s a move on {args.threads} cores), who won "
          f"{len(results) - won:g} ({1 - won / len(results):.1%})")


if __name__ == "__main__":
    main()
