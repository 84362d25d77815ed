"""Corpus-scale batch work: every motion of a folder or list converted to Parquet or NPZ, on
Ray Data or serially, with the same results.

This is not a scheduler: Ray Data spreads the files over the workers, on a laptop
(``ray.init()``) or on a cluster (``ray.init(address="ray://head:10001")``); without Ray the
same function runs in this process. Per file:

* ``kind="keys"``: the motion's keys as two Parquet files, ``<stem>.bone.parquet`` and
  ``<stem>.morph.parquet`` (the tables of ``Motion.to_arrow``, with a ``path`` column);
* ``kind="world"``: baked world joints on a model as ``<stem>.world.npz``, written by
  :meth:`vmdkit.Model.save_world`: the layout of ``vmdkit bake --model … -o x.npz`` (the
  same keys and metadata, MMD's own frame; docs/world-npz.md).

Outputs mirror the inputs' paths under ``out_dir``. Each is written to a temporary file and
renamed, and the file that completes an output (the bone table, or the NPZ) is written last, so
a rerun skips every finished file (``status="skipped"``) and redoes one that was cut short. A
file that cannot be read or converted comes back as a row with ``status="error"`` and the
exception's type, message and location, never as a failed job.

Ray is optional: ``pip install "./crates/vmdkit-py[ray]"`` in a checkout. pyarrow is needed for ``kind="keys"``.
"""

from __future__ import annotations

import importlib
import logging
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union


from ._files import not_a_file
from ._vmdkit import Model, read

PathLike = Union[str, "os.PathLike[str]"]

#: The columns of a result row, in order.
RESULT_FIELDS = (
    "path",
    "output",
    "status",
    "error_type",
    "message",
    "section",
    "offset",
    "keys",
)


def find_motions(source: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    """The ``*.vmd`` entries under a folder (recursively, sorted), or the paths given.

    Every entry named ``*.vmd`` is listed, also one that is not a file (a dangling link, a
    FIFO, a folder): converting it gives an error row that says what it is, rather than
    leaving it out without a word."""
    if isinstance(source, (str, os.PathLike)) and Path(source).is_dir():
        found = (p for p in Path(source).rglob("*") if p.suffix.lower() == ".vmd")
        return sorted(str(p) for p in found)
    if isinstance(source, (str, os.PathLike)):
        return [os.fspath(source)]
    return [os.fspath(p) for p in source]


def _output_of(path: str, root: Optional[str], out_dir: str, kind: str) -> str:
    # Absolute, as the root is: a relative folder ("in") must mirror too.
    src = Path(os.path.abspath(path))
    rel = src.relative_to(root) if root is not None else Path(src.name)
    suffix = ".bone.parquet" if kind == "keys" else ".world.npz"
    return str(Path(out_dir) / rel.with_name(rel.stem + suffix))


def _common_root(paths: List[str]) -> Optional[str]:
    """The folder the outputs mirror: the inputs' common folder, so that files of the same
    name in different folders get different outputs."""
    if not paths:
        return None
    return os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in paths])


def _atomic(path: str, write: Any) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


_MODELS: Dict[str, Model] = {}


def _model(path: Optional[str]) -> Model:
    # One read per worker process, not per file.
    key = path or ""
    if key not in _MODELS:
        _MODELS[key] = Model.read(path) if path else Model.standard()
    return _MODELS[key]


def _write_keys(motion: Any, path: str, output: str) -> int:
    pa = importlib.import_module("pyarrow")
    pq = importlib.import_module("pyarrow.parquet")
    tables = motion.to_arrow()
    written = 0
    # The morph table first: the bone table completes the output.
    for section, out in (("morph", output.replace(".bone.parquet", ".morph.parquet")),
                         ("bone", output)):
        table = tables[section]
        table = table.add_column(0, "path", pa.array([path] * table.num_rows, pa.string()))
        _atomic(out, lambda tmp, t=table: pq.write_table(t, tmp))
        written += table.num_rows
    return written


def _write_world(motion: Any, output: str, model: Optional[str], fps: float) -> int:
    # Model.save_world writes the layout of `vmdkit bake --model … -o x.npz`
    # (docs/world-npz.md), atomically (a temporary file beside it, renamed).
    os.makedirs(os.path.dirname(output), exist_ok=True)
    return int(_model(model).save_world(motion, output, fps=fps))


