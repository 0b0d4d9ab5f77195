"""``azulcam render``: still images with their truth files, videos with their sidecar, the same
seed giving the same bytes, and clear errors for bad requests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.cli import run as run_cli

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_cli(["render", *argv], capsys)


def test_render_writes_images_and_truth_and_repeats_itself(tmp_path, capsys):
    argv = [str(RECORD), "--at", "25", "--count", "2", "--seed", "4", "--size", "320x180"]
    assert run(argv + ["--out", str(tmp_path / "a")], capsys)[0] == 0
    assert run(argv + ["--out", str(tmp_path / "b")], capsys)[0] == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["scene-000.jpg", "scene-000.json", "scene-001.jpg", "scene-001.json"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    truth = json.loads((tmp_path / "a" / "scene-001.json").read_text())
    assert truth["format"] == "azulcam-scene/1" and truth["image"] == "scene-001.jpg"
    assert truth["at"] == 25 and truth["seed"] == [4, 1]
    assert truth["observation"]["format"] == "azulcam-observation/1"
    assert truth["profile"]["image_size"] == [320, 180]
    assert (tmp_path / "a" / "scene-000.jpg").read_bytes() != (tmp_path / "a" / "scene-001.jpg").read_bytes()
    assert truth["family"] == "classic" and truth["profile"]["options"] == {"wall": "colored", "jokers": False}
    assert run(argv + ["--family", "bright", "--out", str(tmp_path / "c")], capsys)[0] == 0
    bright = json.loads((tmp_path / "c" / "scene-001.json").read_text())
    assert bright["family"] == "bright" and bright["observation"] == truth["observation"]
    assert (tmp_path / "c" / "scene-001.jpg").read_bytes() != (tmp_path / "a" / "scene-001.jpg").read_bytes()


def test_render_a_video(tmp_path, capsys):
    out = tmp_path / "game.mp4"
    code, _, err = run([str(RECORD), "--video", str(out), "--events", "0:1", "--size", "320x180"], capsys)
    assert code == 0, err
    assert out.stat().st_size > 0
    lines = (tmp_path / "game.jsonl").read_text().splitlines()
    assert f"{len(lines)} frames" in err
    assert {json.loads(line)["family"] for line in lines} == {"classic"}


@pytest.mark.parametrize("extra, message", [
    (["--at", "9999", "--out", "x"], "--at 9999: the record has"),
    (["--at", "-1", "--out", "x"], "--at -1: the record has"),
    ([], "say where the images go with --out DIR"),
    (["--video", "v.mp4", "--at", "3"], "--video draws the whole game"),
    (["--out", "x", "--count", "0"], "--count must be at least 1"),
])
def test_render_bad_requests_exit_one(extra, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run([str(RECORD)] + extra, capsys)
    assert code == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("extra", [["--size", "12"], ["--size", "wide"], ["--events", "a:b"], ["--framing", "tight"]])
def test_render_usage_errors_exit_two(extra, tmp_path, capsys):
    code, _, err = run([str(RECORD), "--out", str(tmp_path)] + extra, capsys)
    assert code == 2 and "usage:" in err


def test_render_a_bad_record_names_the_event(tmp_path, capsys):
    data = json.loads(RECORD.read_text())
    data["events"][3]["move"]["color"] = "purple"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, _, err = run([str(bad), "--out", str(tmp_path / "o")], capsys)
    assert code == 1 and "events.3.move.color must be one of 'blue'" in err
    code, _, err = run([str(tmp_path / "absent.json"), "--out", str(tmp_path / "o")], capsys)
    assert code == 1 and "cannot read record" in err
