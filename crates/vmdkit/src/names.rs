//! Bone and morph names: the standard Japanese ⇄ English dictionary (reference §9.4), left/right
//! swapping for [`mirror`](crate::edit::mirror()), and decoding/encoding in a motion's encoding.
//!
//! **Dictionary.** Every standard and semi-standard bone of §9.4 with two English spellings,
//! each of which fits the 15 bytes of a VMD name field, so that no two names are cut to the
//! same bytes: MMD's own (`arm_L`, `fore1_L`, `ankle_L`, as the models bundled with MMD name
//! them, and `shoulderP_L`, `leg IKP_L` as PmxEditor's semi-standard bone plugin adds them; the
//! default), and a CamelCase one after mmd_tools' `translateFromJp` (`LeftArm`), with the
//! fingers shortened to `LeftIndex1`, `RightMiddle3` (mmd_tools' `RightMiddleFinger3` needs 18
//! bytes). Older spellings are still read back ([`to_japanese`]): nuthouse01's (`foot_L`,
//! `shoulder_raise_L`, `motherbone`) and mmd_tools' long finger names (`LeftIndexFinger1`).
//! Lookups ignore the width of letters and digits on the Japanese side (`左足IK` finds
//! `左足ＩＫ`, `左親指0` finds `左親指０`; the semi-standard `足IK親` keeps its half-width IK,
//! §9.4), and case, spaces and underscores on the English side.
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

/// Which English spelling to produce. Every name of either fits a VMD's 15-byte field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EnglishStyle {
    /// MMD's own English names, with `_L`/`_R` suffixes: `arm_L`, `fore1_R`, `leg IK_L`.
    #[default]
    Mmd,
    /// CamelCase after mmd_tools, with `Left`/`Right` prefixes: `LeftArm`, `RightIndex1`,
    /// `LeftLegIK`.
    MmdTools,
}

/// One bone of the dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoneName {
    /// The name as MMD models spell it (`左腕`, `左足ＩＫ`).
    pub japanese: String,
    /// MMD's English name (`arm_L`).
    pub mmd: String,
    /// The CamelCase spelling (`LeftArm`).
    pub mmd_tools: String,
    /// Older English spellings [`to_japanese`] also reads (`foot_L`, `LeftIndexFinger1`).
    pub aliases: Vec<String>,
}

impl BoneName {
    /// The English spelling in `style`.
    pub fn english(&self, style: EnglishStyle) -> &str {
        match style {
            EnglishStyle::Mmd => &self.mmd,
            EnglishStyle::MmdTools => &self.mmd_tools,
        }
    }
}

/// Bones without a side: (Japanese, MMD, CamelCase, older spellings).
const CENTRE: &[(&str, &str, &str, &[&str])] = &[
    ("全ての親", "master", "ParentNode", &["motherbone"]),
    ("操作中心", "view cnt", "ControlNode", &[]),
    ("センター", "center", "Center", &[]),
    ("グルーブ", "groove", "Groove", &[]),
    ("腰", "waist", "Waist", &[]),
    ("上半身", "upper body", "UpperBody", &[]),
    ("上半身2", "upper body2", "UpperBody2", &[]),
    ("下半身", "lower body", "LowerBody", &[]),
    ("首", "neck", "Neck", &[]),
    ("頭", "head", "Head", &[]),
    ("両目", "eyes", "Eyes", &[]),
];

/// Sided bones as stems: 左/右 + stem, stem + `_L`/`_R`, `Left`/`Right` + stem. Older
/// spellings starting with a capital take the prefix, the others the suffix.
const SIDED: &[(&str, &str, &str, &[&str])] = &[
    ("目", "eye", "Eye", &[]),
    ("肩P", "shoulderP", "ShoulderP", &["shoulder_raise"]),
    ("肩", "shoulder", "Shoulder", &[]),
    ("肩C", "shoulderC", "ShoulderC", &["shoulder_cancel"]),
    ("腕", "arm", "Arm", &[]),
    ("腕捩", "arm twist", "ArmTwist", &[]),
    ("ひじ", "elbow", "Elbow", &[]),
    ("手捩", "wrist twist", "HandTwist", &["WristTwist"]),
    ("手首", "wrist", "Wrist", &[]),
    ("親指０", "thumb0", "Thumb0", &[]),
    ("親指１", "thumb1", "Thumb1", &[]),
    ("親指２", "thumb2", "Thumb2", &[]),
    ("人指１", "fore1", "Index1", &["IndexFinger1"]),
    ("人指２", "fore2", "Index2", &["IndexFinger2"]),
    ("人指３", "fore3", "Index3", &["IndexFinger3"]),
    ("中指１", "middle1", "Middle1", &["MiddleFinger1"]),
    ("中指２", "middle2", "Middle2", &["MiddleFinger2"]),
    ("中指３", "middle3", "Middle3", &["MiddleFinger3"]),
    ("薬指１", "third1", "Ring1", &["RingFinger1"]),
    ("薬指２", "third2", "Ring2", &["RingFinger2"]),
    ("薬指３", "third3", "Ring3", &["RingFinger3"]),
    ("小指１", "little1", "Little1", &["LittleFinger1"]),
    ("小指２", "little2", "Little2", &["LittleFinger2"]),
    ("小指３", "little3", "Little3", &["LittleFinger3"]),
    ("足", "leg", "Leg", &[]),
    ("ひざ", "knee", "Knee", &[]),
    ("足首", "ankle", "Ankle", &["foot"]),
    ("つま先", "toe", "ToeTip", &[]),
    ("足ＩＫ", "leg IK", "LegIK", &[]),
    ("つま先ＩＫ", "toe IK", "ToeTipIK", &[]),
    ("足IK親", "leg IKP", "LegIKP", &["leg IK parent", "LegIKParent"]),
    ("足D", "leg_D", "LegD", &[]),
    ("ひざD", "knee_D", "KneeD", &[]),
    ("足首D", "ankle_D", "AnkleD", &["foot_D"]),
    ("足先EX", "toe_EX", "LegTipEX", &[]),
];

