"""``azulcam-profile/1``'s ``options`` and ``players``: read, written, derived from the boards when a
profile (an older file) has none, and refused when they disagree with the boards; and the rest of
a profile refused field by field when malformed."""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from azulcam.calibration.profile import BoardPlacement, Profile, ProfileError
from azulcam.i18n.words import words

SAMPLES = Path(__file__).resolve().parents[2] / "azulcam" / "samples"
CORNERS = [[[412, 610], [905, 598], [915, 1002], [405, 1010]], [[912, 110], [1405, 98], [1415, 502], [905, 510]],
           [[1412, 610], [1905, 598], [1915, 1002], [1405, 1010]], [[12, 110], [405, 98], [415, 502], [5, 510]]]


def azul(boards: int = 2, layout: str = "azul-colored", **keys: Any) -> dict[str, Any]:
    data = {"format": "azulcam-profile/1", "game": "azul", "image_size": [1920, 1080],
            "boards": [{"player": p, "layout": layout, "corners": CORNERS[p]} for p in range(boards)],
            "scoring_board": None, "colors": None}
    data.update(keys)
    return data


def pavilion(boards: int = 2, layout: str = "pavilion-colored", **keys: Any) -> dict[str, Any]:
    data = azul(boards, layout, **keys)
    data["game"] = "pavilion"
    data["scoring_board"] = {"layout": "pavilion-scoring", "corners": [[700, 700], [1000, 700], [1000, 900], [700, 900]]}
    return data


# --------------------------------------------------------------------------- options and players


def test_options_and_players_are_read_and_written():
    profile = Profile.from_json(azul(4, options={"wall": "colored", "jokers": True}, players=["Ann", "Bo", "Cy", "Di"]))
    assert profile.options == {"wall": "colored", "jokers": True} == profile.game_options
    assert profile.players == ["Ann", "Bo", "Cy", "Di"] and profile.player_count == 4
    written = profile.to_json()
    assert written["options"] == {"wall": "colored", "jokers": True} and written["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert Profile.from_json(written) == profile
    assert Profile.from_json(json.loads(json.dumps(written))) == profile


def test_a_profile_without_them_reads_and_derives_them_from_its_boards():
    colored = Profile.from_json(azul(3))
    assert colored.game_options == {"wall": "colored", "jokers": False} and colored.player_count == 3
    grey = Profile.from_json(pavilion(2, "pavilion-grey"))
    assert grey.game_options == {"side": "grey"} and grey.player_count == 2
    written = grey.to_json()
    assert written["options"] == {"side": "grey"} and written["players"] == 2
    assert Profile.from_json(written) == grey


def test_options_left_out_take_their_defaults():
    assert Profile.from_json(azul(options={"jokers": True})).game_options == {"wall": "colored", "jokers": True}
    assert Profile.from_json(azul(layout="azul-grey", options={"wall": "grey"})).game_options == {"wall": "grey", "jokers": False}
    assert Profile.from_json(pavilion(options={})).game_options == {"side": "colored"}


def test_a_profile_made_in_code_derives_what_it_was_not_given():
    board = BoardPlacement(0, "my-azul-grey.json", ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)))
    made = Profile("azul", (100, 100), (board, board))
    assert made.options is None and made.players is None
    assert made.game_options == {"wall": "grey", "jokers": False} and made.player_count == 2
    assert made.to_json()["options"] == {"wall": "grey", "jokers": False} and made.to_json()["players"] == 2
    assert Profile("azul", (100, 100), (board, board), options={"jokers": True}).game_options == {"wall": "colored", "jokers": True}
    with pytest.raises(ProfileError) as info:
        _ = Profile("azul", (100, 100), (board, board), options={"side": "grey"}).game_options
    assert re.search(r"options\.side is not a known field", words(info.value)), words(info.value)


@pytest.mark.parametrize("data, message", [
    (azul(4, players=3), "players must hold 4, not 3"),
    (azul(2, players=["Ann", "Bo", "Cy"]), "players must hold 2, not 3"),
    (azul(2, layout="azul-grey", options={"wall": "colored"}), "boards.0.layout is azul-grey, but the options say wall colored"),
    (azul(2, options={"wall": "grey"}), "boards.0.layout is azul-colored, but the options say wall grey"),
    (pavilion(2, options={"side": "grey"}), "boards.0.layout is pavilion-colored, but the options say side grey"),
])
def test_disagreements_with_the_boards_are_refused(data, message):
    with pytest.raises(ProfileError) as info:
        Profile.from_json(data)
    assert message in words(info.value)


def test_boards_of_both_sides_are_refused():
    data = azul(2)
    data["boards"][1]["layout"] = "azul-grey"
    with pytest.raises(ProfileError) as info:
        Profile.from_json(data)
    assert re.search(r"boards\.1\.layout is azul-grey, but the options say wall colored", words(info.value)), words(info.value)


@pytest.mark.parametrize("keys, message", [
    ({"options": {"wall": "colored", "tiles": 3}}, "options.tiles is not a known field"),
    ({"options": {"side": "colored"}}, "options.side is not a known field"),
    ({"options": {"jokers": 1}}, "options.jokers must be true or false"),
    ({"options": {"jokers": "yes"}}, "options.jokers must be true or false"),
    ({"options": {"wall": "purple"}}, "options.wall must be one of 'colored', 'grey'"),
    ({"options": {"wall": ["grey"]}}, "options.wall must be one of 'colored', 'grey'"),
    ({"options": ["wall"]}, "options must be an object"),
    ({"options": True}, "options must be an object"),
    ({"players": True}, "players must be a whole number"),
    ({"players": 2.0}, "players must be a whole number"),
    ({"players": "two"}, "players must be a whole number"),
    ({"players": ["Ann", 2]}, "players.1 must be text"),
])
def test_bad_options_and_players_are_named(keys, message):
    with pytest.raises(ProfileError) as info:
        Profile.from_json(azul(**keys))
    assert message in words(info.value)


