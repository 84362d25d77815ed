#!/usr/bin/env bash
# Old code against new, side by side: builds REV (default: the first parent of HEAD) in a
# temporary worktree, then for each bench runs criterion for old and new alternately (ROUNDS
# times each), and counts instructions with callgrind where valgrind is installed.
#
#   scripts/bench-against.sh [REV]
#
# Environment: ROUNDS (default 2); CRITERION_ARGS (default "--warm-up-time 1
# --measurement-time 4"); BENCHES (default "sampling posing compare"). Results go to
# target/bench-against/: one criterion log per bench, side and round, and callgrind logs.
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-HEAD^}"
rounds="${ROUNDS:-2}"
read -r -a criterion_args <<< "${CRITERION_ARGS:---warm-up-time 1 --measurement-time 4}"
read -r -a benches <<< "${BENCHES:-sampling posing compare}"
out="$PWD/target/bench-against"
old_tree="$out/old-tree"
mkdir -p "$out"
if [ ! -d "$old_tree" ]; then
    git worktree add --detach "$old_tree" "$rev"
else
    git -C "$old_tree" checkout --detach "$rev"
fi

# The path of each bench executable of the tree in $1, built in release.
bench_binaries() {
    (cd "$1" && cargo bench -p vmdkit --no-run --locked --message-format=json) |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and "bench" in m["target"]["kind"] and m.get("executable"):
        print(m["target"]["name"], m["executable"])'
}
declare -A bin
while read -r name path; do bin[old:$name]=$path; done < <(bench_binaries "$old_tree")
while read -r name path; do bin[new:$name]=$path; done < <(bench_binaries "$PWD")

filter() { [ "$1" = compare ] && echo largest || true; }
for bench in "${benches[@]}"; do
    for round in $(seq "$rounds"); do
        for side in old new; do
            tree="$PWD"; [ "$side" = old ] && tree="$old_tree"
            echo "== $bench $side round $round"
            # The benches read ../shared relative to the crate, as cargo runs them.
            (cd "$tree/crates/vmdkit" && CRITERION_HOME="$out/criterion-$side-$round" \
                "${bin[$side:$bench]}" --bench "${criterion_args[@]}" $(filter "$bench")) \
                > "$out/$bench-$side-$round.log" 2>&1
            grep -E '^\S+$|time:' "$out/$bench-$side-$round.log" | paste - - | grep vmdkit || true
        done
    done
done

if command -v valgrind > /dev/null; then
    for bench in "${benches[@]}"; do
        for side in old new; do
            tree="$PWD"; [ "$side" = old ] && tree="$old_tree"
            case "$bench" in
                sampling) args=(--toggle-collect='*MotionSampler*sample_bones*') select='on_cpu/vmdkit' ;;
                compare) args=() select='parse_largest/vmdkit$' ;;
                *) args=() select='vmdkit' ;;
            esac
            # Criterion's test mode (no --bench) runs each selected bench once: a fixed workload.
            (cd "$tree/crates/vmdkit" && valgrind --tool=callgrind "${args[@]}" \
                --callgrind-out-file="$out/callgrind-$bench-$side.out" \
                "${bin[$side:$bench]}" "$select") > "$out/callgrind-$bench-$side.log" 2>&1
            echo "== callgrind $bench $side: $(grep -h 'I   refs' "$out/callgrind-$bench-$side.log" | sort -t: -k2 -n | tail -1)"
        done
    done
fi
