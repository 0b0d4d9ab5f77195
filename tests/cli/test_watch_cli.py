"""``azulcam watch`` end to end on a rendered game video: the record, the event stream, the
journal that lets a killed watch resume the same game, and clear errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import pytest

from azulcam.engine.observe import observation_of
from azulcam.engine.record import Game, Record, replay
from azulcam.synth.video import write_video
from support.cli import assert_one_line_error, run

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "azul-2p-colored.json"
EVENTS = 5  # the deal and four moves


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A video of the first events of a game, and a profile calibrated on its first frame with
    the boards' corners given (``calibrate --board ... --bare``)."""
    folder = tmp_path_factory.mktemp("watch")
    record = Record.load(RECORD)
    video, sidecar, _ = write_video(record, folder / "game.mp4", seed=2, size=(960, 540), last=EVENTS - 1)
    truth = [json.loads(line) for line in sidecar.read_text().splitlines()]
    ok, first = cv2.VideoCapture(str(video)).read()
    assert ok
    cv2.imwrite(str(folder / "start.png"), first)
    corners = [",".join(f"{v:.1f}" for xy in b["corners"] for v in xy) for b in truth[0]["profile"]["boards"]]
    from azulcam.cli import main

    assert main(["calibrate", str(folder / "start.png"), "--game", "azul", "--players", "2", "--board", corners[0],
                 "--board", corners[1], "--bare", "--out", str(folder / "profile.json")]) == 0
    return folder, record, truth


def _same_table(record: Record, truth_observation: dict) -> None:
    seen = observation_of(Game(record).state)
    assert [b["slots"] for b in seen["boards"]] == [b["slots"] for b in truth_observation["boards"]]
    assert seen["center"] == truth_observation["center"]
    assert sorted(sorted(f["tiles"]) for f in seen["factories"]) == sorted(sorted(f["tiles"]) for f in truth_observation["factories"])


def test_watch_follows_the_game_into_its_record_and_event_stream(table, tmp_path, capsys):
    folder, record, truth = table
    out = tmp_path / "game.json"
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", str(folder / "profile.json"),
                        "--out", str(out), "--events", str(tmp_path / "events.jsonl")], capsys)
    assert code == 0, err
    got = Record.load(out)
    assert len(got.events) == EVENTS and got.start_player == record.start_player
    assert [e.get("player") for e in got.events] == [e.get("player") for e in record.events[:EVENTS]]
    _same_table(got, truth[-1]["observation"])
    lines = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert lines[0]["kind"] == "start" and lines[0]["format"] == "azulcam-events/1" and not lines[0]["resumed"]
    assert all({"kind", "time", "frame"} <= line.keys() for line in lines)
    kinds = Counter(line["kind"] for line in lines)
    assert kinds["chance"] == 1 and kinds["move"] == EVENTS - 1 and kinds["state"] >= 1 and not kinds["alert"]
    assert f"{EVENTS} events, game not over" in err


def test_a_watch_killed_mid_game_resumes_the_same_game(table, tmp_path, capsys):
    folder, _, _ = table
    args = ["watch", str(folder / "game.mp4"), "--profile", str(folder / "profile.json"), "--out", str(tmp_path / "g.json")]
    assert run(args, capsys)[0] == 0
    whole = Record.load(tmp_path / "g.json").events
    journal = tmp_path / "g.json.journal"
    lines = journal.read_text().splitlines()
    # Killed after the third event was journalled, while the fourth was being written.
    journal.write_text("\n".join(lines[:lines.index(next(line for line in lines if '"frame"' in line)) + 3])
                       + '\n{"event": {"player"')
    code, _, err = run(args + ["--events", "-"], capsys)
    assert code == 0, err
    assert Record.load(tmp_path / "g.json").events == whole
    code, out, _ = run(args + ["--events", "-"], capsys)  # once more: nothing new to add
    assert out, (out, err)
    assert json.loads(out.splitlines()[0])["resumed"] and Record.load(tmp_path / "g.json").events == whole


