"""Training and evaluation samples of the shipped networks, cut from rendered scenes.

Every sample is cut by the reader's own code, exactly as at inference (:mod:`azulcam.vision.crops`,
:mod:`~azulcam.vision.reader`, :mod:`~azulcam.vision.detect`, :mod:`~azulcam.vision.board_fit`,
:mod:`~azulcam.vision.board_finder`), from a scene the renderer (:mod:`azulcam.synth`) drew at a
random moment of a random seeded game (:func:`azulcam.synth.dataset.random_position`), with its
label from the scene's truth: so training and inference share their crops, and the renderer needs
none of the reader. Board slots are cut through corners nudged by a few pixels (a profile is never
exact); loose tiles through their true outline, nudged too; plain table patches teach ``empty``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from ..calibration.geometry import tile_mm
from ..calibration.layouts import load_layout
from ..calibration.profile import Profile, board_homography, outlines_a_board, to_image
from ..engine.games import GAMES
from ..engine.zones import Slot, Zone
from ..vision import crops, light

#: The classifier's classes: ``empty``, then each game's tile kinds as ``game/kind``.
CLASSES: tuple[str, ...] = (
    "empty",
    "azul/blue", "azul/yellow", "azul/red", "azul/black", "azul/white", "azul/joker", "azul/first_player",
    "pavilion/purple", "pavilion/green", "pavilion/orange", "pavilion/yellow", "pavilion/blue", "pavilion/red",
    "pavilion/first_player",
)
CLASS_INDEX = {name: i for i, name in enumerate(CLASSES)}


def label(game: str, kind: str | None) -> int:
    return 0 if kind is None else CLASS_INDEX[f"{game}/{kind}"]


@dataclass
class Patches:
    """Patches (N x PATCH x PATCH x C, uint8, BGR first) and their class indices."""

    images: np.ndarray
    labels: np.ndarray


#: Side of a training crop of the top-down view (pixels at ``detect.VIEW_PPM``): 192 mm, twice
#: what the network sees around a cell, and small enough to train fast.
DETECT_CROP = 96


@dataclass
class DetectorSamples:
    """Crops of top-down views (N x DETECT_CROP x DETECT_CROP x 3 uint8 BGR), their heat-map
    targets (N x K x DETECT_CROP/STRIDE x DETECT_CROP/STRIDE float32) and weights (N x h x w)."""

    views: np.ndarray
    heat: np.ndarray
    weight: np.ndarray

    @staticmethod
    def join(parts: list["DetectorSamples"]) -> "DetectorSamples":
        return DetectorSamples(*(np.concatenate([getattr(p, n) for p in parts]) for n in ("views", "heat", "weight")))


def scene_views(image: np.ndarray, truth: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A scene's top-down view at ``detect.VIEW_PPM`` as the locator makes it (from the truth's
    profile), its heat-map targets and weights: every tile off the boards (factories, centre,
    beside the boards), tiles in hidden zones and the boards themselves ignored."""
    from ..vision import detect, locate

    game = truth["observation"]["game"]
    plane = locate.table_plane(Profile.from_json(truth["profile"]))
    view = locate.rectify(image, plane, detect.VIEW_PPM)
    hidden = {h["zone"] for h in truth["hidden"]}
    centres, channels, ignored = [], [], []
    for item in truth["items"]:
        zone = Zone.parse(item["zone"])
        if not zone.loose:
            continue  # board slots and the supply are read slot by slot
        at = view.to_px(plane.plane_points(np.array([item["center"]], np.float64)))[0]
        if zone in hidden:
            ignored.append(at)
        else:
            centres.append(at)
            channels.append(detect.KINDS.index(f"{game}/{item['kind']}"))
    heat, weight = detect.heatmap_targets(view.image.shape[:2], np.array(centres).reshape(-1, 2), np.array(channels, int),
                                          np.array(ignored).reshape(-1, 2), [view.to_px(b) for b in plane.boards],
                                          tile_mm(GAMES[game]) * detect.VIEW_PPM)
    return view.image, heat, weight


