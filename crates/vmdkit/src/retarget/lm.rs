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

use super::rig::{Anchor, Rig};
use glam::{DMat3, DQuat, DVec3};

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

/// The squared residual under which the second, nearly prior-free pass runs: 0.03 units
/// root-mean-square over a handful of points.
const POLISH_BELOW: f64 = 1e-3;

/// The pose being solved: root translation, every rig bone's world rotation, and the pivots
/// (bone heads) they place.
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub translation: DVec3,
    pub world: Vec<DQuat>,
    pub pivot: Vec<DVec3>,
}

impl State {
    pub fn rest(rig: &Rig) -> State {
        State {
            translation: DVec3::ZERO,
            world: vec![DQuat::IDENTITY; rig.bones.len()],
            pivot: rig.bones.iter().map(|b| b.rest).collect(),
        }
    }

    /// Pivots from the translation and the world rotations, parents first.
    pub fn place(&mut self, rig: &Rig) {
        self.place_only(rig, u64::MAX);
    }

    /// Pivots of the bones in the bit set `bones` (which holds the parent of each of them
    /// whose pivot has to change too), the others' left as they are.
    fn place_only(&mut self, rig: &Rig, bones: u64) {
        for (i, b) in rig.bones.iter().enumerate() {
            if bones & (1 << i) == 0 {
                continue;
            }
            self.pivot[i] = match b.parent {
                Some(p) => self.pivot[p] + self.world[p] * (b.rest - rig.bones[p].rest),
                None => b.rest + self.translation,
            };
        }
    }

    /// Where an anchor is in this pose (pivots must be placed).
    pub fn point(&self, rig: &Rig, a: Anchor) -> DVec3 {
        self.pivot[a.bone] + self.world[a.bone] * (a.rest - rig.bones[a.bone].rest)
    }
}

/// What a term asks of a point.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Goal {
    /// Be at the target.
    At,
    /// Be at this distance from the target (a child bone's head whose own rotation will point
    /// it at the target, so only the distance is the group's business).
    Reach(f64),
    /// Lie from `from` in the direction `target` (a unit vector), at whatever distance the
    /// skeleton has: a segment's direction, free of the input's lengths. The residual is the
    /// difference of unit vectors times `length`, so it weighs like a position error there.
    Along { from: Anchor, length: f64 },
    /// As `Along`, from the model's shoulders' midpoint once each 肩 points at its shoulder
    /// point ([`Shoulders`]) rather than from a point rigid with one bone.
    AlongFromShoulders { from: Shoulders, length: f64 },
}

/// The model's shoulders' midpoint where the clavicles will put it: each 腕 head lies from its
/// 肩 head (`pivots`, rigid with the chest) toward the input's shoulder point (`aims`) at the
/// 肩's length (`reach`), as the solver then points each 肩. Fitting the trunk through it, not
/// through the 腕 heads at the clavicles' last turn, leaves nothing to iterate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shoulders {
    pub pivots: [Anchor; 2],
    pub aims: [DVec3; 2],
    pub reach: [f64; 2],
}

impl Shoulders {
    /// The midpoint in this pose (pivots must be placed).
    pub fn point(&self, rig: &Rig, state: &State) -> DVec3 {
        (0..2).map(|s| self.shoulder(rig, state, s).0).sum::<DVec3>() / 2.0
    }

    /// Side `s`'s 腕 head and its derivative by its 肩 head's position.
    fn shoulder(&self, rig: &Rig, state: &State, s: usize) -> (DVec3, DMat3) {
        let p = state.point(rig, self.pivots[s]);
        let v = self.aims[s] - p;
        let len = v.length().max(1e-12);
        let u = v / len;
        // d(p + L·v/|v|)/dp = I − L·(I − u uᵀ)/|v|.
        let d = DMat3::IDENTITY - (DMat3::IDENTITY - outer(u, u)) * (self.reach[s] / len);
        (p + u * self.reach[s], d)
    }
}

/// One weighted observation of a group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Term {
    pub anchor: Anchor,
    pub target: DVec3,
    pub weight: f64,
    pub goal: Goal,
}

/// A group bone's prior: the rotation it is pulled toward and how hard (units per radian).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prior {
    pub toward: DQuat,
    pub weight: f64,
    /// Whether `toward` is a reference of its own (the points' own fit that a fit through the
    /// shoulders' midpoint corrects) rather than the previous
    /// frame's pose. Such a prior keeps its weight in the second pass, so that degrees of
    /// freedom the points leave free settle on it there. Weakened like the others, it would let
    /// them stop wherever the first pass's pull toward the previous frame left them, and on
    /// identical frames each frame would then move them a little further toward it.
    pub held: bool,
}

