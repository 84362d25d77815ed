//! What a file is, from its first bytes: the one place file kinds are told apart by content.
//!
//! Front ends (the CLI, the Python package) and readers' error messages use [`FileKind`] to say
//! "this is a BVH file; motions are VMD, JSON or CSV" where a parser would otherwise report a
//! misleading error about the first field of a file of another kind. [`WrongKind`] is that
//! message; it names no command or option, so that each front end adds its own hint.
//!
//! It looks at bytes alone and imports no reader: the readers take their signatures from here
//! ([`is_bvh`], [`is_bone_csv`], [`keypoint_signature`]), so that detection and reading never
//! disagree and any reader can name a file's kind without an import loop.

use std::fmt;

/// How many of a file's first bytes [`FileKind::detect`] looks at, at most.
pub const DETECT_BYTES: usize = 4096;

/// What a file holds, as its first bytes show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A VMD motion: `Vocaloid Motion Data`.
    Vmd,
    /// A VPD pose: `Vocaloid Pose Data file`.
    Vpd,
    /// A PMX model: `PMX `.
    Pmx,
    /// A PMD model: `Pmd`.
    Pmd,
    /// A PmxEditor bone CSV, which the model reader takes: `;Bone` or `Bone,`.
    BoneCsv,
    /// A motion as vmdkit writes JSON: an object with `"format": "vmdkit-motion"`.
    JsonMotion,
    /// A motion as vmdkit writes CSV: the first column is `section`.
    CsvMotion,
    /// BVH motion capture: `HIERARCHY`.
    Bvh,
    /// A NumPy array: `\x93NUMPY`.
    Npy,
    /// A NumPy archive: a zip whose first member is an `.npy`.
    Npz,
    /// The `pose-format` library's binary `.pose`.
    Pose,
    /// OpenSim marker trajectories: `PathFileType`.
    Trc,
    /// Keypoints as JSON: nested arrays, objects per frame, or an object with `frames`.
    KeypointJson,
    /// Keypoints as wide CSV: `<joint>_x` columns.
    KeypointCsv,
    /// A binary glTF: `glTF`.
    Glb,
    /// A glTF JSON document: an object with `asset`.
    Gltf,
    /// An HTML page.
    Html,
    /// A PNG image.
    Png,
    /// A JPEG image.
    Jpeg,
    /// A GIF image.
    Gif,
    /// A zip archive of anything but `.npy` arrays.
    Zip,
    /// A JSON object of no shape above within the first bytes (a motion's `format` or a
    /// keypoint file's `frames` may come later): a reader the caller chooses says what it is.
    Json,
    /// No bytes at all.
    Empty,
    /// Text of no kind above.
    Text,
    /// Binary data of no kind above.
    Binary,
}

impl FileKind {
    /// What `start`, a file's first bytes (up to [`DETECT_BYTES`]; more are ignored), holds.
    pub fn detect(start: &[u8]) -> FileKind {
        let start = &start[..start.len().min(DETECT_BYTES)];
        // Text may start with a byte-order mark (VPDs saved by editors, JSON from Windows).
        let text = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
        const SIGNATURES: [(&[u8], FileKind); 9] = [
            (b"Vocaloid Motion Data", FileKind::Vmd),
            (b"PMX ", FileKind::Pmx),
            (b"Pmd", FileKind::Pmd),
            (b"glTF", FileKind::Glb),
            (b"\x89PNG\r\n\x1a\n", FileKind::Png),
            (b"\xFF\xD8\xFF", FileKind::Jpeg),
            (b"GIF87a", FileKind::Gif),
            (b"GIF89a", FileKind::Gif),
            (NPY_MAGIC, FileKind::Npy),
        ];
        if start.is_empty() {
            return FileKind::Empty;
        }
        if let Some((_, kind)) = SIGNATURES.iter().find(|(sig, _)| start.starts_with(sig)) {
            return *kind;
        }
        if text.starts_with(b"Vocaloid Pose Data file") {
            return FileKind::Vpd;
        }
        if is_bvh(start) {
            return FileKind::Bvh;
        }
        // Before the text checks: bone CSVs are often Shift-JIS.
        if is_bone_csv(start) {
            return FileKind::BoneCsv;
        }
        // The keypoint readers' own signatures, so that the two never disagree.
        match keypoint_signature(start) {
            Some(FileKind::Zip) if first_zip_member(start).ends_with(b".npy") => {
                return FileKind::Npz
            }
            Some(FileKind::Json) => return json_kind(text),
            Some(kind) => return kind,
            None => {}
        }
        if !is_text(text) {
            return FileKind::Binary;
        }
        let head = text.trim_ascii_start();
        if head.starts_with(b"<")
            && (contains_ignore_case(head, b"<html")
                || contains_ignore_case(head, b"<!doctype html"))
        {
            return FileKind::Html;
        }
        csv_kind(head)
    }

