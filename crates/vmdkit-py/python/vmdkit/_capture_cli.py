"""The ``vmdkit-capture`` command: a photo or a video to a VPD pose or a VMD motion."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import List, Optional

EXAMPLES = """examples:
  vmdkit-capture photo.jpg -o pose.vpd --model miku.pmx
  vmdkit-capture dance.mp4 -o dance.vmd --model miku.pmx --fov 70 --keypoints-out dance.json
  vmdkit retarget dance.json --model other.pmx -o other.vmd   # again, without the estimator
  vmdkit-capture dance.mp4 -o dance.vmd --model-asset pose_landmarker_full.task
  vmdkit-capture talk.mp4 -o talk.vmd --model miku.pmx --hands --face --keypoints-out talk.json

exit status: 0 done, 1 the capture failed (no person, unreadable input), 2 bad arguments,
3 the estimator (the "capture" extra) is not installed."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="vmdkit-capture",
        description="Runs MediaPipe Pose on a photo or a video (offline, on the CPU) and "
        "retargets what it sees onto an MMD model: a photo gives a VPD pose, a video a VMD "
        "motion at the video's own frame rate.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", type=Path, help="a photo (.jpg, .png, ...) or a video")
    p.add_argument("-o", "--output", type=Path, required=True,
                   help="OUT.vmd or OUT.vpd (a VPD needs a photo)")
    p.add_argument("--model", type=Path, help="the target PMX/PMD model (default: vmdkit's "
                   "standard model)")
    p.add_argument("--keypoints-out", type=Path, metavar="KP.json",
                   help="also save the landmarks as keypoint JSON for `vmdkit retarget`")
    p.add_argument("--fov", type=float, metavar="DEG",
                   help="the camera's horizontal field of view in degrees (default 65)")
    p.add_argument("--model-asset", type=Path, metavar="PATH",
                   help="a MediaPipe pose landmarker .task file (Tasks API of newer "
                   "mediapipe); default: the models bundled with mediapipe 0.10.21")
    p.add_argument("--hands", action=argparse.BooleanOptionalAction, default=None,
                   help="also track the hands (MediaPipe Holistic and Hands) for the fingers; "
                   "default: where the model has finger bones")
    p.add_argument("--face", action=argparse.BooleanOptionalAction, default=None,
                   help="also track the face (Holistic's face mesh with irises) for the facial "
                   "morphs; default: where the model has them (まばたき, あ). With --no-hands "
                   "--no-face, MediaPipe Pose alone and the blazepose33 layout")
    p.add_argument("--smooth", default="normal",
                   help="none, light, normal (default), strong or a cutoff in Hz")
    p.add_argument("--min-visibility", type=float, default=0.5,
                   help="landmarks less visible than this count as not seen (default 0.5)")
    p.add_argument("--dense", action="store_true", help="one key per frame (no thinning)")
    p.add_argument("--no-ik", action="store_true", help="key no leg IK")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    p.add_argument("--verbose", action="store_true",
                   help="also print MediaPipe's and TensorFlow Lite's own logs (held back by "
                   "default)")
    return p


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are one file (same device and inode, through links)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): not the same file
        return False


def check_outputs(args: argparse.Namespace) -> None:
    """Refuses (as bad usage) an output whose extension is not what is written to it, and an
    output that is the same file as an input or as the other output: writing it would
    replace the photo, video or model with a motion or JSON."""
    if args.output.suffix.lower() not in (".vmd", ".vpd"):
        parser().error(f"{args.output}: the output must end in .vmd or .vpd")
    keypoints = args.keypoints_out
    if keypoints is not None and keypoints.suffix.lower() != ".json":
        parser().error(f"{keypoints}: --keypoints-out writes keypoint JSON; name it .json")
    inputs = [("the input", args.input), ("--model", args.model),
              ("--model-asset", args.model_asset)]
    outputs = [("-o", args.output), ("--keypoints-out", keypoints)]
    for i, (flag, output) in enumerate(outputs):
        if output is None:
            continue
        others = inputs + outputs[:i]
        for what, other in others:
            if other is not None and _same_file(output, other):
                parser().error(f"{output}: {flag} is the same file as {what} ({other}); "
                               f"writing it would replace it")


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    check_outputs(args)
    suffix = args.output.suffix.lower()
    smooth: object = args.smooth
    try:
        smooth = float(args.smooth)
    except ValueError:
        pass
    from .capture import IMAGE_SUFFIXES, CaptureError, capture

    if suffix == ".vpd" and args.input.suffix.lower() not in IMAGE_SUFFIXES:
        parser().error(f"{args.output}: a VPD holds one pose; give a photo, or write a .vmd")
    try:
        result = capture(
            args.input, model=args.model, smooth=smooth, fov=args.fov,  # type: ignore[arg-type]
            model_asset=args.model_asset, min_visibility=args.min_visibility,
            hands=args.hands, face=args.face, ik=not args.no_ik, dense=args.dense,
            progress=False if args.quiet else None,
            verbose=args.verbose,
        )
    except ImportError as e:
        print(f"vmdkit-capture: {e}", file=sys.stderr)
        return 3
    except ValueError as e:
        print(f"vmdkit-capture: {e}", file=sys.stderr)
        return 2
    except (CaptureError, OSError) as e:
        print(f"vmdkit-capture: {e}", file=sys.stderr)
        return 1
    from . import write

    output = result.output
    if suffix == ".vpd":
        output.write(args.output)  # type: ignore[union-attr]
    else:
        motion = output.to_motion() if result.is_photo else output  # type: ignore[union-attr]
        write(motion, args.output)  # type: ignore[arg-type]
    if args.keypoints_out is not None:
        result.write_keypoints(args.keypoints_out)
    summary = dict(result.summary, output=str(args.output))
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    elif not args.quiet:
        hidden = ", ".join(summary["not_visible"]) or "none"
        parts = ""
        if summary["layout"] != "blazepose33":
            parts = (f", left hand in {summary['left_hand']}, right hand in "
                     f"{summary['right_hand']}, face in {summary['face']}")
        print(f"{summary['frames']} frame(s), person in {summary['detected']}{parts}, mean "
              f"visibility {summary['mean_visibility']:.2f}, {summary['keys']} bone keys -> "
              f"{args.output}; not visible (held or at rest): {hidden}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
