"""A stranger's files: every public format, mutated, through the door that reads it.

:func:`mutate` changes a valid input the way a damaged or hostile file differs from ours: a value
replaced (by an odd one, or by another value of the same input, which keeps it plausible), a key or
item dropped, added or renamed, a number nudged. Each door (:data:`DOORS`) reads an input as the
product does and says what came of it: ``read`` (a legal result), or ``refused`` with the refusal's
code or kind. Anything else it raises is an internal error: what the property tests and
``bench/fuzz.py`` count, and must never see.
"""

from __future__ import annotations

import copy
import json
import random
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, Callable

from azulcam.calibration.layouts import Layout, LayoutError
from azulcam.calibration.profile import Profile, ProfileError
from azulcam.engine.errors import ObservationError
from azulcam.i18n.words import messages_json, words
from azulcam.engine.observe import observation_of
from azulcam.engine.position import problems
from azulcam.engine.record import Record, replay
from azulcam.follow.follower import Follower
from azulcam.follow.journal import Journal, JournalError, read_journal
from azulcam.follow.track import Refused
from azulcam.formats import FormatError
from azulcam.formats.observation import read_observation
from azulcam.formats.record import read_record
from azulcam.text import observation_text

from .cli import run

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(p for p in (ROOT / "fixtures" / "records").glob("*.json") if not p.name.endswith(".score.json"))

#: Values a stranger's file may hold where ours holds something else.
ODD_VALUES: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 3, 4, 5, 6, 7, 9, 100, 2**31, 2**63, -(2**63) - 1, 10**20, 10**400,
    0.5, 12.0, -0.0, 1e308, float("nan"), float("inf"), float("-inf"),
    "", "12", "x" * 5000, "\ud800", "b\udc00d", "center", "floor", "azul", "pavilion", "blue", "joker",
    "first_player", "purple", "wall.0.0", "0.1", "../../etc/passwd", "nul\x00",
    [], {}, [[]], [None], [1, 2], {"": None}, {"\ud800": 1}, [[[[[[[[]]]]]]]],
)
Outcome = tuple[str, str]  # ("read" | "refused", what refused it)


def mutate(value: Any, rng: random.Random, times: int | None = None) -> Any:
    """A copy of the JSON ``value`` with one to three mutations (``times``)."""
    value = copy.deepcopy(value)
    for _ in range(times if times is not None else rng.choice((1, 1, 1, 2, 3))):
        value = _mutate_once(value, rng)
    return value


