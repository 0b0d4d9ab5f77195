"""Where every component of a game lies on the table, in millimetres: the renderer's world.

An :class:`Arrangement` places the boards, factory displays, centre area and (Summer Pavilion)
the scoring board around the table, with the small disorder of a real table. A :class:`Table`
adds every visible tile of an engine state as an :class:`Item` in a *zone*, named as the
observation names it (``factories.3``, ``center``, ``boards.0.wall.2.1``, ``boards.1.hand``,
``supply.4``). :func:`observation` turns a table into the ``azulcam-observation/1`` that a
perfect reader would print, so the truth of every rendered image comes from the same items
that were drawn.

World coordinates: x to the right, y towards player 0's seat, z into the table (millimetres,
origin at the table's centre), so that the frame is right-handed like OpenCV's camera frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..calibration.layouts import Layout, load_layout
from ..engine.games import GAMES, GameSpec
from ..engine.zones import CENTER, DISPLAY, SLOT, SUPPLY, Slot, Zone
from ..calibration import geometry as geo
from ..calibration.geometry import BOARD_HEIGHT_MM, FACTORY_HEIGHT_MM, factory_diameter, tile_mm

Point = tuple[float, float]


def rotate(x: float, y: float, angle_deg: float) -> Point:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    return x * c - y * s, x * s + y * c


@dataclass(frozen=True)
class Piece:
    """A board on the table: its layout, centre (mm), rotation (degrees, clockwise on the
    table as seen from above) and owner (``None`` for the scoring board)."""

    layout: Layout
    x: float
    y: float
    angle: float
    player: int | None

    @property
    def size(self) -> Point:
        return self.layout.size_mm

    def to_world(self, fx: float, fy: float) -> Point:
        """Board fractions (origin top left as the owner sees it) -> table millimetres."""
        w, h = self.size
        dx, dy = rotate((fx - 0.5) * w, (fy - 0.5) * h, self.angle)
        return self.x + dx, self.y + dy

    def corners(self) -> list[Point]:
        return [self.to_world(fx, fy) for fx, fy in ((0, 0), (1, 0), (1, 1), (0, 1))]

    def zone(self, slot_id: str) -> Zone:
        """The zone of this board's slot ``slot_id``: a slot of a player's board, or a supply space
        of the scoring board."""
        return Zone.of_slot(self.player, slot_id)

    def slot_center(self, slot_id: str) -> Point:
        return self.to_world(*self.layout[slot_id].center)

    def slot_angle(self, slot_id: str) -> float:
        """How far a tile on the slot is turned on the table (degrees): the board's turn plus the
        slot's own (a Summer Pavilion space points away from its star's centre)."""
        poly = self.layout[slot_id].polygon
        if len(poly) != 4:
            return self.angle
        w, h = self.size
        d1 = ((poly[2][0] - poly[0][0]) * w, (poly[2][1] - poly[0][1]) * h)
        d2 = ((poly[3][0] - poly[1][0]) * w, (poly[3][1] - poly[1][1]) * h)
        dx, dy = d1 if math.hypot(*d1) >= math.hypot(*d2) * 1.01 else (0.0, 1.0)  # squares need no turn
        return self.angle + math.degrees(math.atan2(-dx, dy))


@dataclass(frozen=True)
class Arrangement:
    """Where the components lie on one table (mm), before any tile is placed."""

    game: str
    players: int
    boards: tuple[Piece, ...]
    scoring: Piece | None
    factories: tuple[Point, ...]
    factory_angles: tuple[float, ...]
    center: Point
    center_radius: float
    #: For each player, the strip where the tiles next to the board lie: (x, y, angle, width, depth).
    hand_zones: tuple[tuple[float, float, float, float, float], ...]

    @property
    def spec(self) -> GameSpec:
        return GAMES[self.game]

    def outline_points(self) -> list[Point]:
        """Points around everything on the table (board corners, discs, hand strips), in mm."""
        pts = [p for b in self.all_boards() for p in b.corners()]
        r = factory_diameter(self.spec) / 2
        pts += [(x + dx, y + dy) for x, y in self.factories for dx, dy in ((-r, -r), (r, r), (-r, r), (r, -r))]
        for x, y, a, w, d in self.hand_zones:
            pts += [(x + px, y + py) for px, py in (rotate(-w / 2, -d / 2, a), rotate(w / 2, d / 2, a),
                                                     rotate(-w / 2, d / 2, a), rotate(w / 2, -d / 2, a))]
        return pts

    def extent(self) -> tuple[float, float, float, float]:
        """Bounding box (x0, y0, x1, y1) of everything on the table, in mm."""
        xs, ys = zip(*self.outline_points())
        return min(xs), min(ys), max(xs), max(ys)

    def all_boards(self) -> tuple[Piece, ...]:
        return self.boards + ((self.scoring,) if self.scoring else ())


def arrange(game: str, players: int, layout_name: str, rng: np.random.Generator) -> Arrangement:
    """A random but plausible table: boards at the players' seats (player 0 nearest the bottom,
    then clockwise), each turned a little; factory displays in a ring around the centre."""
    spec = GAMES[game]
    layout = load_layout(layout_name)
    n_factories = spec.factories[players]
    diameter = factory_diameter(spec)
    ring = max(115.0, n_factories * (diameter + 16) / (2 * math.pi)) + rng.uniform(0, 15)
    ring_turn = rng.uniform(0, 360)
    factories, angles = [], []
    for i in range(n_factories):
        a = math.radians(ring_turn + 360.0 * i / n_factories)
        jitter = rng.normal(0, 3, 2)
        factories.append((ring * math.cos(a) + jitter[0], ring * math.sin(a) + jitter[1]))
        angles.append(float(rng.uniform(0, 360)))
    w, h = layout.size_mm
    hand_depth = 70.0 if spec.holds_tiles else 0.0  # the strip where held tiles lie, in front of the board
    seat_distance = ring + diameter / 2 + 25 + hand_depth + h / 2
    # Seats clockwise as seen from above: bottom, left, top, right.
    seat_dirs = {2: (90, 270), 3: (90, 180, 270), 4: (90, 180, 270, 0)}[players]
    pieces, hands = [], []
    for p, deg in enumerate(seat_dirs):
        d = math.radians(deg)
        dx, dy = math.cos(d), math.sin(d)
        angle = math.degrees(math.atan2(-dx, dy)) + rng.normal(0, 4)
        dist = seat_distance + rng.uniform(0, 25)
        along = rng.normal(0, 12)
        x, y = dx * dist - dy * along, dy * dist + dx * along
        piece = Piece(layout, x, y, angle, p)
        pieces.append(piece)
        if spec.holds_tiles:  # the tiles a player holds lie in front of the board, towards the centre
            hx, hy = piece.to_world(0.5, -hand_depth / 2 / h - 0.03)
            hands.append((hx, hy, angle, w * 0.9, hand_depth - 10))
        else:  # Azul: only the first-player marker, once the game is over, lies beside the board
            hx, hy = piece.to_world(1.0 + 30 / w, 0.8)
            hands.append((hx, hy, angle, 40.0, 60.0))
    scoring = None
    if spec.scoring_layout is not None:
        scoring_layout = load_layout(spec.scoring_layout)
        sh = scoring_layout.size_mm[1]
        if players < 4:  # the free side of the table, right of the factories
            dist = ring + diameter / 2 + 30 + sh / 2
            scoring = Piece(scoring_layout, dist + rng.normal(0, 10), rng.normal(0, 15), -90 + rng.normal(0, 5), None)
        else:  # a corner of the table between two players
            c = seat_distance - 20 + rng.uniform(0, 15)  # clear of the top and right boards
            scoring = Piece(scoring_layout, c, -c, -135 + rng.normal(0, 5), None)
    center_radius = ring - diameter / 2 - 8
    return Arrangement(game, players, tuple(pieces), scoring, tuple(factories), tuple(angles),
                       (float(rng.normal(0, 4)), float(rng.normal(0, 4))), center_radius, tuple(hands))


@dataclass(frozen=True)
class Item:
    """One tile (or marker) on the table: what it is, the zone it belongs to (``None`` while a hand
    carries it), where its centre lies (mm), its rotation (degrees) and the height it rests on (a
    board, a disc)."""

    kind: str
    zone: Zone | None
    x: float
    y: float
    angle: float
    base: float = 0.0


@dataclass(frozen=True)
class Marker:
    """An Azul score marker: a cube on the cell ``cell`` of player ``player``'s score track, its
    centre (mm), its turn (degrees) and the height it rests on (the board's top)."""

    player: int
    cell: int
    x: float
    y: float
    angle: float
    base: float = BOARD_HEIGHT_MM

    @property
    def zone(self) -> Zone:
        return Zone.score(self.player)


@dataclass
class Table:
    """An arrangement with every tile of one game position on it, and Azul's score markers."""

    arrangement: Arrangement
    items: list[Item] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.arrangement.game

    @property
    def spec(self) -> GameSpec:
        return self.arrangement.spec

    @property
    def factory_zones(self) -> tuple[Zone, ...]:
        """Zones of the factory displays, in factory order, empty ones included."""
        return tuple(Zone.display(i) for i in range(len(self.arrangement.factories)))


# --------------------------------------------------------------------------- what lies where


def zone_contents(state: Any) -> dict[Zone, list[str]]:
    """Every zone of a position and the tiles in it, as a perfect observer would list them:
    ``{"factories.0": [...], "center": [...], "boards.0.wall.0.0": ["blue"], "boards.0.hand": [...],
    "supply.3": ["red"]}``. Board slots hold one tile; factories, the centre and hands hold many."""
    data = state.to_json()
    out: dict[Zone, list[str]] = {}
    for i, tiles in enumerate(data["factories"]):
        out[Zone.display(i)] = list(tiles)
    center = [name for name, n in data["center"].items() for _ in range(n)]
    out[Zone.centre()] = center
    if state.spec.board == "wall":  # pattern lines, a wall and a floor line, and the first-player marker
        if data["marker"] == "center":
            center.append("first_player")
        for p, b in enumerate(data["boards"]):
            for r, line in enumerate(b["lines"]):
                tiles = [line["color"]] * line["count"] + ["joker"] * line["jokers"]
                for i, t in enumerate(tiles):
                    out[Zone.board(p, Slot.line(r, i))] = [t]
            for r, row in enumerate(b["wall"]):
                for c, t in enumerate(row):
                    if t is not None:
                        out[Zone.board(p, Slot.wall(r, c))] = [t]
            for i, t in enumerate(b["floor"]):
                out[Zone.board(p, Slot.floor(i))] = [t]
            on_floor = "first_player" in b["floor"]
            out[Zone.hand(p)] = ["first_player"] if data["marker"] == p and not on_floor else []
    else:
        if data["token"] == "center":
            center.append("first_player")
        for p, b in enumerate(data["boards"]):
            for space, color in b["spaces"].items():
                out[Zone.board(p, space)] = [color]
            for i, color in enumerate(b["corners"]):
                out[Zone.board(p, Slot.corner(i))] = [color]
            hand = [name for name, n in b["hand"].items() for _ in range(n)]
            if data["token"] == p:
                hand.append("first_player")
            out[Zone.hand(p)] = hand
        for i, color in enumerate(data["supply"]):
            if color is not None:
                out[Zone.supply(i)] = [color]
    return out


def build_table(arrangement: Arrangement, contents: dict[Zone, list[str]], rng: np.random.Generator,
                previous: Table | None = None) -> Table:
    """Lay the tiles of ``contents`` (from :func:`zone_contents`) on ``arrangement``.

    Tiles on board slots sit on their slot, a little off true; tiles on a factory sit in a loose
    square; loose tiles in the centre and next to the boards lie rotated and touching. With
    ``previous`` (the table one event earlier), every tile still in its zone keeps its place, so
    that a video shows only the tiles that moved move.
    """
    kept: dict[Zone | None, list[Item]] = {}
    if previous is not None:
        for item in previous.items:
            kept.setdefault(item.zone, []).append(item)
    items: list[Item] = []
    boards = {b.player: b for b in arrangement.boards}
    size = tile_mm(arrangement.spec)
    for zone, tiles in contents.items():
        if not tiles:
            continue
        old = kept.get(zone, [])
        if old and sorted(i.kind for i in old) == sorted(tiles) and zone.kind in (DISPLAY, SUPPLY):
            items += old  # factories and the supply: unchanged zones stay exactly as they were
            continue
        if zone.kind == DISPLAY:
            assert zone.index is not None
            items += _factory_items(arrangement, zone.index, tiles, rng)
        elif zone.kind == SUPPLY:
            assert arrangement.scoring is not None and zone.index is not None
            space = Slot.supply(zone.index)
            x, y = arrangement.scoring.slot_center(space)
            jitter = rng.normal(0, 0.6, 3)
            items.append(Item(tiles[0], zone, x + jitter[0], y + jitter[1], arrangement.scoring.slot_angle(space) + jitter[2],
                              BOARD_HEIGHT_MM))
        elif zone.loose:  # the centre and the tiles beside a board
            items += _loose_items(arrangement, zone, tiles, old, rng, size)
        else:
            assert zone.player is not None and zone.slot is not None
            slot = zone.slot
            same = [i for i in old if i.kind == tiles[0]]
            if same:
                items.append(same[0])
                continue
            piece = boards[zone.player]
            x, y = piece.slot_center(slot)
            jitter = rng.normal(0, 0.5, 3)
            items.append(Item(tiles[0], zone, x + jitter[0], y + jitter[1], piece.slot_angle(slot) + 2.0 * jitter[2],
                              BOARD_HEIGHT_MM))
    return Table(arrangement, items)


def score_markers(arrangement: Arrangement, cells: list[int], rng: np.random.Generator) -> list[Marker]:
    """Each Azul player's score marker on the cell ``cells[player]`` of their board's track, a
    little off its middle and turned, as a hand puts it down; none in Summer Pavilion."""
    if not arrangement.spec.score_track:
        return []
    out = []
    for piece in arrangement.boards:
        assert piece.player is not None
        cell = np.asarray(piece.layout.track[cells[piece.player]], np.float64)
        x, y = piece.to_world(*cell.mean(axis=0))
        jitter = rng.normal(0.0, (0.8, 0.8, 6.0))
        out.append(Marker(piece.player, cells[piece.player], x + jitter[0], y + jitter[1], piece.angle + jitter[2]))
    return out


def _factory_items(arr: Arrangement, index: int, tiles: list[str], rng: np.random.Generator) -> list[Item]:
    fx, fy = arr.factories[index]
    turn = arr.factory_angles[index] + rng.normal(0, 10)
    out = []
    order = rng.permutation(len(tiles))
    # The tiles' shape decides how four of them lie on a display, and how loose.
    square = arr.spec.shape == "square"
    if square:
        offsets = [(-0.52, -0.52), (0.52, -0.52), (0.52, 0.52), (-0.52, 0.52)]
        spacing, spin = geo.AZUL_TILE_MM, 0.0
    else:  # four rhombuses as a pinwheel, long diagonals pointing out from the disc's centre
        offsets = [(0.0, -0.62), (0.62, 0.0), (0.0, 0.62), (-0.62, 0.0)]
        spacing, spin = geo.PAVILION_TILE_SIDE_MM * 1.4, 90.0
    # A loose cluster, as hands leave it on a real display: two by two over the middle, the gaps
    # between tiles anywhere from none to a third of a tile, each tile a little off and turned;
    # on a display that size, one may reach over the band of its print.
    # (Summer Pavilion's rhombuses reach the disc's rim already: their pinwheel stays close.)
    # Drawn apart from the table's own stream (seeded by the display's turn), so that a seed lays
    # the same table, camera and hands as before displays had their real size.
    spread = np.random.default_rng(int(arr.factory_angles[index] * 1e6)).uniform(1.0, 1.35 if square else 1.08)
    off, twist = (1.8, 8.0) if square else (1.0, 6.0)  # each tile's own offset (mm) and turn (degrees)
    for k, n in enumerate(order):
        ox, oy = offsets[k % 4]
        dx, dy = rotate(ox * spacing * spread, oy * spacing * spread, turn)
        jitter = rng.normal(0, 1.0, 3)
        out.append(Item(tiles[n], Zone.display(index), fx + dx + off * jitter[0], fy + dy + off * jitter[1],
                        turn + k * spin + twist * jitter[2], FACTORY_HEIGHT_MM))
    return out


def _loose_items(arr: Arrangement, zone: Zone, tiles: list[str], old: list[Item], rng: np.random.Generator,
                 tile_mm: float) -> list[Item]:
    """Loose tiles, rotated and often touching: those of ``old`` that are still there keep their
    place; the rest are dropped near the others without overlapping them."""
    remaining = list(tiles)
    out: list[Item] = []
    for item in old:
        if item.kind in remaining:
            remaining.remove(item.kind)
            out.append(item)
    if zone.kind == CENTER:
        (cx, cy), radius, turn, half = arr.center, arr.center_radius, 0.0, None
    else:
        assert zone.player is not None
        cx, cy, turn, width, depth = arr.hand_zones[zone.player]
        radius, half = 0.0, (width / 2, depth / 2)
    # How far apart two touching tiles' centres lie, in tile widths: their shape decides it.
    gap = tile_mm * (1.05 if arr.spec.shape == "square" else 1.25)
    for kind in remaining:
        for attempt in range(400):
            grow = 1.0 + attempt / 150  # a crowded area spreads out rather than stacking tiles
            if out and rng.random() < 0.6:  # touching a tile already there
                base = out[int(rng.integers(len(out)))]
                a = rng.uniform(0, 2 * math.pi)
                x, y = base.x + gap * math.cos(a), base.y + gap * math.sin(a)
            elif half is None:
                r, a = radius * grow * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
                x, y = cx + r * math.cos(a), cy + r * math.sin(a)
            else:
                lx, ly = rng.uniform(-half[0], half[0]), rng.uniform(-half[1], half[1]) * grow
                dx, dy = rotate(lx, ly, turn)
                x, y = cx + dx, cy + dy
            if half is None:
                inside = math.hypot(x - cx, y - cy) <= radius * grow
            else:
                lx, ly = rotate(x - cx, y - cy, -turn)
                inside = abs(lx) <= half[0] and abs(ly) <= half[1] * grow
            if inside and all(math.hypot(x - o.x, y - o.y) >= gap * 0.98 for o in out):
                break
        out.append(Item(kind, zone, x, y, float(rng.uniform(0, 360)), 0.0))
    return out


# --------------------------------------------------------------------------- observation


def observation(table: Table, contents: dict[Zone, list[str]], project: Callable[[list[Point]], np.ndarray],
                warnings: list[str] | None = None) -> dict[str, Any]:
    """The ``azulcam-observation/1`` of a table whose zones hold ``contents``; ``project`` maps
    table millimetres to image pixels (for the factory centres)."""
    arr = table.arrangement
    order = {name: i for i, name in enumerate(arr.spec.tiles)}
    sort = lambda tiles: sorted(tiles, key=order.__getitem__)  # noqa: E731
    centers = project(list(arr.factories))
    factories = [{"center": [round(float(u), 1), round(float(v), 1)], "tiles": sort(contents.get(z, []))}
                 for z, (u, v) in zip(table.factory_zones, centers)]
    center: dict[str, int] = {}
    for t in sort(contents.get(Zone.centre(), [])):
        center[t] = center.get(t, 0) + 1
    boards = []
    for p in range(arr.players):
        slots = {z.slot: tiles[0] for z, tiles in contents.items() if z.kind == SLOT and z.player == p and tiles}
        hand: dict[str, int] = {}
        for t in sort(contents.get(Zone.hand(p), [])):
            hand[t] = hand.get(t, 0) + 1
        layout = arr.boards[p].layout
        boards.append({"player": p, "slots": {s: slots[s] for s in layout.ids if s in slots}, "hand": hand})
    for marker in table.markers:
        boards[marker.player]["score"] = marker.cell
    supply = None
    if arr.spec.supply_spaces:
        supply = [(contents.get(Zone.supply(i)) or [None])[0] for i in range(arr.spec.supply_spaces)]
    return {"format": "azulcam-observation/1", "game": arr.game, "factories": factories, "center": center,
            "boards": boards, "supply": supply, "uncertain": [], "warnings": list(warnings or [])}


def contents_of(table: Table) -> dict[Zone, list[str]]:
    """The zones of a drawn table and their tiles (what :func:`zone_contents` gave, as laid; the
    tiles a hand carries lie in none)."""
    out: dict[Zone, list[str]] = {z: [] for z in table.factory_zones}
    out.setdefault(Zone.centre(), [])
    for item in table.items:
        if item.zone is not None:
            out.setdefault(item.zone, []).append(item.kind)
    return out


