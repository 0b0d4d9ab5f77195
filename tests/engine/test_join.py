"""A game taken up mid-way: the position rebuilt from what is seen plays on as the game did."""

from __future__ import annotations

import random
import re

import pytest

from azulcam.engine.errors import ObservationError, RecordError
from azulcam.engine.join import position_from
from azulcam.engine.observe import observation_of
from azulcam.engine.players import RandomPlayer
from azulcam.engine.record import Game, Record, play_game, score_report
from azulcam.i18n.words import words

GAMES = [("azul", {"wall": "colored", "jokers": False}), ("azul", {"wall": "grey", "jokers": True}),
         ("pavilion", {"side": "colored"}), ("pavilion", {"side": "grey"})]


def _cut(game: str, options: dict, players: int, seed: int) -> tuple[Game, list[dict], int]:
    """A whole seeded game, and where to take it up: an event after which tiles are being taken."""
    full = play_game(game, [RandomPlayer(seed + i) for i in range(players)], options, seed)
    replayed = Game.new(game, players, options)
    cuts = []
    for k, event in enumerate(full.record.events):
        replayed.apply(event)
        if replayed.state.current_player >= 0 and replayed.state.to_json()["phase"] in ("offer", "acquire"):
            cuts.append(k + 1)
    return full, full.record.events, random.Random(seed).choice(cuts)


def _state_after(game: str, options: dict, players: int, events: list[dict]):
    g = Game.new(game, players, options)
    for event in events:
        g.apply(event)
    return g.state


@pytest.mark.parametrize("game,options", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_taken_up_mid_way_plays_on_to_the_same_scores(game, options, players):
    for seed in range(3):
        full, events, k = _cut(game, options, players, seed)
        state = _state_after(game, options, players, events[:k])
        seen = state.to_json()
        position = position_from(observation_of(state), options, seen["round"], state.scores(), state.current_player)
        joined = Record(game, players, options, state.current_player, [{"position": position.to_json()}] + events[k:])
        report, truth = score_report(joined), score_report(full.record)
        assert report["final"] == truth["final"]
        assert report["rounds"] == [r for r in truth["rounds"] if r["round"] >= seen["round"]]
        # What a camera sees of it is what was seen; the hidden tiles are the same tiles.
        assert observation_of(position) == observation_of(state)
        hidden = position.to_json()
        assert hidden["pooled"] is True
        pile = "lid" if game == "azul" else "tower"
        assert {t: seen["bag"].get(t, 0) + seen[pile].get(t, 0) for t in hidden["bag"]} == hidden["bag"]


def test_a_record_that_starts_from_a_position_round_trips_through_text():
    full, events, k = _cut("azul", GAMES[0][1], 2, 5)
    state = _state_after("azul", GAMES[0][1], 2, events[:k])
    position = position_from(observation_of(state), GAMES[0][1], state.round, state.scores(), state.current_player)
    record = Record("azul", 2, GAMES[0][1], state.current_player, [{"position": position.to_json()}] + events[k:])
    assert score_report(Record.loads(record.dumps())) == score_report(record)
    game = Game.new("azul", 2, GAMES[0][1])
    game.apply({"position": position.to_json()})
    assert game.state == position and game.record.events == [{"position": position.to_json()}]


def _position_event(game="azul", options=None, players=2, seed=7):
    options = options or dict(GAMES[0][1] if game == "azul" else GAMES[2][1])
    full, events, k = _cut(game, options, players, seed)
    state = _state_after(game, options, players, events[:k])
    return position_from(observation_of(state), options, state.round, state.scores(), state.current_player).to_json()


def test_a_position_the_record_cannot_hold_is_refused_naming_the_event():
    good = _position_event()
    missing = {**good, "bag": {**good["bag"], "red": good["bag"].get("red", 0) - 1}}
    cases = [
        (Record("pavilion", 2, {}, 0, [{"position": good}]), "a position of game 'azul' in a pavilion record"),
        (Record("azul", 3, {}, 0, [{"position": good}]), "a position of 2 players in a record of 3"),
        (Record("azul", 2, {"jokers": True}, 0, [{"position": good}]), "options"),
        (Record("azul", 2, {}, 0, [{"position": missing}]), "the position's tiles are not the game's"),
        (Record("azul", 2, {}, 0, [{"position": good, "note": 1}]), "unknown key 'note' in a position event"),
        (Record("azul", 2, {}, 0, [{"position": [1]}]), "a position must be an azulcam-state/1 object"),
    ]
    for record, message in cases:
        with pytest.raises(RecordError) as caught:
            score_report(record)
        assert caught.value.index == 0
        said = words(caught.value)
        assert said.startswith("event 0: ") and message in said, said


def test_what_no_position_can_be_taken_up_from_is_refused():
    options = GAMES[0][1]
    full, events, k = _cut("azul", options, 2, 3)
    state = _state_after("azul", options, 2, events[:k])
    seen = observation_of(state)

    def refusal(*args):
        with pytest.raises(ObservationError) as caught:
            position_from(*args)
        return caught.value

    assert refusal(seen, options, 1, [3], 0).code == "observation.bad_scores"
    assert refusal(seen, options, 0, [0, 0], 0).code == "observation.bad_round"
    assert refusal(seen, options, 1, [0, 0], 2).code == "observation.bad_to_move"
    between = {**seen, "factories": [{**f, "tiles": []} for f in seen["factories"]], "center": {}}
    assert refusal(between, options, 1, [0, 0], 0).code == "observation.between_rounds"
    twice = {**seen, "center": {**seen["center"], "first_player": 2}}
    assert re.fullmatch("no legal position: the first-player marker is seen [23] times",
                        words(refusal(twice, options, 1, [0, 0], 0)))
    board = seen["boards"][0]
    full_row = {**board, "slots": {**board["slots"], **{f"wall.0.{c}": ("blue", "yellow", "red", "black", "white")[(c - 0) % 5]
                                                          for c in range(5)}}}
    full_row["slots"] = {s: t for s, t in full_row["slots"].items() if not s.startswith("line.0.")}
    full = refusal({**seen, "boards": [full_row, seen["boards"][1]]}, options, 1, [0, 0], 0)
    assert full.code == "observation.full_wall_row" and full.params["player"] == 0
