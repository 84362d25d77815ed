//! The skeleton and bone-moving morphs of a PMX or PMD model, in PMX terms.
//!
//! PMD models are converted on reading to what PMX would say about the same bones (flags,
//! append, fixed axis, IK limits), as the reference implementations do, so that evaluation has
//! one model type to handle.

pub use super::rigid::{Joint, RigidBody, RigidMode, RigidShape};
use crate::text::{KeyName, RawName, TextEncoding};
use glam::{Quat, Vec3};
use std::collections::HashMap;
use std::ops::BitOr;
use std::sync::{Mutex, OnceLock};

/// Which file a model came from.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ModelFormat {
    /// PMX 2.0 or 2.1.
    Pmx {
        /// The header's version number, 2.0 or 2.1.
        version: f32,
        /// The header's text encoding: UTF-8 when true, UTF-16LE when false.
        utf8: bool,
    },
    /// PMD 1.0.
    Pmd {
        /// Whether the file had the optional block of English names.
        english: bool,
    },
    /// A PmxEditor bone-table CSV export: bones and IK links only, no model name or morphs.
    BoneCsv,
}

/// How many records each section had: those skipped were walked and checked; the rigid bodies
/// and joints are also kept, in [`Model::rigid_bodies`] and [`Model::joints`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SectionCounts {
    /// Vertices in the mesh.
    pub vertices: usize,
    /// Face vertex indices (three per triangle).
    pub face_indices: usize,
    /// Texture paths in the texture table (PMD: 0, it names textures per material).
    pub textures: usize,
    /// Materials, each drawing a run of the face indices.
    pub materials: usize,
    /// Every morph in the file, including those [`Model::morphs`] leaves out.
    pub morphs: usize,
    /// Display frames (表示枠), the groups the editor's bone and morph lists show.
    pub display_frames: usize,
    /// Rigid bodies of the physics simulation.
    pub rigid_bodies: usize,
    /// Joints (constraints) between rigid bodies.
    pub joints: usize,
    /// Soft bodies (PMX 2.1 only; 0 otherwise).
    pub soft_bodies: usize,
}

/// A model's bones and the morphs that move them.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Which file format and version the model was read from.
    pub format: ModelFormat,
    /// The model's name, usually Japanese; a VMD made for it carries this in its header.
    pub name: String,
    /// The English model name (empty when the file has none).
    pub name_en: String,
    /// The model's comment (author, terms of use), usually Japanese.
    pub comment: String,
    /// The English comment (empty when the file has none).
    pub comment_en: String,
    /// Every bone in file order; bone indices elsewhere in the model index this.
    pub bones: Vec<Bone>,
    /// Bone morphs, and group morphs with at least one bone-morph member, in file order.
    pub morphs: Vec<Morph>,
    /// Every morph of the file, of every kind, in file order: what `vmdkit info` lists (empty
    /// for a bone CSV). [`Model::morphs`] indexes differ from these.
    pub morph_list: Vec<MorphSummary>,
    /// The physics simulation's rigid bodies, in file order (joints index this).
    pub rigid_bodies: Vec<RigidBody>,
    /// The joints between rigid bodies, in file order.
    pub joints: Vec<Joint>,
    /// Record counts of the sections, most of them read only to be skipped.
    pub counts: SectionCounts,
}

/// PMX bone flags (PMD bones get the flags of their PMX equivalent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoneFlags(pub u16);

