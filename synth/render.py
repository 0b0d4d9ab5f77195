"""The synthetic table renderer: photo-like images of a game position, with their truth.

One scene is a chain of small steps, each a function below:

1. :func:`draw_table` paints the table top-down in millimetres (a canvas): the table
   surface, the boards with their thickness, factory discs, soft shadows, then every tile
   with its bevelled sides, raised towards the camera by its height;
2. the camera's maps turn the canvas into the perspective view with its lens distortion
   (one ``cv2.remap``);
3. :func:`draw_occluders` adds the things in front of the table (hands, cups, boxes) as 3-D
   shapes projected by the same camera, and the mask of what they hide;
4. :func:`light` applies the light: colour temperature, uneven light, cast shadows, exposure,
   glare spots on tiles; :func:`degrade` the camera's faults: defocus, motion blur, sensor
   noise; the JPEG encoder its artefacts.

The truth comes from the same table: the ``azulcam-observation/1`` a perfect reader would
print, the ``azulcam-profile/1`` with the boards' true corners, and what is hidden.
"""

from __future__ import annotations

import math
import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np

from ..calibration.profile import PROFILE_FORMAT
from ..engine.games import GameSpec
from ..engine.zones import HAND
from . import hands, props
from ..timing import Stopwatch
from ..calibration import geometry as geo
from ..calibration.geometry import BOARD_HEIGHT_MM, FACTORY_HEIGHT_MM, SCORE_MARKER_MM, factory_diameter, tile_height, tile_mm
from .camera import Camera, ViewRanges, sample_camera
from .props import Prop
from .table import (Arrangement, Item, Marker, Table, arrange, build_table, contents_of, observation, rotate,
                    score_markers, zone_contents)

SCENE_FORMAT = "azulcam-scene/1"
_MAX_CANVAS_PX = 3e6  # keeps a zoomed-out oblique view from drawing a huge canvas


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Look:
    """Everything about one scene's art, light and camera faults, drawn once per scene (a video
    keeps one and lets the light drift). ``family`` is the art family (``hands.FAMILY_NAMES``)."""

    texture: int
    light_dir: tuple[float, float]  # where shadows fall (table mm per mm of height)
    shadow_strength: float
    kelvin: float
    white_balance: float  # 0: the camera keeps the light's colour, 1: it corrects it fully
    exposure: float
    gradient: tuple[float, float, float]  # uneven light: strength, direction (rad), centre offset
    vignette: float
    glare: float  # share of tiles with a glare spot
    defocus: float  # Gaussian sigma in pixels
    motion: tuple[float, float]  # length in pixels, angle
    noise: float  # sensor noise sigma (8-bit levels)
    jpeg: int
    cast_shadows: tuple[tuple[float, float, float, float], ...]  # soft shadows of unseen things: x, y, radius, depth (image fractions)
    family: str = "classic"


@dataclass(frozen=True)
class SceneOptions:
    """What a random scene may be. ``clean`` turns off every photographic effect (flat even light,
    no blur, noise, glare, hands or clutter, JPEG 95) for tests of geometry."""

    size: tuple[int, int] = (1280, 720)
    view: ViewRanges = ViewRanges()
    hands: float = 0.35  # probability of a hand over the table
    clutter: float = 0.6  # probability of cups and boxes on the table
    jpeg: tuple[int, int] = (30, 95)
    clean: bool = False
    #: Light at the edges of the ranges only: the warmest or coldest colour temperature, the
    #: darkest or brightest exposure, a camera that barely corrects white balance.
    edge_light: bool = False
    #: The art family the components and the table are drawn in (``hands.FAMILY_NAMES``).
    family: str = "classic"
    #: Probability of one to three props that look like the game beside the play area (``props``:
    #: holed trivets, coins, dice, score pads, the box lid). Drawn from a generator of their own,
    #: so that scenes without them are unchanged.
    props: float = 0.0


def sample_look(rng: np.random.Generator, options: SceneOptions) -> Look:
    family = hands.drawing(options.family)
    if options.clean:
        return Look(family.tables[0], (0.25, 0.2), 0.3, 5500.0, 1.0, 1.0, (0.0, 0.0, 0.0), 0.0, 0.0, 0.0, (0.0, 0.0), 0.0,
                    95, (), family.name)
    a = rng.uniform(0, 2 * math.pi)
    slope = rng.uniform(0.1, 0.6)
    casts = tuple((float(rng.uniform(-0.2, 1.2)), float(rng.uniform(-0.2, 1.2)), float(rng.uniform(0.1, 0.5)),
                   float(rng.uniform(0.1, 0.45))) for _ in range(int(rng.integers(0, 3))))
    look = Look(
        texture=family.tables[int(rng.integers(len(family.tables)))],
        light_dir=(slope * math.cos(a), slope * math.sin(a)),
        shadow_strength=float(rng.uniform(0.2, 0.55)),
        kelvin=float(rng.uniform(2700, 6500)),
        white_balance=float(rng.uniform(0.3, 0.9)),
        exposure=float(math.exp(rng.uniform(math.log(0.6), math.log(1.35)))),
        gradient=(float(rng.uniform(0, 0.45)), float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(-0.5, 0.5))),
        vignette=float(rng.uniform(0, 0.35)),
        glare=float(rng.uniform(0, 0.25)),
        defocus=float(rng.uniform(0, 1.6)) if rng.random() < 0.6 else 0.0,
        motion=(float(rng.uniform(2, 9)), float(rng.uniform(0, 180))) if rng.random() < 0.2 else (0.0, 0.0),
        noise=float(rng.uniform(0.5, 7)),
        jpeg=int(rng.integers(options.jpeg[0], options.jpeg[1] + 1)),
        cast_shadows=casts,
        family=family.name,
    )
    if options.edge_light:  # drawn after the rest, so that scenes without it are unchanged
        warm, dark = rng.random() < 0.5, rng.random() < 0.5
        look = dataclasses.replace(
            look, kelvin=float(rng.uniform(2700, 3000) if warm else rng.uniform(6200, 6500)),
            exposure=float(rng.uniform(0.6, 0.68) if dark else rng.uniform(1.25, 1.35)),
            white_balance=float(rng.uniform(0.3, 0.4)))
    return look


