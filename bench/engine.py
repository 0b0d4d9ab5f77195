"""Engine speed: random play, uniform over legal_moves() at every ply, one core.

Prints games/s and moves/s for each game variant and player count. Targets: at least 2,000
complete 2-player coloured-wall Azul games per second and 600 complete 2-player Summer Pavilion
games per second (issue 33: the move assistant lives on playouts).

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of untimed play first, on other seeds (0: time a cold start)")
    parser.add_argument("--game", choices=sorted(CONFIGS), default=None)
    args = parser.parse_args()
    print(f"{'game':9} {'variant':15} {'players':>7} {'games/s':>9} {'moves/s':>9} {'games':>6}")
    games = [args.game] if args.game else sorted(CONFIGS)
    with Progress(sum(3 * len(CONFIGS[game]) for game in games), "configurations") as bar:  # on stderr
        for game in games:
            for label, options in CONFIGS[game]:
                for players in (2, 3, 4):
                    gps, mps, n = measure(game, players, options, args.seconds, warmup=args.warmup)
                    bar.note(f"{game:9} {label:15} {players:>7} {gps:>9.0f} {mps:>9.0f} {n:>6}")
                    bar.advance()


if __name__ == "__main__":
    main()
