"""The tracker on views a reader could give: the engine decides what happened between them."""

import pytest

from azulcam.engine.azul import COLOR_INDEX, wall_column
from azulcam.engine.observe import empty_content, expected
from azulcam.engine.players import make_player
from azulcam.engine.record import Game, play_game, replay
from azulcam.follow.explain import View, ZoneRead, exact_view, loose_zone
from azulcam.engine.notice import Notice
from azulcam.follow.track import ALERT_AFTER, Refused, Tracker
from azulcam.i18n.words import words
from support.tracking import sorted_deals, started


def _followed(game, options, players, seed, events, skip=0, misread=None):
    """The truth's record, and the tracker's after a view of every position (less every
    ``skip``-th move's, when ``skip``; deals and refills are always seen)."""
    truth = play_game(game, [make_player("greedy", seed + i) for i in range(players)], options, seed,
                      start_player=seed % players).record
    truth.events = truth.events[:events]
    tracker = Tracker(Game.new(game, players, options), first_near=(700, 400))
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    out = []
    for k, state in enumerate(states):
        after_a_move = k > 0 and "move" in truth.events[k - 1]
        if skip and after_a_move and k % skip == 1 and k < len(states) - 1:
            continue
        out += tracker.see(exact_view(state, float(k), misread))
    return truth, tracker, out


@pytest.mark.parametrize("game, options, players", [
    ("azul", {"wall": "colored", "jokers": False}, 2),
    ("azul", {"wall": "grey", "jokers": True}, 3),
    ("pavilion", {"side": "colored"}, 2),
])
def test_every_move_and_chance_event_is_found(game, options, players):
    truth, tracker, said = _followed(game, options, players, seed=11, events=45)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events)
    assert tracker.game.record.start_player == truth.start_player  # the first move told who began
    assert not [e for e in said if e["kind"] == "alert"]


def test_two_moves_between_still_views_are_found():
    truth, tracker, _ = _followed("azul", {"wall": "colored", "jokers": False}, 2, seed=3, events=40, skip=3)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events)


def test_a_slot_misread_all_along_does_not_stop_the_game():
    wrong = {"boards.0.wall.4.4": ZoneRead("red", 0.97)}  # a bare space read as a tile, in every view
    truth, tracker, said = _followed("azul", {"wall": "colored", "jokers": False}, 2, seed=5, events=30, misread=wrong)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events)


def test_an_unexplained_change_is_an_alert_once_it_lasts_and_nothing_is_committed():
    truth, tracker, states = started(seed=1, views=3)
    events = len(tracker.game.record.events)
    # Tiles appear on a wall no move may have filled yet.
    wrong = {f"boards.1.wall.{r}.{r}": ZoneRead("blue", 0.999) for r in range(5)}
    assert tracker.see(exact_view(states[2], 3.0, wrong)) == []
    assert tracker.tick(3.0 + ALERT_AFTER / 2) == []
    alert = tracker.tick(3.0 + ALERT_AFTER)
    assert [a["kind"] for a in alert] == ["alert"] and "boards.1.wall.0.0" in alert[0]["zones"]
    assert alert[0]["code"] == "follow.unexplained"
    assert {"zone": "boards.1.wall.0.0", "read": "blue", "expected": None} in alert[0]["params"]["zones"]
    assert tracker.tick(10.0) == []  # said once
    assert len(tracker.game.record.events) == events
    # The table put right: the game goes on.
    said = tracker.see(exact_view(states[3], 11.0))
    assert [e["kind"] for e in said] == ["move"] and len(tracker.game.record.events) == events + 1


def test_views_that_cannot_tell_two_moves_apart_wait_for_one_that_can():
    truth, tracker, states = started(seed=2, views=2)
    move = truth.events[1]["move"]
    # The line the tiles went to is read as unsure as a coin toss: which line, the view cannot say.
    line = move["line"]
    unsure = {z: ZoneRead(r.content, 0.55) for z, r in exact_view(states[2], 2.0).zones.items()
              if z.startswith(f"boards.{truth.events[1]['player']}.line.") or z.startswith(f"boards.{truth.events[1]['player']}.floor.")}
    said = tracker.see(exact_view(states[2], 2.0, unsure))
    assert [e["kind"] for e in said] == ["uncertain"] and len(tracker.game.record.events) == 1
    said = tracker.see(exact_view(states[2], 3.0))  # a clear view
    assert [e["kind"] for e in said] == ["move"] and said[0]["move"]["line"] == line


def test_undo_and_replace_correct_the_record_and_refuse_what_the_rules_refuse():
    truth, tracker, _ = started()
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:3])
    mover = truth.events[2]["player"]
    other = next(m for m in Game(truth.__class__(truth.game, truth.players, truth.options, truth.start_player,
                                                 tracker.game.record.events[:2])).state.legal_moves()
                 if m.to_json() != truth.events[2]["move"])
    said = tracker.replace({"player": mover, "move": other.to_json()})
    assert [s["kind"] for s in said] == ["undo", "move"] and said[0]["event"] == truth.events[2]
    assert tracker.game.record.events[-1] == {"player": mover, "move": other.to_json()}
    kept = list(tracker.game.record.events)
    # Refused with the engine's own error as the reason, worded in its place.
    with pytest.raises(Refused) as refused:
        tracker.replace({"player": 1 - mover, "move": other.to_json()})
    assert refused.value.code == "follow.illegal" and "is to move" in words(refused.value)
    with pytest.raises(Refused) as refused:
        tracker.replace({"player": mover, "move": {"action": "take", "source": 0, "color": "joker", "line": 0}})
    assert refused.value.code == "follow.illegal" and "unknown colour" in words(refused.value)
    assert tracker.game.record.events == kept  # a refused correction changes nothing
    assert tracker.undo()["event"] == kept[-1] and tracker.game.record.events == kept[:-1]


def test_an_event_taken_back_stays_so_while_the_table_shows_it_and_is_followed_once_the_table_changes():
    truth, tracker, states = started(views=4)
    kept = list(tracker.game.record.events)
    tracker.undo()
    for k in range(3):  # the same view again and again: the table still shows the move taken back
        assert tracker.see(exact_view(states[3], 4.0 + k)) == [] and tracker.game.record.events == kept[:-1]
    said = tracker.see(exact_view(states[4], 8.0))  # the next move is made: the table changed
    assert [s["kind"] for s in said] == ["move", "move"] and sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:4])
    tracker.undo()
    tracker.see(exact_view(states[3], 9.0))  # the tiles put back as they were before it: the hold ends
    assert tracker.held is None and tracker.see(exact_view(states[4], 10.0))[-1]["kind"] == "move"


