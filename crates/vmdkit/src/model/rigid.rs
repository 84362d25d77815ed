//! The physics records of a model: rigid bodies and the joints between them, as PMX stores them
//! (PMD's are converted to the same terms on reading).

use super::error::ModelErrorKind;
use super::reader::{Reader, Result};
use glam::Vec3;

/// What a rigid body's shape is; [`RigidBody::size`] is read by shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RigidShape {
    /// A sphere of radius `size.x` (file value 0).
    Sphere,
    /// A box of half extents `size` (file value 1).
    Box,
    /// A capsule along the body's Y axis: radius `size.x`, height of the cylinder `size.y`
    /// (file value 2).
    Capsule,
}

impl RigidShape {
    /// The shape a file's number means, if any.
    pub fn from_file(value: u8) -> Option<RigidShape> {
        Some(match value {
            0 => RigidShape::Sphere,
            1 => RigidShape::Box,
            2 => RigidShape::Capsule,
            _ => return None,
        })
    }

    /// The file's number for the shape.
    pub fn file_value(self) -> u8 {
        match self {
            RigidShape::Sphere => 0,
            RigidShape::Box => 1,
            RigidShape::Capsule => 2,
        }
    }

    /// `sphere`, `box` or `capsule`.
    pub fn name(self) -> &'static str {
        match self {
            RigidShape::Sphere => "sphere",
            RigidShape::Box => "box",
            RigidShape::Capsule => "capsule",
        }
    }
}

/// How a rigid body and its bone move each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RigidMode {
    /// 0: the body follows its bone (kinematic), as a collider and an anchor for joints.
    FollowBone,
    /// 1: the body is simulated and its bone takes the body's rotation and position.
    Physics,
    /// 2: the body is simulated; its bone takes the body's rotation and keeps its own position.
    PhysicsWithBonePosition,
}

impl RigidMode {
    /// The mode a file's number means, if any.
    pub fn from_file(value: u8) -> Option<RigidMode> {
        Some(match value {
            0 => RigidMode::FollowBone,
            1 => RigidMode::Physics,
            2 => RigidMode::PhysicsWithBonePosition,
            _ => return None,
        })
    }

    /// The file's number for the mode (0, 1 or 2).
    pub fn file_value(self) -> u8 {
        match self {
            RigidMode::FollowBone => 0,
            RigidMode::Physics => 1,
            RigidMode::PhysicsWithBonePosition => 2,
        }
    }

    /// Whether the simulation moves the body (modes 1 and 2).
    pub fn is_simulated(self) -> bool {
        !matches!(self, RigidMode::FollowBone)
    }
}

/// One rigid body, in model space (MMD's left-handed axes, model units).
#[derive(Clone, Debug, PartialEq)]
pub struct RigidBody {
    /// The body's name, usually Japanese.
    pub name: String,
    /// The English name (empty when the file has none).
    pub name_en: String,
    /// The related bone, an index into [`Model::bones`](super::Model::bones), as stored: `None`
    /// for none (−1, or PMD's 0xFFFF). It may be out of range in a damaged file:
    /// [`Model::physics_problems`](super::Model::physics_problems) reports that.
    pub bone: Option<usize>,
    /// The collision group, 0–15.
    pub group: u8,
    /// The non-collision mask: bit *g* set means the body collides with group *g*.
    pub mask: u16,
    /// The shape.
    pub shape: RigidShape,
    /// The shape's size, read by [`RigidBody::shape`].
    pub size: Vec3,
    /// The body's centre, model space (PMD stores it relative to its bone; it is converted).
    pub position: Vec3,
    /// The body's rotation in radians, as stored: applied as Y, then X, then Z.
    pub rotation: Vec3,
    /// Mass.
    pub mass: f32,
    /// Linear damping, 0–1: the share of velocity lost per second, as Bullet applies it.
    pub linear_damping: f32,
    /// Angular damping, 0–1, as linear damping.
    pub angular_damping: f32,
    /// Restitution (bounciness).
    pub restitution: f32,
    /// Friction.
    pub friction: f32,
    /// How body and bone move each other.
    pub mode: RigidMode,
}

