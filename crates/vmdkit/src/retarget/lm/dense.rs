//! The dense linear algebra of the normal equations: fixed-size matrices of `N` unknowns at
//! most (a fit picks the smallest size that holds it, up to [`super::MAX_N`]), filled and
//! solved in place so that nothing is allocated per step.

use glam::{DMat3, DVec3};

/// A square matrix of `N` unknowns; a fit uses its leading n × n block.
pub(super) type Matrix<const N: usize> = [[f64; N]; N];

/// δ·(2g − Aδ) over the leading n unknowns.
pub(super) fn predicted_decrease<const N: usize>(
    a: &Matrix<N>,
    g: &[f64; N],
    step: &[f64; N],
    n: usize,
) -> f64 {
    (0..n)
        .map(|i| {
            let a_step: f64 = (0..n).map(|j| a[i][j] * step[j]).sum();
            step[i] * (2.0 * g[i] - a_step)
        })
        .sum()
}

/// The outer product `a bᵀ`.
pub(super) fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

/// Adds the 3 × 3 block `m` to `a` at (`row`, `col`).
pub(super) fn add_block<const N: usize>(a: &mut Matrix<N>, row: usize, col: usize, m: DMat3) {
    for r in 0..3 {
        for c in 0..3 {
            a[row + r][col + c] += m.col(c)[r];
        }
    }
}

/// The matrix of `v ×`.
pub(super) fn skew(v: DVec3) -> DMat3 {
    DMat3::from_cols(
        DVec3::new(0.0, v.z, -v.y),
        DVec3::new(-v.z, 0.0, v.x),
        DVec3::new(v.y, -v.x, 0.0),
    )
}

/// `uᵀ v` for the cross-product matrices `u` = [a]× and `v` = [b]× ([`skew`]), which is
/// (a·b) I − b aᵀ. Each entry of the full product is a sum of three products of which one
/// (on the diagonal) or two (off it) multiply a zero of the matrices, so summing the others
/// gives the very same bits, with a third of the multiplications.
pub(super) fn skew_product(u: DMat3, v: DMat3) -> DMat3 {
    let a = DVec3::new(u.y_axis.z, u.z_axis.x, u.x_axis.y);
    let b = DVec3::new(v.y_axis.z, v.z_axis.x, v.x_axis.y);
    DMat3::from_cols(
        DVec3::new(a.z * b.z + a.y * b.y, -(a.x * b.y), -(a.x * b.z)),
        DVec3::new(-(a.y * b.x), a.z * b.z + a.x * b.x, -(a.y * b.z)),
        DVec3::new(-(a.z * b.x), -(a.z * b.y), a.y * b.y + a.x * b.x),
    )
}

/// Solves `m x = b` for a symmetric positive definite `m` (its leading n × n block) in place.
/// A dense Cholesky of this size is a few hundred operations, well below what a
/// linear-algebra crate's dispatch would cost per frame.
#[allow(clippy::needless_range_loop)] // the indices are the textbook algorithm's
pub(super) fn cholesky_solve<const N: usize>(
    m: &mut Matrix<N>,
    b: &[f64; N],
    n: usize,
    x: &mut [f64; N],
) -> bool {
    // The diagonal's reciprocals: n divisions instead of one per element and substitution.
    let mut inverse = [0.0; N];
    for j in 0..n {
        let mut d = m[j][j];
        for k in 0..j {
            d -= m[j][k] * m[j][k];
        }
        if d <= 0.0 || !d.is_finite() {
            return false;
        }
        let d = d.sqrt();
        m[j][j] = d;
        inverse[j] = 1.0 / d;
        let row = m[j];
        // Four rows at a time: each sum is the same sequence of operations as alone (the
        // same bits), but four independent ones keep the floating-point units busy where one
        // would wait on each subtraction's latency.
        let mut i = j + 1;
        while i + 4 <= n {
            let [r0, r1, r2, r3] = [&m[i], &m[i + 1], &m[i + 2], &m[i + 3]];
            let (mut s0, mut s1, mut s2, mut s3) = (r0[j], r1[j], r2[j], r3[j]);
            for k in 0..j {
                s0 -= r0[k] * row[k];
                s1 -= r1[k] * row[k];
                s2 -= r2[k] * row[k];
                s3 -= r3[k] * row[k];
            }
            m[i][j] = s0 * inverse[j];
            m[i + 1][j] = s1 * inverse[j];
            m[i + 2][j] = s2 * inverse[j];
            m[i + 3][j] = s3 * inverse[j];
            i += 4;
        }
        for i in i..n {
            let mut s = m[i][j];
            for k in 0..j {
                s -= m[i][k] * row[k];
            }
            m[i][j] = s * inverse[j];
        }
    }
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= m[i][k] * x[k];
        }
        x[i] = s * inverse[i];
    }
    for i in (0..n).rev() {
        let mut s = x[i];
        for k in i + 1..n {
            s -= m[k][i] * x[k];
        }
        x[i] = s * inverse[i];
    }
    true
}
