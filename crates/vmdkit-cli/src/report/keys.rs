//! Keys as listed by `vmdkit dump --json`: one entry per key, in file order, with its index in
//! the section (the record number error messages give).
//!
//! Unlike the convert JSON format, a listing is for reading, not for writing back: names are
//! decoded text only, floats plain numbers, and angles optionally in degrees.

use glam::{Quat, Vec3};
use serde::Serialize;
use std::borrow::Cow;
use vmdkit::angles::quat_to_mmd_euler_deg;
use vmdkit::{BoneCurvePoints, CameraCurvePoints};
use vmdkit::{
    BoneKey, CameraKey, IkState, LightKey, MorphKey, Motion, PhysicsToggle, PropertyKey, Section,
    ShadowKey,
};
use vmdkit::{KeyName, TextEncoding};

/// How a listing decodes names and shows angles, and which bone and morph keys it keeps.
#[derive(Clone, Copy, Debug)]
pub struct KeyOptions<'a> {
    /// The encoding names are decoded in (usually [`Motion::detect_encoding`]).
    pub encoding: TextEncoding,
    /// Add rotations as degrees: MMD's panel angles for bones, the stored angles for cameras.
    pub euler: bool,
    /// Keep only bone and morph keys whose decoded name is exactly this.
    pub name: Option<&'a str>,
}

impl<'a> KeyOptions<'a> {
    /// Names in `encoding`, no degrees, every key kept.
    pub fn new(encoding: TextEncoding) -> Self {
        KeyOptions { encoding, euler: false, name: None }
    }

    /// A key name as text.
    pub fn text<'n>(&self, name: &'n KeyName) -> Cow<'n, str> {
        name.decode(self.encoding).text
    }

    /// Whether a bone or morph key of this name is listed.
    pub fn keeps(&self, name: &KeyName) -> bool {
        self.name.is_none_or(|wanted| self.text(name) == wanted)
    }
}

/// Degrees to a thousandth, without "-0.000": listings show angles people compare by eye.
pub fn round_deg(v: f64) -> f64 {
    let r = (v * 1000.0).round() / 1000.0;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// A bone rotation as the X, Y, Z degrees MMD's bone panel shows, rounded by [`round_deg`].
pub fn panel_euler_deg(q: Quat) -> [f64; 3] {
    quat_to_mmd_euler_deg(q).as_dvec3().to_array().map(round_deg)
}

/// A camera's stored Euler angles (radians) in degrees, rounded by [`round_deg`], signs as
/// stored.
pub fn camera_rotation_deg(rotation: Vec3) -> [f64; 3] {
    rotation.as_dvec3().to_array().map(|r| round_deg(r.to_degrees()))
}

/// The document's opening members, before its `sections`.
#[derive(Clone, Debug, Serialize)]
pub struct ListingHead<'a> {
    /// The file as named on the command line.
    pub path: &'a str,
    /// 1 or 2.
    pub version: u8,
    /// The model name, decoded.
    pub model_name: Cow<'a, str>,
    /// The label of the encoding names were decoded in.
    pub encoding: &'static str,
}

impl<'a> ListingHead<'a> {
    /// The head for `motion` read from `path`.
    pub fn new(path: &'a str, motion: &'a Motion, encoding: TextEncoding) -> Self {
        ListingHead {
            path,
            version: motion.header.version() as u8,
            model_name: motion.header.model_name.decode(encoding).text,
            encoding: encoding.label(),
        }
    }
}

/// A bone key.
#[derive(Clone, Debug, Serialize)]
pub struct BoneEntry<'a> {
    /// The key's index in the bone section.
    pub index: usize,
    /// The frame number.
    pub frame: u32,
    /// The bone's name, decoded.
    pub name: Cow<'a, str>,
    /// The offset from the rest position.
    pub translation: [f32; 3],
    /// The quaternion (x, y, z, w) as stored.
    pub rotation: [f32; 4],
    /// With [`KeyOptions::euler`], the rotation as [`panel_euler_deg`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub euler_deg: Option<[f64; 3]>,
    /// The four curves.
    pub curves: BoneCurvePoints,
    /// The physics toggle.
    pub physics: PhysicsToggle,
}

