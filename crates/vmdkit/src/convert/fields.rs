//! The rules both text formats follow for typed fields versus raw bytes.
//!
//! Writing: a raw value is emitted only when writing the typed fields the plain way (names
//! encoded and padded as MMD pads them, canonical interpolation blocks, flag bytes 0/1, the
//! standard signature) would not give the original bytes.
//!
//! Reading: the typed fields decide. A raw value is used only when it agrees with them (a raw
//! name that decodes to the given name, a raw block whose curves and physics equal the given
//! ones, a flag byte with the given truth value); otherwise the field was edited and is written
//! the plain way.

use super::warning::{ConvertWarning, ConvertWarningKind};
use crate::angles::mmd_euler_deg_to_quat;
use crate::curve::Curve;
use crate::format::layout::{SIGNATURE_LEN, SIGNATURE_V1, SIGNATURE_V2};
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, Header, IkState, Motion,
    PhysicsToggle, PropertyKey, Version,
};
use crate::text::{EncodeStatus, KeyName, LongName, RawName, TextEncoding};
use glam::{Quat, Vec3};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

/// A field whose value cannot be used; the caller adds where the record is.
#[derive(Debug)]
pub(crate) struct FieldError {
    pub field: String,
    pub reason: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        FieldError { field: field.into(), reason: reason.into() }
    }
}

/// Lossy edits (a name shortened or with unencodable characters); the caller adds where the
/// record is.
pub(crate) type Warnings = Vec<ConvertWarning>;

// ---- writing ----------------------------------------------------------------------------

/// Decodes names for writing and says which need their raw field. Motions repeat a few hundred
/// names over many thousands of keys and encoding is the costly half of the check, so its answer
/// is remembered per field.
pub(crate) struct NamesOut {
    encoding: TextEncoding,
    plain: RefCell<HashMap<Vec<u8>, bool>>,
}

impl NamesOut {
    pub fn new(encoding: TextEncoding) -> Self {
        NamesOut { encoding, plain: RefCell::default() }
    }

    pub fn encoding(&self) -> TextEncoding {
        self.encoding
    }

    /// The decoded name, and the raw field when a plain write of that text would differ from it.
    pub fn name<'a, const N: usize>(
        &self,
        raw: &'a RawName<N>,
    ) -> (Cow<'a, str>, Option<&'a [u8; N]>) {
        let text = raw.decode(self.encoding).text;
        let known = self.plain.borrow().get(&raw.0[..]).copied();
        let plain = known.unwrap_or_else(|| {
            let plain = RawName::<N>::encode_as(&text, self.encoding).0 == *raw;
            self.plain.borrow_mut().insert(raw.0.to_vec(), plain);
            plain
        });
        (text, (!plain).then_some(&raw.0))
    }

    /// The model name and, when needed, its raw field as stored (10 bytes in version 1 files,
    /// else 20).
    pub fn model_name<'a>(&self, header: &'a Header) -> (Cow<'a, str>, Option<&'a [u8]>) {
        match header.version() {
            Version::V1 => {
                let (text, raw) = self
                    .name(RawName::<10>::from_ref(header.model_name_field().try_into().unwrap()));
                (text, raw.map(|r| &r[..]))
            }
            Version::V2 => {
                let (text, raw) = self.name(&header.model_name);
                (text, raw.map(|r| &r[..]))
            }
        }
    }
}

/// The signature field a plain write of `version` produces: the text, then NULs.
pub(crate) fn standard_signature(version: Version) -> [u8; SIGNATURE_LEN] {
    let mut signature = [0u8; SIGNATURE_LEN];
    signature[..25].copy_from_slice(match version {
        Version::V1 => SIGNATURE_V1,
        Version::V2 => SIGNATURE_V2,
    });
    signature
}

pub(crate) fn signature_out(header: &Header) -> Option<&[u8; SIGNATURE_LEN]> {
    (header.signature != standard_signature(header.version())).then_some(&header.signature)
}

pub(crate) fn interpolation_out(block: &BoneInterpolation) -> Option<&[u8; 64]> {
    (!block.is_canonical()).then_some(&block.0)
}

/// The raw byte of a flag when it is neither 0 nor 1.
pub(crate) fn flag_out(byte: u8) -> Option<u8> {
    (byte > 1).then_some(byte)
}

// ---- reading ----------------------------------------------------------------------------

