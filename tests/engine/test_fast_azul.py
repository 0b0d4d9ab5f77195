"""The Azul rules core in C (``engine/fast.py``'s FastAzul) against the Python engine, its reference.

Seeded random games of every variant and player count are played in both: at every ply the core's
legal moves equal the reference's (in order), its greedy choice is the reference's, the same move
is played in both, and each deal is drawn by the reference and applied to both. The state is
compared at every ply by its flat form (every field the rules read, the lines' accepted colours and
the wall's blocks included, read from the reference's own fields: ``fast.flat_of``), and by
``to_json()`` every few plies and at the end; scores and winners at the end. Games also start from
thinned positions (a few tiles left in the bag and the lid), where they end "stalled" by each of the
reference's three rules, from mid-game states taken up by ``FastAzul.of``, and from every Azul
record of ``fixtures/records`` replayed.

The core is built by the install (``pip install -e .``): where it is missing these tests fail.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from azulcam.engine import fast
from azulcam.engine.azul import TILE_NAMES, AzulState, Deal, move_from_json
from azulcam.engine.common import CHANCE, TERMINAL
from azulcam.engine.fast import FastAzul
from azulcam.engine.fast_azul import flat_of
from azulcam.engine.record import Record, replay

RECORDS = Path(__file__).parents[2] / "fixtures" / "records"
VARIANTS = [(wall, jokers, players) for wall in ("colored", "grey") for jokers in (False, True) for players in (2, 3, 4)]
VARIANT_IDS = [f"{w}-{'jokers' if j else 'plain'}-{p}p" for w, j, p in VARIANTS]
parametrize_variants = pytest.mark.parametrize(("wall", "jokers", "players"), VARIANTS, ids=VARIANT_IDS)

#: Games per variant played from the start (12 variants: about 1,900 games, 35 s on one core; set
#: AZULCAM_FAST_GAMES for a longer run), and from thinned positions.
GAMES, THINNED = int(os.environ.get("AZULCAM_FAST_GAMES", 160)), 60
#: ``to_json()`` is compared every this many plies (the flat form at every ply).
JSON_EVERY = 5
#: Share of the plies played by the greedy move (else a uniformly random one), by game.
GREEDY_SHARES = (0.0, 0.5, 0.9)


def test_core_is_built() -> None:
    assert fast.AVAILABLE["azul"], "engine/_azul_core.c is not built: reinstall with `pip install -e .` (needs a C compiler)"


def test_package_imports_without_the_core() -> None:
    """Without the extension the package still imports and says so; making a core says why it cannot."""
    code = (
        "import sys\n"
        "sys.modules['azulcam.engine._azul_core'] = None\n"  # its import now raises ImportError
        "import azulcam.engine, azulcam.engine.ai\n"
        "from azulcam.engine import fast\n"
        "assert fast.AVAILABLE['azul'] is False, fast.AVAILABLE\n"
        "try:\n"
        "    fast.FastAzul.new(2)\n"
        "except RuntimeError as exc:\n"
        "    assert 'not built' in str(exc)\n"
        "else:\n"
        "    raise AssertionError('a core without the extension')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def play_both(ref: AzulState, rng: random.Random, greedy_share: float, retake: float = 0.0) -> tuple[AzulState, FastAzul]:
    """Play ``ref`` and its core copy to the end, checking them equal at every ply (see the module's
    docstring); ``retake`` is the chance, at each move, of taking the core up again from the
    reference (``FastAzul.of`` the state or its JSON)."""
    core = FastAzul.of(ref)
    ply = 0
    while True:
        assert core._dump() == tuple(flat_of(ref)), f"ply {ply}"
        if ply % JSON_EVERY == 0:
            assert core.to_json() == ref.to_json(), f"ply {ply}"
        player = ref.current_player
        assert core.current_player == player
        if player == TERMINAL:
            break
        if player == CHANCE:
            deal = ref.sample_chance(rng)
            ref.apply_chance(deal)
            core.apply_chance(deal)
        else:
            if rng.random() < 0.5:  # a fresh copy holds no move list: the core counts and finds the move itself
                core = core.copy()
                count = core.legal_count()
                greedy = core.greedy_index()
                moves = list(ref.legal_moves())
                assert count == len(moves)
            else:
                moves = list(ref.legal_moves())
                assert core.legal_moves() == moves, f"ply {ply}"
                assert core.legal_count() == len(moves)
                greedy = core.greedy_index()
            assert moves[greedy] == ref.greedy_move(), f"ply {ply}"
            i = greedy if rng.random() < greedy_share else rng.randrange(len(moves))
            if rng.random() < retake:
                core = FastAzul.of(ref.to_json() if rng.random() < 0.5 else ref)
            ref.play_unchecked(moves[i])
            core.play_index(i)
        ply += 1
        assert ply < 20_000, "a game that does not end"
    assert core.to_json() == ref.to_json()
    assert core.scores() == ref.scores()
    assert core.winners() == ref.winners()
    assert core.points() == tuple((s, -b["penalties"]) for s, b in zip(ref.scores(), ref.breakdown()))
    assert core.breakdown() == ref.breakdown()
    return ref, core


@parametrize_variants
def test_random_games_match_the_reference(wall: str, jokers: bool, players: int) -> None:
    for game in range(GAMES):
        rng = random.Random(f"{wall}-{jokers}-{players}-{game}")
        ref = AzulState.new(players, wall, jokers, start_player=rng.randrange(players))
        play_both(ref, rng, GREEDY_SHARES[game % len(GREEDY_SHARES)], retake=0.02)


def thinned(players: int, wall: str, jokers: bool, rng: random.Random) -> AzulState | None:
    """A position at a round's deal, a few rounds into a random game, with only a few tiles (of few
    kinds) left in the bag and the lid, scores sometimes set to 0, sometimes ``pooled``: the games
    that end "stalled" (nothing left to deal, no row that can be completed, a round that changes
    nothing). ``None`` where the game ended before."""
    state = AzulState.new(players, wall, jokers)
    last_round = rng.randrange(1, 5)
    while state.current_player != TERMINAL:
        if state.current_player == CHANCE:
            if state.round > last_round:
                break
            state.apply_chance_unchecked(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            state.play_unchecked(moves[rng.randrange(len(moves))])
    if state.current_player == TERMINAL:
        return None
    data = state.to_json()
    kinds = list(range(6 if jokers else 5))
    if rng.random() < 0.6:
        kinds = rng.sample(kinds, rng.randrange(1, 3))
    bag: Counter[str] = Counter()
    lid: Counter[str] = Counter()
    for _ in range(rng.randrange(14)):
        (bag if rng.random() < 0.5 else lid)[TILE_NAMES[rng.choice(kinds)]] += 1
    data["bag"], data["lid"] = dict(bag), dict(lid)
    if rng.random() < 0.5:
        for b in data["boards"]:
            b["score"] = b["placement"] = b["penalties"] = 0
    if rng.random() < 0.2:
        data["pooled"] = True
    return AzulState.from_json(data)


def test_thinned_positions_end_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games from thinned positions end alike, "stalled" by each of the reference's three rules
    (counted by watching the reference's own checks)."""
    ways: Counter[str] = Counter()
    fingerprint, completable = AzulState._round_end_fingerprint, AzulState._any_row_completable

    def watched_fingerprint(state: AzulState) -> int:
        value = fingerprint(state)
        ways["repeat"] += value == state._last_round_end
        return value

    def watched_completable(state: AzulState) -> bool:
        value = completable(state)
        ways["no_row"] += not value
        return value

    monkeypatch.setattr(AzulState, "_round_end_fingerprint", watched_fingerprint)
    monkeypatch.setattr(AzulState, "_any_row_completable", watched_completable)
    for wall, jokers, players in VARIANTS:
        for game in range(THINNED):
            rng = random.Random(f"thin-{wall}-{jokers}-{players}-{game}")
            ref = thinned(players, wall, jokers, rng)
            if ref is not None:
                end, _ = play_both(ref, rng, greedy_share=0.5)
                ways[end.end_reason or ""] += 1
    ways["nothing_left"] = ways["stalled"] - ways["no_row"] - ways["repeat"]
    assert ways["row"] and ways["nothing_left"] and ways["no_row"] and ways["repeat"], ways


