//! PMX 2.0 / 2.1 reading: the bone table and bone-moving morphs are decoded; every other
//! section is walked record by record so that its layout is checked without keeping anything.
//!
//! Index signedness follows BM (reference §9.1, §12 row 20): vertex indices are unsigned for 1
//! and 2 bytes, every other index is signed, −1 meaning none.

use super::error::{ModelErrorKind, ModelSection};
use super::reader::{Reader, Result};
use super::types::*;

pub(super) const MAGIC: &[u8; 4] = b"PMX ";

/// The header's index widths and text encoding.
pub(super) struct Globals {
    pub(super) utf8: bool,
    pub(super) additional_uvs: usize,
    pub(super) vertex: u8,
    pub(super) texture: u8,
    pub(super) material: u8,
    pub(super) bone: u8,
    pub(super) morph: u8,
    rigid_body: u8,
}

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
    counts.rigid_bodies = skip_rigid_bodies(&mut r, &g)?;
    counts.joints = skip_joints(&mut r, &g)?;
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
        counts,
    })
}

pub(super) fn read_globals(r: &mut Reader) -> Result<Globals> {
    let count_at = r.pos();
    let count = r.u8()?;
    if count < 8 {
        return Err(r.error_at(
            ModelErrorKind::BadHeaderField { field: "globals count", value: count },
            count_at,
        ));
    }
    let at = r.pos();
    let raw = r.take(count as usize)?;
    let bad = |field: &'static str, i: usize| {
        Err(r.error_at(ModelErrorKind::BadHeaderField { field, value: raw[i] }, at + i))
    };
    if raw[0] > 1 {
        return bad("text encoding", 0);
    }
    if raw[1] > 4 {
        return bad("additional UV count", 1);
    }
    const NAMES: [&str; 6] = [
        "vertex index size",
        "texture index size",
        "material index size",
        "bone index size",
        "morph index size",
        "rigid body index size",
    ];
    for (i, field) in NAMES.into_iter().enumerate() {
        if !matches!(raw[2 + i], 1 | 2 | 4) {
            return bad(field, 2 + i);
        }
    }
    Ok(Globals {
        utf8: raw[0] == 1,
        additional_uvs: raw[1] as usize,
        vertex: raw[2],
        texture: raw[3],
        material: raw[4],
        bone: raw[5],
        morph: raw[6],
        rigid_body: raw[7],
    })
}

/// A text field, decoded lossily: MMD shows a broken name rather than refusing the model.
pub(super) fn text(r: &mut Reader, g: &Globals) -> Result<String> {
    let bytes = r.text_bytes()?;
    if g.utf8 {
        return Ok(String::from_utf8_lossy(bytes).into_owned());
    }
    let units = bytes.chunks_exact(2).map(|u| u16::from_le_bytes([u[0], u[1]]));
    let mut text: String =
        char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
    if bytes.len() % 2 == 1 {
        text.push(char::REPLACEMENT_CHARACTER); // half a code unit
    }
    Ok(text)
}

fn skip_vertices(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::Vertices);
    let fixed = 32 + 16 * g.additional_uvs; // position, normal, uv, additional UVs
    let count = r.count_i32(fixed + 1 + g.bone as usize + 4)?;
    let b = g.bone as usize;
    for i in 0..count {
        r.record(Some(i));
        r.skip(fixed)?;
        let at = r.pos();
        let weights = match r.u8()? {
            0 => b,              // BDEF1
            1 => 2 * b + 4,      // BDEF2
            2 | 4 => 4 * b + 16, // BDEF4, QDEF (2.1)
            3 => 2 * b + 4 + 36, // SDEF: C, R0, R1
            value => {
                return Err(
                    r.error_at(ModelErrorKind::UnknownKind { what: "weight type", value }, at)
                )
            }
        };
        r.skip(weights + 4)?; // weights, edge scale
    }
    Ok(count)
}

fn skip_materials(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::Materials);
    let t = g.texture as usize;
    // colours (diffuse 16, specular 12, power 4, ambient 12), flags, edge (16 + 4), texture
    // and sphere indices, sphere mode, toon mode + at least 1 byte, memo, face count.
    skip_named_records(r, 44 + 1 + 20 + 2 * t + 2 + 1 + 4 + 4, |r| {
        r.skip(44 + 1 + 20 + 2 * t + 1)?;
        skip_toon(r, g)?;
        r.text_bytes()?;
        r.skip(4)
    })
}

/// A material's toon: its mode byte, then a texture index (mode 0) or a shared toon's number
/// (mode 1).
pub(crate) fn skip_toon(r: &mut Reader, g: &Globals) -> Result<()> {
    let at = r.pos();
    match r.u8()? {
        0 => r.skip(g.texture as usize),
        1 => r.skip(1),
        value => Err(r.error_at(ModelErrorKind::UnknownKind { what: "toon mode", value }, at)),
    }
}

/// A bone reference: −1 is none, anything else must name one of the `count` bones.
fn bone_ref(
    r: &mut Reader,
    g: &Globals,
    count: usize,
    what: &'static str,
) -> Result<Option<usize>> {
    let at = r.pos();
    let index = r.index(g.bone)?;
    r.optional_in_range(index, count, what, at)
}

/// A bone reference that may not be −1.
fn bone_ref_required(
    r: &mut Reader,
    g: &Globals,
    count: usize,
    what: &'static str,
) -> Result<usize> {
    let at = r.pos();
    let index = r.index(g.bone)?;
    r.in_range(index as i64, count, what, at)
}

