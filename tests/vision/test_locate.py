"""Localisation of factory discs and loose tiles (vision/locate.py) on seeded rendered scenes.

Thresholds sit a little below what these seeds measure; ``bench/locate.py`` gives the full
figures on more scenes.
"""

from __future__ import annotations

import copy
import random
from functools import cache

import numpy as np
import pytest
from azulcam.engine.games import AZUL, GAMES
from azulcam.engine.players import make_player
from azulcam.engine.record import play_game, replay
from azulcam.i18n.words import words
from azulcam.vision import locate as L
from azulcam.synth.camera import ViewRanges
from azulcam.synth.render import SceneOptions, render_state

CASES = [("azul", {"wall": "colored", "jokers": False}, 4, 3), ("azul", {"wall": "grey", "jokers": True}, 2, 7),
         ("azul", {"wall": "colored", "jokers": False}, 3, 11), ("pavilion", {"side": "colored"}, 2, 5),
         ("pavilion", {"side": "grey"}, 3, 8), ("pavilion", {"side": "colored"}, 4, 2)]


def _mid_round(game: str, options: dict, players: int, seed: int):
    """A copy of a state with tiles on the factories, part-way through a seeded game."""
    match = play_game(game, [make_player("greedy", seed + i) for i in range(players)], options, seed)
    states = [s.state.copy() for s in replay(match.record)]
    full = [s for s in states if sum(len(f) for f in s.to_json()["factories"]) >= 8]
    return full[random.Random(seed).randrange(len(full))]


@cache
def _scene(i: int):
    game, options, players, seed = CASES[i]
    return render_state(_mid_round(game, options, players, seed), (77, i), SceneOptions(view=ViewRanges(framing="fit")))


def _counts(i: int) -> dict[str, int]:
    scene = _scene(i)
    truth = scene.truth
    found = L.locate(scene.image, truth["profile"], truth["observation"]["game"])
    hidden = {h["zone"] for h in truth["hidden"]}
    out = {"disc_true": 0, "disc_tp": 0, "disc_found": len(found.discs), "tile_true": 0, "tile_tp": 0, "tile_found": 0}
    facs = [(f"factories.{k}", np.array(f["center"])) for k, f in enumerate(truth["observation"]["factories"])]
    for z, c in facs:
        if z in hidden:
            out["disc_found"] -= any(np.linalg.norm(c - d.center) < 0.5 * d.radius for d in found.discs)
            continue
        out["disc_true"] += 1
        out["disc_tp"] += any(np.linalg.norm(c - d.center) < 0.5 * d.radius for d in found.discs)
    items = [it for it in truth["items"] if it["zone"].startswith(("factories", "center")) or it["zone"].endswith(".hand")]
    centres = np.array([it["center"] for it in items])
    size = np.array([np.linalg.norm(np.subtract(it["outline"][0], it["outline"][2])) / 2 ** 0.5 for it in items])
    taken = np.zeros(len(items), bool)
    for t in found.tiles:
        d = np.where(taken, np.inf, np.linalg.norm(centres - t.center, axis=1))
        k = int(np.argmin(d))
        if d[k] < 0.3 * size[k]:
            taken[k] = True
            if items[k]["zone"] in hidden:
                continue
            out["tile_tp"] += 1
        out["tile_found"] += 1
    out["tile_true"] = sum(1 for it in items if it["zone"] not in hidden)
    return out


def test_factories_and_tiles_found_on_seeded_scenes():
    total: dict[str, int] = {}
    for i in range(len(CASES)):
        for k, v in _counts(i).items():
            total[k] = total.get(k, 0) + v
    assert total["disc_true"] >= 30
    assert total["disc_tp"] / total["disc_true"] >= 0.95
    assert total["disc_tp"] / max(total["disc_found"], 1) >= 0.93
    # Measured on these seeds: 127 of 161 tiles found (79%; 83% before displays had their real size
    # and print), 127 of 245 candidates right (52%; 65% before: an empty display's medallion shows
    # edges, its four places are proposed, and the reading model reads them empty): the bars guard
    # against getting worse; issue 5's targets need far better (see bench/locate.py).
    assert total["tile_tp"] / total["tile_true"] >= 0.75
    assert total["tile_tp"] / max(total["tile_found"], 1) >= 0.45


