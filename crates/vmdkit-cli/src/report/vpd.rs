//! A VPD pose file as `vmdkit info --json POSE.vpd` prints it:
//! `{"path", "kind": "pose", "bytes", "model_file", "model_name", "counts": {"bones", "morphs"},
//! "bones": [{"name", "translation", "rotation"}], "morphs": [{"name", "weight"}]}`, in file
//! order, values as stored (rotations (x, y, z, w), not normalised).

use serde::Serialize;
use vmdkit::model::VpdPose;

/// A pose file (see the module documentation).
#[derive(Clone, Debug, Serialize)]
pub struct PoseFileDoc<'a> {
    /// The file, as given.
    pub path: &'a str,
    /// Always `pose`: what tells this object from a motion's or a model's.
    pub kind: &'static str,
    /// The file's size.
    pub bytes: u64,
    /// The model file the pose names (`初音ミク.osm`).
    pub model_file: &'a str,
    /// The model name a motion made from it carries ([`VpdPose::model_name`]).
    pub model_name: &'a str,
    /// How many bones and morphs it poses.
    pub counts: PoseCounts,
    /// Each bone's pose.
    pub bones: Vec<PoseFileBone<'a>>,
    /// Each morph's weight.
    pub morphs: Vec<PoseFileMorph<'a>>,
}

/// The counts of a [`PoseFileDoc`].
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PoseCounts {
    /// Bone entries (as many as the file declares).
    pub bones: usize,
    /// Morph entries.
    pub morphs: usize,
}

/// One bone of a [`PoseFileDoc`].
#[derive(Clone, Debug, Serialize)]
pub struct PoseFileBone<'a> {
    /// The bone's name.
    pub name: &'a str,
    /// Offset from the rest position.
    pub translation: [f32; 3],
    /// Local rotation (x, y, z, w) as stored.
    pub rotation: [f32; 4],
}

/// One morph of a [`PoseFileDoc`].
#[derive(Clone, Debug, Serialize)]
pub struct PoseFileMorph<'a> {
    /// The morph's name.
    pub name: &'a str,
    /// Its weight.
    pub weight: f32,
}

impl<'a> PoseFileDoc<'a> {
    /// The document of `pose`, read from `path` (`bytes` long).
    pub fn new(path: &'a str, bytes: u64, pose: &'a VpdPose) -> Self {
        PoseFileDoc {
            path,
            kind: "pose",
            bytes,
            model_file: &pose.model_file,
            model_name: pose.model_name(),
            counts: PoseCounts { bones: pose.bones.len(), morphs: pose.morphs.len() },
            bones: pose
                .bones
                .iter()
                .map(|b| PoseFileBone {
                    name: &b.name,
                    translation: b.translation.to_array(),
                    rotation: b.rotation.to_array(),
                })
                .collect(),
            morphs: pose
                .morphs
                .iter()
                .map(|(name, weight)| PoseFileMorph { name, weight: *weight })
                .collect(),
        }
    }
}
