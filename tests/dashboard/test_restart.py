"""``azulcam serve --demo`` killed with SIGKILL during the game and started again: no committed
move is lost, and the game goes on in the same history entry."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _state(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as reply:
            return json.loads(reply.read())
    except OSError:
        return None


def _serve(data: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "azulcam", "serve", "--demo", "--data", str(data), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def _until(port: int, events: int, process: subprocess.Popen, limit: float = 120.0) -> dict:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        state = _state(port)
        if state is not None and state["events"] >= events:
            return state
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        time.sleep(0.1)
    raise AssertionError(f"fewer than {events} events after {limit} s")


def test_a_dashboard_killed_mid_game_loses_no_committed_move(tmp_path):
    port = _free_port()
    first = _serve(tmp_path, port)
    try:
        before = _until(port, 4, first)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    second = _serve(tmp_path, port)
    try:
        after = _until(port, before["events"] + 2, second)
        assert after["game_id"] == before["game_id"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{after['game_id']}") as reply:
            record = json.loads(reply.read())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as reply:
            assert len(json.loads(reply.read())) == 1
        committed = [e for e in before["log"] if e["kind"] in ("move", "chance")]
        replayed = record["events"][:before["events"]]
        assert [e.get("player") for e in replayed if "move" in e] == [e["player"] for e in committed if e["kind"] == "move"]
        assert len(record["events"]) >= before["events"] + 2
    finally:
        os.killpg(second.pid, signal.SIGKILL)
        second.wait()
