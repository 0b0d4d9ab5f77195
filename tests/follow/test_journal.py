"""The journal: what was committed comes back after a kill, and a damaged one is named."""

import json
from pathlib import Path

import pytest

from azulcam.engine.record import Game, Record
from azulcam.follow.journal import Journal, JournalError, read_journal
from azulcam.i18n.words import words

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"


def _journal(path: Path, events: int) -> list[dict]:
    truth = Record.load(RECORD)
    game = Game.new(truth.game, truth.players, truth.options, truth.start_player)
    journal = Journal.create(path, game, [(10.0, 20.0), (30.0, 40.0)])
    for k, event in enumerate(truth.events[:events]):
        game.apply(event)
        journal.append({"event": event, "frame": 10 * k})
    journal.close()
    return truth.events[:events]


def test_a_journal_gives_back_the_game_the_displays_and_the_last_frame(tmp_path):
    events = _journal(tmp_path / "j", 6)
    kept = read_journal(tmp_path / "j")
    assert kept.game.record.events == events and kept.frame == 50
    assert kept.displays == [(10.0, 20.0), (30.0, 40.0)]


def test_a_line_cut_short_by_a_kill_is_left_out(tmp_path):
    events = _journal(tmp_path / "j", 4)
    with (tmp_path / "j").open("a") as f:
        f.write('{"event": {"player": 1, "mo')
    assert read_journal(tmp_path / "j").game.record.events == events


def test_an_undo_takes_the_last_event_back(tmp_path):
    events = _journal(tmp_path / "j", 4)
    with (tmp_path / "j").open("a") as f:
        f.write(json.dumps({"undo": True}) + "\n")
    assert read_journal(tmp_path / "j").game.record.events == events[:3]


@pytest.mark.parametrize("damage, code, message", [
    ("not json\n", "journal.not_json", "line 7: not JSON"),
    (json.dumps({"event": {"player": 0, "move": {"action": "take", "source": 0, "color": "red", "line": 9}}}) + "\n",
     "journal.bad_line", "line 7: event.move.line must be at most 4"),
    (json.dumps({"colour": "red"}) + "\n", "journal.bad_line", "line 7: colour is not a known field"),
    ('{"frame": ' + "9" * 5000 + "}\n", "journal.not_json", "line 7: not JSON"),  # more digits than Python reads
    ("[" * 100_000 + "]" * 100_000 + "\n", "journal.not_json", "line 7: not JSON"),  # nested deeper than Python reads
])
def test_a_damaged_journal_is_named_with_its_line(tmp_path, damage, code, message):
    _journal(tmp_path / "j", 4)
    with (tmp_path / "j").open("a") as f:
        f.write(damage + json.dumps({"displays": []}) + "\n")
    with pytest.raises(JournalError) as refused:
        read_journal(tmp_path / "j")
    assert refused.value.code == code and refused.value.params["path"] == str(tmp_path / "j")
    assert refused.value.params["line"] == 7 and message in words(refused.value)
    assert message not in words(refused.value, "fr")  # "ligne 7": the user's language


def test_a_file_that_is_no_journal_says_so(tmp_path):
    (tmp_path / "j").write_text('{"format": "azulcam-record/1"}\n')
    with pytest.raises(JournalError) as refused:
        read_journal(tmp_path / "j")
    assert refused.value.code == "journal.not_a_journal" and refused.value.params["format"] == "azulcam-journal/1"
    assert words(refused.value) == f"{tmp_path / 'j'} is not an azulcam-journal/1 journal (its first line names no such format)"


def test_the_game_to_follow_is_the_journal_s_or_a_new_one(tmp_path):
    from azulcam.follow.journal import game_to_follow

    events = _journal(tmp_path / "j", 3)
    options = {"wall": "colored", "jokers": False}
    kept, resumed = game_to_follow(tmp_path / "j", "azul", 2, options, new=False)
    assert resumed and kept.game.record.events == events
    fresh, resumed = game_to_follow(tmp_path / "j", "azul", 2, options, new=True)
    assert not resumed and fresh.game.record.events == [] and fresh.frame == -1
    assert not game_to_follow(tmp_path / "none", "azul", 2, options, new=False)[1]
    with pytest.raises(JournalError) as refused:
        game_to_follow(tmp_path / "j", "pavilion", 2, {"side": "colored"}, new=False)
    assert refused.value.code == "journal.other_game"
    assert (refused.value.params["kept_game"], refused.value.params["game"]) == ("azul", "pavilion")


def test_a_write_that_fails_leaves_the_old_file_and_nothing_beside_it(tmp_path, monkeypatch):
    import errno
    import os

    import pytest

    from azulcam.follow.journal import write_atomically

    path = tmp_path / "game.json"
    path.write_text("old", encoding="utf-8")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, "new")
    assert path.read_text(encoding="utf-8") == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_control_line_that_cannot_be_read_is_passed_on_to_be_refused():
    import io
    import queue

    from azulcam.follow.watch import read_controls

    into: queue.Queue = queue.Queue()
    lines = ['{"undo": true}\n', '{"join": ' + "9" * 5000 + "}\n", "[" * 100_000 + "\n", "not json\n"]
    read_controls(io.StringIO("".join(lines)), into).join(5)
    got = [into.get_nowait() for _ in range(into.qsize())]
    assert got[0] == {"undo": True} and all(isinstance(g, str) for g in got[1:]) and len(got) == 4
