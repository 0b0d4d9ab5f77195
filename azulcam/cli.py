"""``azulcam`` command line. Usage errors exit 2, bad input exits 1; both print to stderr."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from . import __version__
from .engine.errors import EngineError
from .engine.players import PLAYERS, make_player
from .engine.record import Record, final_state, play_game, replay, score_report

#: The renderer's art families (``synth.hands.FAMILY_NAMES``), named here so that ``--help`` needs no OpenCV.
ART_FAMILIES = ("classic", "strong-print", "matte-worn", "bright", "inked")


def dump_json(data: object, indent: int = 2) -> str:
    """Indented JSON with lists of numbers, and objects that hold no object, kept on one line.
    Built value by value, so that a string is printed exactly as it is (it reads back equal)."""
    def flat(value: object) -> bool:
        if isinstance(value, dict):
            return all(not isinstance(v, dict) and (not isinstance(v, list) or flat(v)) for v in value.values())
        if isinstance(value, list):
            return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        return True

    def encoded(value: object, level: int) -> str:
        if flat(value) or not value:
            return json.dumps(value, ensure_ascii=False)
        pad, inner = " " * (indent * level), " " * (indent * (level + 1))
        if isinstance(value, dict):
            items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {encoded(v, level + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        return "[\n" + ",\n".join(inner + encoded(v, level + 1) for v in value) + "\n" + pad + "]"  # type: ignore[union-attr]

    return encoded(data, 0)


class BadInput(Exception):
    """Input the user gave that azulcam cannot use (exit code 1)."""


def _write_out(path: str, text: str, summary: str) -> None:
    """``text`` to standard output (``-``) or to a file, then ``summary`` on stderr."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
    print(f"{summary} -> {path}", file=sys.stderr)


def _check(observation: dict, options: dict) -> dict[str, object]:
    """The rules engine's verdict on an observation of a game with ``options`` (the profile's)."""
    from .engine.notice import as_json
    from .engine.position import problems

    found = problems(observation, options)
    return {"possible": not found, "problems": as_json(found)}


def _reading_options(profile: object, jokers: bool) -> dict:
    """The game's options for a reading: the profile's, with ``--jokers`` turning the jokers on."""
    options = dict(profile.game_options)  # type: ignore[attr-defined]
    if jokers:
        if profile.game != "azul":  # type: ignore[attr-defined]
            raise BadInput("--jokers is an Azul option")
        options["jokers"] = True
    return options


def _language(args: argparse.Namespace) -> str:
    from .i18n import default_language

    return args.lang or default_language()


