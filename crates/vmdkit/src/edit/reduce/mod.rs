//! Key reduction: dense keys (a bake, a pose estimate: one key per frame) to few keys with
//! fitted MMD curves, within stated errors at every frame.
//!
//! **What is guaranteed.** Each bone, morph and camera track is played by the library's
//! sampler at every integer frame from its first to its last key; that is the reference. The
//! output, played the same way, is within the [`Tolerance`] of it at every one of those frames
//! (and before and after the track, where both hold their end values):
//!
//! * bone translation: Euclidean distance ≤ `position` (model units);
//! * bone rotation: angle between the rotations ≤ `angle_degrees`;
//! * morph weight: difference ≤ `morph`;
//! * camera: target distance and distance difference ≤ `position`; each Euler angle and the
//!   view angle ≤ `angle_degrees`.
//!
//! A segment longer than [`LONG_SEGMENT`] frames between two keys is kept as it is, with its
//! curve (`runs.rs`), so the work follows the number of keys and not the frame span.
//!
//! Between integer frames nothing is promised (MMD plays at integer frames; a camera segment
//! one frame long is held there, §6.6). Light, self-shadow and property keys are kept as
//! they are.
//!
//! **How.** Keys are placed at reference frames with the reference's values, so the error at a
//! key is nothing; the segmentation (`segment.rs`) grows each segment greedily as far as curves
//! fitted to it (`fit.rs`: a curve per translation axis and one for the rotation, integer
//! control points) keep every frame inside within tolerance. The whole track is then played
//! back and checked, and repaired by splitting where it misses. A track that still cannot be
//! verified, or whose reduced form is no smaller, keeps its original keys, so the bound holds
//! always. The physics toggle and the camera's perspective flag are steps: frames where they
//! change are always keys (for the toggle, where it switches between on and off: the curve
//! bytes old writers leave in its place all mean "on").
//!
//! [`ReduceMethod::Baseline`] runs errno-mmd/smoothvmd's recursive split (`baseline.rs`) through the
//! same checks, for comparison. [`ReduceMethod::Fast`] runs the greedy segmentation (without
//! its prune) and the same checks with a cheap curve fitter (`fast.rs`): 3–20% more
//! keys on dense input, in a fifth of the time or less.

mod baseline;
mod bone;
mod camera;
mod fast;
mod fit;
pub(crate) mod measure;
mod morph;
mod params;
mod runs;
pub(crate) mod segment;

pub use measure::{measure, measure_with, MeasuredErrors};
pub(crate) use runs::scaled_runs;
pub use runs::LONG_SEGMENT;

pub(crate) use bone::{bone_reference_at, BoneFit, BoneSamples};
pub(crate) use camera::{CameraFit, CameraSamples};
pub(crate) use morph::{MorphFit, MorphSamples};

use crate::curve::Curve;
use crate::eval::{BoneTrack, Cursor, MorphTrack, MotionSampler};
use crate::format::{BoneKey, CameraKey, Keyframe, MorphKey, Motion, Section};
use segment::Track;

/// The largest error allowed at any frame (see the module documentation for the measures).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Bone translation and camera target/distance, model units (1 unit ≈ 8 cm).
    pub position: f64,
    /// Bone rotation angle, camera Euler angles and view angle, degrees.
    pub angle_degrees: f64,
    /// Morph weight.
    pub morph: f64,
}

impl Default for Tolerance {
    /// 0.05 units (about 4 mm), 0.5°, and 0.01 of a morph: below what the eye notices.
    fn default() -> Self {
        Tolerance { position: 0.05, angle_degrees: 0.5, morph: 0.01 }
    }
}

impl Tolerance {
    /// The tolerance the fitters work to: a hair tighter, because the reference they see has
    /// its rotations normalised once more than the source sampler's. That moves a quaternion
    /// component by at most `f32::EPSILON` (2⁻²³), which turns the rotation by at most
    /// 2 · 2⁻²³ rad ≈ 1.4e-5°: the 1e-4° margin holds about seven of those.
    pub(crate) fn internal(self) -> Tolerance {
        Tolerance {
            position: (self.position - 1e-6).max(0.0),
            angle_degrees: (self.angle_degrees - 1e-4).max(0.0),
            morph: (self.morph - 1e-7).max(0.0),
        }
    }
}

/// Which algorithm [`reduce`] uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReduceMethod {
    /// Greedy segmentation with fitted curves (this module).
    #[default]
    Fitted,
    /// smoothvmd's recursive split with linear curves (`baseline.rs`), for comparison.
    Baseline,
    /// The greedy segmentation with a cheap fitter (`fast.rs`): the linear curve, or a few
    /// fixed time handles with the value handles solved by least squares. Made for dense,
    /// smooth input such as retargeting output; more keys than [`ReduceMethod::Fitted`], the
    /// same guarantee.
    Fast,
}

