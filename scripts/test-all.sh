#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python package's pytest suite
# (which installs what it needs into .venv, see scripts/python-tests.sh). The glTF tests run
# node checkers installed first into tools/js (scripts/js-tests.sh); they and the browser tests
# need node, npm and Chromium, which scripts/system-deps.sh installs when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/system-deps.sh
scripts/js-tests.sh
cargo test --workspace --locked
scripts/python-tests.sh
