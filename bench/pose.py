"""Where a tile's top face lies: the camera's pose from the boards' homographies (vision.pose).

Renders tables (no hands or clutter), takes each board's homography from its true corners (nudged with --nudge), works
out the focal length from them all and each board's pose (`pose.tile_tops`), and measures, for every tile lying on a
board, how far its true top face's centre lies from its space's centre mapped through the board's
own plane and through the plane a tile's height above it (in tiles' widths). Prints the focal
length's relative error and both distances (median, 90th percentile).

    python bench/pose.py [--scenes 24] [--seed 500] [--size 1280x720] [--family classic] [--nudge PX]
"""

from __future__ import annotations

import argparse

import cv2
import numpy as np

from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import board_homography
from azulcam.engine.players import make_player
from azulcam.engine.record import play_game, replay
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision import pose
from azulcam.calibration.geometry import tile_height
from azulcam.engine.games import GAMES
from azulcam.engine.zones import Zone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=24)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--family", default="classic")
    parser.add_argument("--nudge", type=float, default=0.0,
                        help="corner error (pixels, a normal spread), as a user's clicks or a fit leave it")
    args = parser.parse_args()
    nudge = np.random.default_rng(args.seed)
    size = tuple(int(v) for v in args.size.split("x"))
    focal_errors: list[float] = []
    distances: dict[str, list[float]] = {"board plane": [], "tile-top plane": []}
    for k in range(args.scenes):
        game = "azul" if k % 2 == 0 else "pavilion"
        options = {"wall": "colored", "jokers": False} if game == "azul" else {"side": "colored"}
        record = play_game(game, [make_player("greedy", i) for i in range(2 + k % 3)], options, args.seed + k).record
        states = [step.state for step in replay(record)]
        truth = render_state(states[int(len(states) * 0.7)], args.seed + k,
                             SceneOptions(size=size, family=args.family, hands=0.0, clutter=0.0)).truth
        placements = truth["profile"]["boards"]
        homographies = [board_homography(np.asarray(b["corners"], np.float64) + nudge.normal(0, args.nudge, (4, 2)))
                        for b in placements]
        layouts = [load_layout(b["layout"]) for b in placements]
        tops = pose.tile_tops(homographies, [layout.size_mm for layout in layouts], size, tile_height(GAMES[game]))
        focal = pose.focal_length([pose.metric(h, layout.size_mm) for h, layout in zip(homographies, layouts)], size)
        focal_errors.append(abs(focal / truth["camera"]["K"][0][0] - 1))
        boards = {b["player"]: (h, top, layout) for b, h, top, layout in zip(placements, homographies, tops, layouts)}
        for item in truth["items"]:
            zone = Zone.parse(item["zone"])
            if zone.player is None or zone.slot is None:
                continue
            h, top, layout = boards[zone.player]
            centre = np.array(layout[zone.slot].center).reshape(1, 1, 2)
            for name, mapping in (("board plane", h), ("tile-top plane", top)):
                seen = cv2.perspectiveTransform(centre, mapping).reshape(2)
                distances[name].append(float(np.linalg.norm(seen - np.array(item["center"]))) / truth["camera"]["tile_px"])
    print(f"{args.scenes} scenes {args.size}, family {args.family}, corners nudged by {args.nudge} px: focal length off by {np.median(focal_errors):.1%} "
          f"(median), {np.max(focal_errors):.1%} (max)")
    for name, d in distances.items():
        print(f"  a tile's top from its space's centre through the {name}: median {np.median(d):.3f}, "
              f"90th percentile {np.percentile(d, 90):.3f} tiles ({len(d)} tiles)")


if __name__ == "__main__":
    main()