def test_outlines_follow_the_truth_vertex_convention():
    scene = _scene(0)
    found = L.locate(scene.image, scene.truth["profile"], "azul")
    assert found.tiles
    for t in found.tiles:
        assert t.outline.shape == (4, 2)
        # Clockwise in the image (y down), as the truth's outlines are.
        x, y = t.outline[:, 0], t.outline[:, 1]
        assert 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) > 0
        assert t.zone == "center" or t.zone.startswith(("factories.", "boards."))
    assert set(found.ms) == {"plane", "view", "factories", "tiles"}


def test_px_per_mm_and_plane_from_the_profile():
    scene = _scene(0)
    prof = L.check_profile(scene.truth["profile"], "azul")
    plane = L.table_plane(prof)
    assert 0.3 < L.px_per_mm(prof) < 4
    # The fitted plane maps each board's corners onto a 250 mm square, to a few millimetres.
    for quad in plane.boards:
        assert np.allclose(np.linalg.norm(np.roll(quad, -1, 0) - quad, axis=1), 250, atol=0.5)
    corners = np.array(scene.truth["profile"]["boards"][0]["corners"])
    assert np.abs(plane.plane_points(corners) - plane.boards[0]).max() < 6
    # Each board's own homography puts it exactly at its corners, and measures depth on it in mm.
    from azulcam.calibration.profile import board_homography, to_image

    for board, homography in zip(scene.truth["profile"]["boards"], plane.homographies):
        np.testing.assert_allclose(homography, board_homography(board["corners"]))
        # The board's middle, the middle of its top edge and a point 25 mm above that edge.
        points = to_image(board_homography(board["corners"]), [[0.5, 0.5], [0.5, 0.0], [0.5, -0.1]])
        np.testing.assert_allclose(L.depth_on_board(points, homography, (250, 250)), [125, 0, -25], atol=1e-3)


def test_bad_input_is_refused_clearly():
    scene = _scene(0)
    profile = scene.truth["profile"]
    with pytest.raises(L.LocateError) as info:
        L.locate("scene.jpg", profile, "azul")
    assert (info.value.code, info.value.params) == ("locate.not_an_array", {"kind": "str"})
    with pytest.raises(L.LocateError) as info:
        L.locate(np.zeros((720, 1280), np.uint8), profile, "azul")
    assert (info.value.code, info.value.params) == ("locate.not_bgr", {"shape": "(720, 1280)", "dtype": "uint8"})
    with pytest.raises(L.LocateError) as info:
        L.find_factories(scene.image, profile, "pavilion")
    assert (info.value.code, info.value.params) == ("locate.other_game", {"profile_game": "azul", "game": "pavilion"})
    other = copy.deepcopy(profile)
    other["image_size"] = [1920, 1080]
    with pytest.raises(L.LocateError) as info:
        L.find_loose_tiles(scene.image, other, "azul", [])
    assert info.value.code == "locate.other_size" and (info.value.params["pw"], info.value.params["ph"]) == (1920, 1080)
    with pytest.raises(ValueError) as info:
        L.locate(scene.image, {"format": "something-else"}, "azul")
    assert info.value.code == "locate.bad_profile" and info.value.params["reason"].code == "invalid.literal_error"
    assert words(info.value) == "bad profile: format must be 'azulcam-profile/1'"
    with pytest.raises(ValueError) as info:
        L.locate(scene.image, profile, "chess")
    assert (info.value.code, info.value.params) == ("locate.unknown_game", {"games": "('azul', 'pavilion')", "game": "'chess'"})


#: A close-up of a training scene (camera 289 mm above the table), its corners as the renderer
#: projected them, mostly far outside the 960 x 540 image: the plane fitted to them places its
#: boards a hundred metres apart.
WILD_PROFILE = {"format": "azulcam-profile/1", "game": "pavilion", "image_size": [960, 540], "boards": [
    {"player": 0, "layout": "pavilion-colored",
     "corners": [[-50.02, -47.17], [-595.35, 91.46], [-916.1, -460.01], [-128.48, -385.99]]},
    {"player": 1, "layout": "pavilion-colored",
     "corners": [[554.08, 451.4], [274.17, -28.8], [697.54, -217.39], [985.25, 161.97]]},
    {"player": 2, "layout": "pavilion-colored",
     "corners": [[-342.7, 1466.78], [369.93, 836.76], [815.6, 1965.57], [-1251.5, 8560.48]]},
], "scoring_board": {"layout": "pavilion-scoring",
                      "corners": [[-645.35, 274.35], [-481.53, 1066.56], [-5953.2, 4989.19], [-3909.82, 957.21]]}}


