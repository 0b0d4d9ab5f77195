"""How often the assistant's reasons hold: what it says of each move it suggests, checked against
what then happened at the table.

Plays ``--games`` seeded games of the assistant against itself (``--time`` a move); each move
played is the first suggestion, and its claims are checked:

- ``floor``: the tiles a take sends to the floor line (Azul), against the table before it;
- ``points``: the points its player gains and loses until the round's end, against the points
  gained and lost when that round ended (within ``--within`` points);
- ``leaves``: the next player's most searched answer, against the move that player then made, and
  the points the search said that player would gain this round (within ``--within`` points).

    python bench/reasons.py [--game azul] [--players 2] [--games 10] [--time 0.1] [--within 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

from azulcam.engine import fast
from azulcam.engine.ai import suggest
from azulcam.engine.common import CHANCE
from azulcam.engine.record import Game

OPTIONS = {"azul": {"wall": "colored", "jokers": False}, "pavilion": {"side": "colored"}}


def _penalties(state, player: int) -> int:
    return -state.breakdown()[player]["penalties"]


def play(game: str, players: int, seed: int, seconds: float, within: float) -> dict[str, list]:
    """One game; each claim's checks, True where it held (and its misses, for points)."""
    match = Game.new(game, players, OPTIONS[game], start_player=seed % players)
    rng = random.Random(seed)
    held: dict[str, list] = defaultdict(list)
    pending = []  # claims that wait for the round's end: (player, score, lost at the move, claim)
    answer = None  # (player, the move the search expected of them)
    state = match.state
    while not state.is_over():
        if state.current_player == CHANCE:
            if state.phase == "deal" or state.phase == "setup":
                _settle(state, pending, held, within)
            match.apply(state.sample_chance(rng))
            state = match.state
            continue
        player = state.current_player
        best = suggest(state, seconds, top=1, seed=seed * 1000 + len(match.record.events))[0]
        if answer is not None and answer[0] == player:
            held["leaves: the answer played"].append(best.move == answer[1])
        answer = (best.next_player, best.answer) if best.answer is not None else None
        n = max(best.playouts, 1)
        pending.append((player, state.scores()[player], _penalties(state, player), best.gained / n, best.lost / n))
        if best.next_player is not None and best.next_player != player:
            nxt = best.next_player
            pending.append((nxt, state.scores()[nxt], _penalties(state, nxt), best.next_gained / n, None))
        move = best.move.to_json()
        if game == "azul" and "floor" in best.why and move["action"] == "take":
            held["floor: tiles to the floor"].append(_sent_to_floor(state.to_json(), player, move) == best.why["floor"])
        match.apply(best.move)
        state = match.state
    _settle(state, pending, held, within)
    return held


def _sent_to_floor(view: dict, player: int, take: dict) -> int:
    """The tiles an Azul take sends to the floor line, counted on the table as it lies before it
    (the board after a round's last move no longer shows them: the round's end clears the floor):
    the first-player marker where it lies in the centre taken from, and what the line has no
    room for, as far as the floor has room."""
    centre = take["source"] == "center"
    tiles = view["center"].get(take["color"], 0) if centre else view["factories"][take["source"]].count(take["color"])
    board = view["boards"][player]
    room = 0
    if take["line"] != "floor":
        line = board["lines"][take["line"]]
        room = take["line"] + 1 - line["count"] - line["jokers"]
    sent = (1 if centre and view["marker"] == "center" else 0) + max(0, tiles - room)
    return min(sent, 7 - len(board["floor"]))


def _settle(state, pending: list, held: dict[str, list], within: float) -> None:
    """The round ended: each claim on its points against what its player gained and lost (and,
    under the claim's name with `` (miss)``, by how much the claim was over, for the bias)."""
    def check(claim: str, said: float, now: int) -> None:
        held[claim].append(abs(now - said) <= within)
        held[claim + " (miss)"].append(said - now)

    for player, score, lost, gained_claim, lost_claim in pending:
        lost_now = _penalties(state, player) - lost
        gained_now = state.scores()[player] - score + lost_now
        if lost_claim is None:
            check("leaves: the next player's points this round", gained_claim, gained_now)
        else:
            check("points: gained this round", gained_claim, gained_now)
            check("points: lost this round", lost_claim, lost_now)
    pending.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(OPTIONS), default="azul")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--within", type=float, default=2.0, help="points a claim may miss by and hold")
    parser.add_argument("--seed", type=int, default=800000)
    args = parser.parse_args()
    if not fast.AVAILABLE[args.game]:
        raise SystemExit(f"the C core of {args.game} is not built: pip install -e . builds it")
    total: dict[str, list] = defaultdict(list)
    for k in range(args.games):
        for claim, checks in play(args.game, args.players, args.seed + k, args.time, args.within).items():
            total[claim] += checks
    print(f"{args.game}, {args.players} players, {args.games} games of the assistant against itself, "
          f"{args.time:g} s a move; claims on points hold within {args.within:g} points:")
    for claim, checks in sorted(total.items()):
        if claim.endswith(" (miss)"):
            continue
        line = f"  {claim}: {sum(checks)} of {len(checks)} ({sum(checks) / max(len(checks), 1):.1%})"
        misses = total.get(claim + " (miss)")
        if misses:
            line += (f"; the claim off by {statistics.mean(abs(d) for d in misses):.1f} points on average,"
                     f" {statistics.mean(misses):+.1f} over")
        print(line)


if __name__ == "__main__":
    main()
