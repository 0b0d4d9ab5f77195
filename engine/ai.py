"""The move assistant: the best moves for the player to move, with what each is expected to bring.

Search over the engine with chance handled honestly: what the bag will deal is never read from the
state. Each playout draws every deal and refill afresh (``sample_chance``: from the bag's tiles,
which every player can count, in an order nobody knows), so the moves are judged over many
possible futures (determinised Monte Carlo search). At the root, moves are chosen for playouts
by UCB1, the likeliest first (ordered by ``immediate_points``); playouts follow a quick policy
that mostly plays the move with the most immediate points, sometimes another, to the game's end.

A suggestion carries the share of playouts its player won (ties shared), the points the player
gained and lost until the round's end (on average), and how many playouts judged it.

The playouts run on the game's rules core in C (:mod:`.fast`, proved equal to the Python engine)
where it was built, some fifty times faster; else on the Python engine.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from . import fast
from .azul import FLOOR_PENALTIES
from .common import CHANCE, TERMINAL
from .errors import EngineError
from .pavilion import Bonus, Take as PavilionTake

#: UCB1's exploration constant, on results between 0 and 1.
EXPLORE = 0.5
#: Playouts' policy: the move with the most immediate points, else (this share) a random one.
WANDER = 0.25
#: Root moves searched at first, the rest joining as playouts accumulate (progressive widening).
FIRST_WIDTH, WIDEN_EVERY = 12, 40
#: Playouts for a forced move (the only legal one): enough for its expected result, no more.
FORCED_PLAYOUTS = 32
#: The fewest playouts a listed move rests on: a short search's leader may have won its only one.
MIN_PLAYOUTS = 16


@dataclass
class Suggestion:
    """A move, and what the playouts that began with it found."""

    move: Any
    player: int
    index: int = 0  # the move's place in ``legal_moves()``: how the core plays it
    playouts: int = 0
    wins: float = 0.0
    gained: float = 0.0  # points won until the round's end, summed over playouts
    lost: float = 0.0  # points lost (floor, penalties) until the round's end, summed
    why: dict[str, Any] = field(default_factory=dict)

    @property
    def win(self) -> float:
        return self.wins / self.playouts if self.playouts else 0.0

    def to_json(self) -> dict[str, Any]:
        n = max(self.playouts, 1)
        return {"move": self.move.to_json(), "player": self.player, "win": round(self.win, 3),
                "points": {"gained": round(self.gained / n, 2), "lost": round(self.lost / n, 2)},
                "why": self.why, "playouts": self.playouts}


def suggest(state: Any, seconds: float = 1.0, top: int = 3, seed: int | None = None,
            playouts: int | None = None) -> list[Suggestion]:
    """The ``top`` moves for the player to move in ``state`` (all of them where there are fewer),
    best first (by share of playouts won, the game's tie-break applied, then points this round),
    after ``seconds`` of search (or ``playouts`` playouts, for results that repeat with
    ``seed``), each listed move then topped up to :data:`MIN_PLAYOUTS`. ``state`` is not
    changed. Raises :class:`EngineError` (a ValueError) where no player is to move (a deal is due,
    or the game is over)."""
    player = state.current_player
    if player == CHANCE:
        raise EngineError("suggest.chance_due")
    if player == TERMINAL:
        raise EngineError("suggest.game_over")
    rng = random.Random(seed)
    moves = sorted(enumerate(state.legal_moves()), key=lambda im: -state.immediate_points(im[1]))
    candidates = [Suggestion(m, player, i) for i, m in moves]
    core = fast.core_of(state)
    playout = _Playouts(state, core, rng) if core is not None else (lambda c: _playout(state, c, rng))
    if len(candidates) == 1:  # nothing to compare: a few playouts only estimate what it brings
        playouts = min(playouts if playouts is not None else FORCED_PLAYOUTS, FORCED_PLAYOUTS)
    deadline = time.monotonic() + seconds
    done = 0
    while (done < playouts) if playouts is not None else (time.monotonic() < deadline or done < len(candidates[:2])):
        width = min(len(candidates), FIRST_WIDTH + done // WIDEN_EVERY)
        chosen = _ucb(candidates[:width], done)
        playout(chosen)
        done += 1
    # Every move listed rests on MIN_PLAYOUTS at least; a move topped up may fall out of the
    # list and another come in, so until the list holds still (each round only adds playouts).
    for _ in range(len(candidates) + 1):
        ranked = _ranked(candidates)
        thin = [c for c in ranked[:top] if c.playouts < min(MIN_PLAYOUTS, playouts or MIN_PLAYOUTS)]
        if not thin:
            break
        for c in thin:
            while c.playouts < min(MIN_PLAYOUTS, playouts or MIN_PLAYOUTS):
                playout(c)
    for c in ranked[:top]:
        c.why = why(state, c.move)
    return ranked[:top]


def _ranked(candidates: list[Suggestion]) -> list[Suggestion]:
    """The moves searched, best first (share of playouts won, then points this round), then those
    not searched yet, likeliest first."""
    searched = sorted((c for c in candidates if c.playouts), key=lambda c: (-c.win, -(c.gained - c.lost) / c.playouts))
    return searched + [c for c in candidates if not c.playouts]


def why(state: Any, move: Any) -> dict[str, Any]:
    """What a move does at once, for its reason. Azul: the tiles it sends to the floor and their
    penalty; the pattern line it fills (``line``, 1 to 5, and ``on_line``, its tiles after the
    move), and where it completes it, ``completes`` and the wall points that brings at the round's
    end; a wall tiling move, its points. Summer Pavilion: the points it scores now, and the tiles
    a take brings to the hand."""
    player = state.current_player
    points = state.immediate_points(move)
    after = state.copy()
    after.play(move)
    was, now = state.to_json()["boards"][player], after.to_json()["boards"][player]
    if state.game != "azul":
        if not isinstance(move, (PavilionTake, Bonus)):
            return {"points": points}
        # A bonus scores nothing itself (immediate_points counts its tiles, for the greedy player).
        return {"points": points if isinstance(move, PavilionTake) else 0,
                "tiles": sum(now["hand"].values()) - sum(was["hand"].values())}
    floored = len(now["floor"]) - len(was["floor"])
    penalty = -sum(FLOOR_PENALTIES[len(was["floor"]):len(was["floor"]) + floored]) if floored > 0 else 0
    out = {"floor": max(floored, 0), "penalty": -abs(penalty)}
    line = getattr(move, "line", None)
    if isinstance(line, int):
        filled = now["lines"][line]["count"] + now["lines"][line]["jokers"]
        if filled == line + 1 and was["lines"][line]["count"] + was["lines"][line]["jokers"] < line + 1:
            out.update(completes=line + 1, placement=points + abs(penalty))
        else:
            out.update(line=line + 1, on_line=filled)
    elif getattr(move, "row", None) is not None:
        out.update(placement=points + abs(penalty))
    return out


def _ucb(candidates: list[Suggestion], done: int) -> Suggestion:
    for c in candidates:
        if not c.playouts:
            return c
    log_n = math.log(max(done, 1))
    return max(candidates, key=lambda c: c.win + EXPLORE * math.sqrt(log_n / c.playouts))


class _Playouts:
    """Playouts on the rules core: the candidate's move, then the quick policy to the end, all in C
    (the core's ``playout`` answers as :func:`_playout` counts), each future seeded from ``rng``."""

    def __init__(self, state: Any, core: Any, rng: random.Random) -> None:
        self.core, self.rng = core, rng
        self.player = state.current_player
        self.before = (state.scores()[self.player], _penalties(state, self.player))

    def __call__(self, candidate: Suggestion) -> None:
        future = self.core.copy()
        future.seed(self.rng.getrandbits(63))
        future.play_index(candidate.index)
        _, winners, round_end = future.playout(WANDER)
        score, penalties = round_end[self.player]
        _count(candidate, winners, score, penalties, self.before)


def _count(candidate: Suggestion, winners: Any, score: int, penalties: int, before: tuple[int, int]) -> None:
    """One playout's result for ``candidate``: a win (shared in a tie), and the points its player
    gained and lost until the round's end (``score`` and ``penalties`` then, ``before`` at the root)."""
    candidate.playouts += 1
    candidate.wins += 1.0 / len(winners) if candidate.player in winners else 0.0
    lost = penalties - before[1]
    candidate.lost += lost
    candidate.gained += score - before[0] + lost


def _playout(root: Any, candidate: Suggestion, rng: random.Random) -> None:
    """One future: the candidate's move, then every player by the quick policy, deals drawn.
    Moves come from ``legal_moves`` or ``greedy_move``, so they are played unchecked."""
    state = root.copy()
    player = candidate.player
    before = (state.scores()[player], _penalties(state, player))
    this_round: tuple[int, int] | None = None  # (score, penalties) at the round's end
    state.play_unchecked(candidate.move)
    while True:
        to_move = state.current_player
        if this_round is None and (to_move == TERMINAL or (to_move == CHANCE and state.phase == "deal")):
            this_round = (state.scores()[player], _penalties(state, player))
        if to_move == TERMINAL:
            break
        if to_move == CHANCE:
            state.apply_chance_unchecked(state.sample_chance(rng))
        elif rng.random() < WANDER:
            moves = state.legal_moves()
            state.play_unchecked(moves[rng.randrange(len(moves))])
        else:
            state.play_unchecked(state.greedy_move())
    winners = state.winners()  # the game's own tie-break (Azul: complete wall rows)
    score, penalties = this_round or (state.scores()[player], _penalties(state, player))
    _count(candidate, winners, score, penalties, before)


def _penalties(state: Any, player: int) -> int:
    """Points the player has lost so far (the breakdown's penalties, as a positive number)."""
    return -state.breakdown()[player]["penalties"]
