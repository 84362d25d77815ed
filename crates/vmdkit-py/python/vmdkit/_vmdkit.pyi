# --- models, poses and retargeting ---
# (Appended after the Motion API's stubs, which define `Motion`, `VmdError` and the imports.)

import os
from typing import Any, Literal, Sequence, final

import numpy as np
import numpy.typing as npt

class ModelError(VmdError):
    """A model file that cannot be read: `path`, `section`, `record` and `offset` say where."""

    path: str | None
    section: str
    record: int | None
    offset: int

class RetargetError(VmdError):
    """A retargeting that cannot be done: an unknown or undetectable layout, keypoints that do
    not fit it, a model without the bones a body needs, no usable frame."""

@final
class Model:
    """A model's skeleton: bones, parents and rest positions, ready to pose motions on."""

    @staticmethod
    def read(source: str | os.PathLike[str] | bytes) -> Model:
        """Reads a PMX (2.0, 2.1), PMD or PmxEditor bone-table CSV model from a path or bytes."""
    @staticmethod
    def standard() -> Model:
        """vmdkit's built-in standard model (the default target of `retarget`)."""
    @property
    def bone_names(self) -> list[str]:
        """The bone names, in the model's bone order."""
    @property
    def bone_names_en(self) -> list[str]:
        """The English bone names (empty strings where the file has none)."""
    @property
    def parents(self) -> npt.NDArray[np.int32]:
        """Each bone's parent index, (B,), -1 for roots."""
    @property
    def rest_positions(self) -> npt.NDArray[np.float32]:
        """Each bone's rest position, (B, 3), MMD units in MMD's left-handed Y-up frame."""
    @property
    def name(self) -> str:
        """The model's name, usually Japanese."""
    @property
    def name_en(self) -> str:
        """The model's English name (empty when the file has none)."""
    @property
    def comment(self) -> str:
        """The model's comment (author, terms of use)."""
    @property
    def comment_en(self) -> str:
        """The English comment (empty when the file has none)."""
    @property
    def format(self) -> Literal["pmx", "pmd", "bone_csv"]:
        """The file's kind."""
    def bone_index(self, name: str) -> int | None:
        """The index of the bone named `name`, or None."""
    def __len__(self) -> int:
        """The number of bones."""
    def pose(
        self,
        motion: Motion,
        frames: npt.ArrayLike | None,
        *,
        fps: float = 30.0,
        ik: bool | Literal["mmd", "plain", "off"] = True,
        metres: bool = False,
        up: Literal["y", "z"] | None = "y",
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Plays `motion` on the model: world positions, shape `frames.shape + (B, 3)`, and
        rotations (x, y, z, w), shape `frames.shape + (B, 4)`. `frames` are MMD frames (1/30 s);
        None samples frame 0 through the last key at `fps`, as `vmdkit bake --model` does.
        `up`: "y" right-handed Y up, "z" right-handed Z up, None MMD's own frame."""

def retarget(
    keypoints: npt.ArrayLike,
    layout: str | os.PathLike[str] = "auto",
    model: Model | None = None,
    fps: float = 30.0,
    units: str | float | None = None,
    up: Literal["y", "-y", "z", "-z"] = "y",
    *,
    confidence: npt.ArrayLike | None = None,
    names: Sequence[str] | None = None,
    left_handed: bool = False,
    detect_handedness: bool = True,
    smooth: Literal["none", "light", "normal", "strong"] | float | None = "normal",
    ik: bool = True,
    dense: bool = False,
    max_position_error: float | None = None,
    max_angle_error: float | None = None,
    scale: float | None = None,
    floor: Literal["estimate", "keep"] = "estimate",
    min_confidence: float = 0.3,
) -> tuple[Motion, dict[str, Any]]:
    """Retargets (F, J, 3) keypoints (NaN = missing) onto a model (default: the standard one):
    a 30 fps motion and the report `vmdkit retarget --json` prints."""

def keypoints(
    motion: Motion,
    model: Model | None,
    layout: str | os.PathLike[str],
    *,
    fps: float | None = None,
    units: str | float | None = None,
    up: Literal["y", "-y", "z", "-z"] = "y",
    left_handed: bool = False,
) -> tuple[npt.NDArray[np.float32], list[str]]:
    """`motion` played on `model`, read off as `layout`'s joints: an (F, J, 3) array in metres
    (or `units`), NaN where the model cannot place a joint, and the joint names."""
