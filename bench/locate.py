"""Localisation accuracy and speed (issue 5): factory discs and loose tiles on rendered scenes.

Renders N seeded scenes (every variant, 2 to 4 players, positions at random moments of random
games, default scene options: light, blur, noise, JPEG, hands, clutter) with ``fit`` framing at
1280x720 and 1920x1080, runs :func:`azulcam.vision.locate.locate` with the scene's true profile
and prints, per size:

- factories: recall and precision (a found disc matches a true factory centre within half its
  radius), over factories not hidden;
- tiles (on factories, in the centre, next to boards): recall and precision (a found outline's
  centre within 30% of a tile's size of a true item's centre; found outlines near a hidden
  zone's items are not counted against precision), and outline corner error;
- zone accuracy: the share of matched tiles given the true zone (factories by the matched disc);
- milliseconds per image of each step, one OpenCV thread.

    python bench/locate.py [--scenes 60] [--seed 1] [--sizes 1280x720,1920x1080] [--failures]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter, defaultdict
from typing import Any

import cv2
import numpy as np
from azulcam.engine.players import make_player
from azulcam.engine.record import play_game, replay
from azulcam.engine.zones import DISPLAY, HAND, Zone
from azulcam.synth.camera import ViewRanges
from azulcam.synth.dataset import VARIANTS
from azulcam.vision.locate import Loose, locate
from azulcam.synth.render import SceneOptions, render_state

from azulcam.progress import Progress


def position(rng: random.Random) -> Any:
    """A copy of the state at a random moment of a random seeded game (any variant and player
    count); two thirds of the time a moment with tiles on the factories."""
    game, options = VARIANTS[rng.randrange(len(VARIANTS))]
    players = rng.choice((2, 3, 4))
    bots = [make_player(rng.choice(("greedy", "random")), rng.randrange(1 << 30)) for _ in range(players)]
    match = play_game(game, bots, options, rng.randrange(1 << 30))
    states = [step.state.copy() for step in replay(match.record)]
    if rng.random() < 0.67:
        full = [s for s in states if any(s.to_json()["factories"])]
        if full:
            return full[rng.randrange(len(full))]
    return states[rng.randrange(len(states))]


#: Where a tile found on a display is counted whose disc matches no display of the truth: no zone of the table.
NO_DISPLAY = "factories.?"


def match_scene(truth: dict[str, Any], found_discs: list[Any], found_tiles: list[Loose]) -> dict[str, Any]:
    """Counts for one scene."""
    hidden = {h["zone"] for h in truth["hidden"]}
    obs = truth["observation"]
    out: dict[str, Any] = Counter()
    errors: list[str] = []
    # Factories.
    true_f = [(Zone.display(i), np.array(f["center"])) for i, f in enumerate(obs["factories"])]
    disc_zone: dict[int, Zone] = {}
    used = set()
    for n, d in enumerate(found_discs):
        best = min(true_f, key=lambda z: np.linalg.norm(z[1] - d.center), default=None)
        if best is not None and np.linalg.norm(best[1] - d.center) < 0.5 * d.radius and best[0] not in used:
            used.add(best[0])
            disc_zone[n] = best[0]
            if best[0] not in hidden:
                out["disc_tp"] += 1
        else:
            out["disc_fp"] += 1
            errors.append(f"false disc at {np.round(d.center)}")
    for z, c in true_f:
        if z not in hidden:
            out["disc_true"] += 1
            if z not in used:
                errors.append(f"missed {z} at {np.round(c)}")
    # Tiles (everything off the board slots and the supply).
    items = [i for i in truth["items"] if Zone.parse(i["zone"]).loose]
    centres = np.array([i["center"] for i in items]) if items else np.zeros((0, 2))
    sizes = np.array([np.linalg.norm(np.subtract(i["outline"][0], i["outline"][2])) / np.sqrt(2) for i in items])
    taken = np.zeros(len(items), bool)
    for t in sorted(found_tiles, key=lambda t: -t.score):
        if not len(items):
            out["tile_fp"] += 1
            continue
        dist = np.linalg.norm(centres - t.center, axis=1)
        k = int(np.argmin(np.where(taken, np.inf, dist)))
        if not taken[k] and dist[k] < 0.3 * sizes[k]:
            taken[k] = True
            item = items[k]
            if item["zone"] in hidden:
                continue
            out["tile_tp"] += 1
            out["corner_err"] += _corner_error(t.outline, np.array(item["outline"])) / sizes[k]
            zone: str = t.zone
            if t.zone.kind == DISPLAY:
                zone = disc_zone.get(t.zone.index, NO_DISPLAY)  # type: ignore[arg-type]
            if zone == item["zone"]:
                out["zone_ok"] += 1
            else:
                errors.append(f"zone {t.zone}->{zone} for {item['zone']} {item['kind']}")
        else:
            near_hidden = any(items[j]["zone"] in hidden and dist[j] < 0.6 * sizes[j] for j in range(len(items)))
            if not near_hidden:
                out["tile_fp"] += 1
                errors.append(f"false tile at {np.round(t.center)} ({t.zone})")
    for k, item in enumerate(items):
        if item["zone"] not in hidden:
            out["tile_true"] += 1
            out[f"true:{_zone_kind(item['zone'])}"] += 1
            if taken[k]:
                out[f"found:{_zone_kind(item['zone'])}"] += 1
            else:
                errors.append(f"missed {item['kind']} in {item['zone']} at {np.round(item['center'])}")
    out["errors"] = errors
    return out


def _zone_kind(name: str) -> str:
    kind = Zone.parse(name).kind
    return "factories" if kind == DISPLAY else "hand" if kind == HAND else "center"


def _corner_error(found: np.ndarray, true: np.ndarray) -> float:
    """Mean corner distance, over the cyclic shifts of the found outline (squares turn by 90
    degrees freely; a rhombus by 180)."""
    return min(float(np.linalg.norm(np.roll(found, s, 0) - true, axis=1).mean()) for s in range(4))


def run(scenes: int, seed: int, size: tuple[int, int], show_failures: bool) -> None:
    rng = random.Random(seed)
    opts = SceneOptions(size=size, view=ViewRanges(framing="fit"))
    total: Counter = Counter()
    ms: dict[str, list[float]] = defaultdict(list)
    bar = Progress(scenes, f"{size[0]}x{size[1]} scenes")  # on stderr
    for n in range(scenes):
        scene = render_state(position(rng), (seed, n), opts)
        image, truth = scene.image, scene.truth
        locate(image, truth["profile"], truth["observation"]["game"])  # warm the profile's cache as a camera would
        t = time.perf_counter()
        found = locate(image, truth["profile"], truth["observation"]["game"])
        ms["total"].append((time.perf_counter() - t) * 1000)
        for k, v in found.ms.items():
            ms[k].append(v)
        counts = match_scene(truth, found.discs, found.tiles)
        errors = counts.pop("errors")
        total.update(counts)
        if show_failures and errors:
            bar.note(f"  scene {n} ({truth['observation']['game']}, {len(truth['profile']['boards'])}p, "
                     f"el {truth['camera']['elevation']:.0f}, tile {truth['camera']['tile_px']:.0f}px, "
                     f"texture {truth['look']['texture']}): " + "; ".join(errors[:8]))
        bar.advance()
    bar.close()
    def pct(a: str, b: str) -> float:
        return 100.0 * total[a] / max(total[b], 1)
    found_discs = total["disc_tp"] + total["disc_fp"]
    found_tiles = total["tile_tp"] + total["tile_fp"]
    print(f"{size[0]}x{size[1]}, {scenes} scenes (seed {seed}, fit framing, default options)")
    print(f"  factories: recall {pct('disc_tp', 'disc_true'):.2f}% ({total['disc_tp']}/{total['disc_true']}), "
          f"precision {100.0 * total['disc_tp'] / max(found_discs, 1):.2f}% ({total['disc_fp']} false)")
    print(f"  tiles:     recall {pct('tile_tp', 'tile_true'):.2f}% ({total['tile_tp']}/{total['tile_true']}), "
          f"precision {100.0 * total['tile_tp'] / max(found_tiles, 1):.2f}% ({total['tile_fp']} false)")
    for kind in ("factories", "center", "hand"):
        print(f"    {kind:9s} recall {pct('found:' + kind, 'true:' + kind):.2f}% "
              f"({total['found:' + kind]}/{total['true:' + kind]})")
    print(f"  zone accuracy {pct('zone_ok', 'tile_tp'):.2f}%, "
          f"outline corner error {total['corner_err'] / max(total['tile_tp'], 1) * 100:.1f}% of a tile")
    print("  ms per image: " + ", ".join(f"{k} {np.mean(v):.2f} (max {np.max(v):.1f})" for k, v in ms.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--failures", action="store_true", help="print what each scene got wrong")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for s in args.sizes.split(","):
        w, h = (int(v) for v in s.split("x"))
        run(args.scenes, args.seed, (w, h), args.failures)


if __name__ == "__main__":
    main()
