"""The command line's refusals and warnings in the user's language: the command's ``--lang``,
else the locale's (``LC_ALL``, ...). The English is today's sentence; every ``cli.*`` code the
command line raises is in both catalogues, with the parameters its template needs."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from azulcam.cli import build_parser
from azulcam.cli.common import JSON_FILES, BadInput, said, warn
from azulcam.engine.errors import RecordError
from azulcam.engine.games import GAMES
from azulcam.engine.notice import Notice
from azulcam.i18n import LANGUAGES, catalogue_data, placeholders
from support.cli import assert_one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "fixtures" / "records" / "azul-2p-colored.json")
CLI = ROOT / "azulcam" / "cli"


def refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = run(argv, capsys)
    assert code == 1 and out == "", (code, err)
    return assert_one_line_error(err)


@pytest.mark.parametrize("argv, english, french", [
    (["score", "MISSING"], "azulcam score: error: cannot read record MISSING: No such file or directory",
     "azulcam score: error: impossible de lire l'enregistrement de partie MISSING : No such file or directory"),
    (["suggest", RECORD, "--at", "99"], "azulcam suggest: error: --at 99: the record has 58 events",
     "azulcam suggest: error: --at 99 : l'enregistrement a 58 événements"),
    (["render", RECORD, "--at", "99", "--out", "OUT"],
     "azulcam render: error: --at 99: the record has 58 events (0 is the position before the first)",
     "azulcam render: error: --at 99 : l'enregistrement a 58 événements (0 est la position avant le premier)"),
    (["play", "--game", "pavilion", "--wall", "grey", "--seed", "1", "--out", "-"],
     "azulcam play: error: --wall and --jokers are Azul options (Summer Pavilion has --side)",
     "azulcam play: error: --wall et --jokers sont des options d'Azul (le Pavillon d'été a l'option --side)"),
    (["play", "--side", "grey", "--seed", "1", "--out", "-"],
     "azulcam play: error: --side is a Summer Pavilion option (Azul has --wall)",
     "azulcam play: error: --side est une option du Pavillon d'été (Azul a l'option --wall)"),
    (["watch", "0", "--profile", "MISSING", "--join", "x"],
     "azulcam watch: error: cannot read profile MISSING: No such file or directory",
     "azulcam watch: error: impossible de lire le profil MISSING : No such file or directory"),
], ids=["missing record", "suggest --at", "render --at", "options of the other game", "option of the other game",
        "missing profile"])
def test_a_refusal_reads_in_the_language_of_lang_or_of_the_locale(argv, english, french, tmp_path, capsys, monkeypatch):
    missing, out = str(tmp_path / "nothing.json"), str(tmp_path / "out")
    argv = [{"MISSING": missing, "OUT": out}.get(a, a) for a in argv]
    english, french = (line.replace("MISSING", missing) for line in (english, french))
    assert refusal(argv, capsys) == english
    assert refusal([*argv, "--lang", "fr"], capsys) == french
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert refusal(argv, capsys) == french
    assert refusal([*argv, "--lang", "en"], capsys) == english  # --lang before the locale


def test_the_engines_refusal_at_an_event_reads_in_french(tmp_path, capsys):
    """Until the engine's errors are coded (issue 61), their English sentence is said as it is;
    the event that holds it is named in the user's language all the same."""
    record = json.loads(Path(RECORD).read_text(encoding="utf-8"))
    record["events"][1] = record["events"][2]  # player 1 moves first
    (tmp_path / "illegal.json").write_text(json.dumps(record), encoding="utf-8")
    english = refusal(["score", str(tmp_path / "illegal.json")], capsys)
    assert english.startswith("azulcam score: error: event 1: ")
    french = refusal(["score", str(tmp_path / "illegal.json"), "--lang", "fr"], capsys)
    assert french.startswith("azulcam score: error: évènement 1 : ")


