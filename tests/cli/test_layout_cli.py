"""``azulcam layout``: check a layout, write an adjusted copy for another printing, refuse one
that would not be usable."""

from __future__ import annotations

import json

import pytest

from azulcam.calibration.layouts import load_layout
from support.cli import run as run_cli


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_cli(["layout", *argv], capsys)


@pytest.mark.parametrize("name", ["azul-colored", "pavilion-grey", "pavilion-scoring"])
def test_shipped_layouts_check_usable(name, capsys):
    code, out, _ = run([name], capsys)
    assert code == 0 and out.strip().endswith("usable")


def test_adjusted_copy_is_written_and_loads(tmp_path, capsys):
    out = tmp_path / "mine.json"
    code, _, err = run(["pavilion-colored", "--scale", "0.97", "0.97", "--shift", "0.01", "-0.005",
                        "--size-mm", "268", "268", "--name", "pavilion-colored-2021", "--out", str(out)], capsys)
    assert code == 0, err
    mine = load_layout(out)
    assert mine.name == "pavilion-colored-2021" and mine.size_mm == (268, 268)
    x, y = mine["0.1"].center
    ox, oy = load_layout("pavilion-colored")["0.1"].center
    assert (x, y) == pytest.approx(((ox - 0.5) * 0.97 + 0.51, (oy - 0.5) * 0.97 + 0.495))
    assert run([str(out)], capsys)[0] == 0


def test_adjustments_that_break_the_layout_are_refused(tmp_path, capsys):
    code, out, err = run(["azul-grey", "--scale", "1.5", "1.5"], capsys)
    assert code == 1 and "outside the board" in err and out == ""
    broken = json.loads(load_layout("azul-grey").dumps())
    del broken["slots"][0]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    code, _, err = run([str(path)], capsys)
    assert code == 1 and "missing slot line.0.0" in err
    code, _, err = run(["azul-pink"], capsys)
    assert code == 1 and "unknown layout" in err
