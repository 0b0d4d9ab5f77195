"""The final scores of a finished Azul game, from one photo of its table.

A game of Azul ends with the round in which a player completes a row of their wall; each
player's marker then stands on their score track at the points scored during the game, and the
end-of-game bonuses (complete rows, columns and colours) are added from the walls. So a photo of
the final table, read into an ``azulcam-observation/1`` whose boards carry their markers' cells
(``score``), gives every final score: :func:`final_scores`.

Each player's score comes with what makes it doubtful, as codes with parameters (worded by the
catalogue): a marker not seen or read unsure, wall spaces read unsure (the bonuses rest on them),
and a marker farther along the track than the wall's tiles can have scored when placed (each no
more than it would placed last), which a misread marker or wall shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .azul import TILE_NAMES, WALL_SLOTS, complete_lines, end_bonuses, most_placement_points
from .errors import ObservationError
from .zones import WALL_SPACE, Zone, ZoneError

#: The format of :func:`final_scores`'s report.
FINAL_FORMAT = "azulcam-final/1"


def _wall(slots: dict[str, str]) -> list[int]:
    """A board's wall as :func:`azul.end_bonuses` takes it: 25 tile indices, -1 where empty."""
    wall = [-1] * 25
    for i, space in enumerate(s for row in WALL_SLOTS for s in row):
        name = slots.get(space)
        if name is not None:
            wall[i] = TILE_NAMES.index(name)
    return wall


def _zones(names: Iterable[str]) -> set[Zone]:
    """The zones among ``names`` (an observation's ``uncertain``: any other text is left out)."""
    zones = set()
    for name in names:
        try:
            zones.add(Zone.parse(name))
        except ZoneError:
            pass
    return zones


def is_finished(observation: dict[str, Any]) -> bool:
    """Whether an Azul table shows a finished game: a wall with a complete row."""
    if observation.get("game") != "azul":
        return False
    return any(complete_lines(_wall(b.get("slots", {})))[0] > 0 for b in observation.get("boards", []))


def final_scores(observation: dict[str, Any]) -> dict[str, Any]:
    """The final scores of the finished Azul game ``observation`` shows (a checked observation,
    as :func:`.position.read_observation` returns it): for each player, the marker's cell, the
    end-of-game bonuses and their sum (``score``, null where the marker was not seen); the
    winners (the most points, a tie going to the most complete rows, shared on both); and what
    makes a score doubtful (``problems``: ``{"code": ..., "player": P, ...}``). Raises
    :class:`ObservationError` for a table of another game."""
    if observation.get("game") != "azul":
        raise ObservationError("observation.final_not_azul")
    uncertain = _zones(observation.get("uncertain", []))
    players, problems = [], []
    for board in sorted(observation["boards"], key=lambda b: b["player"]):
        p = board["player"]
        wall = _wall(board["slots"])
        rows, columns, colors = end_bonuses(wall)
        marker = board.get("score")
        players.append({"player": p, "marker": marker, "rows": rows, "columns": columns, "colors": colors,
                        "score": None if marker is None else marker + rows + columns + colors})
        if marker is None:
            problems.append({"code": "final.marker_unseen", "player": p})
        elif Zone.score(p) in uncertain:
            problems.append({"code": "final.marker_unsure", "player": p, "cell": marker})
        unsure_wall = sum(1 for z in uncertain if z.player == p and z.slot is not None and z.slot.kind == WALL_SPACE)
        if unsure_wall:
            problems.append({"code": "final.wall_unsure", "player": p, "spaces": unsure_wall})
        most = most_placement_points(wall)
        if marker is not None and marker > most:
            problems.append({"code": "final.marker_too_far", "player": p, "cell": marker, "most": most})
    scored = [(e["score"], e["rows"]) for e in players if e["score"] is not None]
    best = max(scored) if scored and len(scored) == len(players) else None
    winners = [e["player"] for e in players if best is not None and (e["score"], e["rows"]) == best]
    return {"format": FINAL_FORMAT, "players": players, "winners": winners, "problems": problems}
