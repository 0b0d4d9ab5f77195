"""How right a reading is: an observation compared with a rendered scene's truth.

Zones the truth lists as hidden (out of frame, under a hand or clutter) are not scored: no
reader can see them. The figures are those the vision issue names: per-slot error, factories
exactly right, whole observations exactly right.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..calibration.layouts import load_layout
from ..calibration.profile import Profile
from ..engine.zones import DISPLAY, STAR_SPACE, Zone

#: Where a display is seen that the truth has not: no zone of the table.
EXTRA_DISPLAY = "factories.extra"


@dataclass(frozen=True)
class Mistake:
    """One zone read wrong, with what the truth holds there and what was read: a slot's kind (None:
    empty); a display's tiles, sorted (None: the display not found, or, for :data:`EXTRA_DISPLAY`,
    not there); the centre's or a hand's counts."""

    zone: Zone | str
    wanted: Any
    read: Any

    def __str__(self) -> str:
        return f"{self.zone}: {self.wanted} -> {self.read}"


@dataclass
class Score:
    """Counts over one or more images."""

    slots: int = 0
    slot_errors: int = 0
    #: Slots the observation lists in ``uncertain``, and slots read wrong that it does not.
    unsure_slots: int = 0
    sure_slot_errors: int = 0
    factories: int = 0
    factories_right: int = 0
    factories_missed: int = 0
    #: Centres in view, and those whose every count is right.
    centres: int = 0
    centres_right: int = 0
    images: int = 0
    images_right: int = 0
    #: Azul score markers in view, and those read on their cell.
    markers: int = 0
    markers_right: int = 0
    mistakes: list[Mistake] = field(default_factory=list)

    @property
    def errors(self) -> Counter[str]:
        """Where the mistakes were, by zone kind (``star``, ``wall``, ``hand``, ``factories``, ...)."""
        return Counter(_zone_kind(m.zone) for m in self.mistakes)

    def add(self, other: "Score") -> None:
        for name in ("slots", "slot_errors", "unsure_slots", "sure_slot_errors", "factories", "factories_right", "factories_missed", "centres", "centres_right", "images", "images_right", "markers", "markers_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.mistakes += other.mistakes

    def figures(self) -> dict[str, float]:
        return {
            "slot_error_rate": self.slot_errors / max(self.slots, 1),
            "unsure_slots": self.unsure_slots / max(self.slots, 1),
            "sure_slots_right": 1 - self.sure_slot_errors / max(self.slots - self.unsure_slots, 1),
            "factories_exact": self.factories_right / max(self.factories, 1),
            "centres_exact": self.centres_right / max(self.centres, 1),
            "observations_exact": self.images_right / max(self.images, 1),
            "markers_right": self.markers_right / max(self.markers, 1),
        }


def _zone_kind(zone: Zone | str) -> str:
    if not isinstance(zone, Zone):  # EXTRA_DISPLAY
        return "factories"
    if zone.slot is not None:
        return "star" if zone.slot.kind == STAR_SPACE else zone.slot.kind
    return "factories" if zone.kind == DISPLAY else zone.kind


def compare(seen: dict[str, Any], truth: dict[str, Any]) -> Score:
    """Score one observation against one scene truth (``azulcam-scene/1``)."""
    want = truth["observation"]
    hidden = {h["zone"] for h in truth["hidden"]}
    unsure = set(seen.get("uncertain", ()))
    score = Score(images=1)
    wrong: list[Mistake] = []
    # Board slots (every slot of every layout, empty ones included) and the supply.
    for placement in truth["profile"]["boards"]:
        p = placement["player"]
        want_slots = want["boards"][p]["slots"]
        got_board = next((b for b in seen["boards"] if b["player"] == p), {"slots": {}, "hand": {}})
        for slot_id in load_layout(placement["layout"]).ids:
            zone = Zone.board(p, slot_id)
            if zone in hidden:
                continue
            score.slots += 1
            score.unsure_slots += zone in unsure
            wanted, read = want_slots.get(slot_id), got_board["slots"].get(slot_id)
            if wanted != read:
                score.slot_errors += 1
                score.sure_slot_errors += zone not in unsure
                wrong.append(Mistake(zone, wanted, read))
        if "score" in want["boards"][p] and Zone.score(p) not in hidden:
            score.markers += 1
            if got_board.get("score") == want["boards"][p]["score"]:
                score.markers_right += 1
            else:
                wrong.append(Mistake(Zone.score(p), want["boards"][p]["score"], got_board.get("score")))
        if Zone.hand(p) not in hidden and want["boards"][p]["hand"] != got_board.get("hand", {}):
            wrong.append(Mistake(Zone.hand(p), want["boards"][p]["hand"], got_board.get("hand", {})))
    if want["supply"] is not None:
        seen_supply = seen.get("supply") or [None] * len(want["supply"])
        for i, kind in enumerate(want["supply"]):
            zone = Zone.supply(i)
            if zone in hidden:
                continue
            score.slots += 1
            score.unsure_slots += zone in unsure
            if seen_supply[i] != kind:
                score.slot_errors += 1
                score.sure_slot_errors += zone not in unsure
                wrong.append(Mistake(zone, kind, seen_supply[i]))
    # Factories: each true display matched with the nearest one seen (within its size).
    seen_factories = list(seen["factories"])
    reach = 1.5 * float(truth["camera"].get("tile_px", 20))  # about a display's radius
    for i, f in enumerate(want["factories"]):
        zone = Zone.display(i)
        near = sorted(seen_factories, key=lambda g: (g["center"][0] - f["center"][0]) ** 2 + (g["center"][1] - f["center"][1]) ** 2)
        match = near[0] if near and _distance(near[0]["center"], f["center"]) < reach else None
        if zone in hidden:
            # A display partly under a hand may be found or not: neither is scored, and one
            # found there is not an extra display.
            if match is not None:
                seen_factories.remove(match)
            continue
        score.factories += 1
        if match is None:
            score.factories_missed += 1
            wrong.append(Mistake(zone, sorted(f["tiles"]), None))
            continue
        seen_factories.remove(match)
        if sorted(match["tiles"]) == sorted(f["tiles"]):
            score.factories_right += 1
        else:
            wrong.append(Mistake(zone, sorted(f["tiles"]), sorted(match["tiles"])))
    wrong += [Mistake(EXTRA_DISPLAY, None, sorted(g["tiles"])) for g in seen_factories]
    if Zone.centre() not in hidden:
        score.centres += 1
        if want["center"] == seen["center"]:
            score.centres_right += 1
        else:
            wrong.append(Mistake(Zone.centre(), want["center"], seen["center"]))
    score.images_right = int(not wrong)
    score.mistakes = wrong
    return score


def _distance(a: list[float], b: list[float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def nudged_profile(profile: dict[str, Any], rng: np.random.Generator, px: float) -> Profile:
    """A scene's true profile with every corner ``px`` pixels off (a normal spread), as clicked
    by hand; the truth is left as it was."""
    data = {**profile, "boards": [dict(b) for b in profile["boards"]]}
    if data["scoring_board"]:
        data["scoring_board"] = dict(data["scoring_board"])
    for b in data["boards"] + ([data["scoring_board"]] if data["scoring_board"] else []):
        b["corners"] = (np.asarray(b["corners"]) + rng.normal(0, px, (4, 2))).tolist()
    return Profile.from_json(data)
