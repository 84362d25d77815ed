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
use super::EditError;
use crate::curve::Curve;
use crate::eval::{property_key, SampledKey};
use crate::eval::{Cursor, MotionSampler};
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, Keyframe, LightKey, MorphKey,
    Motion, PropertyKey, Section, SectionMapper, ShadowKey,
};

/// Shifts every key of `motion` by `frames` (see the module documentation).
pub fn shift(motion: &Motion, frames: i64) -> Result<Motion, EditError> {
    motion.try_map_sections(&mut Shift { motion, frames })
}

/// Every key of `motion` moved by `frames`.
struct Shift<'a> {
    motion: &'a Motion,
    frames: i64,
}

impl SectionMapper for Shift<'_> {
    type Error = EditError;

    fn map<K: Keyframe>(&mut self, keys: &[K]) -> Result<Vec<K>, EditError> {
        let shift = self.frames;
        let moved = |k: &K| -> Result<K, EditError> {
            let frame = k.frame();
            // In i128, where no u32 frame plus i64 shift overflows.
            let to = i128::from(frame) + i128::from(shift);
            match u32::try_from(to) {
                Ok(to) => Ok(k.with_frame(to)),
                Err(_) if to < 0 => {
                    Err(EditError::BeforeFrameZero { key: key_label(self.motion, k), frame, shift })
                }
                Err(_) => Err(EditError::ShiftBeyondLastFrame {
                    key: key_label(self.motion, k),
                    frame,
                    shift,
                    to: to as u64,
                }),
            }
        };
        keys.iter().map(moved).collect()
    }
}

/// A key as errors name it: `bone "右腕"`, or the section alone for unnamed sections.
fn key_label<K: Keyframe>(motion: &Motion, key: &K) -> String {
    match key.name() {
        Some(name) => format!("{} {:?}", K::SECTION, name.decode(motion.detect_encoding()).text),
        None => K::SECTION.to_string(),
    }
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
    let range = Range { from, to };
    let mut out = Motion {
        bones: trim_section(motion, &sampler, range, &mut report),
        morphs: trim_section(motion, &sampler, range, &mut report),
        cameras: trim_section(motion, &sampler, range, &mut report),
        lights: trim_section(motion, &sampler, range, &mut report),
        shadows: trim_section(motion, &sampler, range, &mut report),
        ..motion.without_keys()
    };
    out.properties = trim_properties(motion, &sampler, range, &mut report);
    report.dropped = (motion.key_count() + report.inserted).saturating_sub(out.key_count());
    Ok((out, report))
}

/// Every track of one section cut to the range.
fn trim_section<K: Cut>(
    motion: &Motion,
    sampler: &MotionSampler,
    range: Range,
    report: &mut TrimReport,
) -> Vec<K> {
    let section = K::section(motion);
    let mut out = Vec::new();
    for (track, order) in K::tracks(sampler).iter().zip(sampler.source_keys(K::SECTION)) {
        let keys: Vec<K> = order.iter().map(|&k| section[k]).collect();
        out.extend(range.cut(&keys, |t, earlier| K::at(track, t, earlier), report));
    }
    out
}

/// How trimming makes keys at a cut point.
trait Cut: SampledKey + Copy {
    /// A key at frame `t` holding the sampled value; `earlier` is the key before `t`, for what
    /// the sample does not say.
    fn at(track: &Self::Track, t: u32, earlier: &Self) -> Self {
        let _ = earlier;
        Self::sampled_at(track, t)
    }

    /// The key the track plays at frame `t`.
    fn sampled_at(track: &Self::Track, t: u32) -> Self {
        Self::sampled(track, &mut Cursor::default(), f64::from(t), t)
    }

    /// `self` with the piece `p0..p1` of `src`'s curves. Keys without curves blend linearly,
    /// and a cut piece of a linear blend is the linear blend of its ends: nothing to do.
    fn reshape(self, src: &Self, report: &mut TrimReport, p0: f64, p1: f64) -> Self {
        let _ = (src, report, p0, p1);
        self
    }
}

impl Cut for BoneKey {
    fn at(track: &Self::Track, t: u32, earlier: &Self) -> Self {
        // The earlier key's name field, padding included, as the keys around it have.
        BoneKey { name: earlier.name, ..Self::sampled_at(track, t) }
    }

    fn reshape(self, src: &Self, report: &mut TrimReport, p0: f64, p1: f64) -> Self {
        let curves = src.interpolation.curves().map(|c| report.piece(c, p0, p1));
        let physics = self.interpolation.physics();
        BoneKey { interpolation: BoneInterpolation::canonical(curves, physics), ..self }
    }
}

impl Cut for MorphKey {
    fn at(track: &Self::Track, t: u32, earlier: &Self) -> Self {
        MorphKey { name: earlier.name, ..Self::sampled_at(track, t) }
    }
}