def detector_samples(image: np.ndarray, truth: dict[str, Any], rng: np.random.Generator, crops_per_scene: int = 6
                     ) -> DetectorSamples:
    """Crops of a scene's top-down view with their targets: half centred near a tile off the
    boards, half anywhere."""
    from ..vision import detect

    view, heat, weight = scene_views(image, truth)
    s = detect.STRIDE
    size, cell = DETECT_CROP, DETECT_CROP // s
    pad = size
    view = cv2.copyMakeBorder(view, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    heat = np.pad(heat, ((0, 0), (pad // s, pad // s), (pad // s, pad // s)))
    weight = np.pad(weight, ((pad // s, pad // s), (pad // s, pad // s)), constant_values=1.0)
    tiles = np.argwhere(heat.max(0) >= 1.0)  # (row, col) cells of the tile centres
    views, heats, weights = [], [], []
    vh, vw = view.shape[:2]
    for k in range(crops_per_scene):
        if k % 2 == 0 and len(tiles):
            r, c = tiles[rng.integers(len(tiles))]
            y = int(r * s - size // 2 + rng.integers(-size // 3, size // 3 + 1))
            x = int(c * s - size // 2 + rng.integers(-size // 3, size // 3 + 1))
        else:
            y, x = int(rng.integers(pad // 2, vh - size - pad // 2)), int(rng.integers(pad // 2, vw - size - pad // 2))
        y = int(np.clip(y, 0, vh - size)) // s * s
        x = int(np.clip(x, 0, vw - size)) // s * s
        views.append(view[y:y + size, x:x + size])
        heats.append(heat[:, y // s:y // s + cell, x // s:x // s + cell])
        weights.append(weight[y // s:y // s + cell, x // s:x // s + cell])
    return DetectorSamples(np.stack(views), np.stack(heats).astype(np.float16), np.stack(weights).astype(np.uint8))


# --------------------------------------------------------------------------- candidate patches

#: A candidate this near a tile's centre (mm) is that tile; one farther than CANDIDATE_FAR from
#: every tile is none (between the two, it is left out: half on a tile).
CANDIDATE_NEAR, CANDIDATE_FAR = 6.0, 9.0


def candidate_patches(image: np.ndarray, truth: dict[str, Any], detector: Any, rng: np.random.Generator,
                      sure_share: float = 0.3) -> Patches:
    """The candidate model's patches of one scene: every tile the detector proposes in the centre
    and beside the boards, down to ``detect.CANDIDATE_FLOOR``, found as the locator finds them
    (the displays from the photo, the view from the truth's profile), cut as
    :func:`azulcam.vision.detect.candidate_patches` cuts them, labelled with the tile whose centre
    lies within :data:`CANDIDATE_NEAR` or as empty where none lies within :data:`CANDIDATE_FAR`.
    Candidates the detector is sure of (``detect.SURE``) are thinned to ``sure_share``: the model
    reads them too, but the unsure ones are where it decides most."""
    from ..vision import detect, locate

    game = truth["observation"]["game"]
    profile = Profile.from_json(truth["profile"])
    plane = locate.table_plane(profile)
    view = locate.rectify(image, plane, detect.VIEW_PPM)
    discs = locate.find_factories(image, profile, game, view, plane)
    found = detect.loose_tiles(detector, view, plane, game, discs, locate.unseen_displays(discs, plane, game),
                               floor=detect.CANDIDATE_FLOOR)
    hidden = {h["zone"] for h in truth["hidden"]}
    items = truth["items"]
    centres = plane.plane_points(np.array([i["center"] for i in items], np.float64).reshape(-1, 2))
    outlines, labels = [], []
    for f in found:
        if not detect.off_the_displays(f.zone) or f.zone in hidden or not items:
            continue
        distance = np.linalg.norm(centres - plane.plane_points(f.outline.mean(axis=0)[None])[0], axis=1)
        nearest = int(distance.argmin())
        if distance[nearest] <= CANDIDATE_NEAR and items[nearest]["zone"] not in hidden:
            if f.confidence >= detect.SURE and rng.random() >= sure_share:
                continue
            labels.append(label(game, items[nearest]["kind"]))
        elif distance[nearest] >= CANDIDATE_FAR:
            labels.append(0)
        else:
            continue
        outlines.append(f.outline)
    return Patches(detect.candidate_patches(image, np.array(outlines, np.float64).reshape(-1, 4, 2)),
                   np.array(labels, np.int64))


# --------------------------------------------------------------------------- reading-model patches


#: Of the places on empty displays, at most this many a scene (an empty display's four at most
#: three times over: the displays empty out as a round goes on).
EMPTY_PLACES_A_SCENE = 12


def empty_display_places(truth: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """The top faces the four tiles of each empty display in view would show (K x 4 x 2 image
    pixels), turned at random round the display's centre, as ``locate.factory_tiles`` places them."""
    from ..synth.camera import Camera
    from ..vision import locate
    from ..calibration.geometry import FACTORY_HEIGHT_MM, tile_height

    obs, cam = truth["observation"], truth["camera"]
    hidden = {h["zone"] for h in truth["hidden"]}
    centres = np.array([f["center"] for n, f in enumerate(obs["factories"])
                        if not f["tiles"] and Zone.display(n) not in hidden], np.float64).reshape(-1, 2)
    if not len(centres):
        return np.zeros((0, 4, 2))
    camera = Camera.from_json(cam)
    # The discs' centres on their tops (the truth's centres are there), then the tiles' tops.
    on_discs = camera.table_points(centres, FACTORY_HEIGHT_MM)
    game = obs["game"]
    spec = GAMES[game]
    # Four squares lie turned alike; four rhombuses as a pinwheel, each a quarter turn on.
    spins = np.zeros(4) if spec.shape == "square" else np.array([0.0, 90.0, 180.0, 270.0])
    out = []
    for centre in on_discs:
        turn = rng.uniform(0.0, 360.0)
        where = locate.display_offsets(game) @ locate.rotations(turn)
        for place, spin in zip(where, spins):
            face = locate.tile_polygon(game) @ locate.rotations(turn + spin) + centre + place
            out.append(camera.project(np.hstack([face, np.full((4, 1), -(FACTORY_HEIGHT_MM + tile_height(spec)))])))
    return np.array(out, np.float64)


def reader_patches(image: np.ndarray, truth: dict[str, Any], calibration: Any | None, rng: np.random.Generator,
                   nudge_px: float = 1.5, empty_share: float = 0.4) -> Patches:
    """The reading model's patches of one scene (:mod:`azulcam.vision.reader`; N x 32 x 32 x 9):
    every visible board slot (empty ones thinned to ``empty_share`` of the patches) beside the
    same slot on the board bare and the photo's consensus of its print
    (:func:`azulcam.vision.reader.consensus`), and every loose tile and the places of the empty
    displays (:func:`empty_display_places`, read empty) beside zeros. ``calibration``: the same
    table photographed at the game's start (a scene of :func:`azulcam.synth.render.render_moments`),
    or None for a scene read with no calibration: then, and for the Summer Pavilion supply, the
    bare slot is zeros. Each view's corners are nudged on their own (neither a profile nor a
    calibration is exact)."""
    from ..vision import bare, reader

    obs = truth["observation"]
    game = obs["game"]
    hidden = {h["zone"] for h in truth["hidden"]}
    boards = [(b, b["player"], obs["boards"][b["player"]]["slots"], k)
              for k, b in enumerate(truth["profile"]["boards"])]
    if truth["profile"]["scoring_board"]:
        supply = {Slot.supply(i): c for i, c in enumerate(obs["supply"]) if c is not None}
        boards.append((truth["profile"]["scoring_board"], None, supply, None))
    nows, labels, cards, centres, cuts = [], [], [], [], []
    for placement, _, filled, index in boards:
        layout = load_layout(placement["layout"])
        homography = board_homography(np.asarray(placement["corners"], np.float64) + rng.normal(0, nudge_px, (4, 2)))
        # Every slot is cut, hidden ones too, as a reading cuts them for the print's consensus.
        ids, now = reader.slot_patches(image, homography, layout)
        cuts.append((layout, ids, now))
        cards.append(light.card_colour(image, homography, layout.name))
        centres.append(crops.slot_outlines(homography, layout, [layout.ids[0], layout.ids[-1]])[1].mean(axis=(0, 1)))
    for (placement, player, filled, index), (layout, ids, now), agreed in zip(boards, cuts, reader.consensus(cuts)):
        seen_ids = [n for n, i in enumerate(ids) if Zone.of_slot(player, i) not in hidden]
        if not seen_ids:
            continue
        ids = [ids[n] for n in seen_ids]
        if calibration is not None and index is not None:
            corners = calibration.truth["profile"]["boards"][index]["corners"]
            seen = board_homography(np.asarray(corners, np.float64) + rng.normal(0, nudge_px, (4, 2)))
            kept = reader.bare_slot_patches(bare.rectified(calibration.image, seen, layout.name), layout, ids)
        else:
            kept = None
        nows.append(reader.model_input(now[seen_ids], kept, agreed[seen_ids]))
        labels += [label(game, filled.get(i)) for i in ids]
    labels_arr = np.array(labels, np.int64)
    slots = np.concatenate(nows) if nows else np.zeros((0, 32, 32, reader.CHANNELS), np.uint8)
    keep = np.ones(len(labels_arr), bool)
    empties = np.flatnonzero(labels_arr == 0)
    allowed = int(empty_share / (1 - empty_share) * max(int((labels_arr != 0).sum()), 1))
    if len(empties) > allowed:
        keep[rng.choice(empties, len(empties) - allowed, replace=False)] = False
    parts, part_labels = [slots[keep]], [labels_arr[keep]]
    # Loose tiles (displays, centre, beside the boards) in the light of the nearest board's card.
    items = [i for i in truth["items"] if Zone.parse(i["zone"]).loose and i["zone"] not in hidden]
    # The locator proposes four places on every display it takes for occupied: on an empty one,
    # they are its print, never tiles.
    places = empty_display_places(truth, rng)[:EMPTY_PLACES_A_SCENE]
    known = [(c, card) for c, card in zip(centres, cards) if card is not None]
    if (items or len(places)) and known:
        outlines = np.concatenate([np.array([crops.outline_of(i) for i in items]).reshape(-1, 4, 2), places])
        outlines = outlines + rng.normal(0, nudge_px, outlines.shape)
        patches = crops.cut(image, outlines, reader.READ_MARGIN)
        where = np.array([c for c, _ in known])
        nearest = np.linalg.norm(outlines.mean(axis=1)[:, None] - where[None], axis=2).argmin(axis=1)
        for k in np.unique(nearest):
            patches[nearest == k] = light.in_card_light(patches[nearest == k], known[k][1])
        parts.append(reader.model_input(patches, None, None))
        part_labels.append(np.array([label(game, i["kind"]) for i in items] + [0] * len(places), np.int64))
    return Patches(np.concatenate(parts), np.concatenate(part_labels))


# --------------------------------------------------------------------------- board-fitting views


@dataclass
class BoardFitSamples:
    """Views through board outlines (N x VIEW_PX x VIEW_PX x 3 uint8 BGR, :func:`board_fit.board_view`),
    where each cell truly lies (N x 2 x cells x cells float16, shifts in the outline's fractions
    times ``board_fit.SHIFT_SCALE``; zeros for no board), what each view shows (an index of
    ``board_fit.KINDS``) and its outline's quarter turn from the owner's corners (-1 for no board)."""

    views: np.ndarray
    shifts: np.ndarray
    kinds: np.ndarray
    turns: np.ndarray

    @staticmethod
    def join(parts: list["BoardFitSamples"]) -> "BoardFitSamples":
        return BoardFitSamples(*(np.concatenate([getattr(p, n) for p in parts])
                                 for n in ("views", "shifts", "kinds", "turns")))


def _outline_off(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``corners`` as a rough outline may give them: each corner off on its own by a share of the
    board's side drawn from 0.3 % to 6 % (log-uniform), and half the time the whole outline moved,
    turned and scaled as a board bumped on the table."""
    side = float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())
    out = corners + rng.normal(0, np.exp(rng.uniform(np.log(0.003), np.log(0.06))) * side, (4, 2))
    if rng.random() < 0.5:
        centre = out.mean(axis=0)
        angle = np.radians(rng.normal(0, 3.0))
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]) * np.exp(rng.normal(0, 0.03))
        out = (out - centre) @ turn.T + centre + rng.normal(0, 0.03 * side, 2)
    return out


def board_fit_samples(image: np.ndarray, truth: dict[str, Any], rng: np.random.Generator, looks: int = 3
                      ) -> BoardFitSamples:
    """The board-fitting model's views of one scene: each board whose centre is in view seen
    ``looks`` times through outlines off its corners (:func:`_outline_off`), starting at a random
    corner; and views of no board: a contour of the photo that is no board's outline (as
    calibration meets them, :func:`calibrate.board_candidates`), a part of a board (its wall, its
    pattern lines) and a board-sized square of the table."""
    from ..vision import board_fit
    from ..vision.calibrate import board_candidates

    h, w = image.shape[:2]
    cells = board_fit.cell_fractions()
    n_cells = board_fit.VIEW_PX // board_fit.STRIDE
    placements = list(truth["profile"]["boards"]) + ([truth["profile"]["scoring_board"]]
                                                     if truth["profile"]["scoring_board"] else [])
    boards = [(np.asarray(p["corners"], np.float64), p["layout"]) for p in placements]
    boards = [(c, layout) for c, layout in boards if 0 <= c.mean(0)[0] < w and 0 <= c.mean(0)[1] < h]
    views, shifts, kinds, turns = [], [], [], []

    def add(outline: np.ndarray, kind: int, turn: int, shift: np.ndarray | None) -> None:
        views.append(board_fit.board_view(image, outline))
        shifts.append(np.zeros((2, n_cells, n_cells), np.float16) if shift is None else shift)
        kinds.append(kind)
        turns.append(turn)

    for corners, layout in boards:
        for _ in range(looks):
            turn = int(rng.integers(4))
            outline = np.roll(_outline_off(corners, rng), turn, axis=0)
            # A cell's place in the image, then in the true board's fractions (corners in the outline's order).
            seen = to_image(np.linalg.inv(board_homography(np.roll(corners, turn, axis=0))),
                            to_image(board_homography(outline), cells))
            shift = ((seen - cells).T * board_fit.SHIFT_SCALE).reshape(2, n_cells, n_cells).astype(np.float16)
            add(outline, board_fit.KINDS.index(layout), turn, shift)
    none = board_fit.KINDS.index("none")
    if boards:
        sides = [float(np.linalg.norm(c[1] - c[0])) for c, _ in boards]
        far = [q for q in board_candidates(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 0.004 * h * w)
               if all(min(np.abs(np.roll(q, k, axis=0) - c).max() for k in range(4)) > 0.15 * s
                      for (c, _), s in zip(boards, sides))]
        if far:
            add(far[int(rng.integers(len(far)))], none, -1, None)
        corners, _ = boards[int(rng.integers(len(boards)))]
        x0, y0 = rng.uniform(0, 0.5, 2)
        x1, y1 = x0 + rng.uniform(0.3, 0.5), y0 + rng.uniform(0.3, 0.5)
        part = to_image(board_homography(corners), np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        add(np.roll(part, int(rng.integers(4)), axis=0), none, -1, None)
        side = float(rng.choice(sides))
        centre = rng.uniform([side, side], [max(side + 1, w - side), max(side + 1, h - side)])
        angle = rng.uniform(0, np.pi / 2)
        square = np.array([[np.cos(a), np.sin(a)] for a in angle + np.arange(4) * np.pi / 2]) * side / np.sqrt(2)
        add(centre + square, none, -1, None)
    if not views:
        n = board_fit.VIEW_PX
        return BoardFitSamples(np.zeros((0, n, n, 3), np.uint8), np.zeros((0, 2, n_cells, n_cells), np.float16),
                               np.zeros(0, np.int64), np.zeros(0, np.int64))
    return BoardFitSamples(np.stack(views), np.stack(shifts), np.array(kinds, np.int64), np.array(turns, np.int64))



# --------------------------------------------------------------------------- board-finding frames


def board_finder_frame(image: np.ndarray, truth: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """A scene as the board-finding model sees it: the photo shrunk as at inference
    (:func:`board_finder.shrunk`), and its targets at that size (2 x H x W uint8,
    0 or 255): every board's card (the players' and the scoring board, where they lie under a hand
    too), and its core (:func:`board_finder.core_outline`)."""
    from ..vision import board_finder

    frame, scale = board_finder.shrunk(image)
    h, w = image.shape[:2]
    profile = truth["profile"]
    placements = list(profile["boards"]) + ([profile["scoring_board"]] if profile["scoring_board"] else [])
    masks = np.zeros((2, *frame.shape[:2]), np.uint8)
    shift = 4  # sub-pixel corners for fillPoly (a sixteenth of a pixel)
    for p in placements:
        corners = np.asarray(p["corners"], np.float64)
        if not outlines_a_board(corners) or np.abs(corners).max() > 20 * max(h, w):
            continue  # a board reaching behind the camera: its corners project nowhere it lies
        for k, outline in enumerate((corners, board_finder.core_outline(corners))):
            at = ((outline + 0.5) * scale - 0.5) * (1 << shift)
            cv2.fillPoly(masks[k], [np.round(at).astype(np.int32)], 255, lineType=cv2.LINE_8, shift=shift)
    return frame, masks
