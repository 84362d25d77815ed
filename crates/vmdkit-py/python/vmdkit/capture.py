"""vmdkit.capture: a photo or a video of a person to an MMD pose (VPD) or motion (VMD).

MediaPipe Pose runs offline on the CPU frame by frame (the ``capture`` extra:
``pip install "./crates/vmdkit-py[capture]"`` in a checkout); its world landmarks (metres,
hip-centred, right-handed, y down) and their visibility go to `vmdkit.retarget` with the
``blazepose33`` layout. The path of the hips comes from the image landmarks, the metric size
of the person and a pinhole camera (see `capture`). See docs/capture.md.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    Any, Callable, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union,
)

import numpy as np

from ._files import not_a_file
from ._quiet import native_stderr_held
from ._vmdkit import Model, Motion, Pose, RetargetError, retarget

#: MediaPipe Pose's 33 landmarks, in its order: the ``blazepose33`` layout's joint names.
LANDMARKS: Tuple[str, ...] = (
    "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye",
    "right_eye_outer", "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder",
    "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_pinky",
    "right_pinky", "left_index", "right_index", "left_thumb", "right_thumb", "left_hip",
    "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle", "left_heel",
    "right_heel", "left_foot_index", "right_foot_index",
)

#: The horizontal field of view (degrees) taken when none is given: a phone's main camera or a
#: webcam at 1× is 60–75°.
DEFAULT_FOV = 65.0

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})

#: The most pixels a photo may have (100 megapixels, e.g. 12,000 × 8,333): its header is read
#: before it is decoded, and a larger one is refused. Decoding takes 6 bytes a pixel (the
#: decoded picture and its RGB copy) while a header can claim any size in a few bytes of a
#: small file; the estimator itself looks at a few hundred pixels a side.
MAX_IMAGE_PIXELS = 100_000_000

_FEET = [LANDMARKS.index(n) for n in ("left_heel", "right_heel", "left_foot_index",
                                      "right_foot_index", "left_ankle", "right_ankle")]


class CaptureError(RetargetError):
    """A capture that cannot be done: no person in any frame, an unreadable image or video."""


@dataclass
class Capture:
    """What `capture` gives: the pose (a photo) or motion (a video), and what it was made from.

    ``output`` is a `Pose` for a photo and a `Motion` for a video. ``landmarks`` are the
    estimator's world landmarks, (F, 33, 4) float32 rows of x, y, z (metres, hip-centred,
    y down) and visibility, NaN in frames without a person; ``image_landmarks`` likewise
    x, y in pixels, relative depth and visibility. ``keypoints`` (F, 33, 3) are what was
    retargeted: the world landmarks moved along the hips' path, NaN where not visible.
    ``times`` are the frames' timestamps in seconds and ``fps`` the rate they were placed at.
    ``summary`` counts frames, detections, mean visibility, keys written and names the
    joints that were not visible (left at rest or held), and times the run: ``seconds`` in
    all, of which ``estimator_seconds`` in MediaPipe and ``decoder_seconds`` in OpenCV's
    decoding; ``report`` is the retargeting's.
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
            "names": list(LANDMARKS),
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


# vmdkit is not on a package index: the extra installs from a checkout of the repository.
_INSTALL = 'pip install "./crates/vmdkit-py[capture]" in a vmdkit checkout'
_NO_EXTRA = f"vmdkit.capture needs MediaPipe and OpenCV, the \"capture\" extra: {_INSTALL}"


def _need_mediapipe() -> None:
    """The ImportError of `_mediapipe` when MediaPipe is not installed, found without importing
    it: the import maps a quarter of a GB, not worth it before the input has been checked."""
    import importlib.util

    if importlib.util.find_spec("mediapipe") is None:
        raise ImportError(_NO_EXTRA)


def _mediapipe() -> Any:
    try:
        import mediapipe  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as e:
        raise ImportError(_NO_EXTRA) from e
    return mediapipe


