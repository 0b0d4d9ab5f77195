"""The reading model read through a table's memory, and a photo whose content is known taught to it.

:class:`TaughtReader` is the shipped reading model whose last layer, for each kind of patch this
table taught (:mod:`memory`), is the refitted one: a board's slots (read beside their bare look
and their print's consensus) and the loose tiles (beside zeros) each have theirs. One batched
call gives the features and the shipped answer; the refitted layers are a product more. With a
layer taught for loose tiles the reader names every tile on the displays and in the centre,
not only those the detector was unsure of (:attr:`TaughtReader.names_loose_tiles`).

:func:`teach` adds what one photo shows (an ``azulcam-observation/1`` of it, the user's or the
game's) to a memory and refits it.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.zones import CENTER, DISPLAY, HAND, SLOT, SUPPLY, Zone
from . import reader
from .classify import OnnxClassifier
from .memory import LOOSE, SLOTS, TableMemory
from .refit import Head

#: A display's tile in the photo is matched to the observation's display within this share of
#: the distance between the two nearest displays' centres.
DISPLAY_REACH = 0.5

#: What :func:`matched_tiles` names a place that holds no tile.
EMPTY = None


def patch_kinds(patches: np.ndarray) -> np.ndarray:
    """Which patches (N x 32 x 32 x 9, :func:`reader.model_input`) are loose tiles: their
    reference channels all zero (N booleans)."""
    patches = np.asarray(patches)
    return ~patches[..., 3:].reshape(len(patches), -1).any(axis=1)


class TaughtReader(OnnxClassifier):
    """The reading model ``model`` with the last layers ``memory`` refitted (module doc)."""

    def __init__(self, model: OnnxClassifier, memory: TableMemory) -> None:
        super().__init__(model.session, model.info)
        self.memory = memory
        self.model = model
        self._heads: dict[str, Head | None] = {}
        self.refresh()

    def refresh(self) -> None:
        """Take the memory's layers as they are now (after a refit)."""
        self._heads = {kind: self.memory.head(kind, self.info.sha256) for kind in (SLOTS, LOOSE)}

    @property
    def names_loose_tiles(self) -> bool:
        """Whether this table taught the reader its loose tiles: it then names each of them."""
        return self._heads.get(LOOSE) is not None

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        if not any(self._heads.values()) or len(patches) == 0:
            return super().probabilities(patches)
        probs, features = self.features(patches)
        out = np.asarray(probs, np.float64).copy()
        loose = patch_kinds(patches)
        for kind, rows in ((SLOTS, ~loose), (LOOSE, loose)):
            head = self._heads.get(kind)
            if head is not None and rows.any():
                out[rows] = head.probabilities(features[rows])
        return out.astype(np.float32)


def reader_with(model: Any, memory: TableMemory) -> Any:
    """``model`` reading through ``memory`` (a :class:`TaughtReader`: the shipped answers where
    nothing was taught under that very model); a reader that is no ONNX model (a test's) as it is."""
    return TaughtReader(model, memory) if isinstance(model, OnnxClassifier) else model


@dataclass
class Lesson:
    """What one photo taught: examples of each kind of patch, how many of them the reader (as it
    read before) had wrong, and the refit's seconds."""

    examples: dict[str, int]
    wrong_before: dict[str, int]
    left_out: list[str]
    refit_s: float


