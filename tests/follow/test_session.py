"""One way to open a watch: its table's memory, the profile checked at the first frame, and why a
watch that committed nothing says so."""

from __future__ import annotations

import json

import pytest

from azulcam.calibration.profile import Profile
from azulcam.engine.games import AZUL
from azulcam.engine.record import Game
from azulcam.follow.explain import exact_view
from azulcam.follow.mixups import Mixups
from azulcam.follow.session import WatchConfig, check_first_view, nothing_committed, open_watcher, table_path_of
from azulcam.follow.track import Refused
from azulcam.follow.watch import save_table
from azulcam.vision.memory import TableMemory
from azulcam.engine.notice import Notice
from azulcam.i18n.words import words
from azulcam.synth.render import SceneOptions, render_state
from azulcam.vision.references import TileReferences

OPTIONS = {"wall": "colored", "jokers": False}


@pytest.fixture(scope="module")
def start():
    """A photo of a two-player Azul table at a game's start, and its true profile."""
    state = AZUL.new(2, OPTIONS, 0)
    scene = render_state(state, (7, 1), SceneOptions(size=(960, 540), hands=0.0, clutter=0.0))
    return scene.image, Profile.from_json({**scene.truth["profile"], "options": OPTIONS})


def test_a_watch_opens_with_what_earlier_games_taught_of_this_table(start, tmp_path):
    _, profile = start
    kept = table_path_of(tmp_path / "table.json")
    assert kept == tmp_path / "table.memory.json"
    save_table(kept, TableMemory("azul", references=TileReferences({"red": [[1.0] * 9] * 3})),
               Mixups({"black": __import__("collections").Counter(blue=4)}))
    config = WatchConfig.beside(profile, tmp_path / "table.json")
    watcher = open_watcher(config, Game.new("azul", 2, OPTIONS), [], lambda e: None, None, None, None)
    assert watcher.tracker.mixups.named == {"black": {"blue": 4}} and watcher.table.knows(["red"]) == ["red"]
    kept.write_text("{not json")
    with pytest.raises(Refused) as refused:
        open_watcher(config, Game.new("azul", 2, OPTIONS), [], lambda e: None, None, None, None)
    assert refused.value.code == "follow.table_memory" and str(kept) in words(refused.value)
    with pytest.raises(ValueError):  # the configuration takes what it names, nothing else
        WatchConfig(profile=profile, camera=0)


def test_the_first_frame_refuses_a_profile_of_another_game_or_of_boards_elsewhere(start):
    image, profile = start
    assert check_first_view(image, profile) == ([], None)
    other = json.loads(json.dumps(profile.to_json()))
    other.update(game="pavilion", options={"side": "colored"},
                 scoring_board={"layout": "pavilion-scoring", "corners": [[10, 10], [150, 10], [150, 100], [10, 100]]})
    for board in other["boards"]:
        board["layout"] = "pavilion-colored"
        board["corners"] = [[x + 180, y + 40] for x, y in board["corners"]]
    elsewhere = Profile.from_json(other)
    with pytest.raises(Refused) as refused:
        check_first_view(image, elsewhere)
    assert refused.value.code == "follow.profile_mismatch" and "pavilion-colored" in words(refused.value)
    warnings, mismatch = check_first_view(image, elsewhere, force=True)
    assert "pavilion-colored" in words(Notice("follow.profile_mismatch", reason=mismatch))  # the reader's error, worded


def test_a_watch_that_committed_nothing_says_why(start):
    _, profile = start
    game = Game.new("azul", 2, OPTIONS)
    watcher = open_watcher(WatchConfig(profile=profile), game, [], lambda e: None, None, None, None)
    assert nothing_committed(watcher, 0, False) == ("follow.nothing_read", {"frames": 0})
    watcher.spent.update(frames=40, reads=3)
    state = game.state
    watcher.tracker.see(exact_view(state, 0.0))
    assert nothing_committed(watcher, 0, False) == ("follow.nothing_changed", {"frames": 40, "reads": 3})
    assert nothing_committed(watcher, 0, True) is None  # a game taken up over: nothing was left to follow
    watcher.tracker.game.apply({"deal": {"factories": [["red"] * 4] * 5}})
    assert nothing_committed(watcher, 0, False) is None