    /// What the file is, for messages: "a BVH file".
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Vmd => "a VMD motion",
            FileKind::Vpd => "a VPD pose",
            FileKind::Pmx => "a PMX model",
            FileKind::Pmd => "a PMD model",
            FileKind::BoneCsv => "a bone CSV (a model's skeleton)",
            FileKind::JsonMotion => "a JSON motion",
            FileKind::CsvMotion => "a CSV motion",
            FileKind::Bvh => "a BVH file",
            FileKind::Npy => "an NPY array",
            FileKind::Npz => "an NPZ archive",
            FileKind::Pose => "a .pose file",
            FileKind::Trc => "a TRC file",
            FileKind::KeypointJson => "a JSON keypoint file",
            FileKind::KeypointCsv => "a CSV keypoint file",
            FileKind::Glb => "a glTF binary (GLB)",
            FileKind::Gltf => "a glTF JSON file",
            FileKind::Html => "an HTML page",
            FileKind::Png => "a PNG image",
            FileKind::Jpeg => "a JPEG image",
            FileKind::Gif => "a GIF image",
            FileKind::Zip => "a zip archive",
            FileKind::Json => "JSON of no known kind",
            FileKind::Empty => "an empty file",
            FileKind::Text => "text of no known kind",
            FileKind::Binary => "binary data of no known kind",
        }
    }

    /// Whether this is a motion: VMD, or vmdkit's JSON or CSV.
    pub fn is_motion(self) -> bool {
        matches!(self, FileKind::Vmd | FileKind::JsonMotion | FileKind::CsvMotion)
    }

    /// Whether this is a model: PMX, PMD or a bone CSV.
    pub fn is_model(self) -> bool {
        matches!(self, FileKind::Pmx | FileKind::Pmd | FileKind::BoneCsv)
    }

    /// Whether this is keypoints in a format the keypoint readers take (BVH is not: it is read
    /// as a skeleton); [`KeypointFormat::of_kind`](crate::keypoints::KeypointFormat::of_kind)
    /// says which.
    pub fn is_keypoints(self) -> bool {
        matches!(
            self,
            FileKind::Npy
                | FileKind::Npz
                | FileKind::Pose
                | FileKind::Trc
                | FileKind::KeypointJson
                | FileKind::KeypointCsv
        )
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// NumPy's `.npy` magic, which the NPY reader checks too.
pub(crate) const NPY_MAGIC: &[u8] = b"\x93NUMPY";

/// The `.pose` format versions, as the `f32` its files start with.
pub(crate) const POSE_VERSIONS: [f32; 2] = [0.1, 0.2];

/// Whether `data` starts like a BVH file: `HIERARCHY` after white space (and any byte-order
/// mark), in any case.
pub(crate) fn is_bvh(data: &[u8]) -> bool {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let start = data.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(data.len());
    data[start..].len() >= 9 && data[start..start + 9].eq_ignore_ascii_case(b"HIERARCHY")
}

/// Whether `data` starts like a PmxEditor bone CSV: its first non-blank line a `;Bone` header
/// or a `Bone,` row.
pub(crate) fn is_bone_csv(data: &[u8]) -> bool {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    data.split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .find(|line| !line.is_empty())
        .is_some_and(|line| line.starts_with(b";Bone") || line.starts_with(b"Bone,"))
}

/// Whether the bytes start like a `.pose` file: a known version, then room for the rest of the
/// fixed header.
pub(crate) fn is_pose(bytes: &[u8]) -> bool {
    bytes.len() >= 12 && POSE_VERSIONS.iter().any(|v| bytes[..4] == v.to_le_bytes())
}

/// The keypoint readers' signatures: [`FileKind::Npy`] (the NPY magic), [`FileKind::Zip`] (any
/// zip local header; an NPZ is a zip), [`FileKind::Pose`] (a `pose-format` version),
/// [`FileKind::Trc`] (TRC's `PathFileType` line) or [`FileKind::Json`] (JSON's opening bracket).
/// CSV has no signature.
pub(crate) fn keypoint_signature(bytes: &[u8]) -> Option<FileKind> {
    if bytes.starts_with(NPY_MAGIC) {
        return Some(FileKind::Npy);
    }
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return Some(FileKind::Zip);
    }
    if is_pose(bytes) {
        return Some(FileKind::Pose);
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if text.starts_with(b"PathFileType") {
        return Some(FileKind::Trc);
    }
    match text.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'[' | b'{') => Some(FileKind::Json),
        _ => None,
    }
}

