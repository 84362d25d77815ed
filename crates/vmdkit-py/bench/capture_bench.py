"""Speed of vmdkit.capture end to end on a video: frames per second, the estimator's time per
frame, and the share of the time spent outside the estimator (MediaPipe) and outside both the
estimator and the decoder (OpenCV), i.e. vmdkit's own (its Python around MediaPipe, the
placing of hands and face, the retargeting).

Run from the repository root in an environment with the capture extra (scripts/python-tests.sh
makes .venv-capture), pinned to one core:
    taskset -c 0 .venv-capture/bin/python crates/vmdkit-py/bench/capture_bench.py [--repeat N]
Two measures, each run N times (default 3) with one line per run and the median:
* body: the shared pose_1.mp4 (120 frames), MediaPipe Pose alone (hands and face off), as
  before hands and face existed;
* whole: the shared gesture-recognizer test video (195 frames, a face and a right hand),
  Holistic with the face mesh and irises, and Hands where Holistic sees a hand.
``--only body|whole`` runs one; ``--hand-complexity 0`` and ``--no-face`` / ``--no-hands`` show
what each part costs. Other processes on the machine slow MediaPipe down: give the load average
with the figures (printed before and after). The processor time the run took (all its threads)
is printed beside the wall-clock time: on a busy machine, frames per processor second is what
one free core would do.
"""

import argparse
import os
import statistics
import time
from pathlib import Path

import vmdkit

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared" / "pose"
BODY = SHARED / "images" / "tensorflow__tfjs-models__pose-detection__test_data__pose_1.mp4"
WHOLE = SHARED / "handface" / ("google-ai-edge__mediapipe-samples__examples__gesture_recognizer__"
                               "android__app__src__androidTest__assets__test_video.mp4")


def measure(name: str, video: Path, repeat: int, **options: object) -> None:
    """Runs the capture ``repeat`` times and prints each run and the median."""
    runs = []
    for _ in range(repeat):
        cpu = time.process_time()
        s = vmdkit.capture(video, progress=False, **options).summary  # type: ignore[arg-type]
        cpu = time.process_time() - cpu
        own = (s["seconds"] - s["estimator_seconds"] - s["decoder_seconds"]) / s["seconds"]
        runs.append((s["frames"] / s["seconds"], s["estimator_seconds"] / s["frames"],
                     1 - s["estimator_seconds"] / s["seconds"], own))
        parts = ""
        if s["layout"] != "blazepose33":
            parts = f" [hands L{s['left_hand']} R{s['right_hand']}, face {s['face']}]"
        print(f"{name}: {s['frames']} frames in {s['seconds']:.2f} s: {runs[-1][0]:.1f} "
              f"frames/s, {runs[-1][1] * 1000:.1f} ms/frame in the estimator, outside it "
              f"{runs[-1][2]:.1%} (vmdkit's own {runs[-1][3]:.1%}); processor time "
              f"{cpu:.2f} s, {s['frames'] / cpu:.1f} frames per processor second{parts}")
    med = [statistics.median(r[i] for r in runs) for i in range(4)]
    print(f"{name} median: {med[0]:.1f} frames/s, {med[1] * 1000:.1f} ms/frame estimator, "
          f"outside the estimator {med[2]:.1%}, vmdkit's own {med[3]:.1%}")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--only", choices=["body", "whole"])
    p.add_argument("--hand-complexity", type=int, default=1)
    p.add_argument("--no-face", action="store_true")
    p.add_argument("--no-hands", action="store_true")
    args = p.parse_args()
    print(f"load average before: {os.getloadavg()}")
    if args.only in (None, "body"):
        measure("body", BODY, args.repeat, hands=False, face=False)
    if args.only in (None, "whole"):
        measure("whole", WHOLE, args.repeat, hands=not args.no_hands, face=not args.no_face,
                hand_complexity=args.hand_complexity)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