def test_a_zone_overruled_is_believed_over_the_camera():
    truth, tracker, states = started(views=3)
    # The next move's line read confidently wrong: no move explains the view...
    player = truth.events[2]["player"]
    view = exact_view(states[3], 3.0)
    lines = {z: r for z, r in view.zones.items() if z.startswith(f"boards.{player}.") and r.content is not None
             and (".line." in z or ".floor." in z) and r.content != exact_view(states[2], 0).zones[z].content}
    assert lines
    zone = next(iter(lines))
    view.zones[zone] = ZoneRead(None, 0.9999)
    view.zones[zone.rsplit(".", 1)[0] + ".4"] = ZoneRead("black", 0.9999)
    assert [e["kind"] for e in tracker.see(view)] != ["move"]
    # ... until a person says what lies there.
    tracker.overrule(zone, lines[zone].content)
    tracker.overrule(zone.rsplit(".", 1)[0] + ".4", None)
    said = tracker.see(view)
    assert [e["kind"] for e in said] == ["move"] and sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:3])
    assert not tracker.overruled or zone not in tracker.overruled


def test_a_commit_that_later_views_contradict_is_revised():
    truth, tracker, states = started(views=3)
    player = truth.events[2]["player"]
    # The view after the next move: its line read as the line below, surely (a misreading).
    view = exact_view(states[3], 3.0)
    before = exact_view(states[2], 0).zones
    placed = [z for z, r in view.zones.items() if z.startswith(f"boards.{player}.line.") and r.content != before[z].content]
    assert placed
    said = tracker.see(view)
    committed = list(tracker.game.record.events)
    assert [e["kind"] for e in said] == ["move"] and sorted_deals(committed) == sorted_deals(truth.events[:3])
    # A wrong commit forced by hand, then views the truth explains: the tracker takes it back.
    other = next(m for m in Game(truth.__class__(truth.game, truth.players, truth.options, truth.start_player,
                                                 committed[:2])).state.legal_moves()
                 if m.to_json()["source"] == truth.events[2]["move"]["source"]
                 and m.to_json()["color"] == truth.events[2]["move"]["color"] and m.to_json() != truth.events[2]["move"])
    tracker.replace({"player": player, "move": other.to_json()})
    assert tracker.see(exact_view(states[4], 4.0)) == []  # one view read as a hand left says nothing yet
    said = tracker.see(exact_view(states[4], 4.5))  # the same table again: the commit is revised
    kinds = [e["kind"] for e in said]
    assert kinds[0] == "undo" and said[0]["revised"] and kinds[-2:] == ["move", "move"]
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:4])


def test_a_deal_the_camera_missed_is_worked_out_from_where_its_tiles_went():
    truth = play_game("azul", [make_player("greedy", 3), make_player("greedy", 4)],
                      {"wall": "colored", "jokers": False}, 3).record
    truth.events = truth.events[:30]
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}), first_near=(700, 400))
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    second = next(k for k, e in enumerate(truth.events) if "deal" in e and k > 0)
    for k, state in enumerate(states):
        if k not in (second + 1, second + 2):  # out from the second deal to the move after it
            tracker.see(exact_view(state, 1.2 * k))
    got = tracker.game.record.events
    assert len(got) == len(truth.events) and sorted_deals(got[:second]) == sorted_deals(truth.events[:second])
    # Which of the two displays taken from held which tiles no view showed; the positions agree.
    assert tracker.game.state == Game(truth).state


@pytest.mark.parametrize("game, options, players, cut", [
    ("azul", {"wall": "colored", "jokers": False}, 2, 30),
    ("azul", {"wall": "grey", "jokers": True}, 3, 20),
    ("pavilion", {"side": "colored"}, 2, 25),
])
def test_a_game_joined_mid_way_is_taken_up_from_the_view_and_followed(game, options, players, cut):
    truth = play_game(game, [make_player("greedy", 11 + i) for i in range(players)], options, 11,
                      start_player=11 % players).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    # Join where tiles are being taken: the first position at or after the cut with tiles to take.
    k = next(k for k in range(cut, len(states)) if states[k].current_player >= 0
             and states[k].to_json()["phase"] in ("offer", "acquire"))
    joined_at = states[k]
    tracker = Tracker(Game.new(game, players, options), first_near=(700, 400))
    tracker.join(joined_at.round, joined_at.scores())
    said = []
    seen = range(k, min(k + 30, len(states)))
    for j in seen:
        said += tracker.see(exact_view(states[j], float(j)))
    assert said[0]["kind"] == "position"
    events = tracker.game.record.events
    assert "position" in events[0] and events[0]["position"]["pooled"] is True
    assert sorted_deals(events[1:]) == sorted_deals(truth.events[k:k + len(events) - 1])
    assert len(events) - 1 >= len(seen) - 2  # every event since, the last ones perhaps still weighed
    assert tracker.game.state.scores() == states[k + len(events) - 1].scores()
    assert tracker.game.record.start_player == joined_at.current_player
    with pytest.raises(ValueError, match="follow.taken_up_here"):
        for _ in range(len(events)):
            tracker.undo()


def test_a_game_is_taken_up_past_a_print_read_as_a_tile_and_a_marker_hidden_in_the_centre():
    """Joined where a wall space printed in its colour reads as that tile while its pattern line
    holds the colour (no legal game shows that), and the first-player marker lies unseen in the
    centre: the space looks as it did bare, so it is empty, and the marker is in the centre's pile.
    Without its look the view cannot be taken up."""
    options = {"wall": "colored", "jokers": False}
    truth = play_game("azul", [make_player("greedy", 21 + i) for i in range(2)], options, 21, start_player=0).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]

    def printed_under_its_line(state):
        data = state.to_json()
        for p, board in enumerate(data["boards"]):
            for row, line in enumerate(board["lines"]):
                if line["count"] and data["marker"] == "center":
                    return p, row, line["color"]
        return None

    k = next(k for k in range(1, len(states)) if states[k].to_json()["phase"] == "offer"
             and states[k].current_player >= 0 and printed_under_its_line(states[k]))
    player, row, colour = printed_under_its_line(states[k])
    column = wall_column(COLOR_INDEX[colour], row)  # printed in the line's colour, and empty
    print_read = f"boards.{player}.wall.{row}.{column}"
    centre = [t for t in expected(states[k])["center"] if t != "first_player"]
    misread = {print_read: ZoneRead(colour, 1.0), "center": loose_zone([(t, 0.95) for t in centre])}

    def view(time, covered):
        seen = exact_view(states[k], time, misread)
        seen.covered = covered
        return seen

    tracker = Tracker(Game.new("azul", 2, options), first_near=(700, 400))
    tracker.join(states[k].round, states[k].scores())
    assert tracker.see(view(0.0, {})) == []  # as read, no legal game
    assert tracker.unexplained_notice[0] == "follow.cannot_take_up"
    exp = expected(states[k])
    looks = {z: (7.0 if exp.get(z) is not None else -7.0) for z in exact_view(states[k], 0.0).zones
             if z.startswith("boards.") and not z.endswith(".hand")}
    said = tracker.see(view(1.0, looks))
    assert said[0]["kind"] == "position"
    assert tracker.game.state.to_json()["boards"] == states[k].to_json()["boards"]
    assert tracker.game.state.to_json()["marker"] == "center"
    assert "center" in next(s for s in said if s["kind"] == "uncertain")["zones"]


