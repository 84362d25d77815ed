//! Frame order and duplicate keys in every section, and the names of bone and morph tracks,
//! found while grouping the keys into tracks as the sampler does.

use super::tally::{hex, Count, FrameRange, Tally, Verb};
use super::{NameSummary, Warning, WarningKind};
use crate::eval::track::{bucket_keys, Group};
use crate::format::{Keyframe, Section, SectionVisitor};
use crate::text::{DecodeStatus, KeyName, TextEncoding};

/// Walks the six sections, keeping each one's warnings apart so that [`super::analyse`] can
/// put them in its order.
pub(super) struct OrderLint {
    encoding: TextEncoding,
    pub frames: FrameRange,
    /// Per section, in [`Section::ALL`] order.
    pub warnings: [Vec<Warning>; 6],
    /// Bone and morph names in order of first appearance.
    pub names: [Vec<NameSummary>; 2],
}

/// What one track's keys say about their order.
struct TrackOrder {
    keys: usize,
    /// Keys whose frame is below the one before them (of the same name), and the first such
    /// (frame, previous frame).
    backwards: u64,
    first_backwards: Option<(u32, u32)>,
    /// Keys dropped as duplicates that differ from the key kept, and the lowest frame that
    /// has some.
    duplicates: u64,
    first_duplicate: Option<u32>,
    /// Keys dropped as duplicates that are the same as the key kept.
    identical: u64,
    first_identical: Option<u32>,
    first_frame: u32,
    last_frame: u32,
}

impl TrackOrder {
    /// Resolves `group` (a bucket in file order) into its track, counting what it dropped.
    fn of<K: Keyframe>(keys: &[K], group: &mut Group<'_>) -> Self {
        let frame = |k: usize| keys[k].frame();
        let mut order = TrackOrder {
            keys: group.keys.len(),
            backwards: 0,
            first_backwards: None,
            duplicates: 0,
            first_duplicate: None,
            identical: 0,
            first_identical: None,
            first_frame: 0,
            last_frame: 0,
        };
        for pair in group.keys.windows(2) {
            let (prev, f) = (frame(pair[0]), frame(pair[1]));
            if f < prev {
                order.backwards += 1;
                order.first_backwards.get_or_insert((f, prev));
            }
        }
        // Duplicates are reported in frame order, so the first one is at the lowest frame.
        group.resolve(frame, |f, dropped, kept| {
            if keys[dropped] == keys[kept] {
                order.identical += 1;
                order.first_identical.get_or_insert(f);
            } else {
                order.duplicates += 1;
                order.first_duplicate.get_or_insert(f);
            }
        });
        order.first_frame = frame(group.keys[0]);
        order.last_frame = frame(group.keys[group.keys.len() - 1]);
        order
    }
}

impl OrderLint {
    pub fn new(encoding: TextEncoding) -> Self {
        OrderLint {
            encoding,
            frames: FrameRange::default(),
            warnings: Default::default(),
            names: Default::default(),
        }
    }

    /// A bone or morph track: its name, order and duplicates.
    fn named(&mut self, name: &KeyName, order: &TrackOrder, t: &mut NamedTallies) {
        let text = |name: &KeyName| format!("{:?}", name.decode(self.encoding).text);
        let keys = order.keys as u64;
        match name.decode(self.encoding).status {
            DecodeStatus::Ok => {}
            DecodeStatus::CutMidCharacter => t.cut.add(keys, || text(name)),
            DecodeStatus::Invalid => {
                t.invalid.add(keys, || format!("{} (bytes {})", text(name), hex(name.bytes())))
            }
        }
        if let Some((frame, prev)) = order.first_backwards {
            t.unsorted.add(order.backwards, || {
                format!("{}: frame {frame} after frame {prev}", text(name))
            });
        }
        if let Some(frame) = order.first_duplicate {
            t.duplicates.add(order.duplicates, || {
                // Distinct long names cut to the same 15 bytes collide; say so when it may be that.
                let cut = if name.fills_field() { ", a name filling its whole field" } else { "" };
                format!("{} at frame {frame}{cut}", text(name))
            });
        }
        if let Some(frame) = order.first_identical {
            t.identical.add(order.identical, || format!("{} at frame {frame}", text(name)));
        }
    }
}

