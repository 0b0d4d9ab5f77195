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


def sorted_deals(events):
    """``events`` with each deal's displays' tiles sorted: a record's deal says what each display
    held, not in what order it was drawn."""
    return [{"deal": {**e["deal"], "factories": [sorted(f) for f in e["deal"]["factories"]]}} if "deal" in e else e
            for e in events]


def same_game(got, played) -> bool:
    """Whether record ``got`` is the game ``played``: the same player making each move, and after
    each event the same table (the displays, whatever numbers the tracker gave them), the same
    tiles in the centre and on every board, the same scores."""
    from azulcam.engine.observe import observation_of

    if len(got.events) != len(played.events) or got.start_player != played.start_player:
        return False
    for x, y in zip(replay(got), replay(played)):
        if x.event.get("player") != y.event.get("player"):
            return False
        ox, oy = observation_of(x.state), observation_of(y.state)
        if (ox["boards"] != oy["boards"] or ox["center"] != oy["center"] or x.state.scores() != y.state.scores()
                or sorted(sorted(f["tiles"]) for f in ox["factories"]) != sorted(sorted(f["tiles"]) for f in oy["factories"])):
            return False
    return True


def same_end(got, played) -> bool:
    """Whether record ``got`` ends where the game ``played`` did: as many events, each move by the
    same player, the same table (the displays whatever their numbers) and the same scores. Weaker
    than :func:`same_game`: two takes a camera saw only together may be recorded from displays
    that held alike, or in another order."""
    from azulcam.engine.observe import observation_of

    if len(got.events) != len(played.events) or [e.get("player") for e in got.events] != [e.get("player") for e in played.events]:
        return False
    a, b = Game(got).state, Game(played).state
    oa, ob = observation_of(a), observation_of(b)
    return (oa["boards"] == ob["boards"] and oa["center"] == ob["center"] and a.scores() == b.scores()
            and sorted(sorted(f["tiles"]) for f in oa["factories"]) == sorted(sorted(f["tiles"]) for f in ob["factories"]))
