"""A view as zone likelihoods: how likely what was read in each zone is, for each content a state may put there.

The filter (:mod:`filter`) asks a view one thing: how far a state's table lies from it, as a
negative log-likelihood relative to the table as read (:class:`SeenView` is its
:class:`~.filter.Observation`). Each zone read carries what the reading says of every content:

- a board slot or a supply space: a :class:`Reading`, the cost of each kind (None: empty) beside
  the kind read (0);
- a zone of loose tiles (a display, the centre, a hand): a :class:`LooseRead`, a :class:`Reading`
  for each tile read, the cost of a tile read that is not there and of a tile there not read.

A state puts a multiset in a loose zone; the reading is weighed by the cheapest pairing of the tiles
read with the tiles wanted (each tile read paired with one wanted, or with nothing; each wanted with
one read, or missed). A display is asked only how many tiles it holds (the engine knows its colours
once dealt); :meth:`SeenView.display_cost` weighs its colours for a deal. Zones the view does not
hold (an arm over them) say nothing.

Pure Python over the engine: no image is seen here.
"""

from __future__ import annotations

from collections import Counter
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..engine.observe import expected
from ..engine.zones import DISPLAY, SUPPLY, Zone

#: The most tiles left unpaired by kind that the exact pairing weighs; more are paired greedily.
MOST_PAIRED = 9


@dataclass(frozen=True)
class Reading:
    """What one reading says of each kind: ``costs`` (kind, cost) pairs, the kind read at 0, and
    ``other`` for every kind not listed."""

    costs: tuple[tuple[str | None, float], ...]
    other: float

    def cost(self, kind: str | None) -> float:
        for k, c in self.costs:
            if k == kind:
                return c
        return self.other

    @property
    def kind(self) -> str | None:
        """The kind read (the cheapest)."""
        return min(self.costs, key=lambda kc: kc[1])[0]

    def spread(self, alternatives: int) -> tuple[float, float]:
        """The mean and variance of :meth:`cost` over what lies there, as likely as the reading
        says (each kind's probability in proportion to ``exp(-cost)``, among ``alternatives`` kinds)."""
        costs = [c for _, c in self.costs] + [self.other] * max(alternatives - len(self.costs), 0)
        masses = [math.exp(-c) for c in costs]
        total = sum(masses)
        mean = sum(m * c for m, c in zip(masses, costs)) / total
        return mean, sum(m * (c - mean) ** 2 for m, c in zip(masses, costs)) / total


@dataclass(frozen=True)
class LooseRead:
    """A zone of loose tiles read: each tile's :class:`Reading`, the cost of a tile read where none
    lies (``phantom``) and of a tile lying there unread (``missed``)."""

    tiles: tuple[Reading, ...]
    phantom: float
    missed: float

    def count_cost(self, count: int) -> float:
        """``count`` tiles whatever their kinds, against the tiles read."""
        seen = len(self.tiles)
        return (seen - count) * self.phantom if seen >= count else (count - seen) * self.missed

    def cost(self, want: tuple[str, ...]) -> float:
        """The tiles ``want`` against the tiles read: the cheapest pairing (:func:`pairing_cost`)."""
        return pairing_cost(self.tiles, want, self.phantom, self.missed)

    def spread(self, kinds: int) -> tuple[float, float]:
        """The mean and variance of :meth:`cost` for what lies there, as likely as the readings say:
        each tile's kind (:meth:`Reading.spread`), and whether it is there at all."""
        mean = var = 0.0
        ghost = 1.0 / (1.0 + math.exp(self.phantom))
        for reading in self.tiles:
            m, v = reading.spread(kinds)
            mean += ghost * self.phantom + (1 - ghost) * m
            var += v + ghost * (1 - ghost) * self.phantom ** 2
        return mean, var


def pairing_cost(tiles: tuple[Reading, ...], want: tuple[str, ...], phantom: float, missed: float) -> float:
    """The cheapest way to pair each tile read with a tile of ``want`` or none (``phantom``), each
    tile of ``want`` left unpaired being ``missed``. A tile read as a kind wanted pairs with it
    first (the reading's own kind costs nothing); the rest are paired exactly (:func:`assignment`)."""
    wanted = Counter(want)
    rest = []
    for reading in tiles:
        kind = reading.kind
        if wanted[kind] > 0:
            wanted[kind] -= 1
        else:
            rest.append(reading)
    left = list((+wanted).elements())
    if not rest or not left:
        return len(rest) * phantom + len(left) * missed
    if len(rest) + len(left) > MOST_PAIRED:
        return _greedy(rest, left, phantom, missed)
    n = len(rest) + len(left)
    # Rows: each tile read, then a "missed" row for each tile wanted; columns: each tile wanted,
    # then a "phantom" column for each tile read.
    matrix = [[r.cost(k) for k in left] + [phantom] * len(rest) for r in rest]
    matrix += [[missed] * len(left) + [0.0] * len(rest) for _ in left]
    return assignment(matrix) if n else 0.0


