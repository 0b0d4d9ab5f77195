"""Every worked example of the published Azul rulebook (the French edition) played on the engine.

Positions are real: built with :func:`position` (``AzulState.to_json`` edited, then
``from_json``), with the bag holding exactly the tiles that are nowhere else, or reached by
playing deals and moves. Each test then plays the move the rulebook describes and checks the
exact tiles, points and legal moves. Wall strings use one letter a space: ``B Y R K W`` the
colours, ``J`` a joker, ``x`` the colour printed there (coloured wall), ``.`` empty.
"""

from __future__ import annotations

from typing import Any

import pytest

from azulcam.engine.azul import COLORS, AzulState, Deal, Take, WallMove, wall_color
from azulcam.engine.common import CHANCE, TERMINAL, Moved, color_noun
from azulcam.engine.errors import IllegalMoveError
from azulcam.engine.notice import Notice
from azulcam.i18n.words import words

LETTERS = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white", "J": "joker"}


def position(
    players: int = 2,
    wall: str = "colored",
    jokers: bool = False,
    *,
    boards: list[dict[str, Any]] | None = None,
    factories: list[list[str]] | None = None,
    center: dict[str, int] | None = None,
    marker: str | int = "center",
    to_move: int = 0,
    start_player: int = 0,
    lid: dict[str, int] | None = None,
    phase: str = "offer",
) -> AzulState:
    """A position of the factory offer. ``boards[p]`` may give ``wall`` (5 strings), ``lines``
    (``{row: (colour, count)}`` or ``(colour, count, jokers)``), ``floor`` (tile names) and
    ``score`` (all of it counted as placement points). The bag holds every other tile."""
    data = AzulState.new(players, wall, jokers, start_player).to_json()
    per_color = 20 - ((1 if players == 2 else 2) if jokers else 0)
    left = {c: per_color for c in COLORS}
    left["joker"] = (20 - per_color) * 5

    def use(name: str, n: int = 1) -> None:
        left[name] -= n
        assert left[name] >= 0, f"more {name} than the game has"

    data.update(phase=phase, to_move=to_move, marker=marker, round=2)
    data["factories"] = [list(f) for f in (factories or [])] + [[] for _ in range(len(data["factories"]) - len(factories or []))]
    for f in data["factories"]:
        for name in f:
            use(name)
    data["center"] = dict(center or {})
    data["lid"] = dict(lid or {})
    for pile in (data["center"], data["lid"]):
        for name, n in pile.items():
            use(name, n)
    for p, spec in enumerate(boards or []):
        bd = data["boards"][p]
        bd["score"] = bd["placement"] = spec.get("score", 0)
        for r, row in enumerate(spec.get("wall", ["....."] * 5)):
            for col, ch in enumerate(row):
                if ch == ".":
                    continue
                name = COLORS[wall_color(r, col)] if ch == "x" else LETTERS[ch]
                bd["wall"][r][col] = name
                use(name)
        for r, line in spec.get("lines", {}).items():
            color, count, nj = (line + (0,))[:3]
            bd["lines"][r] = {"color": color, "count": count, "jokers": nj}
            if count:
                use(color, count)
            use("joker", nj)
        bd["floor"] = list(spec.get("floor", []))
        for name in bd["floor"]:
            if name != "first_player":
                use(name)
    data["bag"] = {name: n for name, n in left.items() if n}
    state = AzulState.from_json(data)
    assert sum(state.tile_counts()) == 100
    return state


def check_breakdown(state: AzulState) -> None:
    for part, score in zip(state.breakdown(), state.scores()):
        assert sum(part.values()) == score, (part, score)


def scored(outcome: Any, player: int | None = None) -> list[tuple[int, int, str, str | None]]:
    return [(s.player, s.points, s.reason, s.where) for s in outcome.scored if player is None or s.player == player]


def wall_of(state: AzulState, player: int) -> list[list[str | None]]:
    return state.to_json()["boards"][player]["wall"]


def lines_of(state: AzulState, player: int) -> list[dict[str, Any]]:
    return state.to_json()["boards"][player]["lines"]


