"""What the dashboard's tests share: the demo game followed through the whole pipeline
(renderer, still gate, reader, tracker, engine) into a LiveGame and its history, and a client
that talks to the app as this machine's browser would."""

from __future__ import annotations

import cv2
import pytest
from fastapi.testclient import TestClient

from azulcam.dashboard.app import create_app
from azulcam.dashboard.demo import DemoSource, demo_record
from azulcam.dashboard.history import History
from azulcam.dashboard.live import LiveGame
from azulcam.dashboard.settings import Settings
from azulcam.dashboard.setup import TableSetup
from azulcam.engine.games import AZUL
from azulcam.engine.record import Record
from azulcam.follow.capture import open_source
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision.analyze import bare_boards, default_locator
from azulcam.vision.classify import default_classifier

EVENTS = 6  # the deal and five moves


def ended(live: LiveGame, seconds: int = 60) -> None:
    """Wait until the started ``live``'s source has given its last frame."""
    for _ in range(seconds * 10):
        if live.source_ended:
            return
        live.done.wait(0.1)
    raise AssertionError(f"the demo video did not end in {seconds} s")


def played_to_the_end(live: LiveGame) -> None:
    """Start ``live`` and wait until its source has given its last frame."""
    live.start()
    ended(live)


def follow(folder, record: Record, pace: bool = False) -> tuple[LiveGame, History]:
    """The demo's renderer playing ``record``, followed into a history in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    source = DemoSource(record)
    classifier = default_classifier()
    history = History(folder / "history.sqlite")
    live = LiveGame(source, source.profile, classifier, default_locator()[0], bare_boards(source.first, source.profile, classifier),
                    history, folder, dict(record.options), pace)
    return live, history


def first_events(n: int) -> Record:
    full = demo_record()
    return Record(full.game, full.players, full.options, full.start_player, full.events[:n])


def client_of(live: LiveGame | None, history: History, settings: Settings | None = None, host: str = "127.0.0.1:8000",
              setup=None) -> TestClient:
    """A client of the app, its requests naming ``host`` (this machine, unless a test says otherwise)."""
    return TestClient(create_app(live, history, settings, setup), base_url=f"http://{host}")


@pytest.fixture(scope="package")
def played(tmp_path_factory):
    """The demo's first events followed to the video's end (shared: tests compare before and after)."""
    folder = tmp_path_factory.mktemp("dashboard")
    record = first_events(EVENTS)
    live, history = follow(folder, record)
    played_to_the_end(live)
    yield live, history, record, folder
    live.stop()


@pytest.fixture()
def client(played) -> TestClient:
    live, history, _, _ = played
    return client_of(live, history)


@pytest.fixture(scope="package")
def demo():
    """The demo's helpers for a fixture of its own: ``follow(folder, record, pace)``,
    ``first_events(n)``, ``played_to_the_end(live)``, ``ended(live, seconds)``."""
    class Demo:
        pass

    helpers = Demo()
    helpers.follow, helpers.first_events, helpers.played_to_the_end, helpers.ended = follow, first_events, played_to_the_end, ended
    return helpers


@pytest.fixture()
def make_client():
    """:func:`client_of`, for a test that needs other settings or another Host."""
    return client_of


@pytest.fixture()
def following(tmp_path):
    """``following(n, pace=False, played=True)``: the demo's first ``n`` events followed in a
    folder of the test's own (played to the video's end unless ``played`` is False; then not
    started). Every LiveGame made is stopped after the test."""
    made = []

    def make(n: int, pace: bool = False, played: bool = True) -> tuple[LiveGame, History, Record]:
        record = first_events(n)
        live, history = follow(tmp_path / f"game{len(made)}", record, pace)
        made.append(live)
        if played:
            played_to_the_end(live)
        return live, history, record

    yield make
    for live in made:
        live.stop()


@pytest.fixture()
def begin_for():
    """``begin_for(source, history, data)``: what a set-up calls on Start (``begin``), following
    the game on ``source`` without pace from the frame it began it from, and the games it began;
    each stopped after the test."""
    started: list[LiveGame] = []

    def make(source, history, data):
        classifier = default_classifier()

        def begin(profile, bare, names=None, first=None):
            live = LiveGame(source, profile, classifier, default_locator()[0], bare, history, data,
                            dict(profile.game_options), pace=False, names=names, first=first)
            live.start()
            started.append(live)
            return live

        return begin, classifier, started

    yield make
    for live in started:
        live.stop()


@pytest.fixture()
def first_run(tmp_path, begin_for):
    """A first run: a folder holding one photo of a 4-player Azul table at the start of a game
    (as a camera would show it), no profile; the set-up, its history, the scene and the data
    folder. The game it begins is followed without pace, stopped after the test."""
    start = AZUL.new(4, {"wall": "colored", "jokers": False}, 0)
    scene = render_state(start, (55, 3), SceneOptions(size=(1280, 720), hands=0.0, clutter=0.0))
    frames = tmp_path / "camera"
    frames.mkdir()
    cv2.imwrite(str(frames / "0000.png"), scene.image)
    data = tmp_path / "data"
    data.mkdir()
    history = History(data / "history.sqlite")
    source = open_source(str(frames))
    begin, classifier, _ = begin_for(source, history, data)
    yield TableSetup(source, classifier, data, begin), history, scene, data