/// Options for [`reduce`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReduceOptions {
    /// The largest error allowed at any frame; the default is below what the eye notices.
    pub tolerance: Tolerance,
    /// The algorithm; the default fits curves, the other is for comparison.
    pub method: ReduceMethod,
    /// Worker threads; 0 uses every available core. Results do not depend on it.
    pub threads: usize,
}

/// Key counts of the sections [`reduce`] works on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyCounts {
    /// Bone keys.
    pub bones: usize,
    /// Morph keys.
    pub morphs: usize,
    /// Camera keys.
    pub cameras: usize,
}

impl KeyCounts {
    /// The counts of `m`, duplicates included.
    pub fn of(m: &Motion) -> Self {
        KeyCounts { bones: m.bones.len(), morphs: m.morphs.len(), cameras: m.cameras.len() }
    }

    /// Bone, morph and camera keys together.
    pub fn total(&self) -> usize {
        self.bones + self.morphs + self.cameras
    }
}

/// What [`reduce`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReduceReport {
    /// The input's key counts.
    pub before: KeyCounts,
    /// The output's key counts.
    pub after: KeyCounts,
    /// The largest errors of the output against the input, measured by playing both.
    pub errors: MeasuredErrors,
    /// Tracks that kept their original keys because no reduction could be verified (their
    /// values are then exact). Tracks whose reduction was no smaller are not listed.
    pub kept_original: Vec<String>,
}

/// Reduces `motion` (see the module documentation).
pub fn reduce(motion: &Motion, options: &ReduceOptions) -> (Motion, ReduceReport) {
    reduce_with_progress(motion, options, &|_, _| {})
}

/// Told how far a long operation is: `(done, total)`, in units the operation names. It may be
/// called from worker threads, between pieces of work, never inside one.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Like [`reduce`], calling `progress(done, total)` as each track (bone, morph, the camera) is
/// reduced, so that a caller can show how far a long reduction is; measuring the result comes
/// after the last call.
pub fn reduce_with_progress(
    motion: &Motion,
    options: &ReduceOptions,
    progress: Progress,
) -> (Motion, ReduceReport) {
    let mut kept = Vec::new();
    let out = reduce_tracked(motion, &MotionSampler::new(motion), options, &mut kept, progress);
    let report = ReduceReport {
        before: KeyCounts::of(motion),
        after: KeyCounts::of(&out),
        errors: measure(motion, &out),
        kept_original: kept,
    };
    (out, report)
}

/// [`reduce`] without measuring the result, for callers that measure it their own way and
/// play `motion` with `sampler` (`MotionSampler::new(motion)`) themselves; tracks that kept
/// their original keys are added to `kept`.
pub(crate) fn reduce_unmeasured(
    motion: &Motion,
    sampler: &MotionSampler,
    options: &ReduceOptions,
    kept: &mut Vec<String>,
) -> Motion {
    reduce_tracked(motion, sampler, options, kept, &|_, _| {})
}

/// [`reduce_unmeasured`], telling `progress` as each track is done.
fn reduce_tracked(
    motion: &Motion,
    sampler: &MotionSampler,
    options: &ReduceOptions,
    kept: &mut Vec<String>,
    progress: Progress,
) -> Motion {
    let total = sampler.bone_tracks().len()
        + sampler.morph_tracks().len()
        + usize::from(sampler.camera_track().is_some());
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tell = || {
        let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(done, total);
    };
    let tol = options.tolerance.internal();
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    let method = options.method;
    let tracks = sampler.bone_tracks();
    let bones = reduce_tracks(motion, sampler, tracks, threads, kept, |track, keys| {
        let reduced = reduce_bone_track(track, keys, tol, method);
        tell();
        reduced
    });
    let tracks = sampler.morph_tracks();
    let morphs = reduce_tracks(motion, sampler, tracks, threads, kept, |track, keys| {
        let reduced = reduce_morph_track(track, keys, tol, method);
        tell();
        reduced
    });
    let cameras = reduce_camera(motion, sampler, method, tol, kept);
    if sampler.camera_track().is_some() {
        tell();
    }
    Motion {
        bones,
        morphs,
        cameras,
        lights: motion.lights.clone(),
        shadows: motion.shadows.clone(),
        properties: motion.properties.clone(),
        ..motion.without_keys()
    }
}

