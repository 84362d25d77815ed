//! Bones as nodes with a skin; `animation.rs` moves them.

use super::buffer::Builder;
use super::{GltfError, GltfNote};
use crate::model::Model;
use crate::skeleton::{Axes, Skeleton};
use glam::{Quat, Vec3};
use gltf_json as json;
use json::{Index, Node};

/// Where the skeleton went in the document.
pub(super) struct WrittenSkeleton {
    /// The node holding every root bone, named after the model.
    pub root: Index<Node>,
    /// Bone i's node.
    pub joints: Vec<Index<Node>>,
    /// Each bone's rest position, converted (for inverse bind matrices).
    pub rest: Vec<Vec3>,
}

/// MMD's model space to glTF's: mirrored Z, scaled.
pub(super) fn position(p: Vec3, scale: f32) -> Vec3 {
    Axes::RightHandedYUp.position(p) * scale
}

pub(super) fn rotation(q: Quat) -> Quat {
    Axes::RightHandedYUp.rotation(q)
}

/// `name`, or `what_index` when it did not decode; counts the replacements.
pub(super) fn display_name(name: &str, what: &str, index: usize, fallbacks: &mut usize) -> String {
    if name.is_empty() || name.contains(char::REPLACEMENT_CHARACTER) {
        *fallbacks += 1;
        format!("{what}_{index}")
    } else {
        name.to_string()
    }
}

/// One node per bone under a root named after the model. Parents are the skeleton's, which
/// are the model's except where a damaged file's parent cycle was cut.
pub(super) fn write_nodes(
    b: &mut Builder,
    model: &Model,
    skeleton: &Skeleton,
    scale: f32,
    notes: &mut Vec<GltfNote>,
) -> Result<WrittenSkeleton, GltfError> {
    let count = model.bones.len();
    if count > usize::from(u16::MAX) + 1 {
        return Err(GltfError::TooManyBones { count });
    }
    let rest: Vec<Vec3> = model.bones.iter().map(|bone| position(bone.position, scale)).collect();
    let mut children: Vec<Vec<Index<Node>>> = vec![Vec::new(); count];
    let mut roots = Vec::new();
    for i in 0..count {
        match skeleton.parent(i) {
            Some(p) => children[p].push(Index::new(i as u32)),
            None => roots.push(Index::new(i as u32)),
        }
    }
    let mut fallbacks = 0;
    let mut joints = Vec::with_capacity(count);
    for (i, (bone, kids)) in model.bones.iter().zip(children).enumerate() {
        let parent_rest = skeleton.parent(i).map_or(Vec3::ZERO, |p| rest[p]);
        joints.push(b.root.push(Node {
            name: Some(display_name(&bone.name, "bone", i, &mut fallbacks)),
            translation: Some((rest[i] - parent_rest).to_array()),
            children: (!kids.is_empty()).then_some(kids),
            ..Node::default()
        }));
    }
    if fallbacks > 0 {
        notes.push(GltfNote::FallbackNames { what: "bone", count: fallbacks });
    }
    let name = if model.name.is_empty() { "model".to_string() } else { model.name.clone() };
    let root = b.root.push(Node {
        name: Some(name),
        children: (!roots.is_empty()).then_some(roots),
        ..Node::default()
    });
    Ok(WrittenSkeleton { root, joints, rest })
}