/// One joint (a 6-DOF spring) between two rigid bodies, in model space.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// The joint's name, usually Japanese.
    pub name: String,
    /// The English name (empty when the file has none).
    pub name_en: String,
    /// The joint type as stored: 0 is the 6-DOF spring, the only one PMX 2.0 has (PMD: 0).
    pub kind: u8,
    /// Rigid body A, an index into [`Model::rigid_bodies`](super::Model::rigid_bodies), as
    /// stored (`None` for −1; may be out of range in a damaged file).
    pub body_a: Option<usize>,
    /// Rigid body B, as [`Joint::body_a`].
    pub body_b: Option<usize>,
    /// The joint's frame origin, model space.
    pub position: Vec3,
    /// The joint's frame rotation in radians, applied as Y, then X, then Z.
    pub rotation: Vec3,
    /// Lower bound of the translation per axis, in the joint's frame. An axis whose lower bound
    /// is above its upper is free.
    pub linear_min: Vec3,
    /// Upper bound of the translation per axis.
    pub linear_max: Vec3,
    /// Lower bound of the rotation per axis, radians.
    pub angular_min: Vec3,
    /// Upper bound of the rotation per axis, radians.
    pub angular_max: Vec3,
    /// Spring constant per translation axis (0: no spring).
    pub linear_spring: Vec3,
    /// Spring constant per rotation axis (0: no spring).
    pub angular_spring: Vec3,
}

impl Joint {
    /// The joint's eight vectors in the order its record stores them: position, rotation,
    /// linear min and max, angular min and max, linear and angular springs.
    pub fn vectors(&self) -> [Vec3; 8] {
        [
            self.position,
            self.rotation,
            self.linear_min,
            self.linear_max,
            self.angular_min,
            self.angular_max,
            self.linear_spring,
            self.angular_spring,
        ]
    }

    /// A joint from its record as PMX and PMD both lay it out after the names, type and bodies:
    /// position, rotation, linear min and max, angular min and max, linear and angular springs.
    pub(crate) fn from_record(
        (name, name_en, kind): (String, String, u8),
        (body_a, body_b): (Option<usize>, Option<usize>),
        [position, rotation, linear_min, linear_max, angular_min, angular_max, linear_spring, angular_spring]: [Vec3; 8],
    ) -> Joint {
        Joint {
            name,
            name_en,
            kind,
            body_a,
            body_b,
            position,
            rotation,
            linear_min,
            linear_max,
            angular_min,
            angular_max,
            linear_spring,
            angular_spring,
        }
    }
}

impl RigidBody {
    /// Reads the rest of a rigid body record after its names and bone, laid out alike in PMX
    /// and PMD: group, mask, shape, size, position (as stored: PMD's is relative to its bone),
    /// rotation, mass, the two dampings, restitution, friction and mode.
    pub(crate) fn read_record(
        r: &mut Reader,
        (name, name_en): (String, String),
        bone: Option<usize>,
    ) -> Result<RigidBody> {
        let group = r.u8()?;
        let mask = r.u16()?;
        let shape = file_kind(r, "rigid body shape", RigidShape::from_file)?;
        let [size, position, rotation] = r.vec3s()?;
        let [mass, linear_damping, angular_damping, restitution, friction] =
            [r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?];
        let mode = file_kind(r, "rigid body mode", RigidMode::from_file)?;
        Ok(RigidBody {
            name,
            name_en,
            bone,
            group,
            mask,
            shape,
            size,
            position,
            rotation,
            mass,
            linear_damping,
            angular_damping,
            restitution,
            friction,
            mode,
        })
    }
}

/// A one-byte kind (shape, mode): an unknown number is an error at its offset.
fn file_kind<T>(r: &mut Reader, what: &'static str, from_file: fn(u8) -> Option<T>) -> Result<T> {
    let at = r.pos();
    let value = r.u8()?;
    from_file(value).ok_or_else(|| r.error_at(ModelErrorKind::UnknownKind { what, value }, at))
}
