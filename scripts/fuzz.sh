#!/usr/bin/env bash
# Fuzzes vmdkit's readers with cargo-fuzz (targets in fuzz/fuzz_targets/): `read` (VMD),
# `keypoints` (every keypoint format, with write/read round trips), `model` (PMX, PMD, bone
# CSV, then skeleton, posing and the retargeting rig), `gltf` (PMX and PMD meshes, exported as
# GLB at rest and with the example motion and camera), `layout` (joint mappings, layout
# detection), `vpd` (VPD poses, written back and applied to the standard model), `json` and
# `csv` (motion documents, written back as JSON, CSV and VMD) and `roundtrip` (motions built
# from the fuzzer's bytes, written as VMD, JSON and CSV and read back) and `bvh` (BVH files,
# FK, written back and mapped to keypoints), `bvh_export` (models exported with the example
# motion as BVH and read back), `npy` (NPY arrays and NPZ archives) and `gltf_textures` (models
# exported with their textures from a folder holding links in and out, a FIFO and a secret
# beside it). Results: docs/fuzzing.md.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...] [-- extra libFuzzer args...]
# (default 660 seconds; every target in turn, each for SECONDS, when none is named). At the
# end it prints the executions per target (libFuzzer's stat::number_of_executed_units).
#
# Seed corpora fuzz/corpus/<target>/ are filled at run time: `read` from the small VMDs of the
# shared corpus (../shared/corpus, or $VMDKIT_CORPUS), `keypoints` from the small CSV, TRC and
# .pose files of ../shared/pose ($VMDKIT_POSE) plus tiny NPY, NPZ and JSON files written here,
# `model` from the small PMX and PMD files of the corpus and the bone CSVs of ../shared/pose,
# `layout` from mapping texts written here, `vpd` from the corpus's VPDs plus small ones
# written here, `json` and `csv` from the small VMDs converted by the vmdkit command line
# (built into $CARGO_TARGET_DIR/release) and the built-in example, `roundtrip` from the
# smallest VMDs' bytes (any bytes make a motion), `bvh` from the BVHs of ../shared/pose cut to
# their first frames plus small ones written here; `bvh_export` and `gltf_textures` from the PMX
# models fuzz/seeds/pmx.py writes, `npy` from the arrays and archives fuzz/seeds/npy.py writes
# (never from the shared corpus). The seed folders, fuzz/artifacts/ and
# fuzz/target/ are git-ignored and must stay untracked: they hold other people's files and
# bytes derived from them. Logs go to $CARGO_TARGET_DIR/fuzz-logs, outside the repository.
#
# cargo-fuzz needs a nightly compiler for -Zsanitizer; the nightly toolchain is used when
# installed, otherwise the stable one with RUSTC_BOOTSTRAP=1.
#
# FUZZ_NO_BUILD=1 runs the binaries the last build left in $CARGO_TARGET_DIR without
# rebuilding (for when the library is mid-edit and does not compile).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-660}
shift || true
all_targets=(read keypoints model gltf layout vpd json csv roundtrip bvh bvh_export npy gltf_textures)
targets=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case " ${all_targets[*]} " in
    *" $1 "*) targets+=("$1") ;;
    *) break ;;  # the old usage: libFuzzer arguments straight after SECONDS
    esac
    shift
done
[ "${1:-}" = -- ] && shift
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
corpus_src=${VMDKIT_CORPUS:-$root/../shared/corpus}
pose_src=${VMDKIT_POSE:-$root/../shared/pose}
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

# Copies the files `find` lists (NUL-separated on stdin) into $1, named by content so that
# reruns add nothing twice.
copy_seeds() {
    while IFS= read -r -d '' file; do
        cp "$file" "$1/seed-$(sha256sum "$file" | cut -c1-16)"
    done
}

seed() {
    local target=$1 seeds=$root/fuzz/corpus/$1
    mkdir -p "$seeds" "$root/fuzz/artifacts/$target"
    case $target in
    read)
        # Files up to 16 KiB keep runs fast.
        [ -d "$corpus_src" ] && find "$corpus_src" -type f -iname '*.vmd' -size -16k -print0 |
            copy_seeds "$seeds"
        ;;
    keypoints)
        [ -d "$pose_src" ] && find "$pose_src" -type f \( -iname '*.csv' -o -iname '*.trc' \
            -o -iname '*.pose' \) ! -iname '*_born.csv' -size -64k -print0 | copy_seeds "$seeds"
        # Small NPY (F x J x 3 f4, J x 3 f8, F x J x 4 f4), a stored-only NPZ and JSON forms.
        python3 - "$seeds" <<'PY'
