//! BVH against real files of `../shared/pose` and the corpus: the reader's FK against
//! bvh-toolbox's own, VMD → BVH → FK against vmdkit's pose, and CMU motion capture retargeted
//! onto the trace model against the BVH's own FK. docs/bvh.md tables a run of
//! `cargo test --release -p vmdkit --test bvh -- --nocapture --test-threads 1`.

use glam::{DVec3, Vec3};
use vmdkit::bvh::{
    detect_layout, from_motion, to_keypoints, Bvh, BvhExportOptions, BvhUnits, EulerOrder,
    FkOptions, PositionOffset,
};
use vmdkit::eval::MotionSampler;
use vmdkit::keypoints::{Smoothing, Units};
use vmdkit::model::Model;
use vmdkit::retarget::{keypoints_from_motion, retarget, KeypointOptions, RetargetOptions};
use vmdkit::roles::Role;
use vmdkit::skeleton::{Axes, Binding, Pose, Poser, Skeleton, METRES_PER_UNIT};
use vmdkit::Motion;

const WALK: &str = "OlafHaag__bvh-toolbox__walk01.bvh";
const WALK_POS: &str = "OlafHaag__bvh-toolbox__walk01_pos.csv";
const CMU: &str = "yuki-koyama__bvh11__131_01.bvh";
const TRACE: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const DANCE: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";

fn pose_file(name: &str) -> Option<Bvh> {
    let path = test_corpus::pose_file_or_skip("bvh", name)?;
    Some(Bvh::read_file(path).unwrap())
}

fn corpus(path: &str) -> Option<std::path::PathBuf> {
    test_corpus::corpus_or_skip("bvh")?;
    Some(test_corpus::corpus_dir().join(path))
}

/// bvh-toolbox's world positions: per frame, `time` then x, y, z per named joint.
fn toolbox_positions() -> Option<(Vec<String>, Vec<Vec<f64>>)> {
    let path = test_corpus::pose_file_or_skip("bvh", WALK_POS)?;
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let rows = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|v| v.trim().parse::<f64>().unwrap()).collect())
        .collect();
    Some((header, rows))
}

#[test]
fn fk_reproduces_bvh_toolbox_positions() {
    let (Some(bvh), Some((header, rows))) = (pose_file(WALK), toolbox_positions()) else {
        return;
    };
    assert_eq!(bvh.frame_count, 101);
    assert!((bvh.fps() - 24.0).abs() < 1e-3);
    assert_eq!(rows.len(), bvh.frame_count);
    let mut worst = 0f64;
    let mut compared = 0;
    for (frame, row) in rows.iter().enumerate() {
        assert!((row[0] - frame as f64 * bvh.frame_time).abs() < 1e-4);
        let pose = bvh.world_pose(frame, FkOptions::default());
        let added = bvh.world_pose(frame, FkOptions { position_offset: PositionOffset::Add });
        for (c, column) in header.iter().enumerate().skip(1).step_by(3) {
            let name = column.strip_suffix(".x").unwrap();
            let j = bvh.joint_index(name).unwrap_or_else(|| panic!("no joint {name}"));
            let theirs = DVec3::new(row[c], row[c + 1], row[c + 2]);
            worst = worst.max((pose[j].position - theirs).length());
            // Adding the root's OFFSET lifts everything by it.
            let lift = added[j].position - theirs;
            assert!((lift - DVec3::new(0.0, 103.511, 0.0)).length() < 1e-4, "{lift}");
            compared += 1;
        }
    }
    println!("walk01: {compared} joint positions, worst {worst:.2e} cm from bvh-toolbox's FK");
    assert_eq!(compared, 101 * 24);
    assert!(worst < 1e-4, "{worst}");
}

