//! Reading a motion document: serde checks the shape (with line and column), then each key is
//! built by the shared typed-versus-raw rules (with a JSON path).

use crate::convert::fields::{self, BoneParts, CameraParts, FieldError, IkParts, NamesIn};
use crate::convert::scalar::{
    curve_from_array, f32_from_f64, parse_encoding, parse_f32, unhex, unhex_array,
};
use crate::convert::{ConvertError, FieldPath};
use crate::convert::{FORMAT, SCHEMA_VERSION};
use crate::format::{Header, LightKey, Motion, PhysicsToggle, Section, ShadowKey, Version};
use crate::text::TextEncoding;
use glam::{Quat, Vec3};
use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use serde::Deserialize;
use std::fmt;

pub(super) fn from_slice(bytes: &[u8]) -> Result<(Motion, Vec<String>), ConvertError> {
    // Editors on Windows may save JSON with a BOM, which JSON parsers reject.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match serde_json::from_slice::<DocIn>(bytes) {
        Ok(doc) => build(doc),
        Err(err) => Err(explain(serde_json::from_slice(bytes).ok(), err)),
    }
}

pub(super) fn from_value(value: serde_json::Value) -> Result<(Motion, Vec<String>), ConvertError> {
    match DocIn::deserialize(&value) {
        Ok(doc) => build(doc),
        Err(err) => Err(explain(Some(value), err)),
    }
}

/// A shape error in a document that is not a motion, or is a newer one, is better reported as
/// that than as the first field it trips over.
fn explain(value: Option<serde_json::Value>, err: serde_json::Error) -> ConvertError {
    if let Some(value) = value {
        let Some(object) = value.as_object() else {
            return ConvertError::NotAMotion { reason: "the document is not a JSON object".into() };
        };
        if let Err(e) = check_identity(
            object.get("format").map(|f| f.as_str().unwrap_or("(not a string)")),
            object.get("schema_version").and_then(|v| v.as_u64()),
        ) {
            return e;
        }
    }
    json_error(err)
}

fn json_error(err: serde_json::Error) -> ConvertError {
    let (line, column) = (err.line(), err.column());
    let mut message = err.to_string();
    let suffix = format!(" at line {line} column {column}");
    if message.ends_with(&suffix) {
        message.truncate(message.len() - suffix.len());
    }
    ConvertError::Json { line, column, message }
}

fn check_identity(format: Option<&str>, schema_version: Option<u64>) -> Result<(), ConvertError> {
    match format {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(ConvertError::NotAMotion {
                reason: format!("format is {other:?}, expected {FORMAT:?}"),
            })
        }
        None => {
            return Err(ConvertError::NotAMotion {
                reason: format!("no \"format\": {FORMAT:?} field"),
            })
        }
    }
    match schema_version {
        Some(v) if v == SCHEMA_VERSION as u64 => Ok(()),
        Some(found) => Err(ConvertError::UnsupportedSchema { found, supported: SCHEMA_VERSION }),
        None => Err(ConvertError::NotAMotion { reason: "no numeric schema_version field".into() }),
    }
}

/// A float: a JSON number, or a string with its bit pattern (`"0x7fc00000"`), `"NaN"` or `"inf"`.
struct F32In(f32);

impl<'de> Deserialize<'de> for F32In {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = F32In;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a number, or a string with a float's bit pattern such as \"0x7fc00000\"",
                )
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<F32In, E> {
                f32_from_f64(v).map(F32In).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<F32In, E> {
                Ok(F32In(v as f32))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<F32In, E> {
                Ok(F32In(v as f32))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<F32In, E> {
                parse_f32(v).map(F32In).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

fn vec3(v: &[F32In; 3]) -> Vec3 {
    Vec3::new(v[0].0, v[1].0, v[2].0)
}

/// Hex text of exactly `N` bytes, checked where it is read so the error has a line.
struct HexIn<const N: usize>([u8; N]);

impl<'de, const N: usize> Deserialize<'de> for HexIn<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        unhex_array(&text).map(HexIn).map_err(de::Error::custom)
    }
}

struct HexVec(Vec<u8>);

impl<'de> Deserialize<'de> for HexVec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        unhex(&String::deserialize(d)?).map(HexVec).map_err(de::Error::custom)
    }
}

struct EncodingIn(TextEncoding);

impl<'de> Deserialize<'de> for EncodingIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        parse_encoding(&String::deserialize(d)?).map(EncodingIn).map_err(de::Error::custom)
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum PhysicsIn {
    On,
    Off,
    Unknown(u8, u8),
}

