"""The dashboard's demo: a game of the built-in players, drawn by the renderer as it is played.

No camera and no file: the frames are rendered on the fly (:class:`DemoSource`), handed over at
the camera's pace, and go through the whole pipeline, as a camera's would: the still gate, the reader, the tracker,
the engine. The demo's calibration is a user's with corners given by hand: the boards' true
corners from the renderer, each board kept bare as frame 0 shows it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from ..calibration.profile import Profile
from ..engine.players import make_player
from ..engine.record import Record, play_game
from ..synth.video import frames
from ..follow.capture import Frame

#: The demo game: two players of Azul, coloured wall, at a size that a two-core machine renders,
#: reads and serves well under the camera's 10 frames a second.
DEMO_GAME, DEMO_OPTIONS, DEMO_SEED = "azul", {"wall": "colored", "jokers": False}, 7
DEMO_SIZE, DEMO_FPS = (960, 540), 10.0


def demo_record(seed: int = DEMO_SEED) -> Record:
    """The demo's game, played to its end by two greedy players."""
    return play_game(DEMO_GAME, [make_player("greedy", seed), make_player("greedy", seed + 1)], DEMO_OPTIONS, seed).record


class DemoSource:
    """The demo game's frames, rendered as they are asked for (like a video file: the dashboard
    hands them over at the camera's pace). ``profile`` is the calibration of frame 0 (the true
    corners); ``first`` frame 0's image, for the bare boards."""

    live = False

    def __init__(self, record: Record | None = None, seed: int = DEMO_SEED, fps: float = DEMO_FPS,
                 size: tuple[int, int] = DEMO_SIZE) -> None:
        self.record = record or demo_record(seed)
        self.name = f"demo (Azul, 2 players, seed {seed})"
        self.fps = fps
        self._frames = frames(self.record, seed, size)
        start = next(self._frames)
        self.first = start.image
        self.profile = Profile.from_json({**start.truth["profile"], "options": dict(self.record.options)})
        self._pending: list[Any] = [start]
        self._closed = threading.Event()

    def frames(self) -> Iterator[Frame]:
        for index, drawn in enumerate(self._chain()):
            if self._closed.is_set():
                return
            yield Frame(index, index / self.fps, drawn.image)

    def _chain(self) -> Iterator[Any]:
        yield from self._pending
        yield from self._frames

    def close(self) -> None:
        self._closed.set()
