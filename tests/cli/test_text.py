"""Plain-text summaries (:mod:`azulcam.text`) in both languages, the one message catalogue
(:mod:`azulcam.i18n`) and a position as a perfect camera sees it (:mod:`azulcam.engine.observe`)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from azulcam.engine.games import GAMES
from azulcam.engine.observe import observation_of
from azulcam.i18n.words import messages_json
from azulcam.engine.position import problems
from azulcam.engine.record import Record, final_state, replay, score_report

from azulcam.i18n import LANGUAGES, Catalogue, catalogue_data, default_language, messages, placeholders
from azulcam.text import WIDTH, observation_text, score_text

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "azulcam" / "samples"
RECORDS = ROOT / "fixtures" / "records"
SCENES = ROOT / "fixtures" / "scenes"
#: The sample photos' games and options (the Azul sample plays with jokers).
SAMPLE_OPTIONS = {"azul-4p": {"wall": "colored", "jokers": True}, "pavilion-2p": {"side": "colored"}}
RECORD_NAMES = sorted(p.stem for p in RECORDS.glob("*.json") if not p.name.endswith(".score.json"))
WORDS = {"en": ("Player", "Legend"), "fr": ("Joueur", "Légende")}
BOARD_WORDS = {("azul", "en"): ("pattern lines", "wall", "floor line"),
               ("azul", "fr"): ("lignes de motif", "mur", "ligne de plancher"),
               ("pavilion", "en"): ("beside the board", "Supply"),
               ("pavilion", "fr"): ("à côté du plateau", "Approvisionnement")}


def sample(name: str) -> dict[str, Any]:
    return json.loads((SAMPLES / f"{name}.truth.json").read_text(encoding="utf-8"))["observation"]


def checked(observation: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    found = problems(observation, options)
    return {**observation, "check": {"possible": not found, "problems": messages_json(found)}}


def flat(text: str) -> str:
    """The text with every run of spaces and newlines as one space (wrapped sentences whole again)."""
    return " ".join(text.split())


def assert_plain(text: str) -> None:
    """At most WIDTH columns, no control character but newlines, one final newline."""
    assert text.endswith("\n") and not text.endswith("\n\n")
    for line in text.splitlines():
        assert len(line) <= WIDTH, line
        assert line == line.rstrip()
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f\u00a0]", text)


def state_after(record: Record, events: int) -> Any:
    """The state after the record's first ``events`` events."""
    for step in replay(record):
        if step.index == events - 1:
            return step.state.copy()
    raise AssertionError(f"the record has fewer than {events} events")


# --------------------------------------------------------------------------- the catalogue


def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, fr = (catalogue_data(lang) for lang in LANGUAGES)
    assert sorted(en) == sorted(fr)
    for key in en:
        assert placeholders(en[key]) == placeholders(fr[key]), key
        assert en[key].strip() and fr[key].strip(), key
    # Counted messages come in pairs, and the drawn codes are short and without spaces.
    for key in en:
        if key.endswith((".one", ".other")):
            stem = key.rsplit(".", 1)[0]
            assert f"{stem}.one" in en and f"{stem}.other" in en, key
        if key.startswith("code."):
            for lang in LANGUAGES:
                code = catalogue_data(lang)[key]
                assert 1 <= len(code) <= 2 and " " not in code, (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_codes_of_a_game_are_distinct(lang: str) -> None:
    data = catalogue_data(lang)
    for game in ("azul", "pavilion"):
        codes = [v for k, v in data.items() if k.startswith(f"code.{game}.")]
        assert len(codes) == len(set(codes)), (lang, game, codes)
        if game == "azul":  # lower case means "printed on an empty wall space"
            assert all(c != c.lower() or not c.isalpha() for c in codes)


def test_catalogue_lookups() -> None:
    fr = messages("fr")
    assert fr.text("player", n=2) == "Joueur 2"
    assert messages("en").count("points", 1) == "1 point"
    assert messages("en").count("points", 0) == "0 points"
    assert fr.count("points", 0) == "0 point" and fr.count("points", 3) == "3 points"
    with pytest.raises(KeyError, match=r"no\.such\.key.*fr"):
        fr.text("no.such.key")
    with pytest.raises(KeyError, match="player.*'n'"):
        fr.text("player")
    with pytest.raises(ValueError, match="unknown language"):
        Catalogue("de")
    assert placeholders("{a} {{b}} {c.d} {e[0]}") == {"a", "c", "e"}


@pytest.mark.parametrize("environ, lang", [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "", "LC_MESSAGES": "fr_BE.UTF-8", "LANG": "en_GB.UTF-8"}, "fr"),
    ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:en"}, "fr"),
    ({"LANGUAGE": "en:fr"}, "en"),
    ({"LANG": "en_US.UTF-8", "LANGUAGE": "fr"}, "en"),
    ({"LC_ALL": "FR_fr"}, "fr"),
])
def test_default_language(environ: dict[str, str], lang: str) -> None:
    assert default_language(environ) == lang


