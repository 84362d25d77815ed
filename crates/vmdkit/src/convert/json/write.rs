//! Serializing a motion straight from its keys, without building a value tree first.

use crate::convert::fields::{flag_out, interpolation_out, signature_out, NamesOut};
use crate::convert::scalar::{f32_as_decimal_f64, f32_bits, Hex};
use crate::convert::{section_key, trailing};
use crate::convert::{FORMAT, SCHEMA_VERSION};
use crate::format::{BoneCurvePoints, CameraCurvePoints};
use crate::format::{
    BoneKey, CameraKey, IkState, LightKey, MorphKey, Motion, PhysicsToggle, PropertyKey, Section,
    ShadowKey,
};
use crate::text::RawName;
use glam::Vec3;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::borrow::Cow;
use std::io;

/// How finite floats are handed to the serializer.
#[derive(Clone, Copy)]
pub(super) enum FloatStyle {
    /// As f32: serde_json prints the shortest decimal that reads back as the same f32.
    Native,
    /// As the f64 of that decimal, for value trees, which keep floats as f64.
    Decimal,
}

#[derive(Clone, Copy)]
struct Ctx<'n> {
    names: &'n NamesOut,
    floats: FloatStyle,
}

/// Floats whose shortest decimal, read as a correctly rounded f64 and then narrowed to f32, lands
/// on the neighbouring f32 (double rounding). Value trees, and serde_json with its
/// `float_roundtrip` feature, read numbers that way. A sweep of all 2^32 patterns found only
/// these two, and none on serde_json's default path (the ignored test `all_floats_read_back`).
pub(super) const DOUBLE_ROUNDING: [u32; 2] = [0x15ae_43fd, 0x95ae_43fd];

/// A float. NaN and infinities, which JSON has no numbers for, and the double-rounding cases
/// are written as their bit pattern.
struct F(f32, FloatStyle);

impl Serialize for F {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.1 {
            _ if !self.0.is_finite() || DOUBLE_ROUNDING.contains(&self.0.to_bits()) => {
                s.serialize_str(&f32_bits(self.0))
            }
            FloatStyle::Native => s.serialize_f32(self.0),
            FloatStyle::Decimal => s.serialize_f64(f32_as_decimal_f64(self.0)),
        }
    }
}

impl Ctx<'_> {
    fn float(self, x: f32) -> F {
        F(x, self.floats)
    }

    fn vec3(self, v: Vec3) -> [F; 3] {
        v.to_array().map(|x| self.float(x))
    }

    /// The name's text, and its raw field as hex when a plain write of the text would differ.
    fn name<'a, const N: usize>(self, raw: &'a RawName<N>) -> (Cow<'a, str>, Option<HexOut<'a>>) {
        let (text, raw) = self.names.name(raw);
        (text, raw.map(|r| HexOut(r)))
    }
}

struct HexOut<'a>(&'a [u8]);

impl Serialize for HexOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&Hex(self.0))
    }
}

/// `"on"`, `"off"` or `{"unknown": [a, b]}`.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum PhysicsOut {
    On,
    Off,
    Unknown(u8, u8),
}

impl From<PhysicsToggle> for PhysicsOut {
    fn from(p: PhysicsToggle) -> Self {
        match p {
            PhysicsToggle::On => PhysicsOut::On,
            PhysicsToggle::Off => PhysicsOut::Off,
            PhysicsToggle::Unknown(a, b) => PhysicsOut::Unknown(a, b),
        }
    }
}

/// A sequence produced on demand, so a section is serialized key by key.
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}

pub(super) struct Document<'a> {
    motion: &'a Motion,
    names: NamesOut,
    floats: FloatStyle,
    max_trailing: usize,
}

impl<'a> Document<'a> {
    pub fn new(motion: &'a Motion, floats: FloatStyle, max_trailing: usize) -> Self {
        let names = NamesOut::new(motion.detect_encoding());
        Document { motion, names, floats, max_trailing }
    }
}

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (m, cx) = (self.motion, Ctx { names: &self.names, floats: self.floats });
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("format", FORMAT)?;
        map.serialize_entry("schema_version", &SCHEMA_VERSION)?;
        map.serialize_entry("vmd_version", &(m.header.version() as u8))?;
        map.serialize_entry("encoding", self.names.encoding().label())?;
        let (model_name, model_name_raw) = self.names.model_name(&m.header);
        map.serialize_entry("model_name", &model_name)?;
        if let Some(raw) = model_name_raw {
            map.serialize_entry("model_name_raw", &HexOut(raw))?;
        }
        if let Some(raw) = signature_out(&m.header) {
            map.serialize_entry("signature_raw", &HexOut(raw))?;
        }
        let key = section_key;
        map.serialize_entry(key(Section::Bone), &Seq(|| m.bones.iter().map(|k| bone(k, cx))))?;
        map.serialize_entry(key(Section::Morph), &Seq(|| m.morphs.iter().map(|k| morph(k, cx))))?;
        map.serialize_entry(
            key(Section::Camera),
            &Seq(|| m.cameras.iter().map(|k| camera(k, cx))),
        )?;
        map.serialize_entry(key(Section::Light), &Seq(|| m.lights.iter().map(|k| light(k, cx))))?;
        map.serialize_entry(
            key(Section::SelfShadow),
            &Seq(|| m.shadows.iter().map(|k| shadow(k, cx))),
        )?;
        map.serialize_entry(
            key(Section::Property),
            &Seq(|| m.properties.iter().map(|k| property(k, cx))),
        )?;
        if m.sections_present != 6 {
            map.serialize_entry("sections_present", &m.sections_present)?;
        }
        let (trailing, len) = trailing::kept(m, self.max_trailing);
        if trailing.len() > trailing::PIECE {
            map.serialize_entry("trailing", &Seq(|| trailing.chunks(trailing::PIECE).map(HexOut)))?;
        } else if !trailing.is_empty() {
            map.serialize_entry("trailing", &HexOut(trailing))?;
        }
        if let Some(len) = len {
            map.serialize_entry("trailing_len", &len)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct BoneOut<'a> {
    name: Cow<'a, str>,
    frame: u32,
    translation: [F; 3],
    rotation: [F; 4],
    curves: BoneCurvePoints,
    physics: PhysicsOut,
    #[serde(skip_serializing_if = "Option::is_none")]
    name_raw: Option<HexOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    interpolation_raw: Option<HexOut<'a>>,
}

