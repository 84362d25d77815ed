"""Arrow tables: Motion.to_arrow and read_many (pyarrow is optional for the package)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import vmdkit


def _pyarrow():
    try:
        import pyarrow
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("pyarrow is not installed (CI=true: tests never skip for a missing tool)")
        pytest.skip("pyarrow is not installed")
    return pyarrow


def test_to_arrow_holds_the_columns(corpus):
    pa = _pyarrow()
    motion = vmdkit.read(corpus / "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd")
    tables = motion.to_arrow()
    assert list(tables) == ["bone", "morph", "camera", "light", "self_shadow", "property"]
    bone = tables["bone"]
    assert bone.num_rows == len(motion.bones)
    assert bone.schema.field("position").type == pa.list_(pa.float32(), 3)
    assert np.array_equal(
        np.asarray(bone["position"].combine_chunks().flatten()).reshape(-1, 3),
        motion.bones.position,
    )
    names = np.asarray(motion.bone_names, dtype=object)[motion.bones.name_index]
    assert bone["name"].to_pylist() == names.tolist()
    assert tables["morph"]["weight"].to_numpy().tolist() == motion.morphs.weight.tolist()


def test_property_ik_as_lists(corpus):
    _pyarrow()
    path = corpus / "mmdagent-ex__MMDAgent-EX/Release__AppData__motion__32_frustrated.vmd"
    motion = vmdkit.read(path)
    prop = motion.to_arrow()["property"]
    rows = prop["ik"].to_pylist()
    p = motion.property
    for i, row in enumerate(rows):
        listed = [name for k, name in enumerate(p.ik_names) if p.ik_present[i, k]]
        assert [e["name"] for e in row] == listed
        assert [e["enabled"] for e in row] == [
            bool(p.ik_enabled[i, k]) for k in range(len(p.ik_names)) if p.ik_present[i, k]
        ]


def test_read_many_reports_damaged_files(corpus_vmds, damaged_vmds, tmp_path):
    _pyarrow()
    good = [p for p, _ in corpus_vmds[:10]]
    bad = [p for p, _ in damaged_vmds]
    missing = tmp_path / "missing.vmd"
    paths = good[:5] + bad + [missing] + good[5:]
    tables = vmdkit.read_many(paths, threads=4)
    files = tables["files"].to_pylist()
    assert [f["path"] for f in files] == [str(p) for p in paths]
    for f in files:
        expected_ok = f["path"] in {str(p) for p in good}
        assert f["ok"] == expected_ok
    damaged = [f for f in files if f["path"] in {str(p) for p in bad}]
    assert all(f["error_type"] == "ReadError" and f["offset"] is not None for f in damaged)
    gone = files[len(good[:5]) + len(bad)]
    assert gone["error_type"] == "FileNotFoundError" and not gone["ok"]
    bones = tables["bone"]
    assert bones.num_rows == sum(len(vmdkit.read(p).bones) for p in good)
    counts = {}
    for path in bones["path"].to_pylist():
        counts[path] = counts.get(path, 0) + 1
    for p in good:
        assert counts.get(str(p), 0) == len(vmdkit.read(p).bones)
    lenient = vmdkit.read_many(bad, lenient=True)["files"].to_pylist()
    assert all(f["ok"] and f["repairs"] for f in lenient)


def test_read_many_of_nothing():
    _pyarrow()
    tables = vmdkit.read_many([])
    assert tables["files"].num_rows == 0 and tables["bone"].num_rows == 0
    assert tables["bone"].column_names[0] == "path"


def test_without_pyarrow_the_error_says_how_to_get_it():
    # A child interpreter where importing pyarrow fails, as if it were not installed.
    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "import vmdkit\n"
        "m = vmdkit.Motion.from_arrays()\n"
        "try:\n"
        "    m.to_arrow()\n"
        "except ImportError as e:\n"
        "    print('ImportError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("ImportError") and "pip install pyarrow" in out.stdout