impl Prior {
    /// A prior toward the previous frame's rotation.
    pub fn previous(toward: DQuat, weight: f64) -> Prior {
        Prior { toward, weight, held: false }
    }
}

/// Solves `group`'s world rotations (and the translation when `translate`) for `terms`, from
/// the state's current values, with one prior per group bone, stopping once a step lowers the
/// cost by less than the share `stop` of it ([`STOP_DECREASE`], or less for a fit that
/// corrects another one's result, whose whole decrease is small). Returns the final weighted
/// squared residual of the terms.
pub(crate) fn solve(
    rig: &Rig,
    state: &mut State,
    group: &[usize],
    translate: bool,
    terms: &[Term],
    prior: &[Prior],
    stop: f64,
) -> f64 {
    debug_assert!(group.len() <= MAX_BONES && prior.len() == group.len());
    // The prior settles the free degrees of freedom; a second pass with a thousandth of it
    // (held priors excepted), from there, takes the determined ones the rest of the way
    // without moving the free ones.
    let mut pulls = [(DQuat::IDENTITY, 0.0); MAX_BONES];
    for (k, p) in prior.iter().enumerate() {
        pulls[k] = (p.toward, p.weight);
    }
    let cost = solve_once(rig, state, group, translate, terms, &pulls[..group.len()], stop);
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
    solve_once(rig, state, group, translate, terms, &pulls[..group.len()], stop)
}

