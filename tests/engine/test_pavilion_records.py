"""Summer Pavilion game records: bad records are refused with the event index and the reason,
bare passes follow ruling 6, moves survive their JSON and text forms, seeded records draw their
chance events, and ``azulcam score`` reports a pavilion game round by round.

Records are built from real games (``play_game`` with greedy players, which place and so earn
bonus tiles and supply refills), cut at the event under test and given a bad event there.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from azulcam.cli import main
from azulcam.engine import pavilion_board as topo
from azulcam.engine.common import CHANCE
from azulcam.engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, RecordError
from azulcam.engine.pavilion import (
    Bonus,
    Pass,
    PavilionState,
    Place,
    Take,
    move_from_json,
    parse_move,
)
from azulcam.engine.players import GreedyPlayer
from azulcam.engine.record import Game, Record, final_state, play_game, replay, score_report
from azulcam.i18n.words import words as worded

COLORS = topo.COLORS
SETUP_SUPPLY = ["red", "blue", "yellow", "orange", "green", "purple", "red", "blue", "yellow", "orange"]


# --------------------------------------------------------------------------- helpers


def greedy_game(players: int = 2, side: str = "colored", seed: int = 3) -> Game:
    return play_game("pavilion", [GreedyPlayer() for _ in range(players)], {"side": side}, seed)


@pytest.fixture(scope="module")
def game() -> Game:
    """A finished 2-player greedy game whose record holds bonus and refill events."""
    g = greedy_game()
    assert g.state.is_over()
    return g


def cut(record: Record, n: int, *extra: dict[str, Any], **changes: Any) -> Record:
    """The record's first ``n`` events, then ``extra``; ``changes`` replace header fields."""
    fields = {"game": record.game, "players": record.players, "options": dict(record.options),
              "start_player": record.start_player, "seed": record.seed}
    fields.update(changes)
    return Record(events=[json.loads(json.dumps(e)) for e in record.events[:n]] + list(extra), **fields)


def refused(record: Record | str, index: int | None, *words: str) -> RecordError:
    """Replay the record (as JSON text, as a file would be read) and expect a RecordError at
    ``index`` whose reason (in its English words) names every one of ``words``."""
    text = record if isinstance(record, str) else record.dumps()
    with pytest.raises(RecordError) as info:
        final_state(Record.loads(text))
    err = info.value
    assert err.index == index, f"refused at event {err.index}, not {index}: {err}"
    reason = worded(err.reason)
    for word in words:
        assert word.lower() in reason.lower(), f"{word!r} not in the reason {reason!r}"
    if index is not None:
        assert worded(err).startswith(f"event {index}: ")
    return err


def first(record: Record, pred: Callable[[dict[str, Any]], bool], start: int = 0) -> int:
    for i, event in enumerate(record.events[start:], start):
        if pred(event):
            return i
    raise AssertionError("no such event in the record")


def is_move(action: str) -> Callable[[dict[str, Any]], bool]:
    return lambda e: "move" in e and e["move"]["action"] == action


def state_before(record: Record, n: int) -> PavilionState:
    """The (checked) state before event ``n``."""
    state = record.new_state()
    for step in replay(cut(record, n)):
        state = step.state
    return state


def game_until(pred: Callable[[PavilionState], bool], players: int = 2, side: str = "colored") -> Game:
    """A seeded random game (kept in a Game, so with its record) stopped at the first position
    where a player is to move and ``pred`` holds."""
    for seed in range(50):
        rng = random.Random(seed)
        g = Game.new("pavilion", players, {"side": side})
        while not g.state.is_over():
            state = g.state
            if state.current_player == CHANCE:
                g.apply(state.sample_chance(rng))
                continue
            if pred(state):
                return g
            moves = state.legal_moves()
            places = [m for m in moves if not isinstance(m, Pass)]
            pick = places if places and rng.random() < 0.8 else moves  # place often: hands shrink
            g.apply(pick[rng.randrange(len(pick))])
    raise AssertionError("no game reached such a position")


