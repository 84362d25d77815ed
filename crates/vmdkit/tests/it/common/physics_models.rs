//! Small models with rigid bodies and joints, built in code, whose behaviour has a closed form
//! or an obvious shape: the physics tests check the simulation against them, and the Blender
//! comparison builds the same bodies and joints in Blender's Bullet world.
//!
//! Every model has a root bone 全ての親 at the origin (bone 0), so that the simulation's reset
//! test has a root to watch. Distances are model units, angles radians, gravity is MMD's
//! (0, −98, 0). Rest poses are the joints' equilibria: to start a pendulum or a spring away from
//! rest, key its bone's rotation in the first pose (the bodies are placed from that pose).
#![allow(dead_code)] // each user takes a subset

use glam::Vec3;
use vmdkit::model::{Bone, Joint, Model, ModelFormat, RigidBody, RigidMode, RigidShape};

/// Pendulum: the pivot's height and the bob's distance below it (pivot to the bob's centre).
pub const PENDULUM_PIVOT: Vec3 = Vec3::new(0.0, 20.0, 0.0);
/// Pendulum: the distance from the pivot to the bob's centre of mass.
pub const PENDULUM_LENGTH: f32 = 10.0;
/// Pendulum: the bob, a sphere of this radius and mass 1.
pub const PENDULUM_BOB_RADIUS: f32 = 1.0;

/// Angular spring: the box's half extents (it turns about its own Y axis through its centre).
pub const SPRING_HALF_EXTENTS: Vec3 = Vec3::new(2.0, 0.5, 1.0);
/// Angular spring: the box's mass.
pub const SPRING_MASS: f32 = 2.0;
/// Angular spring: the spring constant about Y (torque per radian).
pub const SPRING_K: f32 = 40.0;
/// Angular spring: the box's angular damping (Bullet's share of angular velocity lost per
/// second).
pub const SPRING_DAMPING: f32 = 0.2;

/// Limit model: the arm's angular limit about X, either way, radians.
pub const LIMIT_ANGLE: f32 = 0.3;
/// Limit model: the distance from the pivot to the arm's body, horizontal at rest.
pub const LIMIT_ARM: f32 = 8.0;

/// Hair chain: the number of capsules.
pub const HAIR_LINKS: usize = 5;
/// Hair chain: the length of one link (bone to bone).
pub const HAIR_SEGMENT: f32 = 2.0;

/// The bone index of the pendulum's bob bone, the spring's body bone, the limit arm's bone.
pub const MOVING_BONE: usize = 2;

/// A model of `bones`, `rigid_bodies` and `joints` and nothing else.
pub fn model(
    name: &str,
    bones: Vec<Bone>,
    rigid_bodies: Vec<RigidBody>,
    joints: Vec<Joint>,
) -> Model {
    Model {
        rigid_bodies,
        joints,
        ..Model::from_bones(ModelFormat::Pmx { version: 2.0, utf8: true }, name, bones)
    }
}

/// A rigid body with no damping, friction 0.5, no restitution, colliding with nothing.
#[allow(clippy::too_many_arguments)]
pub fn body(
    name: &str,
    bone: Option<usize>,
    shape: RigidShape,
    size: Vec3,
    position: Vec3,
    rotation: Vec3,
    mass: f32,
    mode: RigidMode,
) -> RigidBody {
    RigidBody {
        name: name.to_string(),
        name_en: String::new(),
        bone,
        group: 0,
        mask: 0,
        shape,
        size,
        position,
        rotation,
        mass,
        linear_damping: 0.0,
        angular_damping: 0.0,
        restitution: 0.0,
        friction: 0.5,
        mode,
    }
}

/// Which way a joint axis goes: locked (lower = upper = 0), limited to ±`a`, or free (lower
/// above upper, as MMD files say it).
#[derive(Clone, Copy, Debug)]
pub enum Axis {
    /// lower = upper = 0.
    Locked,
    /// −a … a.
    Limited(f32),
    /// lower = 1, upper = −1.
    Free,
}

fn bounds(axes: [Axis; 3]) -> (Vec3, Vec3) {
    let pair = |a: Axis| match a {
        Axis::Locked => (0.0, 0.0),
        Axis::Limited(a) => (-a, a),
        Axis::Free => (1.0, -1.0),
    };
    let [x, y, z] = axes.map(pair);
    (Vec3::new(x.0, y.0, z.0), Vec3::new(x.1, y.1, z.1))
}

