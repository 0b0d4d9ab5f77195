"""How far a long job is: what is done, what is left and the time to go, on a terminal.

    with Progress(len(scenes), "scenes") as bar:
        for scene in scenes:
            ...
            bar.advance()

    for scene in progress(scenes, "scenes"):
        ...

On a terminal (``stream.isatty()``) one line is rewritten in place, at most every
``min_interval`` seconds::

    scenes: 37/120 (31%), 12.4 s elapsed, about 27 s to go

Off a terminal (a pipe, a CI log) a plain line is printed at most every ``log_interval``
seconds, and a last one when the job ends, so that logs stay short. The time to go comes from
the mean rate so far; it is unknown before the first step, and without a total (``total=None``)
there is neither a share nor a time to go. Nothing at all is printed with ``quiet`` or when the
total is 0. Progress goes to standard error by default, so that what a program prints on
standard output stays as it was; :meth:`Progress.note` prints a line of such output without
tearing the progress line.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, Self, TypeVar

T = TypeVar("T")

__all__ = ["Progress", "format_duration", "progress"]


def format_duration(seconds: float, exact: bool = True) -> str:
    """``3.2 s``, ``42 s``, ``4 min 05 s``, ``2 h 07 min``; with ``exact``, tenths under a minute
    (for the time elapsed), else whole seconds (for an estimate)."""
    seconds = max(0.0, seconds)
    if seconds < 59.95 and exact:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60:02d} min"


class Progress:
    """A progress line for ``total`` steps of ``what`` (``total=None``: not known).

    Count steps with :meth:`advance` (``n`` more done) or :meth:`update` (``done`` so far, and
    the total if it has become known), and end with :meth:`close`, or use it as a context
    manager. ``clock`` (seconds) is injectable for tests; ``columns`` cuts terminal lines
    (default: the terminal's width)."""

    def __init__(self, total: int | None, what: str, stream: IO[str] | None = None, *, quiet: bool = False,
                 min_interval: float = 0.5, log_interval: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 columns: int | None = None) -> None:
        self.total = total
        self.what = what
        self.done = 0
        self.stream = sys.stderr if stream is None else stream
        self.quiet = quiet
        self.min_interval = min_interval
        self.log_interval = log_interval
        self.clock = clock
        self.columns = columns
        self.tty = _isatty(self.stream)
        self.started = clock()
        self.closed = False
        self._shown: float | None = None  # when a line was last written
        self._width = 0  # the width of the line now on the terminal (0: none)

    # -- counting

    def advance(self, n: int = 1) -> None:
        """``n`` more steps done."""
        self.update(self.done + n)

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` steps done so far (and, when given, the total: it may become known late).
        It serves as a callback ``(done, total)``, such as ``write_video``'s ``on_frame``."""
        self.done = done
        if total is not None:
            self.total = total
        if self._silent() or self.closed:
            return
        now = self.clock()
        if self.tty:
            if self._shown is None or now - self._shown >= self.min_interval:
                self._draw(self.line(now), now)
        elif (self.total is None or done < self.total) and \
                now - (self.started if self._shown is None else self._shown) >= self.log_interval:
            self._print(self.line(now), now)  # the last line is close's

    def close(self) -> None:
        """The last line: the job done, or how far it came when stopped early. On a terminal
        the line is ended, so that what follows starts on a line of its own."""
        if self.closed:
            return
        self.closed = True
        if self._silent() or (self.done == 0 and self._shown is None):
            return
        now = self.clock()
        if self.tty:
            self._draw(self.line(now, final=True), now)
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0
        else:
            self._print(self.line(now, final=True), now)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- other output

    def note(self, text: str, file: IO[str] | None = None) -> None:
        """Print ``text`` as ``print`` would (to standard output by default), clearing the
        progress line first and drawing it again after."""
        file = sys.stdout if file is None else file
        if self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
            print(text, file=file, flush=True)
            now = self.clock()
            self._draw(self.line(now), now)
        else:
            print(text, file=file, flush=True)

    # -- the line

    def line(self, now: float | None = None, final: bool = False) -> str:
        """``what: 37/120 (31%), 12.4 s elapsed, about 27 s to go``; when ``final``, ``done in``
        (all done, or no total) or ``stopped after`` (closed early) with the time spent."""
        elapsed = (self.clock() if now is None else now) - self.started
        total = self.total
        count = f"{self.done}" if total is None else f"{self.done}/{total} ({_percent(self.done, total)})"
        if final:
            finished = total is None or self.done >= total
            return f"{self.what}: {count}, {'done in' if finished else 'stopped after'} {format_duration(elapsed)}"
        text = f"{self.what}: {count}, {format_duration(elapsed)} elapsed"
        if total is not None and 0 < self.done < total and elapsed > 0:
            left = max(elapsed / self.done * (total - self.done), 1.0)
            text += f", about {format_duration(left, exact=False)} to go"
        return text

    def _silent(self) -> bool:
        return self.quiet or self.total == 0

    def _draw(self, text: str, now: float) -> None:
        columns = self.columns if self.columns is not None else shutil.get_terminal_size((80, 24)).columns
        text = text[:max(columns - 1, 10)]
        self.stream.write("\r" + text + " " * max(self._width - len(text), 0))
        self.stream.flush()
        self._width = len(text)
        self._shown = now

    def _print(self, text: str, now: float) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()
        self._shown = now


def progress(items: Iterable[T], what: str, total: int | None = None, **options: Any) -> Iterator[T]:
    """``items`` one by one, with a :class:`Progress` line (``options`` are its own); a step is
    counted when the next item is asked for. ``total`` defaults to ``len(items)`` where it has one."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(total, what, **options) as bar:
        for item in items:
            yield item
            bar.advance()


def _percent(done: int, total: int) -> str:
    """Rounded, but 100% only when all is done."""
    share = round(100 * done / total) if total > 0 else 100
    return f"{min(share, 99) if done < total else share}%"


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