import struct, sys, zipfile, io, os
out = sys.argv[1]
def npy(descr, shape, values, fmt):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()
            + struct.pack("<%d%s" % (len(values), fmt), *values))
files = {
    "gen-fj3.npy": npy("<f4", "(2, 3, 3)", [float(i) for i in range(18)], "f"),
    "gen-j3.npy": npy("<f8", "(2, 3)", [0.5, float("nan"), 1, 2, 3, 4], "d"),
    "gen-fj4.npy": npy("<f4", "(1, 2, 4)", [1, 2, 3, 0.9, 4, 5, 6, 0.1], "f"),
    "gen-obj.json": b'{"fps": 30, "names": ["a", "b"], "frames": [[[0, 1, 2], null]]}',
    "gen-nested.json": b"[[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]]",
    "gen-perframe.json": b'[{"a": [0, 1, 2], "b": [3, 4, 5]}, {"a": [1, 1, 1], "b": null}]',
}
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
    z.writestr("positions.npy", files["gen-fj3.npy"])
files["gen-stored.npz"] = buf.getvalue()
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("keypoints.npy", files["gen-fj4.npy"])
files["gen-deflated.npz"] = buf.getvalue()
for name, data in files.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
PY
        ;;
    model)
        [ -d "$corpus_src" ] && find "$corpus_src" -type f \( -iname '*.pmx' -o -iname '*.pmd' \) \
            -size -64k -print0 | copy_seeds "$seeds"
        [ -d "$pose_src" ] && find "$pose_src" -type f -iname '*_born.csv' -print0 |
            copy_seeds "$seeds"
        ;;
    gltf)
        [ -d "$corpus_src" ] && find "$corpus_src" -type f \( -iname '*.pmx' -o -iname '*.pmd' \) \
            -size -64k -print0 | copy_seeds "$seeds"
        ;;
    vpd)
        [ -d "$corpus_src" ] && find "$corpus_src" -type f -iname '*.vpd' -size -64k -print0 |
            copy_seeds "$seeds"
        # MMD's layout (CP932, CRLF); a BOM, comments, morphs and spread values; CR only.
        printf 'Vocaloid Pose Data file\r\n\r\nm.osm;\t\t// \x90\x65\r\n2;\r\n\r\nBone0{\x83\x5a\x83\x93\x83\x5e\x81\x5b\r\n  0.500000,-1.250000,0.000000;\r\n  0.000000,0.000000,0.000000,1.000000;\r\n}\r\n\r\nBone1{\x8d\xb6\x91\xab\x82\x68\x82\x6a\r\n  0,0,0;\r\n  0.049841,0.038732,-0.102715,0.992706;\r\n}\r\n' \
            >"$seeds/gen-mmd.vpd"
        printf '\xef\xbb\xbf// c\nVocaloid Pose Data file\nm.osm\n1\nBone0 { 右腕 // r\n.5 , -1e0 ,\n 0 \n 0,0,0,1\n}\nMorph0{まばたき\n0.75;\n}\n' \
            >"$seeds/gen-bom.vpd"
        printf 'Vocaloid Pose Data file\rm.osm;\r3;\rBone0{左足ＩＫ\r1,2,3;0,0,0,0;\r}\rBone1{右ひざ\r0,0,0;0.7,0,0,0.7;}\rBone2{上半身\r0,0,0;0,0.38,0,0.92;\r}\r' \
            >"$seeds/gen-cr.vpd"
        ;;
    json | csv)
        local vmdkit=$CARGO_TARGET_DIR/release/vmdkit tmp
        tmp=$(mktemp -d)
        if [ -x "$vmdkit" ]; then
            if [ -d "$corpus_src" ]; then
                while IFS= read -r -d '' file; do
                    # Damaged files are read leniently: what their repairs keep is a motion too.
                    "$vmdkit" convert --lenient --to "$target" "$file" \
                        "$tmp/$(sha256sum "$file" | cut -c1-16).$target" 2>/dev/null || true
                done < <(find "$corpus_src" -type f -iname '*.vmd' -size -16k -print0)
                find "$tmp" -type f -size -64k -print0 | copy_seeds "$seeds"
            fi
            "$vmdkit" example --to "$target" "$seeds/gen-example.$target" >/dev/null
        else
            echo "$target: no $vmdkit to convert seeds with; starting from nothing" >&2
        fi
        rm -rf "$tmp"
        ;;
    roundtrip)
        [ -d "$corpus_src" ] && find "$corpus_src" -type f -iname '*.vmd' -size -4k -print0 |
            copy_seeds "$seeds"
        ;;
    bvh)
        if [ -d "$pose_src" ]; then
            # The hierarchy and a few frames: whole files are too large to mutate quickly.
            while IFS= read -r -d '' file; do
                awk '/^Frames:/ { print "Frames: 3"; next } { print } /^Frame Time/ { n = 1; next }
                    n && ++n > 4 { exit }' "$file" >"$seeds/$(basename "$file")"
            done < <(find "$pose_src" -maxdepth 1 -type f -iname '*.bvh' -print0)
        fi
        printf 'HIERARCHY\nROOT a {\nOFFSET 0 0 0\nCHANNELS 3 Yposition Xrotation Zposition\nJOINT b\n{\nOFFSET 1 0 0\nCHANNELS 0\nEnd Site\n{\nOFFSET 1 0 0\n}\n}\n}\nROOT c\n{\nOFFSET 0 1 0\n}\nMOTION\nFrames: 2\nFrame Time: .0083333\n5 -0.5 7e1\n.5 1. -2\n' \
            >"$seeds/gen-mixed.bvh"
        ;;
    bvh_export | gltf_textures)
        # Models made by fuzz/seeds/pmx.py: sound, forward parents, cycles, self-parents.
        python3 "$root/fuzz/seeds/pmx.py" "$seeds"
        ;;
    npy)
        # Made by fuzz/seeds/npy.py: sound arrays beside zero-size dtypes under huge shapes,
        # double-quoted headers, a member that inflates a thousandfold and many member names.
        python3 "$root/fuzz/seeds/npy.py" "$seeds"
        ;;
    layout)
        printf 'Hips pelvis\nLeftUpLeg left_hip\nRightUpLeg right_hip\nSpine spine\n# c\nHead head\n' \
            >"$seeds/gen-text"
        printf '{"name": "m", "joints": [["Hips", "pelvis"], ["Neck", null], ["L", "left_knee"]]}' \
            >"$seeds/gen-joints.json"
        printf '{"Hips": "pelvis", "LeftArm": "left_shoulder", "x": null}' >"$seeds/gen-object.json"
        printf 'nose\nleft_eye\nright_eye\nleft_ear\nright_ear\nleft_shoulder\nright_shoulder\nleft_elbow\nright_elbow\nleft_wrist\nright_wrist\nleft_hip\nright_hip\nleft_knee\nright_knee\nleft_ankle\nright_ankle\n' \
            >"$seeds/gen-coco-names"
        ;;
    esac
    echo "$target seed corpus: $(find "$seeds" -type f | wc -l) files in $seeds" >&2
}

