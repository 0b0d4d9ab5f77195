"""The reader's mix-ups of one table, as the game named its readings."""

import pytest

from azulcam.engine.observe import expected
from azulcam.engine.players import make_player
from azulcam.engine.record import Game, play_game, replay
from azulcam.follow.explain import ZoneRead, disagreement, exact_view, weight
from azulcam.follow.mixups import Mixups
from azulcam.follow.track import Tracker, mixed_deals
from azulcam.i18n.words import words


def test_a_reading_never_wrong_here_keeps_its_confidence():
    mixups = Mixups()
    for _ in range(5):
        mixups.learn("black", "black")
    mixups.learn(None, "blue")  # an empty space read: the change reader's question, not a mix-up
    assert mixups.of(ZoneRead("black", 0.95)) == ZoneRead("black", 0.95)
    assert mixups.weight("black", "blue", 0.95) == pytest.approx(weight(0.95))


def test_a_kind_read_as_another_weighs_as_those_readings_turned_out():
    mixups = Mixups()
    for _ in range(3):
        mixups.learn("black", "black")
    for _ in range(3):
        mixups.learn("black", "blue")
    read = mixups.of(ZoneRead("black", 0.97))
    assert [(r, w) for r, w, _ in read.mixups] == [("black", "blue")]
    # Half of this table's blacks were blue: a black read at 0.97 hardly says it is not blue...
    assert disagreement("blue", read) < 0.5 < weight(0.97)
    # ...but it still says it is not red, as much as ever.
    assert disagreement("red", read) == pytest.approx(weight(0.97))


def test_a_mixed_up_tile_among_loose_ones_counts_once():
    mixups = Mixups()
    mixups.learn("black", "blue")
    read = mixups.of(ZoneRead(("black", "red", "white"), 0.95, (0.9, 0.9, 0.9)))
    plain = ZoneRead(read.content, read.confidence, read.sureness)
    want = ("blue", "red", "white")
    assert disagreement(want, read) == pytest.approx(mixups.weight("black", "blue", 0.9))
    assert disagreement(want, plain) == pytest.approx(weight(0.95) + weight(0.9))


def test_mixups_round_trip_and_refuse_nonsense():
    mixups = Mixups()
    mixups.learn("black", "blue")
    assert Mixups.from_json(mixups.to_json()).named == mixups.named
    for bad, code in (([], "mixups.form"), ({"black": {"blue": -1}}, "mixups.counts"),
                      ({"black": {"blue": True}}, "mixups.counts"), ({"black": 3}, "mixups.form")):
        with pytest.raises(ValueError) as refused:
            Mixups.from_json(bad)
        assert refused.value.code == code


def test_a_deal_is_tried_with_a_tile_swapped_for_what_its_kind_turned_out_to_be():
    mixups = Mixups()
    mixups.learn("black", "blue")
    deals = mixed_deals([["black", "black", "red", "red"], ["white", "white", "red", "yellow"]], mixups)
    assert deals == [[["blue", "black", "red", "red"], ["white", "white", "red", "yellow"]]]


def test_a_colour_read_as_another_on_every_board_is_followed():
    """Every blue tile on a board read black, surely: a reader that never saw this printing.
    Without the table's mix-ups two blues laid in a line say two surely wrong things, and the
    game stops; with them, the first take of blues that lasts on the table teaches the tracker
    (each position is seen twice, as a camera sees a table that stays put)."""
    options = {"wall": "colored", "jokers": False}
    truth = play_game("azul", [make_player("greedy", 31), make_player("greedy", 32)], options, 31,
                      start_player=1).record
    truth.events = truth.events[:40]
    states = [truth.new_state()] + [step.state.copy() for step in replay(truth)]

    def followed(learn: bool) -> Tracker:
        tracker = Tracker(Game.new("azul", 2, options), first_near=(700, 400))
        if not learn:
            tracker.mixups.learn = lambda read, was: None  # type: ignore[method-assign]
            tracker._taught_mixups = lambda *args: None  # type: ignore[method-assign]
        for k, state in enumerate(states):
            exp = expected(state)
            misread = {z: ZoneRead("black", 0.97) for z, kind in exp.items()
                       if z.startswith("boards.") and kind == "blue"}
            tracker.see(exact_view(state, float(k), misread))
            tracker.see(exact_view(state, k + 0.5, misread))
        return tracker

    learnt = followed(True)
    assert learnt.mixups.named["black"]["blue"] > 0
    got = learnt.game.record.events
    assert [e for e in got if "move" in e] == [e for e in truth.events if "move" in e]
    assert len(got) == len(truth.events) and expected(learnt.game.state) == expected(states[-1])
    assert learnt.mixups.weight("black", "blue", 0.97) < 1.0
    assert len(followed(False).game.record.events) < len(truth.events) // 2


def test_what_a_table_taught_is_kept_whole_and_read_back(tmp_path):
    from azulcam.follow.watch import load_table, save_table
    from azulcam.vision.references import TileReferences

    path = tmp_path / "profile.memory.json"
    memory, kept_mixups = load_table(path, "azul")
    assert kept_mixups.named == {} and memory.references.seen == {}  # none kept yet: nothing known
    memory.references = TileReferences({"blue": [[50.0] * 9] * 3})
    mixups = Mixups()
    mixups.learn("black", "blue")
    save_table(path, memory, mixups)
    kept, kept_mixups = load_table(path, "azul")
    assert kept.references.seen == memory.references.seen and kept_mixups.named == mixups.named
    assert [p.name for p in tmp_path.iterdir()] == ["profile.memory.json"]  # written whole, nothing left aside
    path.write_text(path.read_text().replace('"blue": 1', '"blue": "one"'))
    with pytest.raises(ValueError) as refused:
        load_table(path, "azul")
    assert refused.value.code == "memory.unreadable" and refused.value.params["path"] == str(path)
    assert refused.value.params["reason"].code == "mixups.counts"  # the mix-ups' own error, worded in its place
    assert words(refused.value) == f"{path}: not a table memory (mix-ups of 'black': each a kind and a count)"
