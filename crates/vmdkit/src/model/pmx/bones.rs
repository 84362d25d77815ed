//! The bone table, with each bone's IK.

use super::header::{text, Globals};
use crate::model::error::ModelSection;
use crate::model::reader::{Reader, Result};
use crate::model::types::*;

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

pub(in crate::model) fn read_bones(r: &mut Reader, g: &Globals) -> Result<Vec<Bone>> {
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
