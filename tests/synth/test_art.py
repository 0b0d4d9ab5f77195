"""Procedural component art (azulcam.synth.art): shapes, determinism, and art that a
classifier can learn from (printed slots where the layouts say, distinguishable tiles)."""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from azulcam.calibration.layouts import LAYOUT_NAMES, load_layout
from azulcam.i18n.words import words
from azulcam.synth import art
from support.images import mean_bgr, slot_mask

AZUL_COLORS = ("blue", "yellow", "red", "black", "white")


# --------------------------------------------------------------------------- tiles


@pytest.mark.parametrize("kind", art.AZUL_TILES)
@pytest.mark.parametrize("size", [4, 9, 16, 64])
def test_azul_tile_shape(kind, size):
    img, poly = art.tile_sprite("azul", kind, size)
    assert img.shape == (size, size, 4) and img.dtype == np.uint8
    assert (img[..., 3] == 255).all()
    assert poly.dtype == np.float32 and poly.shape == (4, 2)
    np.testing.assert_array_equal(poly, [[0, 0], [size, 0], [size, size], [0, size]])
    assert not img.flags.writeable and not poly.flags.writeable


@pytest.mark.parametrize("kind", art.PAVILION_TILES)
@pytest.mark.parametrize("size", [8, 31, 96])
def test_pavilion_tile_shape(kind, size):
    img, poly = art.tile_sprite("pavilion", kind, size)
    w = round(size / math.sqrt(3))
    assert img.shape == (size, w, 4) and img.dtype == np.uint8
    assert poly.dtype == np.float32 and poly.shape == (4, 2)
    np.testing.assert_allclose(poly, [[w / 2, 0], [w, size / 2], [w / 2, size], [0, size / 2]])
    a = img[..., 3]
    assert a[size // 2, w // 2] == 255
    assert a[0, 0] == a[0, -1] == a[-1, 0] == a[-1, -1] == 0
    assert 0 < np.count_nonzero((a > 0) & (a < 255))  # anti-aliased edge
    # The face covers about half the bounding box (a rhombus).
    assert abs(a.astype(np.float64).sum() / 255 / (size * w) - 0.5) < 0.08


def test_pavilion_start_player_token_is_a_disc():
    img, poly = art.tile_sprite("pavilion", "first_player", 48)
    assert img.shape == (48, 48, 4)
    np.testing.assert_array_equal(poly, [[0, 0], [48, 0], [48, 48], [0, 48]])
    a = img[..., 3]
    assert a[24, 24] == 255 and a[0, 0] == 0 and a[-1, -1] == 0
    assert abs(a.astype(np.float64).sum() / 255 - math.pi * 24 ** 2) < 0.03 * 48 * 48


@pytest.mark.parametrize("args", [("chess", "blue", 16), ("azul", "purple", 16), ("pavilion", "black", 16),
                                  ("pavilion", "joker", 16), ("azul", "blue", 3), ("azul", "blue", 0)])
def test_tile_sprite_rejects_bad_arguments(args):
    with pytest.raises(ValueError):
        art.tile_sprite(*args)


def test_tile_side_color_is_darker_than_the_top():
    for game, kinds in (("azul", art.AZUL_TILES), ("pavilion", art.PAVILION_TILES + ("first_player",))):
        for kind in kinds:
            side = art.tile_side_color(game, kind)
            assert len(side) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in side)
            img, _ = art.tile_sprite(game, kind, 32)
            top = mean_bgr(img, img[..., 3] == 255)
            assert sum(side) < top.sum(), (game, kind)
    with pytest.raises(ValueError):
        art.tile_side_color("azul", "green")


def test_azul_tile_colours_are_distinguishable():
    means = {k: mean_bgr(*(lambda im: (im, np.ones(im.shape[:2])))(art.tile_sprite("azul", k, 24)[0]))
             for k in AZUL_COLORS + ("joker",)}
    kinds = list(means)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            assert np.linalg.norm(means[a] - means[b]) > 40, (a, b)


def test_pavilion_tile_colours_are_distinguishable():
    means = {}
    for k in art.PAVILION_TILES:
        img, _ = art.tile_sprite("pavilion", k, 40)
        means[k] = mean_bgr(img, img[..., 3] == 255)
    for i, a in enumerate(art.PAVILION_TILES):
        for b in art.PAVILION_TILES[i + 1:]:
            assert np.linalg.norm(means[a] - means[b]) > 40, (a, b)


def test_joker_shows_all_five_colours():
    img, _ = art.tile_sprite("azul", "joker", 64)
    pixels = img[..., :3].reshape(-1, 3).astype(np.float64)
    for kind in AZUL_COLORS:
        ref = np.array(art.AZUL_BASE[kind], np.float64)
        assert (np.linalg.norm(pixels - ref, axis=1) < 45).mean() > 0.03, kind


