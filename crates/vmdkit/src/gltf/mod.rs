//! glTF 2.0 export: a model's skeleton, mesh and a motion (and a camera) as one binary `.glb`
//! that engines and Blender load.
//!
//! ```
//! use vmdkit::gltf::{to_glb, GltfInput, GltfOptions};
//!
//! let model = vmdkit::example::example_model();
//! let motion = vmdkit::example::example_motion();
//! let input = GltfInput { model: &model, mesh: None, motion: Some(&motion), camera: None };
//! let export = to_glb(&input, &GltfOptions::default())?;
//! assert_eq!(&export.glb[..4], b"glTF");
//! # Ok::<(), vmdkit::gltf::GltfError>(())
//! ```
//!
//! **Conventions** (docs/gltf.md has them at length):
//!
//! * Axes and units: right-handed, Y up, metres. MMD's left-handed axes are mirrored in Z
//!   (p → (x, y, −z) × [`METRES_PER_UNIT`], q → (−x, −y, z, w)), as
//!   [`Axes::RightHandedYUp`](crate::skeleton::Axes) does; models face +Z, as glTF wants.
//!   Triangles are reversed so that their front stays the front.
//! * Skeleton: one node per bone, in bone order (node i is bone i), each at its rest offset
//!   from its parent with no rest rotation (MMD bones have none), under one root node named
//!   after the model; a skin over every bone with inverse bind matrices `translate(−rest)`.
//! * Animation: one, sampling every bone's local translation and rotation at 30 fps (every
//!   MMD frame) from frame 0 through the motion's last key, LINEAR, posed by
//!   [`crate::skeleton`] with IK, append and bone morphs baked in: each bone's local transform
//!   is the one that reproduces its posed model-space transform under its parent's. Rotations
//!   are unit quaternions, each on the same side as the previous sample's so that slerp takes
//!   the short way. Vertex morph weights (direct keys plus group morphs' shares) are sampled
//!   the same way.
//! * Mesh: one primitive per material with faces; BDEF1/2/4 weights as they are, SDEF and QDEF
//!   as their linear blend ([`GltfNote::ApproximatedWeights`]); vertex morphs as morph targets
//!   (sparse accessors) named in the mesh's `extras.targetNames`.
//! * Camera: a node whose translation and rotation follow MMD's camera, sampled at every frame
//!   and on both sides of each cut; `yfov` is the first sample's field of view (core glTF
//!   cannot animate it, [`GltfNote::FixedFieldOfView`]).

mod animation;
mod buffer;
mod camera;
mod mesh;
mod skeleton;
mod texture_file;
mod textures;

#[cfg(test)]
mod tests;

pub use texture_file::{TextureAccess, DEFAULT_MAX_TEXTURE_BYTES};
pub use textures::Textures;

use crate::limit::{ByteSize, OutputTooLarge, DEFAULT_MAX_OUTPUT_BYTES};
use crate::model::{Mesh, Model, WeightKind};
use crate::shown::Shown;
use crate::skeleton::PoseOptions;
use crate::Motion;
use std::path::PathBuf;

pub use crate::skeleton::METRES_PER_UNIT;

/// Samples per second of the animation: every MMD frame.
pub const FPS: f64 = 30.0;

/// The longest animation, in frames, whose 32-bit times (seconds) still tell every frame, and
/// the instant before a camera cut, apart: 2²² frames, about 38.8 hours.
pub const MAX_FRAMES: u64 = 1 << 22;

fn check_frames(frames: u64) -> Result<(), GltfError> {
    if frames > MAX_FRAMES {
        return Err(GltfError::TooLong { frames });
    }
    Ok(())
}

/// What to export.
#[derive(Clone, Copy, Debug)]
pub struct GltfInput<'a> {
    /// The model: its bones become the skeleton.
    pub model: &'a Model,
    /// The model's mesh ([`Mesh::parse`] of the same file), or `None` for the skeleton alone.
    pub mesh: Option<&'a Mesh>,
    /// The motion to animate the skeleton and morphs with; `None` for the rest pose.
    pub motion: Option<&'a Motion>,
    /// A camera motion: its camera keys drive a camera node.
    pub camera: Option<&'a Motion>,
}

/// How to export.
#[derive(Clone, Debug)]
pub struct GltfOptions {
    /// Metres per MMD unit ([`METRES_PER_UNIT`]).
    pub scale: f64,
    /// How each frame is posed (IK variant, IK on or off).
    pub pose: PoseOptions,
    /// What to do with the materials' textures.
    pub textures: Textures,
    /// Which texture files may be read: the model's texture paths are untrusted.
    pub texture_access: TextureAccess,
    /// The largest animation allowed, in bytes of its samples (bones × 7 floats per frame, as
    /// [`crate::bake::world_bake_size`] counts them), checked before sampling.
    pub max_output_bytes: u64,
}

