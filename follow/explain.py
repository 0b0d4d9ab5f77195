"""Which events explain a still view: the engine's candidates, each scored against what was read.

A view is what the reader saw in every zone and how sure it was (:class:`View`). From a state, the
candidates are each legal move, or the chance event the view shows (a deal read off the displays,
one worked out from where the tiles of displays already taken went, a Summer Pavilion refill read
off the supply), and up to :data:`MOST_EVENTS` of them in a row (by the game's board). Each is
scored by how far the table it predicts lies from the view (what a state puts in each zone:
:func:`~azulcam.engine.observe.expected`): a zone's disagreement weighs the reader's log-odds
there. The tracker (:mod:`track`) decides what to commit.

Each zone is a :class:`~azulcam.engine.zones.Zone`, named as in ``azulcam-observation/1``:
``boards.P.SLOT``, ``boards.P.hand``, ``factories.I`` (I the engine's display number), ``center``,
``supply.N``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..calibration.layouts import expected_slots
from ..engine.common import CHANCE, TERMINAL, unique_states
from ..engine.errors import EngineError
from ..engine.games import GameSpec
from ..engine.observe import empty_content, expected
from ..engine.zones import CENTER, DISPLAY, FLOOR_SPACE, HAND, LINE_SPACE, STAR_SPACE, SUPPLY, WALL_SPACE, Zone

#: Events in a row one still view may be explained by, by the game's board (``GameSpec.board``:
#: what a move may bring comes with the board it is played on). On a wall a move, the chance event
#: it brings (the round's end and the next deal) and the next player's move, seen only after both;
#: on stars a placement may bring a bonus and a refill, so a move and the next one may be five.
MOST_EVENTS = {"wall": 3, "stars": 5}

#: Explanations kept from one length to the next when a short one does not fit; after a gap, where
#: many events in a row are sought, more (the right first move may not look best on its own).
BEAM = 8
BEAM_AFTER_A_GAP = 64

#: A zone's weight is the log-odds of the reader's confidence there, between these: a zone read at
#: 0.5 hardly counts, one read at 0.999 counts like one read at 0.9995 (no reading is surer than that).
LEAST_WEIGHT, MOST_WEIGHT = 0.1, math.log(1000.0)

#: How sure the reader counts as being of a display, the centre or a hand where it saw no tile:
#: about the detector's recall on loose tiles.
NOTHING_SEEN = 0.95

#: An explanation's cost per event: of two that fit alike, the shorter (a move unseen is a guess).
#: Not an Azul wall choice: the round's end brings every one of them, each seen on its board.
EVENT_COST = 0.5


#: Azul wall choices one round's end may bring (four players, five rows): they count neither
#: towards an explanation's events in a row nor their cost.
MOST_WALL_CHOICES = 20


def charged(events: list[dict[str, Any]]) -> int:
    """The events of an explanation that count (:data:`MOST_EVENTS`) and cost (:data:`EVENT_COST`)."""
    return sum(1 for e in events if e.get("move", {}).get("action") != "wall")

#: An explanation this close to the view (its disagreements' weight) is not looked past for a
#: longer one: a disagreement of a zone read at 0.75 or less. Any surer disagreement may be a move
#: more that the view shows.
CLOSE_FIT = math.log(3.0)


@dataclass(frozen=True)
class ZoneRead:
    """What the reader saw in one zone. A slot: its kind (None: empty) and the reading's
    confidence. A zone of loose tiles (a display, the centre, a hand): the tiles' names, sorted,
    ``confidence`` how sure the reader is that no other tile lies there (:data:`NOTHING_SEEN`),
    and ``sureness``, each tile's confidence in the order of ``content``. ``mixups``: what this
    table's tiles read as one kind here turned out to be (read as, turned out, how much a
    disagreement of the two counts; :mod:`mixups`)."""

    content: Any
    confidence: float
    sureness: tuple[float, ...] = ()
    mixups: tuple[tuple[str, str, float], ...] = ()
    #: A zone of loose tiles: how much a tile of each kind not seen there counts, as this
    #: table's reader misses such tiles (:meth:`~.mixups.Mixups.missed`); others count as
    #: ``confidence`` says.
    missed: tuple[tuple[str, float], ...] = ()
    #: A display's tiles, in the order of ``content``: how likely each colour is, read also
    #: against this table's own tiles (:meth:`~.watch.Watcher._in_table_colours`); empty where
    #: only the reading's confidence is known (the rest of its doubt shared evenly).
    likely: tuple[tuple[tuple[str, float], ...], ...] = ()


def loose_zone(tiles: list[tuple[str, float]] | list[tuple[str, float, tuple[tuple[str, float], ...]]]) -> ZoneRead:
    """A zone of loose tiles from each tile's name and confidence, and where known how likely
    each colour is (:attr:`ZoneRead.likely`)."""
    ordered = sorted(tiles, key=lambda t: (t[0], t[1]))
    likely = tuple(t[2] if len(t) > 2 else () for t in ordered)
    return ZoneRead(tuple(t[0] for t in ordered), NOTHING_SEEN, tuple(t[1] for t in ordered),
                    likely=likely if any(likely) else ())


@dataclass
class View:
    """One still view: zone -> what was read there, the displays' centres in the image (in the
    order of their ``factories.I`` zones as read), and when. ``change``: for the zones compared
    with themselves at the view the tracker last settled them in (:mod:`change`), the log-odds
    that they changed since, and the same allowing for a neighbour's change reaching over;
    ``near``: each such zone's neighbours. ``glimpse``: a frame between two hands, not a still
    view: what it explains is committed, what it does not says nothing. ``between``: a glimpse too
    busy to commit from (more changed in one piece than a take's tiles: maybe a hand whose arm the
    picture does not show): it only weighs the orders of the moves the next still view shows."""

    zones: dict[str, ZoneRead]
    displays: list[tuple[float, float]]
    frame: int = 0
    time: float = 0.0
    change: dict[str, tuple[float, float]] = field(default_factory=dict)
    near: dict[str, frozenset[str]] = field(default_factory=dict)
    glimpse: bool = False
    between: bool = False
    #: For the displays compared with how they looked empty: the log-odds that each holds tiles.
    filled: dict[str, float] = field(default_factory=dict)
    #: For the board spaces compared with how calibration saw them bare, where the game may be
    #: taken up from this view (:attr:`~.track.Tracker.taking_up`): the log-odds that each holds a tile.
    covered: dict[str, float] = field(default_factory=dict)
    #: Each Azul player's score marker read surely: the cell of the score track it stands on.
    markers: dict[int, int] = field(default_factory=dict)


#: How much a reading counts, beside a zone's measured change, in saying whether it changed: half
#: (a reader misled by a printing it never saw reads the same wrong kind view after view; the
#: change of a zone compared with itself does not depend on the printing).
READING_SAYS = 0.5


@dataclass(frozen=True)
class Changes:
    """What the tracker weighs a state against where a zone's change is measured: the log-odds
    that each zone changed since the view it was settled in (as :attr:`View.change`), its
    neighbours, and what the game had there then (``baseline``). A zone that did not change
    keeps the content the game gave it, however it reads; only changed zones are read."""

    log_odds: dict[str, tuple[float, float]]
    near: dict[str, frozenset[str]]
    baseline: dict[str, Any]
    filled: dict[str, float] = field(default_factory=dict)
    #: The zones a neighbour of which the game changed after their reference was taken.
    changed_near: frozenset[str] = frozenset()
    #: What each space read as at the view it was settled in.
    looked: dict[str, Any] = field(default_factory=dict)
    #: The measured zones that are displays, dealt and taken whole (:meth:`display_cost`).
    displays: frozenset[Zone] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "displays", frozenset(z for z in map(Zone.parse, self.log_odds) if z.kind == DISPLAY))

    def cost(self, zone: str, want: Any, read: ZoneRead, exp: dict[str, Any]) -> float:
        """How far ``want`` (what a state puts in ``zone``; ``exp``: all it puts) lies from what was
        seen. Whether the zone changed is told by its change (:attr:`log_odds`) and, at
        :data:`READING_SAYS` of its weight, by the reading: one that reads what the zone held, or
        what it read as when it was settled (:attr:`looked`), says it did not change, any other
        that it did. A zone seen unchanged keeps what the game
        gave it, however it reads; where the change is in doubt, the reading decides. In a
        changed zone, a reading of neither ``want`` nor what it held weighs against ``want`` too.
        An empty space whose print read as the tile ``want`` lays there is not asked whether it
        changed (:attr:`looked`)."""
        before = self.baseline[zone]
        plain, spilled = self.log_odds[zone]
        if zone in self.displays:
            return self.display_cost(zone, want, before, plain, read)
        # A reading of what the zone held, or of what it read as then (a print read as a tile),
        # says it did not change. A tile read on a space that read empty when settled says it
        # did, in full: the reader's own answer on the same space moved (a tile laid on a space
        # printed in its colour, which its look alone hardly tells). Not a tile read as gone: a
        # board's tiles stay, and a printing the reader never saw has tiles it reads as empty.
        unchanged = read.content == before or (zone in self.looked and read.content == self.looked[zone])
        moved = not unchanged and zone in self.looked and self.looked[zone] is None and read.content is not None
        says = (1.0 if moved else READING_SAYS) * weight(read.confidence) * (-1.0 if unchanged else 1.0)
        if want == before:
            neighbour_changed = plain > 0.0 and (zone in self.changed_near or any(exp.get(n, empty_content(n)) != self.baseline.get(n, empty_content(n))
                                                    for n in self.near.get(zone, ())))
            return max((spilled if neighbour_changed else plain) + says, 0.0)
        # An empty space whose print read as the very tile now laid on it (a coloured wall
        # printed as strongly as its tiles) cannot tell by its look that the tile came: the
        # spaces the tile left, and the reading, tell it.
        unseen = max(-(plain + says), 0.0) if not (before is None and want is not None and self.looked.get(zone) == want) else 0.0
        if read.content == want or read.content == before:
            return unseen
        return unseen + disagreement(want, read) / (1.0 + math.exp(-plain))

    def display_cost(self, zone: str, want: Any, before: Any, changed: float, read: ZoneRead) -> float:
        """How far ``want`` lies from what is seen on a display the game settled with ``before``
        (``changed``: the log-odds that it changed since). A display is dealt whole and taken
        whole: one the state leaves as it was is asked only whether it changed, one the state
        empties only whether it changed and, where tiles are read on it, whether it looks as it
        did empty (:attr:`filled`; without that look, the tiles read count). Its reading counts only for what a deal put there:
        the engine cannot know a deal's colours. A printing read as tiles says nothing."""
        if want == before:
            return max(changed, 0.0)
        unseen = max(-changed, 0.0)
        if want:
            return unseen + disagreement(want, read)
        if not read.content:
            return unseen  # read empty as the state empties it: its look is asked only of tiles read
        filled = self.filled.get(zone)
        return unseen + (max(filled, 0.0) if filled is not None else count_disagreement(0, read))


