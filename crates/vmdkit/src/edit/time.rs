//! Moving keys in time ([`shift`]) and cutting a range out of a motion ([`trim`]).
//!
//! **Shift** adds N to every frame of every section. Frames are unsigned, so a negative shift
//! that would move a key before frame 0 is an **error** ([`EditError::BeforeFrameZero`]), not
//! a clamp: clamping would pile keys onto frame 0 and change the motion silently. Trim first to
//! drop what would fall off (the CLI's `shift --clip` does exactly that: trim from −N, then
//! shift). Shifting by N and then by −N gives back the same motion.
//!
//! **Trim** keeps the keys in [from, to] and, for each track whose range is cut inside a
//! segment, inserts a key at the cut frame holding the motion's exact value there (sampled as
//! MMD plays it). The segment's remaining piece gets the matching piece of its curves
//! ([`split`](super::split)), so the motion inside the range is unchanged up to the stated
//! rounding of split curves (β ≤ 0.00295 of a piece's length and value change, more only when
//! a control point had to be clamped; see [`TrimReport`]). Segments not cut are kept byte for
//! byte, and their values are exact. Morphs, lights and self-shadow distances blend linearly,
//! so their cut pieces are exact too. Property keys (visibility, IK) are steps: a key holding
//! every state in force is inserted at `from` when none is there. A track entirely outside the
//! range holds one value inside it; it keeps one key, at `from`, with that value. Frame numbers
//! are unchanged (shift afterwards, or use the CLI's `trim --rebase`). Duplicate keys (same
//! name and frame) are resolved as the sampler resolves them: the last in file order stays.

use super::split::sub_curve;
use super::{group_tracks, EditError};
use crate::curve::Curve;
use crate::eval::MotionSampler;
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, LightKey, MorphKey,
    Motion, PropertyKey, ShadowKey,
};

/// Shifts every key of `motion` by `frames` (see the module documentation).
pub fn shift(motion: &Motion, frames: i64) -> Result<Motion, EditError> {
    let moved = |f: u32| -> Result<u32, EditError> {
        let to = i64::from(f) + frames;
        if to < 0 {
            Err(EditError::BeforeFrameZero { frame: f, shift: frames })
        } else {
            u32::try_from(to).map_err(|_| EditError::FrameOverflow { frame: to as u64 })
        }
    };
    let mut out = motion.clone();
    for k in &mut out.bones {
        k.frame = moved(k.frame)?;
    }
    for k in &mut out.morphs {
        k.frame = moved(k.frame)?;
    }
    for k in &mut out.cameras {
        k.frame = moved(k.frame)?;
    }
    for k in &mut out.lights {
        k.frame = moved(k.frame)?;
    }
    for k in &mut out.shadows {
        k.frame = moved(k.frame)?;
    }
    for k in &mut out.properties {
        k.frame = moved(k.frame)?;
    }
    Ok(out)
}

/// What [`trim`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrimReport {
    /// Keys inserted at the cut points.
    pub inserted: usize,
    /// Keys outside the range (or hidden duplicates) that were dropped.
    pub dropped: usize,
    /// Curves split at a cut point (bone and camera channels).
    pub split_curves: usize,
    /// The largest β over the split curves: the stored piece is within β (in its own unit
    /// square of progress and weight) of the exact piece.
    pub max_curve_bound: f64,
    /// Split curves with a control point outside the unit square, clamped; their β is above the
    /// rounding bound 0.00295.
    pub clamped_curves: usize,
}

impl TrimReport {
    fn piece(&mut self, curve: Curve, p0: f64, p1: f64) -> Curve {
        let piece = sub_curve(curve, p0, p1);
        self.split_curves += 1;
        self.max_curve_bound = self.max_curve_bound.max(piece.bound);
        self.clamped_curves += usize::from(piece.clamped);
        piece.curve
    }
}

