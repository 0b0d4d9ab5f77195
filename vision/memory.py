"""One table's memory: what its own photos and its games taught the reader.

Each user has one table, one light and one camera; a reader trained on rendered art reads it a
few per cent wrong in ways of its own. :class:`TableMemory` keeps what this table taught:

- the reading model's features of the patches whose content is known (a photo the user
  confirmed, ``azulcam teach``; every zone a followed game settles), with their labels, newest
  kept (:data:`KEPT_PER_LABEL` of each label), for each kind of patch: ``slots`` (a board's slots,
  read beside their bare look) and ``loose`` (tiles on the displays, in the centre) a person
  confirmed, and ``settled`` (slots a followed game settled, :data:`SETTLED`);
- the last layer refitted on those a person confirmed (:mod:`refit`), for slots and loose tiles;
- how the shipped model read those patches (``confusion``: label -> what it read -> count);
- this table's tile references (:class:`~.references.TileReferences`) and the reader's mix-ups as
  the game named them (kept as given: the follower reads them).

It belongs to the table, not to one photo's geometry: a second photo of the same table, taken
from elsewhere with its own profile, reads with it. Its file (``docs/formats/memory.md``) is
written whole, then renamed over the last: a write that fails loses nothing. A file that is not
such a memory, one of another game or of a newer format is refused with a coded error that names
it, never dropped.
"""

from __future__ import annotations

import base64
import contextlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.errors import CodedError
from .references import FEATURES as REFERENCE_FEATURES
from .references import TileReferences
from .refit import Head, refit

MEMORY_FORMAT = "azulcam-table-memory/1"
#: The tile references' file, kept beside a profile before the table memory took them in: read
#: where no memory is kept yet.
REFERENCES_FORMAT = "azulcam-tile-references/1"

#: A profile's table memory is kept beside it, ``PROFILE.memory.json``; before the memory, a
#: watch kept the tile references in ``PROFILE.tiles.json``.
MEMORY_SUFFIX, REFERENCES_SUFFIX = ".memory.json", ".tiles.json"

#: The kinds of patch the reader reads, each with its own last layer.
SLOTS, LOOSE = "slots", "loose"
#: A board's slots a followed game settled (labelled by the engine), kept apart: no layer is
#: refitted on them. A game's settled spaces are the ones the reader already read as the game has
#: them (those it doubted are not settled), and a layer refitted on them during a game made it
#: lose a whole Summer Pavilion game it followed right untaught (``bench/readme.py``: 107 of 181
#: events, against 181 of 181). They are what the reader does on this table's easy spaces, kept
#: with their confusion counts for the follower's likelihoods.
SETTLED = "settled"
PATCH_KINDS = (SLOTS, LOOSE, SETTLED)
#: The kinds of patch a layer is refitted on: those a person confirmed (``azulcam teach``, the page).
TAUGHT_KINDS = (SLOTS, LOOSE)

#: Examples kept of each label (the newest) for each kind of patch: a few evenings' photos of a
#: table; enough that one photo's light does not outweigh the others, few enough that the file
#: stays a few megabytes and a refit well under a second.
KEPT_PER_LABEL = 150


class TableMemoryError(CodedError):
    """A table memory that cannot be used: a code with its parameters (the file's ``path``, what is
    wrong with it)."""


def _array(data: Any, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    raw = np.frombuffer(base64.b64decode(data, validate=True), dtype)
    return raw.reshape(shape)


def _text(values: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(values).tobytes()).decode("ascii")


@dataclass
class Examples:
    """Patches of one kind whose content is known: their features (N x F, float16) and labels (the
    reading model's label names, ``empty`` or ``game/kind``), oldest first."""

    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float16))
    labels: list[str] = field(default_factory=list)

    def add(self, features: np.ndarray, labels: Sequence[str]) -> None:
        features = np.asarray(features, np.float16)
        if len(labels) == 0:
            return
        kept = self.features if len(self.labels) else np.zeros((0, features.shape[1]), np.float16)
        if kept.shape[1] != features.shape[1]:
            raise ValueError(f"features of {features.shape[1]} numbers beside examples of {kept.shape[1]}")
        self.features = np.concatenate([kept, features])
        self.labels = [*self.labels, *labels]
        self._keep_newest()

    def _keep_newest(self) -> None:
        labels = np.array(self.labels)
        keep = np.zeros(len(labels), bool)
        for label in set(self.labels):
            keep[np.flatnonzero(labels == label)[-KEPT_PER_LABEL:]] = True
        self.features, self.labels = self.features[keep], labels[keep].tolist()

    def to_json(self) -> dict[str, Any]:
        return {"labels": self.labels, "features": _text(self.features.astype("<f2")),
                "dims": int(self.features.shape[1]) if len(self.labels) else 0}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Examples":
        labels = [str(x) for x in data["labels"]]
        if not labels:
            return cls()
        return cls(_array(data["features"], "<f2", (len(labels), int(data["dims"]))).astype(np.float16), labels)