def placing_with(low: int, high: int, last_round: bool = False) -> Callable[[PavilionState], bool]:
    def pred(state: PavilionState) -> bool:
        held = sum(state.board(state.current_player).hand)
        others_placing = any(not state.board(q).passed for q in range(state.players) if q != state.current_player)
        return (state.phase == "place" and low <= held <= high and (state.round == 6) == last_round
                and others_placing)  # so that the pass does not end the round
    return pred


# --------------------------------------------------------------------------- refused records


def test_malformed_json_is_refused() -> None:
    err = refused('{"format": "azulcam-record/1", "game": "pavilion", "events": [', None, "malformed JSON", "line 1")
    assert err.index is None
    refused("[1, 2]", None, "JSON object")
    refused('{"format": "azulcam-record/1", "game": "pavilion", "players": 2, "events": {}}', None, "events")
    refused('{"format": "azulcam-record/2", "game": "pavilion", "players": 2, "events": []}', None, "azulcam-record/1")
    refused('{"format": "azulcam-record/1", "game": "pavilion", "players": 2, "events": [], "wall": 1}', None, "'wall'")


def test_malformed_events_are_refused_with_their_index(game: Game) -> None:
    rec = game.record
    refused(cut(rec, 1, 42), 1, "JSON object")
    refused(cut(rec, 1, {"shuffle": {}}), 1, "unknown event")
    refused(cut(rec, 1, {"player": 0}), 1, "'player' and 'move'")
    refused(cut(rec, 1, {"player": 0, "move": {"action": "take", "source": 0, "color": "red"}, "note": "x"}), 1, "'note'")
    refused(cut(rec, 1, {"player": 0, "move": {"action": "take", "source": 0}}), 1, "'color'")
    refused(cut(rec, 1, {"player": 0, "move": {"action": "wall", "row": 0, "column": 1}}), 1, "unknown", "'wall'")
    refused(cut(rec, 1, {"player": 0, "move": {"action": "place", "space": "7.1", "color": "red"}}), 1, "7.1")
    refused(cut(rec, 1, {"player": 0, "move": {"action": "take", "source": -1, "color": "red"}}), 1, "source")
    refused(cut(rec, 0, {"deal": {"factories": "red"}}), 0, "factories")


def test_unknown_option_is_refused(game: Game) -> None:
    refused(cut(game.record, 3, options={"wall": "grey"}), None, "unknown Summer Pavilion option 'wall'")
    refused(cut(game.record, 3, options={"side": "grey", "jokers": False}), None, "'jokers'")
    refused(cut(game.record, 3, options={"side": "blue"}), None, "side", "'blue'")
    refused(cut(game.record, 3, players=5), None, "2 to 4 players")
    refused(cut(game.record, 3, start_player=2), None, "start_player")
    with pytest.raises(RecordError):
        Game(cut(game.record, 3, options={"wall": "grey"}))


def test_unknown_colour_in_a_move_is_refused(game: Game) -> None:
    rec = game.record
    to_move = state_before(rec, 1).current_player
    refused(cut(rec, 1, {"player": to_move, "move": {"action": "take", "source": 0, "color": "black"}}), 1, "'black'")
    refused(cut(rec, 1, {"player": to_move, "move": {"action": "take", "source": "center", "color": "Red"}}), 1, "'Red'")
    refused(cut(rec, 1, {"player": to_move, "move": {"action": "take", "source": 5, "color": "red"}}), 1,
            "illegal move", "only 5 factories")
    refused(cut(rec, 1, {"player": to_move, "move": {"action": "take", "source": "center", "color": "red"}}), 1,
            "illegal move", "the centre holds no red")
    place = first(rec, is_move("place"))
    p = rec.events[place]["player"]
    refused(cut(rec, place, {"player": p, "move": {"action": "place", "space": "0.1", "color": "white"}}), place, "'white'")
    bonus = first(rec, is_move("bonus"))
    p = rec.events[bonus]["player"]
    refused(cut(rec, bonus, {"player": p, "move": {"action": "bonus", "colors": ["gold"]}}), bonus, "'gold'")
    passed = first(rec, is_move("pass"))
    p = rec.events[passed]["player"]
    refused(cut(rec, passed, {"player": p, "move": {"action": "pass", "keep": ["joker"]}}), passed, "'joker'")
    # and a deal with a tile that is no Summer Pavilion colour
    deal = json.loads(json.dumps(rec.events[0]))
    deal["deal"]["factories"][0][0] = "black"
    refused(cut(rec, 0, deal), 0, "'black'")


