//! The section arrays of a document, read one key at a time straight into the motion: serde
//! checks each key's shape (with line and column), the shared typed-versus-raw rules build it
//! (errors with a JSON path), and its name gets a placeholder until the encoding is known.

use crate::convert::deferred::DeferredNames;
use crate::convert::fields::{self, BoneParts, CameraParts};
use crate::convert::scalar::{f32_from_f64, parse_f32, unhex_append, unhex_array};
use crate::convert::{ConvertError, FieldPath};
use crate::format::{LightKey, MorphKey, Motion, PhysicsToggle, Section, ShadowKey};
use glam::{Quat, Vec3};
use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

/// What a stopped read needs to explain itself, and what the document is being read into.
pub(super) struct State {
    pub motion: Motion,
    pub names: DeferredNames,
    /// An error serde's error type cannot carry (a key whose fields do not go together, a
    /// document that is not a motion): reading stops with a placeholder and returns this.
    pub error: Option<ConvertError>,
    /// The section whose array is being read, so that an error there names its key
    /// (`bones[12]`) even when the text cannot be read again to name the field.
    pub reading: Option<Section>,
}

impl State {
    pub fn new() -> Self {
        State { motion: Motion::default(), names: DeferredNames::new(), error: None, reading: None }
    }

    /// Keeps `err` and gives the placeholder that stops serde.
    pub fn stop<E: de::Error>(&mut self, err: ConvertError) -> E {
        self.error = Some(err);
        E::custom("stopped")
    }
}

/// A float: a JSON number, or a string with its bit pattern (`"0x7fc00000"`), `"NaN"` or `"inf"`.
pub(super) struct F32In(pub f32);

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

/// Hex text of exactly `N` bytes, checked where it is read so the error has a line. Decoded
/// from the text as the reader hands it over, without a `String` per key.
pub(super) struct HexIn<const N: usize>(pub [u8; N]);

impl<'de, const N: usize> Deserialize<'de> for HexIn<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const N: usize>;
        impl<const N: usize> Visitor<'_> for V<N> {
            type Value = HexIn<N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a string of {N} bytes in hex")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<HexIn<N>, E> {
                unhex_array(v).map(HexIn).map_err(E::custom)
            }
        }
        d.deserialize_str(V::<N>)
    }
}

/// Appends hex text to a buffer: `trailing` is one string, or for many bytes an array of them,
/// so that reading never holds the text of gigabytes at once.
pub(super) struct HexAppend<'a>(pub &'a mut Vec<u8>);

impl<'de> DeserializeSeed<'de> for HexAppend<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for HexAppend<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("hex text, or an array of hex texts")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        unhex_append(v, self.0).map_err(E::custom)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(HexText(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

/// One string of hex text: an element of an array of them, or a field that is one string.
pub(super) struct HexText<'a>(pub &'a mut Vec<u8>);

impl<'de> DeserializeSeed<'de> for HexText<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for HexText<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string of hex")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        unhex_append(v, self.0).map_err(E::custom)
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

// Names borrow from the input where they can (a document in memory, no escapes), so that most
// keys are read without allocating.

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a bone key object")]
struct BoneIn<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
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
struct MorphIn<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
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
struct PropertyIn<'a> {
    frame: u32,
    visible: Option<bool>,
    #[serde(default, borrow)]
    ik: Vec<IkIn<'a>>,
    visible_raw: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "an IK state object")]
struct IkIn<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    enabled: Option<bool>,
    name_raw: Option<HexIn<20>>,
    enabled_raw: Option<u8>,
}

/// Reads one section's array into `state.motion`.
pub(super) struct SectionSeed<'s> {
    pub state: &'s mut State,
    pub section: Section,
}

impl<'de> DeserializeSeed<'de> for SectionSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for SectionSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an array of {} keys", self.section.name())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        let state = self.state;
        state.reading = Some(self.section);
        match self.section {
            Section::Bone => bones(seq, state),
            Section::Morph => morphs(seq, state),
            Section::Camera => cameras(seq, state),
            Section::Light => lights(seq, state),
            Section::SelfShadow => shadows(seq, state),
            Section::Property => properties(seq, state),
        }?;
        state.reading = None;
        Ok(())
    }
}

