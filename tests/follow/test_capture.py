"""Frame sources: files and folders read whole and in order, a live camera's newest frame, its
drop-outs survived."""

import threading
import time

import cv2
import numpy as np
import pytest

from azulcam.follow.capture import CaptureError, FolderSource, LiveSource, open_source
from azulcam.i18n.words import words


def _image(k: int) -> np.ndarray:
    return np.full((24, 32, 3), k * 20 % 256, np.uint8)


def test_a_folder_is_read_in_name_order_at_its_rate(tmp_path):
    for k in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame-{k}.png"), _image(k))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(open_source(str(tmp_path), fps=4.0).frames())
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.time for f in frames] == [0.0, 0.25, 0.5]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 20, 40]


def test_a_broken_image_in_a_folder_is_named(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), _image(1))
    (tmp_path / "b.png").write_bytes(b"\x89PNG broken")
    frames = open_source(str(tmp_path)).frames()
    next(frames)
    with pytest.raises(CaptureError) as refused:
        next(frames)
    assert refused.value.code == "capture.unreadable_image" and refused.value.params["index"] == 1
    assert refused.value.params["path"] == str(tmp_path / "b.png") and isinstance(refused.value, OSError)


def test_a_video_file_is_read_to_its_end_on_its_own_clock(tmp_path):
    path = tmp_path / "v.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 5.0, (32, 24))
    for k in range(6):
        writer.write(_image(k))
    writer.release()
    frames = list(open_source(str(path)).frames())
    assert [f.index for f in frames] == list(range(6))
    assert frames[-1].time == pytest.approx(1.0)


@pytest.mark.parametrize("spec", ["/nowhere/at/all", "not-a-camera"])
def test_what_is_no_source_says_so(spec):
    with pytest.raises(CaptureError) as refused:
        open_source(spec)
    assert refused.value.code == "capture.no_source" and refused.value.params == {"source": spec}
    assert words(refused.value).startswith(f"no camera, stream, video or folder of images at {spec!r}")


def test_an_empty_folder_says_so(tmp_path):
    with pytest.raises(CaptureError) as refused:
        FolderSource(tmp_path, 10.0)
    assert refused.value.code == "capture.no_images" and refused.value.params["folder"] == str(tmp_path)


class FakeCamera:
    """A camera giving ``good`` frames, then failing; ``opens`` says whether it opened."""

    def __init__(self, good: int, opens: bool = True, start: int = 0) -> None:
        self.good, self.opens, self.sent = good, opens, start

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return self.opens

    def read(self):
        time.sleep(0.002)
        if self.good <= 0:
            return False, None
        self.good -= 1
        self.sent += 1
        return True, _image(self.sent)

    def release(self) -> None:
        pass


def test_a_lost_camera_is_reopened_and_the_frames_go_on():
    devices = iter([FakeCamera(3), FakeCamera(0, opens=False), FakeCamera(3, start=3)])
    heard: list[tuple] = []
    source = LiveSource(lambda: next(devices, FakeCamera(0, opens=False)), "camera 9", lambda *notice: heard.append(notice),
                        delays=(0.01,))
    got = []
    for frame in source.frames():
        got.append(frame.index)
        if len(heard) >= 2 and frame.index >= 5:
            break
        if len(got) > 50:
            break
    source.close()
    assert got == sorted(got) and got[-1] == 5  # numbered on across the drop-out
    assert heard[0] == ("capture.lost", {"source": "camera 9"})
    assert heard[1] == ("capture.back", {"source": "camera 9", "attempts": 2})


def test_a_slow_reader_gets_the_newest_frame_not_a_backlog():
    source = LiveSource(lambda: FakeCamera(10_000), "camera 0")
    seen = []
    for frame in source.frames():
        seen.append(frame.index)
        time.sleep(0.03)  # a reader slower than the camera
        if len(seen) == 5:
            break
    source.close()
    assert all(b - a > 1 for a, b in zip(seen, seen[1:]))  # frames in between were dropped
    assert not any(t.name.startswith("capture camera 0") for t in threading.enumerate())


def test_a_camera_that_does_not_open_is_named():
    with pytest.raises(CaptureError) as refused:
        LiveSource(lambda: FakeCamera(0, opens=False), "camera 3")
    assert refused.value.code == "capture.cannot_open" and refused.value.params == {"source": "camera 3"}
