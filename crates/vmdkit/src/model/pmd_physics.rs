//! PMD's physics blocks, after the English names: the ten toon texture names, the rigid bodies
//! (83-byte records) and the joints (124-byte records), converted to PMX terms.
//!
//! What the conversion does, and why (saba `MMDPhysics.cpp` and mmd_tools
//! `core/pmd/importer.py` were read for it):
//!
//! - A PMD body's position is relative to its bone's rest position; a PMX body's is in model
//!   space. Rest bones carry no rotation, so the body's model-space position is the bone's
//!   position plus the stored one and its rotation is unchanged. A body with no bone (0xFFFF) is
//!   relative to bone 0, the centre bone in MMD's models: saba and mmd_tools both do this. A
//!   bone index past the bone table is taken as bone 0 too, and kept as stored so that
//!   [`Model::physics_problems`](super::Model::physics_problems) reports it.
//! - Joint positions and rotations are in model space already, and the limits need no change.
//! - Spring constants are kept as stored. saba negates the Z linear spring of PMD joints only
//!   (not PMX's), as part of its own conversion to a right-handed frame; mmd_tools, which turns
//!   a PMD into a PMX, copies them unchanged, and so does this reader: a PMX made from the PMD
//!   by either editor holds the stored values, and a spring constant is a stiffness whose sign
//!   no frame change should alter.

use super::error::ModelSection;
use super::reader::{decode, Reader, Result};
use super::types::{Joint, RigidBody, SectionCounts};
use glam::Vec3;

const BODY_SIZE: usize = 83;
const JOINT_SIZE: usize = 124;
const NO_BONE: u16 = 0xFFFF;

/// The toon names, rigid bodies and joints, each present when bytes remain. `bones` are the
/// rest positions of the file's bones, which body positions are relative to.
pub(super) fn read_physics(
    r: &mut Reader,
    bones: &[Vec3],
    counts: &mut SectionCounts,
) -> Result<(Vec<RigidBody>, Vec<Joint>)> {
    if r.remaining() > 0 {
        r.enter(ModelSection::ToonTextures);
        r.skip(10 * 100)?;
    }
    let mut bodies = Vec::new();
    let mut joints = Vec::new();
    if r.remaining() > 0 {
        r.enter(ModelSection::RigidBodies);
        let count = r.count_u32(BODY_SIZE)?;
        bodies.reserve_exact(count);
        for i in 0..count {
            r.record(Some(i));
            bodies.push(read_body(r, bones)?);
        }
        counts.rigid_bodies = count;
    }
    if r.remaining() > 0 {
        r.enter(ModelSection::Joints);
        let count = r.count_u32(JOINT_SIZE)?;
        joints.reserve_exact(count);
        for i in 0..count {
            r.record(Some(i));
            joints.push(read_joint(r)?);
        }
        counts.joints = count;
    }
    Ok((bodies, joints))
}

fn read_body(r: &mut Reader, bones: &[Vec3]) -> Result<RigidBody> {
    let name = decode(r.take(20)?);
    let bone = match r.u16()? {
        NO_BONE => None,
        b => Some(b as usize),
    };
    let mut body = RigidBody::read_record(r, (name, String::new()), bone)?;
    // The bone the position is relative to: its own, else bone 0 (see the module's comment).
    let origin =
        bone.and_then(|b| bones.get(b)).or_else(|| bones.first()).copied().unwrap_or(Vec3::ZERO);
    body.position += origin;
    Ok(body)
}

fn read_joint(r: &mut Reader) -> Result<Joint> {
    let name = decode(r.take(20)?);
    let body_a = Some(r.u32()? as usize);
    let body_b = Some(r.u32()? as usize);
    Ok(Joint::from_record((name, String::new(), 0), (body_a, body_b), r.vec3s()?))
}
