"""The first run, without a profile: the set-up page's side. The camera's newest frame is kept
for the page to show; the boards are found in it (or placed by hand); the game chosen begins from
the view the person takes as the start of the game, and the profile and the boards' bare look are
kept in the data folder for the next run."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.profile import Profile
from ..follow import Frame, Refused, Source, found_boards, keep_profile, table_profile

#: The profile a set-up keeps, in the data folder.
PROFILE_NAME = "profile.json"


class TableSetup:
    """``source``'s frames, while a person sets the table up; ``begin(profile, bare, names, first)``
    starts following the game from ``first`` (the frame the person took as its start: the watch's
    first view) and takes the source over; it returns what follows the game."""

    def __init__(self, source: Source, classifier: Any, folder: Path,
                 begin: Callable[[Profile, dict, list[str] | None, Frame], Any]) -> None:
        self.source, self.classifier, self.folder, self.begin = source, classifier, folder, begin
        self._lock = threading.Lock()
        self._frame: Frame | None = None
        self._stop = threading.Event()
        self.error: str | None = None
        self._thread = threading.Thread(target=self._read, name="set-up frames", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        """The newest frame kept; a video or a folder's first frame only (its start)."""
        try:
            for frame in self.source.frames():
                with self._lock:
                    self._frame = frame
                if self._stop.is_set() or not self.source.live:
                    return
        except Exception as exc:  # noqa: BLE001 (the page says why there is no picture)
            self.error = f"{type(exc).__name__}: {exc}"

    def frame(self) -> Frame:
        """The newest frame. Raises :class:`Refused` (``setup.no_frame``) before the first."""
        for _ in range(50):
            with self._lock:
                if self._frame is not None:
                    return self._frame
            if not self._thread.is_alive():
                break
            self._stop.wait(0.1)
        raise Refused("setup.no_frame")

    def jpeg(self) -> bytes:
        ok, data = cv2.imencode(".jpg", self.frame().image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return data.tobytes()

    def size(self) -> tuple[int, int]:
        h, w = self.frame().image.shape[:2]
        return w, h

    def find(self, game: str, players: int, side: str) -> dict[str, Any]:
        """The boards found in the newest frame (:func:`azulcam.follow.found_boards`)."""
        return found_boards(self.frame().image, game, players, side)

    def start(self, game: str, options: dict[str, Any], boards: list, scoring: list | None, names: list[str] | None) -> Any:
        """The game begun from the newest frame (the start of the game, boards bare): its profile
        and bare boards kept beside :data:`PROFILE_NAME` in the folder, then ``begin``."""
        first = self.frame()
        profile, bare = table_profile(np.ascontiguousarray(first.image), game, options, boards, scoring, self.classifier)
        kept = keep_profile(profile, bare, self.folder / PROFILE_NAME)
        self._stop.set()
        self._thread.join(timeout=5)
        return self.begin(kept, bare, names, first)
