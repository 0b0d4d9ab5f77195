"""``azulcam teach``: a photo whose content the user confirmed teaches the table's memory, and
``analyze`` reads the next photo of that table with it; what cannot be taught is refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from azulcam.cli import main
from azulcam.engine.record import Record, replay
from azulcam.synth.render import SceneOptions, render_moments
from azulcam.vision.evaluate import compare

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """One strong-print table at the game's start (calibrated bare) and at two moments later."""
    record = Record.load(RECORD)
    states = [record.new_state()] + [step.state.copy() for step in replay(record)]
    scenes = render_moments([states[0], states[30], states[44]], (41, 7),
                            SceneOptions(size=(1280, 720), family="strong-print"))
    folder = tmp_path_factory.mktemp("teach")
    for name, scene in zip(("start", "taught", "other"), scenes):
        (folder / f"{name}.jpg").write_bytes(scene.jpeg)
        (folder / f"{name}.truth.json").write_text(json.dumps(scene.truth))
    truth = scenes[0].truth
    corners = [arg for b in truth["profile"]["boards"]
               for arg in ("--board", ",".join(f"{v:.1f}" for point in b["corners"] for v in point))]
    assert main(["calibrate", str(folder / "start.jpg"), "--game", "azul", "--players", "2", *corners, "--bare",
                 "--out", str(folder / "profile.json")]) == 0
    return folder


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def wrong(table: Path, name: str, capsys, *extra: str) -> int:
    code, out, err = run(["analyze", str(table / f"{name}.jpg"), "--profile", str(table / "profile.json"), *extra], capsys)
    assert code == 0, err
    return compare(json.loads(out), json.loads((table / f"{name}.truth.json").read_text())).slot_errors


def observation(table: Path, name: str) -> dict:
    return json.loads((table / f"{name}.truth.json").read_text())["observation"]


def test_a_taught_photo_makes_the_next_one_read_right(table, tmp_path, capsys):
    memory = table / "profile.memory.json"
    assert not memory.exists()
    before = wrong(table, "other", capsys)
    assert before > 0  # this printing's spaces are misread untaught
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(observation(table, "taught")))
    code, out, err = run(["teach", str(table / "taught.jpg"), "--profile", str(table / "profile.json"),
                          "--truth", str(truth)], capsys)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[-1] == f"memory: {memory}" and memory.is_file()
    assert lines[0].startswith("taught ") and "this table's memory: 1 photos" in out
    kept = json.loads(memory.read_text())
    assert kept["format"] == "azulcam-table-memory/1" and kept["game"] == "azul" and kept["photos"] == 1
    assert wrong(table, "other", capsys) < before  # analyze reads with the memory beside the profile
    # Each call adds; --forget starts over; --memory keeps another one.
    code, out, _ = run(["teach", str(table / "taught.jpg"), "--profile", str(table / "profile.json"),
                        "--truth", str(truth), "--lang", "fr"], capsys)
    assert code == 0 and "mémoire de cette table : 2 photos" in out
    elsewhere = tmp_path / "other.memory.json"
    code, out, _ = run(["teach", str(table / "taught.jpg"), "--profile", str(table / "profile.json"),
                        "--truth", str(truth), "--memory", str(elsewhere), "--forget"], capsys)
    assert code == 0 and out.strip().splitlines()[-1] == f"memory: {elsewhere}" and "1 photos" in out
    assert json.loads(memory.read_text())["photos"] == 2
    assert wrong(table, "other", capsys, "--memory", str(elsewhere)) < before


@pytest.mark.parametrize(("change", "said"), [
    (lambda o: {**o, "game": "pavilion"}, "is an observation of pavilion, but the profile is of azul"),
    (lambda o: {**o, "boards": o["boards"][:1]}, "shows 1 boards, but the profile is of 2 players"),
    (lambda o: {**o, "options": {"wall": "grey"}}, "is of a game with wall grey, but the profile's has wall colored"),
    (lambda o: {**o, "boards": [{**b, "slots": {**b["slots"], "wall.0.0": "red"}} for b in o["boards"]]},
     "cannot be a position of a legal game"),
])
def test_an_observation_that_cannot_be_this_photo_s_is_refused(table, tmp_path, capsys, change, said):
    memory = tmp_path / "m.json"
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(change(observation(table, "taught"))))
    code, out, err = run(["teach", str(table / "taught.jpg"), "--profile", str(table / "profile.json"),
                          "--truth", str(truth), "--memory", str(memory)], capsys)
    assert code == 1 and out == "" and said in err and str(truth) in err, err
    assert not memory.exists()  # nothing taught
    code, _, err = run(["teach", str(table / "taught.jpg"), "--profile", str(table / "profile.json"),
                        "--truth", str(truth), "--memory", str(memory), "--lang", "fr"], capsys)
    assert code == 1 and "error: " in err and str(truth) in err and said not in err


def test_a_photo_of_another_table_or_a_damaged_memory_is_refused(table, tmp_path, capsys):
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(observation(table, "taught")))
    flipped = tmp_path / "flipped.png"
    import cv2

    image = cv2.imread(str(table / "taught.jpg"))
    cv2.imwrite(str(flipped), np.ascontiguousarray(image[::-1, ::-1]))  # the boards are not where the profile puts them
    code, _, err = run(["teach", str(flipped), "--profile", str(table / "profile.json"), "--truth", str(truth),
                        "--memory", str(tmp_path / "m.json")], capsys)
    assert code == 1 and f"{flipped} does not match the profile" in err and not (tmp_path / "m.json").exists()
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"format": "azulcam-table-memory/1"')
    for argv in (["teach", str(table / "taught.jpg"), "--profile", str(table / "profile.json"), "--truth", str(truth)],
                 ["analyze", str(table / "taught.jpg"), "--profile", str(table / "profile.json")]):
        code, _, err = run([*argv, "--memory", str(damaged)], capsys)
        assert code == 1 and f"{damaged}: not a table memory" in err
    assert damaged.read_text() == '{"format": "azulcam-table-memory/1"'  # never dropped


def test_a_profile_on_standard_input_needs_a_memory_named(table, tmp_path, capsys, monkeypatch):
    import io

    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(observation(table, "taught")))
    monkeypatch.setattr("sys.stdin", io.StringIO((table / "profile.json").read_text()))
    code, out, err = run(["teach", str(table / "taught.jpg"), "--profile", "-", "--truth", str(truth)], capsys)
    assert code == 1 and out == "" and "give --memory PATH" in err


def test_an_observation_that_places_no_display_teaches_the_boards_and_says_what_it_left_out(table, tmp_path, capsys):
    unplaced = observation(table, "taught")
    unplaced["factories"] = [{**f, "center": None} for f in unplaced["factories"]]  # as made from a game state
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(unplaced))
    code, out, err = run(["teach", str(table / "taught.jpg"), "--profile", str(table / "profile.json"),
                          "--truth", str(truth), "--memory", str(tmp_path / "m.json")], capsys)
    assert code == 0, err
    assert "left out" in out and "factory display" in out.lower()
    assert json.loads((tmp_path / "m.json").read_text())["examples"]["slots"]["labels"]