def _add_text_options(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--text", action="store_true", help=f"print {what} for people instead of JSON")
    parser.add_argument("--lang", choices=["en", "fr"], default=None,
                        help="language of --text (default: from LC_ALL, LC_MESSAGES, LANG or LANGUAGE; else en)")


def _options(args: argparse.Namespace) -> dict[str, object]:
    if args.game == "azul":
        if args.side is not None:
            raise BadInput("--side is a Summer Pavilion option (Azul has --wall)")
        return {"wall": args.wall or "colored", "jokers": args.jokers}
    if args.wall is not None or args.jokers:
        raise BadInput("--wall and --jokers are Azul options (Summer Pavilion has --side)")
    return {"side": args.side or "colored"}


def _players(spec: str | None, count: int, seed: int) -> list[object]:
    if spec is None:
        spec = "greedy,random" if count == 2 else "greedy"
    kinds = [k.strip() for k in spec.split(",")]
    if len(kinds) == 1:
        kinds = kinds * count
    if len(kinds) != count:
        raise BadInput(f"--bots names {len(kinds)} players for a {count}-player game")
    try:
        return [make_player(kind, seed * 100 + i) for i, kind in enumerate(kinds)]
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def cmd_play(args: argparse.Namespace) -> int:
    players = _players(args.bots, args.players, args.seed)
    game = play_game(args.game, players, _options(args), args.seed)
    if args.out == "-":
        sys.stdout.write(game.record.dumps())
    else:
        try:
            game.record.save(args.out)
        except OSError as exc:
            raise BadInput(f"cannot write {args.out}: {exc.strerror}") from None
        state = game.state
        print(f"{args.game}, {args.players} players, seed {args.seed}: {len(game.record.events)} events, "
              f"final scores {state.scores()}, winners {state.winners()} -> {args.out}", file=sys.stderr)
    return 0


def _load_record(path: str) -> Record:
    """The record at ``path`` (``-``: standard input), its form checked field by field
    (:mod:`azulcam.formats`) before the engine reads it."""
    from .formats import FormatError
    from .formats.record import read_record

    data = _load_json(path, "record")
    try:
        return Record.from_json(read_record(data))
    except FormatError as exc:
        raise BadInput(f"record {path}: {exc}") from None


def cmd_score(args: argparse.Namespace) -> int:
    record = _load_record(args.record)
    report = score_report(record)
    if args.text:
        from .text import score_text

        names = record.players if isinstance(record.players, list) else None
        print(score_text(report, final_state(record), _language(args), names=names), end="")
        return 0
    print(json.dumps(report) if args.compact else dump_json(report))
    return 0


SAMPLES = ("azul-4p", "pavilion-2p")


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job without a camera: for each game, calibrate on the bundled photo of the table
    at the game's start (its boards bare, as ``calibrate --bare`` keeps them), then read and
    check the bundled photo of the same table later in the game."""
    from importlib import resources

    from .calibration.profile import Profile
    from .vision.analyze import analyze, bare_boards, load_image
    from .vision.evaluate import compare

    classifier = _reading_model()
    samples = resources.files("azulcam").joinpath("samples")
    for name in SAMPLES:
        with resources.as_file(samples.joinpath(f"{name}.start.jpg")) as start_path:
            start = load_image(start_path)
        with resources.as_file(samples.joinpath(f"{name}.jpg")) as image_path:
            image = load_image(image_path)
        profile = Profile.from_json(json.loads(samples.joinpath(f"{name}.profile.json").read_text(encoding="utf-8")))
        observation = analyze(image, profile, classifier, bare=bare_boards(start, profile, classifier))
        observation["check"] = _check(observation, profile.game_options)
        found = observation["check"]["problems"]
        if args.text:
            from .text import observation_text

            print(observation_text(observation, _language(args), options=profile.game_options))
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


def _size(text: str) -> tuple[int, int]:
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit() and 64 <= int(w) <= 8192 and 64 <= int(h) <= 8192):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size WIDTHxHEIGHT (64 to 8192 pixels each, e.g. 1280x720)")
    return int(w), int(h)


def _event_range(text: str) -> tuple[int, int | None]:
    first, colon, last = text.partition(":")
    try:
        return int(first or 0), (int(last) if last else None) if colon else int(first or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an event range FIRST:LAST (e.g. 0:40)") from None


def _states(record: Record) -> list[object]:
    """The position before any event, then after each (checked)."""
    out = [record.new_state()]
    for step in replay(record):
        out.append(step.state.copy())
    return out


def cmd_render(args: argparse.Namespace) -> int:
    from .progress import Progress
    from .synth.camera import ViewRanges
    from .synth.render import SceneOptions, render_state
    from .synth.video import write_video

    record = _load_record(args.record)
    if args.video is not None:
        if args.at is not None or args.out is not None or args.count != 1:
            raise BadInput("--video draws the whole game: --at, --out and --count are for still images")
        first, last = args.events
        try:
            with Progress(None, "video frames") as bar:
                path, sidecar, count = write_video(record, args.video, args.seed, args.size, first=first, last=last,
                                                   on_frame=bar.update, family=args.family)
        except OSError as exc:
            raise BadInput(str(exc)) from None
        print(f"{count} frames -> {path}, truth -> {sidecar}", file=sys.stderr)
        return 0
    if args.out is None:
        raise BadInput("say where the images go with --out DIR (or make a video with --video OUT.mp4)")
    if args.count < 1:
        raise BadInput(f"--count must be at least 1, not {args.count}")
    states = _states(record)
    at = len(states) - 1 if args.at is None else args.at
    if not 0 <= at < len(states):
        raise BadInput(f"--at {at}: the record has {len(states) - 1} events (0 is the position before the first)")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot make {out}: {exc.strerror}") from None
    if not 0.0 <= args.props <= 1.0:
        raise BadInput(f"--props is a chance from 0 to 1, not {args.props}")
    options = SceneOptions(size=args.size, view=ViewRanges(framing=args.framing), clean=args.clean, family=args.family,
                           props=args.props)
    for i in range(args.count):
        scene = render_state(states[at], (args.seed, i), options)
        name = f"scene-{i:03d}"
        truth = {"image": f"{name}.jpg", "record": str(args.record), "at": at, "seed": [args.seed, i], **scene.truth}
        try:
            (out / f"{name}.jpg").write_bytes(scene.jpeg)
            (out / f"{name}.json").write_text(json.dumps(truth) + "\n", encoding="utf-8")
        except OSError as exc:
            raise BadInput(f"cannot write into {out}: {exc.strerror}") from None
    print(f"{args.count} scenes of {record.game} after {at} events -> {out}", file=sys.stderr)
    return 0


def cmd_layout(args: argparse.Namespace) -> int:
    from .calibration.layouts import LayoutError, check_layout, load_layout

    try:
        layout = load_layout(args.layout)
    except LayoutError as exc:
        raise BadInput(str(exc)) from None
    if args.scale is None and args.shift is None and args.size_mm is None and args.name is None:
        problems = check_layout(layout)
        print(f"{args.layout}: layout {layout.name}, {layout.size_mm[0]:g} x {layout.size_mm[1]:g} mm, "
              f"{len(layout.slots)} slots, " + ("usable" if not problems else "; ".join(problems)))
        return 0 if not problems else 1
    adjusted = layout.scaled(tuple(args.scale or (1.0, 1.0)), tuple(args.shift or (0.0, 0.0)),  # type: ignore[arg-type]
                             tuple(args.size_mm) if args.size_mm else None, args.name)  # type: ignore[arg-type]
    problems = check_layout(adjusted)
    if problems:
        raise BadInput(f"the adjusted layout is not usable: {problems[0]}")
    _write_out(args.out, adjusted.dumps(), f"adjusted {layout.name}")
    return 0


def _load_json(path: str, what: str) -> object:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read {what} {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what} {path}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (RecursionError, ValueError) as exc:  # nested too deep, or a number too long to read
        raise BadInput(f"{what} {path}: unreadable JSON ({type(exc).__name__})") from None


def _reading_model() -> object:
    """The shipped reading model, or a clear error where the install is damaged."""
    from .vision.classify import ModelError, default_classifier

    try:
        return default_classifier()
    except ModelError as exc:
        raise BadInput(str(exc)) from None


def cmd_analyze(args: argparse.Namespace) -> int:
    from .calibration.profile import Profile, ProfileError
    from .engine.final import final_scores, is_finished
    from .vision.analyze import ImageError, ProfileMismatch, analyze, load_image
    from .vision.bare import BareError, load_bare_boards
    from .vision.locate import LocateError

    try:
        if args.profile is None:
            image = load_image(args.image)
            profile = _found_profile(image, args)
            bare = {}
        else:
            if args.game or args.players or args.wall or args.side:
                raise BadInput("--game, --players, --wall and --side are for a photo without --profile "
                               "(the profile says them)")
            profile = Profile.from_json(_load_json(args.profile, "profile"))
            bare = load_bare_boards(profile.boards, Path(args.profile).parent if args.profile != "-" else Path.cwd())
            image = load_image(args.image)
        options = _reading_options(profile, args.jokers)
        observation = analyze(image, profile, _reading_model(), force=args.force, bare=bare)
    except ProfileMismatch as exc:
        against = f"the profile {args.profile}" if args.profile is not None else "the boards found in it"
        raise BadInput(f"{args.image} does not match {against}: {exc} (--force reads what it can)") from None
    except (ImageError, ProfileError, LocateError, BareError) as exc:
        raise BadInput(str(exc)) from None
    if args.check:
        observation["check"] = _check(observation, options)
    if is_finished(observation):
        observation["final"] = final_scores(observation)
    if args.text:
        from .text import observation_text

        names = profile.players if isinstance(profile.players, list) else None
        print(observation_text(observation, _language(args), options=options, names=names), end="")
        return 0
    print(json.dumps(observation) if args.compact else dump_json(observation))
    return 0


def _found_profile(image: object, args: argparse.Namespace) -> object:
    """The profile of a photo given without one: its boards found (``--game``, ``--players``) and
    their side told from their print unless given; what was found is said on standard error."""
    from .calibration.profile import Profile
    from .vision.calibrate import CalibrationError, photo_profile

    if args.game is None or args.players is None:
        raise BadInput("give --profile, or --game and --players to find the boards in the photo")
    if args.game == "azul" and args.side is not None or args.game == "pavilion" and args.wall is not None:
        raise BadInput("--wall is an Azul option and --side a Summer Pavilion one")
    side = args.wall if args.game == "azul" else args.side
    options = {("wall" if args.game == "azul" else "side"): side} if side else {}
    try:  # a photo of some of the boards is read too (a player scoring the board before them)
        found = photo_profile(image, args.game, args.players, options, least=1)  # type: ignore[arg-type]
    except CalibrationError as exc:
        raise BadInput(f"{args.image}: {exc}") from None
    side = found["options"]["wall" if args.game == "azul" else "side"]
    what = "wall" if args.game == "azul" else "side"
    seen = len(found["boards"])
    print(f"azulcam analyze: found {seen if seen == args.players else f'{seen} of the {args.players}'} boards "
          f"({found['boards'][0]['layout']}: the {side} {what}{', told from their print' if not options else ''})"
          f"{' and the scoring board' if found['scoring_board'] else ''}", file=sys.stderr)
    return Profile.from_json(found) if seen == args.players else Profile.in_view(found, args.players)


def _writable_folder(path: Path) -> None:
    """Raises :class:`BadInput` unless a file can be made beside ``path`` (its folder exists and
    may be written, as root too: a file is made there and removed) and ``path`` is no folder."""
    import tempfile

    if path.is_dir():
        raise BadInput(f"cannot write {path}: it is a folder")
    folder = path.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".check", dir=folder)
    except OSError as exc:
        reason = "no such folder" if not folder.exists() else "not a folder" if not folder.is_dir() else exc.strerror
        raise BadInput(f"cannot write {path}: {reason}") from None
    os.close(fd)
    os.unlink(tmp)


def _drop_events(events_out: object, made: bool, path: str | None) -> None:
    """A refused watch's events file closed, and removed where that watch made it (still empty)."""
    if events_out is None or events_out is sys.stdout:
        return
    events_out.close()  # type: ignore[attr-defined]
    if made and path and Path(path).is_file() and Path(path).stat().st_size == 0:
        Path(path).unlink()


class _Peeked:
    """A source whose first frame was taken to check the profile: that frame, then the rest."""

    def __init__(self, source: object, first: object, rest: object) -> None:
        self.source, self.first, self.rest = source, first, rest
        self.name, self.live = source.name, source.live  # type: ignore[attr-defined]

    def frames(self):  # type: ignore[no-untyped-def]
        if self.first is not None:
            yield self.first
        yield from self.rest  # type: ignore[misc]

    def close(self) -> None:
        self.source.close()  # type: ignore[attr-defined]


def cmd_watch(args: argparse.Namespace) -> int:
    from .calibration.profile import Profile, ProfileError
    from .vision.analyze import default_locator
    from .vision.bare import BareError, load_bare_boards
    from .follow.capture import CaptureError, open_source
    from .follow.journal import Journal, JournalError, game_to_follow, write_atomically
    from .follow.session import WatchConfig, check_first_view, nothing_committed, open_watcher
    from .follow.track import Refused
    from .follow.watch import event_line, read_controls, watch
    from .i18n import messages
    from .i18n.notices import notice_text, with_message
    from .i18n.places import Table

    try:
        profile = Profile.from_json(_load_json(args.profile, "profile"))
        options = _reading_options(profile, args.jokers)
        bare = load_bare_boards(profile.boards, Path(args.profile).parent if args.profile != "-" else Path.cwd())
    except (ProfileError, BareError) as exc:
        raise BadInput(str(exc)) from None
    record_path = Path(args.out) if args.out else None
    journal_path = record_path.with_name(record_path.name + ".journal") if record_path else None
    if record_path is not None and journal_path is not None:
        # Before any frame is read: the record and its journal can be written where --out says.
        _writable_folder(record_path)
        _writable_folder(journal_path)
        if record_path.exists() and not journal_path.exists() and not args.force:
            raise BadInput(f"{record_path} exists and is no watch's record (no journal {journal_path.name} beside it): "
                           "it would be replaced (--force replaces it)")
    try:
        kept, resumed = game_to_follow(journal_path, profile.game, profile.player_count, options, args.new)
    except JournalError as exc:
        raise BadInput(f"{exc} (--new starts another game and replaces it)") from None
    game, displays, after = kept.game, kept.displays, kept.frame
    side = "wall" if profile.game == "azul" else "side"
    if resumed and game.record.options.get(side, "colored") != options.get(side, "colored"):
        raise BadInput(f"the journal {journal_path} is of a game on the {game.record.options.get(side, 'colored')} "
                       f"{side}, the profile {args.profile} of the {options.get(side, 'colored')} {side} "
                       "(--new starts another game and replaces it)")
    joining = _joining(args.join, profile.player_count) if args.join and not game.record.events else None
    if args.join and joining is None:
        print("azulcam watch: note: --join left aside: the journal's game is resumed (--new joins afresh)", file=sys.stderr)
    model = _reading_model()
    # What earlier games at this table taught the camera of its tiles, kept beside the profile.
    config = WatchConfig.beside(profile, Path(args.profile) if args.profile != "-" else None, joining)
    table_path = config.table_path
    controls = None
    if args.control:
        try:
            controls = sys.stdin if args.control == "-" else open(args.control, encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise BadInput(f"cannot read {args.control}: {exc.strerror}") from None
    events_out = None
    events_made = False  # the events file was made by this watch: removed again where the watch is refused
    if args.events == "-":
        events_out = sys.stdout
    elif args.events:
        events_made = not Path(args.events).exists()
        try:
            events_out = open(args.events, "a", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise BadInput(f"cannot write {args.events}: {exc.strerror}") from None

    def emit(event: dict) -> None:
        event = with_message(event, table)  # an alert, a refusal, a re-synchronisation: worded in English
        if events_out is not None:
            events_out.write(event_line(event) + "\n")
            events_out.flush()
        if event["kind"] in ("move", "chance", "position", "alert", "undo", "refused"):
            what = (event.get("move") or event.get("deal") or event.get("refill") or event.get("message")
                    or event.get("event") or (event.get("position") or {}).get("round"))
            what = f"round {what}" if event["kind"] == "position" else what
            print(f"azulcam watch: frame {event['frame']}: {event['kind']} {json.dumps(what)}", file=sys.stderr)

    watchers: list = []  # the one watcher, once made: the capture thread may speak before
    table = Table.of(profile.game, game.record.options, game.record.players)  # its zones named as places

    def notify(code: str, params: dict) -> None:
        """A camera's drop-out or return, as an alert at the last frame seen."""
        last = watchers[0].last_seen if watchers else (0, 0.0)
        emit({"kind": "alert", "time": round(last[1], 3), "frame": last[0], "zones": [], "code": code, "params": params})

    source = None
    try:
        source = open_source(args.source, args.fps, notify=notify)
        # The first frame shows whether the profile is this view's (as analyze checks a photo's);
        # the watcher still sees it, after.
        rest = source.frames()
        first = next(rest, None)
        if first is not None:
            try:
                warnings, mismatch = check_first_view(first.image, profile, args.force)
            except Refused as exc:
                if exc.code == "follow.profile_mismatch":
                    raise BadInput(f"{source.name} does not match the profile {args.profile}: {exc.params['reason']} "
                                   "(--force follows it all the same)") from None
                raise BadInput(f"{source.name}, frame {first.index}: {exc.params['reason']}") from None
            if mismatch is not None:
                warnings.append(f"{source.name} does not match the profile {args.profile}: {mismatch} (followed all the same: --force)")
            for warning in warnings:
                print(f"azulcam watch: warning: {warning}", file=sys.stderr)
        source = _Peeked(source, first, rest)
        # Only now, with a source that shows the profile's table, is a journal written (afresh
        # where one is resumed), and the record written from it at once: a resumed game's is
        # never left an event behind its journal (a kill between the two writes), a new game's
        # never another game's.
        journal = None
        if journal_path is not None and record_path is not None:
            try:
                journal = Journal.create(journal_path, game, displays, after)
                write_atomically(record_path, game.record.dumps())
            except OSError as exc:
                raise BadInput(f"cannot write {exc.filename or record_path}: {exc.strerror}") from None
    except (CaptureError, BadInput) as exc:  # refused: nothing of this watch is left behind
        if source is not None:
            source.close()
        if controls is not None and controls is not sys.stdin:
            controls.close()
        _drop_events(events_out, events_made, args.events)
        if isinstance(exc, BadInput):
            raise
        raise BadInput(str(exc)) from None
    locator, note = default_locator()
    if note:
        print(f"azulcam watch: warning: {note}", file=sys.stderr)
    try:
        watcher = open_watcher(config, game, displays, emit, model, locator, bare, journal, record_path)
    except Refused as exc:
        if journal is not None:
            journal.close()
        raise BadInput(notice_text(messages("en"), exc.code, exc.params)) from None
    events_before, over_before = len(game.record.events), game.state.is_over()
    watchers.append(watcher)
    if controls is not None:
        read_controls(controls, watcher.controls)
    try:
        watch(source, watcher, resumed, after)
    except CaptureError as exc:
        raise BadInput(str(exc)) from None
    finally:
        if events_out is not None and events_out is not sys.stdout:
            events_out.close()
        watcher.keep_table()
        if watcher.table_error is not None:
            print(f"azulcam watch: warning: cannot keep this table's tile references in {table_path}: "
                  f"{watcher.table_error.strerror}", file=sys.stderr)
    record = watcher.tracker.game.record
    state = watcher.tracker.game.state
    status = "over" if state.is_over() else "not over"
    print(f"azulcam watch: {len(record.events)} events, game {status}, scores {state.scores()}"
          + (f" -> {record_path}" if record_path else ""), file=sys.stderr)
    idle = nothing_committed(watcher, events_before, over_before)
    if idle is not None:  # a watch that followed nothing must not pass for one that followed a game
        raise BadInput(notice_text(messages("en"), *idle, table))
    lost = watcher.tracker.lost()
    if lost is not None:  # the source ended on a table nothing explains: the record stops short
        raise BadInput(notice_text(messages("en"), "follow.lost", lost, table))
    return 0


def cmd_suggest(args: argparse.Namespace) -> int:
    """The best moves for the player to move, after the record's first ``--at`` events."""
    from .dashboard.words import worded
    from .engine.ai import suggest
    from .engine.errors import RecordError
    from .engine.record import Game, Record

    try:
        record = _load_record(args.record)
        at = len(record.events) if args.at is None else args.at
        if not 0 <= at <= len(record.events):
            raise BadInput(f"--at {at}: the record has {len(record.events)} events")
        state = Game(Record(record.game, record.players, record.options, record.start_player, record.events[:at],
                            record.seed)).state
        found = suggest(state, args.time, args.top, args.seed)
    except (RecordError, ValueError) as exc:
        raise BadInput(str(exc)) from None
    out = {"format": "azulcam-suggestions/1", "game": record.game, "at": at, "player": state.current_player,
           "moves": [worded(s.to_json(), record) for s in found]}
    if not args.text:
        print(dump_json(out))
        return 0
    from .i18n import messages

    m = messages(_language(args))
    print(m.text("suggest.title", player=m.text("player", n=state.current_player + 1)))
    for k, s in enumerate(out["moves"], 1):
        # Rounded first and +0.0: a tenth rounded to nothing is said "+0.0", never "-0.0".
        expected = m.text("suggest.expected", gained=round(s["points"]["gained"], 1) + 0.0, lost=round(-s["points"]["lost"], 1) + 0.0,
                          win=round(100 * s["win"]), n=s["playouts"])
        why = m.text("list.sep").join(part for part in (s["reason"][m.lang], expected) if part)
        print(m.text("suggest.line", k=k, move=s["text"][m.lang], why=why))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """The dashboard: the tracker over a camera (or the demo game), served on ``--host``:``--port``."""
    import uvicorn

    from .calibration.profile import Profile, ProfileError
    from .dashboard.app import create_app
    from .dashboard.demo import DemoSource
    from .dashboard.history import History, HistoryError
    from .dashboard.live import LiveGame
    from .dashboard.settings import Settings
    from .dashboard.setup import PROFILE_NAME, TableSetup
    from .vision.analyze import bare_boards, default_locator
    from .vision.bare import BareError, load_bare_boards
    from .follow.capture import CaptureError, open_source
    from .follow.session import table_path_of

    try:
        settings = Settings(host=args.host, port=args.port, token=args.token)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    if args.demo == bool(args.source):
        raise BadInput("serve needs --demo, or --source (with --profile, or set up from the page on a first run)")
    data = Path(args.data).expanduser()
    classifier = _reading_model()
    locator, note = default_locator()
    if note:
        print(f"azulcam serve: warning: {note}", file=sys.stderr)
    setup = None
    live = None
    path = None  # the profile's file (the demo has none)
    if args.demo:
        source = DemoSource()
        profile = source.profile
        bare = bare_boards(source.first, profile, classifier)
    else:
        kept = data / PROFILE_NAME  # the profile a first run's set-up kept
        path = Path(args.profile) if args.profile else kept if kept.exists() else None
        if path is not None:
            try:
                profile = Profile.from_json(_load_json(str(path), "profile"))
                bare = load_bare_boards(profile.boards, path.parent)
            except (ProfileError, BareError) as exc:
                raise BadInput(str(exc)) from None
        try:
            source = open_source(args.source, None)
        except CaptureError as exc:
            raise BadInput(str(exc)) from None
    try:
        data.mkdir(parents=True, exist_ok=True)
        history = History(data / "history.sqlite")
    except HistoryError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"cannot use the data folder {data}: {exc.strerror}") from None
    # The port last: what the user gave (source, profile, history) is judged first, and a port
    # another program holds (the README's demo, say) is named only where all of that is right.
    try:
        _port_free(args.host, args.port)
    except BadInput:
        source.close()
        history.shut()
        raise

    def begin(profile: Profile, bare: dict, names: list[str] | None = None, first: object = None,
              profile_path: Path = data / PROFILE_NAME) -> LiveGame:
        live = LiveGame(source, profile, classifier, locator, bare, history, data, _reading_options(profile, False),
                        names=names, table_path=None if args.demo else table_path_of(profile_path), first=first)
        live.start()
        return live

    if args.demo or path is not None:
        live = begin(profile, bare, profile_path=path or data / PROFILE_NAME)
        where = f"following {source.name}"
    else:
        setup = TableSetup(source, classifier, data, begin)
        where = f"set the table up at http://{args.host}:{args.port}/setup ({source.name})"
    print(f"azulcam serve: http://{args.host}:{args.port}/ (overlay: /overlay), {where}", file=sys.stderr)
    app = create_app(live, history, settings, setup)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    finally:
        if app.state.live is not None:
            app.state.live.stop()
        source.close()
        history.shut()
    return 0


def _bounded(kind: type, low: float, high: float, low_open: bool = False) -> Any:
    """An argparse type: a finite ``kind`` (int or float) in ``low``..``high`` (above ``low`` with
    ``low_open``), its refusal naming the range."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a {'whole ' if kind is int else ''}number, not {text!r}") from None
        if not math.isfinite(value) or (value <= low if low_open else value < low) or value > high:
            raise argparse.ArgumentTypeError(f"expected a number {'above' if low_open else 'from'} {low:g} "
                                             f"{'up ' if low_open else ''}to {high:g}, not {text}")
        return value

    return parse


def _port_free(host: str, port: int) -> None:
    """BadInput unless ``host``:``port`` can be served on now (another program may hold it)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OverflowError) as exc:
        raise BadInput(f"--host {host}: not an address of this machine ({exc})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise BadInput(f"cannot serve on {host}:{port}: {exc.strerror} (another program holds it? try --port)") from None


def _joining(text: str, players: int) -> tuple[int, list[int]]:
    """``--join ROUND:SCORES`` as (round, scores), or BadInput saying what is wrong."""
    round_text, _, scores_text = text.partition(":")
    try:
        round_, scores = int(round_text), [int(s) for s in scores_text.split(",")]
    except ValueError:
        raise BadInput(f"--join {text!r}: expected ROUND:SCORES, e.g. 3:12,30 (round 3; one score per player)") from None
    if round_ < 1 or len(scores) != players or min(scores) < 0:
        raise BadInput(f"--join {text!r}: a round from 1, and {players} scores of 0 or more (one per player)")
    return round_, scores


def _quad(text: str) -> list[tuple[float, float]]:
    try:
        values = [float(v) for v in text.replace(";", ",").split(",")]
    except ValueError:
        values = []
    if len(values) != 8:
        raise argparse.ArgumentTypeError(f"{text!r} is not four corners x1,y1,x2,y2,x3,y3,x4,y4 (TL TR BR BL)")
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def _first_frame(path: str) -> Any:
    """The first frame of a video file (the camera's view at a game's start, as ``render
    --video`` or a recording gives it), or None where ``path`` is no video."""
    from .follow.capture import CaptureError, VideoSource

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


def cmd_calibrate(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from .vision.analyze import ImageError, load_image
    from .vision.calibrate import CalibrationError, Match, confirm_boards, find_boards, profile_json
    from .vision.register import register_board

    side = args.side or args.wall or "colored"
    if args.game == "azul" and args.side is not None or args.game == "pavilion" and (args.wall is not None or args.jokers):
        raise BadInput("--wall and --jokers are Azul options and --side a Summer Pavilion one")
    options = {"wall": side, "jokers": args.jokers} if args.game == "azul" else {"side": side}
    try:
        image = load_image(args.image)
    except ImageError as exc:
        image = _first_frame(args.image)
        if image is None:
            raise BadInput(str(exc)) from None
    if args.board:
        if len(args.board) != args.players:
            raise BadInput(f"--board given {len(args.board)} times for {args.players} players")
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

        def placed(corners: list[tuple[float, float]], layout: str) -> Match:
            reg = register_board(image, grey, np.array(corners, np.float64), layout)
            return Match(reg.corners, layout, reg.score)

        boards = [placed(c, f"{args.game}-{side}") for c in args.board]
        if args.game == "pavilion" and args.scoring is None:
            raise BadInput("a Summer Pavilion profile needs the scoring board's corners too (--scoring)")
        scoring = placed(args.scoring, "pavilion-scoring") if args.scoring else None
    else:
        try:
            boards, scoring = find_boards(image, args.game, args.players, side)
        except CalibrationError as exc:
            raise BadInput(str(exc)) from None
        if args.game == "pavilion" and scoring is None:
            raise BadInput("the scoring board was not found; give its corners with --scoring (and the boards' "
                           "with --board)")
    try:
        confirm_boards(image, boards)
    except CalibrationError as exc:
        if not args.force:
            raise BadInput(f"{exc} (--force writes the profile anyway)") from None
        print(f"azulcam calibrate: warning: {exc}", file=sys.stderr)
    profile = profile_json(image, args.game, boards, scoring, options)
    if args.bare:  # the photo is of the game's start: keep how each bare board looks
        if args.out == "-":
            raise BadInput("--bare keeps the boards' look in images beside the profile: give --out FILE")
        profile = _with_bare_boards(image, profile, args.out)
    _write_out(args.out, dump_json(profile) + "\n", f"{len(boards)} boards" + (" and the scoring board" if scoring else ""))
    return 0


def _with_bare_boards(image: object, profile: dict, out: str) -> dict:
    """The profile with each board's bare look (:mod:`vision.bare`) saved beside ``out`` and named."""
    from .calibration.profile import Profile
    from .follow.setup import with_bare
    from .vision.analyze import bare_boards
    from .vision.bare import BareError

    try:
        return with_bare(profile, bare_boards(image, Profile.from_json(profile), _reading_model()), Path(out))
    except BareError as exc:
        raise BadInput(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="azulcam",
        description="A table companion for Azul and Azul: Summer Pavilion: rules engines, records, score reports, "
                    "and reading photos of a game table. Add --text to analyze, score or demo for a summary "
                    "in English or French.",
    )
    parser.add_argument("--version", action="version", version=f"azulcam {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="play a game between built-in players and write its record",
                       description="Play a seeded game between built-in players and write its azulcam-record/1.")
    p.add_argument("--game", choices=["azul", "pavilion"], default="azul")
    p.add_argument("--players", type=int, choices=[2, 3, 4], default=2)
    p.add_argument("--wall", choices=["colored", "grey"], default=None, help="Azul: which wall (default colored)")
    p.add_argument("--jokers", action="store_true", help="Azul: play with the joker tiles")
    p.add_argument("--side", choices=["colored", "grey"], default=None,
                   help="Summer Pavilion: which side of the player boards (default colored)")
    p.add_argument("--seed", type=int, required=True, help="seed of the deals and of the random players")
    p.add_argument("--bots", default=None, metavar="KINDS",
                   help=f"comma-separated built-in players in seating order ({', '.join(PLAYERS)}); "
                        "one name for all (default: greedy,random for 2 players, greedy for more)")
    p.add_argument("--out", required=True, help="record file to write ('-' for standard output)")
    p.set_defaults(func=cmd_play)

    s = sub.add_parser("score", help="print the azulcam-score/1 report of a record",
                       description="Replay a record, checking every event, and print its score report.")
    s.add_argument("record", help="record file ('-' for standard input)")
    s.add_argument("--compact", action="store_true", help="print the report on one line")
    _add_text_options(s, "the scores, their breakdown and the final boards")
    s.set_defaults(func=cmd_score)

    r = sub.add_parser("render", help="draw photo-like images (or a video) of a recorded game, with their truth",
                       description="Draw photo-like pictures of a table at a point of a record, each with its truth "
                                   "(azulcam-scene/1: the observation, the profile with the boards' corners, what is "
                                   "hidden), or the whole game as a video with a JSON-lines truth file beside it. "
                                   "The same seed gives the same images.")
    r.add_argument("record", help="azulcam-record/1 file ('-' for standard input)")
    r.add_argument("--at", type=int, default=None, metavar="K",
                   help="draw the position after the first K events (0: before the first; default: the end)")
    r.add_argument("--out", default=None, metavar="DIR", help="folder for scene-NNN.jpg and scene-NNN.json")
    r.add_argument("--count", type=int, default=1, metavar="N", help="how many pictures (default 1)")
    r.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the camera, light and table (default 0)")
    r.add_argument("--size", type=_size, default=None, metavar="WxH",
                   help="image size (default 1280x720; videos 960x540)")
    r.add_argument("--framing", choices=["fit", "free"], default="fit",
                   help="fit: the whole table in view where the tile size allows; free: any part of it")
    r.add_argument("--clean", action="store_true", help="no photographic effects (even light, no blur, noise or hands)")
    r.add_argument("--family", choices=list(ART_FAMILIES), default="classic",
                   help="art family of the boards, tiles, displays and table (default classic)")
    r.add_argument("--props", type=float, default=0.0, metavar="P",
                   help="chance of trivets, coins, dice, a score pad or the box lid beside the play area (stills; default 0)")
    r.add_argument("--video", default=None, metavar="OUT.mp4", help="draw the whole game as a video instead")
    r.add_argument("--events", type=_event_range, default=(0, None), metavar="FIRST:LAST",
                   help="with --video: only these events (indices, inclusive)")
    r.set_defaults(func=cmd_render)

    lay = sub.add_parser("layout", help="check a board layout, or write an adjusted copy for another printing",
                         description="Without options: check a layout (a shipped name such as azul-colored, or a "
                                     "file) and say whether it is usable. With --scale, --shift, --size-mm or --name: "
                                     "write a copy whose slots are moved by x' = (x - 0.5) * SX + 0.5 + DX (and "
                                     "likewise y), for a board printed a little larger, smaller or off-centre. "
                                     "A profile uses it by giving the file's path as the board's layout.")
    lay.add_argument("layout", help="shipped layout name or layout file")
    lay.add_argument("--scale", type=float, nargs=2, metavar=("SX", "SY"), default=None)
    lay.add_argument("--shift", type=float, nargs=2, metavar=("DX", "DY"), default=None,
                     help="in fractions of the board's width and height")
    lay.add_argument("--size-mm", type=float, nargs=2, metavar=("W", "H"), default=None, dest="size_mm",
                     help="the board's printed size in millimetres")
    lay.add_argument("--name", default=None, help="name of the copy (it must still start with azul- or pavilion-)")
    lay.add_argument("--out", default="-", help="file to write the adjusted copy to ('-' for standard output)")
    lay.set_defaults(func=cmd_layout)

    c = sub.add_parser("calibrate", help="find the boards in a photo and write the camera's profile",
                       description="Find the players' boards (and the Summer Pavilion scoring board) in a photo of "
                                   "the table and write an azulcam-profile/1; best at the start of a game, with --bare "
                                   "(every board empty: their look is kept beside --out and tells a tile from the "
                                   "space printed under it later). Player 0 is the board nearest the "
                                   "bottom of the image, then clockwise; give corners with --board to choose.")
    c.add_argument("image", help="photo of the table, every board in view (or a video: its first frame)")
    c.add_argument("--game", choices=["azul", "pavilion"], required=True)
    c.add_argument("--players", type=int, choices=[2, 3, 4], required=True)
    c.add_argument("--wall", choices=["colored", "grey"], default=None, help="Azul: which wall side the boards show")
    c.add_argument("--side", choices=["colored", "grey"], default=None, help="Summer Pavilion: which side")
    c.add_argument("--jokers", action="store_true", help="Azul: the game is played with the joker tiles")
    c.add_argument("--force", action="store_true",
                   help="write the profile even where a board cannot be confirmed (covered, blurred, another side)")
    c.add_argument("--bare", action="store_true",
                   help="every board in the photo is bare (the start of a game): keep how each looks, as images "
                        "beside --out, to tell a tile from the space printed under it later")
    c.add_argument("--board", type=_quad, action="append", default=None, metavar="X1,Y1,...,X4,Y4",
                   help="a board's corners by hand (TL TR BR BL as its owner sees it), once per player in order")
    c.add_argument("--scoring", type=_quad, default=None, metavar="X1,Y1,...,X4,Y4",
                   help="Summer Pavilion: the scoring board's corners by hand")
    c.add_argument("--out", default="-", help="profile file to write ('-' for standard output)")
    c.set_defaults(func=cmd_calibrate)

    a = sub.add_parser("analyze", help="read a photo of a table and print what is on it (azulcam-observation/1)",
                       description="Read a photo of a table with its calibration profile (or, without one, "
                                   "with the boards found in it) and print the "
                                   "azulcam-observation/1: every factory display, the centre, every board slot, the "
                                   "tiles beside the boards, the Azul score markers and the supply, with what is "
                                   "uncertain and what could not be seen. A finished Azul game (a wall with a "
                                   "complete row) also gets its final scores: each marker plus the walls' "
                                   "end-of-game bonuses.")
    a.add_argument("image", help="photo of the table (JPEG, PNG, ...)")
    a.add_argument("--profile", default=None,
                   help="azulcam-profile/1 file of this camera ('-' for standard input); without one, give --game "
                        "and --players: the boards are found in the photo")
    a.add_argument("--game", choices=["azul", "pavilion"], default=None, help="without --profile: the game")
    a.add_argument("--players", type=int, choices=[2, 3, 4], default=None, help="without --profile: the player count")
    a.add_argument("--wall", choices=["colored", "grey"], default=None,
                   help="without --profile, Azul: the wall side (default: told from the boards' print)")
    a.add_argument("--side", choices=["colored", "grey"], default=None,
                   help="without --profile, Summer Pavilion: the boards' side (default: told from their print)")
    a.add_argument("--check", action="store_true",
                   help="add the rules engine's verdict: what no legal game can show in this position")
    a.add_argument("--jokers", action="store_true",
                   help="Azul with the joker tiles, whatever the profile's options say (for a profile without them)")
    a.add_argument("--force", action="store_true",
                   help="read a photo that does not match its profile: the boards that do not match are skipped, "
                        "and the warnings say so")
    a.add_argument("--compact", action="store_true", help="print the observation on one line")
    _add_text_options(a, "what is on the table, each board drawn,")
    a.set_defaults(func=cmd_analyze)

    w = sub.add_parser("watch", help="follow a game on camera and write its checked record as it is played",
                       description="Follow a game through a camera, stream, video file or folder of images: each "
                                   "still view is read, the engine decides which legal move or chance event "
                                   "explains it, and the record grows move by move. With --out, every committed "
                                   "event is journalled beside the record first, and a watch stopped at any moment "
                                   "resumes the same game.")
    w.add_argument("source", help="webcam index (0), rtsp:// or http(s):// stream, video file, or folder of images")
    w.add_argument("--profile", required=True, help="azulcam-profile/1 of this camera (from azulcam calibrate)")
    w.add_argument("--out", default=None, help="record file (azulcam-record/1) kept up to date; its journal "
                                               "OUT.journal lies beside it")
    w.add_argument("--events", default=None, metavar="PATH",
                   help="write the event stream (JSON lines) to PATH, '-' for standard output")
    w.add_argument("--control", default=None, metavar="PATH",
                   help="corrections as JSON lines from PATH ('-' for standard input): {\"undo\": true}, "
                        "{\"replace\": EVENT}, {\"overrule\": {\"zone\": ZONE, \"content\": ...}}")
    w.add_argument("--new", action="store_true", help="start a new game even where --out's journal holds one")
    w.add_argument("--force", action="store_true",
                   help="follow a view that does not match its profile (its first frame shows another game, side "
                        "or no board where the profile puts one), and replace an --out file that is no watch's "
                        "record (no journal beside it)")
    w.add_argument("--jokers", action="store_true", help="Azul with the joker tiles, whatever the profile says")
    w.add_argument("--fps", type=float, default=None, help="frames a second of a folder of images (default 10)")
    w.add_argument("--join", default=None, metavar="ROUND:SCORES",
                   help="join a game under way, e.g. 3:12,30 (round 3, player 0 has 12 points, player 1 has 30): "
                        "the game is taken up from the first still view while tiles are being taken")
    w.set_defaults(func=cmd_watch)

    g = sub.add_parser("suggest", help="the best moves for the player to move in a record, with their reasons",
                       description="Search over the engine (what the bag deals is sampled, never read) and print "
                                   "the moves ranked: each with its chance to win, the points it is expected to win "
                                   "and lose this round, and why.")
    g.add_argument("record", help="an azulcam-record/1 (- for standard input)")
    g.add_argument("--at", type=int, default=None, help="after this many of its events (default: all)")
    g.add_argument("--time", type=_bounded(float, 0.0, 60.0, low_open=True), default=1.0,
                   help="seconds of search (above 0, at most 60)")
    g.add_argument("--top", type=_bounded(int, 1, 100), default=3, help="moves to print (1 to 100; all where there are fewer)")
    g.add_argument("--seed", type=int, default=None, help="the search's own draws")
    _add_text_options(g, "the moves and their reasons")
    g.set_defaults(func=cmd_suggest)

    v = sub.add_parser("serve", help="the web dashboard and streaming overlay, live over the tracker",
                       description="Follow a game on camera (or the demo game: --demo) and serve the dashboard, "
                                   "the OBS overlay (/overlay), the JSON API (/api/state, /api/games, "
                                   "/api/corrections) and live updates (/events).")
    v.add_argument("--demo", action="store_true", help="no camera: a game of the built-in players, rendered as it is played")
    v.add_argument("--source", default=None, help="webcam index, stream, video file or folder of images")
    v.add_argument("--profile", default=None, help="azulcam-profile/1 of this camera (from azulcam calibrate); without "
                                                   "it, the one the page's set-up kept in --data, else the page sets "
                                                   "the table up (/setup)")
    v.add_argument("--host", default="127.0.0.1", help="address to serve on (another than this machine's needs --token)")
    v.add_argument("--port", type=_bounded(int, 1, 65535), default=8000, help="port to serve on (1 to 65535)")
    v.add_argument("--token", default=None, help="a secret (8 characters or more) every write must carry, and on "
                                                 "another address than this machine's every request; open the "
                                                 "pages once as /?token=TOKEN")
    v.add_argument("--data", default="~/.local/share/azulcam", help="where the games' history and journals are kept")
    v.set_defaults(func=cmd_serve)

    d = sub.add_parser("demo", help="read the bundled photo of each game and print what it sees, with the check",
                       description="The main job without a camera: read the bundled table photo of each game "
                                   "(Azul, 4 players; Summer Pavilion, 2 players) with its profile, print each "
                                   "azulcam-observation/1 with the rules engine's check, and a summary on stderr.")
    _add_text_options(d, "what each photo shows")
    d.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    if getattr(args, "size", 0) is None:
        args.size = (960, 540) if getattr(args, "video", None) else (1280, 720)
    try:
        return int(args.func(args))
    except (BadInput, EngineError) as exc:
        print(f"azulcam {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("azulcam: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``azulcam score game.json | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes at exit
        return 141
    except OSError as exc:  # the machine's, not the input's nor ours: a full disk, a folder removed, a device gone
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"azulcam {args.command}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug of ours: say so in one line rather than a traceback
        print(f"azulcam {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(please report it with the command you ran)", file=sys.stderr)
        return 1
