"""The synthetic table renderer: each image's truth is the engine state at that event, the same
seed gives the same bytes, the profile and the drawn tiles agree, and what hands and clutter
hide is listed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from expected_truth import TOTALS, expected_view, seen_view, tiles_in_view

from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import Profile, board_homography, to_image
from azulcam.engine.record import Record, replay
from azulcam.synth import art
from azulcam.synth.camera import ViewRanges
from azulcam.synth.render import SceneOptions, kelvin_to_bgr, render_state

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"
SMALL = SceneOptions(size=(480, 270))


def states_along(name: str, points: int = 4) -> list[tuple[int, object]]:
    """``points`` positions spread over a fixture game, with how many events led to each."""
    record = Record.load(RECORDS / name)
    steps = [(0, record.new_state())] + [(s.index + 1, s.state.copy()) for s in replay(record)]
    picks = np.linspace(0, len(steps) - 1, points).round().astype(int)
    return [steps[i] for i in picks]


def bag_and_discards(state) -> int:
    data = state.to_json()
    return sum(data["bag"].values()) + sum(data.get("lid", data.get("tower", {})).values())


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*.json") if not p.name.endswith(".score.json")))
def test_truth_is_the_engine_state_at_that_event(name):
    for at, state in states_along(name):
        scene = render_state(state, (3, at), SMALL)
        obs = scene.truth["observation"]
        assert obs["format"] == "azulcam-observation/1" and obs["game"] == state.game
        assert seen_view(obs) == expected_view(state), f"{name} after {at} events"
        # every tile is accounted for: on the table, in the bag or among the discards
        assert tiles_in_view(obs) + bag_and_discards(state) == TOTALS[state.game]
        assert len(obs["factories"]) == {2: 5, 3: 7, 4: 9}[state.players]  # empty displays are listed too
        profile = Profile.from_json(scene.truth["profile"])  # a valid azulcam-profile/1
        assert [b.player for b in profile.boards] == list(range(state.players))
        assert (profile.scoring_board is not None) == (state.game == "pavilion")


def test_same_seed_same_bytes_other_seed_other_image():
    (_, state), = states_along("azul-4p-colored-jokers.json", 1)[-1:]
    a = render_state(state, 11, SMALL)
    b = render_state(state, 11, SMALL)
    c = render_state(state, 12, SMALL)
    assert a.jpeg == b.jpeg and a.truth == b.truth
    assert a.jpeg != c.jpeg
    assert a.image.shape == (270, 480, 3)


def _reference_colours(game: str) -> dict[str, np.ndarray]:
    kinds = art.AZUL_TILES if game == "azul" else art.PAVILION_TILES
    out = {}
    for kind in kinds:
        sprite, _ = art.tile_sprite(game, kind, 48)
        inside = sprite[..., 3] > 200
        out[kind] = sprite[..., :3][inside].reshape(-1, 3).astype(float).mean(0)
    return out


@pytest.mark.parametrize("name, at", [("azul-2p-grey-jokers.json", -30), ("pavilion-2p-colored.json", -60)])
def test_tiles_are_drawn_where_the_truth_says(name, at):
    """Clean light, no lens distortion, seen from above: the profile's board corners and the
    layout put every occupied slot on a tile of the colour the truth names (a reader that trusts
    the truth reads the image right)."""
    record = Record.load(RECORDS / name)
    states = [s.state.copy() for s in replay(record)]
    state = states[at]
    options = SceneOptions(size=(1280, 720), clean=True,
                           view=ViewRanges(elevation=(86, 90), tile_px=(34, 34), k1=(0.0, 0.0), framing="free"))
    refs = _reference_colours(state.game)
    checked = wrong = 0
    for seed in range(2):
        scene = render_state(state, seed, options)
        image = scene.image.astype(float)
        hidden = {h["zone"] for h in scene.truth["hidden"]}
        for board in scene.truth["profile"]["boards"]:
            layout = load_layout(board["layout"])
            h = board_homography(board["corners"])
            slots = scene.truth["observation"]["boards"][board["player"]]["slots"]
            for slot_id, kind in slots.items():
                if f"boards.{board['player']}.{slot_id}" in hidden or kind == "first_player":
                    continue
                u, v = to_image(h, [layout[slot_id].center])[0]
                patch = image[int(v) - 10:int(v) + 11, int(u) - 10:int(u) + 11].reshape(-1, 3).mean(0)  # most of a tile
                # a mean colour cannot always tell a joker's gold star from a white tile: the truth
                # must name one of the two nearest kinds, and no empty or misplaced slot passes that
                nearest = sorted(refs, key=lambda k: np.linalg.norm(refs[k] - patch))[:2]
                checked += 1
                wrong += kind not in nearest
    assert checked >= 15
    assert wrong <= checked * 0.02, f"{wrong} of {checked} slots show another colour"


def test_the_whole_table_in_view_hides_nothing_and_a_close_view_says_what_is_out_of_frame():
    (_, state), = states_along("azul-2p-colored.json", 2)[-1:]
    whole = render_state(state, 1, SceneOptions(size=(1280, 720), clean=True,
                                                 view=ViewRanges(tile_px=(12, 14), framing="fit")))
    assert whole.truth["hidden"] == []
    close = render_state(state, 1, SceneOptions(size=(640, 360), clean=True,
                                                 view=ViewRanges(tile_px=(60, 60), framing="free")))
    hidden = close.truth["hidden"]
    assert hidden and {h["by"] for h in hidden} == {"frame"}
    # a zone listed as out of frame really projects outside the image
    zones = {h["zone"] for h in hidden}
    assert any(z.startswith("boards.") for z in zones)


def test_hands_and_clutter_hide_what_they_cover():
    (_, state), = states_along("pavilion-4p-grey.json", 3)[1:2]
    options = SceneOptions(size=(960, 540), hands=1.0, clutter=1.0)
    by = set()
    for seed in range(6):
        scene = render_state(state, seed, options)
        for h in scene.truth["hidden"]:
            by.add(h["by"])
            zone = h["zone"]
            assert zone == "center" or zone.split(".")[0] in ("boards", "factories", "supply"), zone
    assert "hand" in by


def test_light_colour_runs_from_warm_to_cold():
    warm, cold = kelvin_to_bgr(2700), kelvin_to_bgr(6500)
    assert warm[2] > warm[0]  # red above blue under a tungsten bulb
    assert cold[0] / cold[2] > warm[0] / warm[2]


def test_edge_light_draws_the_ends_of_the_light_ranges_and_changes_nothing_else():
    from azulcam.synth.render import sample_look

    for seed in range(20):
        plain = sample_look(np.random.default_rng(seed), SceneOptions())
        edge = sample_look(np.random.default_rng(seed), SceneOptions(edge_light=True))
        assert edge.kelvin <= 3000 or edge.kelvin >= 6200
        assert edge.exposure <= 0.68 or edge.exposure >= 1.25
        assert 0.3 <= edge.white_balance <= 0.4
        assert (edge.texture, edge.light_dir, edge.defocus, edge.noise) == (plain.texture, plain.light_dir, plain.defocus, plain.noise)


def test_props_lie_beside_the_play_area_and_leave_other_scenes_alone():
    from azulcam.engine.record import Record, final_state
    from azulcam.synth import props

    state = final_state(Record.load(Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"))
    plain = render_state(state, (5, 1), SceneOptions(size=(320, 180)))
    with_props = render_state(state, (5, 1), SceneOptions(size=(320, 180), props=1.0))
    assert "props" not in plain.truth and with_props.truth["props"]
    assert {p["kind"] for p in with_props.truth["props"]} <= set(props.KINDS)
    assert with_props.truth["observation"] == plain.truth["observation"]  # props are no tiles
    assert render_state(state, (5, 1), SceneOptions(size=(320, 180), props=0.0)).jpeg == plain.jpeg
    rng = np.random.default_rng(0)
    for kind in props.KINDS:
        picture = props.sprite(props.Prop(kind, 0.0, 0.0, 0.0, props._size(kind, rng), 3))
        assert picture.shape[2] == 4 and picture[..., 3].max() == 255
    trivet = props.sprite(props.Prop("trivet", 0.0, 0.0, 0.0, (200.0, 200.0), 3))
    assert trivet[trivet.shape[0] // 2, trivet.shape[1] // 2, 3] == 0  # a hole in the middle: the table shows


def test_a_scene_s_camera_reads_back_from_its_truth_and_sees_points_above_the_table():
    """``Camera.from_json`` gives back the camera a truth holds; a point on a plane above the
    table, projected, is seen there again (``table_points`` with that height), not on the table."""
    from azulcam.synth.camera import Camera

    from azulcam.engine.games import GAMES

    scene = render_state(GAMES["azul"].new(2, {"wall": "colored", "jokers": False}, 0), 5,
                         SceneOptions(size=(640, 360), clean=True))
    camera = Camera.from_json(scene.truth["camera"])
    assert camera.to_json() == {k: scene.truth["camera"][k] for k in camera.to_json()}
    points = np.array([[0.0, 0.0], [40.0, -25.0], [-60.0, 30.0]])
    pixels = camera.project(np.hstack([points, np.full((3, 1), -9.0)]))
    assert np.allclose(camera.table_points(pixels, 9.0), points, atol=1e-3)
    assert not np.allclose(camera.table_points(pixels), points, atol=1.0)
