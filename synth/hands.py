"""Who drew a family: the renderer's own art (:mod:`art`, its families and their blends) or a
second hand (:mod:`inked`, code of its own). The renderer asks here for a family's drawing and
light; nothing else needs to know which hand drew it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

import numpy as np

from . import art, inked

#: Families drawn by a second hand, by name: none of them is in :data:`art.FAMILIES`, so no
#: training script draws them.
OTHER_HANDS = {inked.NAME: inked}
#: Every family the renderer draws, by name (blends of :data:`art.FAMILIES` aside).
FAMILY_NAMES: tuple[str, ...] = tuple(art.FAMILIES) + tuple(OTHER_HANDS)


@dataclass(frozen=True)
class Drawing:
    """One family's drawing: its components (``board_art(layout, px_per_mm)``,
    ``factory_sprite(px, game=G)``, ``tile_sprite(game, kind, px)``, ``tile_side_color(game, kind)``,
    ``marker_sprite(px)`` and ``marker_side`` (Azul's score marker), ``table_texture(index)``:
    one function for all of one hand's families, which share its tables), its tables, and its
    light (``None``: the renderer's own)."""

    name: str
    board_art: Callable[[str, float], np.ndarray]
    factory_sprite: Callable[[int, str], np.ndarray]
    tile_sprite: Callable[[str, str, int], tuple[np.ndarray, np.ndarray]]
    tile_side_color: Callable[[str, str], tuple[int, int, int]]
    marker_sprite: Callable[[int], tuple[np.ndarray, np.ndarray]]
    marker_side: tuple[int, int, int]
    table_texture: Callable[[int], np.ndarray]
    tables: tuple[int, ...]
    light: Callable[..., np.ndarray] | None = None


@lru_cache(maxsize=128)
def drawing(name: str) -> Drawing:
    """The drawing of family ``name``; :class:`~.art.RenderError` naming the families for an unknown one."""
    hand: Any = OTHER_HANDS.get(name)
    if hand is not None:
        return Drawing(name, hand.board_art, hand.factory_sprite, hand.tile_sprite, hand.tile_side_color,
                       hand.marker_sprite, hand.MARKER_SIDE, hand.table_texture, hand.TABLES, hand.light)
    try:
        family = art.family(name)
    except art.RenderError:
        raise art.RenderError("render.unknown_family", name=name, families=", ".join(FAMILY_NAMES),
                              blend=art.BLEND_PREFIX) from None
    return Drawing(family.name, partial(art.board_art, family_name=family.name),
                   partial(art.factory_sprite, family_name=family.name),
                   partial(art.tile_sprite, family_name=family.name),
                   partial(art.tile_side_color, family_name=family.name),
                   partial(art.marker_sprite, family_name=family.name), art.MARKER_SIDE, art.table_texture,
                   family.tables)
