"""Corrections to a watched game: journalled, written to the record, announced; refused ones
change nothing."""

import json

from azulcam.engine.record import Record
from azulcam.follow.explain import exact_view
from azulcam.follow.journal import Journal, read_journal
from azulcam.follow.follower import Follower
from azulcam.follow.watch import event_line

from support.tracking import started


def _watched(tracker, folder):
    """A follower of ``tracker``'s game with its journal and record in ``folder``, and what it says."""
    said: list[dict] = []
    journal = Journal.create(folder / "g.json.journal", tracker.game, tracker.displays.places, 30)
    return Follower(tracker, said.append, journal=journal, record_path=folder / "g.json"), said


def test_corrections_are_journalled_recorded_and_announced(tmp_path):
    truth, tracker, _ = started()
    watcher, said = _watched(tracker, tmp_path)
    kept = list(tracker.game.record.events)
    watcher.correct({"undo": True})
    assert [s["kind"] for s in said] == ["undo", "state"] and said[0]["event"] == kept[-1]
    assert Record.load(tmp_path / "g.json").events == kept[:-1] == read_journal(tmp_path / "g.json.journal").game.record.events
    said.clear()
    watcher.correct({"replace": {"player": 1, "move": {"action": "take", "source": 0, "color": "black", "line": 9}}})
    watcher.correct("not a correction")
    watcher.correct({"overrule": {"zone": "boards.0.line.0.0"}})
    assert [s["kind"] for s in said] == ["refused"] * 3
    assert all(s["code"] == "follow.refused" for s in said)
    assert [s["params"]["reason"] for s in said] == ["invalid.less_than_equal", "invalid.model_type",
                                                          "invalid.missing"]
    assert read_journal(tmp_path / "g.json.journal").game.record.events == kept[:-1]  # nothing changed
    said.clear()
    watcher.correct({"replace": {"player": 0, "move": {"action": "take", "source": 8, "color": "blue", "line": 0}}})
    refused = said[0]["params"]
    assert refused["reason"] == "follow.illegal" and set(refused["params"]["reason"]) == {"code", "params"}
    assert json.loads(event_line(said[0])) == said[0]  # the engine's error, as the stream's JSON holds it
    assert read_journal(tmp_path / "g.json.journal").game.record.events == kept[:-1]
    said.clear()
    watcher.correct({"replace": kept[-2]})  # the last but one event, again: a replacement the rules accept
    assert [s["kind"] for s in said] == ["undo", "move", "state"] and said[1]["corrected"]
    lines = [json.loads(line) for line in (tmp_path / "g.json.journal").read_text().splitlines()]
    assert lines[-1]["corrected"] and read_journal(tmp_path / "g.json.journal").game.record.events == kept[:-1]


def test_a_lost_game_is_taken_up_again_from_the_table_as_it_stands(tmp_path):
    truth, tracker, states = started()
    watcher, said = _watched(tracker, tmp_path)
    kept = list(tracker.game.record.events)
    ahead = next(k for k in range(12, len(states)) if states[k].current_player >= 0)  # eight events unseen
    watcher.see(exact_view(states[ahead], 4.0))
    assert said == [] and not tracker.game.record.events[-1:] == [truth.events[ahead - 1]]
    watcher.correct({"join": {"round": 0}})
    assert said[-1]["kind"] == "refused" and said[-1]["params"]["params"]["field"] == "join.round"
    said.clear()
    watcher.correct({"join": {"scores": [1, 2, 3]}})
    assert said[-1]["kind"] == "refused" and said[-1]["params"] == {"reason": "follow.bad_scores",
                                                                    "params": {"players": 2, "scores": "[1, 2, 3]"}}
    said.clear()
    watcher.correct({"join": {"round": states[ahead].round, "scores": states[ahead].scores()}})  # a round later
    assert [s["kind"] for s in said if s["kind"] != "uncertain"] == ["position", "state"]
    events = read_journal(tmp_path / "g.json.journal").game.record.events
    assert "position" in events[-1] and events == Record.load(tmp_path / "g.json").events
    assert events[:-1] == kept and len(kept) == 3
    watcher.see(exact_view(states[ahead + 1], 5.0))  # the next move: who is to move is found
    assert tracker.game.record.events[-1]["player"] == truth.events[ahead]["player"]
    assert tracker.game.record.events[-1]["move"]["color"] == truth.events[ahead]["move"]["color"]
    assert tracker.game.state.scores() == states[ahead + 1].scores()