def takes_from(state: AzulState, source: int | str, color: str | None = "*") -> set[Take]:
    return {m for m in state.legal_moves() if isinstance(m, Take) and m.source == source and (color == "*" or m.color == color)}


# --------------------------------------------------------------------------- placement scoring

# The last tile of the round completes player 0's pattern line ``row``; player 1 took the
# first-player marker earlier (score 0, so the marker costs nothing).
PLACEMENT_EXAMPLES = {
    # "Poser une tuile rouge rapporte 1 point": no neighbour.
    "lone red tile: 1 point": (2, "red", ["x....", ".....", ".....", ".....", "x...."], 1, "no neighbour"),
    # "poser la tuile jaune rapporte 4 points [...] horizontalement et 3 points [...] verticalement. Total : 7 points."
    "yellow, 4 horizontal + 3 vertical: 7 points": (
        2, "yellow", ["...x.", "...x.", "xxx..", ".....", "....."], 7, "horizontal 4 + vertical 3"),
    # "poser la tuile jaune rapporte 3 points (1 point par tuile liée horizontalement)"
    "yellow, 3 horizontal: 3 points": (
        0, "yellow", ["..xx.", ".....", "x....", ".....", "....."], 3, "horizontal 3 + vertical 0"),
    # "poser la tuile bleue rapporte 3 points pour les tuiles liées verticalement"
    "blue, 3 vertical: 3 points": (2, "blue", ["..x..", "..x..", ".....", "....x", "....."], 3, "horizontal 0 + vertical 3"),
}


@pytest.mark.parametrize("name", sorted(PLACEMENT_EXAMPLES))
def test_placement_scoring(name: str) -> None:
    row, color, wall, points, detail = PLACEMENT_EXAMPLES[name]
    state = position(
        boards=[{"wall": wall, "lines": {row: (color, row)} if row else {}, "score": 10},
                {"floor": ["first_player"]}],
        center={color: 1}, marker=1)
    outcome = state.play(Take("center", color, row))
    col = (COLORS.index(color) + row) % 5
    assert scored(outcome, 0) == [(0, points, "placement", f"wall.{row}.{col}")]
    assert [s.detail for s in outcome.scored if s.player == 0] == [detail]
    assert wall_of(state, 0)[row][col] == color
    assert state.scores() == [10 + points, 0]
    assert outcome.round_over and not outcome.game_over
    assert state.current_player == CHANCE and state.round == 3
    check_breakdown(state)


# --------------------------------------------------------------------------- wall tiling


def test_philippe_wall_tiling() -> None:
    """Philippe's line 2 is complete with 2 reds (1 point), line 3 incomplete, line 4 complete
    with blue (1 point), line 5 incomplete; the rest of lines 2 and 4 go to the lid."""
    philippe = {"lines": {1: ("red", 2), 2: ("black", 1), 3: ("blue", 4), 4: ("yellow", 3)}}
    martin = {"floor": ["first_player"], "score": 5}
    state = position(boards=[philippe, martin], center={"white": 1}, marker=1, to_move=1)
    outcome = state.play(Take("center", "white", 0))  # Martin's take ends the factory offer

    assert scored(outcome) == [
        (0, 1, "placement", "wall.1.3"),
        (0, 1, "placement", "wall.3.3"),
        (1, 1, "placement", "wall.0.4"),
        (1, -1, "penalties", "floor"),
    ]
    wall = wall_of(state, 0)
    assert wall[1][3] == "red" and wall[3][3] == "blue"
    assert sum(name is not None for row in wall for name in row) == 2
    assert lines_of(state, 0) == [
        {"color": None, "count": 0, "jokers": 0},
        {"color": None, "count": 0, "jokers": 0},
        {"color": "black", "count": 1, "jokers": 0},  # incomplete: stays for the next round
        {"color": None, "count": 0, "jokers": 0},
        {"color": "yellow", "count": 3, "jokers": 0},  # incomplete: stays
    ]
    assert state.to_json()["lid"] == {"blue": 3, "red": 1}
    assert state.scores() == [2, 5]
    # The marker goes back to its owner, who starts the next round.
    assert state.current_player == CHANCE and state.start_player == 1
    assert state.center() == {"first_player": 1}
    assert state.to_json()["boards"][1]["floor"] == []
    check_breakdown(state)