def corrected(observation: dict[str, Any], corrections: list[tuple[str, Any]]) -> dict[str, Any]:
    """``observation`` with what a person said lies in some zones (``(zone, content)``: a board
    slot's or a supply space's tile, None where empty; a display's, the centre's or a hand's
    tiles, a list). Raises :class:`~azulcam.engine.zones.ZoneError` for a name of no zone, and
    ValueError for a zone the observation has not (a board not in it, a display not seen) or a
    content of the wrong form."""
    out = json.loads(json.dumps(observation))
    boards = {b["player"]: b for b in out["boards"]}
    for name, content in corrections:
        zone = Zone.parse(name)
        loose = isinstance(content, list)
        if loose != (zone.kind in (DISPLAY, CENTER, HAND)) or (not loose and content is not None and not isinstance(content, str)):
            raise ValueError(f"{name}: {content!r} is not what that zone holds")
        if zone.kind == SLOT and zone.player in boards:
            slots = boards[zone.player]["slots"]
            slots.pop(str(zone.slot), None)
            if content is not None:
                slots[str(zone.slot)] = content
        elif zone.kind == HAND and zone.player in boards:
            boards[zone.player]["hand"] = dict(Counter(content))
        elif zone.kind == DISPLAY and zone.index is not None and zone.index < len(out["factories"]):
            out["factories"][zone.index]["tiles"] = list(content)
        elif zone.kind == CENTER:
            out["center"] = dict(Counter(content))
        elif zone.kind == SUPPLY and out.get("supply") is not None and zone.index < len(out["supply"]):
            out["supply"][zone.index] = content
        else:
            raise ValueError(f"{name}: not a zone of this reading")
    return out


def label_of(game: str, kind: str | None) -> str:
    """The reading model's label of a tile ``kind`` of ``game`` (None: ``empty``)."""
    return "empty" if kind is None else f"{game}/{kind}"


def slot_labels(slots: list[Zone], observation: dict[str, Any], skip: Collection[Zone] = ()
                ) -> tuple[list[int], list[str | None]]:
    """The slots (rows of ``slots``) whose content ``observation`` states, and that content (None:
    empty), but those in ``skip``."""
    boards = {b["player"]: b["slots"] for b in observation["boards"]}
    supply = observation.get("supply")
    rows, kinds = [], []
    for n, zone in enumerate(slots):
        if zone in skip:
            continue
        if zone.kind == SUPPLY:
            if supply is None or zone.index >= len(supply):  # type: ignore[operator]
                continue
            rows.append(n)
            kinds.append(supply[zone.index])  # type: ignore[index]
        elif zone.player in boards:
            rows.append(n)
            kinds.append(boards[zone.player].get(str(zone.slot)))
    return rows, kinds


def matched_tiles(probabilities: np.ndarray, columns: list[str | None], wanted: list[str]) -> list[str | None] | None:
    """The tiles of one zone the photo shows (their probabilities over ``columns``) each named by
    one of ``wanted`` (the zone's content), the likeliest pairs first; none where the photo shows
    another number of tiles than ``wanted`` (which tile is which is then a guess). Of a zone that
    holds nothing, whatever the photo shows there is no tile (an empty display's places)."""
    if not wanted:
        return [EMPTY] * len(probabilities)
    if len(probabilities) != len(wanted):
        return None
    left = Counter(wanted)
    names: list[str | None] = [None] * len(wanted)
    pairs = sorted(((float(probabilities[n, columns.index(k)]) if k in columns else 0.0, n, k)
                    for n in range(len(wanted)) for k in set(wanted)), reverse=True)
    for _, n, k in pairs:
        if names[n] is None and left[k] > 0:
            names[n], left[k] = k, left[k] - 1
    return names  # type: ignore[return-value]


def loose_labels(reading: Any, observation: dict[str, Any], probabilities: np.ndarray, columns: list[str | None],
                 skip: Collection[Zone] = ()) -> tuple[list[int], list[str | None], list[str]]:
    """The loose tiles of ``reading`` (rows of its ``loose``) on the displays and in the centre
    whose kind ``observation`` says, each display's and the centre's tiles matched to its content
    (:func:`matched_tiles`), and the zones left out (their tiles in the photo were not as many as
    the observation's, or they are in ``skip``)."""
    # An observation made from a game state places no display (``center`` null): those are not matched.
    placed = [f for f in observation.get("factories", []) if isinstance(f.get("center"), list) and len(f["center"]) == 2]
    centres = np.array([f["center"] for f in placed], np.float64).reshape(-1, 2)
    seen = np.array(reading.factories, np.float64).reshape(-1, 2)
    reach = np.inf
    if len(centres) > 1:
        gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(centres)) * 1e9
        reach = DISPLAY_REACH * float(gaps.min())
    zones: dict[Zone, list[str]] = {}
    left_out: list[str] = []
    for i, centre in enumerate(seen):
        near = int(np.linalg.norm(centres - centre, axis=1).argmin()) if len(centres) else -1
        if near >= 0 and np.linalg.norm(centres[near] - centre) <= reach:
            zones[Zone.display(i)] = list(placed[near]["tiles"])
        elif Zone.display(i) not in skip:
            left_out.append(str(Zone.display(i)))  # no display of the observation lies there
    zones[Zone.centre()] = [k for k, n in observation.get("center", {}).items() for _ in range(int(n))]
    rows: list[int] = []
    kinds: list[str | None] = []
    for zone, wanted in zones.items():
        here = [n for n, x in enumerate(reading.loose) if x.zone == zone]
        if zone in skip:
            continue
        names = matched_tiles(probabilities[here], columns, wanted)
        if names is None:
            left_out.append(str(zone))
            continue
        rows += here
        kinds += names
    return rows, kinds, left_out


