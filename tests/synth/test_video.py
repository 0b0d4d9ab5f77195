"""Game videos: one frame sequence per record event (hand in, tiles across, hand out), a truth
line per frame, and the truth of every settled frame equal to the engine state."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from expected_truth import expected_view, seen_view

from azulcam.engine.record import Record, replay
from azulcam.i18n.words import words
from azulcam.synth.video import CARRY, LEAVE, PAUSE, REACH, STILL, frames, write_video

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"


@pytest.mark.parametrize("name, last", [("azul-3p-grey.json", 4), ("pavilion-2p-colored.json", 5)])
def test_settled_frames_show_the_state_after_their_event(name, last):
    record = Record.load(RECORDS / name)
    before = {-1: record.new_state()}
    for step in replay(record):
        before[step.index] = step.state.copy()
        if step.index >= last:
            break
    seen_events = set()
    count = 0
    for frame in frames(record, seed=2, size=(320, 180), last=last):
        truth = frame.truth
        assert truth["frame"] == count and frame.image.shape == (180, 320, 3)
        count += 1
        event = truth["event"]
        seen_events.add(event)
        if truth["phase"] == "still":
            assert truth["applied"]
            assert seen_view(truth["observation"]) == expected_view(before[event]), f"frame {count - 1}"
        elif truth["phase"] == "reach":  # nothing has moved yet
            assert seen_view(truth["observation"]) == expected_view(before[event - 1])
    assert seen_events == set(range(-1, last + 1))


def test_a_deal_is_brought_in_by_a_hand():
    record = Record.load(RECORDS / "azul-2p-colored.json")
    shown = [f.truth for f in frames(record, seed=0, size=(320, 180), last=0)]
    phases = [t["phase"] for t in shown]
    assert phases == ["still"] * STILL + ["reach"] * REACH + ["carry"] * CARRY + ["leave"] * LEAVE + ["still"] * PAUSE
    # the factories fill only when the hand puts the tiles down
    assert all(not f["tiles"] for t in shown if t["phase"] in ("reach", "carry") for f in t["observation"]["factories"])
    assert all(len(f["tiles"]) == 4 for f in shown[-1]["observation"]["factories"])


def test_games_played_one_after_another_at_the_same_table():
    """``then``: the next game begins at the same table from its start (every tile put away), the
    frames numbered on; ``hold``: still frames more after each event."""
    full = Record.load(RECORDS / "azul-2p-colored.json")
    first = Record(full.game, full.players, full.options, full.start_player, full.events[:2])
    second = Record(full.game, full.players, full.options, full.start_player, full.events[:1])
    shown = [f.truth for f in frames(first, seed=0, size=(320, 180), then=[second], hold=3)]
    assert [t["frame"] for t in shown] == list(range(len(shown)))
    games = [t["game"] for t in shown]
    assert games == sorted(games) and set(games) == {0, 1}
    again = next(t for t in shown if t["game"] == 1)
    assert again["event"] == -1 and seen_view(again["observation"]) == expected_view(second.new_state())  # a fresh table
    alone = [f.truth for f in frames(first, seed=0, size=(320, 180))]
    assert len([t for t in shown if t["game"] == 0]) == len(alone) + 3 * len(first.events)  # held 3 frames an event
    assert "game" not in alone[0]  # a single game's truth as it always was


def test_write_video_and_sidecar(tmp_path):
    record = Record.load(RECORDS / "azul-2p-grey-jokers.json")
    out = tmp_path / "game.mp4"
    path, sidecar, count = write_video(record, out, seed=1, size=(320, 180), last=2)
    lines = sidecar.read_text(encoding="utf-8").splitlines()
    assert path == out and sidecar == tmp_path / "game.jsonl" and len(lines) == count > 0
    truth = [json.loads(line) for line in lines]
    assert [t["frame"] for t in truth] == list(range(count))
    assert {t["event"] for t in truth} == {-1, 0, 1, 2}
    video = cv2.VideoCapture(str(out))
    assert int(video.get(cv2.CAP_PROP_FRAME_COUNT)) == count
    assert (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (320, 180)
    assert video.get(cv2.CAP_PROP_FPS) == pytest.approx(10)


def test_an_unwritable_video_path_is_a_clear_error(tmp_path):
    record = Record.load(RECORDS / "azul-2p-colored.json")
    out = tmp_path / "no" / "such" / "folder" / "game.mp4"
    with pytest.raises(OSError) as refused:
        write_video(record, out, size=(320, 180), last=0)
    assert refused.value.code == "render.video_unwritable" and refused.value.params == {"path": str(out)}
    assert words(refused.value) == f"cannot write a video to {out} (is the folder there, and the name .mp4?)"


@pytest.mark.parametrize("name", ["azul-2p-grey-jokers.json", "azul-3p-grey.json", "pavilion-4p-grey.json"])
def test_a_video_is_filmed_with_player_0_s_board_lowest_in_the_image(name):
    # The seat calibrate numbers 0: the README's path gives back the record it drew, players and all.
    record = Record.load(RECORDS / name)
    for seed in range(4):
        truth = next(frames(record, seed=seed, size=(320, 180), last=0)).truth
        lows = {b["player"]: sum(y for _, y in b["corners"]) / 4 for b in truth["profile"]["boards"]}
        assert max(lows, key=lows.get) == 0, (seed, lows)
