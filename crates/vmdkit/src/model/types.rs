//! The skeleton and bone-moving morphs of a PMX or PMD model, in PMX terms.
//!
//! PMD models are converted on reading to what PMX would say about the same bones (flags,
//! append, fixed axis, IK limits), as the reference implementations do, so that evaluation has
//! one model type to handle.

use crate::text::{KeyName, RawName, TextEncoding};
use glam::{Quat, Vec3};
use std::collections::HashMap;
use std::ops::BitOr;
use std::sync::{Mutex, OnceLock};

/// Which file a model came from.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ModelFormat {
    /// PMX `version` (2.0 or 2.1); `utf8` is false for UTF-16LE text.
    Pmx { version: f32, utf8: bool },
    /// PMD 1.0; `english` says the file had the English names block.
    Pmd { english: bool },
}

/// How many records the sections that are skipped had (they were walked and checked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SectionCounts {
    pub vertices: usize,
    /// Face vertex indices (three per triangle).
    pub face_indices: usize,
    pub textures: usize,
    pub materials: usize,
    /// Every morph in the file, including those [`Model::morphs`] leaves out.
    pub morphs: usize,
    pub display_frames: usize,
    pub rigid_bodies: usize,
    pub joints: usize,
    pub soft_bodies: usize,
}

/// A model's bones and the morphs that move them.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub format: ModelFormat,
    pub name: String,
    pub name_en: String,
    pub comment: String,
    pub comment_en: String,
    pub bones: Vec<Bone>,
    /// Bone morphs, and group morphs with at least one bone-morph member, in file order.
    pub morphs: Vec<Morph>,
    pub counts: SectionCounts,
}

/// PMX bone flags (PMD bones get the flags of their PMX equivalent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoneFlags(pub u16);

impl BoneFlags {
    pub const TAIL_IS_BONE: BoneFlags = BoneFlags(0x0001);
    pub const ROTATABLE: BoneFlags = BoneFlags(0x0002);
    pub const MOVABLE: BoneFlags = BoneFlags(0x0004);
    pub const VISIBLE: BoneFlags = BoneFlags(0x0008);
    pub const CONTROLLABLE: BoneFlags = BoneFlags(0x0010);
    pub const IK: BoneFlags = BoneFlags(0x0020);
    pub const APPEND_LOCAL: BoneFlags = BoneFlags(0x0080);
    pub const APPEND_ROTATION: BoneFlags = BoneFlags(0x0100);
    pub const APPEND_TRANSLATION: BoneFlags = BoneFlags(0x0200);
    pub const FIXED_AXIS: BoneFlags = BoneFlags(0x0400);
    pub const LOCAL_AXES: BoneFlags = BoneFlags(0x0800);
    pub const AFTER_PHYSICS: BoneFlags = BoneFlags(0x1000);
    pub const EXTERNAL_PARENT: BoneFlags = BoneFlags(0x2000);

    /// True when every bit of `other` is set.
    pub const fn contains(self, other: BoneFlags) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn set(&mut self, other: BoneFlags, on: bool) {
        if on {
            self.0 |= other.0;
        } else {
            self.0 &= !other.0;
        }
    }
}

impl BitOr for BoneFlags {
    type Output = BoneFlags;
    fn bitor(self, rhs: BoneFlags) -> BoneFlags {
        BoneFlags(self.0 | rhs.0)
    }
}

/// Where a bone's display tail points. It affects only how editors draw the bone.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Tail {
    /// Another bone, or none.
    Bone(Option<usize>),
    /// An offset from the bone's position.
    Offset(Vec3),
}

/// Append (付与): a share of another bone's rotation and/or translation added to this bone's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Append {
    pub parent: usize,
    /// The share; may be negative.
    pub ratio: f32,
    pub rotation: bool,
    pub translation: bool,
    /// Flag 0x0080: take the source's local (world, in some readers) transform; see §9.2.
    pub local: bool,
}

/// One link of an IK chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkLink {
    pub bone: usize,
    /// Euler angle limits (min, max) in radians, left-handed, as PMX stores them.
    pub limits: Option<(Vec3, Vec3)>,
}

/// The IK solved when its bone is reached: moves `links` so that `target` reaches the IK bone.
#[derive(Clone, Debug, PartialEq)]
pub struct Ik {
    /// The end effector (PMX "IK target"), e.g. 左足首 for 左足ＩＫ.
    pub target: usize,
    /// Iterations, as stored.
    pub loop_count: i32,
    /// Largest rotation per link and iteration, in radians (PMD: control weight × 4).
    pub limit_angle: f32,
    /// From the effector's parent towards the root.
    pub links: Vec<IkLink>,
}