fn path(section: Section, record: usize, field: &str) -> String {
    FieldPath { section: Some(section), record: Some(record), field }.to_string()
}

fn bones<'de, A: SeqAccess<'de>>(mut seq: A, state: &mut State) -> Result<(), A::Error> {
    while let Some(b) = seq.next_element::<BoneIn>()? {
        let i = state.motion.bones.len();
        let raw = b.name_raw.as_ref().map(|h| &h.0);
        let name = state.names.key_name(&b.name, raw, || path(Section::Bone, i, "name"));
        let c = &b.curves;
        let parts = BoneParts {
            frame: b.frame,
            translation: b.translation.as_ref().map(vec3),
            rotation: b.rotation.as_ref().map(|r| Quat::from_xyzw(r[0].0, r[1].0, r[2].0, r[3].0)),
            euler_deg: b.euler_deg.as_ref().map(vec3),
            curves: [c.x, c.y, c.z, c.rotation].map(|c| c.map(crate::Curve::from_points)),
            physics: b.physics.map(PhysicsToggle::from),
            interpolation_raw: b.interpolation_raw.as_ref().map(|h| &h.0),
        };
        match fields::bone_in(parts, name) {
            Ok(key) => state.motion.bones.push(key),
            Err(e) => {
                let (section, record) = (Some(Section::Bone), Some(i));
                let err = ConvertError::Field { section, record, field: e.field, reason: e.reason };
                return Err(state.stop(err));
            }
        }
    }
    Ok(())
}

fn morphs<'de, A: SeqAccess<'de>>(mut seq: A, state: &mut State) -> Result<(), A::Error> {
    while let Some(m) = seq.next_element::<MorphIn>()? {
        let i = state.motion.morphs.len();
        let raw = m.name_raw.as_ref().map(|h| &h.0);
        let name = state.names.key_name(&m.name, raw, || path(Section::Morph, i, "name"));
        state.motion.morphs.push(MorphKey { name, frame: m.frame, weight: m.weight.0 });
    }
    Ok(())
}

fn cameras<'de, A: SeqAccess<'de>>(mut seq: A, state: &mut State) -> Result<(), A::Error> {
    while let Some(c) = seq.next_element::<CameraIn>()? {
        let k = &c.curves;
        state.motion.cameras.push(fields::camera_in(CameraParts {
            frame: c.frame,
            distance: c.distance.0,
            target: vec3(&c.target),
            rotation: vec3(&c.rotation),
            curves: [k.x, k.y, k.z, k.rotation, k.distance, k.view_angle]
                .map(|c| c.map(crate::Curve::from_points)),
            view_angle: c.view_angle,
            perspective: c.perspective,
            perspective_raw: c.perspective_raw,
        }));
    }
    Ok(())
}

fn lights<'de, A: SeqAccess<'de>>(mut seq: A, state: &mut State) -> Result<(), A::Error> {
    while let Some(l) = seq.next_element::<LightIn>()? {
        let (color, direction) = (vec3(&l.color), vec3(&l.direction));
        state.motion.lights.push(LightKey { frame: l.frame, color, direction });
    }
    Ok(())
}

fn shadows<'de, A: SeqAccess<'de>>(mut seq: A, state: &mut State) -> Result<(), A::Error> {
    while let Some(s) = seq.next_element::<ShadowIn>()? {
        state.motion.shadows.push(ShadowKey {
            frame: s.frame,
            mode: s.mode,
            distance: s.distance.0,
        });
    }
    Ok(())
}

fn properties<'de, A: SeqAccess<'de>>(mut seq: A, state: &mut State) -> Result<(), A::Error> {
    while let Some(p) = seq.next_element::<PropertyIn>()? {
        let i = state.motion.properties.len();
        let ik = p.ik.iter().enumerate().map(|(j, ik)| {
            let raw = ik.name_raw.as_ref().map(|h| &h.0);
            let field = || path(Section::Property, i, &format!("ik[{j}].name"));
            let name = state.names.ik_name(&ik.name, raw, field);
            fields::ik_in(name, ik.enabled, ik.enabled_raw)
        });
        let key = fields::property_in(p.frame, p.visible, p.visible_raw, ik.collect());
        state.motion.properties.push(key);
    }
    Ok(())
}
