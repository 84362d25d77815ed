//! Keyframe records: owned types, and borrowed views over the bytes of one record.
//!
//! Each `*Ref` type wraps a record's bytes in the file and decodes fields on demand; its
//! `to_key` builds the owned type. The owned reader and the zero-copy view share these, so a
//! field's offset is written down once. Every `encode` is the exact inverse of `to_key`.

use super::interp::{BoneInterpolation, CameraInterpolation};
use crate::text::{KeyName, LongName, RawName};
use glam::{Quat, Vec3};

#[inline(always)]
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[inline(always)]
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[inline(always)]
fn vec3_at(b: &[u8], at: usize) -> Vec3 {
    Vec3::new(f32_at(b, at), f32_at(b, at + 4), f32_at(b, at + 8))
}

#[inline(always)]
fn array_at<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    b[at..at + N].try_into().unwrap()
}

#[inline(always)]
fn put<const N: usize>(out: &mut [u8], at: usize, bytes: [u8; N]) {
    out[at..at + N].copy_from_slice(&bytes);
}

/// Little-endian floats one after another, as vectors and quaternions are stored.
#[inline(always)]
fn put_f32s<const N: usize>(out: &mut [u8], at: usize, values: [f32; N]) {
    for (i, x) in values.into_iter().enumerate() {
        put(out, at + 4 * i, x.to_le_bytes());
    }
}

/// The `N`-byte records in `bytes` (a whole number of them), each wrapped by `wrap`.
#[inline]
pub(crate) fn fixed_refs<'a, const N: usize, R>(
    bytes: &'a [u8],
    wrap: impl Fn(&'a [u8; N]) -> R + 'a,
) -> impl ExactSizeIterator<Item = R> + 'a {
    bytes.chunks_exact(N).map(move |c| wrap(c.try_into().unwrap()))
}

/// Declares the in-place type of a record of `$size` bytes that starts with its frame
/// number, which it reads without decoding the rest.
macro_rules! frame_first_ref {
    ($(#[$doc:meta])* $name:ident, $size:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name<'a>(pub &'a [u8; $size]);

        impl $name<'_> {
            /// Frame number at 30 fps (bytes 0–3), read without decoding the rest.
            pub fn frame(&self) -> u32 {
                u32_at(self.0, 0)
            }
        }
    };
}

/// A bone keyframe (111 bytes in the file).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneKey {
    /// The bone's name: CP932 bytes up to the first NUL, padding kept (bytes 0–14).
    pub name: KeyName,
    /// Frame number at 30 fps.
    pub frame: u32,
    /// Offset from the bone's rest position, in the parent's frame (MMD's left-handed axes).
    pub translation: Vec3,
    /// The bone's local rotation, exactly as stored (x, y, z, w); not normalised.
    pub rotation: Quat,
    /// The 64-byte block holding the X, Y, Z and rotation curves and the physics toggle
    /// (bytes 47–110).
    pub interpolation: BoneInterpolation,
}

/// The bone records in `bytes`, a whole number of 111-byte records.
pub fn bone_refs(bytes: &[u8]) -> impl ExactSizeIterator<Item = BoneRef<'_>> {
    fixed_refs(bytes, BoneRef)
}

/// A bone record in place.
#[derive(Clone, Copy, Debug)]
pub struct BoneRef<'a>(pub &'a [u8; 111]);

impl<'a> BoneRef<'a> {
    /// The name field in place (bytes 0–14).
    pub fn name(&self) -> &'a KeyName {
        RawName::from_ref(self.0[..15].try_into().unwrap())
    }
    /// Frame number at 30 fps (bytes 15–18).
    #[inline]
    pub fn frame(&self) -> u32 {
        u32_at(self.0, 15)
    }
    /// Offset from the rest position, MMD's left-handed axes (bytes 19–30).
    #[inline]
    pub fn translation(&self) -> Vec3 {
        vec3_at(self.0, 19)
    }
    /// Local rotation as stored, (x, y, z, w), not normalised (bytes 31–46).
    #[inline]
    pub fn rotation(&self) -> Quat {
        let b = self.0;
        Quat::from_xyzw(f32_at(b, 31), f32_at(b, 35), f32_at(b, 39), f32_at(b, 43))
    }
    /// The raw 64-byte interpolation block (bytes 47–110).
    #[inline]
    pub fn interpolation(&self) -> &'a [u8; 64] {
        self.0[47..].try_into().unwrap()
    }
    /// Copies the record into an owned [`BoneKey`].
    #[inline]
    pub fn to_key(&self) -> BoneKey {
        BoneKey {
            name: RawName(array_at(self.0, 0)),
            frame: self.frame(),
            translation: self.translation(),
            rotation: self.rotation(),
            interpolation: BoneInterpolation(array_at(self.0, 47)),
        }
    }
}

impl BoneKey {
    /// Bytes per bone record: name 15, frame 4, translation 12, rotation 16, curves 64.
    pub const SIZE: usize = 111;

