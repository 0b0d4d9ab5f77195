"""Reading photos: accuracy on a held-out rendered set, and time per image.

Renders scenes the networks never saw (other seeds; and, with --edge, viewpoints, tile sizes and
light at the edges of the training ranges), reads each with `analyze` from its profile (corners nudged as a
user's clicks would be), and prints the figures issue 5 names:

- per-slot error (every board slot and supply space, hidden ones excluded); the share of slots
  listed in `uncertain`, and how many of the others (the sure ones) are right;
- factory displays whose contents are exactly right, and centres whose every count is;
- whole observations exactly right;
- milliseconds per image by stage, and for a 4-player table at 1920x1080: each image is read twice,
  as a camera's first and next frames of one table, and the next frame is timed (the first
  frame's median is printed apart);
- with --work, the work a frame is made of, one step after the other in one thread: the
  locator's thread alone, then the rest of the read with the locator's answer ready (best of
  three each), their sum, the timed frame's share of that sum, and how long the timed frame's
  boards' thread waited for the locator's (where it waits long, the locator's thread is the
  frame's critical path). On N cores no frame reads in less than the longer of the two parts,
  nor in less than the sum over N.

With --find, each photo's boards are also found unaided (`calibrate`'s search), the photos where
every board is found are counted, and the search is timed.

With --show-wrong, each image not read exactly right is listed as it is read: its number (the
scene's index in the set), the table, and every zone read wrong, wanted -> read.

    python bench/vision.py [--images 60] [--size 1920x1080] [--players 4] [--edge] [--seed 900000]
        [--threads N] [--net-threads M] [--classic | --detector PATH] [--candidates PATH | --no-candidates]
        [--reader PATH] [--board-fit PATH] [--show-wrong] [--work] [--family NAME] [--props P] [--calibrated [--ignore-bare]]
        [--find]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from azulcam.calibration.profile import Profile
from azulcam.vision.analyze import TableLocator, assemble, bare_boards, default_locator, read
from azulcam.vision.board_fit import load_board_fitter
from azulcam.synth.camera import EDGE_VIEW, ViewRanges
from azulcam.vision.classify import Classifier, default_classifier, load_model, load_reader
from azulcam.synth.dataset import random_position
from azulcam.vision.calibrate import CalibrationError, find_boards
from azulcam.vision.detect import load_detector
from azulcam.vision.evaluate import Score, compare, nudged_profile
from azulcam.vision.register import without_ipp
from azulcam.synth.render import SceneOptions, render_moments, render_state

from azulcam.progress import Progress


#: A board is found where each of its corners lies within this share of its diagonal of the truth's.
FOUND_WITHIN = 0.05


def boards_found(image: np.ndarray, truth: dict, fitter: object | None) -> tuple[int, int]:
    """How many of the truth's boards wholly in the picture (the players' and the scoring board)
    ``calibrate`` finds unaided, each corner within :data:`FOUND_WITHIN` of the board's diagonal
    (in any turn: which seat is whose is another question), and how many there are."""
    profile = truth["profile"]
    wanted = [np.asarray(b["corners"], float) for b in profile["boards"]]
    if profile.get("scoring_board"):
        wanted.append(np.asarray(profile["scoring_board"]["corners"], float))
    w, h = truth["camera"]["size"]
    wanted = [c for c in wanted if (c >= 0).all() and (c[:, 0] < w).all() and (c[:, 1] < h).all()]
    side = profile["boards"][0]["layout"].split("-", 1)[1]
    try:
        boards, scoring = find_boards(image, profile["game"], len(profile["boards"]), side, fitter=fitter)
    except CalibrationError:
        return 0, len(wanted)
    found = [m.corners for m in boards] + ([scoring.corners] if scoring is not None else [])
    hits = 0
    for corners in wanted:
        diagonal = float(np.linalg.norm(corners[2] - corners[0]))
        if any(min(np.linalg.norm(np.roll(f, k, axis=0) - corners, axis=1).max() for k in range(4)) <= FOUND_WITHIN * diagonal
               for f in found):
            hits += 1
    return hits, len(wanted)


def serial_work(image: np.ndarray, profile: Profile, classifier: Classifier, locator: TableLocator, tries: int = 3
                ) -> tuple[float, float]:
    """Seconds (best of ``tries``) of the locator's thread run alone, and of the rest of
    ``read`` with the locator's answer ready: the two parts of a frame, one after the other."""
    located, rest = [], []
    for _ in range(tries):
        with without_ipp():  # as in read
            t = time.perf_counter()
            answer = locator(image, profile)
            located.append(time.perf_counter() - t)
        t = time.perf_counter()
        read(image, profile, classifier, lambda *_, answer=answer: answer)
        rest.append(time.perf_counter() - t)
    return min(located), min(rest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=int, default=60)
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], default=None, help="default: any")
    parser.add_argument("--edge", action="store_true",
                        help="viewpoints near 45 degrees, the smallest tiles, and light at the ends of its ranges")
    parser.add_argument("--seed", type=int, default=900000)
    parser.add_argument("--calibrated", action="store_true",
                        help="each table calibrated first: its boards as a photo at the game's start showed them bare")
    parser.add_argument("--ignore-bare", action="store_true",
                        help="with --calibrated: the same tables read without their bare boards (to compare)")
    parser.add_argument("--props", type=float, default=0.0,
                        help="chance of trivets, coins, dice, score pads or the box lid beside the play area")
    parser.add_argument("--family", default="classic",
                        help="art family the tables are drawn in (synth.hands.FAMILY_NAMES; the models never saw inked)")
    parser.add_argument("--classic", action="store_true", help="the classic locator instead of the detector network")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="threads for OpenCV (default: every core of this machine, as OpenCV itself)")
    parser.add_argument("--net-threads", type=int, default=1,
                        help="threads for each network (default 1, as `azulcam analyze`: the locator's network "
                             "and the classifier's already run side by side)")
    parser.add_argument("--detector", type=Path, default=None, help="another detector model (default: the shipped one)")
    parser.add_argument("--candidates", type=Path, default=None,
                        help="another candidate model (default: the shipped one)")
    parser.add_argument("--no-candidates", action="store_true",
                        help="the detector alone: no candidate model, no peaks below its threshold")
    parser.add_argument("--reader", type=Path, default=None,
                        help="another reading model (models/train_reader.py; default: the shipped one)")
    parser.add_argument("--board-fit", type=Path, default=None,
                        help="another board-fitting model (models/train_board_fit.py; default: the shipped one)")
    parser.add_argument("--find", action="store_true",
                        help="also find the boards in each photo unaided (as `calibrate` does) and count the photos "
                             "where every board is found")
    parser.add_argument("--nudge", type=float, default=2.0, help="corner error of the profile (pixels)")
    parser.add_argument("--show-wrong", action="store_true",
                        help="list each image not read exactly right, and its zones read wrong (wanted -> read)")
    parser.add_argument("--work", action="store_true",
                        help="also time the locator's thread and the rest of the read one after the other, in one thread, "
                             "and say how long each timed frame's boards' thread waited for the locator's")
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    w, h = (int(v) for v in args.size.split("x"))
    view = EDGE_VIEW if args.edge else ViewRanges()
    options = SceneOptions(size=(w, h), view=view, edge_light=args.edge, family=args.family, props=args.props)
    classifier = (load_reader(args.reader, threads=args.net_threads) if args.reader
                  else default_classifier(threads=args.net_threads))
    fitter = load_board_fitter(args.board_fit, threads=args.net_threads) if args.board_fit else None
    if args.classic:
        locator, located_note = TableLocator(None), None
    else:
        locator, located_note = default_locator(args.net_threads)
        if args.detector or args.candidates or args.no_candidates:
            detector = load_detector(args.detector, threads=args.net_threads) if args.detector else locator.detector
            candidates = (None if args.no_candidates else load_model(args.candidates, threads=args.net_threads)
                          if args.candidates else locator.candidates)
            locator, located_note = TableLocator(detector, candidates), None
    if located_note:
        print(located_note)
    rng, nudge = random.Random(args.seed), np.random.default_rng(args.seed)
    total, per_game = Score(), {"azul": Score(), "pavilion": Score()}
    spent: Counter[str] = Counter()
    times, first = [], []
    by_table: dict[tuple[str, int], list[float]] = {}
    work: dict[tuple[str, int], list[tuple[float, float, float, float]]] = {}
    found_photos, found_boards, all_boards = 0, 0, 0
    find_times: list[float] = []
    bar = Progress(args.images, "images")  # on stderr
    for n in range(args.images):
        state = random_position(rng)
        while args.players and state.players != args.players:
            state = random_position(rng)
        if args.calibrated:  # the same table photographed at the game's start, boards bare
            start = state.spec.new(state.players, state.options, 0)
            calibration, scene = render_moments([start, state], (args.seed, n), options)
            profile = nudged_profile(scene.truth["profile"], nudge, args.nudge)
            bare = {} if args.ignore_bare else bare_boards(calibration.image, profile, classifier, fitter)
        else:
            scene = render_state(state, (args.seed, n), options)
            profile = nudged_profile(scene.truth["profile"], nudge, args.nudge)
            bare = {}
        image = scene.image
        # A camera reads one table frame after frame: the first frame also fits the table's plane
        # to the profile (cached per profile) and works out each bare sheet's templates (cached per
        # sheet). The figures are the next frame's; the first frame's time is printed apart.
        t = time.perf_counter()
        assemble(read(image, profile, classifier, locator, bare, fitter))
        first.append(time.perf_counter() - t)
        t = time.perf_counter()
        reading = read(image, profile, classifier, locator, bare, fitter)
        observation = assemble(reading)
        times.append(time.perf_counter() - t)
        by_table.setdefault((state.game, state.players), []).append(times[-1])
        if args.work:
            # A reading's "locate" stage is the boards' thread's wait for the locator's answer.
            work.setdefault((state.game, state.players), []).append((*serial_work(image, profile, classifier, locator),
                                                                    times[-1], reading.spent.get("locate", 0.0)))
        spent.update(reading.spent)
        if args.find:
            t = time.perf_counter()
            hits, boards = boards_found(image, scene.truth, fitter)
            find_times.append(time.perf_counter() - t)
            found_photos += hits == boards
            found_boards, all_boards = found_boards + hits, all_boards + boards
        score = compare(observation, scene.truth)
        if args.show_wrong and score.mistakes:
            layout = scene.truth["profile"]["boards"][0]["layout"]
            bar.note(f"  image {n} ({layout}, {state.players} players): " + "; ".join(map(str, score.mistakes)))
        total.add(score)
        per_game[state.game].add(score)
        bar.advance()
    bar.close()
    figures = total.figures()
    print(f"{args.images} images {w}x{h}{' (edge of the training ranges)' if args.edge else ''}, "
          f"players {args.players or 'any'}, profile corners nudged by {args.nudge} px, {args.threads} OpenCV thread(s), "
          f"{args.net_threads} per network, "
          f"loose tiles by {'the classic locator' if locator.detector is None else 'the detector network'}"
          f"{' and the candidate model' if locator.candidates is not None else ''}")
    print(f"  per-slot error        {figures['slot_error_rate'] * 100:.3f}%  ({total.slot_errors} of {total.slots} slots)")
    print(f"  slots unsure          {figures['unsure_slots'] * 100:.2f}%  ({total.unsure_slots}); of the sure ones "
          f"{figures['sure_slots_right'] * 100:.3f}% right ({total.sure_slot_errors} wrong)")
    print(f"  factories exact       {figures['factories_exact'] * 100:.2f}%  ({total.factories_right} of {total.factories},"
          f" {total.factories_missed} not found)")
    print(f"  centres exact         {figures['centres_exact'] * 100:.1f}%  ({total.centres_right} of {total.centres} in view)")
    print(f"  observations exact    {figures['observations_exact'] * 100:.1f}%  ({total.images_right} of {total.images})")
    if total.markers:
        print(f"  score markers right   {figures['markers_right'] * 100:.1f}%  ({total.markers_right} of {total.markers})")
    for game, s in per_game.items():
        if s.images:
            f = s.figures()
            print(f"  {game:9} slots {f['slot_error_rate'] * 100:.3f}%  factories {f['factories_exact'] * 100:.2f}%  "
                  f"centres {f['centres_exact'] * 100:.1f}%  observations {f['observations_exact'] * 100:.1f}%")
    print(f"  mistakes by zone      {dict(total.errors.most_common())}")
    if args.find:
        print(f"  boards found unaided  {found_photos} of {args.images} photos every board "
              f"({found_boards} of {all_boards} boards wholly in the picture, corners within {FOUND_WITHIN:.0%} of the diagonal); "
              f"ms to find them median {np.median(find_times) * 1000:.0f}, p90 {np.percentile(find_times, 90) * 1000:.0f}")
    times_ms = np.array(times) * 1000
    print(f"  ms per image          median {np.median(times_ms):.1f}, p90 {np.percentile(times_ms, 90):.1f}; by stage: "
          + ", ".join(f"{k} {v / len(times) * 1000:.1f}" for k, v in spent.items()))
    print(f"  first frame of a table median {np.median(first) * 1000:.1f} ms, p90 {np.percentile(first, 90) * 1000:.1f} "
          "(plane fitted, bare sheets' templates worked out)")
    print("  median ms by table    " + ", ".join(f"{game} {players}p {np.median(t) * 1000:.1f} ({len(t)})"
                                                for (game, players), t in sorted(by_table.items())))
    if work:
        print("  work in one thread    (medians: the locator's thread + the rest = their sum; the timed frame's share of it;"
              " how long its boards' thread waited for the locator's)")
        for (game, players), rows in sorted(work.items()):
            located, rest, frame, waited = np.array(rows).T * 1000
            both = located + rest
            print(f"    {game} {players}p: {np.median(located):.1f} + {np.median(rest):.1f} = {np.median(both):.1f} ms; "
                  f"frame {np.median(frame / both):.3f} of it; waited {np.median(waited):.1f} ms ({len(rows)})")


if __name__ == "__main__":
    main()
