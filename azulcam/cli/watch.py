"""``azulcam watch``: a game followed on camera, its checked record written as it is played."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from ..engine.games import GAMES
from ..engine.notice import Notice
from .arguments import reading_options
from .common import BadInput, add_language_option, add_memory_option, language, load_json, reading_model, said, warn


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    w = subparsers.add_parser("watch", help="follow a game on camera and write its checked record as it is played",
                              description="Follow a game through a camera, stream, video file or folder of images: "
                                          "each still view is read, the engine decides which legal move or chance "
                                          "event explains it, and the record grows move by move. With --out, every "
                                          "committed event is journalled beside the record first, and a watch "
                                          "stopped at any moment resumes the same game.")
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
    add_memory_option(w)
    add_language_option(w)
    w.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..follow.capture import CaptureError, open_source
    from ..follow.session import WatchConfig, open_watcher
    from ..follow.track import Refused
    from ..follow.watch import read_controls, watch
    from ..engine.notice import Notice
    from ..i18n.words import words
    from ..i18n.places import Table
    from ..vision.analyze import default_locator

    lang = language(args)
    profile, options, bare = _profile(args)
    record_path, journal_path = _out_paths(args)
    kept, resumed = _kept_game(args, profile, options, journal_path)
    game, displays, after = kept.game, kept.displays, kept.frame
    joining = _joining(args.join, profile.player_count) if args.join and not game.record.events else None
    if args.join and joining is None:
        print(f"azulcam watch: note: {said(Notice('cli.watch.join_left_aside'), lang)}", file=sys.stderr)
    model = reading_model()
    # What this table taught the reader (photos, earlier games), kept beside the profile or --memory.
    config = WatchConfig.beside(profile, Path(args.profile) if args.profile != "-" else None, joining)
    if args.memory is not None:
        config = config.model_copy(update={"table_path": Path(args.memory)})
    table = Table.of(profile.game, game.record.options, game.record.players)  # its zones named as places
    controls = _controls(args.control)
    events = _Events.open(args.events, table)
    source = None
    try:
        source = open_source(args.source, args.fps, notify=events.notify)
        source = _checked_view(source, profile, args)
        journal = _journal(journal_path, record_path, game, displays, after)
    except (CaptureError, BadInput) as exc:  # refused: nothing of this watch is left behind
        if source is not None:
            source.close()
        if controls is not None and controls is not sys.stdin:
            controls.close()
        events.drop()
        if isinstance(exc, BadInput):
            raise
        raise BadInput("cli.reason", reason=exc) from None
    locator, note = default_locator()
    if note:
        warn("watch", note, lang)
    try:
        watcher = open_watcher(config, game, displays, events.emit, model, locator, bare, journal, record_path)
    except Refused as exc:
        if journal is not None:
            journal.close()
        # Worded here, in the command's language, as the follower words its notices (a refusal nests its reason its own way).
        raise BadInput("cli.reason", reason=words(Notice(exc.code, **exc.params), lang)) from None
    events_before, over_before = len(game.record.events), game.state.is_over()
    events.watcher = watcher
    if controls is not None:
        read_controls(controls, watcher.controls)
    try:
        watch(source, watcher, resumed, after)
    except CaptureError as exc:
        raise BadInput("cli.reason", reason=exc) from None
    finally:
        events.close()
        watcher.keep_table()
        if watcher.table_error is not None:
            warn("watch", watcher.table_error, lang)
    _ending(watcher, record_path, events_before, over_before, table, lang)
    return 0


def _profile(args: argparse.Namespace) -> tuple[Any, dict, dict]:
    """``--profile``, the game's options for the reading and the boards' bare look kept beside it.
    Raises :class:`BadInput`."""
    from ..calibration.profile import Profile, ProfileError
    from ..vision.bare import BareError, load_bare_boards

    try:
        profile = Profile.from_json(load_json(args.profile, "profile"))
        options = reading_options(profile, args.jokers)
        bare = load_bare_boards(profile.boards, Path(args.profile).parent if args.profile != "-" else Path.cwd())
    except (ProfileError, BareError) as exc:
        raise BadInput("cli.reason", reason=exc) from None
    return profile, options, bare


def _out_paths(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """The record of ``--out`` and its journal beside it (None, None without ``--out``), checked
    before any frame is read. Raises :class:`BadInput` where they cannot be written, or where the
    file is no watch's record (no journal beside it) and ``--force`` does not replace it."""
    if not args.out:
        return None, None
    record_path = Path(args.out)
    journal_path = record_path.with_name(record_path.name + ".journal")
    _writable_folder(record_path)
    _writable_folder(journal_path)
    if record_path.exists() and not journal_path.exists() and not args.force:
        raise BadInput("cli.watch.not_a_watch_record", record=str(record_path), journal=journal_path.name)
    return record_path, journal_path


