"""Zones and slots: every name the games use reads back to the parts it was built from, and
nothing else is a zone."""

from __future__ import annotations

import doctest
import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from azulcam.engine import zones
from azulcam.engine.games import GAMES
from azulcam.engine.zones import Slot, Zone, ZoneError


def test_doctests() -> None:
    assert doctest.testmod(zones).failed == 0


@pytest.mark.parametrize("spec", GAMES.values(), ids=lambda s: s.name)
def test_every_slot_of_every_game_is_a_slot_that_reads_back(spec) -> None:
    for name in spec.slot_ids:
        slot = Slot.parse(name)
        rebuilt = {
            zones.LINE_SPACE: lambda: Slot.line(slot.row, slot.index),
            zones.WALL_SPACE: lambda: Slot.wall(slot.row, slot.column),
            zones.FLOOR_SPACE: lambda: Slot.floor(slot.index),
            zones.STAR_SPACE: lambda: Slot.star_space(slot.star, slot.number),
            zones.CORNER: lambda: Slot.corner(slot.index),
        }[slot.kind]()
        assert rebuilt is slot and rebuilt == name
        for p in range(4):
            zone = Zone.board(p, slot)
            assert (zone.kind, zone.player, zone.slot, zone.loose) == (zones.SLOT, p, slot, False)
            assert Zone.parse(str(zone)) is zone


def test_zones_off_the_boards_and_board_parts() -> None:
    cases = {
        Zone.display(3): (zones.DISPLAY, None, 3, True), Zone.centre(): (zones.CENTER, None, None, True),
        Zone.supply(9): (zones.SUPPLY, None, 9, False), Zone.hand(2): (zones.HAND, 2, None, True),
        Zone.score(1): (zones.SCORE, 1, None, False), Zone.line(0, 4): (zones.LINE, 0, 4, False),
        Zone.floor(3): (zones.FLOOR, 3, None, False), Zone.corners(1): (zones.CORNERS, 1, None, False),
    }
    for zone, (kind, player, index, loose) in cases.items():
        assert (zone.kind, zone.player, zone.index, zone.loose, zone.slot) == (kind, player, index, loose, None)
        assert Zone.parse(json.loads(json.dumps(str(zone)))) is zone
        assert pickle.loads(pickle.dumps(zone)) is zone
    assert [str(z) for z in cases] == ["factories.3", "center", "supply.9", "boards.2.hand", "boards.1.score",
                                       "boards.0.line.4", "boards.3.floor", "boards.1.corners"]


@pytest.mark.parametrize("name", ["", "centre", "factories", "factories.", "factories.01", "factories.-1",
                                  "supply", "boards.0", "boards.0.", "boards.x.hand", "boards.0.wall.3",
                                  "boards.0.wall.3.2.1", "boards.0.9", "boards.0.line.a", "boards.0.tower",
                                  "factories.٣", None, 3, ["center"]])
def test_what_is_no_zone_is_refused_with_its_name(name) -> None:
    with pytest.raises(ZoneError) as caught:
        Zone.parse(name)
    assert caught.value.code == "zone.unknown" and caught.value.params["zone"] in (name, repr(name))


@given(st.text(alphabet="boards.factories.center.supply.wall.line.floor.corner.hand.score.0123456789", max_size=24))
def test_a_name_is_a_zone_only_if_it_formats_back_to_itself(name: str) -> None:
    try:
        zone = Zone.parse(name)
    except ZoneError:
        return
    assert str(zone) == name
    rebuilt = {
        zones.SLOT: lambda: Zone.board(zone.player, zone.slot), zones.HAND: lambda: Zone.hand(zone.player),
        zones.SCORE: lambda: Zone.score(zone.player), zones.LINE: lambda: Zone.line(zone.player, zone.index),
        zones.FLOOR: lambda: Zone.floor(zone.player), zones.CORNERS: lambda: Zone.corners(zone.player),
        zones.DISPLAY: lambda: Zone.display(zone.index), zones.CENTER: Zone.centre,
        zones.SUPPLY: lambda: Zone.supply(zone.index),
    }[zone.kind]()
    assert rebuilt is zone