pub(super) fn read_bones(r: &mut Reader, g: &Globals) -> Result<Vec<Bone>> {
    r.enter(ModelSection::Bones);
    let b = g.bone as usize;
    let count = r.count_i32(8 + 12 + b + 4 + 2 + b)?;
    let mut bones = Vec::with_capacity(count);
    for i in 0..count {
        r.record(Some(i));
        let name = text(r, g)?;
        let name_en = text(r, g)?;
        let position = r.vec3()?;
        let parent = bone_ref(r, g, count, "parent bone")?;
        let deform_layer = r.i32()?;
        let flags = BoneFlags(r.u16()?);
        let tail = if flags.contains(BoneFlags::TAIL_IS_BONE) {
            Tail::Bone(bone_ref(r, g, count, "tail bone")?)
        } else {
            Tail::Offset(r.vec3()?)
        };
        let rotation = flags.contains(BoneFlags::APPEND_ROTATION);
        let translation = flags.contains(BoneFlags::APPEND_TRANSLATION);
        let mut append = None;
        if rotation || translation {
            let parent = bone_ref(r, g, count, "append parent")?;
            let ratio = r.f32()?;
            // An append flag with no parent bone (−1) has nothing to follow: no append.
            append = parent.map(|parent| Append {
                parent,
                ratio,
                rotation,
                translation,
                local: flags.contains(BoneFlags::APPEND_LOCAL),
            });
        }
        let fixed_axis = if flags.contains(BoneFlags::FIXED_AXIS) { Some(r.vec3()?) } else { None };
        let local_axes =
            if flags.contains(BoneFlags::LOCAL_AXES) { Some((r.vec3()?, r.vec3()?)) } else { None };
        let external_parent_key =
            if flags.contains(BoneFlags::EXTERNAL_PARENT) { Some(r.i32()?) } else { None };
        let ik = if flags.contains(BoneFlags::IK) { Some(read_ik(r, g, count)?) } else { None };
        bones.push(Bone {
            name_cp932: key_name(&name),
            name,
            name_en,
            position,
            parent,
            deform_layer,
            flags,
            tail,
            append,
            fixed_axis,
            local_axes,
            external_parent_key,
            ik,
            after_physics: flags.contains(BoneFlags::AFTER_PHYSICS),
            pmd_type: None,
        });
    }
    Ok(bones)
}

fn read_ik(r: &mut Reader, g: &Globals, count: usize) -> Result<Ik> {
    let target = bone_ref_required(r, g, count, "IK target")?;
    let loop_count = r.i32()?;
    let limit_angle = r.f32()?;
    let link_count = r.count_i32(g.bone as usize + 1)?;
    let mut links = Vec::with_capacity(link_count);
    for _ in 0..link_count {
        let bone = bone_ref_required(r, g, count, "IK link")?;
        let limits = if r.u8()? != 0 { Some((r.vec3()?, r.vec3()?)) } else { None };
        links.push(IkLink { bone, limits });
    }
    Ok(Ik { target, loop_count, limit_angle, links })
}

/// A morph as first read: group members still hold file morph indices.
enum Pending {
    Bone(Morph),
    Group(Morph, Vec<(usize, f32)>),
    Other,
}

/// Reads the morphs, keeping bone morphs and the group morphs that drive at least one of them.
/// Returns them with a summary of every morph of the file.
fn read_morphs(
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
pub(super) fn morph_offset_size(
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
pub(super) fn read_group_members(
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

/// Walks a section of `i32` count records that each start with a name and an English name;
/// `rest` walks the remainder of one record, which takes at least `min_rest` bytes.
fn skip_named_records(
    r: &mut Reader,
    min_rest: usize,
    mut rest: impl FnMut(&mut Reader) -> Result<()>,
) -> Result<usize> {
    let count = r.count_i32(8 + min_rest)?;
    for i in 0..count {
        r.record(Some(i));
        r.text_bytes()?;
        r.text_bytes()?;
        rest(r)?;
    }
    Ok(count)
}

fn skip_display_frames(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::DisplayFrames);
    skip_named_records(r, 1 + 4, |r| {
        r.skip(1)?; // special frame flag
        let elements = r.count_i32(2)?;
        for _ in 0..elements {
            let at = r.pos();
            match r.u8()? {
                0 => r.skip(g.bone as usize)?,
                1 => r.skip(g.morph as usize)?,
                value => {
                    return Err(r.error_at(
                        ModelErrorKind::UnknownKind { what: "display element type", value },
                        at,
                    ))
                }
            }
        }
        Ok(())
    })
}

fn skip_rigid_bodies(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::RigidBodies);
    // bone, group, mask, shape, size/position/rotation, five physics floats, mode
    let body = g.bone as usize + 1 + 2 + 1 + 36 + 20 + 1;
    skip_named_records(r, body, |r| r.skip(body))
}

fn skip_joints(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::Joints);
    // type, two rigid bodies, position, rotation, four limits, two springs
    let body = 1 + 2 * g.rigid_body as usize + 8 * 12;
    skip_named_records(r, body, |r| r.skip(body))
}

fn skip_soft_bodies(r: &mut Reader, g: &Globals) -> Result<usize> {
    r.enter(ModelSection::SoftBodies);
    // shape, material, group, mask, flags, B-link distance, clusters, mass, margin, aero model,
    // 12 config floats, 6 cluster floats, 4 iteration ints, 3 material floats
    let body = 1 + g.material as usize + 1 + 2 + 1 + 4 * 5 + 4 * (12 + 6 + 4 + 3);
    let (rb, v) = (g.rigid_body as usize, g.vertex as usize);
    // the body, then the anchor and pin counts
    skip_named_records(r, body + 8, |r| {
        r.skip(body)?;
        let anchors = r.count_i32(rb + v + 1)?;
        r.skip(anchors * (rb + v + 1))?;
        let pins = r.count_i32(v)?;
        r.skip(pins * v)
    })
}
