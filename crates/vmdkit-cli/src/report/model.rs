//! A model as `vmdkit info --json MODEL.pmx` prints it: one object with the model's names,
//! section counts, every bone (parent, flags, append, IK chain) and every morph.
//!
//! The shape is stable; fields are only ever added:
//!
//! ```text
//! {"path", "kind": "model", "format": "pmx"|"pmd"|"bone_csv", "version" (PMX 2.0/2.1, PMD 1.0;
//!  null for a CSV), "encoding": "utf-16le"|"utf-8"|"shift_jis", "name", "name_en", "comment",
//!  "comment_en",
//!  "counts": {"vertices", "faces", "materials", "textures", "bones", "morphs", "display_frames",
//!             "rigid_bodies", "joints", "soft_bodies", "ik_chains"},
//!  "bones": [{"index", "name", "name_en", "parent", "parent_name", "position", "deform_layer",
//!             "flags": ["rotatable", "translatable", ...], "flag_bits",
//!             "append": null | {"source", "source_name", "ratio", "rotation", "translation",
//!                               "local"},
//!             "fixed_axis": null | [x, y, z],
//!             "ik": null | {"target", "target_name", "loop_count", "limit_angle_deg",
//!                           "links": [{"bone", "name", "limits": null |
//!                                      {"min_deg": [x, y, z], "max_deg": [x, y, z]}}]}}],
//!  "morphs": [{"index", "name", "name_en", "panel", "kind", "offsets"}],
//!  "rigid_bodies": [...], "joints": [...], "physics_problems": ["...", ...]}
//! ```
//!
//! `model_physics.rs` documents the rigid bodies, joints and problems.
//!
//! Flag names, in bit order: `tail_is_bone`, `rotatable`, `translatable`, `visible`,
//! `controllable`, `ik`, `append_local`, `append_rotation`, `append_translation`, `fixed_axis`,
//! `local_axes`, `after_physics`, `external_parent`. Angles are in degrees (the file stores
//! radians). Bone indices are positions in `bones`, morph indices positions in `morphs`, as the
//! file numbers them.

use super::model_physics::{JointDoc, RigidBodyDoc};
use serde::Serialize;
use vmdkit::model::{BoneFlags, Model, ModelFormat};

/// The flag names of [`ModelBone::flags`], with their bits.
pub const BONE_FLAG_NAMES: [(BoneFlags, &str); 13] = [
    (BoneFlags::TAIL_IS_BONE, "tail_is_bone"),
    (BoneFlags::ROTATABLE, "rotatable"),
    (BoneFlags::MOVABLE, "translatable"),
    (BoneFlags::VISIBLE, "visible"),
    (BoneFlags::CONTROLLABLE, "controllable"),
    (BoneFlags::IK, "ik"),
    (BoneFlags::APPEND_LOCAL, "append_local"),
    (BoneFlags::APPEND_ROTATION, "append_rotation"),
    (BoneFlags::APPEND_TRANSLATION, "append_translation"),
    (BoneFlags::FIXED_AXIS, "fixed_axis"),
    (BoneFlags::LOCAL_AXES, "local_axes"),
    (BoneFlags::AFTER_PHYSICS, "after_physics"),
    (BoneFlags::EXTERNAL_PARENT, "external_parent"),
];

/// A model, as `vmdkit info` reports it (see the module documentation for the JSON).
#[derive(Clone, Debug, Serialize)]
pub struct ModelDoc<'a> {
    /// The file, as given.
    pub path: &'a str,
    /// Always `model`: what tells this object from a motion's or a pose's.
    pub kind: &'static str,
    /// `pmx`, `pmd` or `bone_csv`.
    pub format: &'static str,
    /// The format version (2.0 or 2.1 for PMX, 1.0 for PMD), `None` for a bone CSV.
    pub version: Option<f32>,
    /// How the file's text is encoded.
    pub encoding: &'static str,
    /// The model's name.
    pub name: &'a str,
    /// The English name.
    pub name_en: &'a str,
    /// The comment.
    pub comment: &'a str,
    /// The English comment.
    pub comment_en: &'a str,
    /// Record counts.
    pub counts: ModelCounts,
    /// Every bone, in file order.
    pub bones: Vec<ModelBone<'a>>,
    /// Every morph, in file order.
    pub morphs: Vec<ModelMorph<'a>>,
    /// Every rigid body, in file order.
    pub rigid_bodies: Vec<RigidBodyDoc<'a>>,
    /// Every joint, in file order.
    pub joints: Vec<JointDoc<'a>>,
    /// What a simulation cannot use ([`Model::physics_problems`]), as messages.
    pub physics_problems: Vec<String>,
}

