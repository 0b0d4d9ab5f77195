"""Bad input of every kind is refused with a message that says what is wrong and where:
move JSON and text, illegal moves, impossible deals, and game records. The message is a code
with its parameters; what a person reads is its English words (``words``), checked here."""

from __future__ import annotations

import json
import re
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from azulcam.engine.azul import AzulState, Deal, Take, WallMove, move_from_json, parse_move
from azulcam.engine.common import CHANCE
from azulcam.engine.errors import EngineError, IllegalMoveError, ImpossibleDealError, InvalidMoveError, RecordError
from azulcam.engine.notice import Notice
from azulcam.engine.record import Record, replay, score_report
from azulcam.i18n.words import words

RECORDS = Path(__file__).parents[2] / "fixtures" / "records"


def offer_position(grey: bool = False) -> AzulState:
    """Player 0 to move: red on line 0 (full), blue on line 3, yellow on wall rows 1 and 2;
    factory 0 yellow yellow red black, factory 1 four whites, two blues in the centre."""
    data = AzulState.new(2, "grey" if grey else "colored").to_json()
    data["phase"] = "offer"
    data["factories"] = [["yellow", "yellow", "red", "black"], ["white"] * 4, [], [], []]
    data["center"] = {"blue": 2}
    board = data["boards"][0]
    board["lines"][0] = {"color": "red", "count": 1, "jokers": 0}
    board["lines"][3] = {"color": "blue", "count": 1, "jokers": 0}
    board["wall"][1][2] = "yellow"
    board["wall"][2][3] = "yellow"
    data["bag"] = {"blue": 17, "yellow": 16, "red": 18, "black": 19, "white": 16}
    state = AzulState.from_json(data)
    assert sum(state.tile_counts()) == 100
    return state


@contextmanager
def refused(kind: type[EngineError], said: str) -> Iterator[pytest.ExceptionInfo[EngineError]]:
    """As ``pytest.raises(kind)``, the error's English words searched for the pattern ``said``."""
    with pytest.raises(kind) as caught:
        yield caught
    assert re.search(said, words(caught.value)), words(caught.value)


# --------------------------------------------------------------------------- move JSON and text

BAD_MOVES = [
    ({"action": "take", "source": 0, "color": "blue", "line": 1, "row": 2}, "unknown key 'row'"),
    ({"action": "take", "source": 0, "color": "green", "line": 1}, "unknown colour 'green'"),
    ({"action": "take", "source": 0, "color": "joker", "line": 1}, "unknown colour 'joker'"),
    ({"action": "take", "source": 0, "color": "blue", "line": 5}, r"line must be 0\.\.4 or 'floor', not 5"),
    ({"action": "take", "source": 0, "color": "blue", "line": "2"}, r"line must be 0\.\.4 or 'floor', not '2'"),
    ({"action": "take", "source": 0, "color": "blue", "line": True}, r"line must be 0\.\.4 or 'floor', not True"),
    ({"action": "take", "source": "centre", "color": "blue", "line": 1},
     "source must be a factory index or 'center', not 'centre'"),
    ({"action": "take", "source": -1, "color": "blue", "line": 1}, "source must be a factory index or 'center', not -1"),
    ({"action": "take", "color": "blue", "line": 1}, "lacks 'source'"),
    ({"action": "take", "source": 0, "line": 1}, "a take needs a colour, or jokers: true"),
    ({"action": "take", "source": 0, "color": "blue", "line": 1, "jokers": 1}, "jokers must be true or false, not 1"),
    ({"action": "take", "source": 0, "color": "blue", "line": 1, "jokers": True, "floor_jokers": -1},
     "floor_jokers must be a count, not -1"),
    ({"action": "wall", "row": 5, "column": 1}, r"row must be 0\.\.4, not 5"),
    ({"action": "wall", "row": 1, "column": 5}, r"column must be 0\.\.4 or 'floor', not 5"),
    ({"action": "wall", "row": 1}, "lacks 'column'"),
    ({"action": "wall", "row": 1, "column": 2, "color": "red"}, "unknown key 'color'"),
    ({"action": "place", "space": "1.1"}, "unknown Azul action 'place'"),
    ({"source": 0, "color": "blue", "line": 1}, "unknown Azul action None"),
    (["take", 0, "blue", 1], "a move must be a JSON object"),
]


