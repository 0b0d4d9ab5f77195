"""Every worked example of the Azul: Summer Pavilion rulebooks played on the engine.

Sources: the published rulebooks (the French one's examples A-F, the English one and its
walk-through), and the project rulings in docs/rulings.md. Positions are
built with :func:`position` (``PavilionState.to_json`` edited, then ``from_json``), the bag
holding exactly the tiles that are nowhere else; each test plays what the rulebook describes
and checks the exact tiles, points and legal moves, and that ``breakdown()`` adds up to
``scores()``.

Spaces are ``S.K``: star S = 0 central, 1 purple, 2 orange, 3 red, 4 blue, 5 yellow, 6 green
(coloured side), K = 1..6 clockwise.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from azulcam.engine import pavilion_board as topo
from azulcam.engine.common import CHANCE, TERMINAL, Scored
from azulcam.engine.errors import AmbiguousMoveError, IllegalMoveError, ImpossibleDealError
from azulcam.engine.pavilion import Bonus, Deal, Pass, PavilionState, Place, Refill, Take

COLORS = topo.COLORS
STAR_OF = {"central": 0, "purple": 1, "orange": 2, "red": 3, "blue": 4, "yellow": 5, "green": 6}
SUPPLY = ["red", "blue", "yellow", "orange", "green", "purple", "red", "blue", "yellow", "orange"]


# --------------------------------------------------------------------------- helpers


def colored(*names: str) -> dict[str, str]:
    """Spaces filled with the colour they take on the coloured side: an outer star's own colour,
    and on the central star space k the k-th colour (so all differ)."""
    out = {}
    for name in names:
        star, k = (int(x) for x in name.split("."))
        out[name] = COLORS[k - 1] if star == 0 else COLORS[topo.STAR_COLOR[star]]
    return out


def position(
    players: int = 2,
    side: str = "colored",
    *,
    round: int = 1,
    phase: str = "place",
    boards: list[dict[str, Any]] | None = None,
    factories: list[list[str]] | None = None,
    center: dict[str, int] | None = None,
    supply: list[str | None] | None = None,
    tower: dict[str, int] | None = None,
    bag: dict[str, int] | None = None,
    token: str | int | None = None,
    to_move: int = 0,
    start_player: int = 0,
) -> PavilionState:
    """A position. ``boards[p]`` may give ``hand`` (counts), ``spaces`` ({"S.K": colour}),
    ``score`` (points above the start 5 counted as placement, below as penalties),
    ``corners`` and ``passed``. Without ``bag`` the bag holds every tile that is nowhere else."""
    d = PavilionState.new(players, side, start_player).to_json()
    d.update(round=round, phase=phase, to_move=to_move)
    if token is None:
        token = "center" if phase == "acquire" else start_player
    d["token"] = token
    d["factories"] = [list(f) for f in (factories or [])] + [[] for _ in range(len(d["factories"]) - len(factories or []))]
    d["center"] = dict(center or {})
    d["supply"] = list(SUPPLY if supply is None else supply)
    d["tower"] = dict(tower or {})
    for p, spec in enumerate(boards or []):
        bd = d["boards"][p]
        score = spec.get("score", 5)
        bd.update(score=score, placement=max(0, score - 5), penalties=min(0, score - 5),
                  spaces=dict(spec.get("spaces", {})), hand=dict(spec.get("hand", {})),
                  corners=list(spec.get("corners", [])), passed=spec.get("passed", False))
    players_bag_computed = bag is None
    if bag is None:
        left = {c: 22 for c in COLORS}
        used: list[str] = [t for f in d["factories"] for t in f] + [t for t in d["supply"] if t]
        for pile in [d["center"], d["tower"]] + [bd["hand"] for bd in d["boards"]]:
            used += [c for c, n in pile.items() for _ in range(n)]
        for bd in d["boards"]:
            used += list(bd["spaces"].values()) + bd["corners"]
        for t in used:
            left[t] -= 1
            assert left[t] >= 0, f"more {t} than the game has"
        bag = left
    d["bag"] = dict(bag)
    s = PavilionState.from_json(d)
    check_totals(s)
    if players_bag_computed:
        assert sum(s.tile_counts()) == 132
    return s


def check_totals(s: PavilionState) -> None:
    """``breakdown()`` adds up to ``scores()`` for every player."""
    assert [sum(b.values()) for b in s.breakdown()] == s.scores()


def play(s: PavilionState, move: Any) -> Any:
    out = s.play(move)
    check_totals(s)
    return out


def hand(s: PavilionState, p: int) -> dict[str, int]:
    return {COLORS[c]: n for c, n in enumerate(s.board(p).hand) if n}


def space(s: PavilionState, p: int, name: str) -> str | None:
    c = s.board(p).space[topo.parse_space(name)]
    return COLORS[c] if c >= 0 else None


def tower(s: PavilionState) -> dict[str, int]:
    return s.to_json()["tower"]


def placements(s: PavilionState) -> set[Place]:
    return {m for m in s.legal_moves() if isinstance(m, Place)}


def scored(out: Any, reason: str | None = None) -> list[Scored]:
    return [e for e in out.scored if reason is None or e.reason == reason]


# --------------------------------------------------------------------------- phase 1


def phase1_example() -> PavilionState:
    """Round 1 (wild purple), 3 players: Anna 0, Paul 1, Tom 2. Anna's factory holds 2 red and
    2 yellow; Paul's 1 green, 2 purple and 1 yellow; the other factories are empty."""
    return position(3, phase="acquire", factories=[["red", "red", "yellow", "yellow"],
                                                   ["green", "purple", "purple", "yellow"]])


