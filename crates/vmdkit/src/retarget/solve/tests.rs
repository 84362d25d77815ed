//! The torso fit's terms, built alone: on a body posed exactly as the model can be, every term
//! is met, and each weighs what its constant says.

use super::torso::{torso_terms, SHOULDER_WEIGHT, SPINE_WEIGHT};
use super::{Observed, Solver};
use crate::retarget::lm::{self, Goal, State, Term};
use crate::retarget::rig::KeyedRig;
use crate::roles::Role;
use glam::{DQuat, DVec3};

/// The standard model's rig, and every role it anchors observed (at full confidence) where the
/// model puts it when turned and moved as a whole.
fn posed() -> (KeyedRig, State, Observed) {
    let skeleton = crate::skeleton::Skeleton::new(&crate::example::standard_model());
    let rig = KeyedRig::new(&skeleton).unwrap();
    let mut state = State::rest(&rig);
    let turn = DQuat::from_scaled_axis(DVec3::new(0.2, -0.7, 0.1));
    for (b, w) in state.world.iter_mut().enumerate() {
        *w = if b == rig.root { DQuat::IDENTITY } else { turn };
    }
    state.translation = DVec3::new(0.4, -0.2, 1.5);
    state.place(&rig);
    let mut obs: Observed = [(DVec3::ZERO, 0.0); Role::ALL.len()];
    for &role in Role::ALL {
        if let Some(anchor) = rig.anchor(role) {
            obs[role as usize] = (state.point(&rig, anchor), 1.0);
        }
    }
    (rig, state, obs)
}

/// Each term's residual at `state`: the distance's error for a reach, the vector's length else.
fn misses(rig: &KeyedRig, state: &State, terms: &[Term]) -> Vec<f64> {
    (terms.iter())
        .map(|t| {
            let (d, r) = lm::residual(state, rig, t);
            if matches!(t.goal, Goal::Reach(_)) {
                r.abs()
            } else {
                d.length()
            }
        })
        .collect()
}

#[test]
fn torso_terms_are_met_by_a_pose_the_model_can_take_and_weigh_as_stated() {
    let (rig, state, obs) = posed();
    let group = Solver::new(&rig).torso_group(false);
    let terms = torso_terms(&rig, &obs, &group, false, None);
    assert!(!terms.is_empty());
    for (t, miss) in terms.iter().zip(misses(&rig, &state, &terms)) {
        assert!(miss < 1e-9, "{t:?} misses by {miss:e}");
        assert!(group.contains(&t.anchor.bone), "{t:?} is on a bone the fit does not turn");
    }
    let role_of = |t: &Term| Role::ALL.iter().copied().find(|&r| rig.anchor(r) == Some(t.anchor));
    let (mut points, mut directions, mut reaches) = (0, 0, 0);
    for t in &terms {
        let want = match (t.goal, role_of(t)) {
            (Goal::At, Some(Role::Spine | Role::Chest | Role::Thorax)) => SPINE_WEIGHT,
            (Goal::At, _) => 1.0,
            (Goal::Along { .. }, Some(Role::Thorax)) => 1.0,
            (Goal::Along { .. }, _) => SPINE_WEIGHT,
            (Goal::Reach(_), _) => SHOULDER_WEIGHT,
            (Goal::AlongFromShoulders { .. }, _) => panic!("no shoulders' midpoint was given"),
        };
        assert_eq!(t.weight, want, "{t:?}");
        match t.goal {
            Goal::At => points += 1,
            Goal::Reach(_) => reaches += 1,
            _ => directions += 1,
        }
    }
    // Pelvis, hips, spine, chest, neck base and collars as points; the spine, chest and neck
    // base as directions from the pelvis; both shoulders as reaches from their 肩 heads.
    assert_eq!((points, directions, reaches), (8, 3, 2), "{terms:#?}");
}

#[test]
fn torso_terms_through_the_shoulders_midpoint_are_met_by_a_pose_the_model_can_take() {
    let (rig, state, mut obs) = posed();
    obs[Role::Thorax as usize].1 = 0.0;
    let solver = Solver::new(&rig);
    let centre = solver.shoulder_centre(&obs).expect("both shoulders are seen");
    let group = solver.torso_group(true);
    let terms = torso_terms(&rig, &obs, &group, true, Some(centre));
    let from_centre = terms.iter().filter(|t| matches!(t.goal, Goal::AlongFromShoulders { .. }));
    assert!(from_centre.count() > 1, "{terms:#?}");
    for (t, miss) in terms.iter().zip(misses(&rig, &state, &terms)) {
        assert!(miss < 1e-9, "{t:?} misses by {miss:e}");
    }
}
