"""Every message the engine gives is a code of both catalogues, given the parameters its words
need: the engine holds no sentence, so a code the catalogue lacks would reach a user as a crash
where the message is worded (``azulcam.i18n.words``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from azulcam.engine import pavilion_board as topo
from azulcam.engine.games import ALL_TILES, GAMES
from azulcam.i18n import catalogue_data, placeholders

ENGINE = Path(__file__).resolve().parents[2] / "engine"
EN, FR = catalogue_data("en"), catalogue_data("fr")
#: The first parts of the catalogue's keys: a string of the engine that starts with one and a dot is a code.
AREAS = {key.split(".")[0] for key in EN}
CODE = re.compile(r"[a-z_]+(\.[a-z_0-9]+)+")
#: Codes whose parameters the catalogue's words phrase (``words.problem_values``) rather than fill in as they are.
PHRASED = ("problem.", "warning.")


def _trees() -> list[tuple[str, ast.AST]]:
    return [(path.name, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(ENGINE.glob("*.py"))]


def codes_named() -> set[str]:
    """Every string of the engine's code that is a message code: raised, made into a notice, or
    kept in a table of codes (``_OBJECT_REFUSALS``)."""
    found = set()
    for _, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value) \
                    and node.value.split(".")[0] in AREAS:
                found.add(node.value)
    return found


def messages_made() -> list[tuple[str, str, set[str] | None]]:
    """``(where, code, parameter names)`` of every error raised and notice made with a code
    written out; the names are ``None`` where some come from a ``**`` mapping."""
    found = []
    for name, tree in _trees():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str) and CODE.fullmatch(node.args[0].value)):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else "kind"
            if not (called.endswith("Error") or called in ("Notice", "kind")):
                continue
            names = {k.arg for k in node.keywords}
            found.append((f"{name}:{node.lineno}", node.args[0].value, None if None in names else names))
    return found


def test_the_scan_finds_the_engine_s_messages():
    made = {code for _, code, _ in messages_made()}
    assert {"illegal.move", "illegal.line_holds", "record.wrong_player", "observation.unknown_slot", "game.unknown",
            "options.bad_value", "state.players", "suggest.game_over", "chance.deal", "spare.lid"} <= made
    # codes kept in a table, or chosen by a condition
    assert {"move.unknown_key", "deal.lacks_key", "refill.not_object", "deal.not_due_player_moves"} <= codes_named() - made


def test_every_code_the_engine_names_is_in_both_catalogues():
    assert not sorted(f"{code} ({lang})" for code in codes_named() for lang, words in (("en", EN), ("fr", FR))
                      if code not in words)


@pytest.mark.parametrize("where, code, names", messages_made(), ids=[w for w, _, _ in messages_made()])
def test_a_message_gives_every_parameter_its_words_need(where, code, names):
    assert code in EN and code in FR, f"{code} is no catalogue key"
    needed = placeholders(EN[code])
    assert placeholders(FR[code]) == needed, "English and French need other parameters"
    if names is None or code.startswith(PHRASED):
        return
    assert names == set(needed), f"given {sorted(names)}, the words need {sorted(needed)}"


def test_the_codes_built_from_a_name_are_in_both_catalogues():
    """Colours, stars and titles are worded from codes made of their names (``color.blue``)."""
    tiles = set(ALL_TILES) - {"first_player"}
    built = ({f"color.{t}" for t in tiles} | {f"adj.{t}.one" for t in tiles} | {f"game.title.{g}" for g in GAMES}
             | {f"star.{name}" for name in topo.STAR_NAMES})
    assert not sorted(f"{code} ({lang})" for code in built for lang, words in (("en", EN), ("fr", FR)) if code not in words)
