"""The second hand (azulcam.synth.inked): drawn by code of its own, placed by the renderer exactly as
the first hand's art, held out of every training script."""

from __future__ import annotations

import numpy as np
import pytest

from azulcam.calibration.layouts import LAYOUT_NAMES, load_layout
from azulcam.synth import art, hands, inked
from support.images import mean_bgr, slot_mask

AZUL_COLORS = ("blue", "yellow", "red", "black", "white")


@pytest.mark.parametrize("game, kinds", [("azul", art.AZUL_TILES), ("pavilion", art.PAVILION_TILES + ("first_player",))])
@pytest.mark.parametrize("size", [4, 17, 64])
def test_its_tiles_have_the_first_hand_s_shapes(game, kinds, size):
    for kind in kinds:
        mine, poly = inked.tile_sprite(game, kind, size)
        theirs, their_poly = art.tile_sprite(game, kind, size)
        assert mine.shape == theirs.shape and mine.dtype == np.uint8
        np.testing.assert_array_equal(poly, their_poly)
        assert not mine.flags.writeable and mine[..., 3].max() > 200
        side = inked.tile_side_color(game, kind)
        assert sum(side) < sum(mine[..., :3][mine[..., 3] > 200].mean(axis=0))  # the sides are darker


def test_its_tiles_are_told_apart_and_are_not_the_first_hand_s():
    means = {k: inked.tile_sprite("azul", k, 32)[0][..., :3].reshape(-1, 3).astype(float).mean(axis=0)
             for k in AZUL_COLORS}
    for a in AZUL_COLORS:
        for b in AZUL_COLORS:
            if a < b:
                assert np.linalg.norm(means[a] - means[b]) > 25, (a, b)
    for kind in AZUL_COLORS:
        mine = inked.tile_sprite("azul", kind, 32)[0][..., :3].astype(float)
        for family in art.FAMILIES:
            assert np.abs(mine - art.tile_sprite("azul", kind, 32, family)[0][..., :3]).mean() > 10, (kind, family)


@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_its_boards_print_every_slot_where_the_layout_says(name):
    """Every slot's inside differs from the card just outside the board's slots; on the coloured
    Azul wall each space shows its tile's own design (the nearest of the five tiles' colours)."""
    layout = load_layout(name)
    img = inked.board_art(name, 2.0)
    h, w = img.shape[:2]
    assert (w, h) == tuple(int(round(v * 2.0)) for v in layout.size_mm) and not img.flags.writeable
    tiles = {k: inked.tile_sprite("azul", k, 32)[0][..., :3].reshape(-1, 3).astype(float).mean(axis=0)
             for k in AZUL_COLORS}
    card = np.array(inked.CARD, float)
    for slot in layout.slots:
        mask = slot_mask(img.shape, slot.polygon, w, h)
        mean = mean_bgr(img, mask)
        edge = mean_bgr(img, mask - (mask & np.roll(np.roll(mask, 2, 0), 2, 1)))  # its outline
        assert np.linalg.norm(edge - card) > 15, slot.id
        if name == "azul-colored" and slot.printed:
            assert min(tiles, key=lambda k: np.linalg.norm(mean - tiles[k])) == slot.printed, slot.id


def test_the_renderer_draws_it_and_no_training_script_knows_it():
    from azulcam.engine.record import Game
    from azulcam.synth.render import SceneOptions, render_state

    assert "inked" not in art.FAMILIES  # the training scripts draw art.FAMILIES and their blends only
    drawn = hands.drawing("inked")
    assert drawn.table_texture is inked.table_texture and drawn.light is inked.light
    assert hands.drawing("classic").table_texture is art.table_texture and hands.drawing("classic").light is None
    with pytest.raises(ValueError) as refused:
        hands.drawing("nobody")
    assert refused.value.code == "render.unknown_family" and "inked" in refused.value.params["families"].split(", ")
    state = Game.new("azul", 2, {"wall": "colored", "jokers": False}).state
    a = render_state(state, 3, SceneOptions(size=(320, 180), family="inked"))
    b = render_state(state, 3, SceneOptions(size=(320, 180), family="inked"))
    c = render_state(state, 3, SceneOptions(size=(320, 180), family="classic"))
    assert a.truth["family"] == "inked" and a.jpeg == b.jpeg and a.jpeg != c.jpeg
    assert a.truth["look"]["texture"] in inked.TABLES
