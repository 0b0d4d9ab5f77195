"""From a photo to an ``azulcam-observation/1``: the reading pipeline, one step per function.

1. :func:`load_image` and the profile (``calibration.profile``): clear errors for bad input;
2. :func:`register_boards`: each board (and the scoring board) aligned from the profile's corners
   with its bare view from calibration (``register.refine_board``), or else by the
   board-fitting model from what every printing shares (``register.fit_board``);
3. :class:`TableLocator`: the factory displays and the four places of the tiles on each occupied
   one (``locate``); the loose tiles in the centre and beside the boards, found and named by the
   detector network (``detect``) on the same top-down view, and read again, with their weak
   peaks, by the candidate model (``detect.confirmed``). It works in a second thread while
   step 2 registers the boards and step 4 reads the slots;
4. :func:`reader_slots`: every slot read by the reading model (:mod:`reader`), beside the same
   slot bare where calibration kept the board; :func:`decoded_slots`: the most likely reading no
   rule forbids (:mod:`decode`, which asks the engine);
5. the loose tiles the locator asks about read by the same model (:func:`reader_loose`), and the
   locator's and the model's answers settled (:func:`recoloured`, :func:`one_marker`,
   :func:`beside_the_boards`, :func:`settled_displays`);
6. :func:`assemble`: the observation, with what is unsure in ``uncertain`` and what could not be
   seen in ``warnings``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..calibration.profile import BoardPlacement, Profile, board_homography
from ..engine.errors import CodedError
from ..engine.notice import Notice
from ..engine.games import GAMES
from ..engine.observe import OBSERVATION_FORMAT
from ..engine.zones import CENTER, DISPLAY, HAND, SUPPLY, Slot, Zone
from ..i18n.words import messages_json
from . import crops, decode, detect, light, locate, reader, score_track, verify
from .decode import UNSURE  # below it a reading is listed in ``uncertain``
from .image_file import ImageError, load_image  # noqa: F401 (the photo read, for the readers of this module)
from .bare import BareBoard, rectified
from .board_fit import BoardFitter
from .classify import Classifier, ruled_out
from .detect import MARKER  # the first-player marker's kind: one per game (:func:`one_marker`)
from .register import Registration, register_board, without_ipp
from .score_track import MarkerReading
from ..timing import Stopwatch

#: Below this confidence (the detector's peak), a tile the detector named a colour is read again
#: by the reading model in the nearest board's card light (:func:`recoloured`): the detector sees
#: the table's view as photographed, and at the ends of the light's range names a purple tile red.
RELIT_BELOW = 0.7
#: Two kinds told apart by brightness, not hue, which the nearest board's light does not swap
#: (:func:`recoloured`).
LIGHT_AND_DARK = frozenset({"black", "white"})


def fit_profile(profile: Profile, image: np.ndarray) -> tuple[Profile, list[str]]:
    """The profile for this image's size: the same when they agree, scaled (with a warning) when
    the image is the same view at another resolution. Raises :class:`ImageError` otherwise."""
    h, w = image.shape[:2]
    pw, ph = profile.image_size
    if (pw, ph) == (w, h):
        return profile, []
    if abs(pw / ph - w / h) > 0.01:
        raise ImageError("image.other_shape", pw=pw, ph=ph, w=w, h=h)
    s = w / pw

    def scaled(b: BoardPlacement | None) -> BoardPlacement | None:
        if b is None:
            return None
        return BoardPlacement(b.player, b.layout, tuple((x * s, y * s) for x, y in b.corners), b.bare)  # type: ignore[arg-type]

    fitted = replace(profile, image_size=(w, h), boards=tuple(scaled(b) for b in profile.boards),  # type: ignore[misc]
                     scoring_board=scaled(profile.scoring_board))
    return fitted, [Notice("warning.profile_scaled", pw=pw, ph=ph, w=w, h=h)]


@dataclass
class BoardView:
    """A registered board: its placement, refined corners and homography, and its card's colour
    in the frame (:func:`light.card_colour`; None where none of it is in view), which every patch
    of the board and the loose tiles nearest it are shown in."""

    placement: BoardPlacement
    registration: Registration
    homography: np.ndarray
    card: np.ndarray | None = None


def register_boards(image: np.ndarray, grey: np.ndarray, profile: Profile, bare: dict[int, BareBoard] | None = None,
                    fitter: BoardFitter | None = None) -> list[BoardView]:
    """Each board aligned from the profile's corners (``register.register_board``): with the
    user's own board as calibration kept it bare (``bare``, by player), else by the
    board-fitting model (``fitter``, by default the shipped one)."""
    views = []
    for b in profile.boards + ((profile.scoring_board,) if profile.scoring_board else ()):
        layout = load_layout(b.layout).name
        board = (bare or {}).get(b.player) if b.player is not None else None
        sheet = board.image if board is not None and board.layout == layout else None
        reg = register_board(image, grey, np.asarray(b.corners, np.float64), layout, sheet, fitter)
        homography = board_homography(reg.corners)
        views.append(BoardView(b, reg, homography, light.card_colour(image, homography, layout)))
    return views


@dataclass
class Loose:
    """A loose tile or candidate: its outline (4 x 2 pixels) and zone (a display, the centre or
    beside a board: :attr:`Zone.loose`); with its ``kind`` and ``confidence`` when the locator already
    named it (the detector network), else the classifier reads its patch. Below ``unsure_below``
    its zone is listed as uncertain. ``checked``: the locator's candidate model already read it
    (``detect.confirmed``)."""

    outline: np.ndarray
    zone: Zone
    kind: str | None = None
    confidence: float = 0.0
    unsure_below: float = UNSURE
    checked: bool = False


@dataclass
class Reading:
    """Everything read from one image, before it becomes an observation: each slot of the boards
    (:attr:`slots`) and each loose tile (:attr:`loose`), with its kind and confidence
    (:attr:`slot_kinds`, :attr:`loose_kinds`, item by item)."""

    game: str
    boards: list[BoardView]
    factories: list[tuple[float, float]]
    #: Each slot read, by its zone: a player's board's slot, or a space of the scoring board's supply.
    slots: list[Zone]
    slot_kinds: list[tuple[str | None, float]]
    loose: list[Loose]
    loose_kinds: list[tuple[str | None, float]]
    warnings: list[str] = field(default_factory=list)
    spent: dict[str, float] = field(default_factory=dict)
    #: The reading model's answers for each slot (rows as ``slots``), and the kinds of their columns.
    probabilities: np.ndarray | None = None
    columns: list[str | None] = field(default_factory=list)
    #: Each slot as the reading model saw it (rows as ``slots``: N x 32 x 32 x 3 BGR in its
    #: board's card light, :func:`reader.slot_patches`): what a later view of the slot is compared with.
    patches: np.ndarray | None = None
    #: Each Azul player's score marker, by player (:func:`score_track.read_markers`).
    markers: dict[int, MarkerReading] = field(default_factory=dict)
    #: Each slot on its board as calibration saw it bare, cut as :attr:`patches` (zeros where no
    #: bare view was kept): what a slot looks like with no tile on it, on this very table.
    bare_patches: np.ndarray | None = None
    #: Each slot as the reading model read it, all its channels (N x 32 x 32 x 9,
    #: :func:`reader.model_input`): what a table memory learns from (:func:`taught.teach`).
    slot_inputs: np.ndarray | None = None


@lru_cache(maxsize=1)
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def blas_on_one_thread() -> None:
    """Caps numpy's BLAS (OpenBLAS in numpy's wheels) at one thread, for the whole process.

    A frame's products are small (3 x 3 homographies times a few thousand points) and gain
    nothing from BLAS's own threads, which spin for a while after each call and take the cores
    from the pipeline's two threads: a four-player Azul table read 104-110 ms with them and 74-75
    ms without, alternately in fresh processes on this 2-core machine (the locator alone 56 ->
    43 ms). Cheap enough (20 us) to apply on every reading."""
    _blas().limit(limits=1, user_api="blas")


def read(image: np.ndarray, profile: Profile, classifier: Classifier, locator: Any | None = None,
         bare: dict[int, BareBoard] | None = None, fitter: BoardFitter | None = None) -> Reading:
    """Every step of the pipeline up to the reading model's answers (numpy's BLAS on one thread:
    :func:`blas_on_one_thread`; OpenCV without IPP, so that a photo reads the same in every
    process: :func:`without_ipp`). ``classifier``: the reading model (``classify.load_reader``);
    ``bare``: the boards as calibration saw them bare, by player: each board is aligned with its
    own and each slot read beside it (:func:`reader_slots`); ``fitter``: the board-fitting model
    for the boards without one (by default the shipped one)."""
    blas_on_one_thread()
    with without_ipp():
        return _read(image, profile, classifier, locator, bare or {}, fitter)


def reader_slots(image: np.ndarray, boards: list[BoardView], bare: dict[int, BareBoard], model: Classifier, game: str,
                 without: Collection[str] = ()) -> tuple[list[Zone], np.ndarray, list[str | None], np.ndarray]:
    """Every slot of every board read by the reading model (:mod:`reader`), each beside the same
    slot on its board as calibration saw it bare where ``bare`` holds that board, and beside the
    photo's consensus of its print (:func:`reader.consensus`): the slots' zones
    (:meth:`Zone.of_slot`), the N x K probabilities of the game's kinds, those K kinds (None: empty)
    and the slots' patches as the model saw them (N x 32 x 32 x 9, :func:`reader.model_input`:
    now, bare or zeros where no bare view was kept, the print's consensus). One batched call; the kinds ``without`` (those
    the game's options rule out) have probability 0."""
    slots, inputs, cuts = [], [], []
    for view in boards:
        layout = load_layout(view.placement.layout)
        ids, now = reader.slots_in_card_light(image, view.homography, layout, view.card)
        cuts.append((layout, ids, now))
        slots += [Zone.of_slot(view.placement.player, i) for i in ids]
    kept: list[BareBoard | None] = []  # each board's bare view, where calibration kept one of its layout
    for view, (layout, _, _) in zip(boards, cuts):
        board = bare.get(view.placement.player) if view.placement.player is not None else None
        kept.append(board if board is not None and board.layout == layout.name else None)
    for board, (layout, ids, now), agreed in zip(kept, cuts, reader.consensus(cuts)):
        inputs.append(reader.model_input(now, reader.bare_slot_patches(board.image, layout, ids) if board else None,
                                         agreed))
    patches = np.concatenate(inputs) if inputs else np.zeros((0, crops.PATCH, crops.PATCH, reader.CHANNELS), np.uint8)
    probabilities, kinds = model.game_probabilities(patches, game, without)
    return slots, probabilities, kinds, patches


