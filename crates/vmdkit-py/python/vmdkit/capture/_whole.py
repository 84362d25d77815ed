"""The whole performer's keypoints: the body's, the hands and the face put beside them in the
``holistic_iris`` layout (553 joints), NaN where a part was not found in a frame."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _face, _hands
from ._estimators import Seen
from ._names import FACE, FACE_POINTS, HOLISTIC_IRIS, LEFT_HAND, LEFT_WRIST, NOSE, RIGHT_HAND
from ._names import RIGHT_WRIST


def whole(body: np.ndarray, confidence: np.ndarray, placed: np.ndarray,
          seen: Sequence[Tuple[int, Optional[Seen]]]) -> Tuple[np.ndarray, np.ndarray,
                                                                Dict[str, int]]:
    """The (F, 553, 3) keypoints and (F, 553) confidences of the ``holistic_iris`` layout.

    ``body`` (F, 33, 3) and ``confidence`` (F, 33) are the body's keypoints as retargeted
    (NaN where not visible); ``placed`` (F, 33, 3) the body's world landmarks in the same frame
    whatever their visibility, where the hands and the face are attached (a hand found is
    evidence enough that its wrist is there); ``seen`` each detection with its frame's slot.
    Hands and face points get confidence 1 where found (the graphs give no per-point score).
    Also returns counts: frames with a left hand, a right hand, a face, hands dropped as
    copies or as belonging to no wrist, and frames where Holistic reported two hands but fewer
    were placed (mostly one hand reported twice)."""
    frames = len(body)
    out = np.full((frames, len(HOLISTIC_IRIS), 3), np.nan, dtype=np.float32)
    conf = np.zeros((frames, len(HOLISTIC_IRIS)), dtype=np.float32)
    out[:, :33], conf[:, :33] = body, confidence
    counts = {"left_hand": 0, "right_hand": 0, "face": 0, "hands_dropped": 0,
              "holistic_copies": 0}
    for slot, s in seen:
        if s is None:
            continue
        if s.hands:
            images: List[np.ndarray] = [h.image for h in s.hands]
            wrists = s.image[[LEFT_WRIST, RIGHT_WRIST], :2].astype(np.float64)
            pair = _hands.match(wrists, images)
            if s.holistic_hands == 2 and None in pair:
                counts["holistic_copies"] += 1
            counts["hands_dropped"] += len(s.hands) - sum(h is not None for h in pair)
            for h, first, wrist, name in zip(pair, (LEFT_HAND, RIGHT_HAND),
                                             (LEFT_WRIST, RIGHT_WRIST),
                                             ("left_hand", "right_hand")):
                if h is None or not np.isfinite(placed[slot, wrist]).all():
                    continue
                out[slot, first:first + 21] = _hands.place(s.hands[h].world, placed[slot, wrist])
                conf[slot, first:first + 21] = 1.0
                counts[name] += 1
        if s.face is not None and np.isfinite(placed[slot, NOSE]).all():
            mesh = _face.place(s.face[:FACE_POINTS], s.world, placed[slot, NOSE])
            if mesh is not None:
                out[slot, FACE:FACE + len(mesh)] = mesh
                conf[slot, FACE:FACE + len(mesh)] = 1.0
                counts["face"] += 1
    return out, conf, counts
