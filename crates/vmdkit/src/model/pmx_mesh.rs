//! PMX mesh reading ([`Mesh`]): the sections [`super::pmx`] walks without keeping, kept.
//!
//! Vertex indices are unsigned for 1 and 2 bytes and signed for 4 (reference §9.1); bone
//! indices are signed, −1 meaning none (weight dropped).

use super::error::{ModelErrorKind, ModelSection};
use super::mesh::{GroupMorph, Material, Mesh, VertexMorph, VertexWeights, WeightKind};
use super::pmx::{self, Globals};
use super::reader::{Reader, Result};
use super::types::key_name;

pub(crate) fn parse(data: &[u8]) -> Result<Mesh> {
    let mut r = Reader::new(data);
    r.skip(pmx::MAGIC.len() + 4)?; // magic, version (checked by the skeleton's reader too)
    let g = pmx::read_globals(&mut r)?;
    for _ in 0..4 {
        r.text_bytes()?; // names and comments
    }
    let mut mesh = Mesh::default();
    let vertices_at = r.pos();
    read_vertices(&mut r, &g, &mut mesh)?;
    read_faces(&mut r, &g, &mut mesh)?;
    r.enter(ModelSection::Textures);
    let textures = r.count_i32(4)?;
    for i in 0..textures {
        r.record(Some(i));
        mesh.textures.push(pmx::text(&mut r, &g)?);
    }
    read_materials(&mut r, &g, &mut mesh)?;
    let bones = pmx::read_bones(&mut r, &g)?.len();
    check_vertex_bones(&mut r, &mesh, bones, vertices_at)?;
    read_morphs(&mut r, &g, &mut mesh)?;
    Ok(mesh)
}

/// A vertex index: unsigned for 1 and 2 bytes, signed for 4.
fn vertex_index(r: &mut Reader, size: u8) -> Result<i64> {
    Ok(match size {
        1 => r.u8()? as i64,
        2 => r.u16()? as i64,
        _ => r.i32()? as i64,
    })
}

fn checked_vertex(r: &mut Reader, g: &Globals, count: usize, what: &'static str) -> Result<u32> {
    let at = r.pos();
    let index = vertex_index(r, g.vertex)?;
    r.in_range(index, count, what, at).map(|i| i as u32)
}

fn read_vertices(r: &mut Reader, g: &Globals, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Vertices);
    let count = r.count_i32(32 + 16 * g.additional_uvs + 1 + g.bone as usize + 4)?;
    mesh.read_vertices(r, count, |r| {
        r.skip(16 * g.additional_uvs)?;
        let weights = read_weights(r, g)?;
        r.skip(4)?; // edge scale
        Ok(weights)
    })
}

fn read_weights(r: &mut Reader, g: &Globals) -> Result<VertexWeights> {
    let at = r.pos();
    let kind = match r.u8()? {
        0 => WeightKind::Bdef1,
        1 => WeightKind::Bdef2,
        2 => WeightKind::Bdef4,
        3 => WeightKind::Sdef,
        4 => WeightKind::Qdef,
        value => {
            return Err(r.error_at(ModelErrorKind::UnknownKind { what: "weight type", value }, at))
        }
    };
    let n = match kind {
        WeightKind::Bdef1 => 1,
        WeightKind::Bdef2 | WeightKind::Sdef => 2,
        _ => 4,
    };
    let mut raw = [-1i32; 4];
    for b in raw.iter_mut().take(n) {
        *b = r.index(g.bone)?;
    }
    let mut weights = [0.0f32; 4];
    match n {
        1 => weights[0] = 1.0,
        2 => {
            weights[0] = r.f32()?;
            weights[1] = 1.0 - weights[0];
        }
        _ => {
            for w in &mut weights {
                *w = r.f32()?;
            }
        }
    }
    if kind == WeightKind::Sdef {
        r.skip(36)?; // C, R0, R1: the linear blend does not use them
    }
    // A bone of −1 (or any negative index) holds no weight.
    let mut bones = [0u32; 4];
    for ((bone, &raw), weight) in bones.iter_mut().zip(&raw).zip(&mut weights) {
        match u32::try_from(raw) {
            Ok(b) => *bone = b,
            Err(_) => *weight = 0.0,
        }
    }
    Ok(VertexWeights { kind, bones, weights })
}