def decoded_slots(profile: Profile, slots: list[Zone], probabilities: np.ndarray,
                  kinds: list[str | None]) -> list[tuple[str | None, float]]:
    """Each slot's kind and its probability: on the players' boards, the most likely reading no
    rule of the game forbids (:func:`decode.decode_boards`, which asks the engine); elsewhere (the
    Summer Pavilion supply) the most likely kind."""
    best = probabilities.argmax(axis=1)
    out = [(kinds[b], float(probabilities[n, b])) for n, b in enumerate(best)]
    boards: dict[int, dict[str, dict[str | None, float]]] = {}
    where: dict[tuple[int, str], int] = {}
    for n, zone in enumerate(slots):
        player, slot = zone.player, zone.slot
        if player is not None and slot is not None:
            boards.setdefault(player, {})[slot] = dict(zip(kinds, map(float, probabilities[n])))
            where[player, slot] = n
    if boards:
        decoded = decode.decode_boards(profile.game, profile.game_options, boards, profile.player_count)
        for player, board_kinds in decoded.kinds.items():
            for slot, kind in board_kinds.items():
                out[where[player, slot]] = (kind, decoded.confidence[player][slot])
    return out


def loose_patches(image: np.ndarray, outlines: np.ndarray, boards: list[BoardView]) -> np.ndarray:
    """Loose tiles (``outlines``, N x 4 x 2 pixels) cut as the reading model sees them, each in
    the card light of the nearest board whose card is in view (as the light changes across a
    table): N x 32 x 32 x 3."""
    patches = crops.cut(image, outlines, reader.READ_MARGIN)
    known = [(view.registration.corners.mean(axis=0), view.card) for view in boards if view.card is not None]
    if known and len(outlines):
        centres = np.array([c for c, _ in known])
        nearest = np.linalg.norm(outlines.mean(axis=1)[:, None, :] - centres[None], axis=2).argmin(axis=1)
        for k in np.unique(nearest):
            patches[nearest == k] = light.in_card_light(patches[nearest == k], known[k][1])
    return patches


