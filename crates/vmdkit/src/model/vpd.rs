//! VPD pose files (reference §11): CP932 text holding one pose of a model's bones, and the
//! morph weights MikuMikuMoving adds after them.
//!
//! Reading is tolerant of what real files vary in: `//` comments anywhere, spacing, CRLF / LF /
//! CR line endings, a byte-order mark (selecting UTF-8 or UTF-16; BOM-less UTF-8 is recognised
//! too), numbers with or without a decimal point or exponent, missing semicolons, and values
//! spread over lines.
//! It follows MMD in reading exactly the declared number of bone entries: further bone entries
//! are ignored (MMD does not apply them); fewer than declared is an error.

use crate::error::{Categorize, Category};
use crate::text::TextEncoding;
use glam::{Quat, Vec3};
use std::borrow::Cow;
use std::fmt::Write as _;

const SIGNATURE: &str = "Vocaloid Pose Data file";

/// A VPD pose file: each listed bone's translation and rotation, and morph weights.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VpdPose {
    /// The model the pose was saved from, e.g. `初音ミク.osm`.
    pub model_file: String,
    /// The bones' poses, in file order.
    pub bones: Vec<VpdBone>,
    /// Morph weights (a MikuMikuMoving extension MMD ignores).
    pub morphs: Vec<(String, f32)>,
}

/// One bone's pose in a VPD file, in the bone's local frame as in a VMD key.
#[derive(Clone, Debug, PartialEq)]
pub struct VpdBone {
    /// The bone's name.
    pub name: String,
    /// Offset from the rest position.
    pub translation: Vec3,
    /// As stored (x, y, z, w); not normalised. mmd_tools reads all zeros as identity.
    pub rotation: Quat,
}

/// What is wrong with a VPD, and on which line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct VpdError {
    /// The line, 1-based, counting blank and comment lines.
    pub line: usize,
    /// What is wrong.
    pub kind: VpdErrorKind,
}

/// What is wrong with a VPD's text.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VpdErrorKind {
    /// The first line is not the VPD signature.
    #[error("not a VPD file: the first line is not \"Vocaloid Pose Data file\"")]
    NotVpd,
    /// The text ends inside the header.
    #[error("the file ends before the {what}")]
    MissingHeader {
        /// The header line missing: `"model file name"` or `"bone count"`.
        what: &'static str,
    },
    /// The bone count is not a whole number.
    #[error("bone count {:?} is not a number", crate::shown::Shown(.text))]
    BadCount {
        /// The count's text.
        text: String,
    },
    /// A value is not a number, or is infinite or NaN.
    #[error("{:?} is not a finite number", crate::shown::Shown(.text))]
    BadNumber {
        /// The value's text.
        text: String,
    },
    /// An entry holds too few or too many numbers.
    #[error("{entry} entry has {found} numbers, it needs {expected}")]
    ValueCount {
        /// `"bone"` or `"morph"`.
        entry: &'static str,
        /// The numbers such an entry holds.
        expected: usize,
        /// The numbers this one holds.
        found: usize,
    },
    /// An entry's `}` is missing: the text ends, or the next entry starts, first.
    #[error("entry {:?} is not closed with '}}'", crate::shown::Shown(.name))]
    UnclosedEntry {
        /// The entry's bone or morph name.
        name: String,
    },
    /// A line that is neither an entry header nor inside an entry.
    #[error("unexpected text {:?}", crate::shown::Shown(.text))]
    UnexpectedLine {
        /// The line, without comment and surrounding space.
        text: String,
    },
    /// Fewer bone entries than the header declares.
    #[error("the header declares {declared} bones but the file has {found}")]
    MissingBones {
        /// The header's bone count.
        declared: usize,
        /// The bone entries found.
        found: usize,
    },
}

