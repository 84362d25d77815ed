//! `vmdkit convert MOTION OUT.bvh --model MODEL` and `vmdkit retarget IN.bvh`: what the files
//! hold, BVH motion capture of ../shared/pose onto a corpus model, a mapping file, and the
//! errors (missing model, missing bones, damaged BVH, flags for another output).

use crate::common;

use common::{assert_no_panic, example_dir, vmdkit};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::PathBuf;
use test_corpus::{corpus_or_skip, pose_file_or_skip};
use vmdkit::bvh::{Bvh, JointKind};
use vmdkit::Motion;

const TRACE_MODEL: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
const CMU: &str = "yuki-koyama__bvh11__131_01.bvh";
const WALK: &str = "OlafHaag__bvh-toolbox__walk01.bvh";

fn run(args: &[&OsStr]) -> std::process::Output {
    let output = vmdkit().args(args).output().unwrap();
    assert_no_panic(&output);
    output
}

fn run_ok(args: &[&OsStr]) -> (String, String) {
    let output = run(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    (String::from_utf8(output.stdout).unwrap(), stderr)
}

fn run_err(args: &[&OsStr], status: i32) -> String {
    let output = run(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(status), "{args:?}: {stderr}");
    stderr
}

macro_rules! args {
    ($($a:expr),* $(,)?) => { &[$(OsStr::new(&$a)),*] };
}

fn trace_model(test: &str) -> Option<PathBuf> {
    let manifest = corpus_or_skip(test)?;
    Some(manifest.dir.join(TRACE_MODEL))
}

fn read(path: &std::path::Path) -> Bvh {
    Bvh::read_file(path).unwrap()
}

#[test]
fn a_motion_becomes_a_bvh_of_the_models_bones() {
    let (dir, example) = example_dir();
    let Some(model) = trace_model("cli bvh export") else { return };
    let out = dir.path().join("example.bvh");
    run_ok(args!["convert", example, out, "--model", model]);
    let bvh = read(&out);
    let skeleton =
        vmdkit::skeleton::Skeleton::new(&vmdkit::model::Model::read_file(&model).unwrap());
    let joints: Vec<&str> = bvh
        .joints
        .iter()
        .filter(|j| j.kind != JointKind::EndSite)
        .map(|j| j.name.as_str())
        .collect();
    // The model has several parentless bones: one shared root above them, then every bone.
    assert_eq!(joints.len(), skeleton.bone_count() + 1);
    assert_eq!(joints[0], "Root");
    for name in ["センター", "上半身", "左ひじ", "右足ＩＫ"] {
        assert!(joints.contains(&name), "{name}: {joints:?}");
    }
    let root = &bvh.joints[0];
    assert_eq!(root.kind, JointKind::Root);
    assert_eq!(root.channels.len(), 6);
    assert_eq!(bvh.joints.iter().filter(|j| j.kind == JointKind::Root).count(), 1);
    assert!(bvh.frame(30)[..6].iter().all(|v| *v == 0.0), "the shared root stays put");
    let centre = &bvh.joints[bvh.joint_index("センター").unwrap()];
    assert_eq!(centre.channels.len(), 6);
    let elbow = &bvh.joints[bvh.joint_index("左ひじ").unwrap()];
    assert_eq!(elbow.channels.len(), 3);
    let names: Vec<&str> = elbow.channels.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["Zrotation", "Xrotation", "Yrotation"]);
    // The example's last key is at frame 60: 61 frames at 30 fps.
    assert_eq!(bvh.frame_count, 61);
    assert_eq!(bvh.fps(), 30.0);
    // Offsets are the rest pose, Z mirrored: the left elbow sits at +X.
    let rest = |b: &Bvh, name: &str| {
        let mut j = b.joint_index(name);
        let mut at = glam::DVec3::ZERO;
        while let Some(i) = j {
            at += b.joints[i].offset;
            j = b.joints[i].parent;
        }
        at
    };
    assert!(rest(&bvh, "左ひじ").x > 1.0, "{}", rest(&bvh, "左ひじ"));
    // 右つま先 is in front of 右足首: −Z in MMD, so +Z here.
    assert!(rest(&bvh, "右つま先").z > rest(&bvh, "右足首").z);

    // Rate, units, order, names and bones as asked.
    let out2 = dir.path().join("metres.bvh");
    run_ok(args![
        "convert",
        example,
        out2,
        "--model",
        model,
        "--fps",
        "60",
        "--metres",
        "--order",
        "zyx",
        "--english-names",
        "--deform-only"
    ]);
    let other = read(&out2);
    assert_eq!(other.frame_count, 121);
    assert_eq!(other.fps(), 60.0);
    assert!(other.joint_index("センター").is_none(), "English names");
    assert!(other.joints.iter().all(|j| !j.name.contains("ＩＫ")), "IK bones left out");
    let joint = other.joints.iter().find(|j| j.kind == JointKind::Joint).unwrap();
    let names: Vec<&str> = joint.channels.iter().map(|c| c.name()).collect();
    assert_eq!(&names[names.len() - 3..], ["Zrotation", "Yrotation", "Xrotation"]);
    // The skeleton's height, in metres at 0.08 m per unit.
    let top = |b: &Bvh| b.joints.iter().map(|j| rest(b, &j.name).y).fold(0.0, f64::max);
    assert!((top(&other) - top(&bvh) * 0.08).abs() < 1e-5, "{} {}", top(&other), top(&bvh));
}