impl From<PhysicsIn> for PhysicsToggle {
    fn from(p: PhysicsIn) -> Self {
        match p {
            PhysicsIn::On => PhysicsToggle::On,
            PhysicsIn::Off => PhysicsToggle::Off,
            PhysicsIn::Unknown(a, b) => PhysicsToggle::Unknown(a, b),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a vmdkit motion document (a JSON object)")]
struct DocIn {
    #[serde(rename = "$schema")]
    _schema: Option<IgnoredAny>,
    format: Option<String>,
    schema_version: Option<u64>,
    vmd_version: Option<u8>,
    encoding: Option<EncodingIn>,
    model_name: String,
    model_name_raw: Option<HexVec>,
    signature_raw: Option<HexIn<30>>,
    #[serde(default)]
    bones: Vec<BoneIn>,
    #[serde(default)]
    morphs: Vec<MorphIn>,
    #[serde(default)]
    cameras: Vec<CameraIn>,
    #[serde(default)]
    lights: Vec<LightIn>,
    #[serde(default)]
    self_shadows: Vec<ShadowIn>,
    #[serde(default)]
    properties: Vec<PropertyIn>,
    sections_present: Option<u64>,
    trailing: Option<HexVec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a bone key object")]
struct BoneIn {
    name: String,
    frame: u32,
    translation: Option<[F32In; 3]>,
    rotation: Option<[F32In; 4]>,
    euler_deg: Option<[F32In; 3]>,
    #[serde(default)]
    curves: BoneCurvesIn,
    physics: Option<PhysicsIn>,
    name_raw: Option<HexIn<15>>,
    interpolation_raw: Option<HexIn<64>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, expecting = "bone curves {\"x\", \"y\", \"z\", \"rotation\"}")]
struct BoneCurvesIn {
    x: Option<[u8; 4]>,
    y: Option<[u8; 4]>,
    z: Option<[u8; 4]>,
    rotation: Option<[u8; 4]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a morph key object")]
struct MorphIn {
    name: String,
    frame: u32,
    weight: F32In,
    name_raw: Option<HexIn<15>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a camera key object")]
struct CameraIn {
    frame: u32,
    distance: F32In,
    target: [F32In; 3],
    rotation: [F32In; 3],
    #[serde(default)]
    curves: CameraCurvesIn,
    view_angle: u32,
    perspective: Option<bool>,
    perspective_raw: Option<u8>,
}

#[derive(Deserialize, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "camera curves {\"x\", \"y\", \"z\", \"rotation\", \"distance\", \"view_angle\"}"
)]
struct CameraCurvesIn {
    x: Option<[u8; 4]>,
    y: Option<[u8; 4]>,
    z: Option<[u8; 4]>,
    rotation: Option<[u8; 4]>,
    distance: Option<[u8; 4]>,
    view_angle: Option<[u8; 4]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a light key object")]
struct LightIn {
    frame: u32,
    color: [F32In; 3],
    direction: [F32In; 3],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a self-shadow key object")]
struct ShadowIn {
    frame: u32,
    mode: u8,
    distance: F32In,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a property key object")]
struct PropertyIn {
    frame: u32,
    visible: Option<bool>,
    #[serde(default)]
    ik: Vec<IkIn>,
    visible_raw: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "an IK state object")]
struct IkIn {
    name: String,
    enabled: Option<bool>,
    name_raw: Option<HexIn<20>>,
    enabled_raw: Option<u8>,
}

/// Collects warnings with their JSON path.
struct Report {
    warnings: Vec<String>,
    names: NamesIn,
}

impl Report {
    fn flush(&mut self, section: Option<Section>, record: Option<usize>) {
        for w in self.names.warnings.drain(..) {
            let path = FieldPath { section, record, field: "" };
            self.warnings.push(if section.is_some() { format!("{path}.{w}") } else { w });
        }
    }
}

fn at(section: Option<Section>, record: Option<usize>) -> impl Fn(FieldError) -> ConvertError {
    move |e| ConvertError::Field { section, record, field: e.field, reason: e.reason }
}

fn top(field: &str, reason: String) -> ConvertError {
    ConvertError::Field { section: None, record: None, field: field.into(), reason }
}

fn build(doc: DocIn) -> Result<(Motion, Vec<String>), ConvertError> {
    check_identity(doc.format.as_deref(), doc.schema_version)?;
    let version = version_in(doc.vmd_version)?;
    let sections_present = sections_present_in(doc.sections_present)?;
    let enc = doc.encoding.as_ref().map_or(TextEncoding::ShiftJis, |e| e.0);
    let mut report = Report { warnings: Vec::new(), names: NamesIn::new(enc) };
    let header = header_in(&doc, version, &mut report)?;
    let mut motion = Motion::new(header.model_name);
    motion.header = header;
    motion.sections_present = sections_present;
    motion.trailing = doc.trailing.map(|h| h.0).unwrap_or_default();
    motion.bones.reserve_exact(doc.bones.len());
    for (i, b) in doc.bones.iter().enumerate() {
        let key = fields::bone_in(bone_parts(b), &mut report.names)
            .map_err(at(Some(Section::Bone), Some(i)))?;
        report.flush(Some(Section::Bone), Some(i));
        motion.bones.push(key);
    }
    for (i, m) in doc.morphs.iter().enumerate() {
        let name_raw = m.name_raw.as_ref().map(|h| &h.0);
        let key = fields::morph_in(&m.name, name_raw, m.frame, m.weight.0, &mut report.names);
        report.flush(Some(Section::Morph), Some(i));
        motion.morphs.push(key);
    }
    motion.cameras.extend(doc.cameras.iter().map(|c| fields::camera_in(camera_parts(c))));
    motion.lights.extend(doc.lights.iter().map(|l| LightKey {
        frame: l.frame,
        color: vec3(&l.color),
        direction: vec3(&l.direction),
    }));
    motion.shadows.extend(doc.self_shadows.iter().map(|s| ShadowKey {
        frame: s.frame,
        mode: s.mode,
        distance: s.distance.0,
    }));
    for (i, p) in doc.properties.iter().enumerate() {
        let ik = p.ik.iter().enumerate().map(|(j, ik)| {
            fields::ik_in(ik_parts(ik), &format!("ik[{j}].name"), &mut report.names)
        });
        let key = fields::property_in(p.frame, p.visible, p.visible_raw, ik.collect());
        motion.properties.push(key);
        report.flush(Some(Section::Property), Some(i));
    }
    fields::check_trailing(&motion).map_err(at(None, None))?;
    Ok((motion, report.warnings))
}

/// The header, with the model name's warnings flushed before any key's.
fn header_in(doc: &DocIn, version: Version, report: &mut Report) -> Result<Header, ConvertError> {
    let model_name_raw = doc.model_name_raw.as_ref().map(|h| &h.0[..]);
    let model_name = report
        .names
        .model_name(version, &doc.model_name, model_name_raw)
        .map_err(at(None, None))?;
    report.flush(None, None);
    let signature = fields::signature_in(version, doc.signature_raw.as_ref().map(|h| h.0));
    Ok(Header { signature, model_name })
}

fn version_in(vmd_version: Option<u8>) -> Result<Version, ConvertError> {
    match vmd_version.unwrap_or(2) {
        1 => Ok(Version::V1),
        2 => Ok(Version::V2),
        v => Err(top("vmd_version", format!("{v} is not a VMD version (1 or 2)"))),
    }
}

fn sections_present_in(sections_present: Option<u64>) -> Result<usize, ConvertError> {
    match sections_present {
        None => Ok(6),
        Some(n @ 0..=6) => Ok(n as usize),
        Some(n) => {
            Err(top("sections_present", format!("{n} is more than the 6 sections a VMD has")))
        }
    }
}

fn bone_parts(b: &BoneIn) -> BoneParts<'_> {
    let c = &b.curves;
    BoneParts {
        name: &b.name,
        name_raw: b.name_raw.as_ref().map(|h| &h.0),
        frame: b.frame,
        translation: b.translation.as_ref().map(vec3),
        rotation: b.rotation.as_ref().map(|r| Quat::from_xyzw(r[0].0, r[1].0, r[2].0, r[3].0)),
        euler_deg: b.euler_deg.as_ref().map(vec3),
        curves: [c.x, c.y, c.z, c.rotation].map(|c| c.map(curve_from_array)),
        physics: b.physics.map(PhysicsToggle::from),
        interpolation_raw: b.interpolation_raw.as_ref().map(|h| &h.0),
    }
}

fn camera_parts(c: &CameraIn) -> CameraParts {
    let k = &c.curves;
    CameraParts {
        frame: c.frame,
        distance: c.distance.0,
        target: vec3(&c.target),
        rotation: vec3(&c.rotation),
        curves: [k.x, k.y, k.z, k.rotation, k.distance, k.view_angle]
            .map(|c| c.map(curve_from_array)),
        view_angle: c.view_angle,
        perspective: c.perspective,
        perspective_raw: c.perspective_raw,
    }
}

fn ik_parts(ik: &IkIn) -> IkParts<'_> {
    IkParts {
        name: &ik.name,
        name_raw: ik.name_raw.as_ref().map(|h| &h.0),
        enabled: ik.enabled,
        enabled_raw: ik.enabled_raw,
    }
}