# --------------------------------------------------------------------------- occluders


@dataclass(frozen=True)
class Solid:
    """A 3-D thing in front of the table, as convex faces in table mm (z < 0 is up), each with
    its BGR colour; ``kind`` is ``hand`` or ``clutter``."""

    kind: str
    faces: tuple[tuple[np.ndarray, tuple[int, int, int]], ...]

    def shadow_points(self, light_dir: tuple[float, float]) -> list[np.ndarray]:
        """The faces pushed down onto the table along the light."""
        out = []
        for pts, _ in self.faces:
            h = -pts[:, 2]
            out.append(np.stack([pts[:, 0] + h * light_dir[0], pts[:, 1] + h * light_dir[1], np.zeros(len(pts))], 1))
        return out


_SKIN = ((140, 170, 225), (120, 150, 205), (95, 125, 180), (70, 100, 150), (50, 75, 115), (160, 185, 235))
_CLUTTER = ((40, 40, 160), (200, 200, 200), (60, 120, 60), (30, 30, 30), (150, 100, 40), (90, 160, 220), (230, 230, 235))


def _circle(cx: float, cy: float, r: float, z: float, n: int = 20, squash: float = 1.0, turn: float = 0.0) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    x, y = r * np.cos(a), r * squash * np.sin(a)
    c, s = math.cos(turn), math.sin(turn)
    return np.stack([cx + x * c - y * s, cy + x * s + y * c, np.full(n, z)], 1)


def make_hand(rng: np.random.Generator, target: tuple[float, float], table_centre: tuple[float, float],
              away: float | None = None, height: float | None = None) -> Solid:
    """A hand hovering ``height`` mm over ``target``, its arm reaching in from the direction
    ``away`` (radians; by default from beyond the table's edge behind the target)."""
    tx, ty = target
    if away is None:
        away = math.atan2(ty - table_centre[1], tx - table_centre[0]) + rng.normal(0, 0.5)
    ux, uy = math.cos(away), math.sin(away)  # from the hand towards the player's body
    z = -(height if height is not None else rng.uniform(35, 110))
    skin = _SKIN[int(rng.integers(len(_SKIN)))]
    shade = lambda f: tuple(int(min(255, c * f)) for c in skin)  # noqa: E731
    sleeve = _CLUTTER[int(rng.integers(len(_CLUTTER)))]
    faces = []
    px, py = -uy, ux  # across the arm
    wrist = (tx + ux * 55, ty + uy * 55)
    elbow = (tx + ux * 300, ty + uy * 300)
    shoulder = (tx + ux * 560, ty + uy * 560)
    forearm = np.array([[wrist[0] + px * 32, wrist[1] + py * 32, z - 5], [elbow[0] + px * 44, elbow[1] + py * 44, z - 110],
                        [elbow[0] - px * 44, elbow[1] - py * 44, z - 110], [wrist[0] - px * 32, wrist[1] - py * 32, z - 5]])
    faces.append((forearm, shade(0.85)))
    half = forearm.copy()  # the lit half of the forearm
    half[2:] = (forearm[:2][::-1] + forearm[2:]) / 2
    faces.append((half, shade(0.95)))
    cuff = (forearm[[1, 2]] * 0.7 + forearm[[0, 3]] * 0.3)  # a sleeve from part-way up the forearm
    upper = np.array([[shoulder[0] + px * 60, shoulder[1] + py * 60, z - 420],
                      [shoulder[0] - px * 60, shoulder[1] - py * 60, z - 420]])
    faces.append((np.vstack([cuff[0] + [px * 4, py * 4, 0], upper[0], upper[1], cuff[1] - [px * 4, py * 4, 0]]), sleeve))
    faces.append((_circle(tx + ux * 12, ty + uy * 12, 45, z, 24, 0.85, away), shade(1.0)))
    spread = rng.uniform(0.15, 0.35)
    for k in range(4):  # fingers fanning out from the palm
        ang = away + math.pi + (k - 1.5) * spread
        fx, fy = math.cos(ang), math.sin(ang)
        bx, by = tx - ux * 20 + px * (k - 1.5) * 18, ty - uy * 20 + py * (k - 1.5) * 18
        length = rng.uniform(55, 80)
        finger = np.array([[bx - fy * 8, by + fx * 8, z], [bx + fx * length - fy * 7, by + fy * length + fx * 7, z + 8],
                           [bx + fx * length + fy * 7, by + fy * length - fx * 7, z + 8], [bx + fy * 8, by - fx * 8, z]])
        faces.append((finger, shade(0.95 - 0.04 * k)))
    thumb_ang = away + math.pi + (1.3 if rng.random() < 0.5 else -1.3)
    tx2, ty2 = tx + math.cos(thumb_ang) * 55, ty + math.sin(thumb_ang) * 55
    faces.append((np.array([[tx + px * 10, ty + py * 10, z], [tx2 + 8 * px, ty2 + 8 * py, z + 6],
                            [tx2 - 8 * px, ty2 - 8 * py, z + 6], [tx - px * 10, ty - py * 10, z]]), shade(0.9)))
    return Solid("hand", tuple(faces))