def test_corners_that_fit_no_table_are_refused_before_any_view_is_made():
    with pytest.raises(L.LocateError) as info:
        L.table_plane(L.check_profile(WILD_PROFILE, "pavilion"))
    assert info.value.code == "locate.no_one_table" and info.value.params["width"] > L.TABLE_MAX_MM / 1000
    assert words(info.value).startswith("the profile's board corners fit no one table: on one plane its boards would span ")
    with pytest.raises(L.LocateError) as info:
        L.locate(np.zeros((540, 960, 3), np.uint8), WILD_PROFILE, "pavilion")
    assert info.value.code == "locate.no_one_table"


def test_every_display_of_the_azul_sample_is_found_tiles_on_it_or_not():
    """Three of the sample's nine displays hold four tiles and show little rim: they vote a fifth
    as much as the empty ones, and are kept because they stand on the displays' circle."""
    import json
    from importlib import resources

    import cv2

    samples = resources.files("azulcam").joinpath("samples")
    with resources.as_file(samples.joinpath("azul-4p.jpg")) as path:
        image = cv2.imread(str(path))
    profile = json.loads(samples.joinpath("azul-4p.profile.json").read_text(encoding="utf-8"))
    truth = json.loads(samples.joinpath("azul-4p.truth.json").read_text(encoding="utf-8"))
    discs = L.find_factories(image, profile, "azul")
    centres = [np.array(f["center"]) for f in truth["observation"]["factories"]]
    assert len(discs) == len(centres) == 9
    assert all(any(np.linalg.norm(c - d.center) < 0.5 * d.radius for d in discs) for c in centres)


def test_the_factory_ring_takes_the_circle_and_leaves_what_is_off_it():
    angles = np.linspace(0, 2 * np.pi, 7, endpoint=False)
    ring = np.stack([100 + 60 * np.cos(angles), 100 + 60 * np.sin(angles)], 1)
    points = np.vstack([ring[:3], [[100.0, 100.0]], ring[3:], [[190.0, 30.0]]])  # the middle, a far corner
    scores = np.linspace(1.0, 0.1, len(points))
    on = L._factory_ring(points, scores, radius=12.0, wanted=7)
    assert on is not None and on.tolist() == [True] * 3 + [False] + [True] * 4 + [False]
    assert L._factory_ring(points[:2], scores[:2], radius=12.0, wanted=7) is None


def test_displays_off_the_ring_are_kept_when_strong_but_never_in_its_middle():
    angles = np.linspace(0, 2 * np.pi, 7, endpoint=False)
    ring = np.stack([100 + 60 * np.cos(angles), 100 + 60 * np.sin(angles)], 1)
    on_ring = [(1.0, p, 0.9) for p in ring[:6]]  # the seventh display is not among the candidates
    pushed = (0.9, ring[6] * 1.25 - 25, 0.9)  # a strong one pushed outwards, off the circle
    heap = (0.95, np.array([104.0, 98.0]), 0.5)  # the centre's tiles, voting like a display
    chosen = L._chosen_discs([on_ring[0], heap, *on_ring[1:], pushed], radius=12.0, wanted=7)
    assert [c[1].tolist() for c in chosen] == [p.tolist() for p in ring[:6]] + [pushed[1].tolist()]
    # Off the ring but weak: left out.
    weak = (0.3, pushed[1], 0.9)
    assert len(L._chosen_discs([*on_ring, weak], radius=12.0, wanted=7)) == 6
    # On the ring, a weak one stands with half its rim seen (a hand over the other half), not less.
    for seen, chosen in ((0.55, 7), (0.45, 6)):
        assert len(L._chosen_discs([*on_ring, (0.2, ring[6], seen)], radius=12.0, wanted=7)) == chosen


def test_a_weak_disc_between_two_places_of_the_even_ring_is_no_display():
    angles = np.linspace(0, 2 * np.pi, 9, endpoint=False) + 0.3
    ring = np.stack([100 + 80 * np.cos(angles), 100 + 80 * np.sin(angles)], 1)
    displays = [(1.0 + 0.1 * k, p, 1.0) for k, p in enumerate(ring[:7])]  # two under a hand
    between = (ring[7] + ring[8]) / 2 * 1.03  # the rim beside the hand, between their places
    kept = L._on_even_ring([*displays, (0.3, between, 0.8)], wanted=9)
    assert [c[1].tolist() for c in kept] == [p.tolist() for p in ring[:7]]
    # On its place, or strong, it stays.
    assert len(L._on_even_ring([*displays, (0.3, ring[7] + 5.0, 0.8)], wanted=9)) == 8
    assert len(L._on_even_ring([*displays, (1.2, between, 1.0)], wanted=9)) == 8
    # Too few others to say where the places are: it stays.
    assert len(L._on_even_ring([*displays[:3], (0.3, between, 0.8)], wanted=9)) == 4