logs=$CARGO_TARGET_DIR/fuzz-logs
mkdir -p "$logs"
cd "$logs"  # libFuzzer writes fuzz-0.log (with -jobs) to the working directory
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    for t in "${targets[@]}"; do "${cargo[@]}" fuzz build --fuzz-dir "$root/fuzz" "$t"; done
    # The command line converts the json and csv seeds.
    case " ${targets[*]} " in
    *" json "* | *" csv "*) cargo build --release -p vmdkit-cli --manifest-path "$root/Cargo.toml" ;;
    esac
fi
summary=()
for target in "${targets[@]}"; do
    seed "$target"
    args=(-max_total_time="$seconds" -jobs=1 -workers=1 -print_final_stats=1 -timeout=10
        -rss_limit_mb=2048 -malloc_limit_mb=1024
        -artifact_prefix="$root/fuzz/artifacts/$target/" "$@")
    log=$logs/$target.log
    status=0
    start=$SECONDS
    "$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release/$target" "$root/fuzz/corpus/$target" \
        "${args[@]}" >"$log" 2>&1 || status=$?
    # With -jobs=1 libFuzzer runs a child that logs to fuzz-0.log.
    [ -f "$logs/fuzz-0.log" ] && mv "$logs/fuzz-0.log" "$log"
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    summary+=("$target: ${runs:-?} executions in $((SECONDS - start))s, exit $status (log $log)")
    tail -n 3 "$log" >&2
done
printf '%s\n' "${summary[@]}"