/// The name of a zip's first member, from its local header (empty if cut short).
fn first_zip_member(start: &[u8]) -> &[u8] {
    let Some(len) = start.get(26..28) else { return b"" };
    let len = usize::from(u16::from_le_bytes([len[0], len[1]]));
    start.get(30..30 + len).unwrap_or(b"")
}

/// Which JSON document `text` (starting with `{` or `[` after white space) begins.
fn json_kind(text: &[u8]) -> FileKind {
    let head = text.trim_ascii_start();
    if head.starts_with(b"[") {
        // Motions and glTF are objects; arrays are frames of points.
        FileKind::KeypointJson
    } else if contains(head, b"\"vmdkit-motion\"") {
        FileKind::JsonMotion
    } else if contains(head, b"\"asset\"") {
        FileKind::Gltf
    } else if contains(head, b"\"frames\"") {
        FileKind::KeypointJson
    } else {
        // Keys may come in any order: the one that tells may lie beyond the first bytes.
        FileKind::Json
    }
}

/// Which CSV `head` (text, white space skipped) begins, or [`FileKind::Text`].
fn csv_kind(head: &[u8]) -> FileKind {
    let line = head.split(|&b| b == b'\n').next().unwrap_or(b"");
    // A header cell, without the white space and quotes around it.
    let cell =
        |f: &[u8]| -> Vec<u8> { f.trim_ascii().iter().copied().filter(|&b| b != b'"').collect() };
    let mut fields = line.split(|&b| b == b',').map(cell);
    if fields.next().is_some_and(|f| f.eq_ignore_ascii_case(b"section")) {
        return FileKind::CsvMotion;
    }
    if fields.any(|f| f.ends_with(b"_x")) {
        return FileKind::KeypointCsv;
    }
    FileKind::Text
}

/// Whether `bytes` read as text: UTF-8 (possibly cut inside a character at the end) without
/// control characters other than white space.
fn is_text(bytes: &[u8]) -> bool {
    let valid = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // The window may end inside a character.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    valid.chars().all(|c| !c.is_control() || c.is_ascii_whitespace())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

/// What a reader or command expected where a file of another kind was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// A motion: VMD, or vmdkit's JSON or CSV.
    Motion,
    /// A PMX or PMD model.
    Model,
    /// A VPD pose.
    Pose,
    /// Motion capture: BVH, or keypoints in any format the keypoint readers take.
    Capture,
}

impl Expected {
    /// Whether a file of `kind` is what was expected.
    pub fn accepts(self, kind: FileKind) -> bool {
        match self {
            Expected::Motion => kind.is_motion(),
            Expected::Model => kind.is_model(),
            Expected::Pose => kind == FileKind::Vpd,
            Expected::Capture => kind == FileKind::Bvh || kind.is_keypoints(),
        }
    }

