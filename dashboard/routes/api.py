"""The API of the game followed now: its state, the words, corrections, what a zone may hold,
the moves the last one may be replaced by, suggestions, and how the watch keeps up."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response

from ...follow import Refused
from ...i18n import LANGUAGES, catalogue_data
from ..choices import places_of, zone_choices
from ..deps import Config, Games, Live
from ..search import Busy
from ..problems import refusal, request_language
from ..schemas import (Alternative, Correction, Health, Lesson, Outcome, Reading, State, Strings, Suggestions,
                       ZoneChoices)

#: Seconds a correction's request waits for the watch thread to make it (it is made between two
#: frames, a read of the table at most, under a second on a quiet machine); past it the answer is
#: 202 and the outcome comes on ``/events``.
CORRECTION_WAIT = 10.0

router = APIRouter(prefix="/api")


@router.get("/strings", response_model=Strings)
def strings(request: Request, lang: Annotated[str | None, Query(max_length=16)] = None) -> dict[str, Any]:
    """Every word of the catalogue in ``lang``; an unknown or missing one falls back to the
    browser's language (``Accept-Language``), else English (:func:`request_language`, which reads
    ``lang`` from the request)."""
    chosen = request_language(request)
    return {"lang": chosen, "languages": list(LANGUAGES), "strings": catalogue_data(chosen)}


@router.get("/state", response_model=State)
def state(live: Live) -> dict[str, Any]:
    return live.snapshot()


@router.get("/zones/{zone}", response_model=ZoneChoices)
def zone(zone: Annotated[str, Path(max_length=40)], live: Live) -> dict[str, Any]:
    """What a person may say lies in ``zone`` (an observation zone): the rules' choices, in words."""
    return zone_choices(live.game_now(), zone)


@router.get("/places", response_model=dict[str, str])
def place_words(request: Request, history: Games, lang: Annotated[str | None, Query(max_length=16)] = None,
                game: Annotated[int | None, Query(ge=1, le=2 ** 63 - 1, description="a game of the history (none: the game followed now)")] = None,
                ) -> dict[str, str]:
    """Every zone of a game in words, in ``lang`` (else the browser's language, as
    :func:`request_language` reads them): the pages' tooltips."""
    chosen = request_language(request)
    if game is None:
        live = request.app.state.live
        if live is None:
            raise refusal(409, "dash.not_set_up")
        return places_of(live.game_now().record, chosen)
    try:
        return places_of(history.record(game), chosen)
    except KeyError:
        raise refusal(404, "http.no_game", id=game) from None


@router.get("/alternatives", response_model=list[Alternative])
def alternatives(live: Live) -> list[dict[str, Any]]:
    return live.alternatives()


@router.get("/suggestions", response_model=Suggestions)
async def suggestions(live: Live, settings: Config,
                      seconds: Annotated[float, Query(gt=0, allow_inf_nan=False, alias="time")] = 0.5,
                      top: Annotated[int, Query(ge=1, le=10)] = 3) -> dict[str, Any]:
    """The best moves for the player to move: searched only when asked, one search at a time
    (429 while one runs), at most ``Settings.search_seconds``."""
    if seconds > settings.search_seconds:
        raise refusal(422, "invalid.less_than_equal", field="query.time", le=settings.search_seconds)
    try:
        return await asyncio.to_thread(live.suggestions, seconds, top)
    except Busy:
        raise refusal(429, "http.busy") from None


@router.get("/health", response_model=Health)
def health(live: Live) -> dict[str, Any]:
    return live.health()


@router.get("/reading", response_model=Reading, responses={409: {}})
def reading(live: Live) -> dict[str, Any]:
    """The last still view as the camera read it, drawn: what "Is this your table?" shows; 409
    before any view was read."""
    seen = live.reading()
    if seen is None:
        raise refusal(409, "follow.no_view")
    return seen


@router.post("/teach", response_model=Reading, responses={409: {}, 422: {}})
async def teach(lesson: Lesson, live: Live) -> dict[str, Any]:
    """The last still view, as the person says it is (its reading with ``corrections``), taught to
    this table's memory; answered with the view read again with what it learnt. 422 with the
    refusal where it cannot be taught (a zone the reading has not, a view no legal game shows)."""
    outcome = await asyncio.wrap_future(live.teach([(c.zone, c.content) for c in lesson.corrections]))
    if isinstance(outcome, Refused):
        if outcome.code == "follow.no_view":
            raise refusal(409, outcome.code)
        raise outcome
    return outcome


@router.post("/corrections", response_model=Outcome, responses={202: {"model": Outcome}, 422: {}})
async def corrections(correction: Correction, live: Live, response: Response) -> dict[str, Any]:
    """One correction, made before the next frame: 200 once made, 422 with the refusal's code
    where the game cannot take it (nothing changed), 202 where the watch thread has not got to
    it within :data:`CORRECTION_WAIT` (its outcome then comes on ``/events``)."""
    command = correction.command()
    outcome = live.correct(command)
    try:  # shielded: a correction not answered in time is still made (and announced on /events)
        refused = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(outcome)), CORRECTION_WAIT)
    except asyncio.TimeoutError:
        response.status_code = 202
        return {"accepted": command, "done": False}
    if isinstance(refused, Refused):
        raise refused
    return {"accepted": command, "done": True}

