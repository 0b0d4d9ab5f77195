"""Game.pop takes the last event back from a snapshot, as python-chess's Board.pop does: the
state and the record are what a replay of the shorter record gives, at every step back."""

from __future__ import annotations

import pytest

from azulcam.engine.join import position_from
from azulcam.engine.observe import observation_of
from azulcam.engine.players import make_player
from azulcam.engine.record import Game, Record, play_game

VARIANTS = [("azul", {"wall": "colored", "jokers": False}), ("azul", {"wall": "colored", "jokers": True}),
            ("azul", {"wall": "grey", "jokers": False}), ("azul", {"wall": "grey", "jokers": True}),
            ("pavilion", {"side": "colored"}), ("pavilion", {"side": "grey"})]
#: Popping every event is checked against the states played forward; against a fresh Game
#: built from the record's prefix (its own replay) every CHECK_EVERY steps and at both ends.
CHECK_EVERY = 7


def _played(game: str, options: dict, players: int, seed: int) -> Game:
    """A whole seeded game between random and greedy players, started by a seeded player."""
    kinds = ["random", "greedy"] * 2
    bots = [make_player(kinds[(seed + i) % 4], seed * 10 + i) for i in range(players)]
    return play_game(game, bots, options, seed, start_player=seed % players)


def _forward(record: Record) -> list:
    """The state after each prefix of the record's events (index k: after k events), played
    one event at a time by a fresh Game."""
    game = Game(Record(record.game, record.players, record.options, record.start_player, []))
    states = [game.state.copy()]
    for event in record.events:
        game.apply(event)
        states.append(game.state.copy())
    return states


def _prefix(record: Record, k: int) -> Game:
    return Game(Record(record.game, record.players, record.options, record.start_player, record.events[:k],
                       record.seed))


def _pop_to_the_start(game: Game, events: list[dict], states: list) -> None:
    """Pop every event of ``game``, checking state and record at each step."""
    record = game.record
    for k in range(len(events) - 1, -1, -1):
        assert game.pop() == events[k]
        assert record.events == events[:k]
        assert game.state == states[k]
        if k % CHECK_EVERY == 0 or k == len(events) - 1:
            fresh = _prefix(record, k)
            assert game.state == fresh.state and game.state.to_json() == fresh.state.to_json()
            # Taken back, then played again: the same state, the same record.
            game.apply(events[k])
            assert game.state == states[k + 1] and record.events == events[:k + 1]
            assert game.pop() == events[k] and game.state == states[k]
    with pytest.raises(ValueError) as caught:
        game.pop()
    assert caught.value.code == "follow.nothing_to_undo"
    assert game.state == states[0] and record.events == []


@pytest.mark.parametrize("game,options", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_popping_every_event_gives_the_replayed_state(game: str, options: dict, players: int) -> None:
    match = _played(game, options, players, seed=players + 1)
    events = [dict(e) for e in match.record.events]
    states = _forward(match.record)
    assert match.state.is_over() and match.state == states[-1]
    _pop_to_the_start(match, events, states)
    # A Game built from a record (replayed in its constructor) pops every event too.
    rebuilt = Game(Record(game, players, options, match.record.start_player, list(events)))
    assert rebuilt.state == states[-1]
    _pop_to_the_start(rebuilt, events, states)


@pytest.mark.parametrize("game", ["azul", "pavilion"])
def test_an_empty_game_has_nothing_to_undo(game: str) -> None:
    match = Game.new(game, 2)
    with pytest.raises(ValueError) as caught:
        match.pop()
    assert caught.value.code == "follow.nothing_to_undo"
    assert match.record.events == []


def test_a_refused_event_leaves_nothing_to_pop() -> None:
    match = _played("azul", {}, 2, seed=3)
    events = list(match.record.events)
    states = _forward(match.record)
    for _ in range(len(events) // 2):
        match.pop()
    k = len(match.record.events)
    with pytest.raises(ValueError):  # out of turn, or no chance event
        match.apply({"player": 1 - match.state.current_player, "move": events[k]["move"]}
                    if "move" in events[k] else {"player": 0, "move": "nonsense"})
    assert match.pop() == events[k - 1] and match.state == states[k - 1]


@pytest.mark.parametrize("game,options", [VARIANTS[0], VARIANTS[5]])
def test_a_position_event_pops_back_to_before_it(game: str, options: dict) -> None:
    full = _played(game, options, 3, seed=11)
    events = full.record.events
    # Take the game up where a player is taking tiles, part-way through.
    match = Game.new(game, 3, options, full.record.start_player)
    for event in events[:len(events) // 2]:
        match.apply(event)
    while match.state.current_player < 0 or match.state.to_json()["phase"] not in ("offer", "acquire"):
        match.apply(events[len(match.record.events)])
    k = len(match.record.events)
    before, state = match.state.copy(), match.state
    position = position_from(observation_of(state), options, state.round, state.scores(), state.current_player)
    match.apply({"position": position.to_json()})
    assert match.state == position
    state.play(state.legal_moves()[0])  # the old state, played on by whoever held it, is no snapshot
    for event in events[k:k + 5]:
        match.apply(event)
    after = [match.pop() for _ in range(5)]
    assert after[::-1] == events[k:k + 5] and match.state == position
    assert match.pop() == {"position": position.to_json()}
    assert match.state == before and match.record.events == events[:k]
    assert match.state == _prefix(match.record, k).state
    # A record that starts from the position: popped back to the game's first state.
    record = Record(game, 3, options, position.current_player, [{"position": position.to_json()}] + events[k:k + 5])
    joined = Game(record)
    for _ in range(5):
        joined.pop()
    assert joined.state == position
    assert joined.pop() == {"position": position.to_json()}
    assert joined.state == record.new_state() and record.events == []


@pytest.mark.parametrize("game,options", [VARIANTS[1], VARIANTS[4]])
def test_a_seeded_record_without_chance_events_pops_each_move(game: str, options: dict) -> None:
    """A deal drawn from the record's seed goes with the written move after it: popped, the game
    is what the shorter seeded record replays to, deals drawn included."""
    seed = 5
    full = _played(game, options, 3, seed)
    moves = [e for e in full.record.events if "move" in e]
    record = Record(game, 3, options, full.record.start_player, list(moves), seed=seed)
    match = Game(record)
    assert match.state == full.state
    for k in range(len(moves) - 1, -1, -1):
        assert match.pop() == moves[k]
        if k % CHECK_EVERY == 0:
            assert match.state == _prefix(record, k).state
    assert match.state == _prefix(record, 0).state  # the first deal, drawn from the seed


def test_events_changed_other_than_by_apply_are_replayed_once() -> None:
    match = _played("pavilion", {"side": "colored"}, 2, seed=8)
    events = list(match.record.events)
    del match.record.events[-3:]  # written to behind the game's back
    assert match.pop() == events[-4]
    assert match.state == _prefix(match.record, len(events) - 4).state
    assert match.pop() == events[-5]
    assert match.state == _prefix(match.record, len(events) - 5).state