#[test]
fn reads_cmu_motion_capture() {
    let Some(bvh) = pose_file(CMU) else { return };
    let joints = bvh.joints.iter().filter(|j| !j.channels.is_empty()).count();
    assert_eq!(joints, 31);
    assert_eq!(bvh.joints.len(), 31 + 7);
    assert_eq!(bvh.frame_count, 994);
    assert_eq!(bvh.channel_count, 6 + 30 * 3);
    assert!((bvh.fps() - 120.0).abs() < 0.01);
    let layout = detect_layout(&bvh).unwrap();
    assert_eq!(layout.name, "cmu-3dsmax");
    // CMU's crude hand: the finger stub as the index finger's knuckle and tip, the thumb stub
    // from the wrist as the thumb's base and tip; nothing else of the fingers.
    let role = |name: &str| {
        layout.joints.iter().filter(|j| j.name == name).map(|j| j.role).collect::<Vec<_>>()
    };
    assert_eq!(role("LFingers"), [Some(Role::LeftIndexFingerMcp)]);
    assert_eq!(role("RFingers_End"), [Some(Role::RightIndexFingerTip)]);
    assert_eq!(role("LThumb"), [Some(Role::LeftThumbCmc)]);
    assert_eq!(role("RThumb_End"), [Some(Role::RightThumbTip)]);
    assert_eq!(role("LeftWrist"), [Some(Role::LeftWrist), Some(Role::LeftHandWrist)]);
    assert!(!layout.has(Role::LeftMiddleFingerMcp) && !layout.has(Role::LeftThumbIp));
    assert_eq!(layout.hand_sides(), vmdkit::roles::Side::BOTH);
    // The tips are away from the wrist, the thumb's by about its length (0.76 units).
    let kp = vmdkit::bvh::to_keypoints(&bvh, &layout, Default::default()).unwrap();
    let at = |r: Role| kp.positions[layout.joint_of(r).unwrap()];
    let thumb = at(Role::LeftThumbTip).distance(at(Role::LeftWrist));
    assert!((thumb - 0.7615).abs() < 0.01, "{thumb}");
    let finger = at(Role::LeftIndexFingerTip).distance(at(Role::LeftIndexFingerMcp));
    assert!((finger - 0.5303).abs() < 0.01, "{finger}");
}

/// VMD → BVH → this reader's FK against vmdkit's own pose of every bone, at every frame.
fn export_matches_pose(model: &Model, motion: &Motion, options: &BvhExportOptions) -> f64 {
    let sampler = MotionSampler::new(motion);
    let bvh = from_motion(model, &sampler, options).unwrap();
    let mut text = Vec::new();
    bvh.write_to(&mut text).unwrap();
    let read = Bvh::parse(&text).unwrap();
    let skeleton = Skeleton::new(model);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::with_options(&skeleton, &sampler, &binding, options.pose);
    let mut pose = Pose::new(&skeleton);
    let scale = match options.units {
        BvhUnits::Metres => METRES_PER_UNIT,
        _ => 1.0,
    };
    let bones: Vec<(usize, usize)> = read
        .joints
        .iter()
        .enumerate()
        .filter(|(_, j)| !j.channels.is_empty())
        .filter_map(|(j, joint)| {
            // Repeated names carry the bone's index: `name_12`.
            let suffixed = joint.name.rsplit_once('_').and_then(|(_, i)| i.parse::<usize>().ok());
            let underscored = |n: &str| n.trim().replace(char::is_whitespace, "_");
            let english = model.bones.iter().position(|b| underscored(&b.name_en) == joint.name);
            let bone = if options.english_names { english } else { None };
            bone.or_else(|| skeleton.bone_index(&joint.name))
                .or(suffixed.filter(|&i| i < model.bones.len()))
                .map(|b| (j, b))
        })
        .collect();
    let joints = read.joints.iter().filter(|j| !j.channels.is_empty()).count();
    assert!(bones.len() * 10 >= joints * 9, "joints found by name: {} of {joints}", bones.len());
    let mut worst = 0f64;
    let mut world = Vec::new();
    for frame in 0..read.frame_count {
        poser.pose_at(frame as f64 * 30.0 / options.fps, &mut pose);
        read.world_pose_into(frame, FkOptions::default(), &mut world);
        for &(j, b) in &bones {
            let expected = Axes::RightHandedYUp.position(pose.position(b)).as_dvec3() * scale;
            worst = worst.max((world[j].position - expected).length() / scale);
        }
    }
    worst
}

