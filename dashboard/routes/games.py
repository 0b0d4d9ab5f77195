"""The history: every game followed, one as a record, its events, and its replay step by step."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ...engine.observe import observation_of
from ...engine.record import Record, replay
from ..deps import GameId, Games
from ..problems import refusal
from ..schemas import GameRow, ReplayStep
from ..svg import board_svg, table_svg
from ..words import as_stream, described, described_parts

router = APIRouter(prefix="/api/games")


@router.get("", response_model=list[GameRow])
def games(history: Games, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> list[dict[str, Any]]:
    """The ``limit`` newest games, newest first."""
    return history.games(limit)


@router.get("/{game_id}")
def game_record(game_id: GameId, history: Games) -> JSONResponse:
    """The game as an ``azulcam-record/1``, as a file to keep."""
    record = _record(history, game_id)
    return JSONResponse(record.to_json(), headers={"Content-Disposition": f'attachment; filename="azulcam-game-{game_id}.json"'})


@router.get("/{game_id}/events")
def game_events(game_id: GameId, history: Games) -> list[dict[str, Any]]:
    """The game's kept stream events and corrections, in order."""
    try:
        return history.events(game_id)
    except KeyError:
        raise refusal(404, "http.no_game", id=game_id) from None


@router.get("/{game_id}/replay", response_model=list[ReplayStep])
def game_replay(game_id: GameId, history: Games) -> list[dict[str, Any]]:
    """The game step by step: before its first event, then after each, each with the event in
    words, the scores and the table drawn."""
    record = _record(history, game_id)
    steps = [(None, record.new_state())] + [(step.event, step.state.copy()) for step in replay(record)]
    out = []
    for event, state in steps:
        observation = observation_of(state)
        said = as_stream(event) if event else None
        out.append({"event": event, "text": described(said, record) if said else None,
                    "parts": described_parts(said, record) if said else None, "round": state.round,
                    "scores": state.scores(),
                    "boards_svg": [board_svg(observation, p, state.spec, record.options, []) for p in range(record.player_count)],
                    "table_svg": table_svg(observation, state.spec, [])})
    return out


def _record(history: Games, game_id: int) -> Record:
    try:
        return history.record(game_id)
    except KeyError:
        raise refusal(404, "http.no_game", id=game_id) from None