def _start_ray(ray: Any, verbose: bool) -> None:
    """Starts a local Ray: quiet (errors only, no forwarded worker logs) unless ``verbose``.
    Ray's startup lines (the local instance, token authentication being on) are logged at
    INFO and WARNING on the ``ray`` logger before ``ray.init`` sets its level, so that
    logger is raised for the call too."""
    if verbose:
        ray.init()
        return
    logger = logging.getLogger("ray")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        ray.init(logging_level=logging.ERROR, log_to_driver=False)
    finally:
        logger.setLevel(level)


@contextmanager
def _ray_data_quiet(ray: Any, verbose: bool) -> Iterator[None]:
    """Ray Data without its progress bars and execution logs (unless ``verbose``), restored
    afterwards: they are the caller's settings, not ours to keep."""
    if verbose:
        yield
        return
    context = ray.data.DataContext.get_current()
    saved = (context.enable_progress_bars, context.print_on_execution_start)
    logger = logging.getLogger("ray.data")
    level = logger.level
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        context.enable_progress_bars, context.print_on_execution_start = saved
        logger.setLevel(level)


def convert_one(
    row: Dict[str, Any],
    *,
    kind: str = "keys",
    model: Optional[str] = None,
    fps: float = 30.0,
    lenient: bool = False,
    overwrite: bool = False,
) -> Dict[str, Any]:
    """Converts the motion ``row["path"]`` to ``row["output"]``; returns the result row (see
    :data:`RESULT_FIELDS`). Never raises for a bad file: the error is in the row."""
    path, output = str(row["path"]), str(row["output"])
    result: Dict[str, Any] = {field: None for field in RESULT_FIELDS}
    result.update(path=path, output=output)
    if not overwrite and os.path.exists(output):
        result["status"] = "skipped"
        return result
    try:
        # A FIFO would block the read until something writes to it.
        refused = not_a_file(path, "a motion file")
        if refused is not None:
            raise refused
        motion = read(path, lenient=lenient)
        if kind == "keys":
            result["keys"] = _write_keys(motion, path, output)
        else:
            result["keys"] = _write_world(motion, output, model, fps)
        result["status"] = "ok"
    except Exception as err:  # a damaged file is a result, not a failed job
        result.update(
            status="error",
            error_type=type(err).__name__,
            message=str(err),
            section=getattr(err, "section", None),
            offset=getattr(err, "offset", None),
        )
    return result


def convert(
    source: Union[PathLike, Iterable[PathLike]],
    out_dir: PathLike,
    *,
    kind: str = "keys",
    model: Optional[PathLike] = None,
    fps: float = 30.0,
    lenient: bool = False,
    overwrite: bool = False,
    use_ray: bool = True,
    verbose: bool = False,
) -> List[Dict[str, Any]]:
    """Converts every motion of ``source`` (a folder, a path or a list of paths) into
    ``out_dir`` (see the module documentation); returns one result row per file, in the order
    of :func:`find_motions`.

    With ``use_ray`` the files are spread over a Ray cluster through Ray Data (``ray.init``
    is called with no address when Ray is not running yet, which starts a local one);
    otherwise they are converted here one after another, with the same results.

    Ray is quiet unless ``verbose``: a local Ray started here logs errors only and does not
    forward its workers' logs (``ray.init(logging_level=ERROR, log_to_driver=False)``), and
    Ray Data's progress and execution logs are off while the files convert. With ``verbose``
    Ray prints what it prints by default. A Ray you started yourself keeps its own settings.
    """
    if kind not in ("keys", "world"):
        raise ValueError(f"kind must be 'keys' or 'world', not {kind!r}")
    paths = find_motions(source)
    root = _common_root(paths)
    out = os.fspath(out_dir)
    rows = [{"path": p, "output": _output_of(p, root, out, kind)} for p in paths]
    options: Dict[str, Any] = dict(
        kind=kind,
        model=os.fspath(model) if model is not None else None,
        fps=fps,
        lenient=lenient,
        overwrite=overwrite,
    )
    if not use_ray:
        return [convert_one(r, **options) for r in rows]
    ray = importlib.import_module("ray")
    if not ray.is_initialized():
        _start_ray(ray, verbose)
    if not rows:
        return []
    with _ray_data_quiet(ray, verbose):
        dataset = ray.data.from_items(rows)
        results = dataset.map(lambda r: convert_one(r, **options)).take_all()
    order = {r["path"]: i for i, r in enumerate(rows)}
    results.sort(key=lambda r: order[r["path"]])
    return [{field: r.get(field) for field in RESULT_FIELDS} for r in results]