#[test]
fn bvh_export_errors() {
    let (dir, example) = example_dir();
    let out = dir.path().join("x.bvh");
    let stderr = run_err(args!["convert", example, out], 2);
    assert!(stderr.contains("--model"), "{stderr}");
    let json = dir.path().join("x.json");
    let stderr = run_err(args!["convert", example, json, "--metres"], 2);
    assert!(stderr.contains("--metres is for a .bvh output"), "{stderr}");
    assert!(!json.exists());
    let missing = dir.path().join("nosuch.pmx");
    let stderr = run_err(args!["convert", example, out, "--model", missing], 1);
    assert!(stderr.contains("nosuch.pmx"), "{stderr}");
    let Some(model) = trace_model("cli bvh export errors") else { return };
    let stderr = run_err(args!["convert", dir.path().join("nosuch.vmd"), out, "--model", model], 1);
    assert!(stderr.contains("nosuch.vmd"), "{stderr}");
    let stderr = run_err(args!["convert", example, out, "--model", model, "--fps", "0"], 2);
    assert!(stderr.contains("--fps"), "{stderr}");
    assert!(!out.exists(), "no output after a failure");
    // A failure leaves an existing output as it was.
    std::fs::write(&out, b"old").unwrap();
    run_err(args!["convert", example, out, "--model", missing], 1);
    assert_eq!(std::fs::read(&out).unwrap(), b"old");
    // An output folder that does not exist.
    let stderr =
        run_err(args!["convert", example, dir.path().join("no/dir/x.bvh"), "--model", model], 1);
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert_eq!(common::listing(dir.path()), ["example.vmd", "x.bvh"]);
}

#[test]
fn cmu_capture_onto_the_trace_model() {
    let (Some(cmu), Some(model)) =
        (pose_file_or_skip("cli bvh retarget", CMU), trace_model("cli bvh retarget"))
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cmu.vmd");
    let (stdout, _) = run_ok(args!["retarget", cmu, "-o", out, "--model", model, "--json"]);
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    // 994 frames at 120 fps: 8.275 s, 249 frames at 30 fps.
    assert_eq!(r["frames"], 249, "{r}");
    assert!(r["mean_direction_degrees"].as_f64().unwrap() < 2.0, "{r}");
    assert!(r["penetration"].as_f64().unwrap() < 1e-9, "{r}");
    let motion = Motion::read_file(&out).unwrap();
    let keyed: std::collections::HashSet<String> =
        motion.bones.iter().map(|k| k.name.to_string_lossy()).collect();
    for bone in ["センター", "上半身", "左ひざ", "右ひじ", "左足ＩＫ"] {
        assert!(keyed.contains(bone), "{bone}: {keyed:?}");
    }
    let (_, summary) = run_ok(args!["retarget", cmu, "-o", out, "--model", model]);
    assert!(summary.contains("at 120 fps (from the frame time), layout cmu-3dsmax"), "{summary}");
}

