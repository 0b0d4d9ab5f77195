"""Views of an engine state as a reader of known confusion would give them: the filter's tests.

A reader reads each zone's kind right at ``sure`` and every other kind alike otherwise (a
symmetric confusion matrix); a reading's cost for a kind is the log of how much likelier the kind
read makes the kind it read than that one. Misreadings are given (a test says which zone
reads as what: ``misread``; which zones an arm hides: ``hidden``), or drawn from a seeded generator
(:func:`misread_at_random`).
"""

from __future__ import annotations

import math
import random
from typing import Any

from azulcam.engine.common import TERMINAL
from azulcam.engine.observe import empty_content, expected
from azulcam.engine.record import replay
from azulcam.engine.zones import Zone
from azulcam.follow.seen import LooseRead, Reading, SeenView


def cost_of_other(sure: float, kinds: int) -> float:
    """How much a kind other than the one read costs, where the reader is right at ``sure``."""
    return math.log(sure * (kinds - 1) / (1.0 - sure))


def table_zones(state: Any) -> tuple[list[Zone], list[Zone]]:
    """Every slot and supply space of ``state``'s table, and every zone of loose tiles."""
    spec = state.spec
    slots = [Zone.board(p, slot) for p in range(state.players) for slot in spec.slot_ids]
    slots += [Zone.supply(n) for n in range(spec.supply_spaces)]
    loose = [Zone.display(i) for i in range(spec.factories[state.players])] + [Zone.centre()]
    loose += [Zone.hand(p) for p in range(state.players)]
    return slots, loose


def view_of(state: Any, time: float = 0.0, sure: float = 0.99, misread: dict[str, Any] | None = None,
            hidden: frozenset[str] | set[str] = frozenset()) -> SeenView:
    """``state``'s table read at ``sure``, but each zone of ``misread`` read as it says (a slot's
    kind, a loose zone's tiles), and ``hidden``'s zones not seen."""
    misread = misread or {}
    exp = expected(state)
    tiles = state.spec.tiles_in_play(state.options)
    slot_other, tile_other = cost_of_other(sure, len(tiles) + 1), cost_of_other(sure, len(tiles))
    weight = math.log(sure / (1.0 - sure))
    slots_of, loose_of = table_zones(state)
    slots = {z: Reading(((misread.get(z, exp.get(z)), 0.0),), slot_other) for z in slots_of if z not in hidden}
    loose = {}
    for z in loose_of:
        if z in hidden:
            continue
        read = misread.get(z, exp.get(z, empty_content(z)))
        loose[z] = LooseRead(tuple(Reading(((t, 0.0),), tile_other) for t in read), weight, weight)
    return SeenView(time, slots, loose, len(tiles))


def misread_at_random(state: Any, rng: random.Random, rate: float) -> dict[Any, Any]:
    """A ``misread`` for :func:`view_of`: each slot, and each tile of a loose zone, read as a kind
    drawn at random (the right one among them) at ``rate``."""
    kinds = [t for t in state.spec.tiles_in_play(state.options) if t != "first_player"]
    exp = expected(state)
    slots, loose = table_zones(state)
    out = {}
    for z in [*slots, *loose]:
        misread = _misread(z, exp.get(z, empty_content(z)), kinds, rng, rate)
        if misread is not _AS_IT_IS:
            out[z] = misread
    return out


def _misread(zone: Any, content: Any, kinds: list[str], rng: random.Random, rate: float) -> Any:
    """What ``zone`` holding ``content`` is misread as (:data:`_AS_IT_IS`: not misread)."""
    if not zone.loose:
        return rng.choice([None, *kinds]) if rng.random() < rate else _AS_IT_IS
    drawn = [rng.choice(kinds) if t != "first_player" and rng.random() < rate else t for t in content]
    return tuple(sorted(drawn)) if drawn != list(content) else _AS_IT_IS


_AS_IT_IS = object()


class LastingMisreads:
    """Misreadings that last, as a reader's on a printing it never saw: each zone holding the same
    content is misread the same way in every view (drawn once, at ``rate``, by
    :func:`misread_at_random`'s rule), until its content changes."""

    def __init__(self, rng: random.Random, rate: float) -> None:
        self.rng, self.rate = rng, rate
        self.drawn: dict[tuple[Any, Any], Any] = {}

    def __call__(self, state: Any) -> dict[Any, Any]:
        kinds = [t for t in state.spec.tiles_in_play(state.options) if t != "first_player"]
        exp = expected(state)
        slots, loose = table_zones(state)
        out: dict[Any, Any] = {}
        for z in [*slots, *loose]:
            content = exp.get(z, empty_content(z))
            if (z, content) not in self.drawn:
                self.drawn[z, content] = _misread(z, content, kinds, self.rng, self.rate)
            misread = self.drawn[z, content]
            if misread is not _AS_IT_IS:
                out[z] = misread
        return out


def states_seen(record: Any) -> list[tuple[int, Any]]:
    """Each state of ``record`` a camera sees between two hands: after each event (its index, the
    state), but amid the Azul wall choices of a round's end (players tile their walls at once)."""
    out = [(0, record.new_state())]
    for k, step in enumerate(replay(record), 1):
        state = step.state
        tiling = state.current_player != TERMINAL and state.spec.board == "wall" and state.phase == "tiling"
        if tiling and record.events[k - 1].get("move", {}).get("action") == "wall":
            continue
        out.append((k, state.copy()))
    return out
