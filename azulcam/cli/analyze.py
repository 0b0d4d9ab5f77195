"""``azulcam analyze``: a photo of a table read, and what is on it printed (azulcam-observation/1)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .arguments import add_game_options, game_and_options, listed, reading_options
from .common import (BadInput, add_memory_option, add_text_options, check, dump_json, language, load_json,
                     reading_model, table_memory)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    a = subparsers.add_parser("analyze", help="read a photo of a table and print what is on it (azulcam-observation/1)",
                              description="Read a photo of a table with its calibration profile (or, without one, "
                                          "with the boards found in it) and print the "
                                          "azulcam-observation/1: every factory display, the centre, every board slot, "
                                          "the tiles beside the boards, the Azul score markers and the supply, with "
                                          "what is uncertain and what could not be seen. A finished Azul game (a wall "
                                          "with a complete row) also gets its final scores: each marker plus the "
                                          "walls' end-of-game bonuses.")
    a.add_argument("image", help="photo of the table (JPEG, PNG, ...)")
    a.add_argument("--profile", default=None,
                   help="azulcam-profile/1 file of this camera ('-' for standard input); without one, give --game "
                        "and --players: the boards are found in the photo")
    add_game_options(a, {"wall": "without --profile, Azul: the wall side (default: told from the boards' print)",
                         "side": "without --profile, Summer Pavilion: the boards' side (default: told from their print)"},
                     game_help="without --profile: the game", players_help="without --profile: the player count")
    a.add_argument("--check", action="store_true",
                   help="add the rules engine's verdict: what no legal game can show in this position")
    a.add_argument("--jokers", action="store_true",
                   help="Azul with the joker tiles, whatever the profile's options say (for a profile without them)")
    a.add_argument("--force", action="store_true",
                   help="read a photo that does not match its profile: the boards that do not match are skipped, "
                        "and the warnings say so")
    a.add_argument("--compact", action="store_true", help="print the observation on one line")
    add_memory_option(a)
    add_text_options(a, "what is on the table, each board drawn,")
    a.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..calibration.profile import Profile, ProfileError
    from ..engine.final import final_scores, is_finished
    from ..vision.analyze import ImageError, ProfileMismatch, analyze, load_image
    from ..vision.bare import BareError, load_bare_boards
    from ..vision.locate import LocateError
    from ..vision.taught import reader_with

    try:
        if args.profile is None:
            image = load_image(args.image)
            profile = _found_profile(image, args)
            bare = {}
        else:
            flags = ["game", "players", *args.game_options]
            if any(getattr(args, name) for name in flags):
                raise BadInput("cli.analyze.flags_need_no_profile", flags=listed([f"--{name}" for name in flags]))
            profile = Profile.from_json(load_json(args.profile, "profile"))
            bare = load_bare_boards(profile.boards, Path(args.profile).parent if args.profile != "-" else Path.cwd())
            image = load_image(args.image)
        options = reading_options(profile, args.jokers)
        memory, _ = table_memory(args, profile.game)
        observation = analyze(image, profile, reader_with(reading_model(), memory), force=args.force, bare=bare)
    except ProfileMismatch as exc:
        if args.profile is not None:
            raise BadInput("cli.analyze.not_the_profile", image=args.image, profile=args.profile, reason=exc) from None
        raise BadInput("cli.analyze.not_the_boards_found", image=args.image, reason=exc) from None
    except (ImageError, ProfileError, LocateError, BareError) as exc:
        raise BadInput("cli.reason", reason=exc) from None
    if args.check:
        observation["check"] = check(observation, options)
    if is_finished(observation):
        observation["final"] = final_scores(observation)
    if args.text:
        from ..text import observation_text

        names = profile.players if isinstance(profile.players, list) else None
        print(observation_text(observation, language(args), options=options, names=names), end="")
        return 0
    print(json.dumps(observation) if args.compact else dump_json(observation))
    return 0


def _found_profile(image: object, args: argparse.Namespace) -> Any:
    """The profile of a photo given without one: its boards found (``--game``, ``--players``) and
    their face told from their print unless given; what was found is said on standard error.
    Raises :class:`BadInput` without the game or the player count, for another game's option,
    or where the boards are not found."""
    from ..calibration.profile import Profile
    from ..vision.calibrate import CalibrationError, photo_profile

    if args.game is None or args.players is None:
        raise BadInput("cli.analyze.no_profile")
    spec, options = game_and_options(args, fill=False)
    try:  # a photo of some of the boards is read too (a player scoring the board before them)
        found = photo_profile(image, args.game, args.players, options, least=1)  # type: ignore[arg-type]
    except CalibrationError as exc:
        raise BadInput("cli.in_file", path=args.image, reason=exc) from None
    face = found["options"][spec.face]
    seen = len(found["boards"])
    print(f"azulcam analyze: found {seen if seen == args.players else f'{seen} of the {args.players}'} boards "
          f"({found['boards'][0]['layout']}: the {face} {spec.face}{', told from their print' if not options else ''})"
          f"{' and the scoring board' if found['scoring_board'] else ''}", file=sys.stderr)
    return Profile.from_json(found) if seen == args.players else Profile.in_view(found, args.players)
