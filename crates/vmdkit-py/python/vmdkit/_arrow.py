"""Motions as Apache Arrow tables (``Motion.to_arrow``, ``read_many``); pyarrow is optional.

pyarrow is imported on first use, so that the package works without it; a call that needs it
raises ImportError saying how to install it.

Tables, one per section, with a row per key in file order:

* ``bone``: ``frame`` uint32, ``name`` dictionary<int32, string>, ``position``
  fixed_size_list<float32>[3], ``rotation`` fixed_size_list<float32>[4] (x, y, z, w),
  ``interpolation`` fixed_size_list<uint8>[64];
* ``morph``: ``frame``, ``name``, ``weight`` float32;
* ``camera``: ``frame``, ``distance`` float32, ``target`` and ``rotation``
  fixed_size_list<float32>[3], ``interpolation`` fixed_size_list<uint8>[24], ``view_angle``
  uint32, ``perspective`` bool;
* ``light``: ``frame``, ``color`` and ``direction`` fixed_size_list<float32>[3];
* ``self_shadow``: ``frame``, ``mode`` uint8, ``distance`` float32;
* ``property``: ``frame``, ``visible`` bool, ``ik`` list<struct<name: string, enabled: bool>>.

``read_many`` puts a ``path`` column (dictionary<int32, string>) first in each, and adds a
``files`` table with one row per path given, damaged or not.
"""

from __future__ import annotations

import importlib
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Iterable, List, Optional, Union

import numpy as np

from ._vmdkit import Motion, ReadError, VmdError, read

PathLike = Union[str, "os.PathLike[str]"]

SECTIONS = ("bone", "morph", "camera", "light", "self_shadow", "property")


def _pyarrow() -> Any:
    # Through importlib: pyarrow has no type information, and only this module touches it.
    try:
        pyarrow = importlib.import_module("pyarrow")
    except ImportError as err:
        raise ImportError(
            "vmdkit's Arrow tables need pyarrow: pip install pyarrow (or ./crates/vmdkit-py[arrow] in a checkout)"
        ) from err
    return pyarrow


def _fixed(pa: Any, array: np.ndarray) -> Any:
    """An (N, W) array as fixed_size_list[W], without copying the values."""
    width = array.shape[1]
    return pa.FixedSizeListArray.from_arrays(pa.array(array.reshape(-1)), width)


def _names(pa: Any, index: np.ndarray, names: List[str]) -> Any:
    indices = pa.array(index.astype(np.int32, copy=False))
    return pa.DictionaryArray.from_arrays(indices, pa.array(names, type=pa.string()))


def _ik(pa: Any, prop: Any) -> Any:
    present = np.asarray(prop.ik_present)
    k = present.shape[1]
    offsets = np.zeros(present.shape[0] + 1, dtype=np.int32)
    np.cumsum(present.sum(axis=1), out=offsets[1:])
    which = np.nonzero(present.reshape(-1))[0]
    names = pa.array(prop.ik_names, type=pa.string())
    if k:
        name_col = pa.DictionaryArray.from_arrays(pa.array((which % k).astype(np.int32)), names)
    else:
        name_col = pa.DictionaryArray.from_arrays(pa.array([], type=pa.int32()), names)
    enabled = pa.array(np.asarray(prop.ik_enabled).reshape(-1)[which])
    entries = pa.StructArray.from_arrays([name_col, enabled], ["name", "enabled"])
    return pa.ListArray.from_arrays(pa.array(offsets), entries)


def motion_tables(motion: Motion) -> Dict[str, Any]:
    """The sections of ``motion`` as a dict of pyarrow tables (see the module docs)."""
    pa = _pyarrow()
    b, m, c = motion.bones, motion.morphs, motion.camera
    li, sh, pr = motion.light, motion.self_shadow, motion.property
    return {
        "bone": pa.table(
            {
                "frame": b.frame,
                "name": _names(pa, b.name_index, b.names),
                "position": _fixed(pa, b.position),
                "rotation": _fixed(pa, b.rotation),
                "interpolation": _fixed(pa, b.interpolation),
            }
        ),
        "morph": pa.table(
            {"frame": m.frame, "name": _names(pa, m.name_index, m.names), "weight": m.weight}
        ),
        "camera": pa.table(
            {
                "frame": c.frame,
                "distance": c.distance,
                "target": _fixed(pa, c.target),
                "rotation": _fixed(pa, c.rotation),
                "interpolation": _fixed(pa, c.interpolation),
                "view_angle": c.view_angle,
                "perspective": c.perspective,
            }
        ),
        "light": pa.table(
            {
                "frame": li.frame,
                "color": _fixed(pa, li.color),
                "direction": _fixed(pa, li.direction),
            }
        ),
        "self_shadow": pa.table({"frame": sh.frame, "mode": sh.mode, "distance": sh.distance}),
        "property": pa.table({"frame": pr.frame, "visible": pr.visible, "ik": _ik(pa, pr)}),
    }