def test_philippe_floor_line_four_tiles_and_marker_lose_eight() -> None:
    """Philippe has 4 tiles and the first-player marker on his floor line: -8."""
    state = position(boards=[{"floor": ["black", "black"], "score": 20}, {}],
                     center={"red": 3}, start_player=1, to_move=0)
    outcome = state.play(Take("center", "red", 0))  # 1 on line 0, 2 overflow; he takes the marker too
    # (the marker lands on the leftmost free space, before the overflow)
    assert [e for e in outcome.events if isinstance(e, Moved) and e.target == "boards.0.floor"] == [
        Moved((("first_player", 1),), "center", "boards.0.floor"),
        Moved((("red", 2),), "center", "boards.0.floor"),
    ]
    assert scored(outcome) == [(0, 1, "placement", "wall.0.2"), (0, -8, "penalties", "floor")]
    assert state.scores() == [13, 0]
    assert state.breakdown()[0] == {"placement": 21, "penalties": -8, "rows": 0, "columns": 0, "colors": 0}
    assert state.to_json()["lid"] == {"red": 2, "black": 2}  # floor tiles to the lid, the marker to Philippe
    assert state.start_player == 0
    check_breakdown(state)


def test_score_never_drops_below_zero() -> None:
    state = position(boards=[{"floor": ["black", "black"], "score": 3}, {}], center={"red": 3}, start_player=1)
    outcome = state.play(Take("center", "red", 0))
    assert scored(outcome) == [(0, 1, "placement", "wall.0.2"), (0, -4, "penalties", "floor")]
    assert state.scores() == [0, 0]
    assert state.breakdown()[0]["penalties"] == -4
    check_breakdown(state)


def test_full_floor_line_sends_extra_tiles_to_the_lid() -> None:
    state = position(boards=[{"floor": ["blue"] * 6}, {}], factories=[["red", "red", "red", "black"]])
    state.play(Take(0, "red", "floor"))
    assert state.to_json()["boards"][0]["floor"] == ["blue"] * 6 + ["red"]
    assert state.to_json()["lid"] == {"red": 2}
    assert state.center() == {"black": 1, "first_player": 1}


# --------------------------------------------------------------------------- factory offer


def test_factory_offer_example() -> None:
    """Philippe takes 2 blacks (the rest to the centre), Martin a yellow (3 reds to the centre),
    Mathilde the 3 reds from the centre and the first-player marker."""
    state = AzulState.new(3)  # Philippe 0, Martin 1, Mathilde 2
    deal = Deal((
        ("black", "black", "blue", "white"),
        ("yellow", "red", "red", "red"),
        ("blue", "blue", "blue", "blue"),
        ("yellow", "yellow", "white", "white"),
        ("red", "black", "white", "blue"),
        ("black", "black", "yellow", "red"),
        ("white", "yellow", "blue", "red"),
    ))
    state.apply_chance(deal)
    assert state.current_player == 0

    outcome = state.play(Take(0, "black", 1))
    assert Moved((("blue", 1), ("white", 1)), "factory.0", "center") in outcome.events
    assert state.center() == {"blue": 1, "white": 1, "first_player": 1}
    assert state.factories()[0] == {}
    assert lines_of(state, 0)[1] == {"color": "black", "count": 2, "jokers": 0}

    outcome = state.play(Take(1, "yellow", 0))
    assert Moved((("red", 3),), "factory.1", "center") in outcome.events
    assert state.center() == {"blue": 1, "red": 3, "white": 1, "first_player": 1}

    outcome = state.play(Take("center", "red", 2))
    assert Moved((("first_player", 1),), "center", "boards.2.floor") in outcome.events
    assert state.center() == {"blue": 1, "white": 1}
    assert lines_of(state, 2)[2] == {"color": "red", "count": 3, "jokers": 0}
    assert state.to_json()["boards"][2]["floor"] == ["first_player"]
    assert state.to_json()["marker"] == 2
    assert state.current_player == 0
    # Taking from the centre again does not move a marker any more.
    outcome = state.play(Take("center", "blue", 3))
    assert state.to_json()["boards"][0]["floor"] == []


