"""vmdkit.capture: a photo or a video of a person to an MMD pose (VPD) or motion (VMD).

MediaPipe runs offline on the CPU frame by frame (the ``capture`` extra:
``pip install "./crates/vmdkit-py[capture]"`` in a checkout). For the body alone, MediaPipe
Pose: its world landmarks (metres, hip-centred, right-handed, y down) and their visibility go
to `vmdkit.retarget` with the ``blazepose33`` layout. With the hands or the face, Holistic and
Hands: the hands' world landmarks and the face mesh are put in the body's world frame and the
whole goes to the retargeting in the ``holistic_iris`` layout. The path of the hips comes from
the image landmarks, the metric size of the person and a pinhole camera (see `capture`). See
docs/capture.md.

The parts: `_frames` (decoding), `_estimators` (the MediaPipe graphs), `_camera` (the hips'
path), `_hands` (which hand is whose), `_face` (the mesh's similarity transform), `_whole`
(the 553 joints), `_names` (the layouts' names); this module ties them together.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Literal, Optional, Tuple, Union

import numpy as np

from .._files import not_a_file
from .._quiet import native_stderr_held
from .._vmdkit import Model, Motion, Pose, retarget
from ._camera import hip_path, slots
from ._estimators import Estimator, Legacy, Seen, Tasks, Whole, mediapipe_module, need_mediapipe
from ._estimators import pick
from ._frames import IMAGE_SUFFIXES, MAX_IMAGE_PIXELS, check_image_size, frames
from ._frames import progress as progress_bar
from ._names import HAND_POINTS, HOLISTIC_IRIS, LANDMARKS, CaptureError
from ._whole import whole

__all__ = [
    "Capture", "CaptureError", "capture", "hip_path", "parts_for", "DEFAULT_FOV",
    "FINGER_BONES", "FACE_MORPHS", "HAND_POINTS", "HOLISTIC_IRIS", "IMAGE_SUFFIXES",
    "LANDMARKS", "MAX_IMAGE_PIXELS",
]

# Documented and pickled under the public module's name.
CaptureError.__module__ = __name__

#: The horizontal field of view (degrees) taken when none is given: a phone's main camera or a
#: webcam at 1× is 60–75°.
DEFAULT_FOV = 65.0

#: Bones whose presence makes a model one with fingers (the index finger's first joint, either
#: side): where ``hands`` is not given, capture tracks the hands for such a model.
FINGER_BONES = ("左人指１", "右人指１")

#: Morphs whose presence makes a model one with a face to move (blink, the vowel "a"): where
#: ``face`` is not given, capture tracks the face for such a model.
FACE_MORPHS = ("まばたき", "あ")


def parts_for(model: Optional[Model]) -> Tuple[bool, bool]:
    """Whether a capture for ``model`` (None: vmdkit's standard model) tracks the hands and the
    face by default: hands where it has finger bones (`FINGER_BONES`), face where it has the
    facial morphs (`FACE_MORPHS`)."""
    model = Model.standard() if model is None else model
    bones, morphs = set(model.bone_names), set(model.morph_names)
    return any(b in bones for b in FINGER_BONES), any(m in morphs for m in FACE_MORPHS)


@dataclass
class Capture:
    """What `capture` gives: the pose (a photo) or motion (a video), and what it was made from.

    ``output`` is a `Pose` for a photo and a `Motion` for a video. ``landmarks`` are the
    estimator's world landmarks, (F, 33, 4) float32 rows of x, y, z (metres, hip-centred,
    y down) and visibility, NaN in frames without a person; ``image_landmarks`` likewise
    x, y in pixels, relative depth and visibility. ``keypoints`` (F, J, 3) are what was
    retargeted: the world landmarks moved along the hips' path, NaN where not visible, with
    the joints ``names`` (``layout``): the body's 33 (``blazepose33``) or, with hands or face,
    the 553 of ``holistic_iris`` (the hands and the face placed at the body's wrists and nose,
    NaN in frames where they were not found).
    ``times`` are the frames' timestamps in seconds and ``fps`` the rate they were placed at.
    ``summary`` counts frames, detections, mean visibility, keys written and names the
    joints that were not visible (left at rest or held), and times the run: ``seconds`` in
    all, of which ``estimator_seconds`` in MediaPipe and ``decoder_seconds`` in OpenCV's
    decoding; with hands or face it also counts the frames with each hand and the face.
    ``report`` is the retargeting's.
    """

    output: Union[Pose, Motion]
    landmarks: np.ndarray
    image_landmarks: np.ndarray
    keypoints: np.ndarray
    confidence: np.ndarray
    times: np.ndarray
    fps: float
    summary: Dict[str, Any]
    report: Dict[str, Any] = field(repr=False)
    layout: str = "blazepose33"
    names: Tuple[str, ...] = LANDMARKS

    @property
    def is_photo(self) -> bool:
        """Whether the source was a photo (``output`` is then a `Pose`)."""
        return isinstance(self.output, Pose)

    def keypoints_json(self) -> Dict[str, Any]:
        """The retargeted keypoints as the keypoint JSON `vmdkit retarget` reads (an object
        with fps, names, frames, confidence, units and up; null where a joint is missing)."""
        frames = [[None if not np.isfinite(p).all() else [float(v) for v in p] for p in frame]
                  for frame in self.keypoints]
        return {
            "fps": self.fps,
            "names": list(self.names),
            "frames": frames,
            "confidence": [[float(c) for c in frame] for frame in self.confidence],
            "units": "m",
            "up": "-y",
        }

    def write_keypoints(self, path: Union[str, Path]) -> None:
        """Writes `keypoints_json` to ``path`` atomically."""
        import json
        import os
        import tempfile

        path = Path(path)
        text = json.dumps(self.keypoints_json(), separators=(",", ":"))
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
        try:
            # mkstemp makes the file private (0600); an output gets the usual permissions.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def capture(
    source: Union[str, Path],
    *,
    model: Union[Model, str, Path, None] = None,
    person: Union[str, int] = "largest",
    smooth: Union[Literal["none", "light", "normal", "strong"], float] = "normal",
    fov: Optional[float] = None,
    model_asset: Union[str, Path, None] = None,
    min_visibility: float = 0.5,
    complexity: int = 1,
    hands: Optional[bool] = None,
    face: Optional[bool] = None,
    hand_complexity: int = 1,
    ik: bool = True,
    dense: bool = False,
    progress: Optional[bool] = None,
    verbose: bool = False,
) -> Capture:
    """Runs MediaPipe on a photo or a video and retargets what it sees onto ``model``.

    A photo (by its suffix: .jpg, .jpeg, .png, .bmp, .webp, .tif, .tiff) gives a `Pose`
    (write it as VPD); anything else is decoded as a video and gives a `Motion` (VMD) with
    the video's own frame rate and timestamps. The result is a `Capture`, its ``output`` the
    pose or motion. ``model`` is a `Model` or a model file's path (None: vmdkit's standard
    model). ``person`` is "largest" (the person whose image landmarks span the largest box)
    or an index among the people found; the legacy estimators find one person, a Tasks
    model (``model_asset``) up to four. ``smooth`` is the retargeting's smoothing of a video
    ("none", "light", "normal", "strong" or a cutoff in Hz). ``fov`` is the camera's
    horizontal field of view in degrees (None: ``DEFAULT_FOV``, 65°), which with the
    person's metric size places the hips' path: ``センター`` moves as the person moves in
    the picture, and stays put when they do. ``model_asset`` is a MediaPipe `.task` file for
    the Tasks API of newer mediapipe releases (the body alone); without it the legacy graphs
    run with the models their wheel bundles (mediapipe 0.10.21), at ``complexity`` 0, 1 or 2.
    ``hands`` and ``face`` (None: as `parts_for` the model says) also track the hands (the
    Hands graph at ``hand_complexity`` 0 or 1, matched to the body's wrists) and the face
    (Holistic's mesh with irises), and retarget the ``holistic_iris`` layout; with both off
    MediaPipe Pose alone runs and the ``blazepose33`` layout is retargeted.
    Landmarks with visibility under ``min_visibility`` count as not seen: held or left at
    rest by the retargeting, never invented, and named in ``summary["not_visible"]`` when
    unseen in most frames. A frame without a person is a gap (short gaps are interpolated);
    no person in any frame raises `CaptureError`. ``ik`` keys leg IK; ``dense`` keeps one key
    per frame. ``progress`` shows a bar over frames (None: when stderr is a terminal).
    ``verbose`` lets MediaPipe's and TensorFlow Lite's own C++ logs through to stderr; by
    default they are held back (they say nothing about the capture).
    A source that is not a file (a folder, a FIFO) raises the OSError that says what it is,
    and a photo whose header claims more than `MAX_IMAGE_PIXELS` raises `CaptureError`
    before anything decodes it.
    """
    source = Path(source)
    for path, wanted in ((source, "a photo or a video"), (model_asset, "a .task model file")):
        refused = None if path is None else not_a_file(path, wanted)
        if refused is not None:
            raise refused
    if person != "largest" and not (isinstance(person, int) and person >= 0):
        raise ValueError(f'person must be "largest" or an index ≥ 0, not {person!r}')
    fov = DEFAULT_FOV if fov is None else float(fov)
    if not 1.0 <= fov <= 179.0:
        raise ValueError(f"fov must be a horizontal field of view of 1–179 degrees, not {fov}")
    if not 0.0 <= min_visibility < 1.0:
        raise ValueError(f"min_visibility must be in [0, 1), not {min_visibility}")
    if hand_complexity not in (0, 1):
        raise ValueError(f"hand_complexity must be 0 or 1, not {hand_complexity!r}")
    if isinstance(model, (str, Path)):
        model = Model.read(model)
    if model_asset is not None:
        if hands or face:
            raise ValueError("hands and face need the legacy Holistic and Hands graphs; a "
                             "model asset runs the Tasks pose landmarker, the body alone")
        hands = face = False
    elif hands is None or face is None:
        default_hands, default_face = parts_for(model)
        hands = default_hands if hands is None else hands
        face = default_face if face is None else face
    photo = source.suffix.lower() in IMAGE_SUFFIXES
    need_mediapipe()
    if photo:
        check_image_size(source)
    started = time.perf_counter()
    # MediaPipe's C++ logs (absl, TensorFlow Lite) go to descriptor 2 on import, graph creation
    # and the first frames; they reach the user only with ``verbose``.
    with native_stderr_held(not verbose):
        decoded, count, fps = frames(source, photo)
        # Importing MediaPipe (a second or so) is the estimator's set-up, as making its graphs.
        began = time.perf_counter()
        mp = mediapipe_module()
        estimator: Estimator
        if model_asset is not None:
            estimator = Tasks(mp, not photo, Path(model_asset))
        elif hands or face:
            estimator = Whole(mp, not photo, complexity, bool(hands), bool(face),
                              hand_complexity)
        else:
            estimator = Legacy(mp, not photo, complexity)
        setting_up = time.perf_counter() - began
        detections: List[Optional[Seen]] = []
        times: List[float] = []
        size = (0, 0)
        in_decoder = 0.0
        tick = progress_bar(count, progress)
        try:
            last_ms = -1
            began = time.perf_counter()
            for n, (rgb, t) in enumerate(decoded, start=1):
                in_decoder += time.perf_counter() - began
                size = (rgb.shape[1], rgb.shape[0])
                # The Tasks API wants strictly increasing whole milliseconds.
                ms = max(int(round(t * 1000.0)), last_ms + 1)
                last_ms = ms
                detections.append(pick(estimator(rgb, ms), person))
                times.append(t)
                tick(n)
                began = time.perf_counter()
        finally:
            estimator.close()
        in_estimator = setting_up + estimator.seconds
    if not detections:
        raise CaptureError(f"{source}: no frames could be decoded")
    detected = sum(d is not None for d in detections)
    if detected == 0:
        raise CaptureError(f"{source}: no person found in any of {len(detections)} frame(s)")

    stamps = np.asarray(times, dtype=np.float64)
    places = np.zeros(1, dtype=np.int64) if photo else slots(stamps, fps)
    frame_count = int(places.max()) + 1
    world = np.full((frame_count, 33, 4), np.nan, dtype=np.float32)
    image = np.full((frame_count, 33, 4), np.nan, dtype=np.float32)
    for slot, d in zip(places, detections):
        if d is not None:
            world[slot], image[slot] = d.world, d.image
    seen = np.nan_to_num(world[..., 3]) >= min_visibility
    placed = world[..., :3].copy()
    if not photo:
        hips = hip_path(world, image, size, fov, min_visibility)
        # Relative to where the person usually stands: the retargeting puts the feet on the
        # floor, and a person who stays in place keeps センター still.
        if np.isfinite(hips).any():
            moved = hips - np.nanmedian(hips, axis=0)
            placed += moved[:, None, :].astype(np.float32)
    keypoints = placed.copy()
    keypoints[~seen] = np.nan
    confidence = np.where(seen, np.nan_to_num(world[..., 3]), 0.0).astype(np.float32)
    layout, names = "blazepose33", LANDMARKS
    parts: Dict[str, int] = {}
    if isinstance(estimator, Whole):
        keypoints, confidence, parts = whole(keypoints, confidence, placed,
                                             list(zip(places, detections)))
        layout, names = "holistic_iris", HOLISTIC_IRIS

    output_fps = fps if not photo else 30.0
    motion, report = retarget(
        keypoints, layout, model, fps=output_fps, units="m", up="-y", confidence=confidence,
        smooth="none" if photo else smooth, ik=ik, dense=dense or photo,
        min_confidence=min_visibility,
    )
    output: Union[Pose, Motion] = Pose.from_motion(motion, 0.0) if photo else motion
    found = ~np.isnan(world[..., 3]).any(axis=1)
    unseen = 1.0 - seen[found].mean(axis=0)
    summary = {
        "source": str(source),
        "kind": "photo" if photo else "video",
        "frames": len(detections),
        "detected": detected,
        "fps": output_fps,
        "mean_visibility": float(np.nanmean(world[found][..., 3])),
        "keys": len(motion.bones),
        "not_visible": [LANDMARKS[j] for j in range(33) if unseen[j] > 0.5],
        "layout": layout,
        **parts,
        "estimator_seconds": in_estimator,
        "decoder_seconds": in_decoder,
        "seconds": time.perf_counter() - started,
    }
    return Capture(output, world, image, keypoints, confidence, stamps, output_fps, summary,
                   report, layout, names)