impl BoneFlags {
    /// The display tail is a bone index rather than an offset ([`Tail`]).
    pub const TAIL_IS_BONE: BoneFlags = BoneFlags(0x0001);
    /// The bone may be rotated in the editor.
    pub const ROTATABLE: BoneFlags = BoneFlags(0x0002);
    /// The bone may be translated in the editor.
    pub const MOVABLE: BoneFlags = BoneFlags(0x0004);
    /// The editor draws the bone.
    pub const VISIBLE: BoneFlags = BoneFlags(0x0008);
    /// The user can select and pose the bone.
    pub const CONTROLLABLE: BoneFlags = BoneFlags(0x0010);
    /// The bone is an IK bone and carries an [`Ik`] chain.
    pub const IK: BoneFlags = BoneFlags(0x0020);
    /// Append (付与: ローカル) takes the source's local transform; readers disagree (§9.2).
    pub const APPEND_LOCAL: BoneFlags = BoneFlags(0x0080);
    /// Append a share of the source bone's rotation (回転付与).
    pub const APPEND_ROTATION: BoneFlags = BoneFlags(0x0100);
    /// Append a share of the source bone's translation (移動付与).
    pub const APPEND_TRANSLATION: BoneFlags = BoneFlags(0x0200);
    /// Rotation is limited to [`Bone::fixed_axis`] (軸固定).
    pub const FIXED_AXIS: BoneFlags = BoneFlags(0x0400);
    /// The bone has its own axes for editing ([`Bone::local_axes`]); no effect on evaluation.
    pub const LOCAL_AXES: BoneFlags = BoneFlags(0x0800);
    /// Deformed in the second pass, after physics (物理後変形).
    pub const AFTER_PHYSICS: BoneFlags = BoneFlags(0x1000);
    /// Parented to another model's bone by key (外部親変形); no effect on evaluation here.
    pub const EXTERNAL_PARENT: BoneFlags = BoneFlags(0x2000);

    /// True when every bit of `other` is set.
    pub const fn contains(self, other: BoneFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets every bit of `other` when `on`, else clears them.
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
    /// The source bone (付与親), an index into [`Model::bones`].
    pub parent: usize,
    /// The share; may be negative.
    pub ratio: f32,
    /// Flag 0x0100: append the source's rotation, as slerp(identity, source, ratio).
    pub rotation: bool,
    /// Flag 0x0200: append the source's translation times the ratio.
    pub translation: bool,
    /// Flag 0x0080: take the source's local (world, in some readers) transform; see §9.2.
    pub local: bool,
}

/// One link of an IK chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkLink {
    /// The link's bone, an index into [`Model::bones`].
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
    /// The bone's name, usually Japanese, as the model file stores it (VMD keys name this).
    pub name: String,
    /// The English bone name (empty when the file has none).
    pub name_en: String,
    /// The name encoded to CP932 and cut at 15 bytes, as a VMD stores it: bind keys to bones
    /// by comparing these bytes, which also matches names that were cut mid-character.
    pub name_cp932: KeyName,
    /// Rest position in model space (left-handed).
    pub position: Vec3,
    /// Index of the parent in [`Model::bones`]; `None` for a root (−1 in the file).
    pub parent: Option<usize>,
    /// Deform layer (変形階層): bones deform in (layer, index) order.
    pub deform_layer: i32,
    /// The PMX flags, which say which of the optional fields below the record had.
    pub flags: BoneFlags,
    /// Where the editor draws the bone's tail.
    pub tail: Tail,
    /// The append (付与) source, when flag 0x0100 or 0x0200 is set.
    pub append: Option<Append>,
    /// The only axis the bone may rotate about (flag 0x0400), in model space, as stored.
    pub fixed_axis: Option<Vec3>,
    /// Local X and Z axes.
    pub local_axes: Option<(Vec3, Vec3)>,
    /// Flag 0x2000: the key MMD uses to find another model's bone as parent.
    pub external_parent_key: Option<i32>,
    /// The IK chain this bone solves (flag 0x0020).
    pub ik: Option<Ik>,
    /// Flag 0x1000: deformed in the second pass, after physics.
    pub after_physics: bool,
    /// The PMD bone type (0–9) this bone came from; `None` for PMX.
    pub pmd_type: Option<u8>,
}

impl Bone {
    /// A plain bone as an editor makes one: rotatable, visible and controllable, with no tail,
    /// append, fixed axis, IK or English name, in deform layer 0; its VMD key name is `name`
    /// in CP932 cut at 15 bytes ([`key_name`]).
    pub fn new(name: &str, position: Vec3, parent: Option<usize>) -> Bone {
        Bone {
            name: name.to_string(),
            name_en: String::new(),
            name_cp932: key_name(name),
            position,
            parent,
            deform_layer: 0,
            flags: BoneFlags::ROTATABLE | BoneFlags::VISIBLE | BoneFlags::CONTROLLABLE,
            tail: Tail::Bone(None),
            append: None,
            fixed_axis: None,
            local_axes: None,
            external_parent_key: None,
            ik: None,
            after_physics: false,
            pmd_type: None,
        }
    }
}

