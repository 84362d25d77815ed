//! A small Levenberg–Marquardt solver over rig-bone world rotations (and the root translation)
//! for one group of bones at a time: the torso, the neck and head, or one hand or foot.
//!
//! Unknowns are world rotations, updated by a world-frame rotation vector each, so the Jacobian
//! of a point rigid with bone `k` with respect to `k` itself is the cross-product matrix of
//! `x − pivot_k`, with respect to an ancestor `j` that of the segment from `j`'s pivot to its
//! child's on the way to `k`, and the translation's is the identity: no chain rule through
//! local rotations. Degrees of freedom the points leave free (a bone's roll about a line through two
//! points) are held by a weak prior toward a reference rotation, which is the previous frame's,
//! so they stay continuous; where the points determine the pose the prior's pull is below
//! 1e-6 of the fit's and the solution is the exact one. The exception is a prior toward a fixed
//! reference (the points' own fit that a correcting fit is held near, [`Prior::held`]), which
//! keeps its pull so that what the points leave free settles on it rather than walking from
//! frame to frame.
//!
//! The problem (the pose, its terms and priors, and their cost) is in `problem.rs`; the dense
//! linear algebra of the normal equations, at most 27 unknowns, in `dense.rs`; the point terms
//! summed per anchor bone, so that their blocks are made once per bone, in `moments.rs`.

mod dense;
mod moments;
mod problem;

#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use problem::residual;
pub(crate) use problem::{Goal, Prior, Shoulders, State, Term};

use super::rig::{Anchor, KeyedRig};
use dense::{add_block, cholesky_solve, outer, predicted_decrease, skew, Matrix};
use glam::{DMat3, DQuat, DVec3};
use moments::Moments;
use problem::{along_residual, cost_of, terms_cost};

/// Bones per group at most: センター, 下半身, 上半身, 上半身2, a 上半身3 that follows it, 首
/// and 頭 when the head is solved with the trunk, plus the translation.
const MAX_BONES: usize = 8;
const MAX_N: usize = MAX_BONES * 3 + 3;

/// A fit stops once a step lowers its cost by less than this share. Zero-residual fits
/// converge quadratically, so this costs them nothing in accuracy; noisy ones stop once what is
/// left would move the pose by far less than their noise. On the benchmark clip (BENCHMARKS.md,
/// "Retargeting") the tail of slowly converging steps a millionth would still take was a third
/// of the solve's time, and stopping before it leaves the thinned motion's mean residual,
/// direction error and jitter a little lower, not higher (it stays nearer the previous frame's
/// pose it starts from).
pub(crate) const STOP_DECREASE: f64 = 1e-4;

/// How a fit damps its steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Damping {
    /// Each unknown by its own diagonal entry of the normal equations (Marquardt's scaling):
    /// a step is held back most along what the terms measure most, which suits fits whose
    /// unknowns each have terms of their own.
    Marquardt,
    /// Every unknown by the mean of the diagonal, the same trust in each direction. A fit whose
    /// free directions turn two bones against each other (上半身 against 首 in the points' own
    /// trunk fit, where the head's points hold both ends) sees large diagonal entries for both
    /// bones but a small curvature along their difference: Marquardt's scaling damps steps
    /// along it to a fraction of what the model allows, and the fit crawls.
    Isotropic,
}

/// When a fit stops and how it damps its steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Convergence {
    /// Stop once a step lowers the cost by less than this share of it ([`STOP_DECREASE`], or
    /// less for a fit that corrects another one's result, whose whole decrease is small).
    pub stop: f64,
    /// How its steps are damped.
    pub damping: Damping,
}

impl Convergence {
    /// The solver's usual fit: [`STOP_DECREASE`], [`Damping::Marquardt`].
    pub const USUAL: Convergence = Convergence { stop: STOP_DECREASE, damping: Damping::Marquardt };
}

