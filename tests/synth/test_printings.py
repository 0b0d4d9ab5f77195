"""Boards printed as no one designed them (azulcam.synth.printings): a share of the blends, each
seed its own style, the spaces where the layout puts them, the coloured ones in their tiles' colours."""

from __future__ import annotations

import numpy as np
import pytest

from azulcam.calibration.layouts import LAYOUT_NAMES, load_layout
from azulcam.synth import art, printings
from support.images import mean_bgr, slot_mask

SOURCES = tuple(art.FAMILIES)


def free_blends(n: int) -> list[art.Family]:
    blends = (art.family(art.blend_name(k, SOURCES)) for k in range(10 * n))
    return [b for b in blends if b.board_print][:n]


def test_half_the_blends_print_their_boards_freely_and_the_named_families_never():
    blends = [art.family(art.blend_name(k, SOURCES)) for k in range(200)]
    share = sum(bool(b.board_print) for b in blends) / len(blends)
    assert abs(share - art.BLEND_FREE_BOARD_SHARE) < 0.1
    assert all(not f.board_print for f in art.FAMILIES.values())


@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_a_free_printing_is_the_same_every_time_and_its_own_for_each_seed(name):
    first, second = free_blends(2)
    w, h = art.sheet_size(name, 1.0)
    a = printings.board(name, w, h, first, first.board_print)
    assert a.shape == (h, w, 3) and a.dtype == np.uint8
    assert np.array_equal(a, printings.board(name, w, h, first, first.board_print))
    assert np.array_equal(art.board_art(name, 1.0, first.name), a)
    other = printings.board(name, w, h, second, second.board_print)
    assert np.abs(a.astype(int) - other).mean() > 10


def test_free_printings_span_light_and_dark_cards():
    names = ("azul-colored", "pavilion-grey")
    corners = [printings.board(n, 200, 200, b, b.board_print)[3:12, 3:12].mean() for b in free_blends(30) for n in names]
    assert min(corners) < 90 and max(corners) > 200


def test_the_coloured_wall_carries_each_space_its_tile_colour():
    """Whatever the style, the five spaces of one colour look alike and unlike the other colours':
    each space's mean is nearest the mean of its own colour's spaces."""
    layout = load_layout("azul-colored")
    walls = [s for s in layout.slots if s.id.startswith("wall.")]
    for fam in free_blends(12):
        img = art.board_art("azul-colored", 1.6, fam.name)
        h, w = img.shape[:2]
        means = np.array([mean_bgr(img, slot_mask(img.shape, s.polygon, w, h)) for s in walls])
        kinds = [s.printed for s in walls]
        centres = {k: means[[i for i, c in enumerate(kinds) if c == k]].mean(axis=0) for k in set(kinds)}
        nearest = [min(centres, key=lambda k: np.linalg.norm(m - centres[k])) for m in means]
        assert sum(n == k for n, k in zip(nearest, kinds)) >= 23, fam.name