def test_mathilde_pattern_line_choices() -> None:
    """Mathilde takes 2 yellows: not on lines 2 and 3 (their wall rows have yellow), not on
    line 4 (it holds blue); on line 1 with 1 overflow (A), on line 5 (B) or the floor (C)."""
    mathilde = {"wall": [".....", "..x..", "...x.", ".....", "....."], "lines": {3: ("blue", 1)}}
    state = position(boards=[mathilde, {}], factories=[["yellow", "yellow", "red", "black"], ["white"] * 4])
    assert takes_from(state, 0, "yellow") == {Take(0, "yellow", 0), Take(0, "yellow", 4), Take(0, "yellow", "floor")}
    # Red and black go on any line but line 3 (blue); nothing else is offered from factory 0.
    assert takes_from(state, 0) == {Take(0, "yellow", line) for line in (0, 4, "floor")} | {
        Take(0, color, line) for color in ("red", "black") for line in (0, 1, 2, 4, "floor")}

    a = state.copy()
    a.play(Take(0, "yellow", 0))
    assert lines_of(a, 0)[0] == {"color": "yellow", "count": 1, "jokers": 0}
    assert a.to_json()["boards"][0]["floor"] == ["yellow"]
    b = state.copy()
    b.play(Take(0, "yellow", 4))
    assert lines_of(b, 0)[4] == {"color": "yellow", "count": 2, "jokers": 0}
    assert b.to_json()["boards"][0]["floor"] == []
    c = state.copy()
    c.play(Take(0, "yellow", "floor"))
    assert c.to_json()["boards"][0]["floor"] == ["yellow", "yellow"]
    assert all(line["count"] == 0 for r, line in enumerate(lines_of(c, 0)) if r != 3)

    for line, reason in ((1, "wall row 1 already has yellow"), (2, "wall row 2 already has yellow"),
                         (3, "pattern line 3 already holds blue")):
        with pytest.raises(IllegalMoveError) as caught:
            state.copy().play(Take(0, "yellow", line))
        assert words(caught.value) == f"illegal move take 0 yellow {line} for player 0: {reason}"


def test_full_pattern_line_is_no_target() -> None:
    """Project ruling 5: a full pattern line may not be chosen; the tiles go to the floor instead."""
    state = position(boards=[{"lines": {0: ("red", 1), 1: ("red", 2)}}, {}], factories=[["red", "red", "blue", "blue"]])
    assert takes_from(state, 0, "red") == {Take(0, "red", line) for line in (2, 3, 4, "floor")}
    with pytest.raises(IllegalMoveError) as caught:
        state.play(Take(0, "red", 1))
    assert caught.value.params["reason"] == Notice("illegal.line_full", line=1)


# --------------------------------------------------------------------------- end of the game


def test_end_bonuses_row_column_colour() -> None:
    """+2 a complete row, +7 a complete column, +10 a colour with all 5 tiles."""
    p0 = {"wall": [".xxxx", "xx...", "x.x..", "x..x.", "x...x"], "score": 30}
    p1 = {"wall": ["xxxx.", ".....", ".....", ".....", "....."], "score": 12, "floor": ["first_player"]}
    state = position(boards=[p0, p1], center={"blue": 1}, marker=1)
    outcome = state.play(Take("center", "blue", 0))
    assert outcome.round_over and outcome.game_over
    assert state.is_over() and state.current_player == TERMINAL and state.end_reason == "row"
    assert scored(outcome) == [
        (0, 10, "placement", "wall.0.0"),
        (1, -1, "penalties", "floor"),
        (0, 2, "rows", None),
        (0, 7, "columns", None),
        (0, 10, "colors", None),
    ]
    assert state.breakdown() == [
        {"placement": 40, "penalties": 0, "rows": 2, "columns": 7, "colors": 10},
        {"placement": 12, "penalties": -1, "rows": 0, "columns": 0, "colors": 0},
    ]
    assert state.scores() == [59, 11]
    assert state.winners() == [0]
    check_breakdown(state)