# --------------------------------------------------------------------------- determinism and caching


def test_art_is_deterministic_and_cached():
    calls = [lambda: art.tile_sprite("azul", "yellow", 20)[0], lambda: art.tile_sprite("pavilion", "green", 40)[0],
             lambda: art.board_art("pavilion-colored", 1.0), lambda: art.factory_sprite(40),
             lambda: art.table_texture(0, 64), lambda: art.table_texture(4, 64)]
    first = [f() for f in calls]
    assert all(f() is a for f, a in zip(calls, first))  # cached: the very same array
    art.clear_caches()
    for f, a in zip(calls, first):
        b = f()
        assert b is not a
        np.testing.assert_array_equal(a, b)
        assert not b.flags.writeable


# --------------------------------------------------------------------------- boards


@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_board_art_size(name):
    layout = load_layout(name)
    img = art.board_art(name, 1.5)
    w, h = (round(v * 1.5) for v in layout.size_mm)
    assert img.shape == (h, w, 3) and img.dtype == np.uint8 and not img.flags.writeable


def test_board_art_rejects_unknown_sides():
    with pytest.raises(ValueError):
        art.board_art("azul-purple", 2.0)
    with pytest.raises(ValueError):
        art.board_art("azul-colored", 0.0)


def test_azul_wall_cells_show_their_printed_colour():
    layout = load_layout("azul-colored")
    img = art.board_art("azul-colored", 2.0)
    h, w = img.shape[:2]
    refs = {k: np.array(art._wall_reference(k), np.float64) for k in AZUL_COLORS}
    walls = [s for s in layout.slots if s.id.startswith("wall.")]
    assert len(walls) == 25 and all(s.printed in refs for s in walls)
    for slot in walls:
        mean = mean_bgr(img, slot_mask(img.shape, slot.polygon, w, h))
        nearest = min(refs, key=lambda k: np.linalg.norm(mean - refs[k]))
        assert nearest == slot.printed, (slot.id, slot.printed, nearest, mean)


def test_azul_grey_wall_is_plain():
    layout = load_layout("azul-grey")
    img = art.board_art("azul-grey", 2.0)
    h, w = img.shape[:2]
    means = [mean_bgr(img, slot_mask(img.shape, s.polygon, w, h)) for s in layout.slots if s.id.startswith("wall.")]
    assert np.ptp(np.array(means), axis=0).max() < 12
    assert all(np.ptp(m) < 15 for m in means)  # grey: B, G and R about equal


@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_every_slot_is_visibly_printed(name):
    """Each slot's inside differs from the card just around it (other slots left out)."""
    layout = load_layout(name)
    img = art.board_art(name, 2.0)
    h, w = img.shape[:2]
    all_slots = np.zeros((h, w), np.uint8)
    masks = {}
    for s in layout.slots:
        masks[s.id] = slot_mask(img.shape, s.polygon, w, h)
        all_slots |= masks[s.id]
    ring_px = max(3, round(0.012 * w))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring_px + 1, 2 * ring_px + 1))
    for s in layout.slots:
        inside = cv2.erode(masks[s.id], np.ones((3, 3), np.uint8))
        ring = cv2.dilate(masks[s.id], kernel) & ~all_slots
        assert np.count_nonzero(ring) > 10, s.id
        diff = np.linalg.norm(mean_bgr(img, inside) - mean_bgr(img, ring))
        assert diff > 15, (s.id, diff)


def test_board_art_has_print_texture():
    img = art.board_art("azul-colored", 2.0)
    h, w = img.shape[:2]
    patch = img[int(0.55 * h):int(0.6 * h), int(0.05 * w):int(0.1 * w)].astype(np.float64)  # plain card
    assert all(0.5 < patch[..., c].std() < 12 for c in range(3))


# --------------------------------------------------------------------------- factories and tables


def test_factory_sprite():
    img = art.factory_sprite(60)
    assert img.shape == (60, 60, 4) and img.dtype == np.uint8 and not img.flags.writeable
    a = img[..., 3]
    assert a[30, 30] == 255 and a[0, 0] == 0 and a[-1, -1] == 0
    disc = img[..., :3][a == 255].astype(np.float64)
    field = np.median(disc, axis=0)
    assert field[2] > 180 and field[1] > 180  # a cream card ...
    assert np.percentile(disc.mean(axis=1), 5) < 110  # ... printed with marks as dark as a tile's pattern
    with pytest.raises(ValueError):
        art.factory_sprite(2)