#[test]
fn exported_bvh_plays_as_vmdkit_poses() {
    let (Some(trace), Some(miku), Some(dance)) = (corpus(TRACE), corpus(MIKU), corpus(DANCE))
    else {
        return;
    };
    let mut motion = Motion::read_file(dance).unwrap();
    motion.bones.retain(|k| k.frame <= 300);
    for (label, path) in [("trace", trace), ("初音ミク", miku)] {
        let model = Model::read_file(path).unwrap();
        let cases = [
            ("every bone, zxy, 30 fps", BvhExportOptions::default()),
            (
                "deform only, yxz, 60 fps, metres",
                BvhExportOptions {
                    deform_only: true,
                    order: EulerOrder::Yxz,
                    fps: 60.0,
                    units: BvhUnits::Metres,
                    ..BvhExportOptions::default()
                },
            ),
            (
                "English names, zyx, 24 fps",
                BvhExportOptions {
                    english_names: true,
                    order: EulerOrder::Zyx,
                    fps: 24.0,
                    ..BvhExportOptions::default()
                },
            ),
        ];
        for (what, options) in cases {
            let worst = export_matches_pose(&model, &motion, &options);
            println!("{label}, {what}: worst joint {worst:.2e} units from vmdkit's pose");
            assert!(worst < 1e-4, "{label}, {what}: {worst}");
        }
    }
}

/// The mean angle between each segment in the BVH's own FK and the same segment of the
/// retargeted motion played back on the model; also the lowest foot point per frame.
#[test]
fn cmu_capture_retargets_onto_the_trace_model() {
    capture_onto(CMU, TRACE, "131_01 → trace", true);
}

#[test]
fn other_captures_onto_other_skeletons() {
    capture_onto(WALK, TRACE, "walk01 → trace", false);
    capture_onto(CMU, MIKU, "131_01 → 初音ミク", true);
    capture_onto(WALK, MIKU, "walk01 → 初音ミク", false);
}