def make_clutter(rng: np.random.Generator, extent: tuple[float, float, float, float], overlap: float = 0.0) -> Solid:
    """A cup or a box standing on the table beside the play area ``extent`` (x0, y0, x1, y1),
    reaching at most ``overlap`` mm over its edge."""
    cup = rng.random() < 0.5
    r, h = rng.uniform(35, 50), rng.uniform(80, 110)
    w, d = rng.uniform(80, 260), rng.uniform(80, 260)
    reach = r if cup else math.hypot(w, d) / 2
    x0, y0, x1, y1 = extent
    side, t = int(rng.integers(4)), rng.uniform(0, 1)
    out = reach - overlap + rng.uniform(0, 150)
    x = (x0 - out, x1 + out, x0 + t * (x1 - x0), x0 + t * (x1 - x0))[side]
    y = (y0 + t * (y1 - y0), y0 + t * (y1 - y0), y0 - out, y1 + out)[side]
    color = _CLUTTER[int(rng.integers(len(_CLUTTER)))]
    dark = tuple(int(c * 0.7) for c in color)
    if cup:  # a body, its rim and what is inside
        base, top = _circle(x, y, r, 0.0), _circle(x, y, r * 1.08, -h)
        body = np.vstack([base, top])
        inner = _circle(x, y, r * 0.95, -h + 2)
        drink = (20, 40, 70) if rng.random() < 0.5 else (200, 200, 205)
        return Solid("clutter", ((body, dark), (top, color), (inner, drink)))
    h = rng.uniform(30, 90)
    turn = rng.uniform(0, math.pi)
    corners = [rotate(sx * w / 2, sy * d / 2, math.degrees(turn)) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    bottom = np.array([[x + cx, y + cy, 0.0] for cx, cy in corners])
    top = bottom.copy()
    top[:, 2] = -h
    faces = [(np.vstack([bottom[i:i + 2], top[i:i + 2]]), tuple(int(c * (0.55 + 0.1 * i)) for c in color)) for i in range(3)]
    faces.append((np.vstack([bottom[[3, 0]], top[[3, 0]]]), dark))
    faces.append((top, color))
    return Solid("clutter", tuple(faces))


def sample_occluders(rng: np.random.Generator, table: Table, options: SceneOptions) -> list[Solid]:
    if options.clean:
        return []
    arr = table.arrangement
    solids = []
    if rng.random() < options.clutter:
        for _ in range(int(rng.integers(1, 4))):  # around the play area, sometimes over its edge
            solids.append(make_clutter(rng, arr.extent(), overlap=60.0))
    if rng.random() < options.hands:
        targets = list(arr.factories) + [b.slot_center(b.layout.ids[int(rng.integers(len(b.layout.ids)))])
                                          for b in arr.boards]
        solids.append(make_hand(rng, targets[int(rng.integers(len(targets)))], arr.center))
    return solids


# --------------------------------------------------------------------------- drawing the table


@dataclass
class Canvas:
    """A top-down drawing of part of the table: pixel (0, 0) covers table point ``origin``."""

    image: np.ndarray
    origin: tuple[float, float]
    ppm: float  # pixels per millimetre

    def xy(self, pts: np.ndarray) -> np.ndarray:
        """Table mm (N x 2) -> canvas pixel coordinates (OpenCV's: integers at pixel centres)."""
        return (np.asarray(pts, np.float64) - self.origin) * self.ppm - 0.5


def canvas_for(camera: Camera, arrangement: Arrangement, lying: Sequence[Prop] = ()
               ) -> tuple[tuple[float, float], float, tuple[int, int]]:
    """The part of the table the camera sees (clipped to the play area and a margin that takes
    in the props ``lying`` there), and a scale fine enough for its nearest point."""
    world = camera.grid_table_points().reshape(-1, 2)
    world = world[np.isfinite(world).all(1)]
    x0, y0, x1, y1 = arrangement.extent()
    margin = 160.0
    for prop in lying:
        reach = math.hypot(*prop.size) / 2
        margin = max(margin, prop.x - x1 + reach, x0 - prop.x + reach, prop.y - y1 + reach, y0 - prop.y + reach)
    lo = np.maximum(world.min(0), [x0 - margin, y0 - margin])
    hi = np.minimum(world.max(0), [x1 + margin, y1 + margin])
    hi = np.maximum(hi, lo + 10)
    scale = camera.mm_per_px()
    ppm = float(np.clip(1.0 / np.nanmin(scale[np.isfinite(scale)]), 0.3, 8.0))
    span = hi - lo
    if span[0] * span[1] * ppm * ppm > _MAX_CANVAS_PX:
        ppm = math.sqrt(_MAX_CANVAS_PX / (span[0] * span[1]))
    size = (int(math.ceil(span[0] * ppm)) + 1, int(math.ceil(span[1] * ppm)) + 1)
    return (float(lo[0]), float(lo[1])), ppm, size


def lift(points: np.ndarray, height: float, camera_xy: np.ndarray, camera_height: float) -> np.ndarray:
    """Where a table point raised by ``height`` mm appears when the raised plane is drawn flat:
    pushed away from the point under the camera, as perspective shows it."""
    return points + (points - camera_xy) * (height / (camera_height - height))


@lru_cache(maxsize=16)
def _seamless(texture: Callable[[int], np.ndarray], index: int) -> np.ndarray:
    """Table ``index`` of a hand's ``texture`` beside its mirror images: tiles with no visible
    seam (one hand's families share the function, and so the cache)."""
    tex = texture(index)
    row = np.hstack([tex, tex[:, ::-1]])
    out = np.vstack([row, row[::-1]])
    out.flags.writeable = False
    return out


def _textured(look: Look, ppm: float, size: tuple[int, int], offset: tuple[int, int]) -> np.ndarray:
    tex = _seamless(hands.drawing(look.family).table_texture, look.texture)
    scale = ppm * 900.0 / tex.shape[1]  # one mirrored texture tile spans 90 cm of table
    tw = max(8, int(round(tex.shape[1] * scale)))
    tex = cv2.resize(tex, (tw, tw), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    reps = (size[1] // tw + 2, size[0] // tw + 2, 1)
    ox, oy = offset[0] % tw, offset[1] % tw
    return np.ascontiguousarray(np.tile(tex, reps)[oy:oy + size[1], ox:ox + size[0]])


def _art_scale(ppm: float) -> float:
    """Board art is cached at a few scales; take the smallest one at least as fine as needed."""
    for s in (1.0, 2.0, 3.0, 4.5, 6.0):
        if s >= ppm:
            return s
    return 8.0


def _paste_affine(canvas: np.ndarray, src: np.ndarray, src_pts: np.ndarray, dst_pts: np.ndarray) -> None:
    """Warp ``src`` (BGR or BGRA) so that its three points land on ``dst_pts``, inside the
    bounding box of its destination only; BGRA is blended by its alpha."""
    m = cv2.getAffineTransform(src_pts[:3].astype(np.float32), dst_pts[:3].astype(np.float32))
    h, w = src.shape[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ m.T
    x0, y0 = np.floor(corners.min(0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 1
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    m = m.copy()
    m[:, 2] -= (x0, y0)
    roi = canvas[y0:y1, x0:x1]
    if src.shape[2] == 3:
        cv2.warpAffine(src, m, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
        return
    warped = cv2.warpAffine(src, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    alpha = warped[:, :, 3:4].astype(np.float32) * (1 / 255)
    roi[:] = (warped[:, :, :3] * alpha + roi * (1 - alpha)).astype(np.uint8)


_TOKEN_OUTLINE = tuple((math.cos(a) * geo.PAVILION_TILE_SIDE_MM * 0.75, math.sin(a) * geo.PAVILION_TILE_SIDE_MM * 0.75)
                       for a in np.linspace(0, 2 * math.pi, 16, endpoint=False))


def _item_polygon(spec: GameSpec, item: Item) -> np.ndarray:
    """The outline of a tile's face on the table (mm), in the sprite polygon's vertex order
    (the round start-player token of a game of rhombuses: its bounding square, then its outline)."""
    square = spec.shape == "square"
    if square or item.kind == "first_player":
        s = geo.AZUL_TILE_MM / 2 if square else geo.PAVILION_TILE_SIDE_MM * 0.75
        local = [(-s, -s), (s, -s), (s, s), (-s, s)]
        if not square:
            local += list(_TOKEN_OUTLINE)
    else:
        half_long = geo.PAVILION_TILE_SIDE_MM * math.sqrt(3) / 2
        half_short = geo.PAVILION_TILE_SIDE_MM / 2
        local = [(0, -half_long), (half_short, 0), (0, half_long), (-half_short, 0)]
    return np.array([(item.x + dx, item.y + dy) for dx, dy in (rotate(x, y, item.angle) for x, y in local)])


@dataclass(frozen=True)
class _Body:
    """A tile or a score marker as drawn: its centre (mm), the polygon its sprite is placed on and
    its outline on the table (mm), the height it rests on and its own, its sides' colour and its
    top face's sprite."""

    x: float
    y: float
    polygon: np.ndarray
    outline: np.ndarray
    base: float
    height: float
    side: tuple[int, int, int]
    sprite: tuple[np.ndarray, np.ndarray]


def _body(spec: GameSpec, item: Item, drawn: Any, ppm: float) -> _Body:
    poly = _item_polygon(spec, item)
    return _Body(item.x, item.y, poly, poly[4:] if len(poly) > 4 else poly, item.base, tile_height(spec),
                 drawn.tile_side_color(spec.name, item.kind),
                 drawn.tile_sprite(spec.name, item.kind, _sprite_size(spec, item.kind, ppm)))


def marker_outline(marker: Marker) -> np.ndarray:
    """A score marker's square on the table (mm, 4 x 2, the sprite's vertex order)."""
    s = SCORE_MARKER_MM / 2
    return np.array([(marker.x + dx, marker.y + dy)
                     for dx, dy in (rotate(x, y, marker.angle) for x, y in ((-s, -s), (s, -s), (s, s), (-s, s)))])


def _marker_body(marker: Marker, drawn: Any, ppm: float) -> _Body:
    poly = marker_outline(marker)
    size = next((s for s in _SPRITE_LADDER if s >= SCORE_MARKER_MM * ppm * 1.1), _SPRITE_LADDER[-1])
    return _Body(marker.x, marker.y, poly, poly, marker.base, SCORE_MARKER_MM, drawn.marker_side,
                 drawn.marker_sprite(size))


#: Sprite sizes are taken from this ladder (about 12% apart): the warp scales them the rest of the
#: way, and the art cache holds a few dozen sprites per kind instead of one per scale ever seen.
_SPRITE_LADDER = tuple(sorted({int(round(6 * 1.12 ** k)) for k in range(40)}))


def _sprite_size(spec: GameSpec, kind: str, ppm: float) -> int:
    # A sprite's side: a square's, the round token's square, or a rhombus's long diagonal.
    if spec.shape == "square":
        mm = geo.AZUL_TILE_MM
    elif kind == "first_player":
        mm = geo.PAVILION_TILE_SIDE_MM * 1.5
    else:
        mm = geo.PAVILION_TILE_SIDE_MM * math.sqrt(3)
    need = mm * ppm * 1.1
    return next((s for s in _SPRITE_LADDER if s >= need), _SPRITE_LADDER[-1])


def table_background(camera: Camera, look: Look) -> np.ndarray:
    """The bare table wherever the camera sees it, at a coarse scale: what lies beyond the
    drawn canvas (the canvas covers the play area only, to stay small)."""
    world = camera.grid_table_points().reshape(-1, 2)
    world = world[np.isfinite(world).all(1)]
    lo, hi = world.min(0), world.max(0)
    lo, hi = np.maximum(lo, -4000), np.minimum(np.maximum(hi, lo + 10), 4000)
    span = hi - lo
    ppm = float(min(1.0 / np.nanmin(camera.mm_per_px()), math.sqrt(1.5e6 / (span[0] * span[1]))))
    size = (int(math.ceil(span[0] * ppm)) + 1, int(math.ceil(span[1] * ppm)) + 1)
    texture = _textured(look, ppm, size, _texture_offset(look, (float(lo[0]), float(lo[1])), ppm))
    mx, my = camera.table_maps((float(lo[0]), float(lo[1])), ppm)
    return cv2.remap(texture, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)


def _texture_offset(look: Look, origin: tuple[float, float], ppm: float) -> tuple[int, int]:
    # Anchored to the table, so the coarse background and the fine canvas show the same grain.
    return int(round((origin[0] + 5000) * ppm)), int(round((origin[1] + 5000) * ppm))


def draw_table(table: Table, camera: Camera, look: Look, lying: Sequence[Prop] = ()) -> Canvas:
    """Paint the visible part of the table top-down: surface, props, boards, discs, shadows, tiles."""
    arr = table.arrangement
    drawn = hands.drawing(look.family)
    origin, ppm, size = canvas_for(camera, arr, lying)
    canvas = Canvas(_textured(look, ppm, size, _texture_offset(look, origin, ppm)), origin, ppm)
    img = canvas.image
    for prop in lying:  # flat on the table, under everything else
        picture = props.sprite(prop)
        h, w = picture.shape[:2]
        _paste_affine(img, picture, np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5]]), canvas.xy(prop.corners()))
    cam_xy = camera.position[:2]
    cam_h = -float(camera.position[2])
    light = np.array(look.light_dir)
    shade = np.zeros(img.shape[:2], np.uint8)

    # Boards: their shadows and card edges, then the printed art on their raised top.
    for piece in arr.all_boards():
        base = np.array(piece.corners())
        top = lift(base, BOARD_HEIGHT_MM, cam_xy, cam_h)
        cv2.fillConvexPoly(shade, np.round(canvas.xy(base + light * BOARD_HEIGHT_MM * 3) * 16).astype(np.int32), 255,
                           cv2.LINE_AA, 4)
        edge = cv2.convexHull(np.round(canvas.xy(np.vstack([base, top])) * 16).astype(np.int32))
        cv2.fillConvexPoly(img, edge, (70, 85, 95), cv2.LINE_AA, 4)
        s = _art_scale(ppm)
        sheet = drawn.board_art(piece.layout.name, s)
        h, w = sheet.shape[:2]
        _paste_affine(img, sheet, np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5]]), canvas.xy(top[:3]))
    # Factory displays.
    diameter = factory_diameter(arr.spec)
    disc_px = next((s for s in _SPRITE_LADDER if s >= diameter * ppm), _SPRITE_LADDER[-1])
    disc = drawn.factory_sprite(disc_px, game=arr.game)
    for (fx, fy), turn in zip(arr.factories, arr.factory_angles):
        c = lift(np.array([[fx, fy]]), FACTORY_HEIGHT_MM, cam_xy, cam_h)[0]
        cv2.circle(shade, tuple(np.round(canvas.xy(np.array([[fx, fy]]) + light * 4)[0] * 16).astype(int)),
                   int(diameter / 2 * ppm * 16), 255, -1, cv2.LINE_AA, 4)
        r = diameter / 2
        pts = np.array([rotate(-r, -r, turn), rotate(r, -r, turn), rotate(r, r, turn)]) + c
        _paste_affine(img, disc, np.array([[-0.5, -0.5], [disc_px - 0.5, -0.5], [disc_px - 0.5, disc_px - 0.5]]),
                      canvas.xy(pts))
    # A board or disc is not in its own shadow: clear their tops before the tiles' shadows fall on them.
    for piece in arr.all_boards():
        top = lift(np.array(piece.corners()), BOARD_HEIGHT_MM, cam_xy, cam_h)
        cv2.fillConvexPoly(shade, np.round(canvas.xy(top) * 16).astype(np.int32), 0, cv2.LINE_AA, 4)
    for fx, fy in arr.factories:
        c = lift(np.array([[fx, fy]]), FACTORY_HEIGHT_MM, cam_xy, cam_h)
        cv2.circle(shade, tuple(np.round(canvas.xy(c)[0] * 16).astype(int)), int(diameter / 2 * ppm * 16), 0, -1,
                   cv2.LINE_AA, 4)
    # Tiles and score markers: shadows first, then each body far to near so that nearer sides
    # cover farther ones.
    bodies = [_body(arr.spec, it, drawn, ppm) for it in table.items] + [_marker_body(m, drawn, ppm) for m in table.markers]
    for body in bodies:
        cv2.fillConvexPoly(shade, np.round(canvas.xy(body.outline + light * (body.height + body.base)) * 16
                                           ).astype(np.int32), 255, cv2.LINE_AA, 4)
    k = max(3, int(ppm * 3) | 1)
    shade = cv2.blur(shade, (k, k))
    factor = cv2.merge([255 - (shade.astype(np.float32) * look.shadow_strength).astype(np.uint8)] * 3)
    cv2.multiply(img, factor, dst=img, scale=1 / 255)
    for body in sorted(bodies, key=lambda b: -math.hypot(b.x - cam_xy[0], b.y - cam_xy[1])):
        top = lift(body.polygon, body.base + body.height, cam_xy, cam_h)
        edge = np.vstack([lift(body.outline, body.base, cam_xy, cam_h),
                          lift(body.outline, body.base + body.height, cam_xy, cam_h)])
        sides = cv2.convexHull(np.round(canvas.xy(edge) * 16).astype(np.int32))
        cv2.fillConvexPoly(img, sides, body.side, cv2.LINE_AA, 4)
        sprite, sprite_poly = body.sprite
        _paste_affine(img, sprite, sprite_poly[:3] - 0.5, canvas.xy(top[:3]))
    return canvas


# --------------------------------------------------------------------------- in front of the table


def draw_occluders(image: np.ndarray, camera: Camera, solids: list[Solid]) -> dict[str, np.ndarray]:
    """Draw the solids, farthest first, and return each kind's mask of what it hides."""
    masks: dict[str, np.ndarray] = {}
    cam = camera.position
    ordered = sorted(solids, key=lambda s: -min(float(np.linalg.norm(f.mean(0) - cam)) for f, _ in s.faces))
    for solid in ordered:
        mask = masks.setdefault(solid.kind, np.zeros(image.shape[:2], np.uint8))
        for pts, color in sorted(solid.faces, key=lambda f: -float(np.linalg.norm(f[0].mean(0) - cam))):
            if np.any(pts[:, 2] <= cam[2]):  # never draw what reaches above the camera
                continue
            px = camera.project(pts)
            if not np.isfinite(px).all() or np.abs(px).max() > 1e5:
                continue
            hull = cv2.convexHull(np.round(px * 16).astype(np.int32))
            cv2.fillConvexPoly(image, hull, color, cv2.LINE_AA, 4)
            cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_8, 4)
            if solid.kind == "hand":  # the creases between fingers, palm and arm
                cv2.polylines(image, [hull], True, tuple(int(c * 0.72) for c in color), 1, cv2.LINE_AA, 4)
    return masks


# --------------------------------------------------------------------------- light and camera faults


def kelvin_to_bgr(kelvin: float) -> np.ndarray:
    """Relative BGR of a black body at ``kelvin`` (Tanner Helland's fit), green = 1."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
    rgb = np.clip([r, g, b], 1, 255)
    return np.array([rgb[2], rgb[1], rgb[0]]) / rgb[1]


def gain_field(look: Look, size: tuple[int, int], camera: Camera, solids: list[Solid], phase: float = 0.0) -> np.ndarray:
    """The light reaching each pixel, per channel, at low resolution (1.0 = neutral): colour
    temperature, exposure, uneven light, vignette, and soft cast shadows."""
    w, h = size
    gw, gh = 64, max(8, int(64 * h / w))
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    u, v = (xx + 0.5) / gw, (yy + 0.5) / gh
    strength, direction, offset = look.gradient
    direction += phase
    g = 1 + strength * ((u - 0.5) * math.cos(direction) + (v - 0.5) * math.sin(direction) + 0.2 * offset)
    g *= 1 - look.vignette * ((u - 0.5) ** 2 + (v - 0.5) ** 2) * 2
    shadow = np.zeros((gh, gw), np.float32)
    for cx, cy, r, depth in look.cast_shadows:
        cv2.circle(shadow, (int(cx * gw), int(cy * gh)), max(1, int(r * gw)), depth, -1, cv2.LINE_AA)
    scale = np.array([gw / w, gh / h])
    for solid in solids:
        for pts in solid.shadow_points(look.light_dir):
            px = camera.project(pts)
            if np.isfinite(px).all() and np.abs(px).max() < 1e5:
                poly = cv2.convexHull(np.round(px * scale * 16).astype(np.int32))
                cv2.fillConvexPoly(shadow, poly, look.shadow_strength, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 1.5)
    g = g * (1 - np.clip(shadow, 0, 0.8))
    cast = kelvin_to_bgr(look.kelvin)
    cast = cast ** (1 - look.white_balance)
    cast /= cast.mean()
    return np.clip(g[..., None] * (cast * look.exposure)[None, None, :], 0, 1.99).astype(np.float32)


@lru_cache(maxsize=8)
def _glare_sprite(size: int) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    c = (size - 1) / 2
    d = ((xx - c) / (size * 0.3)) ** 2 + ((yy - c) / (size * 0.18)) ** 2
    sprite = (np.exp(-d * 2) * 255).astype(np.uint8)
    sprite.flags.writeable = False
    return sprite


def light(image: np.ndarray, look: Look, camera: Camera, solids: list[Solid], glare_points: np.ndarray,
          glare_size: np.ndarray, phase: float = 0.0) -> np.ndarray:
    """Apply the gain field and the glare spots (tiles are glossy: a lamp shows on some of them)."""
    h, w = image.shape[:2]
    field_ = gain_field(look, (w, h), camera, solids, phase)
    gain = cv2.resize((field_ * 128).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(image, gain, scale=1 / 128)
    for (x, y), s in zip(glare_points, glare_size):
        s = int(max(4, s))
        x0, y0 = int(x - s / 2), int(y - s / 2)
        if x0 < 0 or y0 < 0 or x0 + s > w or y0 + s > h:
            continue
        spot = cv2.merge([_glare_sprite(s)] * 3)
        roi = out[y0:y0 + s, x0:x0 + s]
        cv2.add(roi, spot, dst=roi)
    return out


@lru_cache(maxsize=4)
def _noise_bank(w: int, h: int) -> np.ndarray:
    """A fixed field of unit Gaussian noise (x16, int16), larger than the image: each scene
    takes a random window of it, which costs an addition instead of drawing 3 million numbers."""
    bank = (np.random.default_rng(7).standard_normal((h + 64, w + 64, 3)) * 16).astype(np.int16)
    bank.flags.writeable = False
    return bank


def degrade(image: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """Defocus, motion blur and sensor noise."""
    out = image
    if look.defocus > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), look.defocus)
    length, angle = look.motion
    if length >= 2:
        k = int(math.ceil(length)) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
        cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
        out = cv2.filter2D(out, -1, kernel / kernel.sum())
    if look.noise > 0.3:
        h, w = out.shape[:2]
        bank = _noise_bank(w, h)
        ox, oy = rng.integers(0, 64, 2)
        noise = bank[oy:oy + h, ox:ox + w]
        out16 = out.astype(np.int16)
        out16 += (noise * (look.noise / 16)).astype(np.int16)
        out = np.clip(out16, 0, 255).astype(np.uint8)
    return out


# --------------------------------------------------------------------------- truth


def profile_json(table: Table, camera: Camera, options: dict[str, Any]) -> dict[str, Any]:
    """The ``azulcam-profile/1`` whose corners are where the boards' printed tops lie in the image,
    with the game's ``options`` and its player count."""

    def placement(piece: Any) -> dict[str, Any]:
        pts = np.hstack([np.array(piece.corners()), np.full((4, 1), -BOARD_HEIGHT_MM)])
        corners = [[round(float(x), 2), round(float(y), 2)] for x, y in camera.project(pts)]
        out: dict[str, Any] = {} if piece.player is None else {"player": piece.player}
        out.update({"layout": piece.layout.name, "corners": corners})
        return out

    arr = table.arrangement
    return {"format": PROFILE_FORMAT, "game": arr.game, "image_size": list(camera.size),
            "options": dict(options), "players": len(arr.boards),
            "boards": [placement(b) for b in arr.boards],
            "scoring_board": placement(arr.scoring) if arr.scoring else None, "colors": None}


def hidden_zones(table: Table, camera: Camera, masks: dict[str, np.ndarray]) -> list[dict[str, str]]:
    """Every zone with a point that cannot be seen: a slot whose centre, or a factory, centre
    area or hand strip with a tile (or a factory whose disc centre), that lies out of the frame
    or under a hand or clutter. ``by`` says which: ``frame``, ``hand`` or ``clutter``."""
    arr = table.arrangement
    h_tile = tile_height(arr.spec)
    points: list[tuple[str, float, float, float]] = []
    for piece in arr.all_boards():
        for slot in piece.layout.slots:
            x, y = piece.to_world(*slot.center)
            points.append((piece.zone(slot.id), x, y, BOARD_HEIGHT_MM))
    for zone, (x, y) in zip(table.factory_zones, arr.factories):
        points.append((zone, x, y, FACTORY_HEIGHT_MM))
    for it in table.items:
        if it.zone is not None and (not it.zone.on_board or it.zone.kind == HAND):
            points.append((it.zone, it.x, it.y, it.base + h_tile))
    for marker in table.markers:
        points.append((marker.zone, marker.x, marker.y, marker.base + SCORE_MARKER_MM))
    pts = np.array([[x, y, -z] for _, x, y, z in points])
    px = camera.project(pts)
    w, h = camera.size
    out: dict[str, str] = {}
    for (zone, *_), (u, v) in zip(points, px):
        if zone in out:
            continue
        if not (0 <= u < w and 0 <= v < h):
            out[zone] = "frame"
            continue
        for kind in ("hand", "clutter"):
            mask = masks.get(kind)
            if mask is not None and mask[int(v), int(u)]:
                out[zone] = kind
                break
    return [{"zone": z, "by": by} for z, by in out.items()]


# --------------------------------------------------------------------------- scenes


@dataclass
class Scene:
    """One rendered image (JPEG bytes) and its truth (``azulcam-scene/1``)."""

    jpeg: bytes
    truth: dict[str, Any]
    _image: np.ndarray | None = field(default=None, repr=False)

    @property
    def image(self) -> np.ndarray:
        if self._image is None:
            self._image = cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR)
        return self._image