impl Default for GltfOptions {
    fn default() -> Self {
        GltfOptions {
            scale: METRES_PER_UNIT,
            pose: PoseOptions::default(),
            textures: Textures::Skip,
            texture_access: TextureAccess::default(),
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }
}

/// A written GLB and what the export had to leave out or approximate.
#[derive(Clone, Debug)]
pub struct GltfExport {
    /// The `.glb` file's bytes.
    pub glb: Vec<u8>,
    /// What was skipped or approximated, for the user to hear about.
    pub notes: Vec<GltfNote>,
}

/// Something the export skipped or approximated; never fatal.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum GltfNote {
    /// A texture was not written: missing, unreadable, not a regular file (a device, a named
    /// pipe, a folder), or not PNG or JPEG (the only image formats core glTF has). Its
    /// materials keep their colour.
    TextureSkipped {
        /// The texture's path as the model names it.
        path: String,
        /// Why.
        reason: String,
    },
    /// A texture was not read: its path resolves outside the model's folder (`..`, an absolute
    /// path, or a link leaving it), and [`TextureAccess::allow_outside`] is off. Its materials
    /// keep their colour.
    TextureOutside {
        /// The texture's path as the model names it.
        path: String,
        /// Where it resolves to, links followed.
        resolved: PathBuf,
    },
    /// A texture to embed was larger than [`TextureAccess::max_bytes`] and left out.
    TextureTooLarge {
        /// The texture's path as the model names it.
        path: String,
        /// Its size (at least), in bytes.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// Vertices whose deformation glTF cannot express were written as their linear blend.
    ApproximatedWeights {
        /// SDEF or QDEF.
        kind: WeightKind,
        /// How many vertices.
        count: usize,
    },
    /// Names that did not decode (a replacement character, or empty) were replaced by
    /// `bone_N` or `morph_N`, N the index, so that they are stable across exports.
    FallbackNames {
        /// `"bone"` or `"morph"`.
        what: &'static str,
        /// How many.
        count: usize,
    },
    /// The camera's field of view is fixed at the first sample's: core glTF cannot animate
    /// `yfov`. Present only when the motion changes it.
    FixedFieldOfView {
        /// The field of view written, in degrees.
        degrees: f32,
        /// The range the motion's keys span, in degrees.
        keyed: (f32, f32),
    },
    /// The camera motion's orthographic keys were written as perspective.
    OrthographicCamera,
    /// Morph tracks of the motion that name no morph of the model (vertex, group or bone): they
    /// move nothing. Only reported when the mesh is exported.
    UnboundMorphTracks {
        /// The tracks' names, decoded as CP932.
        names: Vec<String>,
    },
    /// The motion keys a PMD's base morph (its first skin, which `info` lists as morph 0): it
    /// holds the rest shape the other skins are relative to and is not animatable, so its keys
    /// move nothing (MMD ignores them too). Only reported when the mesh is exported.
    PmdBaseMorphTrack {
        /// The base morph's name (usually `base`).
        name: String,
    },
}

impl std::fmt::Display for GltfNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GltfNote::TextureSkipped { path, reason } => {
                write!(f, "texture {} left out: {reason}", Shown(path))
            }
            GltfNote::TextureOutside { path, resolved } => write!(
                f,
                "texture {} left out: it resolves to {}, outside the model's folder (a \
                 model's texture paths are not trusted to leave it)",
                Shown(path),
                Shown(&resolved.display().to_string())
            ),
            GltfNote::TextureTooLarge { path, bytes, limit } => write!(
                f,
                "texture {} left out: {} is over the limit of {} for an embedded texture",
                Shown(path),
                ByteSize(*bytes),
                ByteSize(*limit)
            ),
            GltfNote::ApproximatedWeights { kind, count } => write!(
                f,
                "{count} {} vertices written as their linear blend (glTF skins blend linearly)",
                kind.name()
            ),
            GltfNote::FallbackNames { what, count } => {
                write!(f, "{count} {what} names did not decode and were named {what}_N")
            }
            GltfNote::FixedFieldOfView { degrees, keyed: (lo, hi) } => write!(
                f,
                "camera field of view fixed at {degrees}° (keys span {lo}°..{hi}°; glTF cannot \
                 animate it)"
            ),
            GltfNote::OrthographicCamera => {
                write!(f, "orthographic camera keys written as a perspective camera")
            }
            GltfNote::UnboundMorphTracks { names } => {
                let shown = names.iter().take(8).cloned().collect::<Vec<_>>().join(", ");
                let more = names.len().saturating_sub(8);
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                write!(f, "{} morph tracks name no morph of the model: {shown}{more}", names.len())
            }
            GltfNote::PmdBaseMorphTrack { name } => write!(
                f,
                "the motion keys the PMD's base morph {}, which is not animatable (it holds the \
                 rest shape the other morphs are relative to); those keys move nothing",
                Shown(name)
            ),
        }
    }
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GltfError {
    /// The animation would be larger than [`GltfOptions::max_output_bytes`].
    #[error(transparent)]
    TooLarge(#[from] OutputTooLarge),
    /// The camera animation would be larger than [`GltfOptions::max_output_bytes`].
    #[error(
        "the camera animation of {frames} frames would be {bytes} bytes, over the limit of \
         {limit}; frame numbers far beyond the rest are the usual cause"
    )]
    CameraTooLarge {
        /// Samples, one per frame from 0 through the last camera key.
        frames: u64,
        /// Their size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// An animation too long for glTF's 32-bit float times to tell one frame from the next.
    #[error(
        "an animation of {frames} frames is too long for glTF: its 32-bit times cannot tell \
         frames apart beyond {MAX_FRAMES} (38 hours)"
    )]
    TooLong {
        /// Frames from 0 through the last key.
        frames: u64,
    },
    /// More bones than glTF's 16-bit joint indices can address.
    #[error("the model has {count} bones; glTF skins address at most 65,536 joints")]
    TooManyBones {
        /// The model's bone count.
        count: usize,
    },
    /// The mesh has a bone index the model does not (mesh and model from different files).
    #[error("the mesh weights bone {bone}, but the model has {count} bones")]
    MeshMismatch {
        /// The bone index.
        bone: u32,
        /// The model's bone count.
        count: usize,
    },
    /// The options are unusable.
    #[error("bad glTF export option: {0}")]
    BadOption(String),
    /// The document could not be serialised (not expected).
    #[error("writing the glTF JSON: {0}")]
    Json(#[from] gltf_json::Error),
}

