"""``azulcam calibrate``: the boards found in a photo of the table, written as the camera's profile."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..engine.games import GameSpec
from .arguments import add_game_options, game_and_options, quad, title
from .common import BadInput, add_language_option, dump_json, language, reading_model, warn, write_out


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    c = subparsers.add_parser("calibrate", help="find the boards in a photo and write the camera's profile",
                              description="Find the players' boards (and the Summer Pavilion scoring board) in a photo "
                                          "of the table and write an azulcam-profile/1; best at the start of a game, "
                                          "with --bare (every board empty: their look is kept beside --out and tells "
                                          "a tile from the space printed under it later). Player 0 is the board "
                                          "nearest the bottom of the image, then clockwise; give corners with --board "
                                          "to choose.")
    c.add_argument("image", help="photo of the table, every board in view (or a video: its first frame)")
    add_game_options(c, {"wall": "Azul: which wall side the boards show", "side": "Summer Pavilion: which side",
                         "jokers": "Azul: the game is played with the joker tiles"}, required=True)
    c.add_argument("--force", action="store_true",
                   help="write the profile even where a board cannot be confirmed (covered, blurred, another side)")
    c.add_argument("--bare", action="store_true",
                   help="every board in the photo is bare (the start of a game): keep how each looks, as images "
                        "beside --out, to tell a tile from the space printed under it later")
    c.add_argument("--board", type=quad, action="append", default=None, metavar="X1,Y1,...,X4,Y4",
                   help="a board's corners by hand (TL TR BR BL as its owner sees it), once per player in order")
    c.add_argument("--scoring", type=quad, default=None, metavar="X1,Y1,...,X4,Y4",
                   help="Summer Pavilion: the scoring board's corners by hand")
    c.add_argument("--out", default="-", help="profile file to write ('-' for standard output)")
    add_language_option(c)
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..vision.analyze import ImageError, load_image
    from ..vision.calibrate import CalibrationError, confirm_boards, find_boards, profile_json

    spec, options = game_and_options(args)
    try:
        image = load_image(args.image)
    except ImageError as exc:
        image = _first_frame(args.image)
        if image is None:
            raise BadInput("cli.reason", reason=exc) from None
    if args.board:
        boards, scoring = _placed_boards(image, args, spec, options)
    else:
        try:
            boards, scoring = find_boards(image, args.game, args.players, options[spec.face])
        except CalibrationError as exc:
            raise BadInput("cli.reason", reason=exc) from None
        if spec.scoring_layout is not None and scoring is None:
            raise BadInput("cli.calibrate.no_scoring_board")
    try:
        confirm_boards(image, boards)
    except CalibrationError as exc:
        if not args.force:
            raise BadInput("cli.calibrate.unconfirmed", reason=exc) from None
        warn("calibrate", exc, language(args))
    profile = profile_json(image, args.game, boards, scoring, options)
    if args.bare:  # the photo is of the game's start: keep how each bare board looks
        if args.out == "-":
            raise BadInput("cli.calibrate.bare_to_stdout")
        profile = _with_bare_boards(image, profile, args.out)
    write_out(args.out, dump_json(profile) + "\n", f"{len(boards)} boards" + (" and the scoring board" if scoring else ""))
    return 0


def _placed_boards(image: Any, args: argparse.Namespace, spec: GameSpec, options: dict) -> tuple[list, Any]:
    """The boards (and the scoring board) at the corners ``--board`` and ``--scoring`` give, each
    registered on the photo. Raises :class:`BadInput` for a count other than the players', a
    scoring board missing, or one given for a game without."""
    import cv2
    import numpy as np

    from ..vision.calibrate import Match
    from ..vision.register import register_board

    if len(args.board) != args.players:
        raise BadInput("cli.calibrate.board_count", given=len(args.board), players=args.players)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

    def placed(corners: list[tuple[float, float]], layout: str) -> Match:
        reg = register_board(image, grey, np.array(corners, np.float64), layout)
        return Match(reg.corners, layout, reg.score)

    boards = [placed(c, spec.layout(options)) for c in args.board]
    if spec.scoring_layout is None:
        if args.scoring is not None:
            raise BadInput("cli.calibrate.no_scoring_in_game", game=title(spec))
        return boards, None
    if args.scoring is None:
        raise BadInput("cli.calibrate.scoring_needed", game=title(spec))
    return boards, placed(args.scoring, spec.scoring_layout)


def _first_frame(path: str) -> Any:
    """The first frame of a video file (the camera's view at a game's start, as ``render
    --video`` or a recording gives it), or None where ``path`` is no video."""
    from ..follow.capture import CaptureError, VideoSource

    if not Path(path).is_file():
        return None
    try:
        source = VideoSource(Path(path))
    except CaptureError:
        return None
    try:
        first = next(source.frames(), None)
    finally:
        source.close()
    return first.image if first is not None else None


def _with_bare_boards(image: object, profile: dict, out: str) -> dict:
    """The profile with each board's bare look (:mod:`vision.bare`) saved beside ``out`` and named.
    Raises :class:`BadInput` where the looks cannot be kept."""
    from ..calibration.profile import Profile
    from ..follow import with_bare
    from ..vision.analyze import bare_boards
    from ..vision.bare import BareError

    try:
        return with_bare(profile, bare_boards(image, Profile.from_json(profile), reading_model()), Path(out))
    except BareError as exc:
        raise BadInput("cli.reason", reason=exc) from None
