"""Frames from a camera, a stream, a video file or a folder of images.

A live source (a webcam index, an RTSP or HTTP stream) is read by a thread of its own that always
keeps the newest frame only: the reader downstream never works through a backlog, it gets what the
camera sees now. A camera that stops answering is reopened with back-off, and frame numbers go on
from where they were, so that a game followed through a drop-out stays one game. A video file or a
folder is read at its own pace, every frame, to its end: there the clock is the video's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from ..engine.errors import CodedError

#: Image files a folder source reads, in name order.
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")

#: Seconds between attempts to reopen a lost camera: doubling from the first to the last, then
#: the last again. Short at first because most drop-outs are a cable touched or a stream's hiccup;
#: capped so that a camera plugged back in is seen within a few seconds.
REOPEN_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0)

#: Failed reads in a row before a live camera counts as lost: one bad frame is not a drop-out.
LOST_AFTER = 3

#: Frames a second of a folder of images when none is given (the renderer's game videos' rate).
FOLDER_FPS = 10.0


class CaptureError(CodedError, OSError):
    """A source that cannot be opened or read: a ``capture.*`` code whose parameters name it. An
    OSError too, as a failure to open or read a device or a file is."""


#: Who hears a live source's drop-outs and returns: a notice code and its parameters.
Notify = Callable[[str, dict[str, Any]], None]


@dataclass(frozen=True)
class Frame:
    """One frame: its number from 0 (across a camera's drop-outs), its time in seconds (the
    video's own for a file or a folder, since the source opened for a live one) and the BGR image."""

    index: int
    time: float
    image: np.ndarray


class Device(Protocol):
    """What a live source needs of ``cv2.VideoCapture`` (tests give their own)."""

    def isOpened(self) -> bool: ...  # noqa: N802, E704
    def read(self) -> tuple[bool, Any]: ...  # noqa: E704
    def release(self) -> None: ...  # noqa: E704


class Source(Protocol):
    """A source of frames: ``frames()`` yields them until the source ends or ``close()``."""

    name: str
    live: bool

    def frames(self) -> Iterator[Frame]: ...  # noqa: E704
    def close(self) -> None: ...  # noqa: E704


def open_source(spec: str, fps: float | None = None, notify: Notify | None = None) -> Source:
    """The source ``spec`` names: a webcam index (``0``), an ``rtsp://``, ``http://`` or
    ``https://`` stream, a folder of images (read in name order at ``fps``, by default
    :data:`FOLDER_FPS`) or a video file. ``notify`` hears a live source's drop-outs and returns,
    in words. Raises :class:`CaptureError` naming ``spec`` when it is none of these or cannot be
    opened."""
    text = str(spec).strip()
    if text.isdigit():
        index = int(text)
        return LiveSource(lambda: cv2.VideoCapture(index), f"camera {index}", notify)
    if text.split("://", 1)[0].lower() in ("rtsp", "http", "https") and "://" in text:
        return LiveSource(lambda: cv2.VideoCapture(text), text, notify)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path, fps or FOLDER_FPS)
    if path.is_file():
        return VideoSource(path)
    raise CaptureError("capture.no_source", source=text)


class VideoSource:
    """A video file, every frame in order, timed by the file's own frame rate."""

    live = False

    def __init__(self, path: Path) -> None:
        self.name = str(path)
        self._capture = cv2.VideoCapture(str(path))
        if not self._capture.isOpened():
            raise CaptureError("capture.unreadable_video", path=str(path))
        rate = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = rate if 0.0 < rate < 1000.0 else FOLDER_FPS
        self._next = 0  # the file's own number of the next frame: a second ``frames()`` reads on

    def frames(self) -> Iterator[Frame]:
        while True:
            ok, image = self._capture.read()
            if not ok or image is None:
                return
            index, self._next = self._next, self._next + 1
            yield Frame(index, index / self.fps, image)

    def close(self) -> None:
        self._capture.release()


class FolderSource:
    """A folder of images, in name order, one every ``1 / fps`` seconds of the folder's clock.
    An image that cannot be read raises :class:`CaptureError` naming it: a gap in a game's
    photos is the user's to fix, not something to paper over."""

    live = False

    def __init__(self, folder: Path, fps: float) -> None:
        if not fps > 0:
            raise CaptureError("capture.folder_fps", fps=fps)
        self.name = str(folder)
        self.fps = fps
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.paths:
            raise CaptureError("capture.no_images", suffixes=", ".join(IMAGE_SUFFIXES), folder=str(folder))

    def frames(self) -> Iterator[Frame]:
        for index, path in enumerate(self.paths):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise CaptureError("capture.unreadable_image", path=str(path), index=index, source=self.name)
            yield Frame(index, index / self.fps, image)

    def close(self) -> None:
        pass


class LiveSource:
    """A camera or stream read by a thread that keeps only the newest frame.

    ``frames()`` hands over each new frame once, the newest one whenever it is asked, and waits
    for the next otherwise; frames the reader downstream had no time for are dropped, never
    queued. When the device stops giving frames (:data:`LOST_AFTER` failed reads), it is released
    and reopened after :data:`REOPEN_DELAYS`; ``notify`` hears ``("capture.lost", {"source"})`` and
    ``("capture.back", {"source", "attempts"})``. ``close()`` ends
    ``frames()``."""

    live = True

    def __init__(self, opener: Callable[[], Device], name: str, notify: Notify | None = None,
                 delays: tuple[float, ...] = REOPEN_DELAYS, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self._opener = opener
        self._notify = notify or (lambda code, params: None)
        self._delays = delays
        self._clock = clock
        self._device = opener()
        if not self._device.isOpened():
            self._device.release()
            raise CaptureError("capture.cannot_open", source=name)
        self._start = clock()
        self._newest: Frame | None = None
        self._taken = -1
        self._count = 0
        self._stopped = threading.Event()
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=f"capture {name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            ok, image = self._device.read()
            if ok and image is not None:
                failures = 0
                with self._changed:
                    self._newest = Frame(self._count, self._clock() - self._start, image)
                    self._count += 1
                    self._changed.notify_all()
                continue
            failures += 1
            if failures >= LOST_AFTER:
                self._reopen()
                failures = 0

    def _reopen(self) -> None:
        self._device.release()
        self._notify("capture.lost", {"source": self.name})
        attempt = 0
        while not self._stopped.is_set():
            self._stopped.wait(self._delays[min(attempt, len(self._delays) - 1)])
            if self._stopped.is_set():
                return
            device = self._opener()
            if device.isOpened():
                self._device = device
                self._notify("capture.back", {"source": self.name, "attempts": attempt + 1})
                return
            device.release()
            attempt += 1

    def frames(self) -> Iterator[Frame]:
        while True:
            with self._changed:
                while not self._stopped.is_set() and (self._newest is None or self._newest.index == self._taken):
                    self._changed.wait(0.5)
                if self._stopped.is_set():
                    return
                frame = self._newest
                assert frame is not None
                self._taken = frame.index
            yield frame

    def close(self) -> None:
        self._stopped.set()
        with self._changed:
            self._changed.notify_all()
        self._thread.join(timeout=5.0)
        self._device.release()