def _last_take_in_doubt():
    """A seeded Azul game's first round's last take, and the view of its result read as another
    take would have left it, unsurely: that take completes another pattern line (or goes to the
    floor), so the two differ only in a wall tile (one that hardly changes its space's look) and
    in the points. The options, the truth, its states, the take's index and the misreading."""
    options = {"wall": "colored", "jokers": False}
    truth = play_game("azul", [make_player("greedy", 30 + i) for i in range(2)], options, 3).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    k = next(k for k, e in enumerate(truth.events) if "move" in e and "deal" in truth.events[k + 1]
             and any(m.to_json() != e["move"] for m in states[k].legal_moves()))
    after = states[k + 1]
    other = next((o for o in (_played(states[k], m) for m in states[k].legal_moves())
                  if o.marker_cells() != after.marker_cells() and _apart(o, after)
                  and all(".wall." in z for z in _apart(o, after))), None)
    assert other is not None, "the seed gives a take whose wall tile alone tells it"
    return options, truth, states, k, {z: ZoneRead(expected(other).get(z), 0.5) for z in _apart(other, after)}


def _played(state, move):
    out = state.copy()
    out.play(move)
    return out


def _apart(a, b):
    return {z for z in expected(a).keys() | expected(b).keys() if expected(a).get(z) != expected(b).get(z)}


def test_a_round_s_last_take_that_its_wall_tile_hardly_shows_is_told_by_the_score_markers():
    """The last take of a round completes one pattern line or another (or goes to the floor), and
    the wall tile it led to hardly changes its space's look: the view reads the wall as the wrong
    take would have left it, unsurely. The players' score markers, read surely, say which it was;
    without them the wrong take fits best."""
    options, truth, states, k, misread = _last_take_in_doubt()

    def followed(markers):
        tracker = Tracker(Game.new("azul", 2, options), first_near=(700, 400))
        for j in range(k + 4):
            view = exact_view(states[j], float(j), misread if j > k else None)
            view.markers = dict(enumerate(states[j].marker_cells())) if markers else {}
            tracker.see(view)
        return tracker.game.record.events

    assert sorted_deals(followed(markers=True)[:k + 1]) == sorted_deals(truth.events[:k + 1])
    assert sorted_deals(followed(markers=False)[:k + 1]) != sorted_deals(truth.events[:k + 1])


def test_a_deal_committed_with_the_take_after_it_is_read_again_from_that_take():
    """The round's last take is in doubt (its wall tile hardly shows, the markers unseen) when the
    next deal is laid, one of its blues read as white: the deal waits with that doubt. The markers
    seen at the next take settle the doubt, and the deal is committed with the take after it; the
    take shows the blue (two on the pattern line, no white left in the centre), so the deal is read
    again there."""
    options, truth, states, k, misread = _last_take_in_doubt()
    take = truth.events[k + 2]["move"]
    dealt = list(expected(states[k + 2])[f"factories.{take['source']}"])
    assert dealt.count(take["color"]) >= 2, "the seed's first take after the deal takes two tiles"
    white = next(c for c in ("white", "black", "red", "yellow", "blue") if c not in dealt)
    dealt[dealt.index(take["color"])] = white
    # The take's second tile on its pattern line read less surely (as a hand's shadow leaves it).
    second = f"boards.{truth.events[k + 2]['player']}.line.{take['line']}.1"
    tracker = Tracker(Game.new("azul", 2, options), first_near=(700, 400))
    for j in range(k + 5):
        seen = dict(misread) if j > k else {}
        if j == k + 2:  # the deal's view
            seen[f"factories.{take['source']}"] = loose_zone([(t, 0.97) for t in dealt])
        if j > k + 2:  # the take's
            seen[second] = ZoneRead(take["color"], 0.9)
        view = exact_view(states[j], float(j), seen)
        view.markers = dict(enumerate(states[j].marker_cells())) if j <= k or j > k + 2 else {}  # unseen in between
        tracker.see(view)
    got = tracker.game.record.events
    assert sorted_deals(got[:k + 4]) == sorted_deals(truth.events[:k + 4])


def test_a_centre_misread_where_the_game_was_taken_up_is_read_again_from_a_take_of_it():
    # A tile hidden under another in the centre when the game is joined, and at every view until
    # a player takes that colour from the centre: the take shows it on the board, and the
    # position taken up is read again with it (the moves since kept).
    truth = play_game("azul", [make_player("greedy", 11 + i) for i in range(2)], {"wall": "colored", "jokers": False},
                      11, start_player=1).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]

    def centre_take(j):
        e = truth.events[j]
        return "move" in e and e["move"]["source"] == "center" and states[j].to_json()["center"].get(e["move"]["color"], 0) >= 2

    k, took = next((k, j) for k in range(1, len(states)) if states[k].current_player >= 0
                   and states[k].to_json()["phase"] == "offer"
                   for j in range(k, min(k + 4, len(truth.events))) if centre_take(j)
                   and states[k].to_json()["center"].get(truth.events[j]["move"]["color"], 0) >= 2)
    hidden = truth.events[took]["move"]["color"]
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}), first_near=(700, 400))
    tracker.join(states[k].round, states[k].scores())
    said = []
    for j in range(k, took + 4):
        misread = None
        if j <= took:  # one tile of the colour under another
            centre = list(expected(states[j])["center"])
            centre.remove(hidden)
            misread = {"center": loose_zone([(t, 0.8) for t in centre])}
        said += tracker.see(exact_view(states[j], float(j), misread))
        said += tracker.see(exact_view(states[j], j + 0.5, misread))
    assert any(s["kind"] == "undo" and s.get("revised") and "position" in s["event"] for s in said)
    events = tracker.game.record.events
    assert events[0]["position"]["center"] == {c: n for c, n in states[k].to_json()["center"].items() if n}
    assert sorted_deals(events[1:]) == sorted_deals(truth.events[k:took + 3])
    assert not [s for s in said if s["kind"] == "alert"]


