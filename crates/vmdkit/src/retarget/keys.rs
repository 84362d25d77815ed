//! Solved frames → VMD keys: センター (and グルーブ) translation, a rotation per keyed bone, in
//! IK mode 足ＩＫ/つま先ＩＫ at the solved ankles and toes, and a property key that states the
//! IK switches; then thinning.
//!
//! Thinned, the dense keys are never written as 111-byte records: each track's values go to
//! the thinning and to the sampler the report plays just as those records would have given
//! them, which the retargeting's tests check against `edit::reduce` of the dense motion.
//!
//! In IK mode the legs keep their FK keys as well: MMD's IK starts from the keyed pose (§10.1),
//! which already reaches the goal, so the solve changes nothing there, while an engine without
//! IK still sees the right legs.

use super::fingers;
use super::lm::State;
use super::options::KeyMode;
use super::rig::KeyedRig;
use super::RetargetOptions;
use crate::edit::{reduce_bone_samples, BoneSamples, ReduceOptions};
use crate::eval::{BoneSample, BoneTrack, MotionSampler};
use crate::format::{BoneKey, IkState, Motion, PropertyKey};
use crate::math::normalized_rotation;
use crate::skeleton::Skeleton;
use crate::text::LongName;
use glam::{DQuat, DVec3, Quat};

/// Bone keys [`dense_keys`] makes per frame: センター, グルーブ, the rig's bones and the four
/// IK bones.
pub(crate) fn keys_per_frame(rig: &KeyedRig) -> usize {
    2 + rig.bones.len() + 4
}

/// A motion without keys, for the model `options` name: where the body is not solved.
pub(crate) fn empty_motion(options: &RetargetOptions) -> Motion {
    Motion::new(LongName::encode(&options.model_name).0)
}

/// One key per frame for every bone the retargeting drives, each handed to `put` with its
/// track's number (tracks numbered in the order they first appear, the same every frame).
/// Returns how many tracks that is.
fn dense_keys(
    rig: &KeyedRig,
    skeleton: &Skeleton,
    states: &[State],
    options: &RetargetOptions,
    put: &mut impl FnMut(usize, BoneKey),
) -> usize {
    let mut previous: Vec<Option<Quat>> = vec![None; rig.bones.len()];
    let mut previous_twist: [Option<Quat>; 2] = [None, None];
    let ik_targets = ik_targets(rig, skeleton);
    let mut tracks = 0;
    for (f, s) in states.iter().enumerate() {
        let frame = f as u32;
        let mut track = 0;
        let mut push = |key: BoneKey| {
            put(track, key);
            track += 1;
        };
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
        push(centre);
        if let Some(groove) = rig.groove {
            push(translation_key(skeleton, groove, frame, groove_t.as_vec3()));
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
                    push(key);
                    twist.inverse() * keyed
                }
                None => keyed,
            };
            let q = continuous(&mut previous[b], keyed.normalize().as_quat());
            let mut key = BoneKey::new(*skeleton.bone_key_name(bone.skel), frame);
            key.rotation = q;
            push(key);
        }
        if options.ik {
            for side in 0..2 {
                let Some((ik, target, attached)) = ik_targets.leg[side] else { continue };
                let goal = s.pivot[attached] + s.world[attached] * (target - rig.rest(attached));
                let offset = (goal - skeleton.rest_position(ik).as_dvec3()).as_vec3();
                push(translation_key(skeleton, ik, frame, offset));
                let Some((toe_ik, toe, toe_attached)) = ik_targets.toe[side] else { continue };
                let toe_goal =
                    s.pivot[toe_attached] + s.world[toe_attached] * (toe - rig.rest(toe_attached));
                // つま先ＩＫ hangs under 足ＩＫ, which only moves: its offset is in model axes.
                let rest = skeleton.rest_position(toe_ik).as_dvec3();
                let toe_offset = (toe_goal - rest).as_vec3() - offset;
                push(translation_key(skeleton, toe_ik, frame, toe_offset));
            }
        }
        tracks = track;
    }
    tracks
}