def test_a_move_by_the_wrong_player_is_refused(game: Game) -> None:
    rec = game.record
    for n, event in enumerate(rec.events):
        if "move" in event and n > 0:
            wrong = 1 - event["player"]
            bad = {"player": wrong, "move": event["move"]}
            refused(cut(rec, n, bad), n, f"player {wrong} moved", f"player {event['player']} is to move")
            if event["move"]["action"] == "bonus":
                break
    refused(cut(rec, 1, {"player": "0", "move": rec.events[1]["move"]}), 1, "'0' moved")
    refused(cut(rec, 1, {"player": 7, "move": rec.events[1]["move"]}), 1, "player 7 moved")
    # a move where chance is due, and chance where a player is due
    refused(cut(rec, 0, rec.events[1]), 0, "chance event is due")
    refused(cut(rec, 1, rec.events[0]), 1, "is to move, not chance (deal)")


def test_an_illegal_placement_is_refused(game: Game) -> None:
    rec = game.record
    n = first(rec, is_move("place"))
    state = state_before(rec, n)
    p = state.current_player
    hand = state.board(p).hand
    # a space costing 6 in a colour held fewer than 6 times, paid without wild tiles
    c = next(c for c in range(6) if hand[c] < 6)
    star = topo.STAR_COLOR.index(c)
    bad = {"player": p, "move": {"action": "place", "space": f"{star}.6", "color": COLORS[c], "wild": 0}}
    err = refused(cut(rec, n, bad), n, "illegal move", f"{star}.6", "costs 6")
    assert err.code == "illegal.move" and err.params["reason"].code == "illegal.space_costs"
    assert err.params["reason"].params["held"] == hand[c]
    # the steps before the bad event were all replayed
    assert [s.index for s in replay(cut(rec, n))] == list(range(n))
    # a colour that does not go on that star (coloured side)
    other = COLORS[(c + 1) % 6]
    refused(cut(rec, n, {"player": p, "move": {"action": "place", "space": f"{star}.1", "color": other}}),
            n, "illegal move", f"{other} may not go on star {star}")
    # more wild tiles than the space costs
    refused(cut(rec, n, {"player": p, "move": {"action": "place", "space": f"{star}.2", "color": COLORS[c], "wild": 2}}),
            n, "illegal move")
    # a take in phase 2
    refused(cut(rec, n, {"player": p, "move": {"action": "take", "source": 0, "color": "red"}}), n, "place a tile or pass")
    # a space already taken: the same player's earlier placement, played again this round
    for i in range(n, len(rec.events)):
        e = rec.events[i]
        if is_move("place")(e):
            j = first(rec, lambda x: "move" in x and x["player"] == e["player"], i + 1)
            if is_move("place")(rec.events[j]) or is_move("pass")(rec.events[j]):
                refused(cut(rec, j, e), j, "illegal move", f"space {e['move']['space']} is taken")
                return
    raise AssertionError("no placement followed by another turn of the same player")


def _setup_deal(supply: list[str] | None, factories: list[list[str]]) -> dict[str, Any]:
    body: dict[str, Any] = {} if supply is None else {"supply": supply}
    body["factories"] = factories
    return {"deal": body}


