"""The move assistant: the best moves for the player to move, with what each is expected to bring.

Where the game's rules core in C is built (:mod:`.fast`, proved equal to the Python engine), the
assistant is a Monte Carlo tree search over the round under way (``_search.h``): within a round
nothing is left to chance, so the tree holds every player's moves, the likeliest first (by their
immediate points), and each line is played on by a quick policy: in Azul to the game's end (the
deals drawn afresh from the tiles every player can count) and judged by its final margin (a
narrow win counts little more than a draw: the search tells apart moves whose lines are mostly
won); in Summer Pavilion to the round's end, judged there by the board (the scores, the end
bonuses in reach and the tiles kept), which measured stronger there. What the next deals will bring is never read from
the state: the tree stops where a deal comes.

Without the core, the Python engine plays flat Monte Carlo: each root move judged by playouts to
the game's end, every deal drawn afresh (``sample_chance``: from the bag's tiles, which every
player can count, in an order nobody knows), moves chosen for playouts by UCB1.

A suggestion carries its player's chance to win (its share of the lines won), the points the player
gains and loses until the round's end, what it leaves the next player (that player's most
searched answer and the points they gain this round), and how many playouts judged it.
"""

from __future__ import annotations

import math
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from . import fast
from .common import CHANCE, TERMINAL
from .errors import EngineError
from .pavilion import Bonus, Take as PavilionTake

#: UCB1's exploration constant, on results between 0 and 1.
EXPLORE = 0.5
#: Playouts' policy: the move with the most immediate points, else (this share) a random one.
WANDER = 0.25
#: Where the tree's lines go on past the round's end, to the game's end by the quick policy (the
#: deals drawn), and are judged by who won; else the round's end is judged by the board.
TO_THE_END = {"azul": True, "pavilion": False}
#: Root moves searched at first, the rest joining as playouts accumulate (progressive widening).
FIRST_WIDTH, WIDEN_EVERY = 12, 40
#: Playouts for a forced move (the only legal one): enough for its expected result, no more
#: (the tree search runs that many times more: its playouts end with the round).
FORCED_PLAYOUTS = 32
TREE_FORCED = 64
#: The fewest playouts a listed move rests on: a short search's leader may have won its only one.
MIN_PLAYOUTS = 16
#: Tree searches run side by side at most (one a core), and how many share a count of playouts.
MOST_THREADS, SEARCHES_COUNTED = 8, 2


@dataclass
class Suggestion:
    """A move, and what the playouts that began with it found."""

    move: Any
    player: int
    index: int = 0  # the move's place in ``legal_moves()``: how the core plays it
    playouts: int = 0
    wins: float = 0.0
    #: Points won, and lost (floor, penalties), until the round's end: the mean times ``playouts``
    #: (with the rules core, the mean of the lines the search expects after the move).
    gained: float = 0.0
    lost: float = 0.0
    why: dict[str, Any] = field(default_factory=dict)
    #: The tree search's view of the next player after the move: who they are, their most searched
    #: answer (a move, or None where the search went no deeper), the points they gain until the
    #: round's end (summed, as ``gained``), and their chance to win after that answer.
    next_player: int | None = None
    answer: Any = None
    next_gained: float = 0.0
    answer_win: float | None = None

    @property
    def win(self) -> float:
        return self.wins / self.playouts if self.playouts else 0.0

    def to_json(self) -> dict[str, Any]:
        n = max(self.playouts, 1)
        out = {"move": self.move.to_json(), "player": self.player, "win": round(self.win, 3),
               "points": {"gained": round(self.gained / n, 2), "lost": round(self.lost / n, 2)},
               "why": self.why, "playouts": self.playouts}
        if self.next_player is not None:
            out["leaves"] = {"player": self.next_player, "gained": round(self.next_gained / n, 2),
                             "answer": self.answer.to_json() if self.answer is not None else None,
                             "win": round(self.answer_win, 3) if self.answer_win is not None else None}
        return out


