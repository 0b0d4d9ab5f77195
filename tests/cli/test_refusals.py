"""A photo that does not match its settings is refused (exit 1, naming the board and the likely
cause), not read: another game, the other side, more boards than players, a board covered at
calibration. A board partly covered when reading is read, with a warning; ``--force`` reads what
it can and says what it skipped."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
import pytest

from azulcam.calibration.profile import Profile, board_homography
from azulcam.cli import main
from azulcam.vision import verify

SAMPLES = resources.files("azulcam").joinpath("samples")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def sample(name: str) -> tuple[Path, dict]:
    with resources.as_file(SAMPLES.joinpath(f"{name}.jpg")) as path:
        image = Path(path)
    return image, json.loads(SAMPLES.joinpath(f"{name}.profile.json").read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict, name: str = "profile.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def with_a_hand(image: np.ndarray, profile: dict, player: int) -> np.ndarray:
    """The photo with a skin-coloured, textured blob over the top right quarter of a player's
    board (the score track and the wall's top rows: the wall's lower rows, whose print says the
    board's side, stay in view)."""
    corners = profile["boards"][player]["corners"]
    centre = cv2.perspectiveTransform(np.array([[[0.75, 0.25]]]), board_homography(np.array(corners)))[0, 0]
    side = float(np.linalg.norm(np.subtract(corners[1], corners[0])))
    out = image.copy()
    cv2.ellipse(out, (int(centre[0]), int(centre[1])), (int(side * 0.35), int(side * 0.25)), 30, 0, 360,
                (120, 150, 200), -1)
    hand = (out != image).any(axis=2)
    noise = np.random.default_rng(0).normal(0, 6, out.shape).astype(np.int16)
    return np.where(hand[..., None], np.clip(out.astype(np.int16) + noise, 0, 255), out).astype(np.uint8)


def test_the_bundled_photos_match_their_profiles():
    for name in ("azul-4p", "pavilion-2p"):
        image_path, data = sample(name)
        image, profile = cv2.imread(str(image_path)), Profile.from_json(data)
        checks = verify.check_boards(image, [(b, b.homography) for b in profile.boards])
        assert [c.verdict for c in checks] == ["match"] * len(checks), (name, checks)
        assert not any(c.covered for c in checks), (name, checks)


def test_a_summer_pavilion_profile_on_an_azul_photo_is_refused(tmp_path, capsys):
    image, azul = sample("azul-4p")
    _, pavilion = sample("pavilion-2p")
    wrong = {**azul, "game": "pavilion", "options": {"side": "colored"}, "scoring_board": pavilion["scoring_board"],
             "boards": [{**b, "layout": "pavilion-colored"} for b in azul["boards"]]}
    code, out, err = run(["analyze", str(image), "--profile", write(tmp_path, wrong)], capsys)
    assert code == 1 and out == ""
    assert "the board of player 0 looks like an Azul board, but the profile says Summer Pavilion" in err
    assert "calibrate again" in err and "--force" in err


def test_the_grey_wall_layout_on_a_coloured_table_is_refused(tmp_path, capsys):
    image, azul = sample("azul-4p")
    grey = {**azul, "options": {"wall": "grey", "jokers": True},
            "boards": [{**b, "layout": "azul-grey"} for b in azul["boards"]]}
    code, out, err = run(["analyze", str(image), "--profile", write(tmp_path, grey)], capsys)
    assert code == 1 and out == ""
    assert "looks like the coloured side, but the profile says azul-grey" in err


def test_the_grey_side_on_a_coloured_summer_pavilion_table_is_refused(tmp_path, capsys):
    image, pavilion = sample("pavilion-2p")
    grey = {**pavilion, "options": {"side": "grey"},
            "boards": [{**b, "layout": "pavilion-grey"} for b in pavilion["boards"]]}
    code, _, err = run(["analyze", str(image), "--profile", write(tmp_path, grey)], capsys)
    assert code == 1 and "looks like the coloured side, but the profile says pavilion-grey" in err


def test_force_reads_what_matches_and_says_what_it_skipped(tmp_path, capsys):
    image, azul = sample("azul-4p")
    one_grey = {**azul, "boards": [*azul["boards"][:3], {**azul["boards"][3], "layout": "azul-grey"}]}
    # The profile itself must be consistent: one side for every board.
    code, _, err = run(["analyze", str(image), "--profile", write(tmp_path, one_grey)], capsys)
    assert code == 1 and "boards.3.layout is azul-grey, but the options say wall colored" in err
    moved = {**azul, "boards": [*azul["boards"][:3], {**azul["boards"][3], "corners": [
        [x - 1000, y - 100] for x, y in azul["boards"][3]["corners"]]}]}
    code, _, err = run(["analyze", str(image), "--profile", write(tmp_path, moved)], capsys)
    assert code == 1 and "nothing of the board of player 3's print (azul-colored)" in err
    code, out, err = run(["analyze", str(image), "--profile", write(tmp_path, moved), "--force"], capsys)
    observation = json.loads(out)
    assert code == 0 and [b["player"] for b in observation["boards"]] == [0, 1, 2]
    assert {"code": "warning.skipped", "params": {"player": 3, "reason": "reason.nothing"}} in [
        {k: w[k] for k in ("code", "params")} for w in observation["warnings"]]
    # The observation's text is the catalogue's English, as --text words it (players counted from 1).
    assert any(w["text"].startswith("the board of player 4 was skipped, as asked (--force): nothing of")
               for w in observation["warnings"])


def test_calibrate_refuses_fewer_players_than_boards(capsys):
    image, _ = sample("azul-4p")
    code, out, err = run(["calibrate", str(image), "--game", "azul", "--players", "3"], capsys)
    assert code == 1 and out == "" and "found 4 boards of azul, but --players 3" in err


def test_calibrate_writes_the_options_and_players(capsys):
    image, _ = sample("azul-4p")
    code, out, _ = run(["calibrate", str(image), "--game", "azul", "--players", "4", "--jokers"], capsys)
    profile = json.loads(out)
    assert code == 0 and profile["options"] == {"wall": "colored", "jokers": True} and profile["players"] == 4
    code, out, _ = run(["calibrate", str(image), "--game", "azul", "--players", "4", "--wall", "grey"], capsys)
    assert code == 1 and out == ""


def test_a_hand_over_a_board_is_a_warning_when_reading_and_refused_at_calibration(tmp_path, capsys):
    image_path, azul = sample("azul-4p")
    covered = tmp_path / "hand.png"
    cv2.imwrite(str(covered), with_a_hand(cv2.imread(str(image_path)), azul, 0))
    code, out, err = run(["analyze", str(covered), "--profile", write(tmp_path, azul)], capsys)
    warnings = json.loads(out)["warnings"]
    assert code == 0, err
    assert any(w["code"] == "warning.covered" and w["params"]["player"] == 0 for w in warnings), warnings
    code, out, err = run(["calibrate", str(covered), "--game", "azul", "--players", "4", "--jokers"], capsys)
    assert code == 1 and out == ""
    assert "could not confirm 1 of the 4 boards" in err and "look covered" in err
    assert err.split("confirmed: ")[1].count(" at (") == 3  # the boards it did find are named


def test_a_summer_pavilion_photo_calibrated_as_azul_is_refused(capsys):
    image, _ = sample("pavilion-2p")
    code, out, err = run(["calibrate", str(image), "--game", "azul", "--players", "2"], capsys)
    assert code == 1 and out == ""
    assert "found 0 of the 2 boards; 2 look like Summer Pavilion boards (wrong --game?)" in err
    code, out, _ = run(["calibrate", str(image), "--game", "pavilion", "--players", "2"], capsys)
    assert code == 0 and json.loads(out)["options"] == {"side": "colored"}


@pytest.mark.parametrize("out", ["/no/such/folder/game.json", "/dev/full"])
def test_an_out_that_cannot_be_written_is_a_clear_error(capsys, out):
    """A missing folder, a full disk (/dev/full): one line naming why, exit 1, never an internal error."""
    code, _, err = run(["play", "--seed", "1", "--out", out], capsys)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("azulcam play: error: "), err
    line = lines[0]
    assert code == 1 and "internal error" not in line and ("No such file" in line or "No space left" in line), line
