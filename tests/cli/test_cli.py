"""The ``azulcam`` command line: help, usage errors (exit 2), bad input (exit 1, one line on
stderr, no traceback), ``play`` -> ``score`` round trips and ``demo``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from azulcam.engine.record import Record, final_state
from support.cli import assert_one_line_error, run

SUBCOMMANDS = ("play", "score", "render", "layout", "calibrate", "analyze", "demo")
REPORT_KEYS = {"format", "game", "rounds", "final", "winners", "breakdown"}


def check_report(report: dict[str, Any], players: int, game: str = "azul") -> None:
    """A valid azulcam-score/1 report of a finished game."""
    assert REPORT_KEYS <= set(report)
    assert report["format"] == "azulcam-score/1"
    assert report["game"] == game
    rounds = report["rounds"]
    assert rounds, "a finished game has rounds"
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert all(len(r["scores"]) == players for r in rounds)
    assert len(report["final"]) == players and len(report["breakdown"]) == players
    assert [sum(part.values()) for part in report["breakdown"]] == report["final"]
    best = max(report["final"])
    assert report["winners"] and all(report["final"][p] == best for p in report["winners"])
    assert report["winners"] == sorted(set(report["winners"]))
    if game == "azul":
        assert all(s >= 0 for r in rounds for s in r["scores"])
        for part in report["breakdown"]:
            assert set(part) == {"placement", "penalties", "rows", "columns", "colors"}
            assert part["penalties"] <= 0 <= part["placement"]
        # The last round's scores are the final ones less the end bonuses.
        bonus = [part["rows"] + part["columns"] + part["colors"] for part in report["breakdown"]]
        assert rounds[-1]["scores"] == [f - b for f, b in zip(report["final"], bonus)]


@pytest.fixture
def record_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    code, out, err = run(["play", "--seed", "7", "--out", str(path)], capsys)
    assert code == 0, err
    return path


# --------------------------------------------------------------------------- help and usage


def test_help_as_a_module() -> None:
    done = subprocess.run([sys.executable, "-m", "azulcam", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: azulcam")
    for command in SUBCOMMANDS:
        assert command in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize("argv", [["--help"], ["-h"]] + [[c, "--help"] for c in SUBCOMMANDS], ids=str)
def test_help_exits_zero(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 0
    prog = "azulcam" if argv[0].startswith("-") else f"azulcam {argv[0]}"
    assert out.startswith(f"usage: {prog}")
    assert err == ""


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.startswith("azulcam ")


def test_no_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([], capsys)
    assert code == 2
    assert out == ""
    assert "usage: azulcam" in err


@pytest.mark.parametrize("argv", [
    ["--bogus"],
    ["frobnicate"],
    ["play", "--seed", "1", "--out", "x.json", "--bogus"],
    ["play", "--seed", "1"],  # --out is required
    ["play", "--seed", "one", "--out", "x.json"],
    ["play", "--seed", "1", "--players", "5", "--out", "x.json"],
    ["play", "--seed", "1", "--wall", "purple", "--out", "x.json"],
    ["score"],
    ["score", "a.json", "b.json"],
    ["score", "a.json", "--bogus"],
    ["demo", "--seed", "x"],
], ids=" ".join)
def test_usage_errors_exit_two(argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert "usage: azulcam" in err
    assert "error:" in err
    assert "Traceback" not in err
    assert not (tmp_path / "x.json").exists()


# --------------------------------------------------------------------------- play and score


def test_play_then_score(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Record.load(record_file)
    assert record.game == "azul" and record.player_count == 2
    assert record.options == {"wall": "colored", "jokers": False}
    code, out, err = run(["score", str(record_file)], capsys)
    assert code == 0, err
    report = json.loads(out)
    check_report(report, 2)
    state = final_state(record)
    assert state.is_over()
    assert report["final"] == state.scores()
    assert report["winners"] == state.winners()
    assert report["breakdown"] == state.breakdown()
    assert len(report["rounds"]) == state.round
    # --compact: the same report on one line.
    code, out, _ = run(["score", "--compact", str(record_file)], capsys)
    assert code == 0
    assert out.count("\n") == 1 and json.loads(out) == report


def test_play_reports_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    code, out, err = run(["play", "--seed", "11", "--out", str(path)], capsys)
    assert code == 0
    assert out == ""
    assert str(path) in err and "final scores" in err


def test_play_to_stdout_matches_the_file(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--seed", "7", "--out", "-"], capsys)
    assert code == 0
    assert out.encode("utf-8") == record_file.read_bytes()


def test_score_from_stdin(record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    code, expected, _ = run(["score", str(record_file)], capsys)
    assert code == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(record_file.read_text(encoding="utf-8")))
    code, out, err = run(["score", "-"], capsys)
    assert code == 0, err
    assert out == expected


def test_same_seed_same_record_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [tmp_path / f"{name}.json" for name in ("a", "b", "c")]
    for path, seed in zip(paths, ("42", "42", "43")):
        code, _, err = run(["play", "--seed", seed, "--players", "3", "--out", str(path)], capsys)
        assert code == 0, err
    a, b, c = (p.read_bytes() for p in paths)
    assert a == b
    assert a != c


@pytest.mark.parametrize("players", [2, 3, 4])
def test_grey_wall_and_jokers(players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "grey.json"
    code, _, err = run(["play", "--wall", "grey", "--jokers", "--players", str(players), "--seed", "5",
                        "--out", str(path)], capsys)
    assert code == 0, err
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "azulcam-record/1"
    assert data["options"] == {"wall": "grey", "jokers": True}
    assert data["players"] == players
    # The grey wall asks a wall move for every complete line.
    assert any(e.get("move", {}).get("action") == "wall" for e in data["events"])
    dealt = [t for e in data["events"] if "deal" in e for f in e["deal"]["factories"] for t in f]
    assert "joker" in dealt
    code, out, err = run(["score", str(path)], capsys)
    assert code == 0, err
    report = json.loads(out)
    check_report(report, players)
    assert report["final"] == final_state(Record.load(path)).scores()


def test_bots_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bots.json"
    code, _, err = run(["play", "--players", "4", "--bots", "random,greedy,random,greedy", "--seed", "3",
                        "--out", str(path)], capsys)
    assert code == 0, err
    code, out, _ = run(["score", str(path)], capsys)
    check_report(json.loads(out), 4)


def test_pavilion_play_then_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pavilion.json"
    code, _, err = run(["play", "--game", "pavilion", "--seed", "2", "--out", str(path)], capsys)
    assert code == 0, err
    code, out, err = run(["score", str(path)], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert REPORT_KEYS <= set(report) and report["game"] == "pavilion"
    assert [sum(part.values()) for part in report["breakdown"]] == report["final"]
    assert [r["round"] for r in report["rounds"]] == list(range(1, len(report["rounds"]) + 1))


# --------------------------------------------------------------------------- bad input: exit 1


@pytest.mark.parametrize("argv, message", [
    (["play", "--seed", "1", "--side", "grey", "--out", "OUT"], "--side is a Summer Pavilion option"),
    (["play", "--game", "pavilion", "--wall", "grey", "--seed", "1", "--out", "OUT"], "Azul options"),
    (["play", "--seed", "1", "--bots", "foo", "--out", "OUT"], "unknown player 'foo'"),
    (["play", "--seed", "1", "--bots", "random,random,random", "--out", "OUT"], "names 3 players for a 2-player game"),
    (["play", "--seed", "1", "--out", "NODIR/x.json"], "cannot write"),
], ids=lambda x: x if isinstance(x, str) else " ".join(x[:4]))
def test_play_bad_input(argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.replace("NODIR", str(tmp_path / "missing")).replace("OUT", str(tmp_path / "o.json")) for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 1
    assert message in assert_one_line_error(err)
    assert not (tmp_path / "o.json").exists()


def test_score_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    code, out, err = run(["score", str(missing)], capsys)
    assert code == 1
    assert out == ""
    line = assert_one_line_error(err)
    assert str(missing) in line and "cannot read" in line


@pytest.mark.parametrize("text, message", [
    ('{"format": "azulcam-record/1", "game": "azul", ', "malformed JSON at line 1"),
    ("", "malformed JSON"),
    ("\xff\xfe garbage", None),
    ('[1, 2, 3]', "$ must be an object"),
    ('{"format": "azulcam-record/2", "game": "azul", "players": 2, "events": []}', "format must be 'azulcam-record/1'"),
    ('{"format": "azulcam-record/1", "game": "chess", "players": 2, "events": []}', "game must be one of 'azul', 'pavilion'"),
    ('{"format": "azulcam-record/1", "game": "azul", "players": 7, "events": []}', "players must be at most 4"),
], ids=["truncated", "empty", "binary", "list", "format", "game", "players"])
def test_score_malformed_record(text: str, message: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    if text.startswith("\xff"):
        path.write_bytes(b"\xff\xfe\x00garbage")
    else:
        path.write_text(text, encoding="utf-8")
    code, out, err = run(["score", str(path)], capsys)
    assert code == 1
    assert out == ""
    line = assert_one_line_error(err)
    if message:
        assert message in line


def tamper(record_file: Path, index: int, event: Any) -> Path:
    data = json.loads(record_file.read_text(encoding="utf-8"))
    if event is None:
        del data["events"][index:]
        data["events"].append({"player": 0, "move": {"action": "take", "source": 0, "color": "blue", "line": 0}})
    else:
        data["events"][index] = event(data["events"][index]) if callable(event) else event
    out = record_file.with_name("tampered.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def first_move(events: list[dict[str, Any]]) -> int:
    return next(i for i, e in enumerate(events) if "move" in e)


@pytest.mark.parametrize("where, change, reason", [
    # Taking a colour the factory does not hold (factory 0 of the deal lacks it).
    ("move", "missing colour", "holds no"),
    ("move", "wrong player", "is to move"),
    ("move", "bad line", "move.line must be at most 4"),
    ("move", "unknown action", "move: 'action' must be one of 'take', 'wall'"),
    ("deal", "wrong tile count", "tiles"),
    ("deal", "deal instead of move", "not chance"),
    ("end", "move after the end", "already over"),
], ids=lambda x: x.replace(" ", "-"))
def test_score_bad_event_names_its_index(where: str, change: str, reason: str, record_file: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    events = Record.load(record_file).events
    if where == "move":
        index = first_move(events) + 2
        move_event = events[index]
        if change == "missing colour":
            deal = events[0]["deal"]["factories"]
            source = move_event["move"]["source"]
            assert isinstance(source, int), "seed 7: the third move takes from a factory"
            colour = next(c for c in ("blue", "yellow", "red", "black", "white") if c not in deal[source])
            event: Any = {"player": move_event["player"],
                          "move": {"action": "take", "source": source, "color": colour, "line": 0}}
        elif change == "wrong player":
            event = {"player": 1 - move_event["player"], "move": move_event["move"]}
        elif change == "bad line":
            event = {"player": move_event["player"], "move": dict(move_event["move"], line=7)}
        else:
            event = {"player": move_event["player"], "move": {"action": "jump"}}
    elif where == "deal":
        if change == "wrong tile count":
            index = 0
            deal = events[0]["deal"]["factories"]
            event = {"deal": {"factories": [f[:3] for f in deal]}}
        else:
            index = first_move(events)
            event = events[0]
    else:
        index = len(events)
        event = None
    path = tamper(record_file, index, event)
    code, out, err = run(["score", str(path)], capsys)
    assert code == 1
    assert out == ""
    line = assert_one_line_error(err)
    assert f"event {index}:" in line or f"events.{index}." in line, line  # the rules' refusal, or the form's
    assert reason in line, line


@pytest.mark.parametrize("change, message", [
    ("joker", "factory 0: 'joker' is not a tile of this game"),
    ("five tiles", "deal.factories.0 is too long (at most 4 items)"),
    ("too few factories", "the deal fills 4"),
])
def test_score_impossible_deal_says_why(change: str, message: str, record_file: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    deal = [list(f) for f in Record.load(record_file).events[0]["deal"]["factories"]]
    if change == "joker":
        deal[0][0] = "joker"
    elif change == "five tiles":
        deal[0].append(deal[1].pop())
    else:
        deal.pop()
    path = tamper(record_file, 0, {"deal": {"factories": deal}})
    code, _, err = run(["score", str(path)], capsys)
    assert code == 1
    line = assert_one_line_error(err)
    assert ("event 0:" in line or "events.0." in line) and message in line, line


def test_truncated_record_scores_without_winners(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record cut short is still a valid (unfinished) game: its report has no winners yet."""
    data = json.loads(record_file.read_text(encoding="utf-8"))
    data["events"] = data["events"][:12]
    path = record_file.with_name("short.json")
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["score", str(path)], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["winners"] == []
    assert report["over"] is False
    assert [sum(p.values()) for p in report["breakdown"]] == report["final"]


