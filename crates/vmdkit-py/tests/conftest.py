"""Shared fixtures: the corpus of real files beside the repository (../shared/corpus).

Locally, tests that need it are skipped when it is missing; under CI=true they fail.
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable, NoReturn

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


#: What a reproducer may take beyond an interpreter that has imported vmdkit and NumPy.
CHILD_LIMIT_MIB = 200

# Runs CODE (argv[1]) after importing vmdkit and NumPy, with the address space capped at what
# the interpreter has mapped by then plus argv[2] MiB (no cap when 0), so that an allocation
# past it fails at once instead of filling the machine; prints a JSON line with the exception
# CODE raised (or SystemExit's code) and the process's peak RSS (VmHWM).
_CHILD = """
import json, resource, sys
import numpy as np
import vmdkit

def status(field):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(field + ":")) * 1024

if int(sys.argv[2]):
    cap = status("VmSize") + int(sys.argv[2]) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
out = {"error": None, "message": None, "exit": None}
try:
    exec(sys.argv[1], {"np": np, "vmdkit": vmdkit})
except SystemExit as e:
    out["exit"] = e.code
except Exception as e:
    out.update(error=type(e).__name__, message=str(e))
# The peak RSS of this process's own memory: getrusage's ru_maxrss would include the RSS of
# the pytest process it was spawned from, which Linux carries across the exec.
out["maxrss_mib"] = status("VmHWM") / 2**20
print(json.dumps(out))
"""


def _run_child(code: str, cwd: Path, limit_mib: int) -> dict:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, textwrap.dedent(code), str(limit_mib)],
        cwd=cwd, capture_output=True, text=True, env=env, timeout=300,
    )
    # A child killed by a signal (an abort is -6) or dying in a traceback failed the test.
    assert done.returncode == 0, f"the child exited with {done.returncode}: {done.stderr[-3000:]}"
    out = json.loads(done.stdout.splitlines()[-1])
    out["stderr"] = done.stderr
    return out


@pytest.fixture(scope="session")
def child_baseline_mib(tmp_path_factory) -> float:
    """The peak RSS of an interpreter that only imports vmdkit and NumPy."""
    return _run_child("pass", tmp_path_factory.mktemp("baseline"), 0)["maxrss_mib"]


@pytest.fixture
def bounded(tmp_path: Path, child_baseline_mib: float) -> Callable[[str], dict]:
    """Runs a reproducer in a child interpreter in tmp_path (``np`` and ``vmdkit`` imported),
    its address space capped CHILD_LIMIT_MIB above what the imports mapped; asserts that it
    exits normally and that its peak RSS stays within CHILD_LIMIT_MIB of the baseline's.
    Returns the exception's ``error`` type name and ``message`` (None without one), or the
    ``exit`` code of a SystemExit."""

    def run(code: str) -> dict:
        out = _run_child(code, tmp_path, CHILD_LIMIT_MIB)
        grown = out["maxrss_mib"] - child_baseline_mib
        print(f"bounded: peak {out['maxrss_mib']:.0f} MiB, {grown:.0f} MiB over the baseline")
        assert grown <= CHILD_LIMIT_MIB, out
        return out

    return run