/// A joint at `position` (rotation zero) between bodies `a` and `b`, every linear axis locked,
/// the angular axes as `angular`, with angular springs `spring`.
pub fn joint(
    name: &str,
    a: usize,
    b: usize,
    position: Vec3,
    angular: [Axis; 3],
    spring: Vec3,
) -> Joint {
    let (angular_min, angular_max) = bounds(angular);
    Joint {
        name: name.to_string(),
        name_en: String::new(),
        kind: 0,
        body_a: Some(a),
        body_b: Some(b),
        position,
        rotation: Vec3::ZERO,
        linear_min: Vec3::ZERO,
        linear_max: Vec3::ZERO,
        angular_min,
        angular_max,
        linear_spring: Vec3::ZERO,
        angular_spring: spring,
    }
}

/// The root 全ての親 at the origin, an anchor bone at `pivot`, and a moving bone at `pivot` too
/// (its body hangs off it, so that turning the bone turns the body about the pivot).
fn pivot_bones(pivot: Vec3) -> Vec<Bone> {
    vec![
        Bone::new("全ての親", Vec3::ZERO, None),
        Bone::new("anchor", pivot, Some(0)),
        Bone::new("moving", pivot, Some(1)),
    ]
}

/// A kinematic sphere on the anchor bone: what the joint holds on to.
fn anchor_body(pivot: Vec3) -> RigidBody {
    body(
        "anchor",
        Some(1),
        RigidShape::Sphere,
        Vec3::splat(0.5),
        pivot,
        Vec3::ZERO,
        1.0,
        RigidMode::FollowBone,
    )
}

/// A pendulum: a kinematic anchor at [`PENDULUM_PIVOT`] and a sphere bob (mass 1, radius
/// [`PENDULUM_BOB_RADIUS`]) [`PENDULUM_LENGTH`] below it in `mode`, on a joint free about X,
/// locked about Y and Z and in translation, with no spring. Swing it by keying bone
/// [`MOVING_BONE`]'s rotation about X in the first pose.
pub fn pendulum(mode: RigidMode) -> Model {
    let pivot = PENDULUM_PIVOT;
    let bob = body(
        "bob",
        Some(MOVING_BONE),
        RigidShape::Sphere,
        Vec3::splat(PENDULUM_BOB_RADIUS),
        pivot - Vec3::Y * PENDULUM_LENGTH,
        Vec3::ZERO,
        1.0,
        mode,
    );
    let hinge = joint("hinge", 0, 1, pivot, [Axis::Free, Axis::Locked, Axis::Locked], Vec3::ZERO);
    model("pendulum", pivot_bones(pivot), vec![anchor_body(pivot), bob], vec![hinge])
}

/// The pendulum's moment of inertia about its pivot: the bob's own (2/5 m r²) plus m L².
pub fn pendulum_inertia_about_pivot() -> f32 {
    let r = PENDULUM_BOB_RADIUS;
    0.4 * r * r + PENDULUM_LENGTH * PENDULUM_LENGTH
}

/// An angular spring: a box ([`SPRING_HALF_EXTENTS`], mass [`SPRING_MASS`], angular damping
/// [`SPRING_DAMPING`]) centred on a joint to the kinematic anchor; the joint turns about Y
/// within ±1 rad with spring [`SPRING_K`] and is locked otherwise. Gravity exerts no torque
/// (the pivot is the centre of mass). Start it by keying bone [`MOVING_BONE`] about Y.
pub fn angular_spring() -> Model {
    let centre = Vec3::new(0.0, 10.0, 0.0);
    let mut boxed = body(
        "box",
        Some(MOVING_BONE),
        RigidShape::Box,
        SPRING_HALF_EXTENTS,
        centre,
        Vec3::ZERO,
        SPRING_MASS,
        RigidMode::Physics,
    );
    boxed.angular_damping = SPRING_DAMPING;
    let spring = joint(
        "spring",
        0,
        1,
        centre,
        [Axis::Locked, Axis::Limited(1.0), Axis::Locked],
        Vec3::new(0.0, SPRING_K, 0.0),
    );
    model("angular spring", pivot_bones(centre), vec![anchor_body(centre), boxed], vec![spring])
}

