//! Solved frames → VMD keys: センター (and グルーブ) translation, a rotation per keyed bone, in
//! IK mode 足ＩＫ/つま先ＩＫ at the solved ankles and toes, and a property key that states the
//! IK switches; then thinning.
//!
//! In IK mode the legs keep their FK keys as well: MMD's IK starts from the keyed pose (§10.1),
//! which already reaches the goal, so the solve changes nothing there, while an engine without
//! IK still sees the right legs.

use super::lm::State;
use super::options::KeyMode;
use super::rig::KeyedRig;
use super::RetargetOptions;
use crate::edit::{reduce_unmeasured, ReduceOptions};
use crate::eval::MotionSampler;
use crate::format::{BoneKey, IkState, Motion, PropertyKey};
use crate::skeleton::Skeleton;
use crate::text::LongName;
use glam::{DQuat, DVec3, Quat};

/// Bone keys [`dense_motion`] writes per frame: センター, グルーブ, the rig's bones and the four
/// IK bones.
pub(crate) fn keys_per_frame(rig: &KeyedRig) -> usize {
    2 + rig.bones.len() + 4
}

/// A motion without keys, for the model `options` name: where the body is not solved.
pub(crate) fn empty_motion(options: &RetargetOptions) -> Motion {
    Motion::new(LongName::encode(&options.model_name).0)
}

/// One key per frame for every bone the retargeting drives.
pub(crate) fn dense_motion(
    rig: &KeyedRig,
    skeleton: &Skeleton,
    states: &[State],
    options: &RetargetOptions,
) -> Motion {
    let mut motion = empty_motion(options);
    let tracks = keys_per_frame(rig);
    motion.bones.reserve(states.len() * tracks);
    let mut previous: Vec<Option<Quat>> = vec![None; rig.bones.len()];
    let mut previous_twist: [Option<Quat>; 2] = [None, None];
    let ik_targets = ik_targets(rig, skeleton);
    for (f, s) in states.iter().enumerate() {
        let frame = f as u32;
        // センター carries the horizontal translation and any turn; グルーブ, under it, the
        // height, given in センター's turned frame so that the sum is the solved translation.
        let t = s.translation;
        let turn = s.world[rig.root];
        let (centre_t, groove_t) = match rig.groove {
            Some(_) => (DVec3::new(t.x, 0.0, t.z), turn.inverse() * DVec3::new(0.0, t.y, 0.0)),
            None => (t, DVec3::ZERO),
        };
        let mut centre = translation_key(skeleton, rig.centre, frame, centre_t.as_vec3());
        centre.rotation = continuous(&mut previous[rig.root], turn.normalize().as_quat());
        motion.bones.push(centre);
        if let Some(groove) = rig.groove {
            motion.bones.push(translation_key(skeleton, groove, frame, groove_t.as_vec3()));
        }
        for (b, bone) in rig.bones.iter().enumerate() {
            if b == rig.root {
                continue;
            }
            let local = local_rotation(rig, s, b);
            let keyed = match bone.append {
                // The model multiplies the key by the append (§9.2): key = local · append⁻¹.
                Some((source, ratio, world)) => {
                    let from = if world { s.world[source] } else { local_rotation(rig, s, source) };
                    let append = crate::skeleton::scale_rotation(from.as_quat(), ratio).as_dquat();
                    local * append.inverse()
                }
                None => local,
            };
            let side = (0..2).find(|&s| rig.arms[s].end == b && rig.forearm_twist[s].is_some());
            let keyed = match side {
                // The twist about the forearm goes to 手捩 (about its fixed axis), the rest
                // stays in the wrist; the hand ends where it was.
                Some(s) => {
                    let (twist_bone, axis) = rig.forearm_twist[s].unwrap();
                    let twist = twist_about(keyed, axis);
                    let q = continuous(&mut previous_twist[s], twist.as_quat());
                    let mut key = BoneKey::new(*skeleton.bone_key_name(twist_bone), frame);
                    key.rotation = q;
                    motion.bones.push(key);
                    twist.inverse() * keyed
                }
                None => keyed,
            };
            let q = continuous(&mut previous[b], keyed.normalize().as_quat());
            let mut key = BoneKey::new(*skeleton.bone_key_name(bone.skel), frame);
            key.rotation = q;
            motion.bones.push(key);
        }
        if options.ik {
            for side in 0..2 {
                let Some((ik, target, attached)) = ik_targets.leg[side] else { continue };
                let goal = s.pivot[attached] + s.world[attached] * (target - rig.rest(attached));
                let offset = (goal - skeleton.rest_position(ik).as_dvec3()).as_vec3();
                motion.bones.push(translation_key(skeleton, ik, frame, offset));
                let Some((toe_ik, toe, toe_attached)) = ik_targets.toe[side] else { continue };
                let toe_goal =
                    s.pivot[toe_attached] + s.world[toe_attached] * (toe - rig.rest(toe_attached));
                // つま先ＩＫ hangs under 足ＩＫ, which only moves: its offset is in model axes.
                let rest = skeleton.rest_position(toe_ik).as_dvec3();
                let toe_offset = (toe_goal - rest).as_vec3() - offset;
                motion.bones.push(translation_key(skeleton, toe_ik, frame, toe_offset));
            }
        }
    }
    motion.properties.push(PropertyKey {
        frame: 0,
        visible_byte: 1,
        ik: (0..skeleton.ik_count())
            .map(|k| IkState {
                name: LongName::encode(skeleton.bone_name(skeleton.ik_bone(k))).0,
                enabled_byte: options.ik as u8,
            })
            .collect(),
    });
    motion
}