def test_phase1_example_anna_paul_tom() -> None:
    s = phase1_example()
    assert s.wild == "purple" and s.current_player == 0
    # Anna takes both red tiles; no wild tile on that factory, so she takes nothing else.
    assert set(s.legal_moves()) == {Take(0, "red"), Take(0, "yellow"), Take(1, "green"), Take(1, "yellow")}
    play(s, Take(0, "red"))
    assert hand(s, 0) == {"red": 2}
    assert s.to_json()["factories"][0] == [] and s.to_json()["center"] == {"yellow": 2}
    assert s.scores() == [5, 5, 5]
    # Paul takes the green tile and must also take exactly one purple; the other two go to the centre.
    assert s.current_player == 1
    with pytest.raises(IllegalMoveError):
        s.play(Take(1, "purple"))  # the wild colour is not a choice while other colours are there
    play(s, Take(1, "green"))
    assert hand(s, 1) == {"purple": 1, "green": 1}
    assert s.to_json()["center"] == {"purple": 1, "yellow": 3}
    # Tom takes the three yellow tiles from the centre plus one wild tile, the start-player
    # token, and loses 4 points (5 -> 1).
    assert s.current_player == 2
    assert set(s.legal_moves()) == {Take("center", "yellow")}
    out = play(s, Take("center", "yellow"))
    assert hand(s, 2) == {"purple": 1, "yellow": 3}
    assert s.scores() == [5, 5, 1]
    assert [(e.player, e.points, e.reason) for e in scored(out)] == [(2, -4, "penalties")]
    assert s.to_json()["token"] == 2
    # Factories and centre are empty: phase 2 begins with the start-player token holder.
    assert s.phase == "place" and s.current_player == 2 and s.start_player == 2


@pytest.mark.parametrize("score, after", [(12, 8), (5, 1), (4, 1), (2, 1), (1, 1)])
def test_centre_penalty_never_below_one(score: int, after: int) -> None:
    s = position(2, phase="acquire", center={"yellow": 3, "purple": 2}, factories=[["red", "red", "blue", "blue"]],
                 boards=[{"score": score}, {}])
    out = play(s, Take("center", "yellow"))
    assert hand(s, 0) == {"purple": 1, "yellow": 3}
    assert s.to_json()["center"] == {"purple": 1}
    assert s.scores()[0] == after
    assert out.points(0) == after - score
    # The second player from the centre loses nothing.
    play(s, Take(0, "red"))
    play(s, Take("center", "blue"))
    assert s.scores()[0] == after and hand(s, 0) == {"purple": 2, "blue": 2, "yellow": 3}


def test_only_wild_tiles_give_exactly_one() -> None:
    # A factory of wild tiles only: exactly one is taken, the other three go to the centre.
    s = position(2, phase="acquire", factories=[["purple"] * 4, ["red", "red", "blue", "green"]])
    assert set(s.legal_moves()) == {Take(0, "purple"), Take(1, "red"), Take(1, "blue"), Take(1, "green")}
    play(s, Take(0, "purple"))
    assert hand(s, 0) == {"purple": 1}
    assert s.to_json()["center"] == {"purple": 3}
    assert s.scores() == [5, 5]
    # The centre holding only wild tiles: one is taken, with the token and a loss of 1.
    play(s, Take(1, "red"))
    assert s.to_json()["center"] == {"purple": 3, "green": 1, "blue": 1}
    assert hand(s, 1) == {"red": 2}
    play(s, Take("center", "green"))
    assert hand(s, 0) == {"purple": 2, "green": 1} and s.scores() == [3, 5]
    play(s, Take("center", "blue"))
    assert hand(s, 1) == {"red": 2, "purple": 1, "blue": 1} and s.scores() == [3, 5]
    assert s.to_json()["center"] == {"purple": 1}
    assert set(s.legal_moves()) == {Take("center", "purple")}
    play(s, Take("center", "purple"))
    assert hand(s, 0) == {"purple": 3, "green": 1} and s.scores() == [3, 5]
    assert s.phase == "place" and s.current_player == 0  # player 0 took the token


