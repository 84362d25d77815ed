"""Checking the arrays given to ``Motion.from_arrays`` before the Rust side builds the keys.

Each section is a mapping of column name to array-like (or a section object such as
``motion.bones``, taken through its ``to_dict()``). Every column is converted to its exact dtype
and C order here, so that the extension only ever sees arrays it can read as slices; what
cannot be converted without changing its meaning is refused with a message that names the
section and column.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

# Per section: column -> (dtype, shape after the key axis, required).
_Spec = Dict[str, Tuple[str, Tuple[int, ...], bool]]

SECTIONS: Dict[str, _Spec] = {
    "bones": {
        "frame": ("uint32", (), True),
        "name_index": ("uint32", (), False),
        "name_fields": ("uint8", (15,), False),
        "position": ("float32", (3,), True),
        "rotation": ("float32", (4,), True),
        "interpolation": ("uint8", (64,), False),
        "curves": ("uint8", (4, 4), False),
    },
    "morphs": {
        "frame": ("uint32", (), True),
        "name_index": ("uint32", (), False),
        "name_fields": ("uint8", (15,), False),
        "weight": ("float32", (), True),
    },
    "camera": {
        "frame": ("uint32", (), True),
        "distance": ("float32", (), True),
        "target": ("float32", (3,), True),
        "rotation": ("float32", (3,), True),
        "interpolation": ("uint8", (24,), False),
        "curves": ("uint8", (6, 4), False),
        "view_angle": ("uint32", (), False),
        "perspective": ("bool", (), False),
    },
    "light": {
        "frame": ("uint32", (), True),
        "color": ("float32", (3,), True),
        "direction": ("float32", (3,), True),
    },
    "self_shadow": {
        "frame": ("uint32", (), True),
        "mode": ("uint8", (), True),
        "distance": ("float32", (), True),
    },
    "property": {
        "frame": ("uint32", (), True),
        "visible": ("bool", (), False),
        "ik_enabled": ("bool", (-1,), False),
        "ik_present": ("bool", (-1,), False),
    },
}

# Columns that are lists of names rather than arrays.
NAME_LISTS = {"bones": "names", "morphs": "names", "property": "ik_names"}

ENCODINGS = ("shift_jis", "gbk", "utf-8")


def _shape_text(tail: Tuple[int, ...]) -> str:
    dims = ["N"] + ["K" if d < 0 else str(d) for d in tail]
    return "(" + ", ".join(dims) + (",)" if len(dims) == 1 else ")")


def _convert(where: str, value: Any, dtype: str, tail: Tuple[int, ...]) -> np.ndarray:
    """``value`` as a C-ordered array of ``dtype`` with the given trailing shape."""
    array = np.asarray(value)
    kind = array.dtype.kind
    target = np.dtype(dtype)
    if target.kind == "f":
        if kind not in "fiu":
            raise TypeError(f"{where}: expected numbers ({dtype}), got an array of {array.dtype}")
    elif target.kind == "u":
        if kind not in "iu":
            raise TypeError(f"{where}: expected integers ({dtype}), got an array of {array.dtype}")
        if array.size:
            low, high = array.min(), array.max()
            limit = np.iinfo(target).max
            if low < 0 or high > limit:
                bad = low if low < 0 else high
                raise ValueError(f"{where}: {bad} is outside the range of {dtype} (0..{limit})")
    elif target.kind == "b":
        if kind == "b":
            pass
        elif kind in "iu" and (array.size == 0 or bool(np.isin(array, (0, 1)).all())):
            pass
        else:
            raise TypeError(f"{where}: expected booleans, got an array of {array.dtype}")
    expected_ndim = 1 + len(tail)
    fixed = tuple(d for d in tail if d >= 0)
    if array.ndim != expected_ndim or tuple(
        s for s, d in zip(array.shape[1:], tail) if d >= 0
    ) != fixed:
        raise ValueError(f"{where}: expected shape {_shape_text(tail)}, got {array.shape}")
    return np.ascontiguousarray(array, dtype=target)


def _names(where: str, value: Any) -> list:
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{where}: expected a list of names, not one name")
    names = list(value)
    for name in names:
        if not isinstance(name, (str, bytes)):
            raise TypeError(f"{where}: names are str or bytes, not {type(name).__name__}")
    return names


def _section(section: str, value: Any) -> Dict[str, Any]:
    spec = SECTIONS[section]
    if not isinstance(value, Mapping):
        to_dict = getattr(value, "to_dict", None)
        if to_dict is None:
            raise TypeError(
                f"{section}: expected a mapping of column names to arrays, "
                f"got {type(value).__name__}"
            )
        value = to_dict()
    names_key = NAME_LISTS.get(section)
    allowed = set(spec) | ({names_key} if names_key else set())
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise ValueError(
            f"{section}: unknown column {', '.join(map(repr, unknown))} "
            f"(columns: {', '.join(sorted(allowed))})"
        )
    out: Dict[str, Any] = {}
    rows: Optional[int] = None
    for column, (dtype, tail, required) in spec.items():
        if column not in value or value[column] is None:
            if required:
                raise ValueError(f"{section}: the column {column!r} is required")
            continue
        array = _convert(f"{section}.{column}", value[column], dtype, tail)
        if rows is None:
            rows = array.shape[0]
        elif array.shape[0] != rows:
            raise ValueError(
                f"{section}.{column}: {array.shape[0]} rows, but the other columns have {rows}"
            )
        out[column] = array
    if names_key and value.get(names_key) is not None:
        out[names_key] = _names(f"{section}.{names_key}", value[names_key])
    _check_names(section, out)
    return out


def _check_names(section: str, out: Dict[str, Any]) -> None:
    if section in ("bones", "morphs"):
        has_index = "name_index" in out
        if has_index != ("names" in out):
            raise ValueError(f"{section}: 'names' and 'name_index' go together")
        if not has_index and "name_fields" not in out:
            raise ValueError(f"{section}: give 'names' and 'name_index', or 'name_fields'")
        if has_index and out["name_index"].size and out["name_index"].max() >= len(out["names"]):
            raise ValueError(
                f"{section}.name_index: {out['name_index'].max()} is not an index into the "
                f"{len(out['names'])} names"
            )
        if section == "bones" and "interpolation" in out and "curves" in out:
            raise ValueError("bones: give 'interpolation' or 'curves', not both")
    if section == "camera" and "interpolation" in out and "curves" in out:
        raise ValueError("camera: give 'interpolation' or 'curves', not both")
    if section == "property":
        k = len(out.get("ik_names", []))
        for column in ("ik_enabled", "ik_present"):
            if column in out and out[column].shape[1] != k:
                raise ValueError(
                    f"property.{column}: {out[column].shape[1]} columns, but there are "
                    f"{k} ik_names"
                )
        if k and "ik_enabled" not in out:
            raise ValueError("property: 'ik_names' needs 'ik_enabled'")


def prepare(model_name: Any, encoding: str, sections: Mapping[str, Any]) -> Dict[str, Any]:
    """The checked arguments of ``Motion.from_arrays``: each given section's columns."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding is one of {', '.join(ENCODINGS)}, not {encoding!r}")
    if not isinstance(model_name, (str, bytes)):
        raise TypeError(f"model_name is str or bytes, not {type(model_name).__name__}")
    out: Dict[str, Any] = {}
    for section, value in sections.items():
        if value is not None:
            out[section] = _section(section, value)
    return out
