"""A pinhole camera with lens distortion looking at the table, in OpenCV's conventions.

The renderer draws the table top-down in millimetres and then asks the camera, for every
image pixel, which table point it sees (:meth:`Camera.table_maps`): one ``cv2.remap`` then
makes the perspective view with its lens distortion. Points go the other way through
:meth:`Camera.project` (``cv2.projectPoints``), so image and truth share one model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

#: Grid step (pixels) at which the table maps are computed exactly; between grid points they are
#: interpolated linearly, which is exact to a small fraction of a pixel for a smooth lens.
MAP_STEP = 8


@dataclass(frozen=True)
class Camera:
    """Intrinsics ``K``, distortion ``dist`` (k1, k2, p1, p2, k3), pose (world -> camera
    rotation ``R`` and translation ``t``) and image ``size`` (width, height)."""

    K: np.ndarray
    dist: np.ndarray
    R: np.ndarray
    t: np.ndarray
    size: tuple[int, int]

    @property
    def position(self) -> np.ndarray:
        """The camera centre in table millimetres (z < 0: above the table)."""
        return -self.R.T @ self.t

    @property
    def rvec(self) -> np.ndarray:
        return cv2.Rodrigues(self.R)[0]

    def project(self, points: Any) -> np.ndarray:
        """Table points (N x 2 on the table, or N x 3 with z < 0 above it) -> image pixels (N x 2)."""
        pts = np.asarray(points, np.float64)
        pts = pts.reshape(-1, pts.shape[-1] if pts.ndim > 1 else 2)
        if pts.shape[1] == 2:
            pts = np.hstack([pts, np.zeros((len(pts), 1))])
        if not len(pts):
            return np.zeros((0, 2))
        out, _ = cv2.projectPoints(pts, self.rvec, self.t, self.K, self.dist)
        return out.reshape(-1, 2)

    def table_points(self, pixels: np.ndarray, height: float = 0.0) -> np.ndarray:
        """Image pixels (N x 2) -> the table points (N x 2, mm) that they see on the plane
        ``height`` mm above the table (rays that miss it ahead of the camera give NaN)."""
        undist = cv2.undistortPoints(pixels.reshape(-1, 1, 2).astype(np.float64), self.K, self.dist, None, None, None,
                                         (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-9)).reshape(-1, 2)
        rays = np.hstack([undist, np.ones((len(undist), 1))]) @ self.R  # R.T @ ray for each row
        c = self.position
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = (-height - c[2]) / rays[:, 2]
        out = c[:2] + rays[:, :2] * lam[:, None]
        out[~(lam > 0)] = np.nan
        return out

    def table_maps(self, origin: tuple[float, float], px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """``cv2.remap`` maps that fetch, for every image pixel, the pixel of a top-down table
        canvas whose pixel (0, 0) is table point ``origin`` and whose scale is ``px_per_mm``."""
        gx, gy = self.grid()
        world = self.grid_table_points()
        mx = ((world[..., 0] - origin[0]) * px_per_mm - 0.5).astype(np.float32)
        my = ((world[..., 1] - origin[1]) * px_per_mm - 0.5).astype(np.float32)
        mx[~np.isfinite(mx)] = -1e4
        my[~np.isfinite(my)] = -1e4
        w, h = self.size
        step = MAP_STEP
        full = (len(gx) * step, len(gy) * step)
        mx = cv2.resize(mx, full, interpolation=cv2.INTER_LINEAR)[step:step + h, step:step + w]
        my = cv2.resize(my, full, interpolation=cv2.INTER_LINEAR)[step:step + h, step:step + w]
        return mx, my

    def grid(self) -> tuple[np.ndarray, np.ndarray]:
        """Pixel positions of the exact samples: chosen so that ``cv2.resize`` (which aligns
        pixel centres) interpolates between them exactly, with one sample beyond each edge."""
        w, h = self.size
        step = MAP_STEP
        nx, ny = -(-w // step) + 2, -(-h // step) + 2
        return (np.arange(nx) - 0.5) * step - 0.5, (np.arange(ny) - 0.5) * step - 0.5

    def grid_table_points(self) -> np.ndarray:
        """Table points (ny x nx x 2) seen at the :meth:`grid` pixels."""
        cached = self.__dict__.get("_grid_points")
        if cached is None:
            gx, gy = self.grid()
            px = np.stack(np.meshgrid(gx, gy), -1).reshape(-1, 2)
            cached = self.table_points(px).reshape(len(gy), len(gx), 2)
            object.__setattr__(self, "_grid_points", cached)
        return cached

    def mm_per_px(self) -> np.ndarray:
        """Table millimetres per image pixel at each grid point (ny x nx): the local scale."""
        w = self.grid_table_points()
        dx = np.linalg.norm(np.diff(w, axis=1), axis=2)[:-1, :]
        dy = np.linalg.norm(np.diff(w, axis=0), axis=2)[:, :-1]
        return np.maximum(dx, dy) / MAP_STEP

    def jittered(self, rng: np.random.Generator, degrees: float, mm: float) -> "Camera":
        """The same camera nudged a little (a tripod that shakes)."""
        rot = cv2.Rodrigues(rng.normal(0, math.radians(degrees), 3))[0]
        return Camera(self.K, self.dist, rot @ self.R, rot @ self.t + rng.normal(0, mm, 3), self.size)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Camera":
        """The camera a scene's truth holds (:meth:`to_json`; other keys are ignored)."""
        return cls(np.array(data["K"], np.float64), np.array(data["dist"], np.float64),
                   cv2.Rodrigues(np.array(data["rvec"], np.float64))[0], np.array(data["tvec"], np.float64),
                   tuple(data["size"]))

    def to_json(self) -> dict[str, Any]:
        return {"K": np.round(self.K, 4).tolist(), "dist": np.round(self.dist, 6).tolist(),
                "rvec": np.round(self.rvec.ravel(), 6).tolist(), "tvec": np.round(self.t, 4).tolist(),
                "size": list(self.size)}