/// The squared residual under which the second, nearly prior-free pass runs: 0.03 units
/// root-mean-square over a handful of points.
const POLISH_BELOW: f64 = 1e-3;

/// Solves `group`'s world rotations (and the translation when `translate`) for `terms`, from
/// the state's current values, with one prior per group bone, until `convergence` says it
/// stops. Returns the final weighted squared residual of the terms.
pub(crate) fn solve(
    rig: &KeyedRig,
    state: &mut State,
    group: &[usize],
    translate: bool,
    terms: &[Term],
    prior: &[Prior],
    convergence: Convergence,
) -> f64 {
    debug_assert!(group.len() <= MAX_BONES && prior.len() == group.len());
    // The prior settles the free degrees of freedom; a second pass with a thousandth of it
    // (held priors excepted), from there, takes the determined ones the rest of the way
    // without moving the free ones.
    let mut pulls = [(DQuat::IDENTITY, 0.0); MAX_BONES];
    for (k, p) in prior.iter().enumerate() {
        pulls[k] = (p.toward, p.weight);
    }
    // The normal equations' size: the smallest of a few that holds the group, so that a
    // one-bone fit (a hand, a foot) neither zeroes nor walks a matrix of the largest group.
    let n = 3 * (translate as usize + group.len());
    let solve_once = match n {
        0..=3 => solve_once::<3>,
        4..=6 => solve_once::<6>,
        7..=15 => solve_once::<15>,
        16..=18 => solve_once::<18>,
        _ => solve_once::<MAX_N>,
    };
    let cost = solve_once(rig, state, group, translate, terms, &pulls[..group.len()], convergence);
    // Only a fit that nearly reaches its points (clean input) has digits left for the second
    // pass to take; on noisy input the prior's pull is far below the residual.
    if cost > POLISH_BELOW {
        return cost;
    }
    for (k, &b) in group.iter().enumerate() {
        if !prior[k].held {
            pulls[k] = (state.world[b], prior[k].weight * 1e-3);
        }
    }
    solve_once(rig, state, group, translate, terms, &pulls[..group.len()], convergence)
}

