"""Running the command line in-process, and what its refusals look like."""

from __future__ import annotations

import contextlib
import io

import pytest

from azulcam.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str] | None = None) -> tuple[int, str, str]:
    """Run the CLI in-process: exit code (argparse exits through SystemExit), stdout, stderr
    (caught by ``capsys``, or, without it, by this function: outside pytest)."""
    out, err = io.StringIO(), io.StringIO()
    caught = contextlib.ExitStack()
    if capsys is None:
        caught.enter_context(contextlib.redirect_stdout(out))
        caught.enter_context(contextlib.redirect_stderr(err))
    with caught:
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    if capsys is not None:
        return (code, *capsys.readouterr())
    return code, out.getvalue(), err.getvalue()


def assert_one_line_error(err: str) -> str:
    """Bad input: a single line on stderr, no traceback."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("azulcam ")
    return lines[0]