/// The property key that states every IK switch: on in IK mode, else off.
fn ik_switches(skeleton: &Skeleton, options: &RetargetOptions) -> PropertyKey {
    PropertyKey {
        frame: 0,
        visible_byte: 1,
        ik: (0..skeleton.ik_count())
            .map(|k| IkState {
                name: LongName::encode(skeleton.bone_name(skeleton.ik_bone(k))).0,
                enabled_byte: options.ik as u8,
            })
            .collect(),
    }
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

/// The keys the options ask for, and the sampler of the dense keys (one per frame for every
/// bone driven), which the report plays.
pub(crate) struct Keyed {
    pub motion: Motion,
    pub dense: MotionSampler,
    /// Thinned, how `motion` plays at its integer frames, where the report plays it: the
    /// values its tracks were verified with (`None` when dense: `dense` is the motion's).
    pub thinned: Option<MotionSampler>,
    /// How many keys the dense motion has.
    pub dense_keys: usize,
}

/// The keys of the solved `states` (none where the body is not solved) and `hands`, dense or
/// thinned as the options ask. Thinned, the dense keys are never made: each track's values go
/// straight to the thinning and to the sampler, as the keys would have given them, so a long
/// clip never holds a 111-byte record per bone and frame.
pub(crate) fn keyed(
    rig: &KeyedRig,
    skeleton: &Skeleton,
    states: &[State],
    hands: Option<&fingers::Solved>,
    options: &RetargetOptions,
) -> Keyed {
    let mut motion = empty_motion(options);
    if !states.is_empty() {
        motion.properties.push(ik_switches(skeleton, options));
    }
    let emit = |put: &mut dyn FnMut(usize, BoneKey)| {
        let body = dense_keys(rig, skeleton, states, options, &mut |t, k| put(t, k));
        if let Some(solved) = hands {
            fingers::add_keys(skeleton, solved, body, &mut |t, k| put(t, k));
        }
    };
    let frames = states.len().max(hands.map_or(0, Vec::len));
    match options.keys {
        KeyMode::Dense => {
            let per_frame = usize::from(!states.is_empty()) * keys_per_frame(rig)
                + hands.map_or(0, |_| fingers::keys_per_frame(&rig.fingers, [true, true]));
            motion.bones.reserve(frames * per_frame);
            emit(&mut |_, key| motion.bones.push(key));
            let dense = MotionSampler::new(&motion);
            Keyed { dense_keys: motion.bones.len(), motion, dense, thinned: None }
        }
        KeyMode::Thinned(tolerance) => {
            let mut tracks: Vec<BoneSamples> = Vec::new();
            emit(&mut |t, key| {
                if t == tracks.len() {
                    tracks.push(BoneSamples::with_capacity(key.name, key.frame, frames));
                }
                let r = &mut tracks[t];
                debug_assert_eq!(r.first as usize + r.translation.len(), key.frame as usize);
                // As a sampler of the keys holds them: what the thinning and the report see.
                r.push(BoneSample {
                    translation: key.translation,
                    rotation: normalized_rotation(key.rotation),
                    physics: key.interpolation.physics(),
                });
            });
            // The IK switches, which both samplers play with their bone tracks.
            let properties = MotionSampler::new(&motion);
            let method = options.reduce_method;
            let reduce = ReduceOptions { tolerance, method, threads: 1 };
            let dense_keys = tracks.iter().map(|r| r.translation.len()).sum();
            // Room for every dense key, of which only those written are ever touched: the
            // thinned keys go straight in, track after track, instead of being copied in.
            motion.bones.reserve_exact(dense_keys);
            let plays: Vec<BoneSamples> =
                tracks.iter().map(|r| reduce_bone_samples(r, &reduce, &mut motion.bones)).collect();
            motion.bones.shrink_to_fit();
            let as_track = |r: &BoneSamples| {
                BoneTrack::dense(r.name, r.first, &r.translation, &r.rotation, &r.physics)
            };
            let thinned_sampler =
                properties.clone().with_bone_tracks(plays.iter().map(as_track).collect());
            Keyed {
                motion,
                dense: properties.with_bone_tracks(tracks.iter().map(as_track).collect()),
                thinned: Some(thinned_sampler),
                dense_keys,
            }
        }
    }
}