def reader_loose(image: np.ndarray, outlines: np.ndarray, boards: list[BoardView], model: Classifier, game: str,
                 without: Collection[str] = ()) -> list[tuple[str | None, float]]:
    """Loose tiles (``outlines``, N x 4 x 2 pixels) read by the reading model
    (:func:`loose_patches`), beside zeros (no bare view of a loose tile), as none of the kinds
    ``without`` (those the game's options rule out)."""
    return model.classify(reader.model_input(loose_patches(image, outlines, boards), None, None), game, without)


def reader_loose_likely(patches: np.ndarray, model: Classifier, game: str, without: Collection[str] = ()
                        ) -> tuple[np.ndarray, list[str | None]]:
    """Loose tiles' patches (:func:`loose_patches`) as the reading model sees them: N x K
    probabilities of ``game``'s kinds and empty (but ``without``), and the K kinds: its second
    thoughts as well as its answer."""
    return model.game_probabilities(reader.model_input(patches, None, None), game, without)


def _read(image: np.ndarray, profile: Profile, classifier: Classifier, locator: Any | None,
          bare: dict[int, BareBoard], fitter: BoardFitter | None) -> Reading:
    spent: dict[str, float] = {}
    lap = Stopwatch(spent).lap
    profile, warnings = fit_profile(profile, image)
    # The locator (displays and loose tiles) works in a second thread beside the boards' reading,
    # from their registration on: the two share only the photo, and each is mostly calls that
    # release the GIL. The locator is the longer of the two.
    with ThreadPoolExecutor(1, initializer=cv2.ipp.setUseIPP, initargs=(False,)) as pool:
        located = pool.submit(locator, image, profile) if locator is not None else None
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        boards = register_boards(image, grey, profile, bare, fitter)
        lap("register")
        slots, probabilities, columns, patches = reader_slots(image, boards, bare, classifier, profile.game,
                                                              ruled_out(profile.game, profile.game_options))
        lap("classify")
        markers = score_markers(image, boards)
        lap("markers")
        kinds = decoded_slots(profile, slots, probabilities, columns)
        lap("decode")
        # "locate" is the time spent waiting for the locator once the slots are read.
        factories, loose, seen_warnings = located.result() if located is not None else ([], [], [])
        loose = off_the_boards(loose, boards)
        lap("locate")
    reading = _with_loose_tiles(image, profile, classifier, boards, slots, kinds, factories, loose,
                                warnings + seen_warnings, spent, lap)
    reading.probabilities, reading.columns = probabilities, columns
    reading.patches, reading.bare_patches, reading.slot_inputs = patches[..., :3], patches[..., 3:6], patches
    reading.markers = markers
    return reading


def score_markers(image: np.ndarray, boards: list[BoardView]) -> dict[int, MarkerReading]:
    """Each player's score marker on their board's track, by player (Azul's boards have one)."""
    players = [view for view in boards if view.placement.player is not None]
    layouts = [load_layout(view.placement.layout) for view in players]
    if not any(layout.track for layout in layouts):
        return {}
    found = score_track.read_markers(image, [view.homography for view in players], layouts,
                                     [view.card for view in players])
    return {view.placement.player: m for view, m in zip(players, found) if m is not None}  # type: ignore[misc]


