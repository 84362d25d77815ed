"""vmdkit: MikuMikuDance VMD motion, PMX/PMD models and retargeting as NumPy arrays.

The work is done by the Rust library vmdkit; this package gives it to Python.
"""

from ._vmdkit import Motion, ReadError, VmdError, __version__, read

__all__ = ["Motion", "ReadError", "VmdError", "__version__", "read"]