# --------------------------------------------------------------------------- what the camera sees


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(SAMPLE_OPTIONS))
def test_observation_text_of_the_samples(name: str, lang: str) -> None:
    observation = checked(sample(name), SAMPLE_OPTIONS[name])
    text = observation_text(observation, lang, options=SAMPLE_OPTIONS[name])
    assert_plain(text)
    assert text == observation_text(observation, lang, options=SAMPLE_OPTIONS[name])
    m = messages(lang)
    assert text.startswith(m.text(f"game.{observation['game']}"))
    for word in WORDS[lang] + BOARD_WORDS[observation["game"], lang]:
        assert word in text, word
    for board in observation["boards"]:
        assert m.text("player", n=board["player"] + 1) in text
    # every factory display, each tile as its code
    for i, f in enumerate(observation["factories"]):
        codes = " ".join(m.text(f"code.{observation['game']}.{t}") for t in f["tiles"])
        assert f"{i + 1} [{codes}]" in text
    assert m.text("check.possible") in text
    assert m.text("unsure.none") in text
    assert m.text("warnings.none") in text


def test_observation_text_draws_the_azul_boards() -> None:
    observation = sample("azul-4p")
    text = observation_text(observation, "en", options=SAMPLE_OPTIONS["azul-4p"])
    lines = text.splitlines()
    # Player 1: pattern line 3 holds a joker and two blue tiles, right-aligned against the wall
    # whose third row holds black (column 1) and yellow (column 4); the printed ones in lower case.
    assert any(re.search(r"^\s+\*  B  B  >  K  w  b  Y  r(\s|$)", line) for line in lines), text
    assert "Centre of the table: 4 blue, 2 red, 4 black, 1 white, 1 joker" in text
    # The grey wall prints no colour: an empty space is a dot.
    grey = observation_text(observation, "en", options={"wall": "grey", "jokers": True})
    assert any(re.search(r"^\s+\*  B  B  >  K  \.  \.  Y  \.(\s|$)", line) for line in grey.splitlines()), grey
    # The floor line of player 4 holds the first-player marker.
    assert re.search(r"floor line  1  \.", text)
    french = observation_text(observation, "fr", options=SAMPLE_OPTIONS["azul-4p"])
    assert "Centre de la table : 4 bleues, 2 rouges, 4 noires, 1 blanche, 1 joker" in french
    assert "C blanc (bleu clair)" in french


def test_observation_text_draws_the_pavilion_boards() -> None:
    observation = sample("pavilion-2p")
    text = observation_text(observation, "en", options=SAMPLE_OPTIONS["pavilion-2p"])
    assert "Supply (scoring board): R  R  R  G  Y  B  O  O  Y  Y" in text
    # (wrapped to the width of the board's picture)
    assert "beside the board: 3 purple, 2 green," in text and "orange, 1 blue" in text
    assert "beside the board: 3 green, 2 blue," in text and "start-player token" in text
    assert text.count("multicolour") == 2 and text.count("purple") >= 2
    french = observation_text(observation, "fr", options=SAMPLE_OPTIONS["pavilion-2p"])
    assert "à côté du plateau : 3 vertes, 2 bleues," in french and "marqueur premier joueur" in french
    assert "Vi violet, Ve vert" in french
    # Without the side, empty spaces show no printed cost and the stars no colour.
    plain = observation_text(observation, "en")
    assert "multicolour" not in plain and "a digit" not in plain


