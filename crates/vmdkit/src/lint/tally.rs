//! Counting what a warning is about, and the wording warnings share.

use super::{Warning, WarningKind};
use crate::format::Section;

/// The lowest and highest frame seen.
#[derive(Default)]
pub(super) struct FrameRange(pub Option<(u32, u32)>);

impl FrameRange {
    pub fn add(&mut self, frame: u32) {
        self.0 = Some(match self.0 {
            None => (frame, frame),
            Some((lo, hi)) => (lo.min(frame), hi.max(frame)),
        });
    }
}

/// "1 key" or "2 keys".
pub(super) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Bytes as spaced hex pairs.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

/// Counts affected keys and items (names or keys) and keeps the first example.
#[derive(Default)]
pub(super) struct Tally {
    pub keys: u64,
    pub items: u64,
    pub example: String,
}

impl Tally {
    pub fn add(&mut self, keys: u64, example: impl FnOnce() -> String) {
        if self.items == 0 {
            self.example = example();
        }
        self.items += 1;
        self.keys += keys;
    }

    pub fn warning(
        &self,
        kind: WarningKind,
        section: Section,
        message: impl FnOnce(&Self) -> String,
    ) -> Option<Warning> {
        (self.items > 0).then(|| Warning {
            kind,
            section: Some(section),
            count: self.keys,
            message: message(self),
        })
    }
}

/// How messages count keys: "1 key has" / "2 keys have", and the like.
pub(super) type Verb = (&'static str, &'static str);
pub(super) const HAS: Verb = ("key has", "keys have");
pub(super) const HOLDS: Verb = ("key holds", "keys hold");

/// How a warning's message counts what it found.
#[derive(Clone, Copy)]
pub(super) enum Count {
    /// "N keys `verb` `what` (e.g. example)`tail`".
    Keys,
    /// "N names `verb` (K keys) `what`, e.g. example`tail`": the verb counts names.
    Names,
    /// "N keys `verb` `what` (M names, e.g. example)`tail`".
    KeysByName,
}

impl Tally {
    /// The one-line warning "`section` section: ..." counted as `count` says.
    pub fn counted(
        &self,
        count: Count,
        kind: WarningKind,
        section: Section,
        verb: Verb,
        what: &str,
        tail: &str,
    ) -> Option<Warning> {
        self.warning(kind, section, |t| {
            let (s, e) = (section.name(), &t.example);
            match count {
                Count::Keys => {
                    let keys = plural(t.keys, verb.0, verb.1);
                    format!("{s} section: {keys} {what} (e.g. {e}){tail}")
                }
                Count::Names => {
                    let (names, keys) =
                        (plural(t.items, verb.0, verb.1), plural(t.keys, "key", "keys"));
                    format!("{s} section: {names} ({keys}) {what}, e.g. {e}{tail}")
                }
                Count::KeysByName => {
                    let (keys, names) =
                        (plural(t.keys, verb.0, verb.1), plural(t.items, "name", "names"));
                    format!("{s} section: {keys} {what} ({names}, e.g. {e}){tail}")
                }
            }
        })
    }

    /// NaN or infinite numbers in the keys counted.
    pub fn non_finite(&self, section: Section) -> Option<Warning> {
        self.counted(
            Count::Keys,
            WarningKind::NonFinite,
            section,
            HOLDS,
            "NaN or infinite numbers",
            "",
        )
    }
}
