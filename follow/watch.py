"""A game followed on camera: frames in, a checked record and a stream of events out.

The frame loop (:class:`Watcher`): each frame goes through the still gate (:mod:`still`); a still
frame that differs from the last one read is read (:func:`analyze.read`, the reader's public
interface), each settled space compared with itself (:mod:`change`), and the view handed to the
follower (:mod:`follower`), which needs no image. ``watch`` returns when the source ends (a file
or folder) or is closed.
"""

from __future__ import annotations

import contextlib
import json
import queue
from collections import Counter
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.profile import Profile
from ..calibration.layouts import load_layout
from ..engine.games import find_game
from ..engine.observe import expected
from ..engine.zones import DISPLAY, SUPPLY, Slot, Zone, ZoneError
from ..vision import crops
from ..vision.analyze import UNSURE, Reading, loose_patches, read, reader_loose_likely
from ..vision.classify import ruled_out
from ..vision.bare import learn_empty
from ..vision import alike
from ..vision.memory import TableMemory, TableMemoryError
from ..vision.taught import TaughtReader
from ..vision.references import TileReferences, reading_prior, top_colour, weighed_row
from .capture import Frame, Source
from .follower import EVENTS_FORMAT, Follower
from .journal import Journal
from .track import Refused
from .mixups import Mixups, TableError
from .teaching import Teacher, settled_slots
from .still import CHANGED_PIXELS, MOVED_ALL, StillGate
from ..calibration.geometry import board_mm, factory_diameter, tile_mm
from .change import SPILL, ChangeModel, display_patches, moved_share, neighbours
from .explain import View, ZoneRead, loose_zone, tile_kinds
from .track import Displays, Tracker

__all__ = ["EVENTS_FORMAT", "Watcher", "event_line", "read_controls", "resumed_tracker", "view_of", "watch"]

#: Seconds a still table with a change reaching in from the picture's edge waits before it is
#: read all the same (see ``Watcher.feed``): under the one second a move may take to be committed.
HAND_WAIT = 0.5

#: Seconds of still views held back by something at the picture's edge, since the last view read,
#: past which the next one is read all the same and the watch says so: a game whose moves each
#: leave the table still for less than HAND_WAIT, with a cup or a sleeve at the edge, would
#: otherwise go unread for as long as it lies there (unread time is unexplained time).
UNREAD_AFTER = 2.0

#: Seconds between two readings of a table nothing explains, which changes since the last view
#: explained: it is looked at again, but not at every frame (the camera must keep up).
REREAD_UNEXPLAINED = 0.5

#: The most tiles' area (of the farthest board's tiles) that one region changed since the last
#: view read may cover in a frame read between two hands (:meth:`Watcher._between_hands`): a
#: take's tiles laid in a pile or a row, with the display they left; a hand's palm alone covers
#: some twenty tiles, its arm hundreds.
GLIMPSE_TILES = 16

#: A display's tile read at least this surely is a reference, in its own view, for the loose
#: tiles read less surely (:meth:`Watcher._in_table_colours`): the reader's surest readings.
SURE_OF_ITSELF = 0.95


#: How likely each colour is, for one tile: (colour, probability) pairs.
Likely = tuple[tuple[str, float], ...]


def view_of(reading: Reading, frame: int = 0, time: float = 0.0, likely: dict[int, Likely] | None = None) -> View:
    """What the tracker needs of a reading: every slot's kind and confidence, every display's,
    the centre's and each hand's tiles with theirs (and, for the loose tiles in ``likely`` by
    their index, how likely each colour is), the displays' centres, the score markers read surely."""
    zones: dict[str, ZoneRead] = {zone: ZoneRead(kind, conf)
                                  for zone, (kind, conf) in zip(reading.slots, reading.slot_kinds)}
    loose: dict[str, list[tuple[str, float, Likely]]] = {Zone.display(i): [] for i in range(len(reading.factories))}
    loose[Zone.centre()] = []
    loose.update((Zone.hand(v.placement.player), []) for v in reading.boards if v.placement.player is not None)
    for k, (item, (kind, conf)) in enumerate(zip(reading.loose, reading.loose_kinds)):
        if kind is not None:
            loose.setdefault(item.zone, []).append((kind, conf, (likely or {}).get(k, ())))
    zones.update((zone, loose_zone(tiles)) for zone, tiles in loose.items())
    markers = {p: m.cell for p, m in reading.markers.items() if m.cell is not None and m.sure}
    return View(zones, [(float(x), float(y)) for x, y in reading.factories], frame, time, markers=markers)


