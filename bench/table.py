"""What the game teaches the camera: deal colours read with this table's references and without.

Each game is drawn as in ``bench/track.py`` and followed from its first frame; every frame can be
put in other colours first (``--twist HUE,SATURATION``: a hue turn in OpenCV's units of 2 degrees
and a saturation factor), a table whose tiles look like nothing the reader was trained on. At each
still view read while displays hold a fresh deal, the displays' tiles are compared with the truth
twice: as the reader read them, and weighed with the table's references the game taught so far
(`vision/references.py`). Prints per game and in all the tiles read wrong in round 1 and after it,
each way, and the records identical.

    python bench/table.py [--games 4] [--events 0] [--twist 15,1.3] [--families ...] [--size 960x540]
        [--reader PATH] [--pick K,K...]
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter

import cv2
import numpy as np
from azulcam.engine.record import Game
from azulcam.engine.zones import DISPLAY
from azulcam.follow.capture import VideoSource
from azulcam.follow.session import WatchConfig, open_watcher
from azulcam.vision.analyze import default_locator

from track import calibrated, game_arguments, game_video, picked_games, reader_of, renumbered, sorted_deals  # noqa: E402  (bench/ is a folder of scripts)


def twisted(image: np.ndarray, hue: int, saturation: float) -> np.ndarray:
    if not hue and saturation == 1.0:
        return image
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.int16)
    hsv[..., 0] = (hsv[..., 0] + hue) % 180
    hsv[..., 1] = np.clip(hsv[..., 1] * saturation, 0, 255)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


def display_tiles(kinds: list, reading) -> Counter:
    """The displays' tiles of a reading, with ``kinds`` those of its loose tiles."""
    return Counter(kind for item, (kind, _) in zip(reading.loose, kinds)
                   if item.zone.kind == DISPLAY and kind is not None)


def run(k: int, args, classifier, locator) -> dict:
    video, record, family = game_video(args.work, k, args.seed + k, args.families.split(","), args.events, args.size)
    truth = [json.loads(line) for line in video.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]
    source = VideoSource(video)
    frames = source.frames()
    first = next(frames)
    hue, saturation = args.twist
    profile, bare, _ = calibrated(twisted(first.image, hue, saturation), truth[0], record, classifier)
    watcher = open_watcher(WatchConfig(profile=profile), Game.new(record.game, record.players, record.options), [],
                           lambda e: None, classifier, locator, bare)
    seen: list[tuple[int, Counter, Counter]] = []  # frame, displays as read, as weighed
    weigh = watcher._in_table_colours

    def recorded(reading, image):
        raw = display_tiles(list(reading.loose_kinds), reading)
        out, likely = weigh(reading, image)
        seen.append((current[0], raw, display_tiles(list(out.loose_kinds), out)))
        return out, likely

    watcher._in_table_colours = recorded  # type: ignore[method-assign]
    current = [0]
    for frame in itertools.chain([first], frames):
        current[0] = frame.index
        watcher.feed(type(frame)(frame.index, frame.time, twisted(frame.image, hue, saturation)))
    watcher.finish()
    source.close()
    deals = [i for i, e in enumerate(record.events) if "deal" in e]
    out = {"family": family, "name": video.stem, "wrong": {1: [0, 0], 2: [0, 0]}, "tiles": {1: 0, 2: 0}}
    for frame, raw, weighed in seen:
        t = truth[frame]
        want = Counter(tile for f in t["observation"]["factories"] for tile in f["tiles"])
        if t["phase"] != "still" or sum(want.values()) != 4 * len(t["observation"]["factories"]):
            continue  # only views of a deal untouched: every display full
        round_ = 1 if sum(d <= t["event"] for d in deals) <= 1 else 2
        out["tiles"][round_] += sum(want.values())
        out["wrong"][round_][0] += sum((want - raw).values())
        out["wrong"][round_][1] += sum((want - weighed).values())
    got = watcher.tracker.game.record
    out["same"] = sorted_deals(got.events) == renumbered(record, truth, watcher.tracker.displays.places)
    out["events"] = (len(got.events), len(record.events))
    out["known"] = {k: len(v) for k, v in watcher.table.seen.items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    game_arguments(parser, games=4, events=0)
    parser.add_argument("--twist", default="15,1.3", help="hue turn (OpenCV units), saturation factor")
    args = parser.parse_args()
    args.size = tuple(int(v) for v in args.size.lower().split("x"))
    hue, saturation = args.twist.split(",")
    args.twist = (int(hue), float(saturation))
    args.work.mkdir(parents=True, exist_ok=True)
    classifier = reader_of(args)
    locator, _ = default_locator()
    totals = {r: [0, 0, 0] for r in (1, 2)}
    same = 0
    picked = picked_games(args)
    for k in picked:
        r = run(k, args, classifier, locator)
        same += r["same"]
        for rnd in (1, 2):
            totals[rnd][0] += r["wrong"][rnd][0]
            totals[rnd][1] += r["wrong"][rnd][1]
            totals[rnd][2] += r["tiles"][rnd]
        print(f"{r['name']}: round 1 tiles wrong {r['wrong'][1][0]} as read, {r['wrong'][1][1]} weighed (of {r['tiles'][1]}); "
              f"later rounds {r['wrong'][2][0]} as read, {r['wrong'][2][1]} weighed (of {r['tiles'][2]}); record "
              f"{'identical' if r['same'] else 'different'} ({r['events'][0]} of {r['events'][1]} events); "
              f"tiles the game named: {r['known']}", flush=True)
    for rnd, name in ((1, "round 1"), (2, "later rounds")):
        wrong_read, wrong_weighed, tiles = totals[rnd]
        if tiles:
            print(f"{name}: deal tiles wrong {wrong_read / tiles:.2%} as read, {wrong_weighed / tiles:.2%} with the table's "
                  f"references ({tiles} tiles)")
    print(f"records identical: {same} of {len(picked)} (twist {args.twist})")


if __name__ == "__main__":
    main()
