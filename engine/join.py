"""A game taken up mid-way: its position rebuilt from what is seen, and checked.

A camera started during a game, or one that lost the game, sees the table but not its history.
:func:`position_from` rebuilds the engine state from an ``azulcam-observation/1`` and what the
table does not show (the round, the scores, who is to move). The hidden tiles are inferred from
the counts: every tile of the game not in view is in the bag (Azul's box lid and the Summer
Pavilion tower start empty); nothing a later deal can draw differs, as a deal draws from bag and
lid alike once the bag is empty. A record holds such a position as a ``position`` event
(docs/formats/record.md); :func:`checked_position` is what replaying one checks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from . import pavilion_board as topo
from .azul import FLOOR_SLOTS, LINE_SLOTS, WALL_SLOTS, AzulState
from .common import MOST_POINTS, MOST_ROUNDS, chained, color_noun, is_int
from .errors import ObservationError, StateError, show
from .notice import Notice
from .observe import observation_of
from .games import read_options
from .pavilion import MIN_SCORE, START_SCORE, PavilionState
from .pavilion import ROUNDS as PAVILION_ROUNDS
from .position import problems, read_observation, tiles_in_view


def _fresh(game: str, players: int, options: dict[str, Any], to_move: int) -> Any:
    if game == "azul":
        return AzulState.new(players, options["wall"], options["jokers"], to_move)
    return PavilionState.new(players, options["side"], to_move)


def _game_tiles(fresh: Any) -> Counter[str]:
    """Every tile of the game by name: what the bag holds before the first deal."""
    return Counter(fresh.to_json()["bag"])


def position_from(observation: Any, options: Any, round: int, scores: list[int], to_move: int) -> Any:
    """The state of the game seen in ``observation`` during a round's taking phase (tiles on the
    displays or in the centre), ``round`` and ``scores`` as the players say, ``to_move`` to move.

    Raises :class:`ObservationError` naming what cannot be: a position no legal game shows
    (:func:`.position.problems`), a table between two rounds (nothing left to take: join once
    the next round's tiles are dealt), a round, a score or a player out of range.
    """
    obs = read_observation(observation)
    game = obs["game"]
    opts = read_options(game, options, ObservationError)
    boards = sorted(obs["boards"], key=lambda b: b["player"])
    players = len(boards)
    if [b["player"] for b in boards] != list(range(players)) or players < 2:
        raise ObservationError("observation.boards_of_every_player", last=max(players - 1, 1),
                               boards=[b["player"] for b in boards])
    found = problems(obs, opts)
    if found:
        raise ObservationError("observation.no_legal_position", problems=found)
    if not (is_int(to_move) and 0 <= to_move < players):
        raise ObservationError("observation.bad_to_move", last=players - 1, value=show(to_move))
    most_rounds = PAVILION_ROUNDS if game == "pavilion" else MOST_ROUNDS
    if not (is_int(round) and 1 <= round <= most_rounds):
        raise ObservationError("observation.bad_round", most=most_rounds, value=show(round))
    least = MIN_SCORE if game == "pavilion" else 0
    if not (isinstance(scores, list) and len(scores) == players and all(is_int(s) and least <= s <= MOST_POINTS for s in scores)):
        raise ObservationError("observation.bad_scores", players=players, least=least, most=MOST_POINTS, value=show(scores))
    takeable = [t for f in obs["factories"] for t in f["tiles"]] + [t for t in obs["center"] if t != "first_player"]
    if not takeable:
        raise ObservationError("observation.between_rounds")
    fresh = _fresh(game, players, opts, to_move)
    data = fresh.to_json()
    data["round"] = round
    data["phase"] = "offer" if game == "azul" else "acquire"
    data["factories"] = [sorted(f["tiles"]) for f in obs["factories"]]
    if len(data["factories"]) != len(fresh.to_json()["factories"]):
        raise ObservationError("observation.display_count", seen=len(data["factories"]), players=players,
                               factories=len(fresh.to_json()["factories"]))
    data["center"] = {t: n for t, n in obs["center"].items() if t != "first_player"}
    marker = "center" if obs["center"].get("first_player") else None
    for b, bd in zip(boards, data["boards"]):
        p, slots = b["player"], b["slots"]
        if "first_player" in slots.values() or b.get("hand", {}).get("first_player"):
            marker = p
        if game == "azul":
            bd["score"], bd["placement"] = scores[p], scores[p]
            bd["lines"] = []
            for r in range(5):
                tiles = [slots.get(s) for s in LINE_SLOTS[r]]
                colors = [t for t in tiles if t not in (None, "joker")]
                bd["lines"].append({"color": colors[0] if colors else None, "count": len(colors),
                                    "jokers": tiles.count("joker")})
            bd["wall"] = [[slots.get(s) for s in row] for row in WALL_SLOTS]
            if any(all(t is not None for t in row) for row in bd["wall"]):
                raise ObservationError("observation.full_wall_row", player=p)
            bd["floor"] = [slots[s] for s in FLOOR_SLOTS if slots.get(s)]
        else:
            bd["score"] = scores[p]
            bd["placement"], bd["penalties"] = max(scores[p] - START_SCORE, 0), min(scores[p] - START_SCORE, 0)
            bd["spaces"] = {name: slots[name] for name in topo.SPACE_NAMES if slots.get(name)}
            bd["corners"] = [slots[s] for s in topo.CORNER_NAMES if slots.get(s)]
            bd["hand"] = {t: n for t, n in b.get("hand", {}).items() if t != "first_player" and n}
    if marker is None:
        raise ObservationError("observation.no_marker")
    data["marker" if game == "azul" else "token"] = marker
    if game == "pavilion":
        data["supply"] = list(obs["supply"] or [None] * topo.SUPPLY_SPACES)
    data["bag"] = _unseen(fresh, obs)
    data["pooled"] = True
    return type(fresh).from_json(data)


def _unseen(fresh: Any, obs: dict[str, Any]) -> dict[str, int]:
    """The tiles of the game not in view: all in the bag."""
    left = _game_tiles(fresh)
    left.subtract(tiles_in_view(obs))
    return {name: n for name, n in left.items() if n > 0}


def checked_position(data: Any, game: str, options: dict[str, Any], players: int) -> Any:
    """The state an ``azulcam-state/1`` position event holds, checked against its record (the
    same game, options and players) and against the rules: no position a legal game cannot
    show, and every tile of the game once, in view or hidden. Raises :class:`StateError` naming
    why (:class:`ObservationError` for a position no legal game shows)."""
    if not isinstance(data, dict):
        raise StateError("state.position_not_object", value=show(data))
    if data.get("game") != game:
        raise StateError("state.position_of_game", value=show(data.get("game")), game=game)
    state = (AzulState if game == "azul" else PavilionState).from_json(data)
    if state.players != players:
        raise StateError("state.position_players", players=state.players, record=players)
    if state.options != read_options(game, options):
        raise StateError("state.position_options", options=state.options, record=read_options(game, options))
    obs = observation_of(state)
    found = problems(obs, state.options)
    if found:
        raise ObservationError("observation.no_legal_position", problems=found)
    held = Counter(tiles_in_view(obs))
    hidden = state.to_json()
    held.update(hidden["bag"])
    held.update(hidden["lid" if game == "azul" else "tower"])
    held.pop("first_player", None)
    want = _game_tiles(_fresh(game, players, state.options, 0))
    if +held != +want:
        wrong = sorted(set(held) | set(want), key=str)
        counts = [Notice("state.tile_count", held=held[t], color=color_noun(t), want=want[t]) for t in wrong if held[t] != want[t]]
        raise StateError("state.position_tiles", counts=chained("list.joined", counts))
    return state
