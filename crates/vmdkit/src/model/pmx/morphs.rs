//! The morphs: bone morphs and the group morphs that drive them kept, every morph summarised.

use super::header::{text, Globals};
use crate::model::error::{ModelErrorKind, ModelSection};
use crate::model::reader::{Reader, Result};
use crate::model::types::*;

/// A morph as first read: group members still hold file morph indices.
enum Pending {
    Bone(Morph),
    Group(Morph, Vec<(usize, f32)>),
    Other,
}

/// Reads the morphs, keeping bone morphs and the group morphs that drive at least one of them.
/// Returns them with a summary of every morph of the file.
pub(super) fn read_morphs(
    r: &mut Reader,
    g: &Globals,
    bone_count: usize,
) -> Result<(Vec<Morph>, Vec<MorphSummary>)> {
    r.enter(ModelSection::Morphs);
    let count = r.count_i32(8 + 1 + 1 + 4)?;
    let mut pending = Vec::with_capacity(count);
    let mut summaries = Vec::with_capacity(count);
    for i in 0..count {
        r.record(Some(i));
        let (morph, summary) = read_morph(r, g, bone_count, count)?;
        pending.push(morph);
        summaries.push(summary);
    }
    r.record(None);

    // File index → index in the kept list, for bone morphs only: group members must be bone
    // morphs (MMD does not nest groups), so a member is kept only when it maps here.
    let mut kept_index = vec![None; count];
    let mut next = 0;
    for (i, p) in pending.iter().enumerate() {
        let keep = match p {
            Pending::Bone(_) => {
                kept_index[i] = Some(next);
                true
            }
            Pending::Group(_, members) => {
                members.iter().any(|&(m, _)| matches!(pending[m], Pending::Bone(_)))
            }
            Pending::Other => false,
        };
        next += keep as usize;
    }
    let mut morphs = Vec::with_capacity(next);
    for p in pending {
        match p {
            Pending::Bone(morph) => morphs.push(morph),
            Pending::Group(mut morph, members) => {
                let members: Vec<GroupMember> = members
                    .into_iter()
                    .filter_map(|(m, ratio)| {
                        kept_index[m].map(|morph| GroupMember { morph, ratio })
                    })
                    .collect();
                if !members.is_empty() {
                    morph.kind = MorphKind::Group(members);
                    morphs.push(morph);
                }
            }
            Pending::Other => {}
        }
    }
    Ok((morphs, summaries))
}

fn read_morph(
    r: &mut Reader,
    g: &Globals,
    bone_count: usize,
    morph_count: usize,
) -> Result<(Pending, MorphSummary)> {
    let name = text(r, g)?;
    let name_en = text(r, g)?;
    let panel = r.u8()?;
    let kind_at = r.pos();
    let kind = r.u8()?;
    let size = morph_offset_size(r, g, kind, kind_at)?;
    let offsets = r.count_i32(size)?;
    let summary = MorphSummary {
        name: name.clone(),
        name_en: name_en.clone(),
        panel,
        // morph_offset_size has refused the kinds PMX does not have.
        kind: MorphType::from_pmx(kind).unwrap_or(MorphType::Vertex),
        offsets,
    };
    let morph = |kind| Morph { name_cp932: key_name(&name), name, name_en, panel, kind };
    let pending = match kind {
        0 => {
            let members = read_group_members(r, g, offsets, morph_count)?;
            Pending::Group(morph(MorphKind::Group(Vec::new())), members)
        }
        2 => Pending::Bone(morph(MorphKind::Bone(read_bone_offsets(r, g, offsets, bone_count)?))),
        _ => {
            r.skip(offsets * size)?;
            Pending::Other
        }
    };
    Ok((pending, summary))
}

/// The size of one offset of a morph of type `kind`, which was read at `kind_at`.
pub(in crate::model) fn morph_offset_size(
    r: &Reader,
    g: &Globals,
    kind: u8,
    kind_at: usize,
) -> Result<usize> {
    let (v, m) = (g.vertex as usize, g.morph as usize);
    Ok(match kind {
        0 | 9 => m + 4,                       // group, flip (2.1)
        1 => v + 12,                          // vertex
        2 => g.bone as usize + 28,            // bone
        3..=7 => v + 16,                      // UV, additional UV 1–4
        8 => g.material as usize + 1 + 112,   // material
        10 => g.rigid_body as usize + 1 + 24, // impulse (2.1)
        value => {
            return Err(
                r.error_at(ModelErrorKind::UnknownKind { what: "morph type", value }, kind_at)
            )
        }
    })
}

/// A group morph's members as (file morph index, ratio); members of index −1 are dropped.
pub(in crate::model) fn read_group_members(
    r: &mut Reader,
    g: &Globals,
    offsets: usize,
    morph_count: usize,
) -> Result<Vec<(usize, f32)>> {
    let mut members = Vec::with_capacity(offsets);
    for _ in 0..offsets {
        let at = r.pos();
        let index = r.index(g.morph)?;
        let ratio = r.f32()?;
        if let Some(m) = r.optional_in_range(index, morph_count, "group member morph", at)? {
            members.push((m, ratio));
        }
    }
    Ok(members)
}

/// A bone morph's offsets; an offset of bone −1 moves nothing and is dropped.
fn read_bone_offsets(
    r: &mut Reader,
    g: &Globals,
    offsets: usize,
    bone_count: usize,
) -> Result<Vec<BoneOffset>> {
    let mut list = Vec::with_capacity(offsets);
    for _ in 0..offsets {
        let at = r.pos();
        let index = r.index(g.bone)?;
        let translation = r.vec3()?;
        let rotation = r.quat()?;
        if let Some(bone) = r.optional_in_range(index, bone_count, "morph bone", at)? {
            list.push(BoneOffset { bone, translation, rotation });
        }
    }
    Ok(list)
}