@pytest.mark.parametrize("data, message", BAD_MOVES, ids=[m for _, m in BAD_MOVES])
def test_malformed_move_json(data: Any, message: str) -> None:
    with refused(InvalidMoveError, message):
        move_from_json(data)
    # play() reads JSON moves the same way, before looking at the position.
    with refused(InvalidMoveError, message if isinstance(data, dict) else "not an Azul move"):
        offer_position().play(data)


@pytest.mark.parametrize("text", ["take 0 blue", "take 0 blue 1 2", "give 0 blue 1", "take zero blue 1", "take 0 blue+red 1",
                                  "take 0 joker+joker 1", "take 0 blue 1 jokers=1", "wall 1", "wall 1 two", ""])
def test_unreadable_move_text(text: str) -> None:
    with refused(InvalidMoveError, "cannot read move") as caught:
        parse_move(text)
    assert caught.value.code == "move.unreadable" and caught.value.params["text"] == text


def test_move_text_with_bad_fields_names_the_field() -> None:
    with refused(InvalidMoveError, "unknown colour 'green'"):
        parse_move("take 0 green 1")
    with refused(InvalidMoveError, r"line must be 0\.\.4"):
        parse_move("take center blue 7")
    with refused(InvalidMoveError, r"row must be 0\.\.4"):
        parse_move("wall 9 1")


def test_not_a_move() -> None:
    with refused(InvalidMoveError, "not an Azul move"):
        offer_position().play(42)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- illegal moves

ILLEGAL = [
    (Take(0, "blue", 1), "factory 0 holds no blue tile"),
    (Take("center", "red", 2), "the centre holds no red tile"),
    (Take(7, "blue", 1), "there are only 5 factories"),
    (Take(0, "yellow", 3), "pattern line 3 already holds blue"),
    (Take(0, "yellow", 1), "wall row 1 already has yellow"),
    (Take(0, "yellow", 2), "wall row 2 already has yellow"),
    (Take(1, "white", 0), "pattern line 0 is full"),
    (Take(0, "yellow", 4, True), "jokers are not in play in this game"),
    (WallMove(0, 1), "wall moves are made during wall tiling only"),
]


@pytest.mark.parametrize("move, reason", ILLEGAL, ids=[r for _, r in ILLEGAL])
def test_illegal_move(move: Any, reason: str) -> None:
    state = offer_position()
    before = state.to_json()
    with refused(IllegalMoveError, re.escape(f"illegal move {move} for player 0: {reason}")) as caught:
        state.play(move)
    # the move and the player, and why: a reason of its own, worded in its place
    assert caught.value.code == "illegal.move" and caught.value.params["player"] == 0
    assert isinstance(caught.value.params["reason"], Notice) and words(caught.value.params["reason"]) == reason
    with refused(IllegalMoveError, reason):  # the same through JSON and text
        state.play(move.to_json())
    with refused(IllegalMoveError, reason):
        state.play(str(move))
    assert state.to_json() == before  # nothing moved


def test_move_before_the_deal() -> None:
    state = AzulState.new(2)
    with refused(IllegalMoveError, "the factories must be dealt first"):
        state.play(Take(0, "blue", 1))


def test_move_after_the_end() -> None:
    state = AzulState.new(2)
    rng = random.Random(5)
    while not state.is_over():
        if state.current_player == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            state.play_unchecked(moves[rng.randrange(len(moves))])
    with refused(IllegalMoveError, "the game is over"):
        state.play(Take(0, "blue", 1))
    with refused(ImpossibleDealError, "no deal is due now: the game is over"):
        state.apply_chance(Deal(((),) * 5))


def test_grey_wall_moves_say_why() -> None:
    data = AzulState.new(2, "grey").to_json()
    data.update(phase="offer", marker=1, center={"red": 1})
    data["boards"][1]["floor"] = ["first_player"]
    data["boards"][0]["lines"][1] = {"color": "red", "count": 1, "jokers": 0}
    data["boards"][0]["wall"][0][2] = "red"
    data["boards"][0]["wall"][1][3] = "blue"
    data["bag"].update(red=17, blue=19)
    state = AzulState.from_json(data)
    assert sum(state.tile_counts()) == 100
    state.play(Take("center", "red", 1))
    assert state.phase == "tiling"
    assert list(state.legal_moves()) == [WallMove(1, c) for c in (0, 1, 4)]
    for move, reason in [
        (WallMove(1, 2), "column 2 already has red"),
        (WallMove(1, 3), "wall space 1.3 is taken"),
        (WallMove(1, "floor"), r"line 1 fits on the wall \(columns 0, 1, 4\): the floor only when none does"),
        (WallMove(3, 0), "line 1 is the next complete line to tile, not line 3"),
        (Take(1, "white", 4), "wall tiling is under way: player 0 must place line 1 first"),
    ]:
        with refused(IllegalMoveError, reason):
            state.play(move)
    state.play(WallMove(1, 4))
    assert state.current_player == CHANCE


