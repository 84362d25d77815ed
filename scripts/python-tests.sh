#!/usr/bin/env bash
# Builds the Python package (crates/vmdkit-py) into a virtual environment .venv at the
# repository root, with its test dependencies from crates/vmdkit-py/requirements-test.txt,
# and runs its pytest suite. Extra arguments go to pytest.
#
# The package is installed the way a user installs it (`pip install crates/vmdkit-py`, which
# builds the Rust extension in release mode with maturin); the cargo target folder is shared
# with the workspace so that a rerun only rebuilds what changed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# maturin's build hooks call the maturin binary by name.
export PATH="${VMDKIT_VENV:-$root/.venv}/bin:$PATH"
venv=${VMDKIT_VENV:-$root/.venv}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
# The requirements pin the "capture" extra too (mediapipe, OpenCV), so that the tests of
# vmdkit.capture run: under CI=true a missing estimator fails them.
"$venv/bin/python" -m pip install --quiet -r crates/vmdkit-py/requirements-test.txt
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target} \
    "$venv/bin/python" -m pip install --quiet --no-build-isolation --force-reinstall --no-deps \
    ./crates/vmdkit-py
cd crates/vmdkit-py
exec "$venv/bin/python" -m pytest -q tests "$@"
