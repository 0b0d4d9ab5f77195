"""Tiles that look alike on one table are one colour: a deal's tiles named as groups."""

import itertools

import numpy as np
import pytest

from azulcam.vision import alike
from azulcam.vision.references import top_colour


def _looks(lab: list[tuple[float, float, float]]) -> np.ndarray:
    """Features (as top_colour gives them) of tiles whose top faces are these CIELAB colours."""
    return np.array([[v for _ in range(3) for v in colour] for colour in lab], np.float64)


def test_tiles_are_grouped_by_how_they_look_never_two_colours_in_one_group():
    yellow, orange, blue = (80, -10, 65), (58, 25, 60), (50, 0, -45)
    features = _looks([yellow, orange, (79, -12, 66), blue, (59, 26, 60), (52, 1, -44)])
    assert alike.groups(features) == [[0, 2], [1, 4], [3, 5]]
    # The same from the patches themselves: top_colour is what a watch groups by.
    patches = np.zeros((2, 32, 32, 3), np.uint8)
    patches[0], patches[1] = (40, 200, 230), (40, 120, 230)  # BGR: a yellow and an orange
    assert alike.groups(top_colour(patches)) == [[0], [1]]


def test_a_group_the_reader_is_unsure_of_takes_the_colour_the_others_leave():
    # yellow, orange, blue; the oranges read as doubtful yellows (a printing the reader never saw).
    features = _looks([(80, -10, 65), (78, -12, 66), (58, 25, 60), (59, 26, 60), (50, 0, -45)])
    evidence = np.array([[.97, .02, .01], [.96, .03, .01], [.5, .3, .2], [.45, .35, .2], [.01, .01, .98]])
    named = alike.named(alike.groups(features), evidence)
    assert named.argmax(axis=1).tolist() == [0, 0, 1, 1, 2]
    assert named[2, 1] > 0.6
    # Each tile alone, the doubtful ones are less sure: the group is one look, not two guesses.
    alone = alike.named([[i] for i in range(5)], evidence)
    assert alone[2, 1] < named[2, 1] - 0.2


def test_naming_weighs_every_naming_of_the_groups_a_colour_s_second_group_at_the_split_odds():
    rng = np.random.default_rng(1)
    for _ in range(4):
        evidence = rng.dirichlet(np.ones(3), size=4)
        found = [[0], [1, 2], [3]]
        named = alike.named(found, evidence, split=0.3)
        per_group = [np.exp(np.log(evidence[g]).mean(axis=0)) for g in found]
        want = np.zeros((3, 3))
        for naming in itertools.product(range(3), repeat=3):
            weight = np.prod([per_group[g][c] for g, c in enumerate(naming)]) * 0.3 ** (3 - len(set(naming)))
            for g, c in enumerate(naming):
                want[g, c] += weight
        want /= want.sum(axis=1, keepdims=True)
        assert named[[0, 1, 3]] == pytest.approx(want)
        assert named[1] == pytest.approx(named[2])
