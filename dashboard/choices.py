"""What a person may say lies in a zone tapped on the page: only what the rules allow there
(:func:`azulcam.follow.check_overrule` decides), each in words."""

from __future__ import annotations

from typing import Any

from ..calibration.layouts import expected_slots, load_layout
from ..engine.games import find_game
from ..engine.observe import empty_content, expected
from ..engine.record import Game, Record
from ..follow import Refused, check_overrule, is_loose
from ..i18n import LANGUAGES, messages, places
from ..i18n.words import tile_words

#: The most tiles a zone of loose tiles may be said to hold: a display's four, or any count of
#: each kind in the centre or beside a board.
DISPLAY_TILES, LOOSE_TILES = 4, 20


def zone_choices(game: Game, zone: str) -> dict[str, Any]:
    """The zone's name in words, what the game has there, and what it may hold: a slot's kinds
    (None: empty), or the kinds of loose tiles a display, the centre or a hand may hold, with the
    most tiles there. Raises :class:`Refused` (``follow.bad_zone``) for a zone the game has not."""
    state = game.state
    loose = is_loose(zone)
    kinds = [k for k in state.spec.tiles if not (loose and zone.startswith("factories.") and k == "first_player")]
    candidates: list[Any] = [[k] for k in kinds] if loose else [None] + kinds
    allowed = []
    zones = expected(state)
    for content in candidates:
        try:
            check_overrule(zone, content, state)
        except Refused:
            continue
        if loose or content is None or _fits(state, zones, zone, content):
            allowed.append(content[0] if loose else content)
    if not allowed:
        raise Refused("follow.bad_zone", zone=zone, content="")
    now = expected(state).get(zone, empty_content(zone))
    return {"zone": zone, "place": zone_words(game.record, zone), "loose": loose,
            "most": (DISPLAY_TILES if zone.startswith("factories.") else LOOSE_TILES) if loose else 1,
            "now": list(now) if isinstance(now, tuple) else now,
            "choices": [{"content": c, "text": {lang: kind_words(lang, state.game, c) for lang in LANGUAGES}} for c in allowed]}


def _fits(state: Any, zones: dict[str, Any], zone: str, kind: str) -> bool:
    """Whether ``kind`` may lie on the board space ``zone`` beside what the game has round it: on
    a pattern line (a wall board's), the colour its other tiles have (or a joker), else one its
    wall row lacks; on a space printed in a colour (a coloured Summer Pavilion star), that colour.
    A space off the boards (Summer Pavilion's supply) holds any tile the rules let lie there."""
    if not zone.startswith("boards."):
        return True
    _, player, slot = zone.split(".", 2)
    parts = slot.split(".")
    spec = state.spec
    if spec.board == "wall" and parts[0] == "line":
        row, space = int(parts[1]), int(parts[2])
        others = {zones.get(f"boards.{player}.line.{row}.{i}") for i in range(row + 1) if i != space} - {None, "joker"}
        if others:
            return kind in others or kind == "joker"
        return kind not in {zones.get(f"boards.{player}.wall.{row}.{c}") for c in range(5)}
    printed = load_layout(spec.layout(state.options))[slot].printed
    return printed is None or kind == printed


def zone_words(record: Record, zone: str) -> dict[str, str]:
    """``{lang: words}`` of an observation zone of ``record``'s game (``Player 2, wall row 4, column 3``)."""
    table = places.Table.of(record.game, record.options, record.players)
    return {lang: table.place(messages(lang), zone) for lang in LANGUAGES}


def kind_words(lang: str, game: str, kind: str | None) -> str:
    """A zone's content in words: ``a blue tile``, ``the first-player marker``, ``empty``."""
    m = messages(lang)
    return m.text("dash.empty") if kind is None else tile_words(m, game, kind)


def zones_of(record: Record) -> list[str]:
    """Every zone of ``record``'s game a page draws: each board's spaces (a wall's first, then the
    rest in the layout's order; every face of a board has the same) and the tiles held beside it,
    the displays, the centre (and the supply)."""
    spec = find_game(record.game)
    slots = sorted(expected_slots(spec.layouts[0]), key=lambda slot: not slot.startswith("wall."))
    slots += ["hand"] if spec.holds_tiles else []
    players = record.player_count
    return ([f"boards.{p}.{slot}" for p in range(players) for slot in slots]
            + [f"factories.{i}" for i in range(spec.factories[players])] + ["center"]
            + [f"supply.{i}" for i in range(spec.supply_spaces)])


def places_of(record: Record, lang: str) -> dict[str, str]:
    """Every zone of ``record``'s game (:func:`zones_of`) in the words of ``lang``: a page's tooltips."""
    table, m = places.Table.of(record.game, record.options, record.players), messages(lang)
    return {zone: table.place(m, zone) for zone in zones_of(record)}
