"""The tile classifier (issue 5): the shipped ONNX model and its checks, its accuracy on freshly
rendered held-out patches, and the colour-reference fallback on clean renders."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest
from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import board_homography
from azulcam.vision import classify, crops, light
from azulcam.vision.camera import ViewRanges
from azulcam.vision.classify import ColorReferenceClassifier, ModelError, OnnxClassifier, default_classifier, load_model
from azulcam.vision.dataset import CLASS_INDEX, CLASSES, make_patches, random_position, scene_patches
from azulcam.vision.render import SceneOptions, render_state

MODEL = Path(str(files("azulcam.models") / "tiles.onnx"))
#: Measured on clean renders (seed 2024, 16 scenes): 0.935; clean sets of 60 scenes give 0.94-0.95.
#: The misses are mostly loose tiles half covered by a neighbour in a pile, which only a learned
#: model reads (see models/MODEL_CARD.md).
COLOR_REFERENCE_BAR = 0.90
#: The shipped model scores 0.9857 on these 628 patches and 0.9872 on its 18,647 held-out ones
#: (models/tiles.metrics.json); the issue's target is 0.995 (see the model card's limits).
HELDOUT_BAR = 0.98


@pytest.fixture(scope="module")
def model() -> OnnxClassifier:
    return load_model()


@pytest.fixture(scope="module")
def heldout():
    # Seeds far from the training seeds (models/train.py: seed * 100000 + 1 .. and + 50000 ..).
    return make_patches(12, seed=987654)


def clean_patches(scenes: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Patches of clean renders (flat light, no blur, noise, glare, hands): images, labels and
    each patch's game."""
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    images, labels, games = [], [], []
    for n in range(scenes):
        framing = "free" if rng.random() < 0.5 else "fit"
        options = SceneOptions(size=(960, 540), view=ViewRanges(framing=framing), clean=True)
        scene = render_state(random_position(rng), (seed, n), options)
        p = scene_patches(scene.image, scene.truth, nprng)
        images.append(p.images)
        labels.append(p.labels)
        games += [scene.truth["observation"]["game"]] * len(p.labels)
    return np.concatenate(images), np.concatenate(labels), np.array(games)


def predicted_indices(clf, images: np.ndarray, games: np.ndarray) -> np.ndarray:
    out = np.zeros(len(images), np.int64)
    for game in ("azul", "pavilion"):
        m = games == game
        out[m] = [0 if k is None else CLASS_INDEX[f"{game}/{k}"] for k, _ in clf.classify(images[m], game)]
    return out


# --------------------------------------------------------------------------- the shipped model


def test_shipped_model_loads_with_its_metadata(model: OnnxClassifier) -> None:
    assert MODEL.stat().st_size <= 2 * 1024 * 1024
    digest = hashlib.sha256(MODEL.read_bytes()).hexdigest()
    assert model.info.sha256 == digest
    assert (MODEL.parent / "tiles.onnx.sha256").read_text().split()[0] == digest
    assert model.info.labels == CLASSES
    assert model.info.input_size == 32
    assert model.info.version
    metrics = json.loads((MODEL.parent / "tiles.metrics.json").read_text())
    assert metrics["sha256"] == digest and metrics["classes"] == list(CLASSES)


def test_onnx_accuracy_on_heldout_patches(model: OnnxClassifier, heldout) -> None:
    probs = model.probabilities(heldout.images)
    assert probs.shape == (len(heldout.labels), len(CLASSES))
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    accuracy = float((probs.argmax(axis=1) == heldout.labels).mean())
    assert accuracy >= HELDOUT_BAR, accuracy


