//! Keys far beyond the rest of the motion: one flipped byte in a frame number (frame 57 read as
//! 3,573,547,065) still reads as a valid file, but every bake and every edit that works frame
//! by frame then spans billions of frames.

use super::tally::plural;
use super::{Warning, WarningKind};
use crate::format::{Keyframe, Motion, Section, SectionVisitor};
use crate::limit::grouped;

/// A key frame is far when it is above both this many times the distinct key frame before it
/// and that frame plus [`FAR_GAP`]. Each test alone misfires: a ratio alone flags frame 20
/// after frame 1, a gap alone flags a 2-hour stage show. Together they flag only a jump of at
/// least 100,000 frames (55 minutes) to many times what came before, which no file of the
/// corpus has (its longest motion ends at frame 9,000 with no gap near this).
pub const FAR_RATIO: u64 = 16;

/// The smallest gap before a far frame, in frames (see [`FAR_RATIO`]).
pub const FAR_GAP: u64 = 100_000;

/// The first frame of the far keys and the last frame before them, if there are far keys.
pub(super) fn far_start(motion: &Motion) -> Option<(u32, u32)> {
    struct Frames(Vec<u32>);
    impl SectionVisitor for Frames {
        fn visit<K: Keyframe>(&mut self, keys: &[K]) {
            self.0.extend(keys.iter().map(K::frame));
        }
    }
    let mut frames = Frames(Vec::with_capacity(motion.key_count()));
    motion.for_each_section(&mut frames);
    let mut frames = frames.0;
    frames.sort_unstable();
    frames.dedup();
    frames.windows(2).find(|w| is_far(w[0], w[1])).map(|w| (w[1], w[0]))
}

/// Whether `next` is far beyond `prev`, the distinct key frame before it.
fn is_far(prev: u32, next: u32) -> bool {
    let (prev, next) = (u64::from(prev), u64::from(next));
    next > (prev * FAR_RATIO).max(prev + FAR_GAP)
}

/// The warning about keys at or after frame `start` (from [`far_start`]), the rest ending at
/// frame `rest`.
pub(super) fn far_frames_warning(motion: &Motion, start: u32, rest: u32) -> Warning {
    struct Far {
        start: u32,
        per_section: [u64; 6],
        last: u32,
    }
    impl SectionVisitor for Far {
        fn visit<K: Keyframe>(&mut self, keys: &[K]) {
            for k in keys.iter().filter(|k| k.frame() >= self.start) {
                self.per_section[K::SECTION as usize] += 1;
                self.last = self.last.max(k.frame());
            }
        }
    }
    let mut far = Far { start, per_section: [0; 6], last: start };
    motion.for_each_section(&mut far);
    let count: u64 = far.per_section.iter().sum();
    let sections: Vec<(Section, u64)> =
        Section::ALL.into_iter().zip(far.per_section).filter(|&(_, n)| n > 0).collect();
    let verb = if count == 1 { "is" } else { "are" };
    let (keys, section) = match sections[..] {
        [(section, n)] => {
            (plural(n, &format!("{section} key"), &format!("{section} keys")), Some(section))
        }
        _ => {
            let parts: Vec<String> = sections.iter().map(|(s, n)| format!("{n} {s}")).collect();
            (format!("{} ({})", plural(count, "key", "keys"), parts.join(", ")), None)
        }
    };
    let at = if far.last == start {
        format!("at frame {}", grouped(start.into()))
    } else {
        format!("at frames {} to {}", grouped(start.into()), grouped(far.last.into()))
    };
    let them = if count == 1 { "it" } else { "them" };
    Warning {
        kind: WarningKind::FarFrames,
        section,
        count,
        message: format!(
            "{keys} {verb} {at}, far beyond the rest of the motion, which ends at frame {}: a damaged \
             frame number? Bakes and frame-by-frame edits span every frame up to {them}, so \
             they are slow or refused",
            grouped(rest.into())
        ),
    }
}
