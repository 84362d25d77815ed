"""Reading and writing: every corpus VMD round-trips byte for byte."""

import pytest

import vmdkit


def test_every_readable_corpus_vmd_round_trips(corpus, manifest):
    seen = 0
    for entry in manifest:
        if entry["kind"] != "vmd" or entry["parse_ok"] != "yes":
            continue
        path = corpus / entry["local_path"]
        motion = vmdkit.read(path)
        assert motion.to_bytes() == path.read_bytes(), entry["local_path"]
        assert vmdkit.read(path.read_bytes()).to_bytes() == path.read_bytes()
        assert vmdkit.read(bytearray(path.read_bytes())).to_bytes() == path.read_bytes()
        seen += 1
    assert seen >= 100


def test_a_damaged_file_raises_with_its_location():
    data = b"Vocaloid Motion Data 0002" + b"\0" * 5 + b"model".ljust(20, b"\0")
    data += (2**32 - 1).to_bytes(4, "little")
    with pytest.raises(vmdkit.ReadError) as info:
        vmdkit.read(data)
    err = info.value
    assert isinstance(err, vmdkit.VmdError)
    assert (err.section, err.record, err.offset) == ("bone", 0, 54)
    assert "byte offset 54" in str(err)


def test_write_is_read_back_byte_for_byte(corpus_vmds, tmp_path):
    for path, _ in corpus_vmds[:20]:
        motion = vmdkit.read(path)
        out = tmp_path / "out.vmd"
        vmdkit.write(motion, out)
        assert out.read_bytes() == path.read_bytes()
        vmdkit.write(motion, str(out))
        assert out.read_bytes() == path.read_bytes()
    # Only the output is left: the temporary file was renamed into place.
    assert [p.name for p in tmp_path.iterdir()] == ["out.vmd"]


def test_a_motion_pickles_as_its_bytes(corpus_vmds):
    import pickle

    motion = vmdkit.read(corpus_vmds[0][0])
    back = pickle.loads(pickle.dumps(motion))
    assert isinstance(back, vmdkit.Motion) and back.to_bytes() == motion.to_bytes()
