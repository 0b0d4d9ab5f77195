"""This table's tiles as the game named them: what each colour of tile looks like here.

A reader trained on our renderer's art misreads tiles of another printing, or under another
light; the game being followed says what lay where. The tiles of every deal the engine committed
teach :class:`TileReferences` the colours of this table's tiles as they lie on its displays (the
quartiles of CIELAB over the top face, in the nearest board's card light). A display's tile the
reader is unsure of, or one of a kind the reader mixes up here, is read against them too
(:meth:`TileReferences.posterior`, :func:`reading_prior`, :func:`weighed_row`). Kept beside the profile: the next game at the
same table starts with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


#: The middle of a patch whose colour is a tile's (a share of its side): the top face, clear of
#: the margin round the slot and of the body's sides.
MIDDLE = 0.55

#: Numbers kept of each tile: the quartiles of L, a and b over its top face.
FEATURES = 9

#: Tiles of a colour seen before it counts, and the most kept (the newest): a few deals' tiles
#: make a table's colour; two of one view's tiles read surely make that view's (the same light,
#: and the spread every colour of the view shares; one alone may lie in a shadow).
LEAST_SEEN, MOST_KEPT = 3, 200

#: The least spread (CIELAB units) of a colour's tiles: a few alike samples are no promise that
#: the next tile will lie as close.
LEAST_SPREAD = 4.0

#: A tile this many spreads (all its numbers together) from every colour known here may be a
#: colour not yet seen.
UNSEEN_AT = 4.0

#: The share of doubt the references keep, spread over every colour.
DOUBT = 0.05

#: How sure the references may make one colour over another (log-odds): like the reader's surest.
MOST_LOG_ODDS = float(np.log(1000.0))

def top_colour(patches: np.ndarray) -> np.ndarray:
    """Each patch's (N x P x P x 3 BGR) middle as CIELAB: the quartiles and median of each
    channel (a tile's body and its pattern both), N x :data:`FEATURES`."""
    if len(patches) == 0:
        return np.zeros((0, FEATURES))
    side = patches.shape[1]
    cut = round(side * (1.0 - MIDDLE) / 2.0)
    middle = np.ascontiguousarray(patches[:, cut:side - cut, cut:side - cut])
    lab = cv2.cvtColor(middle.reshape(-1, middle.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(middle.shape).astype(np.float64)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    quartiles = np.quantile(lab.reshape(len(patches), -1, 3), [0.25, 0.5, 0.75], axis=1)  # 3 x N x 3
    return quartiles.transpose(1, 0, 2).reshape(len(patches), FEATURES)


@dataclass
class TileReferences:
    """Each colour's tiles as this table shows them (:func:`top_colour`, newest last)."""

    seen: dict[str, list[list[float]]] = field(default_factory=dict)
    #: Tiles of a colour seen before it counts.
    least_seen: int = LEAST_SEEN

    def learn(self, patches: np.ndarray, kinds: list[str]) -> None:
        """Tiles the game named: their patches (card light, as :func:`top_colour` takes them)."""
        for colour, kind in zip(top_colour(patches), kinds):
            kept = self.seen.setdefault(kind, [])
            kept.append([round(float(v), 2) for v in colour])
            del kept[:-MOST_KEPT]

    def knows(self, kinds: list[str]) -> list[str]:
        """Those of ``kinds`` seen enough to be told by their colour."""
        return [k for k in kinds if len(self.seen.get(k, ())) >= self.least_seen]

    def posterior(self, patches: np.ndarray, kinds: list[str]) -> np.ndarray:
        """For each patch, how likely each of ``kinds`` is by its top face's colour alone: N x K,
        rows summing to 1. Each known colour (:meth:`knows`) a Gaussian round the median of its
        tiles, spread as this table's tiles spread about their colours' medians; the colours not
        yet seen share the likelihood of a tile :data:`UNSEEN_AT` spreads from every known one."""
        known = self.knows(kinds)
        if not known:
            return np.full((len(patches), len(kinds)), 1.0 / max(len(kinds), 1))
        centres = np.array([np.median(self.seen[k], axis=0) for k in known])
        spread = np.sqrt(np.mean(np.concatenate([(np.asarray(self.seen[k]) - c) ** 2 for k, c in zip(known, centres)]),
                                 axis=0))
        spread = np.maximum(spread, LEAST_SPREAD)
        distance = (((top_colour(patches)[:, None, :] - centres[None]) / spread) ** 2).sum(axis=2)
        unseen = [k for k in kinds if k not in known]
        log_likely = np.full((len(patches), len(kinds)), -0.5 * UNSEEN_AT ** 2)
        for j, k in enumerate(known):
            log_likely[:, kinds.index(k)] = -0.5 * distance[:, j]
        log_likely = np.maximum(log_likely - log_likely.max(axis=1, keepdims=True), -MOST_LOG_ODDS)
        likely = np.exp(log_likely)
        if unseen:  # the unseen colours share one likelihood: none is favoured over another
            likely[:, [kinds.index(k) for k in unseen]] /= len(unseen)
        likely /= likely.sum(axis=1, keepdims=True)
        # A few hundred tiles are no promise about the next: never surer than 1 - DOUBT.
        return (1.0 - DOUBT) * likely + DOUBT / len(kinds)


def reading_prior(kind: str, confidence: float, kinds: list[str], shape: np.ndarray | None = None) -> np.ndarray:
    """What a tile's reading (``kind`` at ``confidence``) says of each of ``kinds``: ``confidence``
    for ``kind``, its doubt shared among the others as ``shape`` (the reading model's
    probabilities over ``kinds``: its second thoughts) has them, with a little of it (:data:`DOUBT`)
    for every one; evenly where there is no ``shape``."""
    mask = np.array([k != kind for k in kinds], np.float64)
    even = mask / max(mask.sum(), 1.0)
    shared = even
    if shape is not None and float((np.asarray(shape, np.float64) * mask).sum()) > 0.0:
        shaped = np.asarray(shape, np.float64) * mask
        shared = (1.0 - DOUBT) * shaped / shaped.sum() + DOUBT * even
    return np.where(mask > 0, (1.0 - confidence) * shared, confidence)


def weighed_row(prior: np.ndarray, posterior: np.ndarray) -> np.ndarray:
    """What a reading says of each kind (``prior``) weighed with what this table's references say
    (``posterior``): each kind's probability, summing to 1."""
    joint = np.asarray(prior, np.float64) * posterior
    return joint / max(float(joint.sum()), 1e-300)
