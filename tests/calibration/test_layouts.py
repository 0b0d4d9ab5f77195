"""Board layouts (``azulcam-layout/1``) and calibration profiles: every slot of every board, no
overlaps, the shipped files equal to what the geometry and the engine's topology build, and
clear errors for broken files."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from azulcam.calibration.layouts import (LAYOUT_NAMES, Layout, LayoutError, a_board, check_layout, expected_slots,
                                         is_scoring_layout, layout_game, load_layout)
from azulcam.calibration.profile import Profile, ProfileError, board_homography, to_image
from azulcam.engine import pavilion_board as topo
from azulcam.engine.azul import COLORS, wall_column
from azulcam.calibration.geometry import (AZUL_BOARD_MM, AZUL_LINES_X1, AZUL_TILE_MM, PAVILION_BOARD_MM,
                                          PAVILION_TILE_SIDE_MM, board_mm, build_layouts, factory_diameter, tile_height,
                                          tile_mm)
from azulcam.engine.games import AZUL, GAMES, PAVILION
from azulcam.i18n.words import words

SHIPPED = Path(__file__).resolve().parents[2] / "calibration" / "layouts"


@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_every_slot_once_inside_the_board_and_no_overlap(name):
    layout = load_layout(name)
    assert sorted(layout.ids) == sorted(expected_slots(name))
    assert len(set(layout.ids)) == len(layout.ids)
    assert check_layout(layout) == []
    for slot in layout.slots:
        assert all(0 <= v <= 1 for p in slot.polygon for v in p), slot.id


def test_slot_counts():
    assert len(load_layout("azul-colored").slots) == 15 + 25 + 7
    assert len(load_layout("pavilion-grey").slots) == 42 + 4
    assert len(load_layout("pavilion-scoring").slots) == 10


@pytest.mark.parametrize("spec", GAMES.values(), ids=GAMES)
def test_a_games_sizes_come_from_its_spec(spec):
    """The components' sizes are asked with a game's spec: its board's from its layouts (every face
    the same size), its tiles' and displays' from its tiles' shape."""
    assert board_mm(spec) == load_layout(spec.layouts[0]).size_mm == (AZUL_BOARD_MM if spec is AZUL else PAVILION_BOARD_MM)
    assert {load_layout(name).size_mm for name in spec.layouts} == {board_mm(spec)}
    square = spec.shape == "square"
    assert tile_mm(spec) == (AZUL_TILE_MM if square else PAVILION_TILE_SIDE_MM)
    assert tile_height(spec) == (7.0 if square else 6.0)
    assert factory_diameter(spec) == (3.6 * AZUL_TILE_MM if square else 2.0 * PAVILION_TILE_SIDE_MM * 1.62)


def test_a_layouts_game_is_the_start_of_its_name():
    """Shipped layouts and edited copies of them (their names keep the shipped one's start) are a
    game's; the scoring board is told from the player boards."""
    assert [layout_game(name) for name in LAYOUT_NAMES] == [AZUL, AZUL, PAVILION, PAVILION, PAVILION]
    assert layout_game("azul-colored-mine") is AZUL and layout_game("chess-board") is None
    assert [is_scoring_layout(name) for name in LAYOUT_NAMES] == [False] * 4 + [True]
    assert is_scoring_layout("pavilion-scoring-mine") and not is_scoring_layout("pavilion-grey-mine")
    assert [words(a_board(spec)) for spec in GAMES.values()] == ["an Azul board", "a Summer Pavilion board"]
    assert expected_slots("pavilion-colored")[40:44] == ("6.5", "6.6", "corner.0", "corner.1")
    assert expected_slots("azul-grey")[:2] == ("line.0.0", "line.1.0") and expected_slots("azul-grey")[-1] == "floor.6"
    with pytest.raises(LayoutError) as info:
        expected_slots("chess-board")
    assert (info.value.code, info.value.params) == ("layout.no_board", {
        "name": "chess-board", "boards": "azul-..., pavilion-..., pavilion-scoring..."})
    assert words(info.value) == "layout name 'chess-board' names no board (azul-..., pavilion-..., pavilion-scoring...)"


