"""The figures of bench/vision.py: an observation scored against a scene's truth."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from azulcam.vision.evaluate import Score, compare

SCENES = Path(__file__).resolve().parents[2] / "fixtures" / "scenes"


def _truth() -> dict:
    """A fixture scene where every display can be seen."""
    for path in sorted(SCENES.glob("*/scene-*.json")):
        truth = json.loads(path.read_text())
        if not any(h["zone"].startswith("factories.") for h in truth["hidden"]) and truth["observation"]["center"]:
            return truth
    raise AssertionError("no fixture scene shows every display")


def test_the_truths_own_observation_is_exactly_right():
    truth = _truth()
    score = compare(truth["observation"], truth)
    assert score.images_right == 1 and score.slot_errors == 0 and not score.errors
    assert score.slots > 80 and score.factories == len(truth["observation"]["factories"]) == score.factories_right


def test_each_kind_of_mistake_is_counted_where_it_is():
    truth = _truth()
    seen = copy.deepcopy(truth["observation"])
    board = seen["boards"][0]["slots"]
    slot = next(iter(board))
    del board[slot]  # a tile missed on a slot
    seen["center"] = {**seen["center"], "red": seen["center"].get("red", 0) + 1}
    lost = seen["factories"].pop()  # a display not found
    score = compare(seen, truth)
    assert score.images_right == 0 and score.slot_errors == 1 and score.factories_missed == 1
    assert score.errors["center"] == 1 and score.errors["factories"] == 1
    assert (score.centres, score.centres_right, score.figures()["centres_exact"]) == (1, 0, 0.0)
    # Each mistake says what the truth holds there and what was read.
    lost_at = len(seen["factories"])  # the truth's displays and the observation's are in the same order
    assert [(m.zone, m.wanted, m.read) for m in score.mistakes] == [
        (f"boards.0.{slot}", truth["observation"]["boards"][0]["slots"][slot], None),
        (f"factories.{lost_at}", sorted(lost["tiles"]), None),
        ("center", truth["observation"]["center"], seen["center"])]
    assert str(score.mistakes[0]) == f"boards.0.{slot}: {truth['observation']['boards'][0]['slots'][slot]} -> None"
    seen["factories"] += [lost, {"center": [5.0, 5.0], "tiles": ["red"]}]  # found again, and one that is not there
    again = compare(seen, truth)
    assert again.errors["factories"] == 1  # the extra one
    assert ("factories.extra", None, ["red"]) in [(m.zone, m.wanted, m.read) for m in again.mistakes]
    total = Score()
    total.add(score)
    total.add(again)
    assert total.mistakes == score.mistakes + again.mistakes


def test_a_display_under_a_hand_is_not_scored_found_or_not():
    truth = _truth()
    truth["hidden"] = truth["hidden"] + [{"zone": "factories.0", "by": "hand"}]
    seen = copy.deepcopy(truth["observation"])
    seen["factories"][0]["tiles"] = seen["factories"][0]["tiles"][:1]  # what shows of it
    found = compare(seen, truth)
    assert found.images_right == 1 and found.factories == len(seen["factories"]) - 1
    seen["factories"].pop(0)
    assert compare(seen, truth).images_right == 1


def test_a_slot_read_wrong_counts_against_the_sure_only_where_not_listed_unsure():
    truth = _truth()
    seen = copy.deepcopy(truth["observation"])
    board = seen["boards"][0]["slots"]
    first, second = list(board)[:2]
    del board[first], board[second]  # two tiles missed ...
    seen["uncertain"] = [f"boards.0.{first}", "boards.0.floor.6"]  # ... one of them said unsure, and a slot read right
    score = compare(seen, truth)
    assert score.slot_errors == 2 and score.sure_slot_errors == 1 and score.unsure_slots == 2
    figures = score.figures()
    assert figures["sure_slots_right"] == 1 - 1 / (score.slots - 2)
