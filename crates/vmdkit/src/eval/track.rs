//! Building tracks from a section's keys, and finding where a time falls among them.
//!
//! **Grouping.** Keys are grouped by their name's raw bytes up to the first NUL (reference §5:
//! names are compared as bytes, never decoded), so bytes after the NUL, such as MMD's 0xFD
//! padding, do not split a track. Tracks come in the order their names first appear in the
//! file. Sections without names (camera, light, self-shadow, visibility) form one track.
//!
//! **Order and duplicates.** Each track is sorted by frame (§4: files need not be sorted). When
//! several keys share a name and a frame, the **last one in file order is kept** (§4 and §12
//! row 11: babylon-mmd's rule and the reference's recommendation; VS and NH keep the first,
//! MMDAgent's unstable sort keeps either) and the others are reported as [`Duplicate`]s.
//!
//! **Segments.** For keys at frames f₀ < f₁ < … < fₙ, a time t ≤ f₀ gives key 0, t ≥ fₙ gives
//! key n, and otherwise the segment i with fᵢ ≤ t < fᵢ₊₁ at progress
//! p = (t − fᵢ)/(fᵢ₊₁ − fᵢ) (§6.2). NaN counts as "before the first key". A [`Cursor`] remembers
//! the last segment so that playback with increasing t finds the next one in O(1); any other
//! time is found through a [`Timeline`]'s bucket index, also in O(1) for ordinary tracks.

use crate::curve::Curve;
use crate::format::{Keyframe, Section};
use std::collections::HashMap;

/// Where a time falls in a track.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Segment {
    /// Exactly the value of key `i`: before the first key, after the last, or on a key's frame.
    Key(usize),
    /// Between keys `i` and `i + 1`, with progress `p` in (0, 1).
    Between {
        /// The earlier key.
        i: usize,
        /// The progress from key `i` to key `i + 1`, before the curve is applied.
        p: f64,
    },
}

impl Segment {
    /// The earlier key of the segment: what step functions (property keys, the physics toggle,
    /// the self-shadow mode) hold.
    #[inline]
    pub fn earlier(self) -> usize {
        match self {
            Segment::Key(i) | Segment::Between { i, .. } => i,
        }
    }
}

/// A track's key frames (sorted, strictly increasing, never empty) with a bucket index, so that
/// finding the segment of any time costs a couple of loads instead of a binary search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    frames: Box<[u32]>,
    /// `buckets[b]` is the segment holding frame f₀ + b·2^shift. A bucket is about as wide as
    /// the average gap between keys, so there are at most about four per key and a lookup
    /// checks one or two keys past its bucket's.
    buckets: Box<[u32]>,
    shift: u32,
}

impl Timeline {
    pub(crate) fn new(frames: Box<[u32]>) -> Self {
        assert!(!frames.is_empty(), "tracks are never empty");
        debug_assert!(frames.windows(2).all(|w| w[0] < w[1]));
        let n = frames.len();
        if n == 1 {
            return Timeline { frames, buckets: Box::new([]), shift: 0 };
        }
        let span = u64::from(frames[n - 1] - frames[0]);
        // Strictly increasing integers, so the average gap is at least 1.
        let gap = span / (n as u64 - 1);
        let shift = 63 - gap.leading_zeros();
        let mut buckets = Vec::with_capacity((span >> shift) as usize + 1);
        let mut i = 0;
        for b in 0..=span >> shift {
            let start = u64::from(frames[0]) + (b << shift);
            while i + 2 < n && u64::from(frames[i + 1]) <= start {
                i += 1;
            }
            buckets.push(i as u32);
        }
        Timeline { frames, buckets: buckets.into(), shift }
    }

    /// The key frames.
    #[inline]
    pub fn frames(&self) -> &[u32] {
        &self.frames
    }

    /// Where frame `t` falls, found through the index (no remembered segment).
    #[inline]
    pub fn locate(&self, t: f64) -> Segment {
        self.locate_near(t, |key| self.find(key))
    }