def test_several_bonuses_add_up() -> None:
    """Two rows, two columns and two colours at the end: 2x2 + 2x7 + 2x10."""
    # Rows 0 and 1 lack column 0 (blue, then white); column 1 is already full; blue
    # (r, r) and white (r, r+4) lack only those two spaces.
    p0 = {"wall": [".xxxx", ".xxxx", "xxx..", "xxxx.", "xx.xx"], "lines": {0: ("blue", 1), 1: ("white", 1)}, "score": 50}
    state = position(boards=[p0, {"floor": ["first_player"]}], center={"white": 1}, marker=1)
    outcome = state.play(Take("center", "white", 1))
    assert state.is_over()
    assert scored(outcome, 0) == [
        (0, 5, "placement", "wall.0.0"),  # row 0: 5; column 0 still broken at row 1
        (0, 10, "placement", "wall.1.0"),  # row 1: 5, column 0: 5
        (0, 4, "rows", None),
        (0, 14, "columns", None),
        (0, 20, "colors", None),
    ]
    assert state.breakdown()[0] == {"placement": 65, "penalties": 0, "rows": 4, "columns": 14, "colors": 20}
    assert state.scores()[0] == 103
    check_breakdown(state)


def test_floor_before_end_bonuses() -> None:
    """Project ruling 3: the floor (stopping at 0) is applied before the end bonuses."""
    p0 = {"wall": [".xxxx", ".....", ".....", ".....", "....."], "floor": ["red"] * 6, "score": 0}
    state = position(boards=[p0, {"floor": ["first_player"]}], center={"blue": 1}, marker=1)
    state.play(Take("center", "blue", 0))
    assert state.is_over()
    # placement 5, then the floor (-1 -1 -2 -2 -2 -3 = -11) stops at 0, then +2 for the row.
    assert state.breakdown()[0] == {"placement": 5, "penalties": -5, "rows": 2, "columns": 0, "colors": 0}
    assert state.scores()[0] == 2
    check_breakdown(state)


def _tie_position(p1_rows: int) -> AzulState:
    # Player 0 completes row 0 (5 + 2 bonus): 21 -> 28.
    p0 = {"wall": [".xxxx", ".....", ".....", ".....", "....."], "score": 21}
    if p1_rows == 2:
        # Player 1 completes rows 0 and 1: (0,0) scores 5 + 2, (1,1) scores 5 + 2, +4 bonus, -1 floor: 11 -> 28.
        p1 = {"wall": [".xxxx", "x.xxx", ".....", ".....", "....."], "lines": {0: ("blue", 1), 1: ("blue", 2)},
              "score": 11, "floor": ["first_player"]}
    else:
        # Player 1 completes row 0 only: 5 + 2 bonus - 1 floor: 22 -> 28.
        p1 = {"wall": [".xxxx", ".....", ".....", ".....", "....."], "lines": {0: ("blue", 1)},
              "score": 22, "floor": ["first_player"]}
    return position(boards=[p0, p1], center={"blue": 1}, marker=1)


def test_tie_goes_to_most_complete_rows() -> None:
    state = _tie_position(p1_rows=2)
    state.play(Take("center", "blue", 0))
    assert state.is_over()
    assert state.scores() == [28, 28]
    assert state.breakdown()[1] == {"placement": 25, "penalties": -1, "rows": 4, "columns": 0, "colors": 0}
    assert state.winners() == [1]
    check_breakdown(state)


def test_tie_on_points_and_rows_is_shared() -> None:
    state = _tie_position(p1_rows=1)
    state.play(Take("center", "blue", 0))
    assert state.is_over()
    assert state.scores() == [28, 28]
    assert state.winners() == [0, 1]
    check_breakdown(state)


# --------------------------------------------------------------------------- grey wall variant


