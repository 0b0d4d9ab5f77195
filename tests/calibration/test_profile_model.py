"""``azulcam-profile/1`` read through its one model (:class:`ProfileModel`): each rule of
docs/formats/profile.md refused with the path of the field and a catalogue code that both languages
word; the renderer's true profiles read and written back unchanged. (Profiles broken at random:
tests/test_fuzzed_inputs.py.)"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from azulcam.calibration.layouts import load_layout
from azulcam.calibration.profile import Profile, ProfileError
from azulcam.i18n.words import words

ROOT = Path(__file__).resolve().parents[2]
TRUTHS = sorted((ROOT / "fixtures" / "scenes").glob("*/scene-*.json"))
PROFILES = [json.loads(path.read_text(encoding="utf-8"))["profile"] for path in TRUTHS]
AZUL = next(p for p in PROFILES if p["game"] == "azul" and p["options"]["wall"] == "colored")
PAVILION = next(p for p in PROFILES if p["game"] == "pavilion" and p["options"]["side"] == "colored")


def refusal(data: Any) -> ProfileError:
    """The error reading ``data`` raises; it must be a :class:`ProfileError` whose English words
    name the field's path first, and which French words with the same parameters."""
    with pytest.raises(ProfileError) as info:
        Profile.from_json(data)
    error = info.value
    assert words(error).startswith(error.params["field"]), words(error)
    for lang in ("en", "fr"):
        words(error, lang).encode("utf-8")  # printable whatever the input held
    return error


