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
    MorphArrays,
    Motion,
    PropertyArrays,
    ReadError,
    Repair,
    ShadowArrays,
    VmdError,
    __version__,
    read,
    write,
)

__all__ = [
    "BoneArrays",
    "CameraArrays",
    "EditError",
    "LightArrays",
    "LintWarning",
    "MorphArrays",
    "Motion",
    "PropertyArrays",
    "ReadError",
    "Repair",
    "ShadowArrays",
    "VmdError",
    "__version__",
    "read",
    "read_many",
    "write",
]
