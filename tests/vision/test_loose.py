"""How the locator's loose tiles and the reading model's answers settle (``analyze``): a colour
read otherwise in the board's card light, cross-checks, one first-player marker, one reading per
display, nothing but the marker beside an Azul board, and the board's own print off the tiles."""

from __future__ import annotations

import numpy as np

from azulcam.engine.zones import Zone
from azulcam.vision.analyze import Loose, recoloured

CENTRE = Zone.centre()


def test_a_colour_read_otherwise_in_the_boards_light_stands_and_is_uncertain():
    o = np.zeros((4, 2))
    loose = [Loose(o, Zone.hand(0), "red", 0.97, 0.6), Loose(o, CENTRE, "red", 0.8, 0.6),
             Loose(o, CENTRE, "blue", 0.9, 0.6), Loose(o, CENTRE, "first_player", 0.9, 0.6)]
    named = [("red", 0.97), ("red", 0.8), ("blue", 0.9), ("first_player", 0.9)]
    in_light = {0: ("purple", 0.95), 1: (None, 0.9), 2: ("blue", 0.99)}
    out = recoloured(loose, named, in_light)
    # Another colour in the board's light: it stands, below the tile's unsure_below. No tile
    # seen, or the same colour: the detector's reading stands.
    assert out[0][0] == "purple" and out[0][1] < 0.6
    assert out[1:] == named[1:]
    # The first-player marker is never recoloured, nor a colour made the marker.
    assert recoloured(loose, named, {3: ("red", 0.99), 0: ("first_player", 0.99)}) == named
    # Nor black made white or white black: the light fixes hues, not brightness.
    dark = [Loose(o, CENTRE, "black", 0.69, 0.6), Loose(o, CENTRE, "white", 0.6, 0.6)]
    assert recoloured(dark, [("black", 0.69), ("white", 0.6)], {0: ("white", 0.6), 1: ("black", 0.9)}) == [
        ("black", 0.69), ("white", 0.6)]
    assert recoloured(dark, [("black", 0.69), ("white", 0.6)], {0: ("blue", 0.9)})[0][0] == "blue"


def test_cross_checked_tiles():
    from azulcam.vision.analyze import Loose, cross_checked

    outline = np.zeros((4, 2))
    sure = Loose(outline, CENTRE, "red", 0.8, 0.6)
    doubtful = Loose(outline, CENTRE, "red", 0.4, 0.6)
    assert cross_checked(sure, None) == ("red", 0.8)  # not asked: the detector's answer
    assert cross_checked(doubtful, (None, 0.7)) == (None, 0.4)  # the classifier sees no tile
    assert cross_checked(doubtful, ("blue", 0.95)) == ("blue", 0.4)  # sure of another kind
    assert cross_checked(doubtful, ("blue", 0.6)) == ("red", 0.4)  # unsure of another: the detector's