def tile_kinds(spec: GameSpec, options: dict[str, Any]) -> list[str]:
    """The kinds of tile a deal of the game of ``spec`` with ``options`` may put on a display: its
    colours, and Azul's jokers where they are played (not the first-player marker)."""
    return [t for t in spec.tiles_in_play(options) if t != "first_player"]


def exact_view(state: Any, time: float, misread: dict[str, ZoneRead] | None = None) -> View:
    """The view a good reader gives of ``state``, for the tracker's tests and benchmarks alone:
    every slot read right at 0.99, loose tiles at 0.8 (the centre) to 0.97 (a display), the
    displays on a ring numbered clockwise from the right (display 0 nearest (700, 400)), with
    ``misread`` zones read as they say instead."""
    exp = expected(state)
    spec = state.spec
    layout = spec.layout(state.options)
    zones: dict[Zone, ZoneRead] = {}
    for p in range(state.players):
        for slot in expected_slots(layout):
            zone = Zone.board(p, slot)
            zones[zone] = ZoneRead(exp.get(zone), 0.99)
        zones[Zone.hand(p)] = loose_zone([(t, 0.9) for t in exp[Zone.hand(p)]])
    count = len(state.to_json()["factories"])
    centres = []
    for i in range(count):
        zones[Zone.display(i)] = loose_zone([(t, 0.97) for t in exp[Zone.display(i)]])
        a = 2 * math.pi * i / count
        centres.append((500 + 200 * math.cos(a), 400 + 200 * math.sin(a)))
    zones[Zone.centre()] = loose_zone([(t, 0.8) for t in exp[Zone.centre()]])
    zones.update((Zone.supply(k), ZoneRead(exp.get(Zone.supply(k)), 0.99)) for k in range(spec.supply_spaces))
    zones.update((Zone.parse(z), r) for z, r in (misread or {}).items())
    return View(zones, centres, 0, time)


