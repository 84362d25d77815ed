"""The sections as NumPy columns: counts, dtypes, shapes, and exactly the stored values."""

import numpy as np
import pytest

import vmdkit
import vmdref

COUNT_COLUMNS = {
    "bones": "bone",
    "morphs": "morph",
    "camera": "camera",
    "light": "light",
    "self_shadow": "shadow",
    "property": "property",
}


def test_section_counts_match_the_manifest(corpus_vmds):
    assert len(corpus_vmds) >= 100
    for path, entry in corpus_vmds:
        motion = vmdkit.read(path)
        for attr, column in COUNT_COLUMNS.items():
            section = getattr(motion, attr)
            expected = int(entry[column] or 0)
            assert len(section) == expected, (entry["local_path"], attr)
            assert section.frame.shape == (expected,)


def bits(a):
    """float32 values as their bits, so NaN payloads and -0.0 compare too."""
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


def test_columns_hold_exactly_the_stored_values(corpus_vmds):
    for path, entry in corpus_vmds:
        data = path.read_bytes()
        ref = vmdref.parse(data)
        motion = vmdkit.read(data)
        label = entry["local_path"]

        b, rb = motion.bones, ref["bone"]
        assert np.array_equal(b.frame, rb["frame"]), label
        assert np.array_equal(bits(b.position), bits(rb["position"])), label
        assert np.array_equal(bits(b.rotation), bits(rb["rotation"])), label
        assert np.array_equal(b.interpolation, rb["interpolation"]), label
        assert np.array_equal(b.name_fields, rb["name"]), label
        raw = b.names_raw
        assert [raw[i] for i in b.name_index] == [vmdref.name_bytes(n) for n in rb["name"]]
        assert motion.bone_names_raw == raw and len(set(raw)) == len(raw)

        m, rm = motion.morphs, ref["morph"]
        assert np.array_equal(m.frame, rm["frame"]), label
        assert np.array_equal(bits(m.weight), bits(rm["weight"])), label
        raw = m.names_raw
        assert [raw[i] for i in m.name_index] == [vmdref.name_bytes(n) for n in rm["name"]]

        c, rc = motion.camera, ref["camera"]
        assert np.array_equal(c.frame, rc["frame"]), label
        assert np.array_equal(bits(c.distance), bits(rc["distance"])), label
        assert np.array_equal(bits(c.target), bits(rc["target"])), label
        assert np.array_equal(bits(c.rotation), bits(rc["rotation"])), label
        assert np.array_equal(c.interpolation, rc["interpolation"]), label
        assert np.array_equal(c.view_angle, rc["view_angle"]), label
        assert np.array_equal(c.perspective, rc["perspective"] == 0), label

        li, rl = motion.light, ref["light"]
        assert np.array_equal(li.frame, rl["frame"]), label
        assert np.array_equal(bits(li.color), bits(rl["color"])), label
        assert np.array_equal(bits(li.direction), bits(rl["direction"])), label

        s, rs = motion.self_shadow, ref["self_shadow"]
        assert np.array_equal(s.frame, rs["frame"]), label
        assert np.array_equal(s.mode, rs["mode"]), label
        assert np.array_equal(bits(s.distance), bits(rs["distance"])), label

        p = motion.property
        assert p.frame.tolist() == [f for f, _, _ in ref["property"]], label
        assert p.visible.tolist() == [v != 0 for _, v, _ in ref["property"]], label
        names = p.ik_names_raw
        for row, (_, _, ik) in enumerate(ref["property"]):
            listed = {name: on != 0 for name, on in ik}
            for k, name in enumerate(names):
                assert p.ik_present[row, k] == (name in listed), label
                assert p.ik_enabled[row, k] == listed.get(name, False), label


def test_dtypes_and_shapes():
    data = vmdkit.read(EXAMPLE)
    b = data.bones
    assert (b.frame.dtype, b.name_index.dtype) == (np.uint32, np.uint32)
    assert (b.position.dtype, b.position.shape[1:]) == (np.float32, (3,))
    assert (b.rotation.dtype, b.rotation.shape[1:]) == (np.float32, (4,))
    assert (b.interpolation.dtype, b.interpolation.shape[1:]) == (np.uint8, (64,))
    assert (b.curves.dtype, b.curves.shape[1:]) == (np.uint8, (4, 4))
    assert (b.name_fields.dtype, b.name_fields.shape[1:]) == (np.uint8, (15,))
    c = data.camera
    assert c.interpolation.shape[1:] == (24,) and c.curves.shape[1:] == (6, 4)
    assert c.perspective.dtype == np.bool_ and c.view_angle.dtype == np.uint32
    p = data.property
    assert p.ik_enabled.shape == (len(p), len(p.ik_names)) and p.ik_enabled.dtype == np.bool_


def test_curves_come_from_their_own_rows(corpus_vmds):
    for path, _ in corpus_vmds[:30]:
        b = vmdkit.read(path).bones
        block = b.interpolation.reshape(-1, 4, 16)
        # Row c is the 16 curve bytes shifted left by c, so curve c's x1, y1, x2, y2 are at
        # bytes 0, 4, 8, 12 of its own row.
        for c in range(4):
            expected = block[:, c, [0, 4, 8, 12]]
            assert np.array_equal(b.curves[:, c, :], expected)


