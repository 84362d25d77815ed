//! The model's mesh: one primitive per material over shared vertex attributes, a skin over
//! the bone nodes, materials and textures, and vertex morphs as morph targets.

use super::buffer::{bounds, to_bytes, Builder, Usage};
use super::skeleton::{display_name, position, WrittenSkeleton};
use super::{textures, GltfError, GltfNote, GltfOptions};
use crate::eval::MotionSampler;
use crate::model::{Mesh, Model, VertexWeights, WeightKind};
use crate::text::KeyName;
use glam::{Mat4, Vec3};
use gltf_json as json;
use json::accessor::{sparse, ComponentType, IndexComponentType, Type};
use json::material::{AlphaMode, PbrBaseColorFactor, PbrMetallicRoughness, StrengthFactor};
use json::mesh::{MorphTarget, Primitive, Semantic};
use json::validation::{Checked, USize64};
use json::{Accessor, Index, Node};
use std::collections::BTreeMap;

/// The mesh as written: its node, and how VMD morph keys drive its targets.
pub(super) struct WrittenMesh {
    pub node: Index<Node>,
    pub morphs: MorphTargets,
}

/// Which morph names drive which targets: target i is vertex morph i; a group morph drives
/// its members at their ratios.
pub(super) struct MorphTargets {
    /// (VMD key name, [(target, ratio)]) for every vertex and group morph.
    drivers: Vec<(KeyName, Vec<(usize, f32)>)>,
    targets: usize,
}

impl MorphTargets {
    pub fn target_count(&self) -> usize {
        self.targets
    }

    /// For each of `sampler`'s morph tracks, the targets it drives.
    pub fn bind(&self, sampler: &MotionSampler) -> Vec<Vec<(usize, f32)>> {
        sampler
            .morph_names()
            .map(|name| {
                let mut driven = Vec::new();
                for (key, targets) in &self.drivers {
                    if key.bytes() == name {
                        driven.extend_from_slice(targets);
                    }
                }
                driven
            })
            .collect()
    }
}

/// Every target's weight from the tracks' sampled weights, through `bound` ([`MorphTargets::bind`]).
pub(super) fn target_weights(bound: &[Vec<(usize, f32)>], tracks: &[f32], out: &mut [f32]) {
    out.fill(0.0);
    for (driven, &weight) in bound.iter().zip(tracks) {
        for &(target, ratio) in driven {
            out[target] += ratio * weight;
        }
    }
}

fn finite(v: Vec3) -> Vec3 {
    if v.is_finite() {
        v
    } else {
        Vec3::ZERO
    }
}

/// Up to four distinct bones with positive weights summing to 1; unused slots bone 0 weight 0.
fn normalised(w: &VertexWeights) -> ([u16; 4], [f32; 4]) {
    let mut pairs: Vec<(u32, f32)> = Vec::with_capacity(4);
    for (&bone, &weight) in w.bones.iter().zip(&w.weights) {
        if !(weight.is_finite() && weight > 0.0) {
            continue;
        }
        match pairs.iter_mut().find(|(b, _)| *b == bone) {
            Some(pair) => pair.1 += weight,
            None => pairs.push((bone, weight)),
        }
    }
    if pairs.is_empty() {
        pairs.push((w.bones[0], 1.0));
    }
    pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
    let total: f32 = pairs.iter().map(|p| p.1).sum();
    let (mut bones, mut weights) = ([0u16; 4], [0f32; 4]);
    for (i, (bone, weight)) in pairs.iter().enumerate() {
        bones[i] = *bone as u16;
        weights[i] = weight / total;
    }
    // The largest takes the rounding, so that the sum is 1 in f32.
    weights[0] = 1.0 - weights[1..].iter().sum::<f32>();
    (bones, weights)
}