def test_impossible_setup_deals_are_refused(game: Game) -> None:
    rec = game.record
    # 23 red tiles: 10 in the supply and 13 on the factories (22 exist)
    factories = [["red"] * 4, ["red"] * 4, ["red"] * 4, ["red", "blue", "blue", "blue"], ["blue"] * 4]
    refused(cut(rec, 0, _setup_deal(["red"] * 10, factories)), 0, "23 red", "22")
    # 22 red is possible
    fine = [["red"] * 4, ["red"] * 4, ["red"] * 4, ["blue"] * 4, ["blue"] * 4]
    final_state(cut(rec, 0, _setup_deal(["red"] * 10, fine)))
    # the setup deal must fill the ten supply spaces
    factories = rec.events[0]["deal"]["factories"]
    refused(cut(rec, 0, _setup_deal(None, factories)), 0, "10 supply spaces")
    refused(cut(rec, 0, _setup_deal(SETUP_SUPPLY[:9], factories)), 0, "10 supply spaces")
    refused(cut(rec, 0, _setup_deal(SETUP_SUPPLY + ["red"], factories)), 0, "10 supply spaces")
    # the factories: five of them for two players, four tiles each, all dealt while the bag lasts
    refused(cut(rec, 0, _setup_deal(SETUP_SUPPLY, factories[:4])), 0, "5 factories")
    refused(cut(rec, 0, _setup_deal(SETUP_SUPPLY, [factories[0] + ["red"]] + factories[1:])), 0, "at most 4")
    refused(cut(rec, 0, _setup_deal(SETUP_SUPPLY, [factories[0][:3]] + factories[1:])), 0, "29 tiles", "30")
    # a refill where the setup deal is due
    refused(cut(rec, 0, {"refill": {"supply": ["red"]}}), 0, "deal", "not a refill")


def test_a_later_deal_with_a_supply_is_refused(game: Game) -> None:
    rec = game.record
    n = first(rec, lambda e: "deal" in e, 1)
    deal = json.loads(json.dumps(rec.events[n]))
    deal["deal"] = {"supply": SETUP_SUPPLY, **deal["deal"]}
    refused(cut(rec, n, deal), n, "supply is dealt only at setup")
    # and a later deal drawing more of a colour than the bag still holds
    state = state_before(rec, n)
    bag = state.to_json()["bag"]
    short = min(COLORS, key=lambda c: bag.get(c, 0))
    assert bag.get(short, 0) < 20
    tiles = [short] * (bag.get(short, 0) + 1)
    for c in COLORS:
        if c != short:
            tiles += [c] * max(0, min(bag.get(c, 0), 20 - len(tiles)))
    tiles = tiles[:20]
    assert len(tiles) == 20
    bad = {"deal": {"factories": [tiles[i:i + 4] for i in range(0, 20, 4)]}}
    refused(cut(rec, n, bad), n, f"{bag.get(short, 0) + 1} {short}", f"bag holds {bag.get(short, 0)}")


def test_a_deal_must_empty_the_bag_before_drawing_from_the_tower() -> None:
    """Four players use more than the 132 tiles: once the bag runs short, a deal holds every tile
    left in the bag and the rest from the tower; a deal that leaves a bag tile behind is refused."""
    rec = greedy_game(4, "colored", 3).record
    for n, event in enumerate(rec.events):
        if "deal" not in event or n == 0:
            continue
        state = state_before(rec, n)
        bag, tower = state.to_json()["bag"], state.to_json()["tower"]
        if sum(bag.values()) >= 36:
            continue
        dealt = [t for f in event["deal"]["factories"] for t in f]
        assert len(dealt) == min(36, sum(bag.values()) + sum(tower.values()))
        for c, k in bag.items():
            assert dealt.count(c) >= k, "the whole bag is dealt first"
        # the bag less one tile of a colour, filled up from the tower with other colours
        c = max(bag, key=bag.__getitem__)
        tiles = [x for x in COLORS for _ in range(bag.get(x, 0) - (x == c))]
        tiles += [x for x in COLORS if x != c for _ in range(tower.get(x, 0))][:len(dealt) - len(tiles)]
        assert len(tiles) == len(dealt)
        bad = {"deal": {"factories": [tiles[i:i + 4] for i in range(0, len(tiles), 4)]}}
        refused(cut(rec, n, bad), n, "bag ran out", f"all {bag[c]} {c}", f"not {bag[c] - 1}")
        return
    raise AssertionError("the bag never ran short")