def test_observation_text_says_what_is_unsure_and_wrong() -> None:
    observation = sample("azul-4p")
    observation["boards"][0]["slots"].update({"wall.0.1": "red", "line.0.0": "first_player"})
    observation["uncertain"] = ["boards.1.wall.3.2", "center", "factories.0", "boards.0.line.4.0", "boards.1.hand",
                                "boards.9.nowhere"]
    observation["warnings"] = [  # as the reader gives them: codes with parameters; and a plain sentence
        {"code": "warning.outside", "params": {"player": 1}, "text": "the board of player 1 lies partly outside the image"},
        {"code": "warning.display_unseen", "params": {"x": 812, "y": 455}, "text": "a factory display was not seen ..."},
        "something new the reader says",
    ]
    observation = checked(observation, SAMPLE_OPTIONS["azul-4p"])
    assert not observation["check"]["possible"]
    en = observation_text(observation, "en", options=SAMPLE_OPTIONS["azul-4p"])
    fr = observation_text(observation, "fr", options=SAMPLE_OPTIONS["azul-4p"])
    for text in (en, fr):
        assert_plain(text)
    en, fr = flat(en), flat(fr)
    for fragment in ("The camera is unsure of 6 places:", "Player 2, wall, row 4, column 3", "Centre of the table",
                     "Factory display 1", "Player 1, pattern line 5, space 1 from the right",
                     "Player 2, tiles beside the board", "Boards.9.nowhere",
                     "The board of player 2 lies partly outside the picture", "near pixel (812, 455)",
                     "Something new the reader says", "no legal game can lead to this position",
                     "The first-player marker is seen 2 times", "Player 1: the first-player marker lies on pattern line 1",
                     "Player 1: a red tile on the wall at row 1, column 2, a space printed yellow"):
        assert fragment in en, fragment
    for fragment in ("La caméra n'est pas sûre de 6 endroits :", "Joueur 2, mur, ligne 4, colonne 3", "Fabrique 1",
                     "Le plateau du joueur 2 sort en partie de l'image", "Something new the reader says (message en anglais)",
                     "aucune partie régulière", "Joueur 1 : une tuile rouge sur le mur, ligne 1, colonne 2, dont la case est jaune",
                     "Le marqueur premier joueur est vu 2 fois"):
        assert fragment in fr, fragment
    # the unsure places are flagged in the pictures too
    assert "1 [B K K W]?" in en and " ?w " in en and " ?. " in en


def _board(player: int, slots: dict[str, str]) -> dict[str, Any]:
    return {"player": player, "slots": slots, "hand": {}}


#: Observations that break every rule the check knows, with its options.
BROKEN: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"game": "azul", "factories": [], "center": {"blue": 21, "joker": 2, "first_player": 1}, "supply": None,
      "boards": [_board(0, {"line.2.1": "red", "line.3.0": "red", "line.3.1": "blue", "line.0.0": "first_player",
                            "line.1.0": "blue", "wall.1.1": "blue", "wall.0.1": "red", "wall.2.2": "first_player",
                            "floor.1": "red"}), _board(1, {})]},
     {"wall": "colored", "jokers": False}),
    ({"game": "azul", "factories": [{"center": [960.0, 300.0], "tiles": ["joker"] * 4}], "center": {"joker": 2}, "supply": None,
      "boards": [_board(0, {"wall.0.0": "blue", "wall.0.1": "blue", "wall.1.0": "red", "wall.2.0": "red"}), _board(1, {})]},
     {"wall": "grey", "jokers": True}),
    ({"game": "pavilion", "factories": [], "center": {"purple": 23}, "supply": [None] * 10,
      "boards": [_board(0, {"0.1": "first_player", "1.2": "red", "0.2": "green", "0.3": "green", "corner.0": "first_player"}),
                 _board(1, {})]},
     {"side": "colored"}),
]


@pytest.mark.parametrize("observation, options", BROKEN)
def test_every_problem_of_the_check_is_translated(observation: dict[str, Any], options: dict[str, Any]) -> None:
    observation = checked(observation, options)
    found = observation["check"]["problems"]
    assert len(found) >= 3
    fr = observation_text(observation, "fr", options=options)
    en = observation_text(observation, "en", options=options)
    assert "(message en anglais)" not in fr, fr
    # numbered from 1 as the rest of the text, in the catalogue's words
    assert "board 0" not in en and "wall." not in en and "star 1" not in en, en
    assert en.count("\n  - ") == len(found) and fr.count("\n  - ") == len(found)
    assert_plain(en)
    assert_plain(fr)


