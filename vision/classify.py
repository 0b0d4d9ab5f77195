"""Read patches with the shipped networks: a colour, ``joker``, ``first_player`` or empty.

:class:`OnnxClassifier` runs a small CNN with onnxruntime, all patches of a frame in one batched
call, after checking the file against its SHA-256 (:mod:`shipped`):

- the reading model (``models/reader.onnx``, :func:`load_reader`; what it sees: :mod:`reader`)
  reads every board slot and the loose tiles the pipeline asks about;
- the candidate model (``models/tiles_candidates.onnx``, :func:`load_model`) reads the peaks the
  detector is unsure of, for the locator (``detect.confirmed``).

Results are restricted to the game's kinds plus empty (``None``); confidences are in 0..1. Without
a reading model nothing reads the photo: :func:`default_classifier` raises :class:`ModelError`
saying why (a damaged install), never a guess from colours.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..engine.games import GAMES, find_game
from . import crops, reader
from .shipped import ShippedModelError, package_file, verified_session

#: The candidate model (``models/train.py --candidates``): the detector's tiles and weak peaks in
#: the centre and beside the boards, with their context (``detect.confirmed``).
CANDIDATES_NAME = "tiles_candidates.onnx"

Result = tuple[str | None, float]


class ModelError(ShippedModelError):
    """A tile model (the reading model, the candidate model) is missing, altered (SHA-256
    mismatch) or unreadable."""


class Classifier(Protocol):
    """What the pipeline asks of a reader: N x 32 x 32 x 9 patches (:func:`reader.model_input`)."""

    #: Whether it names every loose tile, not only those the detector is unsure of (a reader
    #: this table taught its loose tiles: :class:`~.taught.TaughtReader`).
    names_loose_tiles: bool

    def game_probabilities(self, patches: np.ndarray, game: str, without: Collection[str] = ()
                           ) -> tuple[np.ndarray, list[str | None]]: ...

    def classify(self, patches: np.ndarray, game: str, without: Collection[str] = ()) -> list[Result]: ...


def ruled_out(game: str, options: Mapping[str, Any]) -> frozenset[str]:
    """The tile kinds of ``game`` that its ``options`` (a profile's ``game_options``) rule out of
    every zone: Azul's jokers in a game played without them. Raises ValueError for an unknown game."""
    spec = find_game(game, ValueError)
    return frozenset(spec.tiles) - frozenset(spec.tiles_in_play(options))


def _check_patches(patches: np.ndarray, size: int, channels: int = 3) -> np.ndarray:
    patches = np.asarray(patches)
    if patches.ndim != 4 or patches.shape[1:] != (size, size, channels) or patches.dtype != np.uint8:
        raise ValueError(f"patches must be N x {size} x {size} x {channels} uint8"
                         f"{' BGR' if channels == 3 else ''}, not {patches.shape} {patches.dtype}")
    return patches


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: expected one of {tuple(GAMES)}")


# --------------------------------------------------------------------------- ONNX model


@dataclass(frozen=True)
class ModelInfo:
    """What the model's metadata says, and the file's digest."""

    labels: tuple[str, ...]
    input_size: int
    version: str
    sha256: str
    metadata: dict[str, str] = field(default_factory=dict)
    channels: int = 3





class OnnxClassifier:
    """A patch classifier network. Build it with :func:`load_reader` or :func:`load_model`."""

    names_loose_tiles = False

    def __init__(self, session: Any, info: ModelInfo) -> None:
        self.session = session
        self.info = info
        self._input = session.get_inputs()[0].name
        # Columns of the model's output that each game may answer, and what each column means.
        self._columns: dict[str, tuple[np.ndarray, list[str | None]]] = {}
        for game in GAMES:
            cols, kinds = [], []
            for i, label in enumerate(info.labels):
                if label == "empty":
                    cols.append(i)
                    kinds.append(None)
                elif label.startswith(game + "/"):
                    cols.append(i)
                    kinds.append(label.split("/", 1)[1])
            self._columns[game] = (np.array(cols), kinds)

    def game_columns(self, game: str) -> tuple[np.ndarray, list[str | None]]:
        """The columns of the model's output that ``game`` may answer, and the kind each names
        (None: empty)."""
        _check_game(game)
        return self._columns[game]

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """The model's softmax output (N x labels) for uint8 BGR patches, in one batched call."""
        patches = _check_patches(patches, self.info.input_size, self.info.channels)
        if len(patches) == 0:
            return np.zeros((0, len(self.info.labels)), np.float32)
        return self.session.run(None, {self._input: patches.astype(np.float32)})[0]

    def features(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The softmax output (N x labels) and what the last layer read to give it (N x F: the
        model's ``features`` output), in one batched call: what a table memory refits that layer
        on. Raises ModelError for a model without that output (one exported before it was opened,
        ``models/train_reader.py --expose-head``)."""
        patches = _check_patches(patches, self.info.input_size, self.info.channels)
        if "features" not in [o.name for o in self.session.get_outputs()]:
            raise ModelError("model.no_features", version=self.info.version)
        probs, features = self.session.run(["probs", "features"], {self._input: patches.astype(np.float32)})
        return probs, features

    def head(self) -> tuple[np.ndarray, np.ndarray]:
        """The shipped last layer (``head`` and ``head_shape`` metadata): its K x F weight and K
        biases, float32, in the labels' order (the first logit is whether a tile lies there, the
        others name it: :data:`azulcam.models.samples.CLASSES`). Raises ModelError where the
        metadata lacks it or does not fit the labels."""
        meta = self.info.metadata
        try:
            k, f = (int(v) for v in json.loads(meta["head_shape"]))
            raw = np.frombuffer(base64.b64decode(meta["head"]), "<f4")
        except (KeyError, ValueError, TypeError) as exc:
            raise ModelError("model.no_features", version=self.info.version) from exc
        if k != len(self.info.labels) or raw.size != k * f + k:
            raise ModelError("model.no_features", version=self.info.version)
        return raw[:k * f].reshape(k, f).astype(np.float32), raw[k * f:].astype(np.float32)

    def game_probabilities(self, patches: np.ndarray, game: str, without: Collection[str] = ()
                           ) -> tuple[np.ndarray, list[str | None]]:
        """N x K probabilities of ``game``'s kinds and empty (renormalised over those), and the K
        kinds (None: empty). The kinds ``without`` (those the game's options rule out: Azul's
        jokers in a game without them, :func:`ruled_out`) are given probability 0."""
        cols, kinds = self.game_columns(game)
        probs = self.probabilities(patches)
        sub = probs[:, cols].astype(np.float64)
        sub[:, [n for n, kind in enumerate(kinds) if kind in without]] = 0.0
        sub /= np.maximum(sub.sum(axis=1, keepdims=True), 1e-12)
        return sub, kinds

    def classify(self, patches: np.ndarray, game: str, without: Collection[str] = ()) -> list[Result]:
        """(kind or None for empty, confidence) per patch, among ``game``'s kinds (but ``without``)
        and empty; the confidence is the probability renormalised over those. Raises ValueError
        for an unknown game or patches of the wrong shape or type."""
        sub, kinds = self.game_probabilities(patches, game, without)
        best = sub.argmax(axis=1)
        return [(kinds[b], float(sub[n, b])) for n, b in enumerate(best)]

    def classify_presence(self, patches: np.ndarray, game: str, without: Collection[str] = ()) -> list[Result]:
        """As :meth:`classify`, but whether a tile lies there is settled first: a tile where the
        game's tile kinds together are likelier than empty (empty below a half), named by the
        likeliest of them, with its probability; else empty, with the probability of empty. Of
        a patch that is off its tile's centre (a candidate peak pushed by a touching neighbour)
        the tile's kind may not outweigh empty alone: a patch cut off centre splits its odds
        between the kind and empty about evenly."""
        sub, kinds = self.game_probabilities(patches, game, without)
        empty = kinds.index(None)
        tiles = sub.copy()
        tiles[:, empty] = -1.0
        best = tiles.argmax(axis=1)
        return [(kinds[b], float(row[b])) if row[empty] < 0.5 else (None, float(row[empty])) for row, b in zip(sub, best)]


def load_model(path: str | Path, digest_path: str | Path | None = None, threads: int = 1) -> OnnxClassifier:
    """Load a patch classifier (the package's ``tiles_candidates.onnx``, ``reader.onnx``), after
    checking its SHA-256 against ``<model>.sha256``; labels and input size come from the model's
    metadata.

    Raises ModelError when the model or its digest file is missing, the digest does not match,
    onnxruntime is missing or cannot read the file, or the metadata is incomplete."""
    path = Path(path)
    session, actual = verified_session(path, "model.name.tile", ModelError,
                                       Path(digest_path) if digest_path is not None else None, threads)
    meta = dict(session.get_modelmeta().custom_metadata_map)
    try:
        labels = tuple(json.loads(meta["labels"]))
        input_size = int(meta["input_size"])
        version = meta["version"]
        channels = int(meta.get("input_channels", 3))
    except (KeyError, ValueError, TypeError) as exc:
        raise ModelError("model.tile_metadata", reason=str(exc)) from exc
    if not labels or not all(isinstance(x, str) for x in labels) or "empty" not in labels:
        raise ModelError("model.tile_labels", labels=repr(labels))
    outputs = session.get_outputs()[0].shape
    if len(outputs) != 2 or (isinstance(outputs[1], int) and outputs[1] != len(labels)):
        raise ModelError("model.tile_outputs", outputs=str(outputs), labels=len(labels))
    if input_size != crops.PATCH:
        raise ModelError("model.tile_input_size", size=input_size, patch=crops.PATCH)
    inputs = session.get_inputs()[0].shape
    if len(inputs) != 4 or (isinstance(inputs[3], int) and inputs[3] != channels):
        raise ModelError("model.tile_channels", inputs=str(inputs), channels=channels)
    return OnnxClassifier(session, ModelInfo(labels, input_size, version, actual, meta, channels))


def load_reader(path: str | Path | None = None, threads: int = 1) -> OnnxClassifier:
    """The reading model (by default the package's ``reader.onnx``; :mod:`azulcam.vision.reader`),
    checked as :func:`load_model` checks any, and refused (ModelError) where its
    ``input_format`` is not :data:`azulcam.vision.reader.INPUT_FORMAT` or its labels are not the
    classifier's classes."""
    path = Path(path) if path is not None else package_file(reader.READER_NAME)
    model = load_model(path, threads=threads)
    if model.info.metadata.get("input_format") != reader.INPUT_FORMAT or model.info.channels != reader.CHANNELS:
        raise ModelError("model.not_reader", path=str(path), format=reader.INPUT_FORMAT)
    return model


def default_classifier(threads: int = 1) -> OnnxClassifier:
    """The shipped reading model (:func:`load_reader`). Raises :class:`ModelError` saying why it
    cannot be loaded: the install is damaged, and nothing else reads a photo."""
    try:
        return load_reader(threads=threads)
    except ModelError as exc:
        raise ModelError("model.no_reader", reason=exc) from None
