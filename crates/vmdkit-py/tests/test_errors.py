"""Errors: damaged files raise ReadError with where; lenient reading says what it repaired."""

import pytest

import vmdkit

# The manifest's `errors` column names sections as the manifest's count columns do.
SECTION_OF_MANIFEST = {
    "bone": "bone",
    "morph": "morph",
    "camera": "camera",
    "light": "light",
    "shadow": "self_shadow",
    "property": "property",
}
REPAIR_KINDS = {"unknown_signature", "undercounted", "truncated", "cut_count", "discarded",
                "rejected"}


def test_damaged_corpus_files_raise_with_their_location(damaged_vmds):
    assert len(damaged_vmds) >= 3
    for path, entry in damaged_vmds:
        size = path.stat().st_size
        with pytest.raises(vmdkit.ReadError) as info:
            vmdkit.read(path)
        err = info.value
        assert isinstance(err, vmdkit.VmdError) and isinstance(err, Exception)
        assert err.path == str(path)
        first = entry["errors"].split()[0]
        assert err.section == SECTION_OF_MANIFEST.get(first), entry["local_path"]
        assert 0 <= err.offset <= size
        assert err.record is None or err.record >= 0
        assert f"byte offset {err.offset}" in str(err)
        assert str(path) in str(err)
        # The same bytes without a path: same place, no path.
        with pytest.raises(vmdkit.ReadError) as info:
            vmdkit.read(path.read_bytes())
        assert (info.value.path, info.value.section, info.value.offset) == (
            None,
            err.section,
            err.offset,
        )


def test_lenient_reading_shows_its_repairs(damaged_vmds):
    for path, entry in damaged_vmds:
        motion = vmdkit.read(path, lenient=True)
        repairs = motion.repairs
        assert repairs, entry["local_path"]
        for r in repairs:
            assert r.kind in REPAIR_KINDS
            assert r.details["kind"] == r.kind
            assert r.section is None or r.section in SECTION_OF_MANIFEST.values()
            assert r.message and r.message in repr(r) and str(r) == r.message
        if entry["quirk"].endswith("records follow"):
            section = SECTION_OF_MANIFEST[entry["quirk"].split()[0]]
            fixed = [r for r in repairs if r.kind == "undercounted"]
            assert [r.section for r in fixed] == [section], entry["local_path"]
            assert fixed[0].details["declared"] == 0 and fixed[0].details["recovered"] >= 1
        # Repairs come first among the warnings, one each.
        warnings = motion.warnings()
        assert [w.kind for w in warnings[: len(repairs)]] == ["repaired"] * len(repairs)
        # What lenient reading kept is written as a sound file.
        assert vmdkit.read(motion.to_bytes()).to_bytes() == motion.to_bytes()


def test_a_sound_file_read_leniently_has_no_repairs(corpus_vmds):
    path = corpus_vmds[0][0]
    assert vmdkit.read(path, lenient=True).repairs == []


def test_warnings_are_objects_with_kind_section_count_message():
    motion = vmdkit.Motion.from_arrays(
        bones={"frame": [5, 0, 0], "name_index": [0, 0, 0], "names": ["センター"],
               "position": [[0, 0, 0]] * 3, "rotation": [[0, 0, 0, 1], [0, 0, 0, 2], [0] * 4]}
    )
    warnings = motion.warnings()
    kinds = {w.kind for w in warnings}
    assert {"duplicate_keys", "unsorted_keys", "zero_quaternion"} <= kinds
    for w in warnings:
        assert w.section == "bone" and w.count >= 1 and w.message
        assert w.kind in repr(w) and str(w) == w.message


def test_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        vmdkit.read(tmp_path / "nothing.vmd")
    assert info.value.filename == str(tmp_path / "nothing.vmd")
    with pytest.raises(OSError) as info:
        vmdkit.read(tmp_path)
    assert info.value.errno is not None and info.value.filename == str(tmp_path)


def test_bad_arguments_are_type_errors():
    with pytest.raises(TypeError):
        vmdkit.read(42)
    with pytest.raises(TypeError):
        vmdkit.write(b"not a motion", "x.vmd")


def test_edit_errors(tmp_path):
    motion = vmdkit.Motion.from_arrays(
        morphs={"frame": [3], "name_index": [0], "names": ["あ"], "weight": [1]}
    )
    with pytest.raises(vmdkit.EditError, match="before frame 0"):
        motion.shift(-4)
    with pytest.raises(vmdkit.EditError, match="empty"):
        motion.trim(10, 2)
    with pytest.raises(vmdkit.EditError):
        motion.retime(0.0)
    with pytest.raises(vmdkit.EditError, match="cannot be encoded"):
        motion.rename(morphs={"あ": "😀"})
    assert issubclass(vmdkit.EditError, vmdkit.VmdError)
    with pytest.raises(ValueError):
        motion.reduce(position=-1)
    with pytest.raises(ValueError):
        motion.reduce(method="magic")


def test_write_errors_leave_nothing_behind(tmp_path):
    motion = vmdkit.Motion.from_arrays()
    with pytest.raises(FileNotFoundError):
        vmdkit.write(motion, tmp_path / "no" / "such" / "folder.vmd")
    with pytest.raises(IsADirectoryError):
        vmdkit.write(motion, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_panic_arrives_as_vmd_error():
    from vmdkit import _vmdkit

    with pytest.raises(vmdkit.VmdError, match="internal error.*boom"):
        _vmdkit._panic("boom")
