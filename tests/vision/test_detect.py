"""The loose-tile detector: its heat-map targets and their decoding, the shipped network's checks,
and the network at work on the fixture scenes (tiles on the discs, in the centre, beside the boards)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from azulcam.calibration.profile import Profile
from azulcam.engine.zones import Zone
from azulcam.i18n.words import words
from azulcam.vision import detect, locate
from azulcam.vision.analyze import TableLocator
from azulcam.models.samples import scene_views
from azulcam.vision.detect import KINDS, STRIDE, DetectorError, heatmap_targets, load_detector, peaks

SCENES = Path(__file__).resolve().parents[2] / "fixtures" / "scenes"
MODELS = Path(__file__).resolve().parents[2] / "models"


def _fixture_scenes() -> list[tuple[np.ndarray, dict]]:
    out = []
    for path in sorted(SCENES.glob("*/scene-*.json")):
        out.append((cv2.imread(str(path.with_suffix(".jpg"))), json.loads(path.read_text())))
    return out


def _fixture_table() -> tuple:
    """The first fixture scene's image, profile, game, table plane, detector's view and displays."""
    image, truth = _fixture_scenes()[0]
    profile = Profile.from_json(truth["profile"])
    game = truth["observation"]["game"].split("-")[0]
    plane = locate.plane_for(profile)
    view = locate.rectify(image, plane, detect.VIEW_PPM)
    return image, profile, game, plane, view, locate.find_factories(image, profile, game, view)


# --------------------------------------------------------------------------- targets and peaks


def test_targets_decode_back_to_their_tiles():
    # Three touching Azul tiles (10 view pixels apart, as at VIEW_PPM) and one Pavilion rhombus.
    centres = np.array([[40.0, 40.0], [50.0, 40.0], [50.0, 50.0], [90.0, 20.0]])
    kinds = ["azul/red", "azul/red", "azul/white", "pavilion/green"]
    heat, weight = heatmap_targets((100, 120), centres, np.array([KINDS.index(k) for k in kinds]),
                                   np.zeros((0, 2)), [], 10.0)
    assert heat.shape == (len(KINDS), 50, 60) and weight.min() == 1.0
    found = sorted((d.center, d.kind) for d in peaks(heat, "azul"))
    assert [k for _, k in found] == ["red", "red", "white"]
    for (c, _), want in zip(found, sorted(map(tuple, centres[:3]))):
        assert np.allclose(c, want, atol=STRIDE / 2)
    assert [(d.kind, d.confidence) for d in peaks(heat, "pavilion")] == [("green", 1.0)]
    assert {d.kind for d in peaks(heat, None)} == {"azul/red", "azul/white", "pavilion/green"}


def test_boards_and_hidden_tiles_are_not_learned():
    board = np.array([[10.0, 10.0], [60.0, 10.0], [60.0, 40.0], [10.0, 40.0]])
    heat, weight = heatmap_targets((100, 100), np.zeros((0, 2)), np.zeros(0, int), np.array([[80.0, 80.0]]), [board], 10.0)
    assert heat.max() == 0
    assert weight[12, 17] == 0 and weight[40, 40] == 0  # inside the board; on the hidden tile
    assert weight[45, 5] == 1 and weight[5, 45] == 1
    assert 0.15 < 1 - weight.mean() < 0.3


def test_one_tile_s_two_peaks_are_one_tile_once_placed_within_their_cells():
    """Two peaks of one kind three cells apart (MIN_GAP_MM cell to cell), each leaning towards
    the other: once placed within their cells they are closer than MIN_GAP_MM, one tile. Of two
    kinds (the first-player marker on a tile's edge) both stay."""
    assert detect.MIN_GAP_MM * detect.VIEW_PPM / detect.STRIDE == 3
    red, marker = detect.KINDS.index("azul/red"), detect.KINDS.index("azul/first_player")
    for second, count in ((red, 1), (marker, 2)):
        heat = np.zeros((len(detect.KINDS), 20, 30), np.float32)
        heat[red, 10, 10], heat[red, 10, 11] = 0.9, 0.8
        heat[second, 10, 13], heat[second, 10, 12] = 0.5, 0.45
        found = detect.peaks(heat, "azul", 0.3)
        assert len(found) == count and found[0].kind == "red" and found[0].confidence == pytest.approx(0.9)


def test_peaks_on_the_rim_of_summer_pavilion_s_token_are_the_token():
    """An orange peak 12 mm from a start-player token's peak above THRESHOLD (three cells: not
    suppressed cell to cell) is the token's rim; a green one 28 mm away is a tile beside it. Below
    THRESHOLD the marker's peak drops nothing, and Azul's marker (a tile) none either."""
    assert 3 * detect.STRIDE / detect.VIEW_PPM == detect.MIN_GAP_MM < detect.TOKEN_GAP_MM
    token, orange, green = (detect.KINDS.index(k) for k in ("pavilion/first_player", "pavilion/orange", "pavilion/green"))
    for strength, want in ((0.45, ["green", "first_player"]), (0.3, ["green", "orange", "first_player"])):
        heat = np.zeros((len(detect.KINDS), 20, 30), np.float32)
        heat[token, 10, 10], heat[orange, 10, 13], heat[green, 10, 17] = strength, 0.6, 0.7
        assert [d.kind for d in detect.peaks(heat, "pavilion", 0.2)] == want
    heat = np.zeros((len(detect.KINDS), 20, 30), np.float32)
    marker, red = detect.KINDS.index("azul/first_player"), detect.KINDS.index("azul/red")
    heat[marker, 10, 10], heat[red, 10, 13] = 0.45, 0.6
    assert sorted(d.kind for d in detect.peaks(heat, "azul", 0.2)) == ["first_player", "red"]


def test_a_kind_the_options_rule_out_names_no_peak():
    """In an Azul game without jokers a joker's peak is named by the next likeliest kind, or is
    no tile; Summer Pavilion and a game with jokers keep every map."""
    from azulcam.vision.classify import ruled_out

    assert ruled_out("azul", {"jokers": False}) == {"joker"} and ruled_out("azul", {"jokers": True}) == set()
    assert ruled_out("pavilion", {}) == set()
    joker, black = detect.KINDS.index("azul/joker"), detect.KINDS.index("azul/black")
    heat = np.zeros((len(detect.KINDS), 20, 30), np.float32)
    heat[joker, 5, 5], heat[black, 5, 5] = 0.9, 0.5
    heat[joker, 12, 20] = 0.8
    assert [d.kind for d in detect.peaks(heat, "azul")] == ["joker", "joker"]
    cleared = detect.without_kinds(heat, "azul", ruled_out("azul", {}))
    assert [(d.kind, d.confidence) for d in detect.peaks(cleared, "azul")] == [("black", pytest.approx(0.5))]
    assert heat[joker].max() == pytest.approx(0.9)  # the maps given are not changed
    assert detect.without_kinds(heat, "pavilion", ruled_out("pavilion", {})) is heat


def test_a_table_read_as_a_game_without_jokers_shows_none():
    """A fixture table with a joker on a display, read with a profile that says the game has no
    jokers: nothing anywhere is read as a joker; read as it is, the joker is seen."""
    from azulcam.vision.analyze import assemble, read
    from azulcam.vision.classify import default_classifier

    image, truth = next((image, truth) for image, truth in _fixture_scenes()
                        if any(i["kind"] == "joker" and i["zone"].startswith("factories.") for i in truth["items"]))
    kinds = {}
    for jokers in (True, False):
        profile = Profile.from_json({**truth["profile"], "options": {**truth["profile"]["options"], "jokers": jokers}})
        seen = assemble(read(image, profile, default_classifier(), TableLocator(load_detector())))
        kinds[jokers] = Counter(k for f in seen["factories"] for k in f["tiles"]) + Counter(seen["center"]) + Counter(
            k for b in seen["boards"] for k in b["slots"].values())
    assert kinds[True]["joker"] > 0 and kinds[False]["joker"] == 0


def test_peaks_refuses_an_unknown_game():
    with pytest.raises(ValueError, match="unknown game"):
        peaks(np.zeros((len(KINDS), 4, 4), np.float32), "chess")


def _loose_count(truth: dict) -> int:
    return sum(1 for i in truth["items"] if not i["zone"].startswith(("boards.", "supply.")) or i["zone"].endswith(".hand"))


def test_scene_targets_hold_every_visible_tile_off_the_boards():
    image, truth = max(_fixture_scenes(), key=lambda scene: _loose_count(scene[1]))
    view, heat, weight = scene_views(image, truth)
    hidden = {h["zone"] for h in truth["hidden"]}
    want = Counter(f"{truth['observation']['game']}/{i['kind']}" for i in truth["items"]
                   if (i["zone"].startswith("factories.") or i["zone"] == "center" or i["zone"].endswith(".hand"))
                   and i["zone"] not in hidden)
    got = Counter(d.kind for d in peaks(heat, None))
    assert sum(want.values()) > 5 and got == want
    assert (view.shape[0] + STRIDE - 1) // STRIDE == heat.shape[1]


# --------------------------------------------------------------------------- the shipped model


def test_the_shipped_detector_loads_and_altered_copies_are_refused(tmp_path):
    found = load_detector()
    assert found.metadata["view_ppm"] == str(detect.VIEW_PPM) and json.loads(found.metadata["kinds"]) == list(KINDS)
    for name in ("detector.onnx", "detector.onnx.sha256"):
        shutil.copy(MODELS / name, tmp_path / name)
    copy = tmp_path / "detector.onnx"
    assert load_detector(copy).sha256 == found.sha256
    copy.write_bytes(copy.read_bytes()[:-1] + b"\0")
    with pytest.raises(DetectorError) as info:
        load_detector(copy)
    assert info.value.code == "model.altered" and info.value.params["actual"] != found.sha256
    assert words(info.value).startswith(f"detector model SHA-256 mismatch for {copy}: expected {found.sha256}, got ")
    (tmp_path / "detector.onnx.sha256").unlink()
    with pytest.raises(DetectorError) as info:
        load_detector(copy)
    assert info.value.code == "model.no_digest"
    with pytest.raises(DetectorError) as info:
        load_detector(tmp_path / "nothing.onnx")
    assert info.value.code == "model.missing" and info.value.params["path"] == str(tmp_path / "nothing.onnx")


def test_the_detector_reads_only_views_at_its_scale():
    image, truth = _fixture_scenes()[0]
    profile = Profile.from_json(truth["profile"])
    plane = locate.plane_for(profile)
    with pytest.raises(ValueError, match="px/mm"):
        detect.loose_tiles(load_detector(), locate.rectify(image, plane, 1.0), plane, "azul", [])


def test_loose_tiles_of_the_fixture_scenes_are_found_and_named():
    """Every fixture scene: the tiles in the centre and beside each board counted by kind as the
    truth has them (zones the truth calls hidden are not scored); the displays' four places are
    proposed beside the detector's peaks on them."""
    table = TableLocator(load_detector())
    zones = right = 0
    wrong = []
    for image, truth in _fixture_scenes():
        discs, loose, _ = table(image, Profile.from_json(truth["profile"]))
        # Each display's four proposed places (for the classifier), and the detector's own peaks
        # on it (a second reading, settled in analyze.settled_displays).
        assert len([x for x in loose if x.zone.startswith("factories.") and x.kind is None]) % 4 == 0
        hidden = {h["zone"] for h in truth["hidden"]}
        got: dict[str, Counter] = {}
        for x in loose:
            got.setdefault(x.zone, Counter())[x.kind] += 1
        want: dict[str, Counter] = {}
        for i in truth["items"]:
            if i["zone"] == "center" or i["zone"].endswith(".hand"):
                want.setdefault(i["zone"], Counter())[i["kind"]] += 1
        for zone in (set(want) | set(got)) - hidden:
            if zone.startswith("factories."):
                continue
            zones += 1
            if want.get(zone, Counter()) == got.get(zone, Counter()):
                right += 1
            else:
                wrong.append((zone, dict(want.get(zone, {})), dict(got.get(zone, {}))))
    assert zones > 25
    assert right >= 0.75 * zones, (right, zones, wrong)  # 24 of 30 with the shipped model


def test_without_its_model_the_reader_falls_back_to_the_classic_locator_and_says_so(tmp_path, monkeypatch):
    from azulcam.vision import analyze
    from azulcam.vision.classify import default_classifier

    monkeypatch.setattr(detect, "package_file", lambda name: tmp_path / name)
    analyze.default_locator.cache_clear()
    try:
        table, note = analyze.default_locator()
        assert table.detector is None and note.code == "warning.classic_locator" and note.params["reason"].code == "model.missing"
        assert words(note).startswith("the tile detector could not be loaded (detector model missing or unreadable: ")
        assert "(le modèle de détection est absent ou illisible : " in words(note, "fr")  # the reason in the reader's language
        image, truth = _fixture_scenes()[0]
        seen = analyze.analyze(image, Profile.from_json(truth["profile"]), default_classifier())
        assert any(w["code"] == "warning.classic_locator" and "classic locator" in w["text"] for w in seen["warnings"])
        assert seen["factories"] and seen["boards"]
    finally:
        analyze.default_locator.cache_clear()


def test_the_locator_works_beside_the_slots_and_its_errors_reach_the_caller():
    """``analyze.read`` runs the locator in a second thread while it reads the slots: the slots'
    answers are those of a reading without a locator, and a locator's error is raised as is. The
    confidences are compared to 1e-4: two readings of one photo are not bitwise alike (a board's
    refined corners moved by 1.3e-4 px between reads in one process, with OpenCV and OpenBLAS on
    one thread too), and that moves a confidence by a few millionths."""
    from azulcam.vision import analyze
    from azulcam.vision.classify import default_classifier

    classifier = default_classifier()
    image, truth = _fixture_scenes()[0]
    profile = Profile.from_json(truth["profile"])
    alone = analyze.read(image, profile, classifier)
    both = analyze.read(image, profile, classifier, TableLocator(load_detector()))
    assert both.slots == alone.slots
    assert [k for k, _ in both.slot_kinds] == [k for k, _ in alone.slot_kinds]
    assert [c for _, c in both.slot_kinds] == pytest.approx([c for _, c in alone.slot_kinds], rel=1e-4)
    assert both.loose and len(both.loose_kinds) == len(both.loose) and not alone.loose_kinds
    assert {"register", "classify", "locate", "loose tiles"} <= both.spent.keys()
    assert "decode" in both.spent

    def broken(image, profile):
        raise ValueError("the locator broke")

    with pytest.raises(ValueError, match="the locator broke"):
        analyze.read(image, profile, classifier, broken)


def test_the_locator_starts_before_the_boards_are_registered(monkeypatch):
    """The locator's thread is the longer of the two: it starts before the boards' registration,
    so that the registration runs beside it too."""
    import threading

    from azulcam.vision import analyze
    from azulcam.vision.classify import default_classifier

    started = threading.Event()
    seen_at_registration = []
    register = analyze.register_boards

    def registering(image, grey, profile, *more):
        seen_at_registration.append(started.wait(timeout=5))
        return register(image, grey, profile, *more)

    def locator(image, profile):
        started.set()
        return [], [], []

    monkeypatch.setattr(analyze, "register_boards", registering)
    image, truth = _fixture_scenes()[0]
    analyze.read(image, Profile.from_json(truth["profile"]), default_classifier(), locator)
    assert seen_at_registration == [True]


def test_the_locator_runs_its_network_before_the_display_search(monkeypatch):
    """The detector's network, which runs without Python's lock, goes first, beside the boards'
    registration; the display search, which holds that lock most, comes after it. The reading is
    the same as with the heat maps made inside ``loose_tiles``."""
    image, truth = _fixture_scenes()[0]
    profile = Profile.from_json(truth["profile"])
    locator = TableLocator(load_detector(), None)
    first = locator(image, profile)
    calls = []
    heatmaps, find_factories = locator.detector.heatmaps, locate.find_factories
    monkeypatch.setattr(locator.detector, "heatmaps", lambda view: calls.append("network") or heatmaps(view))
    monkeypatch.setattr(locate, "find_factories", lambda *a: calls.append("displays") or find_factories(*a))
    again = locator(image, profile)
    assert calls == ["network", "displays"]
    monkeypatch.setattr(detect, "player_heatmaps", lambda *a: None)  # made inside loose_tiles, as before
    calls.clear()
    late = locator(image, profile)
    assert calls == ["displays", "network"]

    def plain(located):
        factories, loose, warnings = located
        return factories, [(x.zone, x.kind, x.confidence, x.outline.tolist()) for x in loose], warnings

    assert plain(first) == plain(again) == plain(late)


def test_peaks_on_the_boards_take_no_zone(monkeypatch):
    """Most of an Azul table's peaks lie on the boards (tiles and the wall's printed ones) and are
    dropped: they are not zoned first, and cannot count among a display's four."""
    from azulcam.vision.detect import CANDIDATE_FLOOR, loose_tiles

    image, profile, game, plane, view, discs = _fixture_table()
    zoned, zones_of = [], locate.zones_of
    monkeypatch.setattr(locate, "zones_of", lambda points, *a: zoned.append(points) or zones_of(points, *a))
    detector = load_detector()
    loose_tiles(detector, view, plane, game, discs, floor=CANDIDATE_FLOOR)
    window = view.around_players(plane, STRIDE)
    every = window.to_mm(np.array([d.center for d in detect.with_proposed_marker(
        detect.player_heatmaps(detector, view, plane), game, CANDIDATE_FLOOR)], np.float64))
    on_board = detect.on_the_boards(every, plane)
    assert on_board.sum() >= 5  # the scene has peaks on its boards
    zoned = np.unique(np.vstack(zoned), axis=0)  # (a weak fifth peak on a display is zoned again with its four)
    assert len(zoned) == (~on_board).sum()
    assert not any(np.isclose(zoned, p).all(axis=1).any() for p in every[on_board])


def test_a_reading_runs_numpy_s_blas_on_one_thread():
    """BLAS's own threads spin beside the pipeline's two: a reading caps them at one, whatever
    the process had (restored after the test)."""
    from threadpoolctl import threadpool_info, threadpool_limits

    from azulcam.vision import analyze
    from azulcam.vision.classify import default_classifier

    image, truth = _fixture_scenes()[0]
    with threadpool_limits(2, user_api="blas"):
        blas = [i for i in threadpool_info() if i["user_api"] == "blas"]
        assert blas and all(i["num_threads"] == 2 for i in blas)
        analyze.read(image, Profile.from_json(truth["profile"]), default_classifier())
        assert all(i["num_threads"] == 1 for i in threadpool_info() if i["user_api"] == "blas")


def test_with_no_marker_found_its_strongest_weak_peak_is_proposed():
    from azulcam.vision.detect import MARKER_FLOOR, THRESHOLD, with_proposed_marker

    centres = np.array([[40.0, 40.0], [80.0, 40.0], [40.0, 80.0]])
    kinds = [KINDS.index(k) for k in ("azul/red", "azul/first_player", "azul/first_player")]
    heat, _ = heatmap_targets((100, 100), centres, np.array(kinds), np.zeros((0, 2)), [], 10.0)
    heat[KINDS.index("azul/first_player")] *= 0.3  # both markers below the threshold...
    heat[KINDS.index("azul/first_player"), 40, 20] = 0.25  # ...the one at (80, 40) the stronger
    assert MARKER_FLOOR < 0.25 < 0.3 < THRESHOLD
    found = with_proposed_marker(heat, "azul")
    assert [(d.kind, round(d.confidence, 2)) for d in found] == [("red", 1.0), ("first_player", 0.3)]
    assert np.allclose(found[1].center, (80.0, 40.0), atol=STRIDE)
    # A marker found at the threshold: nothing is proposed.
    heat[KINDS.index("azul/first_player"), 20, 40] = 0.9
    assert [d.kind for d in with_proposed_marker(heat, "azul")] == ["red", "first_player"]


def test_a_display_the_disc_search_missed_is_read_where_its_four_tiles_are(monkeypatch):
    """A display whose rim the disc search misses (its tiles hide it) leaves a gap in the ring;
    where the detector finds four tiles in that gap, the display is there and they are its. An
    empty display missed so stays unseen, with a warning."""
    table = TableLocator(load_detector())
    for image, truth in _fixture_scenes():  # the first with every display seen, full and empty ones
        profile = Profile.from_json(truth["profile"])
        factories, loose, warnings = table(image, profile)
        full = [n for n in range(len(factories)) if sum(1 for x in loose if x.zone == f"factories.{n}" and x.kind) == 4]
        empty = [n for n in range(len(factories)) if not any(x.zone == f"factories.{n}" for x in loose)]
        if not warnings and full and empty:
            break
    else:
        pytest.fail("no fixture scene with every display seen, full and empty ones")
    found = locate.find_factories

    for gone in (full[0], empty[0]):
        monkeypatch.setattr(locate, "find_factories",
                            lambda *args, gone=gone: [d for n, d in enumerate(found(*args)) if n != gone])
        again, loose_again, warned = table(image, profile)
        if gone == full[0]:
            assert len(again) == len(factories) and not warned
            # The display comes last, near where it was found, with the detector's four tiles.
            assert np.linalg.norm(np.subtract(again[-1], factories[gone])) < 15
            mine = sorted(x.kind for x in loose_again if x.zone == f"factories.{len(again) - 1}")
            theirs = sorted(x.kind for x in loose if x.zone == f"factories.{gone}" and x.kind)
            assert mine == theirs
        else:
            assert len(again) == len(factories) - 1 and len(warned) == 1 and warned[0].code == "warning.display_unseen"


def test_a_few_peaks_on_a_display_with_a_covered_rim_are_not_read(monkeypatch):
    """One to three peaks on a display with a side of its rim covered (a hand over it) are some of
    its tiles, the others hidden: they are not read (nor taken for the centre's); on a display
    seen all round, they stay for ``settled_displays`` to settle."""
    from dataclasses import replace

    table = TableLocator(load_detector())
    for image, truth in _fixture_scenes():
        profile = Profile.from_json(truth["profile"])
        factories, loose, _ = table(image, profile)
        full = [n for n in range(len(factories)) if sum(1 for x in loose if x.zone == f"factories.{n}" and x.kind) == 4]
        if full:
            break
    else:
        pytest.fail("no fixture scene with a display of four tiles")
    zone = f"factories.{full[0]}"
    found, confirmed = locate.find_factories, detect.confirmed

    def two_hidden(*args):  # two of its four tiles under a hand
        out = confirmed(*args)
        return [f for f in out if f.zone != zone] + [f for f in out if f.zone == zone][:2]

    monkeypatch.setattr(detect, "confirmed", two_hidden)
    for rim, kept in ((1.0, 2), (locate.FULL_RIM - 0.1, 0)):
        monkeypatch.setattr(locate, "find_factories", lambda *args, rim=rim: [
            replace(d, rim=rim) if n == full[0] else d for n, d in enumerate(found(*args))])
        _, loose_again, _ = table(image, profile)
        assert sum(1 for x in loose_again if x.zone == zone and x.kind) == kept
        assert sum(1 for x in loose_again if x.zone == zone and x.kind is None) == 4  # its places stay


# --------------------------------------------------------------------------- the candidate model


def test_with_a_floor_the_peaks_below_the_threshold_follow_as_candidates():
    from azulcam.vision.detect import CANDIDATE_FLOOR, THRESHOLD, with_proposed_marker

    centres = np.array([[40.0, 40.0], [80.0, 40.0], [40.0, 80.0], [80.0, 80.0]])
    kinds = [KINDS.index(k) for k in ("azul/red", "azul/black", "azul/first_player", "azul/blue")]
    heat, _ = heatmap_targets((100, 100), centres, np.array(kinds), np.zeros((0, 2)), [], 10.0)
    heat[KINDS.index("azul/black")] *= 0.3  # a candidate
    heat[KINDS.index("azul/first_player")] *= 0.3  # the marker, proposed
    heat[KINDS.index("azul/blue")] *= 0.1  # below the floor
    assert CANDIDATE_FLOOR < 0.3 < THRESHOLD and 0.1 < CANDIDATE_FLOOR
    assert [d.kind for d in with_proposed_marker(heat, "azul")] == ["red", "first_player"]
    # With a floor, every peak down to it is a candidate, the marker's among them (in peak order).
    found = with_proposed_marker(heat, "azul", CANDIDATE_FLOOR)
    assert sorted((d.kind, round(d.confidence, 2)) for d in found) == [("black", 0.3), ("first_player", 0.3), ("red", 1.0)]
    heat[KINDS.index("azul/first_player"), 10, 10] = 0.5  # a marker above the threshold: the weak one still follows
    found = with_proposed_marker(heat, "azul", CANDIDATE_FLOOR)
    assert sorted((d.kind, round(d.confidence, 2)) for d in found) == [
        ("black", 0.3), ("first_player", 0.3), ("first_player", 0.5), ("red", 1.0)]


class _Answers:
    """A stand-in candidate model: the same answer for every patch, and the patches it was given."""

    def __init__(self, answer):
        self.answer, self.seen = answer, []

    def classify_presence(self, patches, game, without=()):
        self.seen.append(patches.shape)
        return [self.answer] * len(patches)


def _found(zone: str, kind: str, confidence: float) -> detect.Found:
    return detect.Found(Zone.parse(zone), kind, confidence,
                        np.array([[100.0, 100], [120, 100], [120, 120], [100, 120]]))


def test_the_candidate_model_settles_the_peaks_the_detector_is_unsure_of():
    from azulcam.vision.detect import SURE, THRESHOLD, confirmed

    image = np.full((300, 300, 3), 90, np.uint8)
    low, mid = THRESHOLD - 0.1, (THRESHOLD + SURE) / 2
    found = [_found("center", "red", 0.9), _found("center", "black", low), _found("boards.1.hand", "blue", mid),
             _found("center", "first_player", low), _found("boards.0.hand", "first_player", mid),
             _found("factories.0", "red", low), _found("factories.1", "red", mid),
             _found("factories.2", "first_player", low)]
    # No model: the candidates below the threshold go (but the proposed marker), the rest stay as found.
    assert [f.kind for f in confirmed(found, image, "azul", None)] == ["red", "blue", "first_player", "first_player",
                                                                       "red", "first_player"]
    # A tile: the candidate stands, and the model's kind with it. Every tile in the centre and
    # beside the boards but the marker above the threshold was asked, however sure the detector,
    # each with its context, and is marked checked, keeping the detector's confidence; so was a
    # weak peak of a tile on a display (``analyze.settled_displays`` lets it only fill a place);
    # a weak marker peak on a display goes.
    model = _Answers(("yellow", 0.55))
    kept = confirmed(found, image, "azul", model)
    assert [(f.zone, f.kind, f.confidence, f.checked) for f in kept] == [
        ("center", "yellow", 0.9, True), ("center", "yellow", low, True), ("boards.1.hand", "yellow", mid, True),
        ("center", "yellow", low, True), ("boards.0.hand", "first_player", mid, False), ("factories.0", "yellow", low, True),
        ("factories.1", "red", mid, False)]
    assert model.seen == [(5, 32, 32, 3)]
    # The marker read on a tile of a colour: the marker stands (one_marker settles markers), but
    # on a white tile (the marker looks like one); on a weak marker peak, the marker stands; on a
    # weak peak on a display, nothing.
    found[2] = _found("boards.1.hand", "white", mid)
    assert [(f.zone, f.kind) for f in confirmed(found, image, "azul", _Answers(("first_player", 0.99)))] == [
        ("center", "first_player"), ("center", "first_player"), ("boards.1.hand", "white"), ("center", "first_player"),
        ("boards.0.hand", "first_player"), ("factories.1", "red")]
    # No tile: all five go, however unsure the model.
    assert [f.kind for f in confirmed(found, image, "azul", _Answers((None, 0.5)))] == ["first_player", "red"]


class _MarkerAt:
    """A stand-in candidate model that reads the marker on the patches of one batch of its calls
    (by their place in the batch) and no tile on every other patch."""

    def __init__(self, batch: int, places: dict[int, float]):
        self.batch, self.places, self.calls = batch, places, []

    def classify_presence(self, patches, game, without=()):
        self.calls.append(len(patches))
        if len(self.calls) - 1 != self.batch:
            return [(None, 0.9)] * len(patches)
        return [("first_player", self.places[k]) if k in self.places else (None, 0.9) for k in range(len(patches))]


class _Split:
    """A stand-in candidate model whose first call answers a tile (red) on every patch but those
    of ``first`` (by place), and whose later calls are ``model``'s."""

    def __init__(self, model, first: dict[int, tuple]):
        self.model, self.first, self.calls = model, first, 0

    def classify_presence(self, patches, game, without=()):
        self.calls += 1
        answers = self.model.classify_presence(patches, game)
        if self.calls > 1:
            return answers
        return [self.first.get(k, ("red", 0.9)) for k in range(len(patches))]


def test_a_lone_peak_off_the_pavilion_token_is_read_again_around_it():
    from azulcam.vision.detect import MARKER_SEARCH_STEP, confirmed

    image = np.full((300, 300, 3), 90, np.uint8)
    lone, near = _found("center", "orange", 0.3), _found("center", "red", 0.9)
    near.outline[:] += [150, 0]  # a standing tile far from the lone peak
    # The lone peak read as no tile; its second moved patch (step (-1, 0): a side to the left)
    # reads the marker best: it stands there, as the marker, checked.
    model = _MarkerAt(1, {1: 0.8, 5: 0.7})
    kept = confirmed([near, lone], image, "pavilion", _Split(model, {1: (None, 0.9)}))
    assert model.calls == [2, 8]
    assert [(f.zone, f.kind, f.checked) for f in kept] == [("center", "red", True), ("center", "first_player", True)]
    assert np.allclose(kept[1].outline, lone.outline - [MARKER_SEARCH_STEP * 20, 0])
    # Not in Azul (its marker is a tile-sized square, and may lie on a floor line), nor where a
    # marker stands, nor where the peak lies beside a standing tile, nor where no moved patch
    # reads the marker.
    for game, found in (("azul", [near, lone]), ("pavilion", [near, _found("center", "first_player", 0.9), lone])):
        model = _MarkerAt(1, {1: 0.8})
        confirmed(found, image, game, _Split(model, {len(found) - 1: (None, 0.9)}))
        assert model.calls == [len(found) - (game == "pavilion")], game
    beside = _found("center", "red", 0.9)
    beside.outline[:] += [10, 0]
    model = _MarkerAt(1, {1: 0.8})
    assert [f.kind for f in confirmed([beside, lone], image, "pavilion", _Split(model, {1: (None, 0.9)}))] == ["red"]
    assert model.calls == [2]
    assert [f.kind for f in confirmed([near, lone], image, "pavilion", _Split(_MarkerAt(1, {}), {1: (None, 0.9)}))] == [
        "red"]


class _TileAt:
    """A stand-in candidate model that reads no tile on every patch of its first call, and on
    its second reads the tiles ``places`` names (place in the batch -> (kind, confidence))."""

    def __init__(self, places: dict[int, tuple[str, float]]):
        self.places, self.calls = places, []

    def classify_presence(self, patches, game, without=()):
        self.calls.append(len(patches))
        if len(self.calls) == 1:
            return [(None, 0.9)] * len(patches)
        return [self.places.get(k, (None, 0.9)) for k in range(len(patches))]


def test_a_strong_peak_read_as_no_tile_is_read_again_round_it():
    from azulcam.vision.detect import MARKER_SEARCH_STEP, NEARBY_TILE_FLOOR, NEARBY_TILE_SURE, confirmed

    image = np.full((300, 300, 3), 90, np.uint8)
    strong = _found("center", "black", NEARBY_TILE_FLOOR + 0.1)
    # Its fifth moved patch (step (0, 1): a side down) reads black best, its first blue: the
    # black tile stands there, checked, with the peak's confidence (so still uncertain).
    model = _TileAt({0: ("blue", 0.6), 4: ("black", 0.8), 6: ("first_player", 0.95)})
    kept = confirmed([strong], image, "azul", model)
    assert model.calls == [1, 8]
    assert [(f.zone, f.kind, f.confidence, f.checked) for f in kept] == [("center", "black", strong.confidence, True)]
    assert np.allclose(kept[0].outline, strong.outline + [0, MARKER_SEARCH_STEP * 20])
    # Not for a peak the detector rated at the floor or below, nor where the model's best moved
    # reading is below its bar, nor where a standing tile lies beside the moved patch.
    weak = _found("center", "black", NEARBY_TILE_FLOOR)
    model = _TileAt({4: ("black", 0.8)})
    assert confirmed([weak], image, "azul", model) == [] and model.calls == [1]
    assert confirmed([strong], image, "azul", _TileAt({4: ("black", NEARBY_TILE_SURE - 0.01)})) == []
    beside = _found("center", "red", 0.9)
    beside.outline[:] += [0, 20]  # a tile's side below the peak, where the moved patch reads black
    kept = confirmed([beside, strong], image, "azul", _Split(_TileAt({4: ("black", 0.8)}), {1: (None, 0.9)}))
    assert [f.kind for f in kept] == ["red"]


def test_candidate_patches_are_labelled_by_the_tile_under_them():
    from azulcam.models.samples import CLASS_INDEX, candidate_patches

    image, truth = _fixture_scenes()[0]
    rng = np.random.default_rng(0)
    patches = candidate_patches(image, truth, load_detector(), rng, sure_share=1.0)
    game = truth["observation"]["game"]
    assert patches.images.shape[1:] == (32, 32, 3) and len(patches.labels) == len(patches.images)
    # With every sure one kept, the candidates name the centre's and the hands' tiles.
    hidden = {h["zone"] for h in truth["hidden"]}
    want = Counter(CLASS_INDEX[f"{game}/{i['kind']}"] for i in truth["items"]
                   if (i["zone"] == "center" or i["zone"].endswith(".hand")) and i["zone"] not in hidden)
    got = Counter(patches.labels.tolist()) - Counter({0: len(patches.labels)})
    assert sum((want & got).values()) >= 0.9 * sum(want.values()), (want, got)


def test_without_its_candidate_model_the_detector_reads_alone_and_says_so(tmp_path, monkeypatch):
    from azulcam.vision import analyze, shipped

    monkeypatch.setattr(shipped, "package_file", lambda name: tmp_path / name)
    analyze.default_locator.cache_clear()
    try:
        table, note = analyze.default_locator()
        assert table.detector is not None and table.candidates is None
        assert note.code == "warning.no_candidates" and note.params["reason"].code == "model.missing"
        assert note.params["reason"].params["path"] == str(tmp_path / "tiles_candidates.onnx")
        assert words(note).startswith(f"the candidate model could not be loaded (tile model missing or unreadable: {tmp_path}")
    finally:
        analyze.default_locator.cache_clear()


class _HeatAt:
    """A stand-in detector: one peak per (view pixel, kind, height), whatever view it is given."""

    def __init__(self, peaks_px: list[tuple[np.ndarray, str, float]]):
        self.peaks_px = peaks_px

    def heatmaps(self, view):
        heat = np.zeros((len(KINDS), (view.shape[0] + 1) // STRIDE, (view.shape[1] + 1) // STRIDE), np.float32)
        for at, kind, height in self.peaks_px:
            one, _ = heatmap_targets(view.shape[:2], np.array([at]), np.array([KINDS.index(kind)]), np.zeros((0, 2)), [], 10.0)
            heat = np.maximum(heat, height * one)
        return heat


def test_a_weak_peak_beside_a_display_its_four_tiles_hold_is_a_centre_tile():
    """The peaks below the threshold take their zones among themselves, so that a weak one on a
    display cannot push one of its four tiles out into the centre. But where four stronger peaks
    already hold the display, a weak one farther out than they are is a centre tile pushed
    against it (edges 1020000 #8: a black tile beside a display of four, peaking at 0.33)."""
    from azulcam.vision.detect import CANDIDATE_FLOOR, loose_tiles
    from azulcam.calibration.geometry import tile_mm
    from azulcam.engine.games import GAMES

    image, profile, game, plane, view, discs = _fixture_table()
    window = view.around_players(plane, STRIDE)
    disc = discs[0]
    hub = np.mean([d.plane for d in discs], axis=0)
    inwards = (hub - disc.plane) / np.linalg.norm(hub - disc.plane)
    half = 0.5 * tile_mm(GAMES[game])
    four = [disc.plane + half * np.array(s) for s in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    # Where a tile towards the ring's middle lies on the display, but as a fifth is the centre's.
    out = [d for d in np.arange(0.5, 2.0, 0.05) * tile_mm(GAMES[game])
           if locate.zones_of(np.array([disc.plane + d * inwards]), plane, discs, game) == ["factories.0"]
           and locate.zones_of(np.array(four + [disc.plane + d * inwards]), plane, discs, game)[-1] == "center"]
    assert out, "no place on the display where a fifth tile is the centre's"
    pushed = disc.plane + out[len(out) // 2] * inwards

    def zones(strong: list[np.ndarray], weak: np.ndarray) -> list[tuple[str, str]]:
        detector = _HeatAt([(window.to_px(p[None])[0], f"{game}/red", 0.9) for p in strong]
                           + [(window.to_px(weak[None])[0], f"{game}/blue", 0.3)])
        return sorted((f.zone, f.kind) for f in loose_tiles(detector, view, plane, game, discs, floor=CANDIDATE_FLOOR))

    on = "factories.0"
    assert zones(four, pushed) == [("center", "blue")] + [(on, "red")] * 4
    # Beside three, it is the display's fourth tile; nearer its centre than one of four (spread
    # apart here, so that its peak stands), it stays the display's.
    assert zones(four[:3], pushed) == [(on, "blue")] + [(on, "red")] * 3
    spread = [disc.plane + 1.5 * (p - disc.plane) for p in four]
    assert zones(spread, np.asarray(disc.plane, float)) == [(on, "blue")] + [(on, "red")] * 4