def test_one_first_player_marker():
    from azulcam.vision.analyze import Loose, one_marker

    o = np.zeros((4, 2))
    marker = Loose(o, CENTRE, "first_player", 0.55, 0.6)  # doubtful: the classifier reads it too
    other = Loose(o, Zone.hand(1), "first_player", 0.4, 0.6)
    tile = Loose(o, CENTRE, "red", 0.8, 0.6)
    place = Loose(o, Zone.display(0))  # read by the classifier alone
    loose = [marker, other, tile, place]
    floor_free = [("red", 0.99), (None, 0.97)]
    # The classifier saw a white tile on the marker and nothing on the other peak (cross_checked).
    named = [("white", 0.55), (None, 0.4), ("red", 0.8), ("blue", 0.99)]
    answers = {0: ("white", 0.95), 1: (None, 0.8), 3: ("blue", 0.99)}
    assert one_marker(floor_free, loose, named, answers) == [("first_player", 0.55), (None, 0.4), ("red", 0.8),
                                                              ("blue", 0.99)]
    # Two peaks named the marker: the more confident stays, the other takes the classifier's kind.
    answers[1] = ("white", 0.9)
    named[1] = ("first_player", 0.4)
    assert one_marker(floor_free, loose, named, answers)[:2] == [("first_player", 0.55), ("white", 0.4)]
    # A floor line read as the marker, surer than any peak: no loose tile is the marker.
    on_floor = [("first_player", 0.99), (None, 0.97)]
    assert one_marker(on_floor, loose, named, answers)[:2] == [("white", 0.55), ("white", 0.4)]
    # Two peaks named the marker, the less confident read as the marker by the classifier too:
    # it is the marker, and the other takes the classifier's kind.
    named[1] = ("first_player", 0.4)
    answers = {0: ("white", 0.95), 1: ("first_player", 0.7), 3: ("blue", 0.99)}
    assert one_marker(floor_free, loose, named, answers)[:2] == [("white", 0.55), ("first_player", 0.4)]
    # A display place read as the marker, more surely than the peaks: no display holds the
    # marker, so the peak the classifier reads as the marker is it, and the place, read as the
    # marker, is read empty.
    named = [("first_player", 0.55), ("red", 0.4), ("red", 0.8), ("first_player", 0.9)]
    answers = {0: ("first_player", 0.8), 1: ("red", 0.9), 3: ("first_player", 0.9)}
    assert one_marker(floor_free, loose, named, answers) == [("first_player", 0.55), ("red", 0.4), ("red", 0.8),
                                                             (None, 0.9)]
    # Alone, it is not the marker either.
    assert one_marker(floor_free, [place], [("first_player", 0.9)], {0: ("first_player", 0.9)}) == [(None, 0.9)]
    # A marker the detector only proposed (its peak below the detector's threshold) is dropped
    # where another candidate wins, whatever the classifier reads on it; alone, it stays.
    proposed = Loose(o, Zone.hand(2), "first_player", 0.3, 0.6)
    named = [("first_player", 0.55), ("first_player", 0.3)]
    answers = {0: ("white", 0.9), 1: ("red", 0.95)}
    assert one_marker(floor_free, [marker, proposed], named, answers) == [("first_player", 0.55), (None, 0.3)]
    assert one_marker(floor_free, [proposed], named[1:], {0: ("red", 0.95)}) == [("first_player", 0.3)]
    # No candidate: unchanged.
    plain = [("red", 0.8)]
    assert one_marker(floor_free, [tile], plain, {}) == plain


def test_the_centre_holds_no_more_than_the_emptied_displays_left():
    """Each display emptied this round leaves at most three tiles in the centre: more read there
    are cut to the likeliest, the rest read as no tile (so the centre is uncertain); the marker
    stays."""
    from azulcam.vision.analyze import Loose, within_leftovers

    o = np.zeros((4, 2))
    full = [Loose(o, Zone.display(i)) for i in range(5) for _ in range(4)]  # two players: five displays
    held = [("red", 0.99)] * 20
    centre = [Loose(o, CENTRE, "blue", c) for c in (0.9, 0.5, 0.8, 0.7)] + [Loose(o, CENTRE, "first_player", 0.9)]
    read = [(x.kind, x.confidence) for x in centre]
    # Every display full: no tile can be in the centre, only the marker.
    out = within_leftovers("azul", 2, full + centre, held + read)
    assert out[:20] == held and out[20:] == [(None, 0.0)] * 4 + [("first_player", 0.9)]
    # One display emptied (its places read empty): three tiles at most, the likeliest.
    emptied = held[:16] + [(None, 0.95)] * 4
    out = within_leftovers("azul", 2, full + centre, emptied + read)
    assert out[20:] == [("blue", 0.9), (None, 0.0), ("blue", 0.8), ("blue", 0.7), ("first_player", 0.9)]
    # Displays not seen at all count as emptied too; within the room, nothing changes.
    assert within_leftovers("azul", 2, full[:12] + centre, held[:12] + read) == held[:12] + read