# --------------------------------------------------------------------------- demo


def _documents(text: str) -> list[dict[str, Any]]:
    decoder, out, i = json.JSONDecoder(), [], 0
    while text[i:].strip():
        doc, end = decoder.raw_decode(text, i + len(text[i:]) - len(text[i:].lstrip()))
        out.append(doc)
        i = end
    return out


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    """The main job: each game's table calibrated on its bundled start photo, then its later
    photo read, checked and summed up."""
    code, out, err = run(["demo"], capsys)
    assert code == 0, err
    docs = _documents(out)
    assert [d["sample"] for d in docs] == ["azul-4p.jpg", "pavilion-2p.jpg"]
    for doc in docs:
        assert doc["format"] == "azulcam-observation/1" and set(doc["check"]) == {"possible", "problems"}
        assert doc["factories"] and doc["boards"]
    assert err.count("demo: ") == 2 and "Traceback" not in err
    assert "calibrated on azul-4p.start.jpg" in err and "calibrated on pavilion-2p.start.jpg" in err
    # The bundled photos are read as their truth has them, but for a few slots, each of which the
    # reading says it is unsure of: never a confident wrong answer.
    from importlib import resources

    samples = resources.files("azulcam").joinpath("samples")
    for doc in docs:
        truth = json.loads(samples.joinpath(doc["sample"].replace(".jpg", ".truth.json")).read_text())["observation"]
        wrong = [f"boards.{b['player']}.{k}" for b, t in zip(doc["boards"], truth["boards"])
                 for k in set(b["slots"]) | set(t["slots"]) if b["slots"].get(k) != t["slots"].get(k)]
        assert len(wrong) <= 4 and set(wrong) <= set(doc["uncertain"]), (doc["sample"], wrong)
    assert "everything as the truth has it" in err, err
    for right, of in re.findall(r"factories right (\d+) of (\d+)", err):
        assert right == of, err
    code, again, _ = run(["demo"], capsys)
    assert again == out  # the same photos read the same way every time
