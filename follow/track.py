"""From one still view of the table to the next: which legal move or chance event happened.

The tracker holds the game as the engine knows it (:class:`~azulcam.engine.record.Game`). Given a
still view, it asks which events explain it (:mod:`explain`); the best one is committed only when
it fits and no other comes close. Several fit alike: each is kept as a hypothesis and grown with
the next views, and the zones that would tell them apart are reported unsure. Nothing fits: a
committed move that the view contradicts may be revised, else an "illegal or unexplained change"
alert once it has lasted :data:`ALERT_AFTER` seconds, and the tracker waits for the table to be put
right. It never commits a guess; a person may correct it (:meth:`Tracker.undo`, ``replace``,
``overrule``).
"""

from __future__ import annotations

import dataclasses

import itertools
import json
import math
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from dataclasses import dataclass, field
from typing import Any

from ..engine.azul import SCORE_TRACK_TOP
from ..engine.errors import CodedError, EngineError, ObservationError
from ..engine.join import position_from
from ..engine.notice import plain
from ..engine.observe import empty_content, expected
from ..engine.position import tiles_in_view
from ..engine.record import Game
from ..engine.zones import CENTER, DISPLAY, HAND, Zone
from ..vision.analyze import UNSURE
from .explain import (BEAM, CLOSE_FIT, MOST_CENTRE_TAKES, MOST_EVENTS, MOST_UNSEEN_DISPLAYS, MOST_WEIGHT, NOTHING_SEEN, Changes,
                      Explanation, View, ZoneRead, charged, common_prefix, cost_of, disagreement, explain, observation_seen,
                      points_apart, tile_kinds, tiling_ahead, unique_states, unsure_zones)
from .mixups import Mixups

#: After a gap between still views (a camera that dropped out), more events in a row are sought:
#: no table plays more than this many a second (a hand reaches, carries and leaves), up to
#: :data:`MOST_EVENTS_AFTER_A_GAP`, for the first :data:`LONG_SEARCHES` views after it. As many
#: unexplained views in a row try revising committed events (:data:`MOST_REVISED`); after them
#: only the short search runs, so that a table left unexplained does not fall behind the camera.
EVENTS_PER_SECOND = 1.0
MOST_EVENTS_AFTER_A_GAP = 8
LONG_SEARCHES = 2

#: Tiles a deal lays on each display, in both games: a table whose every display shows this many at
#: a game's start was dealt before the game was started (:meth:`Tracker.see`).
DEALT_TILES = 4

#: The views between two fits kept to tell apart paths that end alike (:meth:`Tracker._seen_between`):
#: a hand's coming, carrying and going, for two or three moves.
MOST_BETWEEN = 6

#: Committed events a view that nothing explains may revise: the tracker looks again from before
#: the last one, two or three of them (a move committed on a misread that later views contradict),
#: keeping this many explanations from one length to the next (a gap's long search keeps more).
MOST_REVISED = 3
REVISION_BEAM = 32

#: A deal read wrong is revised from where its tiles went, while the round has seen at most this
#: many events since it (and with it): the displays taken (:data:`explain.MOST_UNSEEN_DISPLAYS`),
#: a few takes from the centre, and the deal.
MOST_DEAL_REVISED = 1 + MOST_UNSEEN_DISPLAYS + MOST_CENTRE_TAKES

#: A deal read wrong is also read again with this many tiles of one display swapped for what a
#: take shows (two purples read as a blue and a red, seen right in the hand).
MOST_SWAPPED = 2

#: A deal (or a position's displays and centre) read again differs in one display's tiles at
#: most: each of its four tiles leaves one zone short and another over. A view its best
#: explanation leaves further off than that is not read again (each reading tried is a search).
MOST_OFF_READ_AGAIN = 2 * 4

#: The most an explanation that is committed may disagree with the view: one zone read wrong
#: at the surest (a reading the reader is certain of and is wrong happens: 2 in 3,345 slots).
FITS = MOST_WEIGHT + 0.1

#: How much better the best explanation must fit than any other (ln 50): one slot read at 0.98
#: or surer tells two apart; what the reader is less sure of cannot decide between them.
MARGIN = math.log(50.0)

#: Seconds an unexplained view must last before the alert: a hand resting, players still laying
#: tiles on their walls at a round's end, are not alerts.
ALERT_AFTER = 2.0

#: A game taken up from a view (:meth:`Tracker.join`) starts from what was read there; the zones
#: read at under this are announced unsure, for a person to confirm or overrule.
JOIN_SURE = 0.9

#: A game that nothing has explained for this long (seconds), over this many still views, is lost:
#: it is taken up again from the table as it stands (the same work as joining), with the round
#: and scores the game had, and said so. Long after the alert: a person had time to correct it.
RESYNC_AFTER, RESYNC_VIEWS = 8.0, 4


def as_taken_up(zones: dict[str, ZoneRead], covered: dict[str, float]) -> dict[str, ZoneRead]:
    """The zones a game is taken up from: a board space read as a tile that looks as it did bare
    (``covered``: the log-odds that it holds one, :attr:`View.covered`) is empty, however its
    print reads, as sure as its look says."""
    out = dict(zones)
    for zone, log_odds in covered.items():
        read = zones.get(zone)
        if log_odds < -MARGIN and read is not None and read.content is not None:
            out[zone] = ZoneRead(None, 1.0 / (1.0 + math.exp(log_odds)))
    return out


def dealt_before_start(displays: list[tuple[str, ...]]) -> bool:
    """Whether the displays as the game's first view reads them (each one's tiles) were dealt
    before the game was started: every one holds a deal's :data:`DEALT_TILES`, and not all the
    same tiles. Every display of a copy is printed alike, so a print read as tiles reads alike on
    each of them; a deal draws each display's tiles from the bag, and hardly ever deals every
    display the same four."""
    return len(displays) > 1 and all(len(d) == DEALT_TILES for d in displays) \
        and len({tuple(sorted(d)) for d in displays}) > 1


def marked_scores(state: Any, markers: dict[int, int]) -> tuple[list[int], list[Zone]]:
    """The scores a game taken up again from the table goes on with: each player's as their score
    marker stands (read surely: :attr:`View.markers`) where the game has a score track and the
    marker is below its top (a marker at the top may stand for more), else the score the game had;
    and the markers not read so, whose scores are unsure."""
    scores, unread = [], []
    for p, score in enumerate(state.scores()):
        cell = markers.get(p) if state.spec.score_track else None
        if cell is not None and 0 <= cell < SCORE_TRACK_TOP:
            scores.append(int(cell))
        else:
            scores.append(score)
            unread.append(Zone.score(p))
    return scores, unread


def as_marked(explanations: list[Explanation], markers: dict[int, int]) -> list[Explanation]:
    """Of ``explanations`` that the view fits alike, those whose scores the players' score markers
    (read surely: :attr:`View.markers`) disagree with least: players move their markers as they
    score, and a cube on a track reads alike on any printing, where a tile laid on a space printed
    in its colour may hardly change its look. All of them where the markers tell none apart."""
    if len(explanations) < 2 or not markers or not explanations[0].state.spec.score_track:
        return explanations
    off = [sum(1 for p, cell in enumerate(cells) if p in markers and markers[p] != cell)
           for cells in (e.state.marker_cells() for e in explanations)]
    return [e for e, n in zip(explanations, off) if n == min(off)]


class Refused(CodedError):
    """A correction the tracker cannot make (or a watch that cannot be opened): a notice code
    (``follow.*``, ``setup.*``) and its parameters, worded by the catalogue where it is shown; a
    parameter may be another error, the refusal's reason."""


@dataclass
class Displays:
    """The engine's display numbers on the table: display I is the one at ``places[I]`` (image
    pixels). Numbered once, from the first view that shows as many displays as the game has:
    clockwise in the image round their middle, from the one nearest player 0's board. Matched
    in each later view by the nearest centre, within half the distance between neighbours."""

    places: list[tuple[float, float]] = field(default_factory=list)

    @staticmethod
    def numbered(centres: list[tuple[float, float]], first_near: tuple[float, float]) -> "Displays":
        mx = sum(c[0] for c in centres) / len(centres)
        my = sum(c[1] for c in centres) / len(centres)
        start = min(centres, key=lambda c: (c[0] - first_near[0]) ** 2 + (c[1] - first_near[1]) ** 2)
        a0 = math.atan2(start[1] - my, start[0] - mx)
        # Image y points down: a growing atan2 angle turns clockwise on the screen.
        ordered = sorted(centres, key=lambda c: (math.atan2(c[1] - my, c[0] - mx) - a0) % (2 * math.pi))
        return Displays([(float(x), float(y)) for x, y in ordered])

    def match(self, centres: list[tuple[float, float]]) -> dict[int, int]:
        """Engine display number -> index of the read display at its place (those seen)."""
        if len(self.places) < 2:
            return {}
        spacing = min(math.dist(a, b) for i, a in enumerate(self.places) for b in self.places[i + 1:])
        out: dict[int, int] = {}
        taken: set[int] = set()
        pairs = sorted((math.dist(p, c), i, j) for i, p in enumerate(self.places) for j, c in enumerate(centres)
                       if not math.isnan(c[0]))
        for d, i, j in pairs:
            if d <= spacing / 2 and i not in out and j not in taken:
                out[i] = j
                taken.add(j)
        return out

    def follow(self, centres: list[tuple[float, float]], matched: dict[int, int]) -> None:
        """Move each place a quarter of the way to where it was seen: a bumped table is followed,
        one misplaced circle is not."""
        for i, j in matched.items():
            (x, y), (cx, cy) = self.places[i], centres[j]
            self.places[i] = (x + 0.25 * (cx - x), y + 0.25 * (cy - y))

    def to_json(self) -> list[list[float]]:
        return [[round(x, 1), round(y, 1)] for x, y in self.places]