/// The sections' record counts of a [`ModelDoc`].
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ModelCounts {
    /// Vertices.
    pub vertices: usize,
    /// Triangles (face indices / 3).
    pub faces: usize,
    /// Materials.
    pub materials: usize,
    /// Texture paths (PMX; PMD names textures per material).
    pub textures: usize,
    /// Bones (a PMD bone with two IK chains counts twice, as the second chain's copy is kept).
    pub bones: usize,
    /// Morphs of every kind.
    pub morphs: usize,
    /// Display frames.
    pub display_frames: usize,
    /// Rigid bodies.
    pub rigid_bodies: usize,
    /// Joints.
    pub joints: usize,
    /// Soft bodies (PMX 2.1).
    pub soft_bodies: usize,
    /// Bones with an IK chain.
    pub ik_chains: usize,
}

/// One bone of a [`ModelDoc`].
#[derive(Clone, Debug, Serialize)]
pub struct ModelBone<'a> {
    /// Its index in the bone list.
    pub index: usize,
    /// The bone's name (VMD keys name this).
    pub name: &'a str,
    /// The English name.
    pub name_en: &'a str,
    /// The parent's index, `None` for a root.
    pub parent: Option<usize>,
    /// The parent's name.
    pub parent_name: Option<&'a str>,
    /// Rest position in model space.
    pub position: [f32; 3],
    /// Deform layer (変形階層).
    pub deform_layer: i32,
    /// The flags that are set, by name ([`BONE_FLAG_NAMES`]).
    pub flags: Vec<&'static str>,
    /// The flags as stored.
    pub flag_bits: u16,
    /// Append (付与): a share of another bone's rotation and/or translation.
    pub append: Option<AppendDoc<'a>>,
    /// The only axis the bone rotates about.
    pub fixed_axis: Option<[f32; 3]>,
    /// The IK chain this bone solves.
    pub ik: Option<IkDoc<'a>>,
}

/// A bone's append source.
#[derive(Clone, Debug, Serialize)]
pub struct AppendDoc<'a> {
    /// The source bone's index.
    pub source: usize,
    /// The source bone's name.
    pub source_name: &'a str,
    /// The share appended; may be negative.
    pub ratio: f32,
    /// Whether rotation is appended.
    pub rotation: bool,
    /// Whether translation is appended.
    pub translation: bool,
    /// Whether the source's local transform is taken.
    pub local: bool,
}

/// An IK chain.
#[derive(Clone, Debug, Serialize)]
pub struct IkDoc<'a> {
    /// The end effector's index.
    pub target: usize,
    /// The end effector's name.
    pub target_name: &'a str,
    /// Iterations.
    pub loop_count: i32,
    /// Largest rotation per link and iteration, in degrees.
    pub limit_angle_deg: f32,
    /// The links, from the effector's parent towards the root.
    pub links: Vec<IkLinkDoc<'a>>,
}

/// One link of an [`IkDoc`].
#[derive(Clone, Debug, Serialize)]
pub struct IkLinkDoc<'a> {
    /// The link bone's index.
    pub bone: usize,
    /// The link bone's name.
    pub name: &'a str,
    /// Euler angle limits in degrees.
    pub limits: Option<AngleLimits>,
}

/// Per-axis angle limits, in degrees.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct AngleLimits {
    /// Lower limits (x, y, z).
    pub min_deg: [f32; 3],
    /// Upper limits (x, y, z).
    pub max_deg: [f32; 3],
}

/// One morph of a [`ModelDoc`].
#[derive(Clone, Debug, Serialize)]
pub struct ModelMorph<'a> {
    /// Its index in the morph list.
    pub index: usize,
    /// The morph's name (VMD morph keys name this).
    pub name: &'a str,
    /// The English name.
    pub name_en: &'a str,
    /// The facial panel (0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other).
    pub panel: u8,
    /// What it moves ([`MorphType::name`](vmdkit::model::MorphType::name)).
    pub kind: &'static str,
    /// How many offsets it has.
    pub offsets: usize,
}

