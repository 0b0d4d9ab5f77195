"""Behaviour kept through a change of the code: what the commands print, written to one folder.

Runs the command line as a user runs it (a process a command) over the project's own data, and
writes each command's exit status, standard output and standard error to a file of its own under
``--out``: the records the built-in players play in every variant and player count; the score
reports and text summaries of the fixture records; the readings of the bundled photos and of the
fixture scenes (JSON and text, English and French); rendered pictures (as digests); suggestions;
(suggestions are searched for a time, and left to ``bench/ai.py --playouts``); and the refusals of
broken input (a missing file, a malformed record, an illegal event, a profile
for another game, bad options). Run it before and after a change, then compare the two folders
(``diff -r BEFORE AFTER``); ``--compare BEFORE`` does it and lists the commands whose output
differs.

    python bench/same.py --out /tmp/before
    ... change the code ...
    python bench/same.py --out /tmp/after --compare /tmp/before
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = sorted((ROOT / "fixtures" / "records").glob("*[!e].json"))  # not the .score.json reports
VARIANTS = [
    ("azul", ["--wall", "colored"]), ("azul", ["--wall", "grey"]), ("azul", ["--wall", "colored", "--jokers"]),
    ("azul", ["--wall", "grey", "--jokers"]), ("pavilion", ["--side", "colored"]), ("pavilion", ["--side", "grey"]),
]


def azulcam() -> list[str]:
    exe = Path(sys.executable).with_name("azulcam")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "azulcam"]


def commands(work: Path) -> dict[str, list[str]]:
    """Name -> command line. ``work`` holds the files the commands make and read."""
    out: dict[str, list[str]] = {}
    for game, opts in VARIANTS:
        for players in (2, 3, 4):
            name = f"play-{game}-{'-'.join(o.strip('-') for o in opts)}-{players}p"
            out[name] = ["play", "--game", game, "--players", str(players), *opts, "--seed", "7", "--out", "-"]
    for record in RECORDS:
        out[f"score-{record.stem}"] = ["score", str(record)]
        for lang in ("en", "fr"):
            out[f"score-{record.stem}-text-{lang}"] = ["score", str(record), "--text", "--lang", lang]
    out["demo"] = ["demo"]
    for lang in ("en", "fr"):
        out[f"demo-text-{lang}"] = ["demo", "--text", "--lang", lang]
    for scene in sorted((ROOT / "fixtures" / "scenes").glob("*/scene-00[01].json")):
        profile = work / f"profile-{scene.parent.name}-{scene.stem}.json"
        profile.write_text(json.dumps(json.loads(scene.read_text())["profile"]))
        image = scene.with_suffix(".jpg")
        key = f"{scene.parent.name}-{scene.stem}"
        out[f"analyze-{key}"] = ["analyze", str(image), "--profile", str(profile), "--check"]
        out[f"analyze-{key}-text-fr"] = ["analyze", str(image), "--profile", str(profile), "--text", "--lang", "fr"]
    sample = ROOT / "azulcam" / "samples"
    for photo in sorted(sample.glob("*.jpg")):
        game, players = photo.name.split(".")[0].split("-")
        players = players.rstrip("p")
        out[f"find-{photo.stem}"] = ["analyze", str(photo), "--game", game, "--players", players, "--check"]
    out["render"] = ["render", str(RECORDS[0]), "--at", "30", "--count", "2", "--seed", "1", "--size", "640x360",
                     "--out", str(work / "render")]
    out["layout"] = ["layout", "azul-colored"]
    # Refusals: what and where, in the user's words.
    broken = work / "broken.json"
    broken.write_text('{"format": "azulcam-record/1", "game": "azul", "players": 2, "events": [{"deal": 3}]}')
    illegal = json.loads(RECORDS[0].read_text())
    illegal["events"][1] = illegal["events"][2]
    (work / "illegal.json").write_text(json.dumps(illegal))
    other = json.loads((ROOT / "fixtures/scenes/azul-colored/scene-000.json").read_text())["profile"]
    other["game"], other["options"] = "pavilion", {"side": "colored"}
    (work / "other.json").write_text(json.dumps(other))
    (work / "corrupt.jpg").write_bytes(b"\xff\xd8 not a jpeg")
    scene = ROOT / "fixtures/scenes/azul-colored/scene-000.jpg"
    out["refuse-missing"] = ["score", str(work / "nothing.json")]
    out["refuse-malformed"] = ["score", str(broken)]
    out["refuse-illegal"] = ["score", str(work / "illegal.json")]
    out["refuse-other-game"] = ["analyze", str(scene), "--profile", str(work / "other.json")]
    out["refuse-corrupt"] = ["analyze", str(work / "corrupt.jpg"), "--game", "azul", "--players", "2"]
    out["refuse-options"] = ["play", "--game", "pavilion", "--wall", "grey", "--seed", "1", "--out", "-"]
    out["refuse-jokers"] = ["calibrate", str(scene), "--game", "pavilion", "--players", "2", "--jokers", "--out", "-"]
    out["refuse-players"] = ["play", "--players", "5"]
    out["refuse-bad-move"] = ["suggest", str(RECORDS[0]), "--at", "-3"]
    out["refuse-suggest-at"] = ["suggest", str(RECORDS[0]), "--at", "9999"]
    return out


def run(name: str, argv: list[str], out: Path, work: Path) -> None:
    env = dict(os.environ, LC_ALL="C", PYTHONHASHSEED="0")
    done = subprocess.run(azulcam() + argv, capture_output=True, text=True, cwd=work, env=env, timeout=900)
    text = f"$ azulcam {' '.join(a.replace(str(work), 'WORK').replace(str(ROOT), 'ROOT') for a in argv)}\nrc {done.returncode}\n"
    clean = [s.replace(str(work), "WORK").replace(str(ROOT), "ROOT") for s in (done.stdout, done.stderr)]
    (out / f"{name}.txt").write_text(text + "--- stdout\n" + clean[0] + "--- stderr\n" + clean[1])


def digests(folder: Path) -> str:
    """Each file's SHA-256; a text file's after the checkout's own path is taken out of it."""
    def content(path: Path) -> bytes:
        data = path.read_bytes()
        return data.replace(str(ROOT).encode(), b"ROOT") if path.suffix in (".json", ".jsonl") else data
    return "".join(f"{p.relative_to(folder)} {hashlib.sha256(content(p)).hexdigest()}\n"
                   for p in sorted(folder.rglob("*")) if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the folder to write (emptied first)")
    parser.add_argument("--compare", type=Path, default=None, help="an earlier --out to compare with")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        todo = commands(work)
        with ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(lambda item: run(item[0], item[1], args.out, work), todo.items()))
        (args.out / "render-digests.txt").write_text(digests(work / "render"))
    print(f"{len(todo)} commands written to {args.out}")
    if args.compare is None:
        return 0
    names = sorted({p.name for p in args.out.iterdir()} | {p.name for p in args.compare.iterdir()})
    differ = [n for n in names if not (args.out / n).exists() or not (args.compare / n).exists()
              or (args.out / n).read_bytes() != (args.compare / n).read_bytes()]
    print(f"{len(names) - len(differ)} of {len(names)} the same" + (": these differ: " + ", ".join(differ) if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