def _cv2() -> Any:
    try:
        import cv2  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as e:
        raise ImportError(
            "vmdkit.capture needs OpenCV to decode frames, part of the \"capture\" extra: "
            + _INSTALL
        ) from e
    return cv2


# One frame's detection: (world (33, 4), image (33, 4) in pixels) or None for no person.
Detection = Optional[Tuple[np.ndarray, np.ndarray]]


class _Legacy:
    """MediaPipe's legacy `solutions.pose` graph, with the models its wheel bundles."""

    def __init__(self, mp: Any, video: bool, complexity: int) -> None:
        self.pose = mp.solutions.pose.Pose(static_image_mode=not video,
                                           model_complexity=complexity)

    def __call__(self, rgb: np.ndarray, ms: int) -> List[Tuple[np.ndarray, np.ndarray]]:
        result = self.pose.process(rgb)
        if result.pose_world_landmarks is None or result.pose_landmarks is None:
            return []
        return [_rows(result.pose_world_landmarks.landmark, result.pose_landmarks.landmark,
                      rgb.shape)]

    def close(self) -> None:
        self.pose.close()


class _Tasks:
    """MediaPipe's Tasks API `PoseLandmarker` with a user's `.task` model file."""

    def __init__(self, mp: Any, video: bool, asset: Path) -> None:
        vision = mp.tasks.vision
        options = vision.PoseLandmarkerOptions(
            base_options=mp.tasks.BaseOptions(model_asset_path=str(asset)),
            running_mode=vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE,
            num_poses=4,
        )
        self.mp, self.video = mp, video
        self.landmarker = vision.PoseLandmarker.create_from_options(options)

    def __call__(self, rgb: np.ndarray, ms: int) -> List[Tuple[np.ndarray, np.ndarray]]:
        image = self.mp.Image(image_format=self.mp.ImageFormat.SRGB, data=rgb)
        if self.video:
            result = self.landmarker.detect_for_video(image, ms)
        else:
            result = self.landmarker.detect(image)
        return [_rows(w, i, rgb.shape)
                for w, i in zip(result.pose_world_landmarks, result.pose_landmarks)]

    def close(self) -> None:
        self.landmarker.close()


def _rows(world: Sequence[Any], image: Sequence[Any], shape: Tuple[int, ...]
          ) -> Tuple[np.ndarray, np.ndarray]:
    h, w = shape[:2]
    vis = [getattr(p, "visibility", 1.0) or 0.0 for p in world]
    wl = np.array([[p.x, p.y, p.z, v] for p, v in zip(world, vis)], dtype=np.float32)
    il = np.array([[p.x * w, p.y * h, p.z * w, v] for p, v in zip(image, vis)],
                  dtype=np.float32)
    return wl, il


def _pick(people: List[Tuple[np.ndarray, np.ndarray]], person: Union[str, int]) -> Detection:
    if not people:
        return None
    if person == "largest":
        def area(p: Tuple[np.ndarray, np.ndarray]) -> float:
            xy = p[1][:, :2]
            return float(np.ptp(xy[:, 0]) * np.ptp(xy[:, 1]))
        return max(people, key=area)
    index = int(person)
    return people[index] if index < len(people) else None


