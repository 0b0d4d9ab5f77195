"""The README's ``watch --join ROUND:SCORES`` example: its scores are one per player of the profile
the README's ``calibrate`` line makes, and the same value joins a rendered game of that table in its
round, the record's ``position`` event carrying the scores as given."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from azulcam.engine.record import Record, replay
from support.cli import run

README = Path(__file__).resolve().parents[2] / "README.md"
SEED = "7"  # the README's seed; the game's round-3 table reads cleanly with it
MOVES = 3  # the moves rendered after the joined view: enough to show the game is followed


def _option(words: list[str], name: str) -> str:
    return words[words.index(name) + 1]


def readme_example() -> tuple[str, list[str], int, list[int]]:
    """The ``--join`` value, the game options and player count of the ``calibrate`` line above it
    that writes the profile it watches with, its round and its scores."""
    lines = [shlex.split(line, comments=True) for line in README.read_text(encoding="utf-8").splitlines()
             if line.startswith("azulcam ")]
    at = next(i for i, words in enumerate(lines) if "--join" in words)
    join, profile = _option(lines[at], "--join"), _option(lines[at], "--profile")
    calibrate = next(words for words in reversed(lines[:at])
                     if words[1] == "calibrate" and "--out" in words and _option(words, "--out") == profile)
    options = [w for i, w in enumerate(calibrate[3:], 3) if w != "--out" and calibrate[i - 1] != "--out"]
    found = re.fullmatch(r"(\d+):(\d+(?:,\d+)*)", join)
    assert found, f"README: --join {join!r} is not ROUND:SCORES"
    return join, options, int(_option(calibrate, "--players")), [int(s) for s in found.group(2).split(",")]


def test_the_readme_join_gives_one_score_per_player_of_its_profile() -> None:
    _, _, players, scores = readme_example()
    assert len(scores) == players == 4


def test_the_readme_join_takes_a_game_up_with_its_scores(tmp_path, capsys) -> None:
    join, options, players, scores = readme_example()
    round_ = int(join.split(":")[0])
    game, start, video, profile, watched = (tmp_path / n for n in ("game.json", "start.mp4", "joined.mp4", "profile.json",
                                                                   "watched.json"))
    code, _, err = run(["play", *options, "--seed", SEED, "--out", str(game)], capsys)
    assert code == 0, err
    record = Record.load(game)
    states = [step.state.copy() for step in replay(record)]  # a step's state is the one replay goes on with
    # The README's round, while tiles are being taken: when a game can be joined.
    k = next(k for k, s in enumerate(states) if s.round == round_ and s.current_player >= 0 and s.to_json()["phase"] == "offer")
    # The profile is calibrated --bare on the game's first frame, as a table is best calibrated;
    # the same camera seed draws the joined video from the same place.
    code, _, err = run(["render", str(game), "--video", str(start), "--events", "0:0"], capsys)
    assert code == 0, err
    code, _, err = run(["calibrate", str(start), *options, "--bare", "--out", str(profile)], capsys)
    assert code == 0, err
    code, _, err = run(["render", str(game), "--video", str(video), "--events", f"{k}:{k + MOVES}"], capsys)
    assert code == 0, err
    code, _, err = run(["watch", str(video), "--profile", str(profile), "--join", join, "--out", str(watched)], capsys)
    assert code == 0, err
    got = Record.load(watched)
    position = got.events[0]["position"]
    assert position["round"] == round_ and [b["score"] for b in position["boards"]] == scores
    assert len(position["boards"]) == players
    assert got.events[1:] == record.events[k + 1:k + 1 + MOVES]