def test_problems_in_words() -> None:
    texts = {lang: flat("".join(observation_text(checked(o, opts), lang, options=opts) for o, opts in BROKEN))
             for lang in LANGUAGES}
    for fragment in ("24 blue tiles in view, but the game has only 20",
                     "2 joker tiles in view, but this game is played without jokers",
                     "6 joker tiles in view, but the game has only 5",
                     "Player 1: pattern line 3 is not filled from the right", "Player 1: pattern line 4 mixes blue and red tiles",
                     "Player 1: pattern line 2 holds blue tiles, a colour already on that row of the wall",
                     "Player 1: the first-player marker lies on the wall",
                     "Player 1: the floor line is not filled from the left",
                     "Player 1: 2 blue tiles on row 1 of the wall", "Player 1: 2 red tiles in column 1 of the wall",
                     "The start-player token is seen 2 times", "Player 1: the start-player token lies on the central star",
                     "Player 1: a red tile on the purple star, space 2",
                     "Player 1: 2 green tiles on the central star, which needs six different colours",
                     "Player 1: the start-player token lies on a corner of the board",
                     "23 purple tiles in view, but the game has only 22"):
        assert fragment in texts["en"], fragment
    for fragment in ("24 tuiles bleues en vue, mais le jeu n'en compte que 20",
                     "Joueur 1 : la ligne de motif 4 mélange des tuiles bleues et rouges",
                     "Joueur 1 : la ligne de motif 2 contient des tuiles bleues, couleur déjà posée sur cette ligne du mur",
                     "Joueur 1 : la ligne de plancher n'est pas remplie depuis la gauche",
                     "Joueur 1 : 2 tuiles rouges dans la colonne 1 du mur",
                     "Joueur 1 : une tuile rouge sur l'étoile violette, espace 2",
                     "Joueur 1 : le marqueur premier joueur est sur l'étoile centrale",
                     "Joueur 1 : 2 tuiles vertes sur l'étoile centrale, qui demande six couleurs différentes"):
        assert fragment in texts["fr"], fragment


# --------------------------------------------------------------------------- score reports


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", RECORD_NAMES)
def test_score_text_of_the_fixture_records(name: str, lang: str) -> None:
    record = Record.load(RECORDS / f"{name}.json")
    report = score_report(record)
    state = final_state(record)
    text = score_text(report, state, lang)
    assert_plain(text)
    assert text == score_text(report, state, lang)
    m = messages(lang)
    head = next(line for line in text.splitlines() if line.strip().startswith(m.text("player", n=1)))
    for p, score in enumerate(report["final"]):
        assert m.text("player", n=p + 1) in head or m.text("player", n=p + 1) in text
        assert re.search(rf"{m.text('player', n=p + 1)}{re.escape(m.text('score.points_suffix', points=''))}{score} point",
                         text), (p, score)
    final_line = next(line for line in text.splitlines() if line.strip().startswith(m.text("score.final")))
    assert final_line.split()[-len(report["final"]):] == [str(s) for s in report["final"]]
    winners = m.count("score.winners", len(report["winners"]), players="", points="").split()[0]
    line = next(line for line in text.splitlines() if line.startswith(winners))
    assert all(m.text("player", n=p + 1) in line for p in report["winners"])
    assert m.text(f"end.{report['game']}.{state.end_reason}") in flat(text)
    for key in report["breakdown"][0]:
        assert m.text(f"breakdown.{report['game']}.{key}") in text
    board_words = ("mur", "ligne de plancher") if lang == "fr" else ("wall", "floor line")
    if report["game"] == "azul":
        assert all(w in text for w in board_words)


def test_score_text_with_names_and_a_game_in_progress() -> None:
    record = Record.load(RECORDS / "azul-4p-colored-jokers.json")
    record.events = record.events[:45]
    names = ["Alice", "Bob", "Chloé", "Dominique-Alexandre de la Tour du Pin"]
    en = score_text(score_report(record), final_state(record), "en", names=names)
    fr = score_text(score_report(record), final_state(record), "fr", names=names)
    assert_plain(en)
    assert_plain(fr)
    assert "The game is not over: scores after 2 rounds." in en and "Position now:" in en
    assert "La partie n'est pas terminée : scores après 2 manches." in fr and "Position actuelle :" in fr
    assert "Player 3 (Chloé): 9 points" in en and "Joueur 2 (Bob) : 0 point" in fr
    assert "Winner" not in en and "Vainqueur" not in fr


def test_score_text_of_a_shared_victory() -> None:
    record = Record.load(RECORDS / "azul-2p-colored.json")
    report = {**score_report(record), "winners": [0, 1]}
    report["final"] = [report["final"][0]] * 2
    assert "Winners, sharing the victory: Player 1 and Player 2, with" in score_text(report, final_state(record), "en")
    assert "Vainqueurs à égalité" in score_text(report, final_state(record), "fr")