def test_grey_wall_column_choice() -> None:
    """Grey wall: the player chooses the column; a colour appears once per column."""
    p0 = {"wall": [".R...", ".....", "....B", ".....", "....."], "lines": {2: ("red", 2)}}
    state = position(wall="grey", boards=[p0, {"floor": ["first_player"]}], center={"red": 1}, marker=1)
    outcome = state.play(Take("center", "red", 2))
    assert not outcome.round_over
    assert state.phase == "tiling" and state.current_player == 0
    assert list(state.legal_moves()) == [WallMove(2, 0), WallMove(2, 2), WallMove(2, 3)]
    with pytest.raises(IllegalMoveError):
        state.copy().play(WallMove(2, 1))  # column 1 already has red
    with pytest.raises(IllegalMoveError):
        state.copy().play(WallMove(2, 4))  # occupied
    outcome = state.play(WallMove(2, 3))
    assert scored(outcome, 0) == [(0, 2, "placement", "wall.2.3")]
    assert wall_of(state, 0)[2] == [None, None, None, "red", "blue"]
    assert state.to_json()["lid"] == {"red": 2}
    assert outcome.round_over and state.current_player == CHANCE
    check_breakdown(state)


def test_grey_wall_colour_once_per_row() -> None:
    p0 = {"wall": [".....", ".....", ".....", "R....", "....."]}
    state = position(wall="grey", boards=[p0, {}], factories=[["red", "red", "blue", "blue"]])
    assert takes_from(state, 0, "red") == {Take(0, "red", line) for line in (0, 1, 2, 4, "floor")}
    with pytest.raises(IllegalMoveError) as caught:
        state.play(Take(0, "red", 3))
    assert caught.value.params["reason"] == Notice("illegal.wall_row_has", row=3, color=color_noun("red"))


def test_grey_wall_columns_chosen_earlier_in_the_phase_count() -> None:
    p0 = {"lines": {0: ("red", 1), 1: ("red", 1)}}
    state = position(wall="grey", boards=[p0, {"floor": ["first_player"]}], center={"red": 1}, marker=1)
    state.play(Take("center", "red", 1))
    assert list(state.legal_moves()) == [WallMove(0, c) for c in range(5)]
    state.play(WallMove(0, 2))
    assert list(state.legal_moves()) == [WallMove(1, c) for c in (0, 1, 3, 4)]
    with pytest.raises(IllegalMoveError):
        state.copy().play(WallMove(1, 2))
    outcome = state.play(WallMove(1, 3))
    assert scored(outcome, 0) == [(0, 1, "placement", "wall.1.3")]
    assert state.scores()[0] == 2


def test_grey_wall_no_column_allowed_sends_the_line_to_the_floor() -> None:
    p0 = {"wall": ["...R.", "....R", ".....", ".....", "BYK.."], "lines": {4: ("red", 4)}, "score": 10}
    state = position(wall="grey", boards=[p0, {"floor": ["first_player"]}], center={"red": 1}, marker=1)
    state.play(Take("center", "red", 4))
    assert state.phase == "tiling"
    assert list(state.legal_moves()) == [WallMove(4, "floor")]  # forced, but still a move
    with pytest.raises(IllegalMoveError):
        state.copy().play(WallMove(4, 3))
    outcome = state.play(WallMove(4, "floor"))
    assert scored(outcome, 0) == [(0, -8, "penalties", "floor")]
    assert state.scores()[0] == 2
    assert state.to_json()["lid"] == {"red": 5}
    assert wall_of(state, 0)[4] == ["blue", "yellow", "black", None, None]
    check_breakdown(state)


def test_grey_wall_tiling_goes_in_seating_order() -> None:
    p0 = {"lines": {0: ("blue", 1)}}
    p1 = {"lines": {0: ("white", 1)}, "floor": ["first_player"]}
    state = position(wall="grey", boards=[p0, p1], center={"black": 1}, marker=1, to_move=1)
    state.play(Take("center", "black", 1))  # player 1 ends the offer
    assert state.current_player == 0 and list(state.legal_moves())[0] == WallMove(0, 0)
    state.play(WallMove(0, 4))
    assert state.current_player == 1
    state.play(WallMove(0, 0))
    assert state.current_player == CHANCE
    assert wall_of(state, 0)[0] == [None, None, None, None, "blue"]
    assert wall_of(state, 1)[0] == ["white", None, None, None, None]