def teach(memory: TableMemory, model: OnnxClassifier, reading: Any, image: np.ndarray,
          observation: dict[str, Any], skip: Collection[Zone] = ()) -> Lesson:
    """Teach ``memory`` what ``image`` shows: ``reading`` is its reading (:func:`analyze.read`,
    with :attr:`~.analyze.Reading.slot_inputs`), ``observation`` its true content (the same game),
    ``skip`` zones not to learn from (hidden ones). Refits the memory's layers from ``model``'s
    shipped one. The memory's photo count grows by one."""
    from .analyze import loose_patches  # the pipeline's own cut; analyze imports this module's reader

    game = reading.game
    if observation.get("game") != game:
        raise ValueError(f"an observation of {observation.get('game')!r} for a photo of {game!r}")
    taught: dict[str, int] = {}
    wrong: dict[str, int] = {}
    rows, kinds = slot_labels(reading.slots, observation, skip)
    if rows:
        inputs = reading.slot_inputs[rows]
        probs, features = model.features(inputs)
        taught[SLOTS], wrong[SLOTS] = learn_slots(memory, model, game, probs, features, kinds)
    left_out: list[str] = []
    outlines = np.array([x.outline for x in reading.loose], np.float64).reshape(-1, 4, 2)
    if len(outlines):
        inputs = reader.model_input(loose_patches(image, outlines, reading.boards), None, None)
        probs, features = model.features(inputs)
        cols, columns = model.game_columns(game)
        rows, names, left_out = loose_labels(reading, observation, probs[:, cols], columns, skip)
        if rows:
            _learn(memory, model, LOOSE, game, probs[rows], features[rows], names, taught, wrong)
    memory.photos += 1
    t = time.perf_counter()
    memory.refit(Head(*model.head()), model.info.labels)
    return Lesson(taught, wrong, left_out, time.perf_counter() - t)


def learn_slots(memory: TableMemory, model: OnnxClassifier, game: str, probs: np.ndarray, features: np.ndarray,
                kinds: list[str | None], kind: str = SLOTS) -> tuple[int, int]:
    """Add to ``memory``, as examples of ``kind``, board slots of ``game`` whose content is known
    (``kinds``, None: empty): the model's ``probs`` and ``features`` of them. Returns how many
    were taught, and how many the model had read wrong untaught."""
    counts: dict[str, int] = {}
    wrong: dict[str, int] = {}
    _learn(memory, model, kind, game, probs, features, kinds, counts, wrong)
    return counts[kind], wrong[kind]


def _learn(memory: TableMemory, model: OnnxClassifier, kind: str, game: str, probs: np.ndarray, features: np.ndarray,
           kinds: list[str | None], taught: dict[str, int], wrong: dict[str, int]) -> None:
    labels = [label_of(game, k) for k in kinds]
    cols, names = model.game_columns(game)
    read = [label_of(game, names[int(b)]) for b in np.asarray(probs)[:, cols].argmax(axis=1)]
    memory.learn(kind, model.info.sha256, features, labels, read)
    taught[kind] = len(labels)
    wrong[kind] = sum(a != b for a, b in zip(labels, read))