def weight(confidence: float) -> float:
    """How much a disagreement with a reading at ``confidence`` counts: its log-odds, clipped."""
    c = min(max(confidence, 1e-9), 1.0 - 1e-9)
    return min(max(math.log(c / (1.0 - c)), LEAST_WEIGHT), MOST_WEIGHT)


def disagreement(want: Any, read: ZoneRead) -> float:
    """How much what a state puts in a zone (``want``) disagrees with what was read there: a
    slot read otherwise, its reading's weight; in a zone of loose tiles, each tile read that the
    state lacks (the least sure of its kind first) and each tile of the state not seen. A tile
    read as a kind that this table's tiles of the wanted kind were read as before (``mixups``)
    counts as that mix-up weighs."""
    if not isinstance(read.content, tuple) and not isinstance(want, tuple):
        if want == read.content:
            return 0.0
        return min((w for seen_as, was, w in read.mixups if was == want), default=weight(read.confidence))
    wanted, seen = Counter(want or ()), Counter(read.content or ())
    missing, extra = wanted - seen, seen - wanted
    total = 0.0
    for seen_as, was, w in read.mixups:
        # A tile read as ``seen_as`` where the state has a ``was``: one mix-up, not a tile
        # missing and another too many.
        paired = min(extra[seen_as], missing[was])
        if paired:
            total += paired * w
            extra[seen_as] -= paired
            missing[was] -= paired
    if read.missed:
        unseen = dict(read.missed)
        total += sum(n * unseen.get(kind, weight(read.confidence)) for kind, n in missing.items() if n > 0)
    else:
        total += sum(missing.values()) * weight(read.confidence)
    for name, count in (+extra).items():
        sure = sorted(c for n, c in zip(read.content, read.sureness or (1.0,) * len(read.content)) if n == name)
        total += sum(weight(c) for c in sure[:count])
    return total


