"""Following as filtering: a beam over engine states, the deals latent, events committed at a fixed lag.

The hidden state is an engine state; it moves only by the engine's own events (legal moves, and the
chance events the view shows). Each view weighs a state by how likely the view is if the table lies
as the state has it (:class:`Observation`: a negative log-likelihood, 0 for the table as read). A
hypothesis is a path since the last commit, its state and its weight (the path's negative log
probability with every view since summed in).

A deal is not read and committed: each display's content is a distribution over the multisets of
four tiles it may hold (:class:`DisplayBelief`, prior from the bag, likelihood from the display as
each view read it), kept apart for every display until a take resolves it. "Player p took colour c
from display d" is seen on the board, so a take from a display weighs the contents it may have had
(its likeliest, and those the view proposes by what the centre gained), the leftovers going to the
centre: a deal misread is a distribution the takes sharpen, not a mistake to recover from. The
record's deal is each display's content as its take resolved it.

Paths that reach the same table are merged, each keeping its share, so an event's posterior is the
mass of the paths that hold it. An event is committed when the best path at two views in a row
holds it and the hypotheses holding all but :data:`EPSILON` of the weight pass by its table
(:class:`Committed` carries both posteriors), or at the latest when its round's next deal comes
into the best path; :meth:`Filter.finish` commits the rest at the source's end. Lost is a test
against the table as read: the best hypothesis explains :data:`LOST_VIEWS` views in a row worse
than the readings' own doubt allows (:attr:`Observation.tolerance`), by :data:`FITS`; such a view
leaves the beam as it was.

Pure Python over the engine: no image is seen here (an import rule says so).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from collections.abc import Mapping
from typing import Any, Protocol

from ..engine.common import CHANCE, TERMINAL, unique_states
from ..engine.errors import EngineError
from ..engine.observe import expected
from ..engine.zones import Zone

#: The posterior mass an event may leave to the hypotheses that disagree and still be committed as sure.
EPSILON = 0.01
#: Hypotheses kept after each view: at most this many, and only those within :data:`MARGIN` of the best.
BEAM = 24
MARGIN = 14.0
#: A display's contents tried for a take: those within this of its likeliest, at most
#: :data:`MOST_CONTENTS`, and those the take's view proposes (:func:`_proposed`); every content the
#: bag allows is kept, so a later reading or a take may raise any of them.
CONTENT_MARGIN = 3.0
MOST_CONTENTS = 24
#: An event's own cost (the shorter of two explanations that fit alike: a move unseen is a guess).
EVENT_COST = 0.5
#: Events one view may bring, by the game's board: on a wall a move, the round's end and deal it
#: brings and the next move; on stars a placement may bring a bonus and a refill. After views nothing
#: fitted, up to :data:`MOST_AFTER_A_MISS`, growing the :data:`GROWN` best at each length.
MOST_EVENTS = {"wall": 3, "stars": 5}
MOST_AFTER_A_MISS = 8
GROWN = 12
#: A round's end on Azul's grey wall: each wall choice as the view shows it, and another only as
#: close as this to it (a board the view does not show: any column), at most :data:`WALL_TIES` of them.
WALL_TIE = 1.0
WALL_TIES = 2
#: The ways of tiling the walls so far kept from one player's choice to the next.
WALL_PATHS = 4
#: A view fits where the best hypothesis explains it within this beyond the view's tolerance (the
#: cost the true table stays under, as sure as the readings are: about one zone read surely that it
#: holds otherwise). A path that fits within :data:`CLOSE_FIT` is not looked past for a longer one.
FITS = 8.0
CLOSE_FIT = math.log(3.0)
#: Paths are grown no longer once this many lengths in a row explained the view no better (a round's
#: last take leaves its tiles on a line the view shows tiled already: the take after it explains both).
PATIENCE = 2
#: Lost: this many views in a row that the best hypothesis does not fit.
LOST_VIEWS = 4
#: How much a display's reading at a view after its deal's counts beside the deal view's own: a
#: misreading of a printing lasts from view to view, so later readings are not independent.
LATER_READING = 0.5


class Observation(Protocol):
    """One view as the filter asks it. ``cost(state)``: the negative log-likelihood of the view if
    the table lies as ``state`` has it, the display zones asked only how many tiles they hold (their
    colours are :meth:`display_cost`'s), relative to the table as read (0: it fits every zone).
    ``display_cost(i, tiles)``: the same for display ``i`` holding ``tiles`` (sorted), None where
    the view does not show tiles there (``shows_tiles(i)``). ``centre()``: the tiles read in the
    centre, sorted (None: not seen). ``supply()``: the Summer Pavilion supply as read (None: not seen)."""

    time: float
    #: The cost the table as it lies is expected to stay under (the readings are not all right).
    tolerance: float

    def cost(self, state: Any) -> float: ...

    def display_cost(self, display: int, tiles: tuple[str, ...]) -> float | None: ...

    def shows_tiles(self, display: int) -> bool: ...

    def centre(self) -> tuple[str, ...] | None: ...

    def supply(self) -> list[str | None] | None: ...


@cache
def multisets(kinds: tuple[str, ...], size: int) -> tuple[tuple[str, ...], ...]:
    """Every sorted multiset of ``size`` tiles of ``kinds``."""
    return tuple(itertools.combinations_with_replacement(sorted(kinds), size))


def log_prior(tiles: tuple[str, ...], bag: Mapping[str, int]) -> float:
    """The log-probability that four tiles drawn from ``bag`` are ``tiles`` (multivariate
    hypergeometric): -inf where the bag lacks them."""
    total = sum(bag.values())
    if total < len(tiles):
        return -math.inf
    out = -math.log(math.comb(total, len(tiles)))
    for kind, n in Counter(tiles).items():
        have = bag.get(kind, 0)
        if have < n:
            return -math.inf
        out += math.log(math.comb(have, n))
    return out


@dataclass(frozen=True)
class DisplayBelief:
    """What one display may hold: every content the bag allows and its cost (negative log
    posterior, normalised), the likeliest first."""

    contents: tuple[tuple[tuple[str, ...], float], ...]

    @property
    def likeliest(self) -> tuple[str, ...]:
        return self.contents[0][0]

    def mass_of_likeliest(self) -> float:
        return math.exp(-self.contents[0][1])

    @property
    def tried(self) -> tuple[tuple[tuple[str, ...], float], ...]:
        """The contents a take is tried from unless a view proposes another (:data:`CONTENT_MARGIN`)."""
        best = self.contents[0][1]
        return tuple(tc for tc in self.contents[:MOST_CONTENTS] if tc[1] - best <= CONTENT_MARGIN)

    @cached_property
    def costs(self) -> dict[tuple[str, ...], float]:
        return dict(self.contents)

    @cached_property
    def signature(self) -> int:
        """A hash of the contents and costs (paths are merged by state and belief, many times a view)."""
        return hash(self.contents)

    @staticmethod
    def weighed(costs: list[tuple[tuple[str, ...], float]]) -> tuple[DisplayBelief, float]:
        """The belief of ``costs`` (unnormalised), and its normaliser (the negative log of their total mass)."""
        costs = sorted(costs, key=lambda c: (c[1], c[0]))
        best = costs[0][1]
        norm = best - math.log(sum(math.exp(best - c) for _, c in costs))
        return DisplayBelief(tuple((t, c - norm) for t, c in costs)), norm

    def seen_again(self, costs: dict[tuple[str, ...], float]) -> tuple[DisplayBelief, float]:
        """This belief with a later reading's costs added (at :data:`LATER_READING`), and the normaliser."""
        return DisplayBelief.weighed([(t, c + LATER_READING * costs[t]) for t, c in self.contents])


@dataclass(frozen=True)
class LatentDeal:
    """The round's deal while displays are untaken: the record's index of the deal among the path's
    events, the state before it, and what each untaken display may hold."""

    at: int
    before: Any
    displays: dict[int, DisplayBelief]


@dataclass
class Hypothesis:
    events: list[dict[str, Any]]
    state: Any
    weight: float
    deal: LatentDeal | None = None
    #: How far this view's table lies from the state (the observation's cost alone).
    fit: float = 0.0
    #: The other paths merged into this one (they reach the same table): for each, the index of its
    #: first event that differs from this path's, the length of this path where they met, and its
    #: share of the hypothesis' mass.
    others: tuple[tuple[int, int, float], ...] = ()

    #: Which of the filter's starts the path began from (:attr:`Filter.starts`; None once one was committed).
    start: int | None = None

    def share_agreeing(self, upto: int) -> float:
        """The share of this hypothesis' mass whose paths hold its first ``upto`` events."""
        return 1.0 - sum(share for apart, _, share in self.others if apart < upto)

    def share_at_table(self, upto: int) -> float:
        """The share of this hypothesis' mass whose paths pass by the table its first ``upto`` events leave."""
        return 1.0 - sum(share for apart, met, share in self.others if apart < upto < met)


@dataclass(frozen=True)
class Committed:
    """An event committed: ``posterior``, the posterior mass of the paths that hold it among those
    that hold the events before it, and whether that was surely enough (at least 1 - :data:`EPSILON`);
    ``table``, the mass of the table it leaves, whatever the paths to it (two takes seen in one view
    may reach one table in either order: the table is sure, the order is not)."""

    event: dict[str, Any]
    posterior: float
    table: float = 1.0

    @property
    def sure(self) -> bool:
        return self.posterior >= 1.0 - EPSILON


def _source_of(move_json: dict[str, Any]) -> Any:
    return move_json.get("source") if move_json.get("action") == "take" else None


def _charged(event: dict[str, Any]) -> int:
    return 0 if event.get("move", {}).get("action") == "wall" else 1


def _deal_bag(before: Any) -> Counter[str]:
    """The tiles a deal from ``before`` draws from: the bag, and the lid (Azul) or tower where the
    bag runs short (they are poured in when it runs out)."""
    data = before.to_json()
    bag = Counter(data["bag"])
    if sum(bag.values()) < 4 * len(data["factories"]):
        bag += Counter(data.get("lid", data.get("tower", {})))
    return bag


@dataclass
class Filter:
    """A game followed as a filter from ``state`` (a game's start, or a position taken up), or from
    any of ``starts`` (a game's start with each player moving first: which one the views tell, and
    ``state`` is it once an event is committed). :meth:`see` takes each view and returns the events
    it lets commit, in the record's order."""

    state: Any
    starts: list[Any] = field(default_factory=list)
    hypotheses: list[Hypothesis] = field(default_factory=list)
    misses: int = 0
    #: Set when :data:`LOST_VIEWS` views in a row fitted no hypothesis; cleared by the next that fits.
    lost: bool = False
    #: The best path at the view before (an event is committed only once two views in a row hold it).
    held: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.hypotheses:
            starts = self.starts or [self.state]
            self.hypotheses = [Hypothesis([], s.copy(), 0.0, start=i if self.starts else None) for i, s in enumerate(starts)]

    @property
    def best(self) -> Hypothesis:
        return self.hypotheses[0]

    def see(self, view: Observation) -> list[Committed]:
        board = self.state.spec.board
        # After a view nothing fitted, longer paths (the table moved on behind an arm); once lost,
        # only the usual ones (the table coming back as it was).
        longer = self.misses and not self.lost
        most = max(MOST_EVENTS[board], MOST_AFTER_A_MISS) if longer else MOST_EVENTS[board]
        weighed = _pruned(self._weighed_all(self._grown(view, most), view))
        if weighed[0].fit > view.tolerance + FITS:
            # A view no path explains says nothing of the paths: they stay as they were.
            self.misses += 1
            self.lost = self.lost or self.misses >= LOST_VIEWS
            return []
        self.hypotheses, self.misses, self.lost = weighed, 0, False
        out = self._commit()
        self.held = list(self.best.events)
        return out

    def finish(self) -> list[Committed]:
        """The best path's events not committed yet, each with its posterior: the source has ended."""
        return self._commit(force=len(self.best.events))

    def _grown(self, view: Observation, most: int) -> list[tuple[Hypothesis, _Step]]:
        """Every hypothesis and every path from it of up to ``most`` events, weighed by ``view``,
        one event longer at a time while none fits the view closely; each length grown from the
        :data:`GROWN` best of the one before (by weight, over all hypotheses)."""
        out = [(h, _Step(h.events, h.state, h.deal, 0.0, view.cost(h.state), 0)) for h in self.hypotheses]
        out.sort(key=lambda hs: hs[0].weight + hs[1].fit)
        frontier = out
        best = min(h.weight + step.fit for h, step in out)
        idle = 0  # lengths in a row that explained the view no better
        for _ in range(most):
            if min(step.fit for _, step in out) <= CLOSE_FIT:
                break  # a view the paths so far explain: nothing more happened
            before, longer = best, []
            for h, step in frontier:
                if step.charged < most:
                    children = self._successors(step, view, best - h.weight)
                    longer += [(h, child) for child in children]
                    best = min([best, *(h.weight + c.cost + c.fit for c in children)])
            idle = idle + 1 if best >= before else 0
            if not longer or idle >= PATIENCE:
                break  # nothing more, or more events explain the view no better
            longer.sort(key=lambda hs: hs[0].weight + hs[1].cost + hs[1].fit)
            out += longer
            frontier, seen = [], set()
            for h, step in longer:
                key = step.state.key()
                if key not in seen and len(frontier) < GROWN:
                    seen.add(key)
                    frontier.append((h, step))
        return out

    def _weighed_all(self, grown: list[tuple[Hypothesis, _Step]], view: Observation) -> list[Hypothesis]:
        """The paths of ``grown`` that may stay in the beam, weighed (:meth:`_weighed`). Weighing a
        latent deal by the view only adds to a path's weight, so the paths are weighed best first,
        until the rest lie beyond :data:`MARGIN` of the best weighed, or behind the :data:`BEAM` best."""
        grown = sorted(grown, key=lambda hs: hs[0].weight + hs[1].cost + hs[1].fit)
        out: list[Hypothesis] = []
        beliefs: dict[int, tuple[DisplayBelief, float]] = {}
        finals: dict[Any, float] = {}
        for h, step in grown:
            ahead = sorted(finals.values())
            bound = min(ahead[0] + MARGIN, ahead[BEAM - 1] if len(ahead) >= BEAM else math.inf) if ahead else math.inf
            if h.weight + step.cost + step.fit > bound:
                break
            weighed = self._weighed(h, step, view, beliefs)
            out.append(weighed)
            key = (weighed.state.key(), _deal_key(weighed))
            finals[key] = min(finals.get(key, math.inf), weighed.weight)
        return out

    @staticmethod
    def _weighed(h: Hypothesis, step: _Step, view: Observation,
                 beliefs: dict[int, tuple[DisplayBelief, float]]) -> Hypothesis:
        """The path ``step`` grew from ``h``, weighed: its events' own costs, and ``view`` (the table
        it leaves, and the untaken displays' beliefs sharpened by how the view reads them, unless
        the view dealt them)."""
        weight = h.weight + step.cost + step.fit
        deal, events, state = step.deal, step.events, step.state
        if deal is not None and not step.dealt:
            deal, norm = _seen_again(deal, view, beliefs)
            weight += norm
            moved = {d: b.likeliest for d, b in deal.displays.items() if b.likeliest != step.deal.displays[d].likeliest}  # type: ignore[union-attr]
            if moved:
                # A later reading made another content of an untaken display the likeliest: the
                # path lays it out, as the record will.
                relaid = _relaid(events, deal, moved)
                if relaid is not None:
                    events, state = relaid
        return Hypothesis(events, state, weight, deal, step.fit, h.others, h.start)

    def _successors(self, step: _Step, view: Observation, best: float) -> list[_Step]:
        """Each path one event longer than ``step``: every legal move (a take from an untaken
        display from each content it may hold, that content's cost paid and the record's deal
        laid out so, while within :data:`MARGIN` of ``best``, the cheapest path so far from the
        step's hypothesis), or the chance event the view shows."""
        state = step.state
        player = state.current_player
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return self._chance(step, view)
        out: list[_Step] = []
        latent = step.deal.displays if step.deal is not None else {}
        for move in state.legal_moves():
            data = move.to_json()
            if _source_of(data) in latent:
                continue  # a take from a display not yet resolved: below, from each content it may hold
            after = state.copy()
            after.play_unchecked(move)
            out.append(step.then({"player": player, "move": data}, after, step.deal, EVENT_COST, view))
        out += self._from_latent(step, view, min([best, *(s.cost + s.fit for s in out)]))
        return [tiled for s in out for tiled in (s, *self._tiled(s, view))]

    def _from_latent(self, step: _Step, view: Observation, best: float) -> list[_Step]:
        """Each take from a display not yet resolved, from each content it may hold (its cost paid,
        and the path's deal laid out with it): the contents tried (:attr:`DisplayBelief.tried`) and
        those the view proposes (:func:`_proposed`), cheapest first, until the rest cost more than
        :data:`MARGIN` beyond ``best`` (the cheapest path from ``step`` so far, cost and fit)."""
        state, player, out = step.state, step.state.current_player, []
        latent = step.deal.displays if step.deal is not None else {}
        if not latent:
            return []
        centre = _centre_of(state)
        # The view proposes contents only for a display it does not read full (one it shows taken).
        tries = sorted({(cost, display, tiles) for display, belief in latent.items()
                        for tiles, cost in (*belief.tried, *(_proposed(centre, belief, view)
                                                             if not view.shows_tiles(display) else ()))})
        for cost, display, tiles in tries:
            if step.cost + EVENT_COST + cost > best + MARGIN:
                break
            belief = latent[display]
            rest = {d: b for d, b in latent.items() if d != display}
            deal = replace(step.deal, displays=rest) if rest else None  # type: ignore[arg-type]
            if tiles == belief.likeliest:
                events, base = step.events, state
            else:
                relaid = _relaid(step.events, step.deal, {display: tiles})  # type: ignore[arg-type]
                if relaid is None:
                    continue
                events, base = relaid
            for move in base.legal_moves():
                data = move.to_json()
                if _source_of(data) != display:
                    continue
                after = base.copy()
                after.play_unchecked(move)
                took = replace(step, events=events).then({"player": player, "move": data}, after, deal,
                                                         EVENT_COST + cost, view)
                best = min(best, took.cost + took.fit)
                out.append(took)
        return out

    @staticmethod
    def _tiled(step: _Step, view: Observation) -> list[_Step]:
        """Where ``step`` ends a round on Azul's grey wall, its walls tiled as ``view`` shows them:
        each choice the one that fits best, and those within :data:`WALL_TIE` of it (the players
        tile at once, so the view shows them all or none; the choices do not count as events)."""
        if not _wall_next(step.state):
            return []
        done, frontier = [], [step]
        while frontier:
            choices = []
            for s in frontier:
                if not _wall_next(s.state):
                    done.append(s)
                    continue
                player, options = s.state.current_player, []
                for move in s.state.legal_moves():
                    after = s.state.copy()
                    after.play_unchecked(move)
                    options.append(s.then({"player": player, "move": move.to_json()}, after, s.deal, 0.0, view))
                options.sort(key=lambda x: x.fit)
                choices += [o for o in options if o.fit - options[0].fit <= WALL_TIE][:WALL_TIES]
            frontier = unique_states(choices)[:WALL_PATHS]
        return done

    def _chance(self, step: _Step, view: Observation) -> list[_Step]:
        """The chance event the view shows: a Summer Pavilion refill read off the supply, or a deal,
        latent (each display's belief from the view, the likeliest of each laid out)."""
        state = step.state
        supply = view.supply()
        kinds = tuple(t for t in state.spec.tiles_in_play(state.options) if t != "first_player")
        if getattr(state, "phase", "") == "refill":
            if supply is None:
                return []
            empty = [n for n, kind in enumerate(state.to_json()["supply"]) if kind is None]
            out = []
            for refill in _one_off([supply[n] for n in empty], kinds):
                event = {"refill": {"supply": refill}}
                after = state.copy()
                try:
                    after.apply_chance(event)
                except (EngineError, ValueError):
                    continue
                out.append(step.then(event, after, None, EVENT_COST, view))
            return out
        bag = _deal_bag(state)
        displays = range(len(state.to_json()["factories"]))
        read = [d for d in displays if view.shows_tiles(d)]
        if not read:
            return []  # no display seen with tiles: the table is not dealt yet
        # Where the bag and what is poured into it run short, the displays are filled in turn.
        sizes = {d: max(0, min(4, sum(bag.values()) - 4 * d)) for d in displays}
        # Each display drawn from what the ones before left in the bag (their likeliest contents):
        # the displays read first, then those the view shows empty (taken from in the same view)
        # or does not show, by the bag alone. (Where the bag runs out, the engine also holds that
        # every tile of it was dealt: a layout that does not is no deal of this view.)
        beliefs, norm = {}, 0.0
        for d in [*read, *(d for d in displays if d not in read)]:
            costs = []
            for tiles in multisets(kinds, sizes[d]):
                prior = log_prior(tiles, bag)
                if prior > -math.inf:
                    costs.append((tiles, (view.display_cost(d, tiles) or 0.0) - prior))
            if not costs:
                return []  # too few tiles left for this layout
            beliefs[d], n = DisplayBelief.weighed(costs)
            bag -= Counter(beliefs[d].likeliest)
            norm += n
        beliefs = dict(sorted(beliefs.items()))
        likeliest = [list(b.likeliest) for b in beliefs.values()]
        extras: list[dict[str, Any]] = [{}]
        if state.spec.supply_spaces and None in state.to_json()["supply"]:
            # Summer Pavilion's first deal fills the supply too.
            extras = [] if supply is None or None in supply else [{"supply": s} for s in _one_off(supply, kinds)]
        out = []
        for extra in extras:
            event = {"deal": {"factories": likeliest, **extra}}
            after = state.copy()
            try:
                after.apply_chance(event)
            except (EngineError, ValueError):
                continue  # the likeliest of each display together are more than the bag holds
            dealt = step.then(event, after, LatentDeal(len(step.events), state, beliefs), EVENT_COST + norm, view)
            out.append(replace(dealt, dealt=True))
        return out

    def _commit(self, force: int = 0) -> list[Committed]:
        """Commit the longest start of the best path that the best path at the view before held
        too and whose table holds all but :data:`EPSILON` of the posterior (at least ``force``
        events, and every event before the best path's last deal: a round's events at the latest
        when it ends), then drop the hypotheses that do not begin with it. Each event's posterior
        is the mass of the paths that hold it and the events since the last sure table."""
        best = self.best
        deals = [i for i, e in enumerate(best.events) if "deal" in e]
        force = max(force, deals[-1] if deals else 0)
        masses = _masses(self.hypotheses)
        tables, paths = [1.0], [1.0]
        for k in range(1, len(best.events) + 1):
            if k > force and best.events[:k] != self.held[:k]:
                break  # one view alone holds it: a misreading lasts no longer
            agree = [(h, m * _deal_mass(h, k)) for h, m in zip(self.hypotheses, masses)
                     if h.start == best.start and h.events[:k] == best.events[:k]]
            tables.append(sum(m * h.share_at_table(k) for h, m in agree))
            paths.append(sum(m * h.share_agreeing(k) for h, m in agree))
        upto = max([k for k in range(len(tables)) if k <= force or tables[k] >= 1.0 - EPSILON])
        out: list[Committed] = []
        anchor = 1.0  # the paths' mass at the last sure table
        for k in range(1, upto + 1):
            out.append(Committed(best.events[k - 1], paths[k] / anchor if anchor > 0 else 0.0, tables[k]))
            if tables[k] >= 1.0 - EPSILON:
                anchor = paths[k]
        if not out:
            return []
        k = len(out)
        kept = []
        for h in self.hypotheses:
            if h.start != best.start or h.events[:k] != best.events[:k]:
                continue
            deal = h.deal
            if deal is not None and deal.at < k:
                # The deal committed: each untaken display holds its likeliest content from now on.
                h.weight += sum(b.contents[0][1] for b in deal.displays.values())
                deal = None
            elif deal is not None:
                deal = replace(deal, at=deal.at - k)
            # The paths merged into it that do not hold the events committed are given up.
            agreeing = h.share_agreeing(k)
            weight = h.weight - math.log(max(agreeing, 1e-300))
            others = tuple((apart - k, met - k, share / agreeing) for apart, met, share in h.others if apart >= k)
            kept.append(Hypothesis(h.events[k:], h.state, weight, deal, h.fit, others))
        if self.starts:
            self.state, self.starts = self.starts[best.start].copy(), []  # type: ignore[index]
        for c in out:
            if "player" in c.event:
                self.state.play(c.event["move"])
            else:
                self.state.apply_chance(c.event)
        self.hypotheses = _pruned(kept)
        return out


@dataclass(frozen=True)
class _Step:
    """A path being grown within one view: its events, the state and latent deal it leads to, the
    new events' own costs, how far the view lies from its state, and the events that count."""

    events: list[dict[str, Any]]
    state: Any
    deal: LatentDeal | None
    cost: float
    fit: float
    charged: int
    #: Whether its deal was read off this view (its beliefs already hold the view).
    dealt: bool = False

    def then(self, event: dict[str, Any], state: Any, deal: LatentDeal | None, cost: float, view: Observation) -> _Step:
        charged = _charged(event)
        return _Step([*self.events, event], state, deal, self.cost + cost * charged, view.cost(state),
                     self.charged + charged, self.dealt)


def _relaid(events: list[dict[str, Any]], deal: LatentDeal, contents: dict[int, tuple[str, ...]]
            ) -> tuple[list[dict[str, Any]], Any] | None:
    """The path ``events`` had its deal laid ``contents`` on the displays they name: the events so,
    and the state after them, the deal laid again and the moves since played again (None where the
    bag or the moves do not allow it)."""
    factories = [list(f) for f in events[deal.at]["deal"]["factories"]]
    for display, tiles in contents.items():
        factories[display] = list(tiles)
    relaid = [*events[:deal.at], {"deal": {**events[deal.at]["deal"], "factories": factories}}, *events[deal.at + 1:]]
    state = deal.before.copy()
    try:
        state.apply_chance(relaid[deal.at])
        for event in relaid[deal.at + 1:]:
            if "player" in event:
                state.play(event["move"])
            else:
                state.apply_chance(event)
    except (EngineError, ValueError):
        return None
    return relaid, state


def _one_off(read: list[str | None], kinds: tuple[str, ...]) -> list[list[str | None]]:
    """The supply spaces as ``read``, and each way of reading one of them as another of ``kinds``
    (a space misread in the view a chance event is read from: later views tell them apart)."""
    out = [list(read)]
    for n, kind in enumerate(read):
        out += [[*read[:n], other, *read[n + 1:]] for other in kinds if other != kind]
    return out


def _deal_mass(h: Hypothesis, upto: int) -> float:
    """The share of ``h``'s mass whose deal among its first ``upto`` events is the one its path lays
    out: every untaken display's likeliest content."""
    if h.deal is None or h.deal.at >= upto:
        return 1.0
    return math.prod(b.mass_of_likeliest() for b in h.deal.displays.values())


def _seen_again(deal: LatentDeal, view: Observation, beliefs: dict[int, tuple[DisplayBelief, float]]
                ) -> tuple[LatentDeal, float]:
    """``deal`` with the untaken displays' beliefs sharpened by ``view`` where it reads them full
    (``beliefs``: each belief sharpened by this view so far, by identity: paths share them)."""
    displays, norm = {}, 0.0
    for d, belief in deal.displays.items():
        done = beliefs.get(id(belief))
        if done is None:
            if not view.shows_tiles(d):
                done = (belief, 0.0)
            else:
                done = belief.seen_again({t: view.display_cost(d, t) for t, _ in belief.contents})  # type: ignore[misc]
            beliefs[id(belief)] = done
        displays[d] = done[0]
        norm += done[1]
    return replace(deal, displays=displays), norm


def _masses(hypotheses: list[Hypothesis]) -> list[float]:
    best = min(h.weight for h in hypotheses)
    raw = [math.exp(best - h.weight) for h in hypotheses]
    total = sum(raw)
    return [r / total for r in raw]


def _pruned(hypotheses: list[Hypothesis]) -> list[Hypothesis]:
    """The best path to each state, each weighed with every other path to it (its weight the
    negative log of their summed mass), the best first; at most :data:`BEAM`, within :data:`MARGIN`."""
    by_state: dict[Any, list[Hypothesis]] = {}
    for h in sorted(hypotheses, key=lambda x: x.weight):
        by_state.setdefault((h.state.key(), _deal_key(h)), []).append(h)
    merged = []
    for paths in by_state.values():
        first = paths[0]
        if len(paths) > 1:
            masses = [math.exp(first.weight - p.weight) for p in paths]
            total = sum(masses)
            others: dict[tuple[int, int], float] = {}
            met = len(first.events)
            for path, mass in zip(paths, masses):
                apart = _first_difference(path.events, first.events)
                own = 1.0 - sum(share for _, _, share in path.others)
                if apart is not None:
                    others[apart, met] = others.get((apart, met), 0.0) + own * mass / total
                for at, joined, share in path.others:
                    key = (at, joined) if apart is None else (min(at, apart), met)
                    others[key] = others.get(key, 0.0) + share * mass / total
            first.weight -= math.log(total)
            first.others = tuple((apart, joined, share) for (apart, joined), share in sorted(others.items()))
        merged.append(first)
    merged.sort(key=lambda x: x.weight)
    best = merged[0].weight
    return [h for h in merged if h.weight - best <= MARGIN][:BEAM]


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int | None:
    """The index of the first event where the paths ``a`` and ``b`` differ (None: the same path)."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b)) if len(a) != len(b) else None


def _deal_key(h: Hypothesis) -> Any:
    if h.deal is None:
        return None
    return tuple(sorted((d, b.signature) for d, b in h.deal.displays.items()))


def _centre_of(state: Any) -> Counter[str]:
    return Counter(expected(state).get(Zone.centre(), ()))


def _proposed(centre: Counter[str], belief: DisplayBelief, view: Observation) -> list[tuple[tuple[str, ...], float]]:
    """The contents a take from a display may have had, by what ``view`` reads in the centre, which
    held ``centre`` before: the tiles it gained, and any tiles of at most two kinds taken (a colour,
    and a wild tile or joker with it)."""
    read = view.centre()
    if read is None:
        return []
    after = Counter(read)
    if centre - after:
        return []  # the centre lost tiles too: a take from it in the same view
    left = list((after - centre - Counter(["first_player"])).elements())
    size = len(belief.likeliest) - len(left)
    if size < 1:
        return []
    kinds = tuple(sorted({t for tiles, _ in belief.contents for t in tiles}))
    out = []
    for taken in multisets(kinds, size):
        if len(set(taken)) <= 2:
            tiles = tuple(sorted(left + list(taken)))
            cost = belief.costs.get(tiles)
            if cost is not None:
                out.append((tiles, cost))
    return out


def _wall_next(state: Any) -> bool:
    """Whether the next event is an Azul wall choice (a round's end brings them: they do not count)."""
    return state.current_player not in (CHANCE, TERMINAL) and state.phase == "tiling"
