"""What the reader mistakes for what at this table, as the game told it.

A reader trained on other printings may read one colour of this table's tiles as another, and be
sure of it (a worn blue read as black, most times it is seen). The game says what each committed
tile is: every board space a commit settles with a tile, and every display of a committed deal,
pairs the reader's kind with the engine's. Where tiles of kind T have been read as R here, a
reading of R is weighed as this table's readings of R turned out: how often an R was an R, and
how often a T (:meth:`Mixups.weight`). The explanation then leans on what the rules and the other
zones say; a reading that was never wrong here keeps the weight of its confidence.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.errors import CodedError
from .explain import LEAST_WEIGHT, ZoneRead, weight

#: Readings a kind's own confidence counts as, beside those the game named: the reader's word
#: before this table has said anything of it.
PRIOR_READINGS = 2.0


class TableError(CodedError):
    """This table's memory (its tile references and the reader's mix-ups, kept beside the
    profile) that cannot be read: a code with its parameters (the file's ``path``, what is wrong)."""


@dataclass
class Mixups:
    """Readings of this table the game named: kind read -> Counter of the kinds they were."""

    named: dict[str, Counter] = field(default_factory=dict)
    #: Loose tiles (the centre, the hands) the game names, by kind: how many were read there and
    #: how many were not (a pile hides tiles; a printing may hide a kind, the first-player marker
    #: on a patterned cloth): a tile of a kind this table's reader misses costs as it misses.
    loose: dict[str, list[int]] = field(default_factory=dict)

    def learn(self, read: Any, was: Any) -> None:
        """One tile read as ``read`` that the game says is ``was`` (empty spaces are the change
        reader's question, not a mix-up: ignored)."""
        if isinstance(read, str) and isinstance(was, str):
            self.named.setdefault(read, Counter())[was] += 1

    def learn_loose(self, read: tuple[str, ...], was: tuple[str, ...]) -> None:
        """A zone of loose tiles read as ``read`` that the game says holds ``was``: each of its
        tiles read there, or not."""
        seen = Counter(read)
        for kind, n in Counter(was).items():
            counts = self.loose.setdefault(kind, [0, 0])
            counts[0] += min(n, seen[kind])
            counts[1] += max(n - seen[kind], 0)

    def missed(self, kind: str, confidence: float) -> float:
        """How much a tile of ``kind`` the state puts in a zone of loose tiles and the reader did
        not see there counts (the zone read at ``confidence`` that nothing else lies there): the
        log-odds of its being seen among this table's tiles of that kind, with the reader's own
        word (:data:`PRIOR_READINGS` at ``confidence``); never more than the confidence alone says."""
        seen, missed = self.loose.get(kind, (0, 0))
        right = seen + PRIOR_READINGS * confidence
        wrong = missed + PRIOR_READINGS * (1.0 - confidence)
        return min(max(math.log(right / wrong), LEAST_WEIGHT), weight(confidence))

    def weight(self, read: str, was: str, confidence: float) -> float:
        """How much a tile read as ``read`` at ``confidence`` counts against its being ``was``:
        the log-odds of the two among this table's readings of ``read``, each side with the
        reader's own word (:data:`PRIOR_READINGS` readings at ``confidence``); never more than
        the confidence alone says."""
        right, wrong = self.probabilities(read, confidence, [read, was])
        return min(max(math.log(right / wrong), LEAST_WEIGHT), weight(confidence))

    def of(self, read: ZoneRead) -> ZoneRead:
        """``read`` with the mix-ups of the kinds it names (:attr:`ZoneRead.mixups`)."""
        if isinstance(read.content, tuple) and self.loose:
            read = replace(read, missed=tuple((kind, self.missed(kind, read.confidence)) for kind in sorted(self.loose)))
        if not self.named:
            return read
        if isinstance(read.content, tuple):
            least = {}
            for kind, conf in zip(read.content, read.sureness or (read.confidence,) * len(read.content)):
                least[kind] = min(conf, least.get(kind, 1.0))
        elif isinstance(read.content, str):
            least = {read.content: read.confidence}
        else:
            return read
        mixups = tuple((kind, was, self.weight(kind, was, conf)) for kind, conf in least.items()
                       for was in self.named.get(kind, ()) if was != kind)
        return replace(read, mixups=mixups) if mixups else read

    def annotated(self, zones: dict[str, ZoneRead]) -> dict[str, ZoneRead]:
        """Every zone of a view with its mix-ups (:meth:`of`)."""
        if not self.loose and not any(was != read for read, named in self.named.items() for was in named):
            return zones
        return {zone: self.of(read) for zone, read in zones.items()}

    def probabilities(self, read: str, confidence: float, kinds: list[str]) -> list[float]:
        """What a tile read as ``read`` at ``confidence`` is, over ``kinds``, by this table's
        readings of ``read`` and the reader's word (its doubt spread evenly over the others)."""
        seen = self.named.get(read, Counter())
        others = (1.0 - confidence) / max(len(kinds) - 1, 1)
        counts = [seen[k] + PRIOR_READINGS * (confidence if k == read else others) for k in kinds]
        total = sum(counts)
        return [c / total for c in counts]

    def to_json(self) -> dict[str, dict[str, int]]:
        return {read: dict(named) for read, named in self.named.items()}

    @classmethod
    def from_json(cls, data: Any) -> "Mixups":
        """Mix-ups kept as :meth:`to_json` writes them; raises :class:`TableError` for anything else."""
        if not isinstance(data, dict) or not all(isinstance(r, str) and isinstance(n, dict) for r, n in data.items()):
            raise TableError("mixups.form")
        named = {}
        for read, counts in data.items():
            if not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0 for k, v in counts.items()):
                raise TableError("mixups.counts", read=read)
            named[read] = Counter(counts)
        return cls(named)