def test_grey_wall_colour_bonus() -> None:
    p0 = {"wall": [".YRKW", "...B.", ".B...", "....B", "..B.."], "score": 40}
    state = position(wall="grey", boards=[p0, {"floor": ["first_player"]}], center={"blue": 1}, marker=1)
    state.play(Take("center", "blue", 0))
    assert list(state.legal_moves()) == [WallMove(0, 0)]
    state.play(WallMove(0, 0))
    assert state.is_over()
    assert state.breakdown()[0] == {"placement": 45, "penalties": 0, "rows": 2, "columns": 0, "colors": 10}
    check_breakdown(state)


# --------------------------------------------------------------------------- joker variant


@pytest.mark.parametrize("players, per_color, jokers", [(2, 19, 5), (3, 18, 10), (4, 18, 10)])
def test_joker_tile_counts(players: int, per_color: int, jokers: int) -> None:
    state = AzulState.new(players, jokers=True)
    assert state.tile_counts() == [per_color] * 5 + [jokers]
    assert state.to_json()["bag"] == {**{c: per_color for c in COLORS}, "joker": jokers}
    assert AzulState.new(players).tile_counts() == [20] * 5 + [0]


def test_joker_takes_offered() -> None:
    """All jokers of a source, optionally with all tiles of one colour; or the colour alone."""
    state = position(jokers=True, boards=[{}, {}], factories=[["blue", "blue", "joker", "red"]])
    expected = set()
    for color in ("blue", "red"):
        expected |= {Take(0, color, line) for line in (0, 1, 2, 3, 4, "floor")}
        expected |= {Take(0, color, line, True) for line in (0, 1, 2, 3, 4, "floor")}
    expected |= {Take(0, None, line, True) for line in (0, 1, 2, 3, 4, "floor")}
    # Overflowing with a joker: the joker (default) or a colour tile stays on the line.
    expected |= {Take(0, "blue", 0, True, 1), Take(0, "blue", 1, True, 1), Take(0, "red", 0, True, 1)}
    assert takes_from(state, 0) == expected
    assert len(state.legal_moves()) == 33


def test_joker_taken_with_a_colour() -> None:
    state = position(jokers=True, boards=[{}, {}], factories=[["blue", "blue", "joker", "red"]])
    with_joker = state.copy()
    with_joker.play(Take(0, "blue", 2, True))
    assert lines_of(with_joker, 0)[2] == {"color": "blue", "count": 2, "jokers": 1}
    assert with_joker.center() == {"red": 1, "first_player": 1}
    # Project ruling 7: taking the jokers is optional; left behind, they go to the centre.
    without = state.copy()
    without.play(Take(0, "blue", 2))
    assert lines_of(without, 0)[2] == {"color": "blue", "count": 2, "jokers": 0}
    assert without.center() == {"red": 1, "joker": 1, "first_player": 1}
    # Jokers only.
    only = state.copy()
    only.play(Take(0, None, 3, True))
    assert lines_of(only, 0)[3] == {"color": None, "count": 0, "jokers": 1}
    assert only.center() == {"blue": 2, "red": 1, "first_player": 1}


def test_joker_overflow_and_floor_jokers() -> None:
    """Project ruling 8: by default jokers stay on the line and colour tiles overflow;
    ``floor_jokers`` sends jokers to the floor instead."""
    state = position(jokers=True, boards=[{}, {}], factories=[["blue", "blue", "joker", "joker"], ["white"] * 4])
    assert {m for m in takes_from(state, 0, "blue") if m.line == 1 and m.jokers} == {
        Take(0, "blue", 1, True, k) for k in range(3)}
    results = {}
    for k in range(3):
        s = state.copy()
        s.play(Take(0, "blue", 1, True, k))
        results[k] = (lines_of(s, 0)[1], s.to_json()["boards"][0]["floor"])
    assert results == {
        0: ({"color": None, "count": 0, "jokers": 2}, ["blue", "blue"]),
        1: ({"color": "blue", "count": 1, "jokers": 1}, ["joker", "blue"]),
        2: ({"color": "blue", "count": 2, "jokers": 0}, ["joker", "joker"]),
    }