def test_bad_refills_are_refused(game: Game) -> None:
    rec = game.record
    n = first(rec, lambda e: "refill" in e)
    good = rec.events[n]["refill"]["supply"]
    refused(cut(rec, n, {"refill": {"supply": good + ["red"]}}), n, f"{len(good) + 1} tiles", f"{len(good)} must be drawn")
    refused(cut(rec, n, {"refill": {"supply": []}}), n, "0 tiles", f"{len(good)} must be drawn")
    refused(cut(rec, n, {"refill": {"supply": "red"}}), n, "list of colours")
    refused(cut(rec, n, {"refill": {"supply": good, "factories": []}}), n, "'factories'")
    # a deal where a refill is due
    refused(cut(rec, n, {"deal": {"factories": [["red"]] * 5}}), n, "refill of the supply is due")
    # a refill when none is due: where a player is to move, where a deal is due, after the end
    m = first(rec, lambda e: "move" in e, n + 1)
    p = rec.events[m]["player"]
    refused(cut(rec, m, {"refill": {"supply": ["red"]}}), m, f"player {p} is to move", "refill")
    d = first(rec, lambda e: "deal" in e, 1)
    refused(cut(rec, d, {"refill": {"supply": ["red"]}}), d, "deal of the factories is due, not a refill")
    end = len(rec.events)
    refused(cut(rec, end, {"refill": {"supply": ["red"]}}), end, "game is already over")
    refused(cut(rec, end, rec.events[-1]), end, "game is already over")


def test_a_bonus_of_the_wrong_size_is_refused(game: Game) -> None:
    rec = game.record
    n = first(rec, is_move("bonus"))
    p = rec.events[n]["player"]
    owed = rec.events[n]["move"]["colors"]
    supply = state_before(rec, n).supply()
    extra = next(c for c in supply if c is not None)
    refused(cut(rec, n, {"player": p, "move": {"action": "bonus", "colors": owed + [extra]}}),
            n, "illegal move", f"{len(owed)} bonus tile(s) are due, not {len(owed) + 1}")
    refused(cut(rec, n, {"player": p, "move": {"action": "bonus", "colors": []}}),
            n, f"{len(owed)} bonus tile(s) are due, not 0")
    # more of a colour than the supply holds (the right number of tiles)
    for i, event in enumerate(rec.events):
        if not is_move("bonus")(event):
            continue
        size = len(event["move"]["colors"])
        held = state_before(rec, i).supply()
        short = [c for c in COLORS if held.count(c) < size]
        if short:
            c = short[0]
            colors = [c] * (held.count(c) + 1)
            colors += [x for x in held if x is not None and x != c][:size - len(colors)]
            refused(cut(rec, i, {"player": event["player"], "move": {"action": "bonus", "colors": colors}}),
                    i, f"the supply holds {held.count(c)} {c}, not {held.count(c) + 1}")
            break
    else:
        raise AssertionError("no bonus event to overdraw")
    # a bonus when none is due, and a placement when the bonus is due
    refused(cut(rec, 1, {"player": rec.events[1]["player"], "move": {"action": "bonus", "colors": ["red"]}}), 1, "take tiles")
    refused(cut(rec, n, {"player": p, "move": {"action": "pass", "keep": []}}), n, "bonus tile(s) from the supply")


