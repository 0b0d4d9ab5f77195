"""``azulcam serve``: the web dashboard and streaming overlay, live over the tracker."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .arguments import bounded, reading_options
from .common import BadInput, add_language_option, add_memory_option, language, load_json, reading_model, table_memory, warn


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    v = subparsers.add_parser("serve", help="the web dashboard and streaming overlay, live over the tracker",
                              description="Follow a game on camera (or the demo game: --demo) and serve the "
                                          "dashboard, the OBS overlay (/overlay), the JSON API (/api/state, "
                                          "/api/games, /api/corrections) and live updates (/events).")
    v.add_argument("--demo", action="store_true", help="no camera: a game of the built-in players, rendered as it is played")
    v.add_argument("--source", default=None, help="webcam index, stream, video file or folder of images")
    v.add_argument("--profile", default=None, help="azulcam-profile/1 of this camera (from azulcam calibrate); without "
                                                   "it, the one the page's set-up kept in --data, else the page sets "
                                                   "the table up (/setup)")
    v.add_argument("--host", default="127.0.0.1", help="address to serve on (another than this machine's needs --token)")
    v.add_argument("--port", type=bounded(int, 1, 65535), default=8000, help="port to serve on (1 to 65535)")
    v.add_argument("--token", default=None, help="a secret (8 characters or more) every write must carry, and on "
                                                 "another address than this machine's every request; open the "
                                                 "pages once as /?token=TOKEN")
    v.add_argument("--data", default="~/.local/share/azulcam", help="where the games' history and journals are kept")
    add_memory_option(v)
    add_language_option(v)
    v.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The dashboard: the tracker over a camera (or the demo game), served on ``--host``:``--port``."""
    import uvicorn

    from ..calibration.profile import Profile
    from ..dashboard.app import create_app
    from ..dashboard.history import History, HistoryError
    from ..dashboard.live import LiveGame
    from ..dashboard.settings import Settings
    from ..dashboard.setup import PROFILE_NAME, TableSetup
    from ..follow.session import table_path_of
    from ..vision.analyze import default_locator

    try:
        settings = Settings(host=args.host, port=args.port, token=args.token)
    except ValueError as exc:
        raise BadInput("cli.reason", reason=exc) from None
    if args.demo == bool(args.source):
        raise BadInput("cli.serve.no_source")
    data = Path(args.data).expanduser()
    classifier = reading_model()
    locator, note = default_locator()
    if note:
        warn("serve", note, language(args))
    source, profile, bare, path = _table(args, data, classifier)
    if profile is not None and args.memory:  # refused now, as a bad profile is, not once the page is up
        try:
            table_memory(args, profile.game)
        except BadInput:
            source.close()
            raise
    try:
        data.mkdir(parents=True, exist_ok=True)
        history = History(data / "history.sqlite")
    except HistoryError as exc:
        raise BadInput("cli.reason", reason=exc) from None
    except OSError as exc:
        raise BadInput("cli.serve.data_folder", path=str(data), reason=exc.strerror) from None
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
        # The table's memory: --memory's, else the one beside the profile (the demo keeps none).
        table_path = None if args.demo else Path(args.memory) if args.memory else table_path_of(profile_path)
        live = LiveGame(source, profile, classifier, locator, bare, history, data, reading_options(profile, False),
                        names=names, table_path=table_path, first=first)
        live.start()
        return live

    setup = None
    live = None
    if profile is not None:
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


def _table(args: argparse.Namespace, data: Path, classifier: object) -> tuple[Any, Any, Any, Path | None]:
    """The source to follow, and the table's profile, its boards' bare look and the profile's file
    where they are known: the demo's (no file), ``--profile``'s, or the one a first run's set-up
    kept in ``data``; else None (the page sets the table up). Raises :class:`BadInput` for a bad
    profile or a source that cannot be opened."""
    from ..calibration.profile import Profile, ProfileError
    from ..dashboard.demo import DemoSource
    from ..dashboard.setup import PROFILE_NAME
    from ..follow.capture import CaptureError, open_source
    from ..vision.analyze import bare_boards
    from ..vision.bare import BareError, load_bare_boards

    if args.demo:
        source = DemoSource()
        return source, source.profile, bare_boards(source.first, source.profile, classifier), None
    kept = data / PROFILE_NAME  # the profile a first run's set-up kept
    path = Path(args.profile) if args.profile else kept if kept.exists() else None
    profile = bare = None
    if path is not None:
        try:
            profile = Profile.from_json(load_json(str(path), "profile"))
            bare = load_bare_boards(profile.boards, path.parent)
        except (ProfileError, BareError) as exc:
            raise BadInput("cli.reason", reason=exc) from None
    try:
        source = open_source(args.source, None)
    except CaptureError as exc:
        raise BadInput("cli.reason", reason=exc) from None
    return source, profile, bare, path


def _port_free(host: str, port: int) -> None:
    """Raises :class:`BadInput` unless ``host``:``port`` can be served on now (another program
    may hold it)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OverflowError) as exc:
        raise BadInput("cli.serve.host", host=host, reason=str(exc)) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise BadInput("cli.serve.port_taken", host=host, port=port, reason=exc.strerror) from None