/// One bone, with every field of the PMX bone record.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    pub name: String,
    pub name_en: String,
    /// The name encoded to CP932 and cut at 15 bytes, as a VMD stores it: bind keys to bones
    /// by comparing these bytes, which also matches names that were cut mid-character.
    pub name_cp932: KeyName,
    /// Rest position in model space (left-handed).
    pub position: Vec3,
    pub parent: Option<usize>,
    /// Deform layer (変形階層): bones deform in (layer, index) order.
    pub deform_layer: i32,
    pub flags: BoneFlags,
    pub tail: Tail,
    pub append: Option<Append>,
    pub fixed_axis: Option<Vec3>,
    /// Local X and Z axes.
    pub local_axes: Option<(Vec3, Vec3)>,
    pub external_parent_key: Option<i32>,
    pub ik: Option<Ik>,
    /// Flag 0x1000: deformed in the second pass, after physics.
    pub after_physics: bool,
    /// The PMD bone type (0–9) this bone came from; `None` for PMX.
    pub pmd_type: Option<u8>,
}

/// A morph that moves bones.
#[derive(Clone, Debug, PartialEq)]
pub struct Morph {
    pub name: String,
    pub name_en: String,
    /// As [`Bone::name_cp932`]: the name a VMD morph key carries.
    pub name_cp932: KeyName,
    /// The facial panel (0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other).
    pub panel: u8,
    pub kind: MorphKind,
}

#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MorphKind {
    /// Per-bone offsets, added at weight 1.
    Bone(Vec<BoneOffset>),
    /// Bone morphs driven at `ratio` × this morph's weight. Members that are not bone morphs
    /// (vertex, UV, material morphs) are left out.
    Group(Vec<GroupMember>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneOffset {
    pub bone: usize,
    pub translation: Vec3,
    pub rotation: Quat,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupMember {
    /// Index into [`Model::morphs`]; always a bone morph.
    pub morph: usize,
    pub ratio: f32,
}

/// The CP932 bytes of `name` cut at 15 bytes, as MMD writes a name into a VMD key (the cut may
/// split a double-byte character; unencodable characters become `?`, as Windows writes them).
pub fn key_name(name: &str) -> KeyName {
    let mut bytes = Vec::with_capacity(16);
    for c in name.chars() {
        if bytes.len() > 15 {
            break;
        }
        if c.is_ascii() {
            bytes.push(c as u8);
        } else {
            let (code, len) = cp932_char(c);
            bytes.extend_from_slice(&code[..len]);
        }
    }
    RawName::from_bytes_mmd(&bytes)
}

/// One character's CP932 bytes, as [`TextEncoding::encode`] writes them, remembered: the
/// encoder searches its tables for every kanji, which made names the bulk of a model's parse.
/// Shift_JIS is stateless, so encoding character by character gives the same bytes.
fn cp932_char(c: char) -> ([u8; 2], usize) {
    type Cache = HashMap<char, ([u8; 2], usize)>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(&hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&c) {
        return hit;
    }
    let mut buf = [0u8; 4];
    let encoded = TextEncoding::ShiftJis.encode(c.encode_utf8(&mut buf), 2).bytes;
    let mut code = [0u8; 2];
    code[..encoded.len()].copy_from_slice(&encoded);
    let entry = (code, encoded.len());
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    // Bounded: CP932 has about 7,000 characters; anything beyond is unencodable noise.
    if cache.len() < 16_384 {
        cache.insert(c, entry);
    }
    entry
}

impl Model {
    /// The index of the bone with this name.
    pub fn bone_index(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// The index of the bone a VMD key with this name binds to: the first bone whose
    /// [`Bone::name_cp932`] has the same bytes.
    pub fn bone_for_key(&self, key: &KeyName) -> Option<usize> {
        self.bones.iter().position(|b| b.name_cp932.bytes() == key.bytes())
    }

    /// The index (into [`Model::morphs`]) of the morph a VMD morph key binds to.
    pub fn morph_for_key(&self, key: &KeyName) -> Option<usize> {
        self.morphs.iter().position(|m| m.name_cp932.bytes() == key.bytes())
    }
}
