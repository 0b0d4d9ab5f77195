"""The pages: the dashboard, the overlay and its widgets, a game's replay, and their files."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..deps import GameId, Games
from ..problems import refusal

#: Overlay widgets, each at its own URL (``/overlay/NAME``); ``/overlay`` shows them all but the
#: suggestions and the mini boards, which show only where asked for (``?suggest=1``, ``?boards=1``).
WIDGETS = ("score", "last-move", "round", "suggestions", "boards", "banner")
#: The pages' own files, by name, with their media types.
STATIC = {"dashboard.js": "text/javascript", "overlay.js": "text/javascript", "replay.js": "text/javascript",
          "common.js": "text/javascript", "style.css": "text/css", "overlay.css": "text/css", "icon.svg": "image/svg+xml",
          "setup.js": "text/javascript", "teach.js": "text/javascript"}

router = APIRouter()


def asset(name: str) -> str:
    return resources.files("azulcam.dashboard").joinpath("pages", name).read_text(encoding="utf-8")


def with_query(path: str, request: Request) -> str:
    """``path`` with the request's own query (``?lang=fr``, say), which a redirect must not lose."""
    query = request.url.query
    return f"{path}?{query}" if query else path


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def dashboard_page(request: Request) -> Response:
    if request.app.state.live is None:  # a first run: the table is set up first
        return RedirectResponse(with_query("/setup", request), status_code=303)
    return HTMLResponse(asset("dashboard.html"))


@router.get("/overlay", response_class=HTMLResponse, include_in_schema=False)
def overlay_page() -> str:
    return asset("overlay.html")


@router.get("/overlay/{widget}", response_class=HTMLResponse, include_in_schema=False)
def widget_page(widget: str) -> str:
    if widget not in WIDGETS:
        raise refusal(404, "http.no_widget", widget=widget[:40], widgets=", ".join(WIDGETS))
    return asset("overlay.html")


@router.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
def replay_page(game_id: GameId, history: Games) -> HTMLResponse:
    """The replay page; 404 (the same page, which says so) for a game the history has not."""
    return HTMLResponse(asset("replay.html"), 200 if history.has(game_id) else 404)


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    return Response(asset("icon.svg"), media_type="image/svg+xml")


@router.get("/static/{name}", include_in_schema=False)
def static_file(name: str) -> Response:
    if name not in STATIC:
        raise refusal(404, "http.not_found", path=f"/static/{name[:40]}")
    return Response(asset(name), media_type=STATIC[name], headers={"Cache-Control": "no-cache"})
