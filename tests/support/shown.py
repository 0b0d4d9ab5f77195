"""A game shown by the dashboard without a camera: what the pages get for any position of any game
(2 to 4 players, both games), served by the real app, for tests of how the pages lay it out."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn

from azulcam.dashboard.app import create_app
from azulcam.dashboard.history import History
from azulcam.dashboard.live import Broadcaster, state_of
from azulcam.dashboard.words import as_stream, described, described_parts, worded
from azulcam.engine.players import make_player
from azulcam.engine.record import Game, Record, play_game


def played(game: str, players: int, upto: int | None = None, names: list[str] | None = None, seed: int = 5) -> Record:
    """A game of greedy players, its first ``upto`` events (all: finished)."""
    full = play_game(game, [make_player("greedy", seed + i) for i in range(players)], {}, seed).record
    return Record(full.game, names or players, full.options, full.start_player, full.events if upto is None else full.events[:upto])


class Shown:
    """What :class:`~azulcam.dashboard.live.LiveGame` gives the pages, for ``record`` as it stands;
    suggestions are its first legal moves (the search is not what these tests look at)."""

    def __init__(self, record: Record, game_id: int = 1) -> None:
        self.record, self.broadcaster = record, Broadcaster()
        log = [{"kind": as_stream(e)["kind"], **e, "n": k + 1, "text": described(as_stream(e), record),
                "parts": described_parts(as_stream(e), record)} for k, e in enumerate(record.events)][-12:]
        self.state = state_of(Game(record), game_id, log, [], [], [])

    def snapshot(self) -> dict[str, Any]:
        return self.state

    def game_now(self) -> Game:
        return Game(self.record)

    def alternatives(self) -> list[dict[str, Any]]:
        return []

    def suggestions(self, seconds: float, top: int) -> dict[str, Any]:
        state = Game(self.record).state
        players = len(state.scores())
        moves = [{"player": state.current_player, "move": m.to_json(), "win": 0.5, "why": {"points": 1},
                  "points": {"gained": 3.25, "lost": 1.0}, "playouts": 100,
                  "leaves": {"player": (state.current_player + 1) % players, "gained": 4.5, "answer": None, "win": None}}
                 for m in list(state.legal_moves())[:top]] if state.current_player >= 0 else []
        return {"player": state.current_player, "position": self.state["position"],
                "moves": [worded(m, self.record) for m in moves]}

    def jpeg(self) -> tuple[int, None]:
        return -1, None


def free_port() -> int:
    """A port of this machine no program holds now (the README's demo may hold 8000)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(shown: Shown, history: History) -> tuple[str, Any]:
    """The app serving ``shown`` on a free port of this machine: its address, and a function that stops it."""
    return serve_app(create_app(shown, history))


def serve_app(app: Any) -> tuple[str, Any]:
    """``app`` served by uvicorn on a free port of this machine, in a thread: its address, and a
    function that stops it."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=5)

    return f"http://127.0.0.1:{port}", stop
