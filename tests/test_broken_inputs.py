"""Broken inputs get a clear error, never an internal one.

Valid records, profiles, layouts and observations are broken at random (a value replaced by
any JSON, or by one of another type; a key deleted or added; a list cut short or grown) and fed
to their readers. Each must either accept the input or refuse it with one of the project's own
errors (:class:`EngineError`, :class:`ProfileError`, :class:`LayoutError`: all ``ValueError``),
whose message says what is wrong. A ``TypeError``, ``KeyError``, a plain ``ValueError`` and the
like are bugs: the command line reports them as internal errors.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azulcam.calibration.layouts import Layout, LayoutError, load_layout
from azulcam.calibration.profile import Profile, ProfileError, board_homography
from azulcam.cli import main
from azulcam.engine.errors import EngineError, InvalidMoveError
from azulcam.engine.notice import Notice
from azulcam.engine.position import problems, read_observation
from azulcam.engine.record import Game, Record, score_report
from azulcam.i18n.words import is_message, words

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "azulcam" / "samples"
RECORDS = [json.loads((ROOT / "fixtures" / "records" / name).read_text(encoding="utf-8"))
           for name in ("azul-2p-colored.json", "azul-2p-grey-jokers.json", "pavilion-2p-colored.json")]
PROFILES = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(SAMPLES.glob("*.profile.json"))]
LAYOUTS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "calibration" / "layouts").glob("*.json"))]
OBSERVATIONS = [json.loads(p.read_text(encoding="utf-8"))["observation"] for p in sorted(SAMPLES.glob("*.truth.json"))]
OWN_ERRORS = (EngineError, ProfileError, LayoutError)

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --------------------------------------------------------------------------- random JSON

#: Words the formats use, so that a broken input often looks nearly right.
WORDS = ["events", "player", "players", "move", "deal", "refill", "supply", "factories", "game", "options", "format",
         "wall", "jokers", "side", "seed", "start_player", "action", "take", "place", "bonus", "pass", "source", "color",
         "colors", "line", "row", "column", "floor", "center", "keep", "space", "wild", "floor_jokers", "azul", "pavilion",
         "colored", "grey", "blue", "red", "purple", "joker", "first_player", "slots", "hand", "tiles", "uncertain",
         "warnings", "boards", "image_size", "corners", "layout", "scoring_board", "name", "size_mm", "polygon", "id",
         "printed", "number", "check", "line.0.0", "wall.7.0", "floor.7", "1.1", "7.1", "corner.4", "supply.0",
         "azul-colored", "pavilion-scoring", "azulcam-record/1", "azulcam-profile/1", "azulcam-layout/1",
         "azulcam-observation/1", "azul/blue", "", " ", "²", "a\x00b"]
KEYS = st.one_of(st.sampled_from(WORDS), st.text(max_size=6))
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10), st.integers(),
    st.sampled_from([10 ** 30, -(2 ** 63), 10 ** 400]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, 1.0, 0.5, -0.0, 1e308]),
    st.sampled_from(WORDS), st.text(max_size=8),
)
JSON = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(KEYS, kids, max_size=4),
                    max_leaves=12)


def swapped(value: Any) -> list[Any]:
    """Values of other types standing for ``value``: bools for numbers, floats for integers, ..."""
    out: list[Any] = [True, False, None, "", [], {}, [value], {"x": value}, -1, 10 ** 20, math.nan, math.inf, 0.5]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e300:
        out += [float(value), str(value), value != 0, -value, value + 0.5]
    if isinstance(value, str):
        out += [value.upper(), value + " ", [value], 0]
    if isinstance(value, list):
        out += [value[:1], value * 2, {str(i): v for i, v in enumerate(value)}]
    return out


def paths(doc: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in ``doc``: the root, then each key's value and each list item, depth first."""
    yield at
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, at + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, at + (i,))


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


MUTATIONS = ("replace", "swap", "swap", "delete", "add", "truncate")


@st.composite
def broken(draw: Callable[..., Any], bases: list[Any]) -> Any:
    """One of ``bases``, broken in one to three places."""
    doc = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(paths(doc))))
        target = _get(doc, path)
        kind = draw(st.sampled_from(MUTATIONS))
        if kind == "replace":
            doc = _set(doc, path, draw(JSON))
        elif kind == "swap":
            doc = _set(doc, path, draw(st.sampled_from(swapped(target))))
        elif kind == "delete" and path:
            parent = _get(doc, path[:-1])
            del parent[path[-1]]
        elif kind == "add" and isinstance(target, dict):
            target[draw(KEYS)] = draw(JSON)
        elif kind == "add" and isinstance(target, list):
            extra = draw(st.one_of(JSON, st.sampled_from(target))) if target else draw(JSON)
            target.insert(draw(st.integers(0, len(target))), copy.deepcopy(extra))
        elif kind == "truncate" and isinstance(target, list):
            del target[draw(st.integers(0, len(target))):]
    return doc