def cores() -> int:
    """The processor cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


def suggest(state: Any, seconds: float = 1.0, top: int = 3, seed: int | None = None,
            playouts: int | None = None, threads: int | None = None) -> list[Suggestion]:
    """The ``top`` moves for the player to move in ``state`` (all of them where there are fewer),
    best first (with the rules core, the tree search's most searched first; else by share of
    playouts won, then points this round), after ``seconds`` of search (or ``playouts``
    playouts, for results that repeat with ``seed``), each listed move then topped up to
    :data:`MIN_PLAYOUTS`. With the rules core, ``threads`` searches (by default one a core, at
    most :data:`MOST_THREADS`; with ``playouts``, always :data:`SEARCHES_COUNTED`, so that the
    result is the same on any machine) run side by side and their root moves are pooled. ``state`` is not
    changed. Raises :class:`EngineError` (a ValueError) where no player is to move (a deal is due,
    or the game is over)."""
    player = state.current_player
    if player == CHANCE:
        raise EngineError("suggest.chance_due")
    if player == TERMINAL:
        raise EngineError("suggest.game_over")
    rng = random.Random(seed)
    moves = state.legal_moves()
    core = fast.core_of(state)
    if core is not None:
        if threads is not None and not 1 <= threads <= MOST_THREADS:
            raise ValueError(f"threads: 1 to {MOST_THREADS}, not {threads}")
        workers = threads or min(cores(), MOST_THREADS)
        searches = SEARCHES_COUNTED if playouts is not None else workers
        ranked = _searched(state, core, moves, seconds, playouts, rng, top, searches, workers)
    else:
        ranked = _flat(state, moves, seconds, playouts, rng, top)
    for c in ranked[:top]:
        c.why = why(state, c.move)
    return ranked[:top]


def _searched(state: Any, core: Any, moves: list[Any], seconds: float, playouts: int | None,
              rng: random.Random, top: int, searches: int, workers: int) -> list[Suggestion]:
    """The root moves as the core's tree searches ranked them, ``searches`` of them (each with
    its own random stream, on at most ``workers`` threads: the core lets go of the interpreter
    while it searches) pooled at the root: the most searched first (the move the search chose),
    then those no search reached, likeliest first. Each search tops up its own best ``top`` to
    :data:`MIN_PLAYOUTS`, so the pooled best ``top`` rest on as many: a move outside every
    search's best has fewer visits in all than each of those."""
    player = state.current_player
    if len(moves) == 1:
        playouts, searches = TREE_FORCED, 1
    least = min(MIN_PLAYOUTS, playouts or MIN_PLAYOUTS)
    each = -(-playouts // searches) if playouts else 0
    jobs = [(max(seconds, 0.0), each, WANDER, rng.getrandbits(63), TO_THE_END[state.game], top, least)
            for _ in range(searches)]
    if searches == 1:
        found = [core.search(*jobs[0])[1]]
    else:
        with ThreadPoolExecutor(min(searches, workers)) as pool:
            found = [f[1] for f in pool.map(lambda job: core.search(*job), jobs)]
    pooled: dict[int, list[float]] = {}
    answers: dict[int, dict[tuple[int, int], list[float]]] = {}
    for one in found:
        for index, visits, won, gained, lost, next_gained, (answer, mover, answer_visits, answer_won), result in one:
            sums = pooled.setdefault(index, [0, 0.0, 0.0, 0.0, 0.0, 0.0])
            for k, v in enumerate((visits, won * visits, gained * visits, lost * visits, next_gained * visits,
                                   result * visits)):
                sums[k] += v
            if answer >= 0 and answer_visits:
                seen = answers.setdefault(index, {}).setdefault((answer, mover), [0, 0.0])
                seen[0] += answer_visits
                seen[1] += answer_won * answer_visits
    # Most searched first, ties by the better mean result (what the search steers by), as the core ranks them.
    order = sorted(pooled, key=lambda i: (-pooled[i][0], -pooled[i][5] / max(pooled[i][0], 1)))
    ranked, unsearched = [], []
    for index in order:
        visits, wins, gained, lost, next_gained, _ = pooled[index]
        c = Suggestion(moves[index], player, index)
        if not visits:
            unsearched.append(c)
            continue
        c.playouts, c.wins, c.gained, c.lost = int(visits), wins, gained, lost
        c.next_player = (player + 1) % len(state.scores())
        c.next_gained = next_gained
        if index in answers:
            (answer, mover), (n, won) = max(answers[index].items(), key=lambda kv: kv[1][0])
            if mover == c.next_player:
                after = state.copy()
                after.play_unchecked(c.move)
                c.answer = after.legal_moves()[answer]
                c.answer_win = 1.0 - won / n if len(state.scores()) == 2 else None
        ranked.append(c)
    return ranked + unsearched


def _flat(state: Any, legal: list[Any], seconds: float, playouts: int | None, rng: random.Random,
          top: int) -> list[Suggestion]:
    """Flat Monte Carlo on the Python engine: UCB1 over the root moves, playouts to the game's
    end; every listed move topped up to :data:`MIN_PLAYOUTS`."""
    player = state.current_player
    moves = sorted(enumerate(legal), key=lambda im: -state.immediate_points(im[1]))
    candidates = [Suggestion(m, player, i) for i, m in moves]

    def playout(c: Suggestion) -> None:
        _playout(state, c, rng)

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
    return ranked


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
    if state.game == "azul":  # judged before the move: a round's last move clears the board's lines and floor
        effect = state.effect(move)
        out = {"floor": effect.floor, "penalty": effect.penalty}
        if effect.on_line is not None:
            if effect.on_line == move.line + 1:
                out.update(completes=move.line + 1, placement=effect.placement)
            else:
                out.update(line=move.line + 1, on_line=effect.on_line)
        elif getattr(move, "row", None) is not None:
            out.update(placement=effect.placement)
        return out
    points = state.immediate_points(move)
    if not isinstance(move, (PavilionTake, Bonus)):
        return {"points": points}
    player = state.current_player
    after = state.copy()
    after.play(move)
    was, now = state.to_json()["boards"][player], after.to_json()["boards"][player]
    # A bonus scores nothing itself (immediate_points counts its tiles, for the greedy player).
    return {"points": points if isinstance(move, PavilionTake) else 0,
            "tiles": sum(now["hand"].values()) - sum(was["hand"].values())}


def _ucb(candidates: list[Suggestion], done: int) -> Suggestion:
    for c in candidates:
        if not c.playouts:
            return c
    log_n = math.log(max(done, 1))
    return max(candidates, key=lambda c: c.win + EXPLORE * math.sqrt(log_n / c.playouts))


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