def test_one_batched_call_per_frame(model: OnnxClassifier, heldout) -> None:
    calls = []

    class Counting:
        def __init__(self, inner) -> None:
            self.inner = inner

        def run(self, *args, **kwargs):
            calls.append(args[1][next(iter(args[1]))].shape)
            return self.inner.run(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    counted = OnnxClassifier(Counting(model.session), model.info)
    results = counted.classify(heldout.images[:200], "azul")
    assert len(results) == 200 and calls == [(200, 32, 32, 3)]
    assert counted.classify(np.zeros((0, 32, 32, 3), np.uint8), "azul") == []


@pytest.mark.parametrize("game", ["azul", "pavilion"])
def test_results_are_restricted_to_the_game(model: OnnxClassifier, heldout, game: str) -> None:
    allowed = {None} | {c.split("/", 1)[1] for c in CLASSES if c.startswith(game + "/")}
    for clf in (model, ColorReferenceClassifier()):
        results = clf.classify(heldout.images, game)
        assert len(results) == len(heldout.labels)
        assert {k for k, _ in results} <= allowed
        assert all(0.0 <= c <= 1.0 for _, c in results)
    # Tiles of this game keep their kind under the restriction.
    mine = np.array([CLASSES[i].startswith(game + "/") for i in heldout.labels])
    kinds = [k for k, _ in model.classify(heldout.images[mine], game)]
    truth = [CLASSES[i].split("/", 1)[1] for i in heldout.labels[mine]]
    assert np.mean([a == b for a, b in zip(kinds, truth)]) >= HELDOUT_BAR


def test_classify_presence_settles_whether_a_tile_lies_there_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tile where the tile kinds together outweigh empty, named by the likeliest: empty may be
    the likeliest single answer and still lose to them."""
    clf = load_model()
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
    with pytest.raises(ValueError, match="32 x 32"):
        ColorReferenceClassifier().classify(np.zeros((1, 16, 16, 3), np.uint8), "azul")


# --------------------------------------------------------------------------- integrity checks


def _copy(tmp_path: Path) -> Path:
    shutil.copy(MODEL, tmp_path / "tiles.onnx")
    shutil.copy(MODEL.parent / "tiles.onnx.sha256", tmp_path / "tiles.onnx.sha256")
    return tmp_path / "tiles.onnx"


def test_a_copy_loads(tmp_path: Path) -> None:
    assert load_model(_copy(tmp_path)).info.labels == CLASSES


def test_tampered_model_is_refused(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="SHA-256 mismatch"):
        load_model(path)


def test_missing_model_or_digest_is_refused(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    (tmp_path / "tiles.onnx.sha256").unlink()
    with pytest.raises(ModelError, match="SHA-256 file missing"):
        load_model(path)
    path.unlink()
    with pytest.raises(ModelError, match="missing"):
        load_model(path)


def test_corrupt_model_with_matching_digest_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tiles.onnx"
    path.write_bytes(b"not an onnx model")
    (tmp_path / "tiles.onnx.sha256").write_text(hashlib.sha256(b"not an onnx model").hexdigest() + "  tiles.onnx\n")
    with pytest.raises(ModelError, match="corrupt"):
        load_model(path)


def test_default_classifier_falls_back_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = default_classifier()
    assert isinstance(chosen.classifier, OnnxClassifier) and chosen.warning is None
    path = _copy(tmp_path)
    path.write_bytes(path.read_bytes()[:-1] + b"\0")
    monkeypatch.setattr(classify, "package_file", lambda name: tmp_path / name)
    chosen = default_classifier()
    assert isinstance(chosen.classifier, ColorReferenceClassifier)
    assert chosen.warning and "SHA-256 mismatch" in chosen.warning


def test_without_its_companion_the_model_rereads_alone_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_classifier().classifier.companion is not None
    _copy(tmp_path)  # the tile model alone, no companion beside it
    monkeypatch.setattr(classify, "package_file", lambda name: tmp_path / name)
    chosen = default_classifier()
    assert isinstance(chosen.classifier, OnnxClassifier) and chosen.classifier.companion is None
    assert chosen.warning and "companion" in chosen.warning and "tiles_edge.onnx" in chosen.warning


def test_without_its_slot_model_the_slots_are_read_as_photographed(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _copy(tmp_path)
    monkeypatch.setattr(classify, "package_file", lambda name: tmp_path / name)
    chosen = default_classifier()
    assert chosen.classifier.slots is None
    assert chosen.warning and "slot model" in chosen.warning and "tiles_slots.onnx" in chosen.warning
    # A model beside it under the slot model's name but not trained on relit slots is refused too.
    shutil.copy(tmp_path / "tiles.onnx", tmp_path / "tiles_slots.onnx")
    (tmp_path / "tiles_slots.onnx.sha256").write_text((tmp_path / "tiles.onnx.sha256").read_text())
    chosen = default_classifier()
    assert chosen.classifier.slots is None and "not trained on relit slots" in chosen.warning


# --------------------------------------------------------------------------- the slot model

SLOT_MODEL = MODEL.parent / "tiles_slots.onnx"
#: The slot model scores 0.9859 on its 10,437 held-out patches (models/tiles_slots.metrics.json,
#: an eighth of their scenes in edge light) and 0.9875 (4 mistakes in 321) on these.
SLOT_BAR = 0.98


@pytest.fixture(scope="module")
def heldout_slots():
    """Relit slot patches of 12 held-out scenes (as ``models/train.py --slots-relit`` makes them)."""
    rng = random.Random(987654)
    nprng = np.random.default_rng(987654)
    images, labels = [], []
    for n in range(12):
        framing = "free" if rng.random() < 0.5 else "fit"
        scene = render_state(random_position(rng), (987654, n), SceneOptions(size=(960, 540), view=ViewRanges(framing=framing)))
        p = scene_patches(scene.image, scene.truth, nprng, slots_relit=True)
        images.append(p.images)
        labels.append(p.labels)
    return np.concatenate(images), np.concatenate(labels)


def test_shipped_slot_model(heldout_slots) -> None:
    assert SLOT_MODEL.stat().st_size <= 2 * 1024 * 1024
    slots = default_classifier().classifier.slots
    assert slots is not None and "relit" in slots.info.metadata["input_format"]
    metrics = json.loads((MODEL.parent / "tiles_slots.metrics.json").read_text())
    assert metrics["sha256"] == slots.info.sha256 and metrics["setting"]["slots_relit"] is True
    images, labels = heldout_slots
    accuracy = float((slots.probabilities(images).argmax(axis=1) == labels).mean())
    assert accuracy >= SLOT_BAR, accuracy


def _azul_slots_by_hand(pale_only: bool = False):
    """An Azul scene (no scoring board: the players' boards only) and, per board, its visible
    slots (only those on pale spaces with ``pale_only``) cut by hand through the true corners,
    with the board's light."""
    rng = random.Random(3)
    state = random_position(rng)
    while state.game != "azul":
        state = random_position(rng)
    scene = render_state(state, (3, 0), SceneOptions(size=(960, 540)))
    hidden = {h["zone"] for h in scene.truth["hidden"]}
    boards = []
    for b in scene.truth["profile"]["boards"]:
        layout = load_layout(b["layout"])
        homography = board_homography(np.asarray(b["corners"], np.float64))
        ids, quads = crops.slot_outlines(homography, layout)
        seen = [n for n, i in enumerate(ids) if f"boards.{b['player']}.{i}" not in hidden
                and (not pale_only or classify.on_pale_space("azul", layout[i].printed))]
        boards.append((crops.cut(scene.image, quads[seen]), light.board_light(scene.image, homography, layout.name)))
    return scene, boards


def test_relit_slot_patches_are_the_boards_slots_in_their_light() -> None:
    scene, boards = _azul_slots_by_hand()
    p = scene_patches(scene.image, scene.truth, np.random.default_rng(0), nudge_px=0.0, empty_share=0.999,
                      slots_relit=True)
    want = [patches if board_light is None else light.relit(patches, board_light) for patches, board_light in boards]
    np.testing.assert_array_equal(p.images, np.concatenate(want))
    assert len(p.labels) == len(p.images)


def test_classify_slots_reads_lit_slots_relit_with_the_slot_model(heldout_slots) -> None:
    clf = default_classifier().classifier
    images, _ = heldout_slots
    raw, relit = images[:40], images[40:80]  # any two sets of patches will do
    lit = np.arange(40) % 3 != 0
    got = clf.classify_slots(raw, relit, lit, "azul")
    want_lit = clf.slots.classify(relit[lit], "azul")
    want_unlit = clf.classify(raw[~lit], "azul")
    assert [got[n] for n in np.flatnonzero(lit)] == want_lit
    assert [got[n] for n in np.flatnonzero(~lit)] == want_unlit
    assert clf.classify_slots(raw, relit, np.ones(40, bool), "azul") == clf.slots.classify(relit, "azul")


# --------------------------------------------------------------------------- the special-space models

PALE_MODEL = MODEL.parent / "tiles_pale.onnx"
STARS_MODEL = MODEL.parent / "tiles_stars.onnx"
#: Both special-space models score above 0.99 on their own held-out patches
#: (models/tiles_pale.metrics.json, tiles_stars.metrics.json). On the patches below, the
#: pale-space model makes one mistake in 609 (cut tall with the bare art beside them, as it
#: learned them; the version before, tall without the art, none), the star-space model none in 282.
SPECIAL_BAR = 0.98


def _special_heldout(game: str, seed: int, scenes: int = 12, tall: bool = False,
                     bare: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Six-channel patches of ``game``'s special spaces in ``scenes`` held-out scenes of it with
    some (as ``models/train.py --pale-spaces`` or ``--star-spaces`` makes them; ``tall`` as with
    ``--tall``; nine channels with ``bare``, as with ``--bare``)."""
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    images, labels = [], []
    n = 0
    while len(images) < scenes:
        state = random_position(rng)
        if state.game != game:
            continue
        scene = render_state(state, (seed, n), SceneOptions(size=(960, 540)))
        n += 1
        p = scene_patches(scene.image, scene.truth, nprng, special_spaces=True, empty_share=0.5, tall=tall, bare=bare)
        if len(p.labels):  # Summer Pavilion's grey side has no coloured star
            images.append(p.images)
            labels.append(p.labels)
    return np.concatenate(images), np.concatenate(labels)


def _special_model_of(clf: OnnxClassifier, game: str) -> OnnxClassifier | None:
    """The game's special-space model in ``clf`` (None where it is not loaded)."""
    return clf.pale if game == "azul" else clf.stars


@pytest.fixture(scope="module")
def heldout_special() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    clf = default_classifier().classifier  # each model's patches as it learned them (tall or not)
    return {"azul": _special_heldout("azul", 987655, tall=clf.reads_tall("azul"), bare=clf.reads_bare("azul")),
            "pavilion": _special_heldout("pavilion", 987656, 8, tall=clf.reads_tall("pavilion"),
                                         bare=clf.reads_bare("pavilion"))}


@pytest.mark.parametrize("game, path, flag", [("azul", PALE_MODEL, "pale_spaces"), ("pavilion", STARS_MODEL, "star_spaces")])
def test_shipped_special_space_models(heldout_special, game: str, path: Path, flag: str) -> None:
    assert path.stat().st_size <= 2 * 1024 * 1024
    clf = default_classifier().classifier
    model = _special_model_of(clf, game)
    channels = 9 if clf.reads_bare(game) else 6
    assert model is not None and model.info.channels == channels
    metrics = json.loads(path.with_name(path.name.split(".")[0] + ".metrics.json").read_text())
    assert metrics["sha256"] == model.info.sha256 and metrics["setting"][flag] is True
    assert metrics["setting"].get("tall", False) == clf.reads_tall(game)
    assert metrics["setting"].get("bare", False) == clf.reads_bare(game)
    images, labels = heldout_special[game]
    kinds = {CLASS_INDEX[k] for k in CLASSES if k == "empty" or k.startswith(game + "/")}
    assert images.shape[1:] == (32, 32, channels) and set(labels.tolist()) <= kinds  # the game's kinds only
    accuracy = float((model.probabilities(images).argmax(axis=1) == labels).mean())
    assert accuracy >= SPECIAL_BAR, accuracy
    with pytest.raises(ValueError, match=f"32 x 32 x {channels}"):
        model.probabilities(images[..., :3])


def test_pale_space_patches_are_the_pale_slots_as_photographed_then_relit() -> None:
    scene, boards = _azul_slots_by_hand(pale_only=True)
    both = scene_patches(scene.image, scene.truth, np.random.default_rng(0), nudge_px=0.0, empty_share=0.999,
                         special_spaces=True)
    want = [np.concatenate([patches, light.relit(patches, board_light)], axis=3) for patches, board_light in boards]
    np.testing.assert_array_equal(both.images, np.concatenate(want))
    # Pale spaces: Azul's grey wall, pattern lines, floor and the coloured wall's white; no other.
    assert classify.on_pale_space("azul", None) and classify.on_pale_space("azul", "white")
    assert not classify.on_pale_space("azul", "blue") and not classify.on_pale_space("pavilion", None)
    # Star spaces: Summer Pavilion's coloured stars (a colour printed); not its grey side's.
    assert classify.on_star_space("pavilion", "purple") and not classify.on_star_space("pavilion", None)
    assert not classify.on_star_space("azul", "blue")
    assert classify.on_special_space("azul", "white") and classify.on_special_space("pavilion", "red")
    assert not classify.on_special_space("azul", "red") and not classify.on_special_space("pavilion", None)


def test_pale_space_patches_keep_every_bare_white_space_with_bare_kept() -> None:
    """``bare_kept="white"`` (``train.py --bare-white``): every empty white space of the coloured
    wall in view is cut, and the other empties are thinned as before."""
    rng = random.Random(5)
    while True:
        state = random_position(rng)
        scene = render_state(state, (5, 0), SceneOptions(size=(960, 540)))
        if any(b["layout"] == "azul-colored" for b in scene.truth["profile"]["boards"]):
            break
    hidden = {h["zone"] for h in scene.truth["hidden"]}
    bare = 0
    for b in scene.truth["profile"]["boards"]:
        layout, filled = load_layout(b["layout"]), scene.truth["observation"]["boards"][b["player"]]["slots"]
        bare += sum(1 for i in layout.ids if layout[i].printed == "white" and filled.get(i) is None
                    and f"boards.{b['player']}.{i}" not in hidden)
    thinned = scene_patches(scene.image, scene.truth, np.random.default_rng(0), special_spaces=True, empty_share=0.1)
    kept = scene_patches(scene.image, scene.truth, np.random.default_rng(0), special_spaces=True, empty_share=0.1,
                         bare_kept="white")
    tiles = int((thinned.labels != 0).sum())
    assert bare >= 5 and int((kept.labels != 0).sum()) == tiles
    assert int((thinned.labels == 0).sum()) == tiles // 9 < bare
    assert int((kept.labels == 0).sum()) == tiles // 9 + bare


def test_tall_special_patches_are_the_same_slots_cut_tall() -> None:
    """``tall`` (``train.py --tall``): the same slots, labels and lights, cut as tall patches over
    the plane fitted to the scene's profile; a board whose true corners outline no board (far out
    of a close view) is left out of that fit, not the scene."""
    from azulcam.calibration.profile import Profile
    from azulcam.vision.dataset import truth_plane
    from azulcam.vision.locate import table_plane
    from azulcam.vision.table import tile_height

    scene, _ = _azul_slots_by_hand(pale_only=True)
    plain = scene_patches(scene.image, scene.truth, np.random.default_rng(0), special_spaces=True)
    tall = scene_patches(scene.image, scene.truth, np.random.default_rng(0), special_spaces=True, tall=True)
    np.testing.assert_array_equal(tall.labels, plain.labels)
    assert tall.images.shape == plain.images.shape and not np.array_equal(tall.images, plain.images)
    profile = scene.truth["profile"]
    plane = table_plane(Profile.from_json(profile))
    np.testing.assert_allclose(truth_plane(profile).to_plane, plane.to_plane)
    # With ``bare`` (``train.py --bare``): the same six channels, then each board's own art under each.
    bare = scene_patches(scene.image, scene.truth, np.random.default_rng(0), special_spaces=True, tall=True, bare=True)
    np.testing.assert_array_equal(bare.labels, tall.labels)
    np.testing.assert_array_equal(bare.images[..., :6], tall.images)
    exact = scene_patches(scene.image, scene.truth, np.random.default_rng(0), nudge_px=0.0, empty_share=0.999,
                          special_spaces=True, tall=True, bare=True)
    hidden = {h["zone"] for h in scene.truth["hidden"]}
    want = []
    for b in scene.truth["profile"]["boards"]:  # cut by hand through the true corners
        layout = load_layout(b["layout"])
        homography = board_homography(np.asarray(b["corners"], np.float64))
        ids, quads = crops.slot_outlines(homography, layout)
        seen = [n for n, i in enumerate(ids) if f"boards.{b['player']}.{i}" not in hidden
                and classify.on_pale_space("azul", layout[i].printed)]
        raised = truth_plane(scene.truth["profile"]).raised_in_image(quads[seen], tile_height("azul"))
        outlines = crops.tall(quads[seen], raised)
        want.append(light.bare_patches(layout.name, homography, outlines, crops.TALL_MARGIN))
    np.testing.assert_array_equal(exact.images[..., 6:], np.concatenate(want))
    with pytest.raises(ValueError, match="tall"):
        scene_patches(scene.image, scene.truth, np.random.default_rng(0), special_spaces=True, bare=True)
    wrecked = {**profile, "boards": [dict(b) for b in profile["boards"]]}
    wrecked["boards"][1]["corners"] = [[0, 0], [0, 0], [0, 0], [0, 0]]
    refit = truth_plane(wrecked)
    corners = np.array(profile["boards"][0]["corners"], np.float64)
    np.testing.assert_allclose(refit.plane_points(corners), plane.plane_points(corners), atol=3.0)  # mm


@pytest.mark.parametrize("game, name, what", [("azul", "tiles_pale.onnx", "pale-space"),
                                              ("pavilion", "tiles_stars.onnx", "star-space")])
def test_the_special_space_model_rereads_the_special_slots(heldout_special, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           game: str, name: str, what: str) -> None:
    clf = default_classifier().classifier
    images = heldout_special[game][0][:30]
    raw, relit = images[..., :3].copy(), images[..., 3:6].copy()
    special = np.arange(len(images)) % 2 == 0
    got = clf.reread(raw, relit, game, special, images[special])
    plain = clf.reread(raw, relit, game)
    assert [got[n] for n in np.flatnonzero(~special)] == [plain[n] for n in np.flatnonzero(~special)]
    model = _special_model_of(clf, game)
    turns = [np.ascontiguousarray(np.rot90(images[special], k, axes=(1, 2))) for k in range(classify.REREAD_TURNS)]
    mean = sum(model.game_probabilities(t, game)[0] for t in turns) / len(turns)
    kinds = model.game_probabilities(turns[0], game)[1]
    want = [(kinds[int(row.argmax())], float(row.max())) for row in mean]
    assert [k for k, _ in (got[n] for n in np.flatnonzero(special))] == [k for k, _ in want]
    np.testing.assert_allclose([got[n][1] for n in np.flatnonzero(special)], [c for _, c in want], rtol=1e-6)
    assert clf.reread(raw, relit, game, special, np.roll(images[special], 1, axis=0)) != got
    # Given no patches apart, a model of six channels reads the two cuts of the usual patches; one
    # of nine (the bare art too, here the pale-space model) leaves those slots to the other models.
    if model.info.channels == 6:
        assert clf.reread(raw, relit, game, special) == got
    else:
        assert clf.reread(raw, relit, game, special) == plain
    # Without it, the other models read those slots again, and the classifier says so.
    _copy(tmp_path)
    monkeypatch.setattr(classify, "package_file", lambda file: tmp_path / file)
    chosen = default_classifier()
    assert _special_model_of(chosen.classifier, game) is None and f"{what} model" in chosen.warning
    assert chosen.classifier.reread(raw, relit, game, special) == chosen.classifier.reread(raw, relit, game)
    # A three-channel model under its name is refused.
    shutil.copy(tmp_path / "tiles.onnx", tmp_path / name)
    (tmp_path / (name + ".sha256")).write_text((tmp_path / "tiles.onnx.sha256").read_text())
    chosen = default_classifier()
    assert _special_model_of(chosen.classifier, game) is None and "does not read 6 channels" in chosen.warning


# --------------------------------------------------------------------------- the candidate model

CANDIDATES_MODEL = MODEL.parent / "tiles_candidates.onnx"
#: The shipped candidate model scores 0.9918 on its 1,832 held-out patches
#: (models/tiles_candidates.metrics.json), and makes no mistake in the 168 below (36 with no tile).
CANDIDATES_BAR = 0.95


@pytest.fixture(scope="module")
def heldout_candidates() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate patches of 40 held-out scenes (as ``models/train.py --candidates`` makes them),
    with each patch's game."""
    from azulcam.vision.dataset import candidate_patches
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


# --------------------------------------------------------------------------- colour references


def test_color_reference_classifier_on_clean_renders() -> None:
    images, labels, games = clean_patches(16, seed=2024)
    predicted = predicted_indices(ColorReferenceClassifier(), images, games)
    accuracy = float((predicted == labels).mean())
    assert accuracy >= COLOR_REFERENCE_BAR, accuracy


def test_color_references_from_a_profile_replace_the_art() -> None:
    images, labels, games = clean_patches(4, seed=31)
    red = (labels == CLASS_INDEX["azul/red"]) & (games == "azul")
    assert red.any()
    default = [k for k, _ in ColorReferenceClassifier().classify(images[red], "azul")]
    assert default.count("red") >= 0.8 * len(default)
    # A calibration that measured "blue" where the art's red is: red patches now read as blue.
    red_lab = ColorReferenceClassifier().references["azul/red"][1, :3].tolist()
    swapped = ColorReferenceClassifier.from_colors({"azul/blue": red_lab, "azul/red": [33.0, 12.0, -46.0]})
    assert swapped.references["azul/blue"].shape == (1, 4)
    moved = [k for k, _ in swapped.classify(images[red], "azul")]
    assert moved.count("blue") >= 0.8 * len(moved)
    with pytest.raises(ValueError, match="game/kind"):
        ColorReferenceClassifier({"blue": [1, 2, 3]})
