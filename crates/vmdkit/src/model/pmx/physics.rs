//! PMX rigid bodies and joints, kept as stored (model space already).
//!
//! Indices are read as the file holds them: a body's bone or a joint's body past the end of its
//! table is kept, for [`Model::physics_problems`](crate::model::Model::physics_problems) to
//! report, so that one damaged record does not cost the whole model. An index below −1 names
//! nothing and is a [`ModelErrorKind::BadIndex`] error. An unknown shape or mode is an
//! [`ModelErrorKind::UnknownKind`] error; an unknown joint type is kept (PMX 2.1 added types
//! besides the 6-DOF spring, 0, and [`Joint::kind`] holds the number).

use super::header::{text, Globals};
use crate::model::error::{ModelErrorKind, ModelSection};
use crate::model::reader::{Reader, Result};
use crate::model::types::{Joint, RigidBody};

/// An index that may be −1 (none) or past its table's end, but never another negative value.
fn loose_index(r: &mut Reader, size: u8, what: &'static str) -> Result<Option<usize>> {
    let at = r.pos();
    match r.index(size)? {
        -1 => Ok(None),
        i if i < 0 => {
            Err(r.error_at(ModelErrorKind::BadIndex { what, index: i as i64, count: 0 }, at))
        }
        i => Ok(Some(i as usize)),
    }
}

pub(super) fn read_rigid_bodies(r: &mut Reader, g: &Globals) -> Result<Vec<RigidBody>> {
    r.enter(ModelSection::RigidBodies);
    // two names, bone, group, mask, shape, size/position/rotation, five physics floats, mode
    let count = r.count_i32(8 + g.bone as usize + 1 + 2 + 1 + 36 + 20 + 1)?;
    let mut bodies = Vec::with_capacity(count);
    for i in 0..count {
        r.record(Some(i));
        let name = text(r, g)?;
        let name_en = text(r, g)?;
        let bone = loose_index(r, g.bone, "rigid body bone")?;
        bodies.push(RigidBody::read_record(r, (name, name_en), bone)?);
    }
    Ok(bodies)
}

pub(super) fn read_joints(r: &mut Reader, g: &Globals) -> Result<Vec<Joint>> {
    r.enter(ModelSection::Joints);
    // two names, type, two rigid bodies, position, rotation, four limits, two springs
    let count = r.count_i32(8 + 1 + 2 * g.rigid_body as usize + 8 * 12)?;
    let mut joints = Vec::with_capacity(count);
    for i in 0..count {
        r.record(Some(i));
        let name = text(r, g)?;
        let name_en = text(r, g)?;
        let kind = r.u8()?;
        let body_a = loose_index(r, g.rigid_body, "joint rigid body")?;
        let body_b = loose_index(r, g.rigid_body, "joint rigid body")?;
        joints.push(Joint::from_record((name, name_en, kind), (body_a, body_b), r.vec3s()?));
    }
    Ok(joints)
}