def test_a_view_no_game_can_be_taken_up_from_is_an_alert_and_nothing_is_committed():
    truth, tracker, states = started(views=0)
    tracker.join(1, [0, 0])
    before_deal = exact_view(states[0], 0.0)  # set-up: nothing to take yet
    assert tracker.see(before_deal) == []
    said = tracker.see(View(before_deal.zones, before_deal.displays, 1, ALERT_AFTER + 0.1))
    assert said[0]["kind"] == "alert" and said[0]["code"] == "follow.cannot_take_up"
    assert set(said[0]["params"]["reason"]) == {"code", "params"}  # the engine's error, as JSON holds it
    assert "after the next deal" in words(Notice(said[0]["code"], **said[0]["params"])) and tracker.game.record.events == []
    said = tracker.see(exact_view(states[1], ALERT_AFTER + 1.0))  # dealt: taken up
    assert said[0]["kind"] == "position" and tracker.joining is None
    assert said[1:] == [{"kind": "uncertain", "zones": ["center"]}]  # its tiles read at 0.8
    with pytest.raises(ValueError, match="follow.bad_scores"):
        tracker.join(2, [1])


def test_moves_across_a_round_end_hidden_by_a_camera_out_are_found():
    """Six events unseen (two moves, the round's end, a deal, two more moves: one player took
    twice from displays whose deal no view showed): the view after the gap is explained, and the
    game followed on, every view alike."""
    options = {"wall": "colored", "jokers": False}
    truth = play_game("azul", [make_player("greedy", 1 + i) for i in range(2)], options, 1, start_player=1).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    tracker = Tracker(Game.new("azul", 2, options), first_near=(700, 400))
    gap = range(20, 25)
    assert any("deal" in truth.events[k - 1] for k in gap)
    for k in range(0, 32):
        if k not in gap:
            tracker.see(exact_view(states[k], float(k)))
    assert len(tracker.game.record.events) == 31 and not tracker.pending
    assert expected(tracker.game.state) == expected(states[31])


def test_unseen_orders_that_leave_the_same_table_are_committed_with_the_points_unsure():
    """Two Summer Pavilion placements unseen: one player's tiles laid in either order leave the
    same table and score differently, which no view shows (the camera does not read the score
    track). The game goes on, the points announced unsure, rather than waiting for ever."""
    truth = play_game("pavilion", [make_player("greedy", i) for i in range(2)], {"side": "colored"}, 0).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    tracker = Tracker(Game.new("pavilion", 2, {"side": "colored"}), first_near=(700, 400))
    said = []
    for k in [*range(13), *range(15, 20)]:
        said += tracker.see(exact_view(states[k], float(k)))
    assert {"kind": "uncertain", "zones": ["scores.1"]} in said
    assert len(tracker.game.record.events) == 19 and not tracker.pending
    assert expected(tracker.game.state) == expected(states[19])


def test_a_game_nothing_explains_for_long_is_taken_up_again_from_the_table():
    truth, tracker, states = started(seed=4, views=6)
    before = len(tracker.game.record.events)
    # The camera saw nothing for a dozen events of the round (too many for any search), then the
    # table stands still: a position a legal game shows.
    ahead = next(k for k in range(before + 12, len(states)) if states[k].current_player >= 0)
    said = []
    for t in range(6):
        said += tracker.see(exact_view(states[ahead], 10.0 + 3 * t))
    position = [s for s in said if s["kind"] == "position"]
    assert [s["kind"] for s in said if s["kind"] == "alert"] == ["alert"]  # said first, then taken up
    assert len(position) == 1 and position[0]["code"] == "follow.resynchronised"
    assert position[0]["params"] == {"after": before, "round": states[before].round}
    assert tracker.game.record.events[before] == {"position": position[0]["position"], "resynchronised": True}
    assert tracker.lost() is None
    # The game goes on from there, and its record replays.
    for k in range(ahead + 1, ahead + 4):
        tracker.see(exact_view(states[k], 40.0 + k))
    assert sorted_deals(tracker.game.record.events[before + 1:]) == sorted_deals(truth.events[ahead:ahead + 3])
    Game(tracker.game.record)


def test_a_game_taken_up_again_goes_on_with_the_scores_its_markers_show_and_the_unread_ones_unsure():
    """Lost for a dozen events, the game is taken up from the table: a player whose score marker is
    read surely goes on with the score it shows, not the one the game kept; the other's is the one
    kept, announced unsure."""
    truth, tracker, states = started(seed=4, views=6)
    before = len(tracker.game.record.events)
    kept = list(tracker.game.state.scores())
    ahead = next(k for k in range(before + 12, len(states)) if states[k].current_player >= 0 and states[k].round > 1)
    shown = states[ahead].marker_cells()
    assert shown[0] != kept[0]  # the markers moved on while the camera saw nothing
    said = []
    for t in range(6):
        view = exact_view(states[ahead], 10.0 + 3 * t)
        view.markers = {0: shown[0]}  # player 1's marker hidden under a hand, or read unsurely
        said += tracker.see(view)
    assert [s["code"] for s in said if s["kind"] == "position"] == ["follow.resynchronised"]
    assert tracker.game.state.scores() == [shown[0], kept[1]]
    unsure = [z for s in said if s["kind"] == "uncertain" for z in s["zones"]]
    assert "boards.1.score" in unsure and "boards.0.score" not in unsure


def test_a_game_left_unexplained_says_where_it_was_lost():
    truth, tracker, states = started(seed=1, views=3)
    # Blue tiles off the coloured wall's blue spaces: no legal game shows them, none can be taken up.
    wrong = {f"boards.1.wall.{r}.{(r + 1) % 5}": ZoneRead("blue", 0.999) for r in range(5)}
    assert tracker.lost() is None
    for t in range(8):
        tracker.see(exact_view(states[2], 3.0 + 2 * t, wrong))
    lost = tracker.lost()
    assert lost is not None and lost["after"] == len(tracker.game.record.events) and lost["code"] == "follow.unexplained"


def _deal_misread(display, tile):
    """Azul, 2 players, seed 4: the truth, its states and a tracker that saw the start and the
    deal, one ``tile`` of display ``display`` read as a colour the display lacks."""
    truth = play_game("azul", [make_player("greedy", 1), make_player("greedy", 2)],
                      {"wall": "colored", "jokers": False}, 4).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    dealt = list(exact_view(states[1], 1.0).zones[f"factories.{display}"].content)
    other = next(c for c in ("blue", "yellow", "red", "black", "white") if c not in dealt)
    misread = sorted(dealt[:dealt.index(tile)] + [other] + dealt[dealt.index(tile) + 1:])
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}), first_near=(700, 400))
    tracker.see(exact_view(states[0], 0.0))
    tracker.see(exact_view(states[1], 1.0, {f"factories.{display}": ZoneRead(tuple(misread), 0.95, (0.97,) * 4)}))
    assert sorted(tracker.game.record.events[0]["deal"]["factories"][display]) == misread  # committed as read
    return truth, states, tracker