impl Categorize for VpdError {
    fn category(&self) -> Category {
        match self.kind {
            VpdErrorKind::NotVpd => Category::WrongFormat,
            VpdErrorKind::MissingHeader { .. } | VpdErrorKind::MissingBones { .. } => {
                Category::Truncated
            }
            VpdErrorKind::BadCount { .. }
            | VpdErrorKind::BadNumber { .. }
            | VpdErrorKind::ValueCount { .. }
            | VpdErrorKind::UnclosedEntry { .. }
            | VpdErrorKind::UnexpectedLine { .. } => Category::Invalid,
        }
    }
}

/// Decodes the file: a BOM chooses its encoding; otherwise text that is valid UTF-8 is read
/// as UTF-8 (Japanese CP932 text is practically never valid UTF-8, while UTF-8 text often
/// happens to be valid CP932 and would turn into mojibake), and anything else as CP932.
fn decode(data: &[u8]) -> Cow<'_, str> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(data) {
        return encoding.decode_without_bom_handling(&data[bom..]).0;
    }
    match std::str::from_utf8(data) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => TextEncoding::ShiftJis.decode(data, false).text,
    }
}

/// The entry kinds: how an entry header starts and how many numbers its body holds.
#[derive(Clone, Copy)]
enum Entry {
    Bone,
    Morph,
}

impl Entry {
    fn label(self) -> &'static str {
        match self {
            Entry::Bone => "bone",
            Entry::Morph => "morph",
        }
    }

    fn values(self) -> usize {
        match self {
            Entry::Bone => 7,
            Entry::Morph => 1,
        }
    }

    /// `BoneN{name` / `MorphN{name`: the kind and the name (the rest of the line).
    fn header(line: &str) -> Option<(Entry, &str)> {
        let (head, name) = line.split_once('{')?;
        let head = head.trim();
        let (entry, digits) = if let Some(d) = head.strip_prefix("Bone") {
            (Entry::Bone, d)
        } else {
            (Entry::Morph, head.strip_prefix("Morph")?)
        };
        digits.bytes().all(|b| b.is_ascii_digit()).then(|| (entry, name.trim()))
    }
}

fn error(line: usize, kind: VpdErrorKind) -> VpdError {
    VpdError { line, kind }
}

/// (line number, content without comment, trimmed), blank lines dropped.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let content = raw.split_once("//").map_or(raw, |(c, _)| c).trim();
        (!content.is_empty()).then_some((i + 1, content))
    })
}

/// The header after the signature: the model file name, the bone count's line and the count.
fn read_header<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
) -> Result<(String, usize, usize), VpdError> {
    match lines.next() {
        Some((_, SIGNATURE)) => {}
        Some((line, _)) => return Err(error(line, VpdErrorKind::NotVpd)),
        None => return Err(error(1, VpdErrorKind::NotVpd)),
    }
    let statement = |s: &str| s.split(';').next().unwrap_or("").trim().to_string();
    let model_line =
        lines.next().ok_or(error(1, VpdErrorKind::MissingHeader { what: "model file name" }))?;
    let model_file = statement(model_line.1);
    let (count_line, count_text) = lines
        .next()
        .ok_or(error(model_line.0, VpdErrorKind::MissingHeader { what: "bone count" }))?;
    let count_text = statement(count_text);
    let declared: usize = count_text
        .parse()
        .map_err(|_| error(count_line, VpdErrorKind::BadCount { text: count_text }))?;
    Ok((model_file, count_line, declared))
}

/// The numbers of an entry, from the line after its header (`start`) through its `}`; the
/// entry's kind says how many to expect.
fn read_values<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    entry: Entry,
    name: &str,
    start: usize,
) -> Result<Vec<f32>, VpdError> {
    let unclosed = || error(start, VpdErrorKind::UnclosedEntry { name: name.to_string() });
    let mut values = Vec::with_capacity(entry.values());
    loop {
        let (line, body) = lines.next().ok_or_else(unclosed)?;
        let (numbers, closed) = match body.split_once('}') {
            Some((numbers, rest)) if rest.trim().is_empty() => (numbers, true),
            Some(_) => {
                return Err(error(line, VpdErrorKind::UnexpectedLine { text: body.to_string() }))
            }
            None if Entry::header(body).is_some() => return Err(unclosed()),
            None => (body, false),
        };
        for token in numbers.split([',', ';', ' ', '\t']).filter(|t| !t.is_empty()) {
            let value: f32 =
                token.parse().ok().filter(|v: &f32| v.is_finite()).ok_or_else(|| {
                    error(line, VpdErrorKind::BadNumber { text: token.to_string() })
                })?;
            values.push(value);
        }
        if closed {
            break;
        }
    }
    if values.len() != entry.values() {
        let kind = VpdErrorKind::ValueCount {
            entry: entry.label(),
            expected: entry.values(),
            found: values.len(),
        };
        return Err(error(start, kind));
    }
    Ok(values)
}

