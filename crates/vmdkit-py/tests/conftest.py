"""Shared fixtures: the corpus of real files beside the repository (../shared/corpus).

Locally, tests that need it are skipped when it is missing; under CI=true they fail.
"""

import csv
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[3]
CORPUS = Path(os.environ.get("VMDKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
POSE = Path(os.environ.get("VMDKIT_POSE", ROOT.parent / "shared" / "pose"))


def _need(path: Path) -> Path:
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing (CI=true: tests never skip for missing data)")
        pytest.skip(f"{path} is missing")
    return path


@pytest.fixture(scope="session")
def corpus() -> Path:
    return _need(CORPUS)


@pytest.fixture(scope="session")
def manifest(corpus: Path) -> list:
    with open(corpus / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.fixture(scope="session")
def pose_dir() -> Path:
    return _need(POSE)


def _need_tool(name: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{name} is not available (CI=true: tests never skip for a missing tool)")
    pytest.skip(f"{name} is not available")


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `vmdkit` command: $VMDKIT_CLI, else built from this repository with cargo."""
    given = os.environ.get("VMDKIT_CLI")
    if given:
        return Path(given)
    cargo = shutil.which("cargo")
    if cargo is None:
        _need_tool("cargo (to build the vmdkit command)")
    # cargo names the binary it built in its JSON messages, wherever the target folder is.
    out = subprocess.run(
        [cargo, "build", "-q", "-p", "vmdkit-cli", "--message-format=json"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            if message["target"]["name"] == "vmdkit":
                return Path(message["executable"])
    pytest.fail("cargo built no vmdkit binary")


@pytest.fixture(scope="session")
def corpus_vmds(corpus: Path, manifest: list) -> list:
    """(path, manifest row) of every corpus VMD that parses."""
    return [
        (corpus / e["local_path"], e)
        for e in manifest
        if e["kind"] == "vmd" and e["parse_ok"] == "yes"
    ]


@pytest.fixture(scope="session")
def damaged_vmds(corpus: Path, manifest: list) -> list:
    """(path, manifest row) of every corpus VMD the manifest marks as damaged."""
    return [
        (corpus / e["local_path"], e)
        for e in manifest
        if e["kind"] == "vmd" and e["parse_ok"] != "yes"
    ]


@pytest.fixture(scope="session")
def largest_dance(corpus_vmds: list) -> Path:
    """The largest corpus VMD by bytes."""
    return max(corpus_vmds, key=lambda pe: int(pe[1]["bytes"]))[0]


@pytest.fixture(scope="session")
def vmdkit_cli(cli: Path):
    """A function running `vmdkit ARGS...` and returning its stdout (it must exit 0)."""

    def run(*args) -> str:
        done = subprocess.run(
            [str(cli), *map(str, args)], capture_output=True, text=True, encoding="utf-8"
        )
        assert done.returncode == 0, f"vmdkit {args}: {done.stderr}"
        return done.stdout

    return run