def test_bad_input_is_refused_with_a_clear_message(table, tmp_path, capsys):
    folder, _, _ = table
    profile = str(folder / "profile.json")
    code, _, err = run(["watch", str(tmp_path / "none.mp4"), "--profile", profile], capsys)
    assert code == 1 and "no camera, stream, video or folder of images" in err
    (tmp_path / "g.json.journal").write_text("not a journal\n{}\n")
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", profile, "--out", str(tmp_path / "g.json")], capsys)
    assert code == 1 and "g.json.journal" in err and "--new" in err


class ReplayedCamera:
    """A live camera replaying a video at 10 frames a second, shared by every device the source
    opens: a drop-out after frame ``drop_at`` (``drop_for`` reads fail, the frames go by unseen),
    then a reopen; ``ended`` once the video is over."""

    def __init__(self, path: Path, drop_at: int, drop_for: int) -> None:
        import threading

        self.capture = cv2.VideoCapture(str(path))
        self.sent, self.drop_at, self.drop_for = 0, drop_at, drop_for
        self.ended = threading.Event()

    def device(self) -> "ReplayedCamera.Device":
        return ReplayedCamera.Device(self)

    class Device:
        def __init__(self, camera: "ReplayedCamera") -> None:
            self.camera = camera

        def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
            return not self.camera.ended.is_set()

        def read(self):
            import time

            camera = self.camera
            time.sleep(0.1)
            ok, image = camera.capture.read()
            if not ok:
                camera.ended.set()
                return False, None
            camera.sent += 1
            if camera.drop_at <= camera.sent < camera.drop_at + camera.drop_for:
                return False, None  # the frame goes by while the camera is out
            return True, image

        def release(self) -> None:
            pass


def test_a_live_camera_that_drops_out_is_reopened_and_the_game_goes_on(table):
    import threading

    from azulcam.calibration.profile import Profile
    from azulcam.vision.analyze import default_locator
    from azulcam.vision.bare import load_bare_boards
    from azulcam.follow.capture import LiveSource
    from azulcam.vision.classify import default_classifier
    from azulcam.follow.watch import Watcher, resumed_tracker, watch

    folder, record, truth = table
    profile = Profile.from_json(json.loads((folder / "profile.json").read_text()))
    camera = ReplayedCamera(folder / "game.mp4", drop_at=30, drop_for=6)  # out during the second move's reach
    said: list[dict] = []
    heard: list[tuple] = []
    source = LiveSource(camera.device, "camera 7", lambda *notice: heard.append(notice), delays=(0.05,))
    watcher = Watcher(profile, default_classifier(), resumed_tracker(Game.new("azul", 2, record.options), [], profile),
                      said.append, default_locator()[0], load_bare_boards(profile.boards, folder))
    runner = threading.Thread(target=watch, args=(source, watcher))
    runner.start()
    assert camera.ended.wait(60)
    source.close()
    runner.join(10)
    assert heard and heard[0] == ("capture.lost", {"source": "camera 7"}) and heard[1][0] == "capture.back"
    got = watcher.tracker.game.record
    assert len(got.events) == EVENTS and not [s for s in said if s["kind"] == "alert"]
    _same_table(got, truth[-1]["observation"])


def test_watch_joins_a_game_under_way(table, tmp_path, capsys):
    """A camera started in round 2: the game is taken up from the first still view and followed."""
    folder, record, _ = table
    states = [step.state.copy() for step in replay(record)]
    k = next(k for k in range(14, len(states)) if states[k].current_player >= 0 and states[k].to_json()["phase"] == "offer")
    video, sidecar, _ = write_video(record, tmp_path / "joined.mp4", seed=2, size=(960, 540), first=k, last=k + 3)
    joined = states[k]
    code, _, err = run(["watch", str(video), "--profile", str(folder / "profile.json"), "--out", str(tmp_path / "g.json"),
                        "--join", f"{joined.round}:{','.join(map(str, joined.scores()))}"], capsys)
    assert code == 0, err
    got = Record.load(tmp_path / "g.json")
    assert "position" in got.events[0] and got.events[0]["position"]["round"] == joined.round
    assert got.events[1:] == record.events[k + 1:k + 4]
    assert got.start_player == joined.current_player
    truth = [json.loads(line) for line in sidecar.read_text().splitlines()]
    _same_table(got, truth[-1]["observation"])
    assert Game(got).state.scores() == states[k + 3].scores()


