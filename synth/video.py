"""A whole game as a video: a fixed camera over the table while a record is played out.

Each record event is shown as a real table shows it: a hand reaches in to where the tiles
leave, carries them to where they arrive (tiles from the bag or to the lid come from or go
beyond the table's edge), and leaves. Azul's score markers stand where the scores put them. The
camera shakes a little and the light drifts. Each
frame's truth goes to a JSON-lines sidecar: the observation of what lies on the table in that
frame, the profile, what is hidden, and the last record event applied.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..engine.record import Record, replay
from ..engine.zones import Zone
from .art import RenderError
from .camera import Camera, ViewRanges, sample_camera
from .render import Look, SceneOptions, Solid, compose, make_clutter, make_hand, sample_look, scene_truth
from ..calibration.geometry import tile_mm
from .table import Arrangement, Item, Marker, Table, arrange, build_table, score_markers, zone_contents

#: Frames per phase of one event: still, reach in, carry, put down and leave.
STILL, REACH, CARRY, LEAVE = 2, 3, 3, 2

#: Still frames after an event's hand has left: a table waits a moment for the next player, and
#: always for a deal or a refill to be laid out.
PAUSE = 4

#: Every this many moves, the next player's hand comes in as the last one leaves (one still
#: frame between them): a fast table, two moves between still views.
FAST_EVERY = 6


class VideoError(RenderError, OSError):
    """A video that cannot be written (``render.video_unwritable``): an OSError, as a file that
    cannot be written is."""


def pause_after(index: int, event: object, final: int) -> int:
    """Still frames after record event ``index`` (``event``) has moved tiles; the video's last
    event (``final``) is always followed by a pause."""
    is_move = isinstance(event, dict) and "move" in event
    return 1 if is_move and index % FAST_EVERY == FAST_EVERY - 1 and index != final else PAUSE


@dataclass
class Frame:
    """One video frame: the image (BGR) and its truth line."""

    image: np.ndarray
    truth: dict[str, Any]


def _centroid(items: list[Item]) -> tuple[float, float]:
    return float(np.mean([i.x for i in items])), float(np.mean([i.y for i in items]))


def _edge_point(table: Table, player: int | None) -> tuple[float, float]:
    """Beyond the table's edge behind a player's board (the bag, the lid, the player's lap)."""
    arr = table.arrangement
    piece = arr.boards[player if player is not None and 0 <= player < len(arr.boards) else 0]
    return piece.to_world(0.5, 1.6)


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    t = 0.5 - 0.5 * math.cos(math.pi * min(max(t, 0.0), 1.0))  # ease in and out
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


@dataclass(frozen=True)
class Bump:
    """A board knocked on the table: after record event ``after``, player ``player``'s board and
    every tile on it or beside it lie ``shift`` (mm, on the table) from where they were."""

    after: int
    player: int
    shift: tuple[float, float]


def bumped(table: Table, bump: Bump) -> Table:
    """``table`` with the board of ``bump`` and its tiles moved."""
    arr = table.arrangement
    dx, dy = bump.shift
    boards = tuple(replace(b, x=b.x + dx, y=b.y + dy) if b.player == bump.player else b for b in arr.boards)
    items = [replace(i, x=i.x + dx, y=i.y + dy) if i.zone is not None and i.zone.player == bump.player else i
             for i in table.items]
    markers = [replace(m, x=m.x + dx, y=m.y + dy) if m.player == bump.player else m for m in table.markers]
    return Table(replace(arr, boards=boards), items, markers)


#: Added to a video's seed for its score markers' generator: the rest of the video draws as it
#: did before they were drawn.
MARKERS_STREAM = 7927


def moved_markers(table: Table, state: Any, seed: int, index: int) -> list[Marker]:
    """Azul's score markers where ``state``'s scores put them: those whose cell did not change
    left where ``table`` has them, the others put down afresh (record event ``index``)."""
    fresh = score_markers(table.arrangement, state.marker_cells() if state.spec.score_track else [],
                          np.random.default_rng((seed, MARKERS_STREAM, index + 1)))
    kept = {m.player: m for m in table.markers}
    return [kept[m.player] if m.player in kept and kept[m.player].cell == m.cell else m for m in fresh]


#: A video's camera is drawn again until player 0's board lies lowest in the image, clearly (by
#: this share of its height): the seat `calibrate` numbers 0, so that a game filmed from
#: wherever its first player sits is recorded with the players as they were numbered.
SEAT_MARGIN = 0.05
MOST_CAMERA_DRAWS = 100


def player_0_nearest(camera: Camera, arrangement: Arrangement) -> bool:
    """Whether player 0's board lies lowest in ``camera``'s image, by :data:`SEAT_MARGIN`."""
    lows = {b.player: camera.project(np.array(b.corners())).mean(0)[1] for b in arrangement.boards}
    others = [y for p, y in lows.items() if p != 0]
    return not others or lows[0] - max(others) >= SEAT_MARGIN * camera.size[1]


def frames(record: Record, seed: int = 0, size: tuple[int, int] = (960, 540), first: int = 0,
           last: int | None = None, family: str = "classic", bump: Bump | None = None,
           then: Iterable[Record] | None = None, hold: int = 0) -> Iterator[Frame]:
    """Render the events ``first`` .. ``last`` (indices, inclusive) of a record, checking each, in
    the art family ``family``; with ``bump``, a board is knocked aside between two events. The
    games ``then`` are played after it at the same table, each from its start (the tiles put
    away, ``truth["game"]`` counting the games); ``hold``: still frames more after each event
    (players thinking)."""
    rng = np.random.default_rng(seed)
    state = record.new_state()
    arrangement = arrange(state.game, state.players, state.spec.layout(state.options), rng)
    options = SceneOptions(size=size, view=ViewRanges(framing="fit"), hands=0.0, family=family)
    for _ in range(MOST_CAMERA_DRAWS):
        camera, params = sample_camera(rng, size, arrangement.extent(), tile_mm(state.spec), options.view,
                                       arrangement.outline_points())
        if player_0_nearest(camera, arrangement):
            break
    look = sample_look(rng, options)
    look = replace(look, defocus=min(look.defocus, 0.8), motion=(0.0, 0.0))
    clutter = [make_clutter(rng, arrangement.extent()) for _ in range(int(rng.integers(0, 3)))]
    table = build_table(arrangement, zone_contents(state), rng)
    table.markers = moved_markers(table, state, seed, -1)
    shot = _Shot(camera, params, look, clutter, rng, state.options)
    count = 0
    for game, played in enumerate(itertools.chain([record], then or ())):
        if game:  # the next game at the same table: its start, the last game's tiles put away
            table = build_table(table.arrangement, zone_contents(played.new_state()), rng)
            table.markers = moved_markers(table, played.new_state(), seed, -1)
        final = len(played.events) - 1 if last is None or game else min(last, len(played.events) - 1)
        for frame in _game_frames(shot, played, table, seed, count, first if not game else 0, final,
                                  bump if not game else None, hold):
            if then is not None:
                frame.truth["game"] = game
            yield frame
            count += 1


def _game_frames(shot: _Shot, record: Record, table: Table, seed: int, count: int, first: int, final: int,
                 bump: Bump | None, hold: int) -> Iterator[Frame]:
    """One game's frames from ``table`` (its start), events ``first`` .. ``final``, numbered from ``count``."""
    if first == 0:
        for _ in range(STILL):
            yield shot.frame(table, [], -1, "still", count)
            count += 1
    for step in replay(record):
        mover = step.event.get("player") if isinstance(step.event, dict) else None
        after = build_table(table.arrangement, zone_contents(step.state), shot.rng, previous=table)
        after.markers = moved_markers(table, step.state, seed, step.index)
        if step.index > final:
            return
        if step.index < first:
            table = after
            continue
        for frame in _event_frames(shot, table, after, step.index, mover, count, pause_after(step.index, step.event, final) + hold):
            yield frame
            count += 1
        table = after
        if bump is not None and step.index == bump.after:
            table = bumped(table, bump)


@dataclass
class _Shot:
    """What stays the same from frame to frame: the camera, the light, the clutter."""

    camera: Camera
    params: dict[str, float]
    look: Look
    clutter: list[Solid]
    rng: np.random.Generator
    options: dict[str, Any]

    def frame(self, table: Table, hand: list[Solid], event: int, phase: str, count: int) -> Frame:
        """``event``: the record event the frame shows; the table shows its result in the
        ``still`` and ``leave`` phases, and the tiles on their way in ``reach`` and ``carry``."""
        t = count / 10.0
        camera = self.camera.jittered(self.rng, 0.04, 0.4)
        look = replace(self.look, exposure=self.look.exposure * (1 + 0.06 * math.sin(t / 7.0)))
        image, masks = compose(table, camera, look, self.clutter + hand, self.rng, phase=0.15 * math.sin(t / 11.0))
        truth = scene_truth(table, camera, masks, self.params, None, self.options, look.family)
        truth = {"frame": count, "event": event, "phase": phase, "applied": phase in ("still", "leave"), **truth}
        return Frame(image, truth)


def _event_frames(shot: _Shot, before: Table, after: Table, index: int, mover: int | None, count: int,
                  pause: int) -> Iterator[Frame]:
    kept_before = {id(i) for i in before.items}
    kept_after = {id(i) for i in after.items}
    leaving = [i for i in before.items if id(i) not in kept_after]
    arriving = [i for i in after.items if id(i) not in kept_before]
    if not leaving and not arriving:
        for _ in range(STILL):
            yield shot.frame(after, [], index, "still", count)
            count += 1
        return
    home = _edge_point(before, mover)
    source = _centroid(leaving) if leaving else _edge_point(before, mover)
    target = _centroid(arriving) if arriving else _edge_point(before, mover)
    arr = before.arrangement
    seat = arr.boards[mover].to_world(0.5, 1.0) if mover is not None else home
    away = math.atan2(seat[1] - arr.center[1], seat[0] - arr.center[0])
    shape_seed = int(shot.rng.integers(1 << 30))

    def hand_at(point: tuple[float, float], height: float) -> list[Solid]:
        return [make_hand(np.random.default_rng(shape_seed), point, arr.center, away, height)]

    for k in range(REACH):
        yield shot.frame(before, hand_at(_lerp(home, source, (k + 1) / REACH), 60.0), index, "reach", count)
        count += 1
    lifted = Table(arr, [i for i in before.items if id(i) in kept_after], before.markers)
    for k in range(CARRY):
        point = _lerp(source, target, (k + 1) / CARRY)
        carried = [Item(i.kind, None, point[0] + (i.x - source[0]) * 0.3, point[1] + (i.y - source[1]) * 0.3,
                        i.angle, 25.0) for i in leaving[:8]]
        carrying = Table(arr, lifted.items + carried, before.markers)
        yield shot.frame(carrying, hand_at(point, 60.0), index, "carry", count)
        count += 1
    for k in range(LEAVE):
        yield shot.frame(after, hand_at(_lerp(target, home, (k + 1) / LEAVE), 70.0), index, "leave", count)
        count += 1
    for _ in range(pause):
        yield shot.frame(after, [], index, "still", count)
        count += 1


def frame_count(record: Record, first: int = 0, last: int | None = None) -> int:
    """How many frames :func:`frames` gives for the same events, without drawing any: an event
    that moves tiles takes a hand's frames, one that moves none (every zone's tiles the same
    before and after) is shown still. Replaying the record is cheap next to drawing it."""
    count = STILL if first == 0 else 0
    final = len(record.events) - 1 if last is None else min(last, len(record.events) - 1)
    before = zone_contents(record.new_state())
    for step in replay(record):
        if last is not None and step.index > last:
            break
        after = zone_contents(step.state)
        if step.index >= first:
            count += REACH + CARRY + LEAVE + pause_after(step.index, step.event, final) if _moved(before, after) else STILL
        before = after
    return count


def _moved(before: dict[Zone, list[str]], after: dict[Zone, list[str]]) -> bool:
    """Whether :func:`~azulcam.synth.table.build_table` would lay a tile anew or take one away."""
    return any(sorted(before.get(zone, [])) != sorted(after.get(zone, [])) for zone in before.keys() | after.keys())


def write_video(record: Record, out: str | Path, seed: int = 0, size: tuple[int, int] = (960, 540), fps: float = 10.0,
                first: int = 0, last: int | None = None,
                on_frame: Callable[[int, int | None], object] | None = None,
                family: str = "classic", bump: Bump | None = None) -> tuple[Path, Path, int]:
    """Write the video (MPEG-4) and its sidecar ``OUT.jsonl`` in the art family ``family`` (with
    ``bump``, a board knocked aside on the way: :class:`Bump`); returns their paths and the frame
    count.

    ``on_frame(done, total)``, when given, is called once before the first frame (``done`` 0)
    and after each frame written, with the number of frames the video will have (say, a
    :class:`~azulcam.progress.Progress`'s ``update``).

    Raises :class:`~azulcam.engine.errors.RecordError` for a record that does not replay and
    :class:`VideoError` (an OSError) when the video cannot be written."""
    out = Path(out)
    sidecar = out.with_suffix(".jsonl")
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise VideoError("render.video_unwritable", path=str(out))
    count = 0
    try:
        with sidecar.open("w", encoding="utf-8") as lines:
            total = None
            if on_frame is not None:
                total = frame_count(record, first, last)
                on_frame(0, total)
            for frame in frames(record, seed, size, first, last, family, bump):
                writer.write(frame.image)
                lines.write(json.dumps(frame.truth, separators=(",", ":")) + "\n")
                count += 1
                if on_frame is not None:
                    on_frame(count, total)
    finally:
        writer.release()
    return out, sidecar, count
