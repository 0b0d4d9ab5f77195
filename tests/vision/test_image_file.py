"""A photo read from a file: its header's size checked before decoding, a grey photo refused."""

from __future__ import annotations

import struct
import time

import cv2
import numpy as np
import pytest

from azulcam.vision.image_file import MAX_PIXELS, ImageError, header_size, load_image


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image)[1].tobytes()


def _claiming(data: bytes, width: int, height: int) -> bytes:
    """A JPEG whose start-of-frame header claims another size (the rest of the file unchanged)."""
    at = next(k for k in range(2, len(data) - 1) if data[k] == 0xFF and data[k + 1] in (0xC0, 0xC2))
    return data[:at + 5] + struct.pack(">HH", height, width) + data[at + 9:]


def test_the_header_gives_the_size_without_decoding():
    colour = np.random.default_rng(0).integers(0, 255, (48, 64, 3), np.uint8)
    assert header_size(_jpeg(colour)) == (64, 48)
    assert header_size(cv2.imencode(".png", colour)[1].tobytes()) == (64, 48)
    assert header_size(b"GIF89a....") is None and header_size(b"\xff\xd8\xff") is None


@pytest.mark.parametrize("width, height", [(60000, 33750), (32000, 18000)])
def test_a_file_that_claims_a_huge_picture_is_refused_at_once(tmp_path, width, height):
    colour = np.random.default_rng(1).integers(0, 255, (480, 640, 3), np.uint8)
    path = tmp_path / "huge.jpg"
    path.write_bytes(_claiming(_jpeg(colour), width, height))
    assert width * height > MAX_PIXELS
    began = time.perf_counter()
    with pytest.raises(ImageError) as info:
        load_image(path)
    assert info.value.code == "image.too_large" and (info.value.params["width"], info.value.params["height"]) == (width, height)
    assert time.perf_counter() - began < 1.0  # nothing decoded


def test_a_grey_photo_is_refused_and_a_coloured_one_read(tmp_path):
    rng = np.random.default_rng(2)
    grey = cv2.cvtColor(rng.integers(0, 255, (120, 160), np.uint8), cv2.COLOR_GRAY2BGR)
    (tmp_path / "grey.jpg").write_bytes(_jpeg(grey))
    with pytest.raises(ImageError) as info:
        load_image(tmp_path / "grey.jpg")
    assert info.value.code == "image.colourless"
    cv2.imwrite(str(tmp_path / "grey.png"), grey[:, :, 0])  # a one-channel file too
    with pytest.raises(ImageError) as info:
        load_image(tmp_path / "grey.png")
    assert info.value.code == "image.colourless"
    colour = grey.copy()
    colour[40:60, 40:60] = (200, 60, 30)  # one blue tile is enough
    (tmp_path / "colour.jpg").write_bytes(_jpeg(colour))
    assert load_image(tmp_path / "colour.jpg").shape == (120, 160, 3)