/// Keeps `from..=to` of `motion` (see the module documentation).
pub fn trim(motion: &Motion, from: u32, to: u32) -> Result<(Motion, TrimReport), EditError> {
    if from > to {
        return Err(EditError::EmptyRange { from, to });
    }
    let sampler = MotionSampler::new(motion);
    let mut report = TrimReport::default();
    let mut out = Motion {
        bones: Vec::new(),
        morphs: Vec::new(),
        cameras: Vec::new(),
        lights: Vec::new(),
        shadows: Vec::new(),
        properties: Vec::new(),
        ..motion.clone()
    };
    let range = Range { from, to };

    let (tracks, _) = group_tracks(&motion.bones, |k| k.name.bytes(), |k| k.frame);
    for track in tracks {
        let keys: Vec<BoneKey> = track.iter().map(|&k| motion.bones[k]).collect();
        let sampled = sampler.bone_track(keys[0].name.bytes()).expect("every name has a track");
        let at = |t: u32, earlier: &BoneKey| {
            let s = sampled.sample(t);
            BoneKey {
                name: earlier.name,
                frame: t,
                translation: s.translation,
                rotation: s.rotation,
                interpolation: BoneInterpolation::canonical([Curve::LINEAR; 4], s.physics),
            }
        };
        let reshape = |report: &mut TrimReport, dest: BoneKey, src: &BoneKey, p0: f64, p1: f64| {
            let curves = src.interpolation.curves().map(|c| report.piece(c, p0, p1));
            BoneKey {
                interpolation: BoneInterpolation::canonical(curves, dest.interpolation.physics()),
                ..dest
            }
        };
        out.bones.extend(range.cut(
            &keys,
            |k| k.frame,
            |k, f| BoneKey { frame: f, ..*k },
            at,
            reshape,
            &mut report,
        ));
    }

    let (tracks, _) = group_tracks(&motion.morphs, |k| k.name.bytes(), |k| k.frame);
    for track in tracks {
        let keys: Vec<MorphKey> = track.iter().map(|&k| motion.morphs[k]).collect();
        let sampled = sampler.morph_track(keys[0].name.bytes()).expect("every name has a track");
        let at = |t: u32, earlier: &MorphKey| MorphKey {
            name: earlier.name,
            frame: t,
            weight: sampled.sample(t),
        };
        out.morphs.extend(range.cut(
            &keys,
            |k| k.frame,
            |k, f| MorphKey { frame: f, ..*k },
            at,
            linear,
            &mut report,
        ));
    }

    if let Some(camera) = sampler.camera_track() {
        let keys = sorted(&motion.cameras, |k| k.frame);
        let at = |t: u32, earlier: &CameraKey| {
            let s = camera.sample(t);
            CameraKey {
                frame: t,
                distance: s.distance,
                target: s.target,
                rotation: s.rotation,
                interpolation: CameraInterpolation::DEFAULT,
                // Whole degrees in the file: a view angle between keys is rounded.
                view_angle: s.fov.round().max(0.0) as u32,
                perspective_byte: earlier.perspective_byte,
            }
        };
        let reshape =
            |report: &mut TrimReport, dest: CameraKey, src: &CameraKey, p0: f64, p1: f64| {
                let curves = src.interpolation.curves().map(|c| report.piece(c, p0, p1));
                CameraKey { interpolation: CameraInterpolation::new(curves), ..dest }
            };
        out.cameras = range.cut(
            &keys,
            |k| k.frame,
            |k, f| CameraKey { frame: f, ..*k },
            at,
            reshape,
            &mut report,
        );
    }
    if let Some(light) = sampler.light_track() {
        let keys = sorted(&motion.lights, |k| k.frame);
        let at = |t: u32, _: &LightKey| {
            let s = light.sample(t);
            LightKey { frame: t, color: s.color, direction: s.direction }
        };
        out.lights = range.cut(
            &keys,
            |k| k.frame,
            |k, f| LightKey { frame: f, ..*k },
            at,
            linear,
            &mut report,
        );
    }
    if let Some(shadow) = sampler.shadow_track() {
        let keys = sorted(&motion.shadows, |k| k.frame);
        let at = |t: u32, _: &ShadowKey| {
            let s = shadow.sample(t);
            ShadowKey { frame: t, mode: s.mode, distance: s.distance }
        };
        out.shadows = range.cut(
            &keys,
            |k| k.frame,
            |k, f| ShadowKey { frame: f, ..*k },
            at,
            linear,
            &mut report,
        );
    }
    out.properties = trim_properties(motion, &sampler, range, &mut report);

    report.dropped = (motion.bones.len()
        + motion.morphs.len()
        + motion.cameras.len()
        + motion.lights.len()
        + motion.shadows.len()
        + motion.properties.len()
        + report.inserted)
        .saturating_sub(
            out.bones.len()
                + out.morphs.len()
                + out.cameras.len()
                + out.lights.len()
                + out.shadows.len()
                + out.properties.len(),
        );
    Ok((out, report))
}

/// Keys without curves: a cut piece of a linear blend is the linear blend of its ends.
fn linear<K: Copy>(_: &mut TrimReport, dest: K, _: &K, _: f64, _: f64) -> K {
    dest
}

/// An unnamed section's keys sorted by frame, duplicates resolved.
fn sorted<K: Copy>(keys: &[K], frame: impl Fn(&K) -> u32) -> Vec<K> {
    let (tracks, _) = group_tracks(keys, |_| &[], frame);
    tracks.into_iter().flatten().map(|k| keys[k]).collect()
}