    /// `kind` if it is what was expected, else the error that says what it is instead.
    pub fn check(self, kind: FileKind) -> Result<FileKind, WrongKind> {
        if self.accepts(kind) {
            Ok(kind)
        } else {
            Err(WrongKind { found: kind, expected: self })
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Motion => "motions are VMD, JSON or CSV",
            Expected::Model => "models are PMX, PMD or a bone CSV",
            Expected::Pose => "poses are VPD",
            Expected::Capture => {
                "motion capture is BVH, or keypoints in NPY, NPZ, .pose, TRC, JSON or CSV"
            }
        })
    }
}

/// A file of one kind given where another was expected: "this is a BVH file; motions are VMD,
/// JSON or CSV".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this is {found}; {expected}")]
pub struct WrongKind {
    /// What the file is.
    pub found: FileKind,
    /// What was expected.
    pub expected: Expected,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_told_apart_by_their_first_bytes() {
        let motion = crate::example::example_motion();
        let vmd = motion.to_bytes();
        let json = crate::convert::to_json_string(&motion, true);
        let csv = crate::convert::to_csv_string(&motion);
        let zip_npy =
            b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x0d\0\0\0pose_data.npy";
        let zip_txt = b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x05\0\0\0a.txt";
        let cases: &[(&[u8], FileKind)] = &[
            (&vmd, FileKind::Vmd),
            (b"Vocaloid Pose Data file\r\n", FileKind::Vpd),
            (b"\xEF\xBB\xBFVocaloid Pose Data file\r\n", FileKind::Vpd),
            (b"PMX \x00\x00\x00\x40", FileKind::Pmx),
            (b"Pmd\x00\x00\x80\x3f", FileKind::Pmd),
            (json.as_bytes(), FileKind::JsonMotion),
            (csv.as_bytes(), FileKind::CsvMotion),
            (b"\xEF\xBB\xBFsection,name", FileKind::CsvMotion),
            (b"\n HIERARCHY\nROOT Hips", FileKind::Bvh),
            (b"\x93NUMPY\x01\x00", FileKind::Npy),
            (zip_npy, FileKind::Npz),
            (zip_txt, FileKind::Zip),
            (b"\xcd\xcc\xcc\x3d\0\0\0\0\0\0\0\0", FileKind::Pose),
            (b"PathFileType\t4\t(X/Y/Z)\tx.trc\n", FileKind::Trc),
            (b" [[[0, 1, 2]]]", FileKind::KeypointJson),
            (b"{\"fps\": 30, \"frames\": []}", FileKind::KeypointJson),
            (b"frame,nose_x,nose_y,nose_z\n0,1,2,3\n", FileKind::KeypointCsv),
            (b"glTF\x02\0\0\0", FileKind::Glb),
            (b"{\"asset\": {\"version\": \"2.0\"}}", FileKind::Gltf),
            (b"<!DOCTYPE html>\n<html>", FileKind::Html),
            (b"\x89PNG\r\n\x1a\n", FileKind::Png),
            (b"\xFF\xD8\xFF\xE0", FileKind::Jpeg),
            (b"GIF89a", FileKind::Gif),
            (b";Bone,\x83{\x81[\x83\x93\x96\xbc\r\nBone,a", FileKind::BoneCsv),
            (b"{\"source\": \"x\", \"EXPECTED\": [[1, 2]]}", FileKind::Json),
            (b"", FileKind::Empty),
            (b"hello\n", FileKind::Text),
            (b"\x00\x01\x02\xff", FileKind::Binary),
        ];
        for (bytes, kind) in cases {
            let head = String::from_utf8_lossy(&bytes[..12.min(bytes.len())]);
            assert_eq!(FileKind::detect(bytes), *kind, "{head:?}");
        }
    }

    #[test]
    fn a_wrong_kind_says_what_it_is_and_what_was_expected() {
        let err = Expected::Motion.check(FileKind::Bvh).unwrap_err();
        assert_eq!(err.to_string(), "this is a BVH file; motions are VMD, JSON or CSV");
        assert_eq!(Expected::Capture.check(FileKind::Npz), Ok(FileKind::Npz));
        assert!(Expected::Model.check(FileKind::Pmd).is_ok());
        assert!(Expected::Capture.check(FileKind::Pmx).is_err());
    }
}