/// Encodes names for reading, remembering each text's field per width. A lossy encoding (a
/// name too long, a character the encoding lacks) is reported once per distinct name, not for
/// every key that repeats it.
pub(crate) struct NamesIn {
    encoding: TextEncoding,
    encoded: HashMap<usize, HashMap<String, Vec<u8>>>,
    /// Each lossy encoding, named by field; the caller adds where the record is.
    pub warnings: Warnings,
}

impl NamesIn {
    pub fn new(encoding: TextEncoding) -> Self {
        NamesIn { encoding, encoded: HashMap::new(), warnings: Warnings::new() }
    }

    /// The name field for `text`: `raw` if it decodes to `text`, else `text` encoded the way
    /// MMD writes it.
    pub fn name<const N: usize>(
        &mut self,
        text: &str,
        raw: Option<&[u8; N]>,
        field: &str,
    ) -> RawName<N> {
        if let Some(raw) = raw {
            let raw = RawName(*raw);
            if raw.decode(self.encoding).text == text {
                return raw;
            }
        }
        let by_text = self.encoded.entry(N).or_default();
        if let Some(bytes) = by_text.get(text) {
            return RawName(bytes[..].try_into().unwrap());
        }
        let (name, status) = RawName::<N>::encode_as(text, self.encoding);
        by_text.insert(text.to_string(), name.0.to_vec());
        let encoding = self.encoding;
        let (text, written) = (text.to_string(), name.decode(encoding).text.into_owned());
        let kind = match status {
            EncodeStatus::Ok => return name,
            EncodeStatus::Shortened => {
                ConvertWarningKind::NameShortened { text, bytes: N, encoding, written }
            }
            EncodeStatus::Unencodable => {
                ConvertWarningKind::NameUnencodable { text, encoding, written }
            }
        };
        self.warnings.push(ConvertWarning::new(field, kind));
        name
    }

    pub fn model_name(
        &mut self,
        version: Version,
        text: &str,
        raw: Option<&[u8]>,
    ) -> Result<LongName, FieldError> {
        if let Some(raw) = raw {
            if raw.len() != 10 && raw.len() != 20 {
                let reason = format!("expected 10 or 20 bytes, found {}", raw.len());
                return Err(FieldError::new("model_name_raw", reason));
            }
        }
        // A raw field of the other version's width means the version was edited: ignore it.
        let mut field = [0u8; 20];
        match version {
            Version::V1 => {
                let name = self.name::<10>(text, raw.and_then(|r| r.try_into().ok()), "model_name");
                field[..10].copy_from_slice(&name.0);
            }
            Version::V2 => {
                field = self.name::<20>(text, raw.and_then(|r| r.try_into().ok()), "model_name").0
            }
        }
        Ok(RawName(field))
    }
}

pub(crate) fn signature_in(
    version: Version,
    raw: Option<[u8; SIGNATURE_LEN]>,
) -> [u8; SIGNATURE_LEN] {
    match raw {
        // Only the padding after a known signature survives a VMD read: strict reading refuses
        // any other signature and lenient reading replaces it, so it is not kept either.
        Some(raw) if Version::from_signature(&raw) == Some(version) => raw,
        _ => standard_signature(version),
    }
}

/// Refuses trailing bytes after fewer than six sections: a reader would take them for the
/// next section's count, so the VMD written would not read back as the motion (or at all).
pub(crate) fn check_trailing(motion: &Motion) -> Result<(), FieldError> {
    let sections = motion.sections_to_write();
    if motion.trailing.is_empty() || sections == 6 {
        return Ok(());
    }
    let reason = format!(
        "bytes after the last section need all six sections, and the motion has {sections} \
         (sections_present and the sections with keys)"
    );
    Err(FieldError::new("trailing", reason))
}

/// The byte for a flag: `raw` while it means the same as `value`, else the plain 0/1 byte.
fn flag_in(value: bool, raw: Option<u8>, is_true: fn(u8) -> bool, plain: fn(bool) -> u8) -> u8 {
    match raw {
        Some(raw) if is_true(raw) == value => raw,
        _ => plain(value),
    }
}

/// Visible / IK enabled bytes: nonzero is true.
pub(crate) fn on_byte_in(value: bool, raw: Option<u8>) -> u8 {
    flag_in(value, raw, |b| b != 0, |v| v as u8)
}

