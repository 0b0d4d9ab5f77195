"""A table's memory (``vision.memory``) and the last layer refitted on it (``vision.refit``): what a
table taught is kept, refused when damaged, and changes the reading only where the table showed
something."""

from __future__ import annotations

import json

import numpy as np
import pytest

from azulcam.i18n.words import words
from azulcam.vision.classify import default_classifier
from azulcam.vision.memory import LOOSE, MEMORY_FORMAT, SLOTS, TableMemory, TableMemoryError
from azulcam.vision.refit import Head, balanced_weights, output, refit

LABELS = ["empty", "azul/black", "azul/blue", "azul/red", "pavilion/green"]
COLUMNS = [1, 2, 3]  # Azul's kinds


def _toy(seed: int = 0) -> tuple[Head, dict[int, np.ndarray]]:
    """A shipped layer over 6 features that reads each kind by its own feature (presence by the
    last), and one table's patches: its blue is drawn like the shipped model's black."""
    weight = np.zeros((5, 6), np.float32)
    weight[0, 5] = 4.0
    for k in (1, 2, 3, 4):
        weight[k, k - 1] = 4.0
    head = Head(weight, np.array([-2.0, 0, 0, 0, 0], np.float32))
    rng = np.random.default_rng(seed)

    def patches(feature: int | None, n: int) -> np.ndarray:
        x = rng.normal(0, 0.15, (n, 6))
        if feature is not None:
            x[:, feature] += 1.0
            x[:, 5] += 1.0
        return x.astype(np.float32)

    # label -> features as this table shows it: empty, black, blue drawn like black plus a hint, red
    table = {0: patches(None, 40), 1: patches(0, 40), 2: patches(0, 40) + np.array([0, 0.5, 0, 0, 0, 0], np.float32),
             3: patches(2, 40)}
    return head, table


def _read(head: Head, x: np.ndarray) -> np.ndarray:
    return head.probabilities(x, COLUMNS).argmax(axis=1)


def test_the_output_is_presence_times_the_kind_over_the_game_s_kinds():
    probs = output(np.array([[0.0, 1.0, 2.0, 0.5, 9.0]]), COLUMNS)
    assert probs[0, 0] == pytest.approx(0.5) and probs[0, 4] == 0.0
    assert probs.sum() == pytest.approx(1.0) and probs[0, 2] > probs[0, 1] > probs[0, 3]
    weights = balanced_weights(np.array([0, 0, 0, 2]))
    assert weights.sum() == pytest.approx(1.0) and weights[3] == pytest.approx(3 * weights[0])


def test_a_refit_learns_this_table_s_blue_and_keeps_a_kind_it_never_showed():
    head, table = _toy()
    assert (_read(head, table[2]) == 1).mean() > 0.9  # untaught, this table's blue reads black
    # Taught empty, black and blue, never red.
    x = np.concatenate([table[0], table[1], table[2]])
    y = np.repeat([0, 1, 2], 40)
    fitted = refit(head, x, y, COLUMNS)
    held = _toy(seed=1)[1]
    assert (_read(fitted, held[2]) == 2).mean() > 0.9 and (_read(fitted, held[1]) == 1).mean() > 0.9
    assert (_read(fitted, held[0]) == 0).mean() > 0.9
    assert (_read(fitted, held[3]) == 3).mean() > 0.9  # red, never taught, is still read
    np.testing.assert_array_equal(fitted.weight[3], head.weight[3])  # its row untouched
    np.testing.assert_array_equal(fitted.weight[4], head.weight[4])  # the other game's too
    # Taught one kind alone (and no empty), the layer competes with nothing: it stays.
    same = refit(head, table[1], np.full(40, 1), COLUMNS)
    np.testing.assert_array_equal(same.weight, head.weight)


def test_a_memory_keeps_what_it_was_taught_across_its_file(tmp_path):
    head, table = _toy()
    memory = TableMemory("azul")
    features = np.concatenate([table[0], table[2]])
    labels = ["empty"] * 40 + ["azul/blue"] * 40
    memory.learn(SLOTS, "sha-1", features, labels, ["empty"] * 40 + ["azul/black"] * 40)
    memory.photos = 1
    assert memory.refit(head, LABELS) == {SLOTS: 80}
    assert memory.head(LOOSE, "sha-1") is None and memory.head(SLOTS, "sha-2") is None
    path = tmp_path / "table.memory.json"
    memory.save(path)
    assert json.loads(path.read_text())["format"] == MEMORY_FORMAT
    assert [p.name for p in tmp_path.iterdir()] == ["table.memory.json"]  # written whole, nothing left aside
    back = TableMemory.load(path, "azul")
    assert back.photos == 1 and back.examples[SLOTS].labels == labels
    assert back.confusion[SLOTS]["azul/blue"] == {"azul/black": 40}
    np.testing.assert_allclose(back.head(SLOTS, "sha-1").weight, memory.head(SLOTS, "sha-1").weight)
    # Taught under another reading model, it starts over: those features mean nothing to it.
    back.learn(SLOTS, "sha-2", table[1], ["azul/black"] * 40, ["azul/black"] * 40)
    assert back.examples[SLOTS].labels == ["azul/black"] * 40 and back.heads == {}


