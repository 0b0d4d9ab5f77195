"""The committed scene fixtures are what ``azulcam render`` makes today: the same truth, and
images that differ at most by what another JPEG library build could change."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from azulcam.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENES = ROOT / "fixtures" / "scenes"
SETS = json.loads((SCENES / "sets.json").read_text(encoding="utf-8"))["sets"]


@pytest.mark.parametrize("spec", SETS, ids=[s["name"] for s in SETS])
def test_scene_fixtures_are_remade_the_same(spec, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the truth files name the record as the command was given it
    out = tmp_path / spec["name"]
    code = main(["render", f"fixtures/records/{spec['record']}", "--at", str(spec["at"]), "--count", str(spec["count"]),
                 "--seed", str(spec["seed"]), "--size", spec["size"], "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    committed = sorted(p.name for p in (SCENES / spec["name"]).iterdir())
    assert committed == sorted(p.name for p in out.iterdir())
    for name in committed:
        old, new = SCENES / spec["name"] / name, out / name
        if name.endswith(".json"):
            assert json.loads(old.read_text()) == json.loads(new.read_text()), name
        else:
            a = cv2.imread(str(old)).astype(np.int16)
            b = cv2.imread(str(new)).astype(np.int16)
            assert a.shape == b.shape and np.abs(a - b).mean() < 1.0, name
