"""The README's own path to following a game, on whole games: `play`, `render --video`, `calibrate
--bare` on the video's first frame, `watch`, each run as a newcomer types it (a process of its
own), for every variant and 2 to 4 players. Prints per game whether the watched record is the
played one (deals compared as sets of displays: the camera numbers them by where they lie), the
watch's exit status and its time against the video's.

    python bench/readme.py [--games 6] [--seed 7] [--work DIR]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from azulcam.engine.record import Record

VARIANTS = [
    ("azul", ["--wall", "grey", "--jokers"]),
    ("pavilion", ["--side", "colored"]),
    ("azul", ["--wall", "colored"]),
    ("pavilion", ["--side", "grey"]),
    ("azul", ["--wall", "colored", "--jokers"]),
    ("azul", ["--wall", "grey"]),
]

#: The video's frame rate (`render --video`'s default): its time is its frame count over this.
FPS = 10.0


def azulcam(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "azulcam", *args], capture_output=True, text=True)


def in_sets(events: list[dict]) -> list[dict]:
    return [{"deal": {**e["deal"], "factories": sorted(sorted(f) for f in e["deal"]["factories"])}} if "deal" in e else e
            for e in events]


def run(k: int, seed: int, work: Path) -> dict:
    game, options = VARIANTS[k % len(VARIANTS)]
    players = 2 + k % 3
    name = f"{game}-{players}p-{'-'.join(o.strip('-') for o in options)}-{seed}"
    played, video, profile, watched = (work / f"{name}{s}" for s in (".json", ".mp4", ".profile.json", ".watched.json"))
    if not video.exists():
        for args in (["play", "--game", game, "--players", str(players), *options, "--seed", str(seed), "--out", str(played)],
                     ["render", str(played), "--video", str(video)]):
            done = azulcam(*args)
            if done.returncode:
                raise SystemExit(f"{name}: {args[0]} exited {done.returncode}: {done.stderr.strip()}")
    side = [o for o in options if o != "--jokers"]
    # A newcomer's table: nothing learnt of its tiles by an earlier run (watch keeps it beside the profile).
    for kept in (".memory.json", ".tiles.json"):
        profile.with_suffix(kept).unlink(missing_ok=True)
    done = azulcam("calibrate", str(video), "--game", game, "--players", str(players), *side,
                   *(["--jokers"] if "--jokers" in options else []), "--bare", "--out", str(profile))
    if done.returncode:
        return {"name": name, "same": False, "why": f"calibrate exited {done.returncode}"}
    watched.unlink(missing_ok=True)
    watched.with_name(watched.name + ".journal").unlink(missing_ok=True)
    began = time.perf_counter()
    done = azulcam("watch", str(video), "--profile", str(profile), "--out", str(watched))
    took = time.perf_counter() - began
    truth = Record.load(played)
    got = Record.load(watched) if watched.exists() else None
    frames = sum(1 for _ in (work / f"{name}.jsonl").open(encoding="utf-8")) if (work / f"{name}.jsonl").exists() else 0
    want, have = in_sets(truth.events), in_sets(got.events) if got else []
    first = next((i for i, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
    return {"name": name, "same": have == want, "code": done.returncode, "events": (len(have), len(want)),
            "first_wrong": first, "ratio": took / (frames / FPS) if frames else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--work", type=Path, default=Path("/tmp/azulcam-bench-readme"))
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    same = 0
    for k in range(args.games):
        r = run(k, args.seed + k, args.work)
        same += r["same"]
        if "why" in r:
            print(f"{r['name']}: {r['why']}", flush=True)
            continue
        verdict = "identical" if r["same"] else f"DIFFERENT from event {r['first_wrong']}"
        print(f"{r['name']}: {verdict} ({r['events'][0]} of {r['events'][1]} events), watch exit {r['code']}, "
              f"time/video {r['ratio']:.2f}", flush=True)
    print(f"records identical: {same} of {args.games}")


if __name__ == "__main__":
    main()