def test_an_option_value_is_refused_in_the_language_of_the_locale(capsys, monkeypatch):
    """argparse reads the values before it has read ``--lang``: their refusal is the locale's."""
    code, _, err = run(["suggest", RECORD, "--time", "0"], capsys)
    assert code == 2 and "argument --time: expected a number above 0 up to 60, not 0" in err
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    code, _, err = run(["suggest", RECORD, "--time", "0"], capsys)
    assert code == 2 and "argument --time: un nombre au-dessus de 0 et jusqu'à 60 est attendu, pas 0" in err


def test_every_command_has_lang():
    commands = next(a for a in build_parser()._actions if a.dest == "command").choices
    for name, parser in commands.items():
        lang = [a for a in parser._actions if "--lang" in a.option_strings]
        assert len(lang) == 1 and list(lang[0].choices) == list(LANGUAGES), name


def test_a_warning_reads_in_the_language_asked(capsys):
    warning = Notice("cli.watch.followed_anyway", source="0", profile="p.json", reason="boards.0: another side")
    warn("watch", warning, "en")
    warn("watch", warning, "fr")
    assert capsys.readouterr().err.splitlines() == [
        "azulcam watch: warning: 0 does not match the profile p.json: boards.0: another side (followed all the same: --force)",
        "azulcam watch: warning: 0 ne correspond pas au profil p.json : boards.0: another side (suivi malgré tout : --force)"]


def test_a_record_error_inside_a_refusal_reads_in_the_language_asked():
    inside = BadInput("cli.record_invalid", path="r.json", reason=RecordError("record.game_over", 3))
    assert said(inside, "en") == "record r.json: event 3: the game is already over"
    assert said(inside, "fr").startswith("enregistrement de partie r.json : évènement 3 : ")


# --------------------------------------------------------------------------- the codes


#: Each code the command line builds from values (its f-string, each value ``{}``), and every code
#: it gives.
BUILT_CODES = {
    "cli.cannot_read.{}": [f"cli.cannot_read.{what}" for what in JSON_FILES],
    "cli.malformed_json.{}": [f"cli.malformed_json.{what}" for what in JSON_FILES],
    "cli.unreadable_json.{}": [f"cli.unreadable_json.{what}" for what in JSON_FILES],
    "cli.title.{}": [f"cli.title.{name}" for name in GAMES],
    "cli.face.{}.{}": [f"cli.face.{spec.face}.{face}" for spec in GAMES.values() for face in spec.faces],
    "cli.options_of.{}.{}.{}": [f"cli.options_of.{name}.{part}.{n}" for name in GAMES
                                for part in ("first", "more") for n in ("one", "other")],
}


def cli_codes() -> tuple[list[tuple[str, set[str] | None]], set[str]]:
    """The codes written out in azulcam/cli (each with its call's parameter names, where it is
    the code of a ``BadInput``, ``Notice`` or ``bad_value`` without ``**``), and the f-strings
    that build codes, each value ``{}``."""
    written: list[tuple[str, set[str] | None]] = []
    built: set[str] = set()
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        called: dict[int, set[str]] = {}
        parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("BadInput", "Notice", "bad_value")
                    and node.args and all(k.arg is not None for k in node.keywords)):
                called[id(node.args[0])] = {k.arg for k in node.keywords}  # type: ignore[misc]
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                shown = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
                if shown.startswith("cli."):
                    built.add(shown)
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("cli.")
                  and id(node) not in parts):
                written.append((node.value, called.get(id(node))))
    return written, built


def test_every_cli_code_is_in_both_catalogues_with_its_parameters():
    written, built = cli_codes()
    assert len(written) > 50 and built == set(BUILT_CODES), built
    catalogues = {lang: catalogue_data(lang) for lang in LANGUAGES}
    for code, params in written + [(c, None) for codes in BUILT_CODES.values() for c in codes]:
        for lang, data in catalogues.items():
            assert code in data, (lang, code)
            if params is not None:
                assert placeholders(data[code]) == params, (lang, code, params)
