"""What may import what: the contracts of ``.importlinter``, checked by import-linter on the package
as it ships.

The editable install maps ``azulcam.engine`` to ``engine/`` and so on through a meta-path finder;
grimp finds the package's folder and walks it, so on the editable install it sees ``azulcam/`` alone
and reports ``azulcam.engine`` missing. The test therefore lays the package out in a temporary folder
as a wheel would (``azulcam/`` with each ``package-dir`` folder linked in under its name) and runs
import-linter there, in a subprocess whose ``PYTHONPATH`` puts that folder first: the editable finder
is appended to ``sys.meta_path``, so the path finder, which reads ``PYTHONPATH``, answers before it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("importlinter")

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / ".importlinter"

#: Runs import-linter after checking that ``azulcam`` is the laid-out one, not the editable install's.
LINT = """\
import importlib.util, sys
from pathlib import Path
origin = Path(importlib.util.find_spec("azulcam").origin).parent
if origin != Path(sys.argv[1]):
    sys.exit(f"azulcam found in {origin}, not in {sys.argv[1]}")
from importlinter.cli import lint_imports_command
sys.argv[1:2] = []
sys.exit(lint_imports_command())
"""


def lay_out(target: Path, copy: tuple[str, ...] = ()) -> Path:
    """The package ``azulcam`` as it ships, under ``target``: symlinks to the repository's files,
    except the subpackages named in ``copy`` (copied, so that a test may add to them)."""
    package_dir = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    package = target / "azulcam"
    package.mkdir()
    # Where each entry of the package lies in the repository, by its path inside the package.
    parts = {Path(entry.name): entry for entry in (ROOT / package_dir["azulcam"]).iterdir() if entry.name != "__pycache__"}
    parts |= {Path(*name.split(".")[1:]): ROOT / folder for name, folder in package_dir.items() if name != "azulcam"}
    for inside, source in parts.items():
        place = package / inside
        if ".".join(("azulcam", *inside.parts)) in copy:
            shutil.copytree(source, place, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            place.symlink_to(source, target_is_directory=source.is_dir())
    return package


def lint(package: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(package.parent), *filter(None, [os.environ.get("PYTHONPATH")])])}
    # The cwd is the laid-out folder: sys.path[0] of ``-c`` is the cwd, and the repository's own
    # ``azulcam/`` must not be found there. ``--no-cache``: no cache folder left behind.
    return subprocess.run([sys.executable, "-c", LINT, str(package), "--no-cache", "--no-logo", str(CONFIG)],
                          cwd=package.parent, env=env, capture_output=True, text=True, timeout=300)


def test_the_import_contracts_are_kept(tmp_path: Path) -> None:
    result = lint(lay_out(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_broken_contract_fails(tmp_path: Path) -> None:
    package = lay_out(tmp_path, copy=("azulcam.engine",))
    (package / "engine" / "_broken.py").write_text("import azulcam.cli\n", encoding="utf-8")
    result = lint(package)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "azulcam.engine._broken -> azulcam.cli" in result.stdout, result.stdout
