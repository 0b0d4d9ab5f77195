"""The house rules that keep each fact in one place, checked on the source.

- No code outside ``engine/`` asks which game it is by its name: it reads the game's spec
  (``azulcam.engine.games``). A comparison with ``"azul"`` or ``"pavilion"``, a look-up keyed by
  one, a name tested as a prefix (``layout.startswith("azul")``) or listed in a ``Literal`` fails,
  in the Python and in the page's JavaScript alike.
- The dashboard reaches the follower through its public interface (``azulcam.follow``) only.
- Every message is a code with its parameters, worded only where it is shown: no error of ours is
  raised with a sentence (an f-string, or a string that is no catalogue key), and every code a
  notice or an error is made with is a key of both catalogues.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from azulcam.engine.games import GAMES
from azulcam.i18n import messages

ROOT = Path(__file__).resolve().parents[1]
#: The product's folders outside the engine (tests and benches may name games as they like).
FOLDERS = ("azulcam", "calibration", "vision", "follow", "synth", "models", "dashboard")
NAMES = frozenset(GAMES)


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def _names_a_game(node: ast.AST) -> bool:
    """A game's name, or a tuple, list or set holding one."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_name(e) for e in node.elts)
    return _is_name(node)


def _is_prefix(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and any(
        node.value == name or node.value.startswith(name + "-") or node.value.startswith(name[:3]) for name in NAMES)


def game_name_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, what)`` for each place the code asks a game by its name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(_names_a_game(n) for n in [node.left, *node.comparators]):
            found.append((node.lineno, "compared with a game's name"))
        elif isinstance(node, ast.Dict) and any(k is not None and _is_name(k) for k in node.keys):
            found.append((node.lineno, "a look-up keyed by a game's name"))
        elif isinstance(node, ast.Subscript) and _names_a_game(node.slice):
            found.append((node.lineno, "indexed by a game's name"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith") and node.args and (
                  _is_prefix(node.args[0]) or isinstance(node.args[0], ast.Tuple) and any(map(_is_prefix, node.args[0].elts)))):
            found.append((node.lineno, "a game's name tested as a prefix"))
        elif isinstance(node, ast.MatchValue) and _is_name(node.value):
            found.append((node.lineno, "a case on a game's name"))
    return sorted(set(found))