#[test]
fn mixamo_style_names_and_a_mapping_file() {
    let (Some(walk), Some(model)) =
        (pose_file_or_skip("cli bvh mapping", WALK), trace_model("cli bvh mapping"))
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("walk.vmd");
    let (_, summary) = run_ok(args!["retarget", walk, "-o", out, "--model", model]);
    assert!(summary.contains("101 frames") && summary.contains("cmu/mixamo"), "{summary}");
    // 101 frames at 24 fps last 100/24 s: 126 frames at 30 fps.
    let motion = Motion::read_file(&out).unwrap();
    assert_eq!(motion.bones.iter().map(|k| k.frame).max(), Some(125));

    // The same joints under other names, mapped by a file; a namespace prefix is ignored.
    let text = std::fs::read_to_string(&walk).unwrap();
    let renamed = text
        .replace("UpLeg", "Thigh")
        .replace("LeftLeg", "LeftShin")
        .replace("RightLeg", "RightShin")
        .replace("JOINT ", "JOINT rig:");
    let input = common::write(dir.path(), "renamed.bvh", renamed.as_bytes());
    let stderr = run_err(args!["retarget", input, "-o", out, "--model", model], 1);
    assert!(stderr.contains("no built-in joint map") && stderr.contains("--layout"), "{stderr}");
    assert!(stderr.contains("left_hip (LeftUpLeg)"), "{stderr}");
    let map = "LeftThigh = left_hip\nRightThigh = right_hip\nLeftShin = left_knee\n\
        RightShin = right_knee\nLeftFoot = left_ankle\nRightFoot = right_ankle\n\
        LeftArm = left_shoulder\nRightArm = right_shoulder\nLeftForeArm = left_elbow\n\
        RightForeArm = right_elbow\nLeftHand = left_wrist\nRightHand = right_wrist\n\
        Neck = thorax\n";
    let mapping = common::write(dir.path(), "walk.map", map.as_bytes());
    let (_, summary) =
        run_ok(args!["retarget", input, "-o", out, "--model", model, "--layout", mapping]);
    assert!(summary.contains("layout walk (mapping file)"), "{summary}");
    // A mapping naming joints the file lacks says which.
    let bad = common::write(
        dir.path(),
        "bad.map",
        format!("{map}Tail = -\nWing = left_ear\n").as_bytes(),
    );
    let stderr = run_err(args!["retarget", input, "-o", out, "--model", model, "--layout", bad], 1);
    assert!(stderr.contains("no joint named Wing"), "{stderr}");
    let stderr = run_err(args!["retarget", input, "-o", out, "--layout", "h36m"], 2);
    assert!(stderr.contains("mapping file"), "{stderr}");
}