/// The camera's perspective byte: 0 is perspective.
pub(crate) fn perspective_byte_in(perspective: bool, raw: Option<u8>) -> u8 {
    flag_in(perspective, raw, |b| b == 0, |p| !p as u8)
}

/// A bone key as the text formats give it: typed fields, any of them possibly absent, and the
/// raw parts of the original record when there were any. The name is encoded apart (see
/// `convert::deferred`).
pub(crate) struct BoneParts<'a> {
    pub frame: u32,
    pub translation: Option<Vec3>,
    pub rotation: Option<Quat>,
    pub euler_deg: Option<Vec3>,
    pub curves: [Option<Curve>; 4],
    pub physics: Option<PhysicsToggle>,
    pub interpolation_raw: Option<&'a [u8; 64]>,
}

pub(crate) fn bone_in(p: BoneParts<'_>, name: KeyName) -> Result<BoneKey, FieldError> {
    let rotation = match (p.rotation, p.euler_deg) {
        (Some(_), Some(_)) => {
            return Err(FieldError::new("euler_deg", "give either rotation or euler_deg, not both"))
        }
        (Some(q), None) => q,
        (None, Some(e)) => mmd_euler_deg_to_quat(e),
        (None, None) => Quat::IDENTITY,
    };
    Ok(BoneKey {
        name,
        frame: p.frame,
        translation: p.translation.unwrap_or(Vec3::ZERO),
        rotation,
        interpolation: bone_interpolation_in(p.curves, p.physics, p.interpolation_raw),
    })
}

/// Absent curves and physics come from the raw block when there is one (a hand-written key may
/// give only the block), else they are linear and on.
fn bone_interpolation_in(
    curves: [Option<Curve>; 4],
    physics: Option<PhysicsToggle>,
    raw: Option<&[u8; 64]>,
) -> BoneInterpolation {
    let raw = raw.map(|r| BoneInterpolation(*r));
    let base = raw.map_or([Curve::LINEAR; 4], |r| r.curves());
    let curves = std::array::from_fn(|k| curves[k].unwrap_or(base[k]));
    let physics = physics.unwrap_or(raw.map_or(PhysicsToggle::On, |r| r.physics()));
    match raw {
        Some(raw) if raw.curves() == curves && raw.physics() == physics => raw,
        _ => BoneInterpolation::canonical(curves, physics),
    }
}

/// A camera key's typed fields; the six curves in [`crate::format::CameraCurve`] order.
pub(crate) struct CameraParts {
    pub frame: u32,
    pub distance: f32,
    pub target: Vec3,
    pub rotation: Vec3,
    pub curves: [Option<Curve>; 6],
    pub view_angle: u32,
    pub perspective: Option<bool>,
    pub perspective_raw: Option<u8>,
}

pub(crate) fn camera_in(p: CameraParts) -> CameraKey {
    CameraKey {
        frame: p.frame,
        distance: p.distance,
        target: p.target,
        rotation: p.rotation,
        interpolation: CameraInterpolation::new(p.curves.map(|c| c.unwrap_or(Curve::LINEAR))),
        view_angle: p.view_angle,
        perspective_byte: perspective_byte_in(p.perspective.unwrap_or(true), p.perspective_raw),
    }
}

pub(crate) fn ik_in(name: LongName, enabled: Option<bool>, enabled_raw: Option<u8>) -> IkState {
    IkState { name, enabled_byte: on_byte_in(enabled.unwrap_or(true), enabled_raw) }
}

