"""The sizes of the game components, as calibration owns them: the boards, the tiles and the
factory displays, and the boards' slots as geometry.

Measurements come from ``docs/boards.md`` (retail copies) and, for Summer Pavilion,
from the engine's topology (:mod:`azulcam.engine.pavilion_board`), so that the shipped
layouts and the renderer share one description. :func:`build_layouts` writes the layout
files of ``calibration/layouts/``; the reader, the renderer and the follower ask a game's
sizes of :func:`board_mm`, :func:`tile_mm`, :func:`tile_height` and :func:`factory_diameter`
with its spec (:class:`azulcam.engine.games.GameSpec`).
"""

from __future__ import annotations

from pathlib import Path

from .layouts import LAYOUT_NAMES, Layout, Slot, load_layout
from ..engine import pavilion_board as topo
from ..engine.azul import COLORS as AZUL_COLORS, FLOOR_PENALTIES, SCORE_TRACK_TOP, wall_color
from ..engine.games import AZUL, PAVILION, GameSpec
from ..engine.zones import Slot as SlotId

# --------------------------------------------------------------------------- sizes in millimetres

AZUL_BOARD_MM = (250.0, 250.0)
PAVILION_BOARD_MM = (270.0, 270.0)
SCORING_BOARD_MM = (360.0, 240.0)
#: Azul tiles: squares about 2 cm across and 0.7 cm thick.
AZUL_TILE_MM = 20.0
AZUL_TILE_HEIGHT_MM = 7.0
#: Summer Pavilion tiles: a 60-degree rhombus the size of a board space (side = star radius / sqrt 3).
PAVILION_TILE_SIDE_MM = topo.STAR_RADIUS / 3 ** 0.5 * PAVILION_BOARD_MM[0]
PAVILION_TILE_HEIGHT_MM = 6.0
#: Factory displays: cardboard discs about 3.6 tiles across (3.5 to 3.7 measured on real ones),
#: four tiles in a loose cluster over the middle.
FACTORY_DIAMETER_MM = 3.6 * AZUL_TILE_MM
#: Azul's score markers: black cubes about 8 mm on a side, one on each player's score track.
SCORE_MARKER_MM = 8.0
#: How far a board's and a factory display's top lie above the table.
BOARD_HEIGHT_MM = 2.5
FACTORY_HEIGHT_MM = 2.0

#: A tile's width, height and its factory display's diameter, by the tiles' shape (``spec.shape``):
#: each game's tiles are of one shape, cut to its own size (Azul's squares, Summer Pavilion's
#: rhombuses). Summer Pavilion's rhombuses are longer than Azul's squares: four need a wider disc.
_TILE_MM = {"square": AZUL_TILE_MM, "rhombus": PAVILION_TILE_SIDE_MM}
_TILE_HEIGHT_MM = {"square": AZUL_TILE_HEIGHT_MM, "rhombus": PAVILION_TILE_HEIGHT_MM}
_FACTORY_DIAMETER_MM = {"square": FACTORY_DIAMETER_MM, "rhombus": 2.0 * PAVILION_TILE_SIDE_MM * 1.62}


def board_mm(spec: GameSpec) -> tuple[float, float]:
    """A player board's printed ``(width, height)`` in millimetres, as its shipped layouts give it
    (``size_mm``). Raises ValueError where the faces' layouts differ in size (then a board's size
    is its own layout's, ``load_layout(spec.layout(options)).size_mm``)."""
    sizes = {load_layout(name).size_mm for name in spec.layouts}
    if len(sizes) > 1:
        raise ValueError(f"the boards of {spec.title} differ in size by face ({', '.join(spec.layouts)}): "
                         "ask the layout of the face played")
    return load_layout(spec.layouts[0]).size_mm


def tile_mm(spec: GameSpec) -> float:
    """A tile's width (Azul's square side, Summer Pavilion's rhombus side)."""
    return _TILE_MM[spec.shape]


def tile_height(spec: GameSpec) -> float:
    """How far a tile's top face lies above what it stands on."""
    return _TILE_HEIGHT_MM[spec.shape]


def factory_diameter(spec: GameSpec) -> float:
    """A factory display's diameter."""
    return _FACTORY_DIAMETER_MM[spec.shape]


# --------------------------------------------------------------------------- Azul board (docs/boards.md)

AZUL_PITCH = 0.0874  # wall x 0.519..0.956 in five cells
AZUL_WALL_X0, AZUL_WALL_Y0 = 0.519, 0.344
AZUL_LINES_X1 = 0.481  # every pattern line ends here
AZUL_CELL = 0.080  # printed cell inside its pitch
AZUL_FLOOR_X0, AZUL_FLOOR_PITCH, AZUL_FLOOR_Y0 = 0.03, 0.0957, 0.858


#: The score track: five rows of 20 cells (1-20, ..., 81-100) across the top band, and a separate
#: 0 cell above the first row's first cell.
AZUL_TRACK_X0, AZUL_TRACK_X1, AZUL_TRACK_Y0, AZUL_TRACK_Y1 = 0.044, 0.956, 0.06, 0.31
AZUL_TRACK_ZERO_Y0 = 0.026


