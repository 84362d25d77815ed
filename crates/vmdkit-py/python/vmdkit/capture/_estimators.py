"""The estimators capture runs, each giving per frame the people it sees as `Seen` rows.

* `Legacy`: MediaPipe's legacy ``solutions.pose`` graph (the body alone, one person).
* `Tasks`: the Tasks API's ``PoseLandmarker`` with a user's ``.task`` file (up to four people).
* `Whole`: the legacy ``solutions.holistic`` graph (body, face mesh with irises, hands in image
  space) and, in the frames where it sees a hand, the legacy ``solutions.hands`` graph, whose
  world landmarks (metres) the fingers need: Holistic gives none for the hands.

Each keeps ``seconds``, the time spent inside MediaPipe's ``process``/``detect`` calls, so that
what the capture spends around them (reading the results, placing hands and face) shows apart.
"""

from __future__ import annotations

import time
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ._names import INSTALL

_NO_EXTRA = f"vmdkit.capture needs MediaPipe and OpenCV, the \"capture\" extra: {INSTALL}"


class Hand(NamedTuple):
    """A hand the Hands graph found: image landmarks (21, 3) in pixels (z on the x scale),
    world landmarks (21, 3) in metres about the hand's centre, and its handedness score."""

    image: np.ndarray
    world: np.ndarray
    score: float


class Seen(NamedTuple):
    """One person in one frame: the body's world landmarks (33, 4: x, y, z in metres about the
    hips, y down, and visibility) and image landmarks (33, 4: pixels, relative depth,
    visibility); with `Whole`, the face mesh (478, 3) in pixels or None, the Hands graph's
    hands, and how many hands Holistic itself reported (it may report one hand twice)."""

    world: np.ndarray
    image: np.ndarray
    face: Optional[np.ndarray] = None
    hands: Tuple[Hand, ...] = ()
    holistic_hands: int = 0


def need_mediapipe() -> None:
    """The ImportError of `mediapipe_module` when MediaPipe is not installed, found without
    importing it: the import maps a quarter of a GB, not worth it before the input is checked."""
    import importlib.util

    if importlib.util.find_spec("mediapipe") is None:
        raise ImportError(_NO_EXTRA)


def mediapipe_module() -> Any:
    """MediaPipe, or the ImportError that names the extra."""
    try:
        import mediapipe  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as e:
        raise ImportError(_NO_EXTRA) from e
    return mediapipe


class Legacy:
    """MediaPipe's legacy `solutions.pose` graph, with the models its wheel bundles."""

    def __init__(self, mp: Any, video: bool, complexity: int) -> None:
        self.seconds = 0.0
        self.pose = mp.solutions.pose.Pose(static_image_mode=not video,
                                           model_complexity=complexity)

    def __call__(self, rgb: np.ndarray, ms: int) -> List[Seen]:
        began = time.perf_counter()
        result = self.pose.process(rgb)
        self.seconds += time.perf_counter() - began
        if result.pose_world_landmarks is None or result.pose_landmarks is None:
            return []
        return [rows(result.pose_world_landmarks.landmark, result.pose_landmarks.landmark,
                     rgb.shape)]

    def close(self) -> None:
        """Releases the graph."""
        self.pose.close()


class Tasks:
    """MediaPipe's Tasks API `PoseLandmarker` with a user's `.task` model file."""

    def __init__(self, mp: Any, video: bool, asset: Any) -> None:
        vision = mp.tasks.vision
        options = vision.PoseLandmarkerOptions(
            base_options=mp.tasks.BaseOptions(model_asset_path=str(asset)),
            running_mode=vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE,
            num_poses=4,
        )
        self.mp, self.video, self.seconds = mp, video, 0.0
        self.landmarker = vision.PoseLandmarker.create_from_options(options)

    def __call__(self, rgb: np.ndarray, ms: int) -> List[Seen]:
        image = self.mp.Image(image_format=self.mp.ImageFormat.SRGB, data=rgb)
        began = time.perf_counter()
        if self.video:
            result = self.landmarker.detect_for_video(image, ms)
        else:
            result = self.landmarker.detect(image)
        self.seconds += time.perf_counter() - began
        return [rows(w, i, rgb.shape)
                for w, i in zip(result.pose_world_landmarks, result.pose_landmarks)]

    def close(self) -> None:
        """Releases the landmarker."""
        self.landmarker.close()


