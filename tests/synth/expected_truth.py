"""What a perfect reader must see of an engine state, worked out here from the engines' own
boards (not from the renderer's code), for the renderer's and the video's truth tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from azulcam.engine import pavilion_board as topo
from azulcam.engine.azul import COLORS as AZUL_COLORS, TILE_NAMES

TOTALS = {"azul": 100, "pavilion": 132}


def expected_view(state: Any) -> dict[str, Any]:
    """Factories (sorted multisets), centre counts, per-board slots and hands, supply."""
    factories = sorted(sorted(Counter(f).elements()) for f in state.factories())
    out: dict[str, Any] = {"factories": factories, "center": dict(state.center()), "boards": [], "supply": None}
    if state.game == "azul":
        data = state.to_json()
        for p in range(state.players):
            b = state.board(p)
            slots: dict[str, str] = {}
            for r in range(5):
                line = [AZUL_COLORS[b.line_color[r]]] * b.line_count[r] + ["joker"] * b.line_jokers[r]
                slots.update({f"line.{r}.{i}": t for i, t in enumerate(line)})
                for c in range(5):
                    if b.wall[r * 5 + c] >= 0:
                        slots[f"wall.{r}.{c}"] = TILE_NAMES[b.wall[r * 5 + c]]
            slots.update({f"floor.{i}": TILE_NAMES[t] for i, t in enumerate(b.floor)})
            marker_beside = data["marker"] == p and "first_player" not in slots.values()
            out["boards"].append({"slots": slots, "hand": {"first_player": 1} if marker_beside else {}})
    else:
        token = state.to_json()["token"]
        for p in range(state.players):
            b = state.board(p)
            slots = {topo.SPACE_NAMES[i]: topo.COLORS[c] for i, c in enumerate(b.space) if c >= 0}
            slots.update({f"corner.{i}": topo.COLORS[c] for i, c in enumerate(b.corners)})
            hand = {topo.COLORS[c]: n for c, n in enumerate(b.hand) if n}
            if token == p:
                hand["first_player"] = 1
            out["boards"].append({"slots": slots, "hand": hand})
        out["supply"] = state.supply()
    return out


def seen_view(observation: dict[str, Any]) -> dict[str, Any]:
    """The same view read from an ``azulcam-observation/1``."""
    return {
        "factories": sorted(sorted(f["tiles"]) for f in observation["factories"]),
        "center": observation["center"],
        "boards": [{"slots": b["slots"], "hand": b["hand"]} for b in observation["boards"]],
        "supply": observation["supply"],
    }


def tiles_in_view(observation: dict[str, Any]) -> int:
    n = sum(len(f["tiles"]) for f in observation["factories"])
    n += sum(v for k, v in observation["center"].items() if k != "first_player")
    for b in observation["boards"]:
        n += sum(1 for t in b["slots"].values() if t != "first_player")
        n += sum(v for k, v in b["hand"].items() if k != "first_player")
    n += sum(1 for t in observation["supply"] or [] if t is not None)
    return n