# --------------------------------------------------------------------------- a state as the camera sees it


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_observation_of_a_final_state_holds_every_visible_tile(name: str) -> None:
    state = final_state(Record.load(RECORDS / f"{name}.json"))
    observation = observation_of(state)
    data = state.to_json()
    assert observation["format"] == "azulcam-observation/1" and observation["options"] == state.options
    assert len(observation["boards"]) == state.players
    seen: Counter[str] = Counter()
    for f in observation["factories"]:
        seen.update(f["tiles"])
    seen.update(observation["center"])
    for b, board in zip(observation["boards"], data["boards"]):
        seen.update(b["slots"].values())
        seen.update(b["hand"])
        if observation["game"] == "azul":
            walls = sum(t is not None for row in board["wall"] for t in row)
            assert sum(s.startswith("wall.") for s in b["slots"]) == walls
        else:
            assert sum(not s.startswith("corner.") for s in b["slots"]) == len(board["spaces"])
    seen.update(t for t in observation["supply"] or [] if t is not None)
    assert seen.pop("first_player") == 1
    # with the hidden tiles, every tile of the game
    hidden = ("bag", "lid") if observation["game"] == "azul" else ("bag", "tower")
    kinds = [t for t in GAMES[observation["game"]].tiles if t != "first_player"]
    assert [seen[t] + sum(data[part].get(t, 0) for part in hidden) for t in kinds] == state.tile_counts()


def test_observation_of_matches_the_renderers_truth() -> None:
    """A perfect reader prints what the renderer says it drew (the factory displays' pixels aside)."""
    truths = [(json.loads((SAMPLES / f"{n}.truth.json").read_text(encoding="utf-8")), None) for n in SAMPLE_OPTIONS]
    truths += [(json.loads(p.read_text(encoding="utf-8")), None) for p in sorted(SCENES.glob("*/scene-000.json"))]
    compared = 0
    for truth, _ in truths:
        if truth.get("hidden"):
            continue
        made = re.match(r"render_moments\(the start and the state after (\d+) events of (\S+),", truth.get("made_by", ""))
        record, at = (made.group(2), int(made.group(1))) if made else (truth["record"], truth["at"])
        record = Record.load(ROOT / record)
        observation = observation_of(state_after(record, at))
        expected = truth["observation"]
        scores = state_after(record, at).scores()
        if made:  # a bundled sample seats its players as calibrate does: the game's player p is seat[p]
            seat = {b["player"]: next(e["player"] for e in expected["boards"] if e["slots"] == b["slots"])
                    for b in observation["boards"]}
            assert sorted(seat.values()) == list(seat)
            observation["boards"] = sorted(({**b, "player": seat[b["player"]]} for b in observation["boards"]),
                                           key=lambda b: b["player"])
            scores = [scores[p] for p in sorted(seat, key=seat.get)]
        assert observation.pop("options") is not None
        assert [f["tiles"] for f in observation.pop("factories")] == [f["tiles"] for f in expected["factories"]]
        assert problems(observation | {"factories": expected["factories"]}, record.options) == []
        # The renderer draws Azul's score markers, which the engine's observation leaves out: each
        # stands on its player's score (no game here is over, so no end-of-game bonus is in it).
        markers = [board.pop("score", None) for board in expected["boards"]]
        if record.game == "azul":
            assert markers == [min(s, 100) for s in scores]
        assert observation == {k: v for k, v in expected.items() if k != "factories"}
        compared += 1
    assert compared >= 2


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_observation_of_every_position_passes_the_rules_check(name: str) -> None:
    """Whatever a legal game shows, the rules check finds possible."""
    record = Record.load(RECORDS / f"{name}.json")
    for step in replay(record):
        if step.index % 7 == 0:
            assert problems(observation_of(step.state), step.state.options) == [], step.index
    state = final_state(record)
    assert problems(observation_of(state), state.options) == []


def test_observation_text_shows_the_score_markers_read() -> None:
    observation = sample("azul-4p")
    observation["boards"][0]["score"], observation["boards"][1]["score"] = 34, None
    observation["uncertain"] = ["boards.0.score"]
    en = observation_text(observation, "en", options=SAMPLE_OPTIONS["azul-4p"])
    fr = observation_text(observation, "fr", options=SAMPLE_OPTIONS["azul-4p"])
    assert "score marker: 34 (unsure)" in en and "score marker: not seen" in en
    assert "marqueur de score : 34" in fr and "marqueur de score : non vu" in fr
