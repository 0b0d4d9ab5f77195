"""Stage timing for the pipelines: one stopwatch, so no step needs a "timed" copy of itself.

Beside the package's other tools, so that the reader (``vision.analyze``) and the renderer
(``synth.render``), which import nothing of each other, share it."""

from __future__ import annotations

import time


class Stopwatch:
    """Adds up the time of named stages into ``spent`` (seconds); a no-op without a dict."""

    def __init__(self, spent: dict[str, float] | None) -> None:
        self.spent = spent
        self.last = time.perf_counter()

    def lap(self, stage: str) -> None:
        if self.spent is not None:
            now = time.perf_counter()
            self.spent[stage] = self.spent.get(stage, 0.0) + now - self.last
            self.last = now