def _first_take():
    truth = play_game("azul", [make_player("greedy", 1), make_player("greedy", 2)],
                      {"wall": "colored", "jokers": False}, 4).record
    return truth.events, truth.events[1]["move"]


def test_a_deal_misread_is_revised_from_where_its_tiles_went():
    _, taken = _first_take()  # the first move's display and colour: one of its tiles read wrong
    truth, states, tracker = _deal_misread(taken["source"], taken["color"])
    said = []
    for t, k in enumerate(range(2, 6)):  # the take from that display, then the next moves, each seen twice
        said += tracker.see(exact_view(states[k], 2.0 + 2 * t))
        said += tracker.see(exact_view(states[k], 2.5 + 2 * t))
    assert any(s["kind"] == "undo" and s.get("revised") and "deal" in s["event"] for s in said)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:5])


def test_a_deal_misread_at_its_view_and_read_right_later_is_revised_by_the_take_from_it():
    events, _ = _first_take()
    # A display taken from late in the round: the views before its take read it right, only the
    # deal's view read one of its tiles wrong.
    late = next(k for k in range(4, 20) if "move" in events[k] and events[k]["move"]["source"] != "center")
    truth, states, tracker = _deal_misread(events[late]["move"]["source"], events[late]["move"]["color"])
    said = []
    for k in range(2, late + 2):
        said += tracker.see(exact_view(states[k], float(k)))
    assert not [s for s in said if s["kind"] == "alert"]
    assert any(s["kind"] == "undo" and s.get("revised") and "deal" in s["event"] for s in said)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:late + 1])


def test_a_leftover_misread_at_the_deal_is_revised_once_the_centre_shows_it():
    events, taken = _first_take()
    display = taken["source"]
    dealt = next(e for e in events if "deal" in e)["deal"]["factories"][display]
    left = next(c for c in dealt if c != taken["color"])  # a tile the take leaves in the centre
    truth, states, tracker = _deal_misread(display, left)
    said = []
    for k in range(2, 6):  # the centre now shows the tile as it is
        said += tracker.see(exact_view(states[k], float(k)))
    assert any(s["kind"] == "undo" and s.get("revised") and "deal" in s["event"] for s in said)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:5])


def test_a_display_as_dealt_is_asked_only_whether_its_tiles_are_there():
    truth = play_game("azul", [make_player("greedy", 1), make_player("greedy", 2)],
                      {"wall": "colored", "jokers": False}, 4).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}), first_near=(700, 400))
    tracker.see(exact_view(states[0], 0.0))
    tracker.see(exact_view(states[1], 1.0))
    untaken = next(i for i, f in enumerate(states[2].to_json()["factories"]) if f)
    said = tracker.see(exact_view(states[1], 2.0, {f"factories.{untaken}": ZoneRead(("red",) * 4, 0.95, (0.97,) * 4)}))
    assert said == [] and len(tracker.game.record.events) == 1 and tracker.misses == 0  # as dealt: nothing to explain
    said = tracker.see(exact_view(states[1], 3.0, {f"factories.{untaken}": ZoneRead((), 0.95)}))
    assert tracker.misses == 1 or said  # a display seen empty is a change the game must explain


def test_walls_tiled_in_another_order_than_the_record_s_are_followed():
    # Players tile their walls at once; the record plays player 0's rows first. Here the camera
    # sees player 1's wall tiled before player 0 has touched theirs.
    options = {"wall": "grey", "jokers": False}
    truth = play_game("azul", [make_player("greedy", 1), make_player("greedy", 2)], options, 5).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    walls = [k for k, e in enumerate(truth.events) if e.get("move", {}).get("action") == "wall"]
    first, last = walls[0], next(k for k in walls if k + 1 not in walls)
    mine = [k for k in walls[:walls.index(last) + 1] if truth.events[k]["player"] == 0]
    assert mine and len(mine) < last - first + 1  # both players have rows to tile
    done = exact_view(states[last + 1], 0.0).zones  # every wall tiled

    marker_on_1 = "first_player" in [v.content for z, v in exact_view(states[first], 0.0).zones.items()
                                     if z.startswith("boards.1.floor")]

    def view(k, time):  # player 0's board as at state k, player 1's already tiled (its floor too)
        zones = exact_view(states[k], time).zones
        zones.update({z: r for z, r in done.items() if z.startswith("boards.1.") or (z == "center" and marker_on_1)})
        return View(zones, exact_view(states[k], time).displays, 0, time)

    tracker = Tracker(Game.new("azul", 2, options), first_near=(700, 400))
    said = []
    for k in range(first + 1):
        said += tracker.see(exact_view(states[k], float(k)))
    time = float(first) + 1.0
    for k in [first] + [m + 1 for m in mine]:
        said += tracker.see(view(k, time))
        time += 1.0
    for k in range(last + 2, last + 5):
        said += tracker.see(exact_view(states[k], time))
        time += 1.0
    assert not [e for e in said if e["kind"] in ("alert", "position")]
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:last + 4])


def test_a_move_the_rules_force_and_no_camera_sees_is_played_by_the_rules():
    truth = play_game("pavilion", [make_player("greedy", 1), make_player("greedy", 2)], {"side": "colored"}, 1,
                      start_player=1).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    forced = 22  # a pass with an empty hand: the only move, and the table shows nothing of it
    assert truth.events[forced]["move"] == {"action": "pass", "keep": []} and len(states[forced].legal_moves()) == 1
    tracker = Tracker(Game.new("pavilion", 2, {"side": "colored"}), first_near=(700, 400))
    for k in range(forced + 1):
        tracker.see(exact_view(states[k], float(k)))
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:forced + 1])


@pytest.mark.parametrize("game, options, seed", [("azul", {"wall": "colored", "jokers": False}, 4),
                                                 ("pavilion", {"side": "grey"}, 10)])
def test_a_take_whose_tiles_were_all_misread_at_the_deal_is_revised_at_its_view(game, options, seed):
    # Every view of a display before its take reads the take's two tiles as two other colours,
    # surely. The take's view shows them right (in the hand, on the pattern line): the deal is
    # read again at once from where they went, not lost.
    truth = play_game(game, [make_player("greedy", seed + i) for i in range(2)], options, seed, start_player=seed % 2).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    round_one = next(k for k in range(1, len(truth.events)) if "move" not in truth.events[k])
    late = next(k for k in range(2, round_one) if truth.events[k]["move"].get("source", "center") != "center"
                and exact_view(states[k], 0.0).zones[f"factories.{truth.events[k]['move']['source']}"].content
                .count(truth.events[k]["move"]["color"]) >= 2)
    display, colour = truth.events[late]["move"]["source"], truth.events[late]["move"]["color"]
    dealt = list(exact_view(states[1], 0.0).zones[f"factories.{display}"].content)
    others = [c for c in sorted({t for f in states[1].to_json()["factories"] for t in f}) if c not in dealt]
    misread = list(dealt)
    for k, other in zip([i for i, t in enumerate(dealt) if t == colour][:2], others):
        misread[k] = other
    _revised_at_the_take(truth, states, display, tuple(sorted(misread)), late)


