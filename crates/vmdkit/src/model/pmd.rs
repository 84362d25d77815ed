//! PMD 1.0 reading, converted to PMX terms as mmd_tools (MT) and babylon-mmd (BM) convert it
//! (reference §9.3): bone types become flags, append and fixed axes; IK records become each IK
//! bone's [`Ik`], with limit angle = control weight × 4 and MMD's X-only limits on knees.
//!
//! PMD has no bone morphs (its skins move vertices), so [`Model::morphs`] is empty.

use super::error::{ModelErrorKind, ModelSection};
use super::pmd_physics::read_physics;
pub(super) use super::reader::decode;
use super::reader::{field, Reader, Result};
use super::types::*;
use crate::text::RawName;
use glam::Vec3;

const MAGIC: &[u8; 3] = b"Pmd";
const BONE_SIZE: usize = 39;
const NO_BONE: u16 = 0xFFFF;

pub(crate) fn is_pmd(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// A bone as stored, before conversion.
pub(super) struct RawBone {
    name: Vec<u8>,
    parent: u16,
    tail: u16,
    kind: u8,
    ik_parent: u16,
    position: Vec3,
    /// Offset of the record, for errors found while converting.
    at: usize,
}

pub(super) struct RawIk {
    bone: usize,
    target: usize,
    iterations: u16,
    control_weight: f32,
    chain: Vec<usize>,
}

/// PMD's optional English names block.
#[derive(Default)]
struct EnglishNames {
    name: String,
    comment: String,
    bones: Vec<String>,
    /// Every skin's but the base skin's.
    skins: Vec<String>,
}

pub(crate) fn parse(data: &[u8]) -> Result<Model> {
    let mut r = Reader::new(data);
    let (name, comment) = read_header(&mut r)?;
    let mut counts = SectionCounts::default();
    r.enter(ModelSection::Vertices);
    counts.vertices = fixed_section(&mut r, 38)?;
    r.enter(ModelSection::Faces);
    counts.face_indices = fixed_section(&mut r, 2)?;
    r.enter(ModelSection::Materials);
    counts.materials = fixed_section(&mut r, 70)?;
    let raw_bones = read_raw_bones(&mut r)?;
    let iks = read_iks(&mut r, raw_bones.len())?;
    let mut skins = read_skins(&mut r)?;
    counts.morphs = skins.len();
    counts.display_frames = skip_display_frames(&mut r)?;
    let english =
        read_english_names(&mut r, raw_bones.len(), counts.morphs, counts.display_frames)?;
    if let Some(english) = &english {
        // The base skin has no English name; the others follow it in order.
        for (skin, name) in skins.iter_mut().skip(1).zip(&english.skins) {
            skin.name_en = name.clone();
        }
    }
    let rest: Vec<Vec3> = raw_bones.iter().map(|b| b.position).collect();
    let (rigid_bodies, joints) = read_physics(&mut r, &rest, &mut counts)?;

    let has_english = english.is_some();
    let english = english.unwrap_or_default();
    r.enter(ModelSection::Bones);
    let mut bones = convert_bones(&mut r, &raw_bones, english.bones)?;
    apply_iks(&mut bones, &raw_bones, iks);
    raise_deform_layers(&mut bones);
    Ok(Model {
        format: ModelFormat::Pmd { english: has_english },
        name,
        name_en: english.name,
        comment,
        comment_en: english.comment,
        bones,
        morphs: Vec::new(),
        morph_list: skins,
        rigid_bodies,
        joints,
        counts,
    })
}

/// The magic, the version (only 1.0 is read), and the model's name and comment.
pub(super) fn read_header(r: &mut Reader) -> Result<(String, String)> {
    r.skip(MAGIC.len())?;
    let version_at = r.pos();
    let version = r.f32()?;
    if version != 1.0 {
        return Err(
            r.error_at(ModelErrorKind::UnsupportedVersion { format: "PMD", version }, version_at)
        );
    }
    let name = decode(r.take(20)?);
    let comment = decode(r.take(256)?);
    Ok((name, comment))
}

pub(super) fn read_raw_bones(r: &mut Reader) -> Result<Vec<RawBone>> {
    r.enter(ModelSection::Bones);
    let bone_count = r.count_u16(BONE_SIZE)?;
    let mut raw_bones = Vec::with_capacity(bone_count);
    for i in 0..bone_count {
        r.record(Some(i));
        let at = r.pos();
        raw_bones.push(RawBone {
            name: field(r.take(20)?).to_vec(),
            parent: r.u16()?,
            tail: r.u16()?,
            kind: r.u8()?,
            ik_parent: r.u16()?,
            position: r.vec3()?,
            at,
        });
    }
    Ok(raw_bones)
}

/// Reads the skins (PMD's vertex morphs): names, panels and vertex counts, the offsets
/// walked. The first is the base skin (panel 0) the others are relative to.
fn read_skins(r: &mut Reader) -> Result<Vec<MorphSummary>> {
    r.enter(ModelSection::Morphs);
    let count = r.count_u16(25)?;
    let mut skins = Vec::with_capacity(count);
    for i in 0..count {
        r.record(Some(i));
        let name = decode(r.take(20)?);
        let at = r.pos();
        let vertices = r.u32()?;
        let panel = r.u8()?;
        let n = r.check_count(vertices as u64, 16, at)?;
        r.skip(n * 16)?;
        skins.push(MorphSummary {
            name,
            name_en: String::new(),
            panel,
            kind: MorphType::Vertex,
            offsets: n,
        });
    }
    Ok(skins)
}

/// Walks the skin display list, the frame names and the frame entries; returns how many
/// frames there are.
fn skip_display_frames(r: &mut Reader) -> Result<usize> {
    r.enter(ModelSection::DisplayFrames);
    let skin_display = r.u8()? as usize;
    r.skip(skin_display * 2)?;
    let frame_names = r.u8()? as usize;
    r.skip(frame_names * 50)?;
    let at = r.pos();
    let entries = r.u32()?;
    let entries = r.check_count(entries as u64, 3, at)?;
    r.skip(entries * 3)?;
    Ok(frame_names)
}

// The optional blocks below are each present when bytes remain, and must then be complete.

/// The English names block, if the file has one and its flag is set.
fn read_english_names(
    r: &mut Reader,
    bone_count: usize,
    skins: usize,
    frames: usize,
) -> Result<Option<EnglishNames>> {
    if r.remaining() == 0 {
        return Ok(None);
    }
    r.enter(ModelSection::EnglishNames);
    if r.u8()? == 0 {
        return Ok(None);
    }
    let name = decode(r.take(20)?);
    let comment = decode(r.take(256)?);
    let at = r.pos();
    r.check_count(bone_count as u64, 20, at)?;
    let bones = (0..bone_count).map(|_| r.take(20).map(decode)).collect::<Result<_>>()?;
    // The base skin has no English name.
    let others = skins.saturating_sub(1);
    let skins = (0..others).map(|_| r.take(20).map(decode)).collect::<Result<_>>()?;
    r.skip(frames * 50)?;
    Ok(Some(EnglishNames { name, comment, bones, skins }))
}

/// A `u32` count followed by that many records of `size` bytes.
pub(super) fn fixed_section(r: &mut Reader, size: usize) -> Result<usize> {
    let count = r.count_u32(size)?;
    r.skip(count * size)?;
    Ok(count)
}

fn bone_index(
    r: &Reader,
    index: u16,
    count: usize,
    what: &'static str,
    at: usize,
) -> Result<usize> {
    r.in_range(index as i64, count, what, at)
}

pub(super) fn read_iks(r: &mut Reader, bone_count: usize) -> Result<Vec<RawIk>> {
    r.enter(ModelSection::Ik);
    let count = r.count_u16(11)?;
    let mut iks = Vec::with_capacity(count);
    for i in 0..count {
        r.record(Some(i));
        let at = r.pos();
        let bone = r.u16()?;
        let bone = bone_index(r, bone, bone_count, "IK bone", at)?;
        let target = r.u16()?;
        let target = bone_index(r, target, bone_count, "IK target", at + 2)?;
        let chain_len = r.u8()? as usize;
        let iterations = r.u16()?;
        let control_weight = r.f32()?;
        let mut chain = Vec::with_capacity(chain_len);
        for _ in 0..chain_len {
            let at = r.pos();
            let link = r.u16()?;
            chain.push(bone_index(r, link, bone_count, "IK link", at)?);
        }
        iks.push(RawIk { bone, target, iterations, control_weight, chain });
    }
    Ok(iks)
}

fn convert_bones(r: &mut Reader, raw: &[RawBone], mut names_en: Vec<String>) -> Result<Vec<Bone>> {
    names_en.resize(raw.len(), String::new());
    let mut bones = Vec::with_capacity(raw.len());
    for (i, (b, name_en)) in raw.iter().zip(names_en).enumerate() {
        r.record(Some(i));
        bones.push(convert_bone(r, raw, b, name_en)?);
    }
    Ok(bones)
}

/// One bone in PMX terms; index errors point at the field in the bone's record.
fn convert_bone(r: &Reader, raw: &[RawBone], b: &RawBone, name_en: String) -> Result<Bone> {
    let index = |what, value: u16, field_at| bone_index(r, value, raw.len(), what, b.at + field_at);
    let parent = match b.parent {
        NO_BONE => None,
        p => Some(index("parent bone", p, 20)?),
    };
    // Tail 0 (or a negative i16) means no tail, as in MT and BM.
    let tail_bone = match b.tail as i16 {
        t if t <= 0 => None,
        _ => Some(index("tail bone", b.tail, 22)?),
    };
    let mut bone = Bone {
        name_en,
        // The field's own bytes: a PMD stores names in CP932 already.
        name_cp932: RawName::from_bytes_mmd(&b.name),
        flags: BoneFlags::ROTATABLE
            | BoneFlags::MOVABLE
            | BoneFlags::VISIBLE
            | BoneFlags::CONTROLLABLE,
        tail: Tail::Bone(tail_bone),
        pmd_type: Some(b.kind),
        ..Bone::new(&decode(&b.name), b.position, parent)
    };
    apply_bone_type(&mut bone, b, raw, index)?;
    Ok(bone)
}

/// Bone types to PMX, following MT's `import_pmd_to_pmx` (reference §9.3 table).
fn apply_bone_type(
    bone: &mut Bone,
    b: &RawBone,
    raw: &[RawBone],
    index: impl Fn(&'static str, u16, usize) -> Result<usize>,
) -> Result<()> {
    let rotation_append = |parent, ratio| {
        Some(Append { parent, ratio, rotation: true, translation: false, local: false })
    };
    match b.kind {
        1 => {}
        2 => bone.deform_layer = 1,
        5 => {
            // Under-rotate: the whole rotation of the bone in the "IK" field.
            bone.append = rotation_append(index("append parent", b.ik_parent, 25)?, 1.0);
            bone.deform_layer = 2;
        }
        6 | 7 => bone.flags.set(BoneFlags::VISIBLE, false),
        8 => {
            // Twist: the axis towards the tail bone.
            let t = index("twist tail bone", b.tail, 22)?;
            bone.fixed_axis = (raw[t].position - b.position).try_normalize();
            bone.tail = Tail::Bone(None);
        }
        9 => {
            // Follow-rotate: the tail field names the source, the "IK" field the percent.
            let t = index("append parent", b.tail, 22)?;
            bone.append = rotation_append(t, b.ik_parent as i16 as f32 / 100.0);
            bone.flags.set(BoneFlags::VISIBLE, false);
            bone.tail = Tail::Bone(None);
        }
        _ => {}
    }
    let flags = &mut bone.flags;
    if b.kind != 1 && b.kind != 2 {
        flags.set(BoneFlags::MOVABLE, false);
    }
    flags.set(BoneFlags::TAIL_IS_BONE, true);
    flags.set(BoneFlags::APPEND_ROTATION, bone.append.is_some());
    flags.set(BoneFlags::FIXED_AXIS, bone.fixed_axis.is_some());
    Ok(())
}

/// Knees (ひざ) bend about X only: PMX Editor's IK制限角.txt limits, used by MT and BM.
fn knee_limits() -> (Vec3, Vec3) {
    (Vec3::new((-180.0f32).to_radians(), 0.0, 0.0), Vec3::new((-0.5f32).to_radians(), 0.0, 0.0))
}

/// Attaches each IK record to its bone. A second record on the same bone gets a copy of the
/// bone named `name+`, parented to it, as MT and BM do, so that no chain is lost.
fn apply_iks(bones: &mut Vec<Bone>, raw: &[RawBone], iks: Vec<RawIk>) {
    for ik in iks {
        let links = ik
            .chain
            .iter()
            .map(|&bone| IkLink {
                bone,
                limits: decode(&raw[bone].name).ends_with("ひざ").then(knee_limits),
            })
            .collect();
        let solved = Ik {
            target: ik.target,
            loop_count: ik.iterations as i32,
            limit_angle: ik.control_weight * 4.0,
            links,
        };
        let mut owner = ik.bone;
        if bones[owner].ik.is_some() {
            let mut copy = bones[owner].clone();
            copy.name.push('+');
            copy.name_cp932 = RawName::from_bytes_mmd(&[raw[owner].name.as_slice(), b"+"].concat());
            copy.parent = Some(owner);
            copy.tail = Tail::Bone(None);
            copy.flags.set(BoneFlags::VISIBLE, false);
            bones.push(copy);
            owner = bones.len() - 1;
        }
        let bone = &mut bones[owner];
        bone.flags = bone.flags | BoneFlags::IK | BoneFlags::MOVABLE;
        bone.deform_layer = bone.deform_layer.max(1);
        bone.ik = Some(solved);
    }
}

/// No bone may deform in a lower layer than its parent (MT, BM). Repeats until stable, which
/// handles parents listed after their children; the pass limit bounds a cyclic hierarchy.
fn raise_deform_layers(bones: &mut [Bone]) {
    for _ in 0..bones.len() {
        let mut changed = false;
        for i in 0..bones.len() {
            if let Some(p) = bones[i].parent {
                if bones[i].deform_layer < bones[p].deform_layer {
                    bones[i].deform_layer = bones[p].deform_layer;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}
