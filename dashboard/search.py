"""Suggestions searched in a process of their own, so that a search never takes the tracker's
time: a thread would share the interpreter's lock with the watch thread and slow its reading.

One worker process, spawned at the first search (it imports the engine only) and kept; one search
at a time (:class:`Busy` while one runs), each of a bounded time, on every core but one: the
camera's reading keeps a core of its own."""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..engine.ai import MOST_THREADS, cores, suggest
from ..engine.record import Game, Record

#: Seconds a search's answer may take beyond its own time (the worker's first start included).
MARGIN = 30.0


class Busy(Exception):
    """A search for suggestions runs already."""


class Searcher:
    """Searches for the best moves, one at a time, in a worker process."""

    def __init__(self) -> None:
        self._running = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def suggest(self, record: Record, seconds: float, top: int) -> list[dict[str, Any]]:
        """The ``top`` best moves (``Suggestion.to_json()``) for the player to move at the end of
        ``record``, after ``seconds`` of search. Raises :class:`Busy` while another search runs."""
        if not self._running.acquire(blocking=False):
            raise Busy()
        try:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            return self._pool.submit(_search, record.to_json(), seconds, top).result(timeout=seconds + MARGIN)
        finally:
            self._running.release()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _search(record: dict[str, Any], seconds: float, top: int) -> list[dict[str, Any]]:
    """In the worker: the search itself."""
    state = Game(Record.from_json(record)).state
    return [s.to_json() for s in suggest(state, seconds, top, threads=max(1, min(cores() - 1, MOST_THREADS)))]
