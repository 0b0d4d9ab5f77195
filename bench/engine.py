"""Engine speed: random play, uniform over legal_moves() at every ply, one core.

Prints games/s and moves/s for each game variant and player count: the reference (the Python
engine, through its Python API), then for Summer Pavilion the C core (engine/fast.py) played by a
Python loop over its per-ply API (``legal_count``, ``play_index``, ``deal_random``) and played
whole in C (``random_game``), each with its ratio to the reference. Targets (issue 62): at least
2,000 complete 2-player Summer Pavilion games per second from the core's Python loop.

    python bench/engine.py [--seconds 2] [--game azul]
"""

from __future__ import annotations

import argparse
import random
import time

from azulcam.engine.azul import AzulState
from azulcam.engine.common import CHANCE
from azulcam.engine.pavilion import PavilionState

from azulcam.progress import Progress

CONFIGS = {
    "azul": [
        ("colored", {"wall": "colored", "jokers": False}),
        ("grey", {"wall": "grey", "jokers": False}),
        ("colored+jokers", {"wall": "colored", "jokers": True}),
        ("grey+jokers", {"wall": "grey", "jokers": True}),
    ],
    "pavilion": [
        ("colored", {"side": "colored"}),
        ("grey", {"side": "grey"}),
    ],
}


def new_state(game: str, players: int, options: dict) -> AzulState | PavilionState:
    return (AzulState if game == "azul" else PavilionState).new(players, **options)


def random_game(game: str, players: int, options: dict, rng: random.Random) -> int:
    """One complete game, uniform over legal_moves() at every ply; returns the number of moves."""
    state = new_state(game, players, options)
    moves_played = 0
    randrange = rng.randrange
    while True:
        player = state.current_player
        if player >= 0:
            moves = state.legal_moves()
            state.play_unchecked(moves[randrange(len(moves))])
            moves_played += 1
        elif player == CHANCE:
            state.apply_chance_unchecked(state.sample_chance(rng))
        else:
            return moves_played


def measure(game: str, players: int, options: dict, seconds: float, seed: int = 1, warmup: float = 0.0
            ) -> tuple[float, float, int]:
    """Games/s, moves/s and games played in ``seconds``, after ``warmup`` seconds of play on
    other seeds (Summer Pavilion fills its move tables as new hands appear)."""
    if warmup > 0:
        measure(game, players, options, warmup, seed + 1000)
    rng = random.Random(seed)
    games = moves = 0
    start = time.perf_counter()
    while True:
        moves += random_game(game, players, options, rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, moves / elapsed, games


# --------------------------------------------------------------------------- the Summer Pavilion core


def pavilion_core_python_loop(players: int, options: dict, seconds: float, seed: int = 1) -> tuple[float, float, int]:
    """Games/s, moves/s and games of the Summer Pavilion core played by a Python loop over its
    per-ply API: uniform over the legal moves (Python's ``randrange``), chance from the core's
    own stream (seeded per game)."""
    from azulcam.engine.fast import FastPavilion

    start = FastPavilion.new(players, options["side"])
    rng = random.Random(seed)
    randrange = rng.randrange
    games = moves = 0
    began = time.perf_counter()
    while True:
        core = start.copy()
        core.seed(seed * 1_000_003 + games)
        legal_count, play_index, deal_random = core.legal_count, core.play_index, core.deal_random
        while True:
            player = core.current_player
            if player >= 0:
                play_index(randrange(legal_count()))
                moves += 1
            elif player == CHANCE:
                deal_random()
            else:
                break
        games += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return games / elapsed, moves / elapsed, games


def pavilion_core_random_game(players: int, options: dict, seconds: float, seed: int = 1) -> tuple[float, float, int]:
    """Games/s, moves/s and games of the Summer Pavilion core played whole in C (``random_game``)."""
    from azulcam.engine.fast import FastPavilion

    start = FastPavilion.new(players, options["side"])
    games = moves = 0
    began = time.perf_counter()
    while True:
        core = start.copy()
        core.seed(seed * 1_000_003 + games)
        moves += core.random_game()
        games += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return games / elapsed, moves / elapsed, games


def pavilion_core_rows(seconds: float, reference: dict[tuple[str, str, int], float], bar: Progress) -> None:
    """The Summer Pavilion core's rows, with their ratio to the reference's games/s (``reference``,
    by game, variant and player count)."""
    from azulcam.engine import fast

    if not fast.PAVILION_AVAILABLE:
        bar.note("pavilion core: not built (pip install -e . builds it)")
        return
    for label, options in CONFIGS["pavilion"]:
        for players in (2, 3, 4):
            for how, run in (("core loop", pavilion_core_python_loop), ("core C", pavilion_core_random_game)):
                gps, mps, n = run(players, options, seconds)
                bar.note(f"{'pavilion':9} {label + ' ' + how:23} {players:>7} {gps:>9.0f} {mps:>9.0f} {n:>6} "
                         f"{gps / reference[('pavilion', label, players)]:>7.1f}x")
            bar.advance()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of untimed play first, on other seeds (0: time a cold start)")
    parser.add_argument("--game", choices=sorted(CONFIGS), default=None)
    parser.add_argument("--no-core", action="store_true", help="the reference only (no C core rows)")
    args = parser.parse_args()
    print(f"{'game':9} {'variant':15} {'players':>7} {'games/s':>9} {'moves/s':>9} {'games':>6}")
    games = [args.game] if args.game else sorted(CONFIGS)
    reference: dict[tuple[str, str, int], float] = {}
    with Progress(sum(3 * len(CONFIGS[game]) for game in games), "configurations") as bar:  # on stderr
        for game in games:
            for label, options in CONFIGS[game]:
                for players in (2, 3, 4):
                    gps, mps, n = measure(game, players, options, args.seconds, warmup=args.warmup)
                    reference[(game, label, players)] = gps
                    bar.note(f"{game:9} {label:15} {players:>7} {gps:>9.0f} {mps:>9.0f} {n:>6}")
                    bar.advance()
    if not args.no_core and "pavilion" in games:
        print(f"{'game':9} {'variant, how':23} {'players':>7} {'games/s':>9} {'moves/s':>9} {'games':>6} {'vs ref':>8}")
        with Progress(3 * len(CONFIGS["pavilion"]), "core configurations") as bar:
            pavilion_core_rows(args.seconds, reference, bar)


if __name__ == "__main__":
    main()
