//! Renaming bones and morphs, and keeping or dropping them by name.
//!
//! **Rename.** A [`RenameMap`] maps old names to new ones, for bones (and the IK names of
//! property keys, which name bones) and morphs. It comes from code, from a CSV file
//! ([`RenameMap::from_csv`]) or from the standard bone dictionary ([`RenameMap::to_english`],
//! [`RenameMap::to_japanese`]). New names are encoded in the motion's own encoding:
//!
//! * a new name longer than the field (15 bytes for bones and morphs, 20 for IK names) is
//!   stored cut on a character boundary, as MMD itself stores long names, and reported
//!   ([`Renamed::shortened`]) so the caller can warn;
//! * a character the encoding cannot hold is an error;
//! * renaming that would give two tracks the same name (which would merge them) is an error.
//!
//! Keys keep their values and curves; names not in the map keep their raw bytes.
//!
//! **Filter** keeps or drops bone and morph keys whose names match any of a list of patterns
//! (`*` matches any run of characters, `?` one character). Camera, light, self-shadow and
//! property keys are kept as they are.

use super::EditError;
use crate::format::Motion;
use crate::names::{self, decode_clean, encode_name, repad, EnglishStyle, NameFit};
use crate::text::{RawName, TextEncoding};
use std::collections::HashMap;

/// Old name → new name, for bones and for morphs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenameMap {
    bones: Vec<(String, String)>,
    morphs: Vec<(String, String)>,
}

impl RenameMap {
    /// A map that renames nothing.
    pub fn new() -> Self {
        RenameMap::default()
    }

    /// Renames bone `old` (and IK entries naming it) to `new`; a later entry for the same old
    /// name replaces an earlier one.
    pub fn bone(&mut self, old: impl Into<String>, new: impl Into<String>) -> &mut Self {
        upsert(&mut self.bones, old.into(), new.into());
        self
    }

    /// Renames morph `old` to `new`.
    pub fn morph(&mut self, old: impl Into<String>, new: impl Into<String>) -> &mut Self {
        upsert(&mut self.morphs, old.into(), new.into());
        self
    }

    /// Adds every entry of `other`, replacing this map's entries for the same old names (given
    /// names over the dictionary's, say).
    pub fn extend(&mut self, other: &RenameMap) -> &mut Self {
        for (old, new) in &other.bones {
            upsert(&mut self.bones, old.clone(), new.clone());
        }
        for (old, new) in &other.morphs {
            upsert(&mut self.morphs, old.clone(), new.clone());
        }
        self
    }

    /// Whether the map has no entry for bones or morphs.
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty() && self.morphs.is_empty()
    }

    /// Reads a map from CSV: rows `old,new` (bones and morphs alike) or `bone,old,new` /
    /// `morph,old,new`. Blank lines and lines starting with `#` are skipped, and a first row
    /// `old,new` or `kind,old,new` is taken as a header.
    #[cfg(feature = "csv")]
    pub fn from_csv(text: &str) -> Result<Self, EditError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .comment(Some(b'#'))
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let mut map = RenameMap::new();
        for (row, record) in reader.records().enumerate() {
            let record =
                record.map_err(|e| EditError::BadMap { line: row + 1, message: e.to_string() })?;
            let line = record.position().map_or(row + 1, |p| p.line() as usize);
            let fields: Vec<&str> = record.iter().collect();
            let bad = |message: String| EditError::BadMap { line, message };
            match fields.as_slice() {
                [""] => {}
                ["old", "new"] | ["kind", "old", "new"] if row == 0 => {}
                [old, new] => {
                    map.bone(*old, *new);
                    map.morph(*old, *new);
                }
                [kind, old, new] => match kind.to_ascii_lowercase().as_str() {
                    "bone" => drop(map.bone(*old, *new)),
                    "morph" => drop(map.morph(*old, *new)),
                    other => {
                        return Err(bad(format!("the kind must be bone or morph, not {other:?}")))
                    }
                },
                _ => {
                    return Err(bad(format!(
                        "expected old,new or kind,old,new; found {} fields",
                        fields.len()
                    )))
                }
            }
            if fields.iter().any(|f| f.is_empty()) && fields != [""] {
                return Err(bad("a name is empty".into()));
            }
        }
        Ok(map)
    }

    /// Standard bone names (§9.4) present in `motion` (bone keys and IK entries) to English.
    pub fn to_english(motion: &Motion, style: EnglishStyle) -> Self {
        Self::from_dictionary(motion, |name| names::to_english(name, style))
    }

    /// English standard bone names present in `motion`, in either spelling, to Japanese.
    pub fn to_japanese(motion: &Motion) -> Self {
        Self::from_dictionary(motion, names::to_japanese)
    }

    fn from_dictionary(motion: &Motion, translate: impl Fn(&str) -> Option<&'static str>) -> Self {
        let encoding = motion.detect_encoding();
        let mut map = RenameMap::new();
        let bone_names = motion.bones.iter().filter_map(|k| decode_clean(&k.name, encoding));
        let ik_names = motion
            .properties
            .iter()
            .flat_map(|p| &p.ik)
            .filter_map(|s| decode_clean(&s.name, encoding));
        for name in bone_names.chain(ik_names) {
            if let Some(new) = translate(&name) {
                if new != name && !map.bones.iter().any(|(old, _)| *old == name) {
                    map.bone(name, new);
                }
            }
        }
        map
    }
}

