"""From one still view of the table to the next: which legal move or chance event happened.

The tracker holds the game as the engine knows it (:class:`~azulcam.engine.record.Game`). Given a
still view (what the reader saw in every zone, and how sure it was), it asks the engine for what
could have happened since the last one: each legal move, or the chance event the view shows (a deal
read off the displays, a Summer Pavilion refill read off the supply), and up to :data:`MOST_EVENTS`
of them in a row for a fast table. Each explanation is scored by how far the table it predicts lies
from what is seen, a zone's disagreement weighed by the reader's confidence there; the best one is
committed only when it fits and no other comes close. Nothing fits: an "illegal or unexplained
change" alert once it has lasted :data:`ALERT_AFTER` seconds, and the tracker waits for the table
to be put right. Several fit alike: the zones that would tell them apart are reported unsure, and the
tracker waits for a better view. It never commits a guess.

Zones are named as in ``azulcam-observation/1``: ``boards.P.SLOT``, ``boards.P.hand``,
``factories.I`` (I the engine's display number, see :class:`Displays`), ``center``, ``supply.N``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..engine.common import CHANCE, TERMINAL
from ..engine.errors import EngineError
from ..engine.observe import observation_of
from ..engine.record import Game

#: Events in a row one still view may be explained by: a move, the chance event it brings (the
#: round's end, a Summer Pavilion refill) and the next player's move, seen only after both.
MOST_EVENTS = 3

#: After a gap between still views (a camera that dropped out), more events in a row are sought:
#: no table plays more than this many a second (a hand reaches, carries and leaves), up to
#: :data:`MOST_EVENTS_AFTER_A_GAP`.
EVENTS_PER_SECOND = 1.0
MOST_EVENTS_AFTER_A_GAP = 8
LONG_SEARCHES = 2

#: Committed events a view that nothing explains may revise: the tracker looks again from before
#: the last one, two or three of them (a move committed on a misread that later views contradict).
MOST_REVISED = 3

#: Explanations kept from one length to the next when a short one does not fit; after a gap, where
#: many events in a row are sought, more (the right first move may not look best on its own).
BEAM = 8
BEAM_AFTER_A_GAP = 32

#: A zone's weight is the log-odds of the reader's confidence there, between these: a zone read at
#: 0.5 hardly counts, one read at 0.999 counts like one read at 0.9995 (no reading is surer than that).
LEAST_WEIGHT, MOST_WEIGHT = 0.1, math.log(1000.0)

#: How sure the reader counts as being of a display, the centre or a hand where it saw no tile:
#: about the detector's recall on loose tiles.
NOTHING_SEEN = 0.95

#: The most an explanation that is committed may disagree with the view: one zone read wrong
#: at the surest (a reading the reader is certain of and is wrong happens: 2 in 3,345 slots).
FITS = MOST_WEIGHT + 0.1

#: How much better the best explanation must fit than any other (ln 50): one slot read at 0.98
#: or surer tells two apart; what the reader is less sure of cannot decide between them.
MARGIN = math.log(50.0)

#: An explanation's cost per event: of two that fit alike, the shorter (a move unseen is a guess).
EVENT_COST = 0.5

#: An explanation this close to the view (its disagreements' weight) is not looked past for a
#: longer one: a disagreement of a zone read at 0.75 or less. Any surer disagreement may be a move
#: more that the view shows.
CLOSE_FIT = math.log(3.0)

#: Seconds an unexplained view must last before the alert: a hand resting, players still laying
#: tiles on their walls at a round's end, are not alerts.
ALERT_AFTER = 2.0


@dataclass(frozen=True)
class ZoneRead:
    """What the reader saw in one zone. A slot: its kind (None: empty) and the reading's
    confidence. A zone of loose tiles (a display, the centre, a hand): the tiles' names, sorted,
    ``confidence`` how sure the reader is that no other tile lies there (:data:`NOTHING_SEEN`),
    and ``sureness``, each tile's confidence in the order of ``content``."""

    content: Any
    confidence: float
    sureness: tuple[float, ...] = ()


def loose_zone(tiles: list[tuple[str, float]]) -> ZoneRead:
    """A zone of loose tiles from each tile's name and confidence."""
    ordered = sorted(tiles)
    return ZoneRead(tuple(name for name, _ in ordered), NOTHING_SEEN, tuple(conf for _, conf in ordered))


