#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python package's pytest suite
# (which installs what it needs into .venv, see scripts/python-tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
scripts/python-tests.sh