fn upsert(list: &mut Vec<(String, String)>, old: String, new: String) {
    match list.iter_mut().find(|(o, _)| *o == old) {
        Some(entry) => entry.1 = new,
        None => list.push((old, new)),
    }
}

/// One name changed by [`rename`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renamed {
    /// `bone`, `morph` or `IK`.
    pub kind: &'static str,
    /// The name before, as decoded from the motion.
    pub old: String,
    /// The name asked for, as given in the map (see [`Renamed::shortened`] for what was stored).
    pub new: String,
    /// Keys (or IK entries) renamed.
    pub keys: usize,
    /// When `new` did not fit the field: the bytes it needs and what was stored.
    pub shortened: Option<(usize, String)>,
}

/// What [`rename`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenameReport {
    /// The names renamed, in the order first met, each with the keys it renamed.
    pub renamed: Vec<Renamed>,
    /// Map entries that matched no name, as (kind, old name).
    pub unused: Vec<(&'static str, String)>,
}

/// Renames the names of one kind in fields of width `N`.
struct Renamer<'m, const N: usize> {
    kind: &'static str,
    map: &'m [(String, String)],
    encoding: TextEncoding,
    /// Per old field: the new field, and the index into `renamed` (None when unchanged).
    done: HashMap<RawName<N>, (RawName<N>, Option<usize>)>,
}

impl<const N: usize> Renamer<'_, N> {
    fn apply(
        &mut self,
        field: RawName<N>,
        report: &mut RenameReport,
    ) -> Result<RawName<N>, EditError> {
        if let Some(&(new, slot)) = self.done.get(&field) {
            if let Some(i) = slot {
                report.renamed[i].keys += 1;
            }
            return Ok(new);
        }
        let old = decode_clean(&field, self.encoding);
        let target = old.as_ref().and_then(|o| self.map.iter().find(|(from, _)| from == o));
        let (new, slot) = match (old, target) {
            (Some(old), Some((_, to))) => {
                let (new, fit) = encode_name::<N>(to, self.encoding);
                let shortened = match fit {
                    NameFit::Ok => None,
                    NameFit::Shortened { bytes } => Some((bytes, new.to_string_lossy())),
                    NameFit::Unencodable => {
                        return Err(EditError::Unencodable {
                            kind: self.kind,
                            name: to.clone(),
                            encoding: self.encoding.label(),
                        })
                    }
                };
                report.renamed.push(Renamed {
                    kind: self.kind,
                    old,
                    new: to.clone(),
                    keys: 1,
                    shortened,
                });
                (repad(field, new), Some(report.renamed.len() - 1))
            }
            _ => (field, None),
        };
        self.done.insert(field, (new, slot));
        Ok(new)
    }

    /// Fails when two different old names end up with the same name bytes.
    fn check_collisions(&self, report: &RenameReport) -> Result<(), EditError> {
        let mut by_new: HashMap<&[u8], Vec<(&RawName<N>, Option<usize>)>> = HashMap::new();
        for (old, (new, slot)) in &self.done {
            let olds = by_new.entry(new.bytes()).or_default();
            if !olds.iter().any(|(o, _)| o.bytes() == old.bytes()) {
                olds.push((old, *slot));
            }
        }
        // Sorted, so that the error is the same from run to run.
        type Collision<'a> = (&'a [u8], Vec<(String, String)>);
        let mut collisions: Vec<Collision> = by_new
            .into_iter()
            .filter(|(_, olds)| olds.len() > 1)
            .map(|(new, olds)| {
                let mut names: Vec<(String, String)> = olds
                    .iter()
                    .map(|(old, slot)| {
                        let old = old.to_string_lossy();
                        let asked =
                            slot.map_or_else(|| old.clone(), |i| report.renamed[i].new.clone());
                        (old, asked)
                    })
                    .collect();
                names.sort();
                (new, names)
            })
            .collect();
        collisions.sort();
        let Some((new, names)) = collisions.into_iter().next() else {
            return Ok(());
        };
        let (names, requested) = names.into_iter().unzip();
        Err(EditError::NameCollision {
            kind: self.kind,
            names,
            requested,
            field_full: new.len() == N,
            into: self.encoding.decode(new, false).text.into_owned(),
        })
    }
}