class Watcher:
    """The frame loop of one game: frames in, still views out to its :class:`~.follower.Follower`.

    Each frame goes through the still gate; a still frame that changed since the last one read
    is read (``profile``, ``classifier``, ``locator``, ``bare``: as :func:`analyze.read` takes
    them), every settled space compared with its reference (:mod:`change`), and the view handed
    to the follower (``tracker``, ``emit``, ``journal``, ``record_path``: see
    :class:`~.follower.Follower`). Corrections put on ``controls`` are made between frames."""

    def __init__(self, profile: Profile, classifier: Any, tracker: Tracker, emit: Callable[[dict[str, Any]], None],
                 locator: Any | None = None, bare: dict[int, Any] | None = None, journal: Journal | None = None,
                 record_path: Path | None = None, memory: TableMemory | None = None, table_path: Path | None = None
                 ) -> None:
        self.profile, self.classifier, self.locator, self.bare = profile, classifier, locator, bare
        #: This table's memory (:mod:`azulcam.vision.memory`), kept at ``table_path`` with the
        #: tracker's mix-ups as they grow: a watch killed keeps them.
        self.memory = memory if memory is not None else TableMemory(profile.game)
        #: Its tiles as the game named them (:mod:`azulcam.vision.references`).
        self.table = self.memory.references
        #: What teaches the memory the spaces the game settles, where the reader reads through it.
        self.teacher = Teacher(self.memory, classifier) if isinstance(classifier, TaughtReader) else None
        self.table_path = table_path
        self._table_kept: tuple[int, ...] | None = None
        #: Why the table could not be kept, once it could not (its memory's ``memory.unwritable``).
        self.table_error: TableMemoryError | None = None
        self._image: np.ndarray | None = None  # the frame of the last view read
        self._deals_learnt = 0  # the deals whose displays have taught the table references
        self.follower = Follower(tracker, emit, journal, record_path)
        self.gate = StillGate()
        self.controls: queue.Queue = queue.Queue()
        #: The newest reading of a still view (None before any): what the dashboard draws over the camera.
        self.last_reading: Reading | None = None
        self.spent: dict[str, float] = {"frames": 0, "reads": 0, "gate_s": 0.0, "read_s": 0.0, "track_s": 0.0}
        #: Each settled space's patch at the view it was settled in: what its later views are compared with.
        self.references: dict[str, np.ndarray] = {}
        self.change_model = ChangeModel()
        #: The displays' own: a display changes whole (all its tiles taken, or four dealt), unlike a slot.
        self.display_change = ChangeModel()
        #: Each display's patch at a view the game had it empty: its print alone, what an emptied
        #: display is compared with (a printing read as tiles says nothing then).
        self.display_bare: dict[str, np.ndarray] = {}
        # The last view's patches by zone, and their moved shares against their references.
        self._patches: dict[str, np.ndarray] = {}
        self._shares: dict[str, float] = {}
        self._hand_since: float | None = None
        #: When the first still view held back by something at the edge since the last view read was.
        self._held_since: float | None = None
        #: The still frame that waits out :data:`HAND_WAIT` (something at the picture's edge).
        self._held: Frame | None = None
        #: The last frame with no hand in it since the last still view, and its small copy: read
        #: if a hand comes in again before the table is still (see :meth:`_between_hands`).
        self._glimpse: tuple[Frame, np.ndarray] | None = None
        #: Else the frame since the last still view with no arm across the edge that changed least
        #: in one piece, and that piece's pixels: read, if a hand comes in again, only to weigh the
        #: order of the moves the next still view shows (:attr:`View.between`).
        self._busy_glimpse: tuple[Frame, int] | None = None
        self._time, self._frame = 0.0, -1
        self._read_at = float("-inf")  # when the last view was read
        #: Whether the table moved (a frame not still) since the last view read: a hand came and
        #: went. One tile taken from a crowded centre to a crowded hand may change nothing the
        #: still gate's small copy tells (a tile there is 2 pixels, among others of its range).
        self._stirred = False

    @property
    def tracker(self) -> Tracker:
        return self.follower.tracker

    @tracker.setter
    def tracker(self, tracker: Tracker) -> None:
        self.follower.tracker = tracker

    @property
    def journal(self) -> Journal | None:
        return self.follower.journal

    @journal.setter
    def journal(self, journal: Journal | None) -> None:
        self.follower.journal = journal

    def start(self, source_name: str, resumed: bool) -> None:
        self.follower.start(source_name, resumed)

    @property
    def last_image(self) -> np.ndarray | None:
        """The frame of the last view read (None before any): what :attr:`last_reading` read."""
        return self._image

    @property
    def last_seen(self) -> tuple[int, float]:
        """The number and time of the last frame fed (-1, 0.0 before any)."""
        return self._frame, self._time

    def correct(self, command: Any, frame: Frame | None = None) -> Refused | None:
        """A person's correction (see :meth:`Follower.correct`), at ``frame`` (default: the last
        fed); the refusal where it cannot be made."""
        refused = self.follower.correct(command, (frame.index, frame.time) if frame is not None else self.last_seen)
        self._take_references()
        return refused

    def feed(self, frame: Frame) -> None:
        """One frame: read it if the table is still and changed, or a hand came and went, since the
        last read."""
        while not self.controls.empty():
            self.correct(self.controls.get_nowait(), frame)
        t0 = time.perf_counter()
        self._time = frame.time
        self._frame = frame.index
        still = self.gate.update(frame.image)
        self.spent["frames"] += 1
        self.spent["gate_s"] += time.perf_counter() - t0
        self._held = None
        if not still:
            self._stirred = True
            self._hand_since = None
            self._between_hands(frame)
            return
        self._glimpse = self._busy_glimpse = None
        reaching = self.gate.arms(self._boards_mask(frame.image.shape), self._tile_px(frame.image.shape))
        if reaching.any():
            # Something reaches in from the edge. Past HAND_WAIT of a still table it is read all
            # the same: a hand resting, or a cup put down at the edge; and past UNREAD_AFTER of
            # still views held back since the last read, however short each, it is read and said.
            self._hand_since = frame.time if self._hand_since is None else self._hand_since
            self._held_since = frame.time if self._held_since is None else self._held_since
            if frame.time - self._hand_since < HAND_WAIT:
                if frame.time - self._held_since < UNREAD_AFTER:
                    self._held = frame
                    return
                self.follower.alert("follow.read_past_the_edge", {"seconds": round(frame.time - self._held_since, 1)},
                                    (frame.index, frame.time))
        self._hand_since = None
        unexplained = self.tracker.unexplained_since is not None
        if not (self._stirred or self.gate.changed()) or unexplained and frame.time - self._read_at < REREAD_UNEXPLAINED:
            self.follower.tick((frame.index, frame.time))
            return
        self._read(frame)
        # Whatever explains it: the edge as it lies still is the table's, and what lay still
        # there as it lay at the last view read with something reaching in (a cup put down, or
        # the table where the first view read had an arm in it). Not at frames held back: a hand
        # moving in small steps lies partly where it lay a frame before.
        self.gate.settle_edge(reaching, self.tracker.unexplained_since is None)
        if self.tracker.unexplained_since is None:
            self.gate.mark_read()
        # Else the gate goes on measuring what changed from the last view explained, so that an
        # unexplained table is read again (every REREAD_UNEXPLAINED at most).

    def finish(self) -> None:
        """The source ended: a still table held back by :data:`HAND_WAIT` is read all the same (no
        later frame will show it longer), where it changed or a hand came and went since the last
        view read."""
        if self._held is not None and (self._stirred or self.gate.changed()):
            self._read(self._held)
            self._held = None
        if self.teacher is not None:  # what the game settled, learnt before the memory is last written
            self.teacher.close()

    def _between_hands(self, frame: Frame) -> None:
        """A frame of a table not still: one with no hand in it that changed since the last view
        read is kept; when a hand comes in again before the table is still (the next player
        reaching in as the last one leaves), the kept frame is read as a glimpse: the view between
        two moves that no still view shows. The tracker commits what a glimpse explains and passes
        over one it does not (a tile still settling, a blurred frame). Where no frame between
        the hands changed little enough to be one (more in one piece than a take's tiles, as a
        hand whose sleeve the picture hardly shows), the one that changed least is read all the
        same, only to weigh the order of the moves the next still view shows: two takes that
        leave the same table, from displays that each held the colour taken."""
        if self.tracker.unexplained_since is not None or not self.tracker.game.record.events:
            self._glimpse = self._busy_glimpse = None
            return
        changed = self.gate.changed_since_read()
        if changed is None or int(changed.sum()) < CHANGED_PIXELS or changed.mean() > MOVED_ALL:
            return
        # A frame not still is read only when no one can be reaching in: no arm across the
        # picture's edge, over a board cut by it too, and nothing changed in one piece larger
        # than a take's tiles (a hand whose arm the picture does not show).
        tile_px = self._tile_px(frame.image.shape)
        if not self.gate.hand_in_view(None, tile_px):
            largest = self.gate.largest_change()
            if not self.gate.camera_moved():
                if largest <= GLIMPSE_TILES * tile_px ** 2:
                    self._glimpse = (Frame(frame.index, frame.time, frame.image.copy()), self.gate.current)
                elif self._glimpse is None and (self._busy_glimpse is None or largest < self._busy_glimpse[1]):
                    self._busy_glimpse = (Frame(frame.index, frame.time, frame.image.copy()), largest)
            return
        if self._glimpse is None:
            if self._busy_glimpse is not None:
                seen = self._busy_glimpse[0]
                self._busy_glimpse = None
                self._read(seen, glimpse=True, between=True)
            return
        seen, small_copy = self._glimpse
        self._glimpse = self._busy_glimpse = None
        self._read(seen, glimpse=True)
        if self.tracker.last_fitted == seen.time:
            self.gate.mark_read(small_copy)

    def _read(self, frame: Frame, glimpse: bool = False, between: bool = False) -> None:
        """Read ``frame`` and give its view to the follower (``glimpse``, ``between``: see
        :meth:`_between_hands`)."""
        t1 = time.perf_counter()
        self._read_at = frame.time
        self._stirred = False
        self._held_since = None
        # Every board is read again: a tile laid on its own print may hardly change the small
        # copy the still gate compares, but it changes its slot (the change reader's question).
        reading, likely = self._in_table_colours(
            read(frame.image, self.profile, self.classifier, self.locator, self.bare), frame.image)
        self.last_reading = reading
        self._image = frame.image
        view = self._measured(reading, view_of(reading, frame.index, frame.time, likely))
        view.glimpse, view.between = glimpse or between, between
        t2 = time.perf_counter()
        self.follower.see(view)
        self._take_references()
        self.spent["reads"] += 1
        self.spent["read_s"] += t2 - t1
        self.spent["track_s"] += time.perf_counter() - t2

    def learn_empty(self, zone: str, image: np.ndarray) -> bool:
        """A person says a board space is empty in ``image`` (the newest frame): the space as it
        shows there becomes that board's bare view of it (:func:`azulcam.vision.bare.learn_empty`),
        so that later readings compare it with how it looks empty in today's light. False where
        there is nothing to learn from (not a board space, no bare view or reading of that board)."""
        try:
            space = Zone.parse(zone)
        except ZoneError:
            return False
        player, slot = space.player, space.slot
        if player is None or slot is None:
            return False
        bare = (self.bare or {}).get(player)
        reading = self.last_reading
        view = next((v for v in (reading.boards if reading else []) if v.placement.player == player), None)
        if bare is None or view is None or slot not in bare.reads:
            return False
        learn_empty(bare, image, view.homography, slot)
        return True

    def slot_outlines(self) -> list[tuple[np.ndarray, bool]]:
        """Each slot of the newest reading, its outline in the image (4 x 2 pixels) and whether
        it was read at under :data:`azulcam.vision.analyze.UNSURE`: what a page draws over the camera."""
        reading = self.last_reading
        if reading is None:
            return []
        confidence = {zone: conf for zone, (_, conf) in zip(reading.slots, reading.slot_kinds)}
        out = []
        for view in reading.boards:
            ids, quads = crops.slot_outlines(view.homography, load_layout(view.placement.layout))
            zones = [Zone.of_slot(view.placement.player, slot) for slot in ids]
            out += [(quad, confidence[zone] < UNSURE) for zone, quad in zip(zones, quads) if zone in confidence]
        return out

    def _measured(self, reading: Reading, view: View) -> View:
        """``view`` with what changed: each space of an aligned board that has a reference,
        compared with it (:mod:`change`), and each space's neighbours; where the game may be taken
        up from the view, each space also with how calibration saw it bare (:attr:`View.covered`)."""
        patches: dict[str, np.ndarray] = {}
        rows: dict[str, int] = {}  # each board space's row in the reading's patches
        near: dict[str, frozenset[str]] = {}
        if reading.patches is not None:
            aligned = {v.placement.player: v for v in reading.boards if v.registration.aligned}
            for n, zone in enumerate(reading.slots):
                player = zone.player
                if player not in aligned:
                    continue
                patches[zone] = reading.patches[n]
                if zone.kind != SUPPLY:
                    rows[zone] = n
                # The layout's id of the slot (a supply space's is the scoring board's).
                slot = zone.slot if zone.slot is not None else Slot.supply(zone.index)  # type: ignore[arg-type]
                near[zone] = frozenset(Zone.of_slot(player, s)
                                       for s in neighbours(aligned[player].placement.layout).get(slot, ()))
        compared = [z for z in patches if z in self.references]
        shares = moved_share(np.stack([patches[z] for z in compared]), np.stack([self.references[z] for z in compared])) \
            if compared else np.zeros(0)
        self._patches, self._shares = patches, dict(zip(compared, map(float, shares)))
        model = self.change_model
        view.change = {z: (model.log_odds(s), model.log_odds(s - SPILL)) for z, s in self._shares.items() if not np.isnan(s)}
        if self.tracker.taking_up and reading.bare_patches is not None:
            # A game taken up has no look of its spaces from the game: each is compared with
            # itself on the board calibration saw bare (a print read as a tile looks as it did).
            bare = {z: reading.bare_patches[n] for z, n in rows.items() if reading.bare_patches[n].any()}
            view.covered = {z: model.log_odds(s) for z, s in self._compared(patches, bare).items()}
        view.near = near
        displays = self._display_patches(self._image)
        self._patches.update(displays)
        for zone, share in self._compared(displays, self.references).items():
            self._shares[zone] = share
            view.change[zone] = (self.display_change.log_odds(share),) * 2
        view.filled = {z: self.display_change.log_odds(s) for z, s in self._compared(displays, self.display_bare).items()}
        return view

    @staticmethod
    def _compared(patches: dict[str, np.ndarray], references: dict[str, np.ndarray]) -> dict[str, float]:
        """The moved share of each patch that has a reference (:func:`change.moved_share`), those
        that lie wholly in the image."""
        zones = [z for z in patches if z in references]
        if not zones:
            return {}
        shares = moved_share(np.stack([patches[z] for z in zones]), np.stack([references[z] for z in zones]))
        return {z: float(s) for z, s in zip(zones, shares) if not np.isnan(s)}

    def _display_patches(self, image: np.ndarray | None) -> dict[str, np.ndarray]:
        """Each display's patch (:func:`change.display_patches`) at its place as the tracker
        numbered it, by zone (none before the displays are numbered)."""
        places = self.tracker.displays.places
        if image is None or not places:
            return {}
        patches = display_patches(image, places, self._display_px(image.shape))
        return {Zone.display(i): patch for i, patch in enumerate(patches)}

    def _display_px(self, shape: tuple[int, ...]) -> float:
        """A display's diameter in pixels of a frame of ``shape``: at the scale of the boards as
        the profile places them (their mean), the displays lying among them."""
        scale = shape[1] / self.profile.image_size[0]
        spec = find_game(self.profile.game)
        widths = [float(np.linalg.norm(np.subtract(b.corners[1], b.corners[0]))) for b in self.profile.boards]
        return scale * float(np.mean(widths)) * factory_diameter(spec) / board_mm(spec)[0]

    def _take_references(self) -> None:
        """The spaces the tracker settled take this view's patches as their references (and
        teach the change model this table's noise); those it forgot lose theirs."""
        settled, forgotten = self.tracker.take_settled()
        moved = {z for z, changed in settled.items() if changed}
        last = self.follower.last_view
        near = last.near if last is not None else {}
        if any(Zone.parse(z).kind == DISPLAY and z not in self._patches for z in settled):
            # The displays numbered by this very view (its first): their patches are cut now.
            self._patches.update(self._display_patches(self._image))
        for zone, changed in settled.items():
            display = Zone.parse(zone).kind == DISPLAY
            # A slot beside a changed one is no sample of an unchanged slot: a tile's body seen
            # off its space reaches over it.
            if zone in self._shares and (changed or display or not near.get(zone, frozenset()) & moved):
                (self.display_change if display else self.change_model).learn(self._shares[zone], changed)
            if zone in self._patches:
                self.references[zone] = self._patches[zone]
                if display and not self.tracker.baseline.get(zone):
                    self.display_bare[zone] = self._patches[zone]
        for zone in forgotten:
            self.references.pop(zone, None)
        self._teach_table()
        self._teach_memory(settled)
        self.keep_table()

    def _teach_memory(self, settled: dict[str, bool]) -> None:
        """The board spaces the game settled at this view are kept in the table's memory, labelled
        by the engine (:class:`~.teaching.Teacher`, off the frame loop)."""
        reading, view = self.last_reading, self.follower.last_view
        # Not from a glimpse: read between two hands, an arm may lie over a board's spaces.
        if self.teacher is None or reading is None or reading.slot_inputs is None or not settled or (view and view.glimpse):
            return
        rows, kinds = settled_slots(reading, settled, expected(self.tracker.game.state))
        if rows:
            self.teacher.teach(reading.slot_inputs[rows], kinds)

    def keep_table(self) -> None:
        """Write what this table taught (its tile references and the reader's mix-ups) to
        :attr:`table_path`, where it grew since last written; a failure is kept in
        :attr:`table_error` and writing stops (the watch goes on)."""
        mixups = self.tracker.mixups
        size = (sum(map(len, self.table.seen.values())), sum(sum(n.values()) for n in mixups.named.values()),
                self.memory.settled, self.memory.photos)
        if self.table_path is None or self.table_error is not None or size == self._table_kept or not any(size):
            return
        try:
            with self.teacher.lock if self.teacher is not None else contextlib.nullcontext():
                self.memory.references = self.table
                save_table(self.table_path, self.memory, mixups)
            self._table_kept = size
        except TableMemoryError as exc:
            self.table_error = exc

    def _colours(self) -> list[str]:
        """The tiles of this game a table's references name (the first-player marker aside)."""
        return tile_kinds(self.tracker.game.state.spec, self.tracker.game.record.options)

    def _in_table_colours(self, reading: Reading, image: np.ndarray) -> tuple[Reading, dict[int, Likely]]:
        """The displays' tiles and Summer Pavilion's supply (a deal's colours: what only the camera can tell) weighed as this
        table shows them. Each tile's reading is its evidence: the reading model's answer with its
        second thoughts as the shape of its doubt (:func:`~azulcam.vision.references.reading_prior`),
        or, for a tile read as a kind that this table's tiles of another kind were read as
        (:class:`~.mixups.Mixups`, once the references know both), what those readings turned
        out to be; weighed with this table's references (:func:`~azulcam.vision.references.weighed_row`).
        Then the tiles that look alike are named as one group, no two groups lightly one colour
        (:mod:`azulcam.vision.alike`): a printing's orange that reads as a doubtful yellow, beside
        the yellows read surely and looking nothing like them, is the colour the others leave.

        The references are what the game settled, and the displays' tiles of this very view that
        the reader is sure of (:data:`SURE_OF_ITSELF`), each colour known from two such tiles (one may
        lie in a shadow or a glare, and a colour known from it alone sends its other tiles to a
        colour not seen). Only the tiles the reader is unsure of, or
        read as a mixed-up kind, are named anew: a sure reading stands (a tile under a glare may
        look like no other of its colour). Returns the reading so weighed, and for each tile named
        anew (by its index among the loose tiles) how likely each colour is: a deal's doubtful
        colours are hypotheses the takes settle (:attr:`ZoneRead.likely`; the displays' only). Not the
        centre's and hands' tiles: they lie in the table's light, not a display's."""
        colours = self._colours()
        # The deal's tiles of this game's colours: the supply's (Summer Pavilion: its spaces are
        # dealt too), by their index among the slots, then the displays', by theirs among the loose
        # tiles; ``shown`` and the patches list them in that order.
        supply = [n for n, zone in enumerate(reading.slots)
                  if zone.kind == SUPPLY and reading.slot_kinds[n][0] in colours] if reading.patches is not None else []
        displays = [k for k, item in enumerate(reading.loose)
                    if item.zone.kind == DISPLAY and reading.loose_kinds[k][0] in colours]
        shown = [reading.slot_kinds[n] for n in supply] + [reading.loose_kinds[k] for k in displays]
        mixups = self.tracker.mixups
        known = self.table.knows(colours)
        mixed_up = {m: mixups.probabilities(kind, conf, colours) for m, (kind, conf) in enumerate(shown)
                    if kind in known and (mixed := [was for was in mixups.named.get(kind, ()) if was != kind])
                    and all(was in known for was in mixed)}
        anew = [m for m, (_, conf) in enumerate(shown) if m in mixed_up or conf < UNSURE]
        if not anew:
            return reading, {}
        patches = np.concatenate([reading.patches[supply] if supply else np.zeros((0, 32, 32, 3), np.uint8),
                                  loose_patches(image, np.array([reading.loose[k].outline for k in displays],
                                                                np.float64).reshape(-1, 4, 2), reading.boards)])
        # The view's references: its displays' tiles read surely (a tile on a board lies in other light).
        sure = [m for m, (_, conf) in enumerate(shown) if conf >= SURE_OF_ITSELF and m >= len(supply)]
        table = self.table
        if sure:
            table = TileReferences({kind: list(seen) for kind, seen in self.table.seen.items()}, least_seen=2)
            table.learn(patches[sure], [shown[m][0] for m in sure])
        rows, columns = reader_loose_likely(patches, self.classifier, reading.game,
                                            ruled_out(reading.game, self.profile.game_options))
        shapes = rows[:, [columns.index(c) for c in colours]]
        evidence = np.array([weighed_row(np.asarray(mixed_up[m]) if m in mixed_up else reading_prior(kind, conf, colours, shape),
                                         posterior)
                             for m, ((kind, conf), shape, posterior)
                             in enumerate(zip(shown, shapes, table.posterior(patches, colours)))])
        named = alike.named(alike.groups(top_colour(patches)), evidence)
        slot_kinds, loose_kinds, likely = list(reading.slot_kinds), list(reading.loose_kinds), {}
        for m in anew:
            row = named[m]
            best = int(row.argmax())
            answer = (colours[best], float(row[best]))
            if m < len(supply):
                slot_kinds[supply[m]] = answer
            else:
                k = displays[m - len(supply)]
                loose_kinds[k] = answer
                likely[k] = tuple((c, round(float(p), 4)) for c, p in zip(colours, row))
        reading.slot_kinds, reading.loose_kinds = slot_kinds, loose_kinds
        return reading, likely

    def _teach_table(self) -> None:
        """The game names the tiles of a deal, once it is committed: each display's tiles as the
        engine has them, matched to those read there (:func:`named_tiles`). Loose tiles only: a
        tile on a display lies in other light than one on a board."""
        colours = set(self._colours())
        deals = sum("deal" in e for e in self.tracker.game.record.events)
        reading, view = self.last_reading, self.follower.last_view
        # Taught at the view the deal was committed in, hypotheses of the moves after it or not: a
        # display taken in that view reads as the game has it, empty.
        if deals <= self._deals_learnt or reading is None or view is None or self._image is None:
            return
        self._deals_learnt = deals
        exp = expected(self.tracker.game.state)
        outlines, kinds = [], []
        for engine, seen in self.tracker.displays.match(view.displays).items():
            tiles = [(item.outline, kind) for item, (kind, _) in zip(reading.loose, reading.loose_kinds)
                     if item.zone == Zone.display(seen) and kind in colours]
            for k, kind in named_tiles([kind for _, kind in tiles], list(exp.get(Zone.display(engine), ()))):
                outlines.append(tiles[k][0])
                kinds.append(kind)
        if outlines:
            self.table.learn(loose_patches(self._image, np.array(outlines, np.float64), reading.boards), kinds)

    def _outlines(self, shape: tuple[int, ...]) -> list[tuple[int | None, np.ndarray]]:
        """Each board's outline grown by a tenth, at the still gate's small size: (player, polygon)."""
        # Profile pixels -> the small copy's (a profile of another image size is fitted as read() fits it).
        scale = StillGate.scale(shape) * shape[1] / self.profile.image_size[0]
        out = []
        for b in self.profile.boards + ((self.profile.scoring_board,) if self.profile.scoring_board else ()):
            corners = np.asarray(b.corners, np.float64)
            middle = corners.mean(axis=0)
            out.append((b.player, ((middle + 1.1 * (corners - middle)) * scale).round().astype(np.int32)))
        return out

    def _tile_px(self, shape: tuple[int, ...]) -> float:
        """A tile's side in the still gate's small copy, from the smallest board as the profile
        places it (the farthest from the camera)."""
        sides = []
        for player, outline in self._outlines(shape):
            if player is not None:
                width = float(np.linalg.norm(outline[1] - outline[0])) / 1.1  # the outline is grown by a tenth
                spec = find_game(self.profile.game)
                sides.append(width * tile_mm(spec) / board_mm(spec)[0])
        return min(sides) if sides else 0.0

    def _boards_mask(self, shape: tuple[int, ...]) -> np.ndarray:
        small = self.gate.current.shape[:2] if self.gate.current is not None else (1, 1)
        mask = np.zeros(small, np.uint8)
        for _, outline in self._outlines(shape):
            cv2.fillConvexPoly(mask, outline, 1)
        return mask