/// Property keys: steps, so only a key at `from` holding the states in force is added.
fn trim_properties(
    motion: &Motion,
    sampler: &MotionSampler,
    range: Range,
    report: &mut TrimReport,
) -> Vec<PropertyKey> {
    let keys = {
        let (tracks, _) = group_tracks(&motion.properties, |_| &[], |k| k.frame);
        tracks.into_iter().flatten().map(|k| motion.properties[k].clone()).collect::<Vec<_>>()
    };
    let mut out: Vec<PropertyKey> =
        keys.iter().filter(|k| (range.from..=range.to).contains(&k.frame)).cloned().collect();
    let has_earlier = keys.first().is_some_and(|k| k.frame < range.from);
    if has_earlier && out.first().map(|k| k.frame) != Some(range.from) {
        let t = f64::from(range.from);
        let visible = sampler.visibility_track().is_some_and(|v| v.sample(t));
        out.insert(
            0,
            PropertyKey {
                frame: range.from,
                visible_byte: u8::from(visible),
                ik: sampler
                    .ik_tracks()
                    .iter()
                    .map(|ik| IkState { name: *ik.name(), enabled_byte: u8::from(ik.sample(t)) })
                    .collect(),
            },
        );
        report.inserted += 1;
    }
    out
}

#[derive(Clone, Copy)]
struct Range {
    from: u32,
    to: u32,
}

impl Range {
    /// One track's keys (sorted, one per frame) cut to the range. `at(t, earlier)` makes a key
    /// at frame t from the sampled value (with `earlier` the key before t, for what steps);
    /// `reshape(report, dest, src, p0, p1)` gives `dest` the piece p0..p1 of `src`'s curves.
    fn cut<K: Copy>(
        self,
        keys: &[K],
        frame: impl Fn(&K) -> u32,
        refram: impl Fn(&K, u32) -> K,
        at: impl Fn(u32, &K) -> K,
        reshape: impl Fn(&mut TrimReport, K, &K, f64, f64) -> K,
        report: &mut TrimReport,
    ) -> Vec<K> {
        let n = keys.len();
        let f = |i: usize| frame(&keys[i]);
        let first = keys.partition_point(|k| frame(k) < self.from);
        let end = keys.partition_point(|k| frame(k) <= self.to);
        // Progress of `t` through the segment ending at key i.
        let progress = |t: u32, i: usize| f64::from(t - f(i - 1)) / f64::from(f(i) - f(i - 1));
        let cut_left = first > 0 && first < n && f(first) > self.from;
        let cut_right = end > 0 && end < n && f(end - 1) < self.to;
        let mut out = Vec::with_capacity(end.saturating_sub(first) + 2);
        if cut_left {
            out.push(at(self.from, &keys[first - 1]));
            report.inserted += 1;
        }
        if first < end {
            for (i, &key) in keys.iter().enumerate().take(end).skip(first) {
                out.push(if i == first && cut_left {
                    reshape(report, key, &key, progress(self.from, i), 1.0)
                } else {
                    key
                });
            }
            if cut_right {
                let key = at(self.to, &keys[end - 1]);
                out.push(reshape(report, key, &keys[end], 0.0, progress(self.to, end)));
                report.inserted += 1;
            }
        } else if cut_left && cut_right {
            // Both cuts inside one segment (first == end): the middle piece.
            if self.to > self.from {
                let key = at(self.to, &keys[end - 1]);
                out.push(reshape(
                    report,
                    key,
                    &keys[end],
                    progress(self.from, end),
                    progress(self.to, end),
                ));
                report.inserted += 1;
            }
        } else if n > 0 {
            // The whole track is before or after the range, which holds its end value.
            let held = if f(n - 1) < self.from { n - 1 } else { 0 };
            out.push(refram(&keys[held], self.from));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_errors_before_zero_and_round_trips() {
        let motion = crate::example::example_motion();
        assert_eq!(shift(&motion, -1), Err(EditError::BeforeFrameZero { frame: 0, shift: -1 }));
        let later = shift(&motion, 100).unwrap();
        assert_eq!(later.bones[0].frame, 100);
        assert_eq!(shift(&later, -100).unwrap(), motion);
        assert!(matches!(shift(&later, i64::from(u32::MAX)), Err(EditError::FrameOverflow { .. })));
    }

    #[test]
    fn trim_keeps_values_inside_the_range() {
        let motion = crate::example::example_motion();
        let (cut, report) = trim(&motion, 7, 40).unwrap();
        assert!(report.inserted > 0 && report.split_curves > 0, "{report:?}");
        assert!(cut.bones.iter().all(|k| (7..=40).contains(&k.frame)));
        let (a, b) = (MotionSampler::new(&motion), MotionSampler::new(&cut));
        for (ta, tb) in a.bone_tracks().iter().zip(b.bone_tracks()) {
            for t in 7..=40 {
                let (x, y) = (ta.sample(t), tb.sample(t));
                assert!((x.translation - y.translation).length() < 1e-3, "t = {t}");
                assert!(x.rotation.dot(y.rotation).abs() > 1.0 - 1e-5, "t = {t}");
            }
        }
        for t in 7..=40 {
            assert_eq!(a.morph_tracks()[0].sample(t), b.morph_tracks()[0].sample(t));
        }
        assert!(matches!(trim(&motion, 5, 4), Err(EditError::EmptyRange { .. })));
    }
}