pub(super) fn write(
    b: &mut Builder,
    mesh: &Mesh,
    model: &Model,
    written: &WrittenSkeleton,
    scale: f32,
    options: &GltfOptions,
    notes: &mut Vec<GltfNote>,
) -> Result<Option<WrittenMesh>, GltfError> {
    let bone_count = model.bones.len();
    if let Some(bad) = mesh.weights.iter().flat_map(|w| w.bones).find(|&b| b as usize >= bone_count)
    {
        return Err(GltfError::MeshMismatch { bone: bad, count: bone_count });
    }
    let drawn: Vec<(usize, usize, usize)> = material_ranges(mesh);
    if drawn.is_empty() || bone_count == 0 {
        return Ok(None);
    }
    for (kind, count) in mesh.weight_kind_counts() {
        if matches!(kind, WeightKind::Sdef | WeightKind::Qdef) {
            notes.push(GltfNote::ApproximatedWeights { kind, count });
        }
    }

    let positions: Vec<[f32; 3]> =
        mesh.positions.iter().map(|&p| position(finite(p), scale).to_array()).collect();
    let normals: Vec<[f32; 3]> = mesh
        .normals
        .iter()
        .map(|&n| position(finite(n), 1.0).normalize_or(Vec3::Y).to_array())
        .collect();
    let uvs: Vec<[f32; 2]> =
        mesh.uvs.iter().map(|uv| if uv.is_finite() { uv.to_array() } else { [0.0; 2] }).collect();
    let (joints, weights): (Vec<[u16; 4]>, Vec<[f32; 4]>) =
        mesh.weights.iter().map(normalised).unzip();

    let mut attributes = BTreeMap::new();
    attributes
        .insert(Checked::Valid(Semantic::Positions), b.floats(&positions, Usage::Vertices, true));
    attributes
        .insert(Checked::Valid(Semantic::Normals), b.floats(&normals, Usage::Vertices, false));
    attributes
        .insert(Checked::Valid(Semantic::TexCoords(0)), b.floats(&uvs, Usage::Vertices, false));
    let view = b.view(&to_bytes(&joints), Usage::Vertices);
    let joints = b.accessor(Some(view), 0, joints.len(), ComponentType::U16, Type::Vec4, None);
    attributes.insert(Checked::Valid(Semantic::Joints(0)), joints);
    attributes
        .insert(Checked::Valid(Semantic::Weights(0)), b.floats(&weights, Usage::Vertices, false));

    let (targets, names, morphs) = write_targets(b, mesh, scale, notes);
    let indices = write_indices(b, mesh, &drawn);
    let materials = write_materials(b, mesh, &drawn, options, notes);
    let primitives = indices
        .into_iter()
        .zip(materials)
        .map(|(indices, material)| Primitive {
            attributes: attributes.clone(),
            indices: Some(indices),
            material: Some(material),
            mode: Checked::Valid(json::mesh::Mode::Triangles),
            targets: (!targets.is_empty()).then(|| targets.clone()),
            extensions: None,
            extras: Default::default(),
        })
        .collect();
    let extras = (!names.is_empty())
        .then(|| serde_json::value::to_raw_value(&serde_json::json!({ "targetNames": names })))
        .transpose()?;
    let gltf_mesh = b.root.push(json::Mesh {
        name: Some(node_name(model)),
        primitives,
        weights: (!targets.is_empty()).then(|| vec![0.0; targets.len()]),
        extensions: None,
        extras,
    });
    let skin = write_skin(b, written);
    let node = b.root.push(Node {
        name: Some(node_name(model)),
        mesh: Some(gltf_mesh),
        skin: Some(skin),
        ..Node::default()
    });
    Ok(Some(WrittenMesh { node, morphs }))
}

fn node_name(model: &Model) -> String {
    if model.name.is_empty() {
        "mesh".to_string()
    } else {
        format!("{} mesh", model.name)
    }
}

/// (material, first index, index count) of each material that draws whole triangles.
fn material_ranges(mesh: &Mesh) -> Vec<(usize, usize, usize)> {
    let mut start = 0;
    let mut out = Vec::new();
    for (m, material) in mesh.materials.iter().enumerate() {
        let count = material.index_count / 3 * 3;
        if count > 0 {
            out.push((m, start, count));
        }
        start += material.index_count;
    }
    out
}