def test_inside_distance_is_point_polygon_test_for_all_points_at_once():
    import cv2

    rng = np.random.default_rng(3)
    for _ in range(20):
        # A convex quadrilateral: a rectangle seen in perspective, either way round.
        w, h = rng.uniform(50, 400, 2)
        quad = np.array([[0, 0], [w, 0], [w, h], [0, h]]) + rng.normal(0, 8, (4, 2)) + rng.uniform(-200, 200, 2)
        if rng.random() < 0.5:
            quad = quad[::-1]
        points = rng.uniform(quad.min(0) - 60, quad.max(0) + 60, (50, 2))
        want = [cv2.pointPolygonTest(quad.astype(np.float32), (float(x), float(y)), True) for x, y in points]
        np.testing.assert_allclose(L.inside_distance(points, quad), want, atol=1e-3)


def test_a_display_missing_from_the_ring_is_placed_in_its_gap():
    from azulcam.calibration.profile import Profile

    for i in (0, 5):  # 4-player tables: nine displays
        scene = _scene(i)
        game = scene.truth["observation"]["game"]
        profile = Profile.from_json(scene.truth["profile"])
        plane = L.plane_for(profile)
        discs = L.find_factories(scene.image, profile, game)
        # A display under a hand is not found: its gap is the one the ring leaves.
        hidden = [f for k, f in enumerate(scene.truth["observation"]["factories"])
                  if {"zone": f"factories.{k}", "by": "hand"} in scene.truth["hidden"]]
        assert len(discs) + len(hidden) == 9
        assert len(L.unseen_displays(discs, plane, game)) == len(hidden)
        for gone in (0, 4) if not hidden else ():
            rest = discs[:gone] + discs[gone + 1:]
            unseen = L.unseen_displays(rest, plane, game)
            assert len(unseen) == 1
            assert np.linalg.norm(np.subtract(unseen[0].plane, discs[gone].plane)) < 20.0  # mm
        two_gone = [d for k, d in enumerate(discs) if k not in (2, 3)]
        assert len(L.unseen_displays(two_gone, plane, game)) == 2 + len(hidden)
        assert L.unseen_displays(discs[:2], plane, game) == []  # no ring from two


def test_a_display_not_seen_is_moved_onto_the_four_tiles_that_hide_it():
    from azulcam.calibration.profile import Profile

    scene = _scene(0)  # a 4-player Azul table: nine displays
    game = scene.truth["observation"]["game"]
    profile = Profile.from_json(scene.truth["profile"])
    plane = L.plane_for(profile)
    discs = L.find_factories(scene.image, profile, game)
    assert len(discs) == 9
    gone, rest = discs[4], discs[:4] + discs[5:]
    true_mm = np.array(gone.plane)
    # The displays stand a little off even spacing: where the ring puts it is 20 mm off.
    hub = np.mean([d.plane for d in discs], axis=0)
    along = (true_mm - hub) / np.linalg.norm(true_mm - hub)
    put = L._disc_at(plane, true_mm + 20.0 * np.array([-along[1], along[0]]), L.factory_diameter(GAMES[game]) / 2, 0.0, 0.0)
    # Its four tiles' tops, as the detector sees them, and a tile of the centre on the hub.
    top = L.display_tops(plane, true_mm[None], game)[0]
    four = top + np.array([[-13.0, -13.0], [13.0, -13.0], [13.0, 13.0], [-13.0, 13.0]])
    points = np.vstack([four, hub[None]])
    assert (np.linalg.norm(four - L.display_tops(plane, np.array([put.plane]), game)[0], axis=1)
            < L.factory_diameter(GAMES[game]) / 2 * L.ON_DISC).sum() < 4  # where it was put, it would lose tiles
    moved = L.onto_their_tiles([put], points, plane, game, rest)
    assert len(moved) == 1 and np.linalg.norm(np.subtract(moved[0].plane, true_mm)) < 1.0
    assert np.linalg.norm(np.subtract(moved[0].center, gone.center)) < 0.25 * gone.radius
    assert L.zones_of(four, plane, [*rest, moved[0]], game) == [f"factories.{len(rest)}"] * 4
    # Fewer than four tiles there, tiles on a display seen, or a fifth tile it would take: it stays.
    assert L.onto_their_tiles([put], points[1:], plane, game, rest) == [put]
    shifted = [L._disc_at(plane, true_mm, L.factory_diameter(GAMES[game]) / 2, 1.0, 1.0)]
    assert L.onto_their_tiles([put], points, plane, game, rest + shifted) == [put]
    crowded = np.vstack([points, top[None]])
    assert L.onto_their_tiles([put], crowded, plane, game, rest) == [put]