@dataclass
class View:
    """One still view: zone -> what was read there, the displays' centres in the image (in the
    order of their ``factories.I`` zones as read), and when."""

    zones: dict[str, ZoneRead]
    displays: list[tuple[float, float]]
    frame: int = 0
    time: float = 0.0


def _tiles(counts: dict[str, int]) -> tuple[str, ...]:
    return tuple(sorted(name for name, n in counts.items() for _ in range(n)))


def expected(state: Any) -> dict[str, Any]:
    """Zone -> what a perfect reader would see there in ``state`` (slots: a kind; other zones: a
    sorted tuple of tiles; empty slots left out)."""
    obs = observation_of(state)
    zones: dict[str, Any] = {}
    for board in obs["boards"]:
        prefix = f"boards.{board['player']}"
        zones.update((f"{prefix}.{slot}", kind) for slot, kind in board["slots"].items())
        zones[f"{prefix}.hand"] = _tiles(board["hand"])
    for i, display in enumerate(obs["factories"]):
        zones[f"factories.{i}"] = tuple(sorted(display["tiles"]))
    zones["center"] = _tiles(obs["center"])
    for n, kind in enumerate(obs.get("supply") or []):
        zones[f"supply.{n}"] = kind
    return zones


def weight(confidence: float) -> float:
    """How much a disagreement with a reading at ``confidence`` counts: its log-odds, clipped."""
    c = min(max(confidence, 1e-9), 1.0 - 1e-9)
    return min(max(math.log(c / (1.0 - c)), LEAST_WEIGHT), MOST_WEIGHT)


def disagreement(want: Any, read: ZoneRead) -> float:
    """How much what a state puts in a zone (``want``) disagrees with what was read there: a
    slot read otherwise, its reading's weight; in a zone of loose tiles, each tile read that the
    state lacks (the least sure of its kind first) and each tile of the state not seen."""
    if not isinstance(read.content, tuple) and not isinstance(want, tuple):
        return weight(read.confidence) if want != read.content else 0.0
    wanted, seen = Counter(want or ()), Counter(read.content or ())
    total = sum((wanted - seen).values()) * weight(read.confidence)
    for name, extra in (seen - wanted).items():
        sure = sorted(c for n, c in zip(read.content, read.sureness or (1.0,) * len(read.content)) if n == name)
        total += sum(weight(c) for c in sure[:extra])
    return total


def _empty(zone: str) -> Any:
    return () if zone.startswith("factories.") or zone == "center" or zone.endswith(".hand") else None


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
class Explanation:
    """A sequence of record events (moves as ``{"player", "move"}``, chance events as in a
    record), the state it leads to, its cost and the zones where that state and the view disagree."""

    events: list[dict[str, Any]]
    state: Any
    cost: float
    mismatches: list[str]
    #: What the earlier views held against it: how much worse than the best it fitted them, summed.
    prior: float = 0.0
    #: The start player of the game it continues.
    start: int = 0

    @property
    def total(self) -> float:
        return self.cost + self.prior


def chance_events(state: Any, zones: dict[str, ZoneRead], displays: int) -> list[dict[str, Any]]:
    """The chance events the view shows that the engine accepts: the deal read off the displays
    (with the supply read too, which only Summer Pavilion's set-up deal takes), or the refill of
    the supply's empty spaces. None where a zone it needs was not seen."""
    supply = [zones.get(f"supply.{n}") for n in range(10)]
    supply_read = [s.content for s in supply] if all(s is not None for s in supply) else None  # type: ignore[union-attr]
    if getattr(state, "phase", "") == "refill":
        if supply_read is None:
            return []
        empty = [n for n, kind in enumerate(state.to_json()["supply"]) if kind is None]
        candidates = [{"refill": {"supply": [supply_read[n] for n in empty]}}]
    else:
        factories = [zones.get(f"factories.{i}") for i in range(displays)]
        if any(f is None for f in factories):
            return []
        deal: dict[str, Any] = {"factories": [list(f.content) for f in factories]}  # type: ignore[union-attr]
        candidates = [{"deal": deal}]
        if supply_read is not None and None not in supply_read:
            candidates.append({"deal": {**deal, "supply": supply_read}})
        if any(len(f.content) < 4 for f in factories):  # type: ignore[union-attr]
            candidates += [{"deal": {"factories": d}} for d in unseen_deals(state, zones, displays)]
    out = []
    for event in candidates:
        try:
            state.copy().apply_chance(event)
        except (EngineError, ValueError):
            continue
        out.append(event)
    return out


