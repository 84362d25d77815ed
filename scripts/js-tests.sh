#!/usr/bin/env bash
# Installs the JavaScript checkers of the glTF output into tools/js/node_modules from the
# committed lockfile (the Khronos glTF-Validator, @gltf-transform/core, three.js and
# playwright-core, which drives the system's Chromium: /usr/bin/chromium or $CHROMIUM); the
# Rust tests in crates/vmdkit-cli/tests/it/gltf*.rs run them under node. Needs node and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --prefix tools/js --no-audit --no-fund --loglevel=error