def _revised_at_the_take(truth, states, display, misread, late):
    """Follow ``truth`` from its start with ``display`` read as ``misread`` at every view from
    the deal to the take at event ``late``: the deal is read again at the take's view, no alert."""
    tracker = Tracker(Game.new(truth.game, truth.player_count, truth.options), first_near=(700, 400))
    said = []
    for k in range(late + 2):
        wrong = {f"factories.{display}": ZoneRead(misread, 0.95, (0.97,) * 4)} if 1 <= k <= late else None
        said += tracker.see(exact_view(states[k], float(k), wrong))
    assert any(s["kind"] == "undo" and s.get("revised") and "deal" in s["event"] for s in said)
    assert not [s for s in said if s["kind"] == "alert"]
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:late + 1])


def test_three_tiles_of_a_display_read_alike_as_another_colour_are_read_again_at_the_take():
    # A display's three whites read yellow at every view before its take (one light, one
    # printing, one mistake): the take shows them white on the board, and the deal is read again
    # with all of that display's yellows white, not searched tile by tile.
    options = {"wall": "colored", "jokers": False}
    for seed in range(1, 60):
        truth = play_game("azul", [make_player("greedy", seed + i) for i in range(2)], options, seed).record
        round_one = next(k for k in range(1, len(truth.events)) if "move" not in truth.events[k])
        dealt = truth.events[0]["deal"]["factories"]
        found = [(k, e["move"]) for k, e in enumerate(truth.events[1:round_one], start=1)
                 if e["move"]["source"] != "center" and dealt[e["move"]["source"]].count(e["move"]["color"]) == 3]
        if found:
            break
    late, move = found[0]
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    shown = list(exact_view(states[1], 0.0).zones[f"factories.{move['source']}"].content)
    other = next(c for c in ("blue", "yellow", "red", "black", "white") if c not in shown)
    misread = tuple(sorted(other if t == move["color"] else t for t in shown))
    _revised_at_the_take(truth, states, move["source"], misread, late)


def test_a_deal_read_again_weighs_the_centre_as_the_views_since_read_it():
    # Two readings of a deal can explain today's view alike; the one that put tiles in the centre
    # where the views since saw none weighs the more (:meth:`Tracker._contradicted`).
    _, tracker, states = started(views=4)
    assert [at for at, _ in tracker.seen_since_deal] == [2, 3]
    committed = {k: expected(states[k]) for k in (2, 3)}
    assert tracker._contradicted(committed, committed) == 0.0
    centre = committed[3]["center"]
    revised = {**committed, 3: {**committed[3], "center": tuple(sorted(centre + ("white", "white")))}}
    assert tracker._contradicted(revised, committed) > 4.0  # two tiles never seen: more than the margin
    tracker.undo()
    assert [at for at, _ in tracker.seen_since_deal] == [2]  # a view of a move taken back says nothing


def test_a_glimpse_commits_what_it_explains_and_says_nothing_otherwise():
    truth, tracker, states = started(views=3)
    # A frame between two hands, the first move's tiles still settling: read as nothing anyone
    # played, it is passed over (no miss, no alert).
    blurred = exact_view(states[3], 3.0, {z: ZoneRead("red" if r.content != "red" else "blue", 0.99)
                                          for z, r in exact_view(states[3], 3.0).zones.items()
                                          if z.startswith("boards.0.") and not isinstance(r.content, tuple)})
    blurred.glimpse = True
    assert tracker.see(blurred) == [] and tracker.misses == 0 and tracker.unexplained_since is None
    # Read right, it commits the move that no still view will show alone.
    glimpse = exact_view(states[3], 3.5)
    glimpse.glimpse = True
    assert [s["kind"] for s in tracker.see(glimpse)] == ["move"]
    tracker.see(exact_view(states[4], 4.0))
    assert sorted_deals(tracker.game.record.events) == sorted_deals(truth.events[:4])


def test_a_position_taken_up_again_with_another_player_to_move_is_read_again_from_a_take():
    # The game lost, taken up again where the other player than the game's first is to move,
    # with a centre tile hidden under another until a player takes that colour from the centre:
    # the position is read again (who moves first there stays the position's).
    truth, tracker, states = started(seed=4, views=6)
    before = len(tracker.game.record.events)

    def centre_take(k, j):
        e = truth.events[j]
        return "move" in e and e["move"]["source"] == "center" and states[k].to_json()["center"].get(e["move"]["color"], 0) >= 2

    ahead, took = next((k, j) for k in range(before + 12, len(states))
                       if states[k].current_player >= 0 and states[k].current_player != truth.start_player
                       and states[k].to_json()["phase"] == "offer"
                       for j in range(k, min(k + 4, len(truth.events))) if centre_take(k, j))
    hidden = truth.events[took]["move"]["color"]

    def seen(j, t):
        centre = list(expected(states[j])["center"])
        if j <= took:
            centre.remove(hidden)
        return exact_view(states[j], t, {"center": loose_zone([(c, 0.8) for c in centre])})

    said = []
    for t in range(6):
        said += tracker.see(seen(ahead, 10.0 + 3 * t))
    assert [s["code"] for s in said if s["kind"] == "position"] == ["follow.resynchronised"]
    for j in range(ahead + 1, took + 4):
        said += tracker.see(seen(j, 40.0 + j))
        said += tracker.see(seen(j, 40.5 + j))
    assert any(s["kind"] == "undo" and s.get("revised") and "position" in s["event"] for s in said)
    events = tracker.game.record.events
    assert events[before]["position"]["to_move"] == states[ahead].current_player
    assert sorted_deals(events[before + 1:]) == sorted_deals(truth.events[ahead:took + 3])
    Game(tracker.game.record)


def _azul_game(deal, moves):
    """A two-player Azul game (coloured wall) from ``deal`` (each display's tiles) and ``moves``
    (each a move's JSON, the players in turn from player 0): its record and every state."""
    game = Game.new("azul", 2, {"wall": "colored", "jokers": False}, 0)
    game.apply({"deal": {"factories": deal}})
    for k, move in enumerate(moves):
        game.apply({"player": k % 2, "move": move})
    return game.record, [game.record.new_state()] + [step.state.copy() for step in replay(game.record)]


DEAL = [["blue", "blue", "red", "red"], ["black", "black", "white", "yellow"], ["blue", "white", "white", "yellow"],
        ["black", "red", "white", "yellow"], ["blue", "red", "yellow", "yellow"]]


