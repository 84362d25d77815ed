//! The editing functions on every motion of the shared corpus (read in place).
//!
//! * mirror twice and shift-and-back give the same bytes;
//! * retiming to 60 fps and back reproduces every frame within tolerance;
//! * reduce, on every motion baked to one key per frame at 30 fps, stays within its bounds at
//!   every frame, checked by playing input and output with the sampler, and keeps fewer keys
//!   in total than the smoothvmd-style baseline at the same bound.
//!
//! Debug builds are slow for the fitter, so by default each baked motion is cut to its first
//! `DEBUG_FRAMES` frames. The ignored test `edit_reduce_bounds_on_the_full_corpus` runs everything
//! uncut: `cargo test --release -p vmdkit --test edit_corpus -- --ignored`
//! (`cargo run --release -p vmdkit --example reduce_quality` prints the comparison table).

use vmdkit::bake::bake;
use vmdkit::edit::{measure, KeyCounts, ReduceMethod, ReduceOptions};
use vmdkit::edit::{mirror, reduce, retime, shift, Tolerance};
use vmdkit::Motion;

/// Frames per baked motion in the default (debug-friendly) run.
const DEBUG_FRAMES: u32 = 60;

fn corpus(test: &str) -> Vec<(String, Motion)> {
    let Some(manifest) = test_corpus::corpus_or_skip(test) else {
        return Vec::new();
    };
    manifest
        .of_kind("vmd")
        .filter(|e| e.parse_ok())
        .map(|e| (e.local_path.clone(), Motion::parse(&e.bytes()).expect("parse_ok files parse")))
        .collect()
}

#[test]
fn edit_mirror_twice_and_shift_back_give_the_same_bytes() {
    for (name, m) in corpus("edit mirror/shift") {
        let twice = mirror(&mirror(&m).0).0;
        assert!(twice.to_bytes() == m.to_bytes(), "{name}: mirror twice");
        let back = shift(&shift(&m, 1000).unwrap(), -1000).unwrap();
        assert!(back.to_bytes() == m.to_bytes(), "{name}: shift back");
    }
}

#[test]
fn edit_retime_to_60_and_back_reproduces_every_frame() {
    let tol = Tolerance::default();
    for (name, m) in corpus("edit retime") {
        let m = vmdkit::edit::trim(&m, 0, 600).unwrap().0;
        let (fast, report) = retime(&m, 2.0, &tol).unwrap();
        assert!(report.errors.within(&tol), "{name}: {report:?}");
        let (back, _) = retime(&fast, 0.5, &tol).unwrap();
        let e = measure(&m, &back);
        assert!(e.within(&tol), "{name}: {e:?}");
    }
}

/// Reduces every baked corpus motion (cut to `frames` when given) with both methods, checks
/// the bounds by playing, and returns the key totals (input, fitted, baseline).
fn reduce_corpus(frames: Option<u32>) -> (usize, usize, usize) {
    let options = ReduceOptions::default();
    let (mut total_in, mut total_fitted, mut total_base) = (0, 0, 0);
    for (name, m) in corpus("edit reduce") {
        let Ok(mut dense) = bake(&m, 30.0) else {
            continue;
        };
        if let Some(cut) = frames {
            dense.bones.retain(|k| k.frame <= cut);
            dense.morphs.retain(|k| k.frame <= cut);
            dense.cameras.retain(|k| k.frame <= cut);
        }
        let (fitted, report) = reduce(&dense, &options);
        let (base, base_report) =
            reduce(&dense, &ReduceOptions { method: ReduceMethod::Baseline, ..options });
        for (out, what) in [(&fitted, "fitted"), (&base, "baseline")] {
            let e = measure(&dense, out);
            assert!(e.within(&options.tolerance), "{name} ({what}): {e:?}");
        }
        assert_eq!(report.errors, measure(&dense, &fitted));
        total_in += KeyCounts::of(&dense).total();
        total_fitted += report.after.total();
        total_base += base_report.after.total();
    }
    (total_in, total_fitted, total_base)
}

#[test]
fn edit_reduce_bounds_on_every_baked_motion() {
    let (total_in, fitted, base) = reduce_corpus(Some(DEBUG_FRAMES));
    eprintln!("first {DEBUG_FRAMES} frames: {total_in} keys -> fitted {fitted}, baseline {base}");
    if total_in > 0 {
        assert!(fitted < base, "fitted {fitted} vs baseline {base}");
    }
}

#[test]
#[ignore = "minutes in debug builds; run with --release -- --ignored"]
fn edit_reduce_bounds_on_the_full_corpus() {
    let (total_in, fitted, base) = reduce_corpus(None);
    eprintln!("full corpus: {total_in} keys -> fitted {fitted}, baseline {base}");
    assert!(fitted < base, "fitted {fitted} vs baseline {base}");
}
