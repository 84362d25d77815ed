//! Bone and morph names: the standard Japanese ⇄ English dictionary (reference §9.4), left/right
//! swapping for [`mirror`](mod@super::mirror), and decoding/encoding in a motion's encoding.
//!
//! **Dictionary.** Every standard and semi-standard bone of §9.4 with two English spellings:
//! nuthouse01's (`arm_L`, the short one, and the default because more names fit the 15-byte
//! field) and what mmd_tools' `translateFromJp` produces (`LeftArm`). Lookups ignore the width
//! of letters and digits on the Japanese side (`左足IK` finds `左足ＩＫ`, `左親指0` finds
//! `左親指０`; the semi-standard `足IK親` keeps its half-width IK, §9.4), and case, spaces and
//! underscores on the English side.
//!
//! **Left and right.** [`mirror_name`] swaps 左 ⇄ 右 anywhere in a name, whatever else the name
//! holds (full-width ＩＫ, half-width IK, half-width katakana), and the ASCII spellings tools
//! use: `Left` ⇄ `Right` (also all-lower and all-upper case) anywhere, and `_L`/`.L` ⇄ `_R`/`.R`
//! at the end. MMD's standard facial set names one pair without a side on the left:
//! ウィンク ⇄ ウィンク右 and ウィンク２ ⇄ ｳｨﾝｸ２右; those are swapped as pairs. The swap is its own
//! inverse, which is what makes mirroring twice the identity.

use crate::text::{EncodeStatus, RawName, TextEncoding};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Which English spelling to produce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EnglishStyle {
    /// nuthouse01's `bone_dict` with `_L`/`_R` suffixes: `arm_L`, `leg IK_R`.
    #[default]
    Nuthouse,
    /// What mmd_tools' `translateFromJp` gives: `LeftArm`, `RightLegIK`.
    MmdTools,
}

/// One bone of the dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoneName {
    /// The name as MMD models spell it (`左腕`, `左足ＩＫ`).
    pub japanese: String,
    /// nuthouse01's spelling (`arm_L`).
    pub nuthouse: String,
    /// mmd_tools' spelling (`LeftArm`).
    pub mmd_tools: String,
}

impl BoneName {
    /// The English spelling in `style`.
    pub fn english(&self, style: EnglishStyle) -> &str {
        match style {
            EnglishStyle::Nuthouse => &self.nuthouse,
            EnglishStyle::MmdTools => &self.mmd_tools,
        }
    }
}

/// Bones without a side: (Japanese, nuthouse01, mmd_tools).
const CENTRE: &[(&str, &str, &str)] = &[
    ("全ての親", "motherbone", "ParentNode"),
    ("操作中心", "view cnt", "ControlNode"),
    ("センター", "center", "Center"),
    ("グルーブ", "groove", "Groove"),
    ("腰", "waist", "Waist"),
    ("上半身", "upper body", "UpperBody"),
    ("上半身2", "upper body2", "UpperBody2"),
    ("下半身", "lower body", "LowerBody"),
    ("首", "neck", "Neck"),
    ("頭", "head", "Head"),
    ("両目", "eyes", "Eyes"),
];

/// Sided bones as stems: 左/右 + stem, stem + `_L`/`_R`, `Left`/`Right` + stem.
const SIDED: &[(&str, &str, &str)] = &[
    ("目", "eye", "Eye"),
    ("肩P", "shoulder_raise", "ShoulderP"),
    ("肩", "shoulder", "Shoulder"),
    ("肩C", "shoulder_cancel", "ShoulderC"),
    ("腕", "arm", "Arm"),
    ("腕捩", "arm twist", "ArmTwist"),
    ("ひじ", "elbow", "Elbow"),
    ("手捩", "wrist twist", "HandTwist"),
    ("手首", "wrist", "Wrist"),
    ("親指０", "thumb0", "Thumb0"),
    ("親指１", "thumb1", "Thumb1"),
    ("親指２", "thumb2", "Thumb2"),
    ("人指１", "fore1", "IndexFinger1"),
    ("人指２", "fore2", "IndexFinger2"),
    ("人指３", "fore3", "IndexFinger3"),
    ("中指１", "middle1", "MiddleFinger1"),
    ("中指２", "middle2", "MiddleFinger2"),
    ("中指３", "middle3", "MiddleFinger3"),
    ("薬指１", "third1", "RingFinger1"),
    ("薬指２", "third2", "RingFinger2"),
    ("薬指３", "third3", "RingFinger3"),
    ("小指１", "little1", "LittleFinger1"),
    ("小指２", "little2", "LittleFinger2"),
    ("小指３", "little3", "LittleFinger3"),
    ("足", "leg", "Leg"),
    ("ひざ", "knee", "Knee"),
    ("足首", "foot", "Ankle"),
    ("つま先", "toe", "ToeTip"),
    ("足ＩＫ", "leg IK", "LegIK"),
    ("つま先ＩＫ", "toe IK", "ToeTipIK"),
    // nuthouse01 has no entry for 足IK親; this spelling follows its pattern.
    ("足IK親", "leg IK parent", "LegIKParent"),
    ("足D", "leg_D", "LegD"),
    ("ひざD", "knee_D", "KneeD"),
    ("足首D", "foot_D", "AnkleD"),
    ("足先EX", "toe_EX", "LegTipEX"),
];

