"""The joint names capture writes, and its error: the vocabulary every part of the capture shares.

The names are the built-in layouts' (docs/retargeting.md): ``blazepose33`` for the body alone,
``holistic_iris`` (553 joints) with the hands and the face. This module imports none of its
siblings, so that each of them may import it.
"""

from __future__ import annotations

from typing import Tuple

from .._vmdkit import RetargetError

#: MediaPipe Pose's 33 landmarks, in its order: the ``blazepose33`` layout's joint names.
LANDMARKS: Tuple[str, ...] = (
    "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye",
    "right_eye_outer", "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder",
    "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_pinky",
    "right_pinky", "left_index", "right_index", "left_thumb", "right_thumb", "left_hip",
    "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle", "left_heel",
    "right_heel", "left_foot_index", "right_foot_index",
)

#: MediaPipe's 21 hand landmarks (``HandLandmark`` order), without a side.
HAND_POINTS: Tuple[str, ...] = (
    "wrist",
    "thumb_cmc", "thumb_mcp", "thumb_ip", "thumb_tip",
    "index_finger_mcp", "index_finger_pip", "index_finger_dip", "index_finger_tip",
    "middle_finger_mcp", "middle_finger_pip", "middle_finger_dip", "middle_finger_tip",
    "ring_finger_mcp", "ring_finger_pip", "ring_finger_dip", "ring_finger_tip",
    "pinky_mcp", "pinky_pip", "pinky_dip", "pinky_tip",
)

#: The face mesh with irises: 468 points and 5 per iris.
FACE_POINTS = 478


def _hand(side: str) -> Tuple[str, ...]:
    # The hand's own wrist is ``<side>_hand_wrist``, apart from the body's ``<side>_wrist``.
    return tuple(f"{side}_hand_{n}" if n == "wrist" else f"{side}_{n}" for n in HAND_POINTS)


#: The ``holistic_iris`` layout's 553 joint names: the body's 33, the left hand's 21, the
#: right hand's 21, then ``face_0`` … ``face_477``.
HOLISTIC_IRIS: Tuple[str, ...] = (
    LANDMARKS + _hand("left") + _hand("right") + tuple(f"face_{i}" for i in range(FACE_POINTS))
)

#: Where each part starts in `HOLISTIC_IRIS`.
LEFT_HAND, RIGHT_HAND, FACE = 33, 33 + 21, 33 + 42

#: The body's landmarks the hands and the face are placed at: the wrists and the nose.
LEFT_WRIST, RIGHT_WRIST, NOSE = LANDMARKS.index("left_wrist"), LANDMARKS.index("right_wrist"), 0

# vmdkit is not on a package index: the extra installs from a checkout of the repository.
INSTALL = 'pip install "./crates/vmdkit-py[capture]" in a vmdkit checkout'


class CaptureError(RetargetError):
    """A capture that cannot be done: no person in any frame, an unreadable image or video."""
