"""Final scores from one photo of a finished Azul game (engine/final.py, vision/score_track.py).

Plays seeded Azul games to their end (any wall, with or without jokers, 2 to 4 players, greedy and
random players), photographs each final table in art family F, reads it from the photo alone
(its profile's corners nudged as a user's clicks would be, or with --find the boards found
unaided, as `azulcam analyze PHOTO --game azul --players N` does) and works out the final scores
from the score markers and the walls. Prints the share of photos whose every final score is
exact; of the others, how many are flagged (a problem listed) or refused, how many get no final
scores (no complete row read on any wall) and how many are wrong without a flag; the markers read
right (boards found unaided matched to the truth's by their corners), and the milliseconds a photo.

    python bench/final.py [--images 40] [--seed 880000] [--family inked] [--size 1920x1080] [--find]
"""

from __future__ import annotations

import argparse
import random
import time

import cv2
import numpy as np
from azulcam.calibration.profile import Profile
from azulcam.engine.final import final_scores, is_finished
from azulcam.engine.players import make_player
from azulcam.engine.record import play_game
from azulcam.progress import Progress
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision.analyze import ProfileMismatch, analyze, default_locator
from azulcam.i18n.words import words
from azulcam.vision.calibrate import CalibrationError, photo_profile
from azulcam.vision.classify import default_classifier
from azulcam.vision.evaluate import nudged_profile


def finished_game(rng: random.Random) -> object:
    """The final state of a seeded Azul game of a random variant and player count."""
    options = {"wall": rng.choice(("colored", "grey")), "jokers": rng.random() < 0.5}
    players = rng.choice((2, 3, 4))
    bots = [make_player(rng.choice(("greedy", "greedy", "random")), rng.randrange(1 << 30)) for _ in range(players)]
    return play_game("azul", bots, options, rng.randrange(1 << 30)).state


def seats(found: Profile, truth: dict) -> dict[int, int]:
    """Each found board's player -> the player of the truth's board nearest it (mean corner distance)."""
    out = {}
    for board in found.boards:
        corners = np.asarray(board.corners, np.float64)
        out[board.player] = min(truth["boards"], key=lambda b: float(np.linalg.norm(
            np.asarray(b["corners"], np.float64) - corners, axis=1).mean()))["player"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=40)
    parser.add_argument("--seed", type=int, default=880000)
    parser.add_argument("--family", default="inked")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--nudge", type=float, default=2.0, help="corner error of the profile (pixels)")
    parser.add_argument("--find", action="store_true", help="find the boards unaided instead of a nudged profile")
    parser.add_argument("--show-wrong", action="store_true", help="list each photo not scored exactly")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    options = SceneOptions(size=(w, h), family=args.family)
    classifier = default_classifier()
    locator, _ = default_locator()
    rng, nudge = random.Random(args.seed), np.random.default_rng(args.seed)
    exact = flagged = unseen = silent = markers = markers_right = 0
    times = []
    bar = Progress(args.images, "photos")
    for n in range(args.images):
        state = finished_game(rng)
        scene = render_state(state, (args.seed, n), options)
        truth = state.scores()  # type: ignore[attr-defined]
        t = time.perf_counter()
        try:
            profile = (Profile.from_json(photo_profile(scene.image, "azul", state.players, dict(state.options)))  # type: ignore[attr-defined]
                       if args.find else nudged_profile(scene.truth["profile"], nudge, args.nudge))
            observation = analyze(scene.image, profile, classifier, locator)
        except (CalibrationError, ProfileMismatch) as exc:
            flagged += 1
            if args.show_wrong:
                bar.note(f"  photo {n}: refused ({words(exc)})")
            bar.advance()
            continue
        final = final_scores(observation) if is_finished(observation) else None
        times.append(time.perf_counter() - t)
        # Boards found unaided are seated from the photo: each is the truth's board it lies on.
        seat = seats(profile, scene.truth["profile"])
        seen = {seat[b["player"]]: b.get("score") for b in observation["boards"]}
        for b in scene.truth["observation"]["boards"]:
            markers += 1
            markers_right += seen.get(b["player"]) == b["score"]
        scores = None
        if final:
            by_truth = {seat[e["player"]]: e["score"] for e in final["players"]}
            scores = [by_truth.get(p) for p in range(len(truth))]
        if scores == truth:
            exact += 1
        elif final is None:
            unseen += 1  # no final scores given: the photo's walls show no complete row
        elif final["problems"]:
            flagged += 1
        else:
            silent += 1
        if args.show_wrong and scores != truth:
            bar.note(f"  photo {n} ({state.players} players, {state.options}): scores {scores}, truth {truth}; "  # type: ignore[attr-defined]
                     f"markers {seen}, truth {[b['score'] for b in scene.truth['observation']['boards']]}; "
                     f"problems {final['problems'] if final else 'not seen as finished'}")
        bar.advance()
    bar.close()
    wrong = args.images - exact
    print(f"{args.images} finished Azul games, family {args.family}, {w}x{h}, "
          f"{'boards found unaided' if args.find else f'profile corners nudged by {args.nudge} px'}")
    print(f"  final scores exact    {exact / args.images:.1%} ({exact} of {args.images}); of the {wrong} others "
          f"{flagged} flagged or refused, {unseen} not seen as finished (no scores given), {silent} wrong and unflagged")
    print(f"  markers read right    {markers_right / max(markers, 1):.1%} ({markers_right} of {markers})")
    if times:
        print(f"  ms a photo            median {np.median(times) * 1000:.0f} (finding {'included' if args.find else 'aside'})")


if __name__ == "__main__":
    cv2.setNumThreads(2)
    main()