@pytest.mark.parametrize("join, message", [("x", "expected ROUND:SCORES"), ("0:1,2", "a round from 1"),
                                           ("2:1", "2 scores of 0 or more")])
def test_a_join_that_cannot_be_is_refused(table, capsys, join, message):
    folder, _, _ = table
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", str(folder / "profile.json"), "--join", join], capsys)
    assert code == 1 and message in err


def test_a_join_that_cannot_be_is_refused_in_the_users_language(table, capsys, monkeypatch):
    folder, _, _ = table
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", str(folder / "profile.json"), "--join", "x"], capsys)
    assert code == 1 and assert_one_line_error(err) == (
        "azulcam watch: error: --join 'x' : TOUR:SCORES attendu, par exemple 3:12,30 (tour 3 ; un score par joueur)")


def _still(folder: Path, into: Path) -> Path:
    """A folder of one image: the video's first frame (the boards bare, before the deal)."""
    into.mkdir()
    (into / "frame-000.png").write_bytes((folder / "start.png").read_bytes())
    return into


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_profile_that_does_not_match_the_view_is_refused_unless_forced(table, tmp_path, capsys):
    folder, _, _ = table
    grey = json.loads((folder / "profile.json").read_text())
    grey["options"]["wall"] = "grey"
    for board in grey["boards"]:
        board["layout"] = "azul-grey"
        (tmp_path / board["bare"]["image"]).write_bytes((folder / board["bare"]["image"]).read_bytes())
    (tmp_path / "grey.json").write_text(json.dumps(grey))
    still = _still(folder, tmp_path / "still")
    before = _files(tmp_path)
    args = ["watch", str(still), "--profile", str(tmp_path / "grey.json"), "--out", str(tmp_path / "g.json"),
            "--events", str(tmp_path / "events.jsonl")]
    code, _, err = run(args, capsys)
    line = assert_one_line_error(err)
    assert code == 1 and f"{still} does not match the profile" in line and "azul-grey" in line and "--force" in line
    assert _files(tmp_path) == before  # no journal, record or events file left behind
    code, _, err = run(args + ["--force"], capsys)
    # Followed all the same, a still of the game's start commits nothing: no watch passes for one that followed a game.
    assert code == 1 and "does not match" in err and (tmp_path / "g.json.journal").exists()
    assert "Traceback" not in err and "committed nothing" in err.strip().splitlines()[-1]


def test_a_profile_of_another_game_is_refused_at_the_first_frame_and_a_watch_that_commits_nothing_exits_1(
        table, tmp_path, capsys):
    folder, _, _ = table
    other = json.loads((folder / "profile.json").read_text())
    other.update(game="pavilion", options={"side": "colored"},
                 scoring_board={"layout": "pavilion-scoring", "corners": [[20, 20], [200, 20], [200, 140], [20, 140]]})
    for board in other["boards"]:
        board["layout"] = "pavilion-colored"
        board.pop("bare", None)
        board["corners"] = [[x + 150, y] for x, y in board["corners"]]  # not where the Azul boards lie
    (tmp_path / "pavilion.json").write_text(json.dumps(other))
    args = ["watch", str(folder / "game.mp4"), "--profile", str(tmp_path / "pavilion.json"), "--out", str(tmp_path / "p.json")]
    code, _, err = run(args, capsys)
    line = assert_one_line_error(err)
    assert code == 1 and "does not match the profile" in line and "pavilion-colored" in line
    code, _, err = run(args + ["--force"], capsys)
    assert code == 1 and "committed nothing in" in err.strip().splitlines()[-1]


