"""Azul's score markers read on their boards' tracks (vision/score_track.py), and the layouts' track."""

from __future__ import annotations

import random

import numpy as np
import pytest

from azulcam.calibration.layouts import Layout, LayoutError, load_layout
from azulcam.calibration.profile import board_homography
from azulcam.engine.notice import Notice
from azulcam.i18n.words import words
from azulcam.synth.dataset import random_position
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision import score_track


def _darkness(peaks: dict[int, float], middles: dict[int, float] | None = None) -> np.ndarray:
    d = np.full((101, 2), 0.03)
    for cell, value in peaks.items():
        d[cell] = value
    for cell, value in (middles or {}).items():
        d[cell, 1] = value
    return d


def test_the_darkest_cell_is_the_marker_s_where_it_stands_out():
    sure = score_track.marker_cell(_darkness({37: 0.9, 38: 0.6}))  # a neighbour its top leans over
    assert (sure.cell, sure.sure) == (37, True)
    # Both nearly as dark within their slack: the cube stands where its cell's middle is darkest.
    leaning = score_track.marker_cell(_darkness({37: 0.9, 38: 1.0}, {37: 0.9, 38: 0.3}))
    assert (leaning.cell, leaning.sure) == (37, True)
    rival = score_track.marker_cell(_darkness({37: 0.9, 60: 0.7}))  # a dark thing elsewhere
    assert (rival.cell, rival.sure) == (37, False)
    faint = score_track.marker_cell(_darkness({37: 0.3}))
    assert (faint.cell, faint.sure) == (37, False)
    assert score_track.marker_cell(_darkness({})).cell is None  # under a hand


@pytest.mark.parametrize("family", ["classic", "inked"])
def test_every_seen_marker_is_read_on_its_cell(family):
    """Tables of a family the thresholds were set on and of one drawn by another hand: corners a
    pixel off, every marker in view is read on its cell, and none is read surely anywhere else."""
    rng, nudge = random.Random(11), np.random.default_rng(0)
    read = right = 0
    for n in range(4):
        state = random_position(rng)
        while state.game != "azul":
            state = random_position(rng)
        scene = render_state(state, (11, n), SceneOptions(size=(1280, 720), clean=True, family=family))
        placements = scene.truth["profile"]["boards"]
        layouts = [load_layout(p["layout"]) for p in placements]
        homographies = [board_homography(np.asarray(p["corners"], np.float64) + nudge.normal(0, 1, (4, 2)))
                        for p in placements]
        hidden = {h["zone"] for h in scene.truth["hidden"]}
        for p, marker in zip(placements, score_track.read_markers(scene.image, homographies, layouts)):
            if f"boards.{p['player']}.score" in hidden:
                continue
            assert marker is not None
            truth = scene.truth["observation"]["boards"][p["player"]]["score"]
            assert not marker.sure or marker.cell == truth, (n, p["player"], marker.cell, truth)
            read += 1
            right += marker.sure and marker.cell == truth
    assert read >= 8 and right >= read - 1


def test_a_summer_pavilion_board_has_no_track_and_no_marker():
    layout = load_layout("pavilion-colored")
    assert layout.track == ()
    assert score_track.read_markers(np.zeros((720, 1280, 3), np.uint8), [np.eye(3) * 500], [layout]) == [None]


def test_an_azul_layout_s_track_holds_every_score_and_is_checked():
    layout = load_layout("azul-colored")
    assert len(layout.track) == 101
    data = layout.to_json()
    assert Layout.from_json(data).track == layout.track
    with pytest.raises(LayoutError) as info:
        Layout.from_json({**data, "track": data["track"][:100]})
    assert info.value.code == "layout.unusable"
    assert info.value.params["problem"] == Notice("layout.track_cells", cells=101, top=100, got=100)
    with pytest.raises(LayoutError) as info:
        Layout.from_json({**data, "track": [[1, 2]]})
    assert info.value.code == "layout.form" and words(info.value) == "layout: track.0.0 must be a list"
    pavilion = load_layout("pavilion-grey").to_json()
    with pytest.raises(LayoutError) as info:
        Layout.from_json({**pavilion, "track": data["track"]})
    assert words(info.value) == "layout: only an Azul board has a score track"
    moved = layout.scaled((1.0, 1.0), (0.01, 0.0))
    assert moved.track[5][0][0] == pytest.approx(layout.track[5][0][0] + 0.01)
