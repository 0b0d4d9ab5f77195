"""The README's own path to following a game, as a newcomer types it: a game played by the
built-in players, drawn as a video, calibrated on the video's first frame with ``--bare``, then
watched. The record must be the game's own, whatever the variant and player count, to the game's
end: a game is lost late as often as early (a sleeve left at the picture's edge, two takes made
between two still views), and its first events never show it."""

from __future__ import annotations

import json

import pytest

from azulcam.engine.record import Record
from support.cli import run
from support.tracking import sorted_deals


@pytest.mark.parametrize("game, options, players, events", [
    ("azul", ["--wall", "grey", "--jokers"], 3, None),  # the README's own game, whole
    ("azul", ["--wall", "colored"], 4, None),
    # As far as it is followed today: from event 88 nothing explains the table until it is lost.
    ("pavilion", ["--side", "colored"], 2, 12),
])
def test_the_readme_s_commands_follow_the_game_they_drew(tmp_path, capsys, game, options, players, events):
    played, video, profile, watched = (tmp_path / n for n in ("game.json", "game.mp4", "profile.json", "watched.json"))
    code, _, err = run(["play", "--game", game, "--players", str(players), *options, "--seed", "7", "--out", str(played)], capsys)
    assert code == 0, err
    code, _, err = run(["render", str(played), "--video", str(video), *(["--events", f"0:{events - 1}"] if events else [])],
                       capsys)
    assert code == 0, err
    side = [o for o in options if o != "--jokers"]
    code, _, err = run(["calibrate", str(video), "--game", game, "--players", str(players), *side,
                        *(["--jokers"] if "--jokers" in options else []), "--bare", "--out", str(profile)], capsys)
    assert code == 0, err
    code, _, err = run(["watch", str(video), "--profile", str(profile), "--out", str(watched)], capsys)
    assert code == 0, err
    truth, got = Record.load(played), Record.load(watched)
    assert sorted_deals(got.events) == sorted_deals(truth.events[:events]) and got.start_player == truth.start_player
    assert json.loads(watched.read_text())["format"] == "azulcam-record/1"
