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

/// The closed forms of the normal equations are the full products' bits, not just their
/// values: the fits' results do not move by a rounding.
#[test]
#[allow(clippy::needless_range_loop)] // the textbook Cholesky's indices, as in `dense.rs`
fn closed_forms_match_the_full_products_bit_for_bit() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
    };
    for _ in 0..1000 {
        let a = DVec3::new(next(), next(), next());
        let b = DVec3::new(next(), next(), next());
        let (u, v) = (dense::skew(-a), dense::skew(-b));
        let full = u.transpose() * v;
        assert_eq!(dense::skew_product(u, v).to_cols_array(), full.to_cols_array());
    }
    let mut m = [[0.0; 7]; 7];
    let mut b = [0.0; 7];
    for i in 0..7 {
        b[i] = next();
        for j in 0..7 {
            m[i][j] = next();
        }
    }
    // A symmetric positive definite matrix, solved by the four-row Cholesky and by the
    // textbook one.
    let mut spd = [[0.0; 7]; 7];
    for i in 0..7 {
        for j in 0..7 {
            spd[i][j] =
                (0..7).map(|k| m[i][k] * m[j][k]).sum::<f64>() + if i == j { 1.0 } else { 0.0 };
        }
    }
    let mut x = [0.0; 7];
    let mut fast = spd;
    assert!(dense::cholesky_solve(&mut fast, &b, 7, &mut x));
    let mut l = spd;
    for j in 0..7 {
        let mut d = l[j][j];
        for k in 0..j {
            d -= l[j][k] * l[j][k];
        }
        l[j][j] = d.sqrt();
        for i in j + 1..7 {
            let mut s = l[i][j];
            for k in 0..j {
                s -= l[i][k] * l[j][k];
            }
            l[i][j] = s * (1.0 / l[j][j]);
        }
    }
    for i in 0..7 {
        for j in 0..=i {
            assert_eq!(fast[i][j].to_bits(), l[i][j].to_bits(), "({i}, {j})");
        }
    }
}