def _read_one(path: PathLike, lenient: bool) -> Union[Motion, BaseException]:
    try:
        return read(path, lenient=lenient)
    except (VmdError, OSError) as err:
        return err


def _file_row(path: str, result: Union[Motion, BaseException]) -> Dict[str, Any]:
    row: Dict[str, Any] = {
        "path": path,
        "ok": isinstance(result, Motion),
        "error_type": None,
        "message": None,
        "section": None,
        "record": None,
        "offset": None,
        "model_name": None,
        "encoding": None,
        "repairs": [],
    }
    if isinstance(result, Motion):
        row["model_name"] = result.model_name
        row["encoding"] = result.encoding
        row["repairs"] = [r.message for r in result.repairs]
    else:
        row["error_type"] = type(result).__name__
        row["message"] = str(result)
        if isinstance(result, ReadError):
            row["section"] = getattr(result, "section", None)
            row["record"] = getattr(result, "record", None)
            row["offset"] = getattr(result, "offset", None)
    return row


def read_many(
    paths: Iterable[PathLike], *, lenient: bool = False, threads: Optional[int] = None
) -> Dict[str, Any]:
    """Reads many VMD files into one pyarrow table per section, plus a ``files`` table.

    Files are read in parallel on ``threads`` threads (default: one per CPU); reading releases
    the GIL. A file that cannot be read does not raise: its row in ``files`` has ``ok`` False
    and the error's type, message, and (for a ReadError) section, record and byte offset. The
    section tables (``bone``, ``morph``, ``camera``, ``light``, ``self_shadow``, ``property``,
    with the columns of ``Motion.to_arrow``) start with a ``path`` column and hold the keys of
    every file read, in the order of ``paths``. ``files`` has one row per path, in order:
    ``path``, ``ok``, ``error_type``, ``message``, ``section``, ``record``, ``offset``,
    ``model_name``, ``encoding`` and ``repairs`` (the messages of lenient reading's repairs).
    Needs pyarrow.
    """
    pa = _pyarrow()
    names = [os.fspath(p) for p in paths]
    workers = threads or os.cpu_count() or 1
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = list(pool.map(lambda p: _read_one(p, lenient), names))
    per_section: Dict[str, List[Any]] = {s: [] for s in SECTIONS}
    for path, result in zip(names, results):
        if not isinstance(result, Motion):
            continue
        for section, table in motion_tables(result).items():
            labels = pa.DictionaryArray.from_arrays(
                pa.array(np.zeros(table.num_rows, dtype=np.int32)), pa.array([path])
            )
            per_section[section].append(table.add_column(0, "path", labels))
    out: Dict[str, Any] = {}
    empty = motion_tables(Motion.from_arrays())
    for section in SECTIONS:
        tables = per_section[section]
        if not tables:
            labels = pa.array([], type=pa.dictionary(pa.int32(), pa.string()))
            tables = [empty[section].add_column(0, "path", labels)]
        out[section] = pa.concat_tables(tables)
    out["files"] = pa.Table.from_pylist(
        [_file_row(p, r) for p, r in zip(names, results)], schema=_files_schema(pa)
    )
    return out


def _files_schema(pa: Any) -> Any:
    return pa.schema(
        [
            ("path", pa.string()),
            ("ok", pa.bool_()),
            ("error_type", pa.string()),
            ("message", pa.string()),
            ("section", pa.string()),
            ("record", pa.uint64()),
            ("offset", pa.uint64()),
            ("model_name", pa.string()),
            ("encoding", pa.string()),
            ("repairs", pa.list_(pa.string())),
        ]
    )
