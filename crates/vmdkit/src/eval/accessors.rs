//! The accessors every track type shares, written once.

/// Inherent methods over a track's `timeline` field: its key frames and timeline, and, given
/// the sample type and what it is, sampling without a cursor (a fresh cursor finds the segment
/// through the timeline's index, so this costs no search from the start).
macro_rules! timeline_accessors {
    () => {
        /// Key frames, sorted, one per frame.
        pub fn frames(&self) -> &[u32] {
            self.timeline.frames()
        }

        /// The key frames with their index, for finding segments.
        pub fn timeline(&self) -> &$crate::eval::Timeline {
            &self.timeline
        }
    };
    ($sample:ty, $what:literal) => {
        $crate::eval::accessors::timeline_accessors!();

        #[doc = concat!("The ", $what, " at frame `t` (30 fps; any fraction).")]
        pub fn sample(&self, t: impl Into<f64>) -> $sample {
            self.sample_with(&mut $crate::eval::Cursor::default(), t)
        }
    };
}

pub(crate) use timeline_accessors;