def compose(table: Table, camera: Camera, look: Look, solids: list[Solid], rng: np.random.Generator,
            phase: float = 0.0, spent: dict[str, float] | None = None, lying: Sequence[Prop] = ()
            ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Every drawing step of one frame: the image (BGR, before JPEG) and the occluder masks.
    ``lying``: the props on the table. With ``spent``, the seconds of each stage are added to it."""
    clock = Stopwatch(spent)
    canvas = draw_table(table, camera, look, lying)
    clock.lap("table")
    image = table_background(camera, look)
    mx, my = camera.table_maps(canvas.origin, canvas.ppm)
    cv2.remap(canvas.image, mx, my, cv2.INTER_LINEAR, dst=image, borderMode=cv2.BORDER_TRANSPARENT)
    clock.lap("camera")
    masks = draw_occluders(image, camera, solids)
    clock.lap("occluders")
    glare_items = [it for it in table.items if rng.random() < look.glare]
    if glare_items:
        h = tile_height(table.spec)
        pts = np.array([[it.x, it.y, -(it.base + h)] for it in glare_items])
        glare_pts = camera.project(pts) + rng.normal(0, 1.5, (len(pts), 2))
        sizes = tile_mm(table.spec) / camera.mm_per_px().mean() * rng.uniform(0.4, 0.9, len(pts))
    else:
        glare_pts, sizes = np.zeros((0, 2)), np.zeros(0)
    image = (hands.drawing(look.family).light or light)(image, look, camera, solids, glare_pts, sizes, phase)
    clock.lap("light")
    image = degrade(image, look, rng)
    clock.lap("degrade")
    return image, masks


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV encodes any BGR image
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def sample_lying(seed: int | tuple[int, ...], arrangement: Arrangement, options: SceneOptions) -> list[Prop]:
    """The props on the table (``options.props``), from a generator of their own (seeded by the
    scene's seed), so that a scene without them draws exactly as before they existed."""
    if options.clean or options.props <= 0:
        return []
    rng = np.random.default_rng((*((seed,) if isinstance(seed, int) else seed), _PROPS_STREAM))
    if rng.random() >= options.props:
        return []
    return props.sample_props(rng, arrangement.extent(), int(rng.integers(1, 4)))


#: Added to a scene's seed for its props' generator.
_PROPS_STREAM = 7919
#: Added to a scene's seed for its score markers' generator.
_MARKERS_STREAM = 7927


def _markers(seed: int | tuple[int, ...], moment: int, arrangement: Arrangement, state: Any) -> list[Marker]:
    """Azul's score markers where ``state``'s scores put them, from a generator of their own (seeded
    by the scene's seed and the moment), so that the rest of a scene draws as before they existed."""
    if not arrangement.spec.score_track:
        return []
    rng = np.random.default_rng((*((seed,) if isinstance(seed, int) else seed), _MARKERS_STREAM, moment))
    return score_markers(arrangement, state.marker_cells(), rng)


def render_state(state: Any, seed: int | tuple[int, ...], options: SceneOptions = SceneOptions(),
                 spent: dict[str, float] | None = None) -> Scene:
    """A random photo of a game position (an ``AzulState`` or ``PavilionState``) and its truth.
    The same state, seed and options give the same bytes. With ``spent``, the seconds of each
    stage are added to it."""
    clock = Stopwatch(spent)
    rng = np.random.default_rng(seed)
    arrangement = arrange(state.game, state.players, state.spec.layout(state.options), rng)
    contents = zone_contents(state)
    table = build_table(arrangement, contents, rng)
    table.markers = _markers(seed, 0, arrangement, state)
    camera, params = sample_camera(rng, options.size, arrangement.extent(), tile_mm(state.spec), options.view,
                                   arrangement.outline_points())
    look = sample_look(rng, options)
    solids = sample_occluders(rng, table, options)
    lying = sample_lying(seed, arrangement, options)
    clock.lap("setup")
    image, masks = compose(table, camera, look, solids, rng, spent=spent, lying=lying)
    clock = Stopwatch(spent)
    jpeg = encode_jpeg(image, look.jpeg)
    clock.lap("jpeg")
    truth = scene_truth(table, camera, masks, params, look, state.options, look.family)
    if lying:
        centres = camera.project(np.array([[p.x, p.y, 0.0] for p in lying]))
        truth["props"] = [{"kind": p.kind, "center": [round(float(u), 1), round(float(v), 1)]}
                          for p, (u, v) in zip(lying, centres)]
    clock.lap("truth")
    return Scene(jpeg, truth, None)


def render_moments(states: Sequence[Any], seed: int | tuple[int, ...], options: SceneOptions = SceneOptions()
                   ) -> list[Scene]:
    """The same table at several moments of one game (engine states of one game, variant and
    player count): one arrangement, camera, light, clutter and props, each state's tiles laid
    anew, no hands. With ``states[0]`` the game's first position, the first is the photo a
    calibration at the start of the game takes. The same states, seed and options give the same
    bytes."""
    rng = np.random.default_rng(seed)
    first = states[0]
    arrangement = arrange(first.game, first.players, first.spec.layout(first.options), rng)
    camera, params = sample_camera(rng, options.size, arrangement.extent(), tile_mm(first.spec), options.view,
                                   arrangement.outline_points())
    look = sample_look(rng, options)
    solids = sample_occluders(rng, build_table(arrangement, zone_contents(first), rng), dataclasses.replace(options, hands=0.0))
    lying = sample_lying(seed, arrangement, options)
    scenes = []
    for n, state in enumerate(states):
        table = build_table(arrangement, zone_contents(state), rng)
        table.markers = _markers(seed, n, arrangement, state)
        image, masks = compose(table, camera, look, solids, rng, lying=lying)
        scenes.append(Scene(encode_jpeg(image, look.jpeg),
                            scene_truth(table, camera, masks, params, look, state.options, look.family), None))
    return scenes


def item_outlines(table: Table, camera: Camera) -> list[dict[str, Any]]:
    """Where each tile's top face lies in the image: zone, kind, centre and outline (pixels; a
    square's four corners, a rhombus's tip, side, tip, side, the round token's bounding square)."""
    h = tile_height(table.spec)
    out = []
    for it in table.items:
        if it.zone is None:
            continue
        poly = _item_polygon(table.spec, it)[:4]
        pts = np.vstack([[it.x, it.y], poly])
        px = camera.project(np.hstack([pts, np.full((len(pts), 1), -(it.base + h))]))
        out.append({"zone": it.zone, "kind": it.kind, "center": [round(float(v), 1) for v in px[0]],
                    "outline": [[round(float(u), 1), round(float(v), 1)] for u, v in px[1:]]})
    return out


def marker_truth(markers: list[Marker], camera: Camera) -> list[dict[str, Any]]:
    """Where each score marker's top face lies in the image: zone, cell, centre and outline (pixels)."""
    out = []
    for m in markers:
        pts = np.vstack([[m.x, m.y], marker_outline(m)])
        px = camera.project(np.hstack([pts, np.full((len(pts), 1), -(m.base + SCORE_MARKER_MM))]))
        out.append({"zone": m.zone, "cell": m.cell, "center": [round(float(v), 1) for v in px[0]],
                    "outline": [[round(float(u), 1), round(float(v), 1)] for u, v in px[1:]]})
    return out


def scene_truth(table: Table, camera: Camera, masks: dict[str, np.ndarray], params: dict[str, float],
                look: Look | None, options: dict[str, Any], family: str) -> dict[str, Any]:
    """The ``azulcam-scene/1`` truth of a drawn table of a game with ``options``, in the art
    family ``family``."""
    lifted = lambda pts: camera.project(np.hstack([np.asarray(pts, float), np.full((len(pts), 1), -FACTORY_HEIGHT_MM)]))  # noqa: E731
    truth: dict[str, Any] = {
        "format": SCENE_FORMAT,
        "family": family,
        "observation": observation(table, contents_of(table), lifted),
        "profile": profile_json(table, camera, options),
        "hidden": hidden_zones(table, camera, masks),
        "items": item_outlines(table, camera),
        "camera": {**camera.to_json(), **params},
    }
    if table.markers:
        truth["markers"] = marker_truth(table.markers, camera)
    if look is not None:
        truth["look"] = {"kelvin": round(look.kelvin), "exposure": round(look.exposure, 3),
                         "defocus": round(look.defocus, 2), "motion_px": round(look.motion[0], 1),
                         "noise": round(look.noise, 2), "jpeg": look.jpeg, "texture": look.texture}
    return truth
