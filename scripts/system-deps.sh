#!/usr/bin/env bash
# The system programs the tests run: node and npm (the glTF checkers, scripts/js-tests.sh) and
# Chromium (three.js loading the GLBs, crates/vmdkit-cli/tests/it/gltf*.rs, and the HTML player,
# crates/vmdkit-cli/tests/it/view.rs). Installs what is missing with apt-get when run as root on
# Debian; otherwise names what is missing and fails.
set -euo pipefail
missing=""
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
[ -x /usr/bin/chromium ] || [ -n "${CHROMIUM:-}" ] || missing="$missing chromium"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
  else
    echo "FATAL: the tests need:$missing (install them, or run as root on Debian)" >&2
    exit 1
  fi
fi
