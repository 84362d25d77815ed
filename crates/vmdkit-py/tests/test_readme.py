"""The README's examples run, and print what it says, on corpus files it names generically."""

import doctest
import os
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

FILES = {
    "dance.vmd": "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd",
    "camera.vmd": "hashi4__vmdgadgets/sample__lookat__sm33053472__jewel_camera.vmd",
    "damaged.vmd": "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Expression__"
    "mei_happiness__mei_happiness.vmd",
}


def test_readme_examples(corpus, tmp_path, monkeypatch):
    # Links, not copies: the corpus is read in place.
    for name, source in FILES.items():
        (tmp_path / name).symlink_to(corpus / source)
    monkeypatch.chdir(tmp_path)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(README), module_relative=False, optionflags=flags)
    assert result.attempted >= 40
    assert result.failed == 0
    assert sorted(os.listdir(tmp_path)) == sorted([*FILES, "smaller.vmd"])