    /// A key with identity rotation, no translation and linear curves.
    pub fn new(name: KeyName, frame: u32) -> Self {
        BoneKey {
            name,
            frame,
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            interpolation: BoneInterpolation::DEFAULT,
        }
    }

    /// The record's 111 bytes, field for field as read; the inverse of [`BoneRef::to_key`].
    #[inline]
    pub fn encode(&self) -> [u8; 111] {
        let mut out = [0u8; 111];
        put(&mut out, 0, self.name.0);
        put(&mut out, 15, self.frame.to_le_bytes());
        put_f32s(&mut out, 19, self.translation.to_array());
        put_f32s(&mut out, 31, self.rotation.to_array());
        put(&mut out, 47, self.interpolation.0);
        out
    }
}

/// A morph (facial) keyframe (23 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MorphKey {
    /// The morph's name: CP932 bytes up to the first NUL, padding kept (bytes 0–14).
    pub name: KeyName,
    /// Frame number at 30 fps (bytes 15–18).
    pub frame: u32,
    /// Usually 0–1, but not clamped: files hold values outside that range.
    pub weight: f32,
}

/// A morph record in place.
#[derive(Clone, Copy, Debug)]
pub struct MorphRef<'a>(pub &'a [u8; 23]);

impl<'a> MorphRef<'a> {
    /// The name field in place (bytes 0–14).
    pub fn name(&self) -> &'a KeyName {
        RawName::from_ref(self.0[..15].try_into().unwrap())
    }
    /// Frame number at 30 fps (bytes 15–18).
    pub fn frame(&self) -> u32 {
        u32_at(self.0, 15)
    }
    /// The morph weight as stored, not clamped (bytes 19–22).
    pub fn weight(&self) -> f32 {
        f32_at(self.0, 19)
    }
    /// Copies the record into an owned [`MorphKey`].
    #[inline]
    pub fn to_key(&self) -> MorphKey {
        MorphKey { name: RawName(array_at(self.0, 0)), frame: self.frame(), weight: self.weight() }
    }
}

impl MorphKey {
    /// Bytes per morph record: name 15, frame 4, weight 4.
    pub const SIZE: usize = 23;

    /// The record's 23 bytes; the inverse of [`MorphRef::to_key`].
    #[inline]
    pub fn encode(&self) -> [u8; 23] {
        let mut out = [0u8; 23];
        put(&mut out, 0, self.name.0);
        put(&mut out, 15, self.frame.to_le_bytes());
        put(&mut out, 19, self.weight.to_le_bytes());
        out
    }
}

/// A camera keyframe (61 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraKey {
    /// Frame number at 30 fps (bytes 0–3).
    pub frame: u32,
    /// Signed distance from the target to the eye along the camera's Z; normally negative.
    pub distance: f32,
    /// The point the camera orbits, MMD's left-handed axes.
    pub target: Vec3,
    /// Pitch, yaw, roll in radians.
    pub rotation: Vec3,
    /// Six 4-byte curves: target X, Y, Z, rotation, distance, view angle (bytes 32–55).
    pub interpolation: CameraInterpolation,
    /// Vertical field of view in whole degrees.
    pub view_angle: u32,
    /// The raw perspective byte: 0 = perspective, 1 = orthographic.
    pub perspective_byte: u8,
}

impl CameraKey {
    /// Bytes per camera record: frame 4, distance 4, target 12, rotation 12, curves 24, view angle
    /// 4, perspective 1.
    pub const SIZE: usize = 61;

    /// Whether the camera uses a perspective projection (byte 0).
    pub fn is_perspective(&self) -> bool {
        self.perspective_byte == 0
    }

    /// The record's 61 bytes; the inverse of [`CameraRef::to_key`].
    #[inline]
    pub fn encode(&self) -> [u8; 61] {
        let mut out = [0u8; 61];
        put(&mut out, 0, self.frame.to_le_bytes());
        put(&mut out, 4, self.distance.to_le_bytes());
        put_f32s(&mut out, 8, self.target.to_array());
        put_f32s(&mut out, 20, self.rotation.to_array());
        put(&mut out, 32, self.interpolation.0);
        put(&mut out, 56, self.view_angle.to_le_bytes());
        out[60] = self.perspective_byte;
        out
    }
}

frame_first_ref! {
    /// A camera record in place.
    CameraRef, 61
}

impl CameraRef<'_> {
    /// Copies the record into an owned [`CameraKey`].
    pub fn to_key(&self) -> CameraKey {
        let b = self.0;
        CameraKey {
            frame: u32_at(b, 0),
            distance: f32_at(b, 4),
            target: vec3_at(b, 8),
            rotation: vec3_at(b, 20),
            interpolation: CameraInterpolation(array_at(b, 32)),
            view_angle: u32_at(b, 56),
            perspective_byte: b[60],
        }
    }
}

/// A light keyframe (28 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LightKey {
    /// Frame number at 30 fps (bytes 0–3).
    pub frame: u32,
    /// RGB as the UI value / 256, so normally in [0, 1).
    pub color: Vec3,
    /// The direction the light travels, MMD's left-handed axes.
    pub direction: Vec3,
}

