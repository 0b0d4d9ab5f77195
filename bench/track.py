"""Games followed on the renderer's videos: `watch`'s records against the truth.

Each game is played by the built-in greedy players from its seed, drawn as a video (a hand carries
every event's tiles; every sixth move the next hand comes in as the last leaves, so two moves fall
between still views) and followed from its first frame as `azulcam watch` follows a camera:
calibrated on frame 0 (`calibrate --bare`; the players named by their seats, as a user names them),
then every frame through the still gate, the reader and the tracker. The games turn through Azul
(coloured wall; grey wall with jokers) and Summer Pavilion (coloured and grey sides), 2 to 4
players, and the art families given.

Prints per game and in all: records identical to the truth's (every move and chance event; the
displays numbered as the tracker numbered them, tiles in a display in any order), finished games
with a wrong score, how long after the hand left each move was committed (video seconds), and
the processing time over the video's time (at most 1 keeps up with the camera).

    python bench/track.py [--games 8] [--events 30] [--families classic,strong-print,matte-worn,bright]
        [--size 960x540] [--seed 900000] [--work DIR] [--reader PATH] [--drop 5] [--bump 10] [--kill] [--join]
        [--pick K,K...] [--filter]

``--filter``: the filter (follow/filter.py, not yet the watch's) is fed every view the tracker is
fed, and its record judged the same way.

``--drop S``: the camera gives nothing for S seconds halfway through each game; ``--bump MM``:
player 0's board is knocked MM millimetres halfway through (drawn so); ``--kill``: the watcher is
killed halfway and a new one resumes the game from the journal; ``--join``: the camera starts
halfway and joins the game (``watch --join``) with the round and scores the truth has there.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import statistics
import time
from pathlib import Path

import cv2
import numpy as np
from azulcam.calibration.profile import Profile
from azulcam.engine.players import make_player
from azulcam.engine.observe import observation_of
from azulcam.engine.record import Game, Record, play_game, replay
from azulcam.synth.video import Bump, pause_after, write_video
from azulcam.vision.analyze import bare_boards, default_locator
from azulcam.vision.calibrate import CalibrationError, find_boards, profile_json
from azulcam.follow.capture import Frame, VideoSource
from azulcam.vision.classify import default_classifier, load_reader
from azulcam.follow.journal import Journal, read_journal
from azulcam.follow.session import WatchConfig, open_watcher, resynchronised_at
from azulcam.follow.watch import Watcher
from azulcam.engine.zones import Zone
from azulcam.follow.explain import View
from azulcam.follow.filter import Filter
from azulcam.follow.likelihoods import seen_view
from azulcam.follow.track import empty_where_bare, in_engine_numbers

CASES = (("azul", {"wall": "colored", "jokers": False}), ("pavilion", {"side": "colored"}),
         ("azul", {"wall": "grey", "jokers": True}), ("pavilion", {"side": "grey"}))


def game_video(work: Path, k: int, seed: int, families: list[str], events: int, size: tuple[int, int],
               bump_mm: float = 0.0) -> tuple[Path, Record, str]:
    """The k-th game: its video (drawn once, kept in ``work``), its truth record (cut to ``events``)
    and its art family. With ``bump_mm``, player 0's board is knocked that far halfway through."""
    game, options = CASES[k % len(CASES)]
    players = 2 + (k // len(CASES)) % 3
    family = families[k % len(families)]
    full = play_game(game, [make_player("greedy", seed * 10 + i) for i in range(players)], options, seed,
                     start_player=seed % players).record
    record = Record(full.game, full.players, full.options, full.start_player,
                    full.events[:events] if events else full.events)
    name = f"{game}-{players}p-{'-'.join(str(v) for v in options.values())}-{family}-{seed}-{events}-{size[0]}x{size[1]}"
    bump = None
    if bump_mm:
        turn = (seed % 360) * math.pi / 180
        bump = Bump(len(record.events) // 2, 0, (bump_mm * math.cos(turn), bump_mm * math.sin(turn)))
        name += f"-bump{bump_mm:g}"
    video = work / f"{name}.mp4"
    if not video.exists() or not video.with_suffix(".jsonl").exists():
        write_video(record, video, seed, size, family=family, bump=bump)
    return video, record, family


def calibrated(frame: np.ndarray, truth: dict, record: Record, classifier: object) -> tuple[Profile, dict, bool]:
    """The profile from frame 0 (its players named by the truth's seats) and the bare boards;
    with the truth's corners where calibration fails (corners given by hand), and False."""
    game, options = record.game, record.options
    side = options.get("wall") or options.get("side")
    seats = {b["player"]: np.mean(b["corners"], axis=0) for b in truth["profile"]["boards"]}
    try:
        boards, scoring = find_boards(frame, game, record.player_count, side)
        data = profile_json(frame, game, boards, scoring, options)
        for b in data["boards"]:
            middle = np.mean(b["corners"], axis=0)
            b["player"] = min(seats, key=lambda p: float(np.linalg.norm(seats[p] - middle)))
        # the boards found are the seats', and Summer Pavilion's scoring board among them
        found = len({b["player"] for b in data["boards"]}) == len(seats) and not (game == "pavilion" and scoring is None)
    except CalibrationError:
        found = False
    if not found:
        data = {**truth["profile"], "options": options}
    data["boards"] = sorted(data["boards"], key=lambda b: b["player"])
    profile = Profile.from_json(data)
    return profile, bare_boards(frame, profile, classifier), found


def renumbered(record: Record, truth: list[dict], places: list[tuple[float, float]]) -> list[dict]:
    """The truth's events with its displays numbered as the tracker numbered them (nearest places
    to where the video's truth lines, ``truth``, first show tiles on them) and each display's
    tiles sorted."""
    shown = next((t["observation"]["factories"] for t in truth if any(f["tiles"] for f in t["observation"]["factories"])),
                 truth[0]["observation"]["factories"])
    truth_centres = [f["center"] for f in shown]
    order = {i: min(range(len(places)), key=lambda j: math.dist(c, places[j])) for i, c in enumerate(truth_centres)}
    if not places or len(set(order.values())) != len(order):
        order = {i: i for i in range(len(truth_centres))}
    out = []
    for event in record.events:
        if "deal" in event:
            deal = dict(event["deal"])
            factories = [[] for _ in deal["factories"]]
            for i, tiles in enumerate(deal["factories"]):
                factories[order[i]] = sorted(tiles)
            out.append({"deal": {**deal, "factories": factories}})
        elif "move" in event and isinstance(event["move"].get("source"), int):
            out.append({**event, "move": {**event["move"], "source": order[event["move"]["source"]]}})
        else:
            out.append(event)
    return out


def sorted_deals(events: list[dict]) -> list[dict]:
    return [{"deal": {**e["deal"], "factories": [sorted(f) for f in e["deal"]["factories"]]}} if "deal" in e else e
            for e in events]


def alike_when_still(got: Record, want: list[dict], truth: Record, seen: set[int], joined_at: int | None = None) -> bool:
    """Whether ``got`` reaches the same positions as ``want`` (the truth's events, renumbered) at
    every moment the video held still after an event and the camera saw it (``seen``: the events
    with a still frame fed): records that differ only in what no view showed (two moves between
    still views from two displays that held the same tiles, moves while the camera was out).
    ``joined_at``: ``got`` begins with the position taken up after that event of ``want``; its
    tables and scores are compared from there."""
    final = len(want) - 1
    shown = {i for i, event in enumerate(truth.events) if pause_after(i, event, final) > 1 and i in seen}
    skip = 0 if joined_at is None else joined_at + 1
    if len(got.events) - (joined_at is not None) != len(want) - skip:
        return False
    b = Game(Record(got.game, got.players, got.options, truth.start_player, []))
    for y in want[:skip]:
        b.apply(y["move"] if "move" in y else y)
    a = Game(Record(got.game, got.players, got.options, got.start_player, got.events[:1] if joined_at is not None else []))
    for i, (x, y) in enumerate(zip(got.events[joined_at is not None:], want[skip:]), start=skip):
        a.apply(x["move"] if "move" in x else x)
        b.apply(y["move"] if "move" in y else y)
        if i not in shown:
            continue
        if a.state != b.state if joined_at is None else not (same_table(a.state, b.state)
                                                             and a.state.scores() == b.state.scores()):
            return False
    return True


def join_point(truth: list[dict], record: Record, middle: int) -> tuple[int, int, object]:
    """Where a camera started halfway joins: the first still frame from ``middle`` on whose
    position is one tiles are being taken in; (frame, the last event before it, its state)."""
    states = replayed(record)
    final = len(record.events) - 1
    for t in truth[middle:]:
        # A still view long enough to be read before the next hand comes in.
        if t["phase"] == "still" and t["event"] >= 0 and pause_after(t["event"], record.events[t["event"]], final) > 1:
            state = states[t["event"] + 1]
            if state.current_player >= 0 and state.to_json()["phase"] in ("offer", "acquire"):
                return t["frame"], t["event"], state
    raise ValueError("no position to join in the video's second half")


def replayed(record: Record) -> list:
    """The record's states: before its first event, then after each."""
    return [record.new_state()] + [step.state.copy() for step in replay(record)]


def same_table(a: object, b: object) -> bool:
    """Whether two states show the same table, whatever the displays' numbers."""
    x, y = observation_of(a), observation_of(b)
    return (x["boards"] == y["boards"] and x["center"] == y["center"] and x["supply"] == y["supply"]
            and sorted(sorted(f["tiles"]) for f in x["factories"]) == sorted(sorted(f["tiles"]) for f in y["factories"]))


def forced_after(got: Record, truth: Record, joined_at: int = 0) -> int:
    """How many of ``got``'s events past the end of ``truth`` (a record cut short) are moves the
    rules forced and the tracker played (the only legal move, changing nothing in view): the
    game's own next events, left out of the comparison. ``joined_at``: ``got`` begins with the
    position after that event of ``truth``."""
    extra = got.events[len(truth.events) - joined_at:]
    if not extra:
        return 0
    state = Game(truth).state
    for event in extra:
        moves = state.legal_moves() if state.current_player >= 0 else []
        if len(moves) != 1 or event != {"player": state.current_player, "move": moves[0].to_json()}:
            return 0
        state.play(moves[0])
    return len(extra)


class Shadow:
    """The filter (`follow/filter.py`, not yet the watch's) fed every view the tracker is fed, its
    displays numbered as the tracker numbers them, a display that looks as it did empty read empty."""

    def __init__(self, watcher: Watcher) -> None:
        self.tracker = watcher.tracker
        state, record = watcher.tracker.game.state, watcher.tracker.game.record
        # Who moves first is the views' to tell, as the tracker is told.
        starts = [Game.new(record.game, record.players, record.options, p).state for p in range(record.players)]
        self.filter = Filter(starts[0], starts)
        self.kinds = len(state.spec.tiles_in_play(state.options))
        self.committed: list = []
        see = watcher.follower.see

        def seeing(view: View) -> None:
            see(view)
            self.see(view)

        watcher.follower.see = seeing  # type: ignore[method-assign]

    def see(self, view: View) -> None:
        if view.between or not self.tracker.displays.places:
            return
        view = dataclasses.replace(view, zones={Zone.parse(z): r for z, r in view.zones.items()})
        zones = empty_where_bare(in_engine_numbers(view, self.tracker.displays.match(view.displays)), view.filled)
        self.committed += self.filter.see(seen_view(View(zones, view.displays, view.frame, view.time), self.kinds))

    def verdict(self, want: list[dict]) -> dict:
        self.committed += self.filter.finish()
        got = sorted_deals([c.event for c in self.committed])
        wrong = sum(1 for i, c in enumerate(self.committed) if c.sure and (i >= len(want) or got[i] != want[i]))
        return {"same": got == want, "got": len(got), "unsure": sum(not c.sure for c in self.committed),
                "wrong_sure": wrong, "lost": self.filter.lost}


def follow(video: Path, record: Record, classifier: object, locator: object, drop_s: float = 0.0,
           kill: bool = False, work: Path | None = None, join: bool = False, shadow: bool = False) -> dict:
    """The game followed from the video's first frame. ``drop_s``: the camera gives nothing for
    that long halfway through; ``kill``: the watcher is killed halfway (its journal kept, all else
    lost) and a new one resumes the game from the journal, reading on after its last frame;
    ``join``: the camera starts halfway, and the game is joined there (``--join``) with the
    round and scores the truth has."""
    truth = [json.loads(line) for line in video.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]
    source = VideoSource(video)
    frames = source.frames()
    first = next(frames)
    profile, bare, found = calibrated(first.image, truth[0], record, classifier)
    journal_path = (work or video.parent) / f"{video.stem}.journal"
    # What the game taught of this table, kept beside the profile as `watch` keeps it: a watcher
    # killed and resumed reads it again.
    table_path = journal_path.with_suffix(".memory.json")
    table_path.unlink(missing_ok=True)
    game = Game.new(record.game, record.players, record.options)

    def watcher_for(game: Game, displays: list, frame: int) -> Watcher:
        journal = Journal.create(journal_path, game, displays, frame) if kill else None
        return open_watcher(WatchConfig(profile=profile, table_path=table_path), game, displays, lambda e: None,
                            classifier, locator, bare, journal)

    watcher = watcher_for(game, [], -1)
    shadowed = Shadow(watcher) if shadow else None
    middle = len(truth) // 2
    dropped = range(middle, middle + round(drop_s * source.fps))
    joined_frame, offset, joined = join_point(truth, record, middle) if join else (0, 0, None)
    if joined is not None:
        watcher.tracker.join(joined.round, joined.scores())
    spent = [0.0, 0]  # seconds, frames fed
    commits: list[tuple[int, int]] = []  # (frame, record event index)
    last = [-1]  # the last frame fed

    def feed(frame: Frame) -> None:
        before = len(watcher.tracker.game.record.events)
        t0 = time.perf_counter()
        watcher.feed(frame)
        spent[0] += time.perf_counter() - t0
        spent[1] += 1
        last[0] = frame.index
        commits.extend((frame.index, i) for i in range(before, len(watcher.tracker.game.record.events)))

    for frame in itertools.chain([first], frames):
        if frame.index in dropped or frame.index < joined_frame:
            continue
        if kill and frame.index == middle:  # killed: only the journal is left
            watcher.journal.close()  # type: ignore[union-attr]
            kept = read_journal(journal_path)
            watcher = watcher_for(kept.game, kept.displays, kept.frame)
            source.close()
            source = VideoSource(video)  # a video resumed reads on after the journal's last frame
            for again in source.frames():
                if again.index > kept.frame:
                    feed(again)
            break
        feed(frame)
    before = len(watcher.tracker.game.record.events)
    watcher.finish()
    commits.extend((last[0], i) for i in range(before, len(watcher.tracker.game.record.events)))  # read at the end
    source.close()
    got = watcher.tracker.game.record
    got = Record(got.game, got.players, got.options, got.start_player, got.events[:len(got.events) - forced_after(got, record, offset)])
    want = renumbered(record, truth, watcher.tracker.displays.places)
    if joined is not None:  # the position taken up (where the camera first saw the table still), then every event after it
        position = Game(Record(got.game, got.players, got.options, got.start_player, got.events[:1])).state \
            if got.events and "position" in got.events[0] else None
        states = replayed(record)
        offset = next((e for e in range(offset, len(record.events)) if position is not None
                       and same_table(position, states[e + 1])), offset)
        same = alike = position is not None and same_table(position, states[offset + 1]) \
            and sorted_deals(got.events[1:]) == want[offset + 1:]
        if position is not None and not same:
            try:
                seen = {t["event"] for t in truth if t["phase"] == "still"}
                alike = same_table(position, states[offset + 1]) and alike_when_still(got, want, record, seen, offset)
            except Exception:  # noqa: BLE001 (as below)
                alike = False
        want = want[offset:]
    else:
        same = sorted_deals(got.events) == want and got.start_player == record.start_player
        try:
            seen = {t["event"] for t in truth if t["phase"] == "still" and t["frame"] not in dropped}
            alike = same or alike_when_still(got, want, record, seen)
        except Exception:  # noqa: BLE001 (the truth's events renumbered may not replay after a wrong one)
            alike = False
    left = {}  # record event -> first frame with the hand gone
    for t in truth:
        if t["phase"] == "still" and t["event"] >= 0:
            left.setdefault(t["event"], t["frame"])
    # Each move's lag, and whether the video holds still after it (the renderer plays some moves
    # in a row: the next hand comes in at once, and no view can show the first alone).
    final = len(record.events) - 1
    lags = [((f - left[i + offset]) / 10.0, pause_after(i + offset, record.events[i + offset], final) > 1)
            for f, i in commits if i + offset in left and i < len(want) and "move" in want[i]]
    over = Game(record).state.is_over()
    ended = Game(got).state if got.events else None
    wrong_score = over and (ended is None or ended.scores() != Game(record).state.scores())
    # A wrong score the watch would pass for right: its record says the game is over, nothing was
    # lost at its end, and it holds no position taken up again (azulcam watch exits 0 on it).
    unmarked = wrong_score and ended is not None and ended.is_over() and watcher.tracker.lost() is None \
        and resynchronised_at(got) is None
    return {"same": same, "alike": alike, "events": len(record.events) - offset, "got": len(got.events), "calibrated": found,
            "first_wrong": next((i + offset for i, (a, b) in enumerate(zip(sorted_deals(got.events), want))
                                 if a != b and not (joined is not None and i == 0)), None),
            "lags": lags, "ratio": spent[0] / (spent[1] / source.fps), "over": over, "wrong_score": wrong_score,
            "unmarked": unmarked,
            "reads": watcher.spent["reads"], "frames": spent[1],
            "filter": shadowed.verdict(want) if shadowed is not None else None}


def game_arguments(parser: argparse.ArgumentParser, games: int, events: int) -> None:
    """The options of the benches that follow the renderer's game videos (this one, table.py)."""
    parser.add_argument("--pick", default=None, help="only these of the games, by number from 0 (say, 1,5)")
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--events", type=int, default=events, help="record events drawn of each game (0: the whole game)")
    parser.add_argument("--families", default="classic,strong-print,matte-worn,bright")
    parser.add_argument("--size", default="960x540")
    parser.add_argument("--seed", type=int, default=900000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/azulcam-bench-track"), help="where videos are kept")
    parser.add_argument("--reader", type=Path, default=None, help="another reading model (say, one that never saw a family)")


def picked_games(args: argparse.Namespace) -> list[int]:
    return [int(k) for k in args.pick.split(",")] if args.pick else list(range(args.games))


def reader_of(args: argparse.Namespace) -> object:
    return load_reader(args.reader) if args.reader else default_classifier()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    game_arguments(parser, games=8, events=30)
    parser.add_argument("--drop", type=float, default=0.0, help="seconds the camera gives nothing, halfway through")
    parser.add_argument("--bump", type=float, default=0.0, help="mm player 0's board is knocked, halfway through")
    parser.add_argument("--kill", action="store_true", help="kill the watcher halfway and resume from its journal")
    parser.add_argument("--join", action="store_true", help="start the camera halfway and join the game there")
    parser.add_argument("--filter", action="store_true", help="feed the filter every view beside the tracker, and judge it too")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.lower().split("x"))
    args.work.mkdir(parents=True, exist_ok=True)
    classifier = reader_of(args)
    locator, _ = default_locator()
    results = []
    picked = picked_games(args)
    for k in picked:
        video, record, family = game_video(args.work, k, args.seed + k, args.families.split(","), args.events,
                                           size, args.bump)  # type: ignore[arg-type]
        r = follow(video, record, classifier, locator, args.drop, args.kill, args.work, args.join,
                   args.filter and not (args.kill or args.join))
        results.append(r)
        lags = [lag for lag, _ in r["lags"]]
        verdict = "same" if r["same"] else "alike at every still view" if r["alike"] else "DIFFERENT"
        print(f"{video.stem}: {verdict} record ({r['got']} of {r['events']} events"
              f"{'' if r['first_wrong'] is None else ', first wrong: event ' + str(r['first_wrong'])}), "
              f"{'calibrated' if r['calibrated'] else 'corners from the truth'}, {r['reads']} reads of {r['frames']} "
              f"frames, commit lag median {statistics.median(lags) if lags else float('nan'):.1f} s max "
              f"{max(lags) if lags else float('nan'):.1f} s, time/video {r['ratio']:.2f}", flush=True)
        if r["filter"] is not None:
            f = r["filter"]
            print(f"  the filter: {'same' if f['same'] else 'DIFFERENT'} record ({f['got']} of {r['events']} events), "
                  f"{f['unsure']} unsure, {f['wrong_sure']} wrong and sure{', lost' if f['lost'] else ''}", flush=True)
    lags = [lag for r in results for lag, _ in r["lags"]]
    held = [lag for r in results for lag, still in r["lags"] if still]
    same = sum(r["same"] for r in results)
    alike = sum(r["alike"] for r in results)
    print(f"records identical: {same} of {len(results)} ({same / len(results):.0%}); the same at every still view: "
          f"{alike} of {len(results)} ({alike / len(results):.0%}); finished games with a wrong "
          f"score: {sum(r['wrong_score'] for r in results)} of {sum(r['over'] for r in results)}, "
          f"{sum(r['unmarked'] for r in results)} of them passed for right (watch would exit 0); calibrated on "
          f"frame 0: {sum(r['calibrated'] for r in results)} of {len(results)}")
    if lags:
        print(f"moves committed within 1 s of the hand leaving: {sum(x <= 1.0 for x in lags)} of {len(lags)}; "
              f"median {statistics.median(lags):.1f} s, max {max(lags):.1f} s; of the moves the video holds still "
              f"after, {sum(x <= 1.0 for x in held)} of {len(held)}, max {max(held, default=float('nan')):.1f} s")
    filtered = [r["filter"] for r in results if r["filter"] is not None]
    if filtered:
        print(f"the filter: records identical {sum(f['same'] for f in filtered)} of {len(filtered)}, "
              f"{sum(f['unsure'] for f in filtered)} events unsure, {sum(f['wrong_sure'] for f in filtered)} wrong and sure, "
              f"{sum(f['lost'] for f in filtered)} lost")
    print(f"processing time / video time: median {statistics.median(r['ratio'] for r in results):.2f}, "
          f"max {max(r['ratio'] for r in results):.2f} (this machine, {cv2.getNumThreads()} OpenCV threads)")


if __name__ == "__main__":
    main()
