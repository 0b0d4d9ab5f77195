"""Engine speed: random play, uniform over legal_moves() at every ply, one core.

Prints games/s and moves/s for each game variant and player count, through the reference (the
Python engine). For Azul it also prints its C core's games/s (engine/fast.py), played by a Python
loop over the core's per-ply API (``legal_count``, ``play_index(rng.randrange(n))``,
``deal_random``: ``core loop``) and all in C (``random_game()``: ``core C``), and the loop's speed
over the reference's. Targets (issue 62): at least 5,000 2-player coloured-wall Azul games per
second through the core's loop, every variant within 20% of that; 2,000 2-player Summer Pavilion.

    python bench/engine.py [--seconds 2] [--game azul]
"""

from __future__ import annotations

import argparse
import random
import time

from azulcam.engine import fast
from azulcam.engine.azul import AzulState
from azulcam.engine.common import CHANCE, TERMINAL
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


def azul_core_loop(players: int, options: dict, seconds: float, seed: int = 1) -> float:
    """Games/s of the Azul core played by a Python loop over its per-ply API, uniform random moves."""
    start = fast.FastAzul.new(players, **options)
    rng = random.Random(seed)
    randrange = rng.randrange
    games = 0
    begin = time.perf_counter()
    while True:
        core = start.copy()
        core.seed(games)
        while True:
            player = core.current_player
            if player >= 0:
                core.play_index(randrange(core.legal_count()))
            elif player == CHANCE:
                core.deal_random()
            else:
                assert player == TERMINAL
                break
        games += 1
        elapsed = time.perf_counter() - begin
        if elapsed >= seconds:
            return games / elapsed


def azul_core_c(players: int, options: dict, seconds: float) -> float:
    """Games/s of the Azul core playing whole random games in C (``random_game()``)."""
    start = fast.FastAzul.new(players, **options)
    games = 0
    begin = time.perf_counter()
    while True:
        core = start.copy()
        core.seed(games)
        core.random_game()
        games += 1
        elapsed = time.perf_counter() - begin
        if elapsed >= seconds:
            return games / elapsed


def core_columns(game: str, players: int, options: dict, seconds: float, reference_gps: float) -> str:
    """The core's columns of a row: loop games/s, C games/s, loop over reference (blank without a core)."""
    if game != "azul" or not fast.AVAILABLE.get(game):
        return ""
    loop = azul_core_loop(players, options, seconds)
    in_c = azul_core_c(players, options, seconds)
    return f" {loop:>10.0f} {in_c:>9.0f} {loop / reference_gps:>7.1f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of untimed play first, on other seeds (0: time a cold start)")
    parser.add_argument("--game", choices=sorted(CONFIGS), default=None)
    args = parser.parse_args()
    print(f"{'game':9} {'variant':15} {'players':>7} {'games/s':>9} {'moves/s':>9} {'games':>6}"
          f" {'core loop':>10} {'core C':>9} {'loop/ref':>8}")
    games = [args.game] if args.game else sorted(CONFIGS)
    with Progress(sum(3 * len(CONFIGS[game]) for game in games), "configurations") as bar:  # on stderr
        for game in games:
            for label, options in CONFIGS[game]:
                for players in (2, 3, 4):
                    gps, mps, n = measure(game, players, options, args.seconds, warmup=args.warmup)
                    core = core_columns(game, players, options, args.seconds, gps)
                    bar.note(f"{game:9} {label:15} {players:>7} {gps:>9.0f} {mps:>9.0f} {n:>6}{core}")
                    bar.advance()


if __name__ == "__main__":
    main()
