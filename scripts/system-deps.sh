#!/usr/bin/env bash
# The system programs the tests run: node and npm (the glTF checkers, scripts/js-tests.sh) and
# Chromium (three.js loading the GLBs, crates/vmdkit-cli/tests/it/gltf*.rs, and the HTML player,
# crates/vmdkit-cli/tests/it/view.rs), and the X11 and GL libraries that Blender's bpy wheel
# links against even when it draws nothing (.venv-bpy, for the physics comparison with Blender's
# Bullet, crates/vmdkit/tests/it/physics_blender.rs). Installs what is missing with apt-get when
# run as root on Debian; otherwise names what is missing and fails.
set -euo pipefail
missing=""
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
[ -x /usr/bin/chromium ] || [ -n "${CHROMIUM:-}" ] || missing="$missing chromium"
# bpy's own libraries come in its wheel; these are the system's it needs (ldd of its
# __init__.so). Chromium pulls in most of them, but bpy must not depend on that.
for lib in libx11-6 libxext6 libxrender1 libxfixes3 libxi6 libxxf86vm1 libxkbcommon0 libsm6 \
  libgl1; do
  dpkg-query -W -f='${Status}' "$lib" 2>/dev/null | grep -q 'ok installed' || missing="$missing $lib"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
  else
    echo "FATAL: the tests need:$missing (install them, or run as root on Debian)" >&2
    exit 1
  fi
fi