/// A morph that moves bones.
#[derive(Clone, Debug, PartialEq)]
pub struct Morph {
    /// The morph's name, usually Japanese (VMD morph keys name this).
    pub name: String,
    /// The English morph name (empty when the file has none).
    pub name_en: String,
    /// As [`Bone::name_cp932`]: the name a VMD morph key carries.
    pub name_cp932: KeyName,
    /// The facial panel (0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other).
    pub panel: u8,
    /// What the morph moves.
    pub kind: MorphKind,
}

/// What a morph of the file moves, as PMX numbers its kinds (PMD skins are vertex morphs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MorphType {
    /// Drives other morphs (PMX type 0).
    Group,
    /// Moves vertices (1; every PMD skin).
    Vertex,
    /// Moves bones (2).
    Bone,
    /// Moves texture coordinates (3).
    Uv,
    /// Moves additional UV set 1 to 4 (4–7).
    AdditionalUv(u8),
    /// Changes material colours (8).
    Material,
    /// Drives one of its members at a time (9, PMX 2.1).
    Flip,
    /// Pushes rigid bodies (10, PMX 2.1).
    Impulse,
}

impl MorphType {
    /// The PMX type number of a kind, if it is one.
    pub fn from_pmx(kind: u8) -> Option<MorphType> {
        Some(match kind {
            0 => MorphType::Group,
            1 => MorphType::Vertex,
            2 => MorphType::Bone,
            3 => MorphType::Uv,
            4..=7 => MorphType::AdditionalUv(kind - 3),
            8 => MorphType::Material,
            9 => MorphType::Flip,
            10 => MorphType::Impulse,
            _ => return None,
        })
    }

    /// A snake_case name: `group`, `vertex`, `bone`, `uv`, `additional_uv1`…`additional_uv4`,
    /// `material`, `flip`, `impulse`.
    pub fn name(self) -> &'static str {
        match self {
            MorphType::Group => "group",
            MorphType::Vertex => "vertex",
            MorphType::Bone => "bone",
            MorphType::Uv => "uv",
            MorphType::AdditionalUv(1) => "additional_uv1",
            MorphType::AdditionalUv(2) => "additional_uv2",
            MorphType::AdditionalUv(3) => "additional_uv3",
            MorphType::AdditionalUv(_) => "additional_uv4",
            MorphType::Material => "material",
            MorphType::Flip => "flip",
            MorphType::Impulse => "impulse",
        }
    }
}

/// One morph of the file, of any kind: its names, panel, kind and size.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphSummary {
    /// The morph's name (VMD morph keys name this).
    pub name: String,
    /// The English name (empty when the file has none).
    pub name_en: String,
    /// The facial panel (0 system or PMD's base skin, 1 eyebrow, 2 eye, 3 mouth, 4 other).
    pub panel: u8,
    /// What it moves.
    pub kind: MorphType,
    /// How many offsets (vertices, bones, members, ...) it has, as stored.
    pub offsets: usize,
}

/// What a bone-moving morph does at its weight.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MorphKind {
    /// Per-bone offsets, added at weight 1.
    Bone(Vec<BoneOffset>),
    /// Bone morphs driven at `ratio` × this morph's weight. Members that are not bone morphs
    /// (vertex, UV, material morphs) are left out.
    Group(Vec<GroupMember>),
}

/// One bone's offset in a bone morph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneOffset {
    /// The bone moved, an index into [`Model::bones`].
    pub bone: usize,
    /// Added to the bone's translation, scaled by the morph weight.
    pub translation: Vec3,
    /// Applied to the bone's rotation, slerped from identity by the morph weight.
    pub rotation: Quat,
}

/// One member of a group morph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupMember {
    /// Index into [`Model::morphs`]; always a bone morph.
    pub morph: usize,
    /// The member's weight per unit of the group's weight; may be negative.
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
    /// A model of `bones` alone, named `name`: no morphs, rigid bodies, English names or
    /// comments. What the bone CSV reader and the built-in examples build, and a start for
    /// models built in code (fill the other fields with struct update syntax).
    pub fn from_bones(format: ModelFormat, name: &str, bones: Vec<Bone>) -> Model {
        Model {
            format,
            name: name.to_string(),
            name_en: String::new(),
            comment: String::new(),
            comment_en: String::new(),
            bones,
            morphs: Vec::new(),
            morph_list: Vec::new(),
            rigid_bodies: Vec::new(),
            joints: Vec::new(),
            counts: SectionCounts::default(),
        }
    }

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
