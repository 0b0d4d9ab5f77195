"""One large photo read as a user reads it: `azulcam analyze PHOTO --game G --players N`, a
process of its own (start, models loaded, boards found, read), on rendered photos of tables
under way. Prints each photo's wall time and how the process ended (read, or refused with its
error), then the median time of those read. An installed azulcam's bytecode is compiled (pip
compiles it), so the package is compiled first: a process is not timed compiling it, whatever
PYTHONDONTWRITEBYTECODE says.

    python bench/photo.py [--photos 4] [--size 4000x3000] [--family classic] [--seed 680000] [--work DIR]
"""

from __future__ import annotations

import argparse
import compileall
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from azulcam.synth.camera import ViewRanges
from azulcam.synth.dataset import random_position
from azulcam.synth.render import SceneOptions, render_state


#: The repository's folders that make the ``azulcam`` package (pyproject.toml's package-dir).
PACKAGE = Path(__file__).resolve().parents[1]
PACKAGE_FOLDERS = ("azulcam", "engine", "vision", "follow", "synth", "calibration", "models", "dashboard")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=4)
    parser.add_argument("--size", default="4000x3000")
    parser.add_argument("--family", default="classic", help="art family the tables are drawn in")
    parser.add_argument("--seed", type=int, default=680000)
    parser.add_argument("--work", type=Path, default=None, help="where the photos are written (default: a temporary folder)")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    compiled = all(compileall.compile_dir(str(PACKAGE / name), quiet=1) for name in PACKAGE_FOLDERS)
    if not compiled:
        sys.exit("bench/photo.py: the package did not compile")
    rng = random.Random(args.seed)
    read_times = []
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for n in range(args.photos):
            state = random_position(rng)
            scene = render_state(state, (args.seed, n), SceneOptions(size=(w, h), view=ViewRanges(), family=args.family))
            photo = work / f"photo-{args.family}-{args.seed}-{n}.jpg"
            cv2.imwrite(str(photo), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "azulcam", "analyze", str(photo), "--game", state.game,
                                   "--players", str(state.players)], capture_output=True, text=True)
            spent = time.perf_counter() - started
            if done.returncode == 0:
                read_times.append(spent)
                how = "read"
            else:
                how = f"refused ({done.stderr.strip().splitlines()[-1][:120]})"
            print(f"photo {n} ({state.game}, {state.players} players): {spent:.2f} s, {how}", flush=True)
    if read_times:
        print(f"{len(read_times)} of {args.photos} photos read, {w}x{h}, family {args.family}: median "
              f"{statistics.median(read_times):.2f} s a process, max {max(read_times):.2f} s")
    else:
        print(f"none of {args.photos} photos read")


if __name__ == "__main__":
    main()