def _with_loose_tiles(image: np.ndarray, profile: Profile, classifier: Classifier, boards: list[BoardView],
                      slots: list[Zone], kinds: list[tuple[str | None, float]],
                      factories: list[tuple[float, float]], loose: list[Loose], warnings: list[str],
                      spent: dict[str, float], lap: Callable[[str], None]) -> Reading:
    """The reading of the boards' slots completed: the boards' warnings, then the loose tiles read."""
    h, w = image.shape[:2]
    for view in boards:
        player = view.placement.player
        corners = view.registration.corners
        if not view.registration.aligned:
            warnings.append(Notice("warning.not_aligned", player=player))
        if view.registration.by_outline:
            warnings.append(Notice("warning.unfamiliar_print", player=player))
        if (corners < 0).any() or (corners[:, 0] >= w).any() or (corners[:, 1] >= h).any():
            warnings.append(Notice("warning.outside", player=player))
    # The reading model reads the loose tiles the locator did not name, those off the displays it
    # is unsure of, and those it named the first-player marker (see ``one_marker``); and, a second
    # time, the tiles it named a colour below :data:`RELIT_BELOW` (``recoloured``).
    # A reader this table taught its loose tiles (``taught.TaughtReader``) names every one of them
    # (``taught_name``).
    taught = classifier.names_loose_tiles
    doubted = {n for n, x in enumerate(loose)
               if x.kind is None or x.kind == MARKER
               or (x.confidence < x.unsure_below and x.zone.kind != DISPLAY and not x.checked)}
    asked = [n for n in range(len(loose)) if n in doubted or taught]
    coloured = [] if taught else [n for n, x in enumerate(loose)
                                  if x.kind not in (None, MARKER) and x.confidence < RELIT_BELOW]
    chosen = asked + coloured
    outlines = np.array([loose[n].outline for n in chosen], np.float64).reshape(-1, 4, 2)
    without = ruled_out(profile.game, profile.game_options)
    read = reader_loose(image, outlines, boards, classifier, profile.game, without) if chosen else []
    lap("loose tiles")
    # One answer per loose tile: the locator's own where it named the tile.
    answers = dict(zip(asked, read))
    named = [answers[n] if x.kind is None
             else taught_name(x, answers[n], n in doubted) if taught and x.kind != MARKER
             else cross_checked(x, answers.get(n)) for n, x in enumerate(loose)]
    named = recoloured(loose, named, dict(zip(coloured, read[len(asked):])))
    named = one_marker(kinds, loose, named, answers)
    named = beside_the_boards(profile.game, loose, named)
    loose, named = settled_displays(loose, named)
    named = within_leftovers(profile.game, profile.player_count, loose, named)
    named = marker_somewhere(image, profile.game, kinds, loose, named, boards, classifier, without)
    return Reading(profile.game, boards, factories, slots, kinds, loose, named, warnings, spent)


def off_the_boards(loose: list[Loose], boards: list[BoardView]) -> list[Loose]:
    """The loose tiles, less those in the centre or beside a board whose centre lies more than
    ``detect.ON_BOARD_MM`` inside a board, measured in the board's own frame (its registration,
    or the profile's corners where it could not be aligned): they are its printed art (Summer
    Pavilion's green disc near a board's edge) or its slots' tiles, which the slots read. The
    locator measured the same from the profile's corners; a board bumped since lies elsewhere."""
    if not loose or not boards:
        return loose
    centres = np.array([x.outline.mean(axis=0) for x in loose], np.float64)
    inside = np.max([locate.depth_on_board(centres, view.homography, load_layout(view.placement.layout).size_mm)
                     for view in boards], axis=0)
    return [x for x, depth in zip(loose, inside) if x.zone.kind == DISPLAY or depth <= detect.ON_BOARD_MM]


def recoloured(loose: list[Loose], named: list[tuple[str | None, float]], in_light: dict[int, tuple[str | None, float]]
               ) -> list[tuple[str | None, float]]:
    """The loose tiles' answers, where a tile named a colour is read as another colour by the
    reading model in the nearest board's card light (``in_light``, by tile): that colour stands. The
    detector learned the tiles under the whole range of light, and at its ends (a warm, dim
    room) reads a purple tile as red; the board beside the tile shows the light it lies in. The
    two readings disagree, so the tile's zone is listed as uncertain: its confidence is the lower
    of the two, and below the tile's ``unsure_below``. Black and white (:data:`LIGHT_AND_DARK`)
    are never swapped so: the light fixes a tile's hue, but a board's light, measured on a board
    that may lie in other light than the tile, turned a dim black tile in the centre white."""
    named = list(named)
    for n, (kind, confidence) in in_light.items():
        if kind not in (None, MARKER) and named[n][0] not in (None, MARKER, kind) and {kind, named[n][0]} != LIGHT_AND_DARK:
            named[n] = (kind, min(named[n][1], confidence, float(np.nextafter(loose[n].unsure_below, 0))))
    return named


def one_marker(slot_kinds: list[tuple[str | None, float]], loose: list[Loose], named: list[tuple[str | None, float]],
               answers: dict[int, tuple[str | None, float]]) -> list[tuple[str | None, float]]:
    """The loose tiles' answers (``named``), with one first-player marker at most: the game has
    one. Of the loose tiles named the marker off the displays (none holds it), those the
    classifier reads as the marker too come first (a white tile the detector named the marker
    lay beside the marker it also named), and the one with the highest
    confidence (the detector's, or the classifier's for a tile only it named) is the marker,
    unless a slot (a floor line) is read as the marker with at least that confidence. It stays
    the marker even where the classifier saw no tile or a white one on its patch: the classifier
    learned the marker from few patches, and the marker looks like a white tile. Each other
    loose tile named the marker takes the classifier's reading of its patch (``answers``), or is
    dropped where that reading is the marker too or there is none, or where the detector only
    proposed it as the marker (a peak below its threshold, :data:`detect.MARKER_FLOOR`)."""
    candidates = [n for n, x in enumerate(loose) if (x.kind if x.kind is not None else named[n][0]) == MARKER]
    if not candidates:
        return named
    confidence = {n: loose[n].confidence if loose[n].kind else named[n][1] for n in candidates}
    # No display holds the marker (it starts in the centre and leaves it for a player), and where
    # several tiles are named the marker, the one the classifier reads so too comes first.
    eligible = [n for n in candidates if loose[n].zone.kind != DISPLAY]
    best = max(eligible, key=lambda n: (answers.get(n, (None, 0.0))[0] == MARKER, confidence[n]), default=None)
    if best is not None and any(kind == MARKER and sure >= confidence[best] for kind, sure in slot_kinds):
        best = None
    named = list(named)
    for n in candidates:
        if n == best:
            named[n] = (MARKER, named[n][1])
            continue
        kind = answers.get(n, (None, 0.0))[0]
        proposed = loose[n].kind == MARKER and loose[n].confidence < detect.THRESHOLD
        named[n] = (kind if kind != MARKER and not proposed else None, named[n][1])
    return named