/// The twist part of `q` about the unit `axis` (swing–twist decomposition): the rotation about
/// the axis that leaves a swing perpendicular to it.
fn twist_about(q: DQuat, axis: DVec3) -> DQuat {
    let v = DVec3::new(q.x, q.y, q.z);
    let along = axis * v.dot(axis);
    let t = DQuat::from_xyzw(along.x, along.y, along.z, q.w);
    // A half-turn swing leaves no twist to speak of (the decomposition is singular there).
    if t.length_squared() < 1e-12 {
        DQuat::IDENTITY
    } else {
        t.normalize()
    }
}

/// A rig bone's rotation in its parent's frame.
fn local_rotation(rig: &KeyedRig, s: &State, b: usize) -> DQuat {
    let parent = rig.bones[b].parent.map_or(DQuat::IDENTITY, |p| s.world[p]);
    (parent.inverse() * s.world[b]).normalize()
}

/// `q` on the previous key's hemisphere, so that slerp between them takes the short way.
fn continuous(previous: &mut Option<Quat>, q: Quat) -> Quat {
    let q = if previous.is_some_and(|p| p.dot(q) < 0.0) { -q } else { q };
    *previous = Some(q);
    q
}

fn translation_key(skeleton: &Skeleton, bone: usize, frame: u32, t: glam::Vec3) -> BoneKey {
    let mut key = BoneKey::new(*skeleton.bone_key_name(bone), frame);
    key.translation = t;
    key
}

/// Per side: the IK bone, its target's rest position and the rig bone the target moves with.
struct IkTargets {
    leg: [Option<(usize, DVec3, usize)>; 2],
    toe: [Option<(usize, DVec3, usize)>; 2],
}

fn ik_targets(rig: &KeyedRig, skeleton: &Skeleton) -> IkTargets {
    let find = |ik: Option<usize>, attached: usize| {
        let ik = ik?;
        let k = (0..skeleton.ik_count()).find(|&k| skeleton.ik_bone(k) == ik)?;
        let target = skeleton.ik_target(k);
        Some((ik, skeleton.rest_position(target).as_dvec3(), attached))
    };
    IkTargets {
        leg: [0, 1].map(|s| find(rig.leg_ik[s], rig.legs[s].lower)),
        toe: [0, 1].map(|s| find(rig.toe_ik[s], rig.legs[s].end)),
    }
}

/// The keys the options ask for; `sampler` is `dense`'s.
pub(crate) fn thin(dense: &Motion, sampler: &MotionSampler, options: &RetargetOptions) -> Motion {
    match options.keys {
        KeyMode::Dense => dense.clone(),
        KeyMode::Thinned(tolerance) => {
            let method = options.reduce_method;
            let reduce_options = ReduceOptions { tolerance, method, threads: 1 };
            // The report measures the result by playing it back, joint by joint.
            reduce_unmeasured(dense, sampler, &reduce_options, &mut Vec::new())
        }
    }
}
