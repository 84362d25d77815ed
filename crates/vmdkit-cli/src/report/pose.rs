//! A posed skeleton as printed by `vmdkit pose --json`:
//! `{"frame", "bones": [{"name", "parent", "position", "rotation"}]}`, bones in model order,
//! `parent` the index of the parent bone in the same list (`null` for a root), as the NPZ of
//! `vmdkit bake --model` holds it.

use serde::Serialize;
use vmdkit::skeleton::{Pose, Skeleton};

/// One bone of a [`PoseDoc`].
#[derive(Clone, Debug, Serialize)]
pub struct PoseBone<'a> {
    /// The bone's name in the model.
    pub name: &'a str,
    /// The index of the parent bone in [`PoseDoc::bones`], `None` for a root.
    pub parent: Option<usize>,
    /// Model-space position, in MMD units.
    pub position: [f32; 3],
    /// Model-space rotation from the bind pose, a unit quaternion (x, y, z, w).
    pub rotation: [f32; 4],
}

/// Every bone of a model, posed at one time.
#[derive(Clone, Debug, Serialize)]
pub struct PoseDoc<'a> {
    /// The time, in frames.
    pub frame: f64,
    /// In the model's bone order.
    pub bones: Vec<PoseBone<'a>>,
}

impl<'a> PoseDoc<'a> {
    /// The document for `pose`, a pose of `skeleton` at `frame`.
    pub fn new(frame: f64, skeleton: &'a Skeleton, pose: &Pose) -> Self {
        let bones = (0..skeleton.bone_count())
            .map(|b| PoseBone {
                name: skeleton.bone_name(b),
                parent: skeleton.parent(b),
                position: pose.position(b).to_array(),
                // Normalised here: posing composes many rotations and lets |q| drift.
                rotation: pose.rotation(b).normalize().to_array(),
            })
            .collect();
        PoseDoc { frame, bones }
    }
}