def beside_the_boards(game: str, loose: list[Loose], named: list[tuple[str | None, float]]
                      ) -> list[tuple[str | None, float]]:
    """The loose tiles' answers, where in Azul nothing but the first-player marker lies beside a
    board (its ``hand``: the marker of the player who holds it; Azul's tiles go straight from
    the displays onto the board). Anything else read there (a sleeve, a shadow) is read as no
    tile, keeping its confidence, so that a doubtful one still lists the zone as uncertain."""
    if GAMES[game].holds_tiles:
        return named
    return [(None, confidence) if x.zone.kind == HAND and kind not in (None, MARKER) else (kind, confidence)
            for x, (kind, confidence) in zip(loose, named)]


def settled_displays(loose: list[Loose], answers: list[tuple[str | None, float]]
                     ) -> tuple[list[Loose], list[tuple[str | None, float]]]:
    """One reading per factory display. A display holds four tiles or none. Its four proposed
    places (``kind`` None, read by the classifier) stand, unless the detector found exactly four
    tiles on the display and the classifier is unsure of a place, reads other than four tiles
    there or other tiles than the detector's (places proposed off the tiles read a neighbour's
    colour, and surely), or no places were proposed (the display looked empty): then the
    detector's four stand, however sure it is of each. Where the places hold no tile (or none
    were proposed) and the detector found one to three, those are centre tiles pushed against or
    over an empty display. Where the places hold one to three tiles, or four and the detector
    found tiles elsewhere, and no peak lies on one of them naming its tile (:func:`confirms`),
    the places read the empty display's print: the display is empty (its places stay, read
    empty, with the classifier's confidence) and the peaks, if any, are centre tiles over it.
    Where peaks confirm the places and name exactly the tiles they lack, those fill the places
    read empty; failing that, its peaks below ``detect.THRESHOLD`` that the candidate model read
    as tiles are counted with them (``detect.confirmed``; they count for nothing else). The other
    reading's items are dropped."""
    places: dict[Zone, list[int]] = {}
    peaks: dict[Zone, list[int]] = {}
    for n, x in enumerate(loose):
        if x.zone.kind == DISPLAY:
            (places if x.kind is None else peaks).setdefault(x.zone, []).append(n)
    dropped, centre, emptied = set(), set(), set()
    filled: dict[int, tuple[str | None, float]] = {}
    for zone in places.keys() | peaks.keys():
        mine = places.get(zone, [])
        # The detector's peaks below its threshold (the candidate model read them) only fill
        # places read empty, where the detector's own peaks do not name what the places lack.
        theirs = [n for n in peaks.get(zone, []) if loose[n].confidence > detect.THRESHOLD]
        weak = [n for n in peaks.get(zone, []) if loose[n].confidence <= detect.THRESHOLD]
        dropped.update(weak)
        seen = sum(answers[n][0] is not None for n in mine)
        if len(theirs) == 4 and (seen != 4 or any(answers[n][1] < UNSURE for n in mine)
                                 or Counter(answers[n][0] for n in mine) != Counter(answers[n][0] for n in theirs)):
            dropped.update(mine)
        elif seen == 0 and 0 < len(theirs) < 4:
            dropped.update(mine)
            centre.update(theirs)
        elif seen and (seen < 4 or theirs) and not any(confirms(loose[p], answers[p][0], loose[n], answers[n][0])
                                                       for p in mine for n in theirs):
            # Tiles on the places, none where a peak lies naming it (one to three, or four with
            # peaks elsewhere): the places read the empty display's print, and the peaks are
            # centre tiles over it.
            emptied.update(mine)
            centre.update(theirs)
        else:
            dropped.update(theirs)
            # Places reading one to three tiles where the detector's peaks name exactly the
            # tiles they lack: those fill the places read empty, with the detector's confidence.
            empty = [n for n in mine if answers[n][0] is None]
            for fillers in (theirs, theirs + weak):
                lacking = list((Counter(answers[n][0] for n in fillers)
                                - Counter(answers[n][0] for n in mine if answers[n][0] is not None)).elements())
                if 0 < seen < 4 and len(lacking) == len(empty):
                    sure = min(answers[n][1] for n in fillers)
                    filled.update({n: (kind, sure) for n, kind in zip(empty, lacking)})
                    break
    keep = [n for n in range(len(loose)) if n not in dropped]
    return ([replace(loose[n], zone=Zone.centre()) if n in centre else loose[n] for n in keep],
            [(None, answers[n][1]) if n in emptied else filled.get(n, answers[n]) for n in keep])


#: A display emptied this round has left at most this many tiles in the centre (it held four and
#: at least one was taken from it); nothing else puts a tile there, in either game.
LEFTOVERS_PER_DISPLAY = 3


