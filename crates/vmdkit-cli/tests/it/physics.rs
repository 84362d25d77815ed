//! `--physics`, run as a user would, on the corpus's Miku (45 rigid bodies, 27 joints) and its
//! short test dance: `bake --physics` writes a VMD whose physics bones moved and whose other
//! tracks are the original's; `convert`, `render`, `view` and `pose` run with it and give other
//! outputs than without it; the flags without a model, or on a model without bodies, are
//! refused or warned about.

use crate::common::{assert_no_panic, stderr, vmdkit};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use vmdkit::model::{Model, RigidMode};
use vmdkit::{BoneKey, Motion};

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const DANCE: &str = "MMD-Blender__blender_mmd_tools/samples__vmd__test.vmd";
const NO_BODIES: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";

/// The corpus folder, or `None` after a notice when it is missing outside CI.
fn corpus(test: &str) -> Option<PathBuf> {
    test_corpus::corpus_or_skip(test).map(|m| m.dir)
}

/// Runs `vmdkit ARGS` and asserts success; gives stderr.
fn ok(args: &[&std::ffi::OsStr]) -> String {
    let output = vmdkit().args(args).output().unwrap();
    assert_no_panic(&output);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stderr(&output)
}

/// Bone keys by track name (names as decoded for messages).
fn tracks(motion: &Motion) -> BTreeMap<String, Vec<BoneKey>> {
    let mut out: BTreeMap<String, Vec<BoneKey>> = BTreeMap::new();
    for key in &motion.bones {
        out.entry(key.name.to_string_lossy()).or_default().push(*key);
    }
    out
}

/// The names of the bones a simulated body of `model` moves, and of the links of IK chains over
/// them (which the bake keys too, switching the chains off).
fn physics_bone_names(model: &Model) -> HashSet<String> {
    let mut names: HashSet<String> = (model.rigid_bodies.iter())
        .filter(|b| b.mode != RigidMode::FollowBone)
        .filter_map(|b| b.bone.map(|i| model.bones[i].name.clone()))
        .collect();
    for bone in &model.bones {
        if let Some(ik) = &bone.ik {
            if ik.links.iter().any(|l| names.contains(&model.bones[l.bone].name)) {
                let links: Vec<String> =
                    ik.links.iter().map(|l| model.bones[l.bone].name.clone()).collect();
                names.extend(links);
            }
        }
    }
    names
}

