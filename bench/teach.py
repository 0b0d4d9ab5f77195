"""A table teaching the reader: how a reading improves with the photos its user confirmed.

For each art family (``inked`` among them: no model saw it, no setting was chosen on it), tables
followed across a seeded game of each variant: the table is calibrated at the game's start (its
boards bare), then photographed at moments of rounds 2 on (tiles on the walls). With k = 0, 1, 2,
3 of those moments taught (their truth, hidden zones left out: ``azulcam teach`` with a corrected
observation), the other moments of the same table are read with the table's memory
(:class:`azulcam.vision.taught.TaughtReader`). Prints, per family and k: slots wrong, slots
unsure, displays and centres exact, and the tables read worse taught than untaught; the refit's
time on three photos (one core), and a reading's
time with a memory against without (the same photos, one after the other).

    python bench/teach.py [--tables 6] [--families classic,strong-print,...,inked] [--seed 880000]
        [--size 1920x1080] [--read 4] [--pull P] [--show-wrong]
"""

from __future__ import annotations

import argparse
import os
import random
import time

# The refit's time is the one core's: numpy's products on one thread (set before numpy loads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
from collections import defaultdict

import cv2
import numpy as np
from azulcam.engine.players import make_player
from azulcam.engine.record import play_game, replay
from azulcam.engine.zones import Zone
from azulcam.progress import Progress
from azulcam.synth.hands import FAMILY_NAMES
from azulcam.synth.render import SceneOptions, render_moments
from azulcam.vision import refit as refit_module
from azulcam.vision.analyze import assemble, bare_boards, default_locator, read
from azulcam.vision.classify import default_classifier
from azulcam.vision.evaluate import Score, compare, nudged_profile
from azulcam.vision.memory import TableMemory
from azulcam.vision.taught import TaughtReader, teach

CASES = (("azul", {"wall": "colored", "jokers": False}), ("pavilion", {"side": "colored"}),
         ("azul", {"wall": "grey", "jokers": True}), ("pavilion", {"side": "grey"}))
TAUGHT = 3


def moments(seed: int, table: int, count: int) -> tuple[object, list[object]]:
    """A seeded game of the table's variant: its first state and ``count`` states at players'
    turns from round 2 on, spread over the game, in play order."""
    game, options = CASES[table % len(CASES)]
    players = 2 + (seed + table) % 3
    record = play_game(game, [make_player("greedy", seed * 10 + i) for i in range(players)], options,
                       seed + table).record
    states = [record.new_state()] + [step.state.copy() for step in replay(record)]
    later = [s for s in states if s.current_player >= 0 and s.round >= 2 and not s.is_over()]
    rng = random.Random(seed * 1000 + table)
    picked = sorted(rng.sample(range(len(later)), min(count, len(later))))
    return states[0], [later[i] for i in picked]