def _odd(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(ODD_VALUES))  # a fresh one: a mutation may later change it


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    found = [(path, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _nodes(v, path + (k,))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            found += _nodes(v, path + (k,))
    return found


def _mutate_once(root: Any, rng: random.Random) -> Any:
    nodes = _nodes(root)
    path, node = rng.choice(nodes)
    kind = rng.choice(("odd", "odd", "other", "other", "nudge", "drop", "add", "rename"))
    if kind == "odd":
        new = _odd(rng)
    elif kind == "other":
        new = copy.deepcopy(rng.choice(nodes)[1])
    elif kind == "nudge" and isinstance(node, (int, float)) and not isinstance(node, bool):
        nudges = (lambda n: n + 1, lambda n: n - 1, lambda n: -n, lambda n: n * 10, float, str, lambda n: n + 0.5)
        try:
            new = rng.choice(nudges)(node)
        except OverflowError:  # an integer beyond any float
            new = node * 10
    elif kind in ("drop", "add", "rename") and isinstance(node, (dict, list)):
        new = copy.deepcopy(node)
        if kind == "drop" and new:
            key = rng.choice(list(new)) if isinstance(new, dict) else rng.randrange(len(new))
            del new[key]
        elif kind == "add":
            extra = copy.deepcopy(rng.choice(nodes)[1]) if rng.random() < 0.5 else _odd(rng)
            if isinstance(new, dict):
                new[rng.choice(("extra", "\ud800", "", "format", "x" * 300))] = extra
            else:
                new.insert(rng.randrange(len(new) + 1), extra)
        elif kind == "rename" and isinstance(new, dict) and new:
            key = rng.choice(list(new))
            new[rng.choice(list(new) + ["colour", "Player", key + " "])] = new.pop(key)
    else:
        new = _odd(rng)
    if not path:
        return new
    parent = root
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = new
    return root


# --------------------------------------------------------------------------- valid inputs


@cache
def records() -> tuple[dict[str, Any], ...]:
    """The committed records (both games, 2 to 4 players, every variant)."""
    return tuple(json.loads(p.read_text(encoding="utf-8")) for p in RECORDS)


@cache
def positioned() -> tuple[dict[str, Any], ...]:
    """Each record taken up mid-game from a position event, the rest of its game after it."""
    out = []
    for data in records():
        halfway = len(data["events"]) // 2
        state = next(step.state for step in replay(Record.from_json(data)) if step.index == halfway)
        out.append({**data, "events": [{"position": state.to_json()}] + data["events"][halfway + 1:]})
    return tuple(out)


@cache
def observations() -> tuple[dict[str, Any], ...]:
    """What a perfect camera sees mid-game, and at the end, of each record's game."""
    out = []
    for data in records():
        halfway = len(data["events"]) // 2
        # (replay plays on one state: each is seen as it is yielded)
        seen = [observation_of(step.state) for step in replay(Record.from_json(data))
                if step.index in (halfway, len(data["events"]) - 1)]
        out += [{**observation, "options": data.get("options", {})} for observation in seen[-2:]]
    return tuple(out)


@cache
def profiles() -> tuple[dict[str, Any], ...]:
    """The true profiles the renderer wrote beside the committed scenes (both games, every side)."""
    found = []
    for path in sorted((ROOT / "fixtures" / "scenes").glob("*/*.json")):
        profile = json.loads(path.read_text(encoding="utf-8")).get("profile")
        if isinstance(profile, dict) and profile not in found:
            found.append(profile)
    return tuple(found)


@cache
def layouts() -> tuple[dict[str, Any], ...]:
    """The shipped layouts, every board side and the scoring board."""
    folder = ROOT / "calibration" / "layouts"
    return tuple(json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json")))


@cache
def journals() -> tuple[list[dict[str, Any]], ...]:
    """Each record's journal, as the watch writes it, line by line."""
    from azulcam.engine.record import Game

    out = []
    for data in records():
        record = Record.from_json(data)
        game = Game.new(record.game, record.players, record.options, record.start_player)
        for event in record.events[:12]:
            game.apply(event)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "game.journal"
            Journal.create(path, game, [(100.0, 200.0), (300.5, 400.0)], 40).close()
            out.append([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()])
    return tuple(out)


#: Corrections as a person sends them: every kind, right and wrong.
CORRECTIONS: tuple[Any, ...] = (
    {"undo": True},
    {"replace": {"player": 1, "move": {"action": "take", "source": 0, "color": "black", "line": 2}}},
    {"overrule": {"zone": "boards.0.line.1.0", "content": "red"}},
    {"overrule": {"zone": "factories.2", "content": ["blue", "blue", "white", "red"]}},
    {"overrule": {"zone": "center", "content": ["first_player"]}},
    {"join": {"round": 2, "scores": [4, 9]}},
    {"join": {}},
)


# --------------------------------------------------------------------------- doors


class InternalError(AssertionError):
    """What a door must never give: a crash, or an answer that is not one."""


def score_door(data: Any) -> Outcome:
    """``azulcam score`` on the input as a file: exit 0 with a report that reads back, or exit 1
    with a one-line error; the refusal's kind is the form's code, or the rules'."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_text(json.dumps(data), encoding="utf-8")  # a lone surrogate escaped, as JSON allows
        code, out, err = run(["score", str(path)])
    if "internal error" in err or "Traceback" in err:
        raise InternalError(err.strip())
    if code == 0:
        json.loads(out)
        return "read", "score report"
    if code != 1 or len(err.strip().splitlines()) != 1 or "error:" not in err:
        raise InternalError(f"exit {code}: {err!r}")
    try:
        read_record(data)
    except FormatError as exc:
        return "refused", exc.code
    return "refused", "the rules (replay)"


def layout_door(data: Any) -> Outcome:
    """``azulcam layout FILE``: a layout of the right form, usable (exit 0) or not (exit 1 and the
    slots at fault); one of the wrong form refused with its field."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "layout.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        code, out, err = run(["layout", str(path)])
    if "internal error" in err or "Traceback" in err:
        raise InternalError(err.strip())
    if code == 0 and "usable" in out:
        return "read", "layout"
    if code == 1 and not err and len(out.strip().splitlines()) == 1:
        return "refused", "not usable (slots)"
    if code == 1 and len(err.strip().splitlines()) == 1 and "error:" in err:
        try:
            Layout.from_json(data)
        except LayoutError as exc:
            return "refused", exc.params["reason"].code if exc.code == "layout.form" else exc.code
        raise InternalError(f"refused, yet the layout reads: {err!r}")
    raise InternalError(f"exit {code}: {out!r} {err!r}")


def profile_door(data: Any) -> Outcome:
    """A profile read (``analyze``, ``watch``, ``serve`` read it so) and written back unchanged."""
    try:
        profile = Profile.from_json(data)
    except ProfileError as exc:
        words(exc).encode("utf-8")
        return "refused", exc.code
    again = Profile.from_json(json.loads(json.dumps(profile.to_json())))
    if again.to_json() != profile.to_json():
        raise InternalError("a profile read back is not the same")
    return "read", "profile"


def observation_door(data: Any) -> Outcome:
    """An observation's form, the rules' check of it, and its words for people (both languages)."""
    try:
        read_observation(data)
    except FormatError as exc:
        words(exc).encode("utf-8")
        return "refused", exc.code
    try:
        found = problems(data, data.get("options", {}))
    except ObservationError as exc:
        str(exc).encode("utf-8")
        return "refused", "the rules (observation)"
    for lang in ("en", "fr"):
        observation_text({**data, "check": {"possible": not found, "problems": messages_json(found)}}, lang).encode("utf-8")
    return "read", "possible" if not found else "impossible"


def journal_door(lines: Any) -> Outcome:
    """A journal read back, as a watch resumes its game."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.journal"
        text = "\n".join(json.dumps(line) for line in lines) if isinstance(lines, list) else json.dumps(lines)
        path.write_text(text + "\n", encoding="utf-8")
        try:
            kept = read_journal(path)
        except JournalError as exc:
            str(exc).encode("utf-8")
            return "refused", getattr(exc.__context__, "code", "the rules (replay)")
    kept.game.state.legal_moves()
    return "read", "journal"


@cache
def _tracker() -> Any:
    from .tracking import started

    return started()[1]


def correction_door(command: Any) -> Outcome:
    """A correction made on a followed game (the control stream's, the dashboard's): done, or
    refused with its code and the game unchanged."""
    tracker = copy.deepcopy(_tracker())
    before = list(tracker.game.record.events)
    said: list[dict[str, Any]] = []
    refused = Follower(tracker, said.append).correct(command)
    json.dumps(said, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if isinstance(refused, Refused):
        if tracker.game.record.events != before:
            raise InternalError("a refused correction changed the game")
        return "refused", refused.code
    return "read", "done"


#: Every format: its valid inputs, the part of one that is mutated, and its door.
DOORS: dict[str, tuple[Callable[[], tuple[Any, ...]], tuple[Any, ...], Callable[[Any], Outcome]]] = {
    "record": (records, (), score_door),
    "position": (positioned, ("events", 0, "position"), score_door),
    "profile": (profiles, (), profile_door),
    "layout": (layouts, (), layout_door),
    "observation": (observations, (), observation_door),
    "journal": (journals, (), journal_door),
    "correction": (lambda: CORRECTIONS, (), correction_door),
}


def attempt(name: str, rng: random.Random) -> Outcome:
    """One of format ``name``'s valid inputs, chosen and mutated by ``rng``, through its door."""
    inputs, focus, door = DOORS[name]
    data = copy.deepcopy(rng.choice(inputs()))
    if focus:
        parent = data
        for part in focus[:-1]:
            parent = parent[part]
        parent[focus[-1]] = mutate(parent[focus[-1]], rng)
    else:
        data = mutate(data, rng)
    return door(data)
