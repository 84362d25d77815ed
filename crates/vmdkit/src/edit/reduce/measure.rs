//! How far one motion is from another, measured by playing both with the library's sampler at
//! every integer frame (long gaps between keys excepted, see [`measure_with`]). Used by [`reduce`](super::reduce()) for its report, by
//! [`retime`](crate::edit::retime()) and by the tests, so no bound is ever taken on the fitter's word.

use super::bone::angle_deg;
use super::runs::LONG_SEGMENT;
use crate::eval::{BoneSample, BoneTrack, CameraSample, CameraTrack, MorphTrack, MotionSampler};
use crate::format::Motion;

/// The largest differences found, per measure (see [`reduce`](super::reduce) for the units).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeasuredErrors {
    /// Bone translation, Euclidean, in model units.
    pub position: f64,
    /// Bone rotation angle, degrees.
    pub angle_degrees: f64,
    /// Morph weight.
    pub morph: f64,
    /// Camera target (Euclidean) and distance.
    pub camera_position: f64,
    /// Camera Euler angles (each) and view angle, degrees.
    pub camera_angle_degrees: f64,
    /// The frames measured: 0 through the last key of either motion.
    pub frames: u64,
    /// Gaps of over [`LONG_SEGMENT`] frames between keys where the motions differ, compared
    /// at `LONG_SEGMENT` evenly spaced frames instead of every frame (0 for the results of
    /// reduction and retiming, which keep such gaps exactly).
    pub sampled_gaps: u64,
}

impl MeasuredErrors {
    /// Whether every measure is within `tol` (camera measures against the same tolerances).
    pub fn within(&self, tol: &super::Tolerance) -> bool {
        self.position <= tol.position
            && self.angle_degrees <= tol.angle_degrees
            && self.morph <= tol.morph
            && self.camera_position <= tol.position
            && self.camera_angle_degrees <= tol.angle_degrees
    }
}

/// Compares `candidate` at the integer frames g in 0..=`last` with `reference` at source time
/// g / `factor` (1 for reductions; the retiming factor for [`retime`](crate::edit::retime())).
/// Tracks are matched by name; a track of the reference missing from the candidate counts as
/// the rest pose (or weight 0, or MMD's default camera), as a player would show it.
///
/// Every frame within [`LONG_SEGMENT`] frames of a key of either track is compared. A longer
/// gap between keys is skipped when both tracks hold the same segment there (the same end
/// values and curve, as reduction and retiming keep long segments), which is exact; otherwise
/// it is compared at `LONG_SEGMENT` evenly spaced frames and counted in
/// [`MeasuredErrors::sampled_gaps`]. So the cost follows the keys, not the frame span.
pub fn measure_with(
    reference: &Motion,
    candidate: &Motion,
    last: u32,
    factor: f64,
) -> MeasuredErrors {
    let (a, b) = (MotionSampler::new(reference), MotionSampler::new(candidate));
    let mut e = MeasuredErrors { frames: u64::from(last) + 1, ..MeasuredErrors::default() };
    let time = |g: u32| source_time(g, factor);
    let mut sampled = 0;
    for track in a.bone_tracks() {
        let other = b.bone_track(track.name().bytes());
        let cand_frames = other.map_or(&[][..], |t| t.frames());
        let same = |i: usize, j: usize| same_segment(track, other, i, j);
        sampled += compare_frames(track.frames(), cand_frames, last, factor, same, |f| {
            let x = track.sample(time(f));
            let y = other.map_or(BoneSample::default(), |t| t.sample(f));
            e.position =
                e.position.max((x.translation.as_dvec3() - y.translation.as_dvec3()).length());
            e.angle_degrees = e.angle_degrees.max(angle_deg(x.rotation, y.rotation));
        });
    }
    for track in a.morph_tracks() {
        let other = b.morph_track(track.name().bytes());
        let cand_frames = other.map_or(&[][..], |t| t.frames());
        let same = |i: usize, j: usize| same_segment(track, other, i, j);
        sampled += compare_frames(track.frames(), cand_frames, last, factor, same, |f| {
            let y = other.map_or(0.0, |t| t.sample(f));
            e.morph = e.morph.max(f64::from((track.sample(time(f)) - y).abs()));
        });
    }
    if let Some(track) = a.camera_track() {
        let other = b.camera_track();
        let cand_frames = other.map_or(&[][..], |t| t.frames());
        let same = |i: usize, j: usize| same_segment(track, other, i, j);
        sampled += compare_frames(track.frames(), cand_frames, last, factor, same, |f| {
            let x = track.sample(time(f));
            let y = other.map_or(CameraSample::MMD_DEFAULT, |t| t.sample(f));
            let pos = (x.target.as_dvec3() - y.target.as_dvec3())
                .length()
                .max(f64::from((x.distance - y.distance).abs()));
            let rot =
                (x.rotation.as_dvec3() - y.rotation.as_dvec3()).abs().max_element().to_degrees();
            e.camera_position = e.camera_position.max(pos);
            e.camera_angle_degrees =
                e.camera_angle_degrees.max(rot).max(f64::from((x.fov - y.fov).abs()));
        });
    }
    e.sampled_gaps = sampled;
    e
}