@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_shipped_files_are_what_the_geometry_builds(name):
    """The JSON files are generated, never edited by hand: regenerate them with
    ``python -c "from azulcam.calibration.geometry import write_layouts; write_layouts('calibration/layouts')"``."""
    built = build_layouts()[name]
    assert (SHIPPED / f"{name}.json").read_text(encoding="utf-8") == built.dumps()
    assert load_layout(name) == Layout.from_json(json.loads(built.dumps()))


def test_azul_coloured_wall_prints_the_engine_colours():
    layout = load_layout("azul-colored")
    for r in range(5):
        for c, color in enumerate(COLORS):
            assert layout[f"wall.{r}.{wall_column(c, r)}"].printed == color
    assert all(s.printed is None for s in load_layout("azul-grey").slots)


def test_azul_geometry_follows_the_measured_board():
    layout = load_layout("azul-colored")
    for r in range(5):  # every pattern line ends at x 0.481, right-aligned, rightmost space I = 0
        right = max(x for x, _ in layout[f"line.{r}.0"].polygon)
        assert right == pytest.approx(AZUL_LINES_X1, abs=0.01)
        xs = [layout[f"line.{r}.{i}"].center[0] for i in range(r + 1)]
        assert xs == sorted(xs, reverse=True)
        assert layout[f"line.{r}.0"].center[1] == pytest.approx(layout[f"wall.{r}.0"].center[1])
    wall_left = min(x for x, _ in layout["wall.0.0"].polygon)
    wall_right = max(x for x, _ in layout["wall.4.4"].polygon)
    assert wall_left == pytest.approx(0.519, abs=0.01) and wall_right == pytest.approx(0.956, abs=0.01)
    assert [layout[f"floor.{i}"].number for i in range(7)] == [-1, -1, -2, -2, -2, -3, -3]


