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

import math
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import EngineError, ObservationError
from ..engine.join import position_from
from ..engine.record import Game
from .explain import (BEAM, MOST_EVENTS, MOST_WEIGHT, NOTHING_SEEN, Explanation, View, ZoneRead, common_prefix,
                      empty_content, expected, explain, observation_seen, points_apart, unique_states, unsure_zones)

#: After a gap between still views (a camera that dropped out), more events in a row are sought:
#: no table plays more than this many a second (a hand reaches, carries and leaves), up to
#: :data:`MOST_EVENTS_AFTER_A_GAP`, for the first :data:`LONG_SEARCHES` views after it. As many
#: unexplained views in a row try revising committed events (:data:`MOST_REVISED`); after them
#: only the short search runs, so that a table left unexplained does not fall behind the camera.
EVENTS_PER_SECOND = 1.0
MOST_EVENTS_AFTER_A_GAP = 8
LONG_SEARCHES = 2

#: Committed events a view that nothing explains may revise: the tracker looks again from before
#: the last one, two or three of them (a move committed on a misread that later views contradict),
#: keeping this many explanations from one length to the next (a gap's long search keeps more).
MOST_REVISED = 3
REVISION_BEAM = 32

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
    zones = {z: r for z, r in view.zones.items() if not z.startswith("factories.")}
    for i, j in matched.items():
        read = view.zones.get(f"factories.{j}")
        if read is not None:
            zones[f"factories.{i}"] = read
    return zones


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
    unexplained_told: list[str] = field(default_factory=list)
    alerted: bool = False
    last_unsure: list[str] = field(default_factory=list)
    #: When the last view that fitted was seen (None: none yet), and views unexplained since.
    last_fitted: float | None = None
    misses: int = 0
    #: Zones a person said what lies in (:meth:`overrule`), until the game changes them.
    overruled: dict[str, ZoneRead] = field(default_factory=dict)
    #: The round and scores of a game to take up from the next view (:meth:`join`); None: follow.
    joining: tuple[int, list[int]] | None = None
    #: What an alert says is wrong with the view.
    unexplained_why: str = "illegal or unexplained change"

    @property
    def display_count(self) -> int:
        return len(self.game.state.to_json()["factories"])

    def see(self, view: View) -> list[dict[str, Any]]:
        if not self.displays.places:
            seen = [c for c in view.displays if not math.isnan(c[0])]
            if len(seen) != self.display_count:
                return self._unexplained(view, [], [f"{len(seen)} of the {self.display_count} displays seen"])
            self.displays = Displays.numbered(seen, self.first_near)
        matched = self.displays.match(view.displays)
        zones = {**in_engine_numbers(view, matched), **self.overruled}
        if self.joining is not None:
            return self._take_up(view, zones)
        # After a gap, the long search gets the first views that follow it; a table that stays
        # unexplained after those is not searched ever deeper (the camera must keep up).
        gap = view.time - self.last_fitted if self.last_fitted is not None and self.misses < LONG_SEARCHES else 0.0
        most = min(max(MOST_EVENTS, math.ceil(gap * EVENTS_PER_SECOND)), MOST_EVENTS_AFTER_A_GAP)
        ranked = self._explanations(zones, most)
        fitting = [e for e in ranked if e.cost <= FITS]
        revised: list[dict[str, Any]] = []
        if not fitting:
            # Revising is for a commit that a misreading misled; after a gap, the long search
            # from the committed state is what finds the events the camera missed.
            revision = self._revision(zones, most) if self.misses < LONG_SEARCHES and most <= MOST_EVENTS else None
            if revision is None:
                best = ranked[0] if ranked else None
                return self._unexplained(view, best.mismatches if best else [], _told(best, zones) if best else [])
            undone, fitting = revision
            for _ in range(undone):
                revised.append({**self.undo(), "revised": True})
        self._fitted(view.time)
        self.displays.follow(view.displays, matched)
        best = min(e.total for e in fitting)
        alike = sorted((e for e in fitting if e.total - best < MARGIN), key=lambda e: (e.total, len(e.events)))
        alike = unique_states(alike[:4 * BEAM])[:BEAM]
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
        if len(alike) == 1:
            self.pending, self.last_unsure = [], []
            self.reference = zones
            return out + unsure_points
        self.pending = [Explanation(e.events[len(shared):], e.state, 0.0, e.mismatches, e.total - best, e.start)
                        for e in alike]
        exp = [expected(e.state) for e in alike]
        differ = sorted({z for a in exp for b in exp for z in a.keys() | b.keys() if a.get(z, empty_content(z)) != b.get(z, empty_content(z))})
        if differ != self.last_unsure:
            self.last_unsure = differ
            out.append({"kind": "uncertain", "zones": differ})
        return out

    def _fitted(self, time: float) -> None:
        self.unexplained_since, self.alerted, self.last_fitted, self.misses = None, False, time, 0
        self.unexplained_why = "illegal or unexplained change"

    def join(self, round: int, scores: list[int]) -> None:
        """Take the game up from the next view (a game joined mid-way, or one the camera lost),
        in ``round`` with ``scores``: the position is rebuilt from what is read there, and who is
        to move is found by the first move seen. Raises ValueError for a round or scores that
        cannot be (checked again against the view)."""
        players = self.game.record.player_count
        if not (isinstance(round, int) and round >= 1):
            raise ValueError(f"a round is a number from 1, not {round!r}")
        if not (isinstance(scores, list) and len(scores) == players and all(isinstance(s, int) and s >= 0 for s in scores)):
            raise ValueError(f"one score per player ({players}) expected, not {scores!r}")
        self.joining = (round, list(scores))
        self._afresh()

    def _take_up(self, view: View, zones: dict[str, ZoneRead]) -> list[dict[str, Any]]:
        """The game rebuilt from the view, or an alert (once it lasts) naming why it cannot be."""
        record = self.game.record
        assert self.joining is not None
        seen = observation_seen(zones, record.game, record.player_count, self.display_count)
        try:
            position = position_from(seen, record.options, *self.joining, to_move=0)
        except ObservationError as exc:
            self.unexplained_why = "cannot take the game up from this view"
            return self._unexplained(view, [], [str(exc)])
        self.joining = None
        self.game.apply({"position": position.to_json()})
        self._afresh()
        self.reference = zones
        self._fitted(view.time)
        out: list[dict[str, Any]] = [{"kind": "position", **record.events[-1]}]
        unsure = unsure_zones(zones, JOIN_SURE)
        if unsure:
            self.last_unsure = unsure
            out.append({"kind": "uncertain", "zones": unsure})
        return out

    def _explanations(self, zones: dict[str, ZoneRead], most: int = MOST_EVENTS) -> list[Explanation]:
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
        committed = expected(self.game.state) if self.reference is not None else None
        out = []
        for root in roots:
            for e in explain(root.state, zones, self.display_count, self.reference, committed, most):
                out.append(Explanation(root.events + e.events, e.state, e.cost, e.mismatches, root.prior, root.start))
        out.sort(key=lambda e: (e.total, len(e.events)))
        return out

    def _revision(self, zones: dict[str, ZoneRead], most: int) -> tuple[int, list[Explanation]] | None:
        """Where no explanation fits from the committed state: how many of the last committed
        events to take back (up to :data:`MOST_REVISED`) and the one explanation from before them
        that fits the view clearly better than any other, or None. Judged on every zone: the
        reference view was explained by what is now in doubt."""
        events = self.game.record.events
        for back in range(1, min(MOST_REVISED, len(events)) + 1):
            if any("move" not in e for e in events[-back:]):
                return None  # a deal or refill seen is not revised: its displays are gone
            game = Game.new(self.game.record.game, self.game.record.players, self.game.record.options,
                            self.game.record.start_player)
            for event in events[:-back]:
                game.apply(event)
            ranked = unique_states([e for e in explain(game.state, zones, self.display_count, None, None, most + back,
                                                       REVISION_BEAM) if e.cost <= FITS][:4 * BEAM])
            if not ranked or ranked[0].events[:back] == events[-back:]:
                continue
            rival = next((e for e in ranked[1:] if e.events != ranked[0].events), None)
            if rival is None or rival.cost - ranked[0].cost >= MARGIN:
                start = self._first_mover()
                return back, [Explanation(ranked[0].events, ranked[0].state, ranked[0].cost, ranked[0].mismatches,
                                          0.0, start)]
        return None

    def _commit(self, events: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
        """Play ``events`` into the game begun by ``start`` and record them; their stream events."""
        if not events:
            return []
        if start != self._first_mover():
            self.game = self._replayed(start)
        before = expected(self.game.state)
        out = []
        for event in events:
            self.game.apply(event)
            out.append({"kind": "move", **event} if "move" in event else {"kind": "chance", **event})
        after = expected(self.game.state)
        for zone in [z for z in self.overruled if before.get(z, empty_content(z)) != after.get(z, empty_content(z))]:
            del self.overruled[zone]  # the game moved on there: the camera is trusted again
        return out

    # -- corrections: a person's word over the camera's ---------------------------------------

    def undo(self) -> dict[str, Any]:
        """Take the last recorded event back; the view is judged afresh. Raises ValueError
        when there is none."""
        events = self.game.record.events
        if not events:
            raise ValueError("nothing to undo: no event is recorded yet")
        last = events[-1]
        if "position" in last:
            raise ValueError("the game was taken up here: there is nothing before it to go back to")
        game = Game.new(self.game.record.game, self.game.record.players, self.game.record.options,
                        self.game.record.start_player)
        for event in events[:-1]:
            game.apply(event)
        self.game = game
        self._afresh()
        return {"kind": "undo", "event": last}

    def replace(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """Take the last event back and record ``event`` in its place (a record event: a move
        with its player, or a chance event). Raises ValueError naming why the engine refuses it,
        the game left as it was."""
        undone = self.undo()
        try:
            self._apply_checked(event)
        except ValueError:
            self._apply_checked(undone["event"])
            raise
        return [undone, {"kind": "move", **event} if "move" in event else {"kind": "chance", **event}]

    def overrule(self, zone: str, content: Any) -> None:
        """What lies in ``zone`` (a kind or None for a slot, a list of tiles for a display, the
        centre or a hand) as a person says, over what the camera reads, until the game changes
        that zone."""
        self.overruled[zone] = (ZoneRead(tuple(sorted(content)), NOTHING_SEEN, (1.0,) * len(content))
                                if isinstance(content, list) else ZoneRead(content, 1.0 - 1e-6))
        self._afresh()

    def _apply_checked(self, event: dict[str, Any]) -> None:
        if not isinstance(event, dict) or not ("move" in event or "deal" in event or "refill" in event):
            raise ValueError(f"not a record event (a move with its player, a deal or a refill): {event!r}")
        try:
            self.game.apply(event)
        except EngineError as exc:
            raise ValueError(str(exc)) from None
        self._afresh()

    def _afresh(self) -> None:
        """After a correction: no hypothesis, reference or alert stands; the next view is judged anew."""
        self.pending, self.reference, self.last_unsure = [], None, []
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
                event = {"position": {**event["position"], "to_move": start, "start_player": start}}
            game.apply(event)
        return game

    def _unexplained(self, view: View, zones: list[str], told: list[str]) -> list[dict[str, Any]]:
        self.misses += 1
        if self.unexplained_since is None:
            self.unexplained_since = view.time
        self.unexplained_zones, self.unexplained_told = zones, told
        return self.tick(view.time)

    def tick(self, time: float) -> list[dict[str, Any]]:
        """Time passing over an unexplained view: its alert, once it has lasted :data:`ALERT_AFTER`."""
        if self.unexplained_since is None or self.alerted or time - self.unexplained_since < ALERT_AFTER:
            return []
        self.alerted = True
        told = self.unexplained_told
        return [{"kind": "alert", "zones": self.unexplained_zones,
                 "message": f"{self.unexplained_why}: {'; '.join(told[:6])}"
                            + (f"; and {len(told) - 6} more" if len(told) > 6 else "")}]


def _told(best: Explanation, zones: dict[str, ZoneRead]) -> list[str]:
    """Where the likeliest explanation and the view disagree, in words: "ZONE: read X, expected Y"."""
    want = expected(best.state)

    def show(content: Any) -> str:
        if isinstance(content, tuple):
            return "+".join(content) if content else "nothing"
        return "empty" if content is None else str(content)

    return [f"{z}: read {show(zones[z].content)}, expected {show(want.get(z, empty_content(z)))}"
            for z in best.mismatches]
