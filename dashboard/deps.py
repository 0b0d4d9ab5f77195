"""What a route is given: the game followed now, the history, the settings (set on ``app.state``
by :func:`azulcam.dashboard.app.create_app`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request

from .history import History
from .problems import refusal
from .live import LiveGame
from .settings import Settings


def _live(request: Request) -> LiveGame:
    live = request.app.state.live
    if live is None:  # a first run, the table not set up yet
        raise refusal(409, "dash.not_set_up")
    return live


def _history(request: Request) -> History:
    return request.app.state.history


def _settings(request: Request) -> Settings:
    return request.app.state.settings


Live = Annotated[LiveGame, Depends(_live)]
Games = Annotated[History, Depends(_history)]
Config = Annotated[Settings, Depends(_settings)]
#: A game's id: SQLite's integers are 64-bit.
GameId = Annotated[int, Path(ge=1, le=2 ** 63 - 1, description="a game's id (/api/games)")]