def as_changed(seen: tuple[str, ...], was: tuple[str, ...], now: tuple[str, ...]) -> tuple[str, ...]:
    """The tiles read as ``seen`` in a zone of loose tiles that held ``was``, with what ``now``
    adds to it added and what it takes away taken (those read there): what the reader would read
    now if its misreadings there stay as they were."""
    out = Counter(seen) + (Counter(now) - Counter(was))
    out -= Counter(was) - Counter(now)
    return tuple(sorted(out.elements()))


def tiling_ahead(state: Any) -> tuple[int, ...]:
    """In Azul's wall tiling, the players after the one tiling now: on the table players tile
    their walls at once, the record one player after another, so a board whose turn has not come
    may already show its wall as tiled (or not yet)."""
    if state.spec.board != "wall" or state.phase != "tiling":
        return ()
    return tuple(range(state.current_player + 1, state.players))


def count_disagreement(count: int, read: ZoneRead) -> float:
    """How much ``count`` tiles, whatever their colours, disagree with a zone of loose tiles read:
    each tile not seen, and each tile more (the least sure first)."""
    seen = len(read.content)
    if seen <= count:
        return (count - seen) * weight(read.confidence)
    sure = sorted(read.sureness or (1.0,) * seen)
    return sum(weight(c) for c in sure[:seen - count])