def test_an_out_file_that_is_no_watchs_record_is_not_replaced_unless_forced(table, tmp_path, capsys):
    folder, _, _ = table
    still = _still(folder, tmp_path / "still")
    mine = tmp_path / "notes.json"
    mine.write_text("my own notes\n")
    args = ["watch", str(still), "--profile", str(folder / "profile.json"), "--out", str(mine)]
    code, _, err = run(args, capsys)
    line = assert_one_line_error(err)
    assert code == 1 and str(mine) in line and "would be replaced" in line and "--force replaces it" in line
    assert mine.read_text() == "my own notes\n" and not (tmp_path / "notes.json.journal").exists()
    code, _, err = run(args + ["--force"], capsys)
    assert code == 1 and "committed nothing" in err.strip().splitlines()[-1]  # a still of the start: nothing to follow
    assert Record.load(mine).events == [] and (tmp_path / "notes.json.journal").exists()


def test_a_resumed_watch_rewrites_its_record_from_the_journal_at_once(table, tmp_path, capsys):
    """Killed between the journal's write and the record's: the record was an event behind."""
    from azulcam.follow.journal import Journal

    folder, record, _ = table
    game = Game.new("azul", 2, record.options, record.start_player)
    for event in record.events[:3]:
        game.apply(event)
    Journal.create(tmp_path / "g.json.journal", game, frame=10**6).close()  # every frame of the folder seen
    behind = Game.new("azul", 2, record.options, record.start_player)
    for event in record.events[:2]:
        behind.apply(event)
    (tmp_path / "g.json").write_text(behind.record.dumps())
    code, _, err = run(["watch", str(_still(folder, tmp_path / "still")), "--profile", str(folder / "profile.json"),
                        "--out", str(tmp_path / "g.json")], capsys)
    assert code == 1 and "committed nothing in 0 frames" in err.strip().splitlines()[-1]  # no frame after the journal's
    assert "3 events" in err and Record.load(tmp_path / "g.json").events == record.events[:3]


@pytest.mark.parametrize("where", ["missing", "read-only"])
def test_an_out_that_cannot_be_written_is_refused_before_any_frame(table, tmp_path, capsys, where):
    import os

    folder, _, _ = table
    if where == "missing":
        out, reason = tmp_path / "nowhere" / "g.json", "no such folder"
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        (tmp_path / "locked").mkdir(mode=0o500)
        out, reason = tmp_path / "locked" / "g.json", "Permission denied"
    code, _, err = run(["watch", str(_still(folder, tmp_path / "still")), "--profile", str(folder / "profile.json"),
                        "--out", str(out)], capsys)
    line = assert_one_line_error(err)
    assert code == 1 and f"cannot write {out}: {reason}" in line
    assert not out.parent.exists() or not list(out.parent.iterdir())
    if where == "missing":
        code, _, err = run(["watch", str(tmp_path / "still"), "--profile", str(folder / "profile.json"),
                            "--out", str(out), "--lang", "fr"], capsys)
        assert code == 1 and f"impossible d'écrire {out} : ce dossier n'existe pas" in assert_one_line_error(err)


@pytest.mark.parametrize("players, options, message", [(3, {"wall": "colored", "jokers": False}, "another game"),
                                                       (2, {"wall": "grey", "jokers": False}, "grey wall")])
def test_a_journal_of_another_game_than_the_profiles_is_refused(table, tmp_path, capsys, players, options, message):
    from azulcam.follow.journal import Journal

    folder, _, _ = table
    Journal.create(tmp_path / "g.json.journal", Game.new("azul", players, options)).close()
    before = _files(tmp_path)
    code, _, err = run(["watch", str(_still(folder, tmp_path / "still")), "--profile", str(folder / "profile.json"),
                        "--out", str(tmp_path / "g.json")], capsys)
    line = assert_one_line_error(err)
    assert code == 1 and "g.json.journal" in line and message in line and "--new" in line
    assert _files(tmp_path) == before