def test_table_textures():
    assert art.TABLE_TEXTURES >= 5
    means = []
    for i in range(art.TABLE_TEXTURES):
        img = art.table_texture(i, 96)
        assert img.shape == (96, 96, 3) and img.dtype == np.uint8 and not img.flags.writeable
        assert img.std() > 1.0  # not a flat colour
        means.append(img.reshape(-1, 3).mean(axis=0))
    for i in range(len(means)):
        for j in range(i + 1, len(means)):
            assert np.linalg.norm(means[i] - means[j]) > 20, (i, j)
    assert art.table_texture(0).shape == (512, 512, 3)
    for bad in (-1, art.TABLE_TEXTURES):
        with pytest.raises(ValueError):
            art.table_texture(bad)


# --------------------------------------------------------------------------- art families


def test_every_family_draws_every_part_and_an_unknown_one_is_refused():
    for name in art.FAMILIES:
        for game, kinds in (("azul", art.AZUL_TILES), ("pavilion", art.PAVILION_TILES + ("first_player",))):
            for kind in kinds:
                img, _ = art.tile_sprite(game, kind, 24, name)
                assert img.shape[2] == 4 and not img.flags.writeable
        for side in ("azul-colored", "azul-grey", "pavilion-colored", "pavilion-grey", "pavilion-scoring"):
            assert art.board_art(side, 1.0, name).ndim == 3
        assert art.factory_sprite(32, name).shape == (32, 32, 4)
        assert all(0 <= t < art.TABLE_TEXTURES for t in art.family(name).tables)
    for call in (lambda: art.tile_sprite("azul", "blue", 24, "van-gogh"), lambda: art.board_art("azul-grey", 1.0, "x"),
                 lambda: art.factory_sprite(32, "x"), lambda: art.family("x")):
        with pytest.raises(ValueError) as refused:
            call()
        assert refused.value.code == "render.unknown_family"


def test_families_differ_where_real_tables_do():
    """The wall's bare print runs from pale to as strong as a tile, and the tiles' faces differ."""
    layout = load_layout("azul-colored")

    def print_gap(name: str) -> float:
        """The wall's empty spaces against the tiles of their colour (mean BGR distance)."""
        img = art.board_art("azul-colored", 2.0, name)
        h, w = img.shape[:2]
        gaps = []
        for slot in layout.slots:
            if slot.id.startswith("wall."):
                tile = art.tile_sprite("azul", slot.printed, 32, name)[0][..., :3].reshape(-1, 3).mean(axis=0)
                gaps.append(np.linalg.norm(mean_bgr(img, slot_mask(img.shape, slot.polygon, w, h)) - tile))
        return float(np.mean(gaps))

    gaps = {name: print_gap(name) for name in art.FAMILIES}
    assert gaps["strong-print"] < 0.3 * gaps["classic"] < 0.3 * gaps["matte-worn"], gaps
    faces = {name: art.tile_sprite("azul", "yellow", 32, name)[0][..., :3].astype(float) for name in art.FAMILIES}
    for a in art.FAMILIES:
        for b in art.FAMILIES:
            if a < b:
                assert np.abs(faces[a] - faces[b]).mean() > 8, (a, b)


def test_the_command_line_knows_every_family():
    from azulcam.cli.render import ART_FAMILIES

    from azulcam.synth.hands import FAMILY_NAMES

    assert ART_FAMILIES == FAMILY_NAMES == tuple(art.FAMILIES) + ("inked",)


def test_a_blend_mixes_its_sources_and_is_the_same_every_time():
    """A blend is named by its seed and sources, drawn the same from its name, and lies among
    its sources and real tiles' inks (reaching a little past them); its print strength spans the
    whole range."""
    sources = ("classic", "matte-worn", "bright")
    name = art.blend_name(7, sources)
    assert name == "blend:7:classic+matte-worn+bright"
    blend = art.family(name)
    assert blend == art.family(name) and blend.name == name
    assert blend.patterns in {art.FAMILIES[s].patterns for s in sources}
    own_tables = {t for s in sources for t in art.FAMILIES[s].tables} | set(art.PRINTED_CLOTHS)
    assert set(blend.tables) == own_tables | (set(art.TILE_CLOTHS) if blend.disc_motif else set())
    for colour in ("blue", "yellow", "red", "black", "white"):
        mixed = np.array(blend.azul_base[colour], float)
        own = np.array([art.FAMILIES[s].azul_base[colour] for s in sources] + [art.REAL_AZUL_INKS[colour]], float)
        spread = np.ptp(own, axis=0)
        assert (mixed >= own.min(axis=0) - art.BLEND_REACH * spread - art.BLEND_INK_JITTER - 1).all()
        assert (mixed <= own.max(axis=0) + art.BLEND_REACH * spread + art.BLEND_INK_JITTER + 1).all()
    prints = [art.family(art.blend_name(k, sources)).wall_print for k in range(40)]
    low, high = art.BLEND_PRINT["wall_print"]
    assert low <= min(prints) < low + 0.15 and high - 0.15 < max(prints) <= high
    assert art.family(art.blend_name(8, sources)) != blend
    sheet = art.board_art("azul-colored", 0.5, name)
    assert sheet.shape[2] == 3 and not np.array_equal(sheet, art.board_art("azul-colored", 0.5, "classic"))


