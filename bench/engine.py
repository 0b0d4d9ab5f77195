"""Engine speed: random play, uniform over the legal moves at every ply, one core.

Prints, for each game variant and player count, the games/s and moves/s of the rules core in C
(engine/fast.py) played by a Python loop over its per-ply API (``legal_count``,
``play_index(rng.randrange(n))``, ``deal_random``: ``core loop``), its games/s played whole in C
(``random_game``: ``core C``), and the reference's (the Python engine through its Python API,
``legal_moves()`` and ``play_unchecked``), with the loop's ratio to the reference. Targets
(issue 62): at least 5,000 2-player coloured-wall Azul games per second through the core's loop,
every variant within 20% of that, and 2,000 2-player Summer Pavilion games per second.

    python bench/engine.py [--seconds 2] [--game azul] [--no-reference]
"""

from __future__ import annotations

import argparse
import random
import time

from azulcam.engine.azul import AzulState
from azulcam.engine import fast
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


def core_loop(game: str, players: int, options: dict, seconds: float, seed: int = 1) -> tuple[float, float]:
    """Games/s and moves/s of the core played by a Python loop over its per-ply API: uniform over
    the legal moves (Python's ``randrange``), chance from the core's own stream, seeded per game."""
    start = fast.core_of(new_state(game, players, options))
    randrange = random.Random(seed).randrange
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
            return games / elapsed, moves / elapsed


def core_in_c(game: str, players: int, options: dict, seconds: float, seed: int = 1) -> float:
    """Games/s of the core playing whole random games in C (``random_game``)."""
    start = fast.core_of(new_state(game, players, options))
    games = 0
    began = time.perf_counter()
    while True:
        core = start.copy()
        core.seed(seed * 1_000_003 + games)
        core.random_game()
        games += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of untimed play first, on other seeds (0: time a cold start)")
    parser.add_argument("--game", choices=sorted(CONFIGS), default=None)
    parser.add_argument("--no-reference", action="store_true", help="the core only (the reference is slow to time)")
    args = parser.parse_args()
    games = [args.game] if args.game else sorted(CONFIGS)
    missing = [game for game in games if not fast.AVAILABLE[game]]
    if missing:
        raise SystemExit(f"the C core of {', '.join(missing)} is not built: pip install -e . builds it")
    print(f"{'game':9} {'variant':15} {'players':>7} {'core loop':>10} {'moves/s':>9} {'core C':>9}"
          + ("" if args.no_reference else f" {'reference':>9} {'loop/ref':>8}"))
    with Progress(sum(3 * len(CONFIGS[game]) for game in games), "configurations") as bar:  # on stderr
        for game in games:
            for label, options in CONFIGS[game]:
                for players in (2, 3, 4):
                    gps, mps = core_loop(game, players, options, args.seconds)
                    line = f"{game:9} {label:15} {players:>7} {gps:>10.0f} {mps:>9.0f} " \
                           f"{core_in_c(game, players, options, args.seconds):>9.0f}"
                    if not args.no_reference:
                        ref, _, _ = measure(game, players, options, args.seconds, warmup=args.warmup)
                        line += f" {ref:>9.0f} {gps / ref:>7.1f}x"
                    bar.note(line)
                    bar.advance()


if __name__ == "__main__":
    main()
