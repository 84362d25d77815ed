#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python package's pytest suite
# (which installs what it needs into .venv, see scripts/python-tests.sh). The glTF tests run
# node checkers installed first into tools/js (scripts/js-tests.sh); they and the browser tests
# need node, npm and Chromium, which scripts/system-deps.sh installs when they are missing.
# The library's physics_blender test runs Blender's Bullet from the bpy wheel in .venv-bpy (see
# scripts/python-tests.sh), whose Python cargo test gets as VMDKIT_BPY_PYTHON.
#
# The installs (npm, and pip into the Python environments) mostly wait on the disk and the
# network, so they run in the background while cargo compiles, and are joined before the
# tests that need them: any of them failing fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/system-deps.sh

logs=$(mktemp -d)
# An early failure stops the installs still running, too.
# (`|| true`: with nothing left to stop, kill fails, and under `set -e` that would be the
# script's status.)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$logs"' EXIT
scripts/python-tests.sh --prepare >"$logs/python" 2>&1 &
python_env=$!
scripts/python-tests.sh --prepare-bpy >"$logs/bpy" 2>&1 &
bpy_env=$!
scripts/js-tests.sh >"$logs/js" 2>&1 &
js=$!

# Waits for the background job $1 (named $2), failing with its output if it failed.
join() {
    if ! wait "$1"; then
        echo "FATAL: $2 failed:" >&2
        cat "$logs/$2" >&2
        exit 1
    fi
    cat "$logs/$2"
}

cargo test --workspace --locked --no-run
join "$js" js
# The library's physics_blender test runs Blender from .venv-bpy: joined before cargo test.
join "$bpy_env" bpy
bpy_venv=$(cd "${VMDKIT_BPY_VENV:-.venv-bpy}" && pwd)
VMDKIT_BPY_PYTHON=${VMDKIT_BPY_PYTHON:-$bpy_venv/bin/python} cargo test --workspace --locked
join "$python_env" python
# The Python tests compare against the `vmdkit` command: the one cargo test just built, rather
# than a second build with another feature set.
target=$(cd "${CARGO_TARGET_DIR:-target}" && pwd)
VMDKIT_CLI=${VMDKIT_CLI:-$target/debug/vmdkit} scripts/python-tests.sh
