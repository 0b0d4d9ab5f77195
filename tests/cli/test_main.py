"""The azulcam command line: help, exit codes, play/score round trip, errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from azulcam.cli import main


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["score", "--help"], ["demo", "--help"]])
def test_every_command_has_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 0
    assert "usage: azulcam" in capsys.readouterr().out


def test_python_m_azulcam_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "azulcam", "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "score" in done.stdout


@pytest.mark.parametrize("argv", [[], ["play"], ["score"], ["play", "--seed", "x", "--out", "f"], ["frobnicate"]])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    assert code == 2
    assert "usage: azulcam" in capsys.readouterr().err


@pytest.mark.parametrize("game_args", [["--game", "azul", "--players", "3", "--wall", "grey", "--jokers"],
                                       ["--game", "pavilion", "--side", "grey", "--players", "2"]])
def test_play_then_score(game_args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    assert main(["play", *game_args, "--seed", "9", "--out", str(out)]) == 0
    again = tmp_path / "again.json"
    assert main(["play", *game_args, "--seed", "9", "--out", str(again)]) == 0
    assert out.read_bytes() == again.read_bytes()
    capsys.readouterr()
    assert main(["score", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["format"] == "azulcam-score/1"
    assert [r["round"] for r in report["rounds"]] == list(range(1, len(report["rounds"]) + 1))
    assert report["final"] == [sum(part.values()) for part in report["breakdown"]]
    assert report["winners"] and all(report["final"][w] == max(report["final"]) for w in report["winners"])


def _bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    return err


def test_score_errors_name_what_and_where(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot read record" in _bad_input(["score", str(tmp_path / "missing.json")], capsys)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ')
    assert "malformed JSON at line 1" in _bad_input(["score", str(broken)], capsys)
    game = tmp_path / "game.json"
    assert main(["play", "--seed", "3", "--out", str(game)]) == 0
    capsys.readouterr()
    record = json.loads(game.read_text())
    record["events"][2]["move"]["color"] = "purple"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert "event 2: unknown colour 'purple'" in _bad_input(["score", str(bad)], capsys)
    record["events"][2]["player"] = 0
    record["events"][2]["move"]["color"] = "blue"
    bad.write_text(json.dumps(record))
    assert "event 2: player 0 moved, but player 1 is to move" in _bad_input(["score", str(bad)], capsys)


def test_option_of_the_other_game_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _bad_input(["play", "--game", "pavilion", "--wall", "grey", "--seed", "1", "--out", str(tmp_path / "g.json")], capsys)
    assert "--wall and --jokers are Azul options" in err


def test_demo_prints_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["over"] and report["game"] == "azul" and len(report["final"]) == 2