/// The whole dictionary, left before right for each sided bone.
pub fn standard_bones() -> &'static [BoneName] {
    static TABLE: OnceLock<Vec<BoneName>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let entry =
            |j: String, n: String, m: String| BoneName { japanese: j, nuthouse: n, mmd_tools: m };
        let mut table: Vec<BoneName> =
            CENTRE.iter().map(|&(j, n, m)| entry(j.into(), n.into(), m.into())).collect();
        for &(j, n, m) in SIDED {
            for (jp, suffix, en) in [("左", "_L", "Left"), ("右", "_R", "Right")] {
                table.push(entry(format!("{jp}{j}"), format!("{n}{suffix}"), format!("{en}{m}")));
            }
        }
        // The one name with its side at the end (§9.4).
        table.push(entry(
            "腰キャンセル左".into(),
            "waist_cancel_L".into(),
            "WaistCancelLeft".into(),
        ));
        table.push(entry(
            "腰キャンセル右".into(),
            "waist_cancel_R".into(),
            "WaistCancelRight".into(),
        ));
        table
    })
}

/// Full-width ASCII (U+FF01–U+FF5E) folded to ASCII, for width-blind Japanese lookups.
fn fold_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// English lookup key: lower case, spaces as underscores.
fn english_key(s: &str) -> String {
    s.trim().to_lowercase().replace(' ', "_")
}

struct Index {
    japanese: HashMap<String, usize>,
    english: HashMap<String, usize>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut japanese = HashMap::new();
        let mut english = HashMap::new();
        for (i, b) in standard_bones().iter().enumerate() {
            japanese.insert(fold_width(&b.japanese), i);
            english.insert(english_key(&b.nuthouse), i);
            english.insert(english_key(&b.mmd_tools), i);
        }
        Index { japanese, english }
    })
}

/// The English name of a standard bone, or `None` when `japanese` is not in the dictionary.
pub fn to_english(japanese: &str, style: EnglishStyle) -> Option<&'static str> {
    let i = *index().japanese.get(&fold_width(japanese))?;
    Some(standard_bones()[i].english(style))
}

/// The standard Japanese name for an English one in either spelling.
pub fn to_japanese(english: &str) -> Option<&'static str> {
    let i = *index().english.get(&english_key(english))?;
    Some(&standard_bones()[i].japanese)
}

/// Facial morphs whose left member has no side in its name (MMD's standard set).
const PAIRS: &[(&str, &str)] = &[("ウィンク", "ウィンク右"), ("ウィンク２", "ｳｨﾝｸ２右")];

/// Tokens swapped anywhere in a name, each with its counterpart.
const TOKENS: &[(&str, &str)] = &[
    ("左", "右"),
    ("右", "左"),
    ("Left", "Right"),
    ("Right", "Left"),
    ("left", "right"),
    ("right", "left"),
    ("LEFT", "RIGHT"),
    ("RIGHT", "LEFT"),
];

/// Suffixes swapped at the end of a name.
const SUFFIXES: &[(&str, &str)] = &[("_L", "_R"), ("_R", "_L"), (".L", ".R"), (".R", ".L")];

