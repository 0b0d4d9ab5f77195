"""The dashboard's demo: a game of the built-in players, drawn by the renderer as it is played.

No camera and no file: the frames are rendered on the fly (:class:`DemoSource`), handed over at
the camera's pace, and go through the whole pipeline, as a camera's would: the still gate, the reader, the tracker,
the engine. The demo's calibration is a user's with corners given by hand: the boards' true
corners from the renderer, each board kept bare as frame 0 shows it. It plays game after game at
the same table, each move held a while (players thinking: suggestions have time to answer), each
finished game shown a while before the tiles are put away and a new game is begun, as a player
would begin it on the page.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ..calibration.profile import Profile
from ..engine.players import make_player
from ..engine.record import Record, play_game
from ..synth.video import frames
from ..follow import Frame

#: The demo game: two players of Azul, coloured wall, at a size that a two-core machine renders,
#: reads and serves well under the camera's 10 frames a second.
DEMO_GAME, DEMO_OPTIONS, DEMO_SEED = "azul", {"wall": "colored", "jokers": False}, 7
DEMO_SIZE, DEMO_FPS = (960, 540), 10.0
#: Still frames more after each event of the endless demo (2 s: a player thinking), and those a
#: finished game is shown for before the next begins (8 s).
DEMO_HOLD, DEMO_OVER = 20, 80


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
        #: ``record`` alone, once; without it, game after game of the built-in players.
        self.record = record or demo_record(seed)
        self.name = f"demo (Azul, 2 players, seed {seed})"
        self.fps = fps
        endless = record is None
        later = (demo_record(seed + 100 * k) for k in itertools.count(1)) if endless else None
        self._frames = frames(self.record, seed, size, then=later, hold=DEMO_HOLD if endless else 0)
        start = next(self._frames)
        self.first = start.image
        self.profile = Profile.from_json({**start.truth["profile"], "options": dict(self.record.options)})
        self._pending: list[Any] = [start]
        self._closed = threading.Event()
        #: Called, in the thread reading the frames, as the next game's first frame is handed over.
        self.on_new_game: Callable[[], None] | None = None

    def frames(self) -> Iterator[Frame]:
        index, game, last = 0, 0, None
        for drawn in self._chain():
            if drawn.truth.get("game", 0) != game:
                for _ in range(DEMO_OVER if last is not None else 0):  # the finished game, shown a while
                    if self._closed.is_set():
                        return
                    yield Frame(index, index / self.fps, last)
                    index += 1
                game = drawn.truth["game"]
                if self.on_new_game is not None:
                    self.on_new_game()
            if self._closed.is_set():
                return
            yield Frame(index, index / self.fps, drawn.image)
            index, last = index + 1, drawn.image

    def _chain(self) -> Iterator[Any]:
        yield from self._pending
        yield from self._frames

    def close(self) -> None:
        self._closed.set()