@dataclass
class TableMemory:
    """What one table taught the reader (module doc). ``game``: the game played at it; ``reader``:
    the reading model its features are of (its SHA-256), none before anything was taught."""

    game: str
    reader: str | None = None
    examples: dict[str, Examples] = field(default_factory=lambda: {k: Examples() for k in PATCH_KINDS})
    heads: dict[str, Head] = field(default_factory=dict)
    confusion: dict[str, dict[str, Counter]] = field(default_factory=lambda: {k: {} for k in PATCH_KINDS})
    #: Photos the user confirmed, and zones the games at this table settled, taught so far.
    photos: int = 0
    settled: int = 0
    references: TileReferences = field(default_factory=TileReferences)
    mixups: dict[str, Any] = field(default_factory=dict)

    def learn(self, kind: str, reader: str, features: np.ndarray, labels: Sequence[str],
              read: Sequence[str]) -> None:
        """Examples of ``kind`` (:data:`PATCH_KINDS`): their features under the reading model whose
        SHA-256 is ``reader``, their labels, and what that model read of them untaught. A memory
        taught under another reading model forgets its examples first (their features mean
        nothing to this one); its references and mix-ups stay."""
        if kind not in PATCH_KINDS:
            raise ValueError(f"patch kind {kind!r}: expected one of {PATCH_KINDS}")
        if self.reader != reader:
            self.examples = {k: Examples() for k in PATCH_KINDS}
            self.heads, self.confusion = {}, {k: {} for k in PATCH_KINDS}
            self.reader = reader
        self.examples[kind].add(features, labels)
        for label, answer in zip(labels, read):
            self.confusion[kind].setdefault(label, Counter())[answer] += 1

    def refit(self, shipped: Head, labels: Sequence[str]) -> dict[str, float]:
        """Each kind's last layer refitted on its examples (:func:`refit.refit`) from the
        ``shipped`` one, whose rows are the model's ``labels``: the game's kinds compete. Returns
        each refitted kind's examples count."""
        columns = [i for i, name in enumerate(labels) if name.startswith(self.game + "/")]
        index = {name: i for i, name in enumerate(labels)}
        fitted: dict[str, float] = {}
        for kind in TAUGHT_KINDS:
            examples = self.examples[kind]
            if not examples.labels:
                self.heads.pop(kind, None)
                continue
            unknown = sorted(set(examples.labels) - set(index))
            if unknown:
                raise ValueError(f"labels {unknown} are not the reading model's")
            targets = np.array([index[x] for x in examples.labels])
            # A loose tile is there because the detector found it: its layer names it, and whether
            # a tile lies there stays the shipped answer (one photo's few empty places, taught as
            # such, made the reader drop real tiles of a pale kind).
            self.heads[kind] = refit(shipped, examples.features.astype(np.float32), targets, columns,
                                     presence=kind != LOOSE)
            fitted[kind] = len(targets)
        return fitted

    def head(self, kind: str, reader: str) -> Head | None:
        """The refitted last layer for ``kind`` of patch under the reading model ``reader``; none
        where nothing of that kind was taught, or under another model."""
        return self.heads.get(kind) if reader == self.reader else None

    # ------------------------------------------------------------------ the file

    def to_json(self) -> dict[str, Any]:
        return {
            "format": MEMORY_FORMAT,
            "game": self.game,
            "reader": self.reader,
            "photos": self.photos,
            "settled": self.settled,
            "examples": {k: e.to_json() for k, e in self.examples.items()},
            "heads": {k: {"shape": list(h.weight.shape), "weight": _text(h.weight.astype("<f4")),
                          "bias": _text(h.bias.astype("<f4"))} for k, h in self.heads.items()},
            "confusion": {k: {label: dict(c) for label, c in table.items()} for k, table in self.confusion.items()},
            "references": self.references.seen,
            "mixups": self.mixups,
        }

    @classmethod
    def from_json(cls, data: Any) -> "TableMemory":
        """A memory from its JSON. Raises TableMemoryError (``memory.format``, ``memory.newer``) or
        KeyError, TypeError, ValueError for one that is not such."""
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        found = data.get("format")
        if isinstance(found, str) and found.partition("/")[0] == MEMORY_FORMAT.partition("/")[0] and found != MEMORY_FORMAT:
            raise TableMemoryError("memory.newer", found=found, format=MEMORY_FORMAT)
        if found != MEMORY_FORMAT:
            raise TableMemoryError("memory.format", format=MEMORY_FORMAT)
        heads = {}
        for kind, h in data["heads"].items():
            k, f = (int(v) for v in h["shape"])
            heads[str(kind)] = Head(_array(h["weight"], "<f4", (k, f)).astype(np.float32),
                                    _array(h["bias"], "<f4", (k,)).astype(np.float32))
        memory = cls(
            game=str(data["game"]),
            reader=None if data["reader"] is None else str(data["reader"]),
            examples={k: Examples.from_json(data["examples"].get(k, {"labels": []})) for k in PATCH_KINDS},
            heads=heads,
            confusion={k: {str(label): Counter({str(a): int(n) for a, n in c.items()})
                           for label, c in data["confusion"].get(k, {}).items()} for k in PATCH_KINDS},
            photos=int(data["photos"]),
            settled=int(data["settled"]),
            references=_references(data["references"]),
            mixups=dict(data["mixups"]),
        )
        return memory

    @classmethod
    def load(cls, path: Path, game: str) -> "TableMemory":
        """The memory kept at ``path`` of a table where ``game`` is played; where none is kept
        there yet, the tile references a watch kept beside the same profile before
        (:func:`references_path_of`), else an empty memory. Raises TableMemoryError naming the
        file for one that is not such a memory (``memory.unreadable``, with what is wrong), of a
        newer format (``memory.newer_file``) or of another game (``memory.other_game``)."""
        path = Path(path)
        if not path.is_file():
            before = references_path_of(path)
            if before is None or not before.is_file():
                return cls(game)
            path = before
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            memory = (_from_references(data, game) if isinstance(data, dict) and data.get("format") == REFERENCES_FORMAT
                      else cls.from_json(data))
        except TableMemoryError as exc:
            if exc.code == "memory.newer":
                raise TableMemoryError("memory.newer_file", path=str(path), found=exc.params["found"],
                                       format=MEMORY_FORMAT) from None
            raise TableMemoryError("memory.unreadable", path=str(path), reason=exc.notice) from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:  # Python's, in its words
            raise TableMemoryError("memory.unreadable", path=str(path), reason=str(exc)) from None
        if memory.game != game:
            raise TableMemoryError("memory.other_game", path=str(path), found=memory.game, game=game)
        return memory

    def forget(self) -> None:
        """Forget what photos and games taught the reader (its examples, layers and confusions);
        the tile references and mix-ups the follower keeps stay."""
        self.reader, self.photos, self.settled = None, 0, 0
        self.examples = {k: Examples() for k in PATCH_KINDS}
        self.heads, self.confusion = {}, {k: {} for k in PATCH_KINDS}

    def taught(self) -> dict[str, int]:
        """How many examples of each kind of patch this memory holds."""
        return {kind: len(e.labels) for kind, e in self.examples.items()}

    def save(self, path: Path) -> None:
        """Written whole beside ``path``, then renamed over it: a write that fails (a full disk, a
        process killed) leaves the last memory as it was."""
        path = Path(path)
        part = path.with_name(path.name + ".part")
        try:
            part.write_text(json.dumps(self.to_json()), encoding="utf-8")
            part.replace(path)
        except OSError as exc:
            with contextlib.suppress(OSError):  # a part left where one cannot be written: nothing to remove
                part.unlink(missing_ok=True)
            raise TableMemoryError("memory.unwritable", path=str(path), reason=str(exc)) from None


