"""A followed game teaching its table's memory: every board space the game settles, at the view it
was settled in, is an example of what this table's spaces look like, labelled by the engine.

The frame loop only queues what it settled (the slots' patches as the reader read them, and the
engine's content of each); a worker thread takes the reading model's features of them and adds
them to the memory's settled examples and their confusion counts
(:data:`~azulcam.vision.memory.SETTLED`): a view is never read slower for it. No layer is refitted
on them (the memory module says why); a person's lessons refit the reader (:func:`teach_view`,
``azulcam teach``). The memory is written by the watcher (:meth:`~.watch.Watcher.keep_table`)
under :attr:`Teacher.lock`.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np

from ..vision.memory import SETTLED, TableMemory
from ..vision.taught import TaughtReader, learn_slots

#: Seconds :meth:`Teacher.close` waits for the lessons queued to be learnt.
CLOSE_WAIT_S = 30.0


class Teacher:
    """Teaches ``memory`` the spaces a game settles, read by ``reader`` (module doc); a person's
    lessons to ``reader`` are made under :attr:`lock` too."""

    def __init__(self, memory: TableMemory, reader: TaughtReader) -> None:
        self.memory, self.reader = memory, reader
        #: Held while the memory changes and while it is written.
        self.lock = threading.Lock()
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        #: The error of a lesson that failed (the worker stops; the watch goes on, its memory as it was).
        self.error: Exception | None = None

    def teach(self, inputs: np.ndarray, kinds: list[str | None]) -> None:
        """Queue the slots ``inputs`` (N x 32 x 32 x 9, as the reader read them) whose content the
        game settled as ``kinds`` (None: empty)."""
        if not len(kinds) or self.error is not None:
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="table memory", daemon=True)
            self._thread.start()
        self._queue.put((np.array(inputs, copy=True), list(kinds)))

    def close(self) -> None:
        """Learn what is queued and stop the worker."""
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join(CLOSE_WAIT_S)
        self._thread = None

    def _run(self) -> None:
        while True:
            lesson = self._queue.get()
            try:
                if lesson is None:
                    return
                self._learn(*lesson)
            except Exception as exc:  # noqa: BLE001 - kept and said by the watch; the game goes on untaught
                self.error = exc
                return

    def _learn(self, inputs: np.ndarray, kinds: list[str | None]) -> None:
        model = self.reader.model
        probs, features = model.features(inputs)  # outside the lock: the frame loop may write meanwhile
        with self.lock:
            learn_slots(self.memory, model, self.memory.game, probs, features, kinds, SETTLED)
            self.memory.settled += len(kinds)


def settled_slots(reading: Any, settled: dict[str, Any], content: dict[Any, Any]) -> tuple[list[int], list[Any]]:
    """The rows of ``reading``'s slots the game ``settled`` (zone names) and the engine's
    ``content`` of each (:func:`~azulcam.engine.observe.expected`: empty slots left out)."""
    rows, kinds = [], []
    for n, zone in enumerate(reading.slots):
        if str(zone) in settled:
            rows.append(n)
            kinds.append(content.get(zone))
    return rows, kinds


def teach_view(watcher: Any, corrections: list[tuple[str, Any]]) -> tuple[Any, Any]:
    """The last view ``watcher`` (a :class:`~.watch.Watcher`) read, as a person says it is (its
    reading with ``corrections``: ``(zone, content)``, :func:`~azulcam.vision.taught.corrected`),
    taught to the table's memory and written; then the same view read again with what it learnt.
    Returns the lesson and that reading's ``azulcam-observation/1``. Raises :class:`~.track.Refused`: ``follow.no_view``
    (nothing read yet), ``follow.untaught_reader`` (a reader that reads through no memory),
    ``follow.bad_zone`` (a zone the reading has not, or a content it cannot hold),
    ``follow.teach_impossible`` (the view so corrected is no position of a legal game)."""
    from ..engine.position import problems
    from ..engine.zones import ZoneError
    from ..vision.analyze import assemble, read
    from ..vision.taught import corrected, teach
    from .track import Refused

    reading, image, teacher = watcher.last_reading, watcher.last_image, watcher.teacher
    if reading is None or image is None or reading.slot_inputs is None:
        raise Refused("follow.no_view")
    if teacher is None:
        raise Refused("follow.untaught_reader")
    truth = assemble(reading)
    for zone, content in corrections:  # one at a time: a refusal names the one that does not fit
        try:
            truth = corrected(truth, [(zone, content)])
        except (ZoneError, ValueError):
            raise Refused("follow.bad_zone", zone=zone, content=content) from None
    found = problems(truth, watcher.tracker.game.record.options)
    if found:
        raise Refused("follow.teach_impossible", problem=found[0])
    reader = teacher.reader
    with teacher.lock:
        lesson = teach(teacher.memory, reader.model, reading, image, truth)
    reader.refresh()
    watcher.keep_table()
    return lesson, assemble(read(image, watcher.profile, reader, watcher.locator, watcher.bare))


def last_view(watcher: Any) -> dict[str, Any] | None:
    """The ``azulcam-observation/1`` of the last view ``watcher`` read, as the camera read it
    (None before any)."""
    from ..vision.analyze import assemble

    reading = watcher.last_reading
    return None if reading is None else assemble(reading)

