"""The Summer Pavilion core in C (engine/fast.py's FastPavilion) against the Python engine, which
stays the rules of record: the same legal moves in the same order, the same greedy move, the same
state after every move and chance event, the same scores and winners, in every variant and player
count, from the start, from states taken up mid-game (pooled ones too) and along every record.

At every ply the core's state is compared with the reference's by the fields the core reads
from a reference state (``export()`` against ``fast_pavilion._pavilion_data``: cheap); ``to_json()`` is compared in
full at every ply of a share of the games and at the end of all of them.

These tests fail (never skip) where the core was not built: ``pip install -e .`` builds it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from azulcam.engine import fast, fast_pavilion
from azulcam.engine.common import CHANCE, TERMINAL
from azulcam.engine.fast import FastPavilion
from azulcam.engine.pavilion import Deal, PavilionState, Refill, move_from_json
from azulcam.engine.record import Record

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"
VARIANTS = [(players, side) for side in ("colored", "grey") for players in (2, 3, 4)]
#: Random games per variant and player count (six of them; ``AZULCAM_FAST_GAMES`` for a longer
#: run), and the share of them checked by to_json at every ply.
GAMES = int(os.environ.get("AZULCAM_FAST_GAMES", "400"))
FULL_JSON_EVERY = 10


def ref_key(state: PavilionState) -> Any:
    """A reference state's fields as the core reads them (``fast_pavilion._pavilion_data``), which the
    core's ``export()`` returns in the same shapes: equal when the states are."""
    return fast_pavilion._pavilion_data(state)


def check_same(state: PavilionState, core: Any, full: bool = False) -> None:
    assert core.export() == ref_key(state)
    assert core.current_player == state.current_player
    if full:
        assert core.to_json() == state.to_json()


def check_moves(state: PavilionState, core: Any) -> list[Any]:
    """The legal moves and the greedy move agree; returns the moves."""
    moves = list(state.legal_moves())
    assert core.legal_moves() == moves
    assert core.legal_count() == len(moves)
    assert moves[core.greedy_index()] == state.greedy_move()
    return moves


def pooled(state: PavilionState) -> PavilionState:
    """The state as a game taken up mid-way knows it: bag and tower known only together."""
    data = state.to_json()
    data["pooled"] = True
    return PavilionState.from_json(data)


def lockstep(seed: int, players: int, side: str, full: bool) -> None:
    """One random game (some greedy moves, for bonuses and refills), the core following from a
    random ply (sometimes the first), chance drawn by the reference and applied to both."""
    rng = random.Random(seed)
    state = PavilionState.new(players, side, rng.randrange(players))
    start = 0 if rng.random() < 0.3 else rng.randrange(250)
    greedy = rng.choice((0.0, 0.5, 0.9))
    core = None
    ply = 0
    while True:
        if core is None and (ply >= start or state.is_over()):
            if ply and rng.random() < 0.2:
                state = pooled(state)
            core = FastPavilion.of(state)
        if core is not None:
            check_same(state, core, full)
        to_move = state.current_player
        if to_move == TERMINAL:
            break
        if to_move == CHANCE:
            event = state.sample_chance(rng)
            state.apply_chance(event)
            if core is not None:
                core.apply_chance(event)
        else:
            moves = check_moves(state, core) if core is not None else state.legal_moves()
            i = moves.index(state.greedy_move()) if rng.random() < greedy else rng.randrange(len(moves))
            state.play_unchecked(moves[i])
            if core is not None:
                core.play_index(i)
        ply += 1
    assert core.to_json() == state.to_json()
    assert core.scores() == state.scores()
    assert core.winners() == state.winners()
    assert core.current_player == TERMINAL and core.legal_count() == 0


def test_the_core_is_built() -> None:
    assert fast.AVAILABLE['pavilion'], "the C core is not built: pip install -e . builds it (setup.py)"


@pytest.mark.parametrize("players, side", VARIANTS)
def test_random_games_agree_with_the_reference(players: int, side: str) -> None:
    base = 1000 * players + (500 if side == "grey" else 0)
    for k in range(GAMES):
        lockstep(base + k, players, side, full=k % FULL_JSON_EVERY == 0)


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("pavilion-*.json") if ".score." not in p.name))
def test_records_replay_alike(name: str) -> None:
    """Every Summer Pavilion record, its events applied to the core and to the reference, and
    the core taken up afresh from the reference at every event."""
    record = Record.load(RECORDS / name)
    state = record.new_state()
    core = FastPavilion.of(state)
    for event in record.events:
        check_same(state, core, full=True)
        if "move" in event:
            check_moves(state, core)
            move = state._read_move(move_from_json(event["move"]))  # a bare pass: ruling 6's keep
            core.play(move)
            state.play(move)
        else:
            core.apply_chance(event)
            state.apply_chance(event)
        assert FastPavilion.of(state).to_json() == state.to_json()
    check_same(state, core, full=True)
    assert core.scores() == state.scores() and core.winners() == state.winners()


def drawn_event(before: dict[str, Any], after: dict[str, Any]) -> Deal | Refill:
    """The chance event that took the core from ``before`` to ``after`` (JSON states)."""
    if before["phase"] == "deal":
        supply = tuple(after["supply"]) if all(c is None for c in before["supply"]) and after["supply"][0] else None
        dealt = [Counter(a) - Counter(b) for a, b in zip(after["factories"], before["factories"])]
        return Deal(tuple(tuple(c.elements()) for c in dealt), supply)
    return Refill(tuple(a for a, b in zip(after["supply"], before["supply"]) if b is None and a is not None))