def azul_track() -> tuple[tuple[tuple[float, float], ...], ...]:
    """The score track's cells (board fractions), the cell of score ``n`` at index ``n`` (0..100)."""
    cw = (AZUL_TRACK_X1 - AZUL_TRACK_X0) / 20
    ch = (AZUL_TRACK_Y1 - AZUL_TRACK_Y0) / 5
    cells = [((AZUL_TRACK_X0, AZUL_TRACK_ZERO_Y0), (AZUL_TRACK_X0 + cw, AZUL_TRACK_ZERO_Y0),
              (AZUL_TRACK_X0 + cw, AZUL_TRACK_Y0), (AZUL_TRACK_X0, AZUL_TRACK_Y0))]
    for n in range(1, SCORE_TRACK_TOP + 1):
        r, c = divmod(n - 1, 20)
        x, y = AZUL_TRACK_X0 + c * cw, AZUL_TRACK_Y0 + r * ch
        cells.append(((x, y), (x + cw, y), (x + cw, y + ch), (x, y + ch)))
    return tuple(tuple((round(px, 5), round(py, 5)) for px, py in cell) for cell in cells)


def _square(cx: float, cy: float, size: float) -> tuple[tuple[float, float], ...]:
    h = size / 2
    return ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h))


def azul_row_y(r: int) -> float:
    """Centre height of wall row ``r`` and pattern line ``r``."""
    return AZUL_WALL_Y0 + (r + 0.5) * AZUL_PITCH


def azul_layout(wall: str) -> Layout:
    slots = []
    for r in range(5):
        for i in range(r + 1):  # I = 0 is the rightmost space
            cx = AZUL_LINES_X1 - (i + 0.5) * AZUL_PITCH
            slots.append(Slot(SlotId.line(r, i), _square(cx, azul_row_y(r), AZUL_CELL)))
    for r in range(5):
        for c in range(5):
            printed = AZUL_COLORS[wall_color(r, c)] if wall == "colored" else None
            cx = AZUL_WALL_X0 + (c + 0.5) * AZUL_PITCH
            slots.append(Slot(SlotId.wall(r, c), _square(cx, azul_row_y(r), AZUL_CELL), printed))
    for i in range(7):
        cx = AZUL_FLOOR_X0 + (i + 0.5) * AZUL_FLOOR_PITCH
        square = _square(cx, AZUL_FLOOR_Y0 + AZUL_CELL / 2, AZUL_CELL)
        slots.append(Slot(SlotId.floor(i), square, None, -FLOOR_PENALTIES[i]))
    return Layout(AZUL.layout({AZUL.face: wall}), AZUL_BOARD_MM, tuple(slots), azul_track())


# --------------------------------------------------------------------------- Summer Pavilion boards


def rhombus(cx: float, cy: float, angle_deg: float, long_diag: float, aspect: float = 1.0) -> tuple[tuple[float, float], ...]:
    """A 60-degree rhombus centred at (cx, cy) whose long diagonal points at ``angle_deg``
    (counter-clockwise from +x, y down). ``aspect`` = height / width of the board, so that a
    rhombus drawn in fractions of a non-square board keeps its shape in millimetres."""
    import math

    a = math.radians(angle_deg)
    ux, uy = math.cos(a), -math.sin(a)
    half_long, half_short = long_diag / 2, long_diag / 2 / 3 ** 0.5
    pts = ((half_long * ux, half_long * uy), (-half_short * uy, half_short * ux),
           (-half_long * ux, -half_long * uy), (half_short * uy, -half_short * ux))
    return tuple((cx + x, cy + y / aspect) for x, y in pts)


def pavilion_layout(side: str) -> Layout:
    slots = []
    for i in range(topo.SPACES):
        star = i // 6
        color = topo.STAR_COLOR[star]
        printed = topo.COLORS[color] if side == "colored" and color is not None else None
        polygon = tuple((round(x, 6), round(y, 6)) for x, y in topo.space_polygon(i))
        slots.append(Slot(SlotId.parse(topo.SPACE_NAMES[i]), polygon, printed, topo.PRINTED[side][i]))
    for name, (cx, cy) in zip(topo.CORNER_NAMES, topo.CORNER_CENTERS):
        slots.append(Slot(SlotId.parse(name), rhombus(cx, cy, 90.0, topo.STAR_RADIUS)))
    return Layout(PAVILION.layout({PAVILION.face: side}), PAVILION_BOARD_MM, tuple(slots))


#: Supply spaces on the scoring board: two rows of five upright rhombuses in its middle.
SUPPLY_CENTERS: tuple[tuple[float, float], ...] = tuple(
    (0.26 + 0.12 * (i % 5), 0.45 if i < 5 else 0.70) for i in range(topo.SUPPLY_SPACES))


def scoring_layout() -> Layout:
    w, h = SCORING_BOARD_MM
    long_diag = topo.STAR_RADIUS * PAVILION_BOARD_MM[0] / w
    slots = tuple(Slot(SlotId.supply(i), rhombus(cx, cy, 90.0, long_diag, h / w))
                  for i, (cx, cy) in enumerate(SUPPLY_CENTERS))
    return Layout(PAVILION.scoring_layout, SCORING_BOARD_MM, slots)


def build_layouts() -> dict[str, Layout]:
    """Every shipped layout, built from the geometry above and the engine's topology."""
    out = {layout.name: layout for layout in (
        azul_layout("colored"), azul_layout("grey"),
        pavilion_layout("colored"), pavilion_layout("grey"), scoring_layout())}
    assert tuple(out) == LAYOUT_NAMES
    return out


def write_layouts(folder: str | Path) -> list[Path]:
    """Write every shipped layout as ``NAME.json`` into ``folder`` (the package's
    ``calibration/layouts/`` when regenerating them)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, layout in build_layouts().items():
        path = folder / f"{name}.json"
        path.write_text(layout.dumps(), encoding="utf-8")
        written.append(path)
    return written