def test_only_wild_centre_first_take_loses_one() -> None:
    s = position(2, phase="acquire", round=3, center={"orange": 2}, factories=[["red"] * 4], to_move=1)
    assert s.wild == "orange"
    assert set(s.legal_moves()) == {Take("center", "orange"), Take(0, "red")}
    out = play(s, Take("center", "orange"))
    assert hand(s, 1) == {"orange": 1} and s.scores() == [5, 4] and out.points(1) == -1
    assert s.to_json()["token"] == 1


def test_nobody_took_from_the_centre_start_player_keeps_role() -> None:
    # Ruling 4: the centre never held a tile, the start player keeps the role.
    s = position(2, phase="acquire", factories=[["red"] * 4, ["blue"] * 4], to_move=1, start_player=1)
    play(s, Take(0, "red"))
    play(s, Take(1, "blue"))
    assert s.phase == "place" and s.current_player == 1 and s.start_player == 1
    assert s.to_json()["token"] == "center"


# --------------------------------------------------------------------------- phase 2 examples


def test_example_a_anna_seven_blue_on_blue_six() -> None:
    s = position(boards=[{"hand": {"blue": 7}}])
    assert {m for m in placements(s) if m.space == "4.6"} == {Place("4.6", "blue", 0)}
    out = play(s, Place("4.6", "blue"))
    assert space(s, 0, "4.6") == "blue"
    assert hand(s, 0) == {"blue": 1}
    assert tower(s) == {"blue": 5}
    assert out.points(0) == 1 and s.scores()[0] == 6
    assert [(e.points, e.reason, e.where) for e in scored(out)] == [(1, "placement", "4.6")]


def test_example_b_anna_three_red_on_red_three() -> None:
    s = position(boards=[{"hand": {"red": 3}}])
    out = play(s, Place("3.3", "red"))
    assert space(s, 0, "3.3") == "red" and hand(s, 0) == {} and tower(s) == {"red": 2}
    assert out.points(0) == 1 and s.scores()[0] == 6


def test_example_c_paul_blue_six_with_three_wild() -> None:
    s = position(boards=[{"hand": {"blue": 3, "purple": 3}, "spaces": colored("4.4", "4.5"), "score": 9}])
    assert {m for m in placements(s) if m.space == "4.6"} == {Place("4.6", "blue", 3)}
    out = play(s, Place("4.6", "blue", 3))
    assert space(s, 0, "4.6") == "blue"  # the placed tile is blue, never the wild purple
    assert hand(s, 0) == {}
    assert tower(s) == {"purple": 3, "blue": 2}
    assert out.points(0) == 3 and s.scores()[0] == 12


def test_example_d_paul_orange_four_then_pass_keeping_green() -> None:
    s = position(boards=[{"hand": {"orange": 1, "green": 1, "purple": 3}, "spaces": colored("2.5", "2.6")},
                         {"passed": True, "score": 20}])
    assert {m for m in placements(s) if m.space == "2.4"} == {Place("2.4", "orange", 3)}
    out = play(s, Place("2.4", "orange", 3))
    assert space(s, 0, "2.4") == "orange"
    assert hand(s, 0) == {"green": 1} and tower(s) == {"purple": 3}
    assert out.points(0) == 3 and s.scores()[0] == 8
    # Next turn Paul passes, keeping the green tile on a corner: no loss.
    assert s.current_player == 0
    out = play(s, Pass(("green",)))
    assert out.points(0) == 0 and s.scores() == [8, 20]
    # Everyone has passed: round 2, where green is wild; the corner tile is back next to the board.
    assert out.round_over and s.phase == "deal" and s.round == 2 and s.wild == "green"
    assert hand(s, 0) == {"green": 1} and s.board(0).corners == []
    assert s.to_json()["token"] == "center"


