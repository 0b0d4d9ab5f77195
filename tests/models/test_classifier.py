"""The patch classifiers that ship (the candidate model; the reading model has its own tests in
tests/vision/test_reader.py): their files and digests, one batched call, results restricted to
the game, bad input refused, tampered or missing files refused with a clear error."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest
from azulcam.engine.notice import Notice
from azulcam.i18n.words import words
from azulcam.vision import classify
from azulcam.vision.classify import ModelError, OnnxClassifier, default_classifier, load_model
from azulcam.models.samples import CLASS_INDEX, CLASSES
from azulcam.synth.dataset import random_position
from azulcam.synth.render import SceneOptions, render_state

CANDIDATES_MODEL = Path(str(files("azulcam.models") / "tiles_candidates.onnx"))
#: The shipped candidate model scores 0.9918 on its 1,832 held-out patches
#: (models/tiles_candidates.metrics.json), and makes no mistake in the 168 below (36 with no tile).
CANDIDATES_BAR = 0.95


@pytest.fixture(scope="module")
def model() -> OnnxClassifier:
    return load_model(CANDIDATES_MODEL)


def predicted_indices(clf, images: np.ndarray, games: np.ndarray) -> np.ndarray:
    out = np.zeros(len(images), np.int64)
    for game in ("azul", "pavilion"):
        m = games == game
        out[m] = [0 if k is None else CLASS_INDEX[f"{game}/{k}"] for k, _ in clf.classify(images[m], game)]
    return out


@pytest.fixture(scope="module")
def heldout_candidates() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate patches of 40 held-out scenes (as ``models/train.py --candidates`` makes them),
    with each patch's game."""
    from azulcam.models.samples import candidate_patches
    from azulcam.vision.detect import load_detector

    rng = random.Random(987658)
    nprng = np.random.default_rng(987658)
    detector = load_detector()
    images, labels, games = [], [], []
    for n in range(40):
        scene = render_state(random_position(rng), (987658, n), SceneOptions(size=(1280, 720)))
        p = candidate_patches(scene.image, scene.truth, detector, nprng)
        images.append(p.images)
        labels.append(p.labels)
        games += [scene.truth["observation"]["game"]] * len(p.labels)
    return np.concatenate(images), np.concatenate(labels), np.array(games)


def test_shipped_candidate_model(heldout_candidates) -> None:
    assert CANDIDATES_MODEL.stat().st_size <= 2 * 1024 * 1024
    model = load_model(CANDIDATES_MODEL)
    metrics = json.loads(CANDIDATES_MODEL.with_name("tiles_candidates.metrics.json").read_text())
    assert metrics["sha256"] == model.info.sha256 and metrics["setting"]["candidates"] is True
    assert "candidate" in model.info.metadata["input_format"]
    images, labels, games = heldout_candidates
    assert images.shape[1:] == (32, 32, 3) and (labels == 0).sum() >= 10 and (labels > 0).sum() >= 40
    predicted = predicted_indices(model, images, games)
    assert float((predicted == labels).mean()) >= CANDIDATES_BAR
    # What it is for: telling a tile from no tile.
    assert float(((predicted == 0) == (labels == 0)).mean()) >= CANDIDATES_BAR


def test_one_batched_call_per_frame(model: OnnxClassifier, heldout_candidates) -> None:
    calls = []

    class Counting:
        def __init__(self, inner) -> None:
            self.inner = inner

        def run(self, *args, **kwargs):
            calls.append(args[1][next(iter(args[1]))].shape)
            return self.inner.run(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    images = heldout_candidates[0][:100]
    counted = OnnxClassifier(Counting(model.session), model.info)
    results = counted.classify(images, "azul")
    assert len(results) == 100 and calls == [(100, 32, 32, 3)]
    assert counted.classify(np.zeros((0, 32, 32, 3), np.uint8), "azul") == []


@pytest.mark.parametrize("game", ["azul", "pavilion"])
def test_results_are_restricted_to_the_game(model: OnnxClassifier, heldout_candidates, game: str) -> None:
    allowed = {None} | {c.split("/", 1)[1] for c in CLASSES if c.startswith(game + "/")}
    images = heldout_candidates[0]
    results = model.classify(images, game)
    assert len(results) == len(images) and {k for k, _ in results} <= allowed
    assert all(0.0 <= c <= 1.0 for _, c in results)
    probabilities, kinds = model.game_probabilities(images, game)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, atol=1e-6)
    assert set(kinds) == allowed and None in kinds


