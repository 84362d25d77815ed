//! The point terms of a fit (`Goal::At`) summed per anchor bone before they enter the normal
//! equations.
//!
//! Every point rigid with the same bone `k` has the same Jacobian blocks for the translation
//! (the identity) and for each ancestor of `k` in the group (the cross-product matrix of that
//! ancestor's segment toward `k`); only its block for `k` itself, the cross-product matrix of
//! its own lever `l = x − pivot_k`, differs. Its contributions to JᵀJ and Jᵀr are therefore
//! linear in a few sums over the bone's points (Σw², Σw²d, Σw²l, Σw²·l×d and
//! Σw²(|l|²I − l lᵀ)), so a bone's blocks are made once from those sums instead of once per
//! point: the trunk fit's seven head points, for one, cost one set of block products.

use super::dense::{add_block, skew, skew_product, Matrix};
use glam::{DMat3, DVec3};

/// The sums over the point terms on one bone that its blocks need.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moments {
    /// The anchor bone (rig index).
    pub bone: usize,
    /// Σw².
    weight: f64,
    /// Σw²d, d the point's miss.
    miss: DVec3,
    /// Σw²l, l the point's lever from the bone's pivot.
    lever: DVec3,
    /// Σw²·l×d.
    torque: DVec3,
    /// Σw²(|l|²I − l lᵀ) = Σw²·[l]×ᵀ[l]×.
    inertia: DMat3,
}

impl Moments {
    /// No points yet on `bone`.
    pub fn new(bone: usize) -> Moments {
        Moments {
            bone,
            weight: 0.0,
            miss: DVec3::ZERO,
            lever: DVec3::ZERO,
            torque: DVec3::ZERO,
            inertia: DMat3::ZERO,
        }
    }

    /// Adds a point of squared weight `w2` at `lever` from the bone's pivot, missing its
    /// target by `miss`.
    pub fn add(&mut self, w2: f64, lever: DVec3, miss: DVec3) {
        self.weight += w2;
        self.miss += miss * w2;
        self.lever += lever * w2;
        self.torque += lever.cross(miss) * w2;
        let l = lever * w2;
        self.inertia += DMat3::from_diagonal(DVec3::splat(lever.dot(l)))
            - DMat3::from_cols(l * lever.x, l * lever.y, l * lever.z);
    }

    /// Adds the bone's points to the upper triangle of `a` (diagonal blocks whole) and to `g`.
    /// `fixed[i]`: column block `i`'s Jacobian block shared by all the points (the identity for
    /// the translation, a cross-product matrix for an ancestor, zero where the block's bone
    /// does not move them); `anchor`: the column block of the bone itself, when in the group;
    /// `translation`: whether block 0 is the translation's.
    #[allow(clippy::too_many_arguments)] // the fit's layout and the two outputs
    pub fn add_to<const N: usize>(
        &self,
        fixed: &[DMat3],
        anchor: Option<usize>,
        translation: bool,
        cols: &[usize],
        a: &mut Matrix<N>,
        g: &mut [f64; N],
    ) {
        let own = skew(-self.lever);
        let live = |i: usize| Some(i) == anchor || fixed[i] != DMat3::ZERO;
        for i in (0..fixed.len()).filter(|&i| live(i)) {
            let gi = match Some(i) == anchor {
                true => self.torque,
                false => fixed[i].transpose() * self.miss,
            };
            for c in 0..3 {
                g[cols[i] + c] += gi[c];
            }
            let identity = translation && i == 0;
            for j in (i..fixed.len()).filter(|&j| live(j)) {
                let block = match (Some(i) == anchor, Some(j) == anchor) {
                    (true, true) => self.inertia,
                    (true, false) => skew_product(own, fixed[j]),
                    (false, true) if identity => own,
                    (false, true) => skew_product(fixed[i], own),
                    (false, false) if identity => fixed[j] * self.weight,
                    (false, false) => skew_product(fixed[i], fixed[j]) * self.weight,
                };
                add_block(a, cols[i], cols[j], block);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sums give the per-point normal equations: translation, an ancestor and the bone
    /// itself, the bone's block placed before and after the ancestor's.
    #[test]
    fn the_sums_give_each_points_normal_equations() {
        let points = [
            (0.7, DVec3::new(0.3, -1.2, 0.5), DVec3::new(0.01, 0.02, -0.03)),
            (1.3, DVec3::new(-0.4, 0.9, 0.1), DVec3::new(-0.05, 0.0, 0.04)),
            (0.2, DVec3::new(1.1, 0.2, -0.7), DVec3::new(0.02, -0.01, 0.0)),
        ];
        let segment = skew(-DVec3::new(0.2, 2.5, -0.3));
        for anchor in [1, 2] {
            let fixed = match anchor {
                1 => [DMat3::IDENTITY, DMat3::ZERO, segment],
                _ => [DMat3::IDENTITY, segment, DMat3::ZERO],
            };
            let mut m = Moments::new(0);
            let (mut a, mut g) = ([[0.0; 9]; 9], [0.0; 9]);
            let (mut want_a, mut want_g) = ([[0.0; 9]; 9], [0.0; 9]);
            for &(w, lever, miss) in &points {
                m.add(w * w, lever, miss);
                let mut blocks = fixed;
                blocks[anchor] = skew(-lever);
                for i in 0..3 {
                    let gi = blocks[i].transpose() * miss * (w * w);
                    for c in 0..3 {
                        want_g[3 * i + c] += gi[c];
                    }
                    for j in i..3 {
                        add_block(
                            &mut want_a,
                            3 * i,
                            3 * j,
                            blocks[i].transpose() * blocks[j] * (w * w),
                        );
                    }
                }
            }
            m.add_to(&fixed, Some(anchor), true, &[0, 3, 6], &mut a, &mut g);
            for i in 0..9 {
                assert!((g[i] - want_g[i]).abs() < 1e-12, "g[{i}]: {} {}", g[i], want_g[i]);
                for j in 0..9 {
                    let (x, y) = (a[i][j], want_a[i][j]);
                    assert!((x - y).abs() < 1e-12, "a[{i}][{j}] ({anchor}): {x} {y}");
                }
            }
        }
    }
}