/// One index view, one accessor per material; u16 while every index fits below 65,535 (the
/// primitive-restart value), u32 beyond. Triangles are reversed: mirroring Z turns MMD's
/// clockwise front faces into glTF's counter-clockwise ones only if their order flips too.
fn write_indices(
    b: &mut Builder,
    mesh: &Mesh,
    drawn: &[(usize, usize, usize)],
) -> Vec<Index<Accessor>> {
    let flipped: Vec<u32> = mesh.indices.chunks_exact(3).flat_map(|t| [t[0], t[2], t[1]]).collect();
    let wide = mesh.positions.len() > usize::from(u16::MAX);
    let (bytes, size, component) = if wide {
        (to_bytes(&flipped), 4, ComponentType::U32)
    } else {
        let narrow: Vec<u16> = flipped.iter().map(|&i| i as u16).collect();
        (to_bytes(&narrow), 2, ComponentType::U16)
    };
    let view = b.view(&bytes, Usage::Indices);
    drawn
        .iter()
        .map(|&(_, start, count)| {
            b.accessor(Some(view), start * size, count, component, Type::Scalar, None)
        })
        .collect()
}

fn write_materials(
    b: &mut Builder,
    mesh: &Mesh,
    drawn: &[(usize, usize, usize)],
    options: &GltfOptions,
    notes: &mut Vec<GltfNote>,
) -> Vec<Index<json::Material>> {
    let mut used = vec![false; mesh.textures.len()];
    for &(m, _, _) in drawn {
        if let Some(t) = mesh.materials[m].texture {
            used[t] = true;
        }
    }
    let written = textures::write(
        b,
        &mesh.textures,
        &used,
        &options.textures,
        &options.texture_access,
        notes,
    );
    let mut fallbacks = 0;
    let out = drawn
        .iter()
        .map(|&(m, _, _)| {
            let material = &mesh.materials[m];
            let colour = material.diffuse.to_array().map(|c| {
                if c.is_finite() {
                    c.clamp(0.0, 1.0)
                } else {
                    1.0
                }
            });
            let texture = material.texture.and_then(|t| written[t]);
            let blend = colour[3] < 1.0 || texture.is_some_and(|t| t.alpha);
            b.root.push(json::Material {
                alpha_cutoff: None,
                alpha_mode: Checked::Valid(if blend {
                    AlphaMode::Blend
                } else {
                    AlphaMode::Opaque
                }),
                double_sided: material.double_sided,
                name: Some(display_name(&material.name, "material", m, &mut fallbacks)),
                pbr_metallic_roughness: PbrMetallicRoughness {
                    base_color_factor: PbrBaseColorFactor(colour),
                    base_color_texture: texture.map(|t| json::texture::Info {
                        index: t.index,
                        tex_coord: 0,
                        extensions: None,
                        extras: Default::default(),
                    }),
                    // MMD shades with diffuse and toon ramps, nothing like metal.
                    metallic_factor: StrengthFactor(0.0),
                    roughness_factor: StrengthFactor(0.9),
                    metallic_roughness_texture: None,
                    extensions: None,
                    extras: Default::default(),
                },
                normal_texture: None,
                occlusion_texture: None,
                emissive_texture: None,
                emissive_factor: Default::default(),
                extensions: None,
                extras: Default::default(),
            })
        })
        .collect();
    // PMD materials have no names, and empty ones are expected: not worth a note.
    out
}

/// One morph target per vertex morph, as a sparse accessor over zeros; the target names; and
/// what drives them.
fn write_targets(
    b: &mut Builder,
    mesh: &Mesh,
    scale: f32,
    notes: &mut Vec<GltfNote>,
) -> (Vec<MorphTarget>, Vec<String>, MorphTargets) {
    let vertices = mesh.positions.len();
    let mut targets = Vec::with_capacity(mesh.vertex_morphs.len());
    let mut names = Vec::with_capacity(mesh.vertex_morphs.len());
    let mut fallbacks = 0;
    for (i, morph) in mesh.vertex_morphs.iter().enumerate() {
        names.push(display_name(&morph.name, "morph", i, &mut fallbacks));
        let mut offsets: BTreeMap<u32, Vec3> = BTreeMap::new();
        for &(v, offset) in &morph.offsets {
            *offsets.entry(v).or_default() += position(finite(offset), scale);
        }
        offsets.retain(|_, o| *o != Vec3::ZERO);
        targets.push(MorphTarget {
            positions: Some(sparse_positions(b, vertices, &offsets)),
            normals: None,
            tangents: None,
        });
    }
    if fallbacks > 0 {
        notes.push(GltfNote::FallbackNames { what: "morph", count: fallbacks });
    }
    let mut drivers: Vec<(KeyName, Vec<(usize, f32)>)> = mesh
        .vertex_morphs
        .iter()
        .enumerate()
        .map(|(i, m)| (m.name_cp932, vec![(i, 1.0)]))
        .collect();
    drivers.extend(mesh.group_morphs.iter().map(|g| (g.name_cp932, g.members.clone())));
    (targets, names, MorphTargets { drivers, targets: mesh.vertex_morphs.len() })
}