/// Retargets the capture `file` onto `model_path` and asserts the figures against the
/// capture's own FK.
fn capture_onto(file: &str, model_path: &str, label: &str, feet_on_floor: bool) {
    let (Some(bvh), Some(model)) = (pose_file(file), corpus(model_path)) else { return };
    let model = Model::read_file(model).unwrap();
    let skeleton = Skeleton::new(&model);
    let layout = detect_layout(&bvh).unwrap();
    let kp = to_keypoints(&bvh, &layout, FkOptions::default()).unwrap();
    let options = RetargetOptions {
        fps: bvh.fps(),
        smoothing: Smoothing::None,
        ..RetargetOptions::default()
    };
    let out = retarget(&kp, &layout, &skeleton, &options).unwrap();
    let in_units =
        KeypointOptions { units: Units::MetresPer(METRES_PER_UNIT), ..KeypointOptions::default() };
    let played = keypoints_from_motion(&out.motion, &skeleton, &layout, &in_units).unwrap();
    let rest = keypoints_from_motion(&Motion::default(), &skeleton, &layout, &in_units).unwrap();
    let at = |role: Role| layout.joint_of(role).unwrap();
    let hips_mid = |p: &[Vec3]| (p[at(Role::LeftHip)] + p[at(Role::RightHip)]).as_dvec3() / 2.0;
    use Role::*;
    let segments = [
        (LeftHip, LeftKnee),
        (LeftKnee, LeftAnkle),
        (RightHip, RightKnee),
        (RightKnee, RightAnkle),
        (LeftShoulder, LeftElbow),
        (LeftElbow, LeftWrist),
        (RightShoulder, RightElbow),
        (RightElbow, RightWrist),
    ];
    let mut sum = vec![0f64; segments.len() + 1];
    let mut lowest = Vec::new();
    let mut input_low = Vec::new();
    // Output frame k is at k/30 s: BVH frame 4k at 120 fps, between two frames at 24 fps
    // (positions interpolated linearly there, as the retargeting resamples them).
    let step = bvh.fps() / 30.0;
    let frames = played.frame_count.min(((bvh.frame_count - 1) as f64 / step) as usize + 1);
    for k in 0..frames {
        let t = k as f64 * step;
        let (a, w) = (t.floor() as usize, (t - t.floor()) as f32);
        let b = (a + 1).min(bvh.frame_count - 1);
        let src: Vec<Vec3> =
            kp.frame(a).iter().zip(kp.frame(b)).map(|(p, q)| p.lerp(*q, w)).collect();
        let src = src.as_slice();
        let dst = played.frame(k);
        let angle = |a: DVec3, b: DVec3| a.angle_between(b).to_degrees();
        for (s, &(from, to)) in segments.iter().enumerate() {
            let d = |p: &[Vec3]| (p[at(to)] - p[at(from)]).as_dvec3();
            sum[s] += angle(d(src), d(dst));
        }
        let trunk = |p: &[Vec3]| p[at(Thorax)].as_dvec3() - hips_mid(p);
        sum[segments.len()] += angle(trunk(src), trunk(dst));
        let feet = [LeftAnkle, RightAnkle, LeftToe, RightToe];
        let low = |p: &[Vec3]| feet.map(|r| p[at(r)].y).into_iter().fold(f32::INFINITY, f32::min);
        // Heights above the model's own lowest foot point at rest.
        lowest.push(low(dst) - low(rest.frame(0)));
        input_low.push(low(src) * out.report.scale as f32);
    }
    let means: Vec<f64> = sum.iter().map(|s| s / frames as f64).collect();
    let mean = means.iter().sum::<f64>() / means.len() as f64;
    for ((from, to), m) in segments.iter().zip(&means) {
        println!("{label}: {from} → {to}: {m:.3}°");
    }
    println!("{label}: pelvis → thorax: {:.3}°", means[segments.len()]);
    lowest.sort_by(f32::total_cmp);
    input_low.sort_by(f32::total_cmp);
    let il: Vec<f32> = [0, 10, 50, 90]
        .iter()
        .map(|p| input_low[input_low.len() * p / 100] - input_low[0])
        .collect();
    println!("input lowest foot point percentiles 0/10/50/90 above its min: {il:?}");
    let (floor_min, floor_p10) = (lowest[0], lowest[lowest.len() / 10]);
    println!(
        "{label}: {frames} frames, mean direction error {mean:.3}°, scale {:.4}, lowest \
         foot point {floor_min:.4} units (10th percentile {floor_p10:.4}), median {:.4}",
        out.report.scale,
        lowest[lowest.len() / 2]
    );
    assert!(mean < 2.0, "{mean}");
    assert!(means.iter().all(|m| *m < 5.0), "{means:?}");
    // The root travels as far as the capture, at the scale's proportion.
    let centre = |kp: &vmdkit::keypoints::Keypoints, f: usize| hips_mid(kp.frame(f));
    let last = ((frames - 1) as f64 * step).round() as usize;
    let src_travel = (centre(&kp, last) - centre(&kp, 0)).length();
    let dst_travel = (centre(&played, frames - 1) - centre(&played, 0)).length();
    let ratio = dst_travel / (src_travel * out.report.scale);
    println!(
        "{label}: travel {dst_travel:.2} units for {src_travel:.2} input ({ratio:.3} of scaled)"
    );
    assert!((ratio - 1.0).abs() < 0.05, "{ratio}");
    // Feet never below the floor.
    assert!(floor_min > -0.02, "{floor_min}");
    // CMU's toe End Sites are the toe tips: the feet come down on the floor, and follow the
    // capture's own lowest foot point, which is 0.4–1.2 units (scaled) above its minimum while
    // walking and standing and lower only while crouching. walk01's foot End Sites are not
    // (7.9 cm up at rest): there the feet are only checked not to sink.
    if !feet_on_floor {
        return;
    }
    assert!(floor_min < 0.1, "{floor_min}");
    assert!(
        (lowest[lowest.len() / 2] - il[2]).abs() < 0.3,
        "{} {}",
        lowest[lowest.len() / 2],
        il[2]
    );
}

