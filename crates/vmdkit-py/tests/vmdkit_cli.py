"""The `vmdkit` command, for tests that compare the Python package with it.

`$VMDKIT_CLI` names the binary; otherwise cargo builds it (a no-op after `cargo test
--workspace`, which scripts/test-all.sh runs first) and says where it is. Without either,
the tests that need it are skipped, except under CI=true, where they fail.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

WORKSPACE = Path(__file__).resolve().parents[3]


def _build() -> Path:
    if shutil.which("cargo") is None:
        raise FileNotFoundError("cargo is not on PATH")
    out = subprocess.run(
        ["cargo", "build", "--locked", "-q", "-p", "vmdkit-cli", "--message-format", "json"],
        cwd=WORKSPACE,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for line in out.splitlines():
        message = json.loads(line)
        target = message.get("target", {})
        if message.get("executable") and target.get("name") == "vmdkit" and "bin" in target.get(
            "kind", []
        ):
            return Path(message["executable"])
    raise FileNotFoundError("cargo built no vmdkit binary")


@pytest.fixture(scope="session")
def vmdkit_cli():
    """A function running `vmdkit ARGS...`, returning its stdout (it must exit 0)."""
    try:
        binary = Path(os.environ["VMDKIT_CLI"]) if "VMDKIT_CLI" in os.environ else _build()
    except (FileNotFoundError, subprocess.CalledProcessError) as err:
        detail = getattr(err, "stderr", None) or err
        if os.environ.get("CI") == "true":
            pytest.fail(f"the vmdkit command is needed under CI=true: {detail}")
        pytest.skip(f"no vmdkit command: {detail}")

    def run(*args) -> str:
        done = subprocess.run(
            [str(binary), *map(str, args)], capture_output=True, text=True, encoding="utf-8"
        )
        assert done.returncode == 0, f"vmdkit {args}: {done.stderr}"
        return done.stdout

    return run