impl<'a> BoneEntry<'a> {
    /// The entry of bone key `index`.
    pub fn new(index: usize, k: &'a BoneKey, options: &KeyOptions<'_>) -> Self {
        let q = k.rotation;
        BoneEntry {
            index,
            frame: k.frame,
            name: options.text(&k.name),
            translation: k.translation.to_array(),
            rotation: [q.x, q.y, q.z, q.w],
            euler_deg: options.euler.then(|| panel_euler_deg(q)),
            curves: BoneCurvePoints::new(&k.interpolation),
            physics: k.interpolation.physics(),
        }
    }
}

/// A morph key.
#[derive(Clone, Debug, Serialize)]
pub struct MorphEntry<'a> {
    /// The key's index in the morph section.
    pub index: usize,
    /// The frame number.
    pub frame: u32,
    /// The morph's name, decoded.
    pub name: Cow<'a, str>,
    /// The weight.
    pub weight: f32,
}

impl<'a> MorphEntry<'a> {
    /// The entry of morph key `index`.
    pub fn new(index: usize, k: &'a MorphKey, options: &KeyOptions<'_>) -> Self {
        MorphEntry { index, frame: k.frame, name: options.text(&k.name), weight: k.weight }
    }
}

/// A camera key.
#[derive(Clone, Debug, Serialize)]
pub struct CameraEntry {
    /// The key's index in the camera section.
    pub index: usize,
    /// The frame number.
    pub frame: u32,
    /// The distance from the target, as stored (negative in front of it).
    pub distance: f32,
    /// The point the camera looks at.
    pub target: [f32; 3],
    /// The Euler angles in radians, as stored.
    pub rotation: [f32; 3],
    /// With [`KeyOptions::euler`], the rotation as [`camera_rotation_deg`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation_deg: Option<[f64; 3]>,
    /// The six curves.
    pub curves: CameraCurvePoints,
    /// The view angle in degrees.
    pub view_angle: u32,
    /// Perspective, or orthographic.
    pub perspective: bool,
}

impl CameraEntry {
    /// The entry of camera key `index`.
    pub fn new(index: usize, k: &CameraKey, options: &KeyOptions<'_>) -> Self {
        CameraEntry {
            index,
            frame: k.frame,
            distance: k.distance,
            target: k.target.to_array(),
            rotation: k.rotation.to_array(),
            rotation_deg: options.euler.then(|| camera_rotation_deg(k.rotation)),
            curves: CameraCurvePoints::new(&k.interpolation),
            view_angle: k.view_angle,
            perspective: k.is_perspective(),
        }
    }
}

/// A light key.
#[derive(Clone, Debug, Serialize)]
pub struct LightEntry {
    /// The key's index in the light section.
    pub index: usize,
    /// The frame number.
    pub frame: u32,
    /// The colour as stored (MMD's 0-255 panel value / 256).
    pub color: [f32; 3],
    /// The direction as stored.
    pub direction: [f32; 3],
}

impl LightEntry {
    /// The entry of light key `index`.
    pub fn new(index: usize, k: &LightKey) -> Self {
        LightEntry {
            index,
            frame: k.frame,
            color: k.color.to_array(),
            direction: k.direction.to_array(),
        }
    }
}

/// A self-shadow key.
#[derive(Clone, Debug, Serialize)]
pub struct ShadowEntry {
    /// The key's index in the self-shadow section.
    pub index: usize,
    /// The frame number.
    pub frame: u32,
    /// 0 off, 1 or 2 the shadow mode.
    pub mode: u8,
    /// The distance as stored.
    pub distance: f32,
}

