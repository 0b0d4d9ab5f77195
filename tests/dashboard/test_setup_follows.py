"""The page's set-up followed to the end: a game video (or a camera showing only its newest frame)
set up on /setup, Start, and the game followed from that view to the record that was played."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import pytest

from azulcam.dashboard.history import History
from azulcam.dashboard.live import LiveGame
from azulcam.dashboard.setup import TableSetup
from azulcam.engine.record import Record
from azulcam.follow.capture import LiveSource, VideoSource
from azulcam.synth.video import write_video
from support.tracking import same_end, same_game

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"
EVENTS = 5  # the deal and four moves


@pytest.fixture(scope="module")
def video(tmp_path_factory) -> tuple[Path, Record]:
    record = Record.load(RECORD)
    path, _, _ = write_video(record, tmp_path_factory.mktemp("setup") / "game.mp4", seed=2, size=(960, 540), last=EVENTS - 1)
    return path, Record(record.game, record.players, record.options, record.start_player, record.events[:EVENTS])


class CameraOnVideo:
    """A camera filming the video's table: each read gives the frame of this moment (a frame rate
    of its own, never waiting for the reader), the last one for ever once the video is over. The
    table waits at its first frame until the players begin (:meth:`play`): however long the page's
    set-up takes on a busy machine, no move is made before Start."""

    def __init__(self, path: Path) -> None:
        capture = cv2.VideoCapture(str(path))
        self.fps = capture.get(cv2.CAP_PROP_FPS) or 10.0
        self.images = []
        while True:
            ok, image = capture.read()
            if not ok:
                break
            self.images.append(image)
        capture.release()
        self.began: float | None = None

    def play(self) -> None:
        self.began = time.monotonic()

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return True

    def read(self) -> tuple[bool, object]:
        time.sleep(0.5 / self.fps)
        k = 0 if self.began is None else min(int((time.monotonic() - self.began) * self.fps), len(self.images) - 1)
        return True, self.images[k]

    def release(self) -> None:
        pass


def followed_from_the_page(source, data: Path, make_client, begin_for, wait_s: float, done, play=lambda: None) -> LiveGame:
    """``source`` set up from the page (boards found, Start), the players begun (``play``), and
    followed until ``done(live)``."""
    history = History(data / "history.sqlite")
    begin, classifier, started = begin_for(source, history, data)
    setup = TableSetup(source, classifier, data, begin)
    client = make_client(None, history, setup=setup)
    found = client.post("/api/setup/find", json={"game": "azul", "players": 2, "side": "colored"}).json()
    assert len(found["boards"]) == 2, found
    assert client.post("/api/setup/start", json={"game": "azul", "boards": found["boards"]}).status_code == 200
    live = started[0]
    play()
    began = time.monotonic()
    while not done(live) and time.monotonic() - began < wait_s:
        time.sleep(0.2)
    live.stop()
    return live


def test_the_page_set_up_on_a_video_follows_it_to_the_record_played(video, tmp_path, make_client, begin_for):
    path, played = video
    live = followed_from_the_page(VideoSource(path), tmp_path, make_client, begin_for, 240.0, lambda live: live.source_ended)
    got = live.watcher.tracker.game.record
    assert live.health()["reads"] > EVENTS and live.error is None
    assert same_game(got, played), got.events


def test_the_page_set_up_on_a_camera_that_shows_only_its_newest_frame_follows_the_game(video, tmp_path, make_client,
                                                                                      begin_for):
    path, played = video
    camera = CameraOnVideo(path)
    source = LiveSource(lambda: camera, "camera on a video")
    live = followed_from_the_page(source, tmp_path, make_client, begin_for, 120.0,
                                  lambda live: len(live.watcher.tracker.game.record.events) >= EVENTS, camera.play)
    # A camera gives the newest frame only: the reader may miss the still view between two takes
    # (here a take of red was recorded from the other display that held red). It ends where the game did.
    got = live.watcher.tracker.game.record
    assert same_end(got, played), got.events