impl VpdPose {
    /// Reads a VPD file's bytes.
    pub fn parse(data: &[u8]) -> Result<VpdPose, VpdError> {
        let text = decode(data);
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let mut lines = content_lines(&text);
        let (model_file, count_line, declared) = read_header(&mut lines)?;

        let mut pose = VpdPose { model_file, bones: Vec::new(), morphs: Vec::new() };
        let mut bone_entries = 0usize;
        while let Some((start, content)) = lines.next() {
            let Some((entry, name)) = Entry::header(content) else {
                return Err(error(
                    start,
                    VpdErrorKind::UnexpectedLine { text: content.to_string() },
                ));
            };
            let values = read_values(&mut lines, entry, name, start)?;
            match entry {
                Entry::Bone => {
                    bone_entries += 1;
                    if pose.bones.len() < declared {
                        pose.bones.push(VpdBone {
                            name: name.to_string(),
                            translation: Vec3::new(values[0], values[1], values[2]),
                            rotation: Quat::from_xyzw(values[3], values[4], values[5], values[6]),
                        });
                    }
                }
                Entry::Morph => pose.morphs.push((name.to_string(), values[0])),
            }
        }
        if bone_entries < declared {
            return Err(error(
                count_line,
                VpdErrorKind::MissingBones { declared, found: bone_entries },
            ));
        }
        Ok(pose)
    }