impl LightKey {
    /// Bytes per light record: frame 4, colour 12, direction 12.
    pub const SIZE: usize = 28;

    /// The record's 28 bytes; the inverse of [`LightRef::to_key`].
    pub fn encode(&self) -> [u8; 28] {
        let mut out = [0u8; 28];
        put(&mut out, 0, self.frame.to_le_bytes());
        put_f32s(&mut out, 4, self.color.to_array());
        put_f32s(&mut out, 16, self.direction.to_array());
        out
    }
}

frame_first_ref! {
    /// A light record in place.
    LightRef, 28
}

impl LightRef<'_> {
    /// Copies the record into an owned [`LightKey`].
    pub fn to_key(&self) -> LightKey {
        LightKey { frame: self.frame(), color: vec3_at(self.0, 4), direction: vec3_at(self.0, 16) }
    }
}

/// A self-shadow keyframe (9 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShadowKey {
    /// Frame number at 30 fps (bytes 0–3).
    pub frame: u32,
    /// 0 = off, 1 = mode 1, 2 = mode 2.
    pub mode: u8,
    /// Stored as (10000 − L) / 100000 for the UI's shadow range L.
    pub distance: f32,
}

impl ShadowKey {
    /// Bytes per self-shadow record: frame 4, mode 1, distance 4.
    pub const SIZE: usize = 9;

    /// The record's 9 bytes; the inverse of [`ShadowRef::to_key`].
    pub fn encode(&self) -> [u8; 9] {
        let mut out = [0u8; 9];
        put(&mut out, 0, self.frame.to_le_bytes());
        out[4] = self.mode;
        put(&mut out, 5, self.distance.to_le_bytes());
        out
    }
}

frame_first_ref! {
    /// A self-shadow record in place.
    ShadowRef, 9
}

impl ShadowRef<'_> {
    /// Copies the record into an owned [`ShadowKey`].
    pub fn to_key(&self) -> ShadowKey {
        ShadowKey { frame: self.frame(), mode: self.0[4], distance: f32_at(self.0, 5) }
    }
}

/// One IK bone's on/off state in a property key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IkState {
    /// The IK bone's name: a 20-byte CP932 field (wider than a bone key's 15).
    pub name: LongName,
    /// The raw byte: 1 = on, 0 = off.
    pub enabled_byte: u8,
}

impl IkState {
    /// Whether IK is on for this bone; any non-zero byte counts as on.
    pub fn is_enabled(&self) -> bool {
        self.enabled_byte != 0
    }
}

/// A property keyframe: model visibility and IK on/off (9 + 21 × IK entries bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyKey {
    /// Frame number at 30 fps (bytes 0–3).
    pub frame: u32,
    /// The raw byte: 1 = shown, 0 = hidden.
    pub visible_byte: u8,
    /// IK on/off per IK bone, in file order (21 bytes each after the 9-byte head).
    pub ik: Vec<IkState>,
}

impl PropertyKey {
    /// Whether the model is shown; any non-zero byte counts as shown.
    pub fn is_visible(&self) -> bool {
        self.visible_byte != 0
    }

    /// Bytes this record takes in the file.
    pub fn encoded_len(&self) -> usize {
        super::layout::PROPERTY_HEAD_LEN + self.ik.len() * super::layout::IK_ENTRY_LEN
    }

    /// Appends the record's [`encoded_len`](Self::encoded_len) bytes to `out`; the inverse of
    /// [`PropertyRef::to_key`].
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.frame.to_le_bytes());
        out.push(self.visible_byte);
        out.extend_from_slice(&(self.ik.len() as u32).to_le_bytes());
        for ik in &self.ik {
            out.extend_from_slice(&ik.name.0);
            out.push(ik.enabled_byte);
        }
    }
}

/// A property record in place; its length was checked by the layout scan.
#[derive(Clone, Copy, Debug)]
pub struct PropertyRef<'a>(pub &'a [u8]);

impl<'a> PropertyRef<'a> {
    /// Frame number at 30 fps (bytes 0–3).
    pub fn frame(&self) -> u32 {
        u32_at(self.0, 0)
    }
    /// The raw visibility byte (byte 4): 1 = shown, 0 = hidden.
    pub fn visible_byte(&self) -> u8 {
        self.0[4]
    }
    /// The IK entries as (name, enabled byte).
    pub fn ik(&self) -> impl ExactSizeIterator<Item = IkState> + 'a {
        self.0[9..]
            .chunks_exact(21)
            .map(|c| IkState { name: RawName(array_at(c, 0)), enabled_byte: c[20] })
    }
    /// Copies the record, IK entries included, into an owned [`PropertyKey`].
    pub fn to_key(&self) -> PropertyKey {
        PropertyKey {
            frame: self.frame(),
            visible_byte: self.visible_byte(),
            ik: self.ik().collect(),
        }
    }
}