def test_example_e_danielle_purple_on_purple_two() -> None:
    s = position(boards=[{"hand": {"purple": 2, "red": 2, "green": 4}, "spaces": colored("1.1", "1.3")}])
    # A wild-colour tile placed as itself is paid in its own colour only.
    assert {m for m in placements(s) if m.space == "1.2"} == {Place("1.2", "purple", 0)}
    with pytest.raises(IllegalMoveError):
        s.play(Place("1.2", "purple", 1))
    out = play(s, Place("1.2", "purple"))
    assert space(s, 0, "1.2") == "purple"
    assert hand(s, 0) == {"green": 4, "red": 2} and tower(s) == {"purple": 1}
    assert out.points(0) == 3 and s.scores()[0] == 8


def test_example_f_danielle_passes_keeping_four_green() -> None:
    s = position(boards=[{"hand": {"red": 2, "green": 4}, "score": 14}, {"hand": {"blue": 1}}])
    assert Pass(("green",) * 4) in s.legal_moves()
    assert Pass(("green",) * 4 + ("red",)) not in s.legal_moves()
    with pytest.raises(IllegalMoveError):
        s.play(Pass(("green",) * 4 + ("red",)))  # at most 4 tiles on the corners
    with pytest.raises(AmbiguousMoveError):
        s.play(Pass(None))  # 6 tiles held: the pass must say which to keep
    out = play(s, Pass(("green",) * 4))
    assert s.board(0).corners == [topo.GREEN] * 4 and hand(s, 0) == {}
    assert tower(s) == {"red": 2}
    assert out.points(0) == -2 and s.scores()[0] == 12
    assert [(e.points, e.reason) for e in scored(out)] == [(-2, "penalties")]
    assert s.board(0).passed and s.current_player == 1
    # A passed player takes no more turns: player 1 plays on alone.
    play(s, Place("4.1", "blue"))
    assert s.current_player == 1


def test_wild_hint_example_tom_three_purple_one_green() -> None:
    """Tom combines three purple wild tiles with his green tile on space 4 of the green star;
    not combined, the purple tiles go on the purple star; either may go on the central star."""
    s = position(boards=[{"hand": {"purple": 3, "green": 1}}])
    expected = {
        # green: at least one green tile paid, the rest of the number in wild purple
        Place("6.1", "green", 0), Place("6.2", "green", 1), Place("6.3", "green", 2), Place("6.4", "green", 3),
        Place("0.1", "green", 0), Place("0.2", "green", 1), Place("0.3", "green", 2), Place("0.4", "green", 3),
        # purple as itself: its own star, or the central star, paid entirely in purple
        Place("1.1", "purple", 0), Place("1.2", "purple", 0), Place("1.3", "purple", 0),
        Place("0.1", "purple", 0), Place("0.2", "purple", 0), Place("0.3", "purple", 0),
    }
    moves = list(s.legal_moves())
    assert len(moves) == len(set(moves)) == len(s.legal_moves())
    assert {m for m in moves if isinstance(m, Place)} == expected
    # Passing: keep any sub-multiset of the 4 tiles (4 x 2 choices), each listed once.
    assert {m for m in moves if isinstance(m, Pass)} == {
        Pass(("purple",) * i + ("green",) * j) for i in range(4) for j in range(2)}
    assert len(moves) == 14 + 8
    # A wild tile is never placed as the colour it replaces, nor on another colour's star.
    for bad in (Place("6.4", "purple", 0), Place("6.1", "purple", 0), Place("4.1", "purple", 0),
                Place("1.1", "green", 0), Place("6.5", "green", 3)):
        with pytest.raises(IllegalMoveError):
            s.play(bad)
    out = play(s, Place("6.4", "green", 3))
    assert space(s, 0, "6.4") == "green" and hand(s, 0) == {} and tower(s) == {"purple": 3}
    assert out.points(0) == 1


def test_wild_colour_placed_on_central_star_only_if_absent() -> None:
    s = position(boards=[{"hand": {"purple": 3, "green": 2}, "spaces": {"0.5": "purple"}}])
    assert not any(m.space.startswith("0.") and m.color == "purple" for m in placements(s))
    # green still fits on the central star, with or without wilds
    assert {m for m in placements(s) if m.space == "0.2"} == {Place("0.2", "green", 0), Place("0.2", "green", 1)}