def _mistakes(score: Score) -> int:
    """What a reader got wrong of a table: its slots, displays and centres."""
    return (score.slot_errors + score.factories - score.factories_right + score.centres - score.centres_right)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=6, help="tables per family")
    parser.add_argument("--families", default=",".join(FAMILY_NAMES))
    parser.add_argument("--seed", type=int, default=880000)
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--read", type=int, default=4, help="moments read per table")
    parser.add_argument("--pull", type=float, default=refit_module.PULL)
    parser.add_argument("--show-wrong", action="store_true")
    args = parser.parse_args()
    refit_module.PULL = args.pull
    cv2.setNumThreads(2)
    w, h = (int(v) for v in args.size.split("x"))
    model = default_classifier()
    locator, note = default_locator()
    if note:
        print(note)
    scores: dict[tuple[str, int], Score] = defaultdict(Score)
    refit_times: list[float] = []
    plain_times, taught_times = [], []
    worse: dict[tuple[str, int], int] = defaultdict(int)
    tables: dict[tuple[str, int], int] = defaultdict(int)
    families = args.families.split(",")
    bar = Progress(len(families) * args.tables, "tables")
    for family in families:
        for t in range(args.tables):
            start, later = moments(args.seed, t, TAUGHT + args.read)
            taught_moments = TAUGHT if len(later) > TAUGHT else len(later) - 1
            scenes = render_moments([start, *later], (args.seed, t), SceneOptions(size=(w, h), family=family))
            nudge = np.random.default_rng((args.seed, t))
            profile = nudged_profile(scenes[0].truth["profile"], nudge, 2.0)
            bare = bare_boards(scenes[0].image, profile, model)
            shown = scenes[1:]
            # Taught and read moments alternate through the game.
            order = list(range(len(shown)))
            taught_ix = order[::2][:taught_moments]
            read_ix = [i for i in order if i not in taught_ix]
            readings = {i: read(shown[i].image, profile, model, locator, bare) for i in order}
            memory = TableMemory(start.game)
            table_scores: dict[int, Score] = defaultdict(Score)
            for k in range(taught_moments + 1):
                if k:
                    i = taught_ix[k - 1]
                    hidden = {Zone.parse(z["zone"]) for z in shown[i].truth["hidden"]}
                    lesson = teach(memory, model, readings[i], shown[i].image, shown[i].truth["observation"], hidden)
                    if k == TAUGHT:
                        refit_times.append(lesson.refit_s)
                reader = TaughtReader(model, memory) if k else model
                for i in read_ix:
                    reading = readings[i] if not k else read(shown[i].image, profile, reader, locator, bare)
                    score = compare(assemble(reading), shown[i].truth)
                    if args.show_wrong and score.mistakes:
                        bar.note(f"  {family} table {t} moment {i} k={k}: " + "; ".join(map(str, score.mistakes)))
                    scores[family, k].add(score)
                    table_scores[k].add(score)
                    scores["all taught" if family != "inked" else "inked", k].add(score)
            for k in range(1, taught_moments + 1):
                worse[family, k] += _mistakes(table_scores[k]) > _mistakes(table_scores[0])
                tables[family, k] += 1
            # A reading's time with this table's memory and without, the same photo, alternately.
            if memory.photos:
                reader = TaughtReader(model, memory)
                image = shown[read_ix[0]].image
                for _ in range(2):
                    for which, times in ((model, plain_times), (reader, taught_times)):
                        t0 = time.perf_counter()
                        read(image, profile, which, locator, bare)
                        times.append(time.perf_counter() - t0)
            bar.advance()
    bar.close()
    print(f"{args.tables} tables per family, {w}x{h}, {args.read} moments read per table, pull {args.pull:g}")
    print(f"{'family':14} {'k':>2} {'slots wrong':>12} {'unsure':>8} {'displays':>9} {'centres':>8} {'slots':>7}")
    for (family, k), s in sorted(scores.items(), key=lambda x: (x[0][0] in ("all taught", "inked"), x[0][0], x[0][1])):
        f = s.figures()
        print(f"{family:14} {k:>2} {f['slot_error_rate'] * 100:>11.3f}% {f['unsure_slots'] * 100:>7.2f}% "
              f"{f['factories_exact'] * 100:>8.1f}% {f['centres_exact'] * 100:>7.1f}% {s.slots:>7}")
    print("tables read worse taught than untaught (slots, displays and centres wrong, all moments read):")
    for (family, k), n in sorted(tables.items()):
        print(f"  {family:14} k={k}: {worse[family, k]} of {n}")
    if refit_times:
        print(f"refit on {TAUGHT} photos: median {np.median(refit_times) * 1000:.0f} ms, "
              f"max {max(refit_times) * 1000:.0f} ms")
    if plain_times:
        ratio = np.median(taught_times) / np.median(plain_times)
        print(f"reading with a memory / without: {ratio:.3f} (median {np.median(taught_times) * 1000:.0f} ms "
              f"against {np.median(plain_times) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
