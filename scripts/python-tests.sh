#!/usr/bin/env bash
# Builds the Python package (crates/vmdkit-py) into a virtual environment .venv at the
# repository root, with its test dependencies from crates/vmdkit-py/requirements-test.txt,
# and runs its pytest suite. Extra arguments go to pytest.
#
#   scripts/python-tests.sh --prepare   only makes the environments and installs their
#                                       requirements (no Rust build): scripts/test-all.sh runs
#                                       this in the background while cargo builds, since pip
#                                       mostly waits on the disk and the network.
#   scripts/python-tests.sh --prepare-bpy
#                                       only makes .venv-bpy (below), also in the background.
#
# The package is built as a user's `pip install crates/vmdkit-py` builds it (maturin, release
# mode), once, into a wheel that both environments install; the cargo target folder is shared
# with the workspace so that a rerun only rebuilds what changed. An environment whose
# requirements, or whose installed wheel, are those of the last run is not installed again.
#
# The tests of vmdkit.capture (tests/test_capture*.py) run in a second environment,
# .venv-capture, with the "capture" extra pinned in crates/vmdkit-py/requirements-capture.txt:
# its mediapipe needs NumPy 1, the other tests' pyarrow NumPy 2. Under CI=true a missing
# estimator fails them.
#
# A third environment, .venv-bpy, holds Blender as a Python module (bpy, pinned in
# scripts/requirements-bpy.txt; it needs CPython 3.11): the library's test physics_blender runs
# scripts/physics_blender.py with its Python to check vmdkit's physics against Blender's Bullet.
# scripts/test-all.sh makes it beside the cargo build and hands its Python to cargo test as
# VMDKIT_BPY_PYTHON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
venv=${VMDKIT_VENV:-$root/.venv}
capture_venv=${VMDKIT_CAPTURE_VENV:-$root/.venv-capture}
bpy_venv=${VMDKIT_BPY_VENV:-$root/.venv-bpy}

# Makes the environment $1 and installs the requirements file $2 into it, unless the file (and
# the Python that made the environment) are those it was last installed from.
prepare() {
    local venv=$1 requirements=$2 stamp=$1/.vmdkit-requirements
    local want
    want=$(cat "$requirements" <(python3 --version) | sha256sum)
    if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return
    fi
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -r "$requirements"
    echo "$want" >"$stamp"
}

# Installs the wheel $2 into the environment $1 unless that same wheel is installed there.
install_wheel() {
    local venv=$1 wheel=$2 stamp=$1/.vmdkit-wheel
    local want
    want=$(sha256sum <"$wheel")
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return
    fi
    "$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
    echo "$want" >"$stamp"
}

if [ "${1:-}" = "--prepare-bpy" ]; then
    prepare "$bpy_venv" scripts/requirements-bpy.txt
    # The wheel is Blender itself: a failed import here (a missing system library, a Python
    # other than 3.11) is said now, not as a test failure later.
    "$bpy_venv/bin/python" -c 'import bpy; print("bpy", bpy.app.version_string)'
    exit 0
fi

if [ "${1:-}" = "--prepare" ]; then
    # Both at once: each waits on pip's downloads and unpacking, not on the processor.
    prepare "$venv" crates/vmdkit-py/requirements-test.txt &
    test_env=$!
    prepare "$capture_venv" crates/vmdkit-py/requirements-capture.txt
    wait "$test_env"
    exit 0
fi

prepare "$venv" crates/vmdkit-py/requirements-test.txt
prepare "$capture_venv" crates/vmdkit-py/requirements-capture.txt
# One release build of the extension, as pip would make it, for both environments, into an
# emptied folder; cargo rebuilds only what changed, and an unchanged wheel is not reinstalled.
wheels=$target/python-wheels
rm -rf "$wheels"
CARGO_TARGET_DIR=$target "$venv/bin/maturin" build --quiet --release --locked \
    --manifest-path crates/vmdkit-py/Cargo.toml --out "$wheels"
wheel=$(ls "$wheels"/*.whl)
install_wheel "$venv" "$wheel"
install_wheel "$capture_venv" "$wheel"

cd crates/vmdkit-py
status=0
"$venv/bin/python" -m pytest -q tests --ignore-glob 'tests/test_capture*.py' "$@" || status=$?
capture=0
"$capture_venv/bin/python" -m pytest -q tests/test_capture*.py "$@" || capture=$?
# 5: arguments that select none of the capture tests.
if [ "$capture" -ne 0 ] && [ "$capture" -ne 5 ]; then
    status=$capture
fi
exit "$status"