def test_an_emptied_display_whose_print_reads_as_tiles_is_told_empty_by_its_change():
    # A printing the reader never saw: each emptied display's print reads as four black tiles,
    # surely. Compared with itself and with its look empty, it says it is empty.
    record, states = _azul_game(DEAL, [{"action": "take", "source": 0, "color": "blue", "line": 1},
                                       {"action": "take", "source": 1, "color": "black", "line": 1}])
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}, 0), first_near=(700, 400))
    sure, unsure = 5.0, -5.0
    for k, state in enumerate(states):
        exp = expected(state)
        empty = [i for i in range(5) if not exp[f"factories.{i}"]]
        view = exact_view(state, float(k), {f"factories.{i}": loose_zone([("black", 0.97)] * 4) for i in empty})
        if tracker.baseline:  # every settled zone: changed where the state since the last view changed it
            was = expected(states[k - 1])
            view.change = {z: ((sure if exp.get(z, empty_content(z)) != was.get(z, empty_content(z)) else unsure),) * 2
                           for z in tracker.baseline}
            view.filled = {f"factories.{i}": (unsure if i in empty else sure) for i in range(5)}
        said = tracker.see(view)
        assert not [e for e in said if e["kind"] == "alert"], said
    assert sorted_deals(tracker.game.record.events) == sorted_deals(record.events)


def test_a_deal_misread_where_its_leftovers_go_unseen_is_read_again_when_a_take_shows_them():
    # Display 0's two reds read as yellows, unsure; the reds left in the centre are not read there
    # (a pile the reader misses); a later take of them from the centre shows red on a pattern line.
    moves = [{"action": "take", "source": 0, "color": "blue", "line": 1},
             {"action": "take", "source": "center", "color": "red", "line": 2}]
    record, states = _azul_game(DEAL, moves)
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}, 0), first_near=(700, 400))
    misread_deal = {"factories.0": loose_zone([("blue", 0.97), ("blue", 0.97), ("yellow", 0.45), ("yellow", 0.45)])}
    unseen_reds = {"center": loose_zone([("first_player", 0.9)])}
    views = [exact_view(states[0], 0.0), exact_view(states[1], 1.0, misread_deal), exact_view(states[2], 2.0, unseen_reds),
             exact_view(states[3], 3.0), exact_view(states[3], 3.6)]
    for view in views:
        tracker.see(view)
    assert sorted_deals(tracker.game.record.events) == sorted_deals(record.events)


def test_a_kind_the_reader_never_sees_among_loose_tiles_weighs_less_once_the_game_shows_it():
    from azulcam.follow.mixups import Mixups
    from azulcam.follow.explain import disagreement

    table = Mixups()
    for _ in range(6):  # the first-player marker, in the centre each time, never read there
        table.learn_loose((), ("first_player",))
        table.learn_loose(("red",), ("red",))
    read = table.of(loose_zone([("red", 0.95)]))
    assert disagreement(("first_player", "red"), read) < 0.5 < disagreement(("red", "red"), read)
    assert disagreement(("first_player", "red"), loose_zone([("red", 0.95)])) > 2.0  # the reader's word alone


def test_a_display_read_empty_as_the_state_empties_it_is_not_asked_its_look():
    # Its place followed from where tiles lay on it, an emptied display may be cut off its empty
    # look: read empty as the game empties it, that says nothing; its look is asked only of tiles read.
    from azulcam.follow.explain import Changes

    changes = Changes({"factories.0": (6.9, 6.9)}, {}, {"factories.0": ("blue", "red", "red", "white")},
                      filled={"factories.0": 5.5})
    assert changes.cost("factories.0", (), loose_zone([]), {}) == 0.0
    assert changes.cost("factories.0", (), loose_zone([("black", 0.97)] * 4), {}) == 5.5  # tiles read: is it its print?
    assert changes.cost("factories.0", ("blue", "red", "red", "white"), loose_zone([]), {}) == 6.9  # changed, and kept?


def test_a_deal_s_doubtful_colours_are_weighed_again_by_every_view_since():
    # Display 0's red read as a yellow at the deal, doubtfully, red a close second; the take of
    # its blues leaves it in the centre, read there as red but hardly surely at each view: too
    # little in any one view to revise the deal, enough with the deal's own doubt weighed beside
    # it. The record holds the likelier reading.
    deal = [["blue", "blue", "red", "yellow"], *DEAL[1:]]
    moves = [{"action": "take", "source": 0, "color": "blue", "line": 1},
             {"action": "take", "source": 1, "color": "black", "line": 1},
             {"action": "take", "source": 2, "color": "white", "line": 2}]
    record, states = _azul_game(deal, moves)
    likely = (("black", 0.02), ("blue", 0.02), ("red", 0.4), ("white", 0.02), ("yellow", 0.54))
    misread_deal = {"factories.0": loose_zone([("blue", 0.97), ("blue", 0.97), ("yellow", 0.54, likely), ("yellow", 0.97)])}

    def centre_as_read(state):  # the red there read as red, hardly surely
        return {"center": loose_zone([(t, 0.55 if t == "red" else 0.9) for t in expected(state)["center"]])}

    def followed(reweigh):
        tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}, 0), first_near=(700, 400))
        if not reweigh:
            tracker._reweighed_deal = lambda: []
        tracker.see(exact_view(states[0], 0.0))
        tracker.see(exact_view(states[1], 1.0, misread_deal))
        for k in range(2, len(states)):
            tracker.see(exact_view(states[k], float(k), centre_as_read(states[k])))
        return tracker

    assert sorted_deals(followed(True).game.record.events) == sorted_deals(record.events)
    assert sorted_deals(followed(False).game.record.events) != sorted_deals(record.events)  # no one view is enough


def test_a_space_whose_print_reads_as_a_tile_is_judged_by_what_it_read_as_when_settled():
    # A coloured wall printed as strongly as its tiles: its empty blue space reads as a blue tile,
    # surely, from the game's start. Read so again, it did not change; a blue laid on it hardly
    # changes its look, and that says nothing against the blue.
    from azulcam.follow.explain import Changes

    zone = "boards.0.wall.0.0"
    printed = ZoneRead("blue", 0.99)
    unchanged = {zone: (-1.0, -1.0)}  # its look hardly changed
    plain = Changes(unchanged, {}, {zone: None})
    looked = Changes(unchanged, {}, {zone: None}, looked={zone: "blue"})
    assert plain.cost(zone, None, printed, {}) > 1.0  # a tile read where none lies, by the reading alone
    assert looked.cost(zone, None, printed, {}) == 0.0  # read as it read when settled: unchanged
    still = {zone: (-3.0, -3.0)}  # its look did not change
    assert Changes(still, {}, {zone: None}).cost(zone, "blue", printed, {}) > 0.5
    looked = Changes(still, {}, {zone: None}, looked={zone: "blue"})
    assert looked.cost(zone, "blue", printed, {}) == 0.0  # its look cannot tell that the blue came
    assert looked.cost(zone, "blue", ZoneRead("red", 0.99), {}) > 0.0  # a red read there still counts


