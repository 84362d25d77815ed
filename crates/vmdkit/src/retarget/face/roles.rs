//! The facial roles the solver drives, the morph names MMD models commonly give each, and the
//! user's map file (`role = morph name` lines) for models that name them otherwise.

use serde::Serialize;
use std::str::FromStr;

/// What a morph does to the face, as far as the solver is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MorphRole {
    /// Both eyes closed (まばたき).
    Blink,
    /// The model's left eye closed alone (ウィンク).
    BlinkLeft,
    /// The model's right eye closed alone (ウィンク右).
    BlinkRight,
    /// Smiling eyes, lower lids up (笑い).
    SmileEyes,
    /// Vowel あ: the jaw dropped.
    A,
    /// Vowel い: lips parted and spread.
    I,
    /// Vowel う: lips rounded and closed.
    U,
    /// Vowel え: half open and spread.
    E,
    /// Vowel お: rounded and open.
    O,
    /// Brows raised (上).
    BrowUp,
    /// Brows lowered (下).
    BrowDown,
    /// Inner brows raised (困る).
    BrowSad,
    /// Inner brows lowered (怒り).
    BrowAngry,
    /// Mouth corners up (にっこり, にやり).
    MouthSmile,
}

impl MorphRole {
    /// Every role, in report order.
    pub const ALL: [MorphRole; 14] = [
        MorphRole::Blink,
        MorphRole::BlinkLeft,
        MorphRole::BlinkRight,
        MorphRole::SmileEyes,
        MorphRole::A,
        MorphRole::I,
        MorphRole::U,
        MorphRole::E,
        MorphRole::O,
        MorphRole::BrowUp,
        MorphRole::BrowDown,
        MorphRole::BrowSad,
        MorphRole::BrowAngry,
        MorphRole::MouthSmile,
    ];

    /// The role's name in map files and reports.
    pub fn name(self) -> &'static str {
        match self {
            MorphRole::Blink => "blink",
            MorphRole::BlinkLeft => "blink_left",
            MorphRole::BlinkRight => "blink_right",
            MorphRole::SmileEyes => "smile_eyes",
            MorphRole::A => "a",
            MorphRole::I => "i",
            MorphRole::U => "u",
            MorphRole::E => "e",
            MorphRole::O => "o",
            MorphRole::BrowUp => "brow_up",
            MorphRole::BrowDown => "brow_down",
            MorphRole::BrowSad => "brow_sad",
            MorphRole::BrowAngry => "brow_angry",
            MorphRole::MouthSmile => "mouth_smile",
        }
    }

    /// The names models give the role, most usual first: the standard Japanese names (full-
    /// and half-width katakana), then English ones, compared without case. ウィンク closes the
    /// model's left eye and ウィンク右 its right, as in the standard models; ウィンク２ is the
    /// smiling variant, used when the plain one is missing. にこり is not here: in 初音ミク.pmx it
    /// is a brow morph.
    pub fn standard_names(self) -> &'static [&'static str] {
        match self {
            MorphRole::Blink => &["まばたき", "瞬き", "目閉じ", "目_閉じ", "blink"],
            MorphRole::BlinkLeft => &[
                "ウィンク",
                "ｳｨﾝｸ",
                "ウインク",
                "ウィンク２",
                "ｳｨﾝｸ２",
                "ウィンク左",
                "wink",
                "wink_l",
                "wink left",
                "wink_left",
                "blink_l",
                "blink_left",
            ],
            MorphRole::BlinkRight => &[
                "ウィンク右",
                "ｳｨﾝｸ右",
                "ウインク右",
                "ウィンク２右",
                "ｳｨﾝｸ２右",
                "wink_r",
                "wink right",
                "wink_right",
                "wink 2 right",
                "blink_r",
                "blink_right",
            ],
            MorphRole::SmileEyes => &["笑い", "目_微笑", "smile", "eye smile", "smile_eyes"],
            MorphRole::A => &["あ", "ア", "ｱ", "発音「あ」", "a"],
            MorphRole::I => &["い", "イ", "ｲ", "発音「い」", "i"],
            MorphRole::U => &["う", "ウ", "ｳ", "発音「う」", "u"],
            MorphRole::E => &["え", "エ", "ｴ", "発音「え」", "e"],
            MorphRole::O => &["お", "オ", "ｵ", "発音「お」", "o"],
            MorphRole::BrowUp => &["上", "眉上", "go up", "brow up", "brow_up"],
            MorphRole::BrowDown => &["下", "眉下", "go down", "brow down", "brow_down"],
            MorphRole::BrowSad => &["困る", "困り", "眉_困る", "sadness", "troubled", "brow_sad"],
            MorphRole::BrowAngry => &["怒り", "眉_怒り", "anger", "angry", "brow_angry"],
            MorphRole::MouthSmile => &[
                "にっこり",
                "にやり",
                "口_微笑",
                "ニヤリ",
                "∧",
                "grin",
                "mouth smile",
                "mouth_smile",
            ],
        }
    }
}