/// Weighted bones must exist; checked once the bone table's length is known. The error names
/// the vertex, at the vertex section's offset.
pub(super) fn check_vertex_bones(
    r: &mut Reader,
    mesh: &Mesh,
    bone_count: usize,
    vertices_at: usize,
) -> Result<()> {
    if let Err((vertex, kind)) = mesh.check_bones(bone_count) {
        r.enter(ModelSection::Vertices);
        r.record(Some(vertex));
        return Err(r.error_at(kind, vertices_at));
    }
    Ok(())
}

fn read_faces(r: &mut Reader, g: &Globals, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Faces);
    let count = r.count_i32(g.vertex as usize)?;
    let vertices = mesh.positions.len();
    mesh.indices.reserve_exact(count);
    for _ in 0..count {
        mesh.indices.push(checked_vertex(r, g, vertices, "face vertex")?);
    }
    Ok(())
}

fn read_materials(r: &mut Reader, g: &Globals, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Materials);
    let t = g.texture as usize;
    let count = r.count_i32(8 + 44 + 1 + 20 + 2 * t + 2 + 1 + 4 + 4)?;
    let mut drawn = 0usize;
    for i in 0..count {
        r.record(Some(i));
        let name = pmx::text(r, g)?;
        r.text_bytes()?; // English name
        let diffuse = glam::Vec4::new(r.f32()?, r.f32()?, r.f32()?, r.f32()?);
        r.skip(12 + 4 + 12)?; // specular, power, ambient
        let flags = r.u8()?;
        r.skip(16 + 4)?; // edge colour and size
        let at = r.pos();
        let texture = r.index(g.texture)?;
        let texture = r.optional_in_range(texture, mesh.textures.len(), "texture", at)?;
        r.skip(t + 1)?; // sphere texture and mode
        pmx::skip_toon(r, g)?;
        r.text_bytes()?; // memo
        let at = r.pos();
        let faces = r.i32()?;
        if faces < 0 {
            return Err(r.error_at(ModelErrorKind::NegativeCount { count: faces.into() }, at));
        }
        // A count beyond the faces left draws those left, as players draw what there is.
        let index_count = (faces as usize).min(mesh.indices.len() - drawn);
        drawn += index_count;
        mesh.materials.push(Material {
            name,
            diffuse,
            texture,
            double_sided: flags & 0x01 != 0,
            index_count,
        });
    }
    Ok(())
}

/// Keeps vertex morphs and the group morphs that drive at least one of them.
fn read_morphs(r: &mut Reader, g: &Globals, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Morphs);
    let count = r.count_i32(8 + 1 + 1 + 4)?;
    let vertices = mesh.positions.len();
    // File morph index → index into vertex_morphs.
    let mut vertex_index = vec![None; count];
    let mut groups = Vec::new();
    for (i, slot) in vertex_index.iter_mut().enumerate() {
        r.record(Some(i));
        let name = pmx::text(r, g)?;
        r.text_bytes()?; // English name
        r.skip(1)?; // panel
        let kind_at = r.pos();
        let kind = r.u8()?;
        let size = pmx::morph_offset_size(r, g, kind, kind_at)?;
        let n = r.count_i32(size)?;
        match kind {
            1 => {
                let mut offsets = Vec::with_capacity(n);
                for _ in 0..n {
                    let v = checked_vertex(r, g, vertices, "morph vertex")?;
                    offsets.push((v, r.vec3()?));
                }
                *slot = Some(mesh.vertex_morphs.len());
                mesh.vertex_morphs.push(VertexMorph { name_cp932: key_name(&name), name, offsets });
            }
            0 => {
                let members = pmx::read_group_members(r, g, n, count)?;
                groups.push((name, members));
            }
            _ => r.skip(n * size)?,
        }
    }
    for (name, members) in groups {
        let members: Vec<(usize, f32)> = members
            .into_iter()
            .filter_map(|(m, ratio)| vertex_index[m].map(|v| (v, ratio)))
            .collect();
        if !members.is_empty() {
            mesh.group_morphs.push(GroupMorph { name_cp932: key_name(&name), name, members });
        }
    }
    Ok(())
}