AZUL_RECORDS = [p for p in sorted(RECORDS.glob("azul-*.json")) if not p.name.endswith(".score.json")]


@pytest.mark.parametrize("path", AZUL_RECORDS, ids=lambda p: p.stem)
def test_records_replay_alike(path: Path) -> None:
    """Every Azul record replayed: each event applied to the core too, the states equal after each."""
    record = Record.load(path)
    core = None
    steps = 0
    for step in replay(record):
        event = step.event
        if core is None:
            core = FastAzul.of(record.new_state())
        if "position" in event:
            core = FastAzul.of(step.state)
        elif "move" in event:
            core.play(move_from_json(event["move"]))
        else:
            core.apply_chance(event)
        assert core.to_json() == step.state.to_json(), f"event {step.index}"
        assert core._dump() == tuple(flat_of(step.state))
        steps += 1
    assert steps and core is not None and core.current_player == TERMINAL
    assert core.scores() == step.state.scores() and core.winners() == step.state.winners()


def test_records_exist() -> None:
    assert len(AZUL_RECORDS) >= 4


def deal_counts(core: FastAzul) -> Counter[str]:
    return Counter(t for f in core.to_json()["factories"] for t in f)


@parametrize_variants
def test_deal_random_draws_what_the_bag_holds(wall: str, jokers: bool, players: int) -> None:
    """Each deal takes its tiles from the bag, then (once the bag runs out) from the lid poured in,
    never more than they hold, the factories filled four by four; over many deals each colour's
    share is the bag's."""
    rng = random.Random(f"deal-{wall}-{jokers}-{players}")
    state = AzulState.new(players, wall, jokers)
    factories = len(state.to_json()["factories"])
    shares: Counter[str] = Counter()
    for n in range(400):
        core = FastAzul.of(state)
        core.seed(n)
        bag = Counter(state.to_json()["bag"])
        core.deal_random()
        dealt = deal_counts(core)
        assert not dealt - bag and sum(dealt.values()) == 4 * factories
        assert Counter(core.to_json()["bag"]) == bag - dealt
        shares.update(dealt)
    total = sum(shares.values())
    kinds = 5 + (1 if jokers else 0)
    in_bag = state.to_json()["bag"]
    for name, count in in_bag.items():
        expected = count / sum(in_bag.values())
        assert abs(shares[name] / total - expected) < 0.25 * expected + 0.01, (name, shares)
    assert len(shares) == kinds
    # The bag runs out: all of it is dealt, the rest from the lid, as much as both hold.
    for n in range(200):
        data = state.to_json()
        data["bag"] = {name: rng.randrange(3) for name in data["bag"]}
        data["lid"] = {name: rng.randrange(4) for name in data["bag"]}
        if rng.random() < 0.2:
            data["pooled"] = True
        ref = AzulState.from_json(data)
        core = FastAzul.of(ref)
        core.seed(n)
        core.deal_random()
        bag, lid = Counter(data["bag"]), Counter(data["lid"])
        dealt = deal_counts(core)
        want = min(4 * factories, sum(bag.values()) + sum(lid.values()))
        assert sum(dealt.values()) == want and not dealt - (bag + lid)
        if not data.get("pooled") and want > sum(bag.values()):
            assert not bag - dealt  # the whole bag first
        sizes = [len(f) for f in core.to_json()["factories"]]
        assert sizes == sorted(sizes, reverse=True) and all(k == 4 for k in sizes[:want // 4])
        ref.apply_chance(Deal(tuple(map(tuple, core.to_json()["factories"]))))  # checked: the reference could deal it
        assert ref.to_json() == core.to_json()


@parametrize_variants
def test_playout(wall: str, jokers: bool, players: int) -> None:
    """A playout ends the game: the same for a seed, the greedy one (wander 0) as the greedy moves
    played one by one (each checked above against the reference's greedy_move), its round-end
    points those when the round under way ended."""
    rng = random.Random(f"playout-{wall}-{jokers}-{players}")
    state = AzulState.new(players, wall, jokers)
    for _ in range(rng.randrange(10, 40)):  # some way into the game
        if state.current_player == CHANCE:
            state.apply_chance_unchecked(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            state.play_unchecked(moves[rng.randrange(len(moves))])
    root = FastAzul.of(state)
    for wander in (0.0, 0.25, 1.0):
        results = []
        for _ in range(2):
            core = root.copy()
            core.seed(7)
            results.append(core.playout(wander))
            assert core.current_player == TERMINAL
            assert results[-1][0] == tuple(core.scores()) and results[-1][1] == tuple(core.winners())
        assert results[0] == results[1]
        scores, winners, round_end = results[0]
        assert len(scores) == players and winners and set(winners) <= set(range(players))
        assert all(s >= 0 for s in scores) and len(round_end) == players
        assert all(end[0] <= final + 200 and end[1] >= 0 for end, final in zip(round_end, scores))
    core = root.copy()
    core.seed(7)
    round_end = None
    while core.current_player != TERMINAL:
        if round_end is None and core.phase == "deal":
            round_end = core.points()
        if core.current_player == CHANCE:
            core.deal_random()
        else:
            core.play_index(core.greedy_index())
    greedy = root.copy()
    greedy.seed(7)
    assert (tuple(core.scores()), tuple(core.winners()), round_end or core.points()) == greedy.playout(0.0)
    assert root.to_json() == state.to_json()  # the playouts played copies


def test_random_game_and_copies() -> None:
    """random_game plays to the end; a copy is independent of its original."""
    root = FastAzul.new(3, "grey", True)
    root.seed(3)
    game = root.copy()
    moves = game.random_game()
    assert moves > 30 and game.current_player == TERMINAL and game.to_json()["end_reason"] in ("row", "stalled")
    assert root.current_player == CHANCE and root.to_json() == AzulState.new(3, "grey", True).to_json()
    again = root.copy()
    assert again.random_game() == moves and again.to_json() == game.to_json()
    with pytest.raises(IndexError):
        FastAzul.new(2).play_index(0)
    with pytest.raises(ValueError):
        game.deal_random()