def named_tiles(read: list[str], dealt: list[str]) -> list[tuple[int, str]]:
    """Which of a display's tiles (``read``: each tile's kind as read) the game's deal
    (``dealt``) names, and as what: the tiles read as the deal has them, and the rest where it
    is clear which they are (one tile left, or all of one colour). None where the counts differ."""
    left = Counter(dealt)
    if len(read) != len(dealt):
        return []
    named, unnamed = [], []
    for k, kind in enumerate(read):
        if left[kind] > 0:
            left[kind] -= 1
            named.append((k, kind))
        else:
            unnamed.append((k, kind))
    left = +left
    if unnamed:
        if len(left) > 1 and len(unnamed) > 1 or any(kind in dealt for _, kind in unnamed):
            return []  # which tile was misread is not clear
        named += [(k, next(iter(left))) for k, _ in unnamed]
    return named


def first_display_near(profile: Profile) -> tuple[float, float]:
    """Where display 0 is sought: the middle of player 0's board (see :class:`track.Displays`)."""
    corners = np.asarray(profile.boards[0].corners, np.float64)
    return float(corners[:, 0].mean()), float(corners[:, 1].mean())


def watch(source: Source, watcher: Watcher, resumed: bool = False, after: int = -1) -> None:
    """Feed every frame of ``source`` to ``watcher`` until the source ends; of a video or a
    folder, only the frames after ``after`` (where a resumed game's journal stopped)."""
    watcher.start(source.name, resumed)
    try:
        for frame in source.frames():
            if source.live or frame.index > after:
                watcher.feed(frame)
        watcher.finish()
    finally:
        source.close()
        if watcher.journal is not None:
            watcher.journal.close()