def test_a_watch_that_ends_on_a_lost_game_exits_1_naming_where(table, tmp_path, capsys, monkeypatch):
    from azulcam.follow.track import Tracker

    folder, _, _ = table
    lost = {"after": 3, "frame": 41, "code": "follow.unexplained",
            "params": {"zones": [{"zone": "boards.0.line.0.0", "read": None, "expected": "red"}]}}
    monkeypatch.setattr(Tracker, "lost", lambda self: lost)  # the source ends on a table nothing explains
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", str(folder / "profile.json"),
                        "--out", str(tmp_path / "g.json")], capsys)
    line = err.strip().splitlines()[-1]
    assert code == 1 and "lost the game after event 3 (frame 41)" in line
    assert "Player 1, pattern line 1, space 1 from the right: the camera sees nothing where the game has a red tile" in line
    assert (tmp_path / "g.json").exists()  # the record as far as it was followed
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", str(folder / "profile.json"),
                        "--out", str(tmp_path / "g.json"), "--new", "--lang", "fr"], capsys)
    line = err.strip().splitlines()[-1]
    assert code == 1 and line.startswith("azulcam watch: error: partie perdue après l'événement 3 (image 41) : ")


def test_a_watch_keeps_what_the_game_taught_of_this_table_s_tiles_beside_the_profile(table, tmp_path, capsys):
    import shutil

    folder, _, _ = table
    for f in folder.iterdir():
        if f.suffix in (".json", ".png") and f.name != "start.png":
            shutil.copy(f, tmp_path / f.name)
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", str(tmp_path / "profile.json"),
                        "--out", str(tmp_path / "g.json")], capsys)
    assert code == 0, err
    kept = json.loads((tmp_path / "profile.memory.json").read_text())
    assert kept["format"] == "azulcam-table-memory/1" and sum(map(len, kept["references"].values())) >= 4
    # Every board space the game settled is kept as this table's example (no layer refitted on them).
    assert kept["settled"] >= 20 and len(kept["examples"]["settled"]["labels"]) >= 20 and kept["heads"] == {}
    assert sum(sum(read.values()) for read in kept["confusion"]["settled"].values()) >= kept["settled"]  # every one counted
    assert sum(n for named in kept["mixups"].values() for n in named.values()) >= 4  # the readings the game named
    (tmp_path / "profile.memory.json").write_text("{")
    code, _, err = run(["watch", str(folder / "game.mp4"), "--profile", str(tmp_path / "profile.json"),
                        "--out", str(tmp_path / "h.json")], capsys)
    assert code == 1 and "profile.memory.json: not a table memory" in err
    assert (tmp_path / "profile.memory.json").read_text() == "{"  # never dropped


def test_two_moves_with_one_frame_between_their_hands_are_seen_apart(table, tmp_path, capsys):
    # The sixth move's hand leaves as the seventh's comes in, one frame apart (synth.video's fast
    # table): no still view shows the table between them, the frame between the hands does.
    folder, record, _ = table
    video, _, _ = write_video(record, tmp_path / "fast.mp4", seed=2, size=(960, 540), last=6)
    code, _, err = run(["watch", str(video), "--profile", str(folder / "profile.json"), "--out", str(tmp_path / "g.json"),
                        "--events", str(tmp_path / "events.jsonl")], capsys)
    assert code == 0, err
    got = Record.load(tmp_path / "g.json").events
    assert got[1:] == record.events[1:7]
    moves = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    moves = [m for m in moves if m["kind"] == "move"]
    assert moves[-2]["frame"] < moves[-1]["frame"]


