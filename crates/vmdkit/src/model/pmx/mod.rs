//! PMX 2.0 / 2.1 reading: the bone table, bone-moving morphs, rigid bodies and joints are
//! decoded; every other section is walked record by record so that its layout is checked
//! without keeping anything.
//!
//! Index signedness follows BM (reference §9.1, §12 row 20): vertex indices are unsigned for 1
//! and 2 bytes, every other index is signed, −1 meaning none.
//!
//! `header.rs` reads the globals and text fields, `bones.rs` the bone table, `morphs.rs` the
//! morphs, `physics.rs` the rigid bodies and joints, and `skip.rs` walks the sections nothing
//! is kept of.

mod bones;
mod header;
mod morphs;
mod physics;
mod skip;

pub(super) use bones::read_bones;
pub(super) use header::{read_globals, text, Globals};
pub(super) use morphs::{morph_offset_size, read_group_members};
pub(super) use skip::skip_toon;

use super::error::{ModelErrorKind, ModelSection};
use super::reader::{Reader, Result};
use super::types::*;
use morphs::read_morphs;
use physics::{read_joints, read_rigid_bodies};
use skip::{skip_display_frames, skip_materials, skip_soft_bodies, skip_vertices};

pub(super) const MAGIC: &[u8; 4] = b"PMX ";

pub(crate) fn is_pmx(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

pub(crate) fn parse(data: &[u8]) -> Result<Model> {
    let mut r = Reader::new(data);
    r.skip(MAGIC.len())?;
    let version_at = r.pos();
    let version = r.f32()?;
    if version != 2.0 && version != 2.1 {
        let kind = ModelErrorKind::UnsupportedVersion { format: "PMX", version };
        return Err(r.error_at(kind, version_at));
    }
    let g = read_globals(&mut r)?;
    let name = text(&mut r, &g)?;
    let name_en = text(&mut r, &g)?;
    let comment = text(&mut r, &g)?;
    let comment_en = text(&mut r, &g)?;

    let mut counts = SectionCounts { vertices: skip_vertices(&mut r, &g)?, ..Default::default() };

    r.enter(ModelSection::Faces);
    counts.face_indices = r.count_i32(g.vertex as usize)?;
    r.skip(counts.face_indices * g.vertex as usize)?;

    r.enter(ModelSection::Textures);
    counts.textures = r.count_i32(4)?;
    for i in 0..counts.textures {
        r.record(Some(i));
        r.text_bytes()?;
    }

    counts.materials = skip_materials(&mut r, &g)?;
    let bones = read_bones(&mut r, &g)?;
    let (morphs, morph_list) = read_morphs(&mut r, &g, bones.len())?;
    counts.morphs = morph_list.len();
    counts.display_frames = skip_display_frames(&mut r, &g)?;
    let rigid_bodies = read_rigid_bodies(&mut r, &g)?;
    counts.rigid_bodies = rigid_bodies.len();
    let joints = read_joints(&mut r, &g)?;
    counts.joints = joints.len();
    // Soft bodies are a 2.1 addition; a 2.0 file ends after the joints (and anything after
    // them is not ours to judge).
    if version > 2.0 && r.remaining() > 0 {
        counts.soft_bodies = skip_soft_bodies(&mut r, &g)?;
    }

    Ok(Model {
        format: ModelFormat::Pmx { version, utf8: g.utf8 },
        name,
        name_en,
        comment,
        comment_en,
        bones,
        morphs,
        morph_list,
        rigid_bodies,
        joints,
        counts,
    })
}
