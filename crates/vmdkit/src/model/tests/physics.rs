//! Rigid bodies and joints of the fixtures: the PMX fixture's body and joint at every index
//! width and both encodings (a joint with body B −1), the PMD fixture's body placed from bone 0,
//! and what `physics_problems` says of each.

use super::*;

#[test]
fn pmx_fixture_physics_reads_at_every_width_and_reports_the_missing_body() {
    for version in [2.0, 2.1] {
        for utf8 in [false, true] {
            for sizes in SIZES {
                let model = Model::parse(&pmx_fixture(version, utf8, sizes)).unwrap();
                let body = &model.rigid_bodies[0];
                assert_eq!(
                    (body.name.as_str(), body.bone, body.group, body.mask),
                    ("rb", Some(0), 0, 0xFFFF)
                );
                assert_eq!((body.shape, body.mode), (RigidShape::Sphere, RigidMode::FollowBone));
                assert_eq!(
                    (body.size, body.position, body.rotation),
                    (Vec3::ONE, Vec3::ONE, Vec3::ONE)
                );
                assert_eq!([body.mass, body.linear_damping, body.friction], [1.0; 3]);
                let joint = &model.joints[0];
                assert_eq!(
                    (joint.name.as_str(), joint.kind, joint.body_a, joint.body_b),
                    ("j", 0, Some(0), None)
                );
                assert_eq!(joint.angular_spring, Vec3::ZERO);
                let problems = model.physics_problems();
                assert_eq!(problems.len(), 1, "{problems:?}");
                assert_eq!(
                    (problems[0].item, problems[0].index, &problems[0].kind),
                    (PhysicsItem::Joint, 0, &PhysicsProblemKind::MissingBody { end: JointEnd::B })
                );
                assert_eq!(problems[0].to_string(), "joint 0 \"j\": body B is none");
            }
        }
    }
}

#[test]
fn pmd_fixture_body_is_placed_from_bone_zero_and_its_zero_record_has_problems() {
    let model = Model::parse(&pmd_fixture()).unwrap();
    // The record is all zeros: bone 0, a sphere of radius 0 at bone 0's position.
    let body = &model.rigid_bodies[0];
    assert_eq!(
        (body.bone, body.shape, body.mode),
        (Some(0), RigidShape::Sphere, RigidMode::FollowBone)
    );
    assert_eq!(body.position, model.bones[0].position);
    assert_eq!(model.joints[0].body_a, Some(0));
    let text: Vec<String> = model.physics_problems().iter().map(|p| p.to_string()).collect();
    assert_eq!(
        text,
        [
            "rigid body 0 \"\": sphere size [0, 0, 0] is not positive",
            "joint 0 \"\": joins rigid body 0 to itself",
        ]
    );
    // A bone index past the table is kept (and reported); the position is taken from bone 0.
    let mut data = pmd_fixture();
    let body_at = data.len() - 4 - 124 - 83;
    data[body_at + 20..body_at + 22].copy_from_slice(&500u16.to_le_bytes());
    data[body_at + 38..body_at + 42].copy_from_slice(&2.0f32.to_le_bytes()); // relative x
    let model = Model::parse(&data).unwrap();
    let body = &model.rigid_bodies[0];
    assert_eq!(body.bone, Some(500));
    assert_eq!(body.position, model.bones[0].position + Vec3::X * 2.0);
    assert_eq!(
        model.physics_problems()[0].kind,
        PhysicsProblemKind::BoneOutOfRange { bone: 500, bones: model.bones.len() }
    );
}
