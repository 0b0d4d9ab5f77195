"""Board registration and calibration on rendered tables with known corners.

- registration: true corners pushed off by a share of the board's width (each corner on its own),
  then the board-fitting model (`fit_board`); prints how far the slot centres land from the
  truth, in tile widths, and milliseconds per board;
- with ``--bare``: each table is also photographed at the game's start (the same table, camera
  and light, every board bare), each player's board taken from that photo into its own plane
  through its true corners 2 px off (``--bare-px``), as a calibration keeps it
  (``bare.rectified``), and the later photo's boards registered twice: by the model and with
  their own bare view (``refine_board``'s ``sheet``); also how far the fits land from the bare
  views' own corners (their frame), and the time of a bare board's first registration (its
  templates worked out);
- calibration: `find_boards` with no profile; prints how many boards it finds within 8 px of the
  truth (player numbers may be turned round the table: the best turn is taken).

    python bench/register.py [--scenes 12] [--off 0.02] [--calibrate 8] [--family classic] [--bare [--bare-px 2]]
        [--board-fit PATH] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import cv2
import numpy as np
from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import board_homography, to_image
from azulcam.vision.bare import rectified
from azulcam.vision.calibrate import CalibrationError, find_boards
from azulcam.synth.dataset import random_position
from azulcam.vision.board_fit import BoardFitter, load_board_fitter
from azulcam.vision.register import fit_board, refine_board
from azulcam.synth.render import SceneOptions, render_moments, render_state

from azulcam.progress import progress


def slot_error(corners: np.ndarray, truth: np.ndarray, layout: str) -> float:
    centres = np.array([s.center for s in load_layout(layout).slots])
    a, b = to_image(board_homography(corners), centres), to_image(board_homography(truth), centres)
    tile = np.linalg.norm(truth[1] - truth[0]) * 20 / 250
    return float(np.linalg.norm(a - b, axis=1).max() / tile)


def registration(scenes: int, off: float, size: tuple[int, int], family: str = "classic", bare: bool = False,
                 bare_px: float = 2.0, fitter: BoardFitter | None = None, seed: int = 0) -> None:
    rng, nudge, clicks = random.Random(5 + seed), np.random.default_rng(5 + seed), np.random.default_rng(6 + seed)
    looks = ("model", "bare view") if bare else ("model",)
    before: list[float] = []
    after: dict[str, list[float]] = {look: [] for look in looks}
    ms: dict[str, list[float]] = {look: [] for look in looks}
    failed = dict.fromkeys(looks, 0)
    first_ms: list[float] = []
    clicked_off: list[float] = []
    from_clicked: list[float] = []
    for n in progress(range(scenes), "registration scenes"):  # on stderr
        state = random_position(rng)
        options = SceneOptions(size=size, family=family)
        if bare:  # the same table at the game's start, every board bare, then now (no hands in either)
            start_state = state.spec.new(state.players, state.options, 0)
            calibration, scene = render_moments([start_state, state], (77 + seed, n), options)
        else:
            calibration, scene = None, render_state(state, (77 + seed, n), options)
        grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
        for board in scene.truth["profile"]["boards"]:
            truth = np.array(board["corners"])
            if (truth < 0).any() or (truth[:, 0] >= size[0]).any() or (truth[:, 1] >= size[1]).any():
                continue
            start = truth + nudge.normal(0, off * np.linalg.norm(truth[1] - truth[0]), (4, 2))
            before.append(slot_error(start, truth, board["layout"]))
            sheets: dict[str, np.ndarray | None] = {"model": None}
            if calibration is not None:
                clicked = truth + clicks.normal(0, bare_px, (4, 2))  # as a calibration's corners
                clicked_off.append(slot_error(clicked, truth, board["layout"]))
                sheets["bare view"] = rectified(calibration.image, board_homography(clicked), board["layout"])
                t = time.perf_counter()
                refine_board(grey, start, board["layout"], sheets["bare view"])
                first_ms.append((time.perf_counter() - t) * 1000)
            for look, sheet in sheets.items():
                t = time.perf_counter()
                reg = (fit_board(scene.image, start, board["layout"], fitter=fitter) if sheet is None
                       else refine_board(grey, start, board["layout"], sheet))
                ms[look].append((time.perf_counter() - t) * 1000)
                if sheet is not None:
                    from_clicked.append(slot_error(reg.corners, clicked, board["layout"]))
                after[look].append(slot_error(reg.corners, truth, board["layout"]))
                failed[look] += not reg.aligned
    print(f"registration, {len(before)} boards of the {family} family, corners off by {off:.0%} of the board "
          f"({size[0]}x{size[1]}{', tables at the game start and later' if bare else ''}); "
          f"worst slot centre before: median {np.median(before):.2f} tile")
    for look in looks:
        print(f"  by the {look}: worst slot centre median {np.median(after[look]):.3f}, "
              f"p95 {np.percentile(after[look], 95):.2f}, max {max(after[look]):.2f} tile; "
              f"within 0.2 tile {np.mean(np.array(after[look]) < 0.2):.0%}; not aligned {failed[look]}; "
              f"{np.median(ms[look]):.1f} ms per board")
    if clicked_off:
        print(f"  the bare views' own corners ({bare_px:g} px off): worst slot centre median "
              f"{np.median(clicked_off):.3f} tile; the fits with the bare view from them: median "
              f"{np.median(from_clicked):.3f}, p95 {np.percentile(from_clicked, 95):.2f} tile")
    if first_ms:
        print(f"  a bare view's first registration (its templates worked out): {np.median(first_ms):.1f} ms")


def calibration(scenes: int, size: tuple[int, int], family: str = "classic", fitter: BoardFitter | None = None,
                seed: int = 0) -> None:
    rng = random.Random(3 + seed)
    right = total = errors = 0
    for n in progress(range(scenes), "calibration tables"):  # on stderr
        scene = render_state(random_position(rng), (55 + seed, n), SceneOptions(size=size, hands=0.0, clutter=0.5, family=family))
        game = scene.truth["observation"]["game"]
        truth = [np.array(b["corners"]) for b in scene.truth["profile"]["boards"]]
        side = scene.truth["profile"]["boards"][0]["layout"].split("-", 1)[1]
        total += len(truth)
        try:
            boards, _ = find_boards(scene.image, game, len(truth), side, fitter=fitter)
        except CalibrationError:
            errors += 1
            continue
        right += max(sum(np.abs(boards[(i + s) % len(truth)].corners - truth[i]).max() < 8 for i in range(len(truth)))
                     for s in range(len(truth)))
    print(f"calibration, {scenes} tables of the {family} family ({size[0]}x{size[1]}): {right} of {total} boards found "
          f"within 8 px, "
          f"{errors} tables where it gave up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=12)
    parser.add_argument("--off", type=float, default=0.02)
    parser.add_argument("--calibrate", type=int, default=8, help="tables for the calibration figure (0: none)")
    parser.add_argument("--family", default="classic", help="art family of the tables (synth.art.FAMILIES)")
    parser.add_argument("--bare", action="store_true",
                        help="also register each board against its bare view from a photo at the game's start")
    parser.add_argument("--bare-px", type=float, default=2.0,
                        help="with --bare: how far off (pixels) the corners the bare views are taken through are")
    parser.add_argument("--board-fit", type=Path, default=None,
                        help="another board-fitting model (models/train_board_fit.py; default: the shipped one)")
    parser.add_argument("--seed", type=int, default=0, help="added to the scenes' seeds (0: the usual sets)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    fitter = load_board_fitter(args.board_fit) if args.board_fit else None
    registration(args.scenes, args.off, (1920, 1080), args.family, args.bare, args.bare_px, fitter, args.seed)
    if args.calibrate:
        calibration(args.calibrate, (1280, 720), args.family, fitter, args.seed)


if __name__ == "__main__":
    main()