impl Cut for CameraKey {
    fn at(track: &Self::Track, t: u32, earlier: &Self) -> Self {
        CameraKey { perspective_byte: earlier.perspective_byte, ..Self::sampled_at(track, t) }
    }

    fn reshape(self, src: &Self, report: &mut TrimReport, p0: f64, p1: f64) -> Self {
        let curves = src.interpolation.curves().map(|c| report.piece(c, p0, p1));
        CameraKey { interpolation: CameraInterpolation::new(curves), ..self }
    }
}

impl Cut for LightKey {}
impl Cut for ShadowKey {}

/// Property keys: steps, so only a key at `from` holding the states in force is added.
fn trim_properties(
    motion: &Motion,
    sampler: &MotionSampler,
    range: Range,
    report: &mut TrimReport,
) -> Vec<PropertyKey> {
    let order = sampler.source_keys(Section::Property).first().map_or(&[][..], |o| o);
    let keys: Vec<&PropertyKey> = order.iter().map(|&k| &motion.properties[k]).collect();
    let mut out: Vec<PropertyKey> = keys
        .iter()
        .filter(|k| (range.from..=range.to).contains(&k.frame))
        .map(|&k| k.clone())
        .collect();
    let has_earlier = keys.first().is_some_and(|k| k.frame < range.from);
    if has_earlier && out.first().map(|k| k.frame) != Some(range.from) {
        out.insert(0, property_key(sampler, range.from, f64::from(range.from)));
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
    /// at frame t from the sampled value (with `earlier` the key before t, for what steps).
    fn cut<K: Cut>(self, keys: &[K], at: impl Fn(u32, &K) -> K, report: &mut TrimReport) -> Vec<K> {
        let n = keys.len();
        let f = |i: usize| keys[i].frame();
        let first = keys.partition_point(|k| k.frame() < self.from);
        let end = keys.partition_point(|k| k.frame() <= self.to);
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
                    key.reshape(&key, report, progress(self.from, i), 1.0)
                } else {
                    key
                });
            }
            if cut_right {
                let key = at(self.to, &keys[end - 1]);
                out.push(key.reshape(&keys[end], report, 0.0, progress(self.to, end)));
                report.inserted += 1;
            }
        } else if cut_left && cut_right {
            // Both cuts inside one segment (first == end): the middle piece.
            if self.to > self.from {
                let key = at(self.to, &keys[end - 1]);
                let (p0, p1) = (progress(self.from, end), progress(self.to, end));
                out.push(key.reshape(&keys[end], report, p0, p1));
                report.inserted += 1;
            }
        } else if n > 0 {
            // The whole track is before or after the range, which holds its end value.
            let held = if f(n - 1) < self.from { n - 1 } else { 0 };
            out.push(keys[held].with_frame(self.from));
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
        let err = shift(&motion, -1).unwrap_err();
        let key = "bone \"右腕\"".to_string();
        assert_eq!(err, EditError::BeforeFrameZero { key, frame: 0, shift: -1 });
        assert_eq!(
            err.to_string(),
            "shifting by -1 frames would move the bone \"右腕\" key at frame 0 before frame 0"
        );
        let later = shift(&motion, 100).unwrap();
        assert_eq!(later.bones[0].frame, 100);
        assert_eq!(shift(&later, -100).unwrap(), motion);
        assert!(matches!(
            shift(&later, i64::from(u32::MAX)),
            Err(EditError::ShiftBeyondLastFrame { .. })
        ));
    }

    #[test]
    fn shift_past_the_last_frame_is_an_error_naming_the_key() {
        let mut motion = crate::example::example_motion();
        motion.cameras[1].frame = u32::MAX;
        let err = shift(&motion, 1).unwrap_err();
        let expected = EditError::ShiftBeyondLastFrame {
            key: "camera".into(),
            frame: u32::MAX,
            shift: 1,
            to: 1 << 32,
        };
        assert_eq!(err, expected);
        assert_eq!(
            err.to_string(),
            "shifting by 1 frames would move the camera key at frame 4294967295 to frame \
             4294967296, beyond the largest VMD frame number, 4294967295"
        );
        // Shifts whose sum overflows i64 are errors too, not a panic or a wrap.
        let max = shift(&motion, i64::MAX).unwrap_err();
        assert!(matches!(max, EditError::ShiftBeyondLastFrame { frame: 0, .. }), "{max:?}");
        let min = shift(&motion, i64::MIN).unwrap_err();
        assert!(matches!(min, EditError::BeforeFrameZero { frame: 0, .. }), "{min:?}");
        // The largest frame itself is fine, and shifts back to 0.
        let far = Motion { bones: vec![motion.bones[0].with_frame(u32::MAX)], ..Motion::default() };
        assert_eq!(shift(&far, -i64::from(u32::MAX)).unwrap().bones[0].frame, 0);
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
