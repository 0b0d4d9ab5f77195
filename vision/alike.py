"""Tiles that look alike on one table are one colour; tiles of two colours do not look alike.

Every copy of the game shares this: the tiles of a colour are printed alike, so on one table, in
one light, they look alike, and no two colours do. A reader trained on other art may be unsure of
a printing's colour, or take it for another (an orange for a doubtful yellow), but the table
itself says which of its tiles are one colour. So the tiles of a deal are grouped by their look
(:func:`groups`: their top faces' colour, :func:`azulcam.vision.references.top_colour`), and each
group is named as a whole (:func:`named`): by what its tiles' readings say of it, one look for the
group (the same art misread twice is one mistake, not two), and seldom two groups one colour
(:data:`SPLIT`). A group the reader is unsure of takes the colour the other groups leave it.
"""

from __future__ import annotations

import numpy as np

#: Tiles whose top faces lie further apart than this (CIELAB, :func:`look`) are not grouped: on
#: the art families the reader learned (never on one it did not), no group of tiles this alike
#: held two colours among the tiles the reader was sure of, where 15 began to.
ALIKE = 12.0

#: Lightness counts this much against hue in how alike two tiles look: a table's light falls off
#: across it, which moves a tile's lightness more than its hue.
LIGHTNESS_WEIGHT = 0.5

#: What naming a second group one colour costs, as odds: a colour's tiles in one view may fall
#: apart in two groups, under a glare or in a shadow. On the art families the reader learned, 14%
#: of the groups of tiles the reader was sure of were a colour's second (0.5% in Azul, 29% in
#: Summer Pavilion, whose families hold the strongest light).
SPLIT = 0.2


def look(features: np.ndarray) -> np.ndarray:
    """Where each tile lies for :func:`groups`: the median L, a and b of its top face
    (:func:`azulcam.vision.references.top_colour`'s middle three), lightness weighed down
    (:data:`LIGHTNESS_WEIGHT`)."""
    median = np.asarray(features, np.float64).reshape(len(features), 3, 3)[:, 1, :]
    return median * np.array([LIGHTNESS_WEIGHT, 1.0, 1.0])


def groups(features: np.ndarray) -> list[list[int]]:
    """The tiles (``features``, N x 9 from :func:`~azulcam.vision.references.top_colour`) in
    groups that look alike: complete linkage, two groups joined while every tile of the one lies
    within :data:`ALIKE` of every tile of the other, closest first."""
    points = look(features)
    # Complete linkage: how far apart each two groups' furthest tiles lie, kept as groups join.
    apart = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(apart, np.inf)
    found = [[i] for i in range(len(points))]
    while len(found) > 1:
        a, b = sorted(np.unravel_index(int(apart.argmin()), apart.shape))
        if apart[a, b] > ALIKE:
            break
        found[a] = sorted(found[a] + found[b])
        del found[b]
        joined = np.maximum(apart[a], apart[b])
        joined[a] = np.inf
        apart[a], apart[:, a] = joined, joined
        apart = np.delete(np.delete(apart, b, axis=0), b, axis=1)
    return found


def named(found: list[list[int]], evidence: np.ndarray, split: float = SPLIT) -> np.ndarray:
    """How likely each tile's group (``found``) is each colour, N tiles x K colours: each group
    weighed by ``evidence`` (N x K, how likely each tile is each colour by what it read as) as one
    look (the mean of its tiles' log-probabilities), over every naming of all the groups at once,
    a colour named by a second group costing ``split`` (:data:`SPLIT`: a colour's tiles seldom
    look two ways in one view; two colours never look one way, which :func:`groups` sees to).

    Exact, by the colours already named as state: for each group in turn, the weight of every
    naming of the groups before it that names those colours (forward) and of the groups after it
    (backward), 2^K states."""
    log_evidence = np.log(np.clip(np.asarray(evidence, np.float64), 1e-12, None))
    if not found:
        return np.zeros_like(log_evidence)
    per_group = np.array([log_evidence[g].mean(axis=0) for g in found])  # G x K
    n_groups, n_colours = per_group.shape
    likely = np.exp(per_group - per_group.max(axis=1, keepdims=True))  # each group's own odds
    states = 1 << n_colours
    bit = 1 << np.arange(n_colours)
    # step[s, c]: the weight of naming a group colour c when the colours in s are named already.
    again = (np.arange(states)[:, None] & bit[None, :]) != 0
    cost = np.where(again, split, 1.0)
    nxt = np.arange(states)[:, None] | bit[None, :]
    forward = np.zeros((n_groups + 1, states))
    forward[0, 0] = 1.0
    for g in range(n_groups):
        moved = forward[g][:, None] * cost * likely[g][None, :]
        np.add.at(forward[g + 1], nxt, moved)
        forward[g + 1] /= forward[g + 1].sum()
    backward = np.ones((n_groups + 1, states))
    for g in range(n_groups - 1, -1, -1):
        backward[g] = (cost * likely[g][None, :] * backward[g + 1][nxt]).sum(axis=1)
        backward[g] /= backward[g].max()
    out = np.zeros_like(log_evidence)
    for g, members in enumerate(found):
        row = (forward[g][:, None] * cost * likely[g][None, :] * backward[g + 1][nxt]).sum(axis=0)
        out[members] = row / row.sum()
    return out
