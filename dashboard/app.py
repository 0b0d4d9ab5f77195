"""The dashboard's web app: pages, the JSON API, live updates (SSE) and the camera view (MJPEG).

Routes stay thin (``routes/``: one router a concern) and take pydantic models in and out
(:mod:`schemas`): what they serve comes from :class:`~.live.LiveGame` (the game followed now) and
:class:`~.history.History` (every game). Every request first passes :class:`~.guard.Guard`
(the Host header, the token, the body's size); every refusal is a code with its parameters
(:mod:`problems`), worded by the page in its language.
"""

from __future__ import annotations

from fastapi import FastAPI

from .guard import Guard
from .history import History
from .live import LiveGame
from .problems import install
from .routes import api, feeds, games, pages
from .routes import setup as setup_routes
from .settings import Settings
from .setup import TableSetup


def create_app(live: LiveGame | None, history: History, settings: Settings | None = None, setup: TableSetup | None = None
               ) -> FastAPI:
    """The app serving ``live`` and ``history`` as ``settings`` say (default: this machine only, no
    token). On a first run ``live`` is None and ``setup`` sets the table up (``/setup``), which
    then begins the game followed."""
    app = FastAPI(title="azulcam", docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)
    app.state.live, app.state.history, app.state.settings, app.state.setup = live, history, settings or Settings(), setup
    install(app)
    for router in (pages.router, api.router, games.router, feeds.router, setup_routes.router):
        app.include_router(router)
    app.add_middleware(Guard, settings=app.state.settings)
    return app