impl ShadowEntry {
    /// The entry of self-shadow key `index`.
    pub fn new(index: usize, k: &ShadowKey) -> Self {
        ShadowEntry { index, frame: k.frame, mode: k.mode, distance: k.distance }
    }
}

/// One IK switch of a property key.
#[derive(Clone, Debug, Serialize)]
pub struct IkEntry<'a> {
    /// The IK bone's name, decoded.
    pub name: Cow<'a, str>,
    /// Whether the IK is on.
    pub enabled: bool,
}

impl<'a> IkEntry<'a> {
    /// The entry of one IK switch.
    pub fn new(ik: &'a IkState, encoding: TextEncoding) -> Self {
        IkEntry { name: ik.name.decode(encoding).text, enabled: ik.is_enabled() }
    }
}

/// A property key.
#[derive(Clone, Debug, Serialize)]
pub struct PropertyEntry<'a> {
    /// The key's index in the property section.
    pub index: usize,
    /// The frame number.
    pub frame: u32,
    /// Whether the model is shown.
    pub visible: bool,
    /// The IK switches, in stored order.
    pub ik: Vec<IkEntry<'a>>,
}

impl<'a> PropertyEntry<'a> {
    /// The entry of property key `index`.
    pub fn new(index: usize, k: &'a PropertyKey, options: &KeyOptions<'_>) -> Self {
        let ik = k.ik.iter().map(|ik| IkEntry::new(ik, options.encoding)).collect();
        PropertyEntry { index, frame: k.frame, visible: k.is_visible(), ik }
    }
}

/// An entry of any section; serialised as the entry itself.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum KeyEntry<'a> {
    /// A bone key.
    Bone(BoneEntry<'a>),
    /// A morph key.
    Morph(MorphEntry<'a>),
    /// A camera key.
    Camera(CameraEntry),
    /// A light key.
    Light(LightEntry),
    /// A self-shadow key.
    Shadow(ShadowEntry),
    /// A property key.
    Property(PropertyEntry<'a>),
}

/// The entries of `section` that `options` keeps, in file order, made one at a time so a
/// large motion is never listed in memory whole.
pub fn entries<'a>(
    motion: &'a Motion,
    section: Section,
    options: &'a KeyOptions<'a>,
) -> Box<dyn Iterator<Item = KeyEntry<'a>> + 'a> {
    let o = options;
    match section {
        Section::Bone => Box::new(
            kept(&motion.bones, o, |k| &k.name)
                .map(|(i, k)| KeyEntry::Bone(BoneEntry::new(i, k, o))),
        ),
        Section::Morph => Box::new(
            kept(&motion.morphs, o, |k| &k.name)
                .map(|(i, k)| KeyEntry::Morph(MorphEntry::new(i, k, o))),
        ),
        Section::Camera => Box::new(
            motion
                .cameras
                .iter()
                .enumerate()
                .map(|(i, k)| KeyEntry::Camera(CameraEntry::new(i, k, o))),
        ),
        Section::Light => Box::new(
            motion.lights.iter().enumerate().map(|(i, k)| KeyEntry::Light(LightEntry::new(i, k))),
        ),
        Section::SelfShadow => Box::new(
            motion
                .shadows
                .iter()
                .enumerate()
                .map(|(i, k)| KeyEntry::Shadow(ShadowEntry::new(i, k))),
        ),
        Section::Property => Box::new(
            motion
                .properties
                .iter()
                .enumerate()
                .map(|(i, k)| KeyEntry::Property(PropertyEntry::new(i, k, o))),
        ),
        // A section added to the library later has no listing here yet.
        _ => Box::new(std::iter::empty()),
    }
}

/// The keys of a bone or morph section that `options` keeps, with their indexes.
pub fn kept<'a, K>(
    keys: &'a [K],
    options: &'a KeyOptions<'_>,
    name: impl Fn(&K) -> &KeyName + 'a,
) -> impl Iterator<Item = (usize, &'a K)> + 'a {
    keys.iter().enumerate().filter(move |(_, k)| options.keeps(name(k)))
}