def within_leftovers(game: str, players: int, loose: list[Loose], answers: list[tuple[str | None, float]]
                     ) -> list[tuple[str | None, float]]:
    """The centre's tiles no more than the displays emptied this round can have left there
    (:data:`LEFTOVERS_PER_DISPLAY` each; a display of the game's count not read as holding a tile,
    seen or not, counts as emptied): where more are read, the likeliest stand and the others are
    read as no tile, with no confidence, so that the centre is listed as uncertain. The
    first-player marker is not a leftover and stays."""
    holding = {x.zone for x, (kind, _) in zip(loose, answers) if x.zone.kind == DISPLAY and kind is not None}
    room = LEFTOVERS_PER_DISPLAY * max(GAMES[game].factories.get(players, 0) - len(holding), 0)
    centre = [n for n, x in enumerate(loose) if x.zone.kind == CENTER and answers[n][0] not in (None, MARKER)]
    if len(centre) <= room:
        return answers
    kept = set(sorted(centre, key=lambda n: -answers[n][1])[:room])
    return [(None, 0.0) if n in centre and n not in kept else a for n, a in enumerate(answers)]


#: Where nothing is read as the first-player marker, the loose tile off the displays that the
#: reading model takes for it most is it, where it gives the marker at least this: the game's
#: marker is always in the centre or with a player. Set on the four training families (seeds
#: 660000, 670000 and 690000, 380 photos: of nine photos with no marker read, the marker was
#: the likeliest tile at 0.035 to 0.61 in seven, and a tile at 0.026 or 0.0 in the other two).
MARKER_SOMEWHERE = 0.05


def marker_somewhere(image: np.ndarray, game: str, slot_kinds: list[tuple[str | None, float]], loose: list[Loose],
                     named: list[tuple[str | None, float]], boards: list[BoardView], classifier: Classifier,
                     without: Collection[str] = ()) -> list[tuple[str | None, float]]:
    """The loose tiles' answers with the first-player marker found where nothing was read as it:
    of the loose tiles read off the displays, the one the reading model takes for the marker
    most (its full answer on each patch, :func:`reader_loose_likely`), where it gives the marker
    at least :data:`MARKER_SOMEWHERE`; with that probability as its confidence, so that its zone
    is uncertain. Unchanged where a slot or a loose tile is read as the marker."""
    if any(kind == MARKER for kind, _ in [*slot_kinds, *named]):
        return named
    candidates = [n for n, x in enumerate(loose) if x.zone.kind != DISPLAY and named[n][0] is not None]
    if not candidates:
        return named
    outlines = np.array([loose[n].outline for n in candidates], np.float64).reshape(-1, 4, 2)
    probabilities, kinds = reader_loose_likely(loose_patches(image, outlines, boards), classifier, game, without)
    likeliness = probabilities[:, kinds.index(MARKER)]
    best = int(np.argmax(likeliness))
    if likeliness[best] < MARKER_SOMEWHERE:
        return named
    out = list(named)
    out[candidates[best]] = (MARKER, float(likeliness[best]))
    return out


def confirms(place: Loose, kind: str | None, peak: Loose, peak_kind: str | None) -> bool:
    """Whether a detector's ``peak`` (read ``peak_kind``) names the tile read ``kind`` on a display
    ``place``: the same kind, its centre within half a tile's side of the place's."""
    if kind is None or kind != peak_kind:
        return False
    side = float(np.linalg.norm(place.outline[1] - place.outline[0]))
    return float(np.linalg.norm(place.outline.mean(axis=0) - peak.outline.mean(axis=0))) <= side / 2


def taught_name(tile: Loose, answer: tuple[str | None, float], doubted: bool) -> tuple[str | None, float]:
    """A tile the locator named, named by a reader this table taught (``answer``): its kind is
    the reader's; where it sees no tile there, whether one lies there stays the locator's to say,
    as untaught (:func:`cross_checked` where the locator was unsure, ``doubted``; else its tile)."""
    if answer[0] is None:
        return cross_checked(tile, answer) if doubted else (tile.kind, tile.confidence)
    return answer


def cross_checked(tile: Loose, answer: tuple[str | None, float] | None) -> tuple[str | None, float]:
    """A tile the locator named, checked by the classifier's ``answer`` on its patch where the
    locator was unsure: no tile where the classifier sees none, the classifier's kind where it
    is sure of another; the locator's confidence either way, so that the zone stays uncertain."""
    if answer is None:
        return tile.kind, tile.confidence
    kind, confidence = answer
    if kind is None:
        return None, tile.confidence
    return (kind if kind != tile.kind and confidence >= UNSURE else tile.kind), tile.confidence