fn solve_once(
    rig: &Rig,
    state: &mut State,
    group: &[usize],
    translate: bool,
    terms: &[Term],
    prior: &[(DQuat, f64)],
    stop: f64,
) -> f64 {
    debug_assert!(group.len() <= MAX_BONES && prior.len() == group.len());
    let offset = if translate { 3 } else { 0 };
    let n = offset + 3 * group.len();
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
    let mut a: Matrix = [[0.0; MAX_N]; MAX_N];
    let mut g = [0.0; MAX_N];
    let mut m: Matrix = [[0.0; MAX_N]; MAX_N];
    for _ in 0..30 {
        let pulls = &errors[..group.len()];
        normal_equations(rig, state, group, translate, terms, prior, pulls, &mut a, &mut g);
        let mut step = [0.0; MAX_N];
        let before = cost;
        let mut accepted = false;
        for _ in 0..4 {
            // Only the leading n × n block is used: copying it alone saves moving the rest.
            for i in 0..n {
                m[i][..n].copy_from_slice(&a[i][..n]);
                m[i][i] += mu * a[i][i].max(1e-9) + 1e-12;
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

/// δ·(2g − Aδ) over the leading n unknowns.
fn predicted_decrease(a: &Matrix, g: &[f64; MAX_N], step: &[f64; MAX_N], n: usize) -> f64 {
    (0..n)
        .map(|i| {
            let a_step: f64 = (0..n).map(|j| a[i][j] * step[j]).sum();
            step[i] * (2.0 * g[i] - a_step)
        })
        .sum()
}

fn apply(state: &mut State, group: &[usize], translate: bool, step: &[f64; MAX_N]) {
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

/// A term's residual: a vector for `At` and `Along`, a scalar (in `.1`) for `Reach`.
fn residual(state: &State, rig: &Rig, t: &Term) -> (DVec3, f64) {
    let x = state.point(rig, t.anchor);
    match t.goal {
        Goal::At => (x - t.target, 0.0),
        Goal::Reach(length) => {
            let d = x - t.target;
            (d, d.length() - length)
        }
        Goal::Along { from, length } => {
            let v = x - state.point(rig, from);
            ((v.normalize_or_zero() - t.target) * length, 0.0)
        }
        Goal::AlongFromShoulders { from, length } => {
            let v = x - from.point(rig, state);
            ((v.normalize_or_zero() - t.target) * length, 0.0)
        }
    }
}

fn terms_cost(rig: &Rig, state: &State, terms: &[Term]) -> f64 {
    terms
        .iter()
        .map(|t| {
            let (d, r) = residual(state, rig, t);
            let e = match t.goal {
                Goal::At | Goal::Along { .. } | Goal::AlongFromShoulders { .. } => {
                    d.length_squared()
                }
                Goal::Reach(_) => r * r,
            };
            t.weight * t.weight * e
        })
        .sum()
}

/// The weighted squared residual of the terms and priors; each group bone's prior error (the
/// rotation vector from its prior's rotation) goes to `errors`.
fn cost_of(
    rig: &Rig,
    state: &State,
    group: &[usize],
    terms: &[Term],
    prior: &[(DQuat, f64)],
    errors: &mut [DVec3; MAX_BONES],
) -> f64 {
    let priors: f64 = (group.iter().zip(prior).zip(errors.iter_mut()))
        .map(|((&b, &(q, w)), e)| {
            *e = rotation_vector(state.world[b] * q.inverse());
            w * w * e.length_squared()
        })
        .sum();
    terms_cost(rig, state, terms) + priors
}

/// The rotation vector (axis × angle, angle ≤ π) of a unit quaternion.
pub(crate) fn rotation_vector(q: DQuat) -> DVec3 {
    let q = if q.w < 0.0 { -q } else { q };
    let v = DVec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-12 {
        return v * 2.0;
    }
    v * (2.0 * s.atan2(q.w) / s)
}

type Matrix = [[f64; MAX_N]; MAX_N];

/// JᵀJ and Jᵀr into the leading block of `a` and `g`, accumulated row block by row block
/// without storing J; `errors` are the group bones' prior errors at this pose ([`cost_of`]).
#[allow(clippy::too_many_arguments)] // the solve's state, and the two outputs it reuses
fn normal_equations(
    rig: &Rig,
    state: &State,
    group: &[usize],
    translate: bool,
    terms: &[Term],
    prior: &[(DQuat, f64)],
    errors: &[DVec3],
    a: &mut Matrix,
    g: &mut [f64; MAX_N],
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
    for t in terms {
        let x = state.point(rig, t.anchor);
        point_blocks(rig, state, group, translate, t.anchor, x, &mut blocks);
        let (d, r) = residual(state, rig, t);
        let w2 = t.weight * t.weight;
        match t.goal {
            Goal::Reach(_) => {
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
            }
            Goal::AlongFromShoulders { from, length } => {
                // The midpoint's blocks: each side's 肩-head blocks through its derivative.
                let mut mid = [DMat3::ZERO; MAX_BONES + 1];
                for s in 0..2 {
                    let (_, d) = from.shoulder(rig, state, s);
                    let y = state.point(rig, from.pivots[s]);
                    point_blocks(rig, state, group, translate, from.pivots[s], y, &mut from_blocks);
                    for i in 0..count {
                        mid[i] += d * from_blocks[i] * 0.5;
                    }
                }
                let y = from.point(rig, state);
                along_blocks(x - y, length, &mut blocks[..count], &mid[..count]);
            }
            Goal::At => {}
        }
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
    rig: &Rig,
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

fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

fn add_block(a: &mut Matrix, row: usize, col: usize, m: DMat3) {
    for r in 0..3 {
        for c in 0..3 {
            a[row + r][col + c] += m.col(c)[r];
        }
    }
}

/// The matrix of `v ×`.
fn skew(v: DVec3) -> DMat3 {
    DMat3::from_cols(
        DVec3::new(0.0, v.z, -v.y),
        DVec3::new(-v.z, 0.0, v.x),
        DVec3::new(v.y, -v.x, 0.0),
    )
}

/// Solves `m x = b` for a symmetric positive definite `m` (n ≤ 15) in place. A dense Cholesky
/// of this size is a few hundred operations, well below what a linear-algebra crate's
/// dispatch would cost per frame.
#[allow(clippy::needless_range_loop)] // the indices are the textbook algorithm's
fn cholesky_solve(m: &mut Matrix, b: &[f64; MAX_N], n: usize, x: &mut [f64; MAX_N]) -> bool {
    // The diagonal's reciprocals: n divisions instead of one per element and substitution.
    let mut inverse = [0.0; MAX_N];
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
        for i in j + 1..n {
            let mut s = m[i][j];
            for k in 0..j {
                s -= m[i][k] * m[j][k];
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

#[cfg(test)]
mod jacobian_tests {
    use super::*;
    use crate::roles::Role;

    #[test]
    fn analytic_jacobian_matches_finite_differences() {
        let skeleton = crate::skeleton::Skeleton::new(&crate::example::standard_model());
        let rig = Rig::new(&skeleton).unwrap();
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
}
