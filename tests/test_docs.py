"""The repository stands alone: every relative Markdown link resolves inside it, and no file
sends the reader to a folder beside the repository that a clone does not have."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: ``[text](target)`` or ``[text](target "title")``; the text may hold code spans.
LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
#: Places outside the repository (written in pieces, so that this file does not name them).
OUTSIDE = ("../" + "shared", "shared" + "/rules", "shared" + "/design")


def tracked(*patterns: str) -> list[Path]:
    """The repository's tracked files, and its untracked files that git does not ignore."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z", *patterns], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return sorted(ROOT / name for name in out.split("\0") if name and (ROOT / name).is_file())


def links(text: str) -> list[tuple[int, str]]:
    """Every link target of a Markdown text with its line number, code blocks and code spans
    (outside link texts) left out."""
    found = []
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        found += [(number, m.group(1)) for m in LINK.finditer(CODE_SPAN.sub("", line))]
    return found


def test_links_find_their_targets() -> None:
    files = tracked("*.md")
    assert files, "no Markdown files found"
    broken = []
    for path in files:
        for number, target in links(path.read_text(encoding="utf-8")):
            if re.match(r"^(https?|mailto):", target, re.IGNORECASE) or target.startswith("#"):
                continue
            place = target.split("#", 1)[0]
            resolved = (path.parent / place).resolve()
            if not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)}:{number}: {target}")
            elif not resolved.is_relative_to(ROOT):
                broken.append(f"{path.relative_to(ROOT)}:{number}: {target} (outside the repository)")
    assert not broken, "links that do not resolve inside the repository:\n" + "\n".join(broken)


def test_links_are_found() -> None:
    text = "See [the rules](docs/rules.md#azul), [`boards`](../docs/boards.md) and `[no](link)`.\n" \
           "```\n[inside](a/code/block)\n```\n[web](https://example.org) [t](x.md \"title\")"
    assert [t for _, t in links(text)] == ["docs/rules.md#azul", "../docs/boards.md", "https://example.org", "x.md"]


def test_nothing_points_outside_the_repository() -> None:
    found = []
    for path in tracked("*.md", "*.py"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for place in OUTSIDE:
                if place in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {place}")
    assert not found, "mentions of folders outside the repository:\n" + "\n".join(found)