def test_a_still_table_held_back_by_something_at_the_edge_is_read_when_the_video_ends(table):
    """The last move's still frames all show something at the picture's edge (the still gate's
    hand wait holds them back): the source ends before the wait does, and the table is read then."""
    from azulcam.calibration.profile import Profile
    from azulcam.follow.capture import VideoSource
    from azulcam.follow.watch import HAND_WAIT, Watcher, resumed_tracker, watch
    from azulcam.vision.analyze import default_locator
    from azulcam.vision.bare import load_bare_boards
    from azulcam.vision.classify import default_classifier

    folder, record, truth = table
    profile = Profile.from_json(json.loads((folder / "profile.json").read_text()))
    last_still = [t["frame"] for t in truth if t["phase"] == "still" and t["event"] == EVENTS - 1]
    assert (len(last_still) - 1) / 10.0 < HAND_WAIT  # 10 frames a second: the wait outlasts the video
    watcher = Watcher(profile, default_classifier(), resumed_tracker(Game.new("azul", 2, record.options), [], profile),
                      lambda e: None, default_locator()[0], load_bare_boards(profile.boards, folder))
    fed = watcher.feed
    current = [0]

    def feed(frame):
        current[0] = frame.index
        fed(frame)

    watcher.feed = feed  # type: ignore[method-assign]
    watcher.gate.hand_in_view = lambda *_: current[0] >= last_still[0]  # type: ignore[method-assign]
    watch(VideoSource(folder / "game.mp4"), watcher)
    got = watcher.tracker.game.record
    assert len(got.events) == EVENTS
    _same_table(got, truth[-1]["observation"])


def test_a_table_a_hand_came_and_went_over_is_read_though_the_still_gate_saw_no_change(table):
    """One tile taken from a crowded centre to a crowded hand may change nothing the still gate's
    small copy tells: the gate made blind after the first view, every move is still read."""
    from azulcam.calibration.profile import Profile
    from azulcam.follow.capture import VideoSource
    from azulcam.follow.watch import Watcher, resumed_tracker, watch
    from azulcam.vision.analyze import default_locator
    from azulcam.vision.bare import load_bare_boards
    from azulcam.vision.classify import default_classifier

    folder, record, truth = table
    profile = Profile.from_json(json.loads((folder / "profile.json").read_text()))
    watcher = Watcher(profile, default_classifier(), resumed_tracker(Game.new("azul", 2, record.options), [], profile),
                      lambda e: None, default_locator()[0], load_bare_boards(profile.boards, folder))
    changed = watcher.gate.changed
    watcher.gate.changed = lambda: changed() and not watcher.spent["reads"]  # type: ignore[method-assign]
    watch(VideoSource(folder / "game.mp4"), watcher)
    got = watcher.tracker.game.record
    assert len(got.events) == EVENTS
    _same_table(got, truth[-1]["observation"])


def test_a_watch_that_took_the_game_up_again_by_itself_exits_1_naming_the_position(table, tmp_path, capsys):
    """The camera sees the deal, then nothing until the table stands still sixteen events later:
    the watch takes the game up again from the table, and since the moves it replaced were never
    seen and its scores are the ones kept, its record is no game followed: exit 1, naming where."""
    from azulcam.engine.notice import Notice
    from azulcam.i18n.words import words

    folder, record, truth = table
    later, sidecar, _ = write_video(record, tmp_path / "later.mp4", seed=2, size=(960, 540), first=16, last=16)
    phases = [json.loads(line)["phase"] for line in sidecar.read_text().splitlines()]
    frames = tmp_path / "frames"
    frames.mkdir()
    n = 0
    capture = cv2.VideoCapture(str(folder / "game.mp4"))
    for seen in truth:  # the table until the deal lies still on it
        ok, image = capture.read()
        assert ok
        if seen["event"] > 0:
            break
        cv2.imwrite(str(frames / f"frame-{n:03d}.png"), image)
        n += 1
    capture = cv2.VideoCapture(str(later))
    still = [image for phase in phases for ok, image in [capture.read()] if ok and phase == "still"][-1]
    for _ in range(24):  # twelve seconds at two frames a second: past the eight the watch waits
        cv2.imwrite(str(frames / f"frame-{n:03d}.png"), still)
        n += 1
    code, _, err = run(["watch", str(frames), "--fps", "2", "--profile", str(folder / "profile.json"),
                        "--out", str(tmp_path / "g.json")], capsys)
    line = err.strip().splitlines()[-1]
    assert code == 1 and "the record takes the game up again from the table at event 1 (round 1)" in line, err
    got = Record.load(tmp_path / "g.json")  # the record is kept as it stands, marked
    assert got.events[1].get("resynchronised") is True
    said = words(Notice("follow.record_resynchronised", event=1, round=1), "fr")
    assert said.startswith("l'enregistrement reprend la partie depuis la table à l'événement 1 (tour 1)")


