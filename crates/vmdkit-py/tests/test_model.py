"""Models: the arrays of every corpus PMX and PMD against the `vmdkit` command's view of them."""

import json

import numpy as np
import pytest

import vmdkit

MIKU = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"
TRACE = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx"
# Its vertices store 2-byte bone indices where the header says 1 (see crates/vmdkit/tests/
# model_corpus.rs): the file is wrong, and reading it must say where.
MALFORMED = "yohawing__three-mmd-loader/test__fixtures__joint_orient_test.pmx"
ANIMASA_CSV = "miu200521358__VMD-3d-pose-baseline-multi__animasa_miku_semi_standard_born.csv"

# A motion with no keys: posed, every bone stays at rest.
EMPTY_VMD = b"Vocaloid Motion Data 0002".ljust(30, b"\0") + b"empty".ljust(20, b"\0") + bytes(8)


def corpus_models(corpus, manifest):
    """Every readable PMX and PMD of the corpus."""
    paths = [
        corpus / e["local_path"]
        for e in manifest
        if e["kind"] in ("pmx", "pmd") and e["local_path"] != MALFORMED
    ]
    assert len(paths) >= 12
    return paths


def test_every_corpus_model_matches_the_command(corpus, manifest, vmdkit_cli, tmp_path):
    empty = tmp_path / "empty.vmd"
    empty.write_bytes(EMPTY_VMD)
    example = tmp_path / "example.vmd"
    vmdkit_cli("example", "-o", example)
    for path in corpus_models(corpus, manifest):
        model = vmdkit.Model.read(path)
        bones = len(model)
        assert model.format == path.suffix[1:]
        assert model.parents.dtype == np.int32 and model.parents.shape == (bones,)
        assert model.rest_positions.dtype == np.float32
        assert model.rest_positions.shape == (bones, 3)
        assert ((model.parents >= -1) & (model.parents < bones)).all()
        # `pose --json` of a keyless motion without IK: the names and rest positions.
        doc = json.loads(vmdkit_cli("pose", "--model", path, empty, "--frame", 0, "--json",
                                    "--ik", "off"))
        assert model.bone_names == [b["name"] for b in doc["bones"]], path.name
        rest = np.array([b["position"] for b in doc["bones"]], dtype=np.float32).reshape(-1, 3)
        np.testing.assert_allclose(model.rest_positions, rest, atol=1e-4, err_msg=path.name)
        # The world bake's NPZ carries the parents (of a motion with bone keys: a keyless one
        # has nothing to pose and is refused).
        out = tmp_path / "rest.npz"
        vmdkit_cli("bake", example, "--fps", 30, "--model", path, "-o", out)
        with np.load(out) as npz:
            assert list(npz["names"]) == model.bone_names
            np.testing.assert_array_equal(model.parents, npz["parents"])
        # Bytes read as the path does.
        again = vmdkit.Model.read(path.read_bytes())
        assert again.bone_names == model.bone_names
        np.testing.assert_array_equal(again.rest_positions, model.rest_positions)


def test_names_and_text_of_known_models(corpus, pose_dir):
    miku = vmdkit.Model.read(corpus / MIKU)
    assert (miku.name, miku.name_en, miku.format) == ("初音ミク", "Miku Hatsune", "pmx")
    assert len(miku) == 122 and miku.bone_names[:2] == ["センター", "上半身"]
    assert miku.bone_index("右ひじ") == miku.bone_names.index("右ひじ")
    assert miku.bone_index("no such bone") is None
    assert isinstance(miku.comment, str) and isinstance(miku.comment_en, str)
    assert len(miku.bone_names_en) == 122
    assert "初音ミク" in repr(miku) and "122 bones" in repr(miku)
    csv = vmdkit.Model.read(pose_dir / ANIMASA_CSV)
    assert csv.format == "bone_csv" and "上半身2" in csv.bone_names
    standard = vmdkit.Model.standard()
    assert "センター" in standard.bone_names and standard.format == "pmx"


def test_unreadable_models_raise_model_errors(tmp_path, corpus):
    with pytest.raises(vmdkit.ModelError) as info:
        vmdkit.Model.read(b"Vocaloid Motion Data 0002" + bytes(40))
    err = info.value
    assert isinstance(err, vmdkit.VmdError)
    assert (err.section, err.offset, err.path) == ("header", 0, None)
    assert "a VMD motion file" in str(err)
    with pytest.raises(vmdkit.ModelError) as info:
        vmdkit.Model.read(corpus / MALFORMED)
    err = info.value
    assert (err.section, err.record, err.offset) == ("vertices", 13, 683)
    assert err.path == str(corpus / MALFORMED) and "unknown weight type 63" in str(err)
    # A cut PMX names the section and where.
    data = (corpus / MIKU).read_bytes()
    cut = tmp_path / "cut.pmx"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(vmdkit.ModelError) as info:
        vmdkit.Model.read(cut)
    assert info.value.path == str(cut) and str(cut) in str(info.value)
    assert info.value.section and info.value.offset > 0
    with pytest.raises(FileNotFoundError) as missing:
        vmdkit.Model.read(tmp_path / "missing.pmx")
    assert missing.value.filename == str(tmp_path / "missing.pmx")
    with pytest.raises(TypeError):
        vmdkit.Model.read(12)