    /// The pose as MMD writes a VPD: CP932, CRLF, six decimals, MMD's comments; morphs after
    /// the bones as MikuMikuMoving writes them. Characters CP932 lacks become `?`, and line
    /// breaks in names become spaces (they would end the name).
    pub fn to_bytes(&self) -> Vec<u8> {
        let clean = |s: &str| s.replace(['\r', '\n'], " ");
        let mut s = String::new();
        s.push_str(SIGNATURE);
        s.push_str("\r\n\r\n");
        let _ = write!(s, "{};\t\t// 親ファイル名\r\n", clean(&self.model_file));
        let _ = write!(s, "{};\t\t\t\t// 総ポーズボーン数\r\n\r\n", self.bones.len());
        for (i, b) in self.bones.iter().enumerate() {
            let (t, q) = (b.translation, b.rotation);
            let _ = write!(
                s,
                "Bone{i}{{{}\r\n  {:.6},{:.6},{:.6};\t\t\t\t// trans x,y,z\r\n  \
                 {:.6},{:.6},{:.6},{:.6};\t\t// Quaternion x,y,z,w\r\n}}\r\n\r\n",
                clean(&b.name),
                t.x,
                t.y,
                t.z,
                q.x,
                q.y,
                q.z,
                q.w
            );
        }
        for (i, (name, weight)) in self.morphs.iter().enumerate() {
            let _ = write!(
                s,
                "Morph{i}{{{}\r\n  {weight:.6};\t\t\t\t// weight\r\n}}\r\n\r\n",
                clean(name)
            );
        }
        // CP932 never needs more bytes than UTF-8 for the same text.
        TextEncoding::ShiftJis.encode(&s, s.len()).bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> VpdPose {
        VpdPose {
            model_file: "初音ミク.osm".into(),
            bones: vec![
                VpdBone {
                    name: "センター".into(),
                    translation: Vec3::new(0.5, -1.25, 0.0),
                    rotation: Quat::IDENTITY,
                },
                VpdBone {
                    name: "左足ＩＫ".into(),
                    translation: Vec3::ZERO,
                    rotation: Quat::from_xyzw(0.049841, 0.038732, -0.102715, 0.992706),
                },
            ],
            morphs: vec![("まばたき".into(), 0.75)],
        }
    }

    #[test]
    fn model_vpd_writes_the_mmd_layout_and_round_trips() {
        let pose = sample();
        let bytes = pose.to_bytes();
        let text = encoding_rs::SHIFT_JIS.decode(&bytes).0;
        let expected = "Vocaloid Pose Data file\r\n\r\n初音ミク.osm;\t\t// 親ファイル名\r\n2;\t\t\t\t// 総ポーズボーン数\r\n\r\n\
            Bone0{センター\r\n  0.500000,-1.250000,0.000000;\t\t\t\t// trans x,y,z\r\n  \
            0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\r\n}\r\n\r\n";
        assert!(text.starts_with(expected), "{text}");
        assert!(
            text.ends_with("Morph0{まばたき\r\n  0.750000;\t\t\t\t// weight\r\n}\r\n\r\n"),
            "{text}"
        );
        assert_eq!(VpdPose::parse(&bytes).unwrap(), pose);
    }

    #[test]
    fn model_vpd_tolerates_comments_spacing_line_endings_bom_and_number_forms() {
        let variants = [
            // LF, no semicolons after numbers, integers and exponents, comments everywhere
            "// leading comment\nVocaloid Pose Data file\n\n初音ミク.osm // no semicolon\n2\n\
             Bone0{センター   // trailing spaces\n .5 , -1.25e0 , 0 \n 0,0,0,1\n}\n\
             Bone1 { 左足ＩＫ\n0.0,0.0,0.0;0.049841,0.038732,-0.102715,0.992706;}\n\
             Morph0{まばたき\n0.75\n}",
            // CR-only line endings, values on one line, + signs
            "Vocaloid Pose Data file\r\r初音ミク.osm;\r2;\rBone0{センター\r+0.5,-1.25,-0;+0,0,0,1;\r}\r\
             Bone1{左足ＩＫ\r0,0,0;\r.049841,.038732,-.102715,.992706;\r}\rMorph0{まばたき\r7.5E-1;\r}\r",
        ];
        let expected = sample();
        for text in variants {
            let mut bytes = TextEncoding::ShiftJis.encode(text, text.len()).bytes;
            let pose = VpdPose::parse(&bytes).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(pose, expected, "{text}");
            // UTF-8 with and without a BOM
            bytes = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
            assert_eq!(VpdPose::parse(&bytes).unwrap(), expected);
            assert_eq!(VpdPose::parse(text.as_bytes()).unwrap(), expected);
        }
    }

    #[test]
    fn model_vpd_reads_the_declared_bones_only_and_reports_lines() {
        let ok = "Vocaloid Pose Data file\n\nm.osm;\n1;\n\nBone0{a\n0,0,0;\n0,0,0,1;\n}\nBone1{b\n0,0,0;\n0,0,0,1;\n}\n";
        let pose = VpdPose::parse(ok.as_bytes()).unwrap();
        assert_eq!(pose.bones.len(), 1, "MMD applies only the declared number of bones");
        let cases: [(&str, usize, VpdErrorKind); 7] = [
            ("Vocaloid Motion Data 0002\n", 1, VpdErrorKind::NotVpd),
            (
                "Vocaloid Pose Data file\n\nm.osm;\n",
                3,
                VpdErrorKind::MissingHeader { what: "bone count" },
            ),
            (
                "Vocaloid Pose Data file\nm.osm;\nx;\n",
                3,
                VpdErrorKind::BadCount { text: "x".into() },
            ),
            (
                "Vocaloid Pose Data file\nm.osm;\n1;\nBone0{a\n0,0,zero;\n0,0,0,1;\n}\n",
                5,
                VpdErrorKind::BadNumber { text: "zero".into() },
            ),
            (
                "Vocaloid Pose Data file\nm.osm;\n1;\nBone0{a\n0,0;\n0,0,0,1;\n}\n",
                4,
                VpdErrorKind::ValueCount { entry: "bone", expected: 7, found: 6 },
            ),
            (
                "Vocaloid Pose Data file\nm.osm;\n2;\nBone0{a\n0,0,0;\n0,0,0,1;\nBone1{b\n",
                4,
                VpdErrorKind::UnclosedEntry { name: "a".into() },
            ),
            (
                "Vocaloid Pose Data file\nm.osm;\n2;\n\nBone0{a\n0,0,0;\n0,0,0,1;\n}\n",
                3,
                VpdErrorKind::MissingBones { declared: 2, found: 1 },
            ),
        ];
        for (text, line, kind) in cases {
            assert_eq!(VpdPose::parse(text.as_bytes()), Err(VpdError { line, kind }), "{text}");
        }
        let e = VpdPose::parse(b"Vocaloid Pose Data file\nm.osm;\n0;\nhello\n").unwrap_err();
        assert_eq!(e.to_string(), "line 4: unexpected text \"hello\"");
    }

    fn pose_strategy(name: &'static str) -> impl proptest::strategy::Strategy<Value = VpdPose> {
        use proptest::prelude::*;
        let value = || -1000.0f32..1000.0;
        let bone = (name, [value(), value(), value()], [value(), value(), value(), value()]);
        (name, prop::collection::vec(bone, 0..6), prop::collection::vec((name, value()), 0..4))
            .prop_map(|(model_file, bones, morphs)| VpdPose {
                model_file,
                bones: bones
                    .into_iter()
                    .map(|(name, t, q)| VpdBone {
                        name,
                        translation: Vec3::from(t),
                        rotation: Quat::from_array(q),
                    })
                    .collect(),
                morphs,
            })
    }

    /// Writing rounds values to six decimals; after that, read and write are exact inverses.
    fn assert_round_trip(pose: &VpdPose, once: &VpdPose) {
        assert_eq!(once.bones.len(), pose.bones.len());
        assert_eq!(once.morphs.len(), pose.morphs.len());
        for (a, b) in once.bones.iter().zip(&pose.bones) {
            assert!(a.translation.abs_diff_eq(b.translation, 1e-3), "{a:?} {b:?}");
            assert!(
                Vec4::from(a.rotation).abs_diff_eq(Vec4::from(b.rotation), 1e-3),
                "{a:?} {b:?}"
            );
        }
        let twice = VpdPose::parse(&once.to_bytes()).unwrap();
        assert_eq!(&twice, once);
        assert_eq!(twice.to_bytes(), once.to_bytes());
    }

    #[test]
    fn model_vpd_round_trips_any_values_with_cp932_names() {
        // Names MMD could write: CP932 text with inner spaces (ends are trimmed on reading).
        let name =
            "[a-zA-Z0-9_.ぁ-んァ-ヶ腕足首頭目指親捩肩上半身下全操作中心ＡＩＫ０-９]{1,6}( [a-z]{1,3})?";
        proptest::proptest!(|(pose in pose_strategy(name))| {
            let once = VpdPose::parse(&pose.to_bytes()).unwrap();
            assert_eq!(once.model_file, pose.model_file);
            assert!(once.bones.iter().zip(&pose.bones).all(|(a, b)| a.name == b.name));
            assert!(once.morphs.iter().zip(&pose.morphs).all(|(a, b)| a.0 == b.0));
            assert_round_trip(&pose, &once);
        });
    }

    #[test]
    fn model_vpd_any_names_never_panic_and_what_reads_back_is_stable() {
        // Arbitrary text may hold `//`, braces or characters CP932 lacks: no panic, and
        // whatever reads back round-trips.
        proptest::proptest!(|(pose in pose_strategy(".{0,12}"))| {
            if let Ok(once) = VpdPose::parse(&pose.to_bytes()) {
                assert_round_trip(&pose, &once);
            }
        });
    }

    use glam::Vec4;
}
