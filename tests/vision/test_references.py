"""This table's tile references: what the game named teaches the colours of this table's tiles."""

import numpy as np
import pytest

from azulcam.follow.mixups import Mixups
from azulcam.follow.watch import save_table
from azulcam.vision.memory import TableMemory
from azulcam.i18n.words import words
from azulcam.vision.references import TileReferences, reading_prior, weighed_row


def _tiles(bgr, n, seed=0):
    rng = np.random.default_rng(seed)
    patches = np.full((n, 32, 32, 3), 150, np.float64)
    patches[:, 8:24, 8:24] = bgr
    return np.clip(patches + rng.normal(0, 4, patches.shape), 0, 255).astype(np.uint8)


def test_a_tile_is_told_by_the_colours_this_table_showed():
    table = TileReferences()
    kinds = ["blue", "red", "yellow"]
    assert table.knows(kinds) == []
    table.learn(_tiles((160, 60, 40), 4), ["blue"] * 4)  # this table's blue is odd: it reads as teal
    table.learn(_tiles((50, 50, 200), 4, 1), ["red"] * 4)
    assert table.knows(kinds) == ["blue", "red"]
    posterior = table.posterior(_tiles((160, 60, 40), 1, 2), kinds)[0]
    assert posterior.argmax() == 0 and posterior[0] > 0.95
    # A reader sure of the wrong colour is overruled by what this table showed, one unsure kept.
    assert kinds[weighed_row(reading_prior("red", 0.9, kinds), posterior).argmax()] == "blue"
    far = table.posterior(_tiles((30, 200, 230), 1, 3), kinds)[0]  # like no colour seen: yellow, never seen, stays possible
    assert far[2] > far[0] and far[2] > far[1]
    assert kinds[weighed_row(reading_prior("yellow", 0.8, kinds), far).argmax()] == "yellow"


def test_references_are_kept_in_the_table_memory_and_refused_when_damaged(tmp_path):
    table = TileReferences()
    table.learn(_tiles((160, 60, 40), 3), ["blue"] * 3)
    save_table(tmp_path / "t.json", TableMemory("azul", references=table), Mixups())  # written as a watch writes it
    assert TableMemory.load(tmp_path / "t.json", "azul").references.seen == table.seen
    assert TableMemory.load(tmp_path / "none.json", "azul").references.seen == {}
    (tmp_path / "bad.json").write_text('{"format": "azulcam-tile-references/1", "seen": {"blue": [[1, 2, 3]]}}')
    with pytest.raises(ValueError) as info:  # a TableMemoryError
        TableMemory.load(tmp_path / "bad.json", "azul")
    assert (info.value.code, info.value.params["path"]) == ("memory.unreadable", str(tmp_path / "bad.json"))
    assert info.value.params["reason"].code == "references.features"
    assert words(info.value) == f"{tmp_path / 'bad.json'}: not a table memory (each tile seen is 9 numbers)"


def test_a_tile_unlike_every_colour_known_here_goes_to_the_reader_s_second_thought():
    # Only yellow is known here; a tile read as a doubtful yellow lies far from it: of the colours
    # not yet seen, the one the reading model thought of next is the likeliest.
    table = TileReferences()
    table.learn(_tiles((30, 200, 230), 5), ["yellow"] * 5)
    kinds = ["blue", "orange", "purple", "red", "yellow"]
    posterior = table.posterior(_tiles((20, 110, 230), 1, 1), kinds)[0]  # an orange
    shape = np.array([0.05, 0.2, 0.05, 0.05, 0.65])
    row = weighed_row(reading_prior("yellow", 0.42, kinds, shape), posterior)
    assert kinds[int(row.argmax())] == "orange" and row[1] > 2 * max(row[0], row[2], row[3])
    even = weighed_row(reading_prior("yellow", 0.42, kinds), posterior)  # no second thought: no colour stands out
    assert even[1] == pytest.approx(even[0])
    assert reading_prior("yellow", 0.42, kinds, shape).sum() == pytest.approx(1.0)


def test_a_deal_names_the_tiles_read_on_its_displays_only_where_it_is_clear_which():
    from azulcam.follow.watch import named_tiles

    assert named_tiles(["blue", "red", "red", "yellow"], ["blue", "red", "red", "yellow"]) == [
        (0, "blue"), (1, "red"), (2, "red"), (3, "yellow")]
    # One tile read as a kind the deal lacks: it is the one the deal has and the reading lacks.
    assert sorted(named_tiles(["blue", "red", "purple", "yellow"], ["blue", "orange", "red", "yellow"])) == [
        (0, "blue"), (1, "red"), (2, "orange"), (3, "yellow")]
    # Read as a kind the deal has twice: which of the two tiles is the other kind is not clear.
    assert named_tiles(["blue", "red", "yellow", "yellow"], ["blue", "orange", "red", "yellow"]) == []
    assert named_tiles(["blue", "purple", "yellow", "white"], ["blue", "orange", "red", "yellow"]) == []  # which is which?
    assert named_tiles(["blue", "red", "red"], ["blue", "red", "red", "yellow"]) == []  # a tile not read