class Whole:
    """Holistic (body, face with irises, hands in image space) and, where Holistic sees a hand,
    Hands (its world landmarks), both legacy graphs with the models the wheel bundles.

    Hands runs only in the frames where Holistic reports a hand: where Holistic sees none the
    Hands graph rarely finds one the body could be matched to, and skipping it saves its
    13 ms a frame (docs/capture.md, "Speed")."""

    def __init__(self, mp: Any, video: bool, complexity: int, hands: bool, face: bool,
                 hand_complexity: int) -> None:
        self.seconds, self.want_hands = 0.0, hands
        self.holistic = mp.solutions.holistic.Holistic(
            static_image_mode=not video, model_complexity=complexity,
            refine_face_landmarks=face)
        self.hands = mp.solutions.hands.Hands(
            static_image_mode=not video, max_num_hands=2,
            model_complexity=hand_complexity) if hands else None
        self.want_face = face

    def __call__(self, rgb: np.ndarray, ms: int) -> List[Seen]:
        began = time.perf_counter()
        result = self.holistic.process(rgb)
        self.seconds += time.perf_counter() - began
        if result.pose_world_landmarks is None or result.pose_landmarks is None:
            return []
        body = rows(result.pose_world_landmarks.landmark, result.pose_landmarks.landmark,
                    rgb.shape)
        h, w = rgb.shape[:2]
        face = None
        if self.want_face and result.face_landmarks is not None:
            face = points(result.face_landmarks.landmark, w, h)
        reported = (result.left_hand_landmarks is not None) + (
            result.right_hand_landmarks is not None)
        hands: Tuple[Hand, ...] = ()
        if self.hands is not None and reported:
            began = time.perf_counter()
            found = self.hands.process(rgb)
            self.seconds += time.perf_counter() - began
            if found.multi_hand_landmarks and found.multi_hand_world_landmarks:
                scores = [c.classification[0].score for c in found.multi_handedness]
                hands = tuple(
                    Hand(points(i.landmark, w, h), points(wl.landmark, 1, 1), s)
                    for i, wl, s in zip(found.multi_hand_landmarks,
                                        found.multi_hand_world_landmarks, scores))
        return [body._replace(face=face, hands=hands, holistic_hands=reported)]

    def close(self) -> None:
        """Releases both graphs."""
        self.holistic.close()
        if self.hands is not None:
            self.hands.close()


Estimator = Union[Legacy, Tasks, Whole]


def points(landmarks: Sequence[Any], width: float, height: float) -> np.ndarray:
    """Landmarks as an (N, 3) float32 array, x and z times ``width`` and y times ``height``:
    pixels for normalised image landmarks (MediaPipe puts z on the x scale), as they are for
    world landmarks (1, 1)."""
    out = np.array([(p.x, p.y, p.z) for p in landmarks], dtype=np.float32)
    out *= np.array([width, height, width], dtype=np.float32)
    return out


def rows(world: Sequence[Any], image: Sequence[Any], shape: Tuple[int, ...]
         ) -> Seen:
    """The body's world and image landmarks with their visibility (the world landmarks')."""
    h, w = shape[:2]
    vis = [getattr(p, "visibility", 1.0) or 0.0 for p in world]
    wl = np.array([[p.x, p.y, p.z, v] for p, v in zip(world, vis)], dtype=np.float32)
    il = np.array([[p.x * w, p.y * h, p.z * w, v] for p, v in zip(image, vis)],
                  dtype=np.float32)
    return Seen(wl, il)


def pick(people: List[Seen], person: Union[str, int]) -> Optional[Seen]:
    """The person to capture: the one whose image landmarks span the largest box, or by index."""
    if not people:
        return None
    if person == "largest":
        def area(p: Seen) -> float:
            xy = p.image[:, :2]
            return float(np.ptp(xy[:, 0]) * np.ptp(xy[:, 1]))
        return max(people, key=area)
    index = int(person)
    return people[index] if index < len(people) else None