/// One pass of the fit, its normal equations held in `N` × `N` arrays (`N` ≥ the unknowns).
fn solve_once<const N: usize>(
    rig: &KeyedRig,
    state: &mut State,
    group: &[usize],
    translate: bool,
    terms: &[Term],
    prior: &[(DQuat, f64)],
    convergence: Convergence,
) -> f64 {
    debug_assert!(group.len() <= MAX_BONES && prior.len() == group.len());
    let stop = convergence.stop;
    let offset = if translate { 3 } else { 0 };
    let n = offset + 3 * group.len();
    assert!(n <= N, "{n} unknowns in a fit of {N}");
    // A step moves the group's bones and what hangs from them (the translation moves all),
    // but the terms read only the pivots of their anchors' bones and those bones' ancestors:
    // trial steps place those alone, and the rest once at the end.
    let group_bones: u64 = group.iter().fold(0, |m, &b| m | 1 << b);
    let moved = if translate {
        u64::MAX
    } else {
        (0..rig.bones.len())
            .filter(|&i| rig.ancestors[i] & group_bones != 0)
            .fold(0, |m, i| m | 1 << i)
    };
    let read = terms.iter().fold(0, |m, t| match t.goal {
        Goal::Along { from, .. } => m | rig.ancestors[t.anchor.bone] | rig.ancestors[from.bone],
        Goal::AlongFromShoulders { from, .. } => {
            let [l, r] = from.pivots.map(|p| rig.ancestors[p.bone]);
            m | rig.ancestors[t.anchor.bone] | l | r
        }
        _ => m | rig.ancestors[t.anchor.bone],
    });
    let trial = moved & read;
    let mut mu = 1e-3;
    state.place(rig);
    // Each group bone's prior error at the current pose, as its cost found it, for the normal
    // equations there (its rotation vector costs an atan2).
    let mut errors = [DVec3::ZERO; MAX_BONES];
    let mut trial_errors = [DVec3::ZERO; MAX_BONES];
    let mut cost = cost_of(rig, state, group, terms, prior, &mut errors);
    // Filled in place, leading n × n block only: a whole MAX_N² matrix per iteration would be
    // mostly zeroing and copying.
    let mut a: Matrix<N> = [[0.0; N]; N];
    let mut g = [0.0; N];
    let mut m: Matrix<N> = [[0.0; N]; N];
    for _ in 0..30 {
        let pulls = &errors[..group.len()];
        normal_equations(rig, state, group, translate, terms, prior, pulls, &mut a, &mut g);
        let mut step = [0.0; N];
        let before = cost;
        let mut accepted = false;
        // Each unknown's damping scale, the same for every retry of this step.
        let damp: [f64; N] = match convergence.damping {
            Damping::Marquardt => std::array::from_fn(|i| a[i][i].max(1e-9)),
            Damping::Isotropic => [((0..n).map(|i| a[i][i]).sum::<f64>() / n as f64).max(1e-9); N],
        };
        for _ in 0..4 {
            // Only the leading n × n block is used: copying it alone saves moving the rest.
            for i in 0..n {
                m[i][..n].copy_from_slice(&a[i][..n]);
                m[i][i] += mu * damp[i] + 1e-12;
            }
            if !cholesky_solve(&mut m, &g, n, &mut step) {
                mu *= 10.0;
                continue;
            }
            // The decrease the linear model promises, cost − |r − Jδ|² = δ·(2g − Aδ): once
            // that is below the stopping test's share, the step cannot pass the test either,
            // so it is not worth placing the rig for (and the damped retries after it).
            if predicted_decrease(&a, &g, &step, n) <= stop * cost + 1e-30 {
                break;
            }
            let saved_translation = state.translation;
            let mut saved = [DQuat::IDENTITY; MAX_BONES];
            for (k, &b) in group.iter().enumerate() {
                saved[k] = state.world[b];
            }
            apply(state, group, translate, &step);
            state.place_only(rig, trial);
            let new_cost = cost_of(rig, state, group, terms, prior, &mut trial_errors);
            if new_cost <= cost {
                cost = new_cost;
                errors = trial_errors;
                mu = (mu * 0.3).max(1e-9);
                accepted = true;
                break;
            }
            state.translation = saved_translation;
            for (k, &b) in group.iter().enumerate() {
                state.world[b] = saved[k];
            }
            state.place_only(rig, trial);
            mu *= 10.0;
        }
        let size: f64 = step[..n].iter().map(|s| s * s).sum();
        // Converged: a step below 1e-9 (radians or units), or a cost that falls by less than
        // `stop` of itself ([`STOP_DECREASE`] unless told).
        if !accepted || size < 1e-18 || before - cost <= stop * before + 1e-30 {
            break;
        }
    }
    state.place_only(rig, moved);
    terms_cost(rig, state, terms)
}

/// Turns the group's bones (and moves the translation) by the step found.
fn apply(state: &mut State, group: &[usize], translate: bool, step: &[f64]) {
    let offset = if translate {
        state.translation -= DVec3::new(step[0], step[1], step[2]);
        3
    } else {
        0
    };
    for (k, &b) in group.iter().enumerate() {
        let w =
            DVec3::new(step[offset + 3 * k], step[offset + 3 * k + 1], step[offset + 3 * k + 2]);
        state.world[b] = (DQuat::from_scaled_axis(-w) * state.world[b]).normalize();
    }
}