def test_rotations_turn_points_one_angle_each():
    poly = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    np.testing.assert_allclose(L._turned(poly, 90.0), [[0.0, 1.0], [-1.0, 0.0], [-2.0, 2.0]], atol=1e-12)
    degrees = np.array([0.0, 3.0, 47.0, 270.0])
    batch = poly[None] @ L.rotations(degrees)  # one matrix per angle, as factory_tiles uses them
    for deg, turned in zip(degrees, batch):
        np.testing.assert_array_equal(turned, L._turned(poly, float(deg)))
        np.testing.assert_allclose(np.linalg.norm(turned, axis=1), np.linalg.norm(poly, axis=1))


def test_a_display_s_four_are_those_that_lie_as_its_tiles_do():
    """Of more than four tiles found on a display, its are the four that lie as a display's tiles
    do, not the four nearest its centre: a peak between two tiles (the side of one seen at a
    slant, edges 900000 #10) lay nearer the centre than a tile on the display's far side."""
    scene = _scene(0)
    prof = L.check_profile(scene.truth["profile"], "azul")
    plane = L.table_plane(prof)
    discs = L.find_factories(scene.image, scene.truth["profile"], "azul")
    top = L.display_tops(plane, np.array([discs[0].plane], np.float64), "azul")[0]
    # The four a few millimetres off where the display's centre puts them, as a slanted view
    # shows them, and a fifth peak between two of them.
    four = top + L.display_offsets("azul") + np.array([5.0, 3.0])
    between = (four[0] + four[3]) / 2 + np.array([2.0, 0.0])
    assert np.linalg.norm(between - top) < np.linalg.norm(four - top, axis=1).max()  # nearer than one
    zones = L.zones_of(np.vstack([four, between[None]]), plane, discs, "azul")
    assert zones[:4] == ["factories.0"] * 4 and zones[4] != "factories.0"
    # Any order of the points reads the same.
    order = np.array([4, 2, 0, 3, 1])
    assert [zones[n] for n in order] == L.zones_of(np.vstack([four, between[None]])[order], plane, discs, "azul")


def test_a_display_holds_four_tiles_the_farther_ones_are_the_centres():
    scene = _scene(0)
    prof = L.check_profile(scene.truth["profile"], "azul")
    plane = L.table_plane(prof)
    discs = L.find_factories(scene.image, scene.truth["profile"], "azul")
    assert len(discs) >= 3
    disc = discs[0]
    top = L.display_tops(plane, np.array([disc.plane], np.float64), "azul")[0]
    # Four tiles in a square around where the display's tiles lie, and a fifth on the display's
    # rim, on the side of the ring's hub (where the centre's tiles lie).
    hub = np.mean([d.plane for d in discs], axis=0)
    inward = (hub - top) / np.linalg.norm(hub - top)
    square = top + np.array([(-11, -11), (11, -11), (11, 11), (-11, 11)], np.float64)
    rim = top + inward * L.factory_diameter(AZUL) / 2
    zones = L.zones_of(np.vstack([square, rim[None]]), plane, discs, "azul")
    assert zones[:4] == ["factories.0"] * 4
    assert zones[4] == "center"
    # With four points on it, the one on the rim is the display's.
    assert L.zones_of(np.vstack([square[:3], rim[None]]), plane, discs, "azul") == ["factories.0"] * 4
    # A fifth point well inside the disc on the table is one of the four seen twice: no zone.
    centre = np.asarray(disc.plane, np.float64)
    lift = top - centre
    across = np.array([-lift[1], lift[0]]) / max(np.linalg.norm(lift), 1e-9) if np.linalg.norm(lift) > 1e-6 \
        else np.array([1.0, 0.0])
    inside = centre + across * (L.factory_diameter(AZUL) / 2 * (L.SEEN_TWICE_WITHIN - 0.1))
    assert np.linalg.norm(inside - top) > np.linalg.norm(square[0] - top)  # farther than the four
    assert L.zones_of(np.vstack([square, inside[None]]), plane, discs, "azul") == ["factories.0"] * 4 + [None]
