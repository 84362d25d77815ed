"""Motion.from_arrays: arrays → motion → bytes → motion gives back the arrays, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import vmdkit

NAMES = ["センター", "右腕", "左足ＩＫ", "まばたき", "a", "Bone_01", "上半身2", "右ひじ"]


def f32_bits(shape):
    """float32 arrays of any bits: NaN payloads, infinities, -0.0 and denormals included."""
    return hnp.arrays(np.uint32, shape).map(lambda a: a.view(np.float32))


def names():
    # Text names are encoded; raw names are bytes up to 15 without NUL.
    raw = st.binary(min_size=0, max_size=15).filter(lambda b: b"\0" not in b)
    return st.lists(st.one_of(st.sampled_from(NAMES), raw), min_size=1, max_size=6)


def keyed_columns(draw, most):
    """The columns every named section has: up to `most` frames and indices into its names."""
    n = draw(st.integers(0, most))
    table = draw(names())
    return n, {
        "frame": draw(hnp.arrays(np.uint32, n)),
        "name_index": draw(hnp.arrays(np.uint32, n, elements=st.integers(0, len(table) - 1))),
        "names": table,
    }


@st.composite
def bone_columns(draw):
    n, columns = keyed_columns(draw, 12)
    return {
        **columns,
        "position": draw(f32_bits((n, 3))),
        "rotation": draw(f32_bits((n, 4))),
        "interpolation": draw(hnp.arrays(np.uint8, (n, 64))),
    }


@st.composite
def morph_columns(draw):
    n, columns = keyed_columns(draw, 8)
    return {
        **columns,
        "weight": draw(f32_bits(n)),
    }


@st.composite
def camera_columns(draw):
    n = draw(st.integers(0, 5))
    return {
        "frame": draw(hnp.arrays(np.uint32, n)),
        "distance": draw(f32_bits(n)),
        "target": draw(f32_bits((n, 3))),
        "rotation": draw(f32_bits((n, 3))),
        "interpolation": draw(hnp.arrays(np.uint8, (n, 24))),
        "view_angle": draw(hnp.arrays(np.uint32, n)),
        "perspective": draw(hnp.arrays(np.bool_, n)),
    }


@st.composite
def other_columns(draw):
    n, m, p = draw(st.integers(0, 4)), draw(st.integers(0, 4)), draw(st.integers(0, 4))
    ik = draw(st.lists(st.sampled_from(NAMES), max_size=4, unique=True))
    present = draw(hnp.arrays(np.bool_, (p, len(ik))))
    enabled = draw(hnp.arrays(np.bool_, (p, len(ik)))) & present
    return {
        "light": {
            "frame": draw(hnp.arrays(np.uint32, n)),
            "color": draw(f32_bits((n, 3))),
            "direction": draw(f32_bits((n, 3))),
        },
        "self_shadow": {
            "frame": draw(hnp.arrays(np.uint32, m)),
            "mode": draw(hnp.arrays(np.uint8, m)),
            "distance": draw(f32_bits(m)),
        },
        "property": {
            "frame": draw(hnp.arrays(np.uint32, p)),
            "visible": draw(hnp.arrays(np.bool_, p)),
            "ik_names": ik,
            "ik_enabled": enabled,
            "ik_present": present,
        },
    }


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == np.float32:
        a, b = a.view(np.uint32), np.ascontiguousarray(b, dtype=np.float32).view(np.uint32)
    return a.shape == b.shape and np.array_equal(a, b)


def raw_of(name):
    return name if isinstance(name, bytes) else name.encode("cp932")


def check_named(section, given, key_columns):
    assert [section.names_raw[i] for i in section.name_index] == [
        raw_of(given["names"][i]) for i in given["name_index"]
    ]
    for column in key_columns:
        assert same(getattr(section, column), given[column]), column


@settings(max_examples=150, deadline=None)
@given(bone_columns(), morph_columns(), camera_columns(), other_columns())
def test_arrays_round_trip_through_bytes(bones, morphs, camera, others):
    motion = vmdkit.Motion.from_arrays(
        model_name="モデル", bones=bones, morphs=morphs, camera=camera, **others
    )
    data = motion.to_bytes()
    back = vmdkit.read(data)
    assert back.to_bytes() == data
    assert back.model_name_raw == "モデル".encode("cp932")
    check_named(back.bones, bones, ["frame", "position", "rotation", "interpolation"])
    check_named(back.morphs, morphs, ["frame", "weight"])
    for column, values in camera.items():
        assert same(getattr(back.camera, column), values), column
    for section in ("light", "self_shadow"):
        for column, values in others[section].items():
            assert same(getattr(getattr(back, section), column), values), (section, column)
    prop, given_prop = back.property, others["property"]
    assert same(prop.frame, given_prop["frame"]) and same(prop.visible, given_prop["visible"])
    # The file holds the IK names keys list, in the order they first appear key by key.
    listed = []
    for row in given_prop["ik_present"]:
        listed += [k for k in np.nonzero(row)[0] if k not in listed]
    assert prop.ik_names_raw == [raw_of(given_prop["ik_names"][k]) for k in listed]
    assert same(prop.ik_present, given_prop["ik_present"][:, listed])
    assert same(prop.ik_enabled, given_prop["ik_enabled"][:, listed])


def test_every_corpus_motion_rebuilds_from_its_arrays(corpus_vmds):
    for path, entry in corpus_vmds:
        motion = vmdkit.read(path)
        rebuilt = vmdkit.Motion.from_arrays(
            model_name=motion.model_name_raw,
            bones=motion.bones,
            morphs=motion.morphs,
            camera=motion.camera,
            light=motion.light,
            self_shadow=motion.self_shadow,
            property=motion.property,
        )
        for attr in ("bones", "morphs", "camera", "light", "self_shadow", "property"):
            a, b = getattr(motion, attr).to_dict(), getattr(rebuilt, attr).to_dict()
            assert a.keys() == b.keys()
            for column in a:
                if isinstance(a[column], list):
                    assert a[column] == b[column], (entry["local_path"], attr, column)
                else:
                    assert same(a[column], b[column]), (entry["local_path"], attr, column)


def test_curves_build_mmd_blocks():
    curves = np.array([[[20, 20, 107, 107]] * 4, [[10, 20, 30, 40], [1, 2, 3, 4],
                                                  [5, 6, 7, 8], [9, 10, 11, 12]]], np.uint8)
    motion = vmdkit.Motion.from_arrays(
        bones={"frame": [0, 1], "name_index": [0, 0], "names": ["a"],
               "position": np.zeros((2, 3)), "rotation": [[0, 0, 0, 1]] * 2, "curves": curves}
    )
    assert np.array_equal(motion.bones.curves, curves)
    # No curves given: MMD's linear block.
    plain = vmdkit.Motion.from_arrays(
        bones={"frame": [0], "name_index": [0], "names": ["a"], "position": [[0, 0, 0]],
               "rotation": [[0, 0, 0, 1]]}
    )
    assert np.array_equal(plain.bones.interpolation[0], motion.bones.interpolation[0])
    camera = vmdkit.Motion.from_arrays(
        camera={"frame": [0], "distance": [-45], "target": [[0, 10, 0]],
                "rotation": [[0, 0, 0]], "curves": np.arange(24, dtype=np.uint8).reshape(1, 6, 4)}
    )
    assert np.array_equal(camera.camera.curves[0], np.arange(24).reshape(6, 4))
    assert camera.camera.view_angle[0] == 30 and camera.camera.perspective[0]


def test_name_fields_keep_the_bytes_after_the_nul():
    field = np.frombuffer(b"abc\0" + b"\x55" * 11, np.uint8).reshape(1, 15)
    motion = vmdkit.Motion.from_arrays(
        morphs={"name_fields": field, "frame": [0], "weight": [0.5]}
    )
    assert motion.morph_names_raw == [b"abc"]
    assert np.array_equal(motion.morphs.name_fields, field)
    assert bytes(field[0]) in motion.to_bytes()
    with pytest.raises(ValueError, match="names another"):
        vmdkit.Motion.from_arrays(
            morphs={"name_fields": field, "frame": [0], "weight": [0.5], "names": ["x"],
                    "name_index": [0]}
        )


BONE = {"frame": [0], "name_index": [0], "names": ["a"], "position": [[0, 0, 0]],
        "rotation": [[0, 0, 0, 1]]}


@pytest.mark.parametrize(
    "change, error, message",
    [
        ({"frame": ["x"]}, TypeError, r"bones.frame: expected integers"),
        ({"frame": [0.5]}, TypeError, r"bones.frame: expected integers"),
        ({"frame": [-1]}, ValueError, r"outside the range of uint32"),
        ({"frame": [2**32]}, ValueError, r"outside the range of uint32"),
        ({"position": [[0, 0]]}, ValueError, r"bones.position: expected shape \(N, 3\)"),
        ({"position": [0, 0, 0]}, ValueError, r"bones.position: expected shape"),
        ({"position": [["a", "b", "c"]]}, TypeError, r"expected numbers"),
        ({"rotation": [[0, 0, 0, 1]] * 2}, ValueError, r"2 rows, but the other columns have 1"),
        ({"name_index": [1]}, ValueError, r"not an index into the 1 names"),
        ({"names": ["とても長い名前のボーンです"]}, ValueError, r"more than the field's 15 bytes"),
        ({"names": ["😀"]}, ValueError, r"cannot be written in shift_jis"),
        ({"names": [b"a\0b"]}, ValueError, r"without NUL"),
        ({"names": "a"}, TypeError, r"a list of names"),
        ({"names": [3]}, TypeError, r"str or bytes"),
        ({"speed": [1]}, ValueError, r"unknown column 'speed'"),
        ({"position": None}, ValueError, r"'position' is required"),
        ({"curves": np.zeros((1, 4, 4), np.uint8), "interpolation": np.zeros((1, 64), np.uint8)},
         ValueError,
         r"not both"),
    ],
)
def test_bad_columns_are_refused_clearly(change, error, message):
    columns = {**BONE, **change}
    with pytest.raises(error, match=message):
        vmdkit.Motion.from_arrays(bones=columns)


def test_other_bad_arguments():
    with pytest.raises(TypeError, match="mapping"):
        vmdkit.Motion.from_arrays(bones=[1, 2, 3])
    with pytest.raises(ValueError, match="encoding"):
        vmdkit.Motion.from_arrays(encoding="latin-1")
    with pytest.raises(TypeError, match="model_name"):
        vmdkit.Motion.from_arrays(model_name=5)
    with pytest.raises(ValueError, match="ik_names"):
        vmdkit.Motion.from_arrays(property={"frame": [0], "ik_names": ["a"]})
    with pytest.raises(ValueError, match="2 columns, but there are 1"):
        vmdkit.Motion.from_arrays(
            property={"frame": [0], "ik_names": ["a"], "ik_enabled": [[True, False]]}
        )
    with pytest.raises(TypeError, match="booleans"):
        vmdkit.Motion.from_arrays(property={"frame": [0], "visible": [0.5]})


def test_other_encodings_and_an_empty_motion():
    # The encoding only says how to encode str names: a motion's encoding is always detected
    # from its bytes, as a reader of the file finds it. 张嘴 in GBK is not valid CP932.
    motion = vmdkit.Motion.from_arrays(
        model_name="模型", encoding="gbk",
        morphs={"frame": [0], "name_index": [0], "names": ["张嘴"], "weight": [1.0]},
    )
    assert motion.encoding == "gbk" and motion.morph_names == ["张嘴"]
    assert motion.model_name_raw == "模型".encode("gbk") and motion.model_name == "模型"
    empty = vmdkit.Motion.from_arrays()
    assert len(empty.bones) == 0 and empty.bones.position.shape == (0, 3)
    assert vmdkit.read(empty.to_bytes()).to_bytes() == empty.to_bytes()


@pytest.mark.parametrize("where", ["bones", "morphs", "ik_names", "model_name"])
def test_a_name_with_a_nul_is_refused_not_cut(where):
    name = "a\x00b"
    bones = {"frame": [0], "names": ["c"], "name_index": [0], "position": [[0, 0, 0]],
             "rotation": [[0, 0, 0, 1]]}
    morphs = {"frame": [0], "names": ["c"], "name_index": [0], "weight": [1.0]}
    prop = {"frame": [0], "ik_names": ["c"], "ik_enabled": [[True]]}
    model_name = "m"
    if where == "bones":
        bones["names"] = [name]
    elif where == "morphs":
        morphs["names"] = [name]
    elif where == "ik_names":
        prop["ik_names"] = [name]
    else:
        model_name = name
    with pytest.raises(ValueError, match=r"'a\\x00b' cannot be written as it is: a NUL"):
        vmdkit.Motion.from_arrays(model_name=model_name, bones=bones, morphs=morphs,
                                  property=prop)


def test_more_keys_than_memory_raise_memory_error(bounded):
    # 2 M keys need about 0.5 GB of keys and columns, more than the child may map; given as
    # zero-stride arrays they cost the caller nothing.
    out = bounded("""
        n = 2_000_000
        vmdkit.Motion.from_arrays(bones={
            "frame": np.broadcast_to(np.uint32(0), (n,)),
            "names": ["a"],
            "name_index": np.broadcast_to(np.uint32(0), (n,)),
            "position": np.broadcast_to(np.float32(0), (n, 3)),
            "rotation": np.broadcast_to(np.float32(0), (n, 4)),
        })
    """)
    assert out["error"] == "MemoryError", out