def refused_clearly(read: Callable[[], Any]) -> BaseException | None:
    """Run ``read``: it must succeed or raise one of the project's errors with a message (a code
    the catalogue words, where the error is one)."""
    try:
        read()
    except OWN_ERRORS as exc:
        said = words(exc) if is_message(exc) else str(exc)
        assert said.strip(), f"{type(exc).__name__} without a message"
        return exc
    return None


def ints_of(doc: Any) -> list[tuple[Any, ...]]:
    """The places of the numbers (not bools) of ``doc``."""
    return [p for p in paths(doc) if isinstance(_get(doc, p), (int, float)) and not isinstance(_get(doc, p), bool)]


# --------------------------------------------------------------------------- records


def _replay(data: Any) -> None:
    score_report(Record.from_json(data))


def test_the_bases_are_valid():
    for record in RECORDS:
        _replay(record)
    for profile in PROFILES:
        Profile.from_json(profile)
    for layout in LAYOUTS:
        Layout.from_json(layout)
    for observation in OBSERVATIONS:
        read_observation(observation)


@FUZZ
@given(broken(RECORDS))
def test_a_broken_record_is_read_or_refused_clearly(data):
    refused_clearly(lambda: _replay(data))


@FUZZ
@given(st.data())
def test_a_bool_is_never_a_number_in_a_record(data):
    """``true`` must not pass for player 1, nor ``false`` for factory 0 (``True == 1`` in Python)."""
    record = copy.deepcopy(data.draw(st.sampled_from(RECORDS)))
    path = data.draw(st.sampled_from(ints_of(record)))
    _set(record, path, _get(record, path) != 0)
    assert isinstance(refused_clearly(lambda: _replay(record)), EngineError), f"accepted {path} = true"


@pytest.mark.parametrize("record", RECORDS[::2], ids=["azul", "pavilion"])
def test_a_chance_event_with_a_key_too_many_is_refused_not_recorded(record):
    """``{"deal": ..., "events": true}`` was dealt, and written to the game's record as it was."""
    game = Game.new(record["game"], record["players"], record["options"])
    event = {**record["events"][0], "events": True}
    with pytest.raises(InvalidMoveError) as caught:
        game.apply(event)
    assert caught.value.params["name"] == "events"
    assert game.record.events == []
    game.apply(record["events"][0])
    assert game.record.events == record["events"][:1]
    if record["game"] == "azul":  # the deal's body alone is recorded as the event it stands for
        again = Game.new(record["game"], record["players"], record["options"])
        again.apply(record["events"][0]["deal"])
        assert again.record.events == record["events"][:1]


def test_a_record_read_as_text_refuses_what_json_allows_but_means_nothing():
    for text in ('{"format": "azulcam-record/1", "seed": NaN}', "[" * 100_000, '{"players": ' + "1" * 5000 + "}"):
        with pytest.raises(EngineError) as caught:
            Record.loads(text)
        assert words(caught.value)


# --------------------------------------------------------------------------- profiles


def _profile(data: Any) -> None:
    profile = Profile.from_json(data)
    written = profile.to_json()
    assert Profile.from_json(written).to_json() == written
    assert profile.player_count == len(profile.boards)
    assert set(profile.game_options) == ({"wall", "jokers"} if profile.game == "azul" else {"side"})
    for b in profile.boards + ((profile.scoring_board,) if profile.scoring_board else ()):
        assert all(math.isfinite(v) for v in board_homography(b.corners).ravel())


@FUZZ
@given(broken(PROFILES))
def test_a_broken_profile_is_read_or_refused_clearly(data):
    refused_clearly(lambda: _profile(data))


@FUZZ
@given(st.data())
def test_a_bool_is_never_a_number_in_a_profile(data):
    profile = copy.deepcopy(data.draw(st.sampled_from(PROFILES)))
    path = data.draw(st.sampled_from(ints_of(profile)))
    _set(profile, path, data.draw(st.booleans()))
    assert isinstance(refused_clearly(lambda: _profile(profile)), ProfileError), f"accepted {path} = a bool"