/// Renames bones, IK entries and morphs of `motion` by `map` (see the module documentation).
pub fn rename(motion: &Motion, map: &RenameMap) -> Result<(Motion, RenameReport), EditError> {
    let encoding = motion.detect_encoding();
    let mut report = RenameReport::default();
    let mut out = motion.clone();
    let mut bones = Renamer::<15> { kind: "bone", map: &map.bones, encoding, done: HashMap::new() };
    for key in &mut out.bones {
        key.name = bones.apply(key.name, &mut report)?;
    }
    bones.check_collisions(&report)?;
    let mut morphs =
        Renamer::<15> { kind: "morph", map: &map.morphs, encoding, done: HashMap::new() };
    for key in &mut out.morphs {
        key.name = morphs.apply(key.name, &mut report)?;
    }
    morphs.check_collisions(&report)?;
    let mut ik = Renamer::<20> { kind: "IK", map: &map.bones, encoding, done: HashMap::new() };
    for key in &mut out.properties {
        for state in &mut key.ik {
            state.name = ik.apply(state.name, &mut report)?;
        }
    }
    ik.check_collisions(&report)?;
    // A bone entry is used when it renamed a bone or an IK entry.
    let used = |kinds: &[&str], old: &str| {
        report.renamed.iter().any(|r| kinds.contains(&r.kind) && r.old == old)
    };
    let unused: Vec<(&'static str, String)> = (map
        .bones
        .iter()
        .filter(|(o, _)| !used(&["bone", "IK"], o))
        .map(|(o, _)| ("bone", o.clone())))
    .chain(
        map.morphs.iter().filter(|(o, _)| !used(&["morph"], o)).map(|(o, _)| ("morph", o.clone())),
    )
    .collect();
    report.unused = unused;
    Ok((out, report))
}

/// Whether [`filter`] keeps or drops the matching names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FilterMode {
    /// Keep the bone and morph keys whose names match, drop the others.
    Keep,
    /// Drop the bone and morph keys whose names match, keep the others.
    Drop,
}

/// What [`filter`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterReport {
    /// Bone and morph keys kept (other sections are not counted).
    pub kept_keys: usize,
    /// Bone and morph keys dropped.
    pub dropped_keys: usize,
    /// Bone and morph names whose keys were dropped, once each.
    pub dropped_names: Vec<String>,
    /// Patterns that matched no bone or morph name.
    pub unmatched: Vec<String>,
}