def test_central_star_colours_all_differ() -> None:
    s = position(boards=[{"hand": {"red": 6, "blue": 2}, "spaces": {"0.1": "red", "0.3": "yellow"}}], round=2)
    assert s.wild == "green"
    central = {m for m in placements(s) if m.space.startswith("0.")}
    assert central == {Place("0.2", "blue", 0)}  # not red (there already); blue: only 2 held
    with pytest.raises(IllegalMoveError):
        s.play(Place("0.2", "red"))
    out = play(s, Place("0.2", "blue"))
    assert out.points(0) == 3  # next to 0.1 and 0.3
    # a completed central star holds six different colours
    s = position(boards=[{"hand": {"red": 6, "yellow": 6}, "spaces": {"0.1": "purple", "0.2": "green", "0.3": "orange",
                                                            "0.4": "blue", "0.5": "red"}}])
    assert {m for m in placements(s) if m.space == "0.6"} == {Place("0.6", "yellow", 0)}


def test_placement_points_runs_on_the_ring() -> None:
    # 1 + each unbroken run touching the new tile; no adjacency across stars.
    s = position(boards=[{"hand": {"red": 6}, "spaces": {**colored("3.1", "3.2", "3.4", "2.3", "4.3", "0.3")}}])
    out = play(s, Place("3.3", "red"))
    assert out.points(0) == 4
    # the last space of a star: the whole ring, 6 points
    s = position(boards=[{"hand": {"red": 6}, "spaces": colored("3.1", "3.2", "3.3", "3.4", "3.5")}])
    out = play(s, Place("3.6", "red"))
    assert out.points(0) == 6


# --------------------------------------------------------------------------- bonus structures


def structure_cases() -> list[tuple[str, int, tuple[str, ...], int]]:
    return [(kind, number, tuple(topo.SPACE_NAMES[i] for i in spaces), tiles)
            for kind, number, spaces, tiles in topo.STRUCTURES]


def test_structure_table() -> None:
    table = {(kind, number): (set(spaces), tiles) for kind, number, spaces, tiles in structure_cases()}
    assert len(table) == 18
    assert table[("pillar", 1)] == ({"1.2", "1.3", "0.5", "0.6"}, 1)
    assert table[("pillar", 2)] == ({"2.2", "2.3", "0.6", "0.1"}, 1)
    assert table[("pillar", 6)] == ({"6.2", "6.3", "0.4", "0.5"}, 1)
    assert table[("statue", 1)] == ({"1.1", "1.2", "2.3", "2.4"}, 2)
    assert table[("statue", 6)] == ({"6.1", "6.2", "1.3", "1.4"}, 2)
    assert table[("window", 4)] == ({"4.5", "4.6"}, 3)


@pytest.mark.parametrize("kind, number, spaces, tiles", structure_cases(), ids=lambda v: str(v))
def test_each_structure_pays_its_tiles(kind: str, number: int, spaces: tuple[str, ...], tiles: int) -> None:
    # The last space: p.3 of a pillar, t.4 of a statue, s.6 of a window; each has one placed neighbour.
    last = {"pillar": f"{number}.3", "statue": f"{number % 6 + 1}.4", "window": f"{number}.6"}[kind]
    assert last in spaces
    before = colored(*(x for x in spaces if x != last))
    color = colored(last)[last]
    cost = int(last.split(".")[1])
    s = position(boards=[{"hand": {color: cost}, "spaces": before}, {"hand": {"red": 1}}],
                 supply=["red", "red", "blue", "green", "purple", "purple", "yellow", None, "orange", "orange"])
    out = play(s, Place(last, color))
    assert out.points(0) == 2
    # a bonus move is due, by the same player: exactly `tiles` tiles from the supply
    assert s.phase == "bonus" and s.current_player == 0
    moves = list(s.legal_moves())
    assert moves and all(isinstance(m, Bonus) and len(m.colors) == tiles for m in moves)
    assert len(moves) == len(set(moves))
    assert Bonus(("purple", "purple", "red")[:tiles]) in moves  # wild tiles allowed
    with pytest.raises(IllegalMoveError):
        s.play(Pass(()))
    take = Bonus(("purple", "orange", "yellow")[:tiles])
    play(s, take)
    expected = {}
    for name in take.colors:
        expected[name] = expected.get(name, 0) + 1
    assert hand(s, 0) == expected
    assert s.scores()[0] == 7  # bonus tiles are no points
    # the supply's empty spaces are refilled from the bag by chance, then the next player places
    assert s.phase == "refill" and s.current_player == CHANCE
    refill = s.sample_chance(random.Random(number))
    assert isinstance(refill, Refill) and len(refill.supply) == tiles + 1
    s.apply_chance(refill)
    assert None not in s.supply()
    assert s.phase == "place" and s.current_player == 1
    assert sum(s.tile_counts()) == 132