/// A model whose bone positions are not finite (NaN, infinity, or so far apart that their
/// differences overflow) cannot be exported: a BVH holding `NaN` reads nowhere, vmdkit's own
/// reader included. Found by the `bvh_export` fuzz target.
#[test]
fn a_model_with_a_position_that_is_not_finite_is_refused_by_the_bvh_export() {
    let motion = vmdkit::example::example_motion();
    let sampler = MotionSampler::new(&motion);
    for bad in [f32::NAN, f32::INFINITY] {
        let mut model = vmdkit::example::standard_model();
        let head = model.bones.iter().position(|b| b.name == "頭").unwrap();
        model.bones[head].position.x = bad;
        let err = from_motion(&model, &sampler, &BvhExportOptions::default()).unwrap_err();
        assert_eq!(err.to_string(), "joint 頭: its rest offset is not a finite number");
    }
    // Finite positions whose pose overflows: a value, named with its frame.
    let mut model = vmdkit::example::standard_model();
    let center = model.bones.iter().position(|b| b.name == "センター").unwrap();
    model.bones[center].position.y = f32::MAX;
    match from_motion(&model, &sampler, &BvhExportOptions::default()) {
        Ok(bvh) => assert!(bvh.motion.iter().all(|v| v.is_finite())),
        Err(err) => assert!(err.to_string().contains("is not a finite number"), "{err}"),
    }
}

/// Deforming bones only: a model whose every bone is an IK control, or below one, has nothing
/// to export (a BVH of no joints reads nowhere); and telling them apart stays linear in the
/// bone count when every parent is listed after its child (it was a pass per chain level,
/// quadratic in a reversed chain). Found by the `bvh_export` fuzz target.
#[test]
fn deforming_bones_only_of_a_model_without_any_is_refused_and_a_reversed_chain_is_linear() {
    use vmdkit::model::{Bone, BoneFlags};
    let motion = vmdkit::example::example_motion();
    let sampler = MotionSampler::new(&motion);
    let options = BvhExportOptions { deform_only: true, fps: 1.0, ..BvhExportOptions::default() };
    let mut model = vmdkit::example::standard_model();
    for bone in &mut model.bones {
        bone.flags = BoneFlags(bone.flags.0 | BoneFlags::IK.0);
    }
    let err = from_motion(&model, &sampler, &options).unwrap_err();
    assert!(err.to_string().contains("none deforms the body"), "{err}");

    // Bone i hangs from bone i + 1; the last, an IK control, is the root: nothing deforms.
    let n = 50_000;
    let mut chain = vmdkit::example::standard_model();
    chain.bones = (0..n)
        .map(|i| {
            let parent = (i + 1 < n).then_some(i + 1);
            Bone::new(&format!("b{i}"), Vec3::new(0.0, (n - i) as f32 * 0.01, 0.0), parent)
        })
        .collect();
    chain.bones[n - 1].flags = BoneFlags(BoneFlags::IK.0);
    assert!(from_motion(&chain, &sampler, &options).is_err());
    // Without the IK root, every bone deforms and is exported, parents first.
    chain.bones[n - 1].flags = BoneFlags::default();
    let bvh = from_motion(&chain, &sampler, &options).unwrap();
    assert_eq!(bvh.joints.iter().filter(|j| j.channels.len() >= 3).count(), n);
}
