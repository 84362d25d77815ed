"""vmdkit: MikuMikuDance VMD motion, PMX/PMD models and retargeting as NumPy arrays.

The work is done by the Rust library vmdkit; this package gives it to Python. See the
package README for a tutorial.
"""

from ._arrow import read_many
from ._vmdkit import (
    BoneArrays,
    CameraArrays,
    EditError,
    LightArrays,
    LintWarning,
    Model,
    ModelError,
    MorphArrays,
    Motion,
    Pose,
    PropertyArrays,
    ReadError,
    Repair,
    RetargetError,
    ShadowArrays,
    VmdError,
    __version__,
    bake_physics,
    keypoints,
    read,
    retarget,
    write,
)

from .capture import Capture, CaptureError, capture  # noqa: E402  (needs _vmdkit)

__all__ = [
    "BoneArrays",
    "Capture",
    "CaptureError",
    "CameraArrays",
    "EditError",
    "LightArrays",
    "LintWarning",
    "Model",
    "ModelError",
    "MorphArrays",
    "Motion",
    "Pose",
    "PropertyArrays",
    "ReadError",
    "Repair",
    "RetargetError",
    "ShadowArrays",
    "VmdError",
    "__version__",
    "bake_physics",
    "capture",
    "keypoints",
    "read",
    "read_many",
    "retarget",
    "write",
]
