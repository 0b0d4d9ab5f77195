"""What a person may say lies in a zone tapped on the page: only what the rules allow there
(:func:`azulcam.follow.check_overrule` decides), each in words."""

from __future__ import annotations

from typing import Any

from ..calibration.layouts import expected_slots, load_layout
from ..engine.games import find_game
from ..engine.observe import empty_content, expected
from ..engine.record import Game, Record
from ..engine.zones import DISPLAY, LINE_SPACE, WALL_SPACE, Slot, Zone, ZoneError
from ..follow import Refused, check_overrule
from ..i18n import LANGUAGES, messages, places
from ..i18n.words import tile_words

#: The most tiles a zone of loose tiles may be said to hold: a display's four, or any count of
#: each kind in the centre or beside a board.
DISPLAY_TILES, LOOSE_TILES = 4, 20


def zone_choices(game: Game, name: str) -> dict[str, Any]:
    """The zone ``name`` (as a request names it) in words, what the game has there, and what it
    may hold: a slot's kinds (None: empty), or the kinds of loose tiles a display, the centre or a
    hand may hold, with the most tiles there. Raises :class:`Refused` (``follow.bad_zone``) for a
    zone the game has not, or a name of no zone."""
    try:
        zone = Zone.parse(name)
    except ZoneError:
        raise Refused("follow.bad_zone", zone=name, content="") from None
    state = game.state
    loose = zone.loose
    kinds = [k for k in state.spec.tiles if not (loose and zone.kind == DISPLAY and k == "first_player")]
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
            "most": (DISPLAY_TILES if zone.kind == DISPLAY else LOOSE_TILES) if loose else 1,
            "now": list(now) if isinstance(now, tuple) else now,
            "choices": [{"content": c, "text": {lang: kind_words(lang, state.game, c) for lang in LANGUAGES}} for c in allowed]}


def _fits(state: Any, zones: dict[Zone, Any], zone: Zone, kind: str) -> bool:
    """Whether ``kind`` may lie on the board space ``zone`` beside what the game has round it: on
    a pattern line (a wall board's), the colour its other tiles have (or a joker), else one its
    wall row lacks; on a space printed in a colour (a coloured Summer Pavilion star), that colour.
    A space off the boards (Summer Pavilion's supply) holds any tile the rules let lie there."""
    slot, player = zone.slot, zone.player
    if slot is None or player is None:
        return True
    spec = state.spec
    if spec.board == "wall" and slot.kind == LINE_SPACE:
        row = slot.row
        others = {zones.get(Zone.board(player, Slot.line(row, i))) for i in range(row + 1) if i != slot.index} - {None, "joker"}
        if others:
            return kind in others or kind == "joker"
        return kind not in {zones.get(Zone.board(player, Slot.wall(row, c))) for c in range(5)}
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


def zones_of(record: Record) -> list[Zone]:
    """Every zone of ``record``'s game a page draws: each board's spaces (a wall's first, then the
    rest in the layout's order; every face of a board has the same) and the tiles held beside it,
    the displays, the centre (and the supply)."""
    spec = find_game(record.game)
    slots = sorted(map(Slot.parse, expected_slots(spec.layouts[0])), key=lambda slot: slot.kind != WALL_SPACE)
    players = record.player_count
    zones = []
    for p in range(players):
        zones += [Zone.board(p, slot) for slot in slots] + ([Zone.hand(p)] if spec.holds_tiles else [])
    return (zones + [Zone.display(i) for i in range(spec.factories[players])] + [Zone.centre()]
            + [Zone.supply(i) for i in range(spec.supply_spaces)])


def places_of(record: Record, lang: str) -> dict[str, str]:
    """Every zone of ``record``'s game (:func:`zones_of`) in the words of ``lang``: a page's tooltips."""
    table, m = places.Table.of(record.game, record.options, record.players), messages(lang)
    return {zone: table.place(m, zone) for zone in zones_of(record)}