fn bone<'a>(k: &'a BoneKey, cx: Ctx<'a>) -> BoneOut<'a> {
    let (name, name_raw) = cx.name(&k.name);
    BoneOut {
        name,
        frame: k.frame,
        translation: cx.vec3(k.translation),
        rotation: k.rotation.to_array().map(|x| cx.float(x)),
        curves: BoneCurvePoints::new(&k.interpolation),
        physics: k.interpolation.physics().into(),
        name_raw,
        interpolation_raw: interpolation_out(&k.interpolation).map(|r| HexOut(r)),
    }
}

#[derive(Serialize)]
struct MorphOut<'a> {
    name: Cow<'a, str>,
    frame: u32,
    weight: F,
    #[serde(skip_serializing_if = "Option::is_none")]
    name_raw: Option<HexOut<'a>>,
}

fn morph<'a>(k: &'a MorphKey, cx: Ctx<'a>) -> MorphOut<'a> {
    let (name, name_raw) = cx.name(&k.name);
    MorphOut { name, frame: k.frame, weight: cx.float(k.weight), name_raw }
}

#[derive(Serialize)]
struct CameraOut {
    frame: u32,
    distance: F,
    target: [F; 3],
    rotation: [F; 3],
    curves: CameraCurvePoints,
    view_angle: u32,
    perspective: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    perspective_raw: Option<u8>,
}

fn camera(k: &CameraKey, cx: Ctx<'_>) -> CameraOut {
    CameraOut {
        frame: k.frame,
        distance: cx.float(k.distance),
        target: cx.vec3(k.target),
        rotation: cx.vec3(k.rotation),
        curves: CameraCurvePoints::new(&k.interpolation),
        view_angle: k.view_angle,
        perspective: k.is_perspective(),
        perspective_raw: flag_out(k.perspective_byte),
    }
}

#[derive(Serialize)]
struct LightOut {
    frame: u32,
    color: [F; 3],
    direction: [F; 3],
}

fn light(k: &LightKey, cx: Ctx<'_>) -> LightOut {
    LightOut { frame: k.frame, color: cx.vec3(k.color), direction: cx.vec3(k.direction) }
}

#[derive(Serialize)]
struct ShadowOut {
    frame: u32,
    mode: u8,
    distance: F,
}

fn shadow(k: &ShadowKey, cx: Ctx<'_>) -> ShadowOut {
    ShadowOut { frame: k.frame, mode: k.mode, distance: cx.float(k.distance) }
}

#[derive(Serialize)]
struct PropertyOut<'a> {
    frame: u32,
    visible: bool,
    ik: IkList<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    visible_raw: Option<u8>,
}

#[derive(Serialize)]
struct IkOut<'a> {
    name: Cow<'a, str>,
    enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    name_raw: Option<HexOut<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    enabled_raw: Option<u8>,
}

fn ik<'a>(k: &'a IkState, cx: Ctx<'a>) -> IkOut<'a> {
    let (name, name_raw) = cx.name(&k.name);
    IkOut { name, enabled: k.is_enabled(), name_raw, enabled_raw: flag_out(k.enabled_byte) }
}

struct IkList<'a>(&'a [IkState], Ctx<'a>);

impl Serialize for IkList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|i| ik(i, self.1)))
    }
}

fn property<'a>(k: &'a PropertyKey, cx: Ctx<'a>) -> PropertyOut<'a> {
    PropertyOut {
        frame: k.frame,
        visible: k.is_visible(),
        ik: IkList(&k.ik, cx),
        visible_raw: flag_out(k.visible_byte),
    }
}

/// Pretty layout with one keyframe per line: containers down to the section arrays are indented,
/// anything deeper (a key and its arrays) is written inline with `", "` and `": "`.
#[derive(Default)]
pub(super) struct KeyPerLine {
    depth: usize,
    has_value: bool,
}

/// Containers at this depth or less are laid out over lines: the document (1) and the section
/// arrays (2).
const BLOCK_DEPTH: usize = 2;

impl KeyPerLine {
    fn block(&self) -> bool {
        self.depth <= BLOCK_DEPTH
    }

    fn new_line<W: ?Sized + io::Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        let was_block = self.block();
        self.depth -= 1;
        if was_block && self.has_value {
            self.new_line(w)?;
        }
        w.write_all(bracket)
    }

    fn element<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.block() {
            w.write_all(if first { b"" } else { b"," })?;
            self.new_line(w)
        } else {
            w.write_all(if first { b"" } else { b", " })
        }
    }
}

impl serde_json::ser::Formatter for KeyPerLine {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.element(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.element(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}