def test_a_table_held_back_by_something_at_the_edge_at_every_move_is_read_all_the_same_and_said(table):
    """Something lies across the picture's edge from the deal on (a sleeve the still gate takes for
    an arm), and each move leaves the table still for less than the hand wait: the watch reads it
    all the same past UNREAD_AFTER of still views held back, says so, and follows the game."""
    import numpy as np

    from azulcam.calibration.profile import Profile
    from azulcam.follow.capture import VideoSource
    from azulcam.follow.watch import HAND_WAIT, UNREAD_AFTER, Watcher, resumed_tracker, watch
    from azulcam.vision.analyze import default_locator
    from azulcam.vision.bare import load_bare_boards
    from azulcam.vision.classify import default_classifier

    folder, record, truth = table
    stills = Counter(t["event"] for t in truth if t["phase"] == "still")
    assert max(stills.values()) / 10.0 <= HAND_WAIT and len(truth) / 10.0 > 2 * UNREAD_AFTER
    profile = Profile.from_json(json.loads((folder / "profile.json").read_text()))
    said: list[dict] = []
    watcher = Watcher(profile, default_classifier(), resumed_tracker(Game.new("azul", 2, record.options), [], profile),
                      said.append, default_locator()[0], load_bare_boards(profile.boards, folder))
    arms = watcher.gate.arms

    def sleeve(*args):
        out = arms(*args)
        if watcher.spent["reads"]:  # after the first view read, something always lies at the edge
            out = np.zeros(watcher.gate.current.shape[:2], bool)
            out[0, 0] = True
        return out

    watcher.gate.arms = sleeve  # type: ignore[method-assign]
    watch(VideoSource(folder / "game.mp4"), watcher)
    alerts = [e for e in said if e["kind"] == "alert" and e["code"] == "follow.read_past_the_edge"]
    assert alerts and all(a["params"]["seconds"] >= UNREAD_AFTER for a in alerts)
    got = watcher.tracker.game.record
    assert len(got.events) == EVENTS
    _same_table(got, truth[-1]["observation"])


def test_a_game_started_on_a_table_already_dealt_takes_that_deal_as_its_first_event(table, tmp_path, capsys):
    """Players often deal before they start the watch: calibrated and started on the dealt table
    (boards bare, every display full), the deal it shows is the game's first event, and the game
    is followed from it."""
    folder, record, truth = table
    frames = tmp_path / "frames"
    frames.mkdir()
    capture, n, dealt = cv2.VideoCapture(str(folder / "game.mp4")), 0, False
    for seen in truth:
        ok, image = capture.read()
        assert ok
        dealt = dealt or (seen["event"] == 0 and seen["phase"] == "still")
        if dealt:
            cv2.imwrite(str(frames / f"frame-{n:03d}.png"), image)
            n += 1
    corners = [",".join(f"{v:.1f}" for xy in b["corners"] for v in xy) for b in truth[0]["profile"]["boards"]]
    code, _, err = run(["calibrate", str(frames / "frame-000.png"), "--game", "azul", "--players", "2", "--board", corners[0],
                        "--board", corners[1], "--bare", "--out", str(tmp_path / "profile.json")], capsys)
    assert code == 0, err
    code, _, err = run(["watch", str(frames), "--profile", str(tmp_path / "profile.json"), "--out", str(tmp_path / "g.json")],
                       capsys)
    assert code == 0, err
    got = Record.load(tmp_path / "g.json")
    assert "deal" in got.events[0] and len(got.events) == EVENTS
    _same_table(got, truth[-1]["observation"])
