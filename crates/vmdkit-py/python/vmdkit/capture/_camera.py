"""Where the person is: the hips' path in the camera's frame, from the metric world landmarks
and the image landmarks through a pinhole camera, and the frames' places on the output's grid."""

from __future__ import annotations

import math
from typing import Tuple

import numpy as np


def hip_path(world: np.ndarray, image: np.ndarray, size: Tuple[int, int], fov: float,
             min_visibility: float) -> np.ndarray:
    """The hip midpoint in the camera's frame (metres, x right, y down, z away), (F, 3):
    the translation that puts each frame's world landmarks where the image landmarks see them
    through a pinhole camera of horizontal field of view ``fov`` (degrees) centred on the
    image of ``size`` (width, height) pixels, by linear least squares over the visible
    landmarks, weighted by visibility. NaN where fewer than 4 landmarks are visible."""
    width, height = size
    f = (width / 2.0) / math.tan(math.radians(fov) / 2.0)
    out = np.full((len(world), 3), np.nan)
    for t, (w, i) in enumerate(zip(world, image)):
        seen = (w[:, 3] >= min_visibility) & np.isfinite(w[:, :3]).all(axis=1)
        if seen.sum() < 4:
            continue
        x, y, z = (w[seen, k].astype(np.float64) for k in range(3))
        u = i[seen, 0].astype(np.float64) - width / 2.0
        v = i[seen, 1].astype(np.float64) - height / 2.0
        # u (z + tz) = f (x + tx)  gives  f tx - u tz = u z - f x; likewise for v and y.
        zero, full = np.zeros_like(u), np.full_like(u, f)
        a = np.concatenate([np.stack([full, zero, -u], axis=1), np.stack([zero, full, -v], axis=1)])
        b = np.concatenate([u * z - f * x, v * z - f * y])
        weight = np.sqrt(np.tile(w[seen, 3].astype(np.float64), 2))
        solution, *_ = np.linalg.lstsq(a * weight[:, None], b * weight, rcond=None)
        if solution[2] > 0:
            out[t] = solution
    return out


def slots(times: np.ndarray, fps: float) -> np.ndarray:
    """Each frame's index on a grid of ``fps`` from the first timestamp: the video's own
    timing, so that a dropped or late frame leaves a gap instead of shifting the rest."""
    return np.rint((times - times[0]) * fps).astype(np.int64)
