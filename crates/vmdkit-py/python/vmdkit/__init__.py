"""vmdkit: MikuMikuDance VMD motion, PMX/PMD models and retargeting as NumPy arrays.

The work is done by the Rust library vmdkit; this package gives it to Python.
"""

from ._vmdkit import (
    Model,
    ModelError,
    Motion,
    ReadError,
    RetargetError,
    VmdError,
    __version__,
    keypoints,
    read,
    retarget,
)

__all__ = [
    "Model",
    "ModelError",
    "Motion",
    "ReadError",
    "RetargetError",
    "VmdError",
    "__version__",
    "keypoints",
    "read",
    "retarget",
]
