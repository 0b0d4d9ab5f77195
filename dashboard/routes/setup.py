"""The set-up, on a first run without a profile: the page, the camera's picture, the boards
found, and the game begun."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ...follow import Refused
from ..problems import refusal
from ...engine.games import GAMES
from ..schemas import Found, SetupFind, SetupGame, SetupStart, SetupState
from .pages import asset, with_query

router = APIRouter()


def _setup(request: Request) -> Any:
    setup = request.app.state.setup
    if setup is None or request.app.state.live is not None:
        raise refusal(409, "dash.set_up_already")
    return setup


@router.get("/setup", response_class=HTMLResponse, include_in_schema=False)
def setup_page(request: Request) -> Response:
    if request.app.state.live is not None:
        return RedirectResponse(with_query("/", request), status_code=303)
    return HTMLResponse(asset("setup.html"))


@router.get("/setup/snapshot.jpg", include_in_schema=False)
def snapshot(request: Request) -> Response:
    return Response(_setup(request).jpeg(), media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/api/setup", response_model=SetupState)
def state(request: Request) -> dict[str, Any]:
    """Whether the table is set up, and the camera picture's size."""
    if request.app.state.live is not None or request.app.state.setup is None:
        return {"set_up": True, "size": None}
    try:
        return {"set_up": False, "size": list(request.app.state.setup.size())}
    except Refused:
        return {"set_up": False, "size": None}


@router.get("/api/setup/games", response_model=dict[str, SetupGame])
def games() -> dict[str, SetupGame]:
    """What the page asks of each game it sets up, by name: its face option, its true/false
    options, whether it has a scoring board to find."""
    return {name: SetupGame.of(spec) for name, spec in GAMES.items()}


@router.post("/api/setup/find", response_model=Found)
def find(request: Request, asked: SetupFind) -> dict[str, Any]:
    """The boards found in the camera's newest picture (422 ``setup.not_found``: place them by hand)."""
    return _setup(request).find(asked.game, asked.players, asked.side)


@router.post("/api/setup/start")
def start(request: Request, asked: SetupStart) -> dict[str, Any]:
    """The game begun from the newest picture: its profile kept, the dashboard following it."""
    setup = _setup(request)
    if asked.names is not None and len(asked.names) != len(asked.boards):
        raise refusal(422, "setup.names", players=len(asked.boards))
    request.app.state.live = setup.start(asked.game, asked.options(), asked.boards, asked.scoring,
                                         asked.names)
    return {"started": True}