def _kept_game(args: argparse.Namespace, profile: Any, options: dict, journal_path: Path | None) -> tuple[Any, bool]:
    """The game to follow, and whether it is the journal's, resumed. Raises :class:`BadInput`
    for a journal that cannot be read, or one of a game on another face than the profile's."""
    from ..follow.journal import JournalError, game_to_follow

    try:
        kept, resumed = game_to_follow(journal_path, profile.game, profile.player_count, options, args.new)
    except JournalError as exc:
        raise BadInput("cli.watch.journal_unreadable", reason=exc) from None
    spec = GAMES[profile.game]
    kept_face, profile_face = (given.get(spec.face, spec.faces[0]) for given in (kept.game.record.options, options))
    if resumed and kept_face != profile_face:
        raise BadInput("cli.watch.journal_of_other_face", journal=str(journal_path), profile=args.profile,
                       kept=Notice(f"cli.face.{spec.face}.{kept_face}"), given=Notice(f"cli.face.{spec.face}.{profile_face}"))
    return kept, resumed


def _writable_folder(path: Path) -> None:
    """Raises :class:`BadInput` unless a file can be made beside ``path`` (its folder exists and
    may be written, as root too: a file is made there and removed) and ``path`` is no folder."""
    import tempfile

    if path.is_dir():
        raise BadInput("cli.cannot_write", path=str(path), reason=Notice("cli.is_a_folder"))
    folder = path.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".check", dir=folder)
    except OSError as exc:
        reason = (Notice("cli.no_such_folder") if not folder.exists() else Notice("cli.not_a_folder")
                  if not folder.is_dir() else exc.strerror)
        raise BadInput("cli.cannot_write", path=str(path), reason=reason) from None
    os.close(fd)
    os.unlink(tmp)


def _joining(text: str, players: int) -> tuple[int, list[int]]:
    """``--join ROUND:SCORES`` as (round, scores). Raises :class:`BadInput` saying what is wrong."""
    round_text, _, scores_text = text.partition(":")
    try:
        round_, scores = int(round_text), [int(s) for s in scores_text.split(",")]
    except ValueError:
        raise BadInput("cli.watch.join_form", text=text) from None
    if round_ < 1 or len(scores) != players or min(scores) < 0:
        raise BadInput("cli.watch.join_values", text=text, players=players)
    return round_, scores


def _controls(path: str | None) -> TextIO | None:
    """The corrections' stream of ``--control`` (``-``: standard input). Raises :class:`BadInput`."""
    if not path:
        return None
    try:
        return sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise BadInput("cli.cannot_read", path=path, reason=exc.strerror) from None


class _Events:
    """What the watch tells: each event worded (an alert, a refusal, a re-synchronisation: in
    English), written to ``--events`` as a JSON line, and the moves, chance events, positions,
    alerts, undos and refusals said on standard error."""

    def __init__(self, out: TextIO | None, made: bool, path: str | None, table: Any) -> None:
        self.out, self.made, self.path, self.table = out, made, path, table
        self.watcher: Any = None  # the one watcher, once made: the capture thread may speak before

    @classmethod
    def open(cls, path: str | None, table: Any) -> _Events:
        """The events of a watch at ``table`` (its zones named as places), to ``path`` (``-``:
        standard output; None: to no file). Raises :class:`BadInput` where the file cannot be
        written."""
        if path == "-":
            return cls(sys.stdout, False, path, table)
        if not path:
            return cls(None, False, path, table)
        made = not Path(path).exists()  # made by this watch: removed again where the watch is refused
        try:
            return cls(open(path, "a", encoding="utf-8"), made, path, table)  # noqa: SIM115 (closed by close or drop)
        except OSError as exc:
            raise BadInput("cli.cannot_write", path=path, reason=exc.strerror) from None

    def emit(self, event: dict) -> None:
        from ..follow.watch import event_line
        from ..i18n.notices import with_message

        event = with_message(event, self.table)
        if self.out is not None:
            self.out.write(event_line(event) + "\n")
            self.out.flush()
        if event["kind"] in ("move", "chance", "position", "alert", "undo", "refused"):
            what = (event.get("move") or event.get("deal") or event.get("refill") or event.get("message")
                    or event.get("event"))
            if event["kind"] == "position":  # its round, and why it was taken up where the watch did so itself
                what = f"round {event['position']['round']}" + (f": {event['message']}" if event.get("message") else "")
            print(f"azulcam watch: frame {event['frame']}: {event['kind']} {json.dumps(what)}", file=sys.stderr)

    def notify(self, code: str, params: dict) -> None:
        """A camera's drop-out or return, as an alert at the last frame seen."""
        last = self.watcher.last_seen if self.watcher is not None else (0, 0.0)
        self.emit({"kind": "alert", "time": round(last[1], 3), "frame": last[0], "zones": [], "code": code, "params": params})

    def close(self) -> None:
        if self.out is not None and self.out is not sys.stdout:
            self.out.close()

    def drop(self) -> None:
        """A refused watch's events file closed, and removed where that watch made it (still empty)."""
        self.close()
        if self.made and self.path and Path(self.path).is_file() and Path(self.path).stat().st_size == 0:
            Path(self.path).unlink()


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


