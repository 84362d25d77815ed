//! Morph tracks found on the target by name: the same bytes first, then the same name once
//! widths and kana are folded, then MMD's usual alternative names, then the English name the
//! source model's morph and the target's share.

use super::report::MorphMatch;
use crate::model::Model;
use crate::text::KeyName;

/// Names MMD models use for the same expression (compared folded, see [`fold`]).
const VARIANTS: &[&[&str]] = &[
    &["まばたき", "瞬き", "blink"],
    &["ウィンク", "ウィンク左", "wink"],
    &["ウィンク２", "ウィンク２左", "ウィンク2", "ウィンク2左"],
    &["ウィンク右", "wink_r", "wink right"],
    &["にこり", "にっこり"],
    &["じと目", "ジト目"],
    &["ω□", "ω口"],
];

/// Half-width katakana U+FF66–U+FF9D as full-width, in code order.
const HALF_KANA: &str = "ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン";

/// `name` with half-width katakana made full-width (voicing marks joined), full-width ASCII
/// made ASCII, katakana made hiragana, letters lower case: the spellings of one name that
/// models and motions mix.
pub(super) fn fold(name: &str) -> String {
    let mut out: Vec<char> = Vec::with_capacity(name.len());
    for c in name.chars() {
        let c = match c {
            '\u{FF66}'..='\u{FF9D}' => HALF_KANA.chars().nth(c as usize - 0xFF66).unwrap_or(c),
            '\u{FF9E}' | '\u{FF9F}' => {
                // A voicing mark after a kana: ka + ゛ = ga (the next code point), ha + ゜ = pa.
                let step = if c == '\u{FF9E}' { 1 } else { 2 };
                if let Some(last) = out.last_mut() {
                    if c == '\u{FF9E}' && *last == 'ウ' {
                        *last = 'ヴ';
                        continue;
                    }
                    if let Some(v) = char::from_u32(*last as u32 + step) {
                        *last = v;
                        continue;
                    }
                }
                c
            }
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        out.push(c);
    }
    out.iter()
        .map(|&c| match c {
            '\u{30A1}'..='\u{30F6}' => char::from_u32(c as u32 - 0x60).unwrap_or(c),
            _ => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The target's morphs, ready to be looked up.
pub(super) struct Morphs<'m> {
    target: &'m Model,
    source: &'m Model,
    exact: Vec<KeyName>,
    folded: Vec<String>,
}

impl<'m> Morphs<'m> {
    pub fn new(source: &'m Model, target: &'m Model) -> Self {
        let exact = target.morph_list.iter().map(|m| KeyName::encode(&m.name).0).collect();
        let folded = target.morph_list.iter().map(|m| fold(&m.name)).collect();
        Morphs { target, source, exact, folded }
    }

    /// The target's morph for a track of this name, and how it was found.
    pub fn find(&self, name: &KeyName) -> Option<(usize, MorphMatch)> {
        if let Some(i) = self.exact.iter().position(|k| k.bytes() == name.bytes()) {
            return Some((i, MorphMatch::Exact));
        }
        let folded = fold(&name.to_string_lossy());
        if let Some(i) = self.folded.iter().position(|f| *f == folded) {
            return Some((i, MorphMatch::Folded));
        }
        let group = VARIANTS.iter().find(|g| g.iter().any(|v| fold(v) == folded));
        if let Some(group) = group {
            let hit = self.folded.iter().position(|f| group.iter().any(|v| fold(v) == *f));
            if let Some(i) = hit {
                return Some((i, MorphMatch::Variant));
            }
        }
        let english = self
            .source
            .morph_list
            .iter()
            .find(|m| KeyName::encode(&m.name).0.bytes() == name.bytes())
            .map(|m| fold(m.name_en.trim()))
            .filter(|e| !e.is_empty())?;
        let mut hits = (self.target.morph_list.iter().enumerate())
            .filter(|(_, m)| fold(m.name_en.trim()) == english);
        match (hits.next(), hits.next()) {
            (Some((i, _)), None) => Some((i, MorphMatch::English)),
            _ => None,
        }
    }

    /// The target morph's name.
    pub fn name(&self, i: usize) -> &str {
        &self.target.morph_list[i].name
    }
}