/// Exports `input` as a GLB.
pub fn to_glb(input: &GltfInput, options: &GltfOptions) -> Result<GltfExport, GltfError> {
    if !(options.scale.is_finite() && options.scale > 0.0) {
        return Err(GltfError::BadOption(format!("scale {} is not positive", options.scale)));
    }
    let mut notes = Vec::new();
    let mut b = buffer::Builder::new();
    b.root.asset.generator = Some(format!("vmdkit {}", env!("CARGO_PKG_VERSION")));
    let scale = options.scale as f32;
    let bones = crate::skeleton::Skeleton::new(input.model);
    let nodes = skeleton::write_nodes(&mut b, input.model, &bones, scale, &mut notes)?;
    let mut scene_nodes = vec![nodes.root];
    let mut animation = animation::AnimationParts::default();
    let mesh = match input.mesh {
        Some(m) => mesh::write(&mut b, m, input.model, &nodes, scale, options, &mut notes)?,
        None => None,
    };
    if let Some(written) = &mesh {
        scene_nodes.push(written.node);
    }
    if let Some(motion) = input.motion {
        let note = animation::animate(
            &mut b,
            &bones,
            motion,
            &nodes,
            mesh.as_ref(),
            options,
            &mut animation,
        )?;
        let note = note.and_then(|n| pmd_base_apart(input.model, n, &mut notes));
        notes.extend(note);
    }
    if let Some(camera) = input.camera {
        let limit = options.max_output_bytes;
        scene_nodes.push(camera::write(&mut b, camera, scale, &mut animation, &mut notes, limit)?);
    }
    animation.finish(&mut b);
    let scene = b.root.push(gltf_json::Scene {
        extensions: None,
        extras: Default::default(),
        name: None,
        nodes: scene_nodes,
    });
    b.root.scene = Some(scene);
    Ok(GltfExport { glb: b.into_glb()?, notes })
}

/// `note` without the track of a PMD's base morph, which gets a note of its own
/// ([`GltfNote::PmdBaseMorphTrack`]) pushed onto `notes`: it is a morph of the model, and
/// "names no morph of the model" would contradict `info`. None when nothing else is left.
fn pmd_base_apart(
    model: &crate::model::Model,
    note: GltfNote,
    notes: &mut Vec<GltfNote>,
) -> Option<GltfNote> {
    let GltfNote::UnboundMorphTracks { mut names } = note else { return Some(note) };
    let base = match (&model.format, model.morph_list.first()) {
        (crate::model::ModelFormat::Pmd { .. }, Some(base)) => &base.name,
        _ => return Some(GltfNote::UnboundMorphTracks { names }),
    };
    if let Some(at) = names.iter().position(|n| n == base) {
        names.remove(at);
        notes.push(GltfNote::PmdBaseMorphTrack { name: base.clone() });
    }
    (!names.is_empty()).then_some(GltfNote::UnboundMorphTracks { names })
}

/// The default texture folder of a model file: its own.
pub fn model_dir(model_path: &std::path::Path) -> PathBuf {
    model_path.parent().map(PathBuf::from).unwrap_or_default()
}
