"""Speed of vmdkit.capture end to end on a video: frames per second, and the share of the time
spent outside the estimator (MediaPipe) and outside the decoder (OpenCV), i.e. vmdkit's own.

Run from the repository root in an environment with the capture extra (scripts/python-tests.sh
makes .venv-capture), pinned to one core:
    taskset -c 0 .venv-capture/bin/python crates/vmdkit-py/bench/capture_bench.py [VIDEO] [--repeat N]
(VIDEO defaults to the shared pose_1.mp4.) Prints one line per run and the median.
"""

import argparse
import statistics
from pathlib import Path

import vmdkit

ROOT = Path(__file__).resolve().parents[3]
VIDEO = (ROOT.parent / "shared" / "pose" / "images"
         / "tensorflow__tfjs-models__pose-detection__test_data__pose_1.mp4")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("video", nargs="?", type=Path, default=VIDEO)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    runs = []
    for _ in range(args.repeat):
        s = vmdkit.capture(args.video, progress=False).summary
        vmdkit_share = (s["seconds"] - s["estimator_seconds"] - s["decoder_seconds"]) / s["seconds"]
        runs.append((s["frames"] / s["seconds"], 1 - s["estimator_seconds"] / s["seconds"],
                     vmdkit_share, s["estimator_seconds"] / s["frames"]))
        print(f"{s['frames']} frames in {s['seconds']:.2f} s: {runs[-1][0]:.1f} frames/s, "
              f"{runs[-1][3] * 1000:.1f} ms/frame in the estimator, "
              f"outside it {runs[-1][1]:.1%} (vmdkit's own {runs[-1][2]:.1%})")
    med = [statistics.median(r[i] for r in runs) for i in range(4)]
    print(f"median: {med[0]:.1f} frames/s, {med[3] * 1000:.1f} ms/frame estimator, outside the "
          f"estimator {med[1]:.1%}, vmdkit's own {med[2]:.1%}")


if __name__ == "__main__":
    main()