    /// Where `t` falls: the clamps of §6.2, then `segment_of(⌊t⌋)` for times strictly inside.
    #[inline]
    fn locate_near(&self, t: f64, segment_of: impl FnOnce(u32) -> usize) -> Segment {
        let frames = &self.frames;
        let n = frames.len();
        // NaN counts as before the first key.
        if t.is_nan() || t <= f64::from(frames[0]) {
            return Segment::Key(0);
        }
        if t >= f64::from(frames[n - 1]) {
            return Segment::Key(n - 1);
        }
        // Here f₀ < t < fₙ, so n ≥ 2 and the segment is in 0..=n−2. Frames are integers, so
        // f ≤ t exactly when f ≤ ⌊t⌋, and integer comparisons are cheaper.
        let i = segment_of(t as u32);
        let (a, b) = (f64::from(frames[i]), f64::from(frames[i + 1]));
        if t == a {
            Segment::Key(i)
        } else {
            Segment::Between { i, p: (t - a) / (b - a) }
        }
    }

    /// The segment i with fᵢ ≤ `key` < fᵢ₊₁, for f₀ ≤ key < fₙ: it lies between the segments
    /// holding the starts of `key`'s bucket and of the next one, usually zero or one key apart.
    #[inline]
    fn find(&self, key: u32) -> usize {
        let frames = &self.frames;
        let b = ((key - frames[0]) >> self.shift) as usize;
        let lo = self.buckets[b] as usize;
        let hi = self.buckets.get(b + 1).map_or(frames.len() - 2, |&s| s as usize);
        if hi - lo > 2 {
            // Keys clustered well below the average gap.
            return lo + frames[lo + 1..=hi].partition_point(|&f| f <= key);
        }
        // Up to two steps, without branches: which one is taken is unpredictable. frames[i + 1]
        // exists because i ≤ hi ≤ n − 2.
        let mut i = lo;
        i += usize::from((i < hi) & (frames[i + 1] <= key));
        i += usize::from((i < hi) & (frames[i + 1] <= key));
        i
    }
}

/// A remembered segment for one track, so that sampling at increasing times steps to the next
/// segment instead of searching. Any cursor works with any track: a stale or foreign one only
/// costs an index lookup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    segment: u32,
}

impl Cursor {
    /// Finds where `t` falls in `timeline` and remembers it.
    #[inline]
    pub fn locate(&mut self, timeline: &Timeline, t: f64) -> Segment {
        let frames = timeline.frames();
        let segment = timeline.locate_near(t, |key| {
            let last = frames.len() - 2;
            let c = (self.segment as usize).min(last);
            if frames[c] <= key && key < frames[c + 1] {
                c
            } else if c < last && frames[c + 1] <= key && key < frames[c + 2] {
                // The next segment: the usual step of sequential playback.
                c + 1
            } else {
                timeline.find(key)
            }
        });
        // Clamped times leave the cursor at the end they are nearest.
        self.segment = segment.earlier() as u32;
        segment
    }
}

/// A key dropped because another key of the same name has the same frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The section of both keys (for IK states, [`Section::Property`]).
    pub section: Section,
    /// The name's raw bytes up to the NUL; empty for sections without names. For IK states it
    /// is the IK bone's name.
    pub name: Vec<u8>,
    /// The frame both keys are on.
    pub frame: u32,
    /// Index of the dropped key in the section, in file order.
    pub dropped: usize,
    /// Index of the key kept instead (the last one in file order).
    pub kept: usize,
}

/// The keys of one track: indices into the section, and the name that groups them.
pub(crate) struct Group<'a> {
    pub name: &'a [u8],
    /// Index of the key whose name field represents the track (its first key in file order).
    pub first: usize,
    /// In file order after [`bucket_keys`]; sorted by frame, one per frame, after
    /// [`Group::resolve`].
    pub keys: Vec<usize>,
}

