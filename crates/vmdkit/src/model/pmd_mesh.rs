//! PMD mesh reading ([`Mesh`]): vertices (two bones each), faces, materials with their texture
//! names, and the skins, PMD's vertex morphs.
//!
//! Skins: the first skin ("base") lists the vertices any skin moves, at their rest positions;
//! every other skin indexes that list and stores offsets. They become [`VertexMorph`]s on the
//! mesh's own vertex indices. A material's texture field may hold `texture*sphere`; the sphere
//! map (`.sph`, `.spa`) is not a colour texture and is left out.

use super::error::ModelSection;
use super::mesh::{Material, Mesh, VertexMorph, VertexWeights, WeightKind};
use super::pmd;
use super::pmx_mesh::check_vertex_bones;
use super::reader::{Reader, Result};
use super::types::key_name;
use glam::Vec4;

pub(crate) fn parse(data: &[u8]) -> Result<Mesh> {
    let mut r = Reader::new(data);
    pmd::read_header(&mut r)?;
    let mut mesh = Mesh::default();
    let vertices_at = r.pos();
    read_vertices(&mut r, &mut mesh)?;
    read_faces(&mut r, &mut mesh)?;
    read_materials(&mut r, &mut mesh)?;
    let bones = pmd::read_raw_bones(&mut r)?.len();
    check_vertex_bones(&mut r, &mesh, bones, vertices_at)?;
    pmd::read_iks(&mut r, bones)?;
    read_skins(&mut r, &mut mesh)?;
    Ok(mesh)
}

fn read_vertices(r: &mut Reader, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Vertices);
    let n = r.count_u32(38)?;
    mesh.read_vertices(r, n, |r| {
        let (b0, b1) = (r.u16()?, r.u16()?);
        let w = f32::from(r.u8()?.min(100)) / 100.0;
        r.skip(1)?; // edge flag
        Ok(VertexWeights {
            kind: WeightKind::Bdef2,
            bones: [b0.into(), b1.into(), 0, 0],
            weights: [w, 1.0 - w, 0.0, 0.0],
        })
    })
}

fn read_faces(r: &mut Reader, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Faces);
    let n = r.count_u32(2)?;
    let vertices = mesh.positions.len();
    mesh.indices.reserve_exact(n);
    for _ in 0..n {
        let at = r.pos();
        let v = r.u16()?;
        mesh.indices.push(r.in_range(v.into(), vertices, "face vertex", at)? as u32);
    }
    Ok(())
}

fn read_materials(r: &mut Reader, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Materials);
    let n = r.count_u32(70)?;
    let mut drawn = 0usize;
    for i in 0..n {
        r.record(Some(i));
        let diffuse = Vec4::new(r.f32()?, r.f32()?, r.f32()?, r.f32()?);
        r.skip(4 + 12 + 12 + 1 + 1)?; // specularity, specular, ambient, toon, edge
                                      // A count beyond the faces left draws those left, as players draw what there is.
        let index_count = (r.u32()? as usize).min(mesh.indices.len() - drawn);
        drawn += index_count;
        let texture = colour_texture(&pmd::decode(r.take(20)?)).map(|name| {
            match mesh.textures.iter().position(|t| *t == name) {
                Some(t) => t,
                None => {
                    mesh.textures.push(name);
                    mesh.textures.len() - 1
                }
            }
        });
        mesh.materials.push(Material {
            name: String::new(),
            diffuse,
            texture,
            double_sided: diffuse.w < 1.0,
            index_count,
        });
    }
    Ok(())
}

/// The colour texture of a PMD texture field (`tex.bmp`, `tex.bmp*sphere.sph`, `sphere.spa`).
fn colour_texture(field: &str) -> Option<String> {
    let first = field.split('*').next().unwrap_or("").trim();
    let lower = first.to_ascii_lowercase();
    (!first.is_empty() && !lower.ends_with(".sph") && !lower.ends_with(".spa"))
        .then(|| first.to_string())
}

fn read_skins(r: &mut Reader, mesh: &mut Mesh) -> Result<()> {
    r.enter(ModelSection::Morphs);
    let skins = r.count_u16(25)?;
    let vertices = mesh.positions.len();
    let mut base: Vec<u32> = Vec::new();
    for i in 0..skins {
        r.record(Some(i));
        let name = pmd::decode(r.take(20)?);
        let n = r.count_u32(16 + 1)?;
        let kind = r.u8()?;
        let mut offsets = Vec::with_capacity(n);
        for _ in 0..n {
            let at = r.pos();
            let index = r.u32()?;
            let offset = r.vec3()?;
            if kind == 0 {
                base.push(r.in_range(index.into(), vertices, "base skin vertex", at)? as u32);
            } else {
                let slot = r.in_range(index.into(), base.len(), "skin vertex", at)?;
                offsets.push((base[slot], offset));
            }
        }
        if kind != 0 {
            mesh.vertex_morphs.push(VertexMorph { name_cp932: key_name(&name), name, offsets });
        }
    }
    Ok(())
}