/// The sided spelling of `stem`: a CamelCase stem takes the side in front (`LeftArm`), any
/// other after (`arm_L`).
fn sided(stem: &str, left: bool) -> String {
    match (stem.starts_with(|c: char| c.is_ascii_uppercase()), left) {
        (true, true) => format!("Left{stem}"),
        (true, false) => format!("Right{stem}"),
        (false, true) => format!("{stem}_L"),
        (false, false) => format!("{stem}_R"),
    }
}

/// The whole dictionary, left before right for each sided bone.
pub fn standard_bones() -> &'static [BoneName] {
    static TABLE: OnceLock<Vec<BoneName>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        let mut table: Vec<BoneName> = CENTRE
            .iter()
            .map(|&(j, m, t, old)| BoneName {
                japanese: j.into(),
                mmd: m.into(),
                mmd_tools: t.into(),
                aliases: strings(old),
            })
            .collect();
        for &(j, m, t, old) in SIDED {
            for (side, left) in [("左", true), ("右", false)] {
                table.push(BoneName {
                    japanese: format!("{side}{j}"),
                    mmd: sided(m, left),
                    mmd_tools: sided(t, left),
                    aliases: old.iter().map(|a| sided(a, left)).collect(),
                });
            }
        }
        // The one name with its side at the end (§9.4); PmxEditor's English name.
        for (jp, mmd, camel, old) in [
            (
                "腰キャンセル左",
                "waistCancel_L",
                "WaistCancelL",
                ["waist_cancel_L", "WaistCancelLeft"],
            ),
            (
                "腰キャンセル右",
                "waistCancel_R",
                "WaistCancelR",
                ["waist_cancel_R", "WaistCancelRight"],
            ),
        ] {
            table.push(BoneName {
                japanese: jp.into(),
                mmd: mmd.into(),
                mmd_tools: camel.into(),
                aliases: strings(&old),
            });
        }
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
            for name in [&b.mmd, &b.mmd_tools].into_iter().chain(&b.aliases) {
                english.insert(english_key(name), i);
            }
        }
        Index { japanese, english }
    })
}

/// The English name of a standard bone, or `None` when `japanese` is not in the dictionary.
pub fn to_english(japanese: &str, style: EnglishStyle) -> Option<&'static str> {
    let i = *index().japanese.get(&fold_width(japanese))?;
    Some(standard_bones()[i].english(style))
}

/// The standard Japanese name for an English one in either spelling, or an older one.
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
        let mut keys = std::collections::HashSet::new();
        for b in bones {
            for style in [EnglishStyle::Mmd, EnglishStyle::MmdTools] {
                let en = to_english(&b.japanese, style).unwrap();
                // Every name fits a VMD bone name field whole, so none is cut into another.
                assert!(en.len() <= 15, "{en} needs {} bytes", en.len());
                assert_eq!(to_japanese(en), Some(b.japanese.as_str()), "{en}");
            }
            // Every spelling, older ones too, leads back to its own bone and to no other.
            for en in [&b.mmd, &b.mmd_tools].into_iter().chain(&b.aliases) {
                assert_eq!(to_japanese(en), Some(b.japanese.as_str()), "{en}");
                keys.insert((english_key(en), b.japanese.clone()));
            }
        }
        let distinct: std::collections::HashSet<&String> = keys.iter().map(|(k, _)| k).collect();
        assert_eq!(distinct.len(), keys.len(), "an English spelling names two bones");
        assert_eq!(to_english("右腕", EnglishStyle::Mmd), Some("arm_R"));
        assert_eq!(to_english("左足ＩＫ", EnglishStyle::MmdTools), Some("LeftLegIK"));
        assert_eq!(to_english("右人指１", EnglishStyle::Mmd), Some("fore1_R"));
        assert_eq!(to_english("右中指３", EnglishStyle::MmdTools), Some("RightMiddle3"));
        assert_eq!(to_english("右肩P", EnglishStyle::Mmd), Some("shoulderP_R"));
        // Width-blind on the Japanese side, case-blind on the English side.
        assert_eq!(to_english("左足IK", EnglishStyle::Mmd), Some("leg IK_L"));
        assert_eq!(to_english("右親指0", EnglishStyle::MmdTools), Some("RightThumb0"));
        assert_eq!(to_english("左足IK親", EnglishStyle::MmdTools), Some("LeftLegIKP"));
        assert_eq!(to_japanese("LEG_IK_L"), Some("左足ＩＫ"));
        // Older spellings and the names PMX models carry.
        assert_eq!(to_japanese("waist_cancel_R"), Some("腰キャンセル右"));
        assert_eq!(to_japanese("LeftIndexFinger1"), Some("左人指１"));
        assert_eq!(to_japanese("foot_L"), Some("左足首"));
        assert_eq!(to_japanese("shoulder_raise_R"), Some("右肩P"));
        assert_eq!(to_japanese("leg_IK_Parent_L"), Some("左足IK親"));
        assert_eq!(to_japanese("arm_twist_L"), Some("左腕捩"));
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