def test_the_marker_is_found_where_nothing_was_read_as_it(monkeypatch):
    """The first-player marker is always in the centre or with a player: where nothing is read as
    it, the loose tile off the displays that the reading model takes for it most is it, unsurely,
    where the model gives it at least MARKER_SOMEWHERE; never a display's tile."""
    from azulcam.vision import analyze
    from azulcam.vision.analyze import MARKER_SOMEWHERE, Loose, marker_somewhere

    o = np.zeros((4, 2))
    loose = [Loose(o, Zone.display(0), "white", 0.9), Loose(o + 1, CENTRE, "blue", 0.8), Loose(o + 2, CENTRE, "white", 0.6)]
    named = [("white", 0.9), ("blue", 0.8), ("white", 0.6)]
    kinds = [None, "blue", "white", "first_player"]
    seen = []

    def likely(patches, classifier, game, without=()):
        seen.append(len(patches))
        return np.array([[0.0, 0.99, 0.0, 0.01], [0.0, 0.0, 0.8, marker]]), kinds

    monkeypatch.setattr(analyze, "loose_patches", lambda image, outlines, boards: outlines)
    monkeypatch.setattr(analyze, "reader_loose_likely", likely)
    marker = 0.2
    out = marker_somewhere(None, "azul", [], loose, named, [], None)
    assert out == [("white", 0.9), ("blue", 0.8), ("first_player", 0.2)] and seen == [2]  # the display's tile is not asked
    marker = MARKER_SOMEWHERE / 2  # too unlikely: the marker may lie under a hand
    assert marker_somewhere(None, "azul", [], loose, named, [], None) == named
    # A floor slot or a loose tile read as the marker: nothing is asked.
    assert marker_somewhere(None, "azul", [("first_player", 0.95)], loose, named, [], None) == named
    with_marker = named[:2] + [("first_player", 0.7)]
    assert marker_somewhere(None, "azul", [], loose, with_marker, [], None) == with_marker and seen == [2, 2]


