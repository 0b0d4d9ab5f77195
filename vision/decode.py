"""From each board slot's probabilities to the most likely reading of the table that the game allows.

The reading network gives, for every board slot, a probability per kind (``None``: no tile, or one
of the game's tile names). Taking each slot's most likely kind alone may show a position no game
can reach: a pattern line with a gap, two colours on one line, a tile off the colour printed under
it, a colour twice in a wall row, the first-player marker seen twice. Rather than patch such
readings with rules of its own, the decoder asks the engine which readings are possible
(:func:`azulcam.engine.position.problems`) and keeps the possible reading that loses the least
log-probability against the most likely one:

1. each board alone (an observation holding that board and its hand only: the engine checks
   every board it is given, so the other players' boards, even empty, would cost as much again
   each): while the engine finds a problem, a best-first search changes the least sure slots to
   their next most likely kinds, in order of the total log-probability lost
   (:func:`_cheapest_possible`). Alone, a board is counted as the whole table; the tile counts
   the game allows depend on the number of players, but no board holds nearly as many tiles of
   one kind as the game has, so those counts are in effect left to step 2;
2. then the whole table (every board with the rest of the observation: displays, centre, hands,
   supply): the rules that span boards (tile counts, one first-player marker) are settled the
   same way over every slot of every board, starting from the boards' own readings.

Both searches are bounded (:data:`BOARD_READINGS`, :data:`TABLE_READINGS`, :data:`MAX_LOSS`): where
no possible reading is found within the bound, the most likely one stays and its problems are
reported, for the caller to warn of. The decoder knows no rule of the game: the engine is the one
place where the rules live, so that a rule added there is obeyed here.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.games import GAMES
from ..engine.notice import Notice
from ..engine.position import problems
from ..engine.record import read_options
from ..engine.zones import Zone

#: A reading (a slot's chosen kind, a loose tile) with a lower probability is unsure: listed in
#: the observation's ``uncertain``. The reader's one threshold: ``analyze`` takes it from here.
UNSURE = 0.9
#: The most log-probability one search may lose (a factor of 1000 against the most likely
#: reading). A reading less likely than that by the network is not a repair but a guess: the
#: photo more likely shows what no rule allows (a tile knocked onto the wrong space, a board
#: set up wrong), which the caller should hear of. It also keeps sure slots out of the search.
MAX_LOSS = math.log(1000.0)
#: The readings of one board the engine checks at most. A check of one board takes some 40
#: microseconds, so a board decodes in at most about 5 ms; a misread slot or two of the least
#: sure ones is found within the first few readings.
BOARD_READINGS = 100
#: The readings of the whole table the engine checks at most, for the rules across boards. A
#: check of a four-player table takes some 200 microseconds: at most about 6 ms.
TABLE_READINGS = 30

Kind = str | None
#: One slot's probabilities: ``{kind or None: probability}``.
SlotProbabilities = Mapping[Kind, float]
#: A board's slots' probabilities: ``{slot id: {kind or None: probability}}``.
BoardProbabilities = Mapping[str, SlotProbabilities]


@dataclass(frozen=True)
class Decoded:
    """The chosen reading of the boards.

    ``kinds`` and ``confidence``: every slot given, by player, with its chosen kind (None: empty)
    and the network's probability of that kind. ``changed``: the zones (``boards.P.SLOT``) whose
    chosen kind is not their most likely one; ``unsure``: those whose confidence is below
    :data:`UNSURE` (every changed one among them), for the observation's ``uncertain``.
    ``problems``: what the engine still finds impossible in the chosen reading with the rest of
    the table (empty where it is possible), for the caller to warn of. ``lost``: the
    log-probability the chosen reading loses against the most likely one; ``readings``: how many
    readings the engine checked."""

    kinds: dict[int, dict[str, Kind]]
    confidence: dict[int, dict[str, float]]
    changed: list[Zone]
    unsure: list[Zone]
    problems: list[Notice]
    lost: float
    readings: int

    @property
    def possible(self) -> bool:
        return not self.problems

    def slots(self, player: int) -> dict[str, str]:
        """The occupied slots of a player's board, as an observation's board lists them."""
        return {slot: kind for slot, kind in self.kinds[player].items() if kind is not None}


def decode_boards(game: str, options: Mapping[str, Any], boards: Mapping[int, BoardProbabilities],
                  players: int | None = None, table: Mapping[str, Any] | None = None) -> Decoded:
    """The most likely reading of ``boards`` that no rule of ``game`` with ``options`` (as a record
    has them) forbids.

    ``boards`` maps a player to ``{slot id: {kind or None: probability}}`` (the game's tile names;
    each slot's probabilities are normalised to sum to 1, a kind left out has none). ``players``:
    how many play (default: enough for every board given); boards not given count as empty.
    ``table``: the rest of the ``azulcam-observation/1`` as read (its ``factories``, ``center``,
    ``supply`` and its boards' ``hand``), whose tiles count in the rules across the table; a board
    of it not in ``boards`` keeps its ``slots``. Raises ValueError for an unknown game, option,
    player, slot or kind, or a slot whose probabilities are all zero."""
    opts = read_options(game, dict(options), ValueError)
    ranked = {p: _ranked_board(game, p, board) for p, board in sorted(boards.items())}
    rest = dict(table) if table is not None else {}
    table_boards = {b["player"]: b for b in rest.get("boards", [])}
    seated = _seated(game, players, set(ranked) | set(table_boards))
    hands = {p: dict(table_boards.get(p, {}).get("hand", {})) for p in seated}
    readings = 0

    def board_problems(player: int) -> Callable[[dict[Hashable, Kind]], list[Notice]]:
        def check(reading: dict[Hashable, Kind]) -> list[Notice]:
            board = {"player": player, "slots": _occupied(reading), "hand": hands[player]}
            return problems({"game": game, "boards": [board]}, opts)
        return check

    # 1. Each board alone, from each slot's most likely kind.
    chosen: dict[tuple[int, str], Kind] = {}
    board_left: set[Notice] = set()  # the problems of the boards that stayed impossible
    lost = 0.0
    for p, slots in ranked.items():
        likeliest = {slot: kinds[0][0] for slot, kinds in slots.items()}
        found, cost, left, checked = _cheapest_possible(likeliest, slots, board_problems(p), lambda found: not found,
                                                        BOARD_READINGS)
        readings += checked
        lost += cost
        board_left.update(left)
        chosen.update(((p, slot), kind) for slot, kind in found.items())

    # 2. The whole table: the rules across boards, settled over every slot of every board, from
    # the boards' own readings; the problems of a board that stayed impossible may stay.
    def table_problems(reading: dict[Hashable, Kind]) -> list[Notice]:
        by_player: dict[int, dict[str, Kind]] = {p: {} for p in ranked}
        for (p, slot), kind in reading.items():  # type: ignore[misc]
            by_player[p][slot] = kind
        return problems(_table_observation(game, rest, seated, table_boards, by_player, hands), opts)

    by_key = {(p, slot): kinds for p, slots in ranked.items() for slot, kinds in slots.items()}
    found, cost, left, checked = _cheapest_possible(dict(chosen), by_key, table_problems,
                                                    lambda found: set(found) <= board_left, TABLE_READINGS)
    readings += checked
    lost += cost

    kinds: dict[int, dict[str, Kind]] = {p: {} for p in ranked}
    confidence: dict[int, dict[str, float]] = {p: {} for p in ranked}
    changed, unsure = [], []
    for p, slots in ranked.items():
        for slot, options_ranked in slots.items():
            kind = found[(p, slot)]
            probability = dict(options_ranked).get(kind, 0.0)
            kinds[p][slot] = kind
            confidence[p][slot] = probability
            if kind != options_ranked[0][0]:
                changed.append(Zone.board(p, slot))
            if probability < UNSURE:
                unsure.append(Zone.board(p, slot))
    return Decoded(kinds, confidence, changed, unsure, left, lost, readings)


def kind_probabilities(game: str, classes: tuple[str, ...], probabilities: Any) -> dict[Kind, float]:
    """One slot's probabilities over ``game``'s kinds (None for ``empty``), from a network's output
    over ``classes`` named ``empty`` and ``game/kind`` (as ``synth.dataset.CLASSES``): the other
    game's classes are dropped and the rest normalised to sum to 1."""
    out: dict[Kind, float] = {}
    for name, p in zip(classes, probabilities):
        if name == "empty":
            out[None] = out.get(None, 0.0) + float(p)
        elif name.startswith(f"{game}/"):
            out[name.split("/", 1)[1]] = float(p)
    total = sum(out.values())
    return {kind: p / total for kind, p in out.items()} if total > 0 else out


# --------------------------------------------------------------------------- the search


def _cheapest_possible(start: dict[Hashable, Kind], ranked: Mapping[Hashable, list[tuple[Kind, float]]],
                       check: Callable[[dict[Hashable, Kind]], list[Notice]], accepted: Callable[[list[Notice]], bool],
                       budget: int) -> tuple[dict[Hashable, Kind], float, list[Notice], int]:
    """The reading that changes ``start`` at the least cost and that ``check`` (the engine's
    problems) finds ``accepted``, with its cost, its problems and the number of readings checked;
    ``start`` itself, cost 0, where none is found within ``budget`` readings and :data:`MAX_LOSS`.

    ``ranked``: each slot's kinds with their probabilities, most likely first. A slot may change
    to a kind less likely than its kind in ``start``, at the cost of the log-probability lost
    (:func:`_alternatives`). The readings are visited in order of their total cost, each once,
    on a tree where every reading's children cost no less: the slots are put in order of their
    cheapest change, and a reading whose last changed slot (in that order) is ``i``, changed to
    its ``r``-th alternative, has three children: slot ``i`` changed to its next alternative,
    slot ``i + 1`` changed too, and (when ``r`` is the first) slot ``i + 1`` changed instead of
    slot ``i``. So the first reading accepted is the cheapest, and the least sure slots are
    tried first."""
    checked = 1
    first = check(start)
    if accepted(first):
        return start, 0.0, first, checked
    alternatives = _alternatives(ranked, start)
    order = sorted((slot for slot, alts in alternatives.items() if alts), key=lambda slot: alternatives[slot][0][0])
    costs = [[cost for cost, _ in alternatives[slot]] for slot in order]
    queue: list[tuple[float, int, tuple[tuple[int, int], ...]]] = []
    pushed = 0

    def push(cost: float, changes: tuple[tuple[int, int], ...]) -> None:
        nonlocal pushed
        if cost <= MAX_LOSS:
            heapq.heappush(queue, (cost, pushed, changes))
            pushed += 1

    if order:
        push(costs[0][0], ((0, 0),))
    while queue and checked < budget:
        cost, _, changes = heapq.heappop(queue)
        reading = dict(start)
        reading.update((order[i], alternatives[order[i]][r][1]) for i, r in changes)
        checked += 1
        found = check(reading)
        if accepted(found):
            return reading, cost, found, checked
        i, r = changes[-1]
        if r + 1 < len(costs[i]):
            push(cost - costs[i][r] + costs[i][r + 1], changes[:-1] + ((i, r + 1),))
        if i + 1 < len(order):
            push(cost + costs[i + 1][0], changes + ((i + 1, 0),))
            if r == 0:
                push(cost - costs[i][0] + costs[i + 1][0], changes[:-1] + ((i + 1, 0),))
    return start, 0.0, first, checked


def _alternatives(ranked: Mapping[Hashable, list[tuple[Kind, float]]], current: Mapping[Hashable, Kind]
                  ) -> dict[Hashable, list[tuple[float, Kind]]]:
    """Each slot's kinds less likely than its ``current`` one, each with the log-probability it
    loses against it, cheapest first; none that loses more than :data:`MAX_LOSS`. (A kind more
    likely than the current one is left out: the search only ever loses probability.)"""
    out: dict[Hashable, list[tuple[float, Kind]]] = {}
    for slot, kinds in ranked.items():
        kind_now = current[slot]
        here = next(p for kind, p in kinds if kind == kind_now)
        least = here * math.exp(-MAX_LOSS)
        out[slot] = [(math.log(here / p), kind) for kind, p in kinds if kind != kind_now and least <= p <= here]
    return out


# --------------------------------------------------------------------------- inputs and observations


def _ranked_board(game: str, player: int, board: BoardProbabilities) -> dict[str, list[tuple[Kind, float]]]:
    """Each slot's kinds with a probability, normalised, most likely first (ties in the game's
    order of tiles, no tile first)."""
    most = max(GAMES[game].players)
    if not (isinstance(player, int) and not isinstance(player, bool) and 0 <= player < most):
        raise ValueError(f"player must be 0..{most - 1}, not {player!r}")
    names = (None,) + GAMES[game].tiles
    out = {}
    for slot, probabilities in board.items():
        if slot not in GAMES[game].slot_ids:
            raise ValueError(f"board {player}: unknown slot {slot!r} of {game}")
        # In the game's order, so that the stable sort below leaves ties in that order.
        kinds = [(kind, float(probabilities[kind])) for kind in names if kind in probabilities]
        if len(kinds) < len(probabilities):
            unknown = next(kind for kind in probabilities if kind not in names)
            raise ValueError(f"board {player}: {slot}: unknown kind {unknown!r} (kinds: None, {', '.join(names[1:])})")
        total = math.fsum(p for _, p in kinds)
        if not (total > 0 and math.isfinite(total)) or not all(p >= 0 for _, p in kinds):
            raise ValueError(f"board {player}: {slot}: probabilities must be non-negative with a positive sum")
        kinds.sort(key=lambda kp: -kp[1])
        out[slot] = [(kind, p / total) for kind, p in kinds if p > 0]
    return out


def _seated(game: str, players: int | None, present: set[int]) -> list[int]:
    """The players of the table: ``players`` of them, or enough for every board ``present``."""
    needed, most = max(present, default=-1) + 1, max(GAMES[game].players)
    if players is None:
        players = needed
    if not (isinstance(players, int) and needed <= players <= most):
        raise ValueError(f"players must be {max(needed, 1)}..{most} (boards of players {sorted(present)}), not {players!r}")
    return list(range(players))


def _occupied(slots: Mapping[Any, Kind]) -> dict[Any, str]:
    return {slot: kind for slot, kind in slots.items() if kind is not None}


def _table_observation(game: str, rest: Mapping[str, Any], seated: list[int], table_boards: Mapping[int, Any],
                       decoded: Mapping[int, Mapping[str, Kind]], hands: Mapping[int, dict[str, int]]
                       ) -> dict[str, Any]:
    """The observation of the whole table: ``rest``'s displays, centre and supply, every seated
    player's board (the decoded slots, or those ``rest`` gives, or none) with its hand."""
    boards = [{"player": p,
               "slots": _occupied(decoded[p]) if p in decoded else dict(table_boards.get(p, {}).get("slots", {})),
               "hand": hands[p]} for p in seated]
    return {"game": game, "factories": list(rest.get("factories", [])), "center": dict(rest.get("center", {})),
            "supply": rest.get("supply"), "boards": boards}