@pytest.mark.parametrize("side", topo.SIDES)
def test_pavilion_layout_is_the_engine_topology(side):
    layout = load_layout(f"pavilion-{side}")
    for i, name in enumerate(topo.SPACE_NAMES):
        slot = layout[name]
        assert slot.number == topo.PRINTED[side][i]
        for (x, y), (tx, ty) in zip(slot.polygon, topo.space_polygon(i)):
            assert x == pytest.approx(tx, abs=1e-5) and y == pytest.approx(ty, abs=1e-5)
        star_color = topo.STAR_COLOR[i // 6]
        expected = topo.COLORS[star_color] if side == "colored" and star_color is not None else None
        assert slot.printed == expected


def test_pavilion_spaces_point_away_from_their_star():
    layout = load_layout("pavilion-colored")
    for i, name in enumerate(topo.SPACE_NAMES):
        cx, cy = topo.star_center(i // 6)
        sx, sy = layout[name].center
        angle = math.degrees(math.atan2(-(sy - cy), sx - cx))
        assert (angle - topo.space_angle(i) + 180) % 360 - 180 == pytest.approx(0, abs=0.01)


def test_rhombuses_keep_their_shape_in_millimetres():
    """A supply space on the (non-square) scoring board is a 60-degree rhombus in millimetres."""
    layout = load_layout("pavilion-scoring")
    w, h = layout.size_mm
    for slot in layout.slots:
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = slot.polygon
        long_diag = math.hypot((x2 - x0) * w, (y2 - y0) * h)
        short_diag = math.hypot((x3 - x1) * w, (y3 - y1) * h)
        assert long_diag / short_diag == pytest.approx(math.sqrt(3), rel=1e-3)


# --------------------------------------------------------------------------- user layouts


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_an_adjusted_copy_loads_from_a_file(tmp_path):
    layout = load_layout("azul-colored").scaled((0.98, 0.97), (0.004, -0.003), size_mm=(252, 248))
    path = tmp_path / "my-azul.json"
    path.write_text(layout.dumps(), encoding="utf-8")
    loaded = load_layout(path)
    assert loaded.size_mm == (252, 248)
    cx, cy = loaded["wall.2.2"].center
    ox, oy = load_layout("azul-colored")["wall.2.2"].center
    assert cx == pytest.approx((ox - 0.5) * 0.98 + 0.5 + 0.004, abs=1e-5)
    assert cy == pytest.approx((oy - 0.5) * 0.97 + 0.5 - 0.003, abs=1e-5)


@pytest.mark.parametrize("breakage, message", [
    (lambda d: d["slots"].pop(3), "missing slot line.2.0"),
    (lambda d: d["slots"][5].update(polygon=d["slots"][6]["polygon"]), "overlap"),
    (lambda d: d["slots"][0].update(polygon=[[0.1, 0.1], [1.4, 0.1], [1.4, 0.2]]), "outside the board"),
    (lambda d: d["slots"][0].update(polygon=[[0.1, 0.1]]), "slots.0.polygon is too short (at least 3 items)"),
    (lambda d: d["slots"].append({"id": "wall.9.9", "polygon": [[0, 0], [0.01, 0], [0.01, 0.01]]}), "unknown slot wall.9.9"),
    (lambda d: d.update(size_mm=[250]), "size_mm"),
    (lambda d: d.update(format="something-else"), "format must be 'azulcam-layout/1'"),
])
def test_a_broken_layout_file_says_what_and_where(tmp_path, breakage, message):
    data = json.loads(load_layout("azul-colored").dumps())
    breakage(data)
    with pytest.raises(LayoutError) as info:
        load_layout(_write(tmp_path, data))
    assert info.value.params["source"].endswith("mine.json")
    assert message in words(info.value)


def test_unknown_names_and_unreadable_files(tmp_path):
    with pytest.raises(LayoutError) as info:
        load_layout("azul-purple")
    assert (info.value.code, info.value.params["name"]) == ("layout.unknown", "'azul-purple'")
    assert words(info.value).startswith("unknown layout 'azul-purple' (shipped: azul-colored, azul-grey, ")
    with pytest.raises(LayoutError) as info:
        load_layout(tmp_path / "absent.json")
    assert info.value.code == "layout.unreadable" and words(info.value).startswith("cannot read layout ")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(LayoutError) as info:
        load_layout(bad)
    assert (info.value.code, info.value.params["line"]) == ("layout.malformed_json", 1)
    assert words(info.value).startswith(f"{bad}: malformed JSON at line 1 column 2: ")


# --------------------------------------------------------------------------- profiles


def _profile() -> dict:
    return {"format": "azulcam-profile/1", "game": "azul", "image_size": [1920, 1080],
            "boards": [{"player": 0, "layout": "azul-colored", "corners": [[412, 610], [905, 598], [915, 1002], [405, 1010]]},
                       {"player": 1, "layout": "azul-colored", "corners": [[912, 110], [1405, 98], [1415, 502], [905, 510]]}],
            "scoring_board": None, "colors": None}


def test_profile_round_trip_and_homography():
    profile = Profile.from_json(_profile())
    assert Profile.from_json(profile.to_json()) == profile
    h = board_homography(profile.board(0).corners)
    corners = to_image(h, [[0, 0], [1, 0], [1, 1], [0, 1]])
    assert corners.ravel().tolist() == pytest.approx(sum(_profile()["boards"][0]["corners"], []))


@pytest.mark.parametrize("breakage, message", [
    (lambda d: d.update(game="chess"), "game must be"),
    (lambda d: d["boards"][1].update(player=0), r"boards\.1\.player: player 0 has two boards"),
    (lambda d: d["boards"][0].update(corners=[[0, 0], [1, 1]]), r"boards\.0\.corners is too short"),
    (lambda d: d["boards"][0].update(corners=[[0, 0], [10, 10], [20, 20], [30, 30]]),
     r"boards\.0\.corners: not the outline of a convex shape"),
    (lambda d: d.update(image_size=[0, 5]), r"image_size\.0 must be above 0"),
])
def test_a_broken_profile_names_the_field(breakage, message):
    data = _profile()
    breakage(data)
    with pytest.raises(ProfileError) as info:
        Profile.from_json(data)
    assert re.search(message, words(info.value)), words(info.value)
