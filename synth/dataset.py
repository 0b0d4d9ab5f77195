"""The games a data set draws its positions from, for training, tests and benchmarks.

The renderer draws any position (:func:`~azulcam.synth.render.render_state`); these are the
positions the training scripts (:mod:`azulcam.models.samples`), the tests and the benchmarks draw
it at: a random moment of a random seeded game of any variant and player count.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.players import make_player
from ..engine.record import play_game, replay

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("azul", {"wall": "colored", "jokers": False}), ("azul", {"wall": "grey", "jokers": False}),
    ("azul", {"wall": "colored", "jokers": True}), ("azul", {"wall": "grey", "jokers": True}),
    ("pavilion", {"side": "colored"}), ("pavilion", {"side": "grey"}),
)


def random_position(rng: random.Random) -> Any:
    """A position at a random moment of a random seeded game of any variant and player count."""
    game, options = VARIANTS[rng.randrange(len(VARIANTS))]
    players = rng.choice((2, 3, 4))
    bots = [make_player(rng.choice(("greedy", "random")), rng.randrange(1 << 30)) for _ in range(players)]
    match = play_game(game, bots, options, rng.randrange(1 << 30))
    stop = rng.randrange(len(match.record.events))
    for step in replay(match.record):  # replay moves one live state along: copy the one we keep
        if step.index >= stop:
            return step.state.copy()
    return match.state