# --------------------------------------------------------------------------- bare pass (ruling 6)


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_bare_pass_keeps_everything_with_four_tiles_or_fewer(count: int) -> None:
    g = game_until(placing_with(count, count))
    state = g.state
    p = state.current_player
    hand = list(state.board(p).hand)
    held = [COLORS[c] for c in range(6) for _ in range(hand[c])]
    assert len(held) == count
    score = state.scores()[p]
    # via play: the same as saying keep everything
    by_play = state.copy()
    outcome = by_play.play({"action": "pass"})
    explicit = state.copy()
    explicit.play(Pass(tuple(held)))
    assert by_play == explicit
    assert sorted(by_play.to_json()["boards"][p]["corners"]) == sorted(held)
    assert by_play.board(p).hand == [0] * 6
    assert by_play.scores()[p] == score and outcome.points(p) == 0
    for text_move in ("pass", Pass(None)):
        other = state.copy()
        other.play(text_move)
        assert other == explicit
    # via a record
    n = len(g.record.events)
    rec = cut(g.record, n, {"player": p, "move": {"action": "pass"}})
    replayed = final_state(Record.loads(rec.dumps()))
    assert replayed == by_play


@pytest.mark.parametrize("low, high", [(5, 5), (6, 99)])
def test_bare_pass_with_more_than_four_tiles_is_ambiguous(low: int, high: int) -> None:
    g = game_until(placing_with(low, high))
    state = g.state
    p = state.current_player
    before = state.to_json()
    for move in ({"action": "pass"}, "pass", Pass(None)):
        with pytest.raises(AmbiguousMoveError) as info:
            state.play(move)
        assert info.value.code == "move.pass_which" and info.value.params == {"player": p, "held": sum(state.board(p).hand)}
    assert state.to_json() == before, "a refused pass changed the state"
    n = len(g.record.events)
    refused(cut(g.record, n, {"player": p, "move": {"action": "pass"}}), n, "which (up to 4) to keep")
    # saying what to keep works, and keeping five is refused
    hand = state.board(p).hand
    held = [COLORS[c] for c in range(6) for _ in range(hand[c])]
    final_state(cut(g.record, n, {"player": p, "move": {"action": "pass", "keep": held[:4]}}))
    refused(cut(g.record, n, {"player": p, "move": {"action": "pass", "keep": held[:5]}}), n, "at most 4")


def test_bare_pass_in_round_six_discards_everything() -> None:
    g = game_until(placing_with(5, 99, last_round=True))
    state = g.state
    p = state.current_player
    held = sum(state.board(p).hand)
    score = state.scores()[p]
    after = state.copy()
    after.play({"action": "pass"})
    assert after.board(p).hand == [0] * 6 and after.board(p).corners == []
    assert after.scores()[p] == max(1, score - held)
    assert not after.is_over() and after.board(p).passed
    n = len(g.record.events)
    assert final_state(cut(g.record, n, {"player": p, "move": {"action": "pass"}})) == after
    refused(cut(g.record, n, {"player": p, "move": {"action": "pass", "keep": ["red"]}}), n, "last round")


# --------------------------------------------------------------------------- move forms


EXAMPLES = [
    (Take(0, "green"), {"action": "take", "source": 0, "color": "green"}, "take 0 green"),
    (Take("center", "purple"), {"action": "take", "source": "center", "color": "purple"}, "take center purple"),
    (Place("4.6", "blue", 3), {"action": "place", "space": "4.6", "color": "blue", "wild": 3}, "place 4.6 blue wild=3"),
    (Place("0.1", "red"), {"action": "place", "space": "0.1", "color": "red", "wild": 0}, "place 0.1 red wild=0"),
    (Bonus(("red", "purple")), {"action": "bonus", "colors": ["purple", "red"]}, "bonus purple,red"),
    (Bonus(()), {"action": "bonus", "colors": []}, "bonus -"),
    (Pass(("green", "green")), {"action": "pass", "keep": ["green", "green"]}, "pass green,green"),
    (Pass(()), {"action": "pass", "keep": []}, "pass -"),
    (Pass(None), {"action": "pass"}, "pass"),
]


@pytest.mark.parametrize("move, data, text", EXAMPLES, ids=[e[2] for e in EXAMPLES])
def test_move_json_and_text_forms(move: Any, data: dict[str, Any], text: str) -> None:
    assert move.to_json() == data
    assert str(move) == text
    assert move_from_json(json.loads(json.dumps(data))) == move
    assert parse_move(text) == move
    assert type(parse_move(text)) is type(move)


