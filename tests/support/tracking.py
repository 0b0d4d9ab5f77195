"""A tracker that has followed the first views of a seeded game, read perfectly."""

from __future__ import annotations

from azulcam.engine.players import make_player
from azulcam.engine.record import Game, play_game, replay
from azulcam.follow.explain import exact_view
from azulcam.follow.track import Tracker


def started(seed: int = 4, views: int = 4):
    """The game's record, a tracker that has seen its first ``views`` views, and every state."""
    truth = play_game("azul", [make_player("greedy", 1), make_player("greedy", 2)],
                      {"wall": "colored", "jokers": False}, seed).record
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}), first_near=(700, 400))
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    for k in range(views):
        tracker.see(exact_view(states[k], float(k)))
    return truth, tracker, states