#: Displays taken from before their deal was seen (a camera out across a round's start) whose
#: deal may be worked out from where their tiles went.
MOST_UNSEEN_DISPLAYS = 2


def taken_by_players(state: Any, zones: dict[str, ZoneRead]) -> list[Counter]:
    """The tiles each player holds in the view that ``state`` does not give them: new on a board
    slot, or more in hand (the first-player marker left out)."""
    exp = expected(state)
    out = []
    for p in range(state.players):
        prefix = f"boards.{p}."
        taken: Counter = Counter()
        for zone, read in zones.items():
            if not zone.startswith(prefix):
                continue
            if zone.endswith(".hand"):
                taken += Counter(read.content) - Counter(exp.get(zone, ()))
            elif read.content is not None and exp.get(zone) is None:
                taken[read.content] += 1
        taken.pop("first_player", None)
        out.append(taken)
    return out


def unseen_deals(state: Any, zones: dict[str, ZoneRead], displays: int) -> list[list[list[str]]]:
    """The deals that may have been dealt (``state`` is at a round's start) when the view shows
    displays already taken from: each such display held the tiles one player took (their colour,
    with the jokers or wild tile that came with them) and its share of the centre's. Up to
    :data:`MOST_UNSEEN_DISPLAYS` of them; none where the centre holds tiles no display can have
    left there."""
    factories = [zones[f"factories.{i}"].content for i in range(displays)]
    short = [i for i, tiles in enumerate(factories) if len(tiles) < 4]
    if not short or len(short) > MOST_UNSEEN_DISPLAYS:
        return []
    centre = Counter(zones["center"].content) if "center" in zones else Counter()
    centre.pop("first_player", None)
    takes = [t for t in taken_by_players(state, zones) if t]
    out = []
    for order in itertools.permutations(takes, len(short)):
        needs = [4 - len(factories[i]) - sum(t.values()) for i, t in zip(short, order)]
        if any(n < 0 for n in needs) or sum(needs) != sum(centre.values()):
            continue
        for shares in _shares(centre, needs):
            deal = [list(tiles) for tiles in factories]
            for i, take, share in zip(short, order, shares):
                deal[i] = sorted([*factories[i], *take.elements(), *share.elements()])
            if deal not in out:
                out.append(deal)
    return out


def _shares(pile: Counter, sizes: list[int]) -> list[list[Counter]]:
    """Every way to deal ``pile`` out in parts of ``sizes`` (which sum to its size)."""
    if len(sizes) == 1:
        return [[pile]]
    out = []
    names = sorted(pile)

    def pick(k: int, left: int, chosen: Counter) -> None:
        if left == 0:
            out.extend([[+chosen, *rest] for rest in _shares(pile - chosen, sizes[1:])])
            return
        if k == len(names):
            return
        for n in range(min(pile[names[k]], left), -1, -1):
            pick(k + 1, left - n, chosen + Counter({names[k]: n}))

    pick(0, sizes[0], Counter())
    return out


def successors(state: Any, zones: dict[str, ZoneRead], displays: int) -> list[tuple[dict[str, Any], Any]]:
    """Each event that may come next in ``state`` and the state after it: every legal move of the
    player to move, or the chance event the view shows."""
    player = state.current_player
    if player == TERMINAL:
        return []
    out = []
    if player == CHANCE:
        for event in chance_events(state, zones, displays):
            after = state.copy()
            after.apply_chance(event)
            out.append((event, after))
        return out
    for move in state.legal_moves():
        after = state.copy()
        after.play(move)
        out.append(({"player": player, "move": move.to_json()}, after))
    return out


def cost_of(state: Any, zones: dict[str, ZoneRead], reference: dict[str, ZoneRead] | None,
            committed: dict[str, Any] | None) -> tuple[float, list[str]]:
    """How far ``state``'s table lies from what is seen, and where. A zone that reads as it read in
    the last explained view (``reference``) and that the state leaves as the committed state had it
    (``committed``) says nothing: a misreading that lasts is not evidence of a change."""
    exp = expected(state)
    total, where = 0.0, []
    for zone, read in zones.items():
        want = exp.get(zone, _empty(zone))
        if reference is not None and committed is not None:
            before = reference.get(zone)
            if before is not None and before.content == read.content and committed.get(zone, _empty(zone)) == want:
                continue
        d = disagreement(want, read)
        if d:
            total += d
            where.append(zone)
    return total, where