def test_one_placement_completing_pillar_and_statue_pays_three() -> None:
    # Ruling 1: space 1.2 finishes pillar 1 (1.2 1.3 0.5 0.6) and statue 1 (1.1 1.2 2.3 2.4).
    s = position(boards=[{"hand": {"purple": 2}, "spaces": colored("1.3", "0.5", "0.6", "1.1", "2.3", "2.4")}])
    out = play(s, Place("1.2", "purple"))
    assert out.points(0) == 3
    assert s.phase == "bonus"
    assert all(len(m.colors) == 3 for m in s.legal_moves())
    play(s, Bonus(("blue", "red", "red")))
    assert hand(s, 0) == {"blue": 1, "red": 2}
    assert s.supply() == [None, None, "yellow", "orange", "green", "purple", None, "blue", "yellow", "orange"]
    assert s.phase == "refill"


def test_central_space_completing_two_pillars_pays_two() -> None:
    # 0.6 belongs to pillar 1 (0.5 0.6) and pillar 2 (0.6 0.1).
    s = position(boards=[{"hand": {"red": 6}, "spaces": colored("1.2", "1.3", "0.5", "2.2", "2.3", "0.1")}])
    play(s, Place("0.6", "red"))
    assert s.phase == "bonus" and all(len(m.colors) == 2 for m in s.legal_moves())


def test_short_supply_pays_what_it_has() -> None:
    # Ruling 2: bag and tower empty, the supply holds 2 tiles, a window owes 3: both are taken.
    s = position(boards=[{"hand": {"blue": 6}, "spaces": colored("4.5")}, {"hand": {"red": 1}}],
                 supply=[None, "green", None, None, None, "purple", None, None, None, None], bag={})
    play(s, Place("4.6", "blue"))
    assert s.phase == "bonus"
    assert list(s.legal_moves()) == [Bonus(("purple", "green"))]
    with pytest.raises(IllegalMoveError):
        s.play(Bonus(("purple", "green", "green")))
    play(s, Bonus(("purple", "green")))
    assert hand(s, 0) == {"purple": 1, "green": 1}
    # the bag is empty: the supply is refilled from the tower (the 5 blue just paid)
    assert s.phase == "refill"
    with pytest.raises(ImpossibleDealError):
        s.apply_chance(Refill(("blue",) * 4))
    s.apply_chance(Refill(("blue",) * 5))
    assert s.supply() == ["blue"] * 5 + [None] * 5 and tower(s) == {}
    assert s.phase == "place" and s.current_player == 1
    # statue 1 (1.1 1.2 2.3 2.4) owes 2, the supply holds 1; space 1.1 costs 1 so the tower stays
    # empty: nothing to refill with, the game goes on
    s = position(boards=[{"hand": {"purple": 1}, "spaces": colored("1.2", "2.3", "2.4")}, {"hand": {"red": 1}}],
                 supply=[None] * 9 + ["red"], bag={})
    play(s, Place("1.1", "purple"))
    assert list(s.legal_moves()) == [Bonus(("red",))]
    play(s, Bonus(("red",)))
    assert hand(s, 0) == {"red": 1}
    assert s.supply() == [None] * 10 and s.phase == "place" and s.current_player == 1


def test_refill_from_bag_then_tower() -> None:
    # The bag holds 1 tile: it must be drawn, and the rest comes from the tower.
    s = position(boards=[{"hand": {"blue": 6}, "spaces": colored("4.5")}, {"hand": {"red": 1}}],
                 bag={"yellow": 1}, tower={"green": 5})
    play(s, Place("4.6", "blue"))
    play(s, Bonus(("blue", "red", "red")))
    assert tower(s) == {"green": 5, "blue": 5}
    with pytest.raises(ImpossibleDealError):
        s.apply_chance(Refill(("green", "green", "green")))  # the bag's yellow must come first
    with pytest.raises(ImpossibleDealError):
        s.apply_chance(Refill(("yellow", "green")))  # three spaces are empty
    s.apply_chance(Refill(("yellow", "green", "blue")))
    # the tiles go on the empty spaces in order (0, 1 and 6)
    assert s.supply() == ["yellow", "green", "yellow", "orange", "green", "purple", "blue", "blue", "yellow", "orange"]
    assert s.phase == "place" and s.current_player == 1


# --------------------------------------------------------------------------- passing


def test_pass_with_four_or_fewer_keeps_everything_by_default() -> None:
    # Ruling 6: a bare pass with 4 tiles or fewer keeps them all.
    s = position(boards=[{"hand": {"red": 1, "green": 3}}, {"hand": {"blue": 1}}])
    out = play(s, Pass(None))
    assert sorted(s.board(0).corners) == [topo.GREEN] * 3 + [topo.RED]
    assert out.points(0) == 0 and s.scores()[0] == 5 and tower(s) == {}