#[test]
fn damaged_bvh_and_models_without_the_bones() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.vmd");
    let bad = common::write(
        dir.path(),
        "bad.bvh",
        b"HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xposition Yposition Wrotation\n}\n",
    );
    let stderr = run_err(args!["retarget", bad, "-o", out], 1);
    assert!(stderr.contains("bad.bvh: line 5, column 34"), "{stderr}");
    assert!(stderr.contains("unknown channel `Wrotation`"), "{stderr}");
    let Some(walk) = pose_file_or_skip("cli bvh drone", WALK) else { return };
    let Some(manifest) = corpus_or_skip("cli bvh drone") else { return };
    let drone = manifest.dir.join("hashi4__vmdgadgets/sample__projectile__model__drone.pmx");
    let stderr = run_err(args!["retarget", walk, "-o", out, "--model", drone], 1);
    assert!(stderr.contains("has no bone named") && stderr.contains("上半身"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_written_bvh_retargets_back_onto_its_model() {
    let (dir, example) = example_dir();
    let Some(model) = trace_model("cli bvh round trip") else { return };
    let bvh = dir.path().join("example.bvh");
    run_ok(args!["convert", example, bvh, "--model", model]);
    let out = dir.path().join("back.vmd");
    let (stdout, _) = run_ok(args!["retarget", bvh, "-o", out, "--model", model, "--json"]);
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(r["frames"], 61, "{r}");
    assert!((r["scale"].as_f64().unwrap() - 1.0).abs() < 0.01, "{r}");
    assert!(r["mean_direction_degrees"].as_f64().unwrap() < 1.0, "{r}");
}

/// Issue 27: `convert … -o .bvh` printed nothing on success (bake and retarget print a
/// summary), and wrote `Frame Time: 0.0333333`, which readers turn into 30.00003 fps (Blender:
/// 30 fps with an fps base of 0.999999).
#[test]
fn bvh_export_prints_a_summary_and_an_exact_frame_time() {
    let (dir, example) = example_dir();
    let Some(model) = trace_model("cli bvh summary") else { return };
    for fps in ["30", "60", "24", "29.97"] {
        let out = dir.path().join(format!("at{fps}.bvh"));
        let args = args!["convert", example, out, "--model", model, "--fps", fps];
        let run = common::run_bounded(dir.path(), args);
        let stderr = String::from_utf8_lossy(&run.output.stderr).into_owned();
        assert!(run.output.status.success(), "{stderr}");
        let bvh = read(&out);
        let joints = bvh.joints.iter().filter(|j| j.kind != JointKind::EndSite).count();
        let bytes = std::fs::metadata(&out).unwrap().len();
        let rate: f64 = fps.parse().unwrap();
        // The example's last key is at frame 60: two seconds, less the part of a frame that
        // falls past it at 29.97 fps.
        let span = (bvh.frame_count - 1) as f64 / rate;
        let line = format!(
            "{}: {} frames at {rate} fps ({span:.3} s), {joints} joints, {}\n",
            out.display(),
            bvh.frame_count,
            vmdkit::limit::ByteSize(bytes)
        );
        assert_eq!(stderr, line);
        // The written time reads back as exactly 1 / fps, and 1 / time as the rate itself,
        // as Blender's importer works it out (fps = 1 / frame time; fps base = round / that).
        let text = std::fs::read_to_string(&out).unwrap();
        let written = text.lines().find_map(|l| l.strip_prefix("Frame Time: ")).unwrap();
        let time: f64 = written.parse().unwrap();
        assert_eq!(time, 1.0 / rate, "{written}");
        let blender_fps = 1.0 / time;
        if rate.fract() == 0.0 {
            assert_eq!(blender_fps.round() / blender_fps, 1.0, "{written}");
        }
    }
    let out = dir.path().join("quiet.bvh");
    let run =
        common::run_bounded(dir.path(), args!["convert", example, out, "--model", model, "-q"]);
    assert!(run.output.status.success());
    assert_eq!(String::from_utf8_lossy(&run.output.stderr), "", "-q prints nothing");
}

/// A bone CSV row (PmxEditor's layout): `name` at height `y` under `parent` ("" for none).
fn bone_row(name: &str, y: f32, parent: &str) -> String {
    format!("Bone,{name},,0,0,0,{y},0,1,0,0,1,1,{parent},1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578\n")
}

/// The example motion cut to its keys at frame 0: one frame to pose.
fn one_frame(dir: &std::path::Path) -> PathBuf {
    let mut motion = vmdkit::example::example_motion();
    motion.bones.retain(|k| k.frame == 0);
    motion.morphs.retain(|k| k.frame == 0);
    motion.cameras.clear();
    motion.lights.clear();
    motion.shadows.clear();
    motion.properties.retain(|k| k.frame == 0);
    let path = dir.join("one.vmd");
    motion.write_file(&path).unwrap();
    path
}

/// Issue 24: a bone whose parent comes later in the model (or closes a cycle) made the BVH
/// export index with usize::MAX; it is written under its parent, and a cycle's bone as a root
/// with the warning every command gives.
#[test]
fn bvh_export_with_a_later_parent_or_a_parent_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let motion = one_frame(d);
    let rows = [
        bone_row("a", 3.0, "c"),
        bone_row("b", 1.0, ""),
        bone_row("c", 2.0, "b"),
        bone_row("d", 1.0, "e"),
        bone_row("e", 2.0, "d"),
    ];
    common::write(d, "model.csv", format!(";Bone,x\n{}", rows.concat()).as_bytes());
    let run =
        common::run_bounded(d, &["convert", "one.vmd", "-o", "x.bvh", "--model", "model.csv"]);
    let stderr = common::stderr(&run.output);
    assert_eq!(run.output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("treated as a root"), "{stderr}");
    let bvh = read(&d.join("x.bvh"));
    let parent = |name: &str| {
        let joint = &bvh.joints[bvh.joint_index(name).unwrap()];
        joint.parent.map(|p| bvh.joints[p].name.as_str())
    };
    assert_eq!((parent("a"), parent("c")), (Some("c"), Some("b")));
    assert_eq!(bvh.joints[bvh.joint_index("a").unwrap()].offset.y, 1.0);
    // The corpus trace model with byte 854 set to 122, as the issue found it (a copy in the
    // temporary folder only).
    let Some(model) = trace_model("cli bvh later parent") else { return };
    let mut bytes = std::fs::read(model).unwrap();
    bytes[854] = 122;
    common::write(d, "p.pmx", &bytes);
    let run = common::run_bounded(d, &["convert", "one.vmd", "-o", "p.bvh", "--model", "p.pmx"]);
    assert_eq!(run.output.status.code(), Some(0), "{}", common::stderr(&run.output));
    assert_eq!(read(&d.join("p.bvh")).frame_count, 1);
    let _ = motion;
}

/// A PMX 2.0 of `bones` bones, each a unit above the last and its child: nothing else in it
/// (a bone CSV of that size costs its reader more than the export).
fn chain_pmx(bones: i32) -> Vec<u8> {
    let mut out = b"PMX ".to_vec();
    out.extend_from_slice(&2.0f32.to_le_bytes());
    // UTF-8; no extra UVs; index sizes: vertex, texture, material 1, bone 4, morph, rigid 1.
    out.extend_from_slice(&[8, 1, 0, 1, 1, 1, 4, 1, 1]);
    let text = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(&(s.len() as i32).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    for _ in 0..4 {
        text(&mut out, ""); // name, English name, comments
    }
    out.extend_from_slice(&[0; 16]); // no vertices, faces, textures or materials
    out.extend_from_slice(&bones.to_le_bytes());
    for b in 0..bones {
        text(&mut out, &format!("b{b}"));
        text(&mut out, "");
        for v in [0.0, b as f32, 0.0] {
            out.extend_from_slice(&f32::to_le_bytes(v));
        }
        out.extend_from_slice(&(b - 1).to_le_bytes()); // parent: the previous bone, or −1
        out.extend_from_slice(&0i32.to_le_bytes()); // deform layer
        out.extend_from_slice(&0x001Au16.to_le_bytes()); // rotatable, visible, operable
        out.extend_from_slice(&[0; 12]); // tail offset
    }
    out.extend_from_slice(&[0; 16]); // no morphs, display frames, rigid bodies or joints
    out
}

/// Issue 24: a tab per level of nesting made a deep chain's BVH grow with the square of its
/// depth (a 100,000-bone chain: over 20 s); indentation stops deepening, the text is linear.
#[test]
fn bvh_export_of_a_100000_bone_chain_is_linear() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    one_frame(d);
    common::write(d, "chain.pmx", &chain_pmx(100_000));
    let run =
        common::run_bounded(d, &["convert", "one.vmd", "-o", "x.bvh", "--model", "chain.pmx"]);
    assert_eq!(run.output.status.code(), Some(0), "{}", common::stderr(&run.output));
    let size = std::fs::metadata(d.join("x.bvh")).unwrap().len();
    assert!(size < 40 << 20, "{size} bytes for 100,000 joints");
}

/// Issue 24: joint-name detection compared every table name with every joint, normalising
/// both each time (300,000 joints: 13–16 s before "no joint map fits").
#[test]
fn retargeting_a_bvh_of_300000_joints_is_linear() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut text = String::from("HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 0\n");
    for j in 0..300_000 {
        text.push_str(&format!("JOINT j{j}\n{{\nOFFSET 0 1 0\n}}\n"));
    }
    text.push_str("}\nMOTION\nFrames: 0\nFrame Time: 0.0333333\n");
    common::write(d, "many.bvh", text.as_bytes());
    let run = common::run_bounded(d, &["retarget", "many.bvh", "-o", "x.vmd"]);
    let stderr = common::stderr(&run.output);
    assert_eq!(run.output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no built-in joint map"), "{stderr}");
}

/// Issue 24: a Frame Time of 1e-12 (10^12 fps) was reported as bad usage (exit 2, no file
/// named); it is the file's damage: exit 1, the file and the field named.
#[test]
fn a_bvh_frame_time_beyond_10000_fps_is_the_files_damage() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text =
        "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\n\
                MOTION\nFrames: 1\nFrame Time: 1e-12\n0 0 0\n";
    common::write(d, "fast.bvh", text.as_bytes());
    let run = common::run_bounded(d, &["retarget", "fast.bvh", "-o", "x.vmd"]);
    let stderr = common::stderr(&run.output);
    assert_eq!(run.output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("fast.bvh") && stderr.contains("Frame Time: 1e-12"), "{stderr}");
}
