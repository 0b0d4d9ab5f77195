"""``azulcam analyze`` and ``azulcam calibrate``: a rendered photo read into an observation,
checked by the rules engine, and clear errors for a corrupt image, a wrong profile or a profile
of another game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import run as run_cli

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
    ("other-game", "boards.0.layout: azul-grey is no player board of this game"),
    ("bad-profile", "boards is too short (at least 2 items)"),
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
    code, _, err = run(["calibrate", str(image), "--game", "azul", "--players", "2", "--board", boards[0],
                        "--board", boards[1], "--scoring", boards[0], "--out", str(out)], capsys)
    assert code == 1 and "--scoring: Azul has no scoring board" in err  # no profile analyze would refuse
    code, _, err = run(["calibrate", str(image), "--game", "azul", "--players", "2", "--board", "1,2,3"], capsys)
    assert code == 2


def _rendered(family: str, seed: int, tmp_path: Path) -> tuple[Path, dict]:
    """A 1920 x 1080 table of the renderer's, saved as a photo, and its truth."""
    import random

    import cv2

    from azulcam.synth.dataset import random_position
    from azulcam.synth.render import SceneOptions, render_state

    scene = render_state(random_position(random.Random(seed)), seed, SceneOptions(size=(1920, 1080), family=family))
    photo = tmp_path / f"{family}-{seed}.png"
    cv2.imwrite(str(photo), scene.image)
    return photo, scene.truth


@pytest.mark.parametrize("family, seed", [("classic", 2), ("classic", 5), ("inked", 3)])
def test_analyze_finds_the_boards_and_their_side_without_a_profile(family, seed, tmp_path, capsys):
    """A photo nobody calibrated: the boards are found (the inked family's art no model saw
    too), their side told from their print and said, and the photo read through them."""
    photo, truth = _rendered(family, seed, tmp_path)
    profile = truth["profile"]
    side = profile["boards"][0]["layout"].split("-", 1)[1]
    code, out, err = run(["analyze", str(photo), "--game", profile["game"], "--players", str(len(profile["boards"]))], capsys)
    assert code == 0, err
    assert f"found {len(profile['boards'])} boards ({profile['game']}-{side}: the {side}" in err
    seen = json.loads(out)
    assert seen["game"] == profile["game"] and len(seen["boards"]) == len(profile["boards"])
    if family == "classic":
        # Players are numbered from the board nearest the camera, the truth by its seats.
        import cv2
        import numpy as np

        from azulcam.vision.calibrate import photo_profile

        found = photo_profile(cv2.imread(str(photo)), profile["game"], len(profile["boards"]))
        centre = lambda b: np.mean(b["corners"], axis=0)  # noqa: E731
        seat = {b["player"]: min(profile["boards"], key=lambda t: np.linalg.norm(centre(t) - centre(b)))["player"]
                for b in found["boards"]}
        for board in seen["boards"]:
            board["player"] = seat[board["player"]]
        seen["boards"].sort(key=lambda b: b["player"])
        score = compare(seen, truth)
        assert score.slot_errors <= 0.03 * score.slots, score


@pytest.mark.parametrize("argv, message", [
    (["--game", "azul"], "--game and --players"),
    (["--players", "2"], "--game and --players"),
    (["--game", "azul", "--players", "2", "--side", "grey"], "--side a Summer Pavilion one"),
    (["--game", "pavilion", "--players", "2"], "found 0 of the 2 boards"),
])
def test_analyze_without_a_profile_refuses_what_it_cannot_do(argv, message, tmp_path, capsys):
    image, _, _ = _scene("azul-grey-jokers", tmp_path)
    code, _, err = run(["analyze", str(image), *argv], capsys)
    assert code == 1 and message in err, err


def test_a_photo_of_one_board_is_read_and_says_what_is_not_in_view(tmp_path, capsys):
    """A player scoring the board before them: a photo of one board of a two-player table is
    read (that board, its slots as the truth has them), and the warning says the other board,
    the displays and the centre are not; the centre is not claimed empty."""
    import random

    import cv2
    import numpy as np

    from azulcam.synth.dataset import random_position
    from azulcam.synth.render import SceneOptions, render_state

    scene = render_state(random_position(random.Random(2)), 2, SceneOptions(size=(1920, 1080), hands=0.0))
    photo, truth = scene.image, scene.truth
    assert truth["observation"]["game"] == "azul" and len(truth["profile"]["boards"]) == 2
    corners = np.array(truth["profile"]["boards"][0]["corners"])
    margin = 0.15 * np.ptp(corners, axis=0).max()
    (x0, y0), (x1, y1) = np.maximum(corners.min(0) - margin, 0).astype(int), (corners.max(0) + margin).astype(int)
    one = tmp_path / "one-board.png"
    cv2.imwrite(str(one), photo[y0:y1, x0:x1])
    code, out, err = run(["analyze", str(one), "--game", "azul", "--players", "2", "--wall", "colored"], capsys)
    assert code == 0, err
    assert "found 1 of the 2 boards" in err
    seen = json.loads(out)
    assert [b["player"] for b in seen["boards"]] == [0] and seen["factories"] == [] and "center" in seen["uncertain"]
    assert [(w["code"], w["params"]) for w in seen["warnings"] if w["code"] == "warning.boards_in_view"] == [
        ("warning.boards_in_view", {"seen": 1, "players": 2})]
    want = truth["observation"]["boards"][0]["slots"]
    got = seen["boards"][0]["slots"]
    wrong = sum(want.get(slot) != got.get(slot) for slot in {*want, *got})
    assert wrong <= 2, (want, got)


def test_analyze_takes_the_game_from_its_profile_not_twice(tmp_path, capsys):
    image, profile, _ = _scene("azul-grey", tmp_path)
    code, _, err = run(["analyze", str(image), "--profile", str(profile), "--game", "azul"], capsys)
    assert code == 1 and "for a photo without --profile" in err


def test_analyze_scores_a_finished_game_from_its_markers_and_walls(tmp_path, capsys):
    """A photo of a finished Azul game: each score marker read on its track and the walls'
    end-of-game bonuses added give the final scores, in JSON and, worded, in French."""
    import random

    import cv2

    from azulcam.engine.players import make_player
    from azulcam.engine.record import play_game
    from azulcam.synth.render import SceneOptions, render_state

    rng = random.Random(4)
    state = play_game("azul", [make_player("greedy", rng.randrange(1 << 30)) for _ in range(2)],
                      {"wall": "colored", "jokers": False}, rng.randrange(1 << 30)).state
    scene = render_state(state, 4, SceneOptions(size=(1920, 1080), clean=True))
    image, profile = tmp_path / "final.jpg", tmp_path / "profile.json"
    cv2.imwrite(str(image), scene.image)
    profile.write_text(json.dumps(scene.truth["profile"]))
    code, out, err = run(["analyze", str(image), "--profile", str(profile)], capsys)
    assert code == 0, err
    final = json.loads(out)["final"]
    assert final["format"] == "azulcam-final/1"
    assert [e["score"] for e in final["players"]] == state.scores() and final["winners"] == state.winners()
    # Doubts may be named (a wall space read unsure); no marker is read beyond what its wall allows.
    assert all(p["code"] != "final.marker_too_far" for p in final["problems"])
    code, out, err = run(["analyze", str(image), "--profile", str(profile), "--text", "--lang", "fr"], capsys)
    assert code == 0, err
    assert "Scores finaux" in out and "Piste de score (marqueur)" in out