def observation_seen(zones: dict[str, ZoneRead], spec: GameSpec, players: int, displays: int) -> dict[str, Any]:
    """The ``azulcam-observation/1`` of what the view's zones hold in the game of ``spec`` (the
    inverse of :func:`~azulcam.engine.observe.expected`): what a game taken up from this view starts from."""
    boards = [{"player": p, "slots": {}, "hand": {}} for p in range(players)]
    factories = [{"center": None, "tiles": []} for _ in range(displays)]
    center: Counter = Counter()
    supply: list[Any] = [None] * spec.supply_spaces
    for zone, read in zones.items():
        p, i = zone.player, zone.index
        if p is not None:
            if p >= players:
                continue
            if zone.kind == HAND:
                boards[p]["hand"] = dict(Counter(read.content))
            elif read.content is not None:
                boards[p]["slots"][zone.slot] = read.content
        elif zone.kind == DISPLAY and i is not None and i < displays:
            factories[i]["tiles"] = list(read.content)
        elif zone.kind == CENTER:
            center.update(read.content)
        elif zone.kind == SUPPLY and i is not None:
            supply[i] = read.content
    return {"game": spec.name, "factories": factories, "center": dict(center), "boards": boards,
            "supply": supply if spec.supply_spaces else None}


def unsure_zones(zones: dict[str, ZoneRead], sure: float) -> list[str]:
    """The zones read at under ``sure``: a slot's reading, or any tile of a loose zone."""
    return sorted(z for z, r in zones.items()
                  if (min(r.sureness) if isinstance(r.content, tuple) and r.sureness else r.confidence) < sure)


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
    spaces = state.spec.supply_spaces
    supply = [zones.get(Zone.supply(n)) for n in range(spaces)]
    supply_read = [s.content for s in supply] if spaces and all(s is not None for s in supply) else None  # type: ignore[union-attr]
    if getattr(state, "phase", "") == "refill":
        if supply_read is None:
            return []
        empty = [n for n, kind in enumerate(state.to_json()["supply"]) if kind is None]
        candidates = [{"refill": {"supply": [supply_read[n] for n in empty]}}]
    else:
        factories = [zones.get(Zone.display(i)) for i in range(displays)]
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
MOST_UNSEEN_DISPLAYS = 3
#: Besides those displays, the takes from the centre before the view (a round's first moves take
#: from the displays: the centre holds only their leftovers), and the ways of splitting the
#: players' tiles into takes tried: beyond them a view is misread, not a deal unseen.
MOST_CENTRE_TAKES = 2
MOST_SPLITS = 64


def taken_by_players(state: Any, zones: dict[str, ZoneRead]) -> list[Counter]:
    """The tiles each player holds in the view that ``state`` does not give them: new on a board
    slot, or more in hand (the first-player marker left out)."""
    exp = expected(state)
    out = []
    for p in range(state.players):
        taken: Counter = Counter()
        for zone, read in zones.items():
            if zone.player != p:
                continue
            if zone.kind == HAND:
                taken += Counter(read.content) - Counter(exp.get(zone, ()))
            elif read.content is not None and exp.get(zone) is None:
                taken[read.content] += 1
        taken.pop("first_player", None)
        out.append(taken)
    return out


