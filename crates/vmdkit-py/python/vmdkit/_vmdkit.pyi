"""Type stubs of the extension module (src/*.rs); checked against it by mypy's stubtest."""

import os
from typing import (
    Any,
    Dict,
    Iterable,
    List,
    Literal,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    Union,
    final,
    type_check_only,
)

import numpy as np
import numpy.typing as npt

# The names as the extension module lists them (other parts of the package add theirs).
__all__ = [
    "__version__",
    "VmdError",
    "ReadError",
    "EditError",
    "Motion",
    "BoneArrays",
    "MorphArrays",
    "CameraArrays",
    "LightArrays",
    "ShadowArrays",
    "PropertyArrays",
    "Repair",
    "LintWarning",
    "read",
    "write",
    "_panic",
    "Model",
    "ModelError",
    "Pose",
    "RetargetError",
    "keypoints",
    "retarget",
    "bake_physics",
]

__version__: str

_Path = Union[str, "os.PathLike[str]"]
_Name = Union[str, bytes]
_Frames = npt.ArrayLike
_Section = Union[
    Mapping[str, Any],
    "BoneArrays",
    "MorphArrays",
    "CameraArrays",
    "LightArrays",
    "ShadowArrays",
    "PropertyArrays",
]

class VmdError(Exception): ...

class ReadError(VmdError):
    path: Optional[str]
    section: Optional[str]
    record: Optional[int]
    offset: int

class EditError(VmdError): ...

@final
class Repair:
    @property
    def kind(self) -> str: ...
    @property
    def section(self) -> Optional[str]: ...
    @property
    def offset(self) -> Optional[int]: ...
    @property
    def message(self) -> str: ...
    @property
    def details(self) -> Dict[str, Any]: ...

@final
class LintWarning:
    @property
    def kind(self) -> str: ...
    @property
    def section(self) -> Optional[str]: ...
    @property
    def count(self) -> int: ...
    @property
    def message(self) -> str: ...

# What every section's columns have. Only the stub knows these protocols (`type_check_only`):
# at runtime the six classes share no base, each has these members.
@type_check_only
class _KeyColumns(Protocol):
    @property
    def frame(self) -> npt.NDArray[np.uint32]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __len__(self) -> int: ...

# What the two named sections' columns (bones, morphs) also have.
@type_check_only
class _NamedKeyColumns(_KeyColumns, Protocol):
    @property
    def name_index(self) -> npt.NDArray[np.uint32]: ...
    @property
    def names(self) -> List[str]: ...
    @property
    def names_raw(self) -> List[bytes]: ...
    @property
    def name_fields(self) -> npt.NDArray[np.uint8]: ...

# What the two sections with interpolation blocks (bones, camera) also have: the raw blocks
# and their Bézier control points.
@type_check_only
class _CurveColumns(_KeyColumns, Protocol):
    @property
    def interpolation(self) -> npt.NDArray[np.uint8]: ...
    @property
    def curves(self) -> npt.NDArray[np.uint8]: ...

@final
class BoneArrays(_NamedKeyColumns, _CurveColumns):
    @property
    def position(self) -> npt.NDArray[np.float32]: ...
    @property
    def rotation(self) -> npt.NDArray[np.float32]: ...

@final
class MorphArrays(_NamedKeyColumns):
    @property
    def weight(self) -> npt.NDArray[np.float32]: ...

@final
class CameraArrays(_CurveColumns):
    @property
    def distance(self) -> npt.NDArray[np.float32]: ...
    @property
    def target(self) -> npt.NDArray[np.float32]: ...
    @property
    def rotation(self) -> npt.NDArray[np.float32]: ...
    @property
    def view_angle(self) -> npt.NDArray[np.uint32]: ...
    @property
    def perspective(self) -> npt.NDArray[np.bool_]: ...

@final
class LightArrays(_KeyColumns):
    @property
    def color(self) -> npt.NDArray[np.float32]: ...
    @property
    def direction(self) -> npt.NDArray[np.float32]: ...

@final
class ShadowArrays(_KeyColumns):
    @property
    def mode(self) -> npt.NDArray[np.uint8]: ...
    @property
    def distance(self) -> npt.NDArray[np.float32]: ...

@final
class PropertyArrays(_KeyColumns):
    @property
    def visible(self) -> npt.NDArray[np.bool_]: ...
    @property
    def ik_names(self) -> List[str]: ...
    @property
    def ik_names_raw(self) -> List[bytes]: ...
    @property
    def ik_enabled(self) -> npt.NDArray[np.bool_]: ...
    @property
    def ik_present(self) -> npt.NDArray[np.bool_]: ...