/// Every track of a bone or morph section reduced by `reduce_track` (given the track and its
/// keys, sorted), in parallel; tracks that kept their original keys are named in
/// `kept_original`.
fn reduce_tracks<K: Keyframe + Send + Sync, T: Sync>(
    motion: &Motion,
    sampler: &MotionSampler,
    tracks: &[T],
    threads: usize,
    kept_original: &mut Vec<String>,
    reduce_track: impl Fn(&T, &[&K]) -> (Vec<K>, bool) + Sync,
) -> Vec<K> {
    let section = K::section(motion);
    let items: Vec<_> = tracks.iter().zip(sampler.source_keys(K::SECTION)).collect();
    // The keys by reference: a track keeps its originals only when its reduction fails or is
    // no smaller, so copying them all first would mostly be thrown away.
    let results = par_map(&items, threads, |&(track, order)| {
        let keys: Vec<&K> = order.iter().map(|&k| &section[k]).collect();
        reduce_track(track, &keys)
    });
    // Sized once: grown key by key, a long motion's keys would be copied over and over.
    let mut out = Vec::with_capacity(results.iter().map(|(keys, _)| keys.len()).sum());
    for (keys, fell_back) in results {
        if fell_back {
            kept_original.push(keys[0].name().map(|n| n.to_string()).unwrap_or_default());
        }
        out.extend(keys);
    }
    out
}

/// One bone track's keys reduced, or kept (with whether that was a failure to verify).
fn reduce_bone_track(
    track: &BoneTrack,
    keys: &[&BoneKey],
    tol: Tolerance,
    method: ReduceMethod,
) -> (Vec<BoneKey>, bool) {
    runs::reduce_in_runs(track.frames(), keys, |first, last, keys| {
        let r = bone_reference_at(track, keys[0].name, first, (first..=last).map(f64::from));
        let mut fit = BoneFit::new(&r, tol);
        choose(verified_bone_plan(&mut fit, method).map(|p| fit.keys(&p)), keys)
    })
}

/// A verified plan for `fit`'s reference, or `None`; after it, [`BoneFit::take_played`]
/// holds how the plan plays.
fn verified_bone_plan(fit: &mut BoneFit, method: ReduceMethod) -> Option<Vec<(usize, [Curve; 4])>> {
    if method == ReduceMethod::Fast {
        fit.use_fast_fit();
    }
    plan(&*fit, method, |a, b| fit.linear_split(a, b))
}

/// A bone track given by its values at every frame from `r.first` on (a solver's output,
/// never written as keys), reduced as [`reduce`] reduces a track of those keys: the reduced
/// keys when they verify and are fewer, else a key at every frame, appended to `out` (one
/// list for every track, so that they are not copied into one afterwards). Returned: how
/// they play at each of those frames, as the library's sampler plays them, for a caller that
/// plays the result at those frames without building a sampler of the keys again.
pub(crate) fn reduce_bone_samples(
    r: &BoneSamples,
    options: &ReduceOptions,
    out: &mut Vec<BoneKey>,
) -> BoneSamples {
    let n = r.translation.len();
    let mut fit = BoneFit::new(r, options.tolerance.internal());
    match verified_bone_plan(&mut fit, options.method) {
        Some(plan) if plan.len() < n => {
            out.extend(plan.iter().map(|&(i, curves)| fit.key(i, curves)));
            fit.take_played()
        }
        _ => {
            out.extend((0..n).map(|i| fit.key(i, fit.linear())));
            fit.reference_played()
        }
    }
}

/// One morph track's keys reduced, or kept.
fn reduce_morph_track(
    track: &MorphTrack,
    keys: &[&MorphKey],
    tol: Tolerance,
    method: ReduceMethod,
) -> (Vec<MorphKey>, bool) {
    runs::reduce_in_runs(track.frames(), keys, |first, last, keys| {
        let mut cursor = Cursor::default();
        let weights = (first..=last).map(|f| track.sample_with(&mut cursor, f)).collect();
        let r = MorphSamples { name: keys[0].name, first, weights };
        let fit = MorphFit::new(&r, tol.morph);
        let plan = plan(&fit, method, |a, b| fit.linear_split(a, b));
        choose(plan.map(|p| fit.keys(&p)), keys)
    })
}

