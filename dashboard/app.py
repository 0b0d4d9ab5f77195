"""The dashboard's web app: pages, the JSON API, live updates (SSE) and the camera view (MJPEG).

Routes stay thin: what they serve comes from :class:`~.live.LiveGame` (the game followed now) and
:class:`~.history.History` (every game). Every request is checked by pydantic; bad input gets a
4xx naming what is wrong and changes nothing. With a ``token``, every write needs it (header
``Authorization: Bearer TOKEN``, or ``?token=`` for a page's own requests).
"""

from __future__ import annotations

import asyncio
import json
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from ..engine.observe import observation_of
from ..follow import corrections as follow_corrections
from ..engine.record import RECORD_FORMAT, replay
from ..i18n import LANGUAGES, catalogue_data
from .history import History
from .live import LiveGame
from .svg import board_svg
from .words import as_stream, described

#: Overlay widgets, each at its own URL (``/overlay/NAME``); ``/overlay`` shows them all but the
#: suggestions, which show only where asked for (``/overlay/suggestions``, or ``/overlay?suggest=1``).
WIDGETS = ("score", "last-move", "round", "suggestions")
#: Seconds between two frames of the camera: a viewer is looked at twice as often, and sent each new one.
MJPEG_PERIOD = 0.1
#: Seconds between two SSE keep-alive comments, so that proxies and browsers keep the line open.
KEEPALIVE = 15.0

Lang = Annotated[Literal["en", "fr"] | None, Query(description="the language: en or fr (default: the browser's)")]


class Correction(follow_corrections.Correction):
    """One correction, as a ``watch --control`` line, or ``{"new": true}``: a new game begun."""

    new: Literal[True] | None = None


def create_app(live: LiveGame, history: History, token: str | None = None) -> FastAPI:
    app = FastAPI(title="azulcam", docs_url="/api/docs", openapi_url="/api/openapi.json")

    def allowed(request: Request) -> None:
        if token is None:
            return
        given = request.headers.get("authorization", "").removeprefix("Bearer ").strip() or request.query_params.get("token")
        if given != token:
            raise HTTPException(401, "this dashboard takes writes with its token only (Authorization: Bearer TOKEN)")

    @app.get("/", response_class=HTMLResponse)
    def dashboard_page() -> str:
        return _asset("dashboard.html")

    @app.get("/overlay", response_class=HTMLResponse)
    def overlay_page() -> str:
        return _asset("overlay.html")

    @app.get("/overlay/{widget}", response_class=HTMLResponse)
    def widget_page(widget: str) -> str:
        if widget not in WIDGETS:
            raise HTTPException(404, f"no overlay widget {widget!r} (widgets: {', '.join(WIDGETS)})")
        return _asset("overlay.html")

    @app.get("/static/{name}")
    def static_file(name: str) -> Response:
        if name not in ("dashboard.js", "overlay.js", "replay.js", "style.css"):
            raise HTTPException(404, f"no file {name!r}")
        media = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(_asset(name), media_type=media)

    @app.get("/api/strings")
    def strings(request: Request, lang: Lang = None) -> dict[str, Any]:
        chosen = lang or _browser_language(request)
        return {"lang": chosen, "languages": list(LANGUAGES), "strings": catalogue_data(chosen)}

    @app.get("/api/state")
    def state() -> dict[str, Any]:
        return with_boards(live.snapshot())

    @app.get("/api/alternatives")
    def alternatives() -> list[dict[str, Any]]:
        return live.alternatives()

    @app.get("/api/suggestions")
    async def suggestions(seconds: Annotated[float, Query(gt=0, le=10, alias="time")] = 0.5,
                          top: Annotated[int, Query(ge=1, le=10)] = 3) -> dict[str, Any]:
        """The best moves for the player to move (searched only when asked: it takes a core)."""
        return await asyncio.to_thread(live.suggestions, seconds, top)

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return live.health()

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        return history.games()

    @app.get("/api/games/{game_id}")
    def game_record(game_id: int) -> JSONResponse:
        try:
            record = history.record(game_id)
        except KeyError:
            raise HTTPException(404, f"no game {game_id}") from None
        return JSONResponse(record.to_json(), headers={"Content-Disposition": f'attachment; filename="azulcam-game-{game_id}.json"'})

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    def replay_page(game_id: int) -> str:
        return _asset("replay.html")

    @app.get("/api/games/{game_id}/replay")
    def game_replay(game_id: int) -> list[dict[str, Any]]:
        """The game step by step: before its first event, then after each, each with the event
        in words, the scores and each board as SVG."""
        try:
            record = history.record(game_id)
        except KeyError:
            raise HTTPException(404, f"no game {game_id}") from None
        return [{"event": event, "text": described(as_stream(event), record) if event else None, "round": state.round,
                 "scores": state.scores(), "boards_svg": [board_svg(observation_of(state), p, record.game, record.options, [])
                                                          for p in range(record.player_count)]}
                for event, state in _positions(record)]

    @app.get("/api/games/{game_id}/events")
    def game_events(game_id: int) -> list[dict[str, Any]]:
        try:
            return history.events(game_id)
        except KeyError:
            raise HTTPException(404, f"no game {game_id}") from None

    @app.post("/api/corrections", status_code=202, dependencies=[Depends(allowed)])
    def corrections(correction: Correction) -> dict[str, Any]:
        live.correct(correction.command())
        return {"accepted": correction.command(), "note": "applied before the next frame; its outcome comes on /events"}

    @app.get("/events")
    async def events(request: Request) -> StreamingResponse:
        queue = live.broadcaster.subscribe()

        async def stream():  # noqa: ANN202
            try:
                yield f"event: state\ndata: {json.dumps(with_boards(live.snapshot()))}\n\n"
                while True:
                    try:
                        message = await asyncio.wait_for(queue.get(), KEEPALIVE)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield ": keep-alive\n\n"
                        continue
                    yield f"event: update\ndata: {json.dumps({**message, 'state': with_boards(message['state'])})}\n\n"
            finally:
                live.broadcaster.unsubscribe(queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @app.get("/snapshot.jpg")
    def snapshot() -> Response:
        _, jpeg = live.jpeg()
        if jpeg is None:
            raise HTTPException(503, "no frame from the camera yet")
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/stream.mjpg")
    async def stream_mjpg(request: Request) -> StreamingResponse:
        async def frames():  # noqa: ANN202
            last = -2
            loop = asyncio.get_running_loop()
            while not await request.is_disconnected():
                began = loop.time()
                index, jpeg = await asyncio.to_thread(live.jpeg)
                if jpeg is not None and index != last:
                    last = index
                    yield b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n"
                await asyncio.sleep(max(0.0, MJPEG_PERIOD / 2 - (loop.time() - began)))

        return StreamingResponse(frames(), media_type="multipart/x-mixed-replace; boundary=frame")

    def with_boards(state: dict[str, Any]) -> dict[str, Any]:
        boards = [board_svg(state["observation"], p, state["game"], state["options"], state["unsure"])
                  for p in range(state["players"])]
        return {**state, "boards_svg": boards, "record_format": RECORD_FORMAT}

    return app


def _positions(record: Any) -> list[tuple[dict[str, Any] | None, Any]]:
    """(event, state after it) for each event of the record, after (None, the first state)."""
    out = [(None, record.new_state())]
    out += [(step.event, step.state.copy()) for step in replay(record)]
    return out


def _browser_language(request: Request) -> str:
    """The first of the browser's languages (``Accept-Language``) that the catalogue has, else English."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def _asset(name: str) -> str:
    return resources.files("azulcam.dashboard").joinpath("pages", name).read_text(encoding="utf-8")