#[test]
fn physics_bake_writes_a_vmd_whose_physics_bones_moved_and_the_rest_unchanged() {
    let Some(dir) = corpus("cli physics bake") else { return };
    let (model_path, dance) = (dir.join(MIKU), dir.join(DANCE));
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("baked.vmd");
    let err = ok(&[
        "bake".as_ref(),
        dance.as_os_str(),
        "--model".as_ref(),
        model_path.as_os_str(),
        "--physics".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(err.contains("physics: 45 bodies, 27 joints, 25 frames"), "{err}");
    assert!(err.contains("largest joint error"), "{err}");

    let model = Model::read_file(&model_path).unwrap();
    let physics = physics_bone_names(&model);
    let (original, baked) = (Motion::read_file(&dance).unwrap(), Motion::read_file(&out).unwrap());
    let (before, after) = (tracks(&original), tracks(&baked));
    let mut moved = 0;
    for (name, keys) in &after {
        if physics.contains(name) {
            // A key at every frame 0..=24 (the dance's last key is at 24).
            let frames: Vec<u32> = keys.iter().map(|k| k.frame).collect();
            assert_eq!(frames, (0..=24).collect::<Vec<_>>(), "{name}");
            moved += keys.iter().any(|k| k.rotation.w.abs() < 0.9999) as usize;
        } else {
            assert_eq!(before.get(name), Some(keys), "{name} is kept as it was");
        }
    }
    assert!(before.keys().all(|n| physics.contains(n) || after.contains_key(n)));
    assert!(moved >= 10, "{moved} physics bones turned");
    assert_eq!(original.morphs, baked.morphs);
}

/// Runs `vmdkit ARGS…` once without and once with `--physics`, writing `out` each time (or
/// capturing stdout when `out` is `None`), and gives both outputs.
fn with_and_without(args: &[&std::ffi::OsStr], out: Option<&Path>) -> (Vec<u8>, Vec<u8>) {
    let run = |physics: bool| {
        let mut command = vmdkit();
        command.args(args);
        if physics {
            command.arg("--physics");
        }
        let output = command.output().unwrap();
        assert_no_panic(&output);
        assert!(output.status.success(), "{args:?} {physics}: {}", stderr(&output));
        if physics {
            assert!(stderr(&output).contains("physics: 45 bodies"), "{}", stderr(&output));
        }
        match out {
            Some(path) => std::fs::read(path).unwrap(),
            None => output.stdout,
        }
    };
    (run(false), run(true))
}

#[test]
fn physics_convert_render_view_and_pose_run_and_differ_from_without() {
    let Some(dir) = corpus("cli physics outputs") else { return };
    let (model, dance) = (dir.join(MIKU), dir.join(DANCE));
    let tmp = tempfile::tempdir().unwrap();
    let (m, d) = (model.as_os_str(), dance.as_os_str());
    for name in ["a.glb", "a.bvh"] {
        let out = tmp.path().join(name);
        let o = out.as_os_str();
        let args = ["convert".as_ref(), d, "-o".as_ref(), o, "--model".as_ref(), m, "-q".as_ref()];
        let (without, with) = with_and_without(&args, Some(&out));
        assert_ne!(without, with, "{name}");
    }
    let png = tmp.path().join("a.png");
    let args = [
        "render".as_ref(),
        d,
        "--model".as_ref(),
        m,
        "--frame".as_ref(),
        "20".as_ref(),
        "--bones".as_ref(),
        "visible".as_ref(),
        "-o".as_ref(),
        png.as_os_str(),
    ];
    let (without, with) = with_and_without(&args, Some(&png));
    assert_ne!(without, with, "render");
    let html = tmp.path().join("a.html");
    let args = ["view".as_ref(), d, "--model".as_ref(), m, "-o".as_ref(), html.as_os_str()];
    let (without, with) = with_and_without(&args, Some(&html));
    assert_ne!(without, with, "view");
    let args = ["pose".as_ref(), d, "--model".as_ref(), m, "--frame".as_ref(), "20".as_ref()];
    let (without, with) = with_and_without(&args, None);
    let (without, with) = (String::from_utf8(without).unwrap(), String::from_utf8(with).unwrap());
    let hair = |table: &str| {
        table.lines().find(|l| l.ends_with("左髪６")).map(str::to_string).expect("a hair bone")
    };
    assert_ne!(hair(&without), hair(&with), "pose");
}

#[test]
fn physics_without_a_model_is_refused_and_a_model_without_bodies_is_warned_about() {
    let Some(dir) = corpus("cli physics errors") else { return };
    let dance = dir.join(DANCE);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x.vmd");
    for (args, name) in [
        (vec!["bake", "--physics", "-o"], "x.vmd"),
        (vec!["render", "--physics", "--frame", "1", "-o"], "x.png"),
        (vec!["convert", "--physics", "-o"], "x.json"),
    ] {
        let out = tmp.path().join(name);
        let (head, flag) = args.split_at(1);
        let output = vmdkit().args(head).arg(&dance).args(flag).arg(&out).output().unwrap();
        assert_no_panic(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("--physics"), "{}", stderr(&output));
        assert!(!out.exists());
    }
    let no_bodies = dir.join(NO_BODIES);
    let err = ok(&[
        "bake".as_ref(),
        dance.as_os_str(),
        "--model".as_ref(),
        no_bodies.as_os_str(),
        "--physics".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(err.contains("has no rigid bodies"), "{err}");
    let (original, written) =
        (Motion::read_file(&dance).unwrap(), Motion::read_file(&out).unwrap());
    assert_eq!(original.bones, written.bones);
    // Bad settings are usage errors.
    let output = vmdkit()
        .arg("bake")
        .arg(&dance)
        .args(["--model"])
        .arg(dir.join(MIKU))
        .args(["--physics", "--physics-step", "1", "-o"])
        .arg(tmp.path().join("y.vmd"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}
