"""The face mesh put in the body's world frame by one similarity transform per frame.

Holistic's 478 face landmarks are image space: x and y in pixels, z (depth) on the x scale, so
the mesh is already a shape of consistent proportions, only in pixels and about no origin of
the body's. The face's solving uses scale-free ratios (eyelid gaps against eye widths, mouth
opening against mouth width) and the face's own rigid frame, so what matters is that one
uniform scale and one translation move the mesh, with no rotation: the image's axes are the
body world's (x right, y down, z away from the camera).

The rule: the scale is the body's world eye distance (metres, between BlazePose's ``left_eye``
and ``right_eye``) over the mesh's eye distance (pixels, in 3-D, between the midpoints of each
eye's two corners, which the gaze does not move as it moves the irises), and the translation
puts the mesh's nose tip on the body's ``nose``.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

#: Face-mesh indices: each eye's outer and inner corner (the person's right eye, then left).
EYE_CORNERS = ((33, 133), (362, 263))

#: Face-mesh index of the nose tip.
NOSE_TIP = 1

# BlazePose's eye centres.
_LEFT_EYE, _RIGHT_EYE = 2, 5


def eye_distance(mesh: np.ndarray) -> float:
    """The distance between the mesh's two eye centres (each eye's corners' midpoint), in the
    mesh's units."""
    (a, b), (c, d) = EYE_CORNERS
    return float(np.linalg.norm((mesh[a] + mesh[b]) / 2 - (mesh[c] + mesh[d]) / 2))


def place(mesh: np.ndarray, body_world: np.ndarray, nose: np.ndarray) -> Optional[np.ndarray]:
    """The mesh (478, 3, pixels) in the body's world frame: scaled by the body's world eye
    distance over the mesh's and moved so that its nose tip sits at ``nose`` (metres). None
    where either eye distance is not usable."""
    body = float(np.linalg.norm(body_world[_LEFT_EYE, :3] - body_world[_RIGHT_EYE, :3]))
    pixels = eye_distance(mesh)
    if not (np.isfinite(body) and body > 0 and np.isfinite(pixels) and pixels > 0):
        return None
    scale = body / pixels
    return ((mesh - mesh[NOSE_TIP]) * scale + nose).astype(np.float32)