def _greedy(rest: list[Reading], left: list[str], phantom: float, missed: float) -> float:
    total, left = 0.0, list(left)
    for reading in sorted(rest, key=lambda r: min(r.cost(k) for k in left) if left else phantom):
        if left:
            k = min(left, key=reading.cost)
            if reading.cost(k) < phantom + missed:
                total += reading.cost(k)
                left.remove(k)
                continue
        total += phantom
    return total + len(left) * missed


def assignment(matrix: list[list[float]]) -> float:
    """The least total of a square cost matrix over one entry a row and a column (the Hungarian
    method with potentials, O(n^3))."""
    n = len(matrix)
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    match = [0] * (n + 1)  # column -> row (1-based; 0: none)
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        match[0] = row
        col0 = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[col0] = True
            r0, delta, col1 = match[col0], inf, 0
            for col in range(1, n + 1):
                if not used[col]:
                    cur = matrix[r0 - 1][col - 1] - u[r0] - v[col]
                    if cur < least[col]:
                        least[col], way[col] = cur, col0
                    if least[col] < delta:
                        delta, col1 = least[col], col
            for col in range(n + 1):
                if used[col]:
                    u[match[col]] += delta
                    v[col] -= delta
                else:
                    least[col] -= delta
            col0 = col1
            if match[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            match[col0] = match[col1]
            col0 = col1
    return sum(matrix[match[col] - 1][col - 1] for col in range(1, n + 1))


@dataclass
class SeenView:
    """One still view as zone likelihoods (the filter's :class:`~.filter.Observation`): ``slots``
    each board slot and supply space read, ``loose`` each display, the centre and each hand read."""

    time: float
    slots: dict[Zone, Reading]
    loose: dict[Zone, LooseRead]
    #: How many kinds a tile may be read as (a slot may also be read empty).
    kinds: int
    #: Each zone's cost by the content a state puts there (a view is weighed against many states).
    _costs: dict[tuple[Zone, Any], float] = field(default_factory=dict, repr=False)

    def cost(self, state: Any) -> float:
        exp = expected(state)
        total = 0.0
        for zone, reading in self.slots.items():
            total += reading.cost(exp.get(zone))
        for zone, read in self.loose.items():
            want = exp.get(zone, ())
            if zone.kind == DISPLAY:
                total += read.count_cost(len(want))
                continue
            key = (zone, want)
            c = self._costs.get(key)
            if c is None:
                c = self._costs[key] = read.cost(want)
            total += c
        return total

    @cached_property
    def tolerance(self) -> float:
        """The cost the table as it lies stays under, as sure as the readings say they are: the
        cost's mean over the zones and three standard deviations."""
        mean = var = 0.0
        for reading in self.slots.values():
            m, v = reading.spread(self.kinds + 1)
            mean, var = mean + m, var + v
        for read in self.loose.values():
            m, v = read.spread(self.kinds)
            mean, var = mean + m, var + v
        return mean + 3.0 * math.sqrt(var)

    def shows_tiles(self, display: int) -> bool:
        read = self.loose.get(Zone.display(display))
        return read is not None and bool(read.tiles)

    def display_cost(self, display: int, tiles: tuple[str, ...]) -> float | None:
        if not self.shows_tiles(display):
            return None  # not seen, or seen empty: the view says nothing of the colours it holds
        key = (Zone.display(display), tiles)
        c = self._costs.get(key)
        if c is None:
            c = self._costs[key] = self.loose[Zone.display(display)].cost(tiles)
        return c

    def centre(self) -> tuple[str, ...] | None:
        read = self.loose.get(Zone.centre())
        return None if read is None else tuple(sorted(r.kind for r in read.tiles))  # type: ignore[misc]

    def supply(self) -> list[str | None] | None:
        spaces = sorted((z for z in self.slots if z.kind == SUPPLY), key=lambda z: z.index)
        if not spaces:
            return None
        return [self.slots[z].kind for z in spaces]