def _check_image_size(source: Path) -> None:
    """Refuses a photo whose header claims more than MAX_IMAGE_PIXELS, before anything
    decodes it: Pillow's ``Image.open`` reads only the header."""
    import warnings

    try:
        from PIL import Image  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as e:
        raise ImportError(
            "vmdkit.capture needs Pillow to read a photo's size, part of the \"capture\" "
            "extra: " + _INSTALL
        ) from e
    try:
        with warnings.catch_warnings():
            # Pillow warns past its own bomb limit; the size is judged here instead.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(source) as image:
                width, height = image.size
    except Image.DecompressionBombError as e:
        # Pillow's own limit, above MAX_IMAGE_PIXELS, refused it while reading the header.
        raise CaptureError(f"{source}: the image claims more than the {MAX_IMAGE_PIXELS:,} "
                           f"pixels a photo may have (vmdkit.capture.MAX_IMAGE_PIXELS): {e}"
                           ) from None
    except (OSError, ValueError, SyntaxError) as e:
        raise CaptureError(f"{source}: not an image whose size can be read ({e})") from None
    if width * height > MAX_IMAGE_PIXELS:
        raise CaptureError(
            f"{source}: the image claims {width} × {height} pixels, more than the "
            f"{MAX_IMAGE_PIXELS:,} a photo may have (vmdkit.capture.MAX_IMAGE_PIXELS)"
        )


def _frames(source: Path, photo: bool) -> Tuple[Iterator[Tuple[np.ndarray, float]], int, float]:
    """(RGB frames with their timestamps in seconds, frame count or 0, the stream's fps)."""
    cv2 = _cv2()
    if photo:
        bgr = cv2.imread(str(source), cv2.IMREAD_COLOR)
        if bgr is None:
            raise CaptureError(f"{source}: not an image OpenCV can decode")
        return iter([(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), 0.0)]), 1, 30.0
    cap = cv2.VideoCapture(str(source))
    if not cap.isOpened():
        cap.release()
        raise CaptureError(f"{source}: not a video OpenCV can decode")
    fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    count = max(int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0), 0)

    def frames() -> Iterator[Tuple[np.ndarray, float]]:
        try:
            index = 0
            while True:
                ok, bgr = cap.read()
                if not ok:
                    return
                ms = cap.get(cv2.CAP_PROP_POS_MSEC)
                # Some containers give no timestamps: the nominal rate places the frame.
                t = ms / 1000.0 if ms and ms > 0 or index == 0 else index / fps
                yield cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), t
                index += 1
        finally:
            cap.release()

    if not (math.isfinite(fps) and fps > 0):
        raise CaptureError(f"{source}: the video says no frame rate")
    return frames(), count, fps


