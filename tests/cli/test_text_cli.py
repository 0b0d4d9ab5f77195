"""``--text`` and ``--lang`` on ``score``, ``analyze`` and ``demo``: summaries for people in
English or French (the language from the environment when not given), JSON otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from azulcam.cli import main
from tests.cli.test_refusals import sample, with_a_hand, write

RECORDS = Path(__file__).resolve().parents[2] / "fixtures" / "records"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def flat(text: str) -> str:
    """The text on one line, in lower case (a summary wraps and capitalises its lines)."""
    return " ".join(text.split()).lower()


def test_score_text_in_both_languages_and_from_the_environment(capsys, monkeypatch):
    record = str(RECORDS / "azul-3p-grey.json")
    code, english, _ = run(["score", record, "--text"], capsys)
    assert code == 0 and "Player 3" in english and "Final score" in english and "wall" in english
    code, french, _ = run(["score", record, "--text", "--lang", "fr"], capsys)
    assert code == 0 and "Joueur 3" in french and "Score final" in french and "mur" in french
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert run(["score", record, "--text"], capsys)[1] == french
    assert json.loads(run(["score", record], capsys)[1])["format"] == "azulcam-score/1"  # JSON stays the default


def test_analyze_text_draws_the_boards_and_says_what_is_covered(tmp_path, capsys):
    image_path, azul = sample("azul-4p")
    covered = tmp_path / "hand.png"
    cv2.imwrite(str(covered), with_a_hand(cv2.imread(str(image_path)), azul, 0))
    profile = write(tmp_path, azul)
    code, english, err = run(["analyze", str(covered), "--profile", profile, "--check", "--text", "--lang", "en"], capsys)
    assert code == 0, err
    assert "pattern lines" in english and "Player 4" in english and "Factory displays (9)" in english
    assert "the board of player 1: partly covered or out of view (top right quarter)" in flat(english)
    code, french, _ = run(["analyze", str(covered), "--profile", profile, "--check", "--text", "--lang", "fr"], capsys)
    assert code == 0 and "lignes de motif" in french and "Fabriques (9)" in french
    assert "le plateau du joueur 1 : couvert ou hors champ en partie (le quart haut droit)" in flat(french)


def test_demo_text(capsys):
    code, out, err = run(["demo", "--text", "--lang", "fr"], capsys)
    assert code == 0 and out.count("ce que voit la caméra") == 2
    assert "Azul : Pavillon d'été" in out and "cette position peut se produire" in out
    assert "everything as the truth has it" in err


def test_a_closed_pipe_is_no_internal_error():
    import subprocess
    import sys

    record = str(RECORDS / "azul-3p-grey.json")
    piped = subprocess.run(f"{sys.executable} -m azulcam score {record} | head -1", shell=True, capture_output=True,
                           text=True, timeout=60)
    assert piped.stdout == "{\n" and "error" not in piped.stderr