def unseen_deals(state: Any, zones: dict[str, ZoneRead], displays: int) -> list[list[list[str]]]:
    """The deals that may have been dealt (``state`` is at a round's start) when the view shows
    displays already taken from: each such display held the tiles one player took (their colour,
    with the jokers or wild tile that came with them: a player's tiles split by colour, as one
    player may have taken twice) and its share of the centre's. Up to
    :data:`MOST_UNSEEN_DISPLAYS` of them; none where the centre holds tiles no display can have
    left there."""
    factories = [zones[Zone.display(i)].content for i in range(displays)]
    short = [i for i, tiles in enumerate(factories) if len(tiles) < 4]
    if not short or len(short) > MOST_UNSEEN_DISPLAYS:
        return []
    centre = Counter(zones[Zone.centre()].content) if Zone.centre() in zones else Counter()
    centre.pop("first_player", None)
    spec = state.spec
    if spec.wild_tiles:  # wild tiles of their own (Azul's jokers, where played): a take brings every one there
        wild, one_wild = next((t for t in spec.tiles_in_play(state.options) if t in spec.wild_tiles), None), False
    else:  # the round's wild colour (Summer Pavilion): one comes with a take of another colour
        wild, one_wild = state.wild, True
    splits = [_takes(t, wild, one_wild) for t in taken_by_players(state, zones) if t]
    out: list[list[list[str]]] = []
    for split in itertools.islice(itertools.product(*splits), MOST_SPLITS):
        takes = [t for player_takes in split for t in player_takes]
        if len(takes) > len(short) + MOST_CENTRE_TAKES:
            continue  # more takes than the displays and a few from the centre: a view misread
        for order in itertools.permutations(takes, len(short)):
            _deal_from(order, short, factories, centre, out)
    return out


def _takes(tiles: Counter, wild: str | None, one_wild: bool) -> list[list[Counter]]:
    """The ways one player's new tiles split into takes: a colour each, with the wild tiles (Azul
    jokers, the Summer Pavilion round's wild colour: at most one a take) shared among them; wild
    tiles left over were a take of their own."""
    colours = sorted(c for c in tiles if c != wild)
    w = tiles.get(wild, 0) if wild is not None else 0
    out = []
    for share in itertools.product(range(min(w, 1 if one_wild else w) + 1), repeat=len(colours)):
        if sum(share) > w:
            continue
        takes = [Counter({c: tiles[c], **({wild: k} if k else {})}) for c, k in zip(colours, share)]
        if w > sum(share):
            takes.append(Counter({wild: w - sum(share)}))
        out.append(takes)
    return out


def _deal_from(order: tuple[Counter, ...], short: list[int], factories: list[Any], centre: Counter,
               out: list[list[list[str]]]) -> None:
    """Add to ``out`` each deal in which display ``short[i]`` held take ``order[i]``, what is left
    of it, and a share of the centre."""
    needs = [4 - len(factories[i]) - sum(t.values()) for i, t in zip(short, order)]
    if any(n < 0 for n in needs) or sum(needs) != sum(centre.values()):
        return
    for shares in _shares(centre, needs):
        deal = [list(tiles) for tiles in factories]
        for i, take, share in zip(short, order, shares):
            deal[i] = sorted([*factories[i], *take.elements(), *share.elements()])
        if deal not in out:
            out.append(deal)


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
        after.play_unchecked(move)  # a legal move: the checked play would look for it among them again
        out.append(({"player": player, "move": move.to_json()}, after))
    return out


def cost_of(state: Any, zones: dict[str, ZoneRead], reference: dict[str, ZoneRead] | None,
            committed: dict[str, Any] | None, changes: Changes | None = None, behind_only: bool = False
            ) -> tuple[float, list[str]]:
    """How far ``state``'s table lies from what is seen, and where (:func:`zone_cost`, each zone
    of the view). ``behind_only``: the boards :func:`tiling_ahead` names are left out."""
    exp = expected(state)
    total, where = 0.0, []
    ahead = tiling_ahead(state) if behind_only else ()
    for zone, read in zones.items():
        if ahead and zone.player in ahead:
            continue
        d = zone_cost(zone, read, exp.get(zone, empty_content(zone)), exp, reference, committed, changes)
        if d:
            total += d
            where.append(zone)
    return total, where