def resumed_tracker(game: Any, displays: list[tuple[float, float]], profile: Profile, mixups: Mixups | None = None
                    ) -> Tracker:
    """A tracker for ``game`` (new or from a journal), its displays numbered as the journal kept
    them, knowing the reader's ``mixups`` of this table (as :func:`load_table` gives them)."""
    return Tracker(game, first_display_near(profile), Displays(list(displays)), mixups=mixups or Mixups())


def load_table(path: Path, game: str) -> tuple[TableMemory, Mixups]:
    """The memory of this table (``game`` is played at it) kept at ``path``
    (:meth:`~azulcam.vision.memory.TableMemory.load`: an empty one where none is kept yet) and the
    reader's mix-ups it holds. Raises :class:`~azulcam.vision.memory.TableMemoryError` (a
    ValueError) naming the file for one that is not such, its mix-ups' own error its reason."""
    memory = TableMemory.load(path, game)
    try:
        return memory, Mixups.from_json(memory.mixups)
    except TableError as exc:
        raise TableMemoryError("memory.unreadable", path=str(path), reason=exc) from None


def save_table(path: Path, memory: TableMemory, mixups: Mixups) -> None:
    """This table's memory with the reader's ``mixups`` as they are now, written whole (a watch
    killed while writing leaves the last one). Raises TableMemoryError where it cannot be."""
    memory.mixups = mixups.to_json()
    memory.save(path)


def read_controls(lines: Any, into: queue.Queue) -> threading.Thread:
    """A thread putting each JSON line of ``lines`` (a text stream: standard input, a pipe) into
    ``into`` as the watcher's corrections; a line that is not JSON is put as it is, and refused."""

    def run() -> None:
        for line in lines:
            if line.strip():
                try:
                    into.put(json.loads(line))
                except (ValueError, RecursionError):  # not JSON, a number too long to read, nested too deep
                    into.put(line.strip()[:200])

    thread = threading.Thread(target=run, name="watch controls", daemon=True)
    thread.start()
    return thread


def event_line(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":"))