/// The source time of output frame g, snapped to a whole frame when within 1e-9 of one so that
/// keys that scale exactly are sampled exactly on their frame.
pub(crate) fn source_time(g: u32, factor: f64) -> f64 {
    let t = f64::from(g) / factor;
    if (t - t.round()).abs() < 1e-9 {
        t.round()
    } else {
        t
    }
}

/// What tells two tracks' segments apart: their end keys and the curve between them.
trait Segments {
    fn len(&self) -> usize;
    fn same_key(&self, other: &Self, i: usize, j: usize) -> bool;
    fn same_curve(&self, other: &Self, i: usize, j: usize) -> bool;
}

/// Tracks with keys and curves: bones and the camera.
macro_rules! curved_segments {
    ($($track:ty),*) => {$(
        impl Segments for $track {
            fn len(&self) -> usize {
                self.frames().len()
            }
            fn same_key(&self, other: &Self, i: usize, j: usize) -> bool {
                self.key(i) == other.key(j)
            }
            fn same_curve(&self, other: &Self, i: usize, j: usize) -> bool {
                self.curves(i) == other.curves(j)
            }
        }
    )*};
}

curved_segments!(BoneTrack, CameraTrack);

impl Segments for MorphTrack {
    fn len(&self) -> usize {
        self.frames().len()
    }
    fn same_key(&self, other: &Self, i: usize, j: usize) -> bool {
        self.weights()[i] == other.weights()[j]
    }
    /// Morphs blend linearly: equal ends make equal segments.
    fn same_curve(&self, _: &Self, _: usize, _: usize) -> bool {
        true
    }
}

/// Whether segment i of `a` and segment j of `b` are the same: the same kind, end keys and
/// curve (see [`segment_between`] for the numbering).
fn same_segment<T: Segments>(a: &T, b: Option<&T>, i: usize, j: usize) -> bool {
    let Some(b) = b else { return false };
    let (n, m) = (a.len(), b.len());
    match (i, j) {
        (0, 0) => a.same_key(b, 0, 0),
        _ if i == n && j == m => a.same_key(b, n - 1, m - 1),
        _ if i == 0 || j == 0 || i == n || j == m => false,
        _ => a.same_key(b, i, j) && a.same_key(b, i - 1, j - 1) && a.same_curve(b, i, j),
    }
}

/// Which segment of a track (keys at `time(0..len)`, in order) spans exactly `a..b` with no
/// key inside: `Some(k)` for the segment ending at key k, `Some(0)` for the hold before the
/// first key (which must be at `b`), `Some(len)` for the hold after the last (at `a`).
fn segment_between(len: usize, time: impl Fn(usize) -> f64, a: u32, b: u32) -> Option<usize> {
    let (a, b) = (f64::from(a), f64::from(b));
    // Keys before b: binary search over the sorted times.
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if time(mid) < b {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let k = lo;
    let starts_at_a = k > 0 && time(k - 1) == a;
    let ends_at_b = k < len && time(k) == b;
    match (k, starts_at_a, ends_at_b) {
        (0, _, true) => Some(0),
        (_, true, true) => Some(k),
        (k, true, false) if k == len => Some(len),
        _ => None,
    }
}

/// Calls `compare` at the frames of 0..=`last` where a reference track (keys at
/// `reference` × `factor`) and a candidate track (keys at `candidate`) are compared (see
/// [`measure_with`]); `same(i, j)` says whether the reference segment ending at key i is the
/// candidate's ending at key j (0: the hold before the first key; the track's length: the hold
/// after the last, see [`segment_between`]). Returns the number of long gaps compared at sampled frames.
fn compare_frames(
    reference: &[u32],
    candidate: &[u32],
    last: u32,
    factor: f64,
    same: impl Fn(usize, usize) -> bool,
    mut compare: impl FnMut(u32),
) -> u64 {
    let scaled = |f: u32| f64::from(f) * factor;
    let mut anchors: Vec<u32> = vec![0, last];
    anchors.extend(candidate.iter().copied().filter(|&f| f <= last));
    for &f in reference {
        let t = scaled(f);
        for g in [t.floor(), t.ceil()] {
            if g <= f64::from(last) {
                anchors.push(g as u32);
            }
        }
    }
    anchors.sort_unstable();
    anchors.dedup();
    let mut sampled = 0;
    for pair in anchors.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        compare(a);
        if b - a <= LONG_SEGMENT {
            (a + 1..b).for_each(&mut compare);
            continue;
        }
        let j = segment_between(candidate.len(), |k| f64::from(candidate[k]), a, b);
        let i = segment_between(reference.len(), |k| scaled(reference[k]), a, b);
        if let (Some(i), Some(j)) = (i, j) {
            if same(i, j) {
                continue;
            }
        }
        sampled += 1;
        let span = u64::from(b - a);
        for k in 1..u64::from(LONG_SEGMENT) {
            compare(a + (span * k / u64::from(LONG_SEGMENT)) as u32);
        }
    }
    compare(*anchors.last().unwrap());
    sampled
}

/// [`measure_with`] at equal frames, through the last key of either motion.
pub fn measure(reference: &Motion, candidate: &Motion) -> MeasuredErrors {
    measure_with(reference, candidate, last_frame(reference).max(last_frame(candidate)), 1.0)
}

/// The largest key frame of any section (0 for an empty motion).
pub(crate) fn last_frame(m: &Motion) -> u32 {
    m.frame_range().map_or(0, |(_, last)| last)
}
