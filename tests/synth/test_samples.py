"""The photos bundled for the demo are remade by their command (``python -m azulcam.synth.samples``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from azulcam.synth.samples import SAMPLES, make

BUNDLED = Path(__file__).resolve().parents[2] / "azulcam" / "samples"


def test_the_bundled_samples_are_remade_by_their_command(tmp_path):
    sample = SAMPLES[0]
    make(sample, tmp_path)
    for suffix in (".profile.json", ".truth.json"):
        assert (tmp_path / f"{sample.name}{suffix}").read_text() == (BUNDLED / f"{sample.name}{suffix}").read_text()
    for suffix in (".start.jpg", ".jpg"):
        made, bundled = (cv2.imread(str(folder / f"{sample.name}{suffix}")) for folder in (tmp_path, BUNDLED))
        # The same drawing; another OpenCV's JPEG encoder may round a few values otherwise.
        assert made.shape == bundled.shape and np.abs(made.astype(int) - bundled.astype(int)).mean() < 0.5


def test_the_samples_seat_the_players_as_calibrate_does():
    """The bundled profile numbers the boards as ``azulcam calibrate`` does on the same photo."""
    import json

    from azulcam.vision.calibrate import photo_profile
    from azulcam.vision.image_file import load_image

    for sample in SAMPLES:
        bundled = json.loads((BUNDLED / f"{sample.name}.profile.json").read_text())
        found = photo_profile(load_image(BUNDLED / f"{sample.name}.start.jpg"), bundled["game"], bundled["players"],
                              dict(bundled["options"]))
        for ours, calibrated in zip(bundled["boards"], found["boards"], strict=True):
            assert ours["player"] == calibrated["player"]
            assert np.abs(np.mean(ours["corners"], axis=0) - np.mean(calibrated["corners"], axis=0)).max() < 20, sample.name
