#!/usr/bin/env bash
# vmdkit vs mmd-anim-format 0.5.3 vs a plain copy of the bytes, in one criterion run, then the
# peak memory of reading a ~200 MB motion, one process per measurement. Prints a table.
#
#   scripts/bench-compare.sh [criterion options]
#
# Default criterion options: --warm-up-time 2 --measurement-time 8 (about 10 minutes on a
# 2-core machine). The 200 MB file for the peak-memory runs is written to $VMDKIT_BENCH_FILE
# (default /tmp/vmdkit-bench-200MB.vmd) and deleted afterwards; keep it outside the repository.
# Set PEAK_REPEATS (default 3) for the number of processes per peak-memory measurement.
#
# A second, shorter pass reruns the fresh-memory 200 MB parse and write groups with glibc's
# transparent-huge-page tunable (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), reported as *_thp:
# on virtual machines the kernel's 4 KiB page faults, not the code, bound the fresh-memory
# figures. Set THP_PASS=0 to skip it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
criterion_args=("$@")
[ ${#criterion_args[@]} -eq 0 ] && criterion_args=(--warm-up-time 2 --measurement-time 8)
big="${VMDKIT_BENCH_FILE:-/tmp/vmdkit-bench-200MB.vmd}"
repeats="${PEAK_REPEATS:-3}"
case "$(realpath -m "$big")" in "$PWD"/*) echo "keep $big outside the repository" >&2; exit 2 ;; esac

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)," \
    "THP $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
cargo build --release -p vmdkit --example peak_memory  # built first: one state of the sources
echo "== cargo bench -p vmdkit --bench compare -- ${criterion_args[*]}"
stamp=$(mktemp)
peaks=$(mktemp)
trap 'rm -f "$big" "$stamp" "$peaks"' EXIT
cargo bench -p vmdkit --bench compare -- "${criterion_args[@]}"
thp_home="$CARGO_TARGET_DIR/criterion-thp"
if [ "${THP_PASS:-1}" != 0 ]; then
    echo "== GLIBC_TUNABLES=glibc.malloc.hugetlb=1 cargo bench ... -- ${criterion_args[*]} '^(parse|write)_200MB/'"
    GLIBC_TUNABLES=glibc.malloc.hugetlb=1 CRITERION_HOME="$thp_home" \
        cargo bench -p vmdkit --bench compare -- "${criterion_args[@]}" '^(parse|write)_200MB/'
fi

echo "== peak memory (VmHWM), $repeats processes per reader"
example="$CARGO_TARGET_DIR/release/examples/peak_memory"
"$example" generate "$big"
for _ in $(seq "$repeats"); do
    for mode in baseline vmdkit vmdkit_parse mmd-anim-format; do
        "$example" "$mode" "$big" | tee -a "$peaks"
    done
done

python3 - "$stamp" "$peaks" "$CARGO_TARGET_DIR/criterion" "$thp_home" <<'PY'
import json, os, statistics, sys
from pathlib import Path

stamp, peaks = os.path.getmtime(sys.argv[1]), sys.argv[2]
results = {}  # (group, function) -> (median ns, bytes); only benchmarks measured by this run
for root, suffix in ((Path(sys.argv[3]), ""), (Path(sys.argv[4]), "_thp")):
    for est in root.glob("*/*/new/estimates.json"):
        if est.stat().st_mtime < stamp:
            continue
        meta = json.loads((est.parent / "benchmark.json").read_text())
        median_ns = json.loads(est.read_text())["median"]["point_estimate"]
        results[(meta["group_id"] + suffix, meta["function_id"])] = (median_ns, meta["throughput"]["Bytes"])

def gbps(group, fn):
    ns, size = results.get((group, fn), (None, None))
    return size / ns if ns else None  # bytes per ns = GB/s

def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"

def ratio(a, b):
    return f"{a / b:.2f}x" if a and b else "-"

order = ["vmdkit", "vmdkit_encode_into_reused", "vmdkit_new", "vmdkit_walk_bones",
         "mmd-anim-format", "memcpy", "memcpy_reused"]
kinds = ["parse", "write", "view"]
groups = sorted({g for g, _ in results}, key=lambda g: (g.split("_", 1)[1], kinds.index(g.split("_")[0])))
print("\nmedian of criterion's samples; GB/s = 10^9 bytes/s of the input file's size")
print(f"{'benchmark':<48} {'median':>10} {'GB/s':>10} {'vs mmd-anim-format':>19} {'vs memcpy':>10}")
for g in groups:
    for fn in sorted({f for gg, f in results if gg == g}, key=lambda f: order.index(f) if f in order else 99):
        ns, _ = results[(g, fn)]
        v = gbps(g, fn)
        # Like for like: results in fresh memory against fresh, reused buffers against reused.
        peer = gbps(g, "mmd-anim-format") if fn == "vmdkit" else None
        copy = gbps(g, "memcpy_reused" if fn.endswith("reused") else "memcpy")
        print(f"{g + '/' + fn:<48} {fmt_time(ns):>10} {v:>10.3f} {ratio(v, peer) if peer else '':>19} {ratio(v, copy) if copy else '':>10}")

rows = [dict(kv.split("=", 1) for kv in line.split()) for line in open(peaks) if line.startswith("mode=")]
print(f"\n{'peak memory (VmHWM, median)':<48} {'MB':>10} {'x file':>10}")
size = None
for mode in dict.fromkeys(r["mode"] for r in rows):
    hwm = statistics.median(int(r["hwm_after"]) for r in rows if r["mode"] == mode)
    size = int(rows[0]["file_bytes"])
    print(f"{mode:<48} {hwm / 1e6:>10.1f} {hwm / size:>10.3f}")
if size:
    print(f"{'(file size)':<48} {size / 1e6:>10.1f}")

def bar(name, value, target, unit):
    if value is None:
        print(f"  {name}: not measured"); return
    print(f"  {'MET    ' if value >= target else 'NOT MET'} {name}: {value:.2f} {unit} (bar {target} {unit})")
print("\nbars (issue 2)")
for suffix, tag in (("", "fresh memory"), ("_thp", "fresh memory, huge pages"), ("_warmheap", "warm heap")):
    p, peer = gbps("parse_200MB" + suffix, "vmdkit"), gbps("parse_200MB" + suffix, "mmd-anim-format")
    bar(f"Motion::parse 200MB, {tag}", p, 2, "GB/s")
    bar(f"Motion::parse 200MB vs mmd-anim-format, {tag}", p / peer if p and peer else None, 3, "x")
    bar(f"Motion::to_bytes 200MB, {tag}", gbps("write_200MB" + suffix, "vmdkit"), 2, "GB/s")
    bar(f"Motion::encode_into 200MB, reused buffer ({tag} pass)", gbps("write_200MB" + suffix, "vmdkit_encode_into_reused"), 2, "GB/s")
bar("MotionView::new 200MB", gbps("view_200MB", "vmdkit_new"), 10, "GB/s")
vm = [int(r["hwm_after"]) / int(r["file_bytes"]) for r in rows if r["mode"] == "vmdkit"]
if vm:
    m = statistics.median(vm)
    print(f"  {'MET    ' if m <= 1.5 else 'NOT MET'} peak memory of Motion::read_file: {m:.3f}x file size (bar <= 1.5x)")
PY