# --------------------------------------------------------------------------- layouts


@FUZZ
@given(broken(LAYOUTS))
def test_a_broken_layout_is_read_or_refused_clearly(data):
    refused_clearly(lambda: Layout.from_json(data, "fuzzed.json"))


@FUZZ
@given(st.data())
def test_a_bool_is_never_a_number_in_a_layout(data):
    layout = copy.deepcopy(data.draw(st.sampled_from(LAYOUTS)))
    path = data.draw(st.sampled_from(ints_of(layout)))
    _set(layout, path, data.draw(st.booleans()))
    assert isinstance(refused_clearly(lambda: Layout.from_json(layout, "fuzzed.json")), LayoutError)


@pytest.mark.parametrize("name", ["azul-purple", "a\x00b.json", "x" * 5000, "x" * 5000 + ".json", ".", "/"],
                         ids=["unknown", "nul", "long", "long.json", "dot", "root"])
def test_a_layout_name_that_is_no_layout_is_refused_clearly(name):
    with pytest.raises(LayoutError):
        load_layout(name)


def test_a_layout_file_of_nonsense_json_is_refused_clearly(tmp_path):
    for n, text in enumerate(["[" * 100_000, '{"size_mm": ' + "1" * 5000 + "}"]):
        path = tmp_path / f"bad-{n}.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(LayoutError) as info:
            load_layout(path)
        assert info.value.code in ("layout.too_deep", "layout.unreadable_json") and info.value.params["source"] == str(path)
        assert words(info.value).startswith(f"{path}: malformed JSON: ")


# --------------------------------------------------------------------------- observations

OPTIONS = {"azul": {"wall": "colored", "jokers": True}, "pavilion": {"side": "colored"}}


def _check(data: Any, options: Any = None) -> None:
    seen = read_observation(data)
    found = problems(data, OPTIONS[seen["game"]] if options is None else options)
    assert isinstance(found, list) and all(isinstance(p, Notice) and words(p) for p in found)


@FUZZ
@given(broken(OBSERVATIONS))
def test_a_broken_observation_is_read_or_refused_clearly(data):
    refused_clearly(lambda: _check(data))


@FUZZ
@given(st.sampled_from(OBSERVATIONS), broken(list(OPTIONS.values())))
def test_broken_options_of_a_check_are_refused_clearly(observation, options):
    refused_clearly(lambda: _check(observation, options))


@FUZZ
@given(st.data())
def test_a_bool_is_never_a_number_in_an_observation(data):
    observation = copy.deepcopy(data.draw(st.sampled_from(OBSERVATIONS)))
    path = data.draw(st.sampled_from(ints_of(observation)))
    _set(observation, path, data.draw(st.booleans()))
    assert isinstance(refused_clearly(lambda: _check(observation)), EngineError), f"accepted {path} = a bool"


# --------------------------------------------------------------------------- the command line


def _score(record: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code = main(["score", str(path), *options])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "error:" in err and "internal error" not in err, err
    return err


def test_score_refuses_a_record_whose_game_is_a_list(tmp_path, capsys):
    record = copy.deepcopy(RECORDS[0])
    record["game"] = ["azul"]
    assert "game must be one of 'azul', 'pavilion'" in _score(record, tmp_path, capsys)


def test_score_refuses_true_where_a_player_or_the_events_belong(tmp_path, capsys):
    record = copy.deepcopy(RECORDS[0])
    second = next(i for i, e in enumerate(record["events"]) if e.get("player") == 1)
    record["events"][second]["player"] = True  # True == 1 in Python: it was taken for player 1
    assert f"events.{second}.player must be a whole number" in _score(record, tmp_path, capsys)
    record = copy.deepcopy(RECORDS[0])
    record["events"] = True
    assert "events must be a list" in _score(record, tmp_path, capsys)
    record = copy.deepcopy(RECORDS[0])
    record["events"][0]["events"] = True
    assert "events.0.events is not a known field" in _score(record, tmp_path, capsys)


def test_score_refuses_a_broken_record_as_clearly_in_french(tmp_path, capsys):
    record = copy.deepcopy(RECORDS[0])
    record["events"][0]["events"] = True
    said = _score(record, tmp_path, capsys, "--lang", "fr")
    assert f"enregistrement de partie {tmp_path / 'broken.json'} : events.0.events n'est pas un champ connu" in said