/// Buckets `count` keys by name, in order of first appearance, each bucket in file order.
/// Lint looks at this file order; everything else wants [`group_keys`].
pub(crate) fn bucket_keys<'a>(count: usize, name: impl Fn(usize) -> &'a [u8]) -> Vec<Group<'a>> {
    let mut index: HashMap<&'a [u8], usize> = HashMap::new();
    let mut groups: Vec<Group<'a>> = Vec::new();
    let mut last = 0;
    for k in 0..count {
        let n = name(k);
        // Dense motions list their bones frame by frame in the same order, so the key after
        // one of a group's is most often one of the next group's: compared before hashing.
        let next = if last + 1 < groups.len() { last + 1 } else { 0 };
        let g = match groups.get(next) {
            Some(group) if group.name == n => next,
            _ => *index.entry(n).or_insert_with(|| {
                groups.push(Group { name: n, first: k, keys: Vec::new() });
                groups.len() - 1
            }),
        };
        groups[g].keys.push(k);
        last = g;
    }
    groups
}

impl Group<'_> {
    /// Sorts the bucket by frame and keeps the last key of each frame, telling `dropped`
    /// (frame, dropped key, kept key) about the others in frame order.
    pub(crate) fn resolve(
        &mut self,
        frame: impl Fn(usize) -> u32,
        mut dropped: impl FnMut(u32, usize, usize),
    ) {
        // Stable: keys of one frame stay in file order, so the last of each run is the last in
        // the file.
        self.keys.sort_by_key(|&k| frame(k));
        let mut kept = Vec::with_capacity(self.keys.len());
        for run in self.keys.chunk_by(|&a, &b| frame(a) == frame(b)) {
            let (&last, rest) = run.split_last().expect("runs are not empty");
            rest.iter().for_each(|&d| dropped(frame(last), d, last));
            kept.push(last);
        }
        self.keys = kept;
    }
}

/// Groups `count` keys by name (first appearance order), sorts each group by frame and keeps the
/// last of equal frames, reporting the others into `duplicates`. The one grouping rule every
/// sampler, edit and lint shares.
pub(crate) fn group_keys<'a>(
    section: Section,
    count: usize,
    name: impl Fn(usize) -> &'a [u8],
    frame: impl Fn(usize) -> u32,
    duplicates: &mut Vec<Duplicate>,
) -> Vec<Group<'a>> {
    let mut groups = bucket_keys(count, name);
    for group in &mut groups {
        let name = group.name;
        group.resolve(&frame, |frame, dropped, kept| {
            duplicates.push(Duplicate { section, name: name.to_vec(), frame, dropped, kept });
        });
    }
    groups
}

/// [`group_keys`] over one section of a motion.
pub(crate) fn group_section<'a, K: Keyframe>(
    keys: &'a [K],
    duplicates: &mut Vec<Duplicate>,
) -> Vec<Group<'a>> {
    group_keys(K::SECTION, keys.len(), |k| keys[k].track_name(), |k| keys[k].frame(), duplicates)
}

/// A track of values that change in steps: each key's value holds until the next key (§6.7),
/// and before the first key the first key's value applies.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTrack<T> {
    timeline: Timeline,
    values: Box<[T]>,
}

impl<T: Copy> StepTrack<T> {
    pub(crate) fn new(frames: Box<[u32]>, values: Box<[T]>) -> Self {
        debug_assert_eq!(frames.len(), values.len());
        StepTrack { timeline: Timeline::new(frames), values }
    }

    /// Key frames, sorted, one per frame.
    pub fn frames(&self) -> &[u32] {
        self.timeline.frames()
    }

    /// The key values, in frame order.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The value at frame `t`.
    pub fn sample(&self, t: impl Into<f64>) -> T {
        self.sample_with(&mut Cursor::default(), t)
    }

    /// The value at frame `t`, walking from `cursor`.
    #[inline]
    pub fn sample_with(&self, cursor: &mut Cursor, t: impl Into<f64>) -> T {
        self.values[cursor.locate(&self.timeline, t.into()).earlier()]
    }
}