def test_joker_moves_that_break_no_key_rule_but_no_legal_move() -> None:
    data = AzulState.new(2, jokers=True).to_json()
    data["phase"] = "offer"
    data["factories"] = [["blue", "blue", "joker", "red"], ["white"] * 4, [], [], []]
    data["bag"] = {"blue": 17, "yellow": 19, "red": 18, "black": 19, "white": 15, "joker": 4}
    state = AzulState.from_json(data)
    assert sum(state.tile_counts()) == 100
    with refused(IllegalMoveError, "factory 1 holds no joker"):
        state.play(Take(1, "white", 2, True))
    with refused(IllegalMoveError, "not among the legal moves"):
        state.play(Take(0, "blue", 3, True, 1))  # nothing overflows: no joker goes to the floor


# --------------------------------------------------------------------------- impossible deals


def deal(*factories: list[str]) -> Deal:
    return Deal(tuple(tuple(f) for f in factories))


FIVE = [["blue"] * 4, ["yellow"] * 4, ["red"] * 4, ["black"] * 4, ["white"] * 4]


@pytest.mark.parametrize("factories, message", [
    (FIVE[:4], "a 2-player game has 5 factories, the deal fills 4"),
    (FIVE + [["blue"] * 4], "a 2-player game has 5 factories, the deal fills 6"),
    (FIVE[:4] + [["white"] * 3], r"the deal has 19 tiles but 20 must be dealt \(bag 100, lid 0, 5 factories of 4\)"),
    ([["blue"] * 5] + FIVE[1:4] + [["white"] * 3], "factory 0 holds 5 tiles, at most 4 fit"),
    (FIVE[:4] + [["white", "white", "white", "joker"]], "factory 4: 'joker' is not a tile of this game"),
], ids=["too few factories", "too many factories", "wrong total", "overfull factory", "joker without jokers"])
def test_impossible_deal(factories: list[list[str]], message: str) -> None:
    state = AzulState.new(2)
    with refused(ImpossibleDealError, message):
        state.apply_chance(deal(*factories))
    assert state.current_player == CHANCE and state.to_json() == AzulState.new(2).to_json()


def test_deal_with_more_of_a_colour_than_the_bag_holds() -> None:
    state = AzulState.new(2, jokers=True)  # 19 of each colour
    with refused(ImpossibleDealError, "the deal has 20 blue but the bag holds 19") as caught:
        state.apply_chance(deal(*[["blue"] * 4] * 5))
    assert caught.value.code == "deal.more_than_bag" and caught.value.params["n"] == 20 and caught.value.params["bag"] == 19
    state.apply_chance(deal(["blue"] * 4, ["blue"] * 4, ["blue"] * 4, ["blue"] * 4, ["blue", "blue", "blue", "joker"]))


def test_deal_when_the_bag_runs_out() -> None:
    """The bag holds 6 tiles: all 6 must be dealt, the rest come from the lid."""
    data = AzulState.new(2).to_json()
    data["bag"] = {"blue": 4, "red": 2}
    data["lid"] = {"blue": 16, "yellow": 20, "red": 18, "black": 3, "white": 20}  # (17 black elsewhere)
    state = AzulState.from_json(data)
    with refused(ImpossibleDealError, "all 2 red of the bag must be dealt, not 1"):
        state.copy().apply_chance(deal(["blue"] * 4, ["red", "yellow", "yellow", "yellow"], ["black"] * 4, ["white"] * 4,
                                       ["yellow"] * 4))
    with refused(ImpossibleDealError, "the deal has 8 black but bag and lid hold 3"):
        state.copy().apply_chance(deal(["blue"] * 4, ["red", "red", "yellow", "yellow"], ["black"] * 4, ["black"] * 4,
                                       ["white"] * 4))
    state.apply_chance(deal(["blue"] * 4, ["red", "red", "yellow", "yellow"], ["black", "black", "black", "white"],
                            ["white"] * 4, ["yellow"] * 4))
    assert state.to_json()["lid"] == {}
    assert state.to_json()["bag"] == {"blue": 16, "yellow": 14, "red": 18, "white": 15}