def zone_cost(zone: Zone, read: ZoneRead, want: Any, exp: dict[str, Any], reference: dict[str, ZoneRead] | None,
              committed: dict[str, Any] | None, changes: Changes | None) -> float:
    """How far what a state puts in ``zone`` (``want``; ``exp``: all it puts) lies from what was
    seen there. Where the zone's change is measured (``changes``), by what changed
    (:meth:`Changes.cost`). Elsewhere by what was read: a zone that reads as it read in the last
    explained view (``reference``) and that the state leaves as the committed state had it
    (``committed``) says nothing: a misreading that lasts is not evidence of a change. A display
    the state leaves as dealt is weighed by its count of tiles alone. Depends on no other zone
    than ``zone`` and its neighbours (:attr:`Changes.near`): :class:`ViewCost` counts on it."""
    if changes is not None and zone in changes.log_odds:
        return changes.cost(zone, want, read, exp)
    if want == read.content:
        return 0.0  # agrees: nothing to weigh (most zones, most of the time)
    if committed is not None and want and zone.kind == DISPLAY and committed.get(zone) == want:
        # A display holds what its deal put there until it is taken: the engine knows its
        # colours, so the camera is asked only whether its tiles are still there.
        return count_disagreement(len(want), read)
    before = reference.get(zone) if reference is not None and committed is not None else None
    if before is not None and before.content == read.content and committed.get(zone, empty_content(zone)) == want:  # type: ignore[union-attr]
        return 0.0
    d = disagreement(want, read)
    if d and before is not None and isinstance(want, tuple) and zone.kind != DISPLAY:
        # The centre or a hand: weighed also by its change, what was read there at the last
        # view explained changed as the state changes it (a printed cloth or a hidden tile
        # read alike in both views says nothing); the nearer of the two.
        d = min(d, disagreement(as_changed(before.content, committed.get(zone, ()), want), read))  # type: ignore[union-attr]
    return d


class ViewCost:
    """:func:`cost_of` for the many states a search weighs against one view: each zone is weighed
    once for the committed state (``committed``), and for a state again only where the state
    puts something else there or beside it (:func:`zone_cost` looks no further)."""

    def __init__(self, zones: dict[str, ZoneRead], reference: dict[str, ZoneRead] | None, committed: dict[str, Any],
                 changes: Changes | None = None) -> None:
        self.zones, self.reference, self.committed, self.changes = zones, reference, committed, changes
        # The view's own zones in its order, whatever names a state's table gives them.
        self.names = list(zones)
        self.order = {zone: n for n, zone in enumerate(zones)}
        # Which zones' weights depend on each zone's content: itself, and the measured zones it lies beside.
        self.watching: dict[str, set[str]] = {}
        for zone, near in (changes.near.items() if changes is not None else ()):
            if zone in zones and zone in changes.log_odds:  # type: ignore[union-attr]
                for n in near:
                    self.watching.setdefault(n, set()).add(zone)
        self.costs = {zone: zone_cost(zone, read, committed.get(zone, empty_content(zone)), committed, reference,
                                      committed, changes) for zone, read in zones.items()}
        self.total = sum(self.costs.values())
        self.alone: dict[tuple[str, Any], float] = {}

    def __call__(self, state: Any) -> tuple[float, list[str]]:
        exp = expected(state)
        base = self.committed
        changed = {z for z in exp.keys() | base.keys() if exp.get(z) != base.get(z)}
        if not changed:
            return self.total, [z for z, d in self.costs.items() if d]
        again = {z for z in changed if z in self.zones}
        for z in changed:
            again |= self.watching.get(z, set())
        total, costs = self.total, {}
        measured = self.changes.log_odds if self.changes is not None else {}
        for n in sorted(self.order[z] for z in again):  # in the view's order: the same sum in every run
            zone = self.names[n]
            want = exp.get(zone, empty_content(zone))
            if zone in measured:
                d = zone_cost(zone, self.zones[zone], want, exp, self.reference, base, self.changes)
            else:  # weighed by its own content alone: once for each content any state gives it
                key = (zone, want)
                d = self.alone.get(key)
                if d is None:
                    d = self.alone[key] = zone_cost(zone, self.zones[zone], want, exp, self.reference, base, self.changes)
            total += d - self.costs[zone]
            costs[zone] = d
        return total, [z for z, d in self.costs.items() if (costs[z] if z in costs else d)]


