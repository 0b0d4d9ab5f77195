"""What changed on the boards since the tracker last settled them: each slot compared with itself.

A reader that learned one printing misreads another's spaces; a space compared with itself under
the same camera needs no printing at all. Every slot is cut in its board's own registered
coordinates and shown in its board's card light (the reader's own patches,
:attr:`azulcam.vision.analyze.Reading.patches`), so a bumped board, a drifting exposure or a
passing cloud leave it alike, while a tile laid or taken changes most of it: its body, side and
shadow. The share of the slot's middle whose colour left the 3 x 3 range of the other patch, the
two first aligned by up to three pixels (a board is registered a little otherwise from view to
view), (:func:`moved_share`) is the evidence; :class:`ChangeModel` turns it into the log-odds that the
slot changed, starting from what every table shares and learning this table's own noise from the
slots the game settled (:meth:`ChangeModel.learn`).

A tile's top face stands off its space in a slanted view (a tile is 6 to 7 mm tall), over its
neighbour's printed space: a neighbour's change shows in a slot beside it. :func:`neighbours`
names them, and the tracker allows for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..calibration.layouts import load_layout
from ..vision import crops

#: Levels (of 255, in the card's light) a pixel must leave its neighbourhood's range by to have
#: moved: above a frame's noise and a board's drift of light once the card is evened out, below
#: any tile's contrast with the space it covers (its side and shadow at the least).
MOVED_LEVEL = 15

#: The middle of the patch that is compared (a share of its side): the slot itself, without the
#: context the reading model's patch has round it, in which neighbours' tiles lie.
MIDDLE = 0.625

#: The share of the middle that moves, at which a slot is as likely changed as not, before the
#: table taught otherwise; and how fast the log-odds grow past it (per unit of share). A tile laid
#: or taken moves most of its slot; noise and a slightly other registration move a few pixels
#: along the print's edges.
PRIOR_MIDDLE, PRIOR_SLOPE = 0.4, 20.0

#: The most pixels (of a slot's patch, about 32 across) that a slot's content may lie off where
#: the other view put it and still be compared as the same: a board registered a few hundredths
#: larger in one view than in the other moves its far slots' content by three.
MOST_SHIFT = 3

#: How much further a neighbour's change may reach into a slot (a share of its middle): a tile's
#: top face seen off its space covers part of the next one.
SPILL = 0.3

#: The surest either way a change reading is (log-odds): like the reader's surest reading.
MOST_LOG_ODDS = math.log(1000.0)

#: A patch with more than this share of its middle black lies partly outside the image (cut with
#: a black border): nothing can be said of its change.
OUTSIDE = 0.05

#: Settled slots of this table, changed and not, needed before the table's own noise is used, and
#: the most kept of each (the newest).
LEARN_SAME, LEARN_CHANGED, LEARN_KEPT = 200, 8, 4000

#: How sure the learned model is at the edges of what this table showed (the highest share of an
#: unchanged slot, the lowest of a changed one): a few hundred slots do not make it surer than 1
#: in 20 there; nor does it grow much steeper than the prior (the next slot may lie past both).
EDGE_LOG_ODDS = math.log(20.0)


def _middle(patches: np.ndarray) -> np.ndarray:
    side = patches.shape[1]
    cut = round(side * (1.0 - MIDDLE) / 2.0)
    return patches[:, cut:side - cut, cut:side - cut]


def _range3(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's 3 x 3 neighbourhood's highest and lowest level, per channel (N x H x W x C)."""
    padded = np.pad(patches, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="edge").astype(np.int16)
    h, w = patches.shape[1:3]
    shifted = [padded[:, dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)]
    return np.max(shifted, axis=0), np.min(shifted, axis=0)