def assemble(reading: Reading) -> dict[str, Any]:
    """The ``azulcam-observation/1`` of a reading."""
    game = reading.game
    order = {name: i for i, name in enumerate(GAMES[game].tiles)}
    uncertain: list[str] = []
    players = sorted(v.placement.player for v in reading.boards if v.placement.player is not None)
    slots: dict[int, dict[str, str]] = {p: {} for p in players}
    spaces = GAMES[game].supply_spaces
    supply: list[str | None] | None = [None] * spaces if spaces else None
    # A print the models never saw is read against the photo's own consensus of it
    # (``reader.consensus``), as surely as any other: its board is named in the warnings.
    for zone, (kind, conf) in zip(reading.slots, reading.slot_kinds):
        if conf < UNSURE:
            uncertain.append(zone)
        if kind is None:
            continue
        if zone.kind == SUPPLY:
            assert supply is not None
            supply[zone.index] = kind  # type: ignore[index]
        else:
            slots[zone.player][zone.slot] = kind  # type: ignore[index]
    factories = [{"center": [round(float(x), 1), round(float(y), 1)], "tiles": []} for x, y in reading.factories]
    center: dict[str, int] = {}
    hands: dict[int, dict[str, int]] = {p: {} for p in players}
    for item, (kind, conf) in zip(reading.loose, reading.loose_kinds):
        zone = item.zone
        if conf < item.unsure_below and zone not in uncertain:
            uncertain.append(zone)
        if kind is None:
            continue
        if zone.kind == DISPLAY:
            factories[zone.index]["tiles"].append(kind)  # type: ignore[index]
        elif zone.kind == CENTER:
            center[kind] = center.get(kind, 0) + 1
        else:
            hands[zone.player][kind] = hands[zone.player].get(kind, 0) + 1  # type: ignore[index]
    for f in factories:
        f["tiles"].sort(key=order.__getitem__)
    sort_counts = lambda d: {k: d[k] for k in sorted(d, key=order.__getitem__)}  # noqa: E731
    boards = [{"player": p, "slots": slots[p], "hand": sort_counts(hands[p])} for p in players]
    for board in boards:
        marker = reading.markers.get(board["player"])
        if marker is not None:
            board["score"] = marker.cell
            if not marker.sure:
                uncertain.append(Zone.score(board["player"]))
    return {
        "format": OBSERVATION_FORMAT,
        "game": game,
        "factories": factories,
        "center": sort_counts(center),
        "boards": boards,
        "supply": supply,
        "uncertain": uncertain,
        "warnings": messages_json(reading.warnings),
    }


class TableLocator:
    """Factory displays and loose tiles (``locate``), and warnings for what could not be seen.
    With a detector network (:mod:`azulcam.vision.detect`), the tiles in the centre and beside the
    boards are found and named by it, and each occupied display's four places are proposed for
    the classifier; where the ring of displays has a gap for one not seen, the display is read
    where the detector finds four tiles there (they hid its rim), and otherwise left out, its
    tiles too, with a warning. One to three tiles found on a display with a side of its rim
    covered are left out: the others are under the hand. With a candidate model too, the
    detector proposes tiles down to ``detect.CANDIDATE_FLOOR`` in the centre and beside the
    boards, and the model's reading of each stands (``detect.confirmed``).
    Without a detector, the classic locator proposes every candidate for the classifier
    (:func:`azulcam.vision.locate.locate`)."""

    def __init__(self, detector: Any | None = None, candidates: Any | None = None) -> None:
        self.detector = detector
        self.candidates = candidates

    def __call__(self, image: np.ndarray, profile: Profile) -> tuple[list[tuple[float, float]], list[Loose], list[str]]:
        if self.detector is None:
            located = locate.locate(image, profile, profile.game)
            factories = [(float(d.center[0]), float(d.center[1])) for d in located.discs]
            return factories, [Loose(np.asarray(t.outline, np.float64), t.zone) for t in located.tiles], []
        game = profile.game
        image = locate.check_image(image)
        profile = locate.check_profile(profile, game, image)
        plane = locate.plane_for(profile)
        view = locate.rectify(image, plane, detect.VIEW_PPM)
        # The detector's network first. It runs without Python's lock, while the boards are
        # registered in the other thread, whose many short OpenCV calls each take that lock back.
        # The display search, which holds it most, then runs beside the slots' network.
        heat = detect.player_heatmaps(self.detector, view, plane)
        discs = locate.find_factories(image, profile, game, view, plane)
        # A display holds four tiles or none: its four places are proposed (in the same view: a
        # finer one reads no better) and classified.
        loose = [Loose(plane.image_points(poly), Zone.display(n)) for n, poly in locate.factory_tiles(view, plane, game, discs)]
        # A display missing from the ring (a hand over it): its tiles are not the centre's.
        unseen = locate.unseen_displays(discs, plane, game)
        floor = detect.CANDIDATE_FLOOR if self.candidates is not None else detect.THRESHOLD
        # A kind the game's options rule out (jokers) is no tile's name.
        without = ruled_out(game, profile.game_options)
        found = detect.confirmed(detect.loose_tiles(self.detector, view, plane, game, discs, unseen, floor, heat,
                                                    without), image, game, self.candidates, without)
        # Four peaks where it should stand are its tiles, hiding its rim from the disc search: it
        # is there (numbered after the discs found). Otherwise neither it nor tiles on it are read.
        gaps = {Zone.display(len(discs) + k) for k in range(len(unseen))}
        # The weak peaks on the displays the candidate model confirmed only fill a display's
        # places (``settled_displays``): they count for nothing here.
        strong = [f for f in found if not (f.zone.kind == DISPLAY and f.confidence <= detect.THRESHOLD)]
        peaks_in = Counter(f.zone for f in strong)
        there = [k for k in range(len(unseen)) if peaks_in[Zone.display(len(discs) + k)] == 4]
        numbers = {Zone.display(len(discs) + k): Zone.display(len(discs) + i) for i, k in enumerate(there)}
        # One to three peaks on a display with a side of its rim covered (a hand over it) are some
        # of its tiles, the others hidden: not the centre's tiles lying over an empty display.
        covered = {Zone.display(n) for n, d in enumerate(discs) if d.rim < locate.FULL_RIM
                   and 0 < peaks_in[Zone.display(n)] < 4}
        # The peaks on the displays are kept too, as a second reading of them (``settled_displays``).
        loose += [Loose(f.outline, numbers.get(f.zone, f.zone), f.kind, f.confidence, detect.SURE, f.checked)
                  for f in found if (f.zone not in gaps or f.zone in numbers) and f.zone not in covered]
        warnings = [Notice("warning.display_unseen", x=round(float(d.center[0])), y=round(float(d.center[1])))
                    for k, d in enumerate(unseen) if k not in there]
        # Such a display is reported where its four tiles are.
        placed = [locate.display_under(np.vstack([plane.plane_points(f.outline) for f in strong
                                                  if f.zone == Zone.display(len(discs) + k)]), plane, game)
                  for k in there]
        return [(float(d.center[0]), float(d.center[1])) for d in discs + placed], loose, warnings


