#!/usr/bin/env bash
# Fuzzes vmdkit's reader with cargo-fuzz (target fuzz/fuzz_targets/read.rs).
#
# Usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer args...]   (default 660 seconds)
#
# The seed corpus fuzz/corpus/read/ is filled at run time from the small VMDs of the shared
# corpus (../shared/corpus, or $VMDKIT_CORPUS). It, fuzz/artifacts/ and fuzz/target/ are
# git-ignored and must stay untracked: they hold other people's files and bytes derived from
# them. Logs go to $CARGO_TARGET_DIR/fuzz-logs, outside the repository.
#
# cargo-fuzz needs a nightly compiler for -Zsanitizer; the nightly toolchain is used when
# installed, otherwise the stable one with RUSTC_BOOTSTRAP=1.
#
# FUZZ_NO_BUILD=1 runs the binary the last build left in $CARGO_TARGET_DIR without rebuilding
# (for when the library is mid-edit and does not compile).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-660}
shift || true
corpus_src=${VMDKIT_CORPUS:-$root/../shared/corpus}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/target-fuzz}

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
    exit 1
fi
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    cargo=(cargo +nightly)
else
    export RUSTC_BOOTSTRAP=1
    cargo=(cargo)
fi

seeds=$root/fuzz/corpus/read
mkdir -p "$seeds" "$root/fuzz/artifacts/read"
if [ -d "$corpus_src" ]; then
    # Named by content, so reruns add nothing twice. Files up to 16 KiB keep runs fast.
    find "$corpus_src" -type f -iname '*.vmd' -size -16k -print0 |
        while IFS= read -r -d '' file; do
            cp "$file" "$seeds/seed-$(sha256sum "$file" | cut -c1-16)"
        done
else
    echo "no shared corpus at $corpus_src: fuzzing from what is in $seeds" >&2
fi
echo "seed corpus: $(find "$seeds" -type f | wc -l) files in $seeds" >&2

logs=$CARGO_TARGET_DIR/fuzz-logs
mkdir -p "$logs"
cd "$logs"  # libFuzzer writes fuzz-0.log (with -jobs) to the working directory
args=(-max_total_time="$seconds" -jobs=1 -workers=1 -print_final_stats=1
    -artifact_prefix="$root/fuzz/artifacts/read/" "$@")
if [ "${FUZZ_NO_BUILD:-0}" = 1 ]; then
    "$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release/read" "$seeds" "${args[@]}"
else
    "${cargo[@]}" fuzz run --fuzz-dir "$root/fuzz" read "$seeds" -- "${args[@]}"
fi
echo "log: $logs/fuzz-0.log" >&2