/// JᵀJ and Jᵀr into the leading block of `a` and `g`, accumulated row block by row block
/// without storing J; `errors` are the group bones' prior errors at this pose ([`cost_of`]).
#[allow(clippy::too_many_arguments)] // the solve's state, and the two outputs it reuses
fn normal_equations<const N: usize>(
    rig: &KeyedRig,
    state: &State,
    group: &[usize],
    translate: bool,
    terms: &[Term],
    prior: &[(DQuat, f64)],
    errors: &[DVec3],
    a: &mut Matrix<N>,
    g: &mut [f64; N],
) {
    let offset = if translate { 3 } else { 0 };
    let n = offset + 3 * group.len();
    for row in &mut a[..n] {
        row[..n].fill(0.0);
    }
    g[..n].fill(0.0);
    let count = translate as usize + group.len();
    let cols: [usize; MAX_BONES + 1] = std::array::from_fn(|i| {
        if translate {
            if i == 0 {
                0
            } else {
                offset + 3 * (i - 1)
            }
        } else {
            3 * i
        }
    });
    let mut blocks = [DMat3::ZERO; MAX_BONES + 1];
    let mut from_blocks = [DMat3::ZERO; MAX_BONES + 1];
    // The shoulders' midpoint and its blocks, the same for every term measured from it: made
    // once per step, not once per term.
    let mut midpoint: Option<(Shoulders, DVec3, [DMat3; MAX_BONES + 1])> = None;
    // The point terms' sums per anchor bone (`moments.rs`), their blocks made once per bone.
    let mut moments = [Moments::new(0); MAX_BONES];
    let mut bones = 0;
    for t in terms {
        let w2 = t.weight * t.weight;
        if matches!(t.goal, Goal::At) {
            let bone = t.anchor.bone;
            let slot = match moments[..bones].iter().position(|m| m.bone == bone) {
                Some(slot) => Some(slot),
                None if bones < MAX_BONES => {
                    moments[bones] = Moments::new(bone);
                    bones += 1;
                    Some(bones - 1)
                }
                None => None,
            };
            if let Some(slot) = slot {
                let x = state.point(rig, t.anchor);
                moments[slot].add(w2, x - state.pivot[bone], x - t.target);
                continue;
            }
        }
        let x = state.point(rig, t.anchor);
        point_blocks(rig, state, group, translate, t.anchor, x, &mut blocks);
        let d = match t.goal {
            Goal::Reach(length) => {
                let d = x - t.target;
                let r = d.length() - length;
                let dir = d.normalize_or_zero();
                let rows: [DVec3; MAX_BONES + 1] =
                    std::array::from_fn(|i| blocks[i].transpose() * dir);
                for i in 0..count {
                    for c in 0..3 {
                        g[cols[i] + c] += rows[i][c] * r * w2;
                    }
                    for j in i..count {
                        add_block(a, cols[i], cols[j], outer(rows[i], rows[j]) * w2);
                    }
                }
                continue;
            }
            Goal::Along { from, length } => {
                let y = state.point(rig, from);
                point_blocks(rig, state, group, translate, from, y, &mut from_blocks);
                along_blocks(x - y, length, &mut blocks[..count], &from_blocks[..count]);
                along_residual(x - y, t.target, length)
            }
            Goal::AlongFromShoulders { from, length } => {
                if midpoint.as_ref().is_none_or(|m| m.0 != from) {
                    midpoint = Some(shoulders_blocks(rig, state, group, translate, from));
                }
                let (_, y, mid) = midpoint.as_ref().expect("made above");
                along_blocks(x - *y, length, &mut blocks[..count], &mid[..count]);
                along_residual(x - *y, t.target, length)
            }
            // Only when more bones carry points than the sums have room for (never in this
            // solver's fits).
            Goal::At => x - t.target,
        };
        // Blocks of bones that do not move the point are zero: skip them, and fill only the
        // upper triangle (mirrored below once at the end).
        let live: [bool; MAX_BONES + 1] =
            std::array::from_fn(|i| i < count && blocks[i] != DMat3::ZERO);
        for i in (0..count).filter(|&i| live[i]) {
            let ji = blocks[i].transpose();
            let gi = ji * d * w2;
            for c in 0..3 {
                g[cols[i] + c] += gi[c];
            }
            for j in (i..count).filter(|&j| live[j]) {
                add_block(a, cols[i], cols[j], ji * blocks[j] * w2);
            }
        }
    }
    for m in &moments[..bones] {
        // The blocks every point on the bone shares: its own block, taken at its pivot, is
        // zero here and made from the sums instead.
        let pivot = Anchor { bone: m.bone, rest: rig.bones[m.bone].rest };
        point_blocks(rig, state, group, translate, pivot, state.pivot[m.bone], &mut blocks);
        let anchor = group.iter().position(|&b| b == m.bone).map(|k| translate as usize + k);
        m.add_to(&blocks[..count], anchor, translate, &cols, a, g);
    }
    // Every term filled the upper triangle of blocks (diagonal blocks whole); mirror it.
    #[allow(clippy::needless_range_loop)] // a[i][j] from a[j][i]: both indices are needed
    for i in 0..n {
        for j in 0..i {
            a[i][j] = a[j][i];
        }
    }
    for (k, (&(_, w), e)) in prior.iter().zip(errors).enumerate() {
        let w2 = w * w;
        for c in 0..3 {
            let i = offset + 3 * k + c;
            a[i][i] += w2;
            g[i] += w2 * e[c];
        }
    }
}

