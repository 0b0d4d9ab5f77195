"""A photo read from a file, refused with a reason where it cannot be read well: missing, empty,
not an image, of a size its header says is too large to decode (checked before decoding: a small
file may claim a huge picture), or without colour (tiles are told apart by their colours).
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from ..engine.errors import CodedError

#: The largest picture read, in pixels: a 48-megapixel phone photo and then some.
MAX_PIXELS = 64_000_000
#: A picture is taken as colourless (grey) when, over a sample of its pixels, no channel differs
#: from the others by more than this (JPEG's rounding leaves a grey picture a few levels apart).
GREY_SPREAD = 12


class ImageError(CodedError):
    """An image that cannot be read, or that does not fit the profile: ``code`` and ``params``."""


def header_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a JPEG's or PNG's header gives, without decoding; None for another
    format or a header that does not say."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length
    return None


def load_image(path: str | Path) -> np.ndarray:
    """A BGR image from a file. Raises :class:`ImageError` naming the file and the reason."""
    data = np.fromfile(str(path), np.uint8) if Path(path).is_file() else None
    if data is None:
        raise ImageError("image.missing", path=str(path))
    if data.size == 0:
        raise ImageError("image.empty", path=str(path))
    size = header_size(data[:1 << 16].tobytes())
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageError("image.too_large", path=str(path), width=size[0], height=size[1],
                         megapixels=MAX_PIXELS // 1_000_000)
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None:
        raise ImageError("image.undecodable", path=str(path))
    if colourless(image):
        raise ImageError("image.colourless", path=str(path))
    return image


def colourless(image: np.ndarray) -> bool:
    """Whether a BGR picture is grey: its channels alike on a sample of its pixels."""
    step = max(1, int(np.sqrt(image.shape[0] * image.shape[1] / 40_000)))
    sample = image[::step, ::step].astype(np.int16)
    return int((sample.max(axis=2) - sample.min(axis=2)).max()) <= GREY_SPREAD
