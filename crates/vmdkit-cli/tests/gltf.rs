//! `vmdkit convert … OUT.glb`: every file these tests write passes the Khronos glTF-Validator
//! with no errors and no warnings, and an independent reader (`@gltf-transform/core`,
//! tools/js/readback.mjs) computes the same world positions and morph weights from the file
//! as vmdkit's posing. Both run under node from tools/js (installed by scripts/js-tests.sh);
//! without them these tests fail under CI and are skipped, with a notice, elsewhere.

mod common;

use common::{assert_no_panic, vmdkit};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use test_corpus::{corpus_dir, corpus_or_skip};
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Axes, Binding, Pose, Poser, Skeleton, METRES_PER_UNIT};
use vmdkit::Motion;

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const TRACE: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
const TEXTURED: &str = "miu200521358__mmd_base/tests__resources__曲げ柱tex.pmx";
const DANCE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
/// A camera motion with cuts (keys one frame apart).
const CUT_CAMERA: &str = "hashi4__vmdgadgets/sample__lookat__sm33590155__sm33590155_camera.vmd";
const CAMERA: &str =
    "olyutorskii__Vmd2XML/src__test__resources__testdata__vmd110820__camera__camera.vmd";

/// A 1×1 RGBA PNG.
const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 156, 99, 248, 223, 224, 240, 31, 0,
    7, 0, 2, 191, 43, 215, 199, 226, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// tools/js, when node and its installed packages are there; `None` (after a notice) when not,
/// outside CI. Panics under CI, where they must be present.
fn js_tools(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/js");
    let node = Command::new("node").arg("--version").output();
    let problem = match node {
        Err(e) => Some(format!("node cannot be run: {e}")),
        Ok(_) if !dir.join("node_modules/gltf-validator").is_dir() => {
            Some("tools/js/node_modules is not installed (scripts/js-tests.sh)".to_string())
        }
        Ok(_) => None,
    };
    match problem {
        None => Some(dir),
        Some(p) if std::env::var_os("CI").is_some() => panic!("{test}: required under CI: {p}"),
        Some(p) => {
            eprintln!("skipping {test}: {p}");
            None
        }
    }
}

fn node(tools: &Path, script: &str, args: &[&OsStr]) -> std::process::Output {
    Command::new("node").arg(tools.join(script)).args(args).output().expect("node runs")
}

/// Runs `vmdkit convert ARGS`, asserting success; gives stderr.
fn convert(args: &[&OsStr]) -> String {
    let output = vmdkit().arg("convert").args(args).output().unwrap();
    assert_no_panic(&output);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    stderr
}

