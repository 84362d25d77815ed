#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python package's pytest suite
# (which installs what it needs into .venv, see scripts/python-tests.sh). The glTF tests run
# node checkers installed first into tools/js (scripts/js-tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/js-tests.sh
cargo test --workspace --locked
scripts/python-tests.sh