def test_pass_discards_lose_one_each_never_below_one() -> None:
    s = position(boards=[{"hand": {"red": 3, "blue": 4}, "score": 3}, {"hand": {"blue": 1}}])
    out = play(s, Pass(("blue", "blue")))
    assert tower(s) == {"blue": 2, "red": 3}
    assert out.points(0) == -2 and s.scores()[0] == 1  # 5 discarded, stopped at 1
    s = position(boards=[{"hand": {"red": 2}}, {"hand": {"blue": 1}}])
    out = play(s, Pass(()))
    assert out.points(0) == -2 and s.scores()[0] == 3


def test_round_six_pass_keeps_nothing() -> None:
    s = position(round=6, boards=[{"hand": {"red": 2, "green": 1}, "score": 30}, {"hand": {"blue": 1}}])
    assert s.wild == "red"
    assert [m for m in s.legal_moves() if isinstance(m, Pass)] == [Pass(())]
    with pytest.raises(IllegalMoveError):
        s.play(Pass(("green",)))
    out = play(s, Pass(None))
    assert out.points(0) == -3 and s.scores()[0] == 27 and s.board(0).corners == []


# --------------------------------------------------------------------------- end of the game


def finish(s: PavilionState) -> Any:
    """Everyone passes (empty hands) in round 6; returns the last pass's outcome."""
    out = None
    while not s.is_over():
        out = play(s, Pass(()))
    assert s.current_player == TERMINAL and out.game_over
    return out


STAR_VALUES = [("central", 12), ("red", 14), ("blue", 15), ("yellow", 16), ("orange", 17), ("green", 18),
               ("purple", 20)]


@pytest.mark.parametrize("star, value", STAR_VALUES)
def test_completed_star_bonus(star: str, value: int) -> None:
    n = STAR_OF[star]
    s = position(round=6, boards=[{"spaces": colored(*(f"{n}.{k}" for k in range(1, 7))), "score": 40}])
    out = finish(s)
    assert s.breakdown()[0]["stars"] == value and s.breakdown()[0]["numbers"] == 0
    assert s.scores() == [40 + value, 5]
    assert [(e.points, e.reason) for e in scored(out) if e.player == 0] == [(value, "stars")]


@pytest.mark.parametrize("number, value", [(1, 4), (2, 8), (3, 12), (4, 16)])
def test_number_coverage_bonus(number: int, value: int) -> None:
    s = position(round=6, boards=[{"spaces": colored(*(f"{star}.{number}" for star in range(7)))}])
    finish(s)
    assert s.breakdown()[0]["numbers"] == value and s.breakdown()[0]["stars"] == 0
    assert s.scores()[0] == 5 + value


def test_number_coverage_needs_every_star() -> None:
    s = position(round=6, boards=[{"spaces": colored(*(f"{star}.1" for star in range(1, 7)))}])
    finish(s)
    assert s.breakdown()[0]["numbers"] == 0


def test_full_board_end_bonus() -> None:
    s = position(round=6, boards=[{"spaces": colored(*topo.SPACE_NAMES), "score": 100}, {"score": 105}])
    finish(s)
    assert s.breakdown()[0]["stars"] == 12 + 14 + 15 + 16 + 17 + 18 + 20 == 112
    assert s.breakdown()[0]["numbers"] == 4 + 8 + 12 + 16 == 40
    assert s.scores() == [252, 105] and s.winners() == [0]


def test_corner_tiles_left_after_round_six_lose_one_each() -> None:
    # A state built by hand with corner tiles in round 6 (play cannot leave any there).
    s = position(round=6, boards=[{"corners": ["red", "blue"], "score": 10, "passed": True}], to_move=1)
    finish(s)
    assert s.scores()[0] == 8 and s.board(0).corners == []


def test_ties_share_the_victory() -> None:
    s = position(3, round=6, boards=[{"score": 30}, {"score": 30}, {"score": 29}])
    finish(s)
    assert s.winners() == [0, 1]


# --------------------------------------------------------------------------- grey side


