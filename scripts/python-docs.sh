#!/usr/bin/env bash
# Builds the Python API reference from the package's docstrings (and its type stubs) with
# pdoc, into target/python-api/ or the folder given as $1; open vmdkit.html there. Uses the
# environment of scripts/python-tests.sh (.venv, or $VMDKIT_VENV), where pdoc is one of the
# test requirements: tests/test_readme.py runs this script, so the reference cannot go stale.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${VMDKIT_VENV:-$root/.venv}
out=${1:-$root/target/python-api}
"$venv/bin/python" -m pdoc --docformat markdown -o "$out" vmdkit vmdkit.batch vmdkit.capture
echo "$out/vmdkit.html"
