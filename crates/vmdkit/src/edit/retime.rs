//! Changing a motion's frame rate or speed.
//!
//! `factor` is output frames per input frame: 2 turns a 30 fps motion into frame numbers at
//! 60 fps (as [`bake`](crate::bake::bake()) numbers them; MMD itself would then play it at half
//! speed), 0.5 plays it twice as fast. The **ideal** result at output frame g is the input at
//! time g / factor; the output is measured against it at every integer output frame.
//!
//! * **Pure scaling keeps curves exactly.** MMD curves are functions of the progress through a
//!   segment, so stretching a segment in time keeps its shape. When both keys of a source
//!   segment land on whole frames (f·factor is an integer), the segment is carried over with its
//!   curves unchanged, and its values at every frame are the ideal ones.
//! * **Rounding needs refitting (and sometimes splitting).** A key whose time f·factor is not
//!   whole moves to the nearest frame, and the motion on either side of it is no longer the
//!   stretched source: the ideal motion now has its corner between two frames. Such segments
//!   are refitted from the ideal values at every output frame with the key reduction's fitter
//!   ([`reduce`](mod@super::reduce)), splitting where one curve cannot follow, so that every output
//!   frame is within the [`Tolerance`] of the ideal (a track that cannot be verified gets a
//!   key at every frame, exact). Keys stay on whole frames; their values are the ideal values
//!   there, which for a rounded key differ from the source key by the motion of under half a
//!   frame.
//! * **Camera cuts stay cuts.** A cut is a pair of camera keys one frame apart (§6.6). The ideal
//!   camera jumps where the source jumps, and a jump cannot be fitted inside a longer segment,
//!   so the output gets keys on the two frames around it: one frame apart again. When slowing
//!   down, the frame before the jump gets a copy of the held key.
//! * **Long segments are carried, never sampled.** A segment of over
//!   [`LONG_SEGMENT`](super::LONG_SEGMENT) output frames keeps its source curve between its
//!   two keys, exact when both scale to whole frames; the keys on either side are retimed as
//!   separate runs. So the work follows the keys, and a key at frame 4,294,967,295 costs no
//!   more than one at frame 30.
//! * Morphs blend linearly and are refitted the same way (straight lines). Light and
//!   self-shadow keys move to the nearest frame with their values (their blends are linear, so
//!   the timing moves by under half a frame); property keys (steps) move to the first frame at
//!   or after their time, which is exact at integer frames. Where two such keys land on one
//!   frame the later one stays.

use super::reduce::measure::source_time;
use super::reduce::{
    self, measure_with, par_map, segment, BoneFit, CameraFit, MeasuredErrors, MorphFit,
    MorphSamples, Tolerance,
};
use super::EditError;
use crate::curve::Curve;
use crate::eval::{Cursor, MotionSampler};
use crate::format::{BoneKey, CameraKey, Keyframe, MorphKey, Motion, Section};

/// What [`retime`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetimeReport {
    /// The time factor applied: output frame = source frame × factor (2 makes it half as fast).
    pub factor: f64,
    /// Source segments (bone, morph, camera) carried over with their curves.
    pub segments_kept: usize,
    /// Source segments that had to be refitted because a key was rounded to a whole frame.
    pub segments_refitted: usize,
    /// The input's key counts.
    pub before: reduce::KeyCounts,
    /// The output's key counts.
    pub after: reduce::KeyCounts,
    /// The output against the ideal, at every output frame.
    pub errors: MeasuredErrors,
    /// Tracks that got a key at every frame because no fit could be verified.
    pub dense_tracks: Vec<String>,
}

/// A track's keys at output frames (frame, whether the scaled time was whole), the first
/// output frame of its reference, and the source time of every reference frame.
type Layout = (Vec<(u32, bool)>, u32, Vec<f64>);

/// An output frame for source frame `f`: the time, and whether it is whole.
fn scaled(f: u32, factor: f64) -> Result<(u32, bool), EditError> {
    let t = f64::from(f) * factor;
    let g = t.round();
    if g > f64::from(u32::MAX) {
        return Err(overflow(String::new(), f, g));
    }
    Ok((g as u32, (t - g).abs() < 1e-9))
}

fn overflow(key: String, source_frame: u32, frame: f64) -> EditError {
    EditError::FrameOverflow { key, source_frame, frame: frame as u64 }
}

