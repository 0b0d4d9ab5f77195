"""The filter on views of engine states read through a known confusion: what it commits, and how surely."""

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azulcam.engine.players import GreedyPlayer
from azulcam.engine.record import Game, play_game
from azulcam.engine.zones import Zone
from azulcam.follow.explain import View, ZoneRead, exact_view
from azulcam.follow.filter import LOST_VIEWS, Filter
from azulcam.follow.likelihoods import seen_view
from azulcam.follow.seen import LooseRead, Reading, assignment, pairing_cost
from support.confusion import misread_at_random, states_seen, view_of
from support.tracking import sorted_deals


def _game(game, players, options, seed):
    return play_game(game, [GreedyPlayer() for _ in range(players)], options, seed).record


def _followed(record, views, follower=None):
    """The filter (from the record's start, unless given) fed ``views`` until it is lost, then
    finished: it and what it committed."""
    follower = follower or Filter(record.new_state())
    out = []
    for view in views:
        out += follower.see(view)
        if follower.lost:
            break
    return follower, out + follower.finish()


def _exact(record, **kw):
    return [view_of(state, k, **kw) for k, state in states_seen(record)[1:]]


def _the_record(record, committed):
    return sorted_deals([c.event for c in committed]) == sorted_deals(record.events)


@pytest.mark.parametrize("game, players, options, seed", [
    ("azul", 2, {}, 1),
    ("azul", 3, {"wall": "grey", "jokers": True}, 7),
    ("pavilion", 2, {"side": "colored"}, 3),
    ("pavilion", 4, {"side": "colored"}, 5),
])
def test_a_whole_game_seen_after_every_event_is_its_record_and_sure(game, players, options, seed):
    record = _game(game, players, options, seed)
    follower, committed = _followed(record, _exact(record))
    assert _the_record(record, committed)
    assert all(c.sure for c in committed)
    assert not follower.lost


def test_who_moves_first_is_told_by_the_views():
    record = play_game("pavilion", [GreedyPlayer(), GreedyPlayer()], {"side": "colored"}, 3, start_player=1).record
    starts = [Game.new("pavilion", 2, {"side": "colored"}, p).state for p in range(2)]
    follower, committed = _followed(record, _exact(record), Filter(starts[0], starts))
    assert _the_record(record, committed)
    assert all(c.sure for c in committed)
    assert committed[1].event["player"] == 1 and follower.state.key() == Game(record).state.key()


def test_the_whole_games_hold_what_they_are_chosen_for():
    grey = _game("azul", 3, {"wall": "grey", "jokers": True}, 7).events
    assert any(e.get("move", {}).get("action") == "wall" for e in grey)
    assert any("joker" in f for e in grey if "deal" in e for f in e["deal"]["factories"])
    pavilion = _game("pavilion", 2, {"side": "colored"}, 3).events
    assert any(e.get("move", {}).get("wild", 0) > 0 for e in pavilion)
    assert any(e.get("move", {}).get("action") == "bonus" for e in pavilion)
    assert any("refill" in e for e in pavilion)
    short = _game("pavilion", 4, {"side": "colored"}, 5).events  # the tower ran short: a display of one tile
    assert any(len(f) < 4 for e in short if "deal" in e for f in e["deal"]["factories"])


def test_a_deal_misread_in_three_tiles_is_resolved_by_the_takes():
    record = _game("azul", 2, {}, 1)
    dealt = sorted(record.events[0]["deal"]["factories"][0])
    kinds = ["black", "blue", "red", "white", "yellow"]
    absent = [k for k in kinds if k not in dealt]
    misread = tuple(sorted([absent[0]] * 3 + dealt[3:]))
    second_deal = next(i for i, e in enumerate(record.events) if i and "deal" in e)
    views = []
    for k, state in states_seen(record)[1:]:
        # The same misreading in every view until the display is taken (a printing misread lasts).
        untaken = k <= second_deal and bool(state.to_json()["factories"][0])
        views.append(view_of(state, k, sure=0.97, misread={Zone.display(0): misread} if untaken else {}))
    follower, committed = _followed(record, views)
    assert sorted(committed[0].event["deal"]["factories"][0]) == dealt
    assert _the_record(record, committed)
    assert all(c.sure for c in committed)


def test_two_takes_in_one_view_are_followed_and_an_order_no_view_tells_is_unsure():
    record = _game("azul", 2, {}, 1)
    seen = states_seen(record)
    views = [view_of(state, k) for k, state in seen[1:] if k % 2 == 0 or k == len(record.events)]
    follower, committed = _followed(record, views)
    truth = sorted_deals(record.events)
    assert len(committed) == len(truth)
    assert follower.state.key() == seen[-1][1].key()  # the same table, scores and all
    got = sorted_deals([c.event for c in committed])
    assert all(got[i] == truth[i] for i, c in enumerate(committed) if c.sure)
    unsure = [i for i, c in enumerate(committed) if not c.sure]
    # In this game two players each take one black tile to their first line from two displays in
    # one view: either order leaves the same table, so the order is unsure and the table is not.
    assert unsure == [34, 35]
    assert all(committed[i].table >= 0.99 for i in unsure[1:])