/// `*` matches any run of characters, `?` any one character, anything else itself.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // Classic two-pointer match with backtracking to the last star.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// Keeps (or drops) bone and morph keys whose names match any of `patterns`.
pub fn filter(motion: &Motion, mode: FilterMode, patterns: &[String]) -> (Motion, FilterReport) {
    let encoding = motion.detect_encoding();
    let mut matched = vec![false; patterns.len()];
    let mut cache: HashMap<RawName<15>, bool> = HashMap::new();
    let mut report = FilterReport::default();
    let mut keep = |name: &RawName<15>, report: &mut FilterReport| {
        let hit = *cache.entry(*name).or_insert_with(|| {
            let text = decode_clean(name, encoding).unwrap_or_else(|| name.to_string_lossy());
            let mut any = false;
            for (p, m) in patterns.iter().zip(matched.iter_mut()) {
                if glob_match(p, &text) {
                    *m = true;
                    any = true;
                }
            }
            any
        });
        let kept = hit == (mode == FilterMode::Keep);
        if kept {
            report.kept_keys += 1;
        } else {
            report.dropped_keys += 1;
            let text = name.to_string_lossy();
            if !report.dropped_names.contains(&text) {
                report.dropped_names.push(text);
            }
        }
        kept
    };
    let mut out = motion.clone();
    out.bones.retain(|k| keep(&k.name, &mut report));
    out.morphs.retain(|k| keep(&k.name, &mut report));
    report.unmatched =
        patterns.iter().zip(&matched).filter(|(_, &m)| !m).map(|(p, _)| p.clone()).collect();
    (out, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::BoneKey;
    use crate::text::KeyName;

    fn motion(names: &[&str]) -> Motion {
        let mut m = Motion::new(Default::default());
        for (i, n) in names.iter().enumerate() {
            m.bones.push(BoneKey::new(KeyName::encode(n).0, i as u32));
        }
        m
    }

    #[test]
    fn csv_maps_and_dictionary_rename() {
        let map =
            RenameMap::from_csv("old,new\n# comment\n右腕,RightArm\nmorph,まばたき,blink\n\n")
                .unwrap();
        assert_eq!(map.bones, vec![("右腕".to_string(), "RightArm".to_string())]);
        assert_eq!(map.morphs.len(), 2);
        assert!(matches!(RenameMap::from_csv("a,b,c,d"), Err(EditError::BadMap { line: 1, .. })));
        assert!(matches!(RenameMap::from_csv("x,a,b"), Err(EditError::BadMap { .. })));

        let m = crate::example::example_motion();
        let (english, report) = rename(&m, &RenameMap::to_english(&m, EnglishStyle::Mmd)).unwrap();
        assert!(report.renamed.iter().any(|r| r.old == "右腕" && r.new == "arm_R"), "{report:?}");
        assert!(report.renamed.iter().any(|r| r.kind == "IK" && r.new == "leg IK_R"), "{report:?}");
        let (back, _) = rename(&english, &RenameMap::to_japanese(&english)).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn long_names_warn_and_collisions_fail() {
        // The dictionary's names all fit: fingers do not merge.
        let m = motion(&["右人指１", "右人指２", "右人指３", "右肩P", "左肩P", "センター"]);
        for style in [EnglishStyle::Mmd, EnglishStyle::MmdTools] {
            let (out, report) = rename(&m, &RenameMap::to_english(&m, style)).unwrap();
            assert!(report.renamed.iter().all(|r| r.shortened.is_none()), "{report:?}");
            let (back, _) = rename(&out, &RenameMap::to_japanese(&out)).unwrap();
            let names =
                |m: &Motion| m.bones.iter().map(|k| k.name.bytes().to_vec()).collect::<Vec<_>>();
            assert_eq!(names(&back), names(&m));
        }
        // Names longer than the field are cut, and two cut alike is an error naming both.
        let mut map = RenameMap::new();
        map.bone("右人指１", "RightIndexFinger1").bone("右人指２", "RightIndexFinger2");
        let err = rename(&m, &map).unwrap_err();
        assert_eq!(
            err.to_string(),
            "renaming would merge the bone tracks 右人指１ (→ RightIndexFinger1), 右人指２ \
             (→ RightIndexFinger2) into one named RightIndexFinge (a name field holds the first \
             15 bytes of a name; 20 for IK)"
        );
        // A new name equal to a name left as it is collides too.
        let mut map = RenameMap::new();
        map.bone("右人指１", "センター");
        let err = rename(&m, &map).unwrap_err().to_string();
        assert!(
            err.contains("tracks センター, 右人指１ (→ センター) into one named センター"),
            "{err}"
        );
        let m = motion(&["右人指１", "センター"]);
        let mut map = RenameMap::new();
        map.bone("右人指１", "RightIndexFinger1");
        let (out, report) = rename(&m, &map).unwrap();
        let long = report.renamed.iter().find(|r| r.old == "右人指１").unwrap();
        assert_eq!(long.shortened, Some((17, "RightIndexFinge".to_string())));
        assert_eq!(out.bones[0].name.bytes(), b"RightIndexFinge");
        let mut map = RenameMap::new();
        map.bone("nothing", "x");
        assert_eq!(rename(&m, &map).unwrap().1.unused, vec![("bone", "nothing".to_string())]);
    }

    #[test]
    fn filter_keeps_or_drops_by_pattern() {
        let m = motion(&["右腕", "左腕", "センター", "右ひじ"]);
        let (kept, report) = filter(&m, FilterMode::Keep, &["右*".into(), "nope".into()]);
        assert_eq!(kept.bones.len(), 2);
        assert_eq!(report.unmatched, vec!["nope".to_string()]);
        let (dropped, report) = filter(&m, FilterMode::Drop, &["?腕".into()]);
        assert_eq!(dropped.bones.len(), 2);
        assert_eq!(report.dropped_names, vec!["右腕".to_string(), "左腕".to_string()]);
        assert!(glob_match("*", "") && glob_match("a*c", "abbc") && !glob_match("a?c", "ac"));
    }
}