def test_a_pavilion_option_is_not_an_azul_one():
    with pytest.raises(ProfileError) as info:
        Profile.from_json(pavilion(options={"wall": "colored"}))
    assert re.search(r"options\.wall is not a known field", words(info.value)), words(info.value)


def test_the_samples_read_and_keep_their_options_through_a_round_trip():
    for path in sorted(SAMPLES.glob("*.profile.json")):
        profile = Profile.from_json(json.loads(path.read_text(encoding="utf-8")))
        assert profile.player_count == len(profile.boards)
        assert Profile.from_json(profile.to_json()) == profile


# --------------------------------------------------------------------------- the rest of a profile


def _break(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    at = data
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    return data


@pytest.mark.parametrize("path, value, message", [
    (("image_size",), [True, True], "image_size.0 must be a whole number"),
    (("image_size",), [1920.0, 1080.0], "image_size.0 must be a whole number"),
    (("image_size",), [1920], "image_size is too short (at least 2 items)"),
    (("boards",), {"0": {}}, "boards must be a list"),
    (("boards",), True, "boards must be a list"),
    (("boards", 1), "board", "boards.1 must be an object"),
    (("boards", 1, "player"), True, "boards.1.player must be a whole number"),
    (("boards", 1, "player"), 1.0, "boards.1.player must be a whole number"),
    (("boards", 0, "layout"), ["azul-colored"], "boards.0.layout must be text"),
    (("boards", 0, "layout"), "pavilion-colored", "boards.0.layout: pavilion-colored is no player board of this game"),
    (("boards", 0, "corners", 2, 0), math.nan, "boards.0.corners.2.0 must be a finite number"),
    (("boards", 0, "corners", 2, 0), math.inf, "boards.0.corners.2.0 must be a finite number"),
    (("boards", 0, "corners", 2, 0), True, "boards.0.corners.2.0 must be a number"),
    (("boards", 0, "corners", 2, 0), 10 ** 400, "boards.0.corners.2.0 must be a finite number"),
    (("boards", 0, "corners", 2, 0), 1e300, "boards.0.corners.2.0 must be at most 1000000"),
    (("scoring_board",), {"layout": "pavilion-scoring", "corners": CORNERS[2]}, "scoring_board has no place in this game"),
    (("colors",), ["azul/blue"], "colors must be an object"),
    (("colors",), {"azul/green": [50, 0, 0]}, "colors: no tile is called azul/green"),
    (("colors",), {"blue": [50, 0, 0]}, "colors: no tile is called blue"),
    (("colors",), {"azul/blue": [50, 0]}, "colors.azul/blue is too short (at least 3 items)"),
    (("colors",), {"azul/blue": [50, 0, math.nan]}, "colors.azul/blue.2 must be a finite number"),
    (("colors",), {"azul/blue": [50, 0, True]}, "colors.azul/blue.2 must be a number"),
    (("colors",), {"azul/blue": "blue"}, "colors.azul/blue must be a list"),
])
def test_a_malformed_profile_names_the_field(path, value, message):
    with pytest.raises(ProfileError) as info:
        Profile.from_json(_break(azul(), path, value))
    assert message in words(info.value)


def test_the_scoring_board_must_be_the_scoring_board():
    data = pavilion()
    data["scoring_board"]["layout"] = "pavilion-colored"
    with pytest.raises(ProfileError) as info:
        Profile.from_json(data)
    assert re.search(r"scoring_board\.layout: pavilion-colored is not the scoring board", words(info.value)), words(info.value)


def test_colour_references_and_unknown_keys_are_kept_or_ignored():
    colors = {"azul/blue": [40.5, -3, -30], "pavilion/first_player": [60, 1, 2, 3.5]}
    profile = Profile.from_json(azul(colors=colors, calibrated_on="2024-05-01"))
    assert profile.colors == colors
    assert "calibrated_on" not in profile.to_json()  # a reader ignores keys it does not know (docs/formats/profile.md)


def test_a_board_may_carry_its_bare_look_and_a_malformed_one_is_refused():
    base = json.loads((SAMPLES / "azul-4p.profile.json").read_text())
    bare = {"image": "table.bare-0.png", "reads": {"wall.0.1": "yellow"}}
    good = {**base, "boards": [{**base["boards"][0], "bare": bare}, *base["boards"][1:]]}
    profile = Profile.from_json(good)
    assert profile.boards[0].bare == bare and Profile.from_json(profile.to_json()).boards[0].bare == bare
    for wrong, message in (({"image": 3}, "bare.image must be text"), ({"image": "x.png", "reads": ["wall.0.1"]},
                           "bare.reads must be an object"), ({"image": "x.png", "other": 1}, "bare.other is not a known field"),
                           ("x.png", "bare must be an object")):
        with pytest.raises(ProfileError) as info:
            Profile.from_json({**base, "boards": [{**base["boards"][0], "bare": wrong}, *base["boards"][1:]]})
        assert re.search(rf"boards\.0\.{re.escape(message)}", words(info.value)), words(info.value)