def explain(state: Any, zones: dict[str, ZoneRead], displays: int, reference: dict[str, ZoneRead] | None = None,
            committed: dict[str, Any] | None = None, most_events: int = MOST_EVENTS) -> list[Explanation]:
    """Every explanation of the view tried from ``state``, best first: no event at all, then
    sequences of up to ``most_events`` events, the longer ones grown from the :data:`BEAM` best
    shorter ones while the best so far disagrees with the view by more than :data:`CLOSE_FIT`. ``reference`` and ``committed``: see :func:`cost_of`
    (by default, the state's own table)."""
    if reference is not None and committed is None:
        committed = expected(state)
    cost, where = cost_of(state, zones, reference, committed)
    tried = [Explanation([], state, cost, where)]
    frontier = tried
    long = most_events > MOST_EVENTS
    for depth in range(1, most_events + 1):
        grown = []
        for parent in frontier:
            wrong = {z for z in parent.mismatches if z.startswith("boards.")}
            for event, after in successors(parent.state, zones, displays):
                cost, where = cost_of(after, zones, reference, committed)
                if long and any(z.startswith("boards.") and z not in wrong for z in where):
                    # Many events in a row: only those that leave no board slot further from the
                    # view (tiles laid stay until the round's end), or the search drowns.
                    continue
                grown.append(Explanation(parent.events + [event], after, cost + EVENT_COST * depth, where))
        grown.sort(key=lambda e: e.cost)
        tried += grown
        best = min(tried, key=lambda e: e.cost)
        if not grown or best.cost - EVENT_COST * len(best.events) <= CLOSE_FIT:
            break
        beam = BEAM if most_events <= MOST_EVENTS else BEAM_AFTER_A_GAP
        frontier = _unique(grown[:4 * beam])[:beam]  # moves in another order reach the same state
    tried.sort(key=lambda e: (e.cost, len(e.events)))
    return tried