def explain(state: Any, zones: dict[str, ZoneRead], displays: int, reference: dict[str, ZoneRead] | None = None,
            committed: dict[str, Any] | None = None, most_events: int | None = None, beam: int | None = None,
            changes: Changes | None = None) -> list[Explanation]:
    """Every explanation of the view tried from ``state``, best first: no event at all, then
    sequences of up to ``most_events`` events, the longer ones grown from the ``beam`` best
    shorter ones (by default :data:`BEAM`, :data:`BEAM_AFTER_A_GAP` for more than
    :data:`MOST_EVENTS` events) while
    the best so far disagrees with the view by more than :data:`CLOSE_FIT`. ``reference`` and
    ``committed``, ``changes``: see :func:`cost_of` (by default, the state's own table)."""
    if committed is None:
        committed = expected(state)
    weigh = ViewCost(zones, reference, committed, changes)
    cost, where = weigh(state)
    tried = [Explanation([], state, cost, where)]
    frontier = tried
    chain = MOST_EVENTS[state.spec.board]
    most_events = chain if most_events is None else most_events
    long = most_events > chain
    lasting = lasting_zones(state, zones) if long else set()
    for _ in range(most_events + MOST_WALL_CHOICES):
        grown = []
        for parent in frontier:
            wrong = set(parent.mismatches)
            for event, after in successors(parent.state, zones, displays):
                events = parent.events + [event]
                if charged(events) > most_events:
                    continue
                cost, where = weigh(after)
                if "move" in event and any(z in lasting and z not in wrong for z in where):
                    # Many events in a row: only moves that leave no zone that only a deal
                    # refills further from the view, or the search drowns.
                    continue
                grown.append(Explanation(events, after, cost + EVENT_COST * charged(events), where))
        grown.sort(key=lambda e: e.cost)
        tried += grown
        best = min(tried, key=lambda e: e.cost)
        if not grown or best.cost - EVENT_COST * charged(best.events) <= CLOSE_FIT:
            break
        kept = beam or (BEAM if not long else BEAM_AFTER_A_GAP)
        frontier = unique_states(grown[:4 * kept])[:kept]  # moves in another order reach the same state
    tried.sort(key=lambda e: (e.cost, len(e.events)))
    return tried


def lasting_zones(state: Any, zones: dict[str, ZoneRead]) -> set[str]:
    """The zones of the view that events between ``state`` and the view cannot take further from
    it once they agree: a display (a display read as it is now was not taken from); a board space
    where a tile, once laid, stays: an Azul wall space or a Summer Pavilion star space for ever,
    an Azul pattern line or floor space until the round's end, so only where the view shows no
    wall tile that ``state`` lacks (no round ended on the way)."""
    exp = expected(state)
    same_walls = all(exp.get(z) == r.content for z, r in zones.items() if z.slot is not None and z.slot.kind == WALL_SPACE)
    out = set()
    for zone in zones:
        if zone.kind == DISPLAY:
            out.add(zone)  # emptied when taken from, filled again only by a deal that the view shows
            continue
        if zone.slot is None:
            continue
        if zone.slot.kind in (WALL_SPACE, STAR_SPACE):
            out.add(zone)
        elif zone.slot.kind in (LINE_SPACE, FLOOR_SPACE) and same_walls:
            out.add(zone)
    return out


def common_prefix(paths: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The events all ``paths`` begin with."""
    out: list[dict[str, Any]] = []
    for events in zip(*paths):
        if any(e != events[0] for e in events[1:]):
            break
        out.append(events[0])
    return out


def points_apart(a: Any, b: Any) -> list[int]:
    """The players whose points differ between states ``a`` and ``b`` where nothing else does (the
    table, the hidden tiles, who is to move), else []: no view can tell such states apart, as
    the camera does not read the score track."""
    ja, jb = a.to_json(), b.to_json()
    apart = [p for p, (x, y) in enumerate(zip(ja["boards"], jb["boards"])) if x["score"] != y["score"]]
    for board in ja["boards"] + jb["boards"]:
        for key in ("score", "placement", "penalties"):
            board.pop(key)
    for state in (ja, jb):
        state.pop("last_round_end", None)  # Azul's check for a stalled game: a hash of the scores too
    return apart if ja == jb else []


