"""The reader stands on its own: nothing in ``azulcam.vision`` loads the renderer (``azulcam.synth``)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import azulcam.vision


def test_no_vision_module_loads_the_renderer():
    names = [f"azulcam.vision.{m.name}" for m in pkgutil.iter_modules(azulcam.vision.__path__)]
    assert "azulcam.vision.analyze" in names and "azulcam.vision.render" not in names
    script = ("import importlib, json, sys\n"
              f"for name in {names!r}:\n"
              "    importlib.import_module(name)\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.startswith('azulcam.'))))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                                       text=True).stdout)
    assert "azulcam.vision.register" in loaded
    assert [m for m in loaded if m.startswith("azulcam.synth")] == []