def test_a_space_whose_reading_moved_since_it_was_settled_is_judged_changed_whatever_its_look():
    # A Summer Pavilion red star's space, printed red, read empty when settled: a red tile laid
    # on it hardly changes its look, but the reader, sure of the empty space then, is as sure of
    # a red now. The reading weighs as much as the look: the tile counts as laid. The same red
    # read where the space read red when settled (a print read as a tile) does not.
    from azulcam.follow.explain import Changes

    zone = "boards.0.3.1"
    still = {zone: (-4.7, -6.9)}  # its look: no change, surely
    red = ZoneRead("red", 0.999)
    moved = Changes(still, {}, {zone: None}, looked={zone: None})
    assert moved.cost(zone, "red", red, {}) < moved.cost(zone, None, red, {}) - 1.0
    printed = Changes(still, {}, {zone: None}, looked={zone: "red"})
    assert printed.cost(zone, None, red, {}) == 0.0
    assert printed.cost(zone, "red", red, {}) == 0.0  # nor can it tell the red came: the game says


def test_a_game_resumed_from_its_journal_takes_its_first_view_as_the_table_the_journal_left():
    # A watcher restarted keeps the game, not the look of any space; this table's wall prints
    # read as tiles, surely. Nothing happening is still the likeliest: the view is the table as the
    # journal left it, and the next take is followed against it.
    from azulcam.engine.record import Record

    moves = [{"action": "take", "source": 0, "color": "blue", "line": 1},
             {"action": "take", "source": 1, "color": "black", "line": 1}]
    record, states = _azul_game(DEAL, moves)
    journal = Record(record.game, record.players, record.options, record.start_player, record.events[:2])
    printed = {f"boards.{p}.wall.0.{c}": ZoneRead(colour, 0.99) for p in (0, 1)
               for c, colour in enumerate(["blue", "yellow", "red"])}
    tracker = Tracker(Game(journal), first_near=(700, 400))
    assert tracker.see(exact_view(states[2], 0.0, printed)) == []
    said = tracker.see(exact_view(states[3], 1.0, printed)) + tracker.see(exact_view(states[3], 1.6, printed))
    assert sorted_deals(tracker.game.record.events) == sorted_deals(record.events)
    assert not [s for s in said if s["kind"] == "alert"]


def test_two_takes_that_leave_one_table_are_committed_in_the_order_the_hand_s_view_between_showed():
    """Two players each take the blues of a display holding as many (seed 4, events 2 and 3):
    either taking from either leaves the same table, so the view after both cannot tell which
    display went first. The view between, a hand carrying the first take's tiles (the taker's
    board not yet changed), can: the path it shows is committed, whichever the view after alone
    would have chosen."""
    options = {"wall": "colored", "jokers": False}
    truth = play_game("azul", [make_player("greedy", 4 + i) for i in range(2)], options, 4, start_player=0).record
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]
    first, second = truth.events[2], truth.events[3]
    swapped = [{**first, "move": {**first["move"], "source": second["move"]["source"]}},
               {**second, "move": {**second["move"], "source": first["move"]["source"]}}]
    paths = {}
    for events in ([first, second], swapped):
        game = Game.new("azul", 2, options, truth.start_player)
        for event in truth.events[:2] + events:
            game.apply(event)
        paths[events[0]["move"]["source"]] = (events, game)
    assert len(paths) == 2 and len({g.state.key() for _, g in paths.values()}) == 1  # one table, two paths

    def followed(between: int | None) -> list:
        tracker = Tracker(Game.new("azul", 2, options), first_near=(700, 400))
        for k in range(3):
            tracker.see(exact_view(states[k], float(k)))
        if between is not None:  # the hand over the taker's board: the display emptied, the line not yet filled
            events, _ = paths[between]
            game = Game.new("azul", 2, options, truth.start_player)
            for event in truth.events[:2] + events[:1]:
                game.apply(event)
            mover = events[0]["player"]
            before = exact_view(states[2], 3.0).zones
            view = exact_view(game.state, 3.0, {z: r for z, r in before.items() if z.startswith(f"boards.{mover}.")})
            tracker.see(view)
        tracker.see(exact_view(states[4], 4.0))
        assert len(tracker.game.record.events) == 4
        return tracker.game.record.events[2:]

    alone = followed(None)[0]["move"]["source"]
    other = next(source for source in paths if source != alone)
    assert followed(other) == paths[other][0]
    assert followed(alone) == paths[alone][0]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_alert_words_a_space_that_looks_changed_though_read_as_the_game_has_it(lang):
    """The change from bare may disagree with the game where the tiles read do not: the alert
    says so, rather than 'sees nothing where the game has nothing' (or failing on it)."""
    from azulcam.i18n.places import Table

    zones = [{"zone": "factories.0", "read": [], "expected": []},
             {"zone": "boards.0.line.0.0", "read": None, "expected": None},
             {"zone": "boards.0.line.1.0", "read": "red", "expected": "red"},
             {"zone": "center", "read": ["blue", "red"], "expected": ["red", "blue"]}]
    text = words(Notice("follow.unexplained", zones=zones), lang, Table.of("azul", {"wall": "colored"}, 2))
    assert "None" not in text and "[]" not in text
    assert text.count("changé" if lang == "fr" else "looks changed") == 4
    assert ("rouge" if lang == "fr" else "red tile") in text


def test_a_table_dealt_before_the_game_was_started_has_that_deal_as_its_first_event():
    """The first view already shows a deal (players dealt, then started the watch): it is the
    game's first event, and the game goes on from it."""
    record, states = _azul_game(DEAL, [{"action": "take", "source": 0, "color": "blue", "line": 1},
                                       {"action": "take", "source": 1, "color": "black", "line": 1}])
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}, 0), first_near=(700, 400))
    for k, state in enumerate(states[1:]):
        tracker.see(exact_view(state, float(k)))
    assert sorted_deals(tracker.game.record.events) == sorted_deals(record.events)


def test_displays_that_read_alike_at_the_start_are_their_print_not_a_deal():
    """Every display of a copy is printed alike: four tiles read the same on each at the game's
    start are the print, and the game begins with them empty."""
    record, states = _azul_game(DEAL, [])
    tracker = Tracker(Game.new("azul", 2, {"wall": "colored", "jokers": False}, 0), first_near=(700, 400))
    printed = {f"factories.{i}": loose_zone([("black", 0.97)] * 4) for i in range(5)}
    assert tracker.see(exact_view(states[0], 0.0, printed)) == []
    assert tracker.game.record.events == []