@final
class Motion:
    def to_bytes(self) -> bytes: ...
    @property
    def model_name(self) -> str: ...
    @property
    def model_name_raw(self) -> bytes: ...
    @property
    def encoding(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def is_camera_motion(self) -> bool: ...
    @property
    def frame_range(self) -> Optional[Tuple[int, int]]: ...
    @property
    def repairs(self) -> List[Repair]: ...
    @property
    def report(self) -> Optional[Dict[str, Any]]: ...
    @property
    def bones(self) -> BoneArrays: ...
    @property
    def morphs(self) -> MorphArrays: ...
    @property
    def camera(self) -> CameraArrays: ...
    @property
    def light(self) -> LightArrays: ...
    @property
    def self_shadow(self) -> ShadowArrays: ...
    @property
    def bone_names(self) -> List[str]: ...
    @property
    def bone_names_raw(self) -> List[bytes]: ...
    @property
    def morph_names(self) -> List[str]: ...
    @property
    def morph_names_raw(self) -> List[bytes]: ...
    def warnings(self) -> List[LintWarning]: ...
    def euler(self) -> npt.NDArray[np.float64]: ...
    def sample(
        self, frames: _Frames, bones: Optional[Iterable[_Name]] = None
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...
    def sample_morphs(
        self, frames: _Frames, morphs: Optional[Iterable[_Name]] = None
    ) -> npt.NDArray[np.float32]: ...
    def sample_camera(self, frames: _Frames) -> Optional[Dict[str, npt.NDArray[Any]]]: ...
    def mirror(self) -> Motion: ...
    def shift(self, frames: int) -> Motion: ...
    def trim(self, start: int, end: int) -> Motion: ...
    def retime(
        self,
        factor: float,
        *,
        position: float = 0.05,
        angle_degrees: float = 0.5,
        morph: float = 0.01,
    ) -> Motion: ...
    def merge(self, *others: Motion) -> Motion: ...
    def rename(
        self,
        bones: Optional[Mapping[str, str]] = None,
        morphs: Optional[Mapping[str, str]] = None,
    ) -> Motion: ...
    def filter(self, patterns: Sequence[str], *, drop: bool = False) -> Motion: ...
    def scale(self, factor: float, *, camera: bool = True) -> Motion: ...
    def reduce(
        self,
        *,
        position: float = 0.05,
        angle_degrees: float = 0.5,
        morph: float = 0.01,
        method: str = "fitted",
        threads: int = 0,
    ) -> Tuple[Motion, Dict[str, Any]]: ...
    @classmethod
    def from_arrays(
        cls,
        *,
        model_name: Optional[_Name] = None,
        bones: Optional[_Section] = None,
        morphs: Optional[_Section] = None,
        camera: Optional[_Section] = None,
        light: Optional[_Section] = None,
        self_shadow: Optional[_Section] = None,
        property: Optional[_Section] = None,
        encoding: str = "shift_jis",
    ) -> Motion: ...
    def to_arrow(self) -> Dict[str, Any]: ...
    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]: ...
    # Last: below this line `property` names the section, not the decorator.
    @property
    def property(self) -> PropertyArrays: ...

def read(source: Union[_Path, bytes, bytearray], *, lenient: bool = False) -> Motion: ...
def write(motion: Motion, path: _Path) -> None: ...

# For the tests: panics inside the library's guard, which raises VmdError.
def _panic(message: str) -> None: ...

# --- models, poses and retargeting ---

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
    def morph_names(self) -> list[str]:
        """Every morph's name, of every kind, in file order (empty for a bone CSV)."""
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
        up: Literal["y", "z"] | None = None,
        physics: bool = False,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Plays `motion` on the model: world positions, shape `frames.shape + (B, 3)`, and
        rotations (x, y, z, w), shape `frames.shape + (B, 4)`. `frames` are MMD frames (1/30 s);
        None samples frame 0 through the last key at `fps`, as `vmdkit bake --model` does.
        `up`: None (the default) MMD's own left-handed Y-up frame, as the CLI without `--up`;
        "y" right-handed Y up (Z mirrored); "z" right-handed Z up. `physics=True` simulates the
        rigid bodies (hair, skirts) from frame 0 through the last key, baked into keys at every
        frame (`bake_physics`), and poses `frames` from those, as the CLI's `--physics`."""
    def save_world(
        self,
        motion: Motion,
        path: str | os.PathLike[str],
        *,
        fps: float = 30.0,
        ik: bool | Literal["mmd", "plain", "off"] = True,
        metres: bool = False,
        up: Literal["y", "z"] | None = None,
        physics: bool = False,
    ) -> int:
        """Bakes `motion` on the model into the NumPy archive `path` (atomically), the layout
        of `vmdkit bake --model … -o x.npz` (docs/world-npz.md); returns the sample count.
        `up` as in `pose`: None (the default) is MMD's own frame; `physics` as in `pose`."""

@final
class Pose:
    """A VPD pose: each listed bone's translation and rotation and morph weights."""

    @staticmethod
    def read(source: str | os.PathLike[str] | bytes) -> Pose:
        """Reads a VPD file from a path or bytes."""
    @staticmethod
    def from_motion(motion: Motion, frame: float = 0.0) -> Pose:
        """The pose `motion` gives at `frame`, as MMD plays it."""
    def to_motion(self, frame: int = 0) -> Motion:
        """The pose as a motion with one key per bone and morph, all at `frame`."""
    def to_bytes(self) -> bytes:
        """The file's bytes, as MMD writes a VPD."""
    def write(self, path: str | os.PathLike[str]) -> None:
        """Writes the pose to `path` atomically."""
    @property
    def model_file(self) -> str:
        """The model file the pose was saved from."""
    @property
    def bone_names(self) -> list[str]:
        """The bones' names, in file order."""
    @property
    def translations(self) -> npt.NDArray[np.float32]:
        """The bones' translations, (N, 3)."""
    @property
    def rotations(self) -> npt.NDArray[np.float32]:
        """The bones' rotations (x, y, z, w), (N, 4)."""
    @property
    def morphs(self) -> list[tuple[str, float]]:
        """The morph weights by name, in file order."""
    def __len__(self) -> int:
        """The number of bones."""

def bake_physics(
    motion: Motion,
    model: Model,
    *,
    ik: bool | Literal["mmd", "plain", "off"] = True,
    step: float = 0.008333333333333333,
    settle: float = 1.0,
    reset_distance: float | None = 10.0,
    reduce: bool = False,
    max_position_error: float = 0.05,
    max_angle_error: float = 0.5,
) -> tuple[Motion, dict[str, Any]]:
    """Bakes the physics of `model` playing `motion` into keys: a motion that plays with
    physics off as `motion` plays with physics on (within 1e-4 units), and a report. Every
    bone a simulated rigid body moves gets a key at every frame from 0 through the motion's
    last key; other tracks are kept, IK chains over those bones switched off. `step` is the
    simulation's step (seconds), `settle` the seconds the bodies settle before frame 0,
    `reset_distance` the root jump that resets them (None: never); `reduce` thins the baked
    keys within `max_position_error` units and `max_angle_error` degrees per bone. The report
    holds `bodies`, `joints`, `frames`, `steps`, `resets`, `max_joint_error`, `baked_bones`
    (bone indices), `chains_switched_off`, `unkeyable_bones`, `keys`, `max_position_error`,
    `max_rotation_error_degrees` and `reduce` (a `Motion.reduce` report, or None)."""

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
    hand: Literal["left", "right"] | None = None,
    morph_map: str | os.PathLike[str] | None = None,
    calibrate: int | None = None,
) -> tuple[Motion, dict[str, Any]]:
    """Retargets (F, J, 3) keypoints (NaN = missing) onto a model (default: the standard one):
    a 30 fps motion and the report `vmdkit retarget --json` prints. For a face, `morph_map` is
    a file of `role = morph name` lines and `calibrate` the frames of the neutral face, as
    `--morph-map` and `--calibrate`; the report's `face` and `fingers` are None when absent."""

def keypoints(
    motion: Motion,
    model: Model | None,
    layout: str | os.PathLike[str],
    *,
    fps: float | None = None,
    units: str | float | None = None,
    up: Literal["y", "-y", "z", "-z"] = "y",
    left_handed: bool = False,
    hand: Literal["left", "right"] | None = None,
) -> tuple[npt.NDArray[np.float32], list[str]]:
    """`motion` played on `model`, read off as `layout`'s joints: an (F, J, 3) array in metres
    (or `units`), NaN where the model cannot place a joint, and the joint names."""