/// Refuses, before any work, a factor that would move some key past the largest frame number,
/// naming the first such key. A key's output frame is at most its scaled time rounded up.
fn check_frames(motion: &Motion, factor: f64) -> Result<(), EditError> {
    let check = |key: &dyn Fn() -> String, f: u32| {
        let t = (f64::from(f) * factor - 1e-9).ceil();
        if t > f64::from(u32::MAX) {
            return Err(overflow(key(), f, t));
        }
        Ok(())
    };
    for k in &motion.bones {
        check(&|| format!("bone {:?}", k.name), k.frame)?;
    }
    for k in &motion.morphs {
        check(&|| format!("morph {:?}", k.name), k.frame)?;
    }
    let unnamed = [
        (Section::Camera, motion.cameras.iter().map(|k| k.frame).max()),
        (Section::Light, motion.lights.iter().map(|k| k.frame).max()),
        (Section::SelfShadow, motion.shadows.iter().map(|k| k.frame).max()),
        (Section::Property, motion.properties.iter().map(|k| k.frame).max()),
    ];
    for (section, last) in unnamed {
        if let Some(f) = last {
            check(&|| section.name().to_owned(), f)?;
        }
    }
    Ok(())
}

/// Retimes `motion` by `factor` (see the module documentation).
pub fn retime(
    motion: &Motion,
    factor: f64,
    tolerance: &Tolerance,
) -> Result<(Motion, RetimeReport), EditError> {
    if !(factor.is_finite() && factor > 0.0) {
        return Err(EditError::BadFactor(factor));
    }
    check_frames(motion, factor)?;
    let sampler = MotionSampler::new(motion);
    let r = Retimer { motion, sampler: &sampler, factor, tol: tolerance.internal() };
    let mut report =
        RetimeReport { factor, before: reduce::KeyCounts::of(motion), ..RetimeReport::default() };
    let mut out = Motion {
        bones: r.bones(&mut report)?,
        morphs: r.morphs(&mut report)?,
        cameras: r.camera(&mut report)?,
        ..motion.without_keys()
    };
    // Linear and step sections: keys move, values stay.
    let nearest = |f: u32| scaled(f, factor).map(|s| s.0);
    let at_or_after = |f: u32| -> Result<u32, EditError> {
        let t = (f64::from(f) * factor - 1e-9).ceil().max(0.0);
        if t > f64::from(u32::MAX) {
            return Err(overflow("property".into(), f, t));
        }
        Ok(t as u32)
    };
    out.lights = r.moved(nearest)?;
    out.shadows = r.moved(nearest)?;
    out.properties = r.moved(at_or_after)?;

    report.after = reduce::KeyCounts::of(&out);
    report.errors = measure_with(motion, &out, reduce::measure::last_frame(&out), factor);
    Ok((out, report))
}

/// One retiming: the source, its tracks, the factor and the fitters' tolerance.
struct Retimer<'a> {
    motion: &'a Motion,
    sampler: &'a MotionSampler,
    factor: f64,
    tol: Tolerance,
}

