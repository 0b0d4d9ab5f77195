"""Is the table still, and where did it change? Frames compared small, tolerant of a shaking camera.

A frame is read only when the table is still: it matches the frame before it. Between two still
views only what changed needs reading again. Both questions are asked of a small copy of each
frame (:data:`SMALL_WIDTH` pixels across), in which a camera's shake of a pixel or two and the
sensor's noise vanish while a hand (tens of pixels of the full frame at the least) does not. A
pixel has moved when it lies outside the range of its 3 x 3 neighbourhood in the other frame by
more than :data:`MOVED_LEVEL`: a shift of an edge by up to a small pixel is not a change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

#: Width of the small copy a frame is compared at: a tile (12 px across in the farthest views the
#: reader accepts at 1280 wide) becomes about 2 px, still seen; camera shake and noise do not.
SMALL_WIDTH = 192

#: Grey levels (of 255) a pixel must move beyond its neighbours' range: above sensor noise
#: after shrinking and a frame's drift of exposure, below a tile's contrast with the board.
MOVED_LEVEL = 18

#: Share of the small frame that may move while the table counts as still: a fifth of a hand's
#: area in the widest view of a four-player table (a hand is about 1 % of such a frame).
STILL_SHARE = 0.002

#: Frames in a row that must agree for the table to count as still: the frame read and the
#: one before it.
STILL_FRAMES = 2

#: Changed pixels, fewer of which is no change since the last read: a tile in the farthest views
#: the reader takes (12 pixels across at 1280 wide) covers about three of the small copy.
CHANGED_PIXELS = 2

#: Share of the small frame that a change may cover and still be a hand: more is the camera or the
#: whole table moved (a bump, a new exposure), and the view is read again as it now is.
MOVED_ALL = 0.25

#: Changed pixels along the frame's edge, fewer of which are not an arm crossing it, when the
#: tiles' size is not given: an arm is several tiles wide (a tile is 2 to 10 pixels across in the
#: small copy).
ARM_PIXELS = 4

#: An arm is wider than this many tiles where it crosses the edge; a tile or the first-player
#: marker laid beside a board at the edge is one.
ARM_TILES = 2.0


def small(image: np.ndarray) -> np.ndarray:
    """The frame's small copy (:data:`SMALL_WIDTH` across), in colour, lightly blurred: a tile of
    the board's own grey (yellow on cream) still changes a channel."""
    h, w = image.shape[:2]
    shrunk = cv2.resize(image, (SMALL_WIDTH, max(1, round(h * SMALL_WIDTH / w))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(shrunk, (3, 3), 0)


def moved(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Where ``now`` (a small copy) lies outside the 3 x 3 range of ``before`` by more than
    :data:`MOVED_LEVEL` in any channel: a boolean mask at the small copy's size."""
    kernel = np.ones((3, 3), np.uint8)
    high = cv2.dilate(before, kernel).astype(np.int16)
    low = cv2.erode(before, kernel).astype(np.int16)
    n = now.astype(np.int16)
    out = (n > high + MOVED_LEVEL) | (n < low - MOVED_LEVEL)
    return out.any(axis=2) if out.ndim == 3 else out


def steadied(now: np.ndarray, before: np.ndarray) -> tuple[np.ndarray, float]:
    """``now`` (a small copy) shifted back onto ``before`` as a whole, by phase correlation to a
    fraction of a pixel, and how far (small-copy pixels): a shaking camera's frames compared where
    the table lies, not where the camera pointed. Each pixel of the shifted copy is a blend of
    neighbours, so lies within their range in ``before`` (:func:`moved`) wherever nothing but the
    camera moved; a fine print (a checked cloth) shaken by half a small pixel otherwise moves its
    edges past that range."""
    grey = lambda c: (cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) if c.ndim == 3 else c).astype(np.float64)  # noqa: E731
    (dx, dy), _ = cv2.phaseCorrelate(grey(before), grey(now))
    h, w = now.shape[:2]
    back = cv2.warpAffine(now, np.float32([[1, 0, -dx], [0, 1, -dy]]), (w, h), borderMode=cv2.BORDER_REPLICATE)
    return back, math.hypot(dx, dy)


def steadied_share(now: np.ndarray, before: np.ndarray) -> float:
    """The share of ``now`` that moved (:func:`moved`) against ``before``, as it is or steadied
    (:func:`steadied`), whichever is less: a print regular enough to fool the phase correlation
    is compared as it lies."""
    plain = float(moved(now, before).mean())
    return min(plain, float(moved(steadied(now, before)[0], before).mean())) if plain > STILL_SHARE else plain


@dataclass
class StillGate:
    """Follows the frames of one camera and says when the table is still.

    ``update(image)`` is True when the last :data:`STILL_FRAMES` frames agree (a moved share of
    at most :data:`STILL_SHARE` between each and the one before, steadied onto it:
    :func:`steadied_share`). ``changed_since_read`` says where the still view differs from the
    last view read (:meth:`mark_read`). Something reaching in (:meth:`arms`) is judged against the
    table as it last lay with nothing at the picture's edge (:attr:`_clear`, kept by
    :meth:`settle_edge`), never against the last view read: a view read with an arm in it that the gate did not tell (too little of it
    across the edge) would otherwise keep that arm, and every later view would wait for it to
    leave."""

    _previous: np.ndarray | None = None
    _agreeing: int = 0
    _read: np.ndarray | None = field(default=None, repr=False)
    #: The small copy of the table as it last lay with nothing across the picture's edge: the first
    #: view read (the calibration's), then every view read whose edge is as it was there.
    _clear: np.ndarray | None = field(default=None, repr=False)
    #: The small copy of the last view read with something reaching in (:meth:`mark_read`).
    _reached: np.ndarray | None = field(default=None, repr=False)
    current: np.ndarray | None = field(default=None, repr=False)
    #: What was measured of the current frame against the last one read, asked again of the same
    #: frame (by the still view's test and the test between two hands): kept until either changes.
    _measured: dict[str, Any] = field(default_factory=dict, repr=False)

    def update(self, image: np.ndarray) -> bool:
        now = small(image)
        if self._previous is None or self._previous.shape != now.shape:
            self._agreeing = 1
        elif steadied_share(now, self._previous) <= STILL_SHARE:
            self._agreeing += 1
        else:
            self._agreeing = 1
        self._previous = self.current = now
        self._measured = {}
        return self._agreeing >= STILL_FRAMES

    def _against(self, reference: np.ndarray | None) -> np.ndarray | None:
        """Where the current frame differs from ``reference`` (both ways: what appeared and what
        went), at the small copy's size; None without one."""
        if reference is None or self.current is None or reference.shape != self.current.shape:
            return None
        return moved(self.current, reference) | moved(reference, self.current)

    def changed_since_read(self) -> np.ndarray | None:
        """Where the current frame differs from the last one read (both ways: what appeared and
        what went), at the small copy's size; None before any read."""
        if "changed" not in self._measured:
            self._measured["changed"] = self._against(self._read)
        return self._measured["changed"]

    def _edge_reference(self) -> np.ndarray | None:
        return self._clear if self._clear is not None else self._read

    def changed_at_edge(self) -> np.ndarray | None:
        """Where the current frame differs from the table as it last lay with nothing across the
        picture's edge (:attr:`_clear`); None before any read."""
        if "edge" not in self._measured:
            self._measured["edge"] = self._against(self._edge_reference())
        return self._measured["edge"]

    @staticmethod
    def _pieces_of(changed: np.ndarray) -> tuple[int, np.ndarray]:
        """The connected regions of a change, each grown by a pixel (a hand's or a tile's edge
        broken by noise stays one): their count with the background, and the label of each pixel."""
        return cv2.connectedComponents(cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8)))

    def _pieces(self) -> tuple[int, np.ndarray]:
        """:meth:`_pieces_of` the change since the last read. Only asked where something changed."""
        if "pieces" not in self._measured:
            changed = self.changed_since_read()
            assert changed is not None
            self._measured["pieces"] = self._pieces_of(changed)
        return self._measured["pieces"]

    def changed(self) -> bool:
        """Whether the current frame differs from the last one read (always, before any read)."""
        mask = self.changed_since_read()
        return mask is None or int(mask.sum()) >= CHANGED_PIXELS

    def hand_in_view(self, boards: np.ndarray | None = None, tile_px: float | None = None) -> bool:
        """Whether something reaches into the picture from its edge: a region changed since the
        table last lay clear of the edge that crosses the frame's border where no board lies
        (``boards``: a mask of the boards' outlines at the small copy's size), wider than
        :data:`ARM_TILES` tiles (``tile_px``: a tile's side in the small copy). Players sit outside
        the picture and their arms come in across its edge; tiles moved on the table change only
        regions inside it, or on a board cut by the edge. A change over :data:`MOVED_ALL` of the
        frame is the camera moved, not a hand."""
        return bool(self.arms(boards, tile_px).any())

    def arms(self, boards: np.ndarray | None = None, tile_px: float | None = None) -> np.ndarray:
        """Where something reaches in from the picture's edge (see :meth:`hand_in_view`): the
        changed regions that cross it, at the small copy's size. Also notes whether any change
        at all crosses the edge (:meth:`settle_edge` keeps only a view whose edge is clear as the
        table's)."""
        changed = self.changed_at_edge()
        out = np.zeros((0, 0), bool) if changed is None else np.zeros(changed.shape, bool)
        self._measured["touched"] = changed is None or changed.mean() > MOVED_ALL
        if changed is not None and changed.mean() <= MOVED_ALL and not self.camera_moved():
            count, labels = self._pieces_of(changed)
            if count > 1:
                edge = np.zeros(labels.shape, bool)
                edge[0], edge[-1], edge[:, 0], edge[:, -1] = True, True, True, True
                if boards is not None:
                    edge &= ~boards.astype(bool)
                crossing = np.bincount(labels[edge & changed], minlength=count)  # the change itself, not its grown outline
                crossing[0] = 0
                self._measured["touched"] = bool(crossing.any())
                out = np.isin(labels, np.flatnonzero(crossing >= (ARM_TILES * tile_px if tile_px else ARM_PIXELS)))
        return out

    def largest_change(self) -> int:
        """The pixels of the largest connected region changed since the last view read (0 before
        any read): tiles moved make small ones, a hand or an arm one many tiles large."""
        changed = self.changed_since_read()
        if changed is None or not changed.any():
            return 0
        count, labels = self._pieces()
        return int(np.bincount(labels[changed], minlength=count)[1:].max())

    def camera_moved(self) -> bool:
        """Whether the view since the last read is shifted as a whole (the camera or the table
        bumped): a shift of a pixel or more of the small copy, after which most of the change is gone."""
        if "camera" not in self._measured:
            self._measured["camera"] = self._shifted_as_a_whole()
        return self._measured["camera"]

    def _shifted_as_a_whole(self) -> bool:
        if self._read is None or self.current is None or self._read.shape != self.current.shape:
            return False
        back, shift = steadied(self.current, self._read)
        if shift < 1.0:
            return False
        before = moved(self.current, self._read).mean()
        return bool(moved(back, self._read)[2:-2, 2:-2].mean() < 0.5 * before)

    def mark_read(self, small_copy: np.ndarray | None = None) -> None:
        """The current frame (or the earlier one whose small copy is ``small_copy``, a glimpse
        between two hands) was read: later changes are measured from it."""
        self._read = self.current if small_copy is None else small_copy
        self._measured = {}

    def settle_edge(self, reaching: np.ndarray | None = None, explained: bool = True) -> None:
        """The current still frame was read (``explained`` by the game, or not): it becomes the
        table clear of the edge where :meth:`arms` found no change across the edge at all, or the
        camera moved (the whole view is new), or, explained, where there is none yet (before one,
        arms are judged against the last view read: a first view read with a hand in it, that no
        game explains, is no table to judge hands against). Where something reached in
        (``reaching``: :meth:`arms`), what lies there as it lay at the last still view read with
        something reaching in is the table now: a cup put down at the edge, an arm resting, or
        the table itself where the first view explained had an arm in it."""
        now = self.current
        if now is None or (self._clear is None and not explained):
            return
        if self._clear is None or self._clear.shape != now.shape or self.camera_moved() \
                or not self._measured.get("touched", True):
            self._clear, self._reached = now, None
        elif reaching is not None and reaching.any():
            reached, self._reached = self._reached, now
            if reached is not None and reached.shape == now.shape:
                stayed = reaching & ~(moved(now, reached) | moved(reached, now))
                self._clear = np.where(stayed[..., None] if now.ndim == 3 else stayed, now, self._clear)
        self._measured.pop("edge", None)

    @staticmethod
    def scale(image_shape: tuple[int, ...]) -> float:
        """Small-copy pixels per pixel of a frame of ``image_shape``."""
        return SMALL_WIDTH / image_shape[1]