/// The spring box's moment of inertia about Y: m (hx² + hz²) / 3.
pub fn spring_inertia() -> f32 {
    let h = SPRING_HALF_EXTENTS;
    SPRING_MASS * (h.x * h.x + h.z * h.z) / 3.0
}

/// A limit: a sphere (mass 1) held horizontally [`LIMIT_ARM`] from a pivot by a joint limited
/// to ±[`LIMIT_ANGLE`] about X and locked otherwise; gravity pulls it past the limit for as long
/// as it runs.
pub fn limit() -> Model {
    let pivot = Vec3::new(0.0, 10.0, 0.0);
    let arm = body(
        "arm",
        Some(MOVING_BONE),
        RigidShape::Sphere,
        Vec3::splat(1.0),
        pivot - Vec3::Z * LIMIT_ARM,
        Vec3::ZERO,
        1.0,
        RigidMode::Physics,
    );
    let stop = joint(
        "stop",
        0,
        1,
        pivot,
        [Axis::Limited(LIMIT_ANGLE), Axis::Locked, Axis::Locked],
        Vec3::ZERO,
    );
    model("limit", pivot_bones(pivot), vec![anchor_body(pivot), arm], vec![stop])
}

/// The hair chain's bone positions: [`HAIR_LINKS`] + 1 points from the head's side, sticking
/// out 45° sideways and down as twin tails do in a rest pose.
pub fn hair_points() -> Vec<Vec3> {
    let start = Vec3::new(2.0, 16.0, 0.0);
    let dir = Vec3::new(1.0, -1.0, 0.0).normalize();
    (0..=HAIR_LINKS).map(|i| start + dir * HAIR_SEGMENT * i as f32).collect()
}

/// A hair chain: 全ての親, a head bone with a kinematic sphere, and [`HAIR_LINKS`] capsules
/// (mode 1, mass 0.2, damping 0.9 linear and angular, within what real hair has) hanging from it at 45°,
/// each on a joint at its bone, limited to ±60° about X and Z and ±10° about Y with small
/// angular springs, translation locked. Hair collides with neither the head nor itself (group
/// 2, mask without groups 0 and 2), as twin tails are set up. Bones: 0 root, 1 head, 2..=6 the
/// chain (6 is the tip, with no body).
pub fn hair_chain() -> Model {
    let points = hair_points();
    let head_pos = Vec3::new(0.0, 16.0, 0.0);
    let mut bones =
        vec![Bone::new("全ての親", Vec3::ZERO, None), Bone::new("頭", head_pos, Some(0))];
    for (i, p) in points.iter().enumerate() {
        bones.push(Bone::new(&format!("髪{i}"), *p, Some(bones.len() - 1)));
    }
    let mut head = body(
        "頭",
        Some(1),
        RigidShape::Sphere,
        Vec3::splat(1.5),
        head_pos,
        Vec3::ZERO,
        1.0,
        RigidMode::FollowBone,
    );
    head.group = 0;
    head.mask = 0xFFFF;
    let mut bodies = vec![head];
    let mut joints = Vec::new();
    let radius = 0.3;
    // A capsule along Y turned 45° about Z lies along the chain: +Y goes to (−sin 45°, cos 45°),
    // the chain's line (−1 times its direction).
    let rotation = Vec3::new(0.0, 0.0, std::f32::consts::FRAC_PI_4);
    for i in 0..HAIR_LINKS {
        let centre = (points[i] + points[i + 1]) * 0.5;
        let mut link = body(
            &format!("髪{i}"),
            Some(2 + i),
            RigidShape::Capsule,
            Vec3::new(radius, HAIR_SEGMENT - 2.0 * radius, 0.0),
            centre,
            rotation,
            0.2,
            RigidMode::Physics,
        );
        link.group = 2;
        link.mask = !(1 | 4);
        link.linear_damping = 0.9;
        link.angular_damping = 0.9;
        bodies.push(link);
        let limits = [
            Axis::Limited(60f32.to_radians()),
            Axis::Limited(10f32.to_radians()),
            Axis::Limited(60f32.to_radians()),
        ];
        joints.push(joint(&format!("髪{i}"), i, i + 1, points[i], limits, Vec3::splat(5.0)));
    }
    model("hair chain", bones, bodies, joints)
}

/// The hair chain's tip bone (the last chain bone, with no body) and its root (the first).
pub fn hair_root_and_tip() -> (usize, usize) {
    (2, 2 + HAIR_LINKS)
}
