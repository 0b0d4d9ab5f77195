"""The still gate: a shaking camera is still, a hand is not, and a tile moved is a change."""

import cv2
import numpy as np

from azulcam.follow.still import StillGate


def _table(seed: int = 0) -> np.ndarray:
    """A textured table, 960 x 540, with a board-like light square in the middle."""
    rng = np.random.default_rng(seed)
    noise = cv2.resize(rng.integers(60, 120, (54, 96), np.uint8), (960, 540), interpolation=cv2.INTER_CUBIC)
    image = cv2.cvtColor(noise, cv2.COLOR_GRAY2BGR)
    image[170:370, 380:580] = 200
    return image


def _shaken(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(image, m, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REFLECT)


def _with_tile(image: np.ndarray) -> np.ndarray:
    out = image.copy()
    out[250:266, 450:466] = (40, 40, 200)  # a 16-pixel tile on the board
    return out


def _still(gate: StillGate, image: np.ndarray) -> None:
    """``image`` shown twice: the table lies still as it shows."""
    gate.update(image)
    gate.update(image)


def _read(gate: StillGate, tile_px: float | None = None) -> None:
    """The current still frame read as the watch reads one: the edge settled, then the view marked read."""
    gate.settle_edge(gate.arms(None, tile_px))
    gate.mark_read()


def _with_arm(image: np.ndarray, reach: int) -> np.ndarray:
    out = image.copy()
    cv2.line(out, (960, 0), (960 - reach, reach // 2), (150, 170, 210), 40)
    return out


def test_a_shaking_camera_is_still_after_two_frames():
    table, gate = _table(), StillGate()
    assert not gate.update(table)
    assert gate.update(_shaken(table, 1.0, -0.5))
    assert gate.update(_shaken(table, -0.7, 0.8))


def test_a_moving_arm_is_not_still():
    table, gate = _table(), StillGate()
    _still(gate, table)
    assert not gate.update(_with_arm(table, 300))
    assert not gate.update(_with_arm(table, 420))


def test_a_tile_put_down_is_a_change_and_no_hand():
    table, gate = _table(), StillGate()
    _still(gate, table)
    _read(gate)
    assert not gate.changed()
    gate.update(_shaken(table, 0.8, 0.3))
    assert not gate.changed()  # the shake is not a change
    gate.update(_with_tile(table))
    assert gate.changed() and not gate.hand_in_view()


def test_an_arm_resting_over_the_table_is_a_hand_in_view():
    table, gate = _table(), StillGate()
    _still(gate, table)
    _read(gate)
    arm = _with_arm(table, 400)
    gate.update(arm)
    assert gate.update(arm)  # still: it does not move
    assert gate.hand_in_view()


def test_the_whole_view_changed_is_the_camera_moved_not_a_hand():
    table, gate = _table(), StillGate()
    gate.update(table)
    _read(gate)
    gate.update(_shaken(table, 60.0, 40.0))  # bumped: everything moved
    assert gate.changed() and not gate.hand_in_view()


def test_tiles_laid_on_a_board_cut_by_the_edge_are_no_hand():
    table, gate = _table(), StillGate()
    table[400:540, 300:600] = 200  # a board running off the bottom of the picture
    gate.update(table)
    _read(gate)
    laid = table.copy()
    laid[500:540, 420:470] = (30, 160, 30)  # tiles laid at its near edge
    gate.update(laid)
    board = np.zeros(gate.current.shape[:2], np.uint8)
    board[78:, 58:118] = 1  # the board's outline, small
    assert gate.hand_in_view()  # without the boards: it crosses the edge
    assert not gate.hand_in_view(board)


def test_a_hand_the_picture_cuts_off_is_one_large_change_a_tile_a_small_one():
    table, gate = _table(), StillGate()
    _still(gate, table)
    _read(gate)
    gate.update(_with_tile(table))
    tile = gate.largest_change()
    hand = _with_tile(table)
    cv2.ellipse(hand, (300, 400), (60, 45), 30, 0, 360, (120, 150, 200), -1)  # a palm, no arm to the edge
    gate.update(hand)
    assert not gate.hand_in_view() and 0 < tile < 8 * (16 * 192 / 960) ** 2 < gate.largest_change()


def test_a_camera_shaking_over_a_checked_cloth_is_still_and_a_tile_laid_there_is_not():
    # A fine red-and-white check, shaken by three pixels of the frame (half a pixel of the small
    # copy): its edges move past their neighbours' range unless the frames are steadied first.
    y, x = np.mgrid[0:540, 0:960]
    check = (((x // 13) + (y // 13)) % 2).astype(np.uint8)
    cloth = np.where(check[..., None] == 1, np.array([60, 60, 220], np.uint8), np.array([245, 245, 245], np.uint8))
    cloth[170:370, 380:580] = 200
    gate = StillGate()
    assert not gate.update(cloth)
    assert gate.update(_shaken(cloth, 3.0, -2.0))
    assert gate.update(_shaken(cloth, -2.5, 2.5))
    _read(gate)
    assert not gate.update(_with_arm(_shaken(cloth, 1.0, 1.0), 400))  # a hand is no shake
    gate.update(_with_tile(_shaken(cloth, 2.0, -1.0)))
    assert gate.update(_with_tile(_shaken(cloth, -1.0, 2.0)))  # still again, a tile laid
    assert gate.changed()


def test_a_view_read_with_an_arm_in_it_leaves_no_hand_once_the_arm_is_gone():
    """A still view read with a hand resting at the edge (read past the wait): hands are judged
    against the table as it lay clear of the edge, so the arm's leaving is no hand coming in; it is
    a change, and what the arm hid is read once it is gone."""
    table, gate = _table(), StillGate()
    _still(gate, table)
    _read(gate)
    _still(gate, _with_arm(table, 300))
    assert gate.arms().any()
    _read(gate)
    _still(gate, table)
    assert not gate.hand_in_view() and gate.changed()


def test_a_thing_put_down_at_the_edge_becomes_the_table_once_it_stays():
    """A cup put down across the edge is read past the wait; still there, as it lay, at the next
    view read so, it is the table: no hand in view after."""
    table, gate = _table(), StillGate()
    cup = _with_arm(table, 120)
    _still(gate, table)
    _read(gate)
    for _ in range(2):
        _still(gate, cup)
        assert gate.hand_in_view()
        _read(gate)
    gate.update(cup)
    assert not gate.hand_in_view()


def test_an_arm_the_gate_did_not_tell_in_a_view_read_is_no_hand_for_ever_after():
    """A view read with an arm across the edge too thin to be told from a tile (a dark sleeve on a
    dark cloth): once the arm has gone, and for every view after, no hand is in view, since hands are
    judged against the table as it last lay clear of the edge, not against the last view read."""
    table, gate = _table(), StillGate()
    _still(gate, table)
    _read(gate)
    thin = table.copy()
    cv2.line(thin, (959, 100), (700, 180), (150, 170, 210), 4)  # two small-copy pixels across the edge
    _still(gate, thin)
    assert not gate.hand_in_view(None, 2.0)
    _read(gate, 2.0)
    moved_on = _with_tile(table)  # the arm gone, a tile laid: a move later
    for k in range(3):
        gate.update(moved_on)
        assert gate.update(moved_on) and not gate.hand_in_view(None, 2.0) and gate.changed() == (k == 0)
        _read(gate, 2.0)
    arm = _with_arm(moved_on, 300)  # a real arm is still told
    _still(gate, arm)
    assert gate.hand_in_view(None, 2.0)


def test_a_first_view_read_with_an_arm_in_it_gives_way_to_the_table_once_it_lies_so_twice():
    """The first view read had an arm in it (the dealer's, at the start): the table without it
    differs there across the edge, so it is held as a hand; read so at two still views, whatever
    the game made of them, it is the table, and no hand is in view after."""
    table, gate = _table(), StillGate()
    arm = _with_arm(table, 300)
    _still(gate, arm)
    _read(gate)
    for _ in range(2):
        _still(gate, table)
        assert gate.hand_in_view()
        gate.settle_edge(gate.arms(), explained=False)  # read, and left unexplained: not marked read
    gate.update(table)
    assert not gate.hand_in_view()
