"""Properties of Azul: Summer Pavilion that hold at every step of every game.

Seeded random games on both sides of the board, for 2, 3 and 4 players, played by two
policies: ``uniform`` (uniform over ``legal_moves()``) and ``placer`` (prefers placements over
passes, so that games reach the bonus tiles, supply refills, tower draws and end bonuses that
uniform play rarely gets to). Each test walks the games and checks one property at every ply
and chance event: tile conservation, scores never below 1, the game ending after round 6,
well-formed legal moves, checked and unchecked play agreeing, copies and JSON round trips,
records replaying the game exactly and the score being the sum of its scored events.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from azulcam.engine import pavilion_board as topo
from azulcam.engine.common import CHANCE, TERMINAL, Outcome, Scored
from azulcam.engine.errors import IllegalMoveError, ImpossibleDealError
from azulcam.engine.pavilion import (
    Bonus,
    Deal,
    Pass,
    PavilionState,
    Place,
    Refill,
    Take,
)
from azulcam.engine.players import GreedyPlayer, RandomPlayer
from azulcam.engine.record import Game, Record, final_state, play_game, replay

TOTAL_TILES = 132
PER_COLOR = 22
COLORS = topo.COLORS
BREAKDOWN_KEYS = {"start", "placement", "penalties", "stars", "numbers"}
#: A generous bound on the events of a game: 6 deals, and every take, placement, bonus and
#: refill moves at least one of the 132 tiles (a pass per player per round on top).
MAX_EVENTS = 2000

SIDES = ("colored", "grey")
PLAYER_COUNTS = (2, 3, 4)
POLICIES = ("uniform", "placer")
SEEDS = (1, 2)

GAMES = [
    pytest.param(side, players, seed, policy, id=f"{side}-{players}p-{policy}-s{seed}")
    for side in SIDES
    for players in PLAYER_COUNTS
    for policy in POLICIES
    for seed in SEEDS
]
CONFIGS = [
    pytest.param(side, players, id=f"{side}-{players}p") for side in SIDES for players in PLAYER_COUNTS
]


# --------------------------------------------------------------------------- helpers


def choose(state: PavilionState, rng: random.Random, policy: str) -> Any:
    """A legal move: uniform over ``legal_moves()``, or (``placer``) a placement 9 times in 10."""
    moves = state.legal_moves()
    assert len(moves) > 0, f"no legal move for player {state.current_player} in {state!r}"
    if policy == "placer" and rng.random() < 0.9:
        placements = [m for m in moves if not isinstance(m, Pass)]
        if placements:
            return placements[rng.randrange(len(placements))]
    return moves[rng.randrange(len(moves))]


def walk(players: int, side: str, seed: int, policy: str) -> Iterator[tuple[PavilionState, Any]]:
    """Play a seeded game, yielding ``(state, event)`` before each chance event or move; the
    event is applied (checked) after the caller resumes. Ends with ``(final_state, None)``."""
    rng = random.Random(seed * 1009 + players)
    state = PavilionState.new(players, side, start_player=seed % players)
    for _ in range(MAX_EVENTS):
        if state.is_over():
            yield state, None
            return
        if state.current_player == CHANCE:
            event = state.sample_chance(rng)
            yield state, event
            state.apply_chance(event)
        else:
            move = choose(state, rng, policy)
            yield state, move
            state.play(move)
    pytest.fail(f"the game did not end within {MAX_EVENTS} events")


def check_tiles(state: PavilionState, where: str) -> None:
    counts = state.tile_counts()
    assert len(counts) == 6, where
    assert sum(counts) == TOTAL_TILES, f"{where}: {sum(counts)} tiles in the game, not 132: {counts}"
    assert counts == [PER_COLOR] * 6, f"{where}: tiles per colour {dict(zip(COLORS, counts))}"


def snapshot(state: PavilionState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def recorded_game(players: int, side: str, seed: int, bots: str = "random") -> Game:
    """A whole game by built-in players (greedy ones place a lot: bonuses, refills, end bonuses)."""
    made = [RandomPlayer(seed * 10 + p) if bots == "random" else GreedyPlayer() for p in range(players)]
    return play_game("pavilion", made, {"side": side}, seed, start_player=seed % players)


RECORDED = [pytest.param(5, "random", id="random-s5"), pytest.param(6, "random", id="random-s6"),
            pytest.param(5, "greedy", id="greedy-s5")]


# --------------------------------------------------------------------------- tiles and scores


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_all_132_tiles_are_always_somewhere(side: str, players: int, seed: int, policy: str) -> None:
    """Bag, tower, supply, factories, centre, hands, boards and corners hold 22 of each colour,
    before and after every chance event and every move."""
    n = 0
    for state, event in walk(players, side, seed, policy):
        check_tiles(state, f"event {n} ({state.phase}, round {state.round})")
        n += 1
    check_tiles(state, "at the end")
    # the counts are of the state, not cached: a copy and a JSON round trip count the same
    assert state.copy().tile_counts() == state.tile_counts()
    assert PavilionState.from_json(state.to_json()).tile_counts() == state.tile_counts()


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_scores_never_drop_below_one(side: str, players: int, seed: int, policy: str) -> None:
    for state, event in walk(players, side, seed, policy):
        scores = state.scores()
        assert len(scores) == players
        assert min(scores) >= 1, f"round {state.round} {state.phase}: scores {scores}"
        if event is not None and state.current_player >= 0:
            # the announced immediate points never promise a drop below 1 either
            before = scores[state.current_player]
            assert before + state.immediate_points(event) >= 1
    assert min(state.scores()) >= 1


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_breakdown_sums_to_scores_at_every_step(side: str, players: int, seed: int, policy: str) -> None:
    for state, _ in walk(players, side, seed, policy):
        parts = state.breakdown()
        assert len(parts) == players
        for p, (part, score) in enumerate(zip(parts, state.scores())):
            assert set(part) == BREAKDOWN_KEYS
            assert sum(part.values()) == score, f"player {p}: {part} does not add up to {score}"
            assert part["start"] == 5
            assert part["placement"] >= 0 and part["penalties"] <= 0
            if not state.is_over():
                assert part["stars"] == 0 and part["numbers"] == 0, "end bonuses before the end"
    assert state.is_over()


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_winners_are_the_players_with_the_top_score(side: str, players: int, seed: int, policy: str) -> None:
    for state, _ in walk(players, side, seed, policy):
        pass
    scores = state.scores()
    best = max(scores)
    assert state.winners() == [p for p in range(players) if scores[p] == best]
    assert state.winners() and all(scores[p] == best for p in state.winners())


# --------------------------------------------------------------------------- game length


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_games_end_after_round_six(side: str, players: int, seed: int, policy: str) -> None:
    rounds_seen = []
    deals = refills = moves = 0
    last_round = 1
    for state, event in walk(players, side, seed, policy):
        assert 1 <= state.round <= 6
        assert state.round in (last_round, last_round + 1), "rounds advance one at a time"
        last_round = state.round
        if event is None:
            break
        assert not state.is_over() and state.current_player != TERMINAL
        if isinstance(event, Deal):
            deals += 1
            rounds_seen.append(state.round)
            assert (event.supply is not None) == (state.round == 1), "the supply is dealt at setup only"
        elif isinstance(event, Refill):
            refills += 1
        else:
            moves += 1
    assert state.is_over() and state.phase == "over"
    assert state.round == 6
    assert state.current_player == TERMINAL
    assert rounds_seen == [1, 2, 3, 4, 5, 6], "one deal at the start of each of the six rounds"
    assert deals + refills + moves < MAX_EVENTS
    assert len(state.legal_moves()) == 0 and list(state.legal_moves()) == []
    # nothing more happens once the game is over
    with pytest.raises(IllegalMoveError):
        state.sample_chance(random.Random(0))
    with pytest.raises(ImpossibleDealError):
        state.apply_chance(Deal(tuple(() for _ in range({2: 5, 3: 7, 4: 9}[players]))))
    with pytest.raises(IllegalMoveError):
        state.play(Pass(()))


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_start_player_token_goes_round(side: str, players: int, seed: int, policy: str) -> None:
    """The token is in the centre at every deal; the first take from the centre gives it to the
    taker, who starts phase 2 and the next round; a round nobody took from the centre keeps the
    start player (ruling 4)."""
    holder = None
    start = seed % players
    for state, event in walk(players, side, seed, policy):
        token = state.to_json()["token"]
        if state.phase == "deal":
            assert token == "center"
            assert state.start_player == start
            holder = None
        elif state.phase == "acquire":
            assert token == ("center" if holder is None else holder)
            if isinstance(event, Take) and event.source == "center" and holder is None:
                holder = state.current_player
        elif state.phase in ("place", "bonus", "refill"):
            if holder is not None:
                start = holder
            assert token == ("center" if holder is None else holder)
            assert state.start_player == start
        if event is None:
            break


@pytest.mark.parametrize("side, players", CONFIGS)
def test_round_over_flags_mark_six_round_ends(side: str, players: int) -> None:
    """``round_over`` is set by exactly the six moves that end a round (the last pass), and
    ``game_over`` by the last one only; each leaves chance (or nobody) to act."""
    rng = random.Random(players)
    state = PavilionState.new(players, side)
    ends = []
    while not state.is_over():
        if state.current_player == CHANCE:
            outcome = state.apply_chance(state.sample_chance(rng))
            assert not outcome.round_over and not outcome.game_over
        else:
            move = choose(state, rng, "placer")
            outcome = state.play(move)
            if outcome.round_over:
                assert isinstance(move, Pass)
                ends.append((state.round, outcome.game_over))
                assert state.current_player == (TERMINAL if outcome.game_over else CHANCE)
            else:
                assert not outcome.game_over
    assert ends == [(2, False), (3, False), (4, False), (5, False), (6, False), (6, True)]


# --------------------------------------------------------------------------- legal moves


def _move_kinds(phase: str) -> tuple[type, ...]:
    return {"acquire": (Take,), "place": (Place, Pass), "bonus": (Bonus,)}[phase]


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_legal_moves_are_distinct_consistent_and_playable(side: str, players: int, seed: int, policy: str) -> None:
    rng = random.Random(seed + 77)
    for state, event in walk(players, side, seed, policy):
        moves = state.legal_moves()
        if state.current_player < 0:
            assert len(moves) == 0 and list(moves) == []
            continue
        listed = list(moves)
        assert len(listed) == len(moves), "len() and iteration disagree"
        assert len(set(listed)) == len(listed), f"duplicate moves in {state.phase}: {moves!r}"
        assert all(isinstance(m, _move_kinds(state.phase)) for m in listed)
        if state.phase == "place":
            assert any(isinstance(m, Pass) for m in listed), "a player may always pass"
        # indexing builds the same moves, negative indices too, and stops at the end
        for i in rng.sample(range(len(listed)), min(5, len(listed))):
            assert moves[i] == listed[i]
            assert moves[i - len(listed)] == listed[i]
        with pytest.raises(IndexError):
            moves[len(listed)]
        assert event in moves
        # each listed move passes the checked play() on a copy (first, last and a few more)
        before = snapshot(state)
        picks = {0, len(listed) - 1, *rng.sample(range(len(listed)), min(4, len(listed)))}
        for i in sorted(picks):
            trial = state.copy()
            outcome = trial.play(listed[i])
            assert isinstance(outcome, Outcome)
            assert trial != state, f"{listed[i]} changed nothing"
            check_tiles(trial, f"after {listed[i]}")
        assert snapshot(state) == before, "playing on a copy changed the original"


@pytest.mark.parametrize("side, players", CONFIGS)
def test_every_legal_move_is_playable_early_in_the_game(side: str, players: int) -> None:
    """All the moves, not a sample, for the first plies of a few games (both phases)."""
    for seed in (3, 4):
        checked_place = checked_take = 0
        for state, _ in walk(players, side, seed, "placer"):
            if state.round > 2:
                break
            if state.current_player < 0:
                continue
            for move in state.legal_moves():
                state.copy().play(move)
                checked_place += isinstance(move, (Place, Pass))
                checked_take += isinstance(move, Take)
        assert checked_place and checked_take


# --------------------------------------------------------------------------- play, copy, JSON


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_play_and_play_unchecked_give_identical_states(side: str, players: int, seed: int, policy: str) -> None:
    """Two copies of each game, one checked and one unchecked, stay equal at every step (the
    unchecked one carries on from its own states, so hidden bookkeeping must agree too)."""
    rng = random.Random(seed * 31 + players)
    checked = PavilionState.new(players, side, start_player=seed % players)
    unchecked = checked.copy()
    for _ in range(MAX_EVENTS):
        if checked.is_over():
            break
        assert checked.current_player == unchecked.current_player
        if checked.current_player == CHANCE:
            event = checked.sample_chance(rng)
            checked.apply_chance(event)
            unchecked.apply_chance_unchecked(event)
        else:
            move = choose(checked, rng, policy)
            assert list(unchecked.legal_moves()) == list(checked.legal_moves())
            checked.play(move)
            unchecked.play_unchecked(move)
        assert unchecked == checked
        assert unchecked.to_json() == checked.to_json()
    assert unchecked.is_over() and checked.is_over()
    assert unchecked.scores() == checked.scores()


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_copies_are_independent(side: str, players: int, seed: int, policy: str) -> None:
    rng = random.Random(seed * 7 + 1)
    for state, event in walk(players, side, seed, policy):
        if event is None or rng.random() > 0.15:
            continue
        before = snapshot(state)
        twin = state.copy()
        assert twin == state and twin is not state
        assert type(twin) is PavilionState
        assert snapshot(twin) == before
        assert list(twin.legal_moves()) == list(state.legal_moves())
        # play the twin on for a while: the original does not move
        for _ in range(8):
            if twin.is_over():
                break
            if twin.current_player == CHANCE:
                twin.apply_chance(twin.sample_chance(rng))
            else:
                twin.play(choose(twin, rng, "placer"))
        assert snapshot(state) == before, "playing a copy changed the original"
        assert twin != state
        # and the other way round: a fresh copy is unaffected by the original's next event
        other = state.copy()
        probe = state.copy()
        if probe.current_player == CHANCE:
            probe.apply_chance(event)
        else:
            probe.play(event)
        assert snapshot(other) == before
        for p in range(players):
            assert other.board(p) is not state.board(p)
            assert other.board(p).hand is not state.board(p).hand
            assert other.board(p).space is not state.board(p).space
            assert other.board(p).corners is not state.board(p).corners


@pytest.mark.parametrize("side, players, seed, policy", GAMES)
def test_json_round_trip_at_random_points(side: str, players: int, seed: int, policy: str) -> None:
    """``from_json(to_json(s)) == s``, through JSON text too; the game then goes on from the
    restored state exactly as the original would (hidden bookkeeping is rebuilt)."""
    rng = random.Random(seed * 13 + players)
    picker = random.Random(seed)
    state = PavilionState.new(players, side, start_player=seed % players)
    reference = state.copy()
    restored_at = []
    for n in range(MAX_EVENTS):
        if state.is_over():
            break
        # every pending bonus or refill (state that only a few plies have), and random points
        if picker.random() < 0.2 or state.phase in ("bonus", "refill"):
            text = json.dumps(state.to_json())
            restored = PavilionState.from_json(json.loads(text))
            assert restored == state
            assert restored.to_json() == state.to_json()
            assert restored.current_player == state.current_player
            assert restored.phase == state.phase and restored.round == state.round
            assert list(restored.legal_moves()) == list(state.legal_moves())
            state = restored  # carry on from the restored state
            restored_at.append(n)
        if state.current_player == CHANCE:
            event = state.sample_chance(rng)
            state.apply_chance(event)
            reference.apply_chance(event)
        else:
            move = choose(state, rng, policy)
            state.play(move)
            reference.play(move)
        assert state == reference
    assert restored_at and state.is_over() and reference.is_over()
    final = PavilionState.from_json(json.loads(json.dumps(state.to_json())))
    assert final == state and final.is_over() and final.scores() == state.scores()
    assert final.winners() == state.winners()


def test_equality_sees_every_difference() -> None:
    state = PavilionState.new(2, "colored")
    assert state == state.copy()
    assert state != PavilionState.new(2, "grey")
    assert state != PavilionState.new(3, "colored")
    assert state != PavilionState.new(2, "colored", start_player=1)
    dealt = state.copy()
    dealt.apply_chance(dealt.sample_chance(random.Random(0)))
    assert dealt != state
    other = state.copy()
    other.apply_chance(other.sample_chance(random.Random(1)))
    assert other != dealt


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize("side, players", CONFIGS)
@pytest.mark.parametrize("seed, bots", RECORDED)
def test_replaying_a_record_reproduces_the_game(side: str, players: int, seed: int, bots: str) -> None:
    game = recorded_game(players, side, seed, bots)
    assert game.state.is_over()
    text = game.record.dumps()
    record = Record.loads(text)
    assert record.to_json() == game.record.to_json()
    assert record.dumps() == text
    end = final_state(record)
    assert end == game.state
    assert end.to_json() == game.state.to_json()
    assert end.scores() == game.state.scores() and end.winners() == game.state.winners()
    # step by step: one step per event, in order, the move events by the player to move
    steps = list(replay(record))
    assert [s.index for s in steps] == list(range(len(record.events)))
    assert [s.event for s in steps] == record.events
    # the same seed plays the same game
    assert recorded_game(players, side, seed, bots).record.to_json() == game.record.to_json()


@pytest.mark.parametrize("side, players", CONFIGS)
@pytest.mark.parametrize("seed, bots", RECORDED)
def test_final_score_is_five_plus_the_scored_events(side: str, players: int, seed: int, bots: str) -> None:
    """Recount from the replayed outcomes: 5 + every Scored point, per player, is the final
    score, and the points of each reason add up to that part of the breakdown."""
    game = recorded_game(players, side, seed, bots)
    record = Record.loads(game.record.dumps())
    total = [5] * players
    by_reason: list[dict[str, int]] = [{} for _ in range(players)]
    state = None
    for step in replay(record):
        state = step.state
        for e in step.outcome.events:
            if isinstance(e, Scored):
                assert 0 <= e.player < players
                total[e.player] += e.points
                by_reason[e.player][e.reason] = by_reason[e.player].get(e.reason, 0) + e.points
                assert e.reason in BREAKDOWN_KEYS | {"bonus"}, f"unknown reason {e.reason!r}"
                if e.reason == "bonus":
                    assert e.points == 0, "bonus tiles are announced, not scored"
    assert state is not None and state.is_over()
    assert total == state.scores() == game.state.scores()
    for p, part in enumerate(state.breakdown()):
        for key in ("placement", "penalties", "stars", "numbers"):
            assert by_reason[p].get(key, 0) == part[key], f"player {p} {key}"


@pytest.mark.parametrize("side", SIDES)
def test_recount_covers_every_kind_of_event(side: str) -> None:
    """The recount, event by event, on greedy games: they reach bonuses, refills, completed
    stars and number bonuses, so that every kind of Scored event is counted somewhere."""
    saw = set()
    for players in PLAYER_COUNTS:
        game = recorded_game(players, side, players, "greedy")
        total = [5] * players
        for step in replay(Record.loads(game.record.dumps())):
            event = step.event
            saw.add(event["move"]["action"] if "move" in event else next(iter(event)))
            for e in step.outcome.scored:
                total[e.player] += e.points
                saw.add(e.reason)
            assert total == step.state.scores(), f"event {step.index}: {event}"
        assert [sum(part.values()) for part in game.state.breakdown()] == game.state.scores() == total
    assert {"deal", "refill", "take", "place", "bonus", "pass",
            "placement", "penalties", "bonus", "stars", "numbers"} <= saw