def test_classify_presence_settles_whether_a_tile_lies_there_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tile where the tile kinds together outweigh empty, named by the likeliest: empty may be
    the likeliest single answer and still lose to them."""
    clf = load_model(CANDIDATES_MODEL)
    labels = list(clf.info.labels)
    rows = []
    for empty, blue, red in ((0.49, 0.48, 0.03), (0.55, 0.44, 0.01), (0.2, 0.3, 0.5)):
        row = np.zeros(len(labels), np.float32)
        row[labels.index("empty")], row[labels.index("azul/blue")], row[labels.index("azul/red")] = empty, blue, red
        rows.append(row)
    monkeypatch.setattr(clf, "probabilities", lambda patches: np.array(rows))
    patches = np.zeros((3, 32, 32, 3), np.uint8)
    assert [k for k, _ in clf.classify(patches, "azul")] == [None, None, "red"]
    assert [(k, round(c, 2)) for k, c in clf.classify_presence(patches, "azul")] == [("blue", 0.48), (None, 0.55), ("red", 0.5)]


def test_bad_input_is_refused(model: OnnxClassifier) -> None:
    with pytest.raises(ValueError, match="unknown game"):
        model.classify(np.zeros((1, 32, 32, 3), np.uint8), "chess")
    with pytest.raises(ValueError, match="uint8"):
        model.classify(np.zeros((1, 32, 32, 3), np.float32), "azul")
    with pytest.raises(ValueError, match="32 x 32 x 3"):
        model.classify(np.zeros((1, 16, 16, 3), np.uint8), "azul")


# --------------------------------------------------------------------------- integrity checks


def _copy(tmp_path: Path, name: str = "tiles_candidates.onnx") -> Path:
    shutil.copy(CANDIDATES_MODEL.with_name(name), tmp_path / name)
    shutil.copy(CANDIDATES_MODEL.with_name(name + ".sha256"), tmp_path / (name + ".sha256"))
    return tmp_path / name


def test_a_copy_loads(tmp_path: Path) -> None:
    assert load_model(_copy(tmp_path)).info.labels == CLASSES


def test_tampered_model_is_refused(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError) as info:
        load_model(path)
    assert info.value.code == "model.altered" and info.value.params["model"] == Notice("model.name.tile")


def test_missing_model_or_digest_is_refused(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    (tmp_path / "tiles_candidates.onnx.sha256").unlink()
    with pytest.raises(ModelError) as info:
        load_model(path)
    assert (info.value.code, info.value.params) == ("model.no_digest", {"path": str(tmp_path / "tiles_candidates.onnx.sha256")})
    path.unlink()
    with pytest.raises(ModelError) as info:
        load_model(path)
    assert info.value.code == "model.missing" and info.value.params["path"] == str(path)


def test_corrupt_model_with_matching_digest_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tiles_candidates.onnx"
    path.write_bytes(b"not an onnx model")
    (tmp_path / "tiles_candidates.onnx.sha256").write_text(hashlib.sha256(b"not an onnx model").hexdigest()
                                                           + "  tiles_candidates.onnx\n")
    with pytest.raises(ModelError) as info:
        load_model(path)
    assert info.value.code == "model.corrupt" and info.value.params["path"] == str(path)


def test_a_damaged_reading_model_is_a_clear_error_not_a_guess(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing else reads a photo: a damaged install says so, naming the file and why."""
    assert isinstance(default_classifier(), OnnxClassifier)
    path = _copy(tmp_path, "reader.onnx")
    path.write_bytes(path.read_bytes()[:-1] + b"\0")
    monkeypatch.setattr(classify, "package_file", lambda name: tmp_path / name)
    with pytest.raises(ModelError) as info:
        default_classifier()
    assert info.value.code == "model.no_reader" and info.value.params["reason"].code == "model.altered"
    assert words(info.value).startswith("the reading model cannot be loaded, so no photo can be read (reinstall azulcam): "
                                        f"tile model SHA-256 mismatch for {path}: expected ")
