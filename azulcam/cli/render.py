"""``azulcam render``: photo-like pictures (or a video) of a recorded game, with their truth."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..engine.record import Record, replay
from ..i18n.words import is_message
from .arguments import event_range, size
from .common import BadInput, add_language_option, load_record

#: The renderer's art families (``synth.hands.FAMILY_NAMES``), named here so that ``--help`` needs no OpenCV.
ART_FAMILIES = ("classic", "strong-print", "matte-worn", "bright", "inked")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    r = subparsers.add_parser("render", help="draw photo-like images (or a video) of a recorded game, with their truth",
                              description="Draw photo-like pictures of a table at a point of a record, each with its "
                                          "truth (azulcam-scene/1: the observation, the profile with the boards' "
                                          "corners, what is hidden), or the whole game as a video with a JSON-lines "
                                          "truth file beside it. The same seed gives the same images.")
    r.add_argument("record", help="azulcam-record/1 file ('-' for standard input)")
    r.add_argument("--at", type=int, default=None, metavar="K",
                   help="draw the position after the first K events (0: before the first; default: the end)")
    r.add_argument("--out", default=None, metavar="DIR", help="folder for scene-NNN.jpg and scene-NNN.json")
    r.add_argument("--count", type=int, default=1, metavar="N", help="how many pictures (default 1)")
    r.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the camera, light and table (default 0)")
    r.add_argument("--size", type=size, default=None, metavar="WxH",
                   help="image size (default 1280x720; videos 960x540)")
    r.add_argument("--framing", choices=["fit", "free"], default="fit",
                   help="fit: the whole table in view where the tile size allows; free: any part of it")
    r.add_argument("--clean", action="store_true", help="no photographic effects (even light, no blur, noise or hands)")
    r.add_argument("--family", choices=list(ART_FAMILIES), default="classic",
                   help="art family of the boards, tiles, displays and table (default classic)")
    r.add_argument("--props", type=float, default=0.0, metavar="P",
                   help="chance of trivets, coins, dice, a score pad or the box lid beside the play area (stills; default 0)")
    r.add_argument("--video", default=None, metavar="OUT.mp4", help="draw the whole game as a video instead")
    r.add_argument("--events", type=event_range, default=(0, None), metavar="FIRST:LAST",
                   help="with --video: only these events (indices, inclusive)")
    add_language_option(r)
    r.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record = load_record(args.record)
    image_size = args.size or ((960, 540) if args.video else (1280, 720))
    if args.video is not None:
        return _video(args, record, image_size)
    if args.out is None:
        raise BadInput("cli.render.no_out")
    if args.count < 1:
        raise BadInput("cli.render.count", count=args.count)
    states = _states(record)
    at = len(states) - 1 if args.at is None else args.at
    if not 0 <= at < len(states):
        raise BadInput("cli.render.at", at=at, events=len(states) - 1)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput("cli.cannot_make", path=str(out), reason=exc.strerror) from None
    if not 0.0 <= args.props <= 1.0:
        raise BadInput("cli.render.props", props=args.props)
    _stills(args, record, states[at], at, image_size, out)
    print(f"{args.count} scenes of {record.game} after {at} events -> {out}", file=sys.stderr)
    return 0


def _video(args: argparse.Namespace, record: Record, image_size: tuple[int, int]) -> int:
    """The whole game (or ``--events``) as a video, its truth beside it."""
    from ..progress import Progress
    from ..synth.video import write_video

    if args.at is not None or args.out is not None or args.count != 1:
        raise BadInput("cli.render.video_and_stills")
    first, last = args.events
    try:
        with Progress(None, "video frames") as bar:
            path, sidecar, count = write_video(record, args.video, args.seed, image_size, first=first, last=last,
                                               on_frame=bar.update, family=args.family)
    except OSError as exc:  # the machine's words, or the renderer's message (a video it cannot write)
        raise BadInput("cli.reason", reason=exc if is_message(exc) else str(exc)) from None
    print(f"{count} frames -> {path}, truth -> {sidecar}", file=sys.stderr)
    return 0


def _stills(args: argparse.Namespace, record: Record, state: object, at: int, image_size: tuple[int, int],
            out: Path) -> None:
    """``--count`` pictures of ``state`` (after ``at`` events) in ``out``, each with its truth."""
    from ..synth.camera import ViewRanges
    from ..synth.render import SceneOptions, render_state

    options = SceneOptions(size=image_size, view=ViewRanges(framing=args.framing), clean=args.clean, family=args.family,
                           props=args.props)
    for i in range(args.count):
        scene = render_state(state, (args.seed, i), options)
        name = f"scene-{i:03d}"
        truth = {"image": f"{name}.jpg", "record": str(args.record), "at": at, "seed": [args.seed, i], **scene.truth}
        try:
            (out / f"{name}.jpg").write_bytes(scene.jpeg)
            (out / f"{name}.json").write_text(json.dumps(truth) + "\n", encoding="utf-8")
        except OSError as exc:
            raise BadInput("cli.cannot_write_into", path=str(out), reason=exc.strerror) from None


def _states(record: Record) -> list[object]:
    """The position before any event, then after each (checked)."""
    out = [record.new_state()]
    for step in replay(record):
        out.append(step.state.copy())
    return out