impl FromStr for MorphRole {
    type Err = String;

    /// A role's [`name`](MorphRole::name), in any case.
    fn from_str(text: &str) -> Result<Self, String> {
        let t = text.trim().to_ascii_lowercase();
        MorphRole::ALL.into_iter().find(|r| r.name() == t).ok_or_else(|| {
            let names: Vec<&str> = MorphRole::ALL.iter().map(|r| r.name()).collect();
            format!("unknown face role `{}`; the roles are {}", text.trim(), names.join(", "))
        })
    }
}

/// A user's morph names for roles, overriding the standard names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MorphMap {
    /// `(role, morph name)` pairs, in file order; a role may be mapped once.
    pub entries: Vec<(MorphRole, String)>,
}

impl MorphMap {
    /// Reads `role = morph name` lines. Blank lines and lines starting with `#` are skipped;
    /// the morph name is taken as written, trimmed, and matched exactly.
    pub fn parse(text: &str) -> Result<MorphMap, String> {
        let mut entries: Vec<(MorphRole, String)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (role, name) = line
                .split_once('=')
                .ok_or_else(|| format!("line {}: expected `role = morph name`", n + 1))?;
            let role: MorphRole = role.parse().map_err(|e| format!("line {}: {e}", n + 1))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("line {}: no morph name for {}", n + 1, role.name()));
            }
            if entries.iter().any(|(r, _)| *r == role) {
                return Err(format!("line {}: {} is mapped twice", n + 1, role.name()));
            }
            entries.push((role, name.to_string()));
        }
        Ok(MorphMap { entries })
    }

    /// The morph name mapped to `role`.
    pub fn get(&self, role: MorphRole) -> Option<&str> {
        self.entries.iter().find(|(r, _)| *r == role).map(|(_, n)| n.as_str())
    }
}

/// One of the model's morphs, by its names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelMorph {
    /// The name VMD keys carry.
    pub name: String,
    /// The English name, empty when the model has none.
    pub name_en: String,
}

/// The model morph that plays `role`: the map's name when mapped (exactly, by either name), else
/// the first standard name the model has (Japanese names exactly, English ones without case).
pub fn find(role: MorphRole, morphs: &[ModelMorph], map: Option<&MorphMap>) -> Option<usize> {
    if let Some(name) = map.and_then(|m| m.get(role)) {
        return morphs.iter().position(|m| m.name == name || m.name_en == name);
    }
    role.standard_names().iter().find_map(|want| {
        morphs.iter().position(|m| m.name == *want).or_else(|| {
            (want.is_ascii())
                .then(|| {
                    morphs.iter().position(|m| {
                        m.name.eq_ignore_ascii_case(want) || m.name_en.eq_ignore_ascii_case(want)
                    })
                })
                .flatten()
        })
    })
}
