"""The README's examples run, and print what it says, on corpus files it names generically."""

import doctest
import html
import json
import os
import re
import subprocess
import sys
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


ROOT = Path(__file__).resolve().parents[3]
TUTORIAL = ROOT / "docs" / "python-tutorial.md"
# Every document that tells a user how to install the package.
INSTALL_DOCS = [README, ROOT / "README.md", ROOT / "docs" / "capture.md"]


def test_the_tutorial_runs(corpus, tmp_path, monkeypatch):
    # Issue 27: a tutorial page (read a motion into NumPy, pose it on a model, retarget
    # keypoints, write a VMD) whose code is run here, so it cannot drift from the package.
    (tmp_path / "dance.vmd").symlink_to(corpus / FILES["dance.vmd"])
    (tmp_path / "miku.pmx").symlink_to(
        corpus / "MMD-Blender__blender_mmd_tools" / "samples__pmx__初音ミク.pmx")
    monkeypatch.chdir(tmp_path)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(TUTORIAL), module_relative=False, optionflags=flags)
    assert result.attempted >= 15
    assert result.failed == 0
    assert (tmp_path / "retargeted.vmd").exists()
    for readme in (README, ROOT / "README.md"):
        assert "python-tutorial.md" in readme.read_text(encoding="utf-8"), readme


def _public_names(obj) -> list:
    return [n for n in dir(obj) if not n.startswith("_")]


def test_the_api_reference_documents_every_public_name(tmp_path):
    # Issue 27: Model, Model.pose, Pose, retarget and keypoints were documented only in the
    # type stubs. scripts/python-docs.sh builds a reference from the docstrings with pdoc;
    # built here, every public name of the package must be in it, with its docstring.
    import vmdkit
    from vmdkit import batch

    env = dict(os.environ, VMDKIT_VENV=sys.prefix)
    done = subprocess.run([str(ROOT / "scripts" / "python-docs.sh"), str(tmp_path)], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "vmdkit.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'id="([A-Za-z_][\w.]*)"', page))
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    missing = []
    for name in vmdkit.__all__:
        if name == "__version__":
            continue
        if name not in ids:
            missing.append(name)
        obj = getattr(vmdkit, name)
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            missing += [f"{name}.{m}" for m in _public_names(obj) if f"{name}.{m}" not in ids]
    assert not missing, f"not in the reference: {missing}"
    for name in ("Model.pose", "Model.save_world", "Pose", "retarget", "keypoints"):
        doc = getattr(vmdkit, name.split(".")[0])
        for part in name.split(".")[1:]:
            doc = getattr(doc, part)
        first = (doc.__doc__ or "").strip().splitlines()[0].replace("`", "")
        assert first and first[:40] in text, name
    batch_page = (tmp_path / "vmdkit" / "batch.html").read_text(encoding="utf-8")
    for name in ("convert", "convert_one", "find_motions", "RESULT_FIELDS"):
        assert f'id="{name}"' in batch_page, name
    assert "scripts/python-docs.sh" in README.read_text(encoding="utf-8")


def _install_commands() -> list:
    commands = []
    for doc in INSTALL_DOCS:
        for line in doc.read_text(encoding="utf-8").splitlines():
            for found in re.findall(r"pip install ([^`#;]+)", line):
                commands.append((doc.name, found.strip()))
    return commands


def test_install_commands_work_from_the_checkout():
    # Issue 27: the README said pip install "vmdkit[ray]" and "vmdkit[capture]", which fail
    # (the package is not on a package index). Every install command of the docs and of the
    # package's own messages names the checkout's folder and an extra it defines; pip accepts
    # each from the repository root (resolving the local project only: no index, no build).
    pyproject = (ROOT / "crates" / "vmdkit-py" / "pyproject.toml").read_text()
    section = pyproject.split("[project.optional-dependencies]")[1].split("\n[")[0]
    extras = set(re.findall(r"^(\w+) = \[", section, re.M))
    assert {"arrow", "ray", "capture"} <= extras, extras
    commands = _install_commands()
    sources = (ROOT / "crates" / "vmdkit-py" / "python" / "vmdkit").glob("*.py")
    for source in sources:
        code = source.read_text(encoding="utf-8")
        assert not re.search(r"\bvmdkit\[", code), f"{source.name} names an unpublished package"
        specs_in_code = re.findall(r"\./crates/vmdkit-py\[\w+\]", code)
        commands += [(source.name, spec) for spec in specs_in_code]
    specs = set()
    for where, command in commands:
        spec = command.split()[0].strip('"')
        if spec == "pyarrow":
            continue
        assert spec.startswith("./crates/vmdkit-py"), f"{where}: pip install {command}"
        extra = re.fullmatch(r"\./crates/vmdkit-py(?:\[(\w+)\])?", spec)
        assert extra, f"{where}: {spec}"
        assert extra.group(1) is None or extra.group(1) in extras, f"{where}: {spec}"
        specs.add(spec)
    assert {"./crates/vmdkit-py", "./crates/vmdkit-py[ray]",
            "./crates/vmdkit-py[capture]"} <= specs, specs
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    for spec in sorted(specs):
        done = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--no-index",
             "--no-build-isolation", "--quiet", "--report", "-", spec],
            cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{spec}: {done.stderr}"
        report = json.loads(done.stdout)
        assert [i["metadata"]["name"] for i in report["install"]] == ["vmdkit"], spec
    # The command-line install, near the top of the main README, and where it lands.
    main = (ROOT / "README.md").read_text(encoding="utf-8")
    install = main.index("cargo install --locked --path crates/vmdkit-cli")
    assert install < main.index("## Command line") and install < main.index("## Two commands")
    assert "~/.cargo/bin/vmdkit" in main
    assert 'name = "vmdkit"' in (ROOT / "crates" / "vmdkit-cli" / "Cargo.toml").read_text()
