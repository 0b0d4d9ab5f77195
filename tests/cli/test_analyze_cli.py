"""``azulcam analyze`` and ``azulcam calibrate``: a rendered photo read into an observation,
checked by the rules engine, and clear errors for a corrupt image, a wrong profile or a profile
of another game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import run as run_cli

from azulcam.vision.evaluate import compare

SCENES = Path(__file__).resolve().parents[2] / "fixtures" / "scenes"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_cli(argv, capsys)


def _scene(name: str, tmp_path: Path) -> tuple[Path, Path, dict]:
    truth = json.loads((SCENES / name / "scene-000.json").read_text())
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps(truth["profile"]))
    return SCENES / name / "scene-000.jpg", profile, truth


def test_analyze_prints_an_observation_with_the_check(tmp_path, capsys):
    image, profile, truth = _scene("azul-colored", tmp_path)
    code, out, err = run(["analyze", str(image), "--profile", str(profile), "--check"], capsys)
    assert code == 0, err
    seen = json.loads(out)
    assert seen["format"] == "azulcam-observation/1" and seen["game"] == "azul"
    assert [b["player"] for b in seen["boards"]] == [0, 1]
    assert set(seen["check"]) == {"possible", "problems"}
    score = compare(seen, truth)  # every slot, empty ones too, hidden ones excluded
    assert score.slots > 80 and score.slot_errors <= 0.03 * score.slots, score


@pytest.mark.parametrize("breakage, message", [
    ("corrupt", "not an image OpenCV can decode"),
    ("other-game", "is not a Summer Pavilion player board"),
    ("bad-profile", "boards must list"),
    ("other-size", "another shape"),
])
def test_analyze_bad_input_exits_one(breakage, message, tmp_path, capsys):
    image, profile, truth = _scene("azul-grey", tmp_path)
    data = dict(truth["profile"])
    if breakage == "corrupt":
        bad = tmp_path / "broken.jpg"
        bad.write_bytes(image.read_bytes()[:200])
        image = bad
    elif breakage == "other-game":
        data["game"] = "pavilion"
        data.pop("options")  # one game's options or the other's: let the boards' layouts tell
    elif breakage == "bad-profile":
        data["boards"] = []
    elif breakage == "other-size":
        data["image_size"] = [1000, 1000]
    profile.write_text(json.dumps(data))
    code, out, err = run(["analyze", str(image), "--profile", str(profile)], capsys)
    assert code == 1 and message in err and out == "" and "Traceback" not in err


def test_calibrate_by_hand_writes_a_profile_that_analyze_reads(tmp_path, capsys):
    image, _, truth = _scene("azul-colored", tmp_path)
    boards = [",".join(f"{v:.1f}" for p in b["corners"] for v in p) for b in truth["profile"]["boards"]]
    out = tmp_path / "mine.json"
    code, _, err = run(["calibrate", str(image), "--game", "azul", "--players", "2",
                        "--board", boards[0], "--board", boards[1], "--out", str(out)], capsys)
    assert code == 0, err
    profile = json.loads(out.read_text())
    assert profile["format"] == "azulcam-profile/1" and len(profile["boards"]) == 2
    code, _, err = run(["analyze", str(image), "--profile", str(out)], capsys)
    assert code == 0, err
    code, _, err = run(["calibrate", str(image), "--game", "azul", "--players", "2", "--board", boards[0]], capsys)
    assert code == 1 and "--board given 1 times for 2 players" in err
    code, _, err = run(["calibrate", str(image), "--game", "azul", "--players", "2", "--board", "1,2,3"], capsys)
    assert code == 2