def test_a_display_is_read_once_by_the_classifier_or_by_the_detector():
    from azulcam.vision.analyze import Loose, settled_displays

    o = np.zeros((4, 2))
    places = [Loose(o, Zone.display(0)) for _ in range(4)]
    peaks = [Loose(o, Zone.display(0), k, 0.8, 0.6) for k in ("red", "red", "blue", "black")]
    centre = [Loose(o, CENTRE, "white", 0.9, 0.6)]
    loose = places + peaks + centre
    sure = [("red", 0.99), ("red", 0.95), ("blue", 0.97), ("white", 0.93)]
    peak_answers = [(x.kind, x.confidence) for x in peaks]
    # The classifier sure of every place, and the peaks naming the same tiles: the places' reading
    # stands (with its confidence), the peaks go.
    agreeing = [(x.kind, x.confidence) for x in peaks[:3]] + [("white", 0.8)]
    kept, answers = settled_displays(loose, sure + agreeing + [("white", 0.9)])
    assert kept == places + centre and answers == sure + [("white", 0.9)]
    # Sure of every place, but four peaks naming other tiles (places proposed off the tiles
    # read a neighbour's colour surely): the detector's reading stands.
    kept, answers = settled_displays(loose, sure + peak_answers + [("white", 0.9)])
    assert kept == peaks + centre and answers == peak_answers + [("white", 0.9)]
    # Unsure of one place, four sure peaks: the detector's reading stands.
    unsure = sure[:3] + [("white", 0.5)]
    kept, answers = settled_displays(loose, unsure + peak_answers + [("white", 0.9)])
    assert kept == peaks + centre and answers == peak_answers + [("white", 0.9)]
    # Four peaks, however unsure the detector is of one, still stand against an unsure place.
    weak = peaks[:3] + [Loose(o, Zone.display(0), "black", 0.5, 0.6)]
    kept, _ = settled_displays(places + weak, unsure + [(x.kind, x.confidence) for x in weak])
    assert kept == weak
    # Sure of every place but reading three tiles (a display holds four): the four peaks stand.
    three = sure[:3] + [(None, 0.97)]
    kept, _ = settled_displays(places + peaks, three + peak_answers)
    assert kept == peaks
    # The detector found three tiles: the places stand, sure or not.
    kept, _ = settled_displays(places + peaks[:3], unsure + peak_answers[:3])
    assert kept == places
    kept, _ = settled_displays(places + peaks[:3], three + peak_answers[:3])
    assert kept == places
    # Four peaks on a display that looked empty (no places proposed): the detector's four stand.
    kept, _ = settled_displays(peaks, peak_answers)
    assert kept == peaks
    # One to three peaks on a display read empty, or that looked empty, are the centre's tiles
    # lying against or over it (a display holds four tiles or none).
    empty = [(None, 0.95)] * 4
    for first in (places, []):
        kept, answers = settled_displays(first + peaks[:2], empty[:len(first)] + peak_answers[:2])
        assert [(x.zone, x.kind) for x in kept] == [("center", "red"), ("center", "red")]
        assert answers == peak_answers[:2]
    # One to three tiles read on the places and no peak: the display is empty (its places stay,
    # with the classifier's confidence, so that an unsure one is still listed as uncertain).
    two = [("joker", 0.77), (None, 0.94), ("joker", 0.33), (None, 0.8)]
    kept, answers = settled_displays(places, two)
    assert kept == places and answers == [(None, 0.77), (None, 0.94), (None, 0.33), (None, 0.8)]
    kept, answers = settled_displays(places, sure)  # four tiles and no peak: the places stand
    assert answers == sure
    # Three tiles read on the places, and peaks naming the one they lack: it fills the place
    # read empty, with the detector's lowest confidence there (so the display stays uncertain).
    lack = [(None, 0.98), ("black", 0.91), ("black", 0.84), ("red", 0.99)]
    seen_peaks = [Loose(o, Zone.display(0), k, c, 0.6) for k, c in (("red", 0.74), ("white", 0.71), ("black", 0.56))]
    kept, answers = settled_displays(places + seen_peaks, lack + [(x.kind, x.confidence) for x in seen_peaks])
    assert kept == places and answers == [("white", 0.56)] + lack[1:]
    # Where the detector's own peaks do not name it, one of its peaks below its threshold (which
    # the candidate model read as a tile) may: it fills the place, with its confidence.
    strong = [seen_peaks[0], seen_peaks[2]]
    faint = [Loose(o, Zone.display(0), "white", 0.2, 0.6, True)]
    kept, answers = settled_displays(places + strong + faint, lack + [(x.kind, x.confidence) for x in strong + faint])
    assert kept == places and answers == [("white", 0.2)] + lack[1:]
    # Such peaks count for nothing else: with no peak above the threshold, a display read with
    # two tiles is empty; four of them do not replace an unsure place's reading.
    kept, answers = settled_displays(places + faint, two + [("white", 0.2)])
    assert kept == places and answers == [(None, 0.77), (None, 0.94), (None, 0.33), (None, 0.8)]
    four_faint = [Loose(o, Zone.display(0), k, 0.3, 0.6, True) for k in ("red", "red", "blue", "black")]
    kept, answers = settled_displays(places + four_faint, unsure + [(x.kind, x.confidence) for x in four_faint])
    assert kept == places and answers == unsure
    # A display read with tiles keeps them; the peaks are its own.
    kept, _ = settled_displays(places + peaks[:2], sure + peak_answers[:2])
    assert kept == places