impl Retimer<'_> {
    /// Output frames of a track's keys, and its reference range: from the last frame at or
    /// before its first key's time to the first frame at or after its last key's, so that the
    /// output reaches both end values even when the keys round onto one frame.
    fn layout(&self, frames: &[u32]) -> Result<Layout, EditError> {
        let factor = self.factor;
        let keys = frames.iter().map(|&f| scaled(f, factor)).collect::<Result<Vec<_>, _>>()?;
        let first = (f64::from(frames[0]) * factor + 1e-9).floor() as u32;
        let last =
            (f64::from(frames[frames.len() - 1]) * factor - 1e-9).ceil().max(f64::from(first));
        if last > f64::from(u32::MAX) {
            return Err(overflow(String::new(), frames[frames.len() - 1], last));
        }
        Ok((keys, first, (first..=last as u32).map(|g| source_time(g, factor)).collect()))
    }

    /// The runs of a track's keys, split at segments of over [`reduce::LONG_SEGMENT`] output
    /// frames. Such a segment is never sampled: it keeps its source curve between its keys,
    /// which is exact when both scale to whole frames, and costs nothing however long it is.
    fn runs(&self, frames: &[u32]) -> Vec<std::ops::Range<usize>> {
        reduce::scaled_runs(frames, self.factor)
    }

    /// Counts a long segment before `frames[i]` (between runs) as kept or refitted.
    fn count_long_segment(&self, frames: &[u32], i: usize, report: &mut RetimeReport) {
        let whole = |f: u32| scaled(f, self.factor).is_ok_and(|s| s.1);
        if whole(frames[i - 1]) && whole(frames[i]) {
            report.segments_kept += 1;
        } else {
            report.segments_refitted += 1;
        }
    }

    /// Bone tracks, refitted in parallel; segments between whole frames keep their curves.
    fn bones(&self, report: &mut RetimeReport) -> Result<Vec<BoneKey>, EditError> {
        let tracks = self.sampler.bone_tracks();
        let items: Vec<_> = tracks.iter().zip(self.sampler.source_keys(Section::Bone)).collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let results = par_map(&items, threads, |&(track, order)| -> Result<_, EditError> {
            let mut runs = Vec::new();
            for run in self.runs(track.frames()) {
                runs.push((run.start, self.bone_run(track, order, run)?));
            }
            Ok(runs)
        });
        let mut out = Vec::new();
        for (result, &(track, order)) in results.into_iter().zip(&items) {
            for (start, (mut keys, kept, refitted, dense)) in result? {
                report.segments_kept += kept;
                report.segments_refitted += refitted;
                if dense {
                    report.dense_tracks.push(keys[0].name.to_string());
                }
                if start > 0 {
                    self.count_long_segment(track.frames(), start, report);
                    // The long segment before this run keeps its source curve.
                    let source = &self.motion.bones[order[start]];
                    keys[0].interpolation = source.interpolation;
                }
                out.extend(keys);
            }
        }
        Ok(out)
    }

    /// The keys of one run of a bone track, with the segments kept and refitted and whether
    /// the run fell back to a key at every frame.
    fn bone_run(
        &self,
        track: &crate::eval::BoneTrack,
        order: &[usize],
        run: std::ops::Range<usize>,
    ) -> Result<(Vec<BoneKey>, usize, usize, bool), EditError> {
        let (keys, first, times) = self.layout(&track.frames()[run.clone()])?;
        let name = self.motion.bones[order[0]].name;
        let r = reduce::bone_reference_at(track, name, first, times.into_iter());
        let mut fit = BoneFit::new(&r, self.tol);
        for (i, &(g, whole)) in keys.iter().enumerate() {
            fit.force_break((g - first) as usize);
            if i > 0 && whole && keys[i - 1].1 && keys[i - 1].0 < g {
                let a = (keys[i - 1].0 - first) as usize;
                fit.hint(a, (g - first) as usize, track.curves(run.start + i));
            }
        }
        let plan = segment::verified(&fit, segment::greedy(&fit));
        let kept = kept_segments(plan.as_deref(), |a, b, c| fit.is_hinted(a, b, c));
        let dense = plan.is_none();
        let plan = plan.unwrap_or_else(|| {
            (0..segment::Track::len(&fit)).map(|i| (i, [Curve::LINEAR; 4])).collect()
        });
        Ok((fit.keys(&plan), kept, keys.len() - 1 - kept.min(keys.len() - 1), dense))
    }

    /// Morph tracks: straight lines, refitted; a segment counts as kept when both its keys
    /// scale to whole frames.
    fn morphs(&self, report: &mut RetimeReport) -> Result<Vec<MorphKey>, EditError> {
        let mut out = Vec::new();
        let orders = self.sampler.source_keys(Section::Morph);
        for (track, order) in self.sampler.morph_tracks().iter().zip(orders) {
            let name = self.motion.morphs[order[0]].name;
            for run in self.runs(track.frames()) {
                let frames = &track.frames()[run.clone()];
                if run.start > 0 {
                    self.count_long_segment(track.frames(), run.start, report);
                }
                let (keys, first, times) = self.layout(frames)?;
                let mut cursor = Cursor::default();
                let weights = times.iter().map(|&t| track.sample_with(&mut cursor, t)).collect();
                let r = MorphSamples { name, first, weights };
                let mut fit = MorphFit::new(&r, self.tol.morph);
                keys.iter().for_each(|&(g, _)| fit.force_break((g - first) as usize));
                let whole = keys.windows(2).filter(|w| w[0].1 && w[1].1 && w[0].0 < w[1].0).count();
                report.segments_kept += whole;
                report.segments_refitted += keys.len() - 1 - whole;
                let plan = segment::verified(&fit, segment::greedy(&fit)).unwrap_or_else(|| {
                    report.dense_tracks.push(name.to_string());
                    (0..r.weights.len()).map(|i| (i, ())).collect()
                });
                out.extend(fit.keys(&plan));
            }
        }
        Ok(out)
    }

    /// The camera track, refitted with its cuts kept as cuts.
    fn camera(&self, report: &mut RetimeReport) -> Result<Vec<CameraKey>, EditError> {
        let Some(track) = self.sampler.camera_track() else {
            return Ok(Vec::new());
        };
        let order = &self.sampler.source_keys(Section::Camera)[0];
        let source: Vec<CameraKey> = order.iter().map(|&k| self.motion.cameras[k]).collect();
        let mut out = Vec::new();
        for run in self.runs(track.frames()) {
            let mut keys = self.camera_run(track, &source[run.clone()], report)?;
            if run.start > 0 {
                self.count_long_segment(track.frames(), run.start, report);
                keys[0].interpolation = source[run.start].interpolation;
            }
            out.extend(keys);
        }
        Ok(out)
    }

    /// The keys of one run of the camera track, whose source keys are `source`.
    fn camera_run(
        &self,
        track: &crate::eval::CameraTrack,
        source: &[CameraKey],
        report: &mut RetimeReport,
    ) -> Result<Vec<CameraKey>, EditError> {
        let frames: Vec<u32> = source.iter().map(|k| k.frame).collect();
        let (keys, first, times) = self.layout(&frames)?;
        let mut cursor = Cursor::default();
        let r = reduce::CameraSamples {
            first,
            samples: times.iter().map(|&t| track.sample_with(&mut cursor, t)).collect(),
        };
        let mut fit = CameraFit::new(&r, self.tol);
        let last = first + r.samples.len() as u32 - 1;
        for (i, &(g, whole)) in keys.iter().enumerate() {
            fit.force_break((g - first) as usize);
            if i > 0 && whole && keys[i - 1].1 && keys[i - 1].0 < g {
                let a = (keys[i - 1].0 - first) as usize;
                fit.hint(a, (g - first) as usize, source[i].interpolation.curves());
            }
            // A cut ending at source frame f + 1 jumps at the first output frame at or after
            // (f + 1)·factor: keys there and on the frame before keep it a cut.
            if i > 0 && source[i].frame - source[i - 1].frame == 1 && last > first {
                let jump = ((f64::from(source[i].frame) * self.factor) - 1e-9).ceil() as u32;
                let jump = jump.clamp(first + 1, last);
                fit.force_break((jump - first) as usize);
                fit.force_break((jump - 1 - first) as usize);
            }
        }
        let plan = segment::verified(&fit, segment::greedy(&fit));
        let kept = kept_segments(plan.as_deref(), |a, b, c| fit.is_hinted(a, b, c));
        report.segments_kept += kept;
        report.segments_refitted += keys.len() - 1 - kept.min(keys.len() - 1);
        let plan = plan.unwrap_or_else(|| {
            report.dense_tracks.push("camera".into());
            (0..r.samples.len()).map(|i| (i, [Curve::LINEAR; 6])).collect()
        });
        Ok(fit.keys(&plan))
    }

    /// An unnamed section's keys at new frames; where several land on one frame the later
    /// stays.
    fn moved<K: Keyframe>(
        &self,
        to: impl Fn(u32) -> Result<u32, EditError>,
    ) -> Result<Vec<K>, EditError> {
        let keys = K::section(self.motion);
        let mut out: Vec<K> = Vec::new();
        for &k in self.sampler.source_keys(K::SECTION).iter().flatten() {
            let f = to(keys[k].frame())?;
            let key = keys[k].with_frame(f);
            match out.last_mut() {
                Some(prev) if prev.frame() == f => *prev = key,
                _ => out.push(key),
            }
        }
        Ok(out)
    }
}