def test_a_memory_keeps_the_newest_examples_of_each_label():
    memory = TableMemory("azul")
    for n in range(4):
        memory.learn(SLOTS, "sha", np.full((100, 3), n, np.float32), ["empty"] * 100, ["empty"] * 100)
    memory.learn(SLOTS, "sha", np.full((5, 3), 9, np.float32), ["azul/red"] * 5, ["azul/red"] * 5)
    kept = memory.examples[SLOTS]
    assert kept.labels.count("empty") == 150 and kept.labels.count("azul/red") == 5
    assert set(kept.features[:150, 0].tolist()) == {2.0, 3.0}  # the oldest photos went first


@pytest.mark.parametrize(("text", "code"), [
    ("{", "memory.unreadable"),
    ('{"format": "azulcam-table-memory/1", "game": "azul"}', "memory.unreadable"),
    ('{"format": "azulcam-profile/1"}', "memory.unreadable"),
    ('{"format": "azulcam-table-memory/2", "game": "azul"}', "memory.newer_file"),
])
def test_a_damaged_or_newer_memory_is_refused_naming_its_file(tmp_path, text, code):
    path = tmp_path / "m.json"
    path.write_text(text)
    with pytest.raises(TableMemoryError) as info:
        TableMemory.load(path, "azul")
    assert info.value.code == code and info.value.params["path"] == str(path)
    assert str(path) in words(info.value) and str(path) in words(info.value, "fr")
    assert path.read_text() == text  # never dropped


def test_a_memory_of_another_game_is_refused_and_a_failed_write_keeps_the_last(tmp_path):
    path = tmp_path / "m.json"
    TableMemory("pavilion", photos=2).save(path)
    kept = path.read_text()
    with pytest.raises(TableMemoryError) as info:
        TableMemory.load(path, "azul")
    assert info.value.code == "memory.other_game"
    assert words(info.value) == f"{path}: the memory of a table where pavilion is played, not azul"
    (tmp_path / "m.json.part").mkdir()  # the part file cannot be written
    with pytest.raises(TableMemoryError) as info:
        TableMemory("pavilion", photos=3).save(path)
    assert info.value.code == "memory.unwritable" and path.read_text() == kept


def test_the_tile_references_kept_before_are_read_as_a_memory(tmp_path):
    path = tmp_path / "profile.tiles.json"
    path.write_text(json.dumps({"format": "azulcam-tile-references/1", "seen": {"blue": [[0.5] * 9]},
                                "mixups": {"x": 1}}))
    memory = TableMemory.load(path, "azul")
    assert memory.references.seen == {"blue": [[0.5] * 9]} and memory.mixups == {"x": 1} and memory.photos == 0


def test_the_shipped_layer_refits_on_three_photos_of_slots():
    model = default_classifier(threads=1)
    head = Head(*model.head())
    labels = model.info.labels
    rng = np.random.default_rng(0)
    f = head.weight.shape[1]
    # Three photos of a four-player Azul table: about 3 x 4 x 50 slots, of every kind and empty.
    n = 600
    y = rng.choice([i for i, name in enumerate(labels) if name == "empty" or name.startswith("azul/")], n)
    x = (rng.normal(0, 1, (n, f)) + head.weight[y] * 0.3).astype(np.float32)
    memory = TableMemory("azul")
    memory.learn(SLOTS, model.info.sha256, x, [labels[i] for i in y], [labels[i] for i in y])
    memory.refit(head, labels)  # its time: bench/teach.py (this is no timed test)
    fitted = memory.head(SLOTS, model.info.sha256)
    assert fitted.weight.shape == head.weight.shape
    pavilion = [i for i, name in enumerate(labels) if name.startswith("pavilion/")]
    np.testing.assert_array_equal(fitted.weight[pavilion], head.weight[pavilion])
    assert np.abs(fitted.weight - head.weight).max() > 0