/// Curve weights solved at one time, so that channels and tracks with the same curve and
/// progress solve it once (each solve costs a few Newton steps with a division each). A dance
/// keys many bones on the same frames with a handful of curves, so many solves at a time repeat
/// one already made for another bone (BENCHMARKS.md, "Sampling", has the share). Direct-mapped on
/// (curve, progress); a collision only costs a solve. The all-tracks loops share one per call;
/// single-track calls use a small one.
pub(crate) struct WeightCache<const N: usize> {
    /// (progress bits, curve bytes); the progress of a segment is never NaN, so the NaN bits
    /// of an empty slot match nothing.
    keys: [(u64, u32); N],
    weights: [f64; N],
}

impl<const N: usize> WeightCache<N> {
    #[inline]
    pub(crate) fn new() -> Self {
        debug_assert!(N.is_power_of_two());
        WeightCache { keys: [(u64::MAX, 0); N], weights: [0.0; N] }
    }

    /// `curve.weight_f64(p)`, solved at most once per (curve, p) while the slot holds it.
    #[inline]
    pub(crate) fn weight(&mut self, curve: Curve, p: f64) -> f64 {
        if curve.is_linear() {
            return curve.weight_f64(p);
        }
        let key = (p.to_bits(), u32::from_le_bytes([curve.x1, curve.y1, curve.x2, curve.y2]));
        let hash = (key.0 ^ u64::from(key.1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (hash >> 40) as usize & (N - 1);
        if self.keys[slot] == key {
            return self.weights[slot];
        }
        let w = curve.weight_f64(p);
        self.keys[slot] = key;
        self.weights[slot] = w;
        w
    }
}

/// The cache size for sampling all tracks at one time.
pub(crate) const SHARED_WEIGHTS: usize = 32;
/// The cache size for sampling one track: its four curves.
pub(crate) const TRACK_WEIGHTS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    fn timeline(frames: &[u32]) -> Timeline {
        Timeline::new(frames.into())
    }

    /// The definition: the last key at or before t, by a linear scan.
    fn brute(frames: &[u32], t: f64) -> Segment {
        let n = frames.len();
        if t.is_nan() || t <= f64::from(frames[0]) {
            return Segment::Key(0);
        }
        if t >= f64::from(frames[n - 1]) {
            return Segment::Key(n - 1);
        }
        let i = frames.iter().rposition(|&f| f64::from(f) <= t).unwrap();
        let (a, b) = (f64::from(frames[i]), f64::from(frames[i + 1]));
        if t == a {
            Segment::Key(i)
        } else {
            Segment::Between { i, p: (t - a) / (b - a) }
        }
    }

    #[test]
    fn locate_clamps_and_finds_segments() {
        let t = timeline(&[0, 10, 30]);
        assert_eq!(t.locate(-5.0), Segment::Key(0));
        assert_eq!(t.locate(f64::NAN), Segment::Key(0));
        assert_eq!(t.locate(0.0), Segment::Key(0));
        assert_eq!(t.locate(2.5), Segment::Between { i: 0, p: 0.25 });
        assert_eq!(t.locate(10.0), Segment::Key(1));
        assert_eq!(t.locate(25.0), Segment::Between { i: 1, p: 0.75 });
        assert_eq!(t.locate(30.0), Segment::Key(2));
        assert_eq!(t.locate(1e9), Segment::Key(2));
        assert_eq!(timeline(&[7]).locate(3.0), Segment::Key(0));
        assert_eq!(timeline(&[7]).locate(9.0), Segment::Key(0));
        assert_eq!(timeline(&[u32::MAX - 1, u32::MAX]).locate(4e9), Segment::Key(0));
    }

    #[test]
    fn index_and_cursor_agree_with_a_scan_in_any_order() {
        // Even gaps, clusters with long holes, one key per frame, and huge frame numbers.
        let shapes: Vec<Vec<u32>> = vec![
            (0..200).map(|k| k * 5 + (k % 4)).collect(),
            [0, 1, 2, 3, 500, 501, 502, 9000, 9001, 20000].into(),
            (100..400).collect(),
            [5, 4_000_000_000, 4_000_000_001, u32::MAX].into(),
            [0, 1].into(),
        ];
        for frames in &shapes {
            let t = timeline(frames);
            assert!(t.buckets.len() <= 4 * frames.len(), "{} buckets", t.buckets.len());
            let (lo, hi) = (f64::from(frames[0]), f64::from(*frames.last().unwrap()));
            let times: Vec<f64> =
                (0..3000).map(|k| lo - 2.0 + (hi - lo + 4.0) * f64::from(k) / 2999.0).collect();
            let keys = frames.iter().map(|&f| f64::from(f));
            let mut cursor = Cursor::default();
            // Forward, backward, jumping, and exactly on keys.
            let all = times
                .iter()
                .copied()
                .chain(times.iter().rev().copied())
                .chain(times.iter().step_by(97).copied())
                .chain(keys);
            for t_ in all {
                let want = brute(frames, t_);
                assert_eq!(t.locate(t_), want, "{frames:?} t = {t_}");
                assert_eq!(cursor.locate(&t, t_), want, "{frames:?} t = {t_}");
            }
        }
        // A cursor left past the end of a shorter track still works.
        let mut far = Cursor { segment: 10_000 };
        assert_eq!(far.locate(&timeline(&[0, 10]), 5.0), Segment::Between { i: 0, p: 0.5 });
    }

    #[test]
    fn buckets_match_a_scan_whether_or_not_names_repeat_in_order() {
        // Frame by frame in one order (the guess right), then out of it, with a new name
        // appearing late and one track ending early (the guess wrong).
        let names: Vec<&[u8]> =
            ["a", "b", "c", "a", "b", "c", "a", "c", "b", "d", "a", "d", "b", "b", "a", "c", "d"]
                .iter()
                .map(|n| n.as_bytes())
                .collect();
        let mut expected: Vec<(&[u8], usize, Vec<usize>)> = Vec::new();
        for (k, &n) in names.iter().enumerate() {
            match expected.iter_mut().find(|g| g.0 == n) {
                Some(g) => g.2.push(k),
                None => expected.push((n, k, vec![k])),
            }
        }
        let groups = bucket_keys(names.len(), |k| names[k]);
        let got: Vec<(&[u8], usize, Vec<usize>)> =
            groups.iter().map(|g| (g.name, g.first, g.keys.clone())).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn duplicates_keep_the_last_in_file_order() {
        // (name, frame) in file order.
        let keys: [(&[u8], u32); 7] =
            [(b"a", 5), (b"b", 0), (b"a", 0), (b"a", 5), (b"a", 5), (b"b", 0), (b"c", 1)];
        let mut dups = Vec::new();
        let groups = group_keys(Section::Bone, keys.len(), |k| keys[k].0, |k| keys[k].1, &mut dups);
        let summary: Vec<(&[u8], usize, Vec<usize>)> =
            groups.iter().map(|g| (g.name, g.first, g.keys.clone())).collect();
        assert_eq!(
            summary,
            vec![(&b"a"[..], 0, vec![2, 4]), (&b"b"[..], 1, vec![5]), (&b"c"[..], 6, vec![6])]
        );
        let reported: Vec<(&[u8], u32, usize, usize)> =
            dups.iter().map(|d| (d.name.as_slice(), d.frame, d.dropped, d.kept)).collect();
        assert_eq!(
            reported,
            vec![(&b"a"[..], 5, 0, 4), (&b"a"[..], 5, 3, 4), (&b"b"[..], 0, 1, 5)]
        );
    }

    #[test]
    fn step_tracks_hold_the_earlier_key() {
        let track = StepTrack::new(vec![10, 20].into(), vec!['a', 'b'].into());
        assert_eq!(track.frames(), &[10, 20]);
        assert_eq!(
            [0.0, 10.0, 19.99, 20.0, 99.0].map(|t: f64| track.sample(t)),
            ['a', 'a', 'a', 'b', 'b']
        );
    }
}