@pytest.mark.parametrize("players, side", VARIANTS)
def test_deal_random_draws_what_the_rules_allow(players: int, side: str) -> None:
    """Whole games with chance drawn by the core: each draw, given to the reference as an event,
    passes its checks (what the bag holds, the tower poured in only once it is empty) and leaves
    the same state; every tile stays somewhere."""
    for seed in range(40):
        rng = random.Random(seed)
        state = PavilionState.new(players, side)
        if seed % 4 == 3:
            state = pooled(state)
        core = FastPavilion.of(state)
        core.seed(seed)
        while state.current_player != TERMINAL:
            if state.current_player == CHANCE:
                before = core.to_json()
                core.deal_random()
                state.apply_chance(drawn_event(before, core.to_json()))
                assert core.to_json() == state.to_json()
                assert PavilionState.from_json(core.to_json()).tile_counts() == [22] * 6
            else:
                moves = state.legal_moves()
                i = core.greedy_index() if rng.random() < 0.7 else rng.randrange(len(moves))
                state.play_unchecked(moves[i])
                core.play_index(i)


def test_deal_random_empties_the_bag_before_the_tower() -> None:
    data = PavilionState.new(2).to_json()
    data.update(round=2, bag={"purple": 3}, tower={"green": 30, "red": 99})
    core = FastPavilion.of(PavilionState.from_json(data))
    core.deal_random()
    after = core.to_json()
    dealt = Counter(c for f in after["factories"] for c in f)
    assert dealt["purple"] == 3 and sum(dealt.values()) == 20
    assert after["tower"] == {} and after["bag"].get("purple", 0) == 0
    assert sum(after["bag"].values()) == 3 + 30 + 99 - 20


def test_deal_random_shares_colours_evenly() -> None:
    """The setup deal over many seeds: each colour near a sixth of the tiles dealt (30 a deal)."""
    start = FastPavilion.new(2)
    counts: Counter[str] = Counter()
    deals = 2000
    for seed in range(deals):
        core = start.copy()
        core.seed(seed)
        core.deal_random()
        after = core.to_json()
        counts.update(c for f in after["factories"] for c in f)
        counts.update(after["supply"])
    expected = deals * 30 / 6
    for color, n in counts.items():
        assert abs(n - expected) < 5 * expected ** 0.5, (color, n, expected)
    assert len(counts) == 6


def test_a_greedy_playout_is_the_greedy_game() -> None:
    """``playout(0)`` plays as a loop over greedy_index and deal_random on the same stream, and
    that game, mirrored on the reference, is the reference's greedy game."""
    for players, side in VARIANTS:
        start = FastPavilion.new(players, side)
        start.seed(players)
        out = start.copy().playout(0.0)
        core, state = start.copy(), PavilionState.new(players, side)
        round_end = None
        while True:
            to_move = core.current_player
            if round_end is None and (to_move == TERMINAL or (to_move == CHANCE and core.phase == "deal")):
                round_end = tuple((s, -b["penalties"]) for s, b in zip(state.scores(), state.breakdown()))
            if to_move == TERMINAL:
                break
            if to_move == CHANCE:
                before = core.to_json()
                core.deal_random()
                state.apply_chance(drawn_event(before, core.to_json()))
            else:
                move = state.greedy_move()
                assert core.legal_moves()[core.greedy_index()] == move
                core.play_index(core.greedy_index())
                state.play_unchecked(move)
        assert out == (tuple(state.scores()), tuple(state.winners()), round_end)


def test_playouts_are_sane_and_repeat_for_a_seed() -> None:
    rng = random.Random(5)
    for players, side in VARIANTS:
        state = PavilionState.new(players, side)
        for _ in range(rng.randrange(60)):  # somewhere in the first rounds
            if state.current_player == CHANCE:
                state.apply_chance(state.sample_chance(rng))
            else:
                moves = state.legal_moves()
                state.play_unchecked(moves[rng.randrange(len(moves))])
        core = FastPavilion.of(state)
        core.seed(11)
        a, b = core.copy(), core.copy()
        first, second = a.playout(0.25), b.playout(0.25)
        assert first == second and a.to_json() == b.to_json()
        scores, winners, round_end = first
        assert list(scores) == a.scores() and list(winners) == a.winners() and a.current_player == TERMINAL
        assert all(s >= 1 for s in scores) and winners and all(scores[w] == max(scores) for w in winners)
        assert len(round_end) == players
        assert all(score >= 1 and lost >= 0 for score, lost in round_end)
        assert PavilionState.from_json(a.to_json()).tile_counts() == [22] * 6
        c = core.copy()
        c.seed(12)
        assert c.random_game() > 0 and c.current_player == TERMINAL
        assert core.to_json() == state.to_json()  # copies played, the original untouched


def test_the_package_imports_without_the_core() -> None:
    """Where the extension could not be built, the engine still imports and says the core is
    missing (the assistant then plays on the Python engine)."""
    code = ("import sys; sys.modules['azulcam.engine._pavilion_core'] = None\n"
            "from azulcam.engine import fast, ai, pavilion\n"
            "assert fast.AVAILABLE['pavilion'] is False and fast.core_of(pavilion.PavilionState.new(2)) is None\n"
            "print(pavilion.PavilionState.new(2).current_player)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(CHANCE)


def test_bad_input_is_refused() -> None:
    core = FastPavilion.new(2)
    with pytest.raises(IndexError):
        core.play_index(0)  # a deal is due: no move
    with pytest.raises(ValueError):
        core.apply_chance(Refill(("red",)))
    with pytest.raises(ValueError):  # too few tiles: the setup deal fills every factory and the supply
        core.apply_chance(Deal((("red",),) * 5, ("red",) * 10))
    json.dumps(core.to_json())  # plain JSON values (the spaces' names are strings)
