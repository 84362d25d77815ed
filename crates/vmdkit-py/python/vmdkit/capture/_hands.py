"""Which hand is whose, and where it goes: the Hands graph's hands matched to the body's wrists
and placed in the body's world frame.

Neither graph's left/right can be trusted for this: Hands labels hands as if the image were
mirrored, and Holistic may report one visible hand as both hands (pose/handface #3, #5, #12),
as Hands may find a ghost second hand over the first (#12, frames 25-59). The body's wrists
can: each hand is offered only to the body wrist its own wrist landmark lies nearer to in the
image, and only within `GATE` hand sizes of it; where two hands are offered one wrist the
nearer keeps it and the other (a copy, a ghost) is dropped.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

#: How far (in the hand's own size: the larger side of its landmarks' box in the image) a
#: hand's wrist may lie from the body's wrist it is given to. On the shared video the two
#: estimators' wrists lie 0.2-0.5 hand sizes apart; a hand partly out of the picture, whose
#: arm the body can only guess, lies 3-4 away from the guess and is better left out.
GATE = 1.0


def size(image: np.ndarray) -> float:
    """A hand's size in the image (pixels): the larger side of its landmarks' bounding box,
    at least one pixel. Unlike the palm's length it does not shrink when the fingers point at
    the camera."""
    return max(float(np.ptp(image[:, 0])), float(np.ptp(image[:, 1])), 1.0)


def match(wrists: np.ndarray, images: Sequence[np.ndarray]
          ) -> Tuple[Optional[int], Optional[int]]:
    """The hand given to the body's left and right wrist (an index into ``images``, or None).

    ``wrists`` are the body's left and right wrist in the image, (2, 2) pixels (NaN where the
    body gives none); ``images`` the hands' image landmarks (21, ≥2) in pixels, the wrist
    first."""
    best: List[Tuple[float, Optional[int]]] = [(np.inf, None), (np.inf, None)]
    for i, image in enumerate(images):
        d = np.linalg.norm(wrists - image[0, :2], axis=1)
        d = np.where(np.isfinite(d), d, np.inf)
        side = int(np.argmin(d))
        if d[side] <= GATE * size(image) and d[side] < best[side][0]:
            best[side] = (float(d[side]), i)
    return best[0][1], best[1][1]


def place(world: np.ndarray, wrist: np.ndarray) -> np.ndarray:
    """A hand's world landmarks (21, 3: metres about the hand's centre, camera-oriented, y
    down) moved so that its wrist sits at ``wrist``, the body's wrist in the body's world frame
    (also metres, camera-oriented, y down): a translation, no rotation or scale."""
    return (world - world[0] + wrist).astype(np.float32)