def _checked_view(source: Any, profile: Any, args: argparse.Namespace) -> _Peeked:
    """``source`` with its first frame checked to be the profile's view (as analyze checks a
    photo's), the watcher still seeing it after; the warnings said on standard error. Raises
    :class:`BadInput` where it is not (without ``--force``) or cannot be followed."""
    from ..follow.session import check_first_view
    from ..follow.track import Refused

    rest = source.frames()
    first = next(rest, None)
    if first is not None:
        try:
            warnings, mismatch = check_first_view(first.image, profile, args.force)
        except Refused as exc:
            if exc.code == "follow.profile_mismatch":
                raise BadInput("cli.watch.not_the_profile", source=source.name, profile=args.profile,
                               reason=exc.params["reason"]) from None
            raise BadInput("cli.watch.first_frame", source=source.name, frame=first.index,
                           reason=exc.params["reason"]) from None
        if mismatch is not None:
            warnings.append(Notice("cli.watch.followed_anyway", source=source.name, profile=args.profile, reason=mismatch))
        for warning in warnings:
            warn("watch", warning, language(args))
    return _Peeked(source, first, rest)


def _journal(journal_path: Path | None, record_path: Path | None, game: Any, displays: Any, after: Any) -> Any:
    """The journal of ``--out`` written afresh (where one is resumed too), and the record from it
    at once: a resumed game's is never left an event behind its journal (a kill between the two
    writes), a new game's never another game's. None without ``--out``. Raises :class:`BadInput`."""
    from ..follow.journal import Journal, write_atomically

    if journal_path is None or record_path is None:
        return None
    try:
        journal = Journal.create(journal_path, game, displays, after)
        write_atomically(record_path, game.record.dumps())
    except OSError as exc:
        raise BadInput("cli.cannot_write", path=str(exc.filename or record_path), reason=exc.strerror) from None
    return journal


def _ending(watcher: Any, record_path: Path | None, events_before: int, over_before: bool, table: Any,
            lang: str) -> None:
    """How the watch ended, said on standard error. Raises :class:`BadInput` (its reason in
    ``lang``'s words) for a watch that followed nothing, or one whose source ended on a table
    nothing explains (the record stops short), or whose record holds a position the watch took up
    again by itself (:func:`~azulcam.follow.session.resynchronised_at`)."""
    from ..follow.session import nothing_committed, resynchronised_at
    from ..engine.notice import Notice
    from ..i18n.words import words

    record = watcher.tracker.game.record
    state = watcher.tracker.game.state
    status = "over" if state.is_over() else "not over"
    print(f"azulcam watch: {len(record.events)} events, game {status}, scores {state.scores()}"
          + (f" -> {record_path}" if record_path else ""), file=sys.stderr)
    idle = nothing_committed(watcher, events_before, over_before)
    if idle is not None:  # a watch that followed nothing must not pass for one that followed a game
        raise BadInput("cli.reason", reason=words(Notice(idle[0], **idle[1]), lang, table))
    lost = watcher.tracker.lost()
    if lost is not None:  # the source ended on a table nothing explains: the record stops short
        raise BadInput("cli.reason", reason=words(Notice("follow.lost", **lost), lang, table))
    resynchronised = resynchronised_at(record)
    if resynchronised is not None:  # a game taken up again by itself: what it replaced was never seen
        raise BadInput("cli.reason", reason=words(Notice(resynchronised[0], **resynchronised[1]), lang, table))