def _progress(total: int, enabled: Optional[bool]) -> Callable[[int], None]:
    """A progress bar over frames on stderr (tqdm's when installed), only on a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return lambda n: None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        def simple(n: int) -> None:
            of = f"/{total}" if total else ""
            sys.stderr.write(f"\rcapture: frame {n}{of}")
            if total and n >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        return simple
    bar = tqdm(total=total or None, unit="frame", desc="capture")

    def update(n: int) -> None:
        bar.update(n - bar.n)
        if total and n >= total:
            bar.close()
    return update


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


def _slots(times: np.ndarray, fps: float) -> np.ndarray:
    """Each frame's index on a grid of ``fps`` from the first timestamp: the video's own
    timing, so that a dropped or late frame leaves a gap instead of shifting the rest."""
    return np.rint((times - times[0]) * fps).astype(np.int64)


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
    ik: bool = True,
    dense: bool = False,
    progress: Optional[bool] = None,
    verbose: bool = False,
) -> Capture:
    """Runs MediaPipe Pose on a photo or a video and retargets what it sees onto ``model``.

    A photo (by its suffix: .jpg, .jpeg, .png, .bmp, .webp, .tif, .tiff) gives a `Pose`
    (write it as VPD); anything else is decoded as a video and gives a `Motion` (VMD) with
    the video's own frame rate and timestamps. The result is a `Capture`, its ``output`` the
    pose or motion. ``model`` is a `Model` or a model file's path (None: vmdkit's standard
    model). ``person`` is "largest" (the person whose image landmarks span the largest box)
    or an index among the people found; the legacy estimator finds one person, a Tasks
    model (``model_asset``) up to four. ``smooth`` is the retargeting's smoothing of a video
    ("none", "light", "normal", "strong" or a cutoff in Hz). ``fov`` is the camera's
    horizontal field of view in degrees (None: ``DEFAULT_FOV``, 65°), which with the
    person's metric size places the hips' path: ``センター`` moves as the person moves in
    the picture, and stays put when they do. ``model_asset`` is a MediaPipe `.task` file for
    the Tasks API of newer mediapipe releases; without it the legacy ``solutions.pose`` graph
    runs with the models its wheel bundles (mediapipe 0.10.21), at ``complexity`` 0, 1 or 2.
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
    if isinstance(model, (str, Path)):
        model = Model.read(model)
    photo = source.suffix.lower() in IMAGE_SUFFIXES
    _need_mediapipe()
    if photo:
        _check_image_size(source)
    started = time.perf_counter()
    # MediaPipe's C++ logs (absl, TensorFlow Lite) go to descriptor 2 on import, graph creation
    # and the first frames; they reach the user only with ``verbose``.
    with native_stderr_held(not verbose):
        mp = _mediapipe()
        frames, count, fps = _frames(source, photo)
        began = time.perf_counter()
        if model_asset is not None:
            estimator: Union[_Legacy, _Tasks] = _Tasks(mp, not photo, Path(model_asset))
        else:
            estimator = _Legacy(mp, not photo, complexity)
        in_estimator = time.perf_counter() - began
        detections: List[Detection] = []
        times: List[float] = []
        size = (0, 0)
        in_decoder = 0.0
        tick = _progress(count, progress)
        try:
            last_ms = -1
            decoded = time.perf_counter()
            for n, (rgb, t) in enumerate(frames, start=1):
                in_decoder += time.perf_counter() - decoded
                size = (rgb.shape[1], rgb.shape[0])
                # The Tasks API wants strictly increasing whole milliseconds.
                ms = max(int(round(t * 1000.0)), last_ms + 1)
                last_ms = ms
                began = time.perf_counter()
                people = estimator(rgb, ms)
                in_estimator += time.perf_counter() - began
                detections.append(_pick(people, person))
                times.append(t)
                tick(n)
                decoded = time.perf_counter()
        finally:
            estimator.close()
    if not detections:
        raise CaptureError(f"{source}: no frames could be decoded")
    detected = sum(d is not None for d in detections)
    if detected == 0:
        raise CaptureError(f"{source}: no person found in any of {len(detections)} frame(s)")

    stamps = np.asarray(times, dtype=np.float64)
    slots = np.zeros(1, dtype=np.int64) if photo else _slots(stamps, fps)
    frame_count = int(slots.max()) + 1
    world = np.full((frame_count, 33, 4), np.nan, dtype=np.float32)
    image = np.full((frame_count, 33, 4), np.nan, dtype=np.float32)
    for slot, d in zip(slots, detections):
        if d is not None:
            world[slot], image[slot] = d
    seen = np.nan_to_num(world[..., 3]) >= min_visibility
    keypoints = world[..., :3].copy()
    if not photo:
        hips = hip_path(world, image, size, fov, min_visibility)
        # Relative to where the person usually stands: the retargeting puts the feet on the
        # floor, and a person who stays in place keeps センター still.
        if np.isfinite(hips).any():
            moved = hips - np.nanmedian(hips, axis=0)
            keypoints += moved[:, None, :].astype(np.float32)
    keypoints[~seen] = np.nan
    confidence = np.where(seen, np.nan_to_num(world[..., 3]), 0.0).astype(np.float32)

    output_fps = fps if not photo else 30.0
    motion, report = retarget(
        keypoints, "blazepose33", model, fps=output_fps, units="m", up="-y",
        confidence=confidence, smooth="none" if photo else smooth, ik=ik,
        dense=dense or photo, min_confidence=min_visibility,
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
        "estimator_seconds": in_estimator,
        "decoder_seconds": in_decoder,
        "seconds": time.perf_counter() - started,
    }
    return Capture(output, world, image, keypoints, confidence, stamps, output_fps, summary,
                   report)