@lru_cache(maxsize=1)
def default_locator(threads: int = 1) -> tuple[TableLocator, str | None]:
    """The locator with the shipped detector (run on ``threads`` threads), or (with a warning
    saying why) without it."""
    from .classify import CANDIDATES_NAME, ModelError, load_model
    from .detect import DetectorError, load_detector
    from .shipped import package_file

    # The warning carries the error's message, not the error: it is kept (cached), and the error's
    # traceback would keep the model file's bytes alive with it.
    try:
        detector = load_detector(threads=threads)
    except DetectorError as exc:
        return TableLocator(None), Notice("warning.classic_locator", reason=exc.notice)
    try:
        return TableLocator(detector, load_model(package_file(CANDIDATES_NAME), threads=threads)), None
    except ModelError as exc:
        return TableLocator(detector), Notice("warning.no_candidates", reason=exc.notice)


class ProfileMismatch(CodedError):
    """The photo does not show what its profile says: another game, the other side of the boards,
    or no board where the profile puts one. ``profile.mismatch``: its ``reasons`` name each board
    and the likely cause (:meth:`~azulcam.vision.verify.BoardCheck.reason`)."""


def verified_profile(image: np.ndarray, profile: Profile, force: bool = False) -> tuple[list[str], set[int]]:
    """The profile's boards checked against the photo (:mod:`verify`), before anything is read:
    the warnings to add, and the players whose boards do not match.

    Raises :class:`ProfileMismatch` naming every board that does not match, unless ``force``:
    then the warnings say which boards will be skipped. A board partly covered, or too small to
    tell, is read, with a warning."""
    fitted, _ = fit_profile(profile, image)
    with without_ipp():
        checks = verify.check_boards(image, [(b, b.homography) for b in fitted.boards])
    warnings = []
    for board, check in zip(profile.boards, checks):
        if check.covered:
            warnings.append(Notice("warning.covered", player=board.player,
                                   parts=list(check.covered)))
        elif check.verdict == "unsure":
            warnings.append(Notice("warning.unconfirmed",
                                   player=board.player, layout=check.layout))
    bad = [(board, check) for board, check in zip(profile.boards, checks) if check.mismatch]
    if bad and not force:
        raise ProfileMismatch("profile.mismatch", reasons=[check.reason() for _, check in bad])
    warnings += [Notice("warning.skipped", player=board.player,
                        reason=check.reason_code) for board, check in bad]
    return warnings, {board.player for board, _ in bad if board.player is not None}


def without_boards(observation: dict[str, Any], players: set[int]) -> dict[str, Any]:
    """The observation less the boards of ``players`` (their slots, the tiles beside them and
    what is uncertain there): what a forced reading skips."""
    if not players:
        return observation
    observation["boards"] = [b for b in observation["boards"] if b["player"] not in players]
    observation["uncertain"] = [u for u in observation["uncertain"] if u.player not in players]
    return observation


def _board_reads(reading: Reading) -> dict[int, dict[Slot, str | None]]:
    """Each player's slots in a reading: slot id -> kind read."""
    out: dict[int, dict[Slot, str | None]] = {}
    for zone, (kind, _) in zip(reading.slots, reading.slot_kinds):
        if zone.player is not None and zone.slot is not None:
            out.setdefault(zone.player, {})[zone.slot] = kind
    return out


def bare_boards(image: np.ndarray, profile: Profile, classifier: Classifier, fitter: BoardFitter | None = None
                ) -> dict[int, BareBoard]:
    """Each player's board as this photo shows it, registered from the profile's corners and read
    by the classifier: the photo is a calibration's, at the start of a game, every board bare."""
    reading = read(image, profile, classifier, fitter=fitter)
    reads = _board_reads(reading)
    return {v.placement.player: BareBoard(load_layout(v.placement.layout).name,
                                          rectified(image, v.homography, v.placement.layout),
                                          reads.get(v.placement.player, {}))
            for v in reading.boards if v.placement.player is not None}


def analyze(image: np.ndarray, profile: Profile, classifier: Classifier, locator: Any | None = None,
            force: bool = False, bare: dict[int, BareBoard] | None = None) -> dict[str, Any]:
    """Read one image with its profile into an ``azulcam-observation/1``. ``locator`` defaults to
    :func:`default_locator`; when its detector could not load, the observation's warnings say so.

    Raises :class:`ProfileMismatch` when the photo does not show what the profile says
    (:func:`verified_profile`); with ``force`` it reads what it can and the warnings say what it
    skipped. ``bare``: the boards as calibration saw them bare, by player (:func:`read`)."""
    note = None
    checked, skipped = verified_profile(image, profile, force)
    seen = len(profile.boards)
    partial = seen < profile.player_count
    if partial:
        # A photo of some of the boards (``Profile.in_view``): they are read, the table is not
        # (its displays and centre stand among every player's board).
        locator, note = None, Notice("warning.boards_in_view", seen=seen,
                                     players=profile.player_count)
    elif locator is None:
        locator, note = default_locator()
    reading = read(image, profile, classifier, locator, bare)
    observation = without_boards(assemble(reading), skipped)
    observation["warnings"] += messages_json(checked + ([note] if note else []))
    if partial:
        observation["uncertain"] = [*observation["uncertain"], Zone.centre()]
    return observation