/// Segments of a verified plan whose curves are the source's (the hints).
fn kept_segments<C>(
    plan: Option<&[(usize, C)]>,
    hinted: impl Fn(usize, usize, &C) -> bool,
) -> usize {
    plan.map_or(0, |p| p.windows(2).filter(|w| hinted(w[0].0, w[1].0, &w[1].1)).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubling_is_exact_and_halving_back_reproduces() {
        let motion = crate::example::example_motion();
        let tol = Tolerance::default();
        let (slow, report) = retime(&motion, 2.0, &tol).unwrap();
        assert_eq!(report.segments_refitted, 0, "{report:?}");
        assert!(report.errors.within(&tol), "{report:?}");
        // Bone curves are carried over as they are.
        assert!(slow
            .bones
            .iter()
            .zip(&motion.bones)
            .all(|(a, b)| a.interpolation.curves() == b.interpolation.curves() || a.frame == 0));
        let (back, report) = retime(&slow, 0.5, &tol).unwrap();
        assert!(report.errors.within(&tol), "{report:?}");
        let e = reduce::measure(&motion, &back);
        assert!(e.within(&tol), "{e:?}");
    }

    #[test]
    fn rounding_refits_within_tolerance_and_cuts_stay_cuts() {
        let mut motion = crate::example::example_motion();
        // A cut: two camera keys one frame apart.
        let mut cut = motion.cameras[1];
        cut.frame = 31;
        cut.target.x = 5.0;
        motion.cameras[1].frame = 30;
        motion.cameras.push(cut);
        let tol = Tolerance::default();
        for factor in [0.8, 1.5, 2.0, 0.5, 24.0 / 30.0] {
            let (out, report) = retime(&motion, factor, &tol).unwrap();
            assert!(report.errors.within(&tol), "{factor}: {report:?}");
            let frames: Vec<u32> = out.cameras.iter().map(|k| k.frame).collect();
            let jump = out.cameras.iter().position(|k| k.target.x == 5.0).unwrap();
            assert_eq!(frames[jump] - frames[jump - 1], 1, "{factor}: {frames:?}");
        }
    }
}