def test_arrays_are_read_only_and_cached():
    motion = vmdkit.read(EXAMPLE)
    frame = motion.bones.frame
    assert frame is motion.bones.frame
    with pytest.raises(ValueError):
        frame[0] = 7
    with pytest.raises(ValueError):
        frame.setflags(write=True)
    names = motion.bone_names
    names.append("x")
    assert motion.bone_names != names


def test_names_decode_with_the_detected_encoding(corpus_vmds, manifest):
    for path, entry in corpus_vmds:
        motion = vmdkit.read(path)
        assert motion.encoding in ("shift_jis", "gbk", "utf-8")
        assert len(motion.bone_names) == int(entry["unique_bones"] or 0), entry["local_path"]
        assert len(motion.morph_names) == int(entry["unique_morphs"] or 0), entry["local_path"]
        if entry["names_not_sjis"] == "0" and entry["model_name_sjis_ok"] == "yes":
            assert motion.encoding == "shift_jis"
            for name, raw in zip(motion.bone_names, motion.bone_names_raw):
                if len(raw) < 15:
                    assert name == raw.decode("cp932"), entry["local_path"]


def test_euler_is_the_panel_angles():
    # The reference's worked example: (0.176789, -0.061290, 0.747712, 0.637114) shows as
    # (18.4770, -11.3266, -100.9806) in MMD's panel.
    q = np.array([[0.176789, -0.061290, 0.747712, 0.637114]], dtype=np.float32)
    motion = vmdkit.Motion.from_arrays(
        bones={"frame": [0], "name_index": [0], "names": ["右ひじ"], "position": [[0, 0, 0]],
               "rotation": q}
    )
    angles = motion.euler()
    assert angles.shape == (1, 3) and angles.dtype == np.float64
    assert np.allclose(angles[0], [18.4770, -11.3266, -100.9806], atol=1e-3)


def test_motion_attributes():
    motion = vmdkit.read(EXAMPLE)
    assert motion.model_name == "example" and motion.model_name_raw == b"example"
    assert motion.version == 2 and not motion.is_camera_motion
    assert motion.frame_range == (0, 60)
    assert motion.repairs == [] and motion.report is None
    assert "Motion" in repr(motion) and "BoneArrays" in repr(motion.bones)
    camera = vmdkit.Motion.from_arrays(model_name="カメラ・照明")
    assert camera.is_camera_motion and camera.frame_range is None


def _example() -> bytes:
    """A small motion of every section, built through from_arrays."""
    motion = vmdkit.Motion.from_arrays(
        model_name="example",
        bones={
            "frame": [0, 30, 0, 60],
            "name_index": [0, 0, 1, 1],
            "names": ["センター", "右腕"],
            "position": np.arange(12, dtype=np.float32).reshape(4, 3),
            "rotation": [[0, 0, 0, 1]] * 4,
        },
        morphs={"frame": [0, 10], "name_index": [0, 0], "names": ["まばたき"], "weight": [0, 1]},
        camera={"frame": [0], "distance": [-45], "target": [[0, 10, 0]], "rotation": [[0, 0, 0]]},
        light={"frame": [0], "color": [[0.6, 0.6, 0.6]], "direction": [[-0.5, -1, 0.5]]},
        self_shadow={"frame": [0], "mode": [1], "distance": [0.1]},
        property={"frame": [0, 20], "visible": [True, False], "ik_names": ["右足ＩＫ"],
                  "ik_enabled": [[True], [False]]},
    )
    return motion.to_bytes()


EXAMPLE = _example()


def columns_of(motion):
    out = {}
    for attr in ("bones", "morphs", "camera", "light", "self_shadow", "property"):
        for column, value in getattr(motion, attr).to_dict().items():
            out[attr, column] = value if isinstance(value, list) else np.asarray(value).tobytes()
    return out


def test_columns_are_the_same_before_and_after_decoding(corpus_vmds, damaged_vmds):
    # A motion read from a file is decoded only when something needs the library's motion;
    # its columns come from the records until then, and from the decoded keys after.
    for path, _ in corpus_vmds[:40] + damaged_vmds:
        fresh = vmdkit.read(path, lenient=True)
        decoded = vmdkit.read(path, lenient=True)
        decoded.to_bytes()
        assert columns_of(fresh) == columns_of(decoded), path
        assert fresh.bone_names == decoded.bone_names and fresh.encoding == decoded.encoding


def test_a_file_too_large_to_read_whole_is_mapped(tmp_path):
    # Files of 64 MiB and more are memory-mapped: read as the small ones are, without a copy.
    n = 620_000
    motion = vmdkit.Motion.from_arrays(
        bones={
            "frame": np.arange(n, dtype=np.uint32),
            "name_index": np.arange(n, dtype=np.uint32) % 3,
            "names": ["センター", "右腕", "左腕"],
            "position": np.random.default_rng(1).random((n, 3), dtype=np.float32),
            "rotation": np.tile(np.array([0, 0, 0, 1], np.float32), (n, 1)),
        }
    )
    path = tmp_path / "large.vmd"
    vmdkit.write(motion, path)
    assert path.stat().st_size >= 64 << 20
    mapped = vmdkit.read(path)
    assert np.array_equal(mapped.bones.position, motion.bones.position)
    assert mapped.bone_names == ["センター", "右腕", "左腕"]
    assert mapped.to_bytes() == path.read_bytes()
    # Sampling decodes the mapped file; it plays as the motion it was made from.
    frames = np.array([0.0, 1.5, 1000.0])
    got, want = mapped.sample(frames), motion.sample(frames)
    assert all(np.array_equal(a, b) for a, b in zip(got, want))