def common_prefix(paths: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The events all ``paths`` begin with."""
    out: list[dict[str, Any]] = []
    for events in zip(*paths):
        if any(e != events[0] for e in events[1:]):
            break
        out.append(events[0])
    return out


def _unique(explanations: list[Explanation]) -> list[Explanation]:
    """The explanations less those that reach a state an earlier (better) one reaches."""
    out: list[Explanation] = []
    for e in explanations:
        if not any(o.state == e.state for o in out):
            out.append(e)
    return out


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
    alerted: bool = False
    last_unsure: list[str] = field(default_factory=list)
    #: When the last view that fitted was seen (None: none yet), and views unexplained since.
    last_fitted: float | None = None
    misses: int = 0
    #: Zones a person said what lies in (:meth:`overrule`), until the game changes them.
    overruled: dict[str, ZoneRead] = field(default_factory=dict)

    @property
    def display_count(self) -> int:
        return len(self.game.state.to_json()["factories"])

    def see(self, view: View) -> list[dict[str, Any]]:
        if not self.displays.places:
            seen = [c for c in view.displays if not math.isnan(c[0])]
            if len(seen) != self.display_count:
                return self._unexplained(view, [f"factories ({len(seen)} of {self.display_count} seen)"])
            self.displays = Displays.numbered(seen, self.first_near)
        matched = self.displays.match(view.displays)
        zones = {**in_engine_numbers(view, matched), **self.overruled}
        # After a gap, the long search gets the first views that follow it; a table that stays
        # unexplained after those is not searched ever deeper (the camera must keep up).
        gap = view.time - self.last_fitted if self.last_fitted is not None and self.misses < LONG_SEARCHES else 0.0
        most = min(max(MOST_EVENTS, math.ceil(gap * EVENTS_PER_SECOND)), MOST_EVENTS_AFTER_A_GAP)
        ranked = self._explanations(zones, most)
        fitting = [e for e in ranked if e.cost <= FITS]
        revised: list[dict[str, Any]] = []
        if not fitting:
            revision = self._revision(zones, most)
            if revision is None:
                return self._unexplained(view, ranked[0].mismatches if ranked else [])
            undone, fitting = revision
            for _ in range(undone):
                revised.append({**self.undo(), "revised": True})
        self.unexplained_since, self.alerted, self.last_fitted, self.misses = None, False, view.time, 0
        self.displays.follow(view.displays, matched)
        best = min(e.total for e in fitting)
        alike = sorted((e for e in fitting if e.total - best < MARGIN), key=lambda e: (e.total, len(e.events)))
        alike = _unique(alike[:4 * BEAM])[:BEAM]
        shared = common_prefix([e.events for e in alike])
        out = revised + self._commit(shared, alike[0].start)
        if len(alike) == 1:
            self.pending, self.last_unsure = [], []
            self.reference = zones
            return out
        self.pending = [Explanation(e.events[len(shared):], e.state, 0.0, e.mismatches, e.total - best, e.start)
                        for e in alike]
        exp = [expected(e.state) for e in alike]
        differ = sorted({z for a in exp for b in exp for z in a.keys() | b.keys() if a.get(z, _empty(z)) != b.get(z, _empty(z))})
        if differ != self.last_unsure:
            self.last_unsure = differ
            out.append({"kind": "uncertain", "zones": differ})
        return out

    def _explanations(self, zones: dict[str, ZoneRead], most: int = MOST_EVENTS) -> list[Explanation]:
        """Every explanation of the view from the committed state or from each pending
        hypothesis, best first. Before the first move, from the game begun by each player."""
        start = self.game.record.start_player
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
                game.apply(event["move"] if "move" in event else event)
            ranked = _unique([e for e in explain(game.state, zones, self.display_count, None, None, most + back)
                              if e.cost <= FITS][:4 * BEAM])
            if not ranked or ranked[0].events[:back] == events[-back:]:
                continue
            rival = next((e for e in ranked[1:] if e.events != ranked[0].events), None)
            if rival is None or rival.cost - ranked[0].cost >= MARGIN:
                start = self.game.record.start_player
                return back, [Explanation(ranked[0].events, ranked[0].state, ranked[0].cost, ranked[0].mismatches,
                                          0.0, start)]
        return None

    def _commit(self, events: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
        """Play ``events`` into the game begun by ``start`` and record them; their stream events."""
        if not events:
            return []
        if start != self.game.record.start_player:
            self.game = self._replayed(start)
        before = expected(self.game.state)
        out = []
        for event in events:
            self.game.apply(event["move"] if "move" in event else event)
            out.append({"kind": "move", **event} if "move" in event else {"kind": "chance", **event})
        after = expected(self.game.state)
        for zone in [z for z in self.overruled if before.get(z, _empty(z)) != after.get(z, _empty(z))]:
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
        game = Game.new(self.game.record.game, self.game.record.players, self.game.record.options,
                        self.game.record.start_player)
        for event in events[:-1]:
            game.apply(event["move"] if "move" in event else event)
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
        if "move" in event and event.get("player") != self.game.state.current_player:
            raise ValueError(f"player {event.get('player')} moved, but player {self.game.state.current_player} is to move")
        try:
            self.game.apply(event["move"] if "move" in event else event)
        except EngineError as exc:
            raise ValueError(str(exc)) from None
        self._afresh()

    def _afresh(self) -> None:
        """After a correction: no hypothesis, reference or alert stands; the next view is judged anew."""
        self.pending, self.reference, self.last_unsure = [], None, []
        self.unexplained_since, self.alerted = None, False

    def _moves_recorded(self) -> bool:
        return any("move" in e for e in self.game.record.events)

    def _replayed(self, start: int) -> Game:
        game = Game.new(self.game.record.game, self.game.record.players, self.game.record.options, start)
        for event in self.game.record.events:
            game.apply(event)
        return game

    def _unexplained(self, view: View, zones: list[str]) -> list[dict[str, Any]]:
        self.misses += 1
        if self.unexplained_since is None:
            self.unexplained_since = view.time
        self.unexplained_zones = zones
        return self.tick(view.time)

    def tick(self, time: float) -> list[dict[str, Any]]:
        """Time passing over an unexplained view: its alert, once it has lasted :data:`ALERT_AFTER`."""
        if self.unexplained_since is None or self.alerted or time - self.unexplained_since < ALERT_AFTER:
            return []
        self.alerted = True
        zones = self.unexplained_zones
        return [{"kind": "alert", "zones": zones,
                 "message": f"illegal or unexplained change: {', '.join(zones[:8])}"
                            + (f" and {len(zones) - 8} more" if len(zones) > 8 else "")}]