def _sources(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_code_outside_the_engine_asks_a_game_by_its_name(folder: str) -> None:
    bad = [f"{path.relative_to(ROOT)}:{line}: {what}"
           for path in _sources(folder) for line, what in game_name_uses(ast.parse(path.read_text(encoding="utf-8")))]
    assert not bad, "\n".join(bad)


#: ``game === "azul"``, ``game == 'pavilion'``, ``{azul: ...}``-style keys and ``startsWith("azul")`` in a script.
_SCRIPT_USE = re.compile(r"""(===?|!==?)\s*["'](%s)["']|["'](%s)["']\s*(===?|!==?)|startsWith\(\s*["'](%s)|\b(%s)\s*:"""
                         % (("|".join(sorted(NAMES)),) * 4))


def test_the_pages_scripts_ask_no_game_by_its_name() -> None:
    bad = [f"{path.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
           for path in sorted((ROOT / "dashboard" / "pages").glob("*.js"))
           for text in [path.read_text(encoding="utf-8")] for m in _SCRIPT_USE.finditer(text)]
    assert not bad, "\n".join(bad)


def test_the_check_finds_what_it_looks_for() -> None:
    code = """
if game == "azul": pass
if "pavilion" != spec: pass
if game in ("azul", "pavilion"): pass
sizes = {"azul": 1, "pavilion": 2}
x = sizes["azul"]
if layout.startswith("pavilion"): pass
if name.startswith(("azul-", "other")): pass
match game:
    case "azul": pass
ok = spec.board == "wall"
default = "azul"
"""
    assert [line for line, _ in game_name_uses(ast.parse(code))] == [2, 3, 4, 5, 6, 7, 8, 10]
    assert _SCRIPT_USE.search('if (game === "azul") {') and _SCRIPT_USE.search("{azul: 1}")
    assert not _SCRIPT_USE.search("spec.board === 'wall'")


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module an import names, a relative one resolved from the dashboard file ``path``."""
    if node.level == 0:
        return node.module or ""
    package = ["azulcam", "dashboard", *path.relative_to(ROOT / "dashboard").parts[:-1]]
    return ".".join(package[:len(package) - (node.level - 1)] + ([node.module] if node.module else []))


def test_the_dashboard_imports_only_the_followers_public_interface() -> None:
    bad = []
    for path in _sources("dashboard"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([_absolute(path, node)] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            bad += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names if name.startswith("azulcam.follow.")]
    assert not bad, "the dashboard imports follow's insides:\n" + "\n".join(bad)


#: Errors that say a bug of ours, not something of the user's: they may keep their English. (Every
#: error of ours that refuses a user's input is a coded ``ValueError``, never a bare one.)
PROGRAMMER_ERRORS = frozenset({"TypeError", "NotImplementedError", "AssertionError", "KeyError", "RuntimeError",
                               "IndexError", "AttributeError", "SystemExit", "StopIteration", "ValueError"})
#: pydantic's own error kinds: their code is worded by the formats as ``invalid.CODE``.
PYDANTIC_ERRORS = frozenset({"PydanticCustomError", "PydanticKnownError"})
#: Every folder of the product, the engine's too.
PRODUCT = ("engine", *FOLDERS)


def _pattern(node: ast.JoinedStr) -> str | None:
    """The codes an f-string builds (``f"a_board.{spec.name}"``) as a regular expression; None
    where it builds a sentence (its text holds a space)."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            if " " in str(value.value):
                return None
            parts.append(re.escape(str(value.value)))
        else:
            parts.append(r"[A-Za-z0-9_]+")
    return "".join(parts)


def message_uses(tree: ast.AST) -> list[tuple[int, str, str]]:
    """``(line, kind, code)`` for each error raised and notice made in ``tree``: ``kind`` is
    ``"code"`` (the code given as a string), ``"built"`` (``code`` a pattern of the codes an
    f-string builds), ``"pydantic"`` (a pydantic error kind), or ``"sentence"`` where a sentence
    or a computed text is given."""
    found = []
    for node in ast.walk(tree):
        call = None
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            call = node.exc
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Notice", "Refused", *PYDANTIC_ERRORS):
            call = node
        if call is None or not call.args:
            continue
        name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr if isinstance(call.func, ast.Attribute) else ""
        if name in PROGRAMMER_ERRORS or not (name.endswith(("Error", "Mismatch", "Input")) or name in ("Notice", "Refused")):
            continue
        first = call.args[0]
        if isinstance(first, ast.JoinedStr):
            pattern = _pattern(first)
            found.append((call.lineno, "sentence", "") if pattern is None else (call.lineno, "built", pattern))
        elif isinstance(first, ast.BinOp) or (
                isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) and first.func.attr in ("join", "format")):
            found.append((call.lineno, "sentence", ""))
        elif isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.append((call.lineno, "pydantic" if name in PYDANTIC_ERRORS else "code", first.value))
    return sorted(found)


def _known(kind: str, code: str, keys: frozenset[str]) -> bool:
    if kind == "code":
        return code in keys
    if kind == "pydantic":
        return f"invalid.{code}" in keys or "invalid" in keys
    return kind == "built" and any(re.fullmatch(code, key) for key in keys)


@pytest.mark.parametrize("folder", PRODUCT)
def test_every_message_is_a_catalogue_code(folder: str) -> None:
    en, fr = frozenset(messages("en").keys()), frozenset(messages("fr").keys())
    bad = [f"{path.relative_to(ROOT)}:{line}: " + ("a sentence where a code belongs" if kind == "sentence" else f"{code!r} is no catalogue key")
           for path in _sources(folder) for line, kind, code in message_uses(ast.parse(path.read_text(encoding="utf-8")))
           if not (_known(kind, code, en) and _known(kind, code, fr))]
    assert not bad, "\n".join(bad)


def test_the_message_check_finds_what_it_looks_for() -> None:
    code = """
raise IllegalMoveError(f"line {r} is full")
raise IllegalMoveError("illegal.line_full", line=r)
raise TypeError(f"use new()")
n = Notice("problem.floor_gap", player=1)
raise BadInput("no such file")
raise ProfileMismatch("; ".join(reasons))
raise RecordError("record.bad " + what)
n = Notice(f"a_board.{spec.name}")
raise ValueError(f"player must be 0..3, not {p}")
"""
    assert message_uses(ast.parse(code)) == [
        (2, "sentence", ""), (3, "code", "illegal.line_full"), (5, "code", "problem.floor_gap"), (6, "code", "no such file"),
        (7, "sentence", ""), (8, "sentence", ""), (9, "built", r"a_board\.[A-Za-z0-9_]+")]
