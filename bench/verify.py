"""Does the profile match the photo (``vision.verify``), on rendered tables with known boards.

For every board of every scene, four profiles at once: the true one; the other game's layout at
the true corners; the other side's layout; the true layout moved by 1.1 board widths (where
another board or the bare table may lie). Prints how often each is called a match, another
game, another side, nothing, or unsure, and the milliseconds one board's check takes.
A true board must read ``match`` (anything else is a false alarm: ``unsure`` is read with a
warning, a mismatch is refused); the wrong ones should not.

    python bench/verify.py [--scenes 60] [--seed 500000] [--size 1280x720] [--family classic]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import numpy as np
from azulcam.calibration.profile import BoardPlacement, board_homography
from azulcam.synth.dataset import random_position
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision.verify import check_board

from azulcam.progress import progress

VERDICTS = ("match", "other_game", "other_side", "nothing", "unsure")


def cases(layout: str) -> dict[str, str]:
    game, side = layout.split("-")
    return {"true": layout, "other game": ("pavilion" if game == "azul" else "azul") + "-" + side,
            "other side": game + "-" + ("grey" if side == "colored" else "colored")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=500000)
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT")
    parser.add_argument("--family", default="classic", help="art family of the tables (synth.art.FAMILIES)")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    rng = random.Random(args.seed)
    counts: dict[str, Counter[str]] = {c: Counter() for c in ("true", "other game", "other side", "moved")}
    ms: list[float] = []
    for n in progress(range(args.scenes), "scenes"):  # on stderr
        scene = render_state(random_position(rng), (args.seed, n), SceneOptions(size=size, family=args.family))
        for board in scene.truth["profile"]["boards"]:
            corners = np.array(board["corners"], np.float64)
            h = board_homography(corners)
            for case, layout in cases(board["layout"]).items():
                placement = BoardPlacement(board["player"], layout, tuple(map(tuple, corners)))  # type: ignore[arg-type]
                t = time.perf_counter()
                counts[case][check_board(scene.image, placement, h).verdict] += 1
                ms.append((time.perf_counter() - t) * 1000)
            moved = corners + (corners[1] - corners[0]) * 1.1
            placement = BoardPlacement(board["player"], board["layout"], tuple(map(tuple, corners)))  # type: ignore[arg-type]
            counts["moved"][check_board(scene.image, placement, board_homography(moved)).verdict] += 1
    print(f"{args.scenes} scenes at {args.size}, seed {args.seed}, art family {args.family}; boards by verdict")
    print(f"{'profile':<12}" + "".join(f"{v:>12}" for v in VERDICTS))
    for case, c in counts.items():
        print(f"{case:<12}" + "".join(f"{c[v]:>12}" for v in VERDICTS))
    print(f"one board's check: median {np.median(ms):.1f} ms, p90 {np.percentile(ms, 90):.1f} ms")


if __name__ == "__main__":
    main()
