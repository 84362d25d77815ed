#!/usr/bin/env bash
# Peak memory (maximum resident set size, from /usr/bin/time) and time of the `vmdkit` commands
# that read big or padded inputs, for BENCHMARKS.md's "Memory" table:
#
#   scripts/bench-memory.sh [BEFORE_BINARY]
#
# Builds target/release/vmdkit, then runs each command 3 times (alternating with BEFORE_BINARY,
# e.g. a build of an older revision, when given) and prints the median peak, wall and CPU
# (user + system) time. The inputs are made in $VMDKIT_MEMORY_DIR (default /tmp/vmdkit-memory)
# from the corpus's wavefile_v2.vmd and deleted afterwards; they take about 5 GB at most.
#   padded.vmd  its 14,160 bone keys, then 2 GiB of trailing bytes (0, 1, ..., 255 repeated)
#   big.vmd     141 copies of its bone keys, each copy 2,810 frames later: 1,996,560 keys,
#               221,618,234 bytes; big.json and big.csv are `vmdkit convert` of it
#   half.vmd    its bone keys and 512 MiB of trailing bytes, with half.json and half.csv made
#               with --keep-trailing (the BEFORE binary makes its own, without the option)
set -euo pipefail
cd "$(dirname "$0")/.."
after="$PWD/target/release/vmdkit"
before="${1:+$(realpath "$1")}"
dir="${VMDKIT_MEMORY_DIR:-/tmp/vmdkit-memory}"
corpus="${VMDKIT_CORPUS:-$PWD/../shared/corpus}"
source="$corpus/takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd"
case "$(realpath -m "$dir")" in "$PWD"/*) echo "keep $dir outside the repository" >&2; exit 2 ;; esac
[ -f "$source" ] || { echo "no corpus file at $source (set VMDKIT_CORPUS)" >&2; exit 2; }
cargo build -j1 --release -p vmdkit-cli
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT

# A VMD of the source's header and bone keys, `copies` times over, then `trailing` bytes.
make_vmd() {
    python3 - "$source" "$1" "$2" "$3" <<'EOF'
import struct, sys
source, out, copies, trailing = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(source, 'rb').read()
n = struct.unpack_from('<I', data, 50)[0]
bones = data[54:54 + 111 * n]
with open(out, 'wb') as f:
    f.write(data[:50] + struct.pack('<I', n * copies))
    for c in range(copies):
        b = bytearray(bones)
        for i in range(n):
            at = 111 * i + 15
            struct.pack_into('<I', b, at, struct.unpack_from('<I', b, at)[0] + 2810 * c)
        f.write(b)
    f.write(bytes(20))  # morph, camera, light, self-shadow and property counts: 0
    block = bytes(range(256)) * 4096
    while trailing > 0:
        f.write(block[:min(trailing, len(block))])
        trailing -= len(block)
EOF
}

# Median of three numbers.
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

# Runs `binary args...` in $dir three times; prints "peak MB, wall s, cpu s" medians.
measure() {
    local rss=() wall=() cpu=() r w u s
    for _ in 1 2 3; do
        (cd "$dir" && /usr/bin/time -f '%M %e %U %S' -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/err.txt") \
            || { echo "failed: $*" >&2; cat "$dir/err.txt" >&2; exit 1; }
        read -r r w u s <"$dir/time.txt"
        rss+=("$r"); wall+=("$w"); cpu+=("$(echo "$u + $s" | bc)")
        rm -f "$dir"/out.*
    done
    echo "$(( $(median "${rss[@]}") / 1024 )) MB, $(median "${wall[@]}") s, $(median "${cpu[@]}") s cpu"
}

row() {
    local label=$1; shift
    local line="| \`vmdkit $*\` | $label |"
    [ -n "$before" ] && line+=" $(measure "$before" "$@") |"
    echo "$line $(measure "$after" "$@") |"
}

echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| command | input | ${before:+before (peak, wall, cpu) | }after (peak, wall, cpu) |"
make_vmd "$dir/padded.vmd" 1 $((2 << 30))
for args in "info padded.vmd" "check padded.vmd" "dump padded.vmd" "convert padded.vmd out.vmd" \
    "convert --to json padded.vmd /dev/null"; do
    # shellcheck disable=SC2086
    row "padded.vmd" $args
done
# An option the old binary may not have.
echo "| \`vmdkit convert --keep-trailing --to json padded.vmd /dev/null\` | padded.vmd |" \
    "${before:+— |} $(measure "$after" convert --keep-trailing --to json padded.vmd /dev/null) |"
rm "$dir/padded.vmd"

make_vmd "$dir/big.vmd" 141 0
"$after" convert "$dir/big.vmd" "$dir/big.json"
"$after" convert "$dir/big.vmd" "$dir/big.csv"
for args in "convert big.json out.vmd" "convert big.csv out.vmd" "convert big.vmd out.json" \
    "convert big.vmd out.csv"; do
    # shellcheck disable=SC2086
    row "big" $args
done
rm "$dir"/big.*

# Trailing bytes kept in text: each binary reads the documents it writes.
make_vmd "$dir/half.vmd" 1 $((512 << 20))
for format in json csv; do
    "$after" convert --keep-trailing "$dir/half.vmd" "$dir/half.$format"
    after_figures=$(measure "$after" convert "half.$format" out.vmd)
    line="| \`vmdkit convert half.$format out.vmd\` | half.$format (--keep-trailing) |"
    if [ -n "$before" ]; then
        "$before" convert "$dir/half.vmd" "$dir/half.$format"
        line+=" $(measure "$before" convert "half.$format" out.vmd) |"
    fi
    echo "$line $after_figures |"
    rm "$dir/half.$format"
done
