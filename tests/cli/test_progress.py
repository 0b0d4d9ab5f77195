"""The progress line of long jobs: what a terminal and a log see, with a fake clock; and
``azulcam render --video`` reporting its frames."""

from __future__ import annotations

import io
from pathlib import Path

from azulcam.engine.record import Record
from azulcam.synth import video
from support.cli import run as run_cli

from azulcam.progress import Progress, format_duration, progress

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def screen(stream: Terminal) -> list[str]:
    """What a terminal shows: each ``\\r`` starts its line again."""
    return [line.rsplit("\r", 1)[-1].rstrip() for line in stream.getvalue().split("\n")]


def test_durations_read_easily():
    assert [format_duration(s) for s in (0, 3.21, 42.44, 61, 3599.6, 7620)] == \
        ["0.0 s", "3.2 s", "42.4 s", "1 min 01 s", "1 h 00 min", "2 h 07 min"]
    assert format_duration(26.6, exact=False) == "27 s"


def test_a_terminal_sees_one_line_rewritten_with_the_time_to_go():
    clock, tty = Clock(), Terminal()
    with Progress(120, "frames", tty, clock=clock, columns=200) as bar:
        bar.update(0)
        assert screen(tty) == ["frames: 0/120 (0%), 0.0 s elapsed"]  # no time to go before the first step
        clock.now += 12.4
        bar.update(37)
        assert screen(tty) == ["frames: 37/120 (31%), 12.4 s elapsed, about 28 s to go"]
        clock.now += 0.1
        bar.advance()  # under min_interval: not drawn again
        assert screen(tty) == ["frames: 37/120 (31%), 12.4 s elapsed, about 28 s to go"]
        clock.now += 0.5
        bar.advance(82)
        assert bar.done == 120
    assert tty.getvalue().endswith("\n") and tty.getvalue().count("\n") == 1
    assert screen(tty) == ["frames: 120/120 (100%), done in 13.0 s", ""]


def test_a_shorter_line_wipes_the_longer_one_and_notes_keep_it_whole(capsys):
    clock, tty = Clock(), Terminal()
    bar = Progress(None, "scenes", tty, clock=clock, columns=200)  # no total: no share, no time to go
    clock.now += 3
    bar.update(5)
    line = tty.getvalue()
    assert line == "\rscenes: 5, 3.0 s elapsed"
    bar.note("epoch 1: loss 0.3")
    assert capsys.readouterr().out == "epoch 1: loss 0.3\n"
    assert tty.getvalue().startswith(line + "\r" + " " * (len(line) - 1) + "\r")
    bar.what = "s"
    clock.now += 1
    bar.update(6)
    assert tty.getvalue().endswith("\rs: 6, 4.0 s elapsed" + " " * (len(line) - len("\rs: 6, 4.0 s elapsed")))
    bar.close()
    bar.close()  # once only
    assert screen(tty)[-2:] == ["s: 6, done in 4.0 s", ""]


def test_a_log_gets_a_line_every_ten_seconds_and_a_last_one():
    clock, log = Clock(), io.StringIO()
    with Progress(800, "training batches", log, clock=clock) as bar:
        for _ in range(800):
            clock.now += 0.0625  # 50 s in all
            bar.advance()
    lines = log.getvalue().splitlines()
    assert len(lines) == 5 and "\r" not in log.getvalue()
    assert lines[0] == "training batches: 160/800 (20%), 10.0 s elapsed, about 40 s to go"
    assert lines[3].startswith("training batches: 640/800 (80%), 40.0 s elapsed")
    assert lines[-1] == "training batches: 800/800 (100%), done in 50.0 s"


def test_a_short_job_logs_one_line_and_a_stopped_one_says_so():
    clock, log = Clock(), io.StringIO()
    for _ in progress(range(4), "images", stream=log, clock=clock):
        clock.now += 1
    assert log.getvalue() == "images: 4/4 (100%), done in 4.0 s\n"
    log = io.StringIO()
    for n in progress(range(4), "images", stream=log, clock=clock):
        if n == 2:
            break
    assert log.getvalue() == "images: 2/4 (50%), stopped after 0.0 s\n"


def test_silence_when_quiet_or_there_is_nothing_to_do(capsys):
    clock = Clock()
    for options in ({"total": 10, "quiet": True}, {"total": 0}):
        for stream in (Terminal(), io.StringIO()):
            with Progress(options["total"], "x", stream, quiet=options.get("quiet", False), clock=clock) as bar:
                for _ in range(10):
                    clock.now += 20
                    bar.advance()
                bar.note("kept")
            assert stream.getvalue() == ""
    assert capsys.readouterr().out == "kept\n" * 4
    stream = Terminal()
    Progress(10, "never started", stream, clock=clock).close()
    assert stream.getvalue() == ""


def test_the_frame_count_up_front_is_the_frames_drawn(monkeypatch):
    # Not drawn: the count must follow which events move tiles (a hand) and which do not (still).
    monkeypatch.setattr(video._Shot, "frame", lambda self, table, hand, event, phase, count: video.Frame(None, {}))
    for name in ("azul-2p-colored.json", "pavilion-4p-grey.json"):
        record = Record.load(RECORDS / name)
        for first, last in ((0, None), (0, 0), (7, 30)):
            assert video.frame_count(record, first, last) == sum(1 for _ in video.frames(record, 0, (64, 36), first, last))


def test_render_a_video_reports_its_frames(tmp_path, capsys):
    out = tmp_path / "game.mp4"
    code, _, err = run_cli(["render", str(RECORDS / "azul-2p-colored.json"), "--video", str(out), "--events", "0:2",
                            "--size", "160x90"], capsys)
    assert code == 0, err
    count = len((tmp_path / "game.jsonl").read_text().splitlines())
    assert count == video.frame_count(Record.load(RECORDS / "azul-2p-colored.json"), 0, 2)
    first, second = err.splitlines()
    assert first.startswith(f"video frames: {count}/{count} (100%), done in ")
    assert second.startswith(f"{count} frames -> {out}")


def test_write_video_calls_back_with_each_frame(tmp_path):
    record = Record.load(RECORDS / "azul-2p-colored.json")
    calls = []
    _, _, count = video.write_video(record, tmp_path / "v.mp4", size=(160, 90), last=0,
                                    on_frame=lambda done, total: calls.append((done, total)))
    assert calls == [(n, count) for n in range(count + 1)]


def test_a_narrow_terminal_gets_a_cut_line():
    tty = Terminal()
    bar = Progress(5, "a rather long description of the work", tty, clock=Clock(), columns=20)
    bar.update(1)
    assert tty.getvalue() == "\ra rather long descr"