def memory_path_of(profile_path: Path) -> Path:
    """Where the memory of the table that ``profile_path`` profiles is kept: ``PROFILE.memory.json``."""
    return Path(profile_path).with_suffix(MEMORY_SUFFIX)


def references_path_of(memory_path: Path) -> Path | None:
    """Where a watch kept this table's tile references before the memory took them in
    (``PROFILE.tiles.json`` beside ``PROFILE.memory.json``); none for a memory kept elsewhere."""
    name = Path(memory_path).name
    if not name.endswith(MEMORY_SUFFIX):
        return None
    return Path(memory_path).with_name(name[: -len(MEMORY_SUFFIX)] + REFERENCES_SUFFIX)


def _references(seen: Any) -> TileReferences:
    kept = {str(k): [[float(x) for x in v] for v in values] for k, values in dict(seen).items()}
    if any(len(v) != REFERENCE_FEATURES for values in kept.values() for v in values):
        raise TableMemoryError("references.features", n=REFERENCE_FEATURES)
    return TileReferences(kept)


def _from_references(data: dict[str, Any], game: str) -> TableMemory:
    """A memory from the tile references' file watches kept before (their references and mix-ups,
    nothing taught to the reader yet)."""
    return TableMemory(game, references=_references(data["seen"]), mixups=dict(data.get("mixups", {})))
