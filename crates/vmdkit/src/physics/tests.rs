//! Unit tests of the conversions; the simulation's tests are in `tests/it/physics.rs`.

use super::convert::{damping, euler, Transform};
use glam::{Quat, Vec3};

#[test]
fn damping_matches_bullets_retention_over_a_second() {
    for d in [0.0f32, 0.1, 0.5, 0.9, 0.99] {
        let c = damping(d);
        // Bullet keeps (1 − d) of the velocity per second; exp(−c) must be the same.
        assert!(((-c).exp() - (1.0 - d)).abs() < 1e-5, "d {d}: c {c}");
    }
    assert_eq!(damping(-1.0), 0.0);
    assert_eq!(damping(f32::NAN), 0.0);
    assert!(damping(1.0).is_finite() && damping(5.0) == damping(1.0));
}

#[test]
fn euler_turns_y_then_x_then_z() {
    let (x, y, z) = (0.3f32, -0.7, 1.1);
    let expected = Quat::from_rotation_y(y) * Quat::from_rotation_x(x) * Quat::from_rotation_z(z);
    assert!(euler(Vec3::new(x, y, z)).abs_diff_eq(expected, 1e-6));
}

#[test]
fn transform_inverse_undoes_it() {
    let t = Transform::new(Vec3::new(1.0, -2.0, 3.0), euler(Vec3::new(0.4, 0.2, -0.9)));
    let p = Vec3::new(0.5, 7.0, -1.0);
    assert!(t.inverse().point(t.point(p)).abs_diff_eq(p, 1e-5));
    let id = t.mul(t.inverse());
    assert!(id.translation.length() < 1e-5 && id.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6));
}

#[test]
fn worlds_and_posers_move_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<super::PhysicsWorld>();
    send_sync::<
        super::PhysicsPoser<
            std::sync::Arc<crate::skeleton::Skeleton>,
            std::sync::Arc<crate::eval::MotionSampler>,
            std::sync::Arc<crate::skeleton::Binding>,
        >,
    >();
}

#[test]
fn limit_excess_reads_bullets_euler_xyz_angles() {
    use super::step::limit_excess;
    let (x, y, z) = (-1.5f32, 0.0, 0.15);
    // A skirt swung far forward and a little sideways: Rx · Rz. Bullet's angles are x, 0, z, so
    // nothing is past limits of x ∈ [−2.1, 0.35], y locked, z ∈ [−0.17, 0.17]; the per-axis
    // quaternion measure would read about 0.11 rad on the locked Y axis.
    let relative = Quat::from_rotation_x(x) * Quat::from_rotation_y(y) * Quat::from_rotation_z(z);
    let held = [Some([-2.1, 0.35]), Some([0.0, 0.0]), Some([-0.17, 0.17])];
    assert!(limit_excess(&held, relative) < 1e-5);
    assert!(2.0 * relative.y.abs().asin() > 0.1);
    // Past the X limit by 0.2, the other way round the same, and free axes never count.
    let past = Quat::from_rotation_x(0.55) * Quat::from_rotation_z(0.1);
    assert!((limit_excess(&held, past) - 0.2).abs() < 1e-4);
    assert!((limit_excess(&held, Quat::from_rotation_z(-0.37)) - 0.2).abs() < 1e-4);
    assert_eq!(limit_excess(&[None; 3], Quat::from_rotation_y(2.0)), 0.0);
    assert!(limit_excess(&held, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)).is_nan());
}
