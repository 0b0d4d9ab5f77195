"""``azulcam demo``: the main job without a camera, on the bundled photos."""

from __future__ import annotations

import argparse
import json
import sys

from .common import add_text_options, check, dump_json, language, reading_model

#: The bundled tables (``azulcam/samples/NAME.jpg``, with the photo of its start, profile and truth).
SAMPLES = ("azul-4p", "pavilion-2p")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    d = subparsers.add_parser("demo", help="read the bundled photo of each game and print what it sees, with the check",
                              description="The main job without a camera: read the bundled table photo of each game "
                                          "(Azul, 4 players; Summer Pavilion, 2 players) with its profile, print each "
                                          "azulcam-observation/1 with the rules engine's check, and a summary on stderr.")
    add_text_options(d, "what each photo shows")
    d.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """For each game, calibrate on the bundled photo of the table at the game's start (its boards
    bare, as ``calibrate --bare`` keeps them), then read and check the bundled photo of the same
    table later in the game."""
    from importlib import resources

    from ..calibration.profile import Profile
    from ..vision.analyze import analyze, bare_boards, load_image
    from ..vision.evaluate import compare

    classifier = reading_model()
    samples = resources.files("azulcam").joinpath("samples")
    for name in SAMPLES:
        with resources.as_file(samples.joinpath(f"{name}.start.jpg")) as start_path:
            start = load_image(start_path)
        with resources.as_file(samples.joinpath(f"{name}.jpg")) as image_path:
            image = load_image(image_path)
        profile = Profile.from_json(json.loads(samples.joinpath(f"{name}.profile.json").read_text(encoding="utf-8")))
        observation = analyze(image, profile, classifier, bare=bare_boards(start, profile, classifier))
        observation["check"] = check(observation, profile.game_options)
        found = observation["check"]["problems"]
        if args.text:
            from ..text import observation_text

            print(observation_text(observation, language(args), options=profile.game_options))
        else:
            print(dump_json({"sample": f"{name}.jpg", **observation}))
        truth = json.loads(samples.joinpath(f"{name}.truth.json").read_text(encoding="utf-8"))
        score = compare(observation, {**truth, "profile": profile.to_json(), "camera": {}})
        tiles = sum(len(b["slots"]) for b in observation["boards"]) + sum(len(f["tiles"]) for f in observation["factories"])
        print(f"demo: {name}.jpg ({profile.game}, {len(profile.boards)} players, calibrated on {name}.start.jpg): "
              f"{len(observation['factories'])} factory "
              f"displays, {tiles} tiles on boards and displays, {len(observation['uncertain'])} uncertain; "
              f"board slots read right {score.slots - score.slot_errors} of {score.slots}; "
              f"factories right {score.factories_right} of {score.factories}; "
              f"{'everything as the truth has it' if score.images_right else 'wrong: ' + ', '.join(sorted(score.errors))}; "
              f"the position is {'possible' if not found else 'impossible: ' + found[0]}", file=sys.stderr)
    return 0
