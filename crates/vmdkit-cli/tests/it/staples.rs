//! The MMD staples of issue 12, through the binary: `bake --model -o OUT.vmd` (IK baked into
//! forward keys), `bake --from-fps`, bake's refusal of options that do nothing, `append`, and
//! `shift --offset/--rotate`.

use crate::common;

use common::{assert_no_panic, example_dir, vmdkit};
use glam::Vec3;
use std::path::{Path, PathBuf};
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Binding, Pose, PoseOptions, Poser, Skeleton};
use vmdkit::Motion;

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const WAVE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
const GREET: &str =
    "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Motion__mei_greeting__mei_greeting.vmd";
const RESULT: &str = "miu200521358__mmd_base/tests__resources__result.vmd";
const CAMERA: &str =
    "olyutorskii__Vmd2XML/src__test__resources__testdata__vmd110820__camera__camera.vmd";

/// Runs the binary in `dir`: (exit code, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let output = vmdkit().current_dir(dir).args(args).output().unwrap();
    assert_no_panic(&output);
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned())
}

fn corpus(test: &str) -> Option<PathBuf> {
    test_corpus::corpus_or_skip(test).map(|m| m.dir)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every bone's model-space position of `motion` on `skeleton` at each of `frames`.
fn positions(
    skeleton: &Skeleton,
    motion: &Motion,
    options: PoseOptions,
    frames: &[f64],
) -> Vec<Vec<Vec3>> {
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::with_options(skeleton, &sampler, &binding, options);
    let mut pose = Pose::new(skeleton);
    frames
        .iter()
        .map(|&f| {
            poser.pose_at(f, &mut pose);
            pose.positions().to_vec()
        })
        .collect()
}

fn largest_difference(a: &[Vec<Vec3>], b: &[Vec<Vec3>]) -> f32 {
    (a.iter().zip(b))
        .flat_map(|(pa, pb)| pa.iter().zip(pb).map(|(p, q)| p.distance(*q)))
        .fold(0.0, f32::max)
}

#[test]
fn bake_model_vmd_bakes_ik_into_keys_that_play_the_same_with_ik_off() {
    let Some(dir) = corpus("bake_model_vmd_bakes_ik_into_keys_that_play_the_same_with_ik_off")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (wave, miku) = (dir.join(WAVE), dir.join(MIKU));
    let (code, stderr) =
        run(tmp.path(), &["bake", path(&wave), "--model", path(&miku), "-o", "fk.vmd"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("IK baked into 19 bones"), "{stderr}");
    assert!(stderr.contains("7 IK chains switched off"), "{stderr}");

    let skeleton = Skeleton::new(&Model::read_file(&miku).unwrap());
    let original = Motion::read_file(&wave).unwrap();
    let baked = Motion::read_file(tmp.path().join("fk.vmd")).unwrap();
    assert!(baked.properties.iter().all(|p| p.ik.iter().all(|s| !s.is_enabled())));
    assert_eq!(original.morphs, baked.morphs);
    let frames: Vec<f64> = (0..=2809).step_by(7).map(f64::from).collect();
    let want = positions(&skeleton, &original, PoseOptions::default(), &frames);
    let fk = PoseOptions { solve_ik: false, ..PoseOptions::default() };
    let got = positions(&skeleton, &baked, fk, &frames);
    let d = largest_difference(&want, &got);
    assert!(d <= 1e-4, "baked motion off by {d}");

    // --reduce thins the baked keys, within its tolerance per track.
    let args = ["bake", path(&wave), "--model", path(&miku), "-o", "thin.vmd", "--reduce"];
    let (code, stderr) = run(tmp.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("reduced"), "{stderr}");
    let thin = Motion::read_file(tmp.path().join("thin.vmd")).unwrap();
    assert!(
        thin.bones.len() < baked.bones.len() * 2 / 3,
        "{} vs {}",
        thin.bones.len(),
        baked.bones.len()
    );
}

#[test]
fn bake_model_vmd_resamples_a_pmd_dance_with_fps_and_from_fps() {
    let Some(dir) = corpus("bake_model_vmd_resamples_a_pmd_dance_with_fps_and_from_fps") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (greet, mei) = (dir.join(GREET), dir.join(MEI));
    let args = ["bake", path(&greet), "--model", path(&mei), "--fps", "60", "-o", "fk60.vmd"];
    let (code, stderr) = run(tmp.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("frame numbers count at 60 fps"), "{stderr}");
    // A 60 fps motion baked back to 30 with --from-fps 60: the original's timing again.
    let args = [
        "bake",
        "fk60.vmd",
        "--model",
        path(&mei),
        "--from-fps",
        "60",
        "--fps",
        "30",
        "-o",
        "fk30.vmd",
    ];
    let (code, stderr) = run(tmp.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    let skeleton = Skeleton::new(&Model::read_file(&mei).unwrap());
    let original = Motion::read_file(&greet).unwrap();
    let back = Motion::read_file(tmp.path().join("fk30.vmd")).unwrap();
    assert_eq!(back.frame_range(), original.frame_range());
    let frames: Vec<f64> = (0..=original.frame_range().unwrap().1).map(f64::from).collect();
    let want = positions(&skeleton, &original, PoseOptions::default(), &frames);
    let got = positions(&skeleton, &back, PoseOptions::default(), &frames);
    let d = largest_difference(&want, &got);
    assert!(d <= 1e-4, "off by {d}");
}

#[test]
fn plain_bake_from_fps_counts_the_input_at_that_rate() {
    let (tmp, _) = example_dir();
    let d = tmp.path();
    assert_eq!(run(d, &["retime", "example.vmd", "e60.vmd", "--fps", "60"]).0, 0);
    let (code, stderr) =
        run(d, &["bake", "e60.vmd", "--from-fps", "60", "--fps", "30", "-o", "e30.vmd"]);
    assert_eq!(code, 0, "{stderr}");
    let original = vmdkit::example::example_motion();
    let back = Motion::read_file(d.join("e30.vmd")).unwrap();
    assert_eq!(back.frame_range(), original.frame_range());
    let (a, b) = (MotionSampler::new(&original), MotionSampler::new(&back));
    for (ta, tb) in a.bone_tracks().iter().zip(b.bone_tracks()) {
        for f in 0..=60 {
            let (x, y) = (ta.sample(f), tb.sample(f));
            assert!(x.rotation.dot(y.rotation).abs() > 1.0 - 1e-4, "frame {f}");
        }
    }
    // --from-fps without --fps would do nothing.
    let (code, stderr) = run(d, &["bake", "e60.vmd", "--from-fps", "60", "-o", "x.vmd"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!d.join("x.vmd").exists());
}

#[test]
fn bake_refuses_options_that_do_nothing_naming_them() {
    let (tmp, _) = example_dir();
    let d = tmp.path();
    let base = ["bake", "example.vmd", "--fps", "30", "-o", "out.vmd"];
    for (extra, flag) in [
        (&["--metres"][..], "--metres"),
        (&["--up", "z"][..], "--up"),
        (&["--scale", "0.08"][..], "--scale"),
        (&["--right-handed"][..], "--right-handed"),
        (&["--ik", "plain"][..], "--ik"),
        (&["--reduce"][..], "--reduce"),
        (&["--pretty"][..], "--pretty"),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let (code, stderr) = run(d, &args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("error: {flag} ")), "{args:?}: {stderr}");
        assert!(!d.join("out.vmd").exists());
    }
    // Tolerances need --reduce (clap says so).
    let args: Vec<&str> = base.iter().copied().chain(["--max-angle-error", "1"]).collect();
    let (code, stderr) = run(d, &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--reduce"), "{stderr}");
    // Without --model, --fps is needed; a negative one reaches its own check.
    let (code, stderr) = run(d, &["bake", "example.vmd", "-o", "out.vmd"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("needs --fps N"), "{stderr}");
    let (code, stderr) = run(d, &["bake", "example.vmd", "--fps", "-30", "-o", "out.vmd"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--fps must be a positive number, not -30"), "{stderr}");
}

#[test]
fn bake_with_a_model_refuses_world_options_for_vmd_and_motions_without_bones() {
    let Some(dir) =
        corpus("bake_with_a_model_refuses_world_options_for_vmd_and_motions_without_bones")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (miku, wave, camera) = (dir.join(MIKU), dir.join(WAVE), dir.join(CAMERA));
    for flag in ["--metres", "--right-handed"] {
        let args = ["bake", path(&wave), "--model", path(&miku), "-o", "x.vmd", flag];
        let (code, stderr) = run(d, &args);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(&format!("{flag} applies to a world-space bake")), "{stderr}");
    }
    let args =
        ["bake", path(&wave), "--model", path(&miku), "-o", "x.npz", "--fps", "30", "--reduce"];
    let (code, stderr) = run(d, &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--reduce applies to the IK bake"), "{stderr}");
    let args = ["bake", path(&wave), "--model", path(&miku), "-o", "x.npz"];
    let (code, stderr) = run(d, &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("a world-space bake needs --fps N"), "{stderr}");
    // A camera motion has nothing to pose: an error, not 1000 rest poses.
    for out in [&["-o", "cam.vmd"][..], &["-o", "cam.npz", "--fps", "30"][..]] {
        let args: Vec<&str> = ["bake", path(&camera), "--model", path(&miku)]
            .into_iter()
            .chain(out.iter().copied())
            .collect();
        let (code, stderr) = run(d, &args);
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("has no bone keys; nothing to pose"), "{stderr}");
        assert!(!d.join(out[1]).exists());
    }
}

#[test]
fn bake_model_reads_damaged_motions_leniently() {
    let Some(dir) = corpus("bake_model_reads_damaged_motions_leniently") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (miku, result) = (dir.join(MIKU), dir.join(RESULT));
    // RESULT is cut inside its bone section: read leniently, nothing of it is left to pose.
    let args = ["bake", "--lenient", path(&result), "--model", path(&miku), "-o", "r.vmd"];
    let (code, stderr) = run(d, &args);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("repaired by lenient reading"), "{stderr}");
    assert!(!stderr.contains("try --lenient"), "{stderr}");
    // A dance cut in the middle of a record: --lenient keeps what is whole, and bakes it.
    let bytes = std::fs::read(dir.join(WAVE)).unwrap();
    std::fs::write(d.join("cut.vmd"), &bytes[..bytes.len() / 2 + 7]).unwrap();
    for out in [&["-o", "cut-fk.vmd"][..], &["-o", "cut.npz", "--fps", "30"][..]] {
        let args: Vec<&str> = ["bake", "cut.vmd", "--model", path(&miku)]
            .into_iter()
            .chain(out.iter().copied())
            .collect();
        let (code, stderr) = run(d, &args);
        assert_eq!(code, 1, "{stderr}");
        let lenient: Vec<&str> = args.iter().copied().chain(["--lenient"]).collect();
        let (code, stderr) = run(d, &lenient);
        assert_eq!(code, 0, "{stderr}");
        assert!(d.join(out[1]).exists());
    }
}

#[test]
fn append_plays_one_motion_after_the_other() {
    let (tmp, _) = example_dir();
    let d = tmp.path();
    let (code, stderr) = run(
        d,
        &["append", "example.vmd", "example.vmd", "example.vmd", "--gap", "9", "-o", "x3.vmd"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("frame 0 at frame 70") && stderr.contains("frame 0 at frame 140"),
        "{stderr}"
    );
    let one = vmdkit::example::example_motion();
    let three = Motion::read_file(d.join("x3.vmd")).unwrap();
    assert_eq!(three.header, one.header);
    assert_eq!(three.frame_range(), Some((0, 200)));
    let (a, b) = (MotionSampler::new(&one), MotionSampler::new(&three));
    for start in [0, 70, 140] {
        for f in 0..=60 {
            for (ta, tb) in a.bone_tracks().iter().zip(b.bone_tracks()) {
                assert_eq!(ta.sample(f).rotation, tb.sample(f + start).rotation, "frame {f}");
            }
            let (ca, cb) = (a.camera_track().unwrap(), b.camera_track().unwrap());
            assert_eq!(ca.sample(f), cb.sample(f + start), "camera at {f} + {start}");
        }
    }
    // The camera cuts at each seam: one frame before the next motion's first camera key.
    let cut = b.camera_track().unwrap();
    assert_eq!(cut.sample(69), a.camera_track().unwrap().sample(60));
    assert_eq!(cut.sample(70), a.camera_track().unwrap().sample(0));

    // A model name that differs is kept from the first, with a warning.
    let mut other = one.clone();
    other.header.model_name = vmdkit::LongName::encode("別モデル").0;
    std::fs::write(d.join("other.vmd"), other.to_bytes()).unwrap();
    let (code, stderr) = run(d, &["append", "example.vmd", "other.vmd", "-o", "x2.vmd"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("warning: the inputs name different models"), "{stderr}");
    // Past the last VMD frame: an error, as for shift.
    let mut far = one;
    far.bones[0].frame = u32::MAX - 5;
    std::fs::write(d.join("far.vmd"), far.to_bytes()).unwrap();
    let (code, stderr) = run(d, &["append", "far.vmd", "example.vmd", "-o", "bad.vmd"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("beyond the largest VMD frame number"), "{stderr}");
    assert!(!d.join("bad.vmd").exists());
}

#[test]
fn shift_moves_and_turns_a_dance_through_its_root_bones() {
    let Some(dir) = corpus("shift_moves_and_turns_a_dance_through_its_root_bones") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (wave, miku) = (dir.join(WAVE), dir.join(MIKU));
    let args = [
        "shift",
        path(&wave),
        "turned.vmd",
        "--rotate",
        "-90",
        "--offset",
        "-2,0,5",
        "--model",
        path(&miku),
    ];
    let (code, stderr) = run(d, &args);
    assert_eq!(code, 0, "{stderr}");
    // MIKU has no 全ての親: its root bones carry the turn.
    assert!(stderr.contains("moved and turned through センター"), "{stderr}");
    let skeleton = Skeleton::new(&Model::read_file(&miku).unwrap());
    let frames = [0.0, 333.0, 1234.0, 2800.0];
    let before =
        positions(&skeleton, &Motion::read_file(&wave).unwrap(), PoseOptions::default(), &frames);
    let turned = Motion::read_file(d.join("turned.vmd")).unwrap();
    let after = positions(&skeleton, &turned, PoseOptions::default(), &frames);
    // --rotate is in MMD panel degrees: the panel negates Y.
    let rotation = glam::Quat::from_rotation_y(90f32.to_radians());
    let moved: Vec<Vec<Vec3>> = before
        .iter()
        .map(|pose| pose.iter().map(|&p| rotation * p + Vec3::new(-2.0, 0.0, 5.0)).collect())
        .collect();
    let diff = largest_difference(&moved, &after);
    assert!(diff < 1e-4, "off by {diff}");
}

#[test]
fn shift_without_a_model_picks_bones_from_the_motion_and_below_zero_names_clip() {
    let (tmp, _) = example_dir();
    let d = tmp.path();
    // The example keys センター, not 全ての親: a move goes through センター...
    let (code, stderr) = run(d, &["shift", "example.vmd", "m.vmd", "--offset", "1,2,3"]);
    assert_eq!(code, 0, "{stderr}");
    let before = vmdkit::example::example_motion();
    let after = Motion::read_file(d.join("m.vmd")).unwrap();
    for (a, b) in before.bones.iter().zip(&after.bones) {
        let centre = a.name.bytes() == vmdkit::KeyName::encode("センター").0.bytes();
        let want = if centre { a.translation + Vec3::new(1.0, 2.0, 3.0) } else { a.translation };
        assert_eq!(b.translation, want);
        assert_eq!(a.interpolation, b.interpolation);
    }
    // ... and a turn needs the model's rest positions.
    let (code, stderr) = run(d, &["shift", "example.vmd", "t.vmd", "--rotate", "30"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("give --model MODEL"), "{stderr}");
    // A motion keying 全ての親 is turned through it, the camera too when asked.
    let (code, stderr) = run(d, &["shift", "m.vmd", "p.vmd", "--rotate", "1", "--offset", "0,0,0"]);
    assert_eq!(code, 2, "{stderr}");
    let mut rooted = before.clone();
    rooted.bones.push(vmdkit::BoneKey::new(vmdkit::KeyName::encode("全ての親").0, 0));
    std::fs::write(d.join("rooted.vmd"), rooted.to_bytes()).unwrap();
    let (code, stderr) = run(d, &["shift", "rooted.vmd", "r.vmd", "--rotate", "90", "--camera"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("through 全ての親 (1 bone keys rewritten, 0 added, 2 camera keys)"),
        "{stderr}"
    );
    let r = Motion::read_file(d.join("r.vmd")).unwrap();
    let turned = r.cameras[1].rotation.y - before.cameras[1].rotation.y;
    assert!((turned - 90f32.to_radians()).abs() < 1e-5, "{turned}");
    let root =
        r.bones.iter().find(|k| k.name == rooted.bones[rooted.bones.len() - 1].name).unwrap();
    let panel = vmdkit::angles::quat_to_mmd_euler_deg(root.rotation);
    assert!((panel - Vec3::new(0.0, 90.0, 0.0)).length() < 1e-3, "{panel}");
    let (code, stderr) = run(d, &["shift", "rooted.vmd", "r.vmd", "--rotate", "0,20", "--camera"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("the camera can only be turned by a yaw"), "{stderr}");
    // Below frame 0: the message says how to get there.
    let (code, stderr) = run(d, &["shift", "example.vmd", "e.vmd", "--frames", "-120"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("before frame 0; add --clip"), "{stderr}");
    let (code, stderr) = run(d, &["shift", "example.vmd", "e.vmd", "--frames", "-20", "--clip"]);
    assert_eq!(code, 0, "{stderr}");
    // --clip with a shift to later frames would do nothing: refused.
    let (code, stderr) = run(d, &["shift", "example.vmd", "e.vmd", "--frames", "20", "--clip"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--frames 20 moves nothing there"), "{stderr}");
    // Nothing asked: a usage error.
    assert_eq!(run(d, &["shift", "example.vmd", "e.vmd"]).0, 2);
}

#[test]
fn bake_with_a_model_names_both_bakes_for_an_unknown_extension() {
    let (tmp, _) = example_dir();
    let (code, stderr) =
        run(tmp.path(), &["bake", "example.vmd", "--model", "m.pmx", "-o", "x.txt"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(".vmd (IK baked into keys), or .npz, .csv or .json"), "{stderr}");
}