def test_grey_printed_numbers() -> None:
    grey = topo.PRINTED["grey"]
    assert grey[:6] == (3, 3, 3, 3, 3, 3)
    for star in range(1, 7):
        assert grey[6 * star:6 * star + 6] == (3, 2, 1, 4, 5, 6)
    assert topo.PRINTED["colored"] == tuple(k for _ in range(7) for k in range(1, 7))
    # one red tile on an empty grey board: exactly the spaces printed 1 (k = 3 of the outer stars)
    s = position(side="grey", boards=[{"hand": {"red": 1}}])
    assert placements(s) == {Place(f"{star}.3", "red", 0) for star in range(1, 7)}
    # three tiles reach every central space and the outer spaces printed 1, 2 and 3
    s = position(side="grey", boards=[{"hand": {"yellow": 3}}])
    assert {m.space for m in placements(s)} == (
        {f"0.{k}" for k in range(1, 7)} | {f"{star}.{k}" for star in range(1, 7) for k in (1, 2, 3)})
    out = play(s, Place("0.4", "yellow"))
    assert hand(s, 0) == {} and tower(s) == {"yellow": 2} and out.points(0) == 1


def test_grey_star_becomes_single_or_multicolour() -> None:
    s = position(side="grey", boards=[{"hand": {c: 6 for c in COLORS if c != "purple"},
                                       "spaces": {"2.1": "red", "3.1": "red", "3.2": "red", "4.1": "red", "4.2": "blue"}}])
    stars = {star: {m.color for m in placements(s) if m.space.startswith(f"{star}.")} for star in (2, 3, 4)}
    assert stars[2] == {"green", "orange", "yellow", "blue", "red"}  # one tile: still open
    assert stars[3] == {"red"}  # two reds: a single-colour star
    assert stars[4] == {"green", "orange", "yellow"}  # red and blue: multicolour, the others (purple not held)


@pytest.mark.parametrize("colors, value", [
    (["red"] * 6, 14), (["purple"] * 6, 20), (["green"] * 6, 18), (list(COLORS), 12)])
@pytest.mark.parametrize("star", [0, 3])
def test_grey_star_end_values(star: int, colors: list[str], value: int) -> None:
    spaces = {f"{star}.{k}": c for k, c in enumerate(colors, start=1)}
    s = position(side="grey", round=6, boards=[{"spaces": spaces}])
    finish(s)
    assert s.breakdown()[0]["stars"] == value


def test_grey_several_stars_of_one_colour() -> None:
    spaces = {f"{star}.{k}": "blue" for star in (1, 5) for k in range(1, 7)}
    spaces.update({f"0.{k}": c for k, c in enumerate(COLORS, start=1)})
    spaces.update({f"6.{k}": c for k, c in enumerate(reversed(COLORS), start=1)})
    s = position(side="grey", round=6, boards=[{"spaces": spaces}])
    finish(s)
    # two blue stars and two multicolour stars; 3s: the central star and every outer k=1 are not all covered
    assert s.breakdown()[0]["stars"] == 15 + 15 + 12 + 12
    assert s.breakdown()[0]["numbers"] == 0


def test_grey_number_coverage() -> None:
    # grey 3s: all the central star and k = 1 of every outer star
    spaces = {f"0.{k}": c for k, c in enumerate(COLORS, start=1)}
    spaces.update({f"{star}.1": "red" for star in range(1, 7)})
    s = position(side="grey", round=6, boards=[{"spaces": spaces}])
    finish(s)
    assert s.breakdown()[0]["numbers"] == 12 and s.breakdown()[0]["stars"] == 12
    # grey 1s: k = 3 of every outer star
    s = position(side="grey", round=6, boards=[{"spaces": {f"{star}.3": "red" for star in range(1, 7)}}])
    finish(s)
    assert s.breakdown()[0]["numbers"] == 4


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("players, side, seed", [(2, "colored", 1), (3, "grey", 2), (4, "colored", 3), (2, "grey", 4)])
def test_random_games_list_each_move_once(players: int, side: str, seed: int) -> None:
    rng = random.Random(seed)
    s = PavilionState.new(players, side)
    steps = 0
    while not s.is_over():
        if s.current_player == CHANCE:
            event = s.sample_chance(rng)
            assert isinstance(event, (Deal, Refill))
            s.apply_chance(event)
        else:
            moves = list(s.legal_moves())
            assert moves and len(moves) == len(set(moves)) == len(s.legal_moves())
            move = rng.choice(moves)
            if not isinstance(move, Pass) or rng.random() < 0.3 or len(moves) == 1:
                s.play(move)
            else:  # prefer placing, so that games reach bonuses and end bonuses
                places = [m for m in moves if not isinstance(m, Pass)] or moves
                s.play(rng.choice(places))
        check_totals(s)
        assert sum(s.tile_counts()) == 132
        steps += 1
        assert steps < 5000
    assert s.round == 6 and s.winners()