def look_at(target: np.ndarray, elevation_deg: float, azimuth_deg: float, distance: float, roll_deg: float,
            K: np.ndarray, dist: np.ndarray, size: tuple[int, int]) -> Camera:
    """A camera ``distance`` mm from table point ``target``, looking down at it at ``elevation``
    (90: straight down) from the direction ``azimuth`` (the image's up points away from it)."""
    el, az, roll = (math.radians(v) for v in (elevation_deg, azimuth_deg, roll_deg))
    forward = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    right = np.array([-math.sin(az), math.cos(az), 0.0])
    down = np.cross(forward, right)
    c, s = math.cos(roll), math.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    R = np.stack([right, down, forward])
    centre = np.array([target[0], target[1], 0.0]) - distance * forward
    return Camera(K, dist, R, -R @ centre, size)


def intrinsics(size: tuple[int, int], fov_deg: float) -> np.ndarray:
    w, h = size
    f = (w / 2) / math.tan(math.radians(fov_deg) / 2)
    return np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]], np.float64)


@dataclass(frozen=True)
class ViewRanges:
    """What a random viewpoint may be (BOARDS-scale tiles: ``tile_px`` is a tile's width in pixels)."""

    elevation: tuple[float, float] = (45.0, 90.0)
    tile_px: tuple[float, float] = (12.0, 60.0)
    fov: tuple[float, float] = (55.0, 80.0)
    roll: float = 8.0
    k1: tuple[float, float] = (-0.2, 0.05)
    #: "fit": the whole play area in view where the tile size allows it; "free": any framing.
    framing: str = "fit"


#: The low ends of the ranges: a camera looking at the table at a slant, from far (the held-out
#: "edge" scenes of ``bench/vision.py --edge``).
EDGE_VIEW = ViewRanges(elevation=(45.0, 55.0), tile_px=(12.0, 16.0))


def sample_camera(rng: np.random.Generator, size: tuple[int, int], extent: tuple[float, float, float, float],
                  tile_mm: float, ranges: ViewRanges = ViewRanges(), points: list[tuple[float, float]] | None = None
                  ) -> tuple[Camera, dict[str, float]]:
    """A random camera over a table whose play area is ``extent`` (x0, y0, x1, y1 in mm), and
    the parameters it was drawn with. ``fit`` framing keeps ``points`` (by default the extent's
    corners and edge midpoints) in view."""
    fov = rng.uniform(*ranges.fov)
    k1 = rng.uniform(*ranges.k1)
    dist = np.array([k1, -0.3 * k1 * rng.uniform(0, 1), rng.normal(0, 0.0008), rng.normal(0, 0.0008), 0.0])
    K = intrinsics(size, fov)
    el = rng.uniform(*ranges.elevation)
    az = rng.uniform(0, 360)
    roll = rng.uniform(-ranges.roll, ranges.roll)
    tile_px = math.exp(rng.uniform(*np.log(ranges.tile_px)))
    x0, y0, x1, y1 = extent
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    f = K[0, 0]
    distance = f * tile_mm / tile_px
    if ranges.framing == "fit":  # the play area fills most of the frame, as a webcam set up over a table
        target = centre + rng.normal(0, 10, 2)
        corners = np.array(points if points is not None else
                           [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, (y0 + y1) / 2], [x1, (y0 + y1) / 2],
                            [(x0 + x1) / 2, y0], [(x0 + x1) / 2, y1]])
        margin = 0.03 * min(size)

        def fits(d: float) -> bool:
            pts = look_at(target, el, az, d, roll, K, dist, size).project(corners)
            return bool(np.all(pts > margin) and np.all(pts[:, 0] < size[0] - margin)
                        and np.all(pts[:, 1] < size[1] - margin))

        nearest, farthest = f * tile_mm / ranges.tile_px[1], f * tile_mm / ranges.tile_px[0]
        if fits(nearest):
            distance = nearest  # a small table in a big image: the largest tiles allowed
        elif not fits(farthest):
            distance = farthest  # too big to fit even with the smallest tiles: show what fits
        else:
            lo, hi = nearest, farthest
            for _ in range(24):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if fits(mid) else (mid, hi)
            distance = min(farthest, hi * rng.uniform(1.0, 1.3))
    else:
        half = np.array([(x1 - x0) / 2, (y1 - y0) / 2]) * 0.8
        target = centre + rng.uniform(-1, 1, 2) * half
    cam = look_at(target, el, az, distance, roll, K, dist, size)
    params = {"elevation": round(el, 2), "azimuth": round(az, 2), "roll": round(roll, 2), "fov": round(fov, 2),
              "k1": round(k1, 4), "distance_mm": round(distance, 1), "tile_px": round(f * tile_mm / distance, 2)}
    return cam, params