/// Tallies over the tracks of one section.
#[derive(Default)]
struct NamedTallies {
    cut: Tally,
    invalid: Tally,
    duplicates: Tally,
    identical: Tally,
    unsorted: Tally,
}

impl SectionVisitor for OrderLint {
    fn visit<K: Keyframe>(&mut self, keys: &[K]) {
        keys.iter().for_each(|k| self.frames.add(k.frame()));
        let mut t = NamedTallies::default();
        let mut names = Vec::new();
        for mut group in bucket_keys(keys.len(), |k| keys[k].track_name()) {
            let order = TrackOrder::of(keys, &mut group);
            match keys[group.first].name() {
                Some(name) => {
                    self.named(name, &order, &mut t);
                    names.push(NameSummary {
                        name: *name,
                        keys: order.keys,
                        first_frame: order.first_frame,
                        last_frame: order.last_frame,
                    });
                }
                None => unnamed(&order, &mut t),
            }
        }
        let out = &mut self.warnings[K::SECTION as usize];
        match K::SECTION {
            Section::Bone | Section::Morph => {
                named_warnings(K::SECTION, self.encoding, &t, out);
                self.names[K::SECTION as usize] = names;
            }
            _ => unnamed_warnings(K::SECTION, &t, out),
        }
    }
}

/// The one track of a camera, light, self-shadow or property section.
fn unnamed(order: &TrackOrder, t: &mut NamedTallies) {
    if let Some((frame, prev)) = order.first_backwards {
        t.unsorted.add(order.backwards, || format!("frame {frame} after frame {prev}"));
    }
    if let Some(frame) = order.first_duplicate {
        t.duplicates.add(order.duplicates, || format!("frame {frame}"));
    }
    if let Some(frame) = order.first_identical {
        t.identical.add(order.identical, || format!("frame {frame}"));
    }
}

/// The tail of the identical-keys warning: why it does not matter.
const IDENTICAL: &str = "; every player plays them alike";

const IS: Verb = ("key is", "keys are");
const REPEATS: Verb = ("key repeats", "keys repeat");

fn named_warnings(
    section: Section,
    encoding: TextEncoding,
    t: &NamedTallies,
    out: &mut Vec<Warning>,
) {
    const CUT: (&str, &str) =
        ("cut mid-character at the 15-byte field width", "; they still bind by bytes");
    const DUPLICATE: (&str, &str) =
        ("a name and frame already keyed", "; players disagree on which key wins");
    const UNSORTED: (&str, &str) = ("out of frame order", "; players sort them");
    const SAME: (&str, &str) = ("a name and frame already keyed with the same values", IDENTICAL);
    let invalid = format!("not valid {}", encoding.label());
    let rows = [
        (&t.cut, Count::Names, WarningKind::NameCutMidCharacter, NAME, CUT),
        (&t.invalid, Count::Names, WarningKind::NameUndecodable, NAME_IS, (&invalid, "")),
        (&t.duplicates, Count::KeysByName, WarningKind::DuplicateKeys, REPEATS, DUPLICATE),
        (&t.identical, Count::KeysByName, WarningKind::IdenticalKeys, REPEATS, SAME),
        (&t.unsorted, Count::KeysByName, WarningKind::UnsortedKeys, IS, UNSORTED),
    ];
    for (tally, count, kind, verb, (what, tail)) in rows {
        out.extend(tally.counted(count, kind, section, verb, what, tail));
    }
}

const NAME: Verb = ("name", "names");
const NAME_IS: Verb = ("name is", "names are");

fn unnamed_warnings(section: Section, t: &NamedTallies, out: &mut Vec<Warning>) {
    const UNSORTED: (&str, &str) = ("out of frame order", "; players sort them");
    const DUPLICATE: (&str, &str) =
        ("a frame already keyed", "; players disagree on which key wins");
    const SAME: (&str, &str) = ("a frame already keyed with the same values", IDENTICAL);
    for (tally, kind, verb, (what, tail)) in [
        (&t.unsorted, WarningKind::UnsortedKeys, IS, UNSORTED),
        (&t.duplicates, WarningKind::DuplicateKeys, REPEATS, DUPLICATE),
        (&t.identical, WarningKind::IdenticalKeys, REPEATS, SAME),
    ] {
        out.extend(tally.counted(Count::Keys, kind, section, verb, what, tail));
    }
}