def test_deal_json_errors() -> None:
    state = AzulState.new(2)
    with refused(InvalidMoveError, "unknown tile 'green' in deal"):
        state.apply_chance({"deal": {"factories": [["green"] * 4] * 5}})
    with refused(InvalidMoveError, "unknown key 'supply' in deal"):
        state.apply_chance({"factories": FIVE, "supply": []})
    with refused(InvalidMoveError, "deal factories must be a list of lists"):
        state.apply_chance({"factories": "blue"})


def test_deal_during_the_offer() -> None:
    state = offer_position()
    with refused(ImpossibleDealError, "no deal is due now: player 0 is to move"):
        state.apply_chance(deal(*FIVE))


# --------------------------------------------------------------------------- records

HEAD = {"format": "azulcam-record/1", "game": "azul", "options": {"wall": "colored", "jokers": False},
        "players": 2, "start_player": 0}
DEAL = {"deal": {"factories": [["red", "white", "yellow", "yellow"], ["red", "yellow", "blue", "blue"], ["black"] * 4,
                               ["white"] * 4, ["blue", "red", "black", "white"]]}}


def take(player: int, source: int | str, color: str, line: int | str) -> dict[str, Any]:
    return {"player": player, "move": {"action": "take", "source": source, "color": color, "line": line}}


def record_text(events: list[Any], **head: Any) -> str:
    return json.dumps({**HEAD, **head, "events": events})


def record_error(text: str) -> RecordError:
    """The error of reading and replaying ``text``, both through replay() and score_report()."""
    with pytest.raises(RecordError) as caught:
        for _ in replay(Record.loads(text)):
            pass
    with pytest.raises(RecordError) as again:
        score_report(Record.loads(text))
    assert str(again.value) == str(caught.value)
    return caught.value


def test_record_malformed_json() -> None:
    err = record_error('{"format": "azulcam-record/1", "events": [\n  {"deal": }\n]}')
    assert err.index is None
    assert words(err) == "malformed JSON at line 2 column 12: Expecting value"


@pytest.mark.parametrize("head, message", [
    ({"notes": "x"}, "unknown key 'notes' in the record"),
    ({"format": "azulcam-record/2"}, "not an azulcam-record/1 record"),
    ({"format": "azulcam-profile/1", "boards": []}, "not an azulcam-record/1 record (format is 'azulcam-profile/1')"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"players": "two"}, "players must be a count or a list of names, not 'two'"),
    ({"players": ["Ann", "B\ud800b"]}, "players[1]: a name must be valid Unicode text"),
    ({"players": 5}, "Azul is played by 2 to 4 players, not 5"),
    ({"options": {"wall": "colored", "tiles": 3}}, "unknown Azul option 'tiles'"),
    ({"options": {"wall": "purple"}}, "wall must be 'colored' or 'grey', not 'purple'"),
    ({"start_player": 2}, "start_player must be 0..1, not 2"),
])
def test_record_bad_head(head: dict[str, Any], message: str) -> None:
    err = record_error(record_text([DEAL], **head))
    assert err.index is None
    assert message in words(err.reason)


def test_record_events_not_a_list() -> None:
    with refused(RecordError, "events must be a list"):
        Record.loads(json.dumps({**HEAD, "events": {}}))


RECORD_EVENT_ERRORS = [
    ("unknown event key", [DEAL, {**take(0, 2, "black", 1), "note": "x"}], 1, "unknown key 'note' in a move event"),
    ("unknown event", [{"shuffle": 1}], 0, "unknown event ['shuffle'] (expected a move, a position or one of deal)"),
    ("event not an object", [DEAL, "take 2 black 1"], 1, "an event must be a JSON object"),
    ("move without player", [DEAL, {"move": take(0, 2, "black", 1)["move"]}], 1, "a move event needs both 'player' and 'move'"),
    ("unknown colour", [DEAL, take(0, 2, "green", 1)], 1, "unknown colour 'green'"),
    ("bad line", [DEAL, take(0, 2, "black", 6)], 1, "line must be 0..4 or 'floor', not 6"),
    ("wrong player", [DEAL, take(1, 2, "black", 1)], 1, "player 1 moved, but player 0 is to move"),
    ("illegal move", [DEAL, take(0, 2, "black", 1), take(1, 2, "black", 1)], 2,
     "illegal move take 2 black 1 for player 1: factory 2 holds no black tile"),
    ("illegal line", [DEAL, take(0, 2, "black", 1), take(1, 3, "white", 3), take(0, "center", "blue", 1)], 3,
     "illegal move take center blue 1 for player 0: the centre holds no blue tile"),
    ("impossible deal", [{"deal": {"factories": [["blue"] * 4] * 4}}], 0, "a 2-player game has 5 factories, the deal fills 4"),
    ("deal of unknown tiles", [{"deal": {"factories": [["green"] * 4] * 5}}], 0, "unknown tile 'green' in deal"),
    ("move before the deal", [take(0, 2, "black", 1)], 0, "a chance event is due here, not a move by player 0"),
    ("deal during the offer", [DEAL, DEAL], 1, "player 0 is to move, not chance (deal)"),
]


