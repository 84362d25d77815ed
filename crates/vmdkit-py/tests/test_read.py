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
