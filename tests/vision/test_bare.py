"""A board as calibration saw it bare tells a tile from its printed space (``vision.bare``): the
renderer's same table at the game's start and later (``render_moments``), calibrated and read
through the command line, on an art family whose empty spaces are printed as strong as a tile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from azulcam.cli import main
from azulcam.engine.record import Record, replay
from azulcam.vision.evaluate import compare
from azulcam.synth.render import SceneOptions, render_moments

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """A start-of-game photo and one 40 events later of the same strong-print table, with its truth."""
    record = Record.load(RECORD)
    states = [record.new_state()] + [step.state.copy() for step in replay(record)]
    start, later = render_moments([states[0], states[40]], (11, 2), SceneOptions(size=(1280, 720), family="strong-print"))
    folder = tmp_path_factory.mktemp("bare")
    (folder / "start.jpg").write_bytes(start.jpeg)
    (folder / "later.jpg").write_bytes(later.jpeg)
    (folder / "truth.json").write_text(json.dumps(later.truth))
    assert start.truth["profile"] == later.truth["profile"]  # one table, one camera
    assert not any(b["slots"] for b in start.truth["observation"]["boards"])  # bare at the start
    return folder


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def corners(truth: dict) -> list[str]:
    return [arg for b in truth["profile"]["boards"]
            for arg in ("--board", ",".join(f"{v:.1f}" for point in b["corners"] for v in point))]


def wrong_slots(observation: dict, truth: dict) -> list[str]:
    """The board slots an observation reads otherwise than the truth."""
    def slots(o: dict) -> dict[str, str]:
        return {f"boards.{b['player']}.{s}": v for b in o["boards"] for s, v in b["slots"].items()}
    read, wanted = slots(observation), slots(truth["observation"])
    return sorted(z for z in read.keys() | wanted.keys() if read.get(z) != wanted.get(z))


def test_calibration_keeps_the_bare_boards_and_reading_uses_them(table, capsys):
    truth = json.loads((table / "truth.json").read_text())
    profile = table / "profile.json"
    code, _, err = run(["calibrate", str(table / "start.jpg"), "--game", "azul", "--players", "2", *corners(truth),
                        "--bare", "--out", str(profile)], capsys)
    assert code == 0, err
    written = json.loads(profile.read_text())
    assert [b["bare"]["image"] for b in written["boards"]] == ["profile.bare-0.png", "profile.bare-1.png"]
    assert all((table / b["bare"]["image"]).is_file() for b in written["boards"])
    without = table / "without.json"
    without.write_text(json.dumps({**written, "boards": [{k: v for k, v in b.items() if k != "bare"}
                                                           for b in written["boards"]]}))
    errors, unflagged = {}, {}
    for name, path in (("with", profile), ("without", without)):
        code, out, err = run(["analyze", str(table / "later.jpg"), "--profile", str(path)], capsys)
        assert code == 0, err
        observation = json.loads(out)
        errors[name] = compare(observation, truth).slot_errors
        unflagged[name] = [z for z in wrong_slots(observation, truth) if z not in observation["uncertain"]]
    # Beside the boards as they were bare, at most the slots wrong beside the photo's own
    # consensus of each print are wrong (which one a slot is read beside: tests/vision/test_reader.py),
    # and none of them without a flag.
    assert errors["with"] <= errors["without"] and errors["with"] <= 2 and not unflagged["with"], (errors, unflagged)


def test_a_missing_or_foreign_bare_board_is_a_clear_error(table, capsys):
    truth = json.loads((table / "truth.json").read_text())
    profile = table / "p2.json"
    assert run(["calibrate", str(table / "start.jpg"), "--game", "azul", "--players", "2", *corners(truth),
                "--bare", "--out", str(profile)], capsys)[0] == 0
    (table / "p2.bare-1.png").unlink()
    code, out, err = run(["analyze", str(table / "later.jpg"), "--profile", str(profile)], capsys)
    assert code == 1 and out == "" and "cannot read the bare board" in err and "p2.bare-1.png" in err
    (table / "p2.bare-1.png").write_bytes((table / "start.jpg").read_bytes())  # an image, of another size
    code, _, err = run(["analyze", str(table / "later.jpg"), "--profile", str(profile)], capsys)
    assert code == 1 and "p2.bare-1.png is 1280x720, not 500x500" in err


def test_bare_boards_are_kept_only_when_asked_and_only_into_files(table, capsys):
    truth = json.loads((table / "truth.json").read_text())
    code, out, _ = run(["calibrate", str(table / "later.jpg"), "--game", "azul", "--players", "2", *corners(truth)],
                       capsys)
    assert code == 0 and not any("bare" in b for b in json.loads(out)["boards"])  # a game under way: none kept
    code, out, err = run(["calibrate", str(table / "start.jpg"), "--game", "azul", "--players", "2", *corners(truth),
                          "--bare"], capsys)
    assert code == 1 and out == "" and "--bare keeps the boards' look in images beside the profile" in err

