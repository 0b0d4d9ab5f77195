"""Measuring parts of rendered images."""

from __future__ import annotations

import cv2
import numpy as np


def mean_bgr(img: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The mean colour of ``img`` where ``mask`` is set."""
    return img[..., :3][mask > 0].reshape(-1, 3).astype(np.float64).mean(axis=0)


def slot_mask(shape, polygon, w: int, h: int) -> np.ndarray:
    """A mask of ``shape`` holding a layout polygon (fractions) drawn at ``w`` x ``h``."""
    mask = np.zeros(shape[:2], np.uint8)
    pts = np.round(np.array([(x * w, y * h) for x, y in polygon]) - 0.5).astype(np.int32)
    cv2.fillPoly(mask, [pts], 255)
    return mask