fn sparse_positions(
    b: &mut Builder,
    vertices: usize,
    offsets: &BTreeMap<u32, Vec3>,
) -> Index<Accessor> {
    let values: Vec<[f32; 3]> = offsets.values().map(|v| v.to_array()).collect();
    let (mut min, mut max) = bounds(&values);
    if values.len() < vertices {
        // The vertices the morph leaves alone are zeros, and count towards min and max.
        min.iter_mut().for_each(|m| *m = m.min(0.0));
        max.iter_mut().for_each(|m| *m = m.max(0.0));
    }
    let mut accessor =
        b.accessor(None, 0, vertices, ComponentType::F32, Type::Vec3, Some((min, max)));
    if !values.is_empty() {
        let indices: Vec<u32> = offsets.keys().copied().collect();
        let index_view = b.view(&to_bytes(&indices), Usage::Other);
        let value_view = b.view(&to_bytes(&values), Usage::Other);
        let sparse = sparse::Sparse {
            count: USize64::from(values.len()),
            indices: sparse::Indices {
                buffer_view: index_view,
                byte_offset: USize64(0),
                component_type: Checked::Valid(IndexComponentType(ComponentType::U32)),
                extensions: None,
                extras: Default::default(),
            },
            values: sparse::Values {
                buffer_view: value_view,
                byte_offset: USize64(0),
                extensions: None,
                extras: Default::default(),
            },
            extensions: None,
            extras: Default::default(),
        };
        let last = b.root.accessors.len() - 1;
        b.root.accessors[last].sparse = Some(sparse);
        accessor = Index::new(last as u32);
    }
    accessor
}

/// A skin over every bone node; each inverse bind matrix undoes the bone's rest translation
/// (bones have no rest rotation, and the armature root sits at the origin).
fn write_skin(b: &mut Builder, written: &WrittenSkeleton) -> Index<json::Skin> {
    let matrices: Vec<[f32; 16]> =
        written.rest.iter().map(|&p| Mat4::from_translation(-p).to_cols_array()).collect();
    let view = b.view(&to_bytes(&matrices), Usage::Other);
    let inverse = b.accessor(Some(view), 0, matrices.len(), ComponentType::F32, Type::Mat4, None);
    b.root.push(json::Skin {
        inverse_bind_matrices: Some(inverse),
        joints: written.joints.clone(),
        name: Some("skeleton".to_string()),
        skeleton: Some(written.root),
        extensions: None,
        extras: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_merge_repeated_bones_drop_empty_slots_and_sum_to_one() {
        let w = |kind, bones, weights| normalised(&VertexWeights { kind, bones, weights });
        let (bones, weights) = w(WeightKind::Bdef2, [3, 3, 0, 0], [0.3, 0.7, 0.0, 0.0]);
        assert_eq!((bones, weights), ([3, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
        let (bones, weights) = w(WeightKind::Bdef4, [1, 2, 3, 4], [0.1, 0.2, 0.3, 0.3]);
        assert_eq!(bones, [3, 4, 2, 1]);
        assert!((weights.iter().sum::<f32>() - 1.0).abs() <= f32::EPSILON);
        // No positive weight at all: the first bone takes the vertex.
        let (bones, weights) = w(WeightKind::Bdef4, [5, 6, 7, 8], [0.0, -1.0, f32::NAN, 0.0]);
        assert_eq!((bones, weights), ([5, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]));
    }
}