pub(crate) fn property_in(
    frame: u32,
    visible: Option<bool>,
    visible_raw: Option<u8>,
    ik: Vec<IkState>,
) -> PropertyKey {
    PropertyKey { frame, visible_byte: on_byte_in(visible.unwrap_or(true), visible_raw), ik }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_mmd_padding_need_no_raw_bytes() {
        let names = NamesOut::new(TextEncoding::ShiftJis);
        let name = KeyName::encode("センター").0;
        assert_eq!(names.name(&name), (Cow::Borrowed("センター"), None));
        let mut zero_padded = name;
        zero_padded.0[9..].fill(0);
        for _ in 0..2 {
            assert_eq!(names.name(&zero_padded).1, Some(&zero_padded.0));
            assert_eq!(names.name(&name).1, None);
        }
    }

    #[test]
    fn a_raw_name_is_used_only_while_it_matches_the_text() {
        let mut raw = KeyName::encode("センター").0;
        raw.0[9..].fill(0);
        let mut names = NamesIn::new(TextEncoding::ShiftJis);
        assert_eq!(names.name("センター", Some(&raw.0), "name"), raw);
        assert_eq!(names.name("上半身", Some(&raw.0), "name"), KeyName::encode("上半身").0);
        assert!(names.warnings.is_empty());
        for _ in 0..3 {
            let long = names.name::<15>("左足ＩＫ親左足ＩＫ", None, "name");
            assert_eq!(long, KeyName::encode("左足ＩＫ親左足").0);
        }
        assert_eq!(names.warnings.len(), 1, "one warning per distinct name");
        let warning = names.warnings[0].to_string();
        assert!(warning.starts_with("name: ") && warning.contains("shortened"));
        let ik = names.name::<20>("左足ＩＫ親左足ＩＫ", None, "ik");
        assert_eq!(ik, LongName::encode("左足ＩＫ親左足ＩＫ").0, "each width has its own field");
    }

    #[test]
    fn a_raw_block_is_used_only_while_it_matches_the_curves() {
        let mut old_style = BoneInterpolation::DEFAULT;
        old_style.0[31] = 1;
        assert!(interpolation_out(&old_style).is_some());
        let same = bone_interpolation_in([None; 4], None, Some(&old_style.0));
        assert_eq!(same, old_style);
        let given = bone_interpolation_in(
            [Some(Curve::LINEAR); 4],
            Some(PhysicsToggle::On),
            Some(&old_style.0),
        );
        assert_eq!(given, old_style);
        let edited = bone_interpolation_in(
            [None, None, None, Some(Curve::new(1, 2, 3, 4))],
            None,
            Some(&old_style.0),
        );
        assert!(edited.is_canonical());
        assert_eq!(edited.curves()[3], Curve::new(1, 2, 3, 4));
        assert_eq!(bone_interpolation_in([None; 4], None, None), BoneInterpolation::DEFAULT);
    }

    #[test]
    fn flag_bytes_keep_odd_values_only_with_the_same_meaning() {
        assert_eq!(on_byte_in(true, Some(2)), 2);
        assert_eq!(on_byte_in(false, Some(2)), 0);
        assert_eq!(perspective_byte_in(false, Some(7)), 7);
        assert_eq!(perspective_byte_in(true, Some(7)), 0);
        assert_eq!(perspective_byte_in(false, None), 1);
    }

    #[test]
    fn signatures_and_version_1_model_names() {
        let mut header = Header::new(LongName::encode("ミク").0);
        assert!(signature_out(&header).is_none());
        header.signature[29] = b'x';
        assert!(signature_out(&header).is_some());
        assert_eq!(signature_in(Version::V2, Some(header.signature)), header.signature);
        assert_eq!(
            signature_in(Version::V1, Some(header.signature)),
            standard_signature(Version::V1)
        );
        // Found by the `json` fuzz target: a raw signature that is no VMD's was kept, so the
        // motion read from the document wrote a file no reader takes.
        let mut garbled = header.signature;
        garbled[7] = 0x44;
        assert_eq!(signature_in(Version::V2, Some(garbled)), standard_signature(Version::V2));
        // Found by the `csv` target: nor one of an unknown version, which lenient reading
        // replaces by the version 2 signature, so the VMD read back as another motion.
        let mut unknown = standard_signature(Version::V2);
        unknown[21..25].copy_from_slice(b"0 02");
        assert_eq!(signature_in(Version::V2, Some(unknown)), standard_signature(Version::V2));
        assert_eq!(signature_in(Version::V1, Some(unknown)), standard_signature(Version::V1));

        let mut names = NamesIn::new(TextEncoding::ShiftJis);
        let v1 = names.model_name(Version::V1, "ミク", None).unwrap();
        assert_eq!(&v1.0[..5], b"\x83\x7E\x83\x4E\x00");
        assert!(v1.0[5..10].iter().all(|&b| b == 0xFD) && v1.0[10..].iter().all(|&b| b == 0));
        let header = Header { signature: standard_signature(Version::V1), model_name: v1 };
        assert_eq!(
            NamesOut::new(TextEncoding::ShiftJis).model_name(&header),
            (Cow::Borrowed("ミク"), None)
        );
        assert!(names.model_name(Version::V2, "x", Some(&[0; 7])).is_err());
    }
}