/// Asserts the validator finds no errors and no warnings in any of `files`.
fn assert_valid(tools: &Path, files: &[PathBuf]) {
    let args: Vec<&OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    let output = node(tools, "validate.mjs", &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let reports: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(reports.len(), files.len(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    for report in &reports {
        assert_eq!(report["errors"], 0, "{report}");
        assert_eq!(report["warnings"], 0, "{report}");
    }
    assert!(output.status.success());
}

#[test]
fn every_glb_passes_the_khronos_validator() {
    let Some(_) = corpus_or_skip("every_glb_passes_the_khronos_validator") else { return };
    let Some(tools) = js_tools("every_glb_passes_the_khronos_validator") else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name);
    let mut files = Vec::new();
    let mut run = |name: &str, args: &[&OsStr]| {
        let path = out(name);
        let mut all = args.to_vec();
        all.insert(1, path.as_os_str());
        let stderr = convert(&all);
        files.push(path);
        stderr
    };
    let (dance, camera) = (corpus.join(DANCE), corpus.join(CAMERA));
    let model_flag = OsStr::new("--model");
    // A dance with morphs and a camera on the standard model; on the semi-standard one alone
    // and as a skeleton; on a PMD.
    run(
        "miku.glb",
        &[
            dance.as_os_str(),
            model_flag,
            corpus.join(MIKU).as_os_str(),
            OsStr::new("--camera"),
            camera.as_os_str(),
        ],
    );
    run("trace.glb", &[dance.as_os_str(), model_flag, corpus.join(TRACE).as_os_str()]);
    run(
        "trace-bones.glb",
        &[
            dance.as_os_str(),
            model_flag,
            corpus.join(TRACE).as_os_str(),
            OsStr::new("--skeleton-only"),
        ],
    );
    let stderr = run("mei.glb", &[dance.as_os_str(), model_flag, corpus.join(MEI).as_os_str()]);
    assert!(stderr.contains("texture") && stderr.contains("left out"), "{stderr}");
    // The dance was made for 初音ミク: some of its facial tracks name nothing Mei has.
    assert!(stderr.contains("vmd__wavefile_v2.vmd: 20 morph tracks name no morph"), "{stderr}");
    // Every corpus model in its rest pose.
    let mut models = 0;
    for entry in std::fs::read_dir(&corpus).unwrap().flatten() {
        for file in std::fs::read_dir(entry.path()).into_iter().flatten().flatten() {
            let path = file.path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
            if !matches!(ext.as_str(), "pmx" | "pmd") || Model::read_file(&path).is_err() {
                continue;
            }
            models += 1;
            run(&format!("rest-{models}.glb"), &[path.as_os_str()]);
        }
    }
    assert!(models >= 10, "{models} corpus models");
    assert!(glb_json(&out("trace-bones.glb")).get("meshes").is_none());
    assert_valid(&tools, &files);
}

#[test]
fn the_camera_node_follows_mmd_s_camera_and_keeps_its_cuts() {
    let test = "the_camera_node_follows_mmd_s_camera";
    let Some(_) = corpus_or_skip(test) else { return };
    let Some(tools) = js_tools(test) else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("camera.glb");
    let camera = corpus.join(CUT_CAMERA);
    let model = corpus.join(TRACE);
    convert(&[
        model.as_os_str(),
        glb.as_os_str(),
        OsStr::new("--skeleton-only"),
        OsStr::new("--camera"),
        camera.as_os_str(),
    ]);
    let motion = Motion::read_file(&camera).unwrap();
    let sampler = MotionSampler::new(&motion);
    let track = sampler.camera_track().unwrap();
    // Every frame, and the last f32 time before the later key of each cut, where the earlier
    // key holds: (seconds as the file stores them, frame whose camera is expected there).
    let seconds = |f: u32| f64::from(f) / 30.0;
    let mut queries: Vec<(f64, f64)> = (0..=sampler.last_frame().unwrap())
        .map(|f| (f64::from(seconds(f) as f32), f64::from(f)))
        .collect();
    let cuts: Vec<(f64, f64)> = (0..track.frames().len())
        .filter(|&i| track.is_cut(i))
        .map(|i| {
            let later = seconds(track.frames()[i + 1]) as f32;
            (f64::from(later.next_down()), f64::from(track.frames()[i]))
        })
        .collect();
    assert!(!cuts.is_empty(), "the camera motion has cuts");
    queries.extend(&cuts);
    let times: Vec<String> = queries.iter().map(|q| q.0.to_string()).collect();
    let mut args: Vec<&OsStr> = vec![glb.as_os_str()];
    args.extend(times.iter().map(OsStr::new));
    let output = node(&tools, "readback.mjs", &args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let read: Value = serde_json::from_slice(&output.stdout).unwrap();
    let node = read["nodes"].as_array().unwrap().iter().position(|n| n == "camera").unwrap();
    let mut worst = (0f64, 0f64);
    for (k, &(_, frame)) in queries.iter().enumerate() {
        let view = sampler.sample_camera(frame).unwrap().view();
        let eye = Axes::RightHandedYUp.position(view.eye).as_dvec3() * METRES_PER_UNIT;
        let forward = Axes::RightHandedYUp.position(view.forward).as_dvec3();
        let got = &read["positions"][k][node];
        let q = &read["rotations"][k][node];
        let q = glam::DQuat::from_xyzw(
            q[0].as_f64().unwrap(),
            q[1].as_f64().unwrap(),
            q[2].as_f64().unwrap(),
            q[3].as_f64().unwrap(),
        );
        let looking = q * glam::DVec3::NEG_Z;
        for axis in 0..3 {
            worst.0 = worst.0.max((got[axis].as_f64().unwrap() - eye[axis]).abs());
        }
        let angle = looking.angle_between(forward).to_degrees();
        if angle > 0.01 && std::env::var_os("GLTF_DEBUG").is_some() {
            eprintln!("frame {frame}: {angle}° {got} vs {eye}");
        }
        worst.1 = worst.1.max(angle);
    }
    eprintln!("camera: largest eye difference {:.2e} m, direction {:.2e}°", worst.0, worst.1);
    assert!(worst.0 < 1e-4 && worst.1 < 0.01, "{worst:?}");
    assert_valid(&tools, &[glb]);
}

#[test]
fn textures_are_referenced_or_embedded_and_pass_the_validator() {
    let Some(_) = corpus_or_skip("textures_are_referenced_or_embedded") else { return };
    let Some(tools) = js_tools("textures_are_referenced_or_embedded") else { return };
    // The model names grid.png beside it; the output goes to another folder.
    let dir = tempfile::tempdir().unwrap();
    let model_dir = dir.path().join("模型 dir");
    let out_dir = dir.path().join("out");
    std::fs::create_dir_all(&model_dir).unwrap();
    std::fs::create_dir_all(&out_dir).unwrap();
    let model = model_dir.join("tex.pmx");
    std::fs::copy(corpus_dir().join(TEXTURED), &model).unwrap();

    let missing = out_dir.join("missing.glb");
    let stderr = convert(&[model.as_os_str(), missing.as_os_str()]);
    assert!(stderr.contains("texture grid.png left out"), "{stderr}");

    std::fs::write(model_dir.join("grid.png"), PNG).unwrap();
    let referenced = out_dir.join("referenced.glb");
    let stderr = convert(&[model.as_os_str(), referenced.as_os_str()]);
    assert!(!stderr.contains("left out"), "{stderr}");
    let json = glb_json(&referenced);
    assert_eq!(json["images"][0]["uri"], "../%E6%A8%A1%E5%9E%8B%20dir/grid.png");

    let embedded = out_dir.join("embedded.glb");
    convert(&[model.as_os_str(), embedded.as_os_str(), OsStr::new("--embed-textures")]);
    let json = glb_json(&embedded);
    assert_eq!(json["images"][0]["mimeType"], "image/png");
    assert!(json["images"][0].get("uri").is_none());
    assert_valid(&tools, &[missing, referenced, embedded]);

    // Not PNG or JPEG: reported, left out, still valid.
    std::fs::write(model_dir.join("grid.png"), b"BM not really a bitmap").unwrap();
    let other = out_dir.join("other.glb");
    let stderr = convert(&[model.as_os_str(), other.as_os_str(), OsStr::new("--embed-textures")]);
    assert!(stderr.contains("not a PNG or JPEG"), "{stderr}");
    assert!(glb_json(&other).get("images").is_none());
    assert_valid(&tools, &[other]);
}

/// The JSON chunk of a GLB.
fn glb_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

#[test]
fn an_independent_reader_sees_vmdkit_s_pose_and_morph_weights() {
    let Some(_) = corpus_or_skip("an_independent_reader_sees_vmdkit_s_pose") else { return };
    let Some(tools) = js_tools("an_independent_reader_sees_vmdkit_s_pose") else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    for model_name in [MIKU, TRACE, MEI] {
        let model_path = corpus.join(model_name);
        let glb = dir.path().join("out.glb");
        convert(&[
            corpus.join(DANCE).as_os_str(),
            glb.as_os_str(),
            OsStr::new("--model"),
            model_path.as_os_str(),
        ]);
        let frames = [0u32, 1, 100, 731, 1500, 2809];
        let times: Vec<String> =
            frames.iter().map(|f| (f64::from(*f) / 30.0).to_string()).collect();
        let mut args: Vec<&OsStr> = vec![glb.as_os_str()];
        args.extend(times.iter().map(OsStr::new));
        let output = node(&tools, "readback.mjs", &args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let read: Value = serde_json::from_slice(&output.stdout).unwrap();

        let model = Model::read_file(&model_path).unwrap();
        let motion = Motion::read_file(corpus.join(DANCE)).unwrap();
        let skeleton = Skeleton::new(&model);
        let sampler = MotionSampler::new(&motion);
        let binding = Binding::new(&skeleton, &sampler);
        let mut poser = Poser::new(&skeleton, &sampler, &binding);
        let mut pose = Pose::new(&skeleton);
        let joints: Vec<usize> = read["joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(joints.len(), model.bones.len(), "{model_name}: one joint per bone");
        let mut worst = 0f64;
        for (k, &frame) in frames.iter().enumerate() {
            poser.pose_at(frame, &mut pose);
            for (bone, &node) in joints.iter().enumerate() {
                let expected =
                    Axes::RightHandedYUp.position(pose.position(bone)).as_dvec3() * METRES_PER_UNIT;
                let got = &read["positions"][k][node];
                for axis in 0..3 {
                    let d = (got[axis].as_f64().unwrap() - expected[axis]).abs();
                    worst = worst.max(d);
                }
            }
        }
        eprintln!("{model_name}: largest world-position difference {worst:.2e} m");
        assert!(worst < 1e-4, "{model_name}: {worst} m");

        // Morph weights: each target's, from the motion's key of the same name.
        let targets = read["targets"].as_u64().unwrap() as usize;
        if model_name == MIKU {
            assert!(targets > 0);
            let mesh = vmdkit::model::Mesh::read_file(&model_path).unwrap();
            let mut checked = 0;
            for (t, morph) in mesh.vertex_morphs.iter().enumerate() {
                let Some(track) = sampler.morph_track(morph.name_cp932.bytes()) else { continue };
                for (k, &frame) in frames.iter().enumerate() {
                    let expected = f64::from(track.sample(frame));
                    let got = read["weights"][k][t].as_f64().unwrap();
                    assert!(
                        (got - expected).abs() < 1e-6,
                        "{} at {frame}: {got} vs {expected}",
                        morph.name
                    );
                    checked += 1;
                }
            }
            assert!(checked > 0, "some morph keys bind");
        }
    }
}

#[test]
fn glb_errors_are_clear_and_leave_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let (_, motion) = common::example_dir();
    let out = dir.path().join("out.glb");
    let run = |args: &[&OsStr]| {
        let output = vmdkit().arg("convert").args(args).output().unwrap();
        assert_no_panic(&output);
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (code, stderr) = run(&[motion.as_os_str(), out.as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("needs --model"), "{stderr}");
    let (code, stderr) = run(&[motion.as_os_str(), OsStr::new("-")]);
    assert_eq!(code, Some(2), "{stderr}");
    let model = common::write(dir.path(), "m.pmx", b"PMX ");
    let (code, stderr) =
        run(&[model.as_os_str(), out.as_os_str(), OsStr::new("--model"), model.as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("IN is a model already"), "{stderr}");
    let not_a_model = common::write(dir.path(), "bad.pmx", b"PMX \x00\x00");
    let (code, stderr) =
        run(&[motion.as_os_str(), out.as_os_str(), OsStr::new("--model"), not_a_model.as_os_str()]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("bad.pmx"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_too_large_animation_is_refused_before_sampling() {
    let Some(_) = corpus_or_skip("a_too_large_animation_is_refused") else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.glb");
    let output = vmdkit()
        .arg("convert")
        .args([corpus.join(DANCE).as_os_str(), out.as_os_str(), OsStr::new("--model")])
        .arg(corpus.join(TRACE))
        .args(["--max-output-size", "1M"])
        .output()
        .unwrap();
    assert_no_panic(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("--max-output-size"), "{stderr}");
    assert!(!out.exists());
}

/// The Chromium the browser test drives: `$CHROMIUM`, else /usr/bin/chromium.
fn chromium(test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if path.exists() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test}: Chromium is required under CI: {} is missing", path.display());
    }
    eprintln!("skipping {test}: no Chromium at {} (set CHROMIUM)", path.display());
    None
}

#[test]
fn three_js_loads_and_plays_the_glb_in_a_headless_browser() {
    let test = "three_js_loads_and_plays_the_glb";
    let Some(_) = corpus_or_skip(test) else { return };
    let Some(tools) = js_tools(test) else { return };
    let Some(browser) = chromium(test) else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("miku.glb");
    let model_path = corpus.join(MIKU);
    convert(&[
        corpus.join(DANCE).as_os_str(),
        glb.as_os_str(),
        OsStr::new("--model"),
        model_path.as_os_str(),
    ]);
    let frames = [0u32, 100, 1500];
    let times: Vec<String> = frames.iter().map(|f| (f64::from(*f) / 30.0).to_string()).collect();
    let output = Command::new("node")
        .arg(tools.join("browser.mjs"))
        .arg(&glb)
        .args(&times)
        .env("CHROMIUM", &browser)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let page: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(page["errors"].as_array().unwrap().len(), 0, "{}", page["errors"]);
    assert!(output.status.success());

    let model = Model::read_file(&model_path).unwrap();
    let bones = model.bones.len();
    assert_eq!(page["clips"], 1);
    assert_eq!(page["bones"], bones);
    // three.js makes one mesh per primitive, and gives each its own weights track.
    let primitives = glb_json(&glb)["meshes"][0]["primitives"].as_array().unwrap().len();
    assert_eq!(page["skinnedMeshes"], primitives);
    assert_eq!(
        page["tracks"],
        2 * bones + primitives,
        "translation and rotation per bone, weights"
    );
    assert!(page["morphTargets"].as_u64().unwrap() > 0);
    let motion = Motion::read_file(corpus.join(DANCE)).unwrap();
    let sampler = MotionSampler::new(&motion);
    let last = sampler.last_frame().unwrap();
    assert!((page["duration"].as_f64().unwrap() - f64::from(last) / 30.0).abs() < 1e-4);
    // three.js's mixer puts every bone where vmdkit's pose has it.
    let skeleton = Skeleton::new(&model);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::new(&skeleton, &sampler, &binding);
    let mut pose = Pose::new(&skeleton);
    let mut worst = 0f64;
    for (k, &frame) in frames.iter().enumerate() {
        poser.pose_at(frame, &mut pose);
        for bone in 0..bones {
            let expected =
                Axes::RightHandedYUp.position(pose.position(bone)).as_dvec3() * METRES_PER_UNIT;
            for axis in 0..3 {
                let got = page["positions"][k][bone][axis].as_f64().unwrap();
                worst = worst.max((got - expected[axis]).abs());
            }
        }
    }
    eprintln!(
        "three.js: largest world-position difference {worst:.2e} m (rendered: {})",
        page["rendered"]
    );
    assert!(worst < 1e-4, "{worst} m");
}
