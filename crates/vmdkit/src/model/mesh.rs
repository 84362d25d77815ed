//! The drawable half of a PMX or PMD model: vertices, skin weights, faces, materials, texture
//! paths and vertex morphs, read by [`Mesh::parse`] in a second pass over the same bytes that
//! [`Model::parse`](super::Model::parse) reads for the skeleton.
//!
//! Kept apart from [`Model`](super::Model) so that posing, which never needs a vertex, does not
//! pay for decoding tens of thousands of them. Every count is checked against the bytes left
//! before anything is allocated, as for the skeleton; vertex and bone indices are checked
//! against their lists, so a [`Mesh`] is consistent by construction.

use super::error::ModelErrorKind;
use super::reader::{Reader, Result as ReadResult};
use crate::text::KeyName;
use glam::{Vec2, Vec3, Vec4};

/// How a vertex's bones deform it, as the file stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WeightKind {
    /// One bone.
    Bdef1,
    /// Two bones, linear blend (PMD vertices are all BDEF2).
    Bdef2,
    /// Four bones, linear blend.
    Bdef4,
    /// Spherical deformation about a centre; [`VertexWeights`] keeps its two bones' linear blend.
    Sdef,
    /// Dual-quaternion deformation (PMX 2.1); [`VertexWeights`] keeps its linear blend.
    Qdef,
}

impl WeightKind {
    /// The name PMX editors show.
    pub fn name(self) -> &'static str {
        match self {
            WeightKind::Bdef1 => "BDEF1",
            WeightKind::Bdef2 => "BDEF2",
            WeightKind::Bdef4 => "BDEF4",
            WeightKind::Sdef => "SDEF",
            WeightKind::Qdef => "QDEF",
        }
    }
}

/// Up to four bones and their weights. Unused slots have weight 0; bones are indices into
/// [`Model::bones`](super::Model::bones), checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexWeights {
    /// How the file says to deform the vertex.
    pub kind: WeightKind,
    /// Bone indices.
    pub bones: [u32; 4],
    /// Weights as stored (not normalised).
    pub weights: [f32; 4],
}

/// One material: a run of [`Mesh::indices`] drawn with one colour and texture.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// The material's name (PMD: empty; it has none).
    pub name: String,
    /// Diffuse colour and alpha.
    pub diffuse: Vec4,
    /// The texture, an index into [`Mesh::textures`].
    pub texture: Option<usize>,
    /// Drawn from both sides (PMX flag 0x01; PMD: alpha below 1, as MMD draws those).
    pub double_sided: bool,
    /// How many indices (three per triangle) of [`Mesh::indices`] it draws, following the
    /// previous material's.
    pub index_count: usize,
}

/// A vertex morph: per-vertex position offsets added at weight 1.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexMorph {
    /// The morph's name (VMD morph keys name this).
    pub name: String,
    /// As [`Bone::name_cp932`](super::Bone::name_cp932): the name a VMD morph key carries.
    pub name_cp932: KeyName,
    /// (vertex index, offset), vertex indices checked.
    pub offsets: Vec<(u32, Vec3)>,
}

/// A group morph's share in a vertex morph: the vertex morph moves by `ratio` × the group's
/// weight (PMX group morphs; MMD does not nest groups).
#[derive(Clone, Debug, PartialEq)]
pub struct GroupMorph {
    /// The group morph's name (VMD morph keys name this).
    pub name: String,
    /// As [`VertexMorph::name_cp932`].
    pub name_cp932: KeyName,
    /// (index into [`Mesh::vertex_morphs`], ratio).
    pub members: Vec<(usize, f32)>,
}

/// A model's mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Rest positions, model space (MMD's left-handed axes).
    pub positions: Vec<Vec3>,
    /// Normals as stored (not necessarily unit length).
    pub normals: Vec<Vec3>,
    /// Texture coordinates, v down as DirectX and glTF have it.
    pub uvs: Vec<Vec2>,
    /// Skin weights per vertex.
    pub weights: Vec<VertexWeights>,
    /// Triangle vertex indices, three per face, checked against the vertex count.
    pub indices: Vec<u32>,
    /// Texture paths as the file stores them, relative to the model's folder (either slash).
    pub textures: Vec<String>,
    /// Materials in file order; their index counts add up to at most `indices.len()`.
    pub materials: Vec<Material>,
    /// Vertex morphs in file order (PMD: its skins other than the base, as offsets).
    pub vertex_morphs: Vec<VertexMorph>,
    /// Group morphs with at least one vertex-morph member.
    pub group_morphs: Vec<GroupMorph>,
}

impl Mesh {
    /// Reads `count` vertex records: the position, normal and UV that open a vertex in both
    /// PMD and PMX, then `rest`, which reads the format's own remainder of the record and
    /// returns its weights.
    pub(super) fn read_vertices(
        &mut self,
        r: &mut Reader,
        count: usize,
        mut rest: impl FnMut(&mut Reader) -> ReadResult<VertexWeights>,
    ) -> ReadResult<()> {
        self.positions.reserve_exact(count);
        self.normals.reserve_exact(count);
        self.uvs.reserve_exact(count);
        self.weights.reserve_exact(count);
        for i in 0..count {
            r.record(Some(i));
            self.positions.push(r.vec3()?);
            self.normals.push(r.vec3()?);
            self.uvs.push(Vec2::new(r.f32()?, r.f32()?));
            self.weights.push(rest(r)?);
        }
        Ok(())
    }

    /// How many vertices have each [`WeightKind`], in the enum's order.
    pub fn weight_kind_counts(&self) -> Vec<(WeightKind, usize)> {
        use WeightKind::*;
        [Bdef1, Bdef2, Bdef4, Sdef, Qdef]
            .into_iter()
            .map(|k| (k, self.weights.iter().filter(|w| w.kind == k).count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// Checks that every weighted bone exists; the error gives the vertex's index. The
    /// readers call this once the bone table's length is known (PMX stores it after the
    /// vertices).
    pub(crate) fn check_bones(&self, bone_count: usize) -> Result<(), (usize, ModelErrorKind)> {
        for (v, w) in self.weights.iter().enumerate() {
            for (&b, &weight) in w.bones.iter().zip(&w.weights) {
                if weight != 0.0 && b as usize >= bone_count {
                    let kind = ModelErrorKind::BadIndex {
                        what: "vertex bone",
                        index: b.into(),
                        count: bone_count,
                    };
                    return Err((v, kind));
                }
            }
        }
        Ok(())
    }
}