def test_places_no_peak_bears_out_read_an_empty_display_s_print_and_its_peaks_are_the_centre_s():
    from azulcam.vision.analyze import Loose, settled_displays

    def square(x, y, side=12.0):
        return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], np.float64)

    places = [Loose(square(x, y), Zone.display(0)) for x, y in ((600, 290), (614, 290), (600, 304), (614, 304))]
    # The empty display's print read as whites on its places; the detector finds one red tile,
    # off every place: a centre tile pushed over the display. Whether the places read two tiles
    # or four, the display is empty and the red is the centre's.
    red = Loose(square(610, 318), Zone.display(0), "red", 0.75, 0.6)
    for whites in (2, 4):
        answers = [("white", 0.8)] * whites + [(None, 0.7)] * (4 - whites) + [("red", 0.75)]
        kept, read = settled_displays(places + [red], answers)
        assert [x.zone for x in kept] == ["factories.0"] * 4 + ["center"]
        assert read == [(None, a[1]) for a in answers[:4]] + [("red", 0.75)]
    # A peak on a place naming the tile read there bears the places out: they stand, and a peak
    # naming the one tile they lack fills the place read empty.
    on_place = Loose(square(601, 291), Zone.display(0), "white", 0.7, 0.6)
    answers = [("white", 0.8), ("white", 0.8), ("blue", 0.9), (None, 0.7), ("white", 0.7), ("red", 0.75)]
    kept, read = settled_displays(places + [on_place, red], answers)
    assert kept == places and read == answers[:3] + [("red", 0.7)]
    # Four tiles read and no peak at all: the places stand.
    kept, read = settled_displays(places, [("white", 0.8)] * 4)
    assert kept == places and read == [("white", 0.8)] * 4


def test_in_azul_only_the_first_player_marker_lies_beside_a_board():
    from azulcam.vision.analyze import Loose, beside_the_boards

    o = np.zeros((4, 2))
    loose = [Loose(o, Zone.hand(3), "blue", 0.44, 0.6), Loose(o, Zone.hand(1), "first_player", 0.8, 0.6),
             Loose(o, CENTRE, "blue", 0.7, 0.6)]
    named = [("blue", 0.44), ("first_player", 0.8), ("blue", 0.7)]
    # A sleeve read as a blue tile beside a board is no tile (its confidence kept, so the zone
    # stays uncertain); the marker and the centre's tiles stay.
    assert beside_the_boards("azul", loose, named) == [(None, 0.44), ("first_player", 0.8), ("blue", 0.7)]
    # Summer Pavilion's players keep their tiles beside their boards.
    assert beside_the_boards("pavilion", loose, named) == named


def test_loose_tiles_well_inside_a_board_are_its_art_and_go():
    """A peak in the centre or beside a board that lies more than ``detect.ON_BOARD_MM`` inside a
    board, in the board's own frame (as registered), is the board's print (or a slot's tile):
    it goes. Display places stay."""
    from azulcam.calibration.profile import BoardPlacement, board_homography
    from azulcam.vision.analyze import BoardView, off_the_boards
    from azulcam.vision.detect import ON_BOARD_MM
    from azulcam.vision.register import Registration

    corners = np.array([[100.0, 100], [370, 100], [370, 370], [100, 370]])  # a 270 mm board at 1 px/mm
    placement = BoardPlacement(0, "pavilion-grey", corners.tolist())
    aligned = BoardView(placement, Registration(corners, 0.9, True), board_homography(corners))

    def tile(x, y, zone=Zone.hand(0)):
        return Loose(np.array([[x - 8, y - 8], [x + 8, y - 8], [x + 8, y + 8], [x - 8, y + 8]], np.float64), zone, "green", 0.7)

    def ids(tiles):
        return [id(x) for x in tiles]

    deep, edge, outside = tile(235, 118), tile(235, 100 + ON_BOARD_MM - 1), tile(235, 80)
    place = tile(235, 118, Zone.display(0))
    centre = tile(200, 200, CENTRE)
    assert ids(off_the_boards([deep, edge, outside, place, centre], [aligned])) == ids([edge, outside, place])
    # The board as registered, not as the profile placed it: moved 30 px down, the peak that
    # was 18 mm inside it lies 12 mm outside, and one 48 px lower lies 18 mm inside.
    moved = corners + (0, 30)
    bumped = BoardView(placement, Registration(moved, 0.9, True), board_homography(moved))
    assert ids(off_the_boards([deep, tile(235, 148)], [bumped])) == ids([deep])
    assert off_the_boards([], [aligned]) == [] and ids(off_the_boards([deep], [])) == ids([deep])
