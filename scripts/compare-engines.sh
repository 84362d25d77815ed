#!/usr/bin/env bash
# vmdkit's physics engine (rapier3d) against Bullet 3.25, MMD's engine (through the
# mmd-anim-physics-bullet crate, which builds its vendored Bullet with the C++ compiler), on the
# same scenes with the same conventions: the known-answer models of the physics tests and the
# corpus models with rigid bodies playing a dance. Prints the Markdown tables that
# docs/physics.md ("Choosing the engine") quotes.
#
#   scripts/compare-engines.sh [--scenes-only | --joints]
#
# --joints: per joint of 初音ミク, the worst limit excess (Euler XYZ, as Bullet reads limits) and
# anchor distance on each engine over 300 frames of three corpus dances.
#
# The tool, tools/engine-compare, is its own workspace with its own target folder, so that no
# project build or test ever compiles Bullet; its first build takes a few minutes of CPU. It
# runs pinned to one core (taskset, where there is one); the times are only as quiet as the
# machine is (the tool prints the load average). Needs a C++ compiler and the corpus
# (../shared/corpus, or $VMDKIT_CORPUS).
set -euo pipefail
cd "$(dirname "$0")/../tools/engine-compare"
cargo build --release --locked
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
"${pin[@]}" ./target/release/engine-compare "$@"
