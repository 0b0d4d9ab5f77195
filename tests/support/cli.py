"""Running the command line in-process, and what its refusals look like."""

from __future__ import annotations

import pytest

from azulcam.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the CLI in-process: exit code (argparse exits through SystemExit), stdout, stderr."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str) -> str:
    """Bad input: a single line on stderr, no traceback."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("azulcam ")
    return lines[0]
