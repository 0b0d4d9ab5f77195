"""Classify slot and loose-tile patches: a colour, ``joker``, ``first_player`` or empty.

Two classifiers with one interface, ``classify(patches, game) -> [(kind or None, confidence)]``:

- :class:`OnnxClassifier`, the small CNN of ``models/tiles.onnx`` (trained by ``models/train.py``
  on renderer crops), run with onnxruntime, all patches of a frame in ONE batched call.
  :func:`load_model` checks the file's SHA-256 against ``tiles.onnx.sha256`` first. Its
  slot model (``models/tiles_slots.onnx``) reads the boards' slots, each relit in its board's own
  light (:meth:`OnnxClassifier.classify_slots`); with the edge-light companion
  (``models/tiles_edge.onnx``) all three read again the slots first read with less than 0.9
  confidence (:meth:`OnnxClassifier.reread`).
- :class:`ColorReferenceClassifier`, the fallback when no model loads and the oracle in tests: the
  CIE Lab mean and spread of the patch's centre, compared with references (measured from the
  project's own tile art, or at calibration: a profile's ``colors``).

Patches are what :mod:`azulcam.vision.crops` cuts: N x 32 x 32 x 3 uint8 BGR. Results are
restricted to the game's kinds plus empty (``None``); confidences are in 0..1.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from . import crops, light, reader
from .shipped import package_file, verified_session

GAMES = ("azul", "pavilion")
MODEL_NAME = "tiles.onnx"
#: The edge-light companion: the same network trained with an eighth of its scenes in the light at
#: the ends of its ranges. It only reads again the slots the main model is unsure of (``reread``).
COMPANION_NAME = "tiles_edge.onnx"
#: The slot model: the same network trained on board slots only, each relit in its board's own
#: light (``models/train.py --slots-relit``). It reads every slot of an aligned board
#: (``classify_slots``) and joins the second reading.
SLOTS_NAME = "tiles_slots.onnx"
#: The pale-space model: trained on Azul's pale spaces only (:func:`on_pale_space`), each seen
#: both as photographed and relit, cut as tall patches, beside the bare board's art under each
#: (nine channels; ``models/train.py --pale-spaces --bare-white --tall --bare``). Its reading
#: replaces the second reading of those slots.
PALE_NAME = "tiles_pale.onnx"
#: The star-space model: the pale-space model's design, trained on Summer Pavilion's coloured
#: stars' spaces only (:func:`on_star_space`; ``models/train.py --star-spaces``).
STARS_NAME = "tiles_stars.onnx"
#: The candidate model (``models/train.py --candidates``): the detector's tiles and weak peaks in
#: the centre and beside the boards, with their context (``detect.confirmed``).
CANDIDATES_NAME = "tiles_candidates.onnx"

Result = tuple[str | None, float]


class ModelError(ValueError):
    """The shipped model is missing, altered (SHA-256 mismatch) or unreadable."""


class Classifier(Protocol):
    def classify(self, patches: np.ndarray, game: str) -> list[Result]: ...

    def reread(self, patches: np.ndarray, relit: np.ndarray, game: str,
               special: np.ndarray | None = None, special_patches: np.ndarray | None = None,
               lit: np.ndarray | None = None) -> list[Result]: ...

    def reads_tall(self, game: str) -> bool: ...

    def reads_bare(self, game: str) -> bool: ...

    def classify_slots(self, patches: np.ndarray, relit: np.ndarray, lit: np.ndarray, game: str) -> list[Result]: ...


def on_pale_space(game: str, printed: str | None) -> bool:
    """Whether a slot lies on one of Azul's pale spaces: a grey wall's space, a pattern line's, a
    floor's (no colour printed) or the coloured wall's white one. A white tile on them and the
    bare space look alike, and they are most of the slot model's mistakes; the pale-space model
    (:data:`PALE_NAME`) reads them again."""
    return game == "azul" and printed in (None, "white")


def on_star_space(game: str, printed: str | None) -> bool:
    """Whether a slot lies on a space of one of Summer Pavilion's coloured stars (its colour
    printed): a tile there is of that colour, and the bare space, printed in a paler tint of it,
    is what a tile reading there may have seen; the star-space model (:data:`STARS_NAME`) reads
    them again."""
    return game == "pavilion" and printed is not None


def on_special_space(game: str, printed: str | None) -> bool:
    """Whether a slot's unsure reading is read again by its game's special-space model (Azul's
    :func:`on_pale_space`, Summer Pavilion's :func:`on_star_space`)."""
    return on_pale_space(game, printed) or on_star_space(game, printed)


def _check_patches(patches: np.ndarray, size: int, channels: int = 3) -> np.ndarray:
    patches = np.asarray(patches)
    if patches.ndim != 4 or patches.shape[1:] != (size, size, channels) or patches.dtype != np.uint8:
        raise ValueError(f"patches must be N x {size} x {size} x {channels} uint8"
                         f"{' BGR' if channels == 3 else ''}, not {patches.shape} {patches.dtype}")
    return patches


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: expected one of {GAMES}")


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
    """The CNN classifier. Build it with :func:`load_model`."""

    def __init__(self, session: Any, info: ModelInfo, companion: "OnnxClassifier | None" = None,
                 slots: "OnnxClassifier | None" = None, pale: "OnnxClassifier | None" = None,
                 stars: "OnnxClassifier | None" = None) -> None:
        self.session = session
        self.info = info
        self.companion = companion
        self.slots = slots
        self.pale = pale
        self.stars = stars
        #: The reading model (:func:`load_reader`): where loaded, it reads every board slot and the
        #: per-space models above read none.
        self.reader: OnnxClassifier | None = None
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

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """The model's softmax output (N x labels) for uint8 BGR patches, in one batched call."""
        patches = _check_patches(patches, self.info.input_size, self.info.channels)
        if len(patches) == 0:
            return np.zeros((0, len(self.info.labels)), np.float32)
        return self.session.run(None, {self._input: patches.astype(np.float32)})[0]

    def game_probabilities(self, patches: np.ndarray, game: str) -> tuple[np.ndarray, list[str | None]]:
        """N x K probabilities of ``game``'s kinds and empty (renormalised over those), and the K
        kinds (None: empty)."""
        _check_game(game)
        probs = self.probabilities(patches)
        cols, kinds = self._columns[game]
        sub = probs[:, cols].astype(np.float64)
        sub /= np.maximum(sub.sum(axis=1, keepdims=True), 1e-12)
        return sub, kinds

    def classify(self, patches: np.ndarray, game: str) -> list[Result]:
        """(kind or None for empty, confidence) per patch, among ``game``'s kinds and empty; the
        confidence is the probability renormalised over those. Raises ValueError for an unknown
        game or patches of the wrong shape or type."""
        sub, kinds = self.game_probabilities(patches, game)
        best = sub.argmax(axis=1)
        return [(kinds[b], float(sub[n, b])) for n, b in enumerate(best)]

    def classify_presence(self, patches: np.ndarray, game: str) -> list[Result]:
        """As :meth:`classify`, but whether a tile lies there is settled first: a tile where the
        game's tile kinds together are likelier than empty (empty below a half), named by the
        likeliest of them, with its probability; else empty, with the probability of empty. Of
        a patch that is off its tile's centre (a candidate peak pushed by a touching neighbour)
        the tile's kind may not outweigh empty alone (main bench #44: empty 0.49, blue 0.48)."""
        sub, kinds = self.game_probabilities(patches, game)
        empty = kinds.index(None)
        tiles = sub.copy()
        tiles[:, empty] = -1.0
        best = tiles.argmax(axis=1)
        return [(kinds[b], float(row[b])) if row[empty] < 0.5 else (None, float(row[empty])) for row, b in zip(sub, best)]

    def classify_slots(self, patches: np.ndarray, relit: np.ndarray, lit: np.ndarray, game: str) -> list[Result]:
        """The boards' slots: those ``lit`` (relit in their board's own light,
        :mod:`azulcam.vision.light`) read by the slot model (when loaded) on ``relit``; the others
        by this model on ``patches``, as photographed."""
        lit = np.asarray(lit, bool)
        if self.slots is None or not lit.any():
            return self.classify(patches, game)
        if lit.all():
            return self.slots.classify(relit, game)
        answers: list[Result] = [(None, 0.0)] * len(patches)
        for chosen, model, x in ((lit, self.slots, relit), (~lit, self, patches)):
            for n, answer in zip(np.flatnonzero(chosen), model.classify(x[chosen], game)):
                answers[n] = answer
        return answers

    def special_model(self, game: str) -> "OnnxClassifier | None":
        """The game's special-space model, when loaded: the pale-space model for Azul, the
        star-space model for Summer Pavilion."""
        return self.pale if game == "azul" else self.stars

    def reads_tall(self, game: str) -> bool:
        """Whether the game's special-space model was trained on tall patches
        (:func:`azulcam.vision.crops.tall`; ``crops.TALL_FORMAT`` in its ``input_format``)."""
        model = self.special_model(game)
        return model is not None and crops.TALL_FORMAT in model.info.metadata.get("input_format", "")

    def reads_bare(self, game: str) -> bool:
        """Whether the game's special-space model also reads the bare board's art beside its tall
        patches (:func:`azulcam.vision.light.bare_patches`; ``light.BARE_FORMAT`` in its
        ``input_format``: nine channels)."""
        model = self.special_model(game)
        return model is not None and _reads_bare_art(model)

    def reread(self, patches: np.ndarray, relit: np.ndarray, game: str,
               special: np.ndarray | None = None, special_patches: np.ndarray | None = None,
               lit: np.ndarray | None = None) -> list[Result]:
        """A second reading of patches it was unsure of, given also ``relit`` (the same patches in
        their board's own light, :mod:`azulcam.vision.light`): the mean of the probabilities of
        this model and of its companion (when loaded), each on both, and of the slot model (when
        loaded) on ``relit``, each patch seen in its :data:`REREAD_TURNS` quarter turns (the
        models learned tiles turned every way; each turn's view differs in the pixels' grid).
        The slot model reads only the patches ``lit`` (all by default): it learned slots relit in
        their board's own light, and a board whose light was not measured has none.
        The patches flagged ``special`` (on the game's special spaces, :func:`on_special_space`)
        are read by the game's special-space model instead (:meth:`special_model`, when loaded),
        on both at once, in the same turns; or on ``special_patches`` where given (one per
        flagged patch, in order: the tall patches a model that :meth:`reads_tall` learned, six
        channels, or nine with the bare art for one that :meth:`reads_bare`). A model of nine
        channels given no ``special_patches`` leaves those slots to the other models."""
        _check_game(game)
        kinds = self._columns[game][1]
        model = self.special_model(game)
        # A model that reads more than the two cuts of a patch (the bare art too) reads only the
        # patches given apart; without them the other models read those slots.
        usable = model is not None and (special_patches is not None or not self.reads_bare(game))
        chosen = np.asarray(special, bool) if special is not None and usable else np.zeros(len(patches), bool)
        mean = np.zeros((len(patches), len(kinds)))
        if (~chosen).any():
            reads = [(m, x) for m in [self] + ([self.companion] if self.companion is not None else [])
                     for x in (patches, relit)]
            total = sum(_turned_mean(m, x[~chosen], game) for m, x in reads)
            count = np.full(len(total), float(len(reads)))
            slotted = ~chosen & (True if lit is None else np.asarray(lit, bool))
            if self.slots is not None and slotted.any():
                among = slotted[~chosen]
                total[among] += _turned_mean(self.slots, relit[slotted], game)
                count[among] += 1
            mean[~chosen] = total / count[:, None]
        if chosen.any():  # the same labels as this model's (default_classifier checks them)
            both = (np.concatenate([patches[chosen], relit[chosen]], axis=3) if special_patches is None
                    else special_patches)
            mean[chosen] = _turned_mean(model, both, game)
        best = mean.argmax(axis=1)
        return [(kinds[b], float(mean[k, b])) for k, b in enumerate(best)]


def _reads_bare_art(model: OnnxClassifier) -> bool:
    """Whether ``model`` learned the bare board's art beside its patches (``light.BARE_FORMAT`` in
    its ``input_format``, written by ``models/train.py --bare``)."""
    return light.BARE_FORMAT in model.info.metadata.get("input_format", "")


#: How many quarter turns of each patch :meth:`OnnxClassifier.reread` reads.
REREAD_TURNS = 2


def _turned_mean(model: OnnxClassifier, patches: np.ndarray, game: str) -> np.ndarray:
    """``model``'s probabilities of ``game``'s kinds for each patch (N x P x P x C), the mean over
    its :data:`REREAD_TURNS` quarter turns (read in one batch)."""
    turned = np.concatenate([np.rot90(patches, k, axes=(1, 2)) for k in range(REREAD_TURNS)])
    return model.game_probabilities(turned, game)[0].reshape(REREAD_TURNS, len(patches), -1).mean(axis=0)


def load_model(path: str | Path | None = None, digest_path: str | Path | None = None, threads: int = 1) -> OnnxClassifier:
    """Load the tile model (by default the package's ``tiles.onnx``), after checking its SHA-256
    against ``<model>.sha256``; labels and input size come from the model's metadata.

    Raises ModelError when the model or its digest file is missing, the digest does not match,
    onnxruntime is missing or cannot read the file, or the metadata is incomplete."""
    path = Path(path) if path is not None else package_file(MODEL_NAME)
    session, actual = verified_session(path, "tile model", ModelError,
                                       Path(digest_path) if digest_path is not None else None, threads)
    meta = dict(session.get_modelmeta().custom_metadata_map)
    try:
        labels = tuple(json.loads(meta["labels"]))
        input_size = int(meta["input_size"])
        version = meta["version"]
        channels = int(meta.get("input_channels", 3))
    except (KeyError, ValueError, TypeError) as exc:
        raise ModelError(f"tile model metadata incomplete (labels, input_size, version): {exc}") from exc
    if not labels or not all(isinstance(x, str) for x in labels) or "empty" not in labels:
        raise ModelError(f"tile model labels are not a list of class names with 'empty': {labels!r}")
    outputs = session.get_outputs()[0].shape
    if len(outputs) != 2 or (isinstance(outputs[1], int) and outputs[1] != len(labels)):
        raise ModelError(f"tile model output {outputs} does not match its {len(labels)} labels")
    if input_size != crops.PATCH:
        raise ModelError(f"tile model input size {input_size} differs from the patch size {crops.PATCH}")
    inputs = session.get_inputs()[0].shape
    if len(inputs) != 4 or (isinstance(inputs[3], int) and inputs[3] != channels):
        raise ModelError(f"tile model input {inputs} does not match its {channels} channels (input_channels)")
    return OnnxClassifier(session, ModelInfo(labels, input_size, version, actual, meta, channels))


def load_reader(path: str | Path | None = None, threads: int = 1) -> OnnxClassifier:
    """The reading model (by default the package's ``reader.onnx``; :mod:`azulcam.vision.reader`),
    checked as :func:`load_model` checks the tile model, and refused (ModelError) where its
    ``input_format`` is not :data:`azulcam.vision.reader.INPUT_FORMAT` or its labels are not the
    classifier's classes."""
    path = Path(path) if path is not None else package_file(reader.READER_NAME)
    model = load_model(path, threads=threads)
    if model.info.metadata.get("input_format") != reader.INPUT_FORMAT or model.info.channels != reader.CHANNELS:
        raise ModelError(f"{path} is not a reading model: its input_format is not {reader.INPUT_FORMAT!r}")
    return model


# --------------------------------------------------------------------------- colour references

#: The centre of the patch that is measured: the outline spans the middle 1 / (1 + 2 * MARGIN) of
#: the patch; the central half of that keeps clear of the tile's edge, the slot's rim and the
#: few pixels a profile is off by.
_CENTRE = slice(crops.PATCH // 2 - 6, crops.PATCH // 2 + 6)


def lab_features(patches: np.ndarray) -> np.ndarray:
    """N x 4: CIE L*a*b* mean (L 0..100, a and b signed) of each patch's centre and the spread
    (standard deviation of L) there."""
    patches = np.asarray(patches)
    if len(patches) == 0:
        return np.zeros((0, 4))
    centre = patches[:, _CENTRE, _CENTRE].astype(np.float32) / 255.0
    n, h, w, _ = centre.shape
    lab = cv2.cvtColor(centre.reshape(n * h, w, 3), cv2.COLOR_BGR2Lab).reshape(n, h * w, 3).astype(np.float64)
    return np.concatenate([lab.mean(axis=1), lab[..., 0].std(axis=1, keepdims=True)], axis=1)


#: Tile sizes (px across) the art references are measured at: a webcam sees tiles 12 to 60 px
#: wide, and a tile's printed pattern blurs (its spread drops) as it shrinks.
_REFERENCE_SIZES = (16, 24, 40)


def _tile_reference(game: str, kind: str, size: int) -> np.ndarray:
    """Features of a tile's face as the crop code cuts it from the tile's own art (over grey)."""
    from . import art

    sprite, poly = art.tile_sprite(game, kind, size)
    alpha = sprite[..., 3:].astype(np.float32) / 255.0
    canvas = (sprite[..., :3].astype(np.float32) * alpha + 128.0 * (1 - alpha)).astype(np.uint8)
    patch = crops.cut(canvas, np.asarray(poly, np.float64)[None])
    return lab_features(patch)[0]


@lru_cache(maxsize=1)
def art_references() -> dict[str, np.ndarray]:
    """Default references ``{"game/kind": K x 4}`` (L, a, b, spread), measured from the tile
    art at a few sizes."""
    from . import art

    refs = {}
    for game, kinds in (("azul", art.AZUL_TILES), ("pavilion", art.PAVILION_TILES + ("first_player",))):
        for kind in kinds:
            ref = np.array([_tile_reference(game, kind, s) for s in _REFERENCE_SIZES])
            ref.flags.writeable = False  # cached and shared
            refs[f"{game}/{kind}"] = ref
    return refs


#: Board art scale for the empty-slot references: about 25 px per tile, a mid-range webcam view.
_BOARD_PX_PER_MM = 1.25


@lru_cache(maxsize=1)
def art_empty_references() -> dict[str, np.ndarray]:
    """What an empty slot or a bare table shows, per game: features (L, a, b, spread) of every
    slot of every board side, cut from the board art by the crop code used at inference, and of
    squares of every table texture. Returned as ``{game: K x 4}``."""
    from ..calibration.layouts import LAYOUT_NAMES, load_layout
    from . import art

    out: dict[str, list[np.ndarray]] = {g: [] for g in GAMES}
    for name in LAYOUT_NAMES:
        layout = load_layout(name)
        image = art.board_art(name, _BOARD_PX_PER_MM)
        h, w = image.shape[:2]
        homography = np.diag([float(w), float(h), 1.0])  # board fractions -> pixels
        _, patches = crops.board_patches(image, homography, layout)
        out["azul" if name.startswith("azul") else "pavilion"].append(lab_features(patches))
    rng = np.random.default_rng(0)
    for index in range(art.TABLE_TEXTURES):
        texture = art.table_texture(index, 256)
        for side in (16.0, 32.0):  # table patches the size of a small and of a large tile
            corners = rng.uniform(0, 256 - side, (8, 1, 2)) + np.array([[0, 0], [side, 0], [side, side], [0, side]])
            feats = lab_features(crops.cut(texture, corners))
            for g in GAMES:
                out[g].append(feats)
    refs = {g: np.unique(np.round(np.concatenate(v), 1), axis=0) for g, v in out.items()}
    for ref in refs.values():
        ref.flags.writeable = False  # cached and shared
    return refs


class ColorReferenceClassifier:
    """Nearest colour reference in CIE Lab, with empty as the answer when the patch is nearer an
    empty-slot colour, or nowhere near any tile.

    ``references``: ``{"game/kind": [L, a, b]}`` or ``[L, a, b, spread]`` (a profile's
    ``colors``, measured at calibration, CIE L*a*b* with L 0..100); kinds it leaves out keep the
    art's references. ``empty_references``: ``{game: K x 4}`` features of empty slots and bare
    table (default: measured from the board and table art).
    ``empty_distance``: how far (Lab units, spread included) a tile may be from its reference
    before the patch counts as empty. ``spread_weight`` weighs the spread against the mean, and
    ``lightness_weight`` L against a and b (light varies over a table more than hue does).
    ``scale``: how much further (Lab units) the runner-up must be for a confidence of about
    0.98; a tie gives 0.5. The defaults were tuned on clean renders (see models/MODEL_CARD.md)."""

    def __init__(self, references: Mapping[str, Sequence[float]] | None = None,
                 empty_references: Mapping[str, Any] | None = None,
                 empty_distance: float = 30.0, spread_weight: float = 1.0, lightness_weight: float = 0.5,
                 scale: float = 6.0) -> None:
        refs = dict(art_references())
        for name, value in (references or {}).items():
            if name == "empty":
                continue
            if "/" not in name or name.split("/", 1)[0] not in GAMES:
                raise ValueError(f"colour reference {name!r} is not 'game/kind'")
            values = [float(v) for v in value]
            if len(values) not in (3, 4):
                raise ValueError(f"colour reference {name!r} must be [L, a, b] or [L, a, b, spread]")
            if len(values) == 3:  # no spread measured: the art's, at its middle size
                values.append(float(refs[name][len(_REFERENCE_SIZES) // 2, 3]) if name in refs else 0.0)
            refs[name] = np.array([values])
        self.references = refs
        self.empty_references = {g: np.asarray(v, np.float64).reshape(-1, 4)
                                 for g, v in (empty_references or art_empty_references()).items()}
        self.empty_distance = empty_distance
        self.spread_weight = spread_weight
        self.lightness_weight = lightness_weight
        self.scale = scale

    @classmethod
    def from_colors(cls, colors: Mapping[str, Sequence[float]] | None, **kwargs: Any) -> ColorReferenceClassifier:
        """From a calibration profile's ``colors`` (None: the art's references)."""
        return cls(references=colors, **kwargs)

    def distances(self, patches: np.ndarray, game: str) -> tuple[list[str | None], np.ndarray]:
        """The candidate kinds (None: empty) and the N x candidates distances to them."""
        _check_game(game)
        feats = lab_features(_check_patches(patches, crops.PATCH))
        w = np.array([self.lightness_weight, 1.0, 1.0])
        kinds: list[str | None] = []
        cols = []
        for name, ref in self.references.items():
            if name.startswith(game + "/"):
                r = np.asarray(ref, np.float64).reshape(-1, 4)
                d = (np.linalg.norm((feats[:, None, :3] - r[None, :, :3]) * w, axis=2)
                     + self.spread_weight * np.abs(feats[:, None, 3] - r[None, :, 3])).min(axis=1)
                kinds.append(name.split("/", 1)[1])
                cols.append(d)
        empties = self.empty_references.get(game, np.zeros((0, 4)))
        d_empty = np.full(len(feats), self.empty_distance)
        if len(empties):
            near = (np.linalg.norm((feats[:, None, :3] - empties[None, :, :3]) * w, axis=2)
                    + self.spread_weight * np.abs(feats[:, None, 3] - empties[None, :, 3])).min(axis=1)
            d_empty = np.minimum(d_empty, near)
        kinds.append(None)
        cols.append(d_empty)
        return kinds, np.stack(cols, axis=1) if len(feats) else np.zeros((0, len(kinds)))

    def classify(self, patches: np.ndarray, game: str) -> list[Result]:
        """(kind or None for empty, confidence) per patch. The confidence is a softmax of the
        negative distances: 0.5 on a tie with the runner-up, near 1 when the runner-up is
        ``scale`` or more Lab units further. Raises ValueError for an unknown game or patches of
        the wrong shape or type."""
        kinds, d = self.distances(patches, game)
        if len(d) == 0:
            return []
        logits = -(d - d.min(axis=1, keepdims=True)) / (self.scale / 4)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        best = d.argmin(axis=1)
        return [(kinds[b], float(probs[n, b])) for n, b in enumerate(best)]

    def classify_slots(self, patches: np.ndarray, relit: np.ndarray, lit: np.ndarray, game: str) -> list[Result]:
        """The boards' slots, read as photographed (the colour references are measured so)."""
        return self.classify(patches, game)

    def reads_tall(self, game: str) -> bool:
        """Never: the references measure the slot's own middle."""
        return False

    def reads_bare(self, game: str) -> bool:
        """Never: the references know no board art."""
        return False

    def reread(self, patches: np.ndarray, relit: np.ndarray, game: str,
               special: np.ndarray | None = None, special_patches: np.ndarray | None = None,
               lit: np.ndarray | None = None) -> list[Result]:
        """A second reading: of the patch as photographed and ``relit``, the more confident answer
        (``special``, ``special_patches`` and ``lit`` make no difference: the references have no
        model for special spaces, and a patch relit in no board's light is left as it is)."""
        return [max(a, b, key=lambda r: r[1]) for a, b in zip(self.classify(patches, game), self.classify(relit, game))]


# --------------------------------------------------------------------------- default


@dataclass
class DefaultClassifier:
    """What :func:`default_classifier` chose, and why when it fell back."""

    classifier: OnnxClassifier | ColorReferenceClassifier
    warning: str | None = None


def default_classifier(colors: Mapping[str, Sequence[float]] | None = None, threads: int = 1) -> DefaultClassifier:
    """The shipped ONNX classifier with its slot model (:data:`SLOTS_NAME`), edge-light
    companion (:data:`COMPANION_NAME`), pale-space model (:data:`PALE_NAME`) and star-space model
    (:data:`STARS_NAME`), or the colour-reference one (from the profile's ``colors`` when given),
    with a warning saying why a model could not be loaded. Never raises for a missing or altered
    model."""
    try:
        model = load_model(threads=threads)
    except ModelError as exc:
        return DefaultClassifier(ColorReferenceClassifier.from_colors(colors),
                                 f"tile model not loaded, using colour references instead: {exc}")
    warnings = []
    try:
        model.reader = load_reader(threads=threads)
    except ModelError as exc:
        if package_file(reader.READER_NAME).exists():
            warnings.append(f"reading model not loaded, the slots are read by the per-space models: {exc}")
    try:
        model.slots = load_model(package_file(SLOTS_NAME), threads=threads)
        if "relit" not in model.slots.info.metadata.get("input_format", ""):
            model.slots = None
            raise ModelError(f"{SLOTS_NAME} was not trained on relit slots (its input_format)")
    except ModelError as exc:
        warnings.append(f"slot model not loaded, the slots are read by the tile model as photographed: {exc}")
    try:
        model.companion = load_model(package_file(COMPANION_NAME), threads=threads)
    except ModelError as exc:
        warnings.append(f"edge-light companion model not loaded, unsure slots are read again without it: {exc}")
    for name, attribute, what, where in ((PALE_NAME, "pale", "pale-space", "Azul's pale spaces"),
                                         (STARS_NAME, "stars", "star-space", "Summer Pavilion's coloured stars")):
        try:
            special = load_model(package_file(name), threads=threads)
            channels = 9 if _reads_bare_art(special) else 6
            if special.info.channels != channels or special.info.labels != model.info.labels:
                raise ModelError(f"{name} does not read {channels} channels with the tile model's labels")
            setattr(model, attribute, special)
        except ModelError as exc:
            warnings.append(f"{what} model not loaded, unsure slots on {where} are read again by the other "
                            f"models: {exc}")
    return DefaultClassifier(model, "; ".join(warnings) or None)