/// The panel's name: `system` (PMD: the base skin), `eyebrow`, `eye`, `mouth` or `other`.
pub fn panel_name(panel: u8) -> &'static str {
    match panel {
        0 => "system",
        1 => "eyebrow",
        2 => "eye",
        3 => "mouth",
        _ => "other",
    }
}

fn degrees(v: glam::Vec3) -> [f32; 3] {
    (v * (180.0 / std::f32::consts::PI)).to_array()
}

impl<'a> ModelDoc<'a> {
    /// The document of `model`, read from `path`.
    pub fn new(path: &'a str, model: &'a Model) -> Self {
        let (format, version, encoding) = match model.format {
            ModelFormat::Pmx { version, utf8 } => {
                ("pmx", Some(version), if utf8 { "utf-8" } else { "utf-16le" })
            }
            ModelFormat::Pmd { .. } => ("pmd", Some(1.0), "shift_jis"),
            ModelFormat::BoneCsv => ("bone_csv", None, "utf-8"),
            // A format added to the library later, unknown to this document.
            _ => ("unknown", None, "unknown"),
        };
        let name = |i: usize| model.bones.get(i).map_or("", |b| b.name.as_str());
        let bones = model
            .bones
            .iter()
            .enumerate()
            .map(|(index, b)| ModelBone {
                index,
                name: &b.name,
                name_en: &b.name_en,
                parent: b.parent,
                parent_name: b.parent.map(name),
                position: b.position.to_array(),
                deform_layer: b.deform_layer,
                flags: BONE_FLAG_NAMES
                    .iter()
                    .filter(|(bit, _)| b.flags.contains(*bit))
                    .map(|(_, n)| *n)
                    .collect(),
                flag_bits: b.flags.0,
                append: b.append.map(|a| AppendDoc {
                    source: a.parent,
                    source_name: name(a.parent),
                    ratio: a.ratio,
                    rotation: a.rotation,
                    translation: a.translation,
                    local: a.local,
                }),
                fixed_axis: b.fixed_axis.map(|v| v.to_array()),
                ik: b.ik.as_ref().map(|ik| IkDoc {
                    target: ik.target,
                    target_name: name(ik.target),
                    loop_count: ik.loop_count,
                    limit_angle_deg: ik.limit_angle.to_degrees(),
                    links: ik
                        .links
                        .iter()
                        .map(|l| IkLinkDoc {
                            bone: l.bone,
                            name: name(l.bone),
                            limits: l.limits.map(|(min, max)| AngleLimits {
                                min_deg: degrees(min),
                                max_deg: degrees(max),
                            }),
                        })
                        .collect(),
                }),
            })
            .collect();
        let morphs = model
            .morph_list
            .iter()
            .enumerate()
            .map(|(index, m)| ModelMorph {
                index,
                name: &m.name,
                name_en: &m.name_en,
                panel: m.panel,
                kind: m.kind.name(),
                offsets: m.offsets,
            })
            .collect();
        let c = &model.counts;
        ModelDoc {
            path,
            kind: "model",
            format,
            version,
            encoding,
            name: &model.name,
            name_en: &model.name_en,
            comment: &model.comment,
            comment_en: &model.comment_en,
            counts: ModelCounts {
                vertices: c.vertices,
                faces: c.face_indices / 3,
                materials: c.materials,
                textures: c.textures,
                bones: model.bones.len(),
                morphs: model.morph_list.len(),
                display_frames: c.display_frames,
                rigid_bodies: c.rigid_bodies,
                joints: c.joints,
                soft_bodies: c.soft_bodies,
                ik_chains: model.bones.iter().filter(|b| b.ik.is_some()).count(),
            },
            bones,
            morphs,
            rigid_bodies: model
                .rigid_bodies
                .iter()
                .enumerate()
                .map(|(i, b)| RigidBodyDoc::new(i, b))
                .collect(),
            joints: model.joints.iter().enumerate().map(|(i, j)| JointDoc::new(i, j)).collect(),
            physics_problems: model.physics_problems().iter().map(|p| p.to_string()).collect(),
        }
    }
}
