"""The move assistant: legal moves ranked by playouts whose deals are drawn, never read."""

from __future__ import annotations

import random

import pytest

from azulcam.engine.ai import suggest, why
from azulcam.engine.azul import AzulState
from azulcam.engine.errors import EngineError
from azulcam.engine.pavilion import PavilionState
from azulcam.engine.players import make_player
from azulcam.engine.record import play_game, replay


def _dealt(state):
    state.apply_chance(state.sample_chance(random.Random(3)))
    return state


@pytest.mark.parametrize("state", [_dealt(AzulState.new(2)), _dealt(AzulState.new(3, "grey", True)),
                                   _dealt(PavilionState.new(2)), _dealt(PavilionState.new(4, "grey"))])
def test_suggestions_are_legal_ranked_and_leave_the_state_alone(state):
    before = state.copy()
    found = suggest(state, playouts=60, top=3, seed=1)
    assert 1 <= len(found) <= 3 and state == before
    legal = state.legal_moves()
    assert all(s.move in legal and s.player == state.current_player and s.playouts > 0 for s in found)
    assert [s.playouts for s in found] == sorted((s.playouts for s in found), reverse=True)  # the search's choice first
    for s in found:  # what it leaves the next player: their most searched answer, a legal move after this one
        assert s.next_player == (state.current_player + 1) % len(state.scores())
        if s.answer is not None:
            after = state.copy()
            after.play(s.move)
            assert after.current_player == s.next_player and s.answer in after.legal_moves()
        assert s.lost >= 0 and 0.0 <= s.win <= 1.0
    again = suggest(state, playouts=60, top=3, seed=1)
    assert [s.to_json() for s in again] == [s.to_json() for s in found]  # the same playouts, the same answer


def test_the_search_refuses_what_it_cannot_search():
    from azulcam.engine import fast

    dealt = fast.core_of(_dealt(AzulState.new(2)))
    for bad in ((-1.0, 0, 0.25, 1), (1.0, -5, 0.25, 1), (1.0, 0, 1.5, 1)):
        with pytest.raises(ValueError):
            dealt.search(*bad)
    for core in (fast.core_of(AzulState.new(2)), fast.core_of(PavilionState.new(3))):  # a deal is due
        with pytest.raises(ValueError):
            core.search(0.0, 10, 0.25, 1)


def test_searches_side_by_side_pool_their_moves_and_a_count_of_playouts_repeats_on_any_cores():
    state = _dealt(AzulState.new(2))
    one = suggest(state, playouts=400, top=3, seed=5, threads=1)
    two = suggest(state, playouts=400, top=3, seed=5, threads=2)
    assert [s.to_json() for s in one] == [s.to_json() for s in two]
    # Pooled: each move's visits are both searches' (each given half the count, its own stream of the seed's).
    from azulcam.engine import ai, fast

    seeds = random.Random(5)
    runs = [fast.core_of(state).search(0.0, 200, ai.WANDER, seeds.getrandbits(63), ai.TO_THE_END["azul"], 99,
                                       ai.MIN_PLAYOUTS)[1] for _ in range(2)]
    visits = {}
    for run in runs:
        for index, n, *_ in run:
            visits[index] = visits.get(index, 0) + n
    assert {s.index: s.playouts for s in suggest(state, playouts=400, top=99, seed=5)} == visits
    timed = suggest(state, 0.05, top=99, seed=5, threads=2)
    assert len({s.move for s in timed}) == len(timed) == len(state.legal_moves())  # each move once
    for bad in (0, 99):
        with pytest.raises(ValueError):
            suggest(state, playouts=10, threads=bad)


def test_a_line_to_the_game_s_end_is_judged_by_its_margin_not_only_by_who_won():
    """At the game's last move every line ends the game at once: each root move's result (what the
    search steers by) is the logistic of the mover's final margin (SEARCH_MARGIN, 4 points), not
    1, 0 or a half; its share of lines won stays who won."""
    import math

    from azulcam.engine import fast

    record = play_game("azul", [make_player("greedy"), make_player("greedy")], {}, 5).record  # its last move: 2 choices
    last = None
    for step in replay(record):
        state = step.state
        if state.current_player >= 0 and len(state.legal_moves()) > 1 and all(_after(state, m).is_over() for m in state.legal_moves()):
            last = state.copy()  # replay goes on with the same state
    assert last is not None and len(last.legal_moves()) > 1
    me = last.current_player
    _, found = fast.core_of(last).search(0.0, 400, 0.25, 1, True, 0, 0)
    moves, margins = last.legal_moves(), set()
    for index, visits, won, *_, value in found:
        if not visits:
            continue
        scores = _after(last, moves[index]).scores()
        margin = scores[me] - max(s for p, s in enumerate(scores) if p != me)
        margins.add(margin)
        assert value == pytest.approx(1.0 / (1.0 + math.exp(-margin / 4.0)), abs=1e-5)
        assert won == (1.0 if margin > 0 else 0.0)  # what a suggestion shows: the share of lines won
    assert len(margins) > 1  # the moves end the game by different margins: the search tells them apart


