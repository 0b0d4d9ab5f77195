"""The reading model's last layer refitted on one table's labelled patches.

The reading model (:mod:`classify`) ends in one linear layer from F features to K logits: the
first says whether a tile lies there, the others name it (presence x kind:
``[1 - s(l0), s(l0) softmax(l1..)]``). A table the model never saw is mostly read right and
wrong in a few ways of its own (one printing's blue read black, its bare wall spaces read as
tiles). :func:`refit` fits that layer again on the patches this table's game or its user labelled,
starting from the shipped weights and pulled toward them, each class weighing the same however
many of its patches were taught: a handful of photos make a few hundred examples, and the
problem is convex, so a few hundred steps of accelerated gradient descent solve it in well under
a second on one core. The rows of the kinds the table never showed stay the shipped ones: a
colour never taught is read as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The pull toward the shipped weights, per unit of the (class-balanced, mean) loss: strong
#: enough that a few dozen examples of a class move it only where the shipped layer was wrong.
#: Set on the renderer's training families (``bench/teach.py --family classic`` and the others
#: the model learned), never on held-out art.
PULL = 3e-3

#: Steps of accelerated gradient descent: the loss is convex and smooth, and its curvature is
#: bounded from the features (:func:`_lipschitz`).
STEPS = 300


@dataclass(frozen=True)
class Head:
    """A last layer: K x F weights and K biases (float32), in the model's labels' order."""

    weight: np.ndarray
    bias: np.ndarray

    def logits(self, features: np.ndarray) -> np.ndarray:
        return np.asarray(features, np.float32) @ self.weight.T + self.bias

    def probabilities(self, features: np.ndarray, columns: Sequence[int] | None = None) -> np.ndarray:
        """N x K probabilities (presence x kind) of N x F ``features``; with ``columns`` (the
        kind columns a game may answer) the kinds' softmax runs over those alone and the other
        kinds are 0."""
        return output(self.logits(features), columns)


def output(logits: np.ndarray, columns: Sequence[int] | None = None) -> np.ndarray:
    """The model's output from its logits: empty's probability first, then each kind's."""
    logits = np.asarray(logits, np.float64)
    present = 1.0 / (1.0 + np.exp(-logits[:, 0]))
    kinds = np.full_like(logits[:, 1:], -np.inf)
    cols = np.arange(1, logits.shape[1]) if columns is None else np.asarray(columns, int)
    kinds[:, cols - 1] = logits[:, cols]
    kinds = np.exp(kinds - kinds.max(axis=1, keepdims=True))
    kinds /= kinds.sum(axis=1, keepdims=True)
    return np.concatenate([(1.0 - present)[:, None], present[:, None] * kinds], axis=1)


def balanced_weights(labels: np.ndarray) -> np.ndarray:
    """Each example's weight in the loss: every class present weighs the same, and all sum to 1."""
    classes, counts = np.unique(labels, return_counts=True)
    per = dict(zip(classes.tolist(), (1.0 / (len(classes) * counts)).tolist()))
    return np.array([per[y] for y in labels.tolist()], np.float64)


def _lipschitz(features: np.ndarray, weights: np.ndarray) -> float:
    """A bound on the loss's curvature: the weighted features' largest eigenvalue (with the bias's
    constant feature), by power iteration. A logistic loss curves at most 1/4 of it, a softmax's
    at most 1/2."""
    x = np.concatenate([features, np.ones((len(features), 1))], axis=1) * np.sqrt(weights)[:, None]
    v = np.random.default_rng(0).normal(size=x.shape[1])
    for _ in range(30):
        v = x.T @ (x @ v)
        norm = np.linalg.norm(v)
        if norm == 0:
            return 1.0
        v /= norm
    return float(np.linalg.norm(x.T @ (x @ v)))


def refit(shipped: Head, features: np.ndarray, labels: np.ndarray, columns: Sequence[int],
          pull: float | None = None, steps: int = STEPS, presence: bool = True) -> Head:
    """The last layer refitted on N x F ``features`` of patches labelled ``labels`` (N indices
    into the model's labels, 0: empty), from ``shipped`` and pulled toward it by ``pull``. Only
    the game's kind ``columns`` compete for a kind; of those, the kinds no example shows keep
    their shipped rows (and the other game's rows are never touched). Without ``presence`` the
    first row (whether a tile lies there) stays the shipped one too: for patches whose presence
    another step decides (a loose tile the detector found)."""
    pull = PULL if pull is None else pull
    # In float32: the two products a step are its whole cost, and the loss needs no more digits.
    features = np.asarray(features, np.float32)
    labels = np.asarray(labels, int)
    if len(labels) == 0:
        return shipped
    w0 = np.concatenate([shipped.weight, shipped.bias[:, None]], axis=1).astype(np.float32)
    x = np.concatenate([features, np.ones((len(features), 1), np.float32)], axis=1)
    weights = balanced_weights(labels).astype(np.float32)
    columns = np.asarray(columns, int)
    present = labels != 0
    # The rows refitted: whether a tile lies there where both answers were taught, and each kind
    # taught where two or more were (a kind alone taught competes with nothing: its row stays).
    kinds = [c for c in columns.tolist() if c in set(labels.tolist())]
    rows = np.array(([0] if presence and present.any() and not present.all() else [])
                    + (kinds if len(kinds) > 1 else []), int)
    if len(rows) == 0:
        return shipped
    onehot = np.zeros((len(labels), len(columns)), np.float32)
    for n, c in enumerate(columns.tolist()):
        onehot[:, n] = labels == c
    step = np.float32(1.0 / (0.5 * _lipschitz(features.astype(np.float64), weights.astype(np.float64)) + pull))
    # Only the refitted rows move: the other logits are the shipped ones, once; a step costs two
    # products of the examples with those rows alone.
    logits = x @ w0.T
    fixed = w0[rows]
    w, previous, momentum = fixed.copy(), fixed.copy(), 1.0
    for _ in range(steps):
        logits[:, rows] = x @ w.T
        grad = np.zeros_like(logits)
        grad[:, 0] = 1.0 / (1.0 + np.exp(-logits[:, 0])) - present
        kinds = logits[:, columns]
        kinds = np.exp(kinds - kinds.max(axis=1, keepdims=True))
        kinds /= kinds.sum(axis=1, keepdims=True)
        grad[:, columns] = (kinds - onehot) * present[:, None]
        gradient = (grad[:, rows] * weights[:, None]).T @ x + pull * (w - fixed)
        ahead = w - step * gradient
        # Nesterov's momentum (FISTA's sequence).
        following = (1.0 + np.sqrt(1.0 + 4.0 * momentum * momentum)) / 2.0
        w = ahead + np.float32((momentum - 1.0) / following) * (ahead - previous)
        previous, momentum = ahead, following
    fitted = w0.copy()
    fitted[rows] = previous
    return Head(fitted[:, :-1].astype(np.float32), fitted[:, -1].astype(np.float32))
