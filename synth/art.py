"""Procedural, photo-like art of the game components for the synthetic table renderer.

Everything here is drawn from scratch with numpy and OpenCV ("of our own making"; no real
artwork is copied): tile faces, printed board sides, factory displays and table surfaces.
The renderer draws many scenes per second, so every public function is cached and returns
read-only arrays; every bit of noise comes from a generator seeded by the call's arguments,
so the same call always gives the same pixels.

Conventions: images are BGR(A) uint8 as OpenCV wants them. Small art (tiles, factories) is
drawn at a higher internal resolution and shrunk with ``INTER_AREA`` so that patterns and
edges stay smooth down to a few pixels. Board art is drawn at its final size with
anti-aliased primitives; slot polygons (board fractions) map to pixels as ``fraction * size``
in continuous coordinates (pixel ``i`` covers ``[i, i + 1)``).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from functools import lru_cache, reduce

import cv2
import numpy as np

from ..calibration.layouts import LAYOUT_NAMES, Layout, layout_game, load_layout
from ..engine import pavilion_board as topo
from ..engine.errors import CodedError
from ..engine.games import AZUL, GAMES, PAVILION, GameSpec
from ..engine.notice import Notice
from ..engine.zones import Slot


class RenderError(CodedError):
    """What the renderer is asked to draw and cannot: an unknown game, tile, art family or board
    side, or a size it does not draw at (a ``render.*`` code with its parameters)."""


#: The tiles each game's art draws (Summer Pavilion's start-player token apart).
AZUL_TILES = AZUL.tiles
PAVILION_TILES = PAVILION.colors

# --------------------------------------------------------------------------- palette (BGR)

#: Base colour of each Azul tile's top face.
AZUL_BASE: dict[str, tuple[int, int, int]] = {
    "blue": (150, 72, 18),
    "yellow": (28, 172, 244),
    "red": (42, 38, 196),
    "black": (40, 34, 31),
    "white": (238, 238, 234),
    "joker": (60, 200, 235),
    "first_player": (240, 240, 236),
}
#: Second colour of each patterned Azul tile.
AZUL_ACCENT: dict[str, tuple[int, int, int]] = {
    "yellow": (36, 46, 205),  # red ornament
    "black": (150, 128, 104),  # blue-grey lattice
    "white": (236, 190, 118),  # light-blue snowflake
}
#: Summer Pavilion tiles: base colour.
PAVILION_BASE: dict[str, tuple[int, int, int]] = {
    "purple": (128, 42, 112),
    "green": (62, 148, 42),
    "orange": (16, 100, 232),
    "yellow": (36, 210, 248),
    "blue": (186, 116, 26),
    "red": (46, 36, 194),
    "first_player": (150, 196, 226),  # light wood
}
GOLD = (55, 175, 215)
INK = (60, 45, 40)  # dark print ink (warm black)

#: Board card and print colours.
CARD = (204, 226, 238)  # cream card
FRAME_BLUE = (122, 58, 22)
ORNAMENT_ORANGE = (40, 138, 232)
LINE_CELL = (158, 192, 214)  # beige pattern-line squares
LINE_EDGE = (80, 108, 138)
WALL_GROUT = (150, 120, 96)  # blue-grey panel under the wall
GREY_CELL = (158, 158, 156)
FLOOR_CELL = (172, 196, 220)
FLOOR_EDGE = (50, 60, 150)
#: How much of the tile's own colour a printed wall cell keeps (the rest is card).
WALL_PRINT_STRENGTH = 0.5

PAV_CARD = (186, 214, 226)  # sand
PAV_GREY_SPACE = (168, 170, 172)
PAV_GREY_EDGE = (96, 98, 100)
PLAYER_DISC = (60, 150, 70)  # the player's colour (green here)

# --------------------------------------------------------------------------- art families


@dataclass(frozen=True)
class Family:
    """One way the game's components may be made and printed: another printing of the boards,
    other tile faces and finishes, other factory discs, other tables. The reader must carry over
    from one to another; a family held out of training measures whether it does.

    ``wall_print`` is how strongly the coloured wall's empty spaces are printed in their tile's
    colour (0: bare card, 1: as strong as a tile); ``star_print`` scales the same for Summer
    Pavilion's coloured stars. ``gloss`` (0 matte, 1 glossy) and ``wear`` (0 new, 1 scuffed and
    chipped) are the tiles' finish; ``patterns`` picks the tile patterns' drawing (``a`` or ``b``)
    and ``pattern_scale`` their size. ``disc`` is the factory display's field, band and ornament;
    ``tables`` the table surfaces (:func:`table_texture` indices) this family is seen on;
    ``print_turn`` how far (radians, about the grey axis) the hue of the boards' coloured print
    is turned from the tiles' own (another printer's inks on the card than on the tiles).
    ``disc_motif`` is empty for a display printed as the game's are, or the motif of one no one
    designed (:data:`DISC_MOTIFS`); ``joker`` is the joker tile's drawing (:data:`JOKER_STYLES`);
    ``cell_face``, where set, the Azul tile whose face is printed, ``wall_print`` strong, on every
    pattern-line, floor and grey wall cell. ``board_print``, where set, is the seed of a printing
    of the boards no one designed (:mod:`printings`)."""

    name: str
    azul_base: dict[str, tuple[int, int, int]]
    azul_accent: dict[str, tuple[int, int, int]]
    pavilion_base: dict[str, tuple[int, int, int]]
    card: tuple[int, int, int]
    frame: tuple[int, int, int]
    ornament: tuple[int, int, int]
    line_cell: tuple[int, int, int]
    line_edge: tuple[int, int, int]
    wall_grout: tuple[int, int, int]
    grey_cell: tuple[int, int, int]
    floor_cell: tuple[int, int, int]
    floor_edge: tuple[int, int, int]
    wall_print: float
    pav_card: tuple[int, int, int]
    pav_grey_space: tuple[int, int, int]
    pav_grey_edge: tuple[int, int, int]
    star_print: float
    gloss: float
    wear: float
    patterns: str
    pattern_scale: float
    disc: tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]
    tables: tuple[int, ...]
    print_turn: float = 0.0
    disc_motif: str = ""
    joker: str = "wedges"
    cell_face: str = ""
    board_print: int = 0


#: The art the renderer has always drawn: pale wall prints, glossy tiles, cream discs.
CLASSIC = Family(
    name="classic", azul_base=AZUL_BASE, azul_accent=AZUL_ACCENT, pavilion_base=PAVILION_BASE, card=CARD,
    frame=FRAME_BLUE, ornament=ORNAMENT_ORANGE, line_cell=LINE_CELL, line_edge=LINE_EDGE, wall_grout=WALL_GROUT,
    grey_cell=GREY_CELL, floor_cell=FLOOR_CELL, floor_edge=FLOOR_EDGE, wall_print=WALL_PRINT_STRENGTH, pav_card=PAV_CARD,
    pav_grey_space=PAV_GREY_SPACE, pav_grey_edge=PAV_GREY_EDGE, star_print=1.0, gloss=1.0, wear=0.0, patterns="a",
    pattern_scale=1.0, disc=((200, 226, 240), FRAME_BLUE, ORNAMENT_ORANGE), tables=(0, 1, 2, 3, 4, 5))
#: Every family, by name. Each differs from the others in every part at once (print, tiles,
#: finish, discs, tables), as another publisher's edition photographed on another table would.
FAMILIES: dict[str, Family] = {f.name: f for f in (
    CLASSIC,
    # A printing whose empty wall spaces are as strong as a tile (as real boards photographed at
    # night look), coral reds and a cyan "white", other patterns, darker discs, wooden tables.
    Family(
        name="strong-print",
        azul_base={**AZUL_BASE, "blue": (140, 60, 10), "yellow": (40, 185, 240), "red": (80, 96, 232),
                   "black": (46, 42, 40), "white": (226, 214, 150)},
        azul_accent={"yellow": (50, 80, 210), "black": (170, 160, 120), "white": (250, 250, 246)},
        pavilion_base={**PAVILION_BASE, "purple": (140, 60, 130), "green": (80, 160, 60), "orange": (30, 120, 240),
                       "blue": (200, 130, 40)},
        card=(196, 218, 232), frame=(110, 62, 34), ornament=(52, 128, 214), line_cell=(150, 182, 204),
        line_edge=(70, 96, 124), wall_grout=(120, 110, 100), grey_cell=(140, 142, 140), floor_cell=(164, 188, 210),
        floor_edge=(60, 66, 130), wall_print=0.92, pav_card=(176, 204, 218), pav_grey_space=(150, 152, 154),
        pav_grey_edge=(84, 86, 88), star_print=1.7, gloss=1.3, wear=0.0, patterns="b", pattern_scale=1.0,
        disc=((178, 206, 226), (60, 50, 150), (40, 150, 220)), tables=(0, 1)),
    # Matte, worn tiles (an old, much-played set), a pale print, grey-green discs, cloth tables.
    Family(
        name="matte-worn",
        azul_base={**AZUL_BASE, "blue": (120, 80, 40), "yellow": (60, 160, 220), "red": (60, 60, 170),
                   "black": (58, 54, 50), "white": (220, 222, 214)},
        azul_accent={"yellow": (50, 70, 170), "black": (120, 110, 100), "white": (210, 170, 110)},
        pavilion_base={**PAVILION_BASE, "purple": (110, 60, 100), "green": (70, 130, 60), "yellow": (60, 190, 220),
                       "red": (60, 50, 170)},
        card=(214, 228, 232), frame=(100, 70, 50), ornament=(60, 120, 200), line_cell=(170, 196, 210),
        line_edge=(100, 118, 140), wall_grout=(160, 140, 120), grey_cell=(170, 170, 168), floor_cell=(180, 200, 218),
        floor_edge=(70, 80, 140), wall_print=0.3, pav_card=(196, 218, 226), pav_grey_space=(176, 178, 180),
        pav_grey_edge=(110, 112, 114), star_print=0.8, gloss=0.15, wear=0.8, patterns="a", pattern_scale=1.25,
        disc=((170, 190, 180), (90, 100, 60), (70, 140, 190)), tables=(2, 3, 4)),
    # A bright modern edition: white card, saturated tiles with the other patterns drawn small,
    # a mid-strength print, white discs with a red band, slate and white tables.
    Family(
        name="bright",
        azul_base={**AZUL_BASE, "blue": (200, 90, 0), "yellow": (0, 200, 255), "red": (40, 20, 220),
                   "black": (30, 26, 24), "white": (250, 236, 200)},
        azul_accent={"yellow": (20, 20, 200), "black": (200, 170, 120), "white": (230, 150, 60)},
        pavilion_base={**PAVILION_BASE, "purple": (160, 30, 140), "green": (40, 170, 20), "orange": (0, 110, 255),
                       "yellow": (20, 225, 255), "blue": (220, 120, 0), "red": (40, 20, 220)},
        card=(236, 240, 242), frame=(150, 70, 20), ornament=(20, 120, 240), line_cell=(200, 214, 226),
        line_edge=(90, 110, 140), wall_grout=(170, 150, 130), grey_cell=(186, 186, 184), floor_cell=(206, 220, 232),
        floor_edge=(40, 50, 170), wall_print=0.65, pav_card=(222, 234, 240), pav_grey_space=(190, 192, 194),
        pav_grey_edge=(100, 102, 104), star_print=1.35, gloss=0.8, wear=0.0, patterns="b", pattern_scale=0.8,
        disc=((238, 240, 242), (40, 40, 190), (150, 80, 20)), tables=(4, 5)),
)}


#: A blend's name: ``blend:SEED:FAMILY+FAMILY+...`` (:func:`blend_name`).
BLEND_PREFIX = "blend:"
#: How far a blend may reach past its sources' mean, as a multiple of their own spread (1: no
#: further than a random mix of them; more: a little beyond every one of them).
BLEND_REACH = 1.4
#: A blend's tile colours move from the mixed colour by up to this much per channel: another
#: printer's inks.
BLEND_INK_JITTER = 14


def family(name: str) -> Family:
    """The art family ``name`` (:data:`FAMILIES`, or a blend of them: :func:`blend_name`). Raises
    :class:`RenderError` naming the families for an unknown one."""
    if isinstance(name, str) and name.startswith(BLEND_PREFIX):
        return _blend(name)
    try:
        return FAMILIES[name]
    except (KeyError, TypeError):
        raise RenderError("render.unknown_family", name=name, families=", ".join(FAMILIES), blend=BLEND_PREFIX) from None


def blend_name(seed: int, sources: tuple[str, ...]) -> str:
    """The name of a family blended from ``sources`` (names of :data:`FAMILIES`) by ``seed``: each
    part of it (the tiles' inks, the board's print and card, the tiles' finish, the discs) a
    random mix of the sources' own, reaching a little past them (:data:`BLEND_REACH`); its print's
    strength anywhere in :data:`BLEND_PRINT`; its patterns and tables those of one of them.
    Training draws many: many worlds, none of them a family held out."""
    for source in sources:
        family(source)
    return f"{BLEND_PREFIX}{int(seed)}:{'+'.join(sources)}"


#: Azul's tile faces as a phone photo of a real table shows them (warm indoor light; the tile
#: column of the measurements in the project's notes on real boards, yellow from its print), BGR:
#: a coral red and a cyan "white", as real sets are. Every blend's Azul inks are mixed from its
#: sources' and these, so that training sees the inks of real tiles too.
REAL_AZUL_INKS = {"blue": (188, 113, 35), "red": (65, 67, 193), "white": (173, 146, 89), "black": (61, 51, 40),
                  "yellow": (97, 150, 220)}
#: The parts of a family mixed together in a blend, each with one set of weights.
_BLEND_PARTS = (("azul_base", "azul_accent", "pavilion_base"),
                ("card", "frame", "ornament", "line_cell", "line_edge", "wall_grout", "grey_cell", "floor_cell",
                 "floor_edge", "pav_card", "pav_grey_space", "pav_grey_edge"),
                ("gloss", "wear"), ("pattern_scale",), ("disc",))
#: How strongly a blend's empty spaces are printed is drawn over the whole range real printings
#: span, from clearly pale to as strong as a tile (the wall's, then the stars' scale), whatever
#: its sources' prints: a reader must not tell a tile from a bare space by how pale the print is.
BLEND_PRINT = {"wall_print": (0.2, 1.0), "star_print": (0.6, 1.8)}
#: Share of blends in which each of the parts no source decides (the display's colours, the grey
#: spaces' grey, the print's hue turn) is drawn freely, and the ranges they are drawn from.
BLEND_FREE_SHARE = 0.5
BLEND_FREE_GREY = (60.0, 215.0)
BLEND_PRINT_TURN = 0.6


@lru_cache(maxsize=64)
def _blend(name: str) -> Family:
    try:
        _, seed_text, joined = name.split(":", 2)
        seed = int(seed_text)
        sources = [FAMILIES[s] for s in joined.split("+")]
    except (ValueError, KeyError):
        raise RenderError("render.bad_blend", name=name, blend=BLEND_PREFIX) from None
    rng = np.random.default_rng(seed)
    fields: dict[str, object] = {"name": name}

    def mix(values: list[np.ndarray], weights: np.ndarray, reach: float) -> np.ndarray:
        stack = np.stack(values).astype(np.float64)
        mean = stack.mean(axis=0)
        return mean + reach * (np.tensordot(weights, stack, axes=1) - mean)

    for part in _BLEND_PARTS:
        weights = rng.dirichlet(np.ones(len(sources)))
        reach = float(rng.uniform(1.0, BLEND_REACH))
        for key in part:
            values = [getattr(f, key) for f in sources]
            if isinstance(values[0], dict):  # a palette: every colour of every source
                names = list(values[0])
                out = {}
                inks = weights
                if key == "azul_base":  # real tiles' inks as one more source
                    values = values + [{**values[0], **REAL_AZUL_INKS}]
                    inks = rng.dirichlet(np.ones(len(values)))
                for colour in names:
                    mixed = mix([np.array(v.get(colour, values[0][colour])) for v in values], inks, reach)
                    mixed += rng.uniform(-BLEND_INK_JITTER, BLEND_INK_JITTER, 3) if part is _BLEND_PARTS[0] else 0
                    out[colour] = tuple(int(c) for c in np.clip(np.round(mixed), 0, 255))
                fields[key] = out
            elif isinstance(values[0], tuple):  # a colour, or the disc's three
                mixed = mix([np.array(v) for v in values], weights, reach)
                fields[key] = (tuple(tuple(int(c) for c in row) for row in np.clip(np.round(mixed), 0, 255))
                               if mixed.ndim == 2 else tuple(int(c) for c in np.clip(np.round(mixed), 0, 255)))
            else:
                fields[key] = float(max(0.0, mix([np.array(v) for v in values], weights, reach)))
    # Some parts of a printing owe nothing to any source: a display's colours, the grey spaces'
    # grey, the print's own inks. Drawn freely in a share of the blends, so that a reader learns
    # to tell a tile by its body and by the space's bare look in the same photo, not by these.
    if rng.random() < BLEND_FREE_SHARE:
        fields["disc"] = tuple(tuple(int(c) for c in rng.integers(20, 241, 3)) for _ in range(3))
    if rng.random() < BLEND_FREE_SHARE:
        for key in ("grey_cell", "pav_grey_space"):
            level = rng.uniform(*BLEND_FREE_GREY)
            fields[key] = tuple(int(np.clip(round(level + t), 0, 255)) for t in rng.uniform(-12, 12, 3))
    if rng.random() < BLEND_FREE_SHARE:
        fields["print_turn"] = float(rng.uniform(-BLEND_PRINT_TURN, BLEND_PRINT_TURN))
    if rng.random() < BLEND_UNDESIGNED_SHARE:
        _undesigned(rng, fields)
    # Drawn apart from the rest, so that a blend's other parts do not depend on it.
    boards = np.random.default_rng([seed, 1])
    if boards.random() < BLEND_FREE_BOARD_SHARE:
        fields["board_print"] = int(boards.integers(1, 1 << 31))
    strength = float(rng.uniform(0.0, 1.0))  # one printing: its wall and its stars alike
    for key, (low, high) in BLEND_PRINT.items():
        fields[key] = low + strength * (high - low)
    origin = sources[int(rng.integers(len(sources)))]
    fields["patterns"] = origin.patterns
    tables = {t for f in sources for t in f.tables} | set(PRINTED_CLOTHS)
    fields["tables"] = tuple(sorted(tables | (set(TILE_CLOTHS) if fields.get("disc_motif") else set())))
    return Family(**fields)  # type: ignore[arg-type]


#: Share of blends printed as no one designed them (:func:`_undesigned`), and what such a
#: printing draws its display's medallion and its joker tiles with.
BLEND_UNDESIGNED_SHARE = 0.4
DISC_MOTIFS = ("star", "snowflake", "lattice", "rings", "rays", "tiles")
JOKER_STYLES = ("wedges", "stripes", "quarters", "dots")
#: Share of blends whose boards are printed as no one designed them (:mod:`printings`).
BLEND_FREE_BOARD_SHARE = 0.5
#: Share of those whose plain cells (pattern lines, floor, grey wall) carry a tile's face.
BLEND_CELL_FACE_SHARE = 0.35


def _luma(colour) -> float:
    return 0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2]


def any_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    """Any BGR colour, each channel drawn alike."""
    return tuple(int(c) for c in rng.integers(0, 256, 3))  # type: ignore[return-value]


def tinted_grey(rng: np.random.Generator, low: float, high: float, tint: float) -> tuple[int, int, int]:
    """A grey of a level drawn from ``low`` to ``high``, each channel moved by up to ``tint``."""
    level = rng.uniform(low, high)
    return tuple(int(np.clip(round(level + t), 0, 255)) for t in rng.uniform(-tint, tint, 3))  # type: ignore[return-value]


def _undesigned(rng: np.random.Generator, fields: dict) -> None:
    """A printing no one designed, drawn from the tiles' own inks and motifs at full strength:
    a display of any field colour (a tile's among them) with a medallion drawn from a tile's
    pattern, or tile faces printed flat; a card and cells of any light colour; jokers drawn
    otherwise; cloths printed in tile inks. Only a tile's body then tells it from the print."""
    inks = [*fields["azul_base"].values(), *fields["pavilion_base"].values(), (245, 245, 245), (25, 25, 25)]

    def ink() -> tuple[int, int, int]:
        if rng.random() < 0.7:
            return tuple(int(c) for c in inks[int(rng.integers(len(inks)))])
        return any_colour(rng)

    field = ink()
    contrasting = [c for c in inks if abs(_luma(c) - _luma(field)) > 70] or [(245, 245, 245), (25, 25, 25)]
    band, ornament = (tuple(int(v) for v in contrasting[int(rng.integers(len(contrasting)))]) for _ in range(2))
    fields["disc"] = (field, band, ornament)
    fields["disc_motif"] = str(rng.choice(DISC_MOTIFS))
    fields["joker"] = str(rng.choice(JOKER_STYLES))

    def light() -> tuple[int, int, int]:
        return tinted_grey(rng, 175, 250, 25)

    fields["card"] = light()
    fields["pav_card"] = light()
    cells = fields["card"] if rng.random() < 0.4 else light()
    fields["line_cell"], fields["floor_cell"] = cells, cells if rng.random() < 0.5 else light()
    edge = tuple(int(c) for c in rng.integers(20, 140, 3))
    fields["line_edge"], fields["floor_edge"] = edge, edge
    if rng.random() < BLEND_CELL_FACE_SHARE:
        fields["cell_face"] = str(rng.choice(["blue", "yellow", "red", "black", "white"]))

#: Internal supersampling of small sprites and the pixel budget that caps it.
SUPERSAMPLE = 4
MAX_INTERNAL_PX = 320


def _seed(*key: object) -> int:
    """A stable seed from the call's arguments (``hash`` is salted per process)."""
    return zlib.crc32(repr(key).encode())


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.flags.writeable = False
    return arr


def game_spec(game: str) -> GameSpec:
    """The spec of the game named ``game``. The art tells the games' components apart by what the
    spec says of them: the tiles' shape (Azul's squares, Summer Pavilion's rhombuses, each game's
    own designs and inks) and the player board's drawing (``GameSpec.board``). Raises
    :class:`RenderError` for an unknown game."""
    spec = GAMES.get(game)
    if spec is None:
        games = reduce(lambda head, last: Notice("list.or", head=head, last=last), GAMES)  # "azul or pavilion"
        raise RenderError("render.unknown_game", game=game, games=games)
    return spec


def tile_of(game: str, kind: str) -> GameSpec:
    """The spec of the game named ``game``, checking that ``kind`` is one of its tiles. Raises
    :class:`RenderError` for an unknown game or kind."""
    spec = game_spec(game)
    if kind not in spec.tiles:
        raise RenderError("render.unknown_tile", game=spec.title, kind=kind, tiles=", ".join(spec.tiles))
    return spec


def _mix(a: tuple[int, ...], b: tuple[int, ...], t: float) -> tuple[int, int, int]:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]


def hue_turned(bgr: np.ndarray, radians: float) -> np.ndarray:
    """A uint8 BGR image with its hue turned by ``radians`` about the grey axis (Rodrigues'
    rotation of the colour cube: greys stay, brightness nearly so)."""
    if radians == 0.0:
        return bgr
    c, s = np.cos(radians), np.sin(radians)
    a, b = (1 - c) / 3, s / np.sqrt(3)
    turn = np.array([[c + a, a - b, a + b], [a + b, c + a, a - b], [a - b, a + b, c + a]], np.float32)
    return np.clip(bgr.astype(np.float32) @ turn.T, 0, 255).round().astype(np.uint8)


def _shade(c: tuple[int, ...], f: float) -> tuple[int, int, int]:
    """Lighter (f > 0, towards white) or darker (f < 0, towards black) copy of a colour."""
    return _mix(c, (255, 255, 255), f) if f >= 0 else _mix(c, (0, 0, 0), -f)


def _fixed(pts: np.ndarray) -> np.ndarray:
    """Float pixel coordinates (continuous, pixel i covers [i, i+1)) as OpenCV fixed point (shift 4)."""
    return np.round((np.asarray(pts, np.float64) - 0.5) * 16).astype(np.int32)


def _poly(img: np.ndarray, pts: np.ndarray, color, thickness: int = -1) -> None:
    """Filled (thickness -1) or outlined anti-aliased polygon at sub-pixel float coordinates."""
    p = _fixed(pts).reshape(-1, 1, 2)
    if thickness < 0:
        cv2.fillPoly(img, [p], color, cv2.LINE_AA, 4)
    else:
        cv2.polylines(img, [p], True, color, thickness, cv2.LINE_AA, 4)


def _circle(img: np.ndarray, center, radius: float, color, thickness: int = -1) -> None:
    c = tuple(int(round((v - 0.5) * 16)) for v in center)
    cv2.circle(img, c, max(1, int(round(radius * 16))), color, thickness, cv2.LINE_AA, 4)


def _line(img: np.ndarray, a, b, color, thickness: int = 1) -> None:
    cv2.line(img, tuple(int(round((v - 0.5) * 16)) for v in a), tuple(int(round((v - 0.5) * 16)) for v in b),
             color, max(1, int(thickness)), cv2.LINE_AA, 4)


def _text(img: np.ndarray, text: str, center, height: float, color, weight: float = 0.12,
          font: int = cv2.FONT_HERSHEY_DUPLEX) -> None:
    """``text`` centred on ``center`` with its capitals ``height`` pixels tall; stroke = weight * height."""
    (_, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(th, 1)
    thick = max(1, int(round(height * weight)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int(round(center[0] - tw / 2)), int(round(center[1] + th / 2)))
    if img.dtype == np.uint8:
        cv2.putText(img, text, org, font, scale, color, thick, cv2.LINE_AA)
        return
    # putText draws only on 8-bit images: draw a local coverage mask and blend it into the float canvas.
    pad = thick + 2
    x0, y0 = max(0, org[0] - pad), max(0, org[1] - th - pad)
    x1, y1 = min(img.shape[1], org[0] + tw + pad), min(img.shape[0], org[1] + th // 2 + pad)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.putText(mask, text, (org[0] - x0, org[1] - y0), font, scale, 255, thick, cv2.LINE_AA)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    region = img[y0:y1, x0:x1]
    region += (np.array(color, np.float32)[: region.shape[2]] - region) * a


def _star_points(center, r_out: float, r_in: float, points: int = 5, rot_deg: float = -90.0) -> np.ndarray:
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot_deg + i * 180.0 / points)
        pts.append((center[0] + r * math.cos(a), center[1] + r * math.sin(a)))
    return np.array(pts, np.float64)


# --------------------------------------------------------------------------- tile surface finish


def _finish_face(img: np.ndarray, poly: np.ndarray, rng: np.random.Generator, gloss: float = 1.0,
                 wear: float = 0.0) -> np.ndarray:
    """Photo finish for a flat-printed face (float32 BGR, internal resolution): a bevel that
    catches the light on the top/left edges and falls into shadow on the bottom/right, a faint
    gloss gradient with a soft highlight, and a tiny surface grain; with ``wear``, pale scuffs
    and a glaze dulled towards grey. ``poly`` is the convex face."""
    h, w = img.shape[:2]
    xs = np.arange(w, dtype=np.float32)[None, :] + 0.5  # broadcast rows and columns: no full grids
    ys = np.arange(h, dtype=np.float32)[:, None] + 0.5
    # Distance to the nearest edge and how that edge faces the light, for a convex polygon.
    n = len(poly)
    best_d = np.full((h, w), np.inf, np.float32)
    facing = np.zeros((h, w), np.float32)
    light = (-0.55, -0.83)  # from the top left, mostly from above
    area2 = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    orient = 1.0 if area2 > 0 else -1.0
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = orient * (y1 - y0) / length, -orient * (x1 - x0) / length  # outward normal (y down)
        d = np.float32(x0 * nx + y0 * ny) - xs * np.float32(nx) - ys * np.float32(ny)  # distance inside the edge
        closer = d < best_d
        np.copyto(best_d, d, where=closer)
        facing[closer] = nx * light[0] + ny * light[1]
    bevel = 0.075 * min(w, h)
    t = np.clip(1.0 - best_d / np.float32(bevel), 0.0, 1.0) ** 1.6
    lift = t * facing * np.float32(0.42)  # > 0: lit bevel, < 0: shaded bevel
    # Gloss: brighter towards the top left, plus a soft off-centre highlight (separable Gaussian).
    lift += np.float32(0.07 * gloss) * (0.5 - (xs / w + ys / h) / 2)
    gx = np.exp(-((xs - 0.34 * w) / (0.32 * w)) ** 2)
    gy = np.exp(-((ys - 0.28 * h) / (0.22 * h)) ** 2)
    lift += np.float32(0.10 * gloss) * gy * gx
    lift = lift[..., None]
    out = np.where(lift > 0, img + (255.0 - img) * lift, img * (1.0 + lift))
    # Resin grain: low-amplitude noise, a little blurred so it survives the shrink as mottling.
    grain = rng.standard_normal((h, w), dtype=np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), max(0.6, min(w, h) / 96))
    grain *= 2.2 / max(float(grain.std()), 1e-6)
    out = out + grain[..., None]
    if wear > 0:  # drawn after the rest, so that unworn faces keep their pixels
        scuffs = np.zeros((h, w), np.float32)
        for _ in range(int(4 + 10 * wear)):
            x0, y0, a, length = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, math.pi), rng.uniform(0.1, 0.5)
            x1, y1 = x0 + length * w * math.cos(a), y0 + length * h * math.sin(a)
            cv2.line(scuffs, (int(x0), int(y0)), (int(x1), int(y1)), 1.0, max(1, int(0.012 * min(w, h))), cv2.LINE_AA)
        out += (scuffs * 45.0 * wear)[..., None]
        grey = out.mean(axis=2, keepdims=True)
        out += (grey - out) * np.float32(0.25 * wear)
    return out


def _shrink(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.resize(img, size, interpolation=cv2.INTER_AREA)


def _internal_scale(size_px: int) -> int:
    return max(1, min(SUPERSAMPLE, MAX_INTERNAL_PX // max(size_px, 1)))


# --------------------------------------------------------------------------- Azul tile faces
# Each painter draws on a float32 BGR canvas of side S (internal pixels).


def _paint_azul_yellow(img: np.ndarray, s: int, fam: Family) -> None:
    red = fam.azul_accent["yellow"]
    c = (s / 2, s / 2)
    # Corner quarter-rosettes and a central eight-pointed ornament, like glazed cuerda-seca tiles.
    for cx, cy in ((0, 0), (s, 0), (s, s), (0, s)):
        _circle(img, (cx, cy), 0.26 * s, red)
        _circle(img, (cx, cy), 0.17 * s, fam.azul_base["yellow"])
        _circle(img, (cx, cy), 0.09 * s, red)
    _poly(img, _star_points(c, 0.36 * s, 0.2 * s, 8, -90), red)
    _poly(img, _star_points(c, 0.25 * s, 0.14 * s, 8, -67.5), _shade(fam.azul_base["yellow"], 0.1))
    _circle(img, c, 0.085 * s, red)
    for k in range(4):  # petals pointing to the edge midpoints
        a = k * math.pi / 2
        p = (c[0] + 0.43 * s * math.cos(a), c[1] + 0.43 * s * math.sin(a))
        _circle(img, p, 0.045 * s, red)


def _paint_azul_black(img: np.ndarray, s: int, fam: Family) -> None:
    lat = fam.azul_accent["black"]
    t = max(1, int(round(0.028 * s)))
    # Diagonal lattice with small squares where the bars cross.
    for k in (-0.5, 0.0, 0.5, 1.0, 1.5):
        _line(img, (k * s, 0), (k * s + s, s), lat, t)
        _line(img, (k * s, s), (k * s + s, 0), lat, t)
    for cx, cy in ((0.5, 0.5), (0.0, 0.5), (1.0, 0.5), (0.5, 0.0), (0.5, 1.0), (0.25, 0.25), (0.75, 0.25),
                   (0.25, 0.75), (0.75, 0.75)):
        d = 0.06 * s
        pts = np.array([(cx * s, cy * s - d), (cx * s + d, cy * s), (cx * s, cy * s + d), (cx * s - d, cy * s)])
        _poly(img, pts, lat)
    _poly(img, np.array([(0.5 * s, 0.5 * s - 0.03 * s), (0.53 * s, 0.5 * s), (0.5 * s, 0.53 * s), (0.47 * s, 0.5 * s)]),
          fam.azul_base["black"])


def _paint_snowflake(img: np.ndarray, c, r: float, color, t: int) -> None:
    for k in range(6):
        a = math.radians(90 + 60 * k)
        ux, uy = math.cos(a), math.sin(a)
        tip = (c[0] + r * ux, c[1] + r * uy)
        _line(img, c, tip, color, t)
        for f, blen in ((0.45, 0.34), (0.72, 0.24)):  # two pairs of side branches per arm
            base = (c[0] + f * r * ux, c[1] + f * r * uy)
            for side in (-1, 1):
                b = a + side * math.radians(45)
                _line(img, base, (base[0] + blen * r * math.cos(b), base[1] + blen * r * math.sin(b)), color, t)
        _circle(img, tip, 1.1 * t, color)
    _circle(img, c, 0.16 * r, color)


def _paint_azul_white(img: np.ndarray, s: int, fam: Family) -> None:
    blue = fam.azul_accent["white"]
    _paint_snowflake(img, (s / 2, s / 2), 0.40 * s, blue, max(1, int(round(0.04 * s))))
    # A thin light-blue inset frame.
    m = 0.07 * s
    _poly(img, np.array([(m, m), (s - m, m), (s - m, s - m), (m, s - m)]), _mix(blue, fam.azul_base["white"], 0.35),
          max(1, int(round(0.015 * s))))


def _paint_azul_first_player(img: np.ndarray, s: int, fam: Family) -> None:
    m = 0.08 * s
    _poly(img, np.array([(m, m), (s - m, m), (s - m, s - m), (m, s - m)]), (150, 120, 90), max(1, int(round(0.02 * s))))
    _text(img, "1", (s / 2, s / 2), 0.62 * s, (40, 30, 28), weight=0.16)


def _paint_azul_joker(img: np.ndarray, s: int, fam: Family) -> None:
    if fam.joker != "wedges":
        _paint_other_joker(img, s, fam)
        return
    # Five pie wedges in the five tile colours (each with a hint of its pattern colour) ...
    c = (s / 2, s / 2)
    kinds = ("blue", "yellow", "red", "black", "white")
    for k, kind in enumerate(kinds):
        a0 = math.radians(-90 + 72 * k)
        a1 = math.radians(-90 + 72 * (k + 1))
        arc = [(c[0] + s * math.cos(a0 + (a1 - a0) * j / 8), c[1] + s * math.sin(a0 + (a1 - a0) * j / 8)) for j in range(9)]
        _poly(img, np.array([c] + arc), fam.azul_base[kind])
    for k in range(5):  # gold seams between the wedges
        a = math.radians(-90 + 72 * k)
        _line(img, c, (c[0] + s * math.cos(a), c[1] + s * math.sin(a)), GOLD, max(1, int(round(0.03 * s))))
    # ... and a big white-and-gold star in the middle with a dark rim: unmistakably wild.
    _poly(img, _star_points(c, 0.40 * s, 0.18 * s), (30, 30, 30))
    _poly(img, _star_points(c, 0.36 * s, 0.155 * s), GOLD)
    _poly(img, _star_points(c, 0.22 * s, 0.095 * s), (250, 252, 252))


def _paint_other_joker(img: np.ndarray, s: int, fam: Family) -> None:
    """A joker drawn otherwise (:attr:`Family.joker`): the five tile colours as stripes, as
    quarters round a gold star, or as dots, on a dark or a light ground."""
    kinds = ("blue", "yellow", "red", "black", "white")
    rng = np.random.default_rng(_seed("joker", fam.name))
    ground = (32, 30, 30) if rng.random() < 0.5 else (236, 238, 240)
    img[:] = ground
    if fam.joker == "stripes":
        for k, kind in enumerate(kinds):
            y0 = s * (0.1 + 0.16 * k)
            _poly(img, np.array([(0.08 * s, y0), (0.92 * s, y0), (0.92 * s, y0 + 0.11 * s), (0.08 * s, y0 + 0.11 * s)]),
                  fam.azul_base[kind])
    elif fam.joker == "quarters":
        for k, kind in enumerate(kinds[:4]):
            x0, y0 = (k % 2) * s / 2, (k // 2) * s / 2
            _poly(img, np.array([(x0, y0), (x0 + s / 2, y0), (x0 + s / 2, y0 + s / 2), (x0, y0 + s / 2)]),
                  fam.azul_base[kind])
        _poly(img, _star_points((s / 2, s / 2), 0.3 * s, 0.14 * s, 8), GOLD)
    else:
        for k, kind in enumerate(kinds):
            a = math.radians(-90 + 72 * k)
            _circle(img, (s / 2 + 0.3 * s * math.cos(a), s / 2 + 0.3 * s * math.sin(a)), 0.14 * s, fam.azul_base[kind])
        _circle(img, (s / 2, s / 2), 0.1 * s, GOLD)


def _paint_azul_yellow_b(img: np.ndarray, s: int, fam: Family) -> None:
    """Another hand's yellow tile: a four-petalled flower in a ring, with corner triangles."""
    red = fam.azul_accent["yellow"]
    c = (s / 2, s / 2)
    for cx, cy in ((0, 0), (s, 0), (s, s), (0, s)):
        _poly(img, np.array([(cx, cy), (cx + (0.22 * s if cx == 0 else -0.22 * s), cy),
                             (cx, cy + (0.22 * s if cy == 0 else -0.22 * s))]), red)
    _circle(img, c, 0.40 * s, red, max(1, int(round(0.035 * s))))
    for k in range(4):
        a = math.pi / 4 + k * math.pi / 2
        _circle(img, (c[0] + 0.17 * s * math.cos(a), c[1] + 0.17 * s * math.sin(a)), 0.13 * s, red)
    _circle(img, c, 0.07 * s, _shade(fam.azul_base["yellow"], 0.2))


def _paint_azul_black_b(img: np.ndarray, s: int, fam: Family) -> None:
    """Another hand's black tile: a square grid with dots at its crossings."""
    lat = fam.azul_accent["black"]
    t = max(1, int(round(0.022 * s)))
    for k in (0.2, 0.4, 0.6, 0.8):
        _line(img, (k * s, 0), (k * s, s), lat, t)
        _line(img, (0, k * s), (s, k * s), lat, t)
    for i in (0.2, 0.4, 0.6, 0.8):
        for j in (0.2, 0.4, 0.6, 0.8):
            _circle(img, (i * s, j * s), 0.035 * s, lat)


def _paint_azul_white_b(img: np.ndarray, s: int, fam: Family) -> None:
    """Another hand's white tile: an eight-pointed star with a round heart."""
    blue = fam.azul_accent["white"]
    c = (s / 2, s / 2)
    _poly(img, _star_points(c, 0.42 * s, 0.2 * s, 8, -90), blue)
    _poly(img, _star_points(c, 0.28 * s, 0.14 * s, 8, -67.5), fam.azul_base["white"])
    _circle(img, c, 0.09 * s, blue)


#: The tile patterns of each drawing (:attr:`Family.patterns`), by kind; blue and red are plain.
_AZUL_PAINTERS = {
    "a": {"yellow": _paint_azul_yellow, "black": _paint_azul_black, "white": _paint_azul_white,
          "first_player": _paint_azul_first_player, "joker": _paint_azul_joker},
    "b": {"yellow": _paint_azul_yellow_b, "black": _paint_azul_black_b, "white": _paint_azul_white_b,
          "first_player": _paint_azul_first_player, "joker": _paint_azul_joker},
}


def _family_key(fam: Family) -> tuple[str, ...]:
    """What a family adds to a drawing's seed: nothing for the classic one (its pixels stay)."""
    return () if fam is CLASSIC else (fam.name,)


def _scaled_paint(img: np.ndarray, paint, scale: float) -> None:
    """``paint(canvas, side)`` on ``img`` (a square canvas), its pattern drawn ``scale`` times
    as large about the centre (cropped where larger, framed by the base colour where smaller)."""
    s = img.shape[0]
    if scale == 1.0:
        paint(img, s)
        return
    big = max(4, int(round(s * scale)))
    canvas = np.empty((big, big, 3), np.float32)
    canvas[:] = img[0, 0]
    paint(canvas, big)
    if big >= s:
        o = (big - s) // 2
        img[:] = canvas[o:o + s, o:o + s]
    else:
        o = (s - big) // 2
        img[o:o + big, o:o + big] = canvas


def _azul_face(kind: str, size_px: int, fam: Family) -> np.ndarray:
    k = _internal_scale(size_px)
    s = size_px * k
    img = np.empty((s, s, 3), np.float32)
    img[:] = fam.azul_base[kind]
    painter = _AZUL_PAINTERS[fam.patterns].get(kind)
    if painter is not None:
        _scaled_paint(img, lambda canvas, side: painter(canvas, side, fam), fam.pattern_scale)
    poly = np.array([(0, 0), (s, 0), (s, s), (0, s)], np.float64)
    img = _finish_face(img, poly, np.random.default_rng(_seed("azul", kind, size_px, *_family_key(fam))), fam.gloss,
                       fam.wear)
    bgr = _shrink(np.clip(img, 0, 255), (size_px, size_px))
    alpha = np.full((size_px, size_px, 1), 255.0, np.float32)
    return np.clip(np.concatenate([bgr, alpha], axis=2) + 0.5, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- Summer Pavilion tile faces
# Painters get the canvas and a helper ``at(u, v)`` mapping rhombus coordinates (|u| + |v| <= 1,
# u across the short diagonal, v down the long one) to internal pixels.


def _rh(at, r: float, du: float = 0.0, dv: float = 0.0) -> np.ndarray:
    """Rhombus outline ``|u - du| + |v - dv| = r`` in pixels."""
    return np.array([at(du, dv - r), at(du + r, dv), at(du, dv + r), at(du - r, dv)])


def _paint_pavilion(img: np.ndarray, kind: str, at, h: int, fam: Family) -> None:
    base = fam.pavilion_base[kind]
    light, dark = _shade(base, 0.45), _shade(base, -0.35)
    t = max(1, int(round(0.012 * h)))
    # Every tile: a thin gold line inset from the edge.
    _poly(img, _rh(at, 0.86), GOLD, t)
    if kind == "purple":  # inner rhombus with a lighter core and dots at its tips
        _poly(img, _rh(at, 0.55), light)
        _poly(img, _rh(at, 0.38), base)
        _poly(img, _rh(at, 0.2), GOLD)
        for du, dv in ((0, -0.55), (0, 0.55)):
            p = at(du, dv)
            _circle(img, p, 0.035 * h, light)
    elif kind == "green":  # a leafy sprig along the long diagonal
        _line(img, at(0, -0.7), at(0, 0.7), dark, 2 * t)
        for v in (-0.45, -0.15, 0.15, 0.45):
            for side in (-1, 1):
                leaf = np.array([at(0, v), at(side * 0.22, v - 0.12), at(side * 0.36, v - 0.05), at(side * 0.18, v + 0.05)])
                _poly(img, leaf, light)
    elif kind == "orange":  # a flower: six petals round a gold heart
        c = at(0, 0)
        w = abs(at(1, 0)[0] - c[0])
        for k in range(6):
            a = math.radians(90 + 60 * k)
            p = (c[0] + 0.42 * w * math.cos(a), c[1] + 0.42 * w * math.sin(a))
            _circle(img, p, 0.24 * w, light)
        _circle(img, c, 0.2 * w, GOLD)
        for v in (-0.62, 0.62):
            _circle(img, at(0, v), 0.12 * w, dark)
    elif kind == "yellow":  # concentric rhombus bands
        _poly(img, _rh(at, 0.66), dark, 2 * t)
        _poly(img, _rh(at, 0.44), _shade(base, 0.5))
        _poly(img, _rh(at, 0.22), dark)
    elif kind == "blue":  # a column of pale dots with a ring in the middle
        for v in (-0.56, -0.3, 0.3, 0.56):
            _circle(img, at(0, v), 0.028 * h, light)
        _circle(img, at(0, 0), 0.1 * h, light, 2 * t)
        _circle(img, at(0, 0), 0.04 * h, GOLD)
        for u in (-0.3, 0.3):
            _circle(img, at(u, 0), 0.025 * h, light)
    elif kind == "red":  # horizontal stripes across the middle
        for v in (-0.32, -0.16, 0.0, 0.16, 0.32):
            half = 0.8 - abs(v)
            _line(img, at(-half, v), at(half, v), light if v else GOLD, 2 * t)


def _pavilion_face(kind: str, size_px: int, fam: Family) -> tuple[np.ndarray, np.ndarray]:
    w_out = max(1, round(size_px / math.sqrt(3)))
    k = _internal_scale(size_px)
    h, w = size_px * k, w_out * k
    poly = np.array([(w / 2, 0), (w, h / 2), (w / 2, h), (0, h / 2)], np.float64)

    def at(u: float, v: float) -> tuple[float, float]:
        return (w / 2 + u * w / 2, h / 2 + v * h / 2)

    img = np.empty((h, w, 3), np.float32)
    img[:] = fam.pavilion_base[kind]
    _paint_pavilion(img, kind, at, h, fam)
    img = _finish_face(img, poly, np.random.default_rng(_seed("pavilion", kind, size_px, *_family_key(fam))), fam.gloss,
                       fam.wear)
    mask = np.zeros((h, w), np.uint8)
    _poly(mask, poly, 255)
    bgr = _shrink(np.clip(img, 0, 255), (w_out, size_px))
    alpha = _shrink(mask, (w_out, size_px)).astype(np.float32)[..., None]
    out = np.clip(np.concatenate([bgr, alpha], axis=2) + 0.5, 0, 255).astype(np.uint8)
    out_poly = np.array([(w_out / 2, 0), (w_out, size_px / 2), (w_out / 2, size_px), (0, size_px / 2)], np.float32)
    return out, out_poly


def _disc_finish(img: np.ndarray, s: int, rng: np.random.Generator) -> np.ndarray:
    """Photo finish for a round token or display: the face is the inscribed disc."""
    poly = np.array([(s / 2 + s / 2 * math.cos(a), s / 2 + s / 2 * math.sin(a))
                     for a in np.linspace(0, 2 * math.pi, 48, endpoint=False)])
    return _finish_face(img, poly, rng, gloss=0.6)


def _pavilion_token(size_px: int, fam: Family) -> np.ndarray:
    k = _internal_scale(size_px)
    s = size_px * k
    rng = np.random.default_rng(_seed("pavilion", "first_player", size_px, *_family_key(fam)))
    img = np.empty((s, s, 3), np.float32)
    img[:] = fam.pavilion_base["first_player"]
    # Wood grain: wavy rings of slightly darker tone.
    ys, xs = np.mgrid[0:s, 0:s].astype(np.float32) / s
    grain = np.sin((xs * 3.0 + 0.15 * np.sin(ys * 9.0 + 1.3)) * 2 * math.pi * 5)
    img *= (1.0 - 0.06 * (grain[..., None] > 0.6))
    c = (s / 2, s / 2)
    _circle(img, c, 0.42 * s, (70, 90, 120), max(1, int(round(0.025 * s))))
    _text(img, "1", c, 0.5 * s, (40, 50, 70), weight=0.16)
    img = _disc_finish(img, s, rng)
    mask = np.zeros((s, s), np.uint8)
    _circle(mask, c, s / 2 - 0.5, 255)
    bgr = _shrink(np.clip(img, 0, 255), (size_px, size_px))
    alpha = _shrink(mask, (size_px, size_px)).astype(np.float32)[..., None]
    return np.clip(np.concatenate([bgr, alpha], axis=2) + 0.5, 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------- public: tiles


@lru_cache(maxsize=512)
def tile_sprite(game: str, kind: str, size_px: int, family_name: str = "classic") -> tuple[np.ndarray, np.ndarray]:
    """Top face of one tile as a BGRA uint8 image (alpha 0 outside the face, 255 inside,
    anti-aliased edge) and the face polygon in that image's pixel coordinates (float32, 4 x 2).

    ``azul``: a square of side ``size_px``, polygon ``[[0,0],[s,0],[s,s],[0,s]]``.
    ``pavilion``: a 60-degree rhombus, long diagonal vertical and ``size_px`` long; image width
    ``round(size_px / sqrt(3))``; polygon top tip, right vertex, bottom tip, left vertex.
    ``pavilion`` / ``first_player``: the start-player disc filling a ``size_px`` square, polygon
    its bounding square. ``family_name`` is the art family (:data:`FAMILIES`). Raises :class:`RenderError`
    for an unknown game, kind or family, or ``size_px < 4``.
    """
    spec = tile_of(game, kind)
    fam = family(family_name)
    if not isinstance(size_px, (int, np.integer)) or size_px < 4:
        raise RenderError("render.size", least=4, size=size_px)
    size_px = int(size_px)
    square = np.array([(0, 0), (size_px, 0), (size_px, size_px), (0, size_px)], np.float32)
    if spec.shape == "square":  # Azul's faces, its first-player tile among them
        img, poly = _azul_face(kind, size_px, fam), square
    elif kind == "first_player":  # a game of rhombuses starts its players with a round token
        img, poly = _pavilion_token(size_px, fam), square
    else:
        img, poly = _pavilion_face(kind, size_px, fam)
    return _frozen(img), _frozen(poly)


#: Edge colours: the resin is the same colour through, the sides catch less light.
_SIDE_DARKEN = 0.42


#: Azul's score marker: a black cube, its top a little lighter where its edges catch the light.
MARKER_TOP = (38, 36, 35)
MARKER_SIDE = (20, 20, 20)


@lru_cache(maxsize=64)
def marker_sprite(size_px: int, family_name: str = "classic") -> tuple[np.ndarray, np.ndarray]:
    """The score marker's top face (BGRA, a square ``size_px`` across) and its polygon, the same
    in every family: the game's black cube. ``family_name`` is checked and otherwise unused."""
    family(family_name)
    if not isinstance(size_px, (int, np.integer)) or size_px < 4:
        raise RenderError("render.size", least=4, size=size_px)
    size_px = int(size_px)
    img = np.full((size_px, size_px, 4), 255, np.uint8)
    img[..., :3] = MARKER_TOP
    cv2.rectangle(img, (0, 0), (size_px - 1, size_px - 1), (*_shade(MARKER_TOP, 0.25), 255), max(1, size_px // 8))
    square = np.array([(0, 0), (size_px, 0), (size_px, size_px), (0, size_px)], np.float32)
    return _frozen(img), _frozen(square)


def tile_side_color(game: str, kind: str, family_name: str = "classic") -> tuple[int, int, int]:
    """BGR colour of the tile's edge (the bevelled sides seen in an oblique view), darker than the top."""
    spec = tile_of(game, kind)
    fam = family(family_name)
    if spec.shape == "square":
        base = fam.azul_base[kind]
        if kind == "joker":
            base = GOLD
    else:
        base = fam.pavilion_base[kind]
    return _shade(base, -_SIDE_DARKEN)


# --------------------------------------------------------------------------- board helpers


def _paper(h: int, w: int, color: tuple[int, int, int], seed: int, mottle: float = 5.0) -> np.ndarray:
    """A card surface (float32): ``color`` with soft low-frequency mottling (ink and card are never
    perfectly even); the fine grain comes last, over the print, from :func:`_grain`."""
    rng = np.random.default_rng(seed)
    img = np.empty((h, w, 3), np.float32)
    img[:] = color
    low = rng.normal(0.0, 1.0, (max(2, h // 40), max(2, w // 40))).astype(np.float32)
    low = cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC)
    img += (low * mottle)[..., None]
    return img


def _grain(img: np.ndarray, seed: int, amount: float = 3.0) -> np.ndarray:
    """Fine print noise on the finished board, then uint8."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    noise = rng.normal(0.0, amount, (h, w)).astype(np.float32)
    out = img.astype(np.float32) + noise[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _inset(p: np.ndarray, px: float) -> np.ndarray:
    """Convex polygon ``p`` shrunk towards its centroid by about ``px`` pixels (keeps outlines inside a slot)."""
    c = p.mean(axis=0)
    r = np.linalg.norm(p - c, axis=1).min()
    return c + (p - c) * max(0.0, 1.0 - px / max(r, 1e-9))


def _slot_px(layout: Layout, slot_id: str, w: int, h: int) -> np.ndarray:
    return np.array([(x * w, y * h) for x, y in layout[slot_id].polygon], np.float64)


def _paste(dst: np.ndarray, src: np.ndarray, x0: float, y0: float, x1: float, y1: float, strength: float = 1.0,
           alpha: np.ndarray | None = None) -> None:
    """Blend ``src`` (BGR) resized onto the pixel box [x0, x1) x [y0, y1) of ``dst`` (float32)."""
    ix0, iy0, ix1, iy1 = int(round(x0)), int(round(y0)), int(round(x1)), int(round(y1))
    if ix1 <= ix0 or iy1 <= iy0:
        return
    patch = cv2.resize(src.astype(np.float32), (ix1 - ix0, iy1 - iy0), interpolation=cv2.INTER_AREA)
    region = dst[iy0:iy1, ix0:ix1]
    a = strength
    if alpha is not None:
        a = cv2.resize(alpha.astype(np.float32) / 255.0, (ix1 - ix0, iy1 - iy0), interpolation=cv2.INTER_AREA)[..., None] * strength
    region += (patch - region) * a


def _ornament_band(img: np.ndarray, w: int, h: int, band: float, base, motif) -> None:
    """A decorative frame of width ``band`` px around the edge: ``base`` with a running diamond motif."""
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), base, int(round(band * 2)))
    edge = _shade(motif, -0.1)
    step = band * 1.6
    for side in range(4):
        length = w if side % 2 == 0 else h
        n = max(1, int(length // step))
        for i in range(n):
            t = (i + 0.5) * length / n
            cxy = {0: (t, band / 2), 1: (w - band / 2, t), 2: (t, h - band / 2), 3: (band / 2, t)}[side]
            r = band * 0.32
            _poly(img, np.array([(cxy[0], cxy[1] - r), (cxy[0] + r, cxy[1]), (cxy[0], cxy[1] + r), (cxy[0] - r, cxy[1])]),
                  motif)
            # small dots halfway between the diamonds
            half = length / n / 2
            dot = (cxy[0] + half, cxy[1]) if side % 2 == 0 else (cxy[0], cxy[1] + half)
            _circle(img, dot, band * 0.08, edge)
    inner = band
    cv2.rectangle(img, (int(inner), int(inner)), (int(w - inner - 1), int(h - inner - 1)), _shade(motif, 0.2),
                  max(1, int(round(band * 0.12))), cv2.LINE_AA)


# --------------------------------------------------------------------------- Azul board


def _pale(color: tuple[int, ...], fam: Family) -> tuple[int, int, int]:
    """How a tile colour looks printed faintly on the card (the wall's empty cells)."""
    return _mix(fam.card, color, fam.wall_print)


def _wall_reference(kind: str, fam: Family = CLASSIC) -> tuple[int, int, int]:
    """Expected mean colour of a printed wall cell of ``kind``: the card mixed with the tile's mean."""
    img, _ = tile_sprite("azul", kind, 32, fam.name)
    mean = tuple(float(v) for v in img[..., :3].reshape(-1, 3).mean(axis=0))
    return _pale(mean, fam)


def _azul_board(name: str, w: int, h: int, fam: Family) -> np.ndarray:
    layout = load_layout(name)
    u = float(w)  # pixels per board width
    img = _paper(h, w, fam.card, _seed(name, w, h, "paper"))
    band = 0.022 * u
    _ornament_band(img, w, h, band, fam.frame, fam.ornament)
    _azul_score_track(img, layout, w, h, fam)
    _azul_cartouche(img, w, h, fam)
    # Pattern lines: beige squares with a darker rim, an arrow towards each wall row.
    for r in range(5):
        for i in range(r + 1):
            p = _slot_px(layout, Slot.line(r, i), w, h)
            rim = max(1, int(round(0.004 * u)))
            _poly(img, p, fam.line_cell)
            _cell_face(img, p, fam)
            _poly(img, _inset(p, rim / 2), fam.line_edge, rim)  # the rim is printed inside the square
        p = _slot_px(layout, Slot.line(r, 0), w, h)
        yc = (p[0][1] + p[2][1]) / 2
        xa, xb = 0.485 * w, 0.513 * w
        _line(img, (xa, yc), (xb - 0.008 * w, yc), fam.frame, max(1, int(round(0.004 * u))))
        _poly(img, np.array([(xb, yc), (xb - 0.012 * w, yc - 0.009 * h), (xb - 0.012 * w, yc + 0.009 * h)]), fam.frame)
    _azul_wall(img, layout, w, h, name.endswith("colored"), fam)
    _azul_floor(img, layout, w, h, fam)
    _azul_bonus(img, w, h, fam)
    return _grain(img, _seed(name, w, h, "grain"))


def _azul_score_track(img: np.ndarray, layout: Layout, w: int, h: int, fam: Family) -> None:
    """The score track where the layout puts its cells: 1 to 100 in five rows, 0 above them."""
    x0, y0 = layout.track[1][0][0] * w, layout.track[1][0][1] * h
    x1, y1 = layout.track[100][2][0] * w, layout.track[100][2][1] * h
    cw, ch = (x1 - x0) / 20, (y1 - y0) / 5
    panel = _shade(fam.card, 0.35)
    cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), panel, -1)
    line = (150, 150, 140)
    for r in range(5):
        for c in range(20):
            n = r * 20 + c + 1
            cx, cy = x0 + (c + 0.5) * cw, y0 + (r + 0.5) * ch
            if n % 5 == 0:
                m = 0.08 * cw
                cv2.rectangle(img, (int(cx - cw / 2 + m), int(cy - ch / 2 + m)), (int(cx + cw / 2 - m), int(cy + ch / 2 - m)),
                              fam.ornament, -1, cv2.LINE_AA)
                _text(img, str(n), (cx, cy), (0.42 if n < 100 else 0.3) * ch, (250, 250, 250), 0.14)
            else:
                _text(img, str(n), (cx, cy), 0.3 * ch, fam.frame, 0.1)
    for c in range(21):
        _line(img, (x0 + c * cw, y0), (x0 + c * cw, y1), line, 1)
    for r in range(6):
        _line(img, (x0, y0 + r * ch), (x1, y0 + r * ch), line, 1)
    # The separate 0 cell at the very top left, above row 1.
    zx, zy = x0, layout.track[0][0][1] * h
    cv2.rectangle(img, (int(zx), int(zy)), (int(zx + cw), int(y0 - 0.004 * h)), panel, -1)
    cv2.rectangle(img, (int(zx), int(zy)), (int(zx + cw), int(y0 - 0.004 * h)), line, 1)
    _text(img, "0", (zx + cw / 2, (zy + y0) / 2), 0.28 * ch, fam.frame, 0.1)


def _azul_cartouche(img: np.ndarray, w: int, h: int, fam: Family) -> None:
    """The AZUL title in a rounded cartouche above the staircase of pattern lines."""
    x0, x1, y0, y1 = 0.05 * w, 0.37 * w, 0.352 * h, 0.424 * h
    r = 0.25 * (y1 - y0)
    box = np.array([(x0 + r, y0), (x1 - r, y0), (x1, y0 + r), (x1, y1 - r), (x1 - r, y1), (x0 + r, y1), (x0, y1 - r), (x0, y0 + r)])
    _poly(img, box, fam.frame)
    inset = 0.006 * w
    box2 = np.array([(x0 + r, y0 + inset), (x1 - r, y0 + inset), (x1 - inset, y0 + r), (x1 - inset, y1 - r),
                     (x1 - r, y1 - inset), (x0 + r, y1 - inset), (x0 + inset, y1 - r), (x0 + inset, y0 + r)])
    _poly(img, box2, fam.ornament, max(1, int(round(0.003 * w))))
    _text(img, "AZUL", ((x0 + x1) / 2, (y0 + y1) / 2), 0.48 * (y1 - y0), (235, 242, 248), 0.14, cv2.FONT_HERSHEY_TRIPLEX)
    for x in (x0 + 2.2 * inset, x1 - 2.2 * inset):  # little orange diamonds either side
        y = (y0 + y1) / 2
        d = 0.012 * w
        _poly(img, np.array([(x, y - d), (x + d, y), (x, y + d), (x - d, y)]), fam.ornament)


def _azul_wall(img: np.ndarray, layout: Layout, w: int, h: int, colored: bool, fam: Family) -> None:
    first, last = _slot_px(layout, Slot.wall(0, 0), w, h), _slot_px(layout, Slot.wall(4, 4), w, h)
    pad = 0.006 * w
    cv2.rectangle(img, (int(first[0][0] - pad), int(first[0][1] - pad)), (int(last[2][0] + pad), int(last[2][1] + pad)),
                  fam.wall_grout, -1, cv2.LINE_AA)
    cv2.rectangle(img, (int(first[0][0] - pad), int(first[0][1] - pad)), (int(last[2][0] + pad), int(last[2][1] + pad)),
                  fam.frame, max(1, int(round(0.003 * w))), cv2.LINE_AA)
    for r in range(5):
        for c in range(5):
            slot = layout[Slot.wall(r, c)]
            p = _slot_px(layout, slot.id, w, h)
            if colored and slot.printed:
                side = max(4, int(round(p[1][0] - p[0][0])))
                tile, _ = tile_sprite("azul", slot.printed, side, fam.name)
                # Card first, then the tile's art printed at partial strength: a paler copy.
                _poly(img, p, fam.card)
                _paste(img, hue_turned(tile[..., :3], fam.print_turn), p[0][0], p[0][1], p[2][0], p[2][1],
                       fam.wall_print)
            else:
                _poly(img, p, fam.grey_cell)
                _cell_face(img, p, fam)
                _poly(img, p, _shade(fam.grey_cell, 0.25), max(1, int(round(0.002 * w))))


def _cell_face(img: np.ndarray, p: np.ndarray, fam: Family) -> None:
    """A plain cell ``p`` printed with :attr:`Family.cell_face`'s tile face, where the family has one."""
    if fam.cell_face:
        side = max(4, int(round(p[1][0] - p[0][0])))
        tile, _ = tile_sprite("azul", fam.cell_face, side, fam.name)
        _paste(img, tile[..., :3], p[0][0], p[0][1], p[2][0], p[2][1], fam.wall_print)


def _azul_floor(img: np.ndarray, layout: Layout, w: int, h: int, fam: Family) -> None:
    for i in range(7):
        slot = layout[Slot.floor(i)]
        p = _slot_px(layout, slot.id, w, h)
        _poly(img, p, fam.floor_cell)
        _cell_face(img, p, fam)
        rim = max(1, int(round(0.003 * w)))
        _poly(img, _inset(p, rim / 2), fam.floor_edge, rim)
        if slot.number is not None:  # the penalty printed above the cell
            cx = (p[0][0] + p[1][0]) / 2
            _text(img, str(slot.number), (cx, (0.82 * h + p[0][1]) / 2 - 0.002 * h), 0.018 * h, fam.floor_edge, 0.14)


def _azul_bonus(img: np.ndarray, w: int, h: int, fam: Family) -> None:
    """End-bonus reminder: a row (+2), a column (+7), five of a colour (+10)."""
    x0, x1, y0, y1 = 0.72 * w, 0.97 * w, 0.82 * h, 0.95 * h
    _poly(img, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), _shade(fam.card, 0.3))
    _poly(img, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), fam.frame, max(1, int(round(0.002 * w))))
    rows = ((y0 + 0.022 * h), (y0 + 0.065 * h), (y0 + 0.108 * h))
    cell = 0.011 * w
    colors = [fam.azul_base[k] for k in ("blue", "yellow", "red", "black", "white")]
    for j, (yc, label) in enumerate(zip(rows, ("+2", "+7", "+10"))):
        for i in range(5):
            if j == 0:
                cx, cy, col = x0 + 0.02 * w + i * cell * 1.15, yc, (150, 150, 150)
            elif j == 1:
                cx, cy, col = x0 + 0.06 * w, yc - 0.02 * h + i * cell * 0.8, (150, 150, 150)
            else:
                cx, cy, col = x0 + 0.02 * w + i * cell * 1.15, yc, colors[i]
            s = cell * (0.5 if j == 1 else 0.9)
            _poly(img, np.array([(cx, cy - s / 2), (cx + s, cy - s / 2), (cx + s, cy + s / 2), (cx, cy + s / 2)]), col)
        _text(img, label, (x0 + 0.185 * w, yc), 0.022 * h, fam.frame, 0.14)


# --------------------------------------------------------------------------- Summer Pavilion boards


def _pavilion_board(name: str, w: int, h: int, fam: Family) -> np.ndarray:
    layout = load_layout(name)
    colored = name.endswith("colored")
    img = _paper(h, w, fam.pav_card, _seed(name, w, h, "paper"), mottle=3.5)
    _pavilion_background(img, w, h, fam)
    _ornament_band(img, w, h, 0.016 * w, (80, 100, 60), GOLD)
    for i in range(topo.SPACES):
        slot = layout[topo.SPACE_NAMES[i]]
        p = _slot_px(layout, slot.id, w, h)
        star = i // 6
        if not colored:
            fill, edge = fam.pav_grey_space, fam.pav_grey_edge
        else:
            color = slot.printed or topo.COLORS[(i % 6)]  # central star: every space its own colour
            base = tuple(int(c) for c in hue_turned(np.array([[fam.pavilion_base[color]]], np.uint8), fam.print_turn)[0, 0])
            fill, edge = _mix(fam.pav_card, base, min(1.0, (0.45 if star else 0.38) * fam.star_print)), _shade(base, -0.25)
        _poly(img, p, fill)
        # A smaller inner rhombus in a lighter tint, like the printed tile outline.
        c = p.mean(axis=0)
        _poly(img, c + (p - c) * 0.62, _mix(fill, (255, 255, 255), 0.25), max(1, int(round(0.002 * w))))
        _poly(img, p, edge, max(1, int(round(0.0028 * w))))
        if slot.number is not None:
            tip = p[2]
            centre = p[0]
            q = centre + (tip - centre) * 0.76
            _text(img, str(slot.number), q, 0.022 * h, edge, 0.16)
    _pavilion_structures(img, w, h)
    for name_c in topo.CORNER_NAMES:
        p = _slot_px(layout, name_c, w, h)
        _poly(img, p, _mix(fam.pav_card, (120, 110, 100), 0.35))
        c = p.mean(axis=0)
        _poly(img, c + (p - c) * 0.7, GOLD, max(1, int(round(0.002 * w))))
        _poly(img, p, (70, 80, 90), max(1, int(round(0.003 * w))))
    # Player-colour disc at the top centre.
    _circle(img, (0.5 * w, 0.075 * h), 0.038 * w, _shade(PLAYER_DISC, -0.3))
    _circle(img, (0.5 * w, 0.075 * h), 0.032 * w, PLAYER_DISC)
    _circle(img, (0.5 * w, 0.075 * h), 0.018 * w, _shade(PLAYER_DISC, 0.3), max(1, int(round(0.003 * w))))
    return _grain(img, _seed(name, w, h, "grain"))


def _pavilion_background(img: np.ndarray, w: int, h: int, fam: Family) -> None:
    """A faint garden-floor pattern on the card: a lattice of small pale diamonds."""
    step = 0.05 * w
    col = _shade(fam.pav_card, -0.06)
    n = int(w / step) + 2
    for i in range(n):
        for j in range(n):
            cx, cy = (i + 0.5 * (j % 2)) * step, j * step
            d = 0.12 * step
            _poly(img, np.array([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]), col)


def _pavilion_structures(img: np.ndarray, w: int, h: int) -> None:
    """Pillars, statues and windows in the gaps between the stars (positions from the topology)."""
    def frac(x: float, y: float) -> tuple[float, float]:
        return x * w, y * h

    centre = topo.star_center(0)
    outer = [topo.star_center(s) for s in range(1, 7)]
    white, shadow = (235, 240, 242), (120, 130, 140)
    for s in range(6):  # pillar: between the central star and outer star s + 1
        x = (centre[0] + outer[s][0]) / 2
        y = (centre[1] + outer[s][1]) / 2
        p = frac(x, y)
        _circle(img, (p[0] + 0.003 * w, p[1] + 0.004 * w), 0.026 * w, shadow)
        _circle(img, p, 0.026 * w, white)
        _circle(img, p, 0.017 * w, _shade(white, -0.1), max(1, int(round(0.002 * w))))
    for s in range(6):  # statue: between outer stars s + 1 and its clockwise neighbour
        a, b = outer[s], outer[(s + 1) % 6]
        cx, cy = frac((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        r = 0.022 * w
        _circle(img, (cx, cy), r * 1.25, (90, 110, 120))  # plinth seen from above
        _circle(img, (cx, cy - 0.3 * r), 0.45 * r, white)  # head
        body = np.array([(cx - 0.6 * r, cy + 0.9 * r), (cx - 0.35 * r, cy + 0.05 * r), (cx + 0.35 * r, cy + 0.05 * r),
                         (cx + 0.6 * r, cy + 0.9 * r)])
        _poly(img, body, white)
    for s in range(6):  # window: outside outer star s + 1, facing away from the centre
        d = math.radians(topo.STAR_DIRECTION[s + 1])
        x = outer[s][0] + 0.152 * math.cos(d)
        y = outer[s][1] - 0.152 * math.sin(d)
        cx, cy = frac(x, y)
        ww, wh = 0.028 * w, 0.04 * w
        frame = (60, 80, 110)
        cv2.ellipse(img, (int(cx), int(cy - wh / 4)), (int(ww / 2), int(ww / 2)), 0, 180, 360, frame, -1, cv2.LINE_AA)
        cv2.rectangle(img, (int(cx - ww / 2), int(cy - wh / 4)), (int(cx + ww / 2), int(cy + wh / 2)), frame, -1, cv2.LINE_AA)
        glass = (210, 180, 120)
        iw = ww * 0.72
        cv2.ellipse(img, (int(cx), int(cy - wh / 4)), (int(iw / 2), int(iw / 2)), 0, 180, 360, glass, -1, cv2.LINE_AA)
        cv2.rectangle(img, (int(cx - iw / 2), int(cy - wh / 4)), (int(cx + iw / 2), int(cy + wh / 2 - ww * 0.14)), glass, -1,
                      cv2.LINE_AA)
        _line(img, (cx, cy - wh / 4 - iw / 2), (cx, cy + wh / 2), frame, max(1, int(round(0.002 * w))))


def _scoring_board(name: str, w: int, h: int, fam: Family) -> np.ndarray:
    layout = load_layout(name)
    img = _paper(h, w, fam.pav_card, _seed(name, w, h, "paper"), mottle=3.5)
    # Decorated centre: a teal tiled floor behind the supply spaces.
    cell = 0.0333 * w  # score cell: 12 mm on a 360 mm board
    nx, ny = int(round(w / cell)), int(round(h / cell))
    cw, ch = w / nx, h / ny
    inner = (cw * 1.0, ch * 1.0, w - cw, h - ch)
    teal = (140, 130, 70)
    cv2.rectangle(img, (int(inner[0]), int(inner[1])), (int(inner[2]), int(inner[3])), teal, -1)
    step = 0.04 * w
    for i in range(int(w / step) + 2):
        for j in range(int(h / step) + 2):
            cx, cy = inner[0] + (i + 0.5 * (j % 2)) * step, inner[1] + j * step * 0.8
            if inner[0] < cx < inner[2] and inner[1] < cy < inner[3]:
                d = 0.18 * step
                _poly(img, np.array([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]), _shade(teal, 0.2))
    # Score track: numbered cells all round the edge, clockwise from the top left.
    cells = [(i, 0) for i in range(nx)] + [(nx - 1, j) for j in range(1, ny)] + \
            [(i, ny - 1) for i in range(nx - 2, -1, -1)] + [(0, j) for j in range(ny - 2, 0, -1)]
    for n, (i, j) in enumerate(cells):
        x0, y0 = i * cw, j * ch
        col = fam.ornament if n % 5 == 0 else _shade(fam.pav_card, 0.3)
        cv2.rectangle(img, (int(x0), int(y0)), (int(x0 + cw), int(y0 + ch)), col, -1)
        cv2.rectangle(img, (int(x0), int(y0)), (int(x0 + cw), int(y0 + ch)), (90, 100, 110), 1, cv2.LINE_AA)
        _text(img, str(n), (x0 + cw / 2, y0 + ch / 2), 0.32 * ch, (250, 250, 250) if n % 5 == 0 else INK, 0.12)
    # Round track 1..6 along the top inside the score track, each in its wild colour.
    for r in range(6):
        cx, cy = w * (0.3 + 0.08 * r), h * 0.17
        color = fam.pavilion_base[topo.COLORS[topo.WILD_BY_ROUND[r]]]
        _circle(img, (cx, cy), 0.027 * w, _shade(color, -0.3))
        _circle(img, (cx, cy), 0.023 * w, _mix(color, (255, 255, 255), 0.25))
        _text(img, str(r + 1), (cx, cy), 0.03 * h, INK, 0.14)
    # Supply spaces: rhombus outlines on pale insets.
    for i in range(topo.SUPPLY_SPACES):
        p = _slot_px(layout, Slot.supply(i), w, h)
        _poly(img, p, _mix(teal, (255, 255, 255), 0.55))
        c = p.mean(axis=0)
        _poly(img, c + (p - c) * 0.7, GOLD, max(1, int(round(0.0015 * w))))
        _poly(img, p, GOLD, max(1, int(round(0.003 * w))))
    return _grain(img, _seed(name, w, h, "grain"))


def sheet_size(layout_name: str, px_per_mm: float) -> tuple[int, int]:
    """Width and height in pixels of board side ``layout_name`` drawn at ``px_per_mm`` (every hand
    draws it so). Raises :class:`RenderError` for an unknown side or a non-positive scale."""
    if layout_name not in LAYOUT_NAMES:
        raise RenderError("render.unknown_side", layout=layout_name, layouts=", ".join(LAYOUT_NAMES))
    if not px_per_mm > 0:
        raise RenderError("render.scale", scale=px_per_mm)
    w, h = (max(16, int(round(v * px_per_mm))) for v in load_layout(layout_name).size_mm)
    return w, h


def board_design(layout_name: str) -> str:
    """What the side ``layout_name`` (one of ``LAYOUT_NAMES``) is drawn as: its game's player board
    (``GameSpec.board``: ``"wall"`` or ``"stars"``) or ``"scoring"``, the board beside the displays."""
    spec = layout_game(layout_name)
    if spec is None:
        raise RenderError("render.unknown_side", layout=layout_name, layouts=", ".join(LAYOUT_NAMES))
    return "scoring" if layout_name == spec.scoring_layout else spec.board


@lru_cache(maxsize=16)
def board_art(layout_name: str, px_per_mm: float, family_name: str = "classic") -> np.ndarray:
    """BGR uint8 image of the printed board side ``layout_name`` (one of ``LAYOUT_NAMES``) at
    ``px_per_mm`` (the layout's ``size_mm`` times it, rounded). Every slot of the layout is printed
    exactly where its polygon says (fraction * image size), in the art family ``family_name``.
    Raises :class:`RenderError` for an unknown side or family or a non-positive scale."""
    fam = family(family_name)
    w, h = sheet_size(layout_name, px_per_mm)
    design = board_design(layout_name)
    if fam.board_print:
        from . import printings  # it draws with this module's primitives

        img = printings.board(layout_name, w, h, fam, fam.board_print)
    elif design == "wall":
        img = _azul_board(layout_name, w, h, fam)
    elif design == "scoring":
        img = _scoring_board(layout_name, w, h, fam)
    else:
        img = _pavilion_board(layout_name, w, h, fam)
    return _frozen(img)


# --------------------------------------------------------------------------- factory displays


#: A real display's print, from the rim inwards (fractions of its radius; the project's notes on
#: real boards): a thin rim, a band about a quarter of the radius wide with a ring of dark
#: S-shaped swirls, a thin ring of small dots, then a medallion of dark rays round a small dark
#: centre. Each family (and each blend) draws its own: how many swirls and rays, how wide each
#: ring, which ornament the band carries. Its marks are as dark as a black tile's pattern.
DISC_BAND = (0.70, 0.78)
DISC_SWIRLS = (10, 18)
DISC_RAYS = (12, 24)
DISC_MEDALLION = (0.45, 0.62)


@lru_cache(maxsize=64)
def factory_sprite(size_px: int, family_name: str = "classic", game: str = "azul") -> np.ndarray:
    """BGRA image ``size_px`` square of a factory display, alpha 0 outside the disc. Azul's is
    printed as a real one is (:data:`DISC_BAND`: rim, band of swirls, ring of dots, medallion of
    rays), Summer Pavilion's banded (:func:`_banded_disc`), in the family's field, band and
    ornament colours."""
    if not isinstance(size_px, (int, np.integer)) or size_px < 4:
        raise RenderError("render.size", least=4, size=size_px)
    size_px = int(size_px)
    if family(family_name).disc_motif:
        return _undesigned_disc(size_px, family_name)
    if game_spec(game).shape == "rhombus":  # Summer Pavilion's displays, for its rhombuses
        return _banded_disc(size_px, family_name)
    field, band, ornament = family(family_name).disc
    design = np.random.default_rng(_seed("disc-design", family_name))
    k = max(1, min(SUPERSAMPLE, 1024 // size_px))
    s = size_px * k
    c = (s / 2, s / 2)
    R = s / 2
    ink = _shade(band, -0.55)  # the swirls and the rays' dark half: near black in any colour
    img = _paper(s, s, field, _seed("factory", size_px, family_name), mottle=4.0)
    # The rim, then the band's swirls.
    inner = float(design.uniform(*DISC_BAND))
    _circle(img, c, R * 0.985, ornament, max(1, int(round(R * 0.035))))
    swirls = int(design.integers(DISC_SWIRLS[0], DISC_SWIRLS[1] + 1))
    mid, reach = (1.0 + inner) / 2 * 0.97, (0.97 - inner) / 2
    style = "swirl" if family_name in FAMILIES or design.random() < 0.6 else str(design.choice(["leaf", "dot"]))
    turn0 = float(design.uniform(0, 2 * math.pi))
    for i in range(swirls):
        a = turn0 + 2 * math.pi * i / swirls
        along = np.array([-math.sin(a), math.cos(a)])  # tangent to the ring
        out = np.array([math.cos(a), math.sin(a)])
        centre = np.array(c) + out * R * mid
        half = math.pi * R * mid / swirls * 0.45
        if style == "swirl":  # an S across the band, its two curls one either side
            t = np.linspace(-1.0, 1.0, 24)
            pts = centre + np.outer(np.sin(math.pi * t) * half, along) + np.outer(t * reach * R * 0.8, out)
            cv2.polylines(img, [_fixed(pts).reshape(-1, 1, 2)], False, ink, max(1, int(round(R * 0.04))),
                          cv2.LINE_AA, 4)
            _circle(img, pts[0], R * 0.03, ink)
            _circle(img, pts[-1], R * 0.03, ink)
        elif style == "leaf":
            leaf = np.array([centre + along * half, centre + out * reach * R * 0.8,
                             centre - along * half, centre - out * reach * R * 0.8])
            _poly(img, leaf, ink)
        else:
            _circle(img, centre, reach * R * 0.6, ink)
    # A thin ring of small dots, ornament and dark in turn.
    dots = 2 * swirls + int(design.integers(8, 20))
    for i in range(dots):
        a = turn0 + 2 * math.pi * (i + 0.5) / dots
        _circle(img, (c[0] + R * (inner - 0.04) * math.cos(a), c[1] + R * (inner - 0.04) * math.sin(a)),
                R * 0.018, ornament if i % 2 else ink)
    # The medallion: rays dark and light in turn round a small dark centre.
    medallion = float(design.uniform(*DISC_MEDALLION))
    rays = int(design.integers(DISC_RAYS[0] // 2, DISC_RAYS[1] // 2 + 1)) * 2
    light = _mix(band, field, 0.55)
    for i in range(rays):
        a, w = turn0 + 2 * math.pi * i / rays, math.pi / rays * 0.9
        tip = medallion * (1.0 if i % 2 == 0 else 0.72)
        ray = np.array([c, (c[0] + R * 0.25 * math.cos(a - w), c[1] + R * 0.25 * math.sin(a - w)),
                        (c[0] + R * tip * math.cos(a), c[1] + R * tip * math.sin(a)),
                        (c[0] + R * 0.25 * math.cos(a + w), c[1] + R * 0.25 * math.sin(a + w))])
        _poly(img, ray, band if i % 2 == 0 else light)
    _circle(img, c, R * float(design.uniform(0.06, 0.12)), ink)
    return _display_sprite(img, size_px)



def _undesigned_disc(size_px: int, family_name: str) -> np.ndarray:
    """A display no one designed (:attr:`Family.disc_motif`): a field of any colour, perhaps a
    rim and a ring of small marks, and a medallion of one of a tile's motifs (a star, a
    snowflake, a lattice, rings, rays) or four tile faces printed flat, a tile's size, in the
    middle where the tiles lie."""
    fam = family(family_name)
    field, band, ornament = fam.disc
    design = np.random.default_rng(_seed("disc-design", family_name))
    k = max(1, min(SUPERSAMPLE, 1024 // size_px))
    s = size_px * k
    c = (s / 2, s / 2)
    R = s / 2
    img = _paper(s, s, field, _seed("factory", size_px, family_name), mottle=4.0)
    if design.random() < 0.6:
        _circle(img, c, R * 0.985, band, max(1, int(round(R * design.uniform(0.02, 0.07)))))
    if design.random() < 0.5:
        marks, at, dot = int(design.integers(8, 25)), design.uniform(0.72, 0.88), design.random() < 0.5
        for i in range(marks):
            a = 2 * math.pi * i / marks
            p = (c[0] + R * at * math.cos(a), c[1] + R * at * math.sin(a))
            if dot:
                _circle(img, p, R * 0.04, ornament)
            else:
                _poly(img, _star_points(p, R * 0.07, R * 0.03, 5, math.degrees(a)), ornament)
    m = R * float(design.uniform(0.35, 0.8))
    line = max(1, int(round(R * design.uniform(0.02, 0.05))))
    filled = design.random() < 0.5
    motif = fam.disc_motif
    if motif == "star":
        pts = _star_points(c, m, m * design.uniform(0.45, 0.75), int(design.integers(5, 11)), design.uniform(0, 360))
        _poly(img, pts, band, -1 if filled else line)
    elif motif == "snowflake":
        _paint_snowflake(img, c, m, band, line)
    elif motif == "lattice":
        step = m / float(design.integers(2, 5))
        for t in np.arange(-m, m + 1e-6, step):
            h = math.sqrt(max(m * m - t * t, 0.0))
            _line(img, (c[0] + t, c[1] - h), (c[0] + t, c[1] + h), band, line)
            _line(img, (c[0] - h, c[1] + t), (c[0] + h, c[1] + t), band, line)
    elif motif == "rings":
        for j in range(int(design.integers(2, 5))):
            _circle(img, c, m * (1 - 0.28 * j), band if j % 2 == 0 else ornament, line)
    elif motif == "rays":
        rays = int(design.integers(6, 13)) * 2
        for i in range(rays):
            a, w = 2 * math.pi * i / rays, math.pi / rays * 0.9
            tip = m * (1.0 if i % 2 == 0 else 0.7)
            _poly(img, np.array([c, (c[0] + m * 0.2 * math.cos(a - w), c[1] + m * 0.2 * math.sin(a - w)),
                                 (c[0] + tip * math.cos(a), c[1] + tip * math.sin(a)),
                                 (c[0] + m * 0.2 * math.cos(a + w), c[1] + m * 0.2 * math.sin(a + w))]),
                  band if i % 2 == 0 else ornament)
    else:  # four tile faces printed flat where the tiles lie: only a tile's body tells them apart
        side = max(4, int(round(s / 3.6 * design.uniform(0.8, 1.0))))
        kinds = ("blue", "yellow", "red", "black", "white")
        for j, (dx, dy) in enumerate(((-1, -1), (1, -1), (-1, 1), (1, 1))):
            face = _azul_face(kinds[int(design.integers(len(kinds)))], side, fam)[..., :3].astype(np.float32)
            x0, y0 = int(round(c[0] + dx * side * 0.55 - side / 2)), int(round(c[1] + dy * side * 0.55 - side / 2))
            img[y0:y0 + side, x0:x0 + side] = face
    return _display_sprite(img, size_px)


def _banded_disc(size_px: int, family_name: str) -> np.ndarray:
    """A Summer Pavilion factory display: a cardboard disc with a coloured band round its rim and
    a faint rosette in its middle (the classic family's: cream, a blue band, orange ornaments)."""
    field, band, ornament = family(family_name).disc
    k = max(1, min(SUPERSAMPLE, 1024 // size_px))
    s = size_px * k
    c = (s / 2, s / 2)
    R = s / 2
    img = _paper(s, s, field, _seed("factory", size_px), mottle=4.0)
    # Outer blue band with orange ornaments, a thin orange ring, then the cream field.
    _circle(img, c, R * 0.98, band)
    _circle(img, c, R * 0.80, ornament)
    _circle(img, c, R * 0.75, field)
    for i in range(16):
        a = 2 * math.pi * i / 16
        p = (c[0] + R * 0.89 * math.cos(a), c[1] + R * 0.89 * math.sin(a))
        d = R * 0.07
        ca, sa = math.cos(a), math.sin(a)
        diamond = np.array([(p[0] + d * ca, p[1] + d * sa), (p[0] - 0.6 * d * sa, p[1] + 0.6 * d * ca),
                            (p[0] - d * ca, p[1] - d * sa), (p[0] + 0.6 * d * sa, p[1] - 0.6 * d * ca)])
        _poly(img, diamond, ornament)
        q = (c[0] + R * 0.89 * math.cos(a + math.pi / 16), c[1] + R * 0.89 * math.sin(a + math.pi / 16))
        _circle(img, q, R * 0.022, (235, 240, 245))
    # A faint rosette in the middle, mostly hidden by tiles.
    for i in range(8):
        a = 2 * math.pi * i / 8
        _circle(img, (c[0] + R * 0.3 * math.cos(a), c[1] + R * 0.3 * math.sin(a)), R * 0.14, _shade(field, -0.06),
                max(1, int(round(R * 0.012))))
    _circle(img, c, R * 0.12, _mix(field, ornament, 0.25))
    _circle(img, c, R * 0.985, _shade(band, -0.3), max(1, int(round(R * 0.02))))
    return _display_sprite(img, size_px)


def _display_sprite(img: np.ndarray, size_px: int) -> np.ndarray:
    """A display drawn ``s`` px square (``img``, supersampled) finished as a photo shows a disc and
    shrunk to ``size_px``, BGRA, alpha 0 outside the disc."""
    s = img.shape[0]
    img = _disc_finish(img, s, np.random.default_rng(_seed("factory-finish", size_px)))
    mask = np.zeros((s, s), np.uint8)
    _circle(mask, (s / 2, s / 2), s / 2 - 0.5, 255)
    bgr = _shrink(np.clip(img, 0, 255), (size_px, size_px))
    alpha = _shrink(mask, (size_px, size_px)).astype(np.float32)[..., None]
    return _frozen(np.clip(np.concatenate([bgr, alpha], axis=2) + 0.5, 0, 255).astype(np.uint8))


# --------------------------------------------------------------------------- table surfaces


def _periodic_noise(rng: np.random.Generator, n: int, sx: float, sy: float) -> np.ndarray:
    """Tileable smooth noise (n x n, zero mean, unit std): white noise low-passed in the frequency
    domain with a Gaussian of widths ``sx``, ``sy`` pixels, so that it wraps seamlessly."""
    white = rng.normal(0.0, 1.0, (n, n))
    fy = np.fft.fftfreq(n)[:, None]
    fx = np.fft.fftfreq(n)[None, :]
    filt = np.exp(-2 * (math.pi ** 2) * ((fx * sx) ** 2 + (fy * sy) ** 2))
    out = np.real(np.fft.ifft2(np.fft.fft2(white) * filt))
    out -= out.mean()
    return (out / max(out.std(), 1e-9)).astype(np.float32)


def _ramp(t: np.ndarray, a, b) -> np.ndarray:
    """Colour ramp from BGR ``a`` (t = 0) to ``b`` (t = 1)."""
    t = np.clip(t, 0, 1)[..., None]
    return np.array(a, np.float32) * (1 - t) + np.array(b, np.float32) * t


def _wood(rng, n: int, light, dark, planks: int) -> np.ndarray:
    ys = np.arange(n, dtype=np.float32)[:, None] / n
    warp = _periodic_noise(rng, n, n / 3, n / 24)
    rings = np.sin(2 * math.pi * (ys * 14 + 0.35 * warp))  # grain lines run along x
    fibre = _periodic_noise(rng, n, n / 6, 1.2)
    t = 0.5 + 0.25 * rings + 0.12 * fibre + 0.1 * _periodic_noise(rng, n, n / 2, n / 8)
    img = _ramp(t, light, dark)
    # Plank seams (a whole number per tile so the texture wraps).
    for k in range(planks):
        y = int(k * n / planks)
        img[y:y + 2] *= 0.55
        tone = 1.0 + 0.06 * rng.normal()
        img[y + 2:int((k + 1) * n / planks)] *= tone
    return img


def _cloth(rng, n: int, color, weave: float, period: int, mottle: float) -> np.ndarray:
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    w = 2 * math.pi / period
    # Over-under weave: threads along x and y alternating in a checker of period ``period``.
    warp_th = np.sin(xs * w) ** 2
    weft_th = np.sin(ys * w) ** 2
    checker = ((np.floor(xs / period) + np.floor(ys / period)) % 2).astype(np.float32)
    pattern = np.where(checker > 0, warp_th, weft_th)
    t = weave * (pattern - 0.5) + mottle * _periodic_noise(rng, n, n / 8, n / 8) + 0.02 * _periodic_noise(rng, n, 1, 1)
    if weave > 0:  # slubs: uneven threads running the length and width of the cloth, as in linen
        t += weave * 0.35 * (_periodic_noise(rng, n, n / 3, 0.7) + _periodic_noise(rng, n, 0.7, n / 3))
    img = np.empty((n, n, 3), np.float32)
    img[:] = color
    return img * (1.0 + t[..., None])


def _texture(index: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(_seed("table", index, n))
    if index == 0:  # light oak
        img = _wood(rng, n, (150, 190, 222), (92, 132, 176), 4)
    elif index == 1:  # dark walnut
        img = _wood(rng, n, (52, 78, 110), (22, 36, 58), 3)
    elif index == 2:  # green felt: fuzzy, no visible weave
        img = _cloth(rng, n, (62, 110, 38), 0.0, 4, 0.06)
        img *= (1.0 + 0.05 * _periodic_noise(rng, n, 1.0, 1.0))[..., None]
    elif index == 3:  # grey cloth with a coarse weave
        img = _cloth(rng, n, (118, 120, 122), 0.16, max(3, n // 128), 0.04)
    elif index == 4:  # white tablecloth, fine weave
        img = _cloth(rng, n, (228, 232, 234), 0.08, max(2, n // 170), 0.025)
    elif index == 5:  # dark slate laminate
        img = np.empty((n, n, 3), np.float32)
        img[:] = (62, 60, 58)
        img *= (1.0 + 0.08 * _periodic_noise(rng, n, n / 10, n / 10) + 0.04 * _periodic_noise(rng, n, 1.5, 1.5))[..., None]
    elif index in PRINTED_CLOTHS:
        img = _printed_cloth(rng, n, ("flowers", "checks", "swirls")[index - 6])
    else:
        img = _tile_ink_cloth(rng, n, index == TILE_CLOTHS[0])
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)


def _gingham(img: np.ndarray, period: float, ink, strength: float) -> np.ndarray:
    """A gingham on a square cloth ``img``: bands of ``ink`` ``period`` pixels wide crossing,
    ``strength`` of it where one band lies, twice that where two cross."""
    n = img.shape[0]
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    band_x = (np.floor(xs / period) % 2 == 0).astype(np.float32)
    band_y = (np.floor(ys / period) % 2 == 0).astype(np.float32)
    t = (strength * (band_x + band_y))[..., None]
    return img * (1 - t) + np.array(ink, np.float32) * t


def _printed_cloth(rng: np.random.Generator, n: int, motif: str) -> np.ndarray:
    """A printed tablecloth (``n`` px spans 45 cm): flowers, checks or swirls about a tile's size,
    in strong colours that a tile may have too. Real tables are covered so; only a tile's body
    tells it from a print the size and colour of a tile."""
    field = tuple(int(c) for c in rng.integers(150, 235, 3))
    img = _cloth(rng, n, field, 0.06, max(2, n // 170), 0.03)
    inks = [tuple(int(c) for c in rng.integers(20, 200, 3)) for _ in range(3)]
    mm = n / 450.0  # pixels per millimetre of the cloth
    if motif == "checks":
        return _gingham(img, rng.uniform(18, 36) * mm, inks[0], 0.45)
    count = int(n * n / (rng.uniform(30, 60) * mm) ** 2)
    for _ in range(count):
        c = rng.uniform(0, n, 2)
        size = rng.uniform(6, 16) * mm
        ink = inks[int(rng.integers(len(inks)))]
        if motif == "flowers":  # five round petals and a heart
            turn = rng.uniform(0, 2 * math.pi)
            for k in range(5):
                a = turn + 2 * math.pi * k / 5
                _circle(img, (c[0] + size * 0.55 * math.cos(a), c[1] + size * 0.55 * math.sin(a)), size * 0.42, ink)
            _circle(img, tuple(c), size * 0.3, inks[(inks.index(ink) + 1) % len(inks)])
        else:  # a dark curl
            t = np.linspace(0, rng.uniform(3, 5) * math.pi, 30)
            r = size * (0.2 + 0.8 * t / t[-1])
            a0 = rng.uniform(0, 2 * math.pi)
            pts = np.stack([c[0] + r * np.cos(t + a0), c[1] + r * np.sin(t + a0)], 1)
            cv2.polylines(img, [_fixed(pts).reshape(-1, 1, 2)], False, _shade(ink, -0.4), max(1, int(round(1.8 * mm))),
                          cv2.LINE_AA, 4)
    return img


def _tile_ink_cloth(rng: np.random.Generator, n: int, gingham: bool) -> np.ndarray:
    """A cloth printed in the tiles' own inks (``n`` px spans 45 cm): a gingham of a tile's size
    in one of them on white, or squares a tile's size in several, scattered and turned."""
    inks = [AZUL_BASE[k] for k in ("blue", "yellow", "red", "black", "white")]
    img = _cloth(rng, n, (236, 238, 240), 0.06, max(2, n // 170), 0.03)
    mm = n / 450.0
    if gingham:
        period = rng.uniform(16, 26) * mm
        return _gingham(img, period, inks[int(rng.integers(len(inks)))], 0.5)
    for _ in range(int(n * n / (rng.uniform(35, 60) * mm) ** 2)):
        c, side, turn = rng.uniform(0, n, 2), rng.uniform(14, 22) * mm, rng.uniform(0, math.pi / 2)
        corners = [(c[0] + side / math.sqrt(2) * math.cos(turn + j * math.pi / 2),
                    c[1] + side / math.sqrt(2) * math.sin(turn + j * math.pi / 2)) for j in range(4)]
        _poly(img, np.array(corners), inks[int(rng.integers(len(inks)))])
    return img


#: Number of table surfaces: light wood, dark wood, green felt, grey cloth, white tablecloth, slate,
#: cloths printed with flowers, checks or swirls (:func:`_printed_cloth`), and cloths printed in
#: the tiles' own inks (:func:`_tile_ink_cloth`).
TABLE_TEXTURES = 11
#: The printed cloths: every blend may be seen on them (training's many worlds), no named family
#: is yet (their scenes are the tests' and benches'; finding boards on such a cloth is not done).
PRINTED_CLOTHS = (6, 7, 8)
#: The cloths printed in tile inks: only blends printed as no one designed them are seen on them.
TILE_CLOTHS = (9, 10)


@lru_cache(maxsize=32)
def table_texture(index: int, size_px: int = 512) -> np.ndarray:
    """BGR uint8 tileable texture (``size_px`` square) of a table surface; ``index`` in
    ``0 .. TABLE_TEXTURES - 1``: light wood, dark wood, green felt, grey cloth, white tablecloth,
    dark slate, printed cloths. Raises :class:`RenderError` for an index out of range or ``size_px < 16``."""
    if not isinstance(index, (int, np.integer)) or not 0 <= index < TABLE_TEXTURES:
        raise RenderError("render.texture_range", last=TABLE_TEXTURES - 1, index=index)
    if not isinstance(size_px, (int, np.integer)) or size_px < 16:
        raise RenderError("render.size", least=16, size=size_px)
    return _frozen(_texture(int(index), int(size_px)))


def clear_caches() -> None:
    """Forget every cached image (tests use it to check determinism)."""
    for f in (tile_sprite, board_art, factory_sprite, table_texture):
        f.cache_clear()
