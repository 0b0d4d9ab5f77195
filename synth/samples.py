"""The photos bundled with azulcam for its demo (``azulcam/samples/``), remade by this module.

Each sample is one table photographed twice by the same camera: at the game's start, every board
bare (``NAME.start.jpg``, what ``azulcam calibrate --bare`` is for), and later in the game
(``NAME.jpg``), with the profile of its true corners (``NAME.profile.json``) and the later photo's
truth (``NAME.truth.json``, ``azulcam-scene/1``).

    python -m azulcam.synth.samples [--out azulcam/samples]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..calibration.profile import seat_order
from ..engine.record import Record, replay
from ..engine.zones import Zone
from .art import RenderError
from .render import SceneOptions, render_moments

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Sample:
    name: str
    record: str  # relative to the repository's root
    events: int  # the later photo shows the state after this many events
    seed: int


SAMPLES = (Sample("azul-4p", "fixtures/records/azul-4p-colored-jokers.json", 45, 7),
           Sample("pavilion-2p", "fixtures/records/pavilion-2p-colored.json", 80, 9))
SIZE = (1920, 1080)
#: A clear photo: no hand over the table, a good JPEG.
OPTIONS = SceneOptions(size=SIZE, hands=0.0, jpeg=(88, 92))


def make(sample: Sample, out: Path) -> None:
    record = Record.load(ROOT / sample.record)
    later = next(step.state.copy() for step in replay(record) if step.index + 1 >= sample.events)
    start = later.spec.new(later.players, later.options, 0)
    calibration, scene = render_moments([start, later], sample.seed, OPTIONS)
    (out / f"{sample.name}.start.jpg").write_bytes(calibration.jpeg)
    (out / f"{sample.name}.jpg").write_bytes(scene.jpeg)
    profile, observation = seated({**scene.truth["profile"], "options": dict(record.options)}, scene.truth["observation"])
    (out / f"{sample.name}.profile.json").write_text(json.dumps(profile, indent=1) + "\n", encoding="utf-8")
    made_by = (f"render_moments(the start and the state after {sample.events} events of {sample.record}, "
               f"seed {sample.seed}, {SIZE[0]}x{SIZE[1]}, no hands, JPEG 88-92; players seated as calibrate seats them)")
    truth = {"format": scene.truth["format"], "made_by": made_by, "observation": observation,
             "hidden": scene.truth["hidden"]}
    (out / f"{sample.name}.truth.json").write_text(json.dumps(truth) + "\n", encoding="utf-8")


def seated(profile: dict[str, Any], observation: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The profile and the photo's truth with the players numbered as ``azulcam calibrate``
    numbers them on that photo (:func:`~azulcam.calibration.profile.seat_order`), so that the
    demo's seats are a user's. Raises :class:`~.art.RenderError` where the truth names board zones
    (its uncertain zones or warnings), which this does not renumber."""
    boards = sorted(profile["boards"], key=lambda b: b["player"])
    order = seat_order([np.mean(b["corners"], axis=0) for b in boards])
    seat = {boards[k]["player"]: p for p, k in enumerate(order)}
    uncertain = [Zone.parse(z) for z in observation.get("uncertain", [])]
    warned = json.dumps(observation.get("warnings", []))  # a warning's words and params may quote a zone's name
    if any(z.player in seat for z in uncertain) or any(f"boards.{p}." in warned for p in seat):
        raise RenderError("render.truth_names_zones")
    profile = {**profile, "boards": sorted(({**b, "player": seat[b["player"]]} for b in boards), key=lambda b: b["player"])}
    observation = {**observation, "boards": sorted(({**b, "player": seat[b["player"]]} for b in observation["boards"]),
                                                    key=lambda b: b["player"])}
    return profile, observation


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "azulcam" / "samples")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for sample in SAMPLES:
        make(sample, args.out)
        print(f"wrote {sample.name} to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