def test_move_forms_read_the_contract_examples() -> None:
    assert move_from_json({"action": "place", "space": "4.6", "color": "blue"}) == Place("4.6", "blue", 0)
    assert parse_move("place 4.6 blue") == Place("4.6", "blue", 0)
    assert move_from_json({"action": "bonus", "colors": ["red", "purple"]}) == Bonus(("purple", "red"))
    assert Bonus(("red", "purple")) == Bonus(("purple", "red"))
    assert Pass(("red", "green")) == Pass(("green", "red"))
    assert Pass(()) != Pass(None)


@pytest.mark.parametrize("data", [
    {"action": "take", "source": 0, "color": "black"},
    {"action": "take", "source": True, "color": "red"},
    {"action": "take", "source": "centre", "color": "red"},
    {"action": "take", "source": 0, "color": "red", "line": 2},
    {"action": "place", "space": 46, "color": "blue"},
    {"action": "place", "space": "4.7", "color": "blue"},
    {"action": "place", "space": "4.6", "color": "blue", "wild": -1},
    {"action": "place", "space": "4.6", "color": "blue", "wild": "3"},
    {"action": "bonus", "colors": "red"},
    {"action": "bonus"},
    {"action": "pass", "keep": "red"},
    {"action": "wall", "row": 1, "column": 1},
    ["take", 0, "red"],
])
def test_bad_move_json_is_refused(data: Any) -> None:
    with pytest.raises(InvalidMoveError):
        move_from_json(data)


@pytest.mark.parametrize("text", [
    "", "take", "take x green", "take 0 black", "place 4.6", "place 4.6 blue wild=x", "place 4.6 blue w=3",
    "place 9.9 blue", "bonus", "bonus red,black", "pass a b", "jump 1",
])
def test_bad_move_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(text)


@pytest.mark.parametrize("side", ["colored", "grey"])
def test_every_legal_move_survives_json_and_text(side: str) -> None:
    rng = random.Random(11)
    kinds = set()
    for players in (2, 4):
        state = PavilionState.new(players, side)
        while not state.is_over():
            if state.current_player == CHANCE:
                event = state.sample_chance(rng)
                assert state.copy().apply_chance(json.loads(json.dumps(event.to_json())))
                state.apply_chance(event)
                continue
            moves = list(state.legal_moves())
            for move in moves:
                assert move_from_json(json.loads(json.dumps(move.to_json()))) == move
                assert parse_move(str(move)) == move
                kinds.add(type(move))
            places = [m for m in moves if not isinstance(m, Pass)]
            pick = places if places and rng.random() < 0.9 else moves
            state.play(pick[rng.randrange(len(pick))])
    assert kinds == {Take, Place, Bonus, Pass}


# --------------------------------------------------------------------------- seeded records


@pytest.mark.parametrize("side, players", [("colored", 2), ("grey", 3), ("colored", 4)])
def test_a_seeded_record_without_chance_events_draws_them(side: str, players: int) -> None:
    seed = 17
    g = greedy_game(players, side, seed)
    chance = [e for e in g.record.events if "move" not in e]
    moves_only = [e for e in g.record.events if "move" in e]
    assert any("refill" in e for e in chance) or players != 2
    rec = Record("pavilion", players, {"side": side}, 0, moves_only, seed=seed)
    loaded = Record.loads(rec.dumps())
    assert loaded.seed == seed and loaded.events == moves_only
    end = final_state(loaded)
    assert end == g.state
    # the drawn events are the ones the game had, in order
    steps = list(replay(loaded))
    assert [s.event for s in steps if "move" not in s.event] == chance
    assert [s.event for s in steps if "move" in s.event] == moves_only
    assert score_report(loaded) == score_report(g.record)


