"""The reader's zone reads (:class:`~.explain.View`) as the filter's zone likelihoods (:class:`~.seen.SeenView`).

A slot read as a kind at a confidence costs nothing for that kind, each kind this table's tiles of
it were read as before (its mix-ups) what the mix-up weighs, and any other kind the reading's
log-odds. A tile of a loose zone costs each colour by how likely the reading makes it where that is
known (a display's tiles read against this table's own), else as a slot does; a tile read where none
lies costs the least sure tile's log-odds, one lying there unread the zone's.

Not yet the frame loop's: the displays are taken as numbered as the view numbers them.
"""

from __future__ import annotations

import math

from .explain import View, ZoneRead, weight
from .seen import LooseRead, Reading, SeenView


def seen_view(view: View, kinds: int) -> SeenView:
    """``view`` as zone likelihoods, for a game of ``kinds`` kinds of tile (the first-player marker among them)."""
    slots, loose = {}, {}
    for zone, read in view.zones.items():
        if zone.loose:
            loose[zone] = _loose(read)
        else:
            slots[zone] = _slot(read)
    return SeenView(view.time, slots, loose, kinds)


def _slot(read: ZoneRead) -> Reading:
    mixed = tuple((was, w) for seen_as, was, w in read.mixups if seen_as == read.content and was != read.content)
    return Reading(((read.content, 0.0), *mixed), weight(read.confidence))


def _loose(read: ZoneRead) -> LooseRead:
    sureness = read.sureness or (read.confidence,) * len(read.content)
    tiles = []
    for i, (name, sure) in enumerate(zip(read.content, sureness)):
        likely = read.likely[i] if read.likely and i < len(read.likely) else ()
        if likely:
            best = max(p for _, p in likely)
            costs = tuple((kind, math.log(best / max(p, 1e-9))) for kind, p in likely)
            tiles.append(Reading(costs, max(c for _, c in costs)))
        else:
            tiles.append(Reading(((name, 0.0),), weight(sure)))
    phantom = min((weight(s) for s in sureness), default=weight(read.confidence))
    return LooseRead(tuple(tiles), phantom, weight(read.confidence))
