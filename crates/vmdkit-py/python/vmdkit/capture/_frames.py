"""Frames for the capture: a photo's size checked from its header, then the photo or the
video's frames decoded with OpenCV and stamped with their times; a progress bar over them."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Tuple

import numpy as np

from ._names import INSTALL as _INSTALL
from ._names import CaptureError

#: The suffixes that make a source a photo (one frame); anything else is opened as a video.
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})

#: The most pixels a photo may have (100 megapixels, e.g. 12,000 × 8,333): its header is read
#: before it is decoded, and a larger one is refused. Decoding takes 6 bytes a pixel (the
#: decoded picture and its RGB copy) while a header can claim any size in a few bytes of a
#: small file; the estimator itself looks at a few hundred pixels a side.
MAX_IMAGE_PIXELS = 100_000_000


def cv2_module() -> Any:
    """OpenCV, or the ImportError that names the extra it comes with."""
    try:
        import cv2  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as e:
        raise ImportError(
            "vmdkit.capture needs OpenCV to decode frames, part of the \"capture\" extra: "
            + _INSTALL
        ) from e
    return cv2


def check_image_size(source: Path) -> None:
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


def frames(source: Path, photo: bool) -> Tuple[Iterator[Tuple[np.ndarray, float]], int, float]:
    """(RGB frames with their timestamps in seconds, frame count or 0, the stream's fps)."""
    cv2 = cv2_module()
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

    def read() -> Iterator[Tuple[np.ndarray, float]]:
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
    return read(), count, fps


def progress(total: int, enabled: Optional[bool]) -> Callable[[int], None]:
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