def _moved(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    high, low = _range3(before)
    n = now.astype(np.int16)
    return ((n > high + MOVED_LEVEL) | (n < low - MOVED_LEVEL)).any(axis=3)


def moved_share(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """For each pair of patches (N x H x W x 3 uint8, the same slots): the share of the slot's
    middle where either patch leaves the other's 3 x 3 range by more than :data:`MOVED_LEVEL`
    (a shift of up to a pixel is not a change), with ``before``'s middle first moved by up to
    :data:`MOST_SHIFT` pixels to where it best matches (:func:`_aligned`); NaN where either lies
    partly outside the image."""
    if len(now) == 0:
        return np.zeros(0)
    side = now.shape[1]
    cut = round(side * (1.0 - MIDDLE) / 2.0)
    dy, dx = _aligned(now, before, cut)
    # Each middle with a pixel's margin round it, ``before``'s moved: a pixel's 3 x 3 range
    # reaches one beyond the middle.
    h = side - 2 * cut + 2
    span = np.arange(h)
    rows = np.arange(len(now))[:, None, None]
    moved_before = before[rows, (cut - 1 + dy)[:, None, None] + span[None, :, None], (cut - 1 + dx)[:, None, None] + span[None, None, :]]
    middle = now[:, cut - 1:side - cut + 1, cut - 1:side - cut + 1]
    share = (_moved(middle, moved_before) | _moved(moved_before, middle))[:, 1:-1, 1:-1].mean(axis=(1, 2))
    black = np.maximum((_middle(now) == 0).all(axis=3).mean(axis=(1, 2)), (_middle(before) == 0).all(axis=3).mean(axis=(1, 2)))
    share[black > OUTSIDE] = np.nan
    return share


def _aligned(now: np.ndarray, before: np.ndarray, cut: int) -> tuple[np.ndarray, np.ndarray]:
    """For each pair of patches, the shift (rows, columns; at most :data:`MOST_SHIFT`, and within
    the patch with a pixel to spare) of ``before``'s middle that matches ``now``'s middle best (the least mean absolute
    difference of grey): a board registered a little otherwise in one view than in the other
    moves its slots' content by a few pixels, differently across the board."""
    most = min(MOST_SHIFT, cut - 1)
    side = now.shape[1]
    grey_now = now[:, cut:side - cut, cut:side - cut].sum(axis=3, dtype=np.int16)
    grey_before = before.sum(axis=3, dtype=np.int16)
    shifts = [(dy, dx) for dy in range(-most, most + 1) for dx in range(-most, most + 1)]
    # The shift of none first: where several match alike, the patches are compared as cut.
    shifts.sort(key=lambda d: abs(d[0]) + abs(d[1]))
    cost = np.stack([np.abs(grey_now - grey_before[:, cut + dy:side - cut + dy, cut + dx:side - cut + dx]).sum(axis=(1, 2), dtype=np.int32)
                     for dy, dx in shifts])
    best = np.array(shifts)[np.argmin(cost, axis=0)]
    return best[:, 0], best[:, 1]


@dataclass
class ChangeModel:
    """The log-odds that a slot changed, from its moved share: a logistic whose middle starts at
    :data:`PRIOR_MIDDLE` and moves to where this table's own settled slots put it (midway between
    the unchanged ones' highest shares and the changed ones' lowest), once it has seen enough."""

    middle: float = PRIOR_MIDDLE
    slope: float = PRIOR_SLOPE
    same: list[float] = field(default_factory=list)
    changed: list[float] = field(default_factory=list)

    def log_odds(self, share: float) -> float:
        return max(-MOST_LOG_ODDS, min(MOST_LOG_ODDS, (share - self.middle) * self.slope))

    def learn(self, share: float, changed: bool) -> None:
        """One settled slot: its moved share, and whether the game changed it."""
        if math.isnan(share):
            return
        kept = self.changed if changed else self.same
        kept.append(share)
        del kept[:-LEARN_KEPT]
        if len(self.same) >= LEARN_SAME and len(self.changed) >= LEARN_CHANGED:
            high = float(np.quantile(self.same, 0.995))
            low = float(np.quantile(self.changed, 0.02))
            if low > high:  # the two apart: the middle between them, each edge at EDGE_LOG_ODDS
                self.middle = (high + low) / 2.0
                self.slope = min(max(2.0 * EDGE_LOG_ODDS / (low - high), PRIOR_SLOPE / 2.0), PRIOR_SLOPE * 1.5)


@lru_cache(maxsize=None)
def neighbours(layout_name: str) -> dict[str, frozenset[str]]:
    """Slot id -> the slots of the same board whose middles lie within 1.6 slot sides of its own:
    those a tile laid there may reach over in a slanted view."""
    layout = load_layout(layout_name)
    centres = {s.id: np.asarray(s.center, np.float64) for s in layout.slots}
    sides = {s.id: float(np.ptp(np.asarray(s.polygon, np.float64), axis=0).max()) for s in layout.slots}
    return {a: frozenset(b for b in centres if b != a and np.linalg.norm(centres[a] - centres[b]) < 1.6 * max(sides[a], sides[b]))
            for a in centres}


def display_patches(image: np.ndarray, centres: list[tuple[float, float]], side_px: float) -> np.ndarray:
    """A square of ``side_px`` pixels (a display's diameter at that place) round each of
    ``centres`` (image pixels), cut as the reader cuts a patch (:func:`azulcam.vision.crops.cut`,
    without its margin): D x 32 x 32 x 3, like a slot's, so that a view's patches are compared
    with their references in one call (:func:`moved_share`).

    A display is a fixed place on the table whose tiles are all taken at once and dealt all at
    once: compared with itself at the view the game settled it in, and with how it looked empty
    (its print alone), it says whether it changed and whether it holds tiles, on any printing."""
    half = max(side_px / 2.0, 1.0)
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return crops.cut(image, np.asarray(centres, np.float64).reshape(-1, 1, 2) + corners, margin=0.0)
