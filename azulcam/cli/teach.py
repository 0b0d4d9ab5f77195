"""``azulcam teach``: a photo whose content the user confirmed, taught to the table's memory."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .arguments import reading_options
from .common import (BadInput, add_language_option, add_memory_option, language, load_json,
                     reading_model, said, table_memory)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    t = subparsers.add_parser("teach", help="teach the reader this table from a photo whose content you confirmed",
                              description="Teach this table's memory what PHOTO shows: OBS is the "
                                          "azulcam-observation/1 of PHOTO (analyze's own output, corrected where it "
                                          "was wrong). The reader's last layer is refitted on every photo taught so "
                                          "far; analyze, watch and serve then read this table with it. Each call "
                                          "adds to the memory; --forget starts it over. The last line printed is "
                                          "'memory: PATH'.")
    t.add_argument("image", help="photo of the table (JPEG, PNG, ...), taken with the camera --profile calibrated")
    t.add_argument("--profile", required=True, help="azulcam-profile/1 of this camera (from azulcam calibrate)")
    t.add_argument("--truth", required=True, metavar="OBS",
                   help="azulcam-observation/1 of what the photo shows ('-' for standard input)")
    add_memory_option(t)
    t.add_argument("--forget", action="store_true",
                   help="forget what photos and games taught the reader before this one (the tile references "
                        "a watch keeps stay)")
    add_language_option(t, "language of the errors and of what is printed")
    t.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..calibration.profile import Profile, ProfileError
    from ..engine.notice import Notice
    from ..engine.position import problems
    from ..i18n.places import Table
    from ..i18n import messages
    from ..i18n.words import words
    from ..vision.analyze import ImageError, ProfileMismatch, default_locator, read, verified_profile
    from ..vision.bare import BareError, load_bare_boards
    from ..vision.classify import ModelError
    from ..vision.image_file import load_image
    from ..vision.memory import TableMemoryError
    from ..vision.taught import teach

    lang = language(args)
    if args.profile == "-" and args.memory is None:  # a profile on standard input has no memory beside it
        raise BadInput("cli.teach.no_memory")
    try:
        profile = Profile.from_json(load_json(args.profile, "profile"))
        bare = load_bare_boards(profile.boards, Path(args.profile).parent if args.profile != "-" else Path.cwd())
    except (ProfileError, BareError) as exc:
        raise BadInput("cli.reason", reason=exc) from None
    options = reading_options(profile, False)
    truth = load_json(args.truth, "observation")
    _same_table(truth, profile, options, args.truth)
    found = problems(truth, options)
    if found:  # worded here: its places are named as this table's
        raise BadInput("cli.teach.impossible", truth=args.truth,
                       problem=words(found[0], lang, Table.of(profile.game, options)))
    memory, path = table_memory(args, profile.game)  # a path: --memory, or beside the profile's file
    if args.forget:
        memory.forget()
    try:
        image = load_image(args.image)
        verified_profile(image, profile)
    except ProfileMismatch as exc:
        raise BadInput("cli.teach.not_the_profile", image=args.image, profile=args.profile, reason=exc) from None
    except ImageError as exc:
        raise BadInput("cli.reason", reason=exc) from None
    model = reading_model()
    locator, _ = default_locator()
    reading = read(image, profile, model, locator, bare)
    try:
        lesson = teach(memory, model, reading, image, truth)  # type: ignore[arg-type]
        memory.save(path)
    except (ModelError, TableMemoryError) as exc:
        raise BadInput("cli.reason", reason=exc) from None
    taught = memory.taught()
    print(said(Notice("cli.teach.learned", slots=lesson.examples.get("slots", 0),
                       slots_wrong=lesson.wrong_before.get("slots", 0), loose=lesson.examples.get("loose", 0),
                       loose_wrong=lesson.wrong_before.get("loose", 0), ms=round(lesson.refit_s * 1000)), lang))
    if lesson.left_out:
        table = Table.of(profile.game, options)
        zones = ", ".join(table.place(messages(lang), zone) for zone in lesson.left_out)
        print(said(Notice("cli.teach.left_out", zones=zones), lang))
    print(said(Notice("cli.teach.memory_holds", photos=memory.photos, slots=taught["slots"],
                       loose=taught["loose"]), lang))
    print(f"memory: {path}")
    return 0


def _same_table(truth: Any, profile: Any, options: dict, where: str) -> None:
    """Refuse an observation of another game, variant or player count than the profile's."""
    if not isinstance(truth, dict):
        raise BadInput("cli.teach.not_observation", truth=where)
    if truth.get("game") != profile.game:
        raise BadInput("cli.teach.other_game", truth=where, found=str(truth.get("game")), game=profile.game)
    boards = truth.get("boards")
    if isinstance(boards, list) and len(boards) != profile.player_count:
        raise BadInput("cli.teach.other_players", truth=where, found=len(boards), players=profile.player_count)
    given = truth.get("options")
    if isinstance(given, dict):
        for name, value in given.items():
            if name in options and value != options[name]:
                raise BadInput("cli.teach.other_variant", truth=where, option=name, found=str(value),
                               given=str(options[name]))
