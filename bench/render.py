"""Renderer speed: photo-like scenes per second, one core, with the time of each stage.

Target (issue 4): at least 10 scenes per second at 1280x720 on one core, 4-player tables.
Each configuration renders positions from a seeded 4-player game (every fifth event), with
random viewpoints, light, hands and clutter, JPEG included, after an untimed warm-up that
fills the art caches (a long training run keeps them warm).

    python bench/render.py [--seconds 5] [--size 1280x720] [--framing fit]
"""

from __future__ import annotations

import argparse
import time

import cv2
from azulcam.engine.players import make_player
from azulcam.engine.record import play_game, replay
from azulcam.synth.camera import ViewRanges
from azulcam.synth.render import SceneOptions, render_state

from azulcam.progress import Progress

CONFIGS = [
    ("azul", {"wall": "colored", "jokers": False}),
    ("azul", {"wall": "grey", "jokers": True}),
    ("pavilion", {"side": "colored"}),
    ("pavilion", {"side": "grey"}),
]


def positions(game: str, options: dict, players: int = 4, seed: int = 5) -> list[object]:
    """States along a seeded game between greedy players, every fifth event."""
    match = play_game(game, [make_player("greedy", seed + i) for i in range(players)], options, seed)
    return [step.state.copy() for step in replay(match.record)][::5]


def measure(states: list[object], options: SceneOptions, seconds: float, warmup: int = 15
            ) -> tuple[float, list[float], dict[str, float], int]:
    for i in range(warmup):
        render_state(states[i % len(states)], (1000, i), options)
    spent: dict[str, float] = {}
    times = []
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        t = time.perf_counter()
        render_state(states[n % len(states)], (0, n), options, spent)
        times.append(time.perf_counter() - t)
        n += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, sorted(times), {k: v / n for k, v in spent.items()}, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="timed rendering per configuration")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--framing", choices=["fit", "free"], default="fit")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], default=4)
    args = parser.parse_args()
    cv2.setNumThreads(1)  # one core, as the target says
    w, h = (int(v) for v in args.size.split("x"))
    options = SceneOptions(size=(w, h), view=ViewRanges(framing=args.framing))
    print(f"{args.players}-player tables, {w}x{h}, framing {args.framing}, OpenCV threads {cv2.getNumThreads()}")
    print(f"{'game':9} {'variant':22} {'scenes/s':>8} {'p50 ms':>7} {'p90 ms':>7} {'n':>4}  ms per stage")
    with Progress(len(CONFIGS), "configurations") as bar:  # on stderr
        for game, opts in CONFIGS:
            states = positions(game, opts, args.players)
            rate, times, stages, n = measure(states, options, args.seconds)
            label = ",".join(f"{k}={v}" for k, v in opts.items())
            breakdown = " ".join(f"{k} {v * 1000:.1f}" for k, v in stages.items())
            bar.note(f"{game:9} {label:22} {rate:8.1f} {times[n // 2] * 1000:7.1f} {times[int(n * 0.9)] * 1000:7.1f} "
                     f"{n:4}  {breakdown}")
            bar.advance()


if __name__ == "__main__":
    main()