def _after(state, move):
    after = state.copy()
    after.play(move)
    return after


def test_no_suggestion_where_no_player_is_to_move():
    with pytest.raises(EngineError) as caught:
        suggest(AzulState.new(2), playouts=5)
    assert caught.value.code == "suggest.chance_due"
    over = play_game("azul", [make_player("greedy"), make_player("greedy")], {}, 4).state
    with pytest.raises(EngineError) as caught:
        suggest(over, playouts=5)
    assert caught.value.code == "suggest.game_over"


def test_the_reason_names_the_line_completed_and_the_floor():
    """At every position of a game, the round's last moves too (they clear the floor line and
    tile the lines, so the board after them no longer shows what they did)."""
    record = play_game("azul", [make_player("greedy"), make_player("greedy")], {}, 9).record
    last_moves = 0
    for step in replay(record):
        state = step.state
        if state.current_player < 0:
            continue
        was = state.to_json()["boards"][state.current_player]
        for move in state.legal_moves():
            reason = why(state, move)
            assert reason["penalty"] <= 0 and reason["floor"] >= 0
            if move.line == "floor":
                assert "completes" not in reason and reason["floor"] >= 1
            if "completes" in reason:
                assert reason["completes"] == move.line + 1 and reason["placement"] >= 0
                assert state.immediate_points(move) == reason["placement"] + reason["penalty"]
            after = state.copy()
            after.play(move)
            if after.phase != "offer":  # the round's end came
                last_moves += 1
                continue
            now = after.to_json()["boards"][state.current_player]
            assert reason["floor"] == len(now["floor"]) - len(was["floor"])
            if "line" in reason:
                line = now["lines"][move.line]
                assert reason["on_line"] == line["count"] + line["jokers"]
    assert last_moves > 0


def test_the_assistant_beats_the_greedy_player_more_often_than_not():
    """A short check (the figure is bench/ai.py's): 200 playouts a move (on the rules core), 10
    games, seats swapped."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("bench_ai", Path(__file__).resolve().parents[2] / "bench" / "ai.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    play = bench.play

    results = [play("azul", 2, seat, 700 + k, 0.0, "greedy", playouts=200)[0] for k in range(5) for seat in (0, 1)]
    assert sum(results) >= 8


@pytest.mark.parametrize(("kind", "players", "options"), [
    (AzulState, 2, {"wall": "colored", "jokers": False}), (AzulState, 3, {"wall": "grey", "jokers": False}),
    (AzulState, 4, {"wall": "colored", "jokers": True}), (AzulState, 2, {"wall": "grey", "jokers": True}),
    (PavilionState, 3, {"side": "colored"}), (PavilionState, 2, {"side": "grey"}),
])
def test_a_suggestion_in_every_phase_of_every_variant(kind, players, options):
    """Through a whole game: wall tiling on a grey wall, jokers, Summer Pavilion's bonus tiles."""
    rng = random.Random(players)
    state = kind.new(players, **options)
    phases, decisions = set(), 0
    while not state.is_over():
        if state.current_player < 0:
            state.apply_chance(state.sample_chance(rng))
            continue
        if state.phase not in phases or decisions % 15 == 0:
            phases.add(state.phase)
            best = suggest(state, playouts=6, top=1, seed=decisions)[0]
            assert best.move in state.legal_moves() and best.why and best.playouts > 0
        decisions += 1
        state.play(state.greedy_move() if rng.random() < 0.7 else state.legal_moves()[0])
    expected = {"offer", "tiling"} if kind is AzulState and options["wall"] == "grey" else (
        {"offer"} if kind is AzulState else {"acquire", "place", "bonus"})
    assert expected <= phases