def test_a_seeded_record_with_no_events_draws_the_setup() -> None:
    rec = Record("pavilion", 3, {"side": "grey"}, 1, [], seed=5)
    state = final_state(Record.loads(rec.dumps()))
    assert state.phase == "acquire" and state.current_player == 1
    assert all(c is not None for c in state.supply())
    reference = PavilionState.new(3, "grey", 1)
    reference.apply_chance(reference.sample_chance(random.Random(5)))
    assert state == reference
    # without a seed the same record simply stops before the deal
    assert final_state(Record("pavilion", 3, {"side": "grey"}, 1, [])).current_player == CHANCE


def test_seed_must_be_an_integer() -> None:
    text = json.dumps({"format": "azulcam-record/1", "game": "pavilion", "players": 2, "seed": "7", "events": []})
    refused(text, None, "seed")


# --------------------------------------------------------------------------- score report (CLI)


@pytest.mark.parametrize("side, players, seed", [("colored", 2, 1), ("grey", 3, 2), ("colored", 4, 3), ("grey", 2, 4)])
def test_score_report_of_a_pavilion_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], side: str,
                                           players: int, seed: int) -> None:
    out = tmp_path / "game.json"
    assert main(["play", "--game", "pavilion", "--side", side, "--players", str(players),
                 "--seed", str(seed), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["score", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["format"] == "azulcam-score/1" and report["game"] == "pavilion"
    assert [r["round"] for r in report["rounds"]] == [1, 2, 3, 4, 5, 6]
    assert all(len(r["scores"]) == players for r in report["rounds"])
    final, parts = report["final"], report["breakdown"]
    assert len(final) == len(parts) == players
    assert final == [sum(part.values()) for part in parts]
    assert all(set(part) == {"start", "placement", "penalties", "stars", "numbers"} for part in parts)
    assert report["winners"] == [p for p in range(players) if final[p] == max(final)]
    # round 6's scores are before the end bonuses; the final adds them
    last = report["rounds"][-1]["scores"]
    assert [s + part["stars"] + part["numbers"] for s, part in zip(last, parts)] == final
    # and the rounds are the replayed scores at each round end
    record = Record.load(out)
    assert record.game == "pavilion" and record.options == {"side": side} and record.player_count == players
    ends = [list(step.state.scores()) for step in replay(record) if step.outcome.round_over]
    assert [r["scores"] for r in report["rounds"][:5]] == ends[:5]
    assert score_report(record) == report
    # --compact prints the same report on one line
    assert main(["score", "--compact", str(out)]) == 0
    compact = capsys.readouterr().out
    assert compact.count("\n") == 1 and json.loads(compact) == report


def test_score_of_a_bad_record_names_the_event(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: Game) -> None:
    n = first(game.record, is_move("place"))
    bad = cut(game.record, len(game.record.events))
    bad.events[n] = {"player": 1 - bad.events[n]["player"], "move": bad.events[n]["move"]}
    path = tmp_path / "bad.json"
    bad.save(path)
    assert main(["score", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"event {n}:" in captured.err and "is to move" in captured.err
    path.write_text('{"format": "azulcam-record/1", "game": "pavilion", "players": 2, "events": [', encoding="utf-8")
    assert main(["score", str(path)]) == 1
    assert "malformed JSON" in capsys.readouterr().err
    path.write_text(json.dumps({"format": "azulcam-record/1", "game": "pavilion", "options": {"wall": "grey"},
                                "players": 2, "events": []}), encoding="utf-8")
    assert main(["score", str(path)]) == 1
    assert "options.wall is not a known field" in capsys.readouterr().err


def test_illegal_move_errors_are_record_errors_through_replay(game: Game) -> None:
    """Every refusal through replay is a RecordError (never a bare IllegalMoveError)."""
    n = first(game.record, is_move("place"))
    bad = cut(game.record, n, {"player": game.record.events[n]["player"],
                               "move": {"action": "place", "space": "3.6", "color": "red", "wild": 5}})
    with pytest.raises(RecordError) as info:
        list(replay(bad))
    assert not isinstance(info.value, IllegalMoveError)
    assert info.value.index == n