/// The camera track reduced, keeping its cuts.
fn reduce_camera(
    motion: &Motion,
    sampler: &MotionSampler,
    method: ReduceMethod,
    tol: Tolerance,
    kept_original: &mut Vec<String>,
) -> Vec<CameraKey> {
    let Some(track) = sampler.camera_track() else {
        return Vec::new();
    };
    let order = &sampler.source_keys(Section::Camera)[0];
    let original: Vec<&CameraKey> = order.iter().map(|&k| &motion.cameras[k]).collect();
    let (keys, fell_back) = runs::reduce_in_runs(track.frames(), &original, |first, last, keys| {
        let r = camera_reference_span(track, first, last);
        let mut fit = CameraFit::new(&r, tol);
        fit.keep_jumps();
        if method == ReduceMethod::Fast {
            fit.use_fast_fit();
        }
        let plan = if fit.keys_representable() {
            plan(&fit, method, |a, b| fit.linear_split(a, b))
        } else {
            None
        };
        choose(plan.map(|p| fit.keys(&p)), keys)
    });
    if fell_back {
        kept_original.push("camera".into());
    }
    keys
}

/// A verified plan by `method`, or `None`.
fn plan<T: Track>(
    track: &T,
    method: ReduceMethod,
    split: impl Fn(usize, usize) -> Option<usize>,
) -> Option<Vec<(usize, T::Curves)>> {
    let plan = match method {
        ReduceMethod::Fitted => segment::prune(track, segment::greedy(track)),
        // The prune removes a fraction of a percent of the keys for a fifth of the time.
        ReduceMethod::Fast => segment::greedy(track),
        ReduceMethod::Baseline => baseline::plan(track, split),
    };
    segment::verified(track, plan)
}

/// The reduced keys when there are any and they are fewer than the original ones, else (a
/// copy of) the original; with whether that was a failure to verify.
fn choose<K: Clone>(reduced: Option<Vec<K>>, original: &[&K]) -> (Vec<K>, bool) {
    let copy = || original.iter().map(|&k| k.clone()).collect();
    match reduced {
        Some(keys) if keys.len() < original.len() => (keys, false),
        Some(_) => (copy(), false),
        None => (copy(), true),
    }
}

/// The camera's values at every frame from `first` to `last`.
fn camera_reference_span(track: &crate::eval::CameraTrack, first: u32, last: u32) -> CameraSamples {
    let mut cursor = Cursor::default();
    CameraSamples {
        first,
        samples: (first..=last).map(|f| track.sample_with(&mut cursor, f)).collect(),
    }
}

/// `f` over `items` on up to `threads` threads, results in input order.
pub(crate) fn par_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        match items.get(i) {
                            Some(item) => mine.push((i, f(item))),
                            None => return mine,
                        }
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a reduction worker panicked")).collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::bake;

    #[test]
    fn a_baked_example_reduces_within_bounds_and_beats_the_baseline() {
        let dense = bake(&crate::example::example_motion(), 30.0).unwrap();
        let options = ReduceOptions::default();
        let (fitted, report) = reduce(&dense, &options);
        let (base, base_report) =
            reduce(&dense, &ReduceOptions { method: ReduceMethod::Baseline, ..options });
        for (m, r) in [(&fitted, &report), (&base, &base_report)] {
            let e = measure(&dense, m);
            assert!(e.within(&options.tolerance), "{e:?}");
            assert_eq!(e, r.errors);
        }
        assert!(report.after.bones < base_report.after.bones, "{report:?} vs {base_report:?}");
        assert!(report.after.total() < report.before.total());
        assert!(report.kept_original.is_empty(), "{report:?}");
    }

    #[test]
    fn progress_is_told_once_per_track_and_ends_at_the_total() {
        let dense = bake(&crate::example::example_motion(), 30.0).unwrap();
        let sampler = MotionSampler::new(&dense);
        let tracks = sampler.bone_tracks().len() + sampler.morph_tracks().len() + 1;
        for threads in [1, 3] {
            let calls = std::sync::Mutex::new(Vec::new());
            let options = ReduceOptions { threads, ..ReduceOptions::default() };
            let (out, _) = reduce_with_progress(&dense, &options, &|done, total| {
                calls.lock().unwrap().push((done, total));
            });
            let mut calls = calls.into_inner().unwrap();
            calls.sort();
            let expected: Vec<_> = (1..=tracks).map(|done| (done, tracks)).collect();
            assert_eq!(calls, expected, "{threads} threads");
            assert_eq!(out, reduce(&dense, &options).0);
        }
    }

    #[test]
    fn zero_tolerance_keeps_the_motion_exact() {
        let dense = bake(&crate::example::example_motion(), 30.0).unwrap();
        let options = ReduceOptions {
            tolerance: Tolerance { position: 0.0, angle_degrees: 0.0, morph: 0.0 },
            ..Default::default()
        };
        let (out, report) = reduce(&dense, &options);
        assert!(report.errors.within(&options.tolerance), "{report:?}");
        assert!(out.bones.len() <= dense.bones.len());
    }
}
