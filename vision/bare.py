"""The user's own boards as calibration saw them bare: the reference for "is a tile on this space".

On many printings an empty space is printed in its tile's colour and pattern, as strong as the
tile itself. What every copy shares is that a tile is a body on the board: its raised top face,
its sides and shadow, its edges that are not the print's. So the board as it looked bare at
calibration is kept, in its own plane (:func:`rectified`, :class:`BareBoard`), and saved beside
the profile (:func:`save_bare_boards`, :func:`load_bare_boards`): each later photo's boards are
aligned with it (``register.refine_board``) and each slot is read beside it (:mod:`reader`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..calibration.layouts import load_layout
from ..engine.errors import CodedError

#: Pixels per board millimetre of the views compared (an Azul tile is 40 pixels across).
PPM = 2.0


class BareError(CodedError):
    """A bare board's image that cannot be read or written, or does not fit its board: ``code``
    and ``params``, its ``path`` among them."""


@dataclass(frozen=True)
class BareBoard:
    """One board as calibration saw it bare: BGR in its own plane at :data:`PPM`, and what the
    classifier read on each of its spaces (``None``: empty, as it should)."""

    layout: str
    image: np.ndarray
    reads: dict[str, str | None]


def view_size(layout_name: str) -> tuple[int, int]:
    """The size in pixels (width, height) of a board's view at :data:`PPM`."""
    w, h = load_layout(layout_name).size_mm
    return int(round(w * PPM)), int(round(h * PPM))


def rectified(image: np.ndarray, homography: np.ndarray, layout_name: str) -> np.ndarray:
    """The board ``homography`` (board fractions -> image pixels) places, in its own plane."""
    w, h = view_size(layout_name)
    to_view = np.asarray(homography, np.float64) @ np.diag([1.0 / w, 1.0 / h, 1.0])
    return cv2.warpPerspective(image, to_view, (w, h), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def save_bare_boards(boards: dict[int, BareBoard], profile_path: str | Path) -> dict[int, dict[str, Any]]:
    """Write each board's image beside the profile (``NAME.bare-P.png``) and return what each
    board's ``bare`` key in the profile holds. Raises :class:`BareError` naming a file it cannot
    write."""
    path = Path(profile_path)
    out = {}
    for player, board in boards.items():
        name = f"{path.stem}.bare-{player}.png"
        if not cv2.imwrite(str(path.with_name(name)), board.image):
            raise BareError("bare.unwritable", path=str(path.with_name(name)))
        out[player] = {"image": name, "reads": {slot: kind for slot, kind in sorted(board.reads.items()) if kind}}
    return out


def load_bare_boards(placements: Any, folder: str | Path) -> dict[int, BareBoard]:
    """The bare boards a profile's placements name (their ``bare`` keys), their images read from
    ``folder`` (the profile's). Raises :class:`BareError` naming a file that is missing, not an
    image, or of another size than its board's view."""
    out = {}
    for placement in placements:
        if placement.player is None or placement.bare is None:
            continue
        path = Path(folder) / placement.bare["image"]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if image is None:
            raise BareError("bare.unreadable", path=str(path))
        layout = load_layout(placement.layout).name
        w, h = view_size(layout)
        if image.shape[:2] != (h, w):
            raise BareError("bare.wrong_size", path=str(path), w=image.shape[1], h=image.shape[0], vw=w, vh=h, layout=layout)
        reads: dict[str, str | None] = {slot.id: None for slot in load_layout(layout).slots}
        reads.update(placement.bare.get("reads", {}))
        out[placement.player] = BareBoard(layout, image, reads)
    return out


def learn_empty(board: BareBoard, image: np.ndarray, homography: np.ndarray, slot: str) -> None:
    """A person says ``slot`` is empty in ``image`` (the board placed there by ``homography``):
    the space as it looks now, in today's light, becomes the board's bare view of it, and what
    calibration read on it (``reads``) is cleared. Only the space itself is taken (its polygon),
    so that a neighbour's tile now in view does not become bare."""
    now = rectified(image, homography, board.layout)
    h, w = board.image.shape[:2]
    polygon = np.asarray(load_layout(board.layout)[slot].polygon, np.float64) * [w, h]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], 1)
    board.image[mask.astype(bool)] = now[mask.astype(bool)]
    board.reads[slot] = None