/// The shoulders' midpoint ([`Shoulders::point`]) and its blocks: each side's 肩-head blocks
/// through its derivative.
fn shoulders_blocks(
    rig: &KeyedRig,
    state: &State,
    group: &[usize],
    translate: bool,
    from: Shoulders,
) -> (Shoulders, DVec3, [DMat3; MAX_BONES + 1]) {
    let count = translate as usize + group.len();
    let mut mid = [DMat3::ZERO; MAX_BONES + 1];
    let mut from_blocks = [DMat3::ZERO; MAX_BONES + 1];
    for s in 0..2 {
        let (_, d) = from.shoulder(rig, state, s);
        let y = state.point(rig, from.pivots[s]);
        point_blocks(rig, state, group, translate, from.pivots[s], y, &mut from_blocks);
        for i in 0..count {
            mid[i] += d * from_blocks[i] * 0.5;
        }
    }
    (from, from.point(rig, state), mid)
}

/// A direction term's blocks from its two points' (`blocks` of the far one, `from` of the
/// near one) for the segment `v` between them, scaled by the term's `length`.
fn along_blocks(v: DVec3, length: f64, blocks: &mut [DMat3], from: &[DMat3]) {
    let len = v.length().max(1e-12);
    let u = v / len;
    // d(v/|v|)/dv = (I − u uᵀ)/|v|.
    let project = (DMat3::IDENTITY - outer(u, u)) * (length / len);
    for (b, f) in blocks.iter_mut().zip(from) {
        *b = project * (*b - *f);
    }
}

/// The Jacobian of point `x` (rigid with `anchor.bone`) by column block: the translation's
/// first when solved, then each group bone's; zero where the bone does not move the point.
fn point_blocks(
    rig: &KeyedRig,
    state: &State,
    group: &[usize],
    translate: bool,
    anchor: Anchor,
    x: DVec3,
    out: &mut [DMat3; MAX_BONES + 1],
) {
    let mut i = 0;
    if translate {
        out[0] = DMat3::IDENTITY;
        i = 1;
    }
    for &b in group {
        // Turning bone b's world rotation by ω moves what hangs from it by ω × lever: the
        // point itself when it is b's, else only b's segment toward the point (the bones
        // below keep their world rotations), so the lever ends at that child's pivot.
        let lever = if b == anchor.bone {
            Some(x - state.pivot[b])
        } else if rig.is_ancestor(b, anchor.bone) {
            rig.child_toward(b, anchor.bone).map(|c| state.pivot[c] - state.pivot[b])
        } else {
            None
        };
        // ω × lever = −[lever]× ω.
        out[i] = lever.map_or(DMat3::ZERO, |l| skew(-l));
        i += 1;
    }
}