def test_a_camera_gap_of_a_whole_round_is_lost_and_commits_nothing_unseen():
    record = _game("azul", 2, {}, 1)
    deals = [i for i, e in enumerate(record.events) if "deal" in e]
    seen = states_seen(record)
    views = [view_of(state, k) for k, state in seen[1:] if not deals[1] <= k < deals[2] + 2]
    follower, committed = _followed(record, views)
    assert follower.lost
    assert 0 < len(committed) <= deals[1]
    assert sorted_deals([c.event for c in committed]) == sorted_deals(record.events[:len(committed)])
    assert all(c.sure for c in committed)


def test_the_filter_is_lost_only_after_views_in_a_row_that_nothing_explains():
    record = _game("azul", 2, {}, 1)
    seen = states_seen(record)
    far = view_of(seen[30][1], 30)
    follower = Filter(record.new_state())
    follower.see(view_of(seen[1][1], 1))
    for n in range(1, LOST_VIEWS):
        assert follower.see(far) == []
        assert not follower.lost and follower.misses == n
    follower.see(far)
    assert follower.lost
    follower.see(view_of(seen[2][1], 2))  # the table came back: it is explained again
    assert not follower.lost


def test_a_take_whose_board_no_view_shows_is_committed_unsure_when_the_source_ends():
    record = _game("azul", 2, {}, 1)
    deals = [i for i, e in enumerate(record.events) if "deal" in e]
    last = deals[1] + 2  # the views end after the round's second take, its taker's board hidden
    seen = states_seen(record)[1:last + 1]
    mover = record.events[last - 1]["player"]
    hidden = {Zone.board(mover, slot) for slot in seen[-1][1].spec.slot_ids} | {Zone.hand(mover)}
    views = [view_of(state, k) for k, state in seen[:-1]] + [view_of(seen[-1][1], last, hidden=hidden)]
    _, committed = _followed(record, views)
    assert sorted_deals([c.event for c in committed[:-1]]) == sorted_deals(record.events[:last - 1])
    assert all(c.sure for c in committed[:-1])
    assert not committed[-1].sure and committed[-1].table < 0.99


@pytest.mark.parametrize("seed", [0, 1])
def test_a_game_read_with_random_misreadings_is_followed_and_nothing_wrong_is_sure(seed):
    record = _game("azul", 2, {}, 1)
    rng = random.Random(seed)
    views = [view_of(state, k, sure=0.97, misread=misread_at_random(state, rng, 0.01))
             for k, state in states_seen(record)[1:]]
    follower, committed = _followed(record, views)
    assert not follower.lost
    assert _the_record(record, committed)
    assert all(c.sure for c in committed)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.lists(st.lists(st.floats(0, 20), min_size=n, max_size=n),
                                                   min_size=n, max_size=n)))
def test_the_assignment_is_the_least_over_every_permutation(matrix):
    least = min(sum(matrix[r][c] for r, c in enumerate(p)) for p in itertools.permutations(range(len(matrix))))
    assert assignment(matrix) == pytest.approx(least)


def _read(*kinds, other=5.0):
    return tuple(Reading(((k, 0.0),), other) for k in kinds)


def test_a_pairing_pays_for_each_tile_misread_missed_or_read_where_none_lies():
    tiles = _read("red", "blue", "blue")
    assert pairing_cost(tiles, ("blue", "blue", "red"), 3.0, 4.0) == 0.0
    assert pairing_cost(tiles, ("blue", "blue", "yellow"), 30.0, 40.0) == 5.0  # red read as yellow
    assert pairing_cost(tiles, ("blue", "blue", "red", "red"), 3.0, 4.0) == 4.0  # one red missed
    assert pairing_cost(tiles, ("blue", "red"), 3.0, 4.0) == 3.0  # a blue read where none lies
    assert pairing_cost(tiles, (), 3.0, 4.0) == 9.0
    # Past the exact pairing's size the greedy one is used: the same on tiles read as wanted.
    many = _read(*["red"] * 6, *["blue"] * 6)
    assert pairing_cost(many, ("yellow",) * 6 + ("blue",) * 6, 30.0, 40.0) == 30.0


def test_a_loose_zone_is_asked_its_count_alone_or_its_tiles():
    read = LooseRead(_read("red", "blue"), 3.0, 4.0)
    assert read.count_cost(2) == 0.0 and read.count_cost(1) == 3.0 and read.count_cost(4) == 8.0
    assert read.cost(("blue", "red")) == 0.0


@pytest.mark.parametrize("game, players, options, seed", [("azul", 2, {}, 1), ("pavilion", 2, {"side": "colored"}, 3)])
def test_the_readers_views_as_zone_likelihoods_follow_a_whole_game(game, players, options, seed):
    record = _game(game, players, options, seed)
    state = record.new_state()
    kinds = len(state.spec.tiles_in_play(state.options))
    views = [seen_view(exact_view(s, float(k)), kinds) for k, s in states_seen(record)[1:]]
    follower, committed = _followed(record, views)
    assert _the_record(record, committed)
    # The hands are read at 0.9 a tile: which tiles a Summer Pavilion player kept at a pass is
    # told by them alone, and is committed a little short of sure.
    assert all(c.posterior > 0.9 for c in committed)


def test_a_slot_read_as_a_kind_this_table_mixes_up_costs_what_the_mixup_weighs():
    read = seen_view(View({Zone.board(0, "wall.0.0"): ZoneRead("blue", 0.99, mixups=(("blue", "white", 0.7),))},
                          []), 6).slots[Zone.board(0, "wall.0.0")]
    assert read.cost("blue") == 0.0 and read.cost("white") == 0.7
    assert read.cost("red") == pytest.approx(math.log(99.0))