def changed(data: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    change(data)
    return data


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        at = data
        for key in path[:-1]:
            at = at[key]
        at[path[-1]] = value
    return change


def _drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        at = data
        for key in path[:-1]:
            at = at[key]
        del at[path[-1]]
    return change


def _layout_file(tmp_path: Path, name: str, breakage: Callable[[dict[str, Any]], Any] = lambda d: None) -> str:
    data = load_layout(name).to_json()
    breakage(data)
    path = tmp_path / f"{name}-mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- each rule, by its field


@pytest.mark.parametrize("base, change, field, code", [
    # its form: the format, the game, the image's size
    (AZUL, lambda d: d.clear(), "format", "invalid.missing"),
    (AZUL, _set(("format",), "azulcam-profile/2"), "format", "invalid.literal_error"),
    (AZUL, _set(("game",), "chess"), "game", "invalid.literal_choice"),
    (AZUL, _set(("image_size",), [960]), "image_size", "invalid.too_short"),
    (AZUL, _set(("image_size", 0), 0), "image_size.0", "invalid.greater_than"),
    (AZUL, _set(("image_size", 0), "960"), "image_size.0", "invalid.int_type"),  # "12" is not 12
    (AZUL, _set(("image_size", 1), True), "image_size.1", "invalid.int_type"),  # nor true 1
    (AZUL, _set(("image_size", 1), 540.0), "image_size.1", "invalid.int_type"),
    # options and players
    (AZUL, _set(("options",), ["wall"]), "options", "invalid.model_type"),
    (AZUL, _set(("options", "side"), "grey"), "options.side", "invalid.extra_forbidden"),
    (AZUL, _set(("options", "wall"), "purple"), "options.wall", "invalid.literal_choice"),
    (AZUL, _set(("options", "jokers"), 1), "options.jokers", "invalid.bool_type"),
    (PAVILION, _set(("options", "wall"), "grey"), "options.wall", "invalid.extra_forbidden"),
    (AZUL, _set(("players",), 3), "players", "invalid.wrong_count"),
    (AZUL, _set(("players",), ["Ann", "Bo", "Cy"]), "players", "invalid.wrong_count"),
    (AZUL, _set(("players",), True), "players", "invalid.int_type"),
    (AZUL, _set(("players",), ["Ann", 2]), "players.1", "invalid.string_type"),
    # the boards: 2 to 4, players 0 .. n-1 each once
    (AZUL, _set(("boards",), {"0": {}}), "boards", "invalid.list_type"),
    (AZUL, _set(("boards",), []), "boards", "invalid.too_short"),
    (AZUL, _set(("boards", 1), "board"), "boards.1", "invalid.model_type"),
    (AZUL, _drop("boards", 1, "player"), "boards.1.player", "invalid.missing"),
    (AZUL, _set(("boards", 1, "player"), -1), "boards.1.player", "invalid.greater_than_equal"),
    (AZUL, _set(("boards", 1, "player"), True), "boards.1.player", "invalid.int_type"),
    (AZUL, _set(("boards", 1, "player"), 2), "boards.1.player", "invalid.not_a_player"),
    (AZUL, _set(("boards", 1, "player"), 0), "boards.1.player", "invalid.players_twice"),
    # a board's corners: four finite points within a million pixels, outlining a convex quadrilateral
    (AZUL, _set(("boards", 1, "corners"), [[0, 0], [1, 1]]), "boards.1.corners", "invalid.too_short"),
    (AZUL, _set(("boards", 1, "corners", 2), [5]), "boards.1.corners.2", "invalid.too_short"),
    (AZUL, _set(("boards", 1, "corners", 2, 0), math.nan), "boards.1.corners.2.0", "invalid.finite_number"),
    (AZUL, _set(("boards", 1, "corners", 2, 0), 10 ** 400), "boards.1.corners.2.0", "invalid.finite_number"),
    (AZUL, _set(("boards", 1, "corners", 2, 0), True), "boards.1.corners.2.0", "invalid.float_parsing"),
    (AZUL, _set(("boards", 1, "corners", 2, 0), "12"), "boards.1.corners.2.0", "invalid.float_parsing"),
    (AZUL, _set(("boards", 1, "corners", 2, 0), 1e300), "boards.1.corners.2.0", "invalid.less_than_equal"),
    (AZUL, _set(("boards", 1, "corners", 2, 1), -2e6), "boards.1.corners.2.1", "invalid.greater_than_equal"),
    (AZUL, _set(("boards", 1, "corners"), [[0, 0], [10, 10], [20, 20], [30, 30]]), "boards.1.corners",
     "invalid.not_convex"),
    (AZUL, _set(("boards", 1, "corners"), [[0, 0], [10, 0], [0, 10], [10, 10]]), "boards.1.corners",
     "invalid.not_convex"),
    # a board's layout: loaded, a player board of this game, of the side the options say
    (AZUL, _set(("boards", 1, "layout"), ["azul-colored"]), "boards.1.layout", "invalid.string_type"),
    (AZUL, _set(("boards", 1, "layout"), ""), "boards.1.layout", "invalid.unknown_layout"),
    (AZUL, _set(("boards", 1, "layout"), "azul-purple"), "boards.1.layout", "invalid.unknown_layout"),
    (AZUL, _set(("boards", 1, "layout"), "pavilion-colored"), "boards.1.layout", "invalid.not_a_player_board"),
    (PAVILION, _set(("boards", 1, "layout"), "pavilion-scoring"), "boards.1.layout", "invalid.not_a_player_board"),
    (AZUL, _set(("boards", 1, "layout"), "azul-grey"), "boards.1.layout", "invalid.wrong_side"),
    (AZUL, _set(("options", "wall"), "grey"), "boards.0.layout", "invalid.wrong_side"),
    (changed(AZUL, _drop("options")), _set(("boards", 1, "layout"), "azul-grey"), "boards.1.layout", "invalid.wrong_side"),
    (PAVILION, _set(("options", "side"), "grey"), "boards.0.layout", "invalid.wrong_side"),
    # a board's bare look
    (AZUL, _set(("boards", 1, "bare"), "x.png"), "boards.1.bare", "invalid.model_type"),
    (AZUL, _set(("boards", 1, "bare"), {"reads": {}}), "boards.1.bare.image", "invalid.missing"),
    (AZUL, _set(("boards", 1, "bare"), {"image": 3}), "boards.1.bare.image", "invalid.string_type"),
    (AZUL, _set(("boards", 1, "bare"), {"image": "x\0.png"}), "boards.1.bare.image", "invalid.string_pattern_mismatch"),
    (AZUL, _set(("boards", 1, "bare"), {"image": "x" * 256}), "boards.1.bare.image", "invalid.string_too_long"),
    (AZUL, _set(("boards", 1, "bare"), {"image": "x.png", "other": 1}), "boards.1.bare.other", "invalid.extra_forbidden"),
    (AZUL, _set(("boards", 1, "bare"), {"image": "x.png", "reads": ["wall.0.1"]}), "boards.1.bare.reads",
     "invalid.dict_type"),
    (AZUL, _set(("boards", 1, "bare"), {"image": "x.png", "reads": {"wall.0.1": 3}}), "boards.1.bare.reads.wall.0.1",
     "invalid.string_type"),
    # the scoring board: Summer Pavilion's, and Azul has none
    (AZUL, _set(("scoring_board",), PAVILION["scoring_board"]), "scoring_board", "invalid.not_this_game"),
    (PAVILION, _set(("scoring_board",), None), "scoring_board", "invalid.missing"),
    (PAVILION, _drop("scoring_board"), "scoring_board", "invalid.missing"),
    (PAVILION, _set(("scoring_board", "layout"), "pavilion-colored"), "scoring_board.layout",
     "invalid.not_the_scoring_board"),
    (PAVILION, _set(("scoring_board", "layout"), "pavilion-purple"), "scoring_board.layout", "invalid.unknown_layout"),
    (PAVILION, _set(("scoring_board", "corners", 0), [1e7, 0]), "scoring_board.corners.0.0", "invalid.less_than_equal"),
    # colour references
    (AZUL, _set(("colors",), ["azul/blue"]), "colors", "invalid.dict_type"),
    (AZUL, _set(("colors",), {"azul/green": [50, 0, 0]}), "colors", "invalid.unknown_tile"),
    (AZUL, _set(("colors",), {"blue": [50, 0, 0]}), "colors", "invalid.unknown_tile"),
    (AZUL, _set(("colors",), {"azul/blue": [50, 0]}), "colors.azul/blue", "invalid.too_short"),
    (AZUL, _set(("colors",), {"azul/blue": [50, 0, 0, 1, 2]}), "colors.azul/blue", "invalid.too_long"),
    (AZUL, _set(("colors",), {"azul/blue": [50, 0, math.inf]}), "colors.azul/blue.2", "invalid.finite_number"),
    (AZUL, _set(("colors",), {"pavilion/first_player": "white"}), "colors.pavilion/first_player", "invalid.list_type"),
])
def test_each_rule_is_refused_naming_its_field(base, change, field, code):
    error = refusal(changed(base, change))
    assert (error.params["field"], error.code) == (field, code), str(error)


def test_a_layout_file_is_loaded_and_checked_like_a_shipped_one(tmp_path):
    grey_copy = _layout_file(tmp_path, "azul-grey")
    older = changed(AZUL, _drop("options"))
    for board in older["boards"]:
        board["layout"] = grey_copy
    profile = Profile.from_json(older)
    assert profile.game_options == {"wall": "grey", "jokers": False}  # the side its name shows, not its path
    broken = _layout_file(tmp_path, "azul-colored", lambda d: d["slots"].pop())
    error = refusal(changed(AZUL, _set(("boards", 1, "layout"), broken)))
    assert (error.params["field"], error.code) == ("boards.1.layout", "invalid.unknown_layout")
    assert error.params["reason"].code == "layout.unusable" and "missing slot" in words(error)
    other_game = _layout_file(tmp_path, "pavilion-colored")
    error = refusal(changed(AZUL, _set(("boards", 1, "layout"), other_game)))
    assert (error.params["field"], error.code) == ("boards.1.layout", "invalid.not_a_player_board")


def test_a_player_name_that_is_not_unicode_is_refused():
    error = refusal(changed(AZUL, _set(("players",), ["Ann", "B\ud800b"])))
    assert (error.params["field"], error.code) == ("players.1", "invalid.not_unicode")


def test_a_key_that_is_not_unicode_is_named_printably():
    error = refusal(changed(AZUL, _set(("options", "\ud800" * 50), True)))
    assert error.code in ("invalid.extra_forbidden", "invalid.not_unicode")
    assert error.params["field"] in ("options", "options." + "\ufffd" * 40 + "…")
    words(error).encode("utf-8")  # printable
    error = refusal(changed(AZUL, _set(("boards", 0, "bare"), {"image": "x.png", "reads": {"wall.0.\ud800": "blue"}})))
    assert error.params["field"].startswith("boards.0.bare.reads") and error.code == "invalid.not_unicode"


def test_a_profile_is_not_a_list_and_keys_it_does_not_know_are_ignored():
    assert refusal([AZUL]).params["field"] == "$"
    assert Profile.from_json({**AZUL, "calibrated_on": "2024-05-01", "\ud800": [math.nan]}).to_json() == AZUL


def test_options_and_players_left_out_are_derived_from_the_boards():
    older = changed(PAVILION, lambda d: [d.pop("options"), d.pop("players")])
    assert Profile.from_json(older).to_json() == PAVILION
    grey = changed(AZUL, lambda d: [d.pop("options"), d.pop("players")] + [b.update(layout="azul-grey") for b in d["boards"]])
    assert Profile.from_json(grey).game_options == {"wall": "grey", "jokers": False}


@pytest.mark.parametrize("path", TRUTHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_renderers_true_profiles_read_unchanged(path):
    data = json.loads(path.read_text(encoding="utf-8"))["profile"]
    profile = Profile.from_json(data)
    assert profile.to_json() == data
    assert Profile.from_json(json.loads(json.dumps(profile.to_json()))) == profile