@pytest.mark.parametrize("events, index, reason", [c[1:] for c in RECORD_EVENT_ERRORS], ids=[c[0] for c in RECORD_EVENT_ERRORS])
def test_record_event_errors(events: list[Any], index: int, reason: str) -> None:
    err = record_error(record_text(events))
    assert err.index == index
    assert words(err.reason).startswith(reason)
    assert words(err).startswith(f"event {index}: ")


def test_record_error_deep_in_a_real_game() -> None:
    """Break one move of a committed game: the error names that event, not an earlier one."""
    record = Record.load(RECORDS / "azul-2p-colored.json")
    moves = [i for i, e in enumerate(record.events) if "move" in e]
    k = moves[len(moves) // 2]
    good = record.events[k]["player"]
    record.events[k] = {"player": 1 - good, "move": record.events[k]["move"]}
    with pytest.raises(RecordError) as caught:
        score_report(record)
    assert caught.value.index == k
    assert caught.value.code == "record.wrong_player" and caught.value.params == {"player": str(1 - good), "to_move": good}
    assert words(caught.value.reason) == f"player {1 - good} moved, but player {good} is to move"


def test_record_event_after_the_end() -> None:
    record = Record.load(RECORDS / "azul-2p-colored.json")
    n = len(record.events)
    record.events.append(DEAL)
    with pytest.raises(RecordError) as caught:
        score_report(record)
    assert caught.value.index == n
    assert caught.value.reason == Notice("record.game_over")


# --------------------------------------------------------------------------- round trips


def _moves_seen() -> list[Any]:
    """Every legal move met in short random games of each variant (joker moves with floor_jokers included)."""
    seen: dict[str, Any] = {}
    rng = random.Random(7)
    for wall in ("colored", "grey"):
        for jokers in (False, True):
            state = AzulState.new(3, wall, jokers)
            while not state.is_over() and state.round <= 3:
                if state.current_player == CHANCE:
                    state.apply_chance(state.sample_chance(rng))
                    continue
                moves = state.legal_moves()
                for m in moves:
                    seen.setdefault(repr(m), m)
                state.play(moves[rng.randrange(len(moves))])
    return list(seen.values())


MOVES = _moves_seen() + [WallMove(3, "floor"), Take("center", None, "floor", True), Take(8, "white", 4, True, 2)]


def test_round_trips_cover_every_kind_of_move() -> None:
    assert any(isinstance(m, WallMove) and m.column == "floor" for m in MOVES)
    assert any(isinstance(m, WallMove) and m.column != "floor" for m in MOVES)
    assert any(isinstance(m, Take) and m.floor_jokers for m in MOVES)
    assert any(isinstance(m, Take) and m.color is None for m in MOVES)
    assert any(isinstance(m, Take) and m.source == "center" and m.line == "floor" for m in MOVES)


def test_text_round_trip() -> None:
    for move in MOVES:
        assert parse_move(str(move)) == move, str(move)


def test_json_round_trip() -> None:
    for move in MOVES:
        data = move.to_json()
        assert move_from_json(json.loads(json.dumps(data))) == move, data


def test_move_forms() -> None:
    assert str(Take(2, "blue", 3)) == "take 2 blue 3"
    assert str(Take("center", "red", "floor")) == "take center red floor"
    assert str(Take(1, "blue", 2, True, 1)) == "take 1 blue+joker 2 floor_jokers=1"
    assert str(Take(0, None, 4, True)) == "take 0 joker 4"
    assert str(WallMove(2, 4)) == "wall 2 4"
    assert Take(2, "blue", 3).to_json() == {"action": "take", "source": 2, "color": "blue", "line": 3}
    assert Take(0, None, 4, True).to_json() == {"action": "take", "source": 0, "color": None, "line": 4, "jokers": True}
    assert WallMove(2, "floor").to_json() == {"action": "wall", "row": 2, "column": "floor"}
    assert parse_move("take 1 joker+blue 2") == Take(1, "blue", 2, True)
