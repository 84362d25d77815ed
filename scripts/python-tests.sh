#!/usr/bin/env bash
# Builds the Python package (crates/vmdkit-py) into a virtual environment .venv at the
# repository root, with its test dependencies from crates/vmdkit-py/requirements-test.txt,
# and runs its pytest suite. Extra arguments go to pytest.
#
# The package is installed the way a user installs it (`pip install crates/vmdkit-py`, which
# builds the Rust extension in release mode with maturin); the cargo target folder is shared
# with the workspace so that a rerun only rebuilds what changed.
#
# The tests of vmdkit.capture (tests/test_capture.py) run in a second environment,
# .venv-capture, with the "capture" extra pinned in crates/vmdkit-py/requirements-capture.txt:
# its mediapipe needs NumPy 1, the other tests' pyarrow NumPy 2. Under CI=true a missing
# estimator fails them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}

# Makes the environment $1 from the requirements file $2 and installs the package into it.
install() {
    local venv=$1 requirements=$2
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -r "$requirements"
    # maturin's build hooks call the maturin binary by name.
    PATH="$venv/bin:$PATH" CARGO_TARGET_DIR=$target \
        "$venv/bin/python" -m pip install --quiet --no-build-isolation --force-reinstall \
        --no-deps ./crates/vmdkit-py
}

venv=${VMDKIT_VENV:-$root/.venv}
capture_venv=${VMDKIT_CAPTURE_VENV:-$root/.venv-capture}
install "$venv" crates/vmdkit-py/requirements-test.txt
install "$capture_venv" crates/vmdkit-py/requirements-capture.txt
cd crates/vmdkit-py
status=0
"$venv/bin/python" -m pytest -q tests --ignore tests/test_capture.py "$@" || status=$?
capture=0
"$capture_venv/bin/python" -m pytest -q tests/test_capture.py "$@" || capture=$?
# 5: arguments that select none of the capture tests.
if [ "$capture" -ne 0 ] && [ "$capture" -ne 5 ]; then
    status=$capture
fi
exit "$status"
