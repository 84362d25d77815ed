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
    PropertyArrays,
    ReadError,
    Repair,
    RetargetError,
    ShadowArrays,
    VmdError,
    __version__,
    keypoints,
    read,
    retarget,
    write,
)

__all__ = [
    "BoneArrays",
    "CameraArrays",
    "EditError",
    "LightArrays",
    "LintWarning",
    "Model",
    "ModelError",
    "MorphArrays",
    "Motion",
    "PropertyArrays",
    "ReadError",
    "Repair",
    "RetargetError",
    "ShadowArrays",
    "VmdError",
    "__version__",
    "keypoints",
    "read",
    "read_many",
    "retarget",
    "write",
]