def test_mixed_joker_line_puts_the_joker_on_its_colour_space() -> None:
    """A line with a colour and a joker needs no wall move; the joker goes on the colour's space
    and from then on blocks that colour for the pattern line."""
    p0 = {"lines": {1: ("blue", 1)}, "wall": [".....", "..x..", ".....", ".....", "....."]}
    state = position(jokers=True, boards=[p0, {"floor": ["first_player"]}], center={"joker": 1}, marker=1)
    outcome = state.play(Take("center", None, 1, True))
    assert outcome.round_over and state.current_player == CHANCE  # no WallMove asked
    assert wall_of(state, 0)[1] == [None, "joker", "yellow", None, None]
    assert scored(outcome, 0) == [(0, 2, "placement", "wall.1.1")]
    assert state.to_json()["lid"] == {"blue": 1}
    state.apply_chance(Deal((("blue",) * 4, ("yellow",) * 4, ("red",) * 4, ("black",) * 4, ("white",) * 4)))
    state.play(Take(4, "white", 4))  # player 1 holds the marker and starts
    assert takes_from(state, 0, "blue") == {Take(0, "blue", line) for line in (0, 2, 3, 4, "floor")}


def test_all_joker_line_goes_on_any_free_space() -> None:
    p0 = {"wall": ["x....", ".....", ".....", ".....", "....."]}
    state = position(jokers=True, boards=[p0, {"floor": ["first_player"]}], center={"joker": 1}, marker=1)
    state.play(Take("center", None, 0, True))
    assert state.phase == "tiling" and state.current_player == 0
    assert list(state.legal_moves()) == [WallMove(0, c) for c in (1, 2, 3, 4)]
    outcome = state.play(WallMove(0, 2))  # the joker on red's space
    assert scored(outcome, 0) == [(0, 1, "placement", "wall.0.2")]
    assert wall_of(state, 0)[0] == ["blue", None, "joker", None, None]
    state.apply_chance(Deal((("blue",) * 4, ("yellow",) * 4, ("red",) * 4, ("black",) * 4, ("white",) * 4)))
    state.play(Take(4, "white", 4))  # player 1 holds the marker and starts
    # Red may no longer go on pattern line 0: the joker holds red's space.
    assert takes_from(state, 2, "red") == {Take(2, "red", line) for line in (1, 2, 3, 4, "floor")}
    assert Take(3, "black", 0) in state.legal_moves()


def test_jokers_count_for_rows_and_columns_but_never_for_colours() -> None:
    """4 blues and a joker on the blue space: no +10; the row and the column still count."""
    p0 = {"wall": [".xxxx", "xx...", "x.x..", "x..x.", "x...x"], "score": 30}
    state = position(jokers=True, boards=[p0, {"floor": ["first_player"]}], center={"joker": 1}, marker=1)
    state.play(Take("center", None, 0, True))
    assert list(state.legal_moves()) == [WallMove(0, 0)]
    state.play(WallMove(0, 0))
    assert state.is_over()
    assert state.breakdown()[0] == {"placement": 40, "penalties": 0, "rows": 2, "columns": 7, "colors": 0}
    check_breakdown(state)


def test_grey_wall_joker_lines() -> None:
    """Project ruling 7: on the grey wall an all-joker line goes in any free column (a joker
    blocks nothing but its space); a mixed line's joker in a column allowed for its colour."""
    p0 = {"wall": [".....", "R....", ".J...", ".....", "..R.."], "lines": {2: ("red", 2, 1)}}
    state = position(wall="grey", jokers=True, boards=[p0, {"floor": ["first_player"]}], center={"joker": 1}, marker=1)
    state.play(Take("center", None, 0, True))
    assert list(state.legal_moves()) == [WallMove(0, c) for c in range(5)]
    state.play(WallMove(0, 0))  # column 0 has red (row 1): no matter for a joker
    # Line 2 (red + joker, complete): not column 1 (taken), 0 (red in row 1) or 2 (red in row 4).
    assert list(state.legal_moves()) == [WallMove(2, 3), WallMove(2, 4)]