def test_some_blends_draw_what_no_source_decides_freely():
    """About half the blends draw the display's colours, the grey spaces' grey and the print's
    hue turn freely (dark discs, pale or dark greys, a print in other inks than the tiles'); the
    named families print in their tiles' own inks."""
    sources = tuple(art.FAMILIES)
    blends = [art.family(art.blend_name(k, sources)) for k in range(60)]
    sourced = {f.disc for f in art.FAMILIES.values()}
    free_discs = [b.disc for b in blends if b.disc not in sourced and min(map(min, b.disc)) < 60]
    turns = [b.print_turn for b in blends if b.print_turn]
    greys = [b.grey_cell[0] for b in blends]
    assert free_discs and 10 < len(turns) < 50
    assert max(map(abs, turns)) <= art.BLEND_PRINT_TURN and min(greys) < 100 < 190 < max(greys)
    assert all(f.print_turn == 0.0 for f in art.FAMILIES.values())
    turned = [b for b in blends if abs(b.print_turn) > 0.3][0]
    plain = dataclasses.replace(turned, print_turn=0.0)
    assert not np.array_equal(art._azul_board("azul-colored", 200, 200, turned),
                              art._azul_board("azul-colored", 200, 200, plain))


def test_some_blends_are_printed_as_no_one_designed_them():
    """A share of the blends print their displays, cards and jokers as no one designed them: a
    display of any field with a tile's motif or flat tile faces where the tiles lie, cloths in
    tile inks. The named families keep their own designs."""
    sources = tuple(art.FAMILIES)
    blends = [art.family(art.blend_name(k, sources)) for k in range(200)]
    undesigned = [b for b in blends if b.disc_motif]
    assert 0.25 < len(undesigned) / len(blends) < 0.55
    assert {b.disc_motif for b in undesigned} == set(art.DISC_MOTIFS)
    assert {b.joker for b in undesigned} == set(art.JOKER_STYLES)
    assert 0.15 < sum(bool(b.cell_face) for b in undesigned) / len(undesigned) < 0.6
    faced = next(b for b in undesigned if b.cell_face)
    plain = dataclasses.replace(faced, cell_face="")
    for side in ("azul-colored", "azul-grey"):  # pattern lines, floor and the grey wall carry the face
        assert np.abs(art._azul_board(side, 300, 300, faced) - art._azul_board(side, 300, 300, plain)).mean() > 1
    assert all(set(art.TILE_CLOTHS) <= set(b.tables) for b in undesigned)
    assert all(not set(art.TILE_CLOTHS) & set(b.tables) for b in blends if not b.disc_motif)
    assert all(f.disc_motif == "" and f.joker == "wedges" for f in art.FAMILIES.values())
    assert min(art._luma(b.disc[0]) for b in undesigned) < 60 < 180 < max(art._luma(b.disc[0]) for b in undesigned)
    for motif in art.DISC_MOTIFS:
        blend = next(b for b in undesigned if b.disc_motif == motif)
        disc = art.factory_sprite(64, blend.name)
        assert disc.shape == (64, 64, 4) and disc[32, 32, 3] == 255 and disc[0, 0, 3] == 0
        inside = disc[16:48, 16:48, :3].reshape(-1, 3).astype(float)
        assert inside.std(axis=0).max() > 15  # a medallion, not a bare field
        assert np.array_equal(art.factory_sprite(64, blend.name, game="pavilion"), disc)
    other = next(b for b in undesigned if b.joker != "wedges")
    joker = art._azul_face("joker", 32, other)
    assert joker.shape == (32, 32, 4)
    assert np.abs(joker.astype(int) - art._azul_face("joker", 32, dataclasses.replace(other, joker="wedges"))).mean() > 20


def test_a_hue_turn_keeps_greys_and_moves_colours():
    image = np.array([[[128, 128, 128], [200, 40, 40], [0, 0, 0]]], np.uint8)
    turned = art.hue_turned(image, 1.0)
    assert np.abs(turned[0, 0].astype(int) - 128).max() <= 1 and not turned[0, 2].any()
    assert np.abs(turned[0, 1].astype(int) - image[0, 1]).max() > 40
    assert art.hue_turned(image, 0.0) is image


@pytest.mark.parametrize("name", ["blend:x:classic", "blend:3:classic+nope", "blend:3", "nope"])
def test_unknown_families_and_blends_are_refused(name):
    with pytest.raises(ValueError) as refused:
        art.family(name)
    assert refused.value.code in ("render.unknown_family", "render.bad_blend") and refused.value.params["name"] == name
    assert words(refused.value).startswith(f"unknown art family {name!r}")
    with pytest.raises(ValueError):
        art.blend_name(1, ("classic", "nope"))
