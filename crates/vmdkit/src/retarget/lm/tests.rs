//! The analytic Jacobian against finite differences.

use super::*;
use crate::roles::Role;

#[test]
fn analytic_jacobian_matches_finite_differences() {
    let skeleton = crate::skeleton::Skeleton::new(&crate::example::standard_model());
    let rig = KeyedRig::new(&skeleton).unwrap();
    let mut state = State::rest(&rig);
    for (i, w) in state.world.iter_mut().enumerate() {
        *w = DQuat::from_scaled_axis(DVec3::new(0.3, -0.2 * i as f64, 0.1 + 0.05 * i as f64));
    }
    state.translation = DVec3::new(0.5, -0.3, 0.2);
    state.place(&rig);
    let group = [rig.root, rig.lower_body, rig.upper_body, rig.upper_body2.unwrap()];
    for role in [Role::LeftHip, Role::Spine, Role::Chest, Role::Thorax, Role::LeftCollar] {
        let anchor = rig.anchor(role).unwrap();
        let x = state.point(&rig, anchor);
        for (k, &b) in group.iter().enumerate() {
            for axis in 0..3 {
                let mut w = DVec3::ZERO;
                w[axis] = 1e-6;
                let mut s2 = state.clone();
                s2.world[b] = DQuat::from_scaled_axis(w) * s2.world[b];
                s2.place(&rig);
                let numeric = (s2.point(&rig, anchor) - x) / 1e-6;
                // Analytic: the block normal_equations uses (no translation block here).
                let mut blocks = [DMat3::ZERO; MAX_BONES + 1];
                point_blocks(&rig, &state, &group, false, anchor, x, &mut blocks);
                let analytic = blocks[k] * w.normalize();
                assert!(
                    (numeric - analytic).length() < 1e-4,
                    "{role} bone {k} axis {axis}: {numeric} vs {analytic}"
                );
            }
        }
    }
}