/// The mirror counterpart of a name, or `None` when the name has no side (it is its own
/// counterpart, like センター). Applying it twice gives the name back.
pub fn mirror_name(name: &str) -> Option<String> {
    for &(a, b) in PAIRS {
        if name == a {
            return Some(b.to_string());
        }
        if name == b {
            return Some(a.to_string());
        }
    }
    let (body, suffix) = match SUFFIXES.iter().find(|(s, _)| name.ends_with(s)) {
        Some(&(s, swapped)) => (&name[..name.len() - s.len()], Some(swapped)),
        None => (name, None),
    };
    let mut out = String::with_capacity(name.len() + 1);
    let mut changed = suffix.is_some();
    let mut rest = body;
    'scan: while let Some(c) = rest.chars().next() {
        for &(token, swapped) in TOKENS {
            if let Some(after) = rest.strip_prefix(token) {
                out.push_str(swapped);
                rest = after;
                changed = true;
                continue 'scan;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.push_str(suffix.unwrap_or(""));
    changed.then_some(out)
}

/// A name field decoded cleanly in `encoding`, or `None` when it does not decode (or was cut
/// mid-character): such names are left as raw bytes by every edit.
pub fn decode_clean<const N: usize>(name: &RawName<N>, encoding: TextEncoding) -> Option<String> {
    let decoded = name.decode(encoding);
    (decoded.status == crate::text::DecodeStatus::Ok).then(|| decoded.text.into_owned())
}

/// Why a new name could not be stored as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameFit {
    /// Stored in full.
    Ok,
    /// Longer than the field: cut on a character boundary (MMD matches names by the bytes the
    /// field holds, so a cut name still finds a model bone whose name begins with them).
    Shortened {
        /// The bytes the whole name needs in the encoding, more than the field holds.
        bytes: usize,
    },
    /// A character has no form in the encoding.
    Unencodable,
}

/// Encodes `text` into an `N`-byte field in `encoding`, saying whether it fit.
pub fn encode_name<const N: usize>(text: &str, encoding: TextEncoding) -> (RawName<N>, NameFit) {
    let (name, status) = RawName::<N>::encode_as(text, encoding);
    let fit = match status {
        EncodeStatus::Ok => NameFit::Ok,
        EncodeStatus::Shortened => NameFit::Shortened { bytes: encoded_len(text, encoding) },
        EncodeStatus::Unencodable => NameFit::Unencodable,
    };
    (name, fit)
}

/// `new` (a field made by [`encode_name`]) padded the way `old` was: with `old`'s own bytes
/// after the NUL when the names have the same length, with zeros when `old` was zero-padded
/// (as some tools write), and MMD's NUL + 0xFD otherwise. Edits that change names and change
/// them back (mirror twice, rename there and back) then give back the same bytes.
pub(crate) fn repad<const N: usize>(old: RawName<N>, new: RawName<N>) -> RawName<N> {
    let (old_len, len) = (old.bytes().len(), new.bytes().len());
    let mut field = if old_len == len {
        old.0
    } else if old.0[old_len..].iter().all(|&b| b == 0) {
        [0; N]
    } else {
        return new;
    };
    field[..len].copy_from_slice(new.bytes());
    RawName(field)
}

/// The encoded length of `text` in bytes (for messages about names that do not fit).
pub fn encoded_len(text: &str, encoding: TextEncoding) -> usize {
    encoding.encode(text, 4 * text.len() + 4).bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dictionary_round_trips_and_is_unambiguous() {
        let bones = standard_bones();
        assert_eq!(bones.len(), CENTRE.len() + 2 * SIDED.len() + 2);
        for b in bones {
            for style in [EnglishStyle::Nuthouse, EnglishStyle::MmdTools] {
                let en = to_english(&b.japanese, style).unwrap();
                assert_eq!(to_japanese(en), Some(b.japanese.as_str()), "{en}");
            }
        }
        // Both spellings lead back to their own bone, so no key is shared by two bones.
        for b in bones {
            assert_eq!(to_japanese(&b.nuthouse), Some(b.japanese.as_str()));
            assert_eq!(to_japanese(&b.mmd_tools), Some(b.japanese.as_str()));
        }
        assert_eq!(to_english("右腕", EnglishStyle::Nuthouse), Some("arm_R"));
        assert_eq!(to_english("左足ＩＫ", EnglishStyle::MmdTools), Some("LeftLegIK"));
        // Width-blind on the Japanese side, case-blind on the English side.
        assert_eq!(to_english("左足IK", EnglishStyle::Nuthouse), Some("leg IK_L"));
        assert_eq!(to_english("右親指0", EnglishStyle::MmdTools), Some("RightThumb0"));
        assert_eq!(to_english("左足IK親", EnglishStyle::MmdTools), Some("LeftLegIKParent"));
        assert_eq!(to_japanese("LEG_IK_L"), Some("左足ＩＫ"));
        assert_eq!(to_japanese("waist_cancel_R"), Some("腰キャンセル右"));
        assert_eq!(to_japanese("nope"), None);
    }

    #[test]
    fn mirror_names_swap_sides_and_are_involutions() {
        for (a, b) in [
            ("左腕", "右腕"),
            ("右足ＩＫ", "左足ＩＫ"),
            ("左足IK親", "右足IK親"),
            ("腰キャンセル右", "腰キャンセル左"),
            ("ｳｨﾝｸ２右", "ウィンク２"),
            ("ウィンク", "ウィンク右"),
            ("LeftArm", "RightArm"),
            ("arm_L", "arm_R"),
            ("hand.R", "hand.L"),
            ("左右", "右左"),
            ("leftright_R", "rightleft_L"),
        ] {
            assert_eq!(mirror_name(a).as_deref(), Some(b), "{a}");
            assert_eq!(mirror_name(b).as_deref(), Some(a), "{b}");
        }
        for same in ["センター", "上半身2", "まばたき", "", "LR"] {
            assert_eq!(mirror_name(same), None, "{same}");
        }
    }

    #[test]
    fn names_that_do_not_fit_are_reported() {
        let (name, fit) = encode_name::<15>("RightIndexFinger1", TextEncoding::ShiftJis);
        assert_eq!(fit, NameFit::Shortened { bytes: 17 });
        assert_eq!(name.bytes(), b"RightIndexFinge");
        assert_eq!(encode_name::<15>("右腕", TextEncoding::ShiftJis).1, NameFit::Ok);
        assert_eq!(encode_name::<15>("😀", TextEncoding::ShiftJis).1, NameFit::Unencodable);
    }
}
