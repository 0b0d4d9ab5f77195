"""Board registration and calibration on rendered tables with known corners.

- registration: true corners pushed off by a share of the board's width (each corner on its own),
  then `refine_board`; prints how far the slot centres land from the truth, in tile widths, and
  milliseconds per board;
- calibration: `find_boards` with no profile; prints how many boards it finds within 8 px of the
  truth (player numbers may be turned round the table: the best turn is taken).

    python bench/register.py [--scenes 12] [--off 0.02] [--calibrate 8] [--family classic]
"""

from __future__ import annotations

import argparse
import random
import time

import cv2
import numpy as np
from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import board_homography, to_image
from azulcam.vision.calibrate import CalibrationError, find_boards
from azulcam.vision.dataset import random_position
from azulcam.vision.register import refine_board
from azulcam.vision.render import SceneOptions, render_state

from azulcam.progress import progress


def slot_error(corners: np.ndarray, truth: np.ndarray, layout: str) -> float:
    centres = np.array([s.center for s in load_layout(layout).slots])
    a, b = to_image(board_homography(corners), centres), to_image(board_homography(truth), centres)
    tile = np.linalg.norm(truth[1] - truth[0]) * 20 / 250
    return float(np.linalg.norm(a - b, axis=1).max() / tile)


def registration(scenes: int, off: float, size: tuple[int, int], family: str = "classic") -> None:
    rng, nudge = random.Random(5), np.random.default_rng(5)
    before, after, ms, failed = [], [], [], 0
    for n in progress(range(scenes), "registration scenes"):  # on stderr
        scene = render_state(random_position(rng), (77, n), SceneOptions(size=size, family=family))
        grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
        for board in scene.truth["profile"]["boards"]:
            truth = np.array(board["corners"])
            if (truth < 0).any() or (truth[:, 0] >= size[0]).any() or (truth[:, 1] >= size[1]).any():
                continue
            start = truth + nudge.normal(0, off * np.linalg.norm(truth[1] - truth[0]), (4, 2))
            t = time.perf_counter()
            reg = refine_board(grey, start, board["layout"])
            ms.append((time.perf_counter() - t) * 1000)
            before.append(slot_error(start, truth, board["layout"]))
            after.append(slot_error(reg.corners, truth, board["layout"]))
            failed += not reg.aligned
    print(f"registration, {len(after)} boards of the {family} art, corners off by {off:.0%} of the board "
          f"({size[0]}x{size[1]}):")
    print(f"  worst slot centre before: median {np.median(before):.2f} tile; after: median {np.median(after):.2f}, "
          f"p95 {np.percentile(after, 95):.2f}, max {max(after):.2f} tile; not aligned {failed}; "
          f"{np.median(ms):.1f} ms per board")


def calibration(scenes: int, size: tuple[int, int], family: str = "classic") -> None:
    rng = random.Random(3)
    right = total = errors = 0
    for n in progress(range(scenes), "calibration tables"):  # on stderr
        scene = render_state(random_position(rng), (55, n), SceneOptions(size=size, hands=0.0, clutter=0.5, family=family))
        game = scene.truth["observation"]["game"]
        truth = [np.array(b["corners"]) for b in scene.truth["profile"]["boards"]]
        side = scene.truth["profile"]["boards"][0]["layout"].split("-", 1)[1]
        total += len(truth)
        try:
            boards, _ = find_boards(scene.image, game, len(truth), side)
        except CalibrationError:
            errors += 1
            continue
        right += max(sum(np.abs(boards[(i + s) % len(truth)].corners - truth[i]).max() < 8 for i in range(len(truth)))
                     for s in range(len(truth)))
    print(f"calibration, {scenes} tables of the {family} art ({size[0]}x{size[1]}): {right} of {total} boards found "
          f"within 8 px, "
          f"{errors} tables where it gave up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=12)
    parser.add_argument("--off", type=float, default=0.02)
    parser.add_argument("--calibrate", type=int, default=8, help="tables for the calibration figure (0: none)")
    parser.add_argument("--family", default="classic", help="art family of the tables (vision.art.FAMILIES)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    registration(args.scenes, args.off, (1920, 1080), args.family)
    if args.calibrate:
        calibration(args.calibrate, (1280, 720), args.family)


if __name__ == "__main__":
    main()