def in_engine_numbers(view: View, matched: dict[int, int]) -> dict[str, ZoneRead]:
    """The view's zones with each display's zone named by its engine number (those not matched
    left out)."""
    zones = {z: r for z, r in view.zones.items() if z.kind != DISPLAY}
    for i, j in matched.items():
        read = view.zones.get(Zone.display(j))
        if read is not None:
            zones[Zone.display(i)] = read
    return zones


def empty_where_bare(read: dict[str, ZoneRead], filled: dict[str, float], kept: Any = ()) -> dict[str, ZoneRead]:
    """``read`` with each display that looks as it did empty (``filled``: the log-odds that it
    holds tiles) read empty, whatever tiles its print reads as (no deal read off it, and one dealt
    there was taken); those in ``kept`` (a person's word) as they are."""
    for zone, odds in filled.items():
        if odds < -MARGIN and read.get(zone) is not None and read[zone].content and zone not in kept:
            read[zone] = ZoneRead((), NOTHING_SEEN)
    return read


@dataclass
class Tracker:
    """A game followed view by view. ``see(view)`` returns the stream events the view brings
    (dicts as in the event stream's format, without ``time`` and ``frame``, which the caller
    adds): moves and chance events committed, an alert, unsure zones.

    Where a view fits several explanations alike, each is kept as a hypothesis (events since the
    last commit) and grown with the next views; the events all the surviving ones share are
    committed as soon as they share them, the rest once one alone fits. Before the first move the
    start player is unknown: the first move seen decides it."""

    game: Game
    first_near: tuple[float, float] = (0.0, 0.0)
    displays: Displays = field(default_factory=Displays)
    reference: dict[str, ZoneRead] | None = None
    pending: list[Explanation] = field(default_factory=list)
    unexplained_since: float | None = None
    unexplained_zones: list[str] = field(default_factory=list)
    #: What an alert says is wrong with the view: a notice code and its parameters, as the event
    #: stream's JSON holds them (another error, the reason, as its ``{"code", "params"}``).
    unexplained_notice: tuple[str, dict[str, Any]] = ("follow.unexplained", {"zones": []})
    unexplained_frame: int = 0
    alerted: bool = False
    last_unsure: list[str] = field(default_factory=list)
    #: When the last view that fitted was seen (None: none yet), and views unexplained since.
    last_fitted: float | None = None
    misses: int = 0
    #: Zones a person said what lies in (:meth:`overrule`), until the game changes them.
    overruled: dict[str, ZoneRead] = field(default_factory=dict)
    #: The event a person took back (:meth:`undo`), not recorded again while the table still shows
    #: just it: a view it alone explains is the view it was taken back at (None: none held).
    held: dict[str, Any] | None = None
    #: The round and scores of a game to take up from the next view (:meth:`join`); None: follow.
    joining: tuple[int, list[int]] | None = None
    #: The board spaces (and supply spaces) the game vouches for: what the game had in each at the
    #: view it was last settled in, and how many events the record held then. The camera is asked
    #: only whether they changed since (:attr:`View.change`).
    baseline: dict[str, Any] = field(default_factory=dict)
    settled_at: dict[str, int] = field(default_factory=dict)
    #: What each settled space read as at the view it was settled in: a print that reads as a
    #: tile (:attr:`Changes.looked`).
    looked: dict[str, Any] = field(default_factory=dict)
    #: How many events the record held when each settled space's content last changed: a space
    #: whose neighbour changed after its own reference was taken shows that neighbour's tile
    #: reaching over it (a space left in doubt keeps an old reference).
    changed_at: dict[str, int] = field(default_factory=dict)
    #: What was settled (zone -> whether the game changed it since its last settling) and forgotten
    #: (zones whose content is no longer known: a move taken back) since the frame loop last took
    #: them (:meth:`take_settled`): it keeps the view's patches of those zones as their references.
    settled: dict[str, bool] = field(default_factory=dict)
    forgotten: set[str] = field(default_factory=set)
    #: How each display still as dealt was read since the round's deal (the record's index of the
    #: deal, and display zone -> readings of its full count of tiles): a deal read wrong at its
    #: view may be read right in the next, and a take then says which (:meth:`_deal_substitutions`).
    deal_reads: tuple[int, dict[str, Counter]] = (-1, {})
    #: Each view that committed the game alone since the round's deal, as read (how many events
    #: the record held then, and the readings of every zone but the displays): a deal read again
    #: must also explain where the moves since left its tiles, in the centre, the hands and on the
    #: boards (:meth:`_contradicted`).
    seen_since_deal: list[tuple[int, dict[str, ZoneRead]]] = field(default_factory=list)
    #: How the displays of the round's deal were read at the view that committed it (the record's
    #: index of the deal, and display zone -> each tile's kind and sureness): a deal is a hypothesis
    #: over its colours until takes settle it (:func:`doubtful_deals`).
    deal_doubt: tuple[int, dict[str, tuple[tuple[str, float, tuple[tuple[str, float], ...]], ...]]] = (-1, {})
    #: What the reader mistakes for what at this table, as the committed game named its readings.
    mixups: Mixups = field(default_factory=Mixups)
    #: Each board space's tile whose reading the mix-ups learnt (once a tile: the view that committed it).
    named: dict[str, str] = field(default_factory=dict)
    #: The views nothing fitted since the last that did (the newest :data:`MOST_BETWEEN`), as read
    #: and as measured: a hand's views between two moves show which was made first, where the
    #: view after both shows only where they led (:meth:`_seen_between`).
    between: list[tuple[dict[str, ZoneRead], Changes | None]] = field(default_factory=list)

    @property
    def display_count(self) -> int:
        return len(self.game.state.to_json()["factories"])

    @property
    def taking_up(self) -> bool:
        """Whether the game may be taken up from the next view: joining, or unexplained in views
        enough to be taken up again (:meth:`_unexplained`)."""
        return self.joining is not None or (self.misses >= RESYNC_VIEWS - 1 and bool(self.game.record.events))

    def see(self, view: View) -> list[dict[str, Any]]:
        if view.glimpse and (self.joining is not None or self.unexplained_since is not None or not self.displays.places
                             or not self.game.record.events):
            return []  # a glimpse only carries a game followed on to the view between two moves
        if not all(type(z) is Zone for z in view.zones):
            # The tracker and its costs read a zone by its parts: a view that names its zones as
            # text (a test, a file) has them parsed here, where views come in, once.
            view = dataclasses.replace(view, zones={Zone.parse(z): r for z, r in view.zones.items()})
        starting = not self.baseline and not self.game.record.events and self.joining is None
        if starting:
            # A game at its start: every space is known empty, whatever it reads like. The view
            # is its reference, and the spaces count as unchanged in it (its displays too, once
            # numbered below).
            self._settle({z: r for z, r in view.zones.items() if z.kind != DISPLAY}, expected(self.game.state), ())
            view = View(view.zones, view.displays, view.frame, view.time,
                        {z: (-MOST_WEIGHT, -MOST_WEIGHT) for z in self.settled}, view.near)
        if not self.displays.places:
            seen = [c for c in view.displays if not math.isnan(c[0])]
            if len(seen) != self.display_count:
                return self._unexplained(view, [], ("follow.displays_seen", {"seen": len(seen), "count": self.display_count}))
            self.displays = Displays.numbered(seen, self.first_near)
        matched = self.displays.match(view.displays)
        read = empty_where_bare({**in_engine_numbers(view, matched), **self.overruled}, view.filled, self.overruled)
        zones = self.mixups.annotated(read)
        if starting and not dealt_before_start([r.content for z, r in zones.items() if z.kind == DISPLAY]):
            # Its displays too are empty, whatever they read like (a printing read as tiles): the
            # game begins here, and nothing is explained yet (no deal of what the print looks like).
            self._settle({z: r for z, r in zones.items() if z.kind == DISPLAY}, expected(self.game.state), ())
            self.reference = zones
            self._learn_loose(zones, expected(self.game.state))
            return []
        # Else, at a game's start, a table dealt before the game was started (players often deal
        # first): its deal is the game's first event, explained as any other.
        if self.joining is not None:
            return self._take_up(view, zones)
        self._remember_displays(zones)
        # After a gap, the long search gets the first views that follow it; a table that stays
        # unexplained after those is not searched ever deeper (the camera must keep up).
        gap = view.time - self.last_fitted if self.last_fitted is not None and self.misses < LONG_SEARCHES else 0.0
        chain = MOST_EVENTS[self.game.state.spec.board]
        most = min(max(chain, math.ceil(gap * EVENTS_PER_SECOND)), max(MOST_EVENTS_AFTER_A_GAP, chain))
        changes = self._changes(view)
        if view.between:  # evidence of the order of the moves the next still view shows, no more
            self.between = [*self.between, (zones, changes)][-MOST_BETWEEN:]
            return []
        ranked = self._explanations(zones, most, changes)
        fitting = [e for e in ranked if e.cost <= FITS]
        revised: list[dict[str, Any]] = []
        if not fitting:
            self.between = [*self.between, (zones, changes)][-MOST_BETWEEN:]
        if not fitting and view.glimpse:
            return []
        if not fitting and not self.baseline and ranked and not ranked[0].events:
            # A game resumed with no look of any space kept (a watcher restarted from its
            # journal): where nothing happening is still the likeliest, the view is the table as
            # the journal left it, whatever its print reads like (a wall printed as strongly as
            # its tiles): every space's reference, as at a game's start.
            self._settle(zones, expected(self.game.state), ())
            self.reference = zones
            return []
        if not fitting and self._tiling_ahead(ranked, zones, view):
            return []  # players tile at once: a board ahead of the record's order waits for its turn
        if not fitting and self.misses >= 1 and ranked:
            taught = self._taught_mixups(read, most, view, ranked[0])
            if taught is not None:
                zones, ranked = taught
                fitting = [e for e in ranked if e.cost <= FITS]
        if not fitting:
            # Revising is for a commit that a misreading misled, which the table goes on
            # contradicting: a view that lasts (the second unexplained in a row), not one read as
            # a hand left. After a gap, the long search from the committed state is what finds
            # the events the camera missed. A deal read again with a display's tiles swapped for
            # what a take shows, leaving no zone off, is evidence enough at once: the next move
            # may well take from the centre what tells the two readings apart.
            best = ranked[0] if ranked else None
            if self.misses == 0 and best is not None and len(best.mismatches) >= 2:
                revision = self._deal_revision(zones, view, None, best, swaps_only=True)
                revision = revision if revision is not None and not revision[1][0].mismatches else None
            else:
                revision = self._revision(zones, most, view, best) if self.misses == 1 and most <= chain else None
            if revision is None:
                return self._unexplained(view, best.mismatches if best else [],
                                         ("follow.unexplained", {"zones": _told(best, zones) if best else []}), zones)
            undone, fitting = revision
            for _ in range(undone):
                revised.append({**self._take_back(), "revised": True})
        else:
            # The likeliest change fits, but not every zone: a deal misread fits that way (a take
            # of the tile read wrong). Where the deal read again (the round's, or one among the
            # explanation's own events) explains the view clearly better, the deal is revised.
            first = as_marked(alike_best(fitting), view.markers)[0]
            margin = least_revision_margin(first, zones)
            if first.events and first.mismatches and not view.glimpse and first.cost >= margin:
                revision = self._deal_revision(zones, view, first.start, first, within=first.cost - margin)
                if beats(revision, first, zones):
                    undone, fitting = revision  # type: ignore[misc]
                    for _ in range(undone):
                        revised.append({**self._take_back(), "revised": True})
                else:
                    fitting = self._deal_read_again_within(first, zones, view, first.cost - margin) or fitting
        if self.held is not None:
            if min(fitting, key=lambda e: e.total).events == [self.held]:
                return []  # the table as it was when the event was taken back: it stays taken back
            self.held = None  # the table changed: it is followed again
        self._fitted(view.time)
        self.displays.follow(view.displays, matched)
        best = min(e.total for e in fitting)
        alike = as_marked(unique_states(self._seen_between(alike_best(fitting)[:4 * BEAM]))[:BEAM], view.markers)
        self.between = []
        apart = sorted({p for e in alike[1:] for p in points_apart(alike[0].state, e.state)})
        if apart and all(points_apart(alike[0].state, e.state) for e in alike[1:]):
            # Events the camera missed, in orders that leave the same table and score differently
            # (Summer Pavilion tiles laid one before the other): no later view can tell them
            # apart. The likeliest is committed, and the points said to be unsure.
            alike = alike[:1]
            unsure_points = [{"kind": "uncertain", "zones": [f"scores.{p}" for p in apart]}]
        else:
            unsure_points = []
        shared = common_prefix([e.events for e in alike])
        out = revised + self._commit(shared, alike[0].start)
        if any("deal" in e for e in shared):
            self.deal_doubt = (self._round_deal(), {z: tuple(zip(r.content, r.sureness or (r.confidence,) * len(r.content),
                                                                 r.likely or ((),) * len(r.content)))
                                                    for z, r in zones.items() if z.kind == DISPLAY})
        if len(alike) == 1:
            self.pending, self.last_unsure = [], []
            self.reference = zones
            committed = expected(self.game.state)
            self._settle(zones, committed, self._in_doubt(alike[0], zones))
            self._learn_laid(zones, committed)
            self._learn_loose(zones, committed)
            if any("deal" in e for e in shared):
                self._learn_deal(zones, committed)
            self._keep_seen(zones)
            return out + self._reweighed_deal() + self._forced() + unsure_points
        self.pending = [Explanation(e.events[len(shared):], e.state, 0.0, e.mismatches, e.total - best, e.start)
                        for e in alike]
        exp = [expected(e.state) for e in alike]
        differ = sorted({z for a in exp for b in exp for z in a.keys() | b.keys() if a.get(z, empty_content(z)) != b.get(z, empty_content(z))})
        # What every hypothesis agrees on is settled all the same: the others' references stay fresh.
        self._settle(zones, exp[0], {*differ, *(z for e in alike for z in self._in_doubt(e, zones))})
        if differ != self.last_unsure:
            self.last_unsure = differ
            out.append({"kind": "uncertain", "zones": differ})
        return out

    def _deal_read_again_within(self, first: Explanation, zones: dict[str, ZoneRead], view: View, within: float
                                ) -> list[Explanation]:
        """``first`` with the deal among its own events read again, as a committed deal is at a
        take's view (:meth:`_deal_revision`, ``within`` as it takes it): a deal seen while a move
        before it was in doubt is committed with the takes after it, and one of its tiles misread
        then shows only in a take. The deal is played on for the search alone; the explanation
        with it read again where that fits clearly better, else none."""
        at = max((k for k, e in enumerate(first.events) if "deal" in e), default=-1)
        if at < 0 or not any("move" in e for e in first.events[at + 1:]) or not self._moves_recorded():
            return []
        head = first.events[:at + 1]
        for event in head:
            self.game.apply(event)
        try:
            rest = Explanation(first.events[at + 1:], first.state, first.cost, first.mismatches, 0.0, first.start)
            revision = self._deal_revision(zones, view, first.start, rest, within=within)
        finally:
            for _ in head:
                self.game.pop()
        if not beats(revision, first, zones):
            return []
        undone, (better, *_) = revision  # type: ignore[misc]
        # What it takes back is the deal played on for the search (or nothing, where the same deal
        # with other moves fits): the revision's events go on from there.
        return [Explanation(head[:len(head) - undone] + better.events, better.state, better.cost, better.mismatches,
                            first.prior, first.start)]

    def _seen_between(self, explanations: list[Explanation]) -> list[Explanation]:
        """``explanations`` (best first), each that reaches the same state as another put in the
        order the views between saw (:attr:`between`): moves in another order, or other players
        taking from which display, leave the same table, which the view after them cannot tell
        apart. Such paths are weighed by every view between on the zones where they part (a
        display emptied first, what went to the centre), each by the nearest it came to that view
        at any step on the way: a hand's view between two moves shows the first one made, and none
        that is not yet; the zones it hides (a hand, a board) part no path from another. Where the
        views between say nothing, the order stays as it was."""
        if not self.between:
            return explanations
        by_state: dict[Any, list[int]] = {}
        for n, e in enumerate(explanations):
            by_state.setdefault(e.state.key(), []).append(n)
        if all(len(same) < 2 for same in by_state.values()):
            return explanations
        committed = expected(self.game.state)
        out = list(explanations)
        for same in by_state.values():
            if len(same) < 2:
                continue
            states = {n: states_along(*self._root_of(explanations[n])) for n in same}
            tables = [[expected(state) for state in path] for path in states.values()]
            steps = max(map(len, tables))
            apart = {z for k in range(steps) for a, b in combinations(tables, 2)
                     for x, y in [(a[min(k, len(a) - 1)], b[min(k, len(b) - 1)])]
                     for z in x.keys() | y.keys() if x.get(z, empty_content(z)) != y.get(z, empty_content(z))}
            weighed = sorted((sum(min(cost_of(state, {z: r for z, r in zones.items() if z in apart}, self.reference,
                                              committed, changes)[0] for state in states[n])
                                  for zones, changes in self.between), n) for n in same)
            for n, (_, k) in zip(same, weighed):
                out[n] = explanations[k]
        return out

    def _root_of(self, explanation: Explanation) -> tuple[Any, list[dict[str, Any]]]:
        """The state an explanation's events start from (the committed game's, or the game begun
        by its first mover before any move), and its events."""
        if self._moves_recorded() or explanation.start == self._first_mover():
            return self.game.state, explanation.events
        return self._replayed(explanation.start).state, explanation.events

    def _tiling_ahead(self, ranked: list[Explanation], zones: dict[str, ZoneRead], view: View) -> bool:
        """Whether an explanation of the view reaches Azul's wall tiling and fits but for the boards
        whose turn to tile comes later (:func:`explain.tiling_ahead`)."""
        committed, changes = expected(self.game.state), self._changes(view)
        return any(cost_of(e.state, zones, self.reference, committed, changes, behind_only=True)[0] <= FITS
                   for e in ranked if tiling_ahead(e.state))

    def take_settled(self) -> tuple[dict[str, bool], set[str]]:
        """What was settled and forgotten since the last call (see :attr:`settled`)."""
        out = self.settled, self.forgotten
        self.settled, self.forgotten = {}, set()
        return out

    def _changes(self, view: View, upto: int | None = None) -> Changes | None:
        """The view's measured changes of the zones the game vouches for (settled by the record's
        first ``upto`` events, by default all)."""
        log_odds = {z: lo for z, lo in view.change.items() if z in self.baseline
                    and (upto is None or self.settled_at[z] <= upto)}
        if not log_odds:
            return None
        since = {z for z in log_odds if any(self.changed_at.get(n, -1) > self.settled_at[z] for n in view.near.get(z, ()))}
        return Changes(log_odds, view.near, self.baseline, view.filled, frozenset(since), self.looked)

    def _settle(self, zones: dict[str, ZoneRead], exp: dict[str, Any], unsure: Any) -> None:
        """The board and supply spaces of the view, but ``unsure`` (where it disagreed with the
        game), settled with what the game (``exp``) puts there."""
        at = len(self.game.record.events)
        off = set(unsure)
        for zone in zones:
            if zone in off or zone.kind in (CENTER, HAND):  # the centre and the hands: piles, never settled
                continue
            content = exp.get(zone, empty_content(zone))
            if zone in self.baseline:
                self.settled[zone] = self.baseline[zone] != content
            else:
                self.settled.setdefault(zone, False)
            if self.settled[zone]:
                self.changed_at[zone] = at
            self.baseline[zone], self.settled_at[zone] = content, at
            self.looked[zone] = zones[zone].content
            self.forgotten.discard(zone)

    def _taught_mixups(self, read: dict[str, ZoneRead], most: int, view: View, best: Explanation
                       ) -> tuple[dict[str, ZoneRead], list[Explanation]] | None:
        """A view that lasts unexplained where the best explanation is off only in board spaces
        where it lays a tile of one kind and the reader saw another: the reader mistakes this
        table's tiles (several tiles of one take, read alike, are one mistake, not several). The
        view weighed again as if the game had already named those readings (:class:`Mixups`):
        its zones and explanations where that explanation then fits clearly best; else None."""
        exp = expected(best.state)
        pairs = []
        for zone in best.mismatches:
            seen, want = read[zone].content, exp.get(zone, empty_content(zone))
            if not zone.on_board or zone.kind == HAND or not isinstance(seen, str) \
                    or not isinstance(want, str) or seen == want:
                return None
            pairs.append((seen, want))
        if not pairs:
            return None
        taught = Mixups({kind: Counter(named) for kind, named in self.mixups.named.items()})
        for seen, want in pairs:
            taught.learn(seen, want)
        zones = taught.annotated(read)
        ranked = self._explanations(zones, most, self._changes(view))
        fitting = [e for e in ranked if e.cost <= FITS]
        if not fitting or fitting[0].events != best.events or \
                (len(ranked) > 1 and ranked[1].total - fitting[0].total < MARGIN):
            return None
        return zones, ranked

    def _learn_laid(self, zones: dict[str, ZoneRead], committed: dict[str, Any]) -> None:
        """Each tile the game laid on a board space since the last commit names its reading
        (those read otherwise too: they are the mix-ups), once."""
        for zone, read in zones.items():
            if zone.loose or zone in self.overruled:
                continue
            content = committed.get(zone)
            if content is None:
                self.named.pop(zone, None)
            elif self.named.get(zone) != content:
                self.named[zone] = content
                self.mixups.learn(read.content, content)

    def _learn_loose(self, zones: dict[str, ZoneRead], committed: dict[str, Any]) -> None:
        """The centre and each hand as read at a view the game settled: which of their tiles the
        reader saw there (:meth:`Mixups.learn_loose`)."""
        for zone, read in zones.items():
            if zone.kind in (CENTER, HAND) and zone not in self.overruled:
                self.mixups.learn_loose(read.content, committed.get(zone, ()))

    def _learn_deal(self, zones: dict[str, ZoneRead], committed: dict[str, Any]) -> None:
        """The displays of a deal just committed name their tiles as read: each tile read as the
        game has it, and one read otherwise where it alone differs."""
        for zone, read in zones.items():
            if zone.kind != DISPLAY or zone not in committed:
                continue
            dealt, seen = Counter(committed[zone]), Counter(read.content)
            for kind in (dealt & seen).elements():
                self.mixups.learn(kind, kind)
            missing, extra = list((dealt - seen).elements()), list((seen - dealt).elements())
            if len(missing) == 1 and len(extra) == 1:
                self.mixups.learn(extra[0], missing[0])

    @staticmethod
    def _in_doubt(explanation: Explanation, zones: dict[str, ZoneRead]) -> list[str]:
        """The zones where ``explanation`` and the view disagree, but those the reading agrees
        with it on (a tile on its own print may hardly change its space's look: the game and the
        reading together settle it)."""
        exp = expected(explanation.state)
        return [z for z in explanation.mismatches if zones[z].content != exp.get(z, empty_content(z))]

    def _keep_seen(self, zones: dict[str, ZoneRead]) -> None:
        """Keep the view as read, for a deal read again later (:attr:`seen_since_deal`): all
        but its displays, whose readings weigh a deal's readings once, as the deal's own doubt
        (:func:`doubtful_deals`); the same misreading of a display seen again is no more evidence."""
        deal = self._round_deal()
        count = len(self.game.record.events)
        self.seen_since_deal = [(at, seen) for at, seen in self.seen_since_deal if at > deal >= 0]
        if deal >= 0 and count > deal + 1:
            self.seen_since_deal.append((count, {z: r for z, r in zones.items() if z.kind != DISPLAY}))

    def _contradicted(self, revised: dict[int, dict[str, Any]], committed: dict[int, dict[str, Any]]) -> float:
        """How much worse than the committed game (``committed``: what it put in each zone after
        each count of events of :attr:`seen_since_deal`) a game read again from the round's deal
        with the same moves since (``revised``, alike) fits the views that committed those moves:
        where the two put different tiles (a take of another count of tiles leaves other
        leftovers in the centre, and lays other tiles on a board), the reading's
        disagreement with the one less that with the other. Each zone counts as one look, the
        mean of its looks since: the same pile seen again, a tile or two laid on it, is the same
        tiles hidden or misread (a tile hidden under another stays hidden), not more evidence."""
        looks: dict[str, dict[tuple, float]] = {}
        for at, seen in self.seen_since_deal:
            if at not in committed or at not in revised:
                continue
            was, now = committed[at], revised[at]
            for zone, read in seen.items():
                a, b = was.get(zone, empty_content(zone)), now.get(zone, empty_content(zone))
                if a != b:
                    looks.setdefault(zone, {})[(read.content, a, b)] = disagreement(b, read) - disagreement(a, read)
        return sum(sum(zone.values()) / len(zone) for zone in looks.values())

    def _forget_after(self, count: int) -> None:
        """The spaces settled after the record's first ``count`` events: what the game had there
        then is in doubt, and they are read again until settled anew."""
        for zone in [z for z, at in self.settled_at.items() if at > count]:
            del self.baseline[zone], self.settled_at[zone]
            self.looked.pop(zone, None)
            self.changed_at.pop(zone, None)
            self.settled.pop(zone, None)
            self.forgotten.add(zone)
        self.seen_since_deal = [(at, seen) for at, seen in self.seen_since_deal if at <= count]

    def _forced(self) -> list[dict[str, Any]]:
        """The moves the rules leave a player no choice of and that change nothing in view (a
        Summer Pavilion pass with an empty hand): no camera sees them, the rules play them."""
        out: list[dict[str, Any]] = []
        while self._moves_recorded():
            state = self.game.state
            if state.current_player < 0:
                break
            moves = state.legal_moves()
            if len(moves) != 1:
                break
            after = state.copy()
            after.play_unchecked(moves[0])
            if expected(after) != expected(state):
                break
            out += self._commit([{"player": state.current_player, "move": moves[0].to_json()}], self._first_mover())
        return out

    def _fitted(self, time: float) -> None:
        self.unexplained_since, self.alerted, self.last_fitted, self.misses = None, False, time, 0

    def join(self, round: int, scores: list[int]) -> None:
        """Take the game up from the next view (a game joined mid-way, or one the camera lost),
        in ``round`` with ``scores``: the position is rebuilt from what is read there, and who is
        to move is found by the first move seen. Raises :class:`Refused` for a round or scores that
        cannot be (checked again against the view)."""
        players = self.game.record.player_count
        if not (isinstance(round, int) and not isinstance(round, bool) and round >= 1):
            raise Refused("follow.bad_round", round=repr(round))
        if not (isinstance(scores, list) and len(scores) == players
                and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in scores)):
            raise Refused("follow.bad_scores", players=players, scores=repr(scores))
        self.joining = (round, list(scores))
        self._afresh()

    def _take_up(self, view: View, zones: dict[str, ZoneRead]) -> list[dict[str, Any]]:
        """The game rebuilt from the view, or an alert (once it lasts) naming why it cannot be."""
        assert self.joining is not None
        taken = self._taken_up(view, zones, *self.joining)
        return taken if taken is not None else self._unexplained(view, [], self.unexplained_notice)

    def _taken_up(self, view: View, zones: dict[str, ZoneRead], round: int, scores: list[int],
                  resynchronised: bool = False, unread: Sequence[Zone] = ()) -> list[dict[str, Any]] | None:
        """The game taken up from the view in ``round`` with ``scores`` (a ``position`` event,
        marked ``resynchronised`` where the game was lost; ``unread``: the score markers its scores
        were not read from, announced unsure), and its stream events; None where no legal game
        shows the view (:attr:`unexplained_notice` says why)."""
        record = self.game.record
        position, unsure = None, []
        # The view as read; where no legal game shows it, with the spaces that look as they did
        # bare taken as empty (a print read as a tile). Not first: a tile laid on a space printed
        # in its colour may look much as the space did bare, where its reading is right.
        for shown in (zones, as_taken_up(zones, view.covered)) if view.covered else (zones,):
            seen = observation_seen(shown, self.game.state.spec, record.player_count, self.display_count)
            unsure = unsure_zones(shown, JOIN_SURE)
            if not tiles_in_view(seen)["first_player"]:
                # In the taking, the first-player marker lies in the centre or with the player
                # who took it from there: seen with no player, it is in the centre's pile.
                seen["center"]["first_player"] = 1
                unsure = sorted({*unsure, Zone.centre()})
            try:
                position = position_from(seen, record.options, round, scores, to_move=0)
                break
            except ObservationError as exc:
                if shown is zones:  # why the view as read cannot be: what an alert says
                    self.unexplained_notice = ("follow.cannot_take_up", {"reason": plain(exc)})
        if position is None:
            return None
        unsure = sorted({*unsure, *unread})
        after = len(record.events)
        self.joining = None
        self.game.apply({"position": position.to_json(), **({"resynchronised": True} if resynchronised else {})})
        self._afresh()
        # The spaces' references are the view as read (a print read as a tile stays what it read as).
        self.reference = zones
        self._settle(zones, expected(self.game.state), unsure)
        self._fitted(view.time)
        out: list[dict[str, Any]] = [{"kind": "position", **record.events[-1]}]
        if resynchronised:
            out[0].update(code="follow.resynchronised", params={"after": after, "round": round})
        if unsure:
            self.last_unsure = unsure
            out.append({"kind": "uncertain", "zones": unsure})
        return out

    def _explanations(self, zones: dict[str, ZoneRead], most: int | None = None, changes: Changes | None = None
                      ) -> list[Explanation]:
        """Every explanation of the view from the committed state or from each pending
        hypothesis, best first. Before the first move, from the game begun by each player."""
        start = self._first_mover()
        if self.pending:
            roots = self.pending
        elif self._moves_recorded():
            roots = [Explanation([], self.game.state, 0.0, [], 0.0, start)]
        else:
            roots = [Explanation([], self._replayed(s).state, 0.0, [], 0.0, s)
                     for s in range(self.game.record.player_count)]
        committed = expected(self.game.state)
        out = []
        for root in roots:
            for e in explain(root.state, zones, self.display_count, self.reference, committed, most, changes=changes):
                out.append(Explanation(root.events + e.events, e.state, e.cost, e.mismatches, root.prior, root.start))
        out.sort(key=lambda e: (e.total, len(e.events)))
        return out

    def _revision(self, zones: dict[str, ZoneRead], most: int, view: View, best: Explanation | None
                  ) -> tuple[int, list[Explanation]] | None:
        """Where no explanation fits from the committed state: how many of the last committed
        events to take back and the one explanation from before them that fits the view clearly
        better than any other, or None. Up to :data:`MOST_REVISED` moves (a move committed on a
        misreading); else the round's deal and the moves since, up to :data:`MOST_DEAL_REVISED`
        events (a deal misread: where its tiles went says what lay on the displays). Judged on
        every zone: the reference view was explained by what is now in doubt."""
        events = self.game.record.events
        for back in range(1, min(MOST_REVISED, len(events)) + 1):
            if any("move" not in e for e in events[-back:]):
                break  # a deal or refill: revised below, from where its tiles went
            found = self._revised_from(back, zones, most + back, view)
            if found is not None:
                return found
        return self._deal_revision(zones, view, None, best, lost=True)

    def _deal_revision(self, zones: dict[str, ZoneRead], view: View, start: int | None = None,
                       best: Explanation | None = None, swaps_only: bool = False, lost: bool = False,
                       within: float = FITS) -> tuple[int, list[Explanation]] | None:
        """The round's deal and the moves since taken back, and the view explained with the deal
        read again, where one explanation fits clearly best; else None. Read again two ways: with
        a display as another view read it, or with one tile swapped for what the view's best
        explanation (``best``) lacks (:meth:`_deal_substitutions`), and (up to
        :data:`MOST_DEAL_REVISED` events, unless ``swaps_only``) from where its tiles went.
        ``start``: who moved first (by default, as committed). ``within``: the most a revision may
        cost and still be of use (a reading that cannot come within :data:`MARGIN` of it is not
        searched: it could neither win nor stand beside the one that does)."""
        events = self.game.record.events
        deal = self._round_deal()
        if deal < 0:
            return None
        back = len(events) - deal
        # From where its tiles went, only a deal: what lay before a position taken up is unknown.
        found = [r for r in (self._deal_substitutions(zones, view, deal, start, best, lost, within),
                             self._revised_from(back, zones, back + MOST_EVENTS[self.game.state.spec.board], view, start)
                             if back <= MOST_DEAL_REVISED and not swaps_only and "deal" in events[deal] else None)
                 if r is not None]
        return min(found, key=lambda r: r[1][0].cost, default=None)

    def _round_deal(self) -> int:
        """The record's index of what last put this round's tiles on the displays as read: its
        deal, or the position the game was taken up from since (-1: none, or a refill since)."""
        events = self.game.record.events
        deal = max((k for k, e in enumerate(events) if "move" not in e), default=-1)
        return deal if deal >= 0 and ("deal" in events[deal] or "position" in events[deal]) else -1

    def _remember_displays(self, zones: dict[str, ZoneRead]) -> None:
        """Each display still as dealt, read with its full count of tiles: one more reading of it."""
        deal = self._round_deal()
        if deal != self.deal_reads[0]:
            self.deal_reads = (deal, {})
        if deal < 0:
            return
        exp = expected(self.game.state)
        for zone, read in zones.items():
            if zone.kind == DISPLAY and exp.get(zone) and len(read.content) == len(exp[zone]):
                self.deal_reads[1].setdefault(zone, Counter())[read.content] += 1

    def _played_from(self, deal: int, event: dict[str, Any], start: int) -> tuple[Game, dict[int, dict[str, Any]]]:
        """The game with the record's event ``deal`` (a deal or position) as ``event`` and the
        moves since replayed on it (the game begun by ``start``), and what it put in each zone at
        the counts of events the views of :attr:`seen_since_deal` were committed at. Raises
        EngineError or ValueError where the bag could not have dealt it or a move no longer fits."""
        events = self.game.record.events
        counts = {at for at, _ in self.seen_since_deal}
        game = self._replayed(start)
        for _ in range(len(events) - deal):
            game.pop()
        if "position" in event:  # who moves first, as the game replayed has it
            event = {**event, "position": {**event["position"], "to_move": start, "start_player": start}}
        along = {}
        for e in [event, *events[deal + 1:]]:
            game.apply(e)
            if len(game.record.events) in counts:
                along[len(game.record.events)] = expected(game.state)
        return game, along

    def _reweighed_deal(self) -> list[dict[str, Any]]:
        """The round's deal is a hypothesis over its doubtful colours (:func:`doubtful_deals`)
        until its takes settle it: after each view committed, each reading of it is weighed by
        what the views since (:meth:`_contradicted`: where the moves put its tiles) hold for or
        against it beside the committed one, with the reading's own odds against it. The
        record holds the likeliest: one likelier by :data:`explain.CLOSE_FIT` (odds of 3 to 1, so
        that evidence about even does not swing it to and fro) replaces it, its moves replayed on
        it: the events taken back and committed again (stream events marked ``revised``). Readings
        the deal's own view holds :data:`MARGIN` against are not tried."""
        deal = self._round_deal()
        events = self.game.record.events
        if deal < 0 or "deal" not in events[deal] or self.deal_doubt[0] != deal or len(events) <= deal + 1:
            return []
        factories, centre = tiles_dealt(events[deal])
        kinds = tile_kinds(self.game.state.spec, self.game.record.options)
        readings = [(reading, against) for reading, against in sorted(
            doubtful_deals(factories, self.deal_doubt[1], sources_taken(events[deal + 1:]), kinds),
            key=lambda d: d[1])[:MOST_DOUBTFUL_DEALS] if against < MARGIN]
        if not readings:
            return []  # most views: no doubtful tile on a display taken from, nothing to replay
        start = self._first_mover()
        committed = self._played_from(deal, events[deal], start)[1]
        best: tuple[float, Game] | None = None
        for reading, against in readings:
            event = read_again(events[deal], reading, centre)
            if event is None:
                continue
            try:
                game, along = self._played_from(deal, event, start)
            except (EngineError, ValueError):
                continue
            score = self._contradicted(along, committed) + against
            if score <= -CLOSE_FIT and (best is None or score < best[0]):
                best = (score, game)
        if best is None:
            return []
        replayed = best[1].record.events[deal:]
        seen, reference = self.seen_since_deal, self.reference
        out = [{**self._take_back(), "revised": True} for _ in range(len(events) - deal)]
        out += self._commit(replayed, start)
        # The same moves, the same views: what they showed is evidence still, and this view,
        # explained by the reading now committed, is the one the next is judged against.
        self.seen_since_deal, self.reference = seen, reference
        return out

    def _deal_substitutions(self, zones: dict[str, ZoneRead], view: View, deal: int, start: int | None,
                            best: Explanation | None, lost: bool = False, within: float = FITS
                            ) -> tuple[int, list[Explanation]] | None:
        """The deal read again, the moves since replayed on it, and the view explained from there,
        where that fits clearly best; else None. Read again with one display as a view since read
        it otherwise, or with one of its tiles of a colour that ``best`` puts in the centre or a
        hand and the view does not show there swapped for one the view shows there instead (a tile
        misread at the deal, seen right once its display's leftovers lie elsewhere), or swapped for
        a kind this table's tiles read as its kind turned out to be (:func:`mixed_deals`)."""
        if best is not None and len(best.mismatches) > MOST_OFF_READ_AGAIN:
            return None
        reads = self.deal_reads[1] if self.deal_reads[0] == deal else {}
        events = self.game.record.events
        dealt = events[deal]
        factories_read, centre_read = tiles_dealt(dealt)
        # Who moved first: as given, as committed, or (no move recorded yet) as the view's best
        # explanation has it, and where the game is lost each player.
        starts = [start] if start is not None else [self._first_mover()] if self._moves_recorded() \
            else list(range(self.game.record.player_count)) if lost or best is None else [best.start]
        candidates: dict[tuple, tuple[list[list[str]], dict[str, int]]] = {}

        def key(factories: list[list[str]], centre: dict[str, int]) -> tuple:
            return tuple(map(tuple, map(sorted, factories))), tuple(sorted((c, n) for c, n in centre.items() if n))

        doubt = self.deal_doubt[1] if self.deal_doubt[0] == deal else {}
        kinds = tile_kinds(self.game.state.spec, self.game.record.options)
        prior: dict[tuple, float] = {}

        def consider(factories: list[list[str]], centre: dict[str, int] = centre_read, against: float = 0.0) -> None:
            """A reading of the deal, with what the readings of its displays hold against it."""
            if key(factories, centre) not in candidates:
                candidates[key(factories, centre)] = (factories, centre)
                prior[key(factories, centre)] = against

        for zone, seen in reads.items():
            i = zone.index
            for content in seen:
                factories = [list(f) for f in factories_read]
                factories[i] = list(content)
                # A display as another view read it, against as many views read it as dealt.
                consider(factories, against=max(math.log(seen.get(tuple(sorted(factories_read[i])), 1) / seen[content]), 0.0))
        for factories in [*swapped_deals(factories_read, best, zones), *mixed_deals(factories_read, self.mixups)]:
            consider(factories)
        # The deal's doubtful readings, the likeliest first (each is a search): where the game as
        # committed is lost, any; else those that put a colour the view lacks where it shows another.
        taken = sources_taken([*events[deal + 1:], *(best.events if best else [])])
        # And the displays the view shows changed since the game settled them: a take the best
        # explanation could not make of a deal misread (its leftovers are not what it dealt).
        changes = self._changes(view)
        taken |= {z.index for z in (changes.displays if changes else ()) if changes.log_odds[z][0] > 0}  # type: ignore[union-attr]
        towards = None if lost or best is None else lacking_and_shown(best, zones)
        doubtful = doubtful_deals(factories_read, doubt, taken, kinds, towards)
        for factories, against in sorted(doubtful, key=lambda d: d[1])[:MOST_DOUBTFUL_DEALS]:
            consider(factories, against=against)
        if "position" in dealt:
            for centre in centres_read_again(centre_read, best, zones):
                consider(factories_read, centre)
        candidates.pop(key(factories_read, centre_read), None)  # as committed
        committed = self._played_from(deal, dealt, self._first_mover())[1]
        # As many events as the view's best explanation needed: a deal read again changes what
        # the moves since took, not how many there were (a search as deep as any, for each of
        # the readings tried, takes seconds where none fits). Where the game is lost, the best
        # explanation is no guide: as many as any view may show.
        depth = MOST_EVENTS[self.game.state.spec.board] if best is None or lost else max(1, charged(best.events))
        tried = []
        readings = []
        for (known, (factories, centre)), start in itertools.product(candidates.items(), starts):
            event = read_again(dealt, factories, centre)
            if event is None:
                continue  # more tiles of a colour than the game has
            try:
                game, along = self._played_from(deal, event, start)
            except (EngineError, ValueError):
                continue  # the bag could not have dealt it, or a move since no longer fits it
            # What the views since and the deal's own reading hold against it, or for it (the
            # views since weigh each reading against what was committed, as a beam weighs its
            # hypotheses): the least it can cost.
            readings.append((self._contradicted(along, committed) + prior.get(known, 0.0), game, start))
        readings.sort(key=lambda r: r[0])
        for n, (least, game, start) in enumerate(readings):
            # Each is a search: none that cannot fit, or cannot come near the best found, and
            # only the likeliest few (the camera must keep up).
            if n >= MOST_READ_AGAIN or least > min(within + MARGIN, FITS) or (tried and least > min(e.cost for e in tried) + MARGIN):
                break
            replayed = game.record.events[deal:]
            # Judged as any view is, against the last view explained: the centre and hands as read
            # there changed as the moves since change them (a deal read again changes neither).
            for e in explain(game.state, zones, self.display_count, self.reference, expected(game.state), depth,
                             beam=REVISION_SEARCH_BEAM, changes=changes)[:1]:
                tried.append(Explanation(replayed + e.events, e.state, e.cost + least, e.mismatches, 0.0, start))
        tried = unique_states(sorted(tried, key=lambda e: e.cost))
        # Where nothing fits the game as committed (``lost``), the likeliest reading that fits is
        # taken, a hypothesis the next takes settle: it is read again from the deal at the next
        # view that contradicts it. Else only one clearly better than what was committed.
        if not tried or tried[0].cost > FITS or (not lost and len(tried) > 1 and tried[1].cost - tried[0].cost
                                                 < revision_margin(tried[0], best, zones)):
            return None
        return len(events) - deal, tried[:1]

    def _revised_from(self, back: int, zones: dict[str, ZoneRead], most: int, view: View, start: int | None = None
                      ) -> tuple[int, list[Explanation]] | None:
        """The last ``back`` events taken back and the view explained from before them (the game
        begun by ``start``, by default as committed), where one explanation fits clearly best: how
        many to take back and it, or none and the events after them where it reaches the same
        table with what was committed."""
        events = self.game.record.events
        start = self._first_mover() if start is None else start
        game = self._replayed(start)
        for _ in range(back):
            game.pop()
        fits = [e for e in explain(game.state, zones, self.display_count, None, None, most,
                                   REVISION_BEAM, self._changes(view, len(events) - back)) if e.cost <= FITS]
        ranked = unique_states(fits[:4 * BEAM])
        if not ranked:
            return None
        rival = next((e for e in ranked[1:] if e.events != ranked[0].events), None)
        if rival is not None and rival.cost - ranked[0].cost < MARGIN:
            return None
        best = ranked[0]
        kept = next((e for e in fits if e.events[:back] == events[-back:] and e.state.key() == best.state.key()), None)
        if kept is not None:
            # The table reached with what was committed first (judged against the references of
            # before it, a space's look since then misled the view): nothing is taken back.
            return 0, [Explanation(kept.events[back:], kept.state, kept.cost, kept.mismatches, 0.0, start)]
        return back, [Explanation(best.events, best.state, best.cost, best.mismatches, 0.0, start)]

    def _commit(self, events: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
        """Play ``events`` into the game begun by ``start`` and record them; their stream events."""
        if not events:
            return []
        if start != self._first_mover() and not any("position" in e for e in events):
            # A position among them says who moves first there itself (a revision read it again).
            self.game = self._replayed(start)
        before = expected(self.game.state)
        out = []
        for event in events:
            self.game.apply(event)
            kind = "move" if "move" in event else "position" if "position" in event else "chance"
            out.append({"kind": kind, **event})
        after = expected(self.game.state)
        for zone in [z for z in self.overruled if before.get(z, empty_content(z)) != after.get(z, empty_content(z))]:
            del self.overruled[zone]  # the game moved on there: the camera is trusted again
        return out

    # -- corrections: a person's word over the camera's ---------------------------------------

    def undo(self) -> dict[str, Any]:
        """Take the last recorded event back; the view is judged afresh. Raises :class:`Refused`
        when there is none."""
        events = self.game.record.events
        if not events:
            raise Refused("follow.nothing_to_undo")
        if "position" in events[-1]:
            raise Refused("follow.taken_up_here")
        undone = self._take_back()
        self.held = undone["event"]
        return undone

    def _take_back(self) -> dict[str, Any]:
        """The last recorded event taken back (a position taken up too: a revision reads it
        again), and its stream event."""
        events = self.game.record.events
        last = events[-1]
        self.game.pop()
        self._forget_after(len(events))
        self._afresh()
        return {"kind": "undo", "event": last}

    def replace(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """Take the last event back and record ``event`` in its place (a record event: a move
        with its player, or a chance event). Raises :class:`Refused` (``follow.illegal``: the
        engine's error its reason) where the engine refuses it, the game left as it was."""
        undone = self.undo()
        self.held = None  # a person's own event stands in its place
        try:
            self._apply_checked(event)
        except ValueError:
            self._apply_checked(undone["event"])
            raise
        return [undone, {"kind": "move", **event} if "move" in event else {"kind": "chance", **event}]

    def overrule(self, zone: str, content: Any) -> None:
        """What lies in ``zone`` (a kind or None for a slot, a list of tiles for a display, the
        centre or a hand) as a person says, over what the camera reads, until the game changes
        that zone. Raises :class:`~azulcam.engine.zones.ZoneError` for a name that is no zone's."""
        zone = Zone.parse(zone)
        self.overruled[zone] = (ZoneRead(tuple(sorted(content)), NOTHING_SEEN, (1.0,) * len(content))
                                if isinstance(content, list) else ZoneRead(content, 1.0 - 1e-6))
        if zone in self.baseline:  # a person's word on what a space holds now: read again from here
            del self.baseline[zone], self.settled_at[zone]
            self.looked.pop(zone, None)
            self.forgotten.add(zone)
        self._afresh()

    def _apply_checked(self, event: dict[str, Any]) -> None:
        if not isinstance(event, dict) or not ("move" in event or "deal" in event or "refill" in event):
            raise Refused("follow.not_an_event", event=json.dumps(event, default=repr)[:120])
        try:
            self.game.apply(event)
        except EngineError as exc:
            raise Refused("follow.illegal", reason=exc) from None
        self._afresh()

    def _afresh(self) -> None:
        """After a correction: no hypothesis, reference or alert stands; the next view is judged anew."""
        self.pending, self.reference, self.last_unsure, self.between = [], None, [], []
        self.unexplained_since, self.alerted = None, False

    def _taken_up_at(self) -> int:
        """The index of the last position the game was taken up from (-1: none)."""
        return max((k for k, e in enumerate(self.game.record.events) if "position" in e), default=-1)

    def _moves_recorded(self) -> bool:
        """Whether a move shows who moved first (since the game began, or was last taken up)."""
        return any("move" in e for e in self.game.record.events[self._taken_up_at() + 1:])

    def _first_mover(self) -> int:
        """Who moves first: at the game's start, or in the position it was last taken up from."""
        at = self._taken_up_at()
        return self.game.record.start_player if at < 0 else self.game.record.events[at]["position"]["to_move"]

    def _replayed(self, start: int) -> Game:
        """The game with ``start`` moving first: from its beginning, or from the position it was
        last taken up from (the record's start player then stays, unless the game begins there)."""
        record = self.game.record
        at = self._taken_up_at()
        game = Game.new(record.game, record.players, record.options, start if at <= 0 else record.start_player)
        for k, event in enumerate(record.events):
            if k == at:
                event = {**event, "position": {**event["position"], "to_move": start, "start_player": start}}
            game.apply(event)
        return game

    def _unexplained(self, view: View, zones: list[str], notice: tuple[str, dict[str, Any]],
                     seen: dict[str, ZoneRead] | None = None) -> list[dict[str, Any]]:
        """A view nothing explains: its alert once it lasts (:meth:`tick`); a game under way lost
        for :data:`RESYNC_AFTER` seconds and :data:`RESYNC_VIEWS` views is taken up again from
        the view (``seen``, its zones), with the round and scores it had."""
        self.misses += 1
        if self.unexplained_since is None:
            self.unexplained_since, self.unexplained_frame = view.time, view.frame
        self.unexplained_zones, self.unexplained_notice = zones, notice
        out = self.tick(view.time)
        if (seen is not None and self.joining is None and self.game.record.events and self.misses >= RESYNC_VIEWS
                and view.time - self.unexplained_since >= RESYNC_AFTER):
            state = self.game.state
            scores, unread = marked_scores(state, view.markers)
            taken = self._taken_up(view, seen, max(int(state.round), 1), scores, resynchronised=True, unread=unread)
            if taken is not None:
                return out + taken
            self.unexplained_notice = notice  # the alert still says what went wrong first
        return out

    def lost(self) -> dict[str, Any] | None:
        """Where the game was lost, if the table is unexplained now and was for long enough to
        be told (an alert): ``{"after": EVENTS, "frame": F, "code": ..., "params": ...}``; else None."""
        if self.unexplained_since is None or not self.alerted:
            return None
        code, params = self.unexplained_notice
        return {"after": len(self.game.record.events), "frame": self.unexplained_frame, "code": code, "params": params}

    def tick(self, time: float) -> list[dict[str, Any]]:
        """Time passing over an unexplained view: its alert, once it has lasted :data:`ALERT_AFTER`."""
        if self.unexplained_since is None or self.alerted or time - self.unexplained_since < ALERT_AFTER:
            return []
        self.alerted = True
        code, params = self.unexplained_notice
        return [{"kind": "alert", "zones": self.unexplained_zones, "code": code, "params": params}]


def states_along(state: Any, events: list[dict[str, Any]]) -> list[Any]:
    """The states ``events`` pass through from ``state`` (a copy of it first, then after each)."""
    out = [state.copy()]
    for event in events:
        after = out[-1].copy()
        if "move" in event:
            after.play(event["move"])
        else:
            after.apply_chance(event)
        out.append(after)
    return out


def revision_margin(revised: Explanation, committed: Explanation | None, zones: dict[str, ZoneRead]) -> float:
    """How much better a revised deal must fit than what was committed (and than any other
    revision): :data:`MARGIN`, or only :data:`explain.CLOSE_FIT` where the revision leaves no zone
    off and the committed explanation had two or more tiles off (``zones``: the view): one
    reading of the deal that accounts for all of them (a take's tiles in a hand and its leftovers
    in the centre) is evidence enough, where a tile read at 0.95 weighs less than the margin."""
    return CLOSE_FIT if not revised.mismatches and least_revision_margin(committed, zones) < MARGIN else MARGIN


def beats(revision: tuple[int, list[Explanation]] | None, committed: Explanation, zones: dict[str, ZoneRead]) -> bool:
    """Whether a deal read again (:meth:`Tracker._deal_revision`) fits the view clearly better
    than ``committed``: by :func:`revision_margin`."""
    return revision is not None and revision[1][0].cost + revision_margin(revision[1][0], committed, zones) <= committed.cost


def alike_best(explanations: list[Explanation]) -> list[Explanation]:
    """Those of ``explanations`` within :data:`MARGIN` of the best, best first (the fewer events
    first among equals): what the view cannot tell apart."""
    best = min(e.total for e in explanations)
    return sorted((e for e in explanations if e.total - best < MARGIN), key=lambda e: (e.total, len(e.events)))


def least_revision_margin(committed: Explanation | None, zones: dict[str, ZoneRead]) -> float:
    """The least :func:`revision_margin` any revision of ``committed`` may need: an explanation
    that fits better than that by no more needs no deal read again (each reading tried is a search)."""
    if committed is not None and committed.mismatches:
        lacking, shown = lacking_and_shown(committed, zones)
        if len(committed.mismatches) >= 2 or max(sum(lacking.values()), sum(shown.values())) >= 2:
            return CLOSE_FIT
    return MARGIN


def tiles_dealt(event: dict[str, Any]) -> tuple[list[list[str]], dict[str, int]]:
    """What a deal, or a position taken up, put on the displays and in the centre as read."""
    if "deal" in event:
        return event["deal"]["factories"], {}
    return event["position"]["factories"], event["position"]["center"]


def read_again(event: dict[str, Any], factories: list[list[str]], centre: dict[str, int]) -> dict[str, Any] | None:
    """The deal or position ``event`` with its displays read as ``factories`` (and, a position,
    its centre as ``centre``); a position's bag gives or takes the tiles read otherwise (None where
    it has too few of a colour)."""
    if "deal" in event:
        return {**event, "deal": {**event["deal"], "factories": factories}}
    position = event["position"]
    bag = Counter(position["bag"])
    bag.update(Counter(t for f in position["factories"] for t in f) + Counter(position["center"]))
    bag.subtract(Counter(t for f in factories for t in f) + Counter(centre))
    if min(bag.values(), default=0) < 0:
        return None
    return {**event, "position": {**position, "factories": [sorted(f) for f in factories],
                                  "center": {c: n for c, n in sorted(centre.items()) if n},
                                  "bag": {c: n for c, n in bag.items() if n}}}


def lacking_and_shown(best: Explanation, zones: dict[str, ZoneRead]) -> tuple[Counter, Counter]:
    """The tiles that ``best`` (an explanation) puts in the centre, a hand or a board space and
    the view does not show there, and those the view shows there instead."""
    exp = expected(best.state)
    lacking, shown = Counter(), Counter()
    for zone in best.mismatches:
        want, read = exp.get(zone, empty_content(zone)), zones[zone].content
        if isinstance(read, tuple):  # the centre or a hand
            lacking += Counter(want) - Counter(read)
            shown += Counter(read) - Counter(want)
        else:  # a board space: an Azul pattern line's, say
            lacking += Counter([want] if want else [])
            shown += Counter([read] if read else [])
    for marker in (lacking, shown):
        marker.pop("first_player", None)
    return lacking, shown


def centres_read_again(centre: dict[str, int], best: Explanation | None, zones: dict[str, ZoneRead]
                       ) -> list[dict[str, int]]:
    """A centre taken up (a pile: a tile hides under another) with one tile more of a colour the
    view shows where ``best`` has none, one less of a colour it lacks, or one swapped for the other."""
    if best is None:
        return []
    lacking, shown = lacking_and_shown(best, zones)
    out = []
    for now in shown:
        out.append({**centre, now: centre.get(now, 0) + 1})
    for was in lacking:
        if centre.get(was):
            out.append({**centre, was: centre[was] - 1})
            out.extend({**centre, was: centre[was] - 1, now: centre.get(now, 0) + 1} for now in shown if now != was)
    return out


def swapped_deals(factories: list[list[str]], best: Explanation | None, zones: dict[str, ZoneRead]) -> list[list[list[str]]]:
    """The deals ``factories`` with a tile of one display swapped (up to :data:`MOST_SWAPPED` of a
    display ``best`` takes from, or all of a display's tiles of one colour): of colours that ``best`` (an explanation) puts in the centre, a
    hand or a board space and the view does not show there, for colours the view shows there
    instead (a take's tiles all misread at the deal are seen right in the hand or on the pattern
    line, its leftovers in the centre)."""
    if best is None:
        return []
    lacking, shown = lacking_and_shown(best, zones)
    # Two tiles at once only of a display that ``best`` takes from (the take's tiles misread
    # alike): of every display, the readings tried would take seconds to weigh.
    taken = sources_taken(best.events)
    out = []
    for i, tiles in enumerate(factories):
        misread = sorted((Counter(tiles) & lacking).elements())
        for k in range(1, min(MOST_SWAPPED if i in taken else 1, len(misread)) + 1):
            for was in set(combinations(misread, k)):
                for now in set(combinations(sorted(shown.elements()), k)):
                    swapped = [list(f) for f in factories]
                    swapped[i] = sorted((Counter(tiles) - Counter(was) + Counter(now)).elements())
                    out.append(swapped)
        # Every tile of one colour read as another (three whites read yellow: one light, one
        # printing, one mistake): one reading a pair of colours, not a search.
        for was in set(misread):
            for now in shown:
                if now != was and tiles.count(was) > MOST_SWAPPED:
                    out.append([list(f) for f in factories])
                    out[-1][i] = sorted(now if t == was else t for t in tiles)
    return out


#: A deal's tiles read below the reader's own line of doubt (``analyze.UNSURE``) are read again
#: of another colour (:func:`doubtful_deals`): up to this many of one display at once, or more
#: of it read alike (one printing's colour read as another, on every tile of it).
MOST_DOUBTED = 2
#: The most such readings put forward at one view, the likeliest first.
MOST_DOUBTFUL_DEALS = 12
#: The most readings of a deal searched at one view (those the views since and the reading hold
#: least against), and how many explanations each search keeps from one length to the next.
MOST_READ_AGAIN, REVISION_SEARCH_BEAM = 8, 4


def sources_taken(events: list[dict[str, Any]]) -> set[Any]:
    """The displays (and the centre) the moves among ``events`` took from."""
    return {e["move"].get("source") for e in events if "move" in e}


def odds_against(kind: str, sure: float, likely: tuple[tuple[str, float], ...], now: str, kinds: int) -> float:
    """What a tile's reading (``kind`` at ``sure``; ``likely``: how likely each colour was, where
    known) holds against its being ``now``: the log-odds of the two (the reading's doubt spread
    evenly over the other of ``kinds`` kinds where ``likely`` does not say); never below 0."""
    odds = dict(likely)
    if kind in odds and now in odds:
        return max(math.log(max(odds[kind], 1e-6) / max(odds[now], 1e-6)), 0.0)
    return max(math.log(max(sure, 1e-6) * max(kinds - 1, 1) / max(1.0 - sure, 1e-6)), 0.0)


def doubtful_deals(factories: list[list[str]], doubt: dict[str, tuple[tuple[str, float, tuple[tuple[str, float], ...]], ...]],
                   taken: set[Any], kinds: list[str], towards: tuple[Counter, Counter] | None = None
                   ) -> list[tuple[list[list[str]], float]]:
    """The deal ``factories`` read again where its reading was in doubt (``doubt``: each
    display's tiles, their sureness and how likely each colour was, :attr:`ZoneRead.likely`, at
    the view that committed it), on the displays taken from since (``taken``: no view can tell
    the others yet): its tiles read below ``analyze.UNSURE``, up to :data:`MOST_DOUBTED` of them
    or any number read alike, as another of ``kinds``. Each with what the reading holds
    against it: for each tile changed, the log-odds of the kind read against the other (as likely
    as the reading found it, or its doubt spread evenly over the other kinds). ``towards`` (the
    tiles a view lacks and those it shows instead, :func:`lacking_and_shown`): only tiles of a
    kind it lacks, read again as a kind it shows."""
    out = []
    lacking, shown = towards if towards is not None else (None, None)

    for i, tiles in enumerate(factories):
        read = doubt.get(Zone.display(i), ())
        if i not in taken or sorted(t for t, *_ in read) != sorted(tiles):
            continue
        doubtful = [(k, kind, sure, likely) for k, (kind, sure, likely) in enumerate(read)
                    if sure < UNSURE and (lacking is None or lacking[kind] > 0)]
        for n in range(1, len(doubtful) + 1):
            for chosen in combinations(doubtful, n):
                if n > MOST_DOUBTED and len({kind for _, kind, _, _ in chosen}) > 1:
                    continue
                for now in kinds:
                    if shown is not None and not shown[now]:
                        continue
                    if any(kind == now for _, kind, _, _ in chosen):
                        continue
                    swapped = [list(f) for f in factories]
                    changed = [t for t, *_ in read]
                    for k, *_ in chosen:
                        changed[k] = now
                    swapped[i] = sorted(changed)
                    out.append((swapped, sum(odds_against(kind, sure, likely, now, len(kinds)) for _, kind, sure, likely in chosen)))
    return out


def mixed_deals(factories: list[list[str]], mixups: Mixups) -> list[list[list[str]]]:
    """The deals ``factories`` with one tile swapped for a kind that this table's tiles read as
    its kind have turned out to be (:class:`~.mixups.Mixups`)."""
    out = []
    for i, tiles in enumerate(factories):
        for read in set(tiles):
            for was in mixups.named.get(read, ()):
                if was != read:
                    swapped = [list(f) for f in factories]
                    swapped[i][tiles.index(read)] = was
                    out.append(swapped)
    return out


def _told(best: Explanation, zones: dict[str, ZoneRead]) -> list[dict[str, Any]]:
    """Where the likeliest explanation and the view disagree: each zone, what was read there and
    what was expected (a kind or None for a slot, a list of tiles for a zone of loose tiles)."""
    want = expected(best.state)

    def plain(content: Any) -> Any:
        return list(content) if isinstance(content, tuple) else content

    return [{"zone": z, "read": plain(zones[z].content), "expected": plain(want.get(z, empty_content(z)))}
            for z in best.mismatches]
